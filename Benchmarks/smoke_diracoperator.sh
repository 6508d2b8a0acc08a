#!/bin/sh
# smoke_diracoperator.sh -- make check's run of speed_test_diracoperator on a 4^4 lattice: it
# must exit 0 and print its documented lines, one op= line per operator and precision (10)
# and, where the operators run on the CPU loops, one data-only line for each (GPU builds:
# none). A run of the program, not a timing: nothing here depends on the speed.
in=smoke_diracoperator.in
cat > "$in" <<'END'
GLB_T = 4
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
min_time = 0.001
log:default = 10
END
out=$(OMP_NUM_THREADS=2 ./speed_test_diracoperator -i "$in" 2>&1)
rc=$?
rm -f "$in"
if [ $rc -ne 0 ]; then
  echo "$out" | tail -20
  echo "FAIL: speed_test_diracoperator exited with $rc"
  exit 1
fi
ops=$(echo "$out" | grep -c 'op=[a-zA-Z_0-9]* prec=[a-z]* .*ns_per_site=.*roofline_fraction=')
data=$(echo "$out" | grep -c 'data-only [a-zA-Z_0-9]* [a-z]*: ns_per_site=.*roofline_fraction=.*operator takes')
if echo "$out" | grep -q 'GPU path'; then want_data=0; else want_data=10; fi
echo "$out" | grep -E 'op=|data-only' | head -4
if [ "$ops" -ne 10 ] || [ "$data" -ne "$want_data" ]; then
  echo "FAIL: $ops operator lines (want 10) and $data data-only lines (want $want_data)"
  exit 1
fi
echo "PASS: speed_test_diracoperator printed its 10 operator lines and $data data-only lines"
exit 0
