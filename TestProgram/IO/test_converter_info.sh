#!/bin/sh
# test_converter_info.sh -- converter --info on every format (SU(3) builds; other builds check
# that the header fields of an SU(3) file are printed): the header fields of the stored HiRep
# and openQCD files as stored; every LIME record of an ILDG file written with --lfn (types,
# sizes, offsets, MB/ME, the ildg-format fields, the lfn, the scidac-checksum values and their
# match with the data); the XML fields of records another writer adds (a scidac-private-file-xml
# and a scidac-file-xml message put in front with printf); a flipped data byte reported as a
# checksum MISMATCH before the read fails with exit code 3; every KEY = VALUE line of a NERSC
# file made here from the ILDG data; a file that is not a configuration fails with exit code 3.
# Exit: 0 pass, 1 fail.
conv=../../Converter/converter
. "${HR_SRCDIR:-../..}/TestProgram/test_common.sh"
work=conv_info_tmp
rm -rf $work && mkdir $work || exit 99
has() { # has FILE LINE: FILE holds LINE exactly
  grep -qxF -- "$2" "$1"
}
pb=qcd1_pb_L8T8_b6.0_c1.234_k0.13_r0_id4n1
ob=qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1

# a file that is not a configuration: exit code 3 in every build
printf 'this is not a gauge configuration, only some text\n' > $work/text
$conv --info $work/text > $work/out 2>&1
rc=$?
check "--info of a text file: exit code 3" test $rc -eq 3
check "--info of a text file: message" grep -q "text: not a gauge configuration" $work/out
$conv --from hirep --to ildg $work/text $work/x > $work/out 2>&1
rc=$?
check "conversion of a text file: exit code 3, no output" sh -c "test $rc -eq 3 && ! test -e $work/x"

$conv --info "$dir/HiRep_$pb" > $work/i1 || fail=1
check "--info HiRep: header field NG" has $work/i1 "header: NG = 3"
check "--info HiRep: header fields T X Y Z" sh -c "grep -c '^header: [TXYZ] = 8\$' $work/i1 | grep -qx 4"
check "--info HiRep: header plaquette as stored" has $work/i1 "header: plaquette = 0.0016696811441034925"
if grep -q '^plaquette = unavailable' $work/i1; then
  echo "not an SU(3) build: header fields only"
  [ $fail -eq 0 ] && rm -rf $work
  exit $fail
fi
check "--info HiRep: the lines before the header fields unchanged" \
  sh -c "sed -n 2,5p $work/i1 | tr '\n' '|' | grep -qxF 'format = HiRep|lattice = 8x8x8x8 (T x X x Y x Z)|gauge group = SU(3)|header plaquette = 0.001669681144103492|'"
check "--info HiRep: deviation from SU(3) of double-precision links" \
  grep -q '^deviation from SU(3): max |U U^+ - 1| = [0-9.]*e-1[56], max |det U - 1| = [0-9.]*e-1[56]$' $work/i1
$conv --info "$dir/openQCD_$ob" > $work/i2 || fail=1
check "--info openQCD: header fields N0..N3" sh -c "grep -c '^header: N[0-3] = 8\$' $work/i2 | grep -qx 4"
check "--info openQCD: header plaq as stored" has $work/i2 "header: plaq = 2.2997535600322965"

# ILDG written with --lfn
$conv --from hirep --to ildg --lfn lfn://ldg/libhr/test/conf_1 "$dir/HiRep_$pb" $work/a.ildg > /dev/null || fail=1
$conv --info $work/a.ildg > $work/i3 || fail=1
check "--info ILDG: the lfn" has $work/i3 "lfn = lfn://ldg/libhr/test/conf_1"
check "--info ILDG: the lfn record and its text" \
  sh -c "grep -qx 'record 2 = ildg-data-lfn, 27 bytes, data at byte [0-9]*' $work/i3 && grep -qxF 'record 2: text = lfn://ldg/libhr/test/conf_1' $work/i3"
check "--info ILDG: four records" has $work/i3 "lime records = 4"
check "--info ILDG: ildg-format record first, message begin" grep -qx 'record 1 = ildg-format, [0-9]* bytes, data at byte 144, MB' $work/i3
check "--info ILDG: ildg-format fields" \
  sh -c "grep -qx 'record 1: field = su3gauge' $work/i3 && grep -qx 'record 1: precision = 64' $work/i3 && test \$(grep -c '^record 1: l[xyzt] = 8\$' $work/i3) -eq 4"
check "--info ILDG: the binary record" grep -qx 'record 3 = ildg-binary-data, 2359296 bytes, data at byte [0-9]*' $work/i3
check "--info ILDG: scidac-checksum last, message end" grep -qx 'record 4 = scidac-checksum, [0-9]* bytes, data at byte [0-9]*, ME' $work/i3
suma=$(sed -n 's/^record 4: suma = //p' $work/i3)
sumb=$(sed -n 's/^record 4: sumb = //p' $work/i3)
check "--info ILDG: checksum of the record matches the data" \
  has $work/i3 "checksum = suma $suma sumb $sumb (scidac-checksum record), data suma $suma sumb $sumb: match"
check "--info ILDG: plaquette of the links" grep -q '^plaquette = 0.001669681144103' $work/i3

# another writer's records in front: a message with two XML records (LIME headers by hand)
be() { # be VALUE NBYTES: VALUE as NBYTES big-endian bytes
  i=$(($2 - 1))
  while [ $i -ge 0 ]; do
    printf "\\$(printf %03o $((($1 >> (8 * i)) & 255)))"
    i=$((i - 1))
  done
}
lime_record() { # lime_record TYPE FLAGS TEXT: one LIME record with its padding
  be 1164413355 4 # magic 0x456789ab
  be 1 2
  be "$2" 2
  be ${#3} 8
  printf '%s' "$1"
  head -c $((128 - ${#1})) /dev/zero
  printf '%s' "$3"
  head -c $(((8 - ${#3} % 8) % 8)) /dev/zero
}
private='<?xml version="1.0" encoding="UTF-8"?><scidacFile><version>1.1</version><spacetime>4</spacetime><dims>8 8 8 8 </dims><volfmt>0</volfmt></scidacFile>'
user='<?xml version="1.0"?><info><ensemble>test ensemble</ensemble><trajectory>100</trajectory></info>'
{
  lime_record scidac-private-file-xml 32768 "$private"
  lime_record scidac-file-xml 16384 "$user"
  cat $work/a.ildg
} > $work/b.ildg
$conv --info $work/b.ildg > $work/i4 2>&1 || fail=1
check "--info ILDG from another writer: six records" has $work/i4 "lime records = 6"
check "--info ILDG from another writer: private file XML fields" \
  sh -c "grep -qx 'record 1 = scidac-private-file-xml, ${#private} bytes, data at byte 144, MB' $work/i4 && grep -qxF 'record 1: dims = 8 8 8 8' $work/i4 && grep -qxF 'record 1: spacetime = 4' $work/i4"
check "--info ILDG from another writer: user XML fields" \
  sh -c "grep -qx 'record 2 = scidac-file-xml, ${#user} bytes, data at byte [0-9]*, ME' $work/i4 && grep -qxF 'record 2: ensemble = test ensemble' $work/i4 && grep -qxF 'record 2: trajectory = 100' $work/i4"
check "--info ILDG from another writer: lfn and links read" \
  sh -c "grep -qxF 'lfn = lfn://ldg/libhr/test/conf_1' $work/i4 && grep -q '^plaquette = 0.001669681144103' $work/i4"

# a flipped data byte: the records and the mismatch are printed, then the read fails (exit 3)
off=$(($(sed -n 's/^record 3 = ildg-binary-data, [0-9]* bytes, data at byte \([0-9]*\)$/\1/p' $work/i3) + 1000))
cp $work/a.ildg $work/c.ildg
byte=$(od -An -tu1 -j $off -N1 $work/c.ildg | tr -d ' ')
printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of=$work/c.ildg bs=1 seek=$off conv=notrunc 2> /dev/null
$conv --info $work/c.ildg > $work/i5 2>&1
rc=$?
check "--info of a damaged ILDG file: checksum MISMATCH printed" grep -q "^checksum = suma $suma sumb $sumb (scidac-checksum record), data suma .*: MISMATCH" $work/i5
check "--info of a damaged ILDG file: exit code 3, checksum mismatch named" \
  sh -c "test $rc -eq 3 && grep -q 'c.ildg: checksum mismatch' $work/i5"

# NERSC: a header in front of the ILDG data (the same layout: x fastest, mu = x y z t, 3x3,
# big-endian IEEE double)
data=$(sed -n 's/^record 3 = ildg-binary-data, [0-9]* bytes, data at byte \([0-9]*\)$/\1/p' $work/i3)
{
  printf 'BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = 8\n'
  printf 'DIMENSION_2 = 8\nDIMENSION_3 = 8\nDIMENSION_4 = 8\nPLAQUETTE = 0.001669681144\n'
  printf 'ENSEMBLE_ID = libhr test\nFLOATING_POINT = IEEE64BIG\nEND_HEADER\n'
  tail -c +$((data + 1)) $work/a.ildg | head -c 2359296
} > $work/d.nersc
$conv --info $work/d.nersc > $work/i6 || fail=1
check "--info NERSC: format and precision" sh -c "grep -qx 'format = NERSC' $work/i6 && grep -qx 'precision = 64 bits' $work/i6"
check "--info NERSC: every header line in order" \
  sh -c "grep '^header: ' $work/i6 | tr '\n' '|' | grep -qxF 'header: HDR_VERSION = 1.0|header: DATATYPE = 4D_SU3_GAUGE_3x3|header: DIMENSION_1 = 8|header: DIMENSION_2 = 8|header: DIMENSION_3 = 8|header: DIMENSION_4 = 8|header: PLAQUETTE = 0.001669681144|header: ENSEMBLE_ID = libhr test|header: FLOATING_POINT = IEEE64BIG|'"
check "--info NERSC: plaquette of the links" grep -q '^plaquette = 0.001669681144103' $work/i6
check "no temporary files left" sh -c "! ls $work | grep -q tmp"
[ $fail -eq 0 ] && rm -rf $work
exit $fail
