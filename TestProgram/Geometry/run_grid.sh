#!/bin/sh
# run_grid.sh GRID_FILE -- runs the geometry test programs on the process grid named by the
# test file, e.g. grid_2x1x1x1.grid: under $HR_MPIRUN with NP_T*NP_X*NP_Y*NP_Z processes in
# MPI builds, directly (1x1x1x1 only) otherwise. OMP_NUM_THREADS defaults to 2 here, which
# matters only in OpenMP builds. Exit status 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/../grid_common.sh"
status=0
for prog in ./test_geometry_layout ./test_geometry_comm; do
  launch "$nproc" "$prog" "$1" "$2" "$3" "$4" || status=1
done
exit $status
