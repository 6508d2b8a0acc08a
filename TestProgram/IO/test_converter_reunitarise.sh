#!/bin/sh
# test_converter_reunitarise.sh -- single-precision links and converter --reunitarise on the
# stored open-boundary configuration (SU(3) builds; others: skipped). Its 32-bit ILDG copy
# converted to HiRep without --reunitarise: a warning naming single-precision rounding, its
# measured deviation from SU(3) (between 1e-9 and 1e-5) and --reunitarise; none for 32-bit
# ILDG output. With --reunitarise: the deviation and plaquette before (those of the 32-bit
# links) and after are printed, the written links are SU(3) to 1e-14 (--info of the output),
# the open boundary stays open, the plaquette moves by less than 1e-6 (single-precision
# rounding) but does move, towards the double-precision original (a smooth field: the
# rounding's non-unitary part dominates its plaquette error); the double-precision file itself
# changes by less than 1e-14. A 32-bit NERSC file made here from
# the ILDG data warns too. Links far from SU(3) (a damaged number in an ILDG file without
# checksum) are refused with exit code 3 and no output file. Exit: 0 pass, 1 fail, 77 skip.
conv=../../Converter/converter
. "${HR_SRCDIR:-../..}/TestProgram/test_common.sh"
ob=openQCD_qcd1_ob_L8T8_b12.0_c1.1329_k0.07n1
if $conv --info "$dir/$ob" | grep -q '^plaquette = unavailable'; then
  echo "SKIP: not an SU(3) build"
  exit 77
fi
work=conv_reunit_tmp
rm -rf $work && mkdir $work || exit 99
unitarity() { # unitarity FILE PREFIX: max |U U^+ - 1| of the line starting with PREFIX
  sed -n "s/^$2.*max |U U^+ - 1| = \([^,]*\),.*/\1/p" "$1"
}
det_dev() { # det_dev FILE PREFIX: max |det U - 1| of that line
  sed -n "s/^$2.*max |det U - 1| = \([^,;)]*\).*/\1/p" "$1"
}
value() { # value FILE PREFIX: the number after "PREFIX" up to the end or a comma
  sed -n "s/^$2\([^,]*\).*/\1/p" "$1"
}
between() { # between X Y LO HI: LO < X < HI and LO < Y < HI
  awk -v x="$1" -v y="$2" -v lo="$3" -v hi="$4" \
    'BEGIN { exit !(x != "" && y != "" && x + 0 > lo && x + 0 < hi && y + 0 > lo && y + 0 < hi) }'
}
differ() { # differ A B LO HI: LO < |A - B| < HI
  awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d > lo + 0 && d < hi + 0) }'
}

$conv --info "$dir/$ob" > $work/i0 || fail=1
p_double=$(value $work/i0 'plaquette = ')
$conv --from openqcd --to ildg --precision 32 "$dir/$ob" $work/a32.ildg > /dev/null || fail=1
$conv --info $work/a32.ildg > $work/i1 || fail=1
p_single=$(value $work/i1 'plaquette = ')
u_single=$(unitarity $work/i1 'deviation from SU(3)')
check "32-bit links: deviation from SU(3) at single-precision rounding" \
  between "$u_single" "$(det_dev $work/i1 'deviation from SU(3)')" 1e-9 1e-5

# without --reunitarise: the warning
$conv --from ildg --to hirep $work/a32.ildg $work/b.hirep > $work/o1 2>&1
rc=$?
check "32-bit ILDG -> HiRep: converted (exit 0)" sh -c "test $rc -eq 0 && test -f $work/b.hirep"
check "32-bit ILDG -> HiRep: warning about single-precision rounding and --reunitarise" \
  grep -q '^WARNING: .*a32.ildg holds single-precision (32-bit) links.*single-precision rounding.*--reunitarise' $work/o1
check "32-bit ILDG -> HiRep: the warning gives the measured deviation" \
  test "$(unitarity $work/o1 WARNING)" = "$u_single"
$conv --from ildg --to ildg --precision 32 $work/a32.ildg $work/c32.ildg > $work/o2 2>&1 || fail=1
check "32-bit ILDG -> 32-bit ILDG: no warning" sh -c "! grep -q WARNING $work/o2"

# with --reunitarise
$conv --from ildg --to hirep --reunitarise $work/a32.ildg $work/d.hirep > $work/o3 2>&1 || fail=1
check "--reunitarise: no warning" sh -c "! grep -q WARNING $work/o3"
check "--reunitarise: deviation before = that of the 32-bit links" \
  test "$(unitarity $work/o3 'before reunitarisation')" = "$u_single"
p_before=$(value $work/o3 'before reunitarisation: .*plaquette = ')
p_after=$(value $work/o3 'after reunitarisation: .*plaquette = ')
check "--reunitarise: plaquette before = that of the 32-bit links" test "$p_before" = "$p_single"
check "--reunitarise: deviation after below 1e-14" \
  between "$(unitarity $work/o3 'after reunitarisation')" "$(det_dev $work/o3 'after reunitarisation')" -1 1e-14
$conv --info $work/d.hirep > $work/i2 || fail=1
check "--reunitarise: the written links are SU(3) to 1e-14" \
  between "$(unitarity $work/i2 'deviation from SU(3)')" "$(det_dev $work/i2 'deviation from SU(3)')" -1 1e-14
check "--reunitarise: the open boundary stays open" grep -q '^time boundary = open' $work/i2
check "--reunitarise: plaquette after = that of the written file" test "$(value $work/i2 'plaquette = ')" = "$p_after"
check "--reunitarise: the plaquette moves by single-precision rounding (0 < change < 1e-6)" \
  differ "$p_after" "$p_before" 0 1e-6
check "--reunitarise: the plaquette comes closer to the double-precision original" \
  awk -v a="$p_after" -v b="$p_before" -v d="$p_double" \
  'BEGIN { da = a - d; db = b - d; exit !(a != "" && b != "" && da * da < db * db) }'
$conv --from openqcd --to hirep --reunitarise "$dir/$ob" $work/e.hirep > $work/o4 2>&1 || fail=1
check "--reunitarise of double-precision links: deviation before below 1e-14" \
  between "$(unitarity $work/o4 'before reunitarisation')" "$(det_dev $work/o4 'before reunitarisation')" -1 1e-14
check "--reunitarise of double-precision links: the plaquette changes by less than 1e-14" \
  differ "$(value $work/o4 'after reunitarisation: .*plaquette = ')" "$p_double" -1 1e-14

# a 32-bit NERSC file (header in front of the 32-bit ILDG data: the same layout); NERSC headers
# hold the plain average plaquette (open boundaries: the zero links included)
p_plain=$(value $work/i1 'plaquette (every plaquette, the zero links included) = ')
[ -n "$p_plain" ] || p_plain=$p_single
data=$(sed -n 's/^record [0-9]* = ildg-binary-data, [0-9]* bytes, data at byte \([0-9]*\)$/\1/p' $work/i1)
{
  printf 'BEGIN_HEADER\nDATATYPE = 4D_SU3_GAUGE_3x3\nDIMENSION_1 = 8\nDIMENSION_2 = 8\n'
  printf 'DIMENSION_3 = 8\nDIMENSION_4 = 8\nPLAQUETTE = %s\nFLOATING_POINT = IEEE32BIG\n' "$p_plain"
  printf 'END_HEADER\n'
  tail -c +$((data + 1)) $work/a32.ildg | head -c 1179648
} > $work/f.nersc
$conv --from nersc --to openqcd $work/f.nersc $work/f.openqcd > $work/o5 2>&1
rc=$?
check "32-bit NERSC -> openQCD: converted with the warning" \
  sh -c "test $rc -eq 0 && grep -q '^WARNING: .*f.nersc holds single-precision (32-bit) links' $work/o5"

# links far from SU(3): an ILDG file without its checksum record, one number damaged
$conv --from openqcd --to ildg "$dir/$ob" $work/g.ildg > /dev/null || fail=1
$conv --info $work/g.ildg > $work/i3 || fail=1
bin=$(sed -n 's/^record 2 = ildg-binary-data, \([0-9]*\) bytes, data at byte \([0-9]*\)$/\2 \1/p' $work/i3)
set -- $bin
head -c $(($1 + $2)) $work/g.ildg > $work/h.ildg
printf '\100' | dd of=$work/h.ildg bs=1 seek=$(($1 + 8)) conv=notrunc 2> /dev/null
$conv --from ildg --to hirep --reunitarise $work/h.ildg $work/h.hirep > $work/o6 2>&1
rc=$?
check "links far from SU(3): --reunitarise refused (exit 3), no output" \
  sh -c "test $rc -eq 3 && grep -q 'h.ildg: the links are far from SU(3)' $work/o6 && ! test -e $work/h.hirep"
check "no temporary files left" sh -c "! ls $work | grep -q tmp"
[ $fail -eq 0 ] && rm -rf $work
exit $fail
