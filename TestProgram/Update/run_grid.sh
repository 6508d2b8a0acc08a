#!/bin/sh
# run_grid.sh GRID_FILE -- test_heatbath on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: the statistical and identity checks on the grid, then a fixed-seed run on
# one process writes its field and the same run on the grid must give it bitwise (MPI builds:
# under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes). Exit: 0 pass, 1 fail, 77 skip.
name=$(basename "$1" .grid)
grid=${name#grid_}
set -- $(echo "$grid" | tr x ' ')
nproc=$(($1 * $2 * $3 * $4))
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
# idle OpenMP threads sleep instead of spinning: oversubscribed MPI runs stay fast
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
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
ref=hb_ref_$grid.cfg
status=0
launch "$nproc" ./test_heatbath "$@" || status=1
launch 1 ./test_heatbath 1 1 1 1 --write "$ref" || status=1
OMP_NUM_THREADS=1 launch "$nproc" ./test_heatbath "$@" --compare "$ref" || status=1
rm -f "$ref"
exit $status
