#!/bin/sh
# test_eigenvalues.sh -- tests of Measure/eigenvalues (run by make check in the build folder of
# TestProgram/Inverters; HR_SRCDIR comes from Make/common.am):
#  1. SU(3) builds: on the stored periodic 8^4 configuration (m0 = 3, csw = 1.234, 3
#     eigenvalues, precision 1e-8) exactly 3 lines
#       conf=<file> m0=3 csw=1.234 n=<i> eigenvalue=<%.15e> residual=<%.15e>
#     with n = 0, 1, 2, ascending eigenvalues and residuals <= 1e-8; in SU(3) fundamental
#     builds the eigenvalues agree to 1e-9 relative with the values written below (computed by
#     the CPU build); eig:maxiter = 1 with eig:precision = 1e-14 -> exit 5, "did not converge",
#     no eigenvalue line;
#  2. every build: no eig:nev, both eig:mass and eig:kappa, eig:nev larger than the lattice
#     allows -> exit 2 with "file:line: key:" on stderr; a missing configuration -> exit 3
#     naming it.
# Exit: 0 pass, 1 fail.
prog=../../Measure/eigenvalues
conf=${HR_STORED_CONFS:-${HR_SRCDIR:-../..}/TestProgram/data}/HiRep_qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_NUM_THREADS
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
work=eigenvalues_test.tmp
rm -rf $work && mkdir -p $work || exit 99
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cfg=../../Include/hr_build_config.h
# mkinput NAME LINES: an 8^4 input file $work/NAME with the given eig: lines
mkinput() {
  printf 'GLB_T = 8\nGLB_X = 8\nGLB_Y = 8\nGLB_Z = 8\nbc_t = periodic\n%s\nlog:default = 0\n' \
    "$2" >$work/$1
}
# expect NAME CONF CODE MESSAGE: eigenvalues on $work/NAME and CONF exits with CODE and
# stderr holds MESSAGE
expect() {
  "$prog" -i $work/$1 "$2" >$work/$1.out 2>$work/$1.err
  rc=$?
  if [ $rc -ne "$3" ]; then
    bad "$1: exit code $rc, expected $3: $(cat $work/$1.err)"
  elif ! grep -qF -- "$4" $work/$1.err; then
    bad "$1: stderr lacks '$4': $(cat $work/$1.err)"
  elif grep -q '^conf=' $work/$1.out; then
    bad "$1: eigenvalue lines printed on failure"
  else
    echo "PASS: $1: exit $rc, $(head -n 1 $work/$1.err)"
  fi
}

if grep -q '^#define NG 3$' $cfg && [ -r "$conf" ]; then
  mkinput good "eig:mass = 3.0
eig:csw = 1.234
eig:nev = 3
eig:precision = 1e-8"
  if ! "$prog" -i $work/good "$conf" >$work/good.out 2>$work/good.err; then
    bad "good input: exit code $?: $(cat $work/good.err)"
  else
    grep '^conf=' $work/good.out >$work/good.lines
    num='[0-9]\.[0-9]\{15\}e[-+][0-9]\{2\}'
    n=$(grep -c "^conf=$conf m0=3 csw=1.234 n=[012] eigenvalue=$num residual=$num\$" \
      $work/good.lines)
    [ "$n" -eq 3 ] && [ "$(wc -l <$work/good.lines)" -eq 3 ] ||
      bad "expected 3 lines in the documented format, got: $(cat $work/good.out)"
    sed 's/.* n=\([0-9]*\) eigenvalue=\([^ ]*\) residual=\(.*\)/\1 \2 \3/' $work/good.lines \
      >$work/good.values
    awk 'NR - 1 != $1 { print "line " NR ": n = " $1; bad = 1 }
         NR > 1 && $2 < prev { print "not ascending at n = " $1; bad = 1 }
         !($3 <= 1e-8) { print "residual " $3 " > 1e-8 at n = " $1; bad = 1 }
         { prev = $2 } END { exit bad }' $work/good.values || bad "eigenvalue lines"
    if grep -q '^#define HR_REPR_FUND 1$' $cfg; then
      printf '0 1.676436836295892e+01\n1 1.694500589822678e+01\n2 1.698467687455640e+01\n' \
        >$work/reference
      paste $work/reference $work/good.values | awk '{ d = ($4 - $2) / $2; if (d < 0) d = -d;
        if (!(d <= 1e-9)) { print "n = " $1 ": " $4 " vs reference " $2; bad = 1 } }
        END { exit bad }' || bad "eigenvalues differ from the reference values"
    fi
    [ $fail -eq 0 ] && echo "PASS: stored configuration: $(head -n 1 $work/good.lines)"
  fi
  mkinput noconv "eig:mass = 3.0
eig:nev = 3
eig:precision = 1e-14
eig:maxiter = 1"
  expect noconv "$conf" 5 "did not converge"
else
  echo "SKIP: stored configuration part (not SU(3), or $conf missing)"
fi

mkinput no_nev "eig:mass = 0.1"
expect no_nev $work/none 2 "$work/no_nev:7: eig:nev: required key missing"
mkinput both "eig:mass = 0.1
eig:kappa = 0.12
eig:nev = 4"
expect both $work/none 2 "$work/both:7: eig:kappa: give only one of eig:mass"
mkinput big "eig:kappa = 0.12
eig:nev = 49151"
expect big $work/none 2 "$work/big:7: eig:nev: 49151 is too large for the lattice"
mkinput noconf "eig:kappa = 0.12
eig:nev = 4"
expect noconf $work/none 3 "$work/none"
exit $fail
