#!/bin/sh
# test_converter.sh -- the converter program on the stored configurations: --info prints the
# format, lattice, group and the plaquette (HiRep normalisation) equal to the header values
# to 14 digits; hirep -> openqcd -> hirep reproduces a converter-written file byte for byte
# and the link bytes of the stored files; a truncated file and a wrong format stop it with
# exit code 3 and a message naming the file. SU(3) builds; other builds check that the
# openQCD file is refused. Exit: 0 pass, 1 fail.
conv=../../Converter/converter
. "${HR_SRCDIR:-../..}/TestProgram/test_common.sh"
work=conv_test_tmp
rm -rf $work && mkdir $work || exit 99
pb=qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
ng=$($conv --info "$dir/HiRep_$pb" | sed -n 's/^gauge group = SU(\(.*\))$/\1/p')
built=$($conv --info "$dir/HiRep_$pb" | grep -c '^plaquette = unavailable')
if [ "$built" -ne 0 ]; then
  # not an SU(3) build: header information only, openQCD refused
  $conv --info "$dir/openQCD_$pb" > $work/out 2>&1
  check "--info of an SU(3) file in another build prints the header" grep -q 'gauge group = SU(3)' $work/out
  $conv --from openqcd --to hirep "$dir/openQCD_$pb" $work/x > $work/out 2>&1
  rc=$?
  check "conversion of an SU(3) file refused (exit 3)" test $rc -eq 3
  rm -rf $work
  exit $fail
fi
plaq_close() { # plaq_close OUTPUT EXPECTED: |plaquette - expected| < 1e-14
  v=$(sed -n 's/^plaquette = \(.*\)$/\1/p' "$1")
  awk -v a="$v" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 1e-14) }'
}
$conv --info "$dir/HiRep_$pb" > $work/i1 || fail=1
check "--info HiRep periodic: format and lattice" grep -q '^format = HiRep' $work/i1
check "--info HiRep periodic: lattice" grep -q '^lattice = 8x8x8x8' $work/i1
check "--info HiRep periodic: plaquette = header" plaq_close $work/i1 0.0016696811441034925
$conv --info "$dir/openQCD_$pb" > $work/i2 || fail=1
check "--info openQCD periodic: format" grep -q '^format = openQCD' $work/i2
check "--info openQCD periodic: plaquette = header / 3" plaq_close $work/i2 0.0016696811441034823
ob=qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1
$conv --info "$dir/openQCD_$ob" > $work/i3 || fail=1
check "--info openQCD open: plaquette = the open-boundary weighted one" \
  plaq_close $work/i3 0.8266823421647488
check "--info openQCD open: every plaquette = header / 3" \
  grep -q '^plaquette (every plaquette, the zero links included) = 0.766584520010765' $work/i3
check "--info openQCD open: boundary detected" grep -q '^time boundary = open' $work/i3
# openQCD's normalisation: its ms3 log's Wact at flow time 0 (the sum of the Wsl lines) is
# 2 sum_w (3 - Re tr P) over the weighted plaquettes, 6 (T-1) L^3 of them: the plaquette is
# 1 - Wact / (6 * 6 * 7 * 8^3)
ms3=$dir/ComparisonLogs/openQCD_$(echo $ob | sed 's/n1$//').ms3.log
if [ -r "$ms3" ]; then
  expected=$(awk '/^Wsl nn=0 / { w += $4 } END { printf "%.16g", 1 - w / (6 * 6 * 7 * 512) }' "$ms3")
  v=$(sed -n 's/^plaquette = \(.*\)$/\1/p' $work/i3)
  check "--info openQCD open: plaquette $v = 1 - Wact/(36 (T-1) L^3) = $expected (openQCD's ms3 log)" \
    awk -v a="$v" -v b="$expected" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d < 1e-12) }'
fi
$conv --from hirep --to hirep "$dir/HiRep_$pb" $work/a.hirep > /dev/null || fail=1
$conv --from hirep --to openqcd $work/a.hirep $work/b.openqcd > /dev/null || fail=1
$conv --from openqcd --to hirep $work/b.openqcd $work/c.hirep > /dev/null || fail=1
check "round trip hirep -> openqcd -> hirep byte for byte" cmp -s $work/a.hirep $work/c.hirep
cp $work/b.openqcd $work/b.copy
$conv --from hirep --to openqcd $work/a.hirep $work/b.openqcd > $work/over.out 2>&1
rc=$?
check "an existing output file is refused (exit 2) and left as it was" \
  sh -c "test $rc -eq 2 && grep -q 'b.openqcd exists: the converter does not overwrite' $work/over.out && cmp -s $work/b.openqcd $work/b.copy"
check "openQCD link bytes equal the stored file" cmp -s -i 24 $work/b.openqcd "$dir/openQCD_$pb"
check "HiRep link bytes equal the stored file" cmp -s -i 28 $work/a.hirep "$dir/HiRep_$pb"
$conv --from openqcd --to hirep "$dir/openQCD_$ob" $work/d.hirep > /dev/null || fail=1
check "open b.c.: HiRep link bytes equal the stored file" cmp -s -i 28 $work/d.hirep "$dir/HiRep_obc_openQCD_$ob"
head -c 2359000 "$dir/HiRep_$pb" > $work/trunc
$conv --info $work/trunc > $work/out 2>&1
rc=$?
check "truncated file: exit code 3" test $rc -eq 3
check "truncated file: message names file and size" grep -q "trunc: wrong file size" $work/out
$conv --from openqcd --to hirep "$dir/HiRep_$pb" $work/x > $work/out 2>&1
rc=$?
check "wrong format: exit code 3 and message" sh -c "test $rc -eq 3 && grep -q 'not in the openQCD format' $work/out"
check "no temporary files left" sh -c "! ls $work | grep -q tmp"
[ $fail -eq 0 ] && rm -rf $work
exit $fail
