#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_archive on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: first on one process (which writes the reference file), then on the grid
# (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds), comparing its files and
# links with the reference. Exit: 0 pass, 1 fail, 77 skip.
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
dir=io_run_$grid
rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 99
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
if [ "$nproc" -ne 1 ]; then
  mkdir ref && (cd ref && launch 1 ../../test_archive 1 1 1 1) || status=1
  launch "$nproc" ../test_archive "$@" --ref ref/io_save_1x1x1x1.hirep || status=1
else
  launch 1 ../test_archive 1 1 1 1 || status=1
fi
leftover=$(find . -name '*.tmp.*' | head -3)
if [ -n "$leftover" ]; then
  echo "FAIL: temporary files left behind: $leftover"
  status=1
fi
cd .. && [ $status -eq 0 ] && rm -rf "$dir"
exit $status
