#!/bin/sh
# test_libhr_info.sh -- make check's run of libhr_info with a small input and -o LOG_FILE: it
# must exit 0; its INFO lines must hold every line of the build description
# (hr_log_build_config: version, source revision, theory, MPI, OpenMP, GPU backend, CPU Dirac
# kernels, FFTW 3, MPFR, debug checks, compiler version, compiler and flags) as the log head
# does, and the group-theory verdict; the input echo lists its keys with the default marked.
set -u
prog="$PWD/libhr_info"
work=$(mktemp -d "${TMPDIR:-/tmp}/hr_libhr_info.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check NAME COMMAND...: COMMAND must succeed
check() {
  name=$1
  shift
  checks=$((checks + 1))
  if "$@"; then echo "PASS: $name"; else fail "$name"; fi
}

printf 'seed = 3\nsamples = 5\n' >"$work/info.in"
log="$work/info.log"
"$prog" -i "$work/info.in" -o "$log" >"$work/out" 2>"$work/err"
rc=$?
check "exit code 0" test "$rc" -eq 0
check "nothing on stdout and stderr" test ! -s "$work/out" -a ! -s "$work/err"
for label in "LibHR version" "source revision" "gauge group" "representation" "MPI" "OpenMP" \
  "GPU backend" "CPU Dirac kernels" "FFTW 3" "MPFR" "debug checks" "compiler version" \
  "compiler and flags"; do
  field=$(printf '%-18s' "$label")
  info=$(sed -n "s/^\[INFO\]\[0\]$field: //p" "$log")
  head=$(sed -n "s/^\[SETUP\]\[0\]$field: //p" "$log")
  check "build line '$label' printed, as in the log head" test -n "$info" -a "$info" = "$head"
done
check "representation names NF" grep -q -E '^\[INFO\]\[0\]representation    : (fund|adj|2s|2as) \(.*\), NF = [0-9]+' "$log"
check "revision line says where it comes from" grep -q -E \
  '^\[INFO\]\[0\]source revision   : [^ ]+ \((git describe --always --dirty --tags at configure time|package version: the sources were no git checkout)\)$' "$log"
check "input echo of seed" grep -q -x -F '[INPUT][0]seed = 3' "$log"
check "input echo of samples" grep -q -x -F '[INPUT][0]samples = 5' "$log"
check "input echo of tolerance (default)" grep -q -x -F '[INPUT][0]tolerance = 1e-12 (default)' "$log"
check "group theory OK" grep -q -x -F '[INFO][0]group theory of the compiled theory: OK (tolerance 1.0e-12)' "$log"

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
