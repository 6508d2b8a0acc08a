#!/bin/sh
# test_hmc_restart.sh -- HMC/hmc: a run stopped after trajectory 2 and restarted from its saved
# configuration writes bitwise the same configuration, generator state and trajectory lines
# at trajectory 4 as an uninterrupted run; the summary at the end covers the trajectories after
# `therm` (by trajectory number, also after a restart); a bad input value stops before any
# work with the file and a non-zero exit code. Exit: 0 pass, 1 fail.
hmc=../../HMC/hmc
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
work=hmc_restart_tmp
rm -rf $work && mkdir -p $work/a $work/b || exit 99
fail=0
check() { # check DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then echo "PASS: $d"; else echo "FAIL: $d"; fail=1; fi
}
input() { # input FILE NTRAJ START DIR
  cat > "$1" <<EOI
GLB_T = 4
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
csw = 1.0
seed = 31
gauge start = $3
ntraj = $2
tlen = 0.5
save freq = 2
conf dir = $4
run name = hr
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
  steps = 3
}
integrator {
  level = 1
  type = lf
  steps = 2
}
log:default = 0
EOI
}
input $work/full.in 4 hot $work/a
input $work/first.in 2 hot $work/b
input $work/second.in 4 $work/b/hr_n2 $work/b
OMP_NUM_THREADS=2 $hmc -i $work/full.in > $work/full.out 2>&1 || fail=1
OMP_NUM_THREADS=1 $hmc -i $work/first.in > $work/first.out 2>&1 || fail=1
OMP_NUM_THREADS=2 $hmc -i $work/second.in > $work/second.out 2>&1 || fail=1
check "uninterrupted run saved trajectory 4" test -s $work/a/hr_n4
check "restarted run: configuration at trajectory 4 bitwise equal" cmp -s $work/a/hr_n4 $work/b/hr_n4
check "restarted run: generator state equal" cmp -s $work/a/hr_n4.rng $work/b/hr_n4.rng
grep 'traj=[34] ' $work/full.out | sed 's/^.*traj=/traj=/; s/ seconds=.*//; s/ solver_seconds=.*//' > $work/m1
grep 'traj=[34] ' $work/second.out | sed 's/^.*traj=/traj=/; s/ seconds=.*//; s/ solver_seconds=.*//' > $work/m2
check "trajectory lines 3-4 equal" sh -c "test -s $work/m1 && cmp -s $work/m1 $work/m2"
check "restart continues at trajectory 3" sh -c "! grep -q 'traj=[12] ' $work/second.out"
# the summary: every trajectory of the run without therm; with therm = 3 only trajectory 4
# (the restart from trajectory 2 counts by trajectory number), whose accepted flag and
# exp(-dH) it then is; with therm = 4 none
check "summary of the uninterrupted run: trajectories 1 to 4" \
  grep -q "trajectories=4 acceptance=.*(trajectories 1 to 4)" $work/full.out
check "summary of the restarted run: trajectories 3 to 4" \
  grep -q "trajectories=2 acceptance=.*(trajectories 3 to 4)" $work/second.out
for t in 3 4; do
  { sed 's/^save freq = 2/save freq = 0/' $work/second.in; echo "therm = $t"; } > $work/therm$t.in
  OMP_NUM_THREADS=2 $hmc -i $work/therm$t.in > $work/therm$t.out 2>&1 || fail=1
done
check "therm = 3: the summary is trajectory 4's" awk '
  /traj=4 accepted=/ { for (i = 1; i <= NF; i++) {
      if ($i ~ /^accepted=/) a = substr($i, 10); if ($i ~ /^dH=/) d = substr($i, 4) } }
  /trajectories=1 acceptance=.*\(trajectories 4 to 4\)/ { for (i = 1; i <= NF; i++) {
      if ($i ~ /^acceptance=/) acc = substr($i, 12); if ($i ~ /^exp\(-dH\)=/) e = substr($i, 10) } }
  END { x = e - exp(-d); if (x < 0) x = -x; exit !(acc != "" && acc + 0 == a + 0 && x < 2e-6) }' \
  $work/therm3.out
check "therm = 4: no trajectory left for the summary, said" \
  grep -q "trajectories=0: all of this run's trajectories (3 to 4) are within therm = 4" \
  $work/therm4.out
sed 's/^ntraj = 4/ntraj = -1/' $work/full.in > $work/bad.in
$hmc -i $work/bad.in > $work/bad.out 2>&1
rc=$?
check "ntraj = -1 stops with exit code 2" test $rc -eq 2
check "ntraj = -1: the message names the file" grep -q "bad.in" $work/bad.out
# an impossible level in the second monomial block is reported at its own line (line 21)
awk 'NR == 21 && /level = 0/ { sub(/level = 0/, "level = 5") } { print }' $work/full.in > $work/badlevel.in
$hmc -i $work/badlevel.in > $work/badlevel.out 2>&1
rc=$?
check "monomial level = 5 stops with exit code 2" test $rc -eq 2
check "monomial level = 5: reported as badlevel.in:21: level" \
  grep -q "badlevel.in:21: level: level 5, but the integrator blocks give levels 0 to 1" $work/badlevel.out
[ $fail -eq 0 ] && rm -rf $work
exit $fail
