#!/bin/sh
# test_restart.sh -- PureGauge/suN: a run stopped after step 3 and restarted from its saved
# configuration writes bitwise the same configuration, generator state and measurements at
# step 6 as an uninterrupted run; a second run of the same chain is refused (exit code 2); in
# MPI builds the same run on 2 processes (NP_T = 2) gives the same files and measurement lines,
# and SIGUSR1 sent to mpirun stops both ranks after the same step, saved (exit code 6).
# Exit: 0 pass, 1 fail.
suN=../../PureGauge/suN
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
work=restart_test_tmp
rm -rf $work && mkdir -p $work/a $work/b $work/c || exit 99
fail=0
check() { # check DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then echo "PASS: $d"; else echo "FAIL: $d"; fail=1; fi
}
input() { # input FILE NSTEPS START DIR NP_T
  cat > "$1" <<EOI
GLB_T = 4
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
NP_T = $5
beta = 5.6
gauge start = $3
seed = 4711
nth = 2
nsteps = $2
nhb = 1
nor = 2
meas freq = 1
save freq = 3
conf dir = $4
run name = rs
log:default = 0
EOI
}
input $work/full.in 6 hot $work/a 1
input $work/first.in 3 hot $work/b 1
input $work/second.in 6 $work/b/rs_n3 $work/b 1
OMP_NUM_THREADS=2 $suN -i $work/full.in > $work/full.out 2>&1 || fail=1
OMP_NUM_THREADS=1 $suN -i $work/first.in > $work/first.out 2>&1 || fail=1
OMP_NUM_THREADS=2 $suN -i $work/second.in > $work/second.out 2>&1 || fail=1
check "uninterrupted run saved step 6" test -s $work/a/rs_n6
check "restarted run: configuration at step 6 bitwise equal" cmp -s $work/a/rs_n6 $work/b/rs_n6
check "restarted run: generator state at step 6 equal" cmp -s $work/a/rs_n6.rng $work/b/rs_n6.rng
grep 'step=[456] ' $work/full.out | sed 's/^.*step=/step=/' > $work/m1
grep 'step=[456] ' $work/second.out | sed 's/^.*step=/step=/' > $work/m2
check "measurements of steps 4-6 equal" sh -c "test -s $work/m1 && cmp -s $work/m1 $work/m2"
check "restart continues at step 4" sh -c "! grep -q 'step=[123] ' $work/second.out"
OMP_NUM_THREADS=1 $suN -i $work/full.in > $work/again.out 2>&1
check "a second run of the same chain is refused (exit code 2)" test $? -eq 2
if [ -n "$HR_MPIRUN" ]; then
  input $work/mpi.in 6 hot $work/c 2
  "$HR_MPIRUN" -np 2 --oversubscribe $suN -i $work/mpi.in > $work/mpi.out 2>&1 || fail=1
  check "2 processes: same file at step 6" cmp -s $work/a/rs_n6 $work/c/rs_n6
  grep 'step=' $work/mpi.out | sed 's/^.*step=/step=/' > $work/m3
  grep 'step=' $work/full.out | sed 's/^.*step=/step=/' > $work/m4
  check "2 processes: same measurements (exact sums)" cmp -s $work/m3 $work/m4
  check "2 processes: same generator state" cmp -s $work/a/rs_n6.rng $work/c/rs_n6.rng
  input $work/usr1.in 1000000 hot $work/d 2
  "$HR_MPIRUN" -np 2 --oversubscribe $suN -i $work/usr1.in -o $work/usr1.log > $work/usr1.out 2>&1 &
  pid=$!
  n=0
  while [ $n -lt 300 ] && ! grep -q "step=4 " $work/usr1.log 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
  kill -USR1 $pid
  wait $pid
  rc=$?
  check "2 processes: SIGUSR1 to mpirun stops the run with exit code 6 (got $rc)" test $rc -eq 6
  k=$(sed -n 's/.*continue with: gauge start = .*_n\([0-9]*\)$/\1/p' $work/usr1.log)
  check "2 processes: SIGUSR1: step $k saved" test -n "$k" -a -s $work/d/rs_n$k -a -s $work/d/rs_n$k.rng
fi
[ $fail -eq 0 ] && rm -rf $work
exit $fail
