#!/bin/sh
# test_dirac_stale.sh -- links changed through their pointer without a new version (no
# host_write_suNg_field) must be caught in builds configured with --enable-debug-checks:
# test_dirac_state --stale has to stop with a non-zero exit code and a message naming the
# missing call. Other builds: skip (77).
out=$(./test_dirac_state --stale 2>&1)
rc=$?
[ $rc -eq 77 ] && { echo "$out"; exit 77; }
echo "$out" | tail -5
if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then
  echo "FAIL: test_dirac_state --stale exited with $rc: the stale links were not caught"
  exit 1
fi
if ! echo "$out" | grep -q "changed without a new version"; then
  echo "FAIL: the error message does not say what happened"
  exit 1
fi
echo "PASS: stale links caught (exit $rc)"
exit 0
