#!/bin/sh
# test_ildg_converter.sh -- the converter with the ILDG and NERSC formats on the stored
# configurations (SU(3) builds; others: skipped): hirep -> ildg -> hirep and
# openqcd -> ildg -> openqcd reproduce the stored files byte for byte (HiRep: link bytes;
# the header plaquette is recomputed); --info names the ILDG
# format, its precision and the plaquette of the links; a 32-bit ILDG file with an lfn is
# readable; a flipped data byte stops the conversion with exit code 3 and "checksum
# mismatch"; --to nersc is refused (exit 2). Exit: 0 pass, 1 fail, 77 skip.
conv=../../Converter/converter
. "${HR_SRCDIR:-../..}/TestProgram/test_common.sh"
pb=qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
ob=qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1
if $conv --info "$dir/HiRep_$pb" | grep -q '^plaquette = unavailable'; then
  echo "SKIP: not an SU(3) build"
  exit 77
fi
work=ildg_conv_tmp
rm -rf $work && mkdir $work || exit 99
$conv --from hirep --to ildg "$dir/HiRep_$pb" $work/a.ildg > /dev/null || fail=1
$conv --from ildg --to hirep $work/a.ildg $work/a.hirep > /dev/null || fail=1
$conv --from hirep --to hirep "$dir/HiRep_$pb" $work/direct.hirep > /dev/null || fail=1
check "hirep -> ildg -> hirep: link bytes of the stored file" cmp -s -i 28 $work/a.hirep "$dir/HiRep_$pb"
check "hirep -> ildg -> hirep byte for byte (LibHR header plaquette)" cmp -s $work/a.hirep $work/direct.hirep
$conv --from openqcd --to ildg "$dir/openQCD_$ob" $work/b.ildg > /dev/null || fail=1
$conv --from ildg --to openqcd $work/b.ildg $work/b.openqcd > /dev/null || fail=1
check "openqcd -> ildg -> openqcd byte for byte (open b.c.)" cmp -s $work/b.openqcd "$dir/openQCD_$ob"
$conv --info $work/a.ildg > $work/i1 || fail=1
check "--info names the ILDG format" grep -q '^format = ILDG' $work/i1
check "--info: precision 64" grep -q '^precision = 64 bits' $work/i1
check "--info: plaquette of the links" grep -q '^plaquette = 0.001669681144103' $work/i1
$conv --from hirep --to ildg --precision 32 --lfn lfn://test/conf1 "$dir/HiRep_$pb" $work/c.ildg > /dev/null || fail=1
check "32-bit file with lfn contains the lfn" grep -q 'lfn://test/conf1' $work/c.ildg
$conv --info $work/c.ildg > $work/i2 || fail=1
check "--info of the 32-bit file" grep -q '^precision = 32 bits' $work/i2
# flip one byte in the middle of the binary data (well after the records before it)
size=$(wc -c < $work/a.ildg)
off=$((size / 2))
cp $work/a.ildg $work/d.ildg
byte=$(od -An -tu1 -j $off -N1 $work/d.ildg | tr -d ' ')
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of=$work/d.ildg bs=1 seek=$off conv=notrunc 2> /dev/null
$conv --from ildg --to hirep $work/d.ildg $work/x > $work/out 2>&1
rc=$?
check "flipped byte: exit code 3" test $rc -eq 3
check "flipped byte: checksum mismatch named" grep -q 'd.ildg: checksum mismatch' $work/out
$conv --from hirep --to nersc "$dir/HiRep_$pb" $work/x > $work/out 2>&1
rc=$?
check "--to nersc refused (exit 2)" test $rc -eq 2
check "no temporary files left" sh -c "! ls $work | grep -q tmp"
[ $fail -eq 0 ] && rm -rf $work
exit $fail
