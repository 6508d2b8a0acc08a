#!/bin/sh
# test_log_record.sh -- the -o log as the record of a run, with setup_demo: the head (separator
# line with program, date, time and host; command line; working directory; the build lines of
# hr_log_build_config with the source revision; ranks and threads; input file), the input
# echo of input_finish (every key with its value, defaults marked, keys of blocks with the
# block's name and number), a second run appended after the first, a fatal error's message in
# the log as on stderr, a missing log directory created and one under a regular file refused.
# MPI builds: the same head on 2 ranks, written once, by rank 0.
set -u
prog="$PWD/setup_demo"
inputs="${HR_SRCDIR:?HR_SRCDIR is not set (run through make check)}/TestProgram/Input/inputs"
HR_MPIRUN="${HR_MPIRUN:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/hr_log_record.XXXXXX") || exit 99
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

# run_demo LOG INPUT [LAUNCHER...]: setup_demo -i INPUT -o LOG in the inputs folder, with 2
# OpenMP threads; stdout and stderr to $work/out and $work/err; sets rc
run_demo() {
  log=$1 input=$2
  shift 2
  (cd "$inputs" && OMP_NUM_THREADS=2 "$@" "$prog" -i "$input" -o "$log") >"$work/out" 2>"$work/err"
  rc=$?
}

# the input echo of good_full.in and good_defaults.in, in the order the keys were read: those of
# hr_setup, hr_gpu_read_input, dirac_read_input, then the program's own
cat >"$work/echo_full" <<'EOF'
[INPUT][0]log:default = 10
[INPUT][0]memory:huge_pages = on (default)
[INPUT][0]gpu:halo = auto (default)
[INPUT][0]cpu:prefetch = auto (default)
[INPUT][0]comm:node_halo = on (default)
[INPUT][0]gpu:links = 18 (default)
[INPUT][0]GLB_T = 16
[INPUT][0]GLB_X = 8
[INPUT][0]beta = 5.6
[INPUT][0]bc_t = antiperiodic
[INPUT][0]gauge start = random
[INPUT][0]measure = yes
[INPUT][0]seed = 42
[INPUT][0]monomial 1: type = gauge
[INPUT][0]monomial 1: mass = 0 (default)
[INPUT][0]monomial 1: name = none (default)
[INPUT][0]monomial 2: type = hmc
[INPUT][0]monomial 2: mass = -0.5
[INPUT][0]monomial 2: name = light quarks
EOF
cat >"$work/echo_defaults" <<'EOF'
[INPUT][0]memory:huge_pages = on (default)
[INPUT][0]gpu:halo = auto (default)
[INPUT][0]cpu:prefetch = auto (default)
[INPUT][0]comm:node_halo = on (default)
[INPUT][0]gpu:links = 18 (default)
[INPUT][0]GLB_T = 8
[INPUT][0]GLB_X = 4 (default)
[INPUT][0]beta = 6
[INPUT][0]bc_t = periodic (default)
[INPUT][0]gauge start = cold (default)
[INPUT][0]measure = no (default)
[INPUT][0]seed = 1 (default)
EOF

# input echo: every key, defaults marked, after the head and before the program's own lines
for case in full defaults; do
  run_demo "$work/$case.log" "good_$case.in"
  grep '^\[INPUT\]' "$work/$case.log" >"$work/echo_got"
  check "good_$case.in: input echo" cmp -s "$work/echo_$case" "$work/echo_got" ||
    diff "$work/echo_$case" "$work/echo_got"
  check "good_$case.in: the echo comes before the program's lines" awk \
    '/^\[INPUT\]/ { last = NR } /^\[DEMO\]/ && !demo { demo = NR }
     END { exit !(last > 0 && demo > last) }' "$work/$case.log"
done

# the head of the log of good_full.in
log="$work/full.log"
head1=$(head -n 1 "$log")
check "head: separator line first" sh -c "printf '%s\n' '$head1' | grep -q -E \
  '^\[SETUP\]\[0\]======== setup_demo: start [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}, host [^ ]+ ========$'"
# has LINE: the log has LINE exactly once
has() { [ "$(grep -c -F -x -e "$1" "$log")" -eq 1 ]; }
# has_re REGEX: the log has one line matching the extended REGEX
has_re() { [ "$(grep -c -E -e "$1" "$log")" -eq 1 ]; }
check "head: command line" has_re "^\[SETUP\]\[0\]command line: [^ ]*setup_demo -i good_full.in -o $log\$"
check "head: working directory" has "[SETUP][0]working directory: $(cd "$inputs" && pwd -P)"
check "head: input file" has "[SETUP][0]input file: good_full.in"
for label in "LibHR version" "source revision" "gauge group" "representation" "MPI" "OpenMP" \
  "GPU backend" "CPU Dirac kernels" "FFTW 3" "MPFR" "debug checks" "compiler version" \
  "compiler and flags"; do
  check "head: build line '$label'" has_re "^\[SETUP\]\[0\]$(printf '%-18s' "$label"): [^ ]"
done
version=$(sed -n 's/^\[SETUP\]\[0\]LibHR version     : //p' "$log")
check "head: source revision from git describe or the package version" has_re \
  "^\[SETUP\]\[0\]source revision   : ([^ ]+ \(git describe --always --dirty --tags at configure time\)|$version \(package version: the sources were no git checkout\))\$"
threads=1
if has "[SETUP][0]OpenMP            : yes"; then threads=2; fi
check "head: ranks and threads" has "[SETUP][0]1 MPI rank(s), $threads OpenMP thread(s) per rank"

# -o appends: a second run keeps the first run's part whole
cp "$log" "$work/first_part"
run_demo "$log" good_full.in
check "second run into the same log: exit 0" test "$rc" -eq 0
check "second run: the first part kept" cmp -s -n "$(wc -c <"$work/first_part")" "$work/first_part" "$log"
check "second run: two separator lines" test "$(grep -c '^\[SETUP\]\[0\]======== setup_demo: start ' "$log")" -eq 2
check "second run: the program's line twice" test "$(grep -c '^\[DEMO\]\[0\]' "$log")" -eq 2
check "second run: its part starts with a separator line" sh -c \
  "tail -n +$(($(grep -c '' "$work/first_part") + 1)) '$log' | head -n 1 | grep -q '^\[SETUP\]\[0\]======== setup_demo: start '"

# a fatal error (a bad input value) goes into the log with the same text as on stderr
run_demo "$work/bad.log" bad_double.in
expected=$(sed -n '1s|^// expect: ||p' "$inputs/bad_double.in")
check "bad input value: exit code 2" test "$rc" -eq 2
check "bad input value: the message on stderr" test "$(cat "$work/err")" = "$expected"
check "bad input value: the log ends with the same text" test "$(tail -n 1 "$work/bad.log")" = "$expected"
check "bad input value: the log has its head" grep -q '^\[SETUP\]\[0\]input file: bad_double.in$' "$work/bad.log"

# an argument with a space and a quote: quoted for the shell on the command line of the head;
# the input file cannot be opened: the message ends the log
run_demo "$work/quote.log" "no such 'file'.in"
check "missing input file: exit code 2" test "$rc" -eq 2
check "command line quoted for the shell" grep -q -x -E \
  "\[SETUP\]\[0\]command line: [^ ]*setup_demo -i 'no such '\\\\''file'\\\\''\.in' -o $work/quote\.log" "$work/quote.log"
check "missing input file: the message ends the log" test "$(tail -n 1 "$work/quote.log")" = \
  "no such 'file'.in: cannot open the input file (No such file or directory)"

# the log's directory: created when missing; under a regular file refused (exit 3)
run_demo "$work/new/dir/run.log" good_defaults.in
check "missing log directory: created" sh -c "test $rc -eq 0 && grep -q '^\[DEMO\]' '$work/new/dir/run.log'"
: >"$work/plain"
run_demo "$work/plain/run.log" good_defaults.in
check "log under a regular file: exit code 3" test "$rc" -eq 3
check "log under a regular file: message" test "$(cat "$work/err")" = \
  "log file '$work/plain/run.log': '$work/plain' is not a directory; choose a log file (-o) where files can be written"

if [ -n "$HR_MPIRUN" ]; then
  log="$work/mpi.log"
  run_demo "$log" good_full.in "$HR_MPIRUN" -np 2 --oversubscribe
  check "2 ranks: exit 0" test "$rc" -eq 0
  check "2 ranks: one head (rank 0)" test "$(grep -c '^\[SETUP\]\[0\]======== setup_demo: start ' "$log")" -eq 1
  check "2 ranks: ranks and threads" has "[SETUP][0]2 MPI rank(s), $threads OpenMP thread(s) per rank"
  check "2 ranks: input echo once" sh -c "grep '^\[INPUT\]' '$log' | cmp -s - '$work/echo_full'"
  run_demo "$work/mpi_bad.log" bad_double.in "$HR_MPIRUN" -np 2 --oversubscribe
  check "2 ranks: bad input value in rank 0's log" test "$(tail -n 1 "$work/mpi_bad.log")" = "$expected"
fi

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
