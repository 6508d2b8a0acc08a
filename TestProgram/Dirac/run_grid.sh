#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_dirac on the process grid named by the test file, e.g.
# grid_2x1x1x1.grid: first one process without any halo writes reference checksums, then
# the grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds; the 1x1x1x1
# grid runs with a halo forced in every direction) runs every check and compares its
# checksums with the reference. OMP_NUM_THREADS defaults to 2. Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/../grid_common.sh"
ref=dirac_ref_$grid.sums
launch 1 ./test_dirac 1 1 1 1 --write "$ref" || { rm -f "$ref"; exit 1; }
launch "$nproc" ./test_dirac "$1" "$2" "$3" "$4" --compare "$ref"
status=$?
rm -f "$ref"
exit $status
