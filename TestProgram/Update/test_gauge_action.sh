#!/bin/sh
# test_gauge_action.sh -- test_gauge_action: every check (force = derivative of the action,
# closed-form action, plaquette normalisation, gauge invariance, GPU = CPU path) on one
# process and, in MPI builds, on the process grids 2x1x1x1, 2x2x1x1 and 1x1x2x2 (mpirun
# --oversubscribe); then the actions and force checksums of a fixed configuration written on
# one process must be reproduced with one thread and on every grid (1e-12; bitwise agreement
# reported). Exit: 0 pass, 1 fail.
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
fail=0
run() { # run NPROC ARGS...
  n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then
    echo "== $HR_MPIRUN -np $n --oversubscribe ./test_gauge_action $*"
    "$HR_MPIRUN" -np "$n" --oversubscribe ./test_gauge_action "$@"
  else
    echo "== ./test_gauge_action $*"
    ./test_gauge_action "$@"
  fi
}
ref=gauge_action_ref.txt
run 1 || fail=1
run 1 1 1 1 1 --write $ref || fail=1
OMP_NUM_THREADS=1 run 1 1 1 1 1 --compare $ref || fail=1
if [ -n "$HR_MPIRUN" ]; then
  for g in "2 2 1 1 1" "4 2 2 1 1" "4 1 1 2 2"; do
    # shellcheck disable=SC2086
    run $g || fail=1
    # shellcheck disable=SC2086
    run $g --compare $ref || fail=1
  done
fi
rm -f $ref
exit $fail
