#!/bin/sh
# run_grids.sh TEST.gridtest -- runs a test program on several process grids and thread
# counts and compares the values it prints between the runs. TEST.gridtest holds lines
#   program NAME          the program (in the current directory)
#   grids G1 G2 ...       process grids NP_TxNP_XxNP_YxNP_Z (MPI builds run them all under
#                         $HR_MPIRUN --oversubscribe; other builds only 1x1x1x1)
#   threads N1 N2 ...     OMP_NUM_THREADS values (OpenMP builds; otherwise one run)
# Every run must exit with 0. Lines "VALUE name number" must agree between all runs: exactly
# when name starts with "exact.", else to a relative 1e-12. Exit status 0 pass, 1 fail.
spec=$1
prog=$(awk '$1 == "program" {print $2}' "$spec")
grids=$(awk '$1 == "grids" {$1 = ""; print}' "$spec")
threads=$(awk '$1 == "threads" {$1 = ""; print}' "$spec")
[ -n "$prog" ] || { echo "run_grids.sh: no program in $spec" >&2; exit 99; }
[ -n "$grids" ] || grids=1x1x1x1
[ -n "$threads" ] || threads=2
if [ -z "$HR_MPIRUN" ]; then grids=1x1x1x1; fi
if ! "./$prog" --has-openmp >/dev/null 2>&1; then threads=1; fi
# Idle OpenMP threads sleep instead of spinning: the tests switch thread counts and share
# an oversubscribed machine with other runs (a test, not a benchmark).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0
run=0
for grid in $grids; do
  set -- $(echo "$grid" | tr x ' ')
  nproc=$(($1 * $2 * $3 * $4))
  for nt in $threads; do
    run=$((run + 1))
    echo "== grid $grid, $nt thread(s): $prog $1 $2 $3 $4"
    if [ -n "$HR_MPIRUN" ]; then
      OMP_NUM_THREADS=$nt "$HR_MPIRUN" -np "$nproc" --oversubscribe "./$prog" "$1" "$2" "$3" "$4" \
        >"$tmp/out.$run" 2>&1
    else
      OMP_NUM_THREADS=$nt "./$prog" "$1" "$2" "$3" "$4" >"$tmp/out.$run" 2>&1
    fi
    rc=$?
    grep -v '^VALUE ' "$tmp/out.$run"
    if [ $rc -ne 0 ]; then
      echo "FAIL: $prog on grid $grid with $nt thread(s) exited with status $rc"
      status=1
    fi
    grep '^VALUE ' "$tmp/out.$run" | sed "s/^/$grid $nt /" >>"$tmp/values"
  done
done
if [ -s "$tmp/values" ]; then
  awk '
    { key = $4; v = $5; where = $1 " with " $2 " thread(s)"
      if (!(key in ref)) { ref[key] = v; refwhere[key] = where; n++; next }
      if (key ~ /^exact\./) ok = (v == ref[key])
      else { a = v + 0; b = ref[key] + 0; d = a - b; if (d < 0) d = -d
             m = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b)
             ok = (d <= 1e-12 * m) }
      if (!ok) { printf "FAIL: %s = %s on grid %s but %s on grid %s\n", key, v, where, ref[key], refwhere[key]; bad++ }
      else same++ }
    END { printf "values compared between runs: %d names, %d agreeing repeats, %d differing\n", n, same, bad
          exit bad > 0 }' "$tmp/values" || status=1
fi
exit $status
