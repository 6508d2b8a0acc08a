#!/bin/sh
# test_momentum_program.sh -- tests of the program Measure/momentum (run by make check in the
# build folder of TestProgram/Fourier; HR_SRCDIR comes from Make/common.am):
#  1. SU(3) builds, the shipped input file on the stored open-boundary 8^4 configuration with
#     gf:save: exit 0; one gaugefix line with theta below gf:tolerance; the Polyakov correlator
#     at every r^2 of the 8^3 lattice (32 values); gluon lines with p2 ascending from 0; four
#     quark lines; the lines in the documented order (header, polyakov, gaugefix, saved,
#     gluon, quark), each in its documented format (prefix [MAIN][0], %.16e); the saved fixed
#     configuration, measured again with gf:type = none, gives the same Polyakov correlator
#     to 1e-12 (it is gauge invariant) and is already fixed (theta of a second Landau fixing
#     below the tolerance after 0 iterations);
#  2. every build: impossible values stop before any work with exit code 2 and
#     "file:line: key: ..." (gf:type = diagonal, gf:tolerance = -1, gf:save with gf:type =
#     none, bc_t = open with the quark propagator); a missing configuration stops with exit
#     code 3.
# Exit: 0 pass, 1 fail, 77 skip (a build without FFTW).
prog=../../Measure/momentum
src=${HR_SRCDIR:-../..}
confs=${HR_STORED_CONFS:-$src/TestProgram/data}
conf=$confs/openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
work=momentum_program.tmp
rm -rf $work && mkdir -p $work || exit 99
input=$src/Measure/input_file
fail=0
check() { # check DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then echo "PASS: $d"; else echo "FAIL: $d"; fail=1; fi
}
"$prog" -i "$input" "$conf" > $work/probe.out 2>&1
if grep -q "no FFTW" $work/probe.out; then
  echo "SKIP: this build has no FFTW"
  exit 77
fi

# 1. a full run
sed "s|^// gf:save = .*|gf:save = $work/fixed|" "$input" > $work/run.in
if "$prog" -i $work/run.in "$conf" > $work/run.out 2> $work/run.err; then
  check "one gaugefix line" test "$(grep -c ' gaugefix iterations=' $work/run.out)" -eq 1
  theta=$(sed -n 's/.* gaugefix iterations=[0-9]* theta=\([^ ]*\) .*/\1/p' $work/run.out)
  check "theta $theta < 1e-12" awk -v t="$theta" 'BEGIN { exit !(t + 0 < 1e-12 && t + 0 >= 0) }'
  check "32 Polyakov-correlator lines (every r^2 of 8^3)" test "$(grep -c ' polyakov r2=' $work/run.out)" -eq 32
  check "gluon lines, p2 ascending from 0" sh -c "grep ' gluon p2=' $work/run.out |
    sed 's/.*p2=\([^ ]*\) D=.*/\1/' | awk 'NR == 1 && \$1 != 0 { exit 1 } NR > 1 && \$1 <= last { exit 1 } { last = \$1 } END { exit NR < 5 }'"
  check "four quark lines" test "$(grep -c ' quark n=' $work/run.out)" -eq 4
  # the order and the formats of Doc/momentum_space.md, section 5
  check "order: header, polyakov, gaugefix, saved, gluon, quark" test "$(grep '^\[MAIN\]' \
    $work/run.out | sed -e 's/^\[MAIN\]\[0\]momentum: SU(.*/header/' \
    -e 's/^\[MAIN\]\[0\]conf=[^ ]* \([a-z]*\) .*/\1/' | uniq | tr '\n' ' ')" = \
    "header polyakov gaugefix saved gluon quark "
  e16='-\{0,1\}[0-9]\.[0-9]\{16\}e[-+][0-9]\{2,3\}'
  pre='^\[MAIN\]\[0\]conf=[^ ]* '
  check "polyakov lines as documented" test "$(grep -c "${pre}polyakov r2=[0-9]* C=$e16\$" $work/run.out)" -eq 32
  check "gaugefix line as documented" grep -q "${pre}gaugefix iterations=[0-9]* theta=$e16 functional=$e16\$" $work/run.out
  check "saved line as documented" grep -q "${pre}saved the fixed configuration as $work/fixed\$" $work/run.out
  check "gluon lines as documented" test "$(grep -c "${pre}gluon p2=$e16 D=$e16\$" $work/run.out)" -eq "$(grep -c ' gluon ' $work/run.out)"
  check "quark lines as documented" test "$(grep -c "${pre}quark n=[0-9]*,[0-9]*,[0-9]*,[0-9]* p2=$e16 B=$e16,$e16 V0=$e16,$e16 V1=$e16,$e16 V2=$e16,$e16 V3=$e16,$e16\$" $work/run.out)" -eq 4
  check "fixed configuration saved" test -s $work/fixed
  "$prog" -i $work/run.in "$conf" > $work/twice.out 2>&1
  rc=$?
  check "the same gf:save again: refused before any work (exit 2), not overwritten" \
    sh -c "test $rc -eq 2 && grep -q 'gf:save: $work/fixed exists: saved files are not overwritten' $work/twice.out && ! grep -q gaugefix $work/twice.out"
  sed 's/^gf:type = .*/gf:type = none/; /^quark:/d' "$input" > $work/none.in
  if "$prog" -i $work/none.in $work/fixed > $work/none.out 2>&1; then
    grep ' polyakov r2=' $work/run.out | sed 's/.* r2=\([^ ]*\) C=\([^ ]*\)/\1 \2/' > $work/c1
    grep ' polyakov r2=' $work/none.out | sed 's/.* r2=\([^ ]*\) C=\([^ ]*\)/\1 \2/' > $work/c2
    check "Polyakov correlator of the saved fixed configuration equals the original (1e-12)" \
      sh -c "paste $work/c1 $work/c2 | awk '{ d = \$2 - \$4; if (d < 0) d = -d; s = \$2 < 0 ? -\$2 : \$2;
        if (\$1 != \$3 || d > 1e-12 * (s + 1e-3)) bad++ } END { exit (bad > 0 || NR != 32) }'"
  else
    echo "FAIL: momentum on the saved configuration"; cat $work/none.out; fail=1
  fi
  sed '/^quark:/d' "$input" > $work/again.in
  "$prog" -i $work/again.in $work/fixed > $work/again.out 2>&1
  check "the saved configuration is already fixed (0 iterations)" \
    grep -q ' gaugefix iterations=0 ' $work/again.out
elif grep -q "SU(3)\|gauge group" $work/run.err; then
  echo "SKIP: the stored configurations are SU(3) (this build is another theory)"
else
  echo "FAIL: momentum on $conf"; cat $work/run.err; fail=1
fi

# 2. bad values, each reported at its own line
bad() { # bad NAME SED-EXPRESSION EXPECTED-MESSAGE LINE-PATTERN
  sed "$2" "$input" > $work/$1.in
  "$prog" -i $work/$1.in "$conf" > $work/$1.out 2>&1
  rc=$?
  line=$(grep -n "$4" $work/$1.in | head -1 | cut -d: -f1)
  check "$1: exit code 2 (got $rc)" test $rc -eq 2
  check "$1: '$1.in:$line: $3'" grep -q "$1.in:$line: $3" $work/$1.out
}
bad type 's/^gf:type = .*/gf:type = diagonal/' "gf:type:" "^gf:type"
bad tolerance 's/^gf:tolerance = .*/gf:tolerance = -1/' "gf:tolerance:" "^gf:tolerance"
bad savenone 's/^gf:type = .*/gf:type = none/; s|^// gf:save = .*|gf:save = x|' "gf:save: nothing to save" "^gf:save"
bad openquark 's/^bc_t = .*/bc_t = open/' "bc_t: the quark propagator has its point source at the origin" "^bc_t"
"$prog" -i "$input" $work/no_such_file > $work/missing.out 2>&1
rc=$?
check "missing configuration: exit code 3 (got $rc)" test $rc -eq 3
[ $fail -eq 0 ] && rm -rf $work
exit $fail
