#!/bin/sh
# test_stout_force.sh -- test_stout_force (derivative of exp, smeared links, force through the
# stout chain = derivative, isotropic and spatial) on one process and, in MPI builds, on the
# process grids 2x1x1x1 and 2x2x1x1 (mpirun --oversubscribe). Exit: 0 pass, 1 fail.
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
HR_RATIONAL_CACHE=test_stout_force.cache # its own approximation cache, removed at the end
export HR_RATIONAL_CACHE
fail=0
./test_stout_force || fail=1
if [ -n "$HR_MPIRUN" ]; then
  for g in "2 2 1 1 1" "4 2 2 1 1"; do
    # shellcheck disable=SC2086
    set -- $g
    echo "== $HR_MPIRUN -np $1 --oversubscribe ./test_stout_force $2 $3 $4 $5"
    "$HR_MPIRUN" -np "$1" --oversubscribe ./test_stout_force "$2" "$3" "$4" "$5" || fail=1
  done
fi
rm -f "$HR_RATIONAL_CACHE"
exit $fail
