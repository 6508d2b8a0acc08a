#!/bin/sh
# test_formats.sh -- runs test_formats (ILDG/LIME and NERSC) on the process grids 1x1x1x1 and,
# in MPI builds, 2x1x1x1 and 2x2x1x1 (each process reads and writes its own sites).
# Exit: 0 pass, 1 fail.
here=$(dirname "$0")
status=0
for g in 1x1x1x1 2x1x1x1 2x2x1x1; do
  (
    . "$here/../grid_common.sh" "grid_$g.grid"
    dir=fmt_run_$grid
    rm -rf "$dir" && mkdir "$dir" && cd "$dir" || exit 99
    launch "$nproc" ../test_formats "$@" || exit 1
    leftover=$(find . -name '*.tmp.*' | head -3)
    if [ -n "$leftover" ]; then
      echo "FAIL: temporary files left behind: $leftover"
      exit 1
    fi
    cd .. && rm -rf "$dir"
  )
  rc=$?
  [ $rc -ne 0 ] && [ $rc -ne 77 ] && status=1
done
exit $status
