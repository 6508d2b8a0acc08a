#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_flow on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid. One process: every case, the openQCD logs included. Other grids: first
# the grid case on one process (which writes flow_ref.txt), then on the grid (under
# $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes), compared with it. Exit: 0 pass, 1 fail,
# 77 skip.
. "$(dirname "$0")/../grid_common.sh"
dir=flow_run_$grid
rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 99
status=0
if [ "$nproc" -ne 1 ]; then
  mkdir ref && (cd ref && launch 1 ../../test_flow 1 1 1 1 --grid-only) || status=1
  launch "$nproc" ../test_flow "$@" --grid-only --ref ref/flow_ref.txt || status=1
else
  launch 1 ../test_flow 1 1 1 1 --logs || status=1
fi
cd .. && [ $status -eq 0 ] && rm -rf "$dir"
exit $status
