#!/bin/sh
# test_mesons.sh -- tests of Spectrum/mk_mesons (run by make check in the build folder of
# TestProgram/Inverters; HR_SRCDIR and HR_MPIRUN come from Make/common.am):
#  1. the periodic stored 8^4 configuration in HiRep and in openQCD format gives the same
#     correlators (same links), and every channel line has GLB_T values; in SU(3)
#     fundamental builds they agree to 1e-10 with mesons_reference_su3_fund.txt (written by
#     the CPU build), which makes every backend (CPU, emulated GPU, CUDA) give the same
#     correlators;
#  2. MPI builds: the process grids 2x1x1x1 and 2x2x1x1 give the single-process correlators to
#     1e-10 relative (the open-boundary configuration too, source on the inner slice t = 3);
#  3. a missing / both mass keys, an unknown key -> exit 2 with the key named on stderr;
#     a missing or corrupt configuration -> exit 3 naming the file; mes:maxiter = 5 ->
#     exit 5 with "did not converge" and no correlator printed; a negative mes:smear_kappa,
#     an unknown mes:link_smearing, a negative mes:precision, GLB_T = 5, the source on the
#     outer slice t = 0 of open boundaries, mes:source_t = GLB_T -> exit 2 with
#     "file:line: key: ..." on stderr.
#  4. smeared source and sink (Gaussian, stout-smeared links): channel lines pi_ss ... with
#     finite values, equal on every process grid to 1e-12; a smeared sink alone gives pi_ls
#     (HYP links); the cosh effective masses of pi (local) and pi_ss are printed, not asserted;
#  In builds of another theory than SU(3) the stored files are rejected (exit 3, "wrong gauge
#  group" / "SU(3) fields only"), and steps 1-4 run on an 8^4 configuration of the build's own
#  theory made by PureGauge/suN (hot start, a few heatbath steps) in HiRep format.
# Exit: 0 pass, 1 fail, 77 skip (no stored configurations).
prog=../../Spectrum/mk_mesons
confs=${HR_STORED_CONFS:-${HR_SRCDIR:-../..}/TestProgram/data}
pb_hirep=$confs/HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
pb_oqcd=$confs/openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
ob_oqcd=$confs/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_NUM_THREADS
if [ ! -x "$prog" ]; then
  echo "FAIL: $prog not built"
  exit 1
fi
if [ ! -r "$pb_hirep" ] || [ ! -r "$pb_oqcd" ] || [ ! -r "$ob_oqcd" ]; then
  echo "SKIP: stored configurations not found under $confs"
  exit 77
fi
work=mesons_test.tmp
rm -rf $work
mkdir -p $work
fail=0
note() { echo "$*"; }
bad() { echo "FAIL: $*"; fail=1; }
cfg=../../Include/hr_build_config.h
su3=0
grep -q '^#define NG 3$' $cfg && su3=1
if [ $su3 -eq 0 ]; then
  # the stored files are SU(3): they must be rejected; use a configuration of this theory
  stored_pb=$pb_hirep
  cat >$work/in_suN <<EOI
GLB_T = 8
GLB_X = 8
GLB_Y = 8
GLB_Z = 8
beta = 3.0
gauge start = hot
seed = 4711
nth = 0
nsteps = 4
nhb = 1
nor = 1
meas freq = 4
save freq = 4
conf dir = $work
run name = own
log:default = 0
EOI
  ../../PureGauge/suN -i $work/in_suN >$work/suN.out 2>&1 || bad "PureGauge/suN failed: $(cat $work/suN.out)"
  pb_hirep=$work/own_n4
  pb_oqcd=$pb_hirep
  ob_oqcd=$pb_hirep
  note "not SU(3): correlators of $pb_hirep (made by PureGauge/suN)"
fi

# input file: $1 = NP_T, $2 = NP_X, $3 = bc_t, $4 = mass line, $5 = csw, $6 = extra line
mkinput() {
  cat <<EOI
GLB_T = 8
GLB_X = 8
GLB_Y = 8
GLB_Z = 8
NP_T = $1
NP_X = $2
bc_t = $3
$4
mes:csw = $5
mes:precision = 1e-12
$6
log:default = 0
EOI
}
run() { # run NPROC ARGS...: the correlator lines on stdout, the log (head, input) in a file
  n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then
    "$HR_MPIRUN" -np "$n" --oversubscribe "$prog" -o $work/mesons.log "$@"
  else
    "$prog" -o $work/mesons.log "$@"
  fi
}
# compare FILE_A FILE_B TOL: the numbers after "C=" agree to TOL relative, element by element
# (plus 1e-14 of the largest |C| of the line for values near zero); same channels, 8 values
compare() {
  awk -v tol="$3" '
    function abs(v) { return v < 0 ? -v : v }
    NR == FNR { a[FNR] = $0; na = FNR; next }
    { nb = FNR
      n1 = split(a[FNR], x, " C= "); n2 = split($0, y, " C= ")
      sub(/^conf=[^ ]* /, "", x[1]); sub(/^conf=[^ ]* /, "", y[1])
      if (x[1] != y[1]) { print "line " FNR ": " x[1] " vs " y[1]; bad = 1; next }
      k1 = split(x[2], u, " "); k2 = split(y[2], v, " ")
      if (k1 != k2 || k1 != 8) { print "line " FNR ": " k1 " vs " k2 " values"; bad = 1; next }
      m = 0; for (i = 1; i <= k1; i++) if (abs(u[i]) > m) m = abs(u[i])
      for (i = 1; i <= k1; i++) if (abs(u[i] - v[i]) > tol * abs(u[i]) + 1e-14 * m) {
        printf "line %d (%s) t=%d: %s vs %s\n", FNR, x[1], i - 1, u[i], v[i]; bad = 1 }
    }
    END { if (na != nb || na == 0) { print "line counts " na " vs " nb; bad = 1 }; exit bad }' "$1" "$2"
}

# 1. reference on one process, both formats
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "" >$work/in_pb
mkinput 1 1 open "mes:kappa = 0.07" 1.1329 "mes:source_t = 3" >$work/in_ob
run 1 -i $work/in_pb "$pb_hirep" >$work/ref_hirep.out 2>$work/err || bad "mk_mesons failed on $pb_hirep: $(cat $work/err)"
run 1 -i $work/in_pb "$pb_oqcd" >$work/ref_oqcd.out 2>$work/err || bad "mk_mesons failed on $pb_oqcd: $(cat $work/err)"
run 1 -i $work/in_ob "$ob_oqcd" >$work/ref_ob.out 2>$work/err || bad "mk_mesons failed on $ob_oqcd: $(cat $work/err)"
[ "$(grep -c '^conf=.* channel=' $work/ref_hirep.out)" -ge 4 ] || bad "expected at least 4 channel lines"
grep -q 'channel=pi C= ' $work/ref_hirep.out || bad "no pi channel line"
compare $work/ref_hirep.out $work/ref_oqcd.out 0 || bad "HiRep and openQCD files of one configuration differ"
note "single process: $(wc -l <$work/ref_hirep.out) channel lines per configuration"
if [ $su3 -eq 1 ] && grep -q '^#define HR_REPR_FUND 1$' $cfg; then
  compare "${HR_SRCDIR:-../..}/TestProgram/Inverters/mesons_reference_su3_fund.txt" \
    $work/ref_hirep.out 1e-10 || bad "correlators differ from mesons_reference_su3_fund.txt"
  note "correlators agree with mesons_reference_su3_fund.txt to 1e-10"
else
  note "not SU(3) fundamental: reference comparison skipped"
fi

# 2. process grids
if [ -n "$HR_MPIRUN" ]; then
  for grid in "2 1" "2 2"; do
    set -- $grid
    n=$(($1 * $2))
    mkinput $1 $2 periodic "mes:kappa = 0.13" 1.234 "" >$work/in_pb_grid
    mkinput $1 $2 open "mes:kappa = 0.07" 1.1329 "mes:source_t = 3" >$work/in_ob_grid
    run $n -i $work/in_pb_grid "$pb_hirep" >$work/grid.out 2>$work/err || bad "grid $1x$2: $(cat $work/err)"
    compare $work/ref_hirep.out $work/grid.out 1e-10 || bad "grid $1x$2x1x1 differs from one process"
    run $n -i $work/in_ob_grid "$ob_oqcd" >$work/grid_ob.out 2>$work/err || bad "grid $1x$2 (open): $(cat $work/err)"
    compare $work/ref_ob.out $work/grid_ob.out 1e-10 || bad "grid $1x$2x1x1 (open b.c.) differs from one process"
    note "grid $1x$2x1x1: correlators agree with one process to 1e-10"
  done
fi

# 4. smeared source and sink
smear="mes:smear_source = true
mes:smear_sink = true
mes:smear_kappa = 0.25
mes:smear_steps = 5
mes:link_smearing = stout
mes:link_smear_steps = 3
mes:stout_rho = 0.1"
# finite: every value after C= is a number that is not nan/inf
finite() { awk '{ n = split($0, a, " C= "); k = split(a[2], v, " "); if (k == 0) bad = 1
  for (i = 1; i <= k; i++) if (v[i] !~ /^-?[0-9]\.[0-9]+e[-+][0-9]+$/) bad = 1 }
  END { exit bad + (NR == 0) }' "$1"; }
# cosh effective masses of the line of channel $2 in file $1
meff() { grep " channel=$2 C= " "$1" | awk '
  function cr(m, t, T) { return exp(-m * t) + exp(-m * (T - t)) }
  { split($0, a, " C= "); T = split(a[2], c, " ")
    for (t = 0; t < T / 2; t++) { r = c[t + 1] / c[t + 2]; lo = 1e-6; hi = 20
      for (i = 0; i < 200; i++) { m = (lo + hi) / 2; if (cr(m, t, T) / cr(m, t + 1, T) > r) hi = m; else lo = m }
      printf " %.4f", m } }'; }
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "$smear" >$work/in_smear
run 1 -i $work/in_smear "$pb_hirep" >$work/ref_smear.out 2>$work/err || bad "mk_mesons (smeared) failed: $(cat $work/err)"
grep -q 'channel=pi_ss C= ' $work/ref_smear.out || bad "no pi_ss channel line"
grep -q 'channel=pi C= ' $work/ref_smear.out && bad "smeared run printed an unsmeared channel name"
finite $work/ref_smear.out || bad "smeared correlators not finite: $(cat $work/ref_smear.out)"
note "pion effective mass, local:  $(meff $work/ref_hirep.out pi)"
note "pion effective mass, smeared:$(meff $work/ref_smear.out pi_ss) (kappa_s 0.25, 5 steps, stout links)"
if [ -n "$HR_MPIRUN" ]; then
  for grid in "2 1" "2 2"; do
    set -- $grid
    mkinput $1 $2 periodic "mes:kappa = 0.13" 1.234 "$smear" >$work/in_smear_grid
    run $(($1 * $2)) -i $work/in_smear_grid "$pb_hirep" >$work/grid_smear.out 2>$work/err || bad "grid $1x$2 (smeared): $(cat $work/err)"
    compare $work/ref_smear.out $work/grid_smear.out 1e-12 || bad "grid $1x$2x1x1 (smeared) differs from one process"
    note "grid $1x$2x1x1: smeared correlators agree with one process to 1e-12"
  done
fi
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:smear_sink = true
mes:link_smearing = hyp" >$work/in_sink
run 1 -i $work/in_sink "$pb_hirep" >$work/sink.out 2>$work/err || bad "mk_mesons (smeared sink) failed: $(cat $work/err)"
grep -q 'channel=pi_ls C= ' $work/sink.out || bad "no pi_ls channel line"
finite $work/sink.out || bad "smeared-sink correlators not finite"

# 3. errors: exit code and message
expect() { # expect CODE PATTERN DESCRIPTION ARGS...
  code=$1 pattern=$2 what=$3
  shift 3
  "$prog" "$@" >$work/out 2>$work/err
  rc=$?
  if [ $rc -ne "$code" ]; then
    bad "$what: exit code $rc, expected $code (stderr: $(cat $work/err))"
  elif ! grep -q -- "$pattern" $work/err; then
    bad "$what: stderr lacks '$pattern': $(cat $work/err)"
  elif grep -q '^conf=' $work/out; then
    bad "$what: a correlator was printed"
  else
    note "$what: exit $rc, $(head -n 1 $work/err)"
  fi
}
mkinput 1 1 periodic "" 1.234 "" >$work/in_nomass
expect 2 "mes:mass" "no mass key" -i $work/in_nomass "$pb_hirep"
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:mass = 0.1" >$work/in_both
expect 2 "mes:mass" "both mass keys" -i $work/in_both "$pb_hirep"
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:precison = 1e-8" >$work/in_typo
expect 2 "mes:precison" "misspelt key" -i $work/in_typo "$pb_hirep"
expect 3 "no_such_configuration" "missing configuration" -i $work/in_pb "$work/no_such_configuration"
head -c 100000 "$pb_hirep" >$work/truncated_conf
if [ $su3 -eq 0 ]; then
  expect 3 "SU(3)" "SU(3) file in another theory" -i $work/in_pb "$stored_pb"
fi
expect 3 "truncated_conf" "truncated configuration" -i $work/in_pb "$work/truncated_conf"
expect 2 "no configuration" "no configuration argument" -i $work/in_pb
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:maxiter = 5" >$work/in_maxiter
expect 5 "did not converge" "iteration limit 5" -i $work/in_maxiter "$pb_hirep"
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:smear_source = true
mes:smear_kappa = -0.1" >$work/in_skappa
expect 2 "in_skappa:[0-9]*: mes:smear_kappa: must be in \[0, 100\] (got -0.1)" \
  "negative smearing kappa" -i $work/in_skappa "$pb_hirep"
# impossible values stop before any work, naming file, line and key
sed 's/^mes:precision *=.*/mes:precision = -1e-10/' $work/in_pb >$work/in_negprec
line=$(grep -n '^mes:precision' $work/in_negprec | cut -d: -f1)
expect 2 "in_negprec:$line: mes:precision: value -1e-10 out of range: must be >= 1e-15 and < 1" \
  "negative precision" -i $work/in_negprec "$pb_hirep"
sed 's/^GLB_T *=.*/GLB_T = 5/' $work/in_pb >$work/in_glb5
line=$(grep -n '^GLB_T' $work/in_glb5 | cut -d: -f1)
expect 2 "in_glb5:$line: GLB_T: GLB_T = 5: the global lattice extent must be an even number" \
  "odd GLB_T" -i $work/in_glb5 "$pb_hirep"
mkinput 1 1 open "mes:kappa = 0.07" 1.1329 "" >$work/in_ob_t0
expect 2 "mes:source_t: 0 is an outer time slice of open boundaries" "open bc, source on t = 0" \
  -i $work/in_ob_t0 "$ob_oqcd"
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:source_t = 8" >$work/in_t8
expect 2 "mes:source_t: must be below GLB_T = 8" "source_t = GLB_T" -i $work/in_t8 "$pb_hirep"
mkinput 1 1 periodic "mes:kappa = 0.13" 1.234 "mes:smear_sink = true
mes:link_smearing = gaussian" >$work/in_lsmear
expect 2 "mes:link_smearing" "unknown link smearing" -i $work/in_lsmear "$pb_hirep"

[ $fail -eq 0 ] && rm -rf $work
exit $fail
