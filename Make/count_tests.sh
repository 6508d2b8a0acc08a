#!/usr/bin/env bash
# Make/count_tests.sh BUILD_DIR -- prints "PASSED FAILED" for the last `make check` in a build
# tree. Tests written with the Check library count each unit test ("Checks: N, Failures: F,
# Errors: E" lines in their log); other test programs and scripts count as one each. A test
# program that failed without a failing Check line (a crash, a bad exit code) counts as one
# failure more.
set -euo pipefail
find "$1" -name '*.trs' -print0 | while IFS= read -r -d '' trs; do
  log="${trs%.trs}.log"
  result=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
  awk -v result="$result" '
    /[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
      line = $0; sub(/.*Checks: /, "", line); split(line, n, /, (Failures|Errors): /)
      checks += n[1]; bad += n[2] + n[3]; seen = 1 }
    END {
      if (seen) { p = checks - bad; f = bad; if ((result == "FAIL" || result == "ERROR") && bad == 0) f++ }
      else if (result == "PASS") { p = 1; f = 0 }
      else if (result == "FAIL" || result == "ERROR" || result == "XPASS") { p = 0; f = 1 }
      else { p = 0; f = 0 }
      print p, f }' "$log" 2>/dev/null || echo "0 1"
done | awk '{p += $1; f += $2} END {print p + 0, f + 0}'
