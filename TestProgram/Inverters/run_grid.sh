#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_solvers, test_free_pion and test_quark_smearing on the process grid named by
# the test file, e.g. grid_2x1x1x1.grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes
# in MPI builds). OMP_NUM_THREADS defaults to 1. Exit: 0 pass, 1 fail, 77 skip.
grid_threads=1
. "$(dirname "$0")/../grid_common.sh"
status=0
launch "$nproc" ./test_solvers "$1" "$2" "$3" "$4" || status=1
launch "$nproc" ./test_free_pion "$1" "$2" "$3" "$4" || status=1
launch "$nproc" ./test_quark_smearing "$1" "$2" "$3" "$4" || status=1
exit $status
