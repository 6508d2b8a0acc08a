# ensemble_common.sh -- sourced by the tests of TestProgram/Ensemble: TestProgram/test_common.sh
# and the HMC input file of a short chain (4^3 x T, clover fermions, two integrator levels).
. "${HR_SRCDIR:-../..}/TestProgram/test_common.sh"
# chain_input FILE T BC_T SEED START NTRAJ SAVE_FREQ SAVE_FORMAT DIR RUN_NAME [EXTRA LINE]
chain_input() {
  cat > "$1" <<EOI
GLB_T = $2
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
bc_t = $3
csw = 1.0
seed = $4
gauge start = $5
ntraj = $6
tlen = 0.5
save freq = $7
save format = $8
conf dir = $9
run name = ${10}
monomial {
  type = gauge
  beta = 5.6
  level = 1
}
monomial {
  type = hmc
  mass = 0.1
  level = 0
}
integrator {
  level = 0
  type = omf2
  steps = 2
}
integrator {
  level = 1
  type = lf
  steps = 2
}
log:default = 10
${11}
EOI
}
