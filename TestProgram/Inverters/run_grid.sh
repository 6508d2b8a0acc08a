#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_solvers and test_free_pion on the process grid named by
# the test file, e.g. grid_2x1x1x1.grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes
# in MPI builds). OMP_NUM_THREADS defaults to 1. Exit: 0 pass, 1 fail, 77 skip.
name=$(basename "$1" .grid)
grid=${name#grid_}
set -- $(echo "$grid" | tr x ' ')
if [ $# -ne 4 ]; then
  echo "run_grid.sh: cannot read a process grid from '$name'" >&2
  exit 99
fi
nproc=$(($1 * $2 * $3 * $4))
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_NUM_THREADS
if [ -z "$HR_MPIRUN" ] && [ "$nproc" -ne 1 ]; then
  echo "grid $grid needs an MPI build"
  exit 77
fi
launch() { # launch NPROC PROGRAM ARGS...
  n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then
    echo "== $HR_MPIRUN -np $n --oversubscribe $*"
    "$HR_MPIRUN" -np "$n" --oversubscribe "$@"
  else
    echo "== $*"
    "$@"
  fi
}
status=0
launch "$nproc" ./test_solvers "$1" "$2" "$3" "$4" || status=1
launch "$nproc" ./test_free_pion "$1" "$2" "$3" "$4" || status=1
exit $status
