#!/bin/sh
# smoke_diracoperator.sh -- make check's run of speed_test_diracoperator on a 4^4 lattice: it
# must exit 0 and print its documented lines, one op= line per operator and precision (10)
# and, where the operators run on the CPU loops, one data-only line for each and the four
# stream_sites lines of the site-stream probe with a bandwidth above 0 (GPU builds: none). In
# MPI builds on the CPU loops, also 2 ranks on the grid 2x1x1x1: every operator's halo line
# must say that all the bytes sent went through node memory, and none with comm:node_halo =
# off. With memory:huge_pages = on and off, the host-memory line must say which. On the CPU
# loops the prefetch line must name a setting (off, neighbours, on, interleaved) for each class
# of kernel, the setting forced for all 16 with cpu:prefetch = neighbours and with
# cpu:prefetch = interleaved, and cpu:prefetch = sometimes must
# stop with a message naming the key. With rounds = 2 each operator line has a rounds line
# (median between min and max), and rounds = 0 must stop with a message naming the key. A
# run of the program, not a timing: nothing here depends on the speed.
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
probe=$(echo "$out" | grep -c 'stream_sites read=[0-9]*B write=[0-9]*B .*work=[0-9]* streams=[12] GBps=[0-9.]*[1-9][0-9.]* fraction_of_triad=')
if echo "$out" | grep -q 'GPU path'; then want_data=0; want_probe=0; else want_data=10; want_probe=4; fi
echo "$out" | grep -E 'op=|data-only' | head -4
if [ "$ops" -ne 10 ] || [ "$data" -ne "$want_data" ] || [ "$probe" -ne "$want_probe" ]; then
  echo "FAIL: $ops operator lines (want 10), $data data-only lines (want $want_data), $probe stream_sites lines (want $want_probe)"
  exit 1
fi
echo "PASS: speed_test_diracoperator printed its 10 operator lines, $data data-only lines and $probe stream_sites lines"
# run_small LINE: the benchmark on 4^4 with LINE added to its input; sets out and rc
run_small() {
  printf 'GLB_T = 4\nGLB_X = 4\nGLB_Y = 4\nGLB_Z = 4\nmin_time = 0.001\ndata_only = false\n%s\n' "$1" > "$in"
  out=$(OMP_NUM_THREADS=2 ./speed_test_diracoperator -i "$in" 2>&1)
  rc=$?
  rm -f "$in"
}
# prefetch_classes OUT SETTINGS: sets classes to the number of classes of kernel on the prefetch
# line of the benchmark's output OUT, and named to how many of them have a setting matching
# the extended regular expression SETTINGS
prefetch_classes() {
  pfline=$(echo "$1" | grep 'CPU prefetch chosen')
  tokens=$(echo "$pfline" | grep -oE '(single|double)/(bare|x|clover|inverse)/(parity|lattice)=[a-z]+')
  classes=$(echo "$tokens" | grep -c .)
  named=$(echo "$tokens" | grep -cE "=($2)\$")
}
if [ "$want_data" -ne 0 ]; then
  # cpu:prefetch = auto: each class of kernel chose one of the four settings
  prefetch_classes "$out" 'off|neighbours|on|interleaved'
  if [ "$classes" -lt 4 ] || [ "$named" -ne "$classes" ]; then
    echo "FAIL: cpu:prefetch = auto: $named of $classes classes name a setting: $pfline"
    exit 1
  fi
  echo "PASS: cpu:prefetch = auto chose a setting for each of $classes classes"
  for forced in neighbours interleaved; do
    run_small "cpu:prefetch = $forced"
    prefetch_classes "$out" "$forced"
    if [ $rc -ne 0 ] || [ "$classes" -ne 16 ] || [ "$named" -ne 16 ]; then
      echo "FAIL: cpu:prefetch = $forced: exit $rc, $named of $classes classes (want 16) say $forced: $pfline"
      exit 1
    fi
    echo "PASS: cpu:prefetch = $forced forced on all $classes classes"
  done
  run_small 'cpu:prefetch = sometimes'
  if [ $rc -eq 0 ] || ! echo "$out" | grep -q 'cpu:prefetch'; then
    echo "$out" | tail -5
    echo "FAIL: cpu:prefetch = sometimes: exit $rc, want a non-zero exit and a message naming the key"
    exit 1
  fi
  echo "PASS: cpu:prefetch = sometimes stops: $(echo "$out" | grep 'cpu:prefetch' | head -1)"
fi
# the host-memory line says whether huge pages were asked for, as memory:huge_pages says
for huge in on off; do
  run_small "memory:huge_pages = $huge"
  line=$(echo "$out" | grep -E "host memory: huge pages $huge \(memory:huge_pages\); rank 0's memory on transparent huge pages: ([0-9.]+ MiB|not reported by this system)\$")
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    echo "$out" | tail -20
    echo "FAIL: memory:huge_pages = $huge: exit $rc, no host-memory line saying 'huge pages $huge'"
    exit 1
  fi
  echo "PASS: memory:huge_pages = $huge: $line"
done
# rounds = 2: one rounds line per operator and precision, with the median of the two timings
# between their min and max; rounds = 0 stops with a message naming the key
run_small "rounds = 2"
nrounds=$(echo "$out" | grep -E '^\[BENCH\]\[0\]  rounds [a-zA-Z_0-9]+ (double|single): 2, ns_per_site median [0-9.]+ min [0-9.]+ max [0-9.]+$' |
  awk '{ if ($8 + 0 >= $10 + 0 && $8 + 0 <= $12 + 0) n++ } END { print n + 0 }')
if [ $rc -ne 0 ] || [ "$nrounds" -ne 10 ]; then
  echo "$out" | grep rounds | head -12
  echo "FAIL: rounds = 2: exit $rc, $nrounds of 10 rounds lines with min <= median <= max"
  exit 1
fi
echo "PASS: rounds = 2: $(echo "$out" | grep -m1 ' rounds ')"
run_small "rounds = 0"
if [ $rc -eq 0 ] || ! echo "$out" | grep -q 'rounds'; then
  echo "$out" | tail -5
  echo "FAIL: rounds = 0: exit $rc, want a non-zero exit and a message naming the key"
  exit 1
fi
echo "PASS: rounds = 0 stops: $(echo "$out" | grep 'rounds' | head -1)"
if [ -z "$HR_MPIRUN" ] || [ "$want_data" -eq 0 ]; then exit 0; fi
for node in on off; do
  cat > "$in" <<END
GLB_T = 8
GLB_X = 4
GLB_Y = 4
GLB_Z = 4
NP_T = 2
min_time = 0.001
data_only = false
comm:node_halo = $node
log:default = 10
END
  out=$(OMP_NUM_THREADS=1 "$HR_MPIRUN" -np 2 --oversubscribe ./speed_test_diracoperator -i "$in" 2>&1)
  rc=$?
  rm -f "$in"
  halo=$(echo "$out" | grep -E ' halo [a-zA-Z_0-9]* [a-z]*: ')
  if [ "$node" = on ]; then
    good=$(echo "$halo" | grep -cE ' ([0-9]+) bytes sent per call .*; \1 of them through node memory')
  else
    good=$(echo "$halo" | grep -cE ' [1-9][0-9]* bytes sent per call .*; 0 of them through node memory')
  fi
  if [ $rc -ne 0 ] || [ "$good" -ne 10 ]; then
    echo "$out" | tail -20
    echo "FAIL: 2 ranks, comm:node_halo = $node: exit $rc, $good of 10 halo lines with the bytes through node memory as they should be"
    exit 1
  fi
  echo "$halo" | head -1
  echo "PASS: 2 ranks, comm:node_halo = $node: the 10 halo lines count the bytes through node memory"
done
exit 0
