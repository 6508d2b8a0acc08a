#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_observables on the process grid named by the test file,
# e.g. grid_2x1x1x1.grid (under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in MPI builds;
# the 1x1x1x1 grid directly otherwise). Exit: 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/../grid_common.sh"
launch "$nproc" ./test_observables "$@"
