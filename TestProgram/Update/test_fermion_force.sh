#!/bin/sh
# test_fermion_force.sh -- test_fermion_force (forces of the fermion monomials against finite
# differences, heatbath, actions, Hasenbusch pair, chronological guess) on one process; in MPI
# builds also the actions and force contractions (with their finite-difference checks) on the
# process grids 2x1x1x1 and 2x2x1x1 (diagonal halo edges), which must agree with those of one
# process to 1e-10 relative. Exit: 0 pass, 1 fail.
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
run() { # run NPROC ARGS...
  n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then "$HR_MPIRUN" -np "$n" --oversubscribe ./test_fermion_force "$@"
  else ./test_fermion_force "$@"; fi
}
fail=0
run 1 || fail=1
if [ -n "$HR_MPIRUN" ]; then
  run 1 1 1 1 1 --print > ff_ref.out || fail=1
  grep '^value' ff_ref.out > ff_ref.lines
  for g in "2 2 1 1 1" "4 2 2 1 1"; do
    set -- $g
    grid="$2x$3x$4x$5"
    run "$@" --print > ff_cmp.out || fail=1
    grep '^value' ff_cmp.out > ff_cmp.lines
    if test -s ff_ref.lines && test -s ff_cmp.lines && paste -d ' ' ff_ref.lines ff_cmp.lines | awk '
        { d = $3 - $6; if (d < 0) d = -d; a = $3; if (a < 0) a = -a
          if ($2 != $5 || d > 1e-10 * a) { print "differs: " $0; bad = 1 } }
        END { exit bad }'; then
      echo "PASS: grid $grid: actions and forces as on one process to 1e-10"
    else
      echo "FAIL: grid $grid differs from one process"
      fail=1
    fi
  done
  rm -f ff_ref.out ff_cmp.out ff_ref.lines ff_cmp.lines
fi
exit $fail
