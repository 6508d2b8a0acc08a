#!/bin/sh
# test_wilson_flow_program.sh -- tests of the program WilsonFlow/wilson_flow (run by make check
# in the build folder of TestProgram/Flow; HR_SRCDIR and HR_MPIRUN come from Make/common.am):
#  1. SU(3) builds: the shipped input file (openQCD ms3's settings: RK3, eps = 0.0008, t = 0 and
#     0.2) on the stored periodic 8^4 configuration prints Wact, Yact and Q at t = 0 and 0.2
#     equal to openQCD's ms3 log (TestProgram/data/ComparisonLogs, 7 and 3 significant digits
#     as the log prints them), and GLB_T time-slice lines of each kind;
#  2. every build: impossible values stop before any work with exit code 2 and
#     "file:line: key: ..." naming the line of the key (flow:eps = -0.1, flow:meas every = 0,
#     flow:action = symanzik with bc_t = open); a missing configuration stops with exit code 3.
# Exit: 0 pass, 1 fail.
prog=../../WilsonFlow/wilson_flow
src=${HR_SRCDIR:-../..}
confs=${HR_STORED_CONFS:-$src/TestProgram/data}
conf=$confs/openQCD_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
work=wilson_flow_program.tmp
rm -rf $work && mkdir -p $work || exit 99
fail=0
check() { # check DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then echo "PASS: $d"; else echo "FAIL: $d"; fail=1; fi
}
input=$src/WilsonFlow/input_file

# 1. against openQCD's ms3 log
if "$prog" -i "$input" "$conf" > $work/run.out 2> $work/run.err; then
  # the value of KEY at flow time T, printed with the given number of significant digits
  value() { grep "t=$1 Wact=" $work/run.out | sed "s/.* $2=\([^ ]*\).*/\1/" | head -1 |
            awk -v d="$3" '{ printf "%.*e\n", d - 1, $1 }'; }
  check "t=0 Wact = 1.472098e+05 (openQCD ms3)" test "$(value 0 Wact 7)" = "1.472098e+05"
  check "t=0 Yact = 8.273978e+03" test "$(value 0 Yact 7)" = "8.273978e+03"
  check "t=0 Q = -1.37e-01" test "$(value 0 Q 3)" = "-1.37e-01"
  check "t=0.2 Wact = 9.293370e+04" test "$(value 0.2 Wact 7)" = "9.293370e+04"
  check "t=0.2 Yact = 1.122513e+04" test "$(value 0.2 Yact 7)" = "1.122513e+04"
  check "t=0.2 Q = 4.21e-01" test "$(value 0.2 Q 3)" = "4.21e-01"
  check "8 Wsl lines at t=0.2" test "$(grep -c 't=0.2 Wsl T=' $work/run.out)" -eq 8
elif grep -q "wrong gauge group\|SU(3)" $work/run.err; then
  echo "SKIP: the stored configurations are SU(3) (this build is another theory)"
else
  echo "FAIL: wilson_flow on $conf"; cat $work/run.err; fail=1
fi

# 2. bad values, each reported at its own line
bad() { # bad NAME SED-EXPRESSION EXPECTED-MESSAGE
  sed "$2" "$input" > $work/$1.in
  "$prog" -i $work/$1.in "$conf" > $work/$1.out 2>&1
  rc=$?
  line=$(grep -n "$4" $work/$1.in | head -1 | cut -d: -f1)
  check "$1: exit code 2" test $rc -eq 2
  check "$1: '$1.in:$line: $3'" grep -q "$1.in:$line: $3" $work/$1.out
}
bad eps 's/^flow:eps = .*/flow:eps = -0.1/' "flow:eps: value -0.1 out of range: must be > 0" "^flow:eps"
bad meas 's/^flow:meas every = .*/flow:meas every = 0/' \
  "flow:meas every: value 0 out of range: must be > 0" "^flow:meas every"
bad symanzik 's/^bc_t = periodic/bc_t = open/; s/^flow:action = wilson/flow:action = symanzik/' \
  "flow:action: with bc_t = open only flow:action = wilson" "^flow:action"
"$prog" -i "$input" $work/no_such_file > $work/missing.out 2>&1
rc=$?
check "missing configuration: exit code 3" test $rc -eq 3
check "missing configuration: named" grep -q "no_such_file" $work/missing.out
[ $fail -eq 0 ] && rm -rf $work
exit $fail
