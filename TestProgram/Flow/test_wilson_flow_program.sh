#!/bin/sh
# test_wilson_flow_program.sh -- tests of the program WilsonFlow/wilson_flow (run by make check
# in the build folder of TestProgram/Flow; HR_SRCDIR and HR_MPIRUN come from Make/common.am):
#  1. SU(3) builds: the shipped input file (openQCD ms3's settings: RK3, eps = 0.0008, t = 0 and
#     0.2) on the stored periodic 8^4 configuration prints Wact, Yact and Q at t = 0 and 0.2
#     equal to openQCD's ms3 log (TestProgram/data/ComparisonLogs, 7 and 3 significant digits
#     as the log prints them), and, with flow:time slices at its default false, no time-slice
#     lines; every data line starts with the logger's prefix [MAIN][0] and prints its numbers
#     with %.16e;
#  2. SU(3) builds, flow:time slices = true on a coarse flow (RK3, eps = 0.05 to t = 0.4,
#     measured every 0.05): GLB_T lines Wsl, Ysl and Qsl at every measurement, in that order
#     after the totals; t0, sqrt(t0) and w0 printed with %.16e, t0 equal to the linear
#     interpolation of the printed t2E values at 0.3 (1e-12 relative);
#  3. every build: impossible values stop before any work with exit code 2 and
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
su3=0
if "$prog" -i "$input" "$conf" > $work/run.out 2> $work/run.err; then
  su3=1
  # the value of KEY at flow time T, printed with the given number of significant digits
  value() { grep "t=$1 Wact=" $work/run.out | sed "s/.* $2=\([^ ]*\).*/\1/" | head -1 |
            awk -v d="$3" '{ printf "%.*e\n", d - 1, $1 }'; }
  check "t=0 Wact = 1.472098e+05 (openQCD ms3)" test "$(value 0 Wact 7)" = "1.472098e+05"
  check "t=0 Yact = 8.273978e+03" test "$(value 0 Yact 7)" = "8.273978e+03"
  check "t=0 Q = -1.37e-01" test "$(value 0 Q 3)" = "-1.37e-01"
  check "t=0.2 Wact = 9.293370e+04" test "$(value 0.2 Wact 7)" = "9.293370e+04"
  check "t=0.2 Yact = 1.122513e+04" test "$(value 0.2 Yact 7)" = "1.122513e+04"
  check "t=0.2 Q = 4.21e-01" test "$(value 0.2 Q 3)" = "4.21e-01"
  check "no time-slice lines by default" test "$(grep -c ' [WYQ]sl T=' $work/run.out)" -eq 0
  check "every line after the head of the log has the prefix [MAIN][0]" \
    test "$(grep -v '^\[SETUP\]\[0\]\|^\[INPUT\]\[0\]' $work/run.out | grep -vc '^\[MAIN\]\[0\]')" -eq 0
  e16='-\{0,1\}[0-9]\.[0-9]\{16\}e[-+][0-9]\{2,3\}'
  check "totals with %.16e" test "$(grep -c "^\[MAIN\]\[0\]conf=[^ ]* t=[0-9.]* Wact=$e16 Yact=$e16 Q=$e16 t2E=$e16 steps=[0-9]*\$" $work/run.out)" -eq 2
elif grep -q "wrong gauge group\|SU(3)" $work/run.err; then
  echo "SKIP: the stored configurations are SU(3) (this build is another theory)"
else
  echo "FAIL: wilson_flow on $conf"; cat $work/run.err; fail=1
fi

# 2. time slices, t0 and w0 on a coarse flow
if [ $su3 -eq 1 ]; then
  sed -e 's/^flow:eps = .*/flow:eps = 0.05/' -e 's/^flow:tmax = .*/flow:tmax = 0.4/' \
    -e 's/^flow:meas every = .*/flow:meas every = 0.05/' \
    -e 's/^flow:time slices = .*/flow:time slices = true/' "$input" > $work/slices.in
  if "$prog" -i $work/slices.in "$conf" > $work/slices.out 2> $work/slices.err; then
    for kind in Wsl Ysl Qsl; do
      check "8 $kind lines at each of the 9 measurements" \
        test "$(grep -c "^\[MAIN\]\[0\]conf=[^ ]* t=[0-9.]* $kind T=[0-7] $e16\$" $work/slices.out)" -eq 72
    done
    # the lines of a measurement: totals, then Wsl T=0..7, Ysl T=0..7, Qsl T=0..7
    check "slice lines follow their totals in order" awk '
      /Wact=/ { t = $2; n = 0; next }
      / [WYQ]sl T=/ { k = int(n / 8); want = (k == 0 ? "Wsl" : k == 1 ? "Ysl" : "Qsl")
                      if ($2 != t || $3 != want || $4 != "T=" (n % 8)) bad = 1; n++ }
      END { exit bad }' $work/slices.out
    check "t0 and sqrt(t0) with %.16e" grep -q "^\[MAIN\]\[0\]conf=[^ ]* t0=$e16 sqrt(t0)=$e16\$" $work/slices.out
    check "w0 with %.16e" grep -q "^\[MAIN\]\[0\]conf=[^ ]* w0=$e16\$" $work/slices.out
    check "t0 = the interpolation of the printed t2E at 0.3" awk '
      function abs(v) { return v < 0 ? -v : v }
      /Wact=/ { split($2, a, "="); split($6, b, "="); t = a[2] + 0; e = b[2] + 0
                if (!found && e >= 0.3 && n > 0) { want = tp + (t - tp) * (0.3 - ep) / (e - ep); found = 1 }
                tp = t; ep = e; n++ }
      / t0=/ { split($2, c, "="); got = c[2] + 0; split($3, d, "="); r = d[2] + 0 }
      END { exit !(found && abs(got - want) <= 1e-12 * want && abs(r * r - got) <= 1e-12 * got) }' \
      $work/slices.out
  else
    echo "FAIL: wilson_flow with flow:time slices = true"; cat $work/slices.err; fail=1
  fi
fi

# 3. bad values, each reported at its own line
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
