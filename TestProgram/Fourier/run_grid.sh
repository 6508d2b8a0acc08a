#!/bin/sh
# run_grid.sh GRID_FILE -- runs test_global_access, test_fft and test_gauge_fixing on the
# process grid named by the test file, e.g. grid_2x1x1x1.grid (under $HR_MPIRUN with
# NP_T*NP_X*NP_Y*NP_Z processes in MPI builds). Exit: 0 pass, 1 fail, 77 skip (only when
# every program skipped, e.g. a multi-process grid without MPI).
. "$(dirname "$0")/../grid_common.sh"
status=0
ran=0
for prog in test_global_access test_fft test_gauge_fixing; do
  launch "$nproc" ./$prog "$@"
  rc=$?
  case $rc in
    0) ran=1 ;;
    77) echo "$prog: skipped" ;;
    *) status=1 ;;
  esac
done
[ $status -ne 0 ] && exit 1
[ $ran -eq 0 ] && exit 77
exit 0
