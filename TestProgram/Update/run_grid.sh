#!/bin/sh
# run_grid.sh GRID_FILE -- test_heatbath on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: the statistical and identity checks on the grid, then a fixed-seed run on
# one process writes its field and the same run on the grid must give it bitwise (MPI builds:
# under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes). Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/../grid_common.sh"
ref=hb_ref_$grid.cfg
status=0
launch "$nproc" ./test_heatbath "$@" || status=1
launch 1 ./test_heatbath 1 1 1 1 --write "$ref" || status=1
OMP_NUM_THREADS=1 launch "$nproc" ./test_heatbath "$@" --compare "$ref" || status=1
rm -f "$ref"
exit $status
