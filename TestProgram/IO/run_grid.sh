#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_archive on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: first on one process (which writes the reference file), then on the grid
# (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds), comparing its files and
# links with the reference. Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/../grid_common.sh"
dir=io_run_$grid
rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 99
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
