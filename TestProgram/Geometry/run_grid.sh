#!/bin/sh
# run_grid.sh GRID_FILE -- runs the geometry test programs on the process grid named by the
# test file, e.g. grid_2x1x1x1.grid: under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in
# MPI builds, directly (1x1x1x1 only) otherwise. OMP_NUM_THREADS defaults to 2 here, which
# matters only in OpenMP builds. Exit status 0 pass, 1 fail, 77 skip.
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
status=0
for prog in ./test_geometry_layout ./test_geometry_comm; do
  if [ -n "$HR_MPIRUN" ]; then
    echo "== $HR_MPIRUN -np $nproc --oversubscribe $prog $1 $2 $3 $4"
    "$HR_MPIRUN" -np "$nproc" --oversubscribe "$prog" "$1" "$2" "$3" "$4" || status=1
  elif [ "$nproc" -eq 1 ]; then
    echo "== $prog $1 $2 $3 $4"
    "$prog" "$1" "$2" "$3" "$4" || status=1
  else
    echo "grid $grid needs an MPI build"
    exit 77
  fi
done
exit $status
