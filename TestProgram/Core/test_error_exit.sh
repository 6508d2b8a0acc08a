#!/bin/sh
# test_error_exit.sh -- runs error_exit_demo in each mode and checks the exit code, the
# message on stderr, and that no temporary output file is left behind (fatal error, error
# with source location, exit without commit, SIGTERM) while a committed file is complete. In MPI
# builds, also with 2 ranks: every rank failing, or only rank 1 failing. With -o LOG_FILE the
# error's message (as on stderr, without "[rank R] ") is the last line of rank 0's log.
set -u
prog="$PWD/error_exit_demo"
HR_MPIRUN="${HR_MPIRUN:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/hr_error_exit.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check NAME MODE CODE PATTERN FILES LAUNCHER...: run in MODE; the exit code must be CODE,
# stderr must have exactly one line matching the extended regex PATTERN (none if empty),
# and the output folder must hold exactly FILES (space-separated, sorted).
check() {
  name=$1 mode=$2 code=$3 pattern=$4 files=$5
  shift 5
  checks=$((checks + 1))
  rm -rf "$work/out" && mkdir "$work/out"
  HR_DEMO_MODE=$mode HR_DEMO_DIR="$work/out" "$@" "$prog" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  left=$(ls "$work/out" | tr '\n' ' ' | sed 's/ $//')
  if [ "$rc" -ne "$code" ]; then
    fail "$name: exit code $rc, expected $code"
  elif [ -n "$pattern" ] && [ "$(grep -c -E -e "$pattern" "$work/stderr")" -ne 1 ]; then
    fail "$name: stderr does not have exactly one line matching: $pattern"
  elif [ "$left" != "$files" ]; then
    fail "$name: output folder holds '$left', expected '$files'"
  else
    echo "PASS: $name"
    return
  fi
  sed 's/^/  stderr: /' "$work/stderr"
}

check "internal error" internal 1 '^[^ ]*error_exit_demo\.c:[0-9]+: main: boom 7$' ""
check "fatal error" fatal 3 '^user error$' ""
check "exit without commit" exit 0 "" ""
check "SIGTERM" signal 143 "" ""
check "commit" commit 0 "" "out_0.dat"
if [ "$checks" -gt 0 ] && [ -f "$work/out/out_0.dat" ] &&
  [ "$(cat "$work/out/out_0.dat")" != "data of rank 0" ]; then
  fail "committed file content"
fi

# check_log NAME MODE CODE PATTERN LAUNCHER...: run in MODE with -o LOG_FILE; the exit code
# must be CODE, and the log's last line the line of stderr that matches PATTERN, without
# "[rank R] " (the same text), after the log head.
check_log() {
  name=$1 mode=$2 code=$3 pattern=$4
  shift 4
  checks=$((checks + 1))
  rm -rf "$work/out" "$work/run.log" && mkdir "$work/out"
  HR_DEMO_MODE=$mode HR_DEMO_DIR="$work/out" "$@" "$prog" -o "$work/run.log" \
    >"$work/stdout" 2>"$work/stderr"
  rc=$?
  message=$(grep -E -e "$pattern" "$work/stderr" | sed 's/^\[rank [0-9]*\] //')
  if [ "$rc" -ne "$code" ]; then
    fail "$name: exit code $rc, expected $code"
  elif [ -z "$message" ] || [ "$(tail -n 1 "$work/run.log")" != "$message" ]; then
    fail "$name: the log does not end with the message of stderr: $message"
    sed 's/^/  log: /' "$work/run.log"
  elif ! head -n 1 "$work/run.log" | grep -q '^\[SETUP\]\[0\]======== error_exit_demo: start '; then
    fail "$name: the log does not start with the separator line"
  else
    echo "PASS: $name"
    return
  fi
  sed 's/^/  stderr: /' "$work/stderr"
}

check_log "internal error in the -o log" internal 1 'main: boom 7$'
check_log "fatal error in the -o log" fatal 3 '^user error$'

if [ -n "$HR_MPIRUN" ]; then
  mpi="$HR_MPIRUN -np 2 --oversubscribe"
  check_log "2 ranks: fatal on all, in rank 0's log" fatal 3 '^user error$' $mpi
  check_log "2 ranks: internal on all, in rank 0's log" internal 1 '^\[rank 0\] .*main: boom 7$' $mpi
  check "2 ranks: fatal on all" fatal 3 '^user error$' "" $mpi
  check "2 ranks: internal on all" internal 1 '^\[rank 0\] [^ ]*error_exit_demo\.c:[0-9]+: main: boom 7$' "" $mpi
  check "2 ranks: internal on rank 1" internal-rank1 1 \
    '^\[rank 1\] [^ ]*error_exit_demo\.c:[0-9]+: main: boom on rank 1$' "" $mpi
  check "2 ranks: fatal on rank 1" fatal-rank1 5 '^\[rank 1\] only rank 1 failed$' "" $mpi
  check "2 ranks: commit" commit 0 "" "out_0.dat out_1.dat" $mpi
fi

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
