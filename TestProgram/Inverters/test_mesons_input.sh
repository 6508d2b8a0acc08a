#!/bin/sh
# test_mesons_input.sh -- the input checks of Spectrum/mk_mesons (run by make check in the build
# folder of TestProgram/Inverters; no configuration is read, so it takes well under a second):
# each bad input file ends mk_mesons with exit code 2 and exactly "FILE:LINE: KEY: ..." on stderr,
#  - a misspelt mes:mass (mes:mas) as an unknown key at its line, with the suggestion;
#  - neither mes:mass nor mes:kappa: both named, at the last line of the file; both: the line
#    of the second;
#  - m0 = -8.5 with the clover term (4 + m0 <= 0: the clover blocks cannot be positive
#    definite), m0 = -4.5 with bc_t = open and csw = 0, m0 = -4 with csw = 0 (the solve
#    divides by 4 + m0), kappa = 0.6 with bc_t = open and cF = 0.1 (3 + m0 + cF <= 0 on the
#    slices next to the boundaries): at the line of the mass key, with the allowed range;
#  - mes:csw = -3, mes:precision = 1e-16, mes:mass = 2e12, mes:kappa = 0: at their lines;
# and input files that pass the checks (m0 = -8.5 with csw = 0 and periodic time, where the
# operator has no clover blocks; kappa = 0.5 with bc_t = open and cF = 0.1) go on to the
# configuration, which is missing here: exit code 3 naming it.
# Exit: 0 pass, 1 fail.
prog=../../Spectrum/mk_mesons
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
work=mesons_input_test.tmp
rm -rf $work && mkdir -p $work || exit 99
fail=0
# mkinput NAME BC_T CSW LINES: the input file $work/NAME
mkinput() {
  cat >$work/$1 <<EOI
GLB_T = 8
GLB_X = 8
GLB_Y = 8
GLB_Z = 8
bc_t = $2
mes:csw = $3
$4
mes:source_t = 3
log:default = 0
EOI
}
# expect NAME CODE MESSAGE: mk_mesons on $work/NAME exits with CODE and stderr holds MESSAGE
# ("@LINE(KEY)" in MESSAGE stands for the line of KEY in the file)
expect() {
  name=$1 code=$2 msg=$3
  key=$(echo "$msg" | sed -n 's/.*@LINE(\([^)]*\)).*/\1/p')
  if [ -n "$key" ]; then
    line=$(grep -n "^$key *=" $work/$name | head -1 | cut -d: -f1)
    msg=$(echo "$msg" | sed "s/@LINE([^)]*)/$line/")
  fi
  "$prog" -i $work/$name $work/no_such_configuration >$work/$name.out 2>$work/$name.err
  rc=$?
  if [ $rc -ne "$code" ]; then
    echo "FAIL: $name: exit code $rc, expected $code: $(cat $work/$name.err)"
    fail=1
  elif ! grep -qF -- "$msg" $work/$name.err; then
    echo "FAIL: $name: stderr lacks '$msg': $(cat $work/$name.err)"
    fail=1
  else
    echo "PASS: $name: exit $rc, $(head -n 1 $work/$name.err)"
  fi
}
in=$work

mkinput misspelt periodic 1.234 "mes:mas = -0.3"
expect misspelt 2 "$in/misspelt:@LINE(mes:mas): mes:mas: unknown key (did you mean 'mes:mass'?)"
mkinput neither periodic 1.234 ""
expect neither 2 "$in/neither:$(wc -l <$work/neither | tr -d ' '): mes:mass: required key missing: give exactly one of mes:mass (bare mass m0) and mes:kappa (hopping parameter kappa, m0 = 1/(2 kappa) - 4); add a line 'mes:mass = <number>' or 'mes:kappa = <number>'"
mkinput both periodic 1.234 "mes:kappa = 0.13
mes:mass = -0.3"
expect both 2 "$in/both:@LINE(mes:mass): mes:mass: give only one of mes:mass (bare mass m0) and mes:kappa (hopping parameter kappa, m0 = 1/(2 kappa) - 4) (mes:kappa is set on line"

mkinput mass_clover periodic 1.234 "mes:mass = -8.5"
expect mass_clover 2 "$in/mass_clover:@LINE(mes:mass): mes:mass: m0 = -8.5 is out of range: with the clover term (mes:csw = 1.234) m0 must be > -4 (kappa > 0)"
mkinput mass_open open 0 "mes:mass = -4.5"
expect mass_open 2 "$in/mass_open:@LINE(mes:mass): mes:mass: m0 = -4.5 is out of range: with bc_t = open m0 must be > -4 (kappa > 0)"
mkinput mass_minus4 periodic 0 "mes:mass = -4"
expect mass_minus4 2 "$in/mass_minus4:@LINE(mes:mass): mes:mass: m0 = -4 is out of range: with mes:csw = 0 the even/odd solve divides by 4 + m0, here 0: choose m0 != -4"
mkinput kappa_cf open 0 "mes:kappa = 0.6
cF = 0.1"
expect kappa_cf 2 "$in/kappa_cf:@LINE(mes:kappa): mes:kappa: kappa = 0.6 (m0 = 1/(2 kappa) - 4 = -3.16666666666667) is out of range: with bc_t = open and cF = 0.1 m0 must be > -3 - cF = -3.1 (kappa < 1/(2 (1 - cF)))"

mkinput csw periodic -3 "mes:kappa = 0.13"
expect csw 2 "$in/csw:@LINE(mes:csw): mes:csw: value -3 out of range: must be >= 0 (clover coefficient)"
mkinput precision periodic 1.234 "mes:kappa = 0.13
mes:precision = 1e-16"
expect precision 2 "$in/precision:@LINE(mes:precision): mes:precision: value 1e-16 out of range: must be >= 1e-15 and < 1"
mkinput mass_huge periodic 1.234 "mes:mass = 2e12"
expect mass_huge 2 "$in/mass_huge:@LINE(mes:mass): mes:mass: value 2e12 out of range: must be >= -1e12 and <= 1e12 (bare mass m0)"
mkinput kappa_zero periodic 1.234 "mes:kappa = 0"
expect kappa_zero 2 "$in/kappa_zero:@LINE(mes:kappa): mes:kappa: value 0 out of range: must be >= 5e-13"

# accepted: the missing configuration is what ends the program
mkinput wilson_doubler periodic 0 "mes:mass = -8.5"
expect wilson_doubler 3 "no_such_configuration"
mkinput kappa_cf_ok open 0 "mes:kappa = 0.5
cF = 0.1"
expect kappa_cf_ok 3 "no_such_configuration"

[ $fail -eq 0 ] && rm -rf $work
exit $fail
