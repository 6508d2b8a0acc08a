#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_observables on the process grid named by the test file,
# e.g. grid_2x1x1x1.grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds;
# the 1x1x1x1 grid directly otherwise). Exit: 0 pass, 1 fail, 77 skip.
name=$(basename "$1" .grid)
set -- $(echo "${name#grid_}" | tr x ' ')
nproc=$(($1 * $2 * $3 * $4))
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
# idle OpenMP threads sleep instead of spinning: oversubscribed MPI runs stay fast
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
if [ -n "$HR_MPIRUN" ]; then
  exec "$HR_MPIRUN" -np "$nproc" --oversubscribe ./test_observables "$@"
elif [ "$nproc" -eq 1 ]; then
  exec ./test_observables "$@"
fi
echo "this grid needs an MPI build"
exit 77
