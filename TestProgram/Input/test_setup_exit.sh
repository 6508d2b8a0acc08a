#!/bin/sh
# test_setup_exit.sh -- runs setup_demo (hr_setup, the library's readers, a key table,
# input_finish) on the files bad_*.in and good_*.in of inputs/, and check_demo (keys with
# ranges, a cross-key check, the lattice and process-grid keys) on check_*.in: a *bad_*.in
# file must stop the program with
# exit code 2 (HR_EXIT_INPUT) and print on stderr exactly the message given on its first line
# ("// expect: MESSAGE"); a *good*.in file must run and print the log line given there. Also
# checks the command line (-h, unknown option, missing -i, -o LOGFILE) and, in MPI builds, the
# same with 2 ranks, plus mpi2_*.in (process grid against the rank count) with 2 ranks only.
# check_good.in (a 1x1x1x1 grid) runs on one process only. GPU builds: the device of every
# rank is logged (node-local rank mod devices), HR_GPU_DEVICE out of range stops, and the
# keys gpu:halo and gpu:links (gpu_*.in) choose the halo path and the numbers per link; other
# builds accept the keys (good_gpu_key.in).
set -u
prog="$PWD/setup_demo"
check_prog="$PWD/check_demo"
inputs="${HR_SRCDIR:?HR_SRCDIR is not set (run through make check)}/TestProgram/Input/inputs"
HR_MPIRUN="${HR_MPIRUN:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/hr_setup_exit.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect_run NAME CODE STREAM TEXT COMMAND...: run COMMAND in the inputs folder; the exit
# code must be CODE and STREAM (out or err) must contain the line TEXT exactly once.
expect_run() {
  name=$1 code=$2 stream=$3 text=$4
  shift 4
  checks=$((checks + 1))
  (cd "$inputs" && "$@") >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" -ne "$code" ]; then
    fail "$name: exit code $rc, expected $code"
    sed 's/^/  stderr: /' "$work/err"
    return
  fi
  n=$(grep -c -F -x -e "$text" "$work/$stream")
  if [ "$n" -ne 1 ]; then
    fail "$name: std$stream has the line $n times, expected once: $text"
    sed 's/^/  stdout: /' "$work/out"
    sed 's/^/  stderr: /' "$work/err"
    return
  fi
  echo "PASS: $name"
}

# run_inputs PATTERN PROGRAM [LAUNCHER...]: PROGRAM on every inputs/PATTERN file
run_inputs() {
  pattern=$1 program=$2
  shift 2
  for file in "$inputs"/$pattern; do
    base=$(basename "$file")
    expected=$(sed -n '1s|^// expect: ||p' "$file")
    [ -n "$expected" ] || { fail "$base: no '// expect:' on line 1"; continue; }
    case $base in
      *bad_*) expect_run "$* $base" 2 err "$expected" "$@" "$program" -i "$base" ;;
      *) expect_run "$* $base" 0 out "$expected" "$@" "$program" -i "$base" ;;
    esac
  done
}

run_all() { # $@: launcher prefix (empty, or mpirun -np 2)
  run_inputs 'bad_*.in' "$prog" "$@"
  run_inputs 'good_*.in' "$prog" "$@"
  run_inputs 'check_bad_*.in' "$check_prog" "$@"
}

run_all
run_inputs 'check_good*.in' "$check_prog"
expect_run "-h" 0 out "usage: setup_demo [-i INPUT_FILE] [-o LOG_FILE] [-h]" "$prog" -h
expect_run "unknown option" 2 err "setup_demo: unknown option '-x'" "$prog" -i good_full.in -x
expect_run "stray argument" 2 err "setup_demo: unknown argument 'extra'" "$prog" extra
expect_run "-i without file" 2 err "setup_demo: option -i needs a file name" "$prog" -i
expect_run "-i twice" 2 err "setup_demo: option -i given twice" "$prog" -i a.in -i b.in
expect_run "no input file" 2 err "setup_demo: no input file; give one with -i INPUT_FILE" "$prog"
expect_run "missing input file" 2 err "nofile.in: cannot open the input file (No such file or directory)" \
  "$prog" -i nofile.in

# -o LOGFILE: the log goes to the file, nothing to stdout
checks=$((checks + 1))
(cd "$inputs" && "$prog" -i good_full.in -o "$work/demo.log") >"$work/out" 2>"$work/err"
if [ $? -ne 0 ] || [ -s "$work/out" ] ||
  ! grep -q -F -x "$(sed -n '1s|^// expect: ||p' "$inputs/good_full.in")" "$work/demo.log"; then
  fail "-o LOGFILE: log not in the file or not only there"
else
  echo "PASS: -o LOGFILE"
fi

if [ -n "$HR_MPIRUN" ]; then
  # every rank parses the file and finds the error; rank 0 prints it once; exit code kept
  run_all "$HR_MPIRUN" -np 2 --oversubscribe
  run_inputs 'mpi2_*.in' "$check_prog" "$HR_MPIRUN" -np 2 --oversubscribe
fi

# GPU builds: hr_gpu_read_input gives every rank a device, device = node-local rank mod the
# node's devices (one line per rank in rank 0's log; the tests run on one node, so the
# node-local rank is the rank), and HR_GPU_DEVICE out of range stops (exit 4)
# check_devices NRANKS LAUNCHER...: the log names NRANKS ranks, each on the right device
check_devices() {
  nranks=$1
  shift
  checks=$((checks + 1))
  (cd "$inputs" && "$@" "$prog" -i good_full.in) >"$work/out" 2>"$work/err"
  n='\([0-9]*\)'
  pat="^\\[GPU\\]\\[10\\]rank $n: device $n of $n on its node (node-local rank $n of $n.*"
  bad=$(sed -n "s/$pat/\\1 \\2 \\3 \\4 \\5/p" "$work/out" |
    awk -v n="$nranks" '{ seen++; if ($2 != $4 % $3 || $4 != $1 || $5 != n) bad++ }
                        END { print (seen == n ? 0 : 1) + bad }')
  if [ "$bad" -ne 0 ]; then
    fail "GPU devices on $nranks rank(s): not one line per rank, device = local rank mod devices"
    sed 's/^/  stdout: /' "$work/out"
  else
    echo "PASS: GPU devices on $nranks rank(s)"
  fi
}
if ! (cd "$inputs" && "$prog" -i good_full.in) | grep -q "GPU backend *: no$"; then
  check_devices 1
  checks=$((checks + 1))
  (cd "$inputs" && HR_GPU_DEVICE=99 "$prog" -i good_full.in) >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" -ne 4 ] || ! grep -q "HR_GPU_DEVICE=99: not a device number" "$work/err"; then
    fail "HR_GPU_DEVICE=99: exit code $rc, expected 4 with a message"
  else
    echo "PASS: HR_GPU_DEVICE out of range"
  fi
  if [ -n "$HR_MPIRUN" ]; then check_devices 2 "$HR_MPIRUN" -np 2 --oversubscribe; fi
  # gpu:halo forces the halo path; HR_GPU_HALO in the environment overrides the key
  ( unset HR_GPU_HALO; run_inputs 'gpu_*.in' "$prog" ) | tee "$work/gpu_runs"
  failures=$((failures + $(grep -c '^FAIL' "$work/gpu_runs")))
  checks=$((checks + $(grep -c -E '^(PASS|FAIL)' "$work/gpu_runs")))
  expect_run "HR_GPU_HALO=host over gpu:halo = device" 0 out \
    "[GPU][10]halo exchange (MPI builds): staged through host memory" \
    env HR_GPU_HALO=host "$prog" -i gpu_halo_device.in
  expect_run "HR_GPU_HALO=device over gpu:halo = host" 0 out \
    "[GPU][10]halo exchange (MPI builds): device memory handed to MPI" \
    env HR_GPU_HALO=device "$prog" -i gpu_halo_host.in
  checks=$((checks + 1))
  (cd "$inputs" && HR_GPU_HALO=hots "$prog" -i good_full.in) >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" -ne 4 ] || ! grep -q "HR_GPU_HALO=hots: not a halo path" "$work/err"; then
    fail "HR_GPU_HALO=hots: exit code $rc, expected 4 with a message"
  else
    echo "PASS: HR_GPU_HALO misspelt"
  fi
fi

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
