#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_dirac on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: first one process without any halo writes reference checksums, then
# the grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds; the 1x1x1x1
# grid runs with a halo forced in every direction) runs every check and compares its
# checksums with the reference. OMP_NUM_THREADS defaults to 2. Exit: 0 pass, 1 fail, 77 skip.
name=$(basename "$1" .grid)
grid=${name#grid_}
set -- $(echo "$grid" | tr x ' ')
if [ $# -ne 4 ]; then
  echo "run_grid.sh: cannot read a process grid from '$name'" >&2
  exit 99
fi
nproc=$(($1 * $2 * $3 * $4))
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
if [ -z "$HR_MPIRUN" ] && [ "$nproc" -ne 1 ]; then
  echo "grid $grid needs an MPI build"
  exit 77
fi
ref=dirac_ref_$grid.sums
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
launch 1 ./test_dirac 1 1 1 1 --write "$ref" || { rm -f "$ref"; exit 1; }
launch "$nproc" ./test_dirac "$1" "$2" "$3" "$4" --compare "$ref"
status=$?
rm -f "$ref"
exit $status
