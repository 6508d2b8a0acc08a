#!/bin/sh
# test_chain_faults.sh -- what a batch job meets, on HMC/hmc (4^4, clover fermions):
#  1. a second run with the same run name and conf dir is refused (exit 2, at the run name
#     line), and so is a continuation from a configuration that is not the chain's last;
#  2. a configuration without its .rng is refused as a continuation (exit 2, at the gauge start
#     line, saying how to start a new chain), and 'gauge start = <file> new chain' starts one;
#  3. kill -9 at three instants of a save (the .rng's temporary file written, between the .rng
#     and the configuration, the configuration's temporary file written; fault injection
#     HR_TEST_CRASH_POINT = commit:hr_n4.rng, between:hr_n4, commit:hr_n4): the last complete
#     pair is intact, the next start from it removes and reports the leftovers, the continued
#     chain is bitwise the uninterrupted one, and a new chain under that name is refused;
#  4. SIGTERM during a run: a second run of the same chain at that moment is refused (the lock);
#     the run finishes its trajectory, saves, prints the summary and exits with code 6; the
#     saved state continues bitwise; likewise `time limit` (exit 0);
#  5. restarting from the chain's last configuration with nothing left to do says so, prints
#     the summary and exits 0;
#  6. a save that fails (full disk on a small tmpfs where one can be mounted, else a file-size
#     limit) stops with exit code 3 and the message is in the -o log as on stderr, and no
#     partial file is left;
#  7. a conf dir that cannot be created, or is read-only (a read-only bind mount where one can
#     be made: root ignores file modes), stops the run before its first trajectory (exit 3).
# Run by make check in the build folder of TestProgram/Ensemble. Exit: 0 pass, 1 fail.
hmc=../../HMC/hmc
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_NUM_THREADS OMP_WAIT_POLICY
work=chain_faults_tmp
rm -rf $work && mkdir -p $work || exit 99
. ${HR_SRCDIR:-../..}/TestProgram/Ensemble/ensemble_common.sh
input() { # input FILE START NTRAJ DIR [EXTRA LINE]
  chain_input "$1" 4 antiperiodic 23 "$2" "$3" 2 hirep "$4" hr "$5"
}
line_of() { grep -n "^$2" "$1" | head -1 | cut -d: -f1; } # line_of FILE KEY
# same_files DIR_A DIR_B STEP: configuration and .rng of STEP bitwise equal
same_files() { cmp -s $1/hr_n$3 $2/hr_n$3 && cmp -s $1/hr_n$3.rng $2/hr_n$3.rng; }

# the uninterrupted chain
input $work/ref.in hot 6 $work/ref
$hmc -i $work/ref.in > $work/ref.out 2>&1 || { echo "FAIL: reference run"; cat $work/ref.out; exit 1; }
check "reference run saved trajectories 2, 4, 6" test -s $work/ref/hr_n6.rng -a -s $work/ref/hr_n4

# 1. never overwrite
sums() { (cd $work/ref && cksum hr_n* | sort); }
sums > $work/ref.sums
$hmc -i $work/ref.in > $work/again.out 2>&1
check "second run with the same run name: exit code 2" test $? -eq 2
check "  ... at the run name line, naming the files" \
  grep -q "ref.in:$(line_of $work/ref.in 'run name'): run name: this run would overwrite saved files.*hr_n" $work/again.out
check "  ... and naming the chain's last configuration" grep -q "gauge start = $work/ref/hr_n6" $work/again.out
sums > $work/again.sums
check "  ... and nothing was changed" cmp -s $work/ref.sums $work/again.sums
input $work/mid.in $work/ref/hr_n2 6 $work/ref
$hmc -i $work/mid.in > $work/mid.out 2>&1
check "continuation from a configuration that is not the chain's last: exit code 2" test $? -eq 2

# 2. a configuration without its .rng
mkdir -p $work/norng && cp $work/ref/hr_n2 $work/norng/start
input $work/norng.in $work/norng/start 6 $work/norng/confs
$hmc -i $work/norng.in > $work/norng.out 2>&1
check "configuration without .rng: exit code 2" test $? -eq 2
check "  ... at the gauge start line, saying how to start a new chain" \
  grep -q "norng.in:$(line_of $work/norng.in 'gauge start'): gauge start: .*has no .*new chain" $work/norng.out
input $work/newchain.in "$work/norng/start new chain" 2 $work/norng/confs
check "'gauge start = <file> new chain' starts a new chain" \
  sh -c "$hmc -i $work/newchain.in > $work/newchain.out 2>&1 && grep -q 'new chain from the links of' $work/newchain.out && test -s $work/norng/confs/hr_n2"

# 3. kill -9 during the save of trajectory 4
for point in commit:hr_n4.rng between:hr_n4 commit:hr_n4; do
  d=$work/crash_$(echo $point | tr ':.' '__')
  input $d.in hot 6 $d
  HR_TEST_CRASH_POINT=$point $hmc -i $d.in > $d.out 2>&1
  rc=$?
  check "$point: killed (exit $rc)" test $rc -eq 137 -o $rc -gt 128
  check "$point: trajectory 2's pair intact" same_files $work/ref $d 2
  check "$point: no configuration of trajectory 4" test ! -e $d/hr_n4
  case $point in
    commit:hr_n4.rng) check "$point: a temporary .rng left" sh -c "ls $d | grep -q '^hr_n4.rng.tmp.'";;
    between:hr_n4) check "$point: a lone .rng left" test -e $d/hr_n4.rng;;
    commit:hr_n4) check "$point: .rng and the configuration's temporary file left" \
      sh -c "test -e $d/hr_n4.rng && ls $d | grep -q '^hr_n4.tmp.'";;
  esac
  input $d-cont.in $d/hr_n2 6 $d
  if $hmc -i $d-cont.in > $d-cont.out 2>&1; then
    check "$point: the restart reports the leftovers it removed" grep -q "removed $d/hr_n4" $d-cont.out
    check "$point: no temporary file left" sh -c "! ls $d | grep -q tmp"
    check "$point: trajectory 4 bitwise the uninterrupted chain's" same_files $work/ref $d 4
    check "$point: trajectory 6 bitwise the uninterrupted chain's" same_files $work/ref $d 6
  else
    echo "FAIL: $point: restart from trajectory 2"; cat $d-cont.out; fail=1
  fi
  input $d-again.in hot 6 $d
  $hmc -i $d-again.in > $d-again.out 2>&1
  check "$point: a new chain under the same name is refused (exit 2)" test $? -eq 2
done

# 4. SIGTERM and the lock; then the time limit
# stopped_at LOG: the trajectory after which a run stopped
stopped_at() { sed -n 's/.*continue with: gauge start = .*_n\([0-9]*\)$/\1/p' "$1"; }
# continues_bitwise NAME DIR K: the chain stopped at K, continued to K + 2, equals a new
# uninterrupted chain run to K + 2
continues_bitwise() {
  input $work/$1-cont.in $2/hr_n$3 $(($3 + 2)) $2
  input $work/$1-full.in hot $(($3 + 2)) $work/$1-full
  $hmc -i $work/$1-cont.in > $work/$1-cont.out 2>&1 && $hmc -i $work/$1-full.in > $work/$1-full.out 2>&1 &&
    last=$(( ($3 + 2) / 2 * 2 )) && same_files $2 $work/$1-full $last
}
input $work/term.in hot 100000 $work/term
$hmc -i $work/term.in -o $work/term.log > $work/term.out 2>&1 &
pid=$!
n=0
while [ $n -lt 300 ] && ! grep -q "traj=3 accepted" $work/term.log 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
$hmc -i $work/term.in > $work/locked.out 2>&1
check "a second run of a running chain: exit code 2" test $? -eq 2
check "  ... the lock is named" grep -q "hr.lock" $work/locked.out
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM: exit code 6" test $rc -eq 6
check "SIGTERM: the log says why it stopped" grep -q "stop requested by signal 15 (SIGTERM)" $work/term.log
check "SIGTERM: the summary is printed" grep -q "^\[MAIN\]\[0\]trajectories=" $work/term.log
k=$(stopped_at $work/term.log)
check "SIGTERM: stopped after trajectory $k, its pair saved" test -n "$k" -a -s $work/term/hr_n$k -a -s $work/term/hr_n$k.rng
[ -n "$k" ] && check "SIGTERM: the saved state continues bitwise" continues_bitwise term $work/term $k
input $work/limit.in hot 100000 $work/limit "time limit = 1.5"
$hmc -i $work/limit.in > $work/limit.out 2>&1
check "time limit: exit code 0" test $? -eq 0
check "time limit: the log says why it stopped" grep -q "time limit: .* used after step" $work/limit.out
k=$(stopped_at $work/limit.out)
check "time limit: stopped after trajectory $k, its pair saved" test -n "$k" -a -s $work/limit/hr_n$k -a -s $work/limit/hr_n$k.rng
[ -n "$k" ] && check "time limit: the saved state continues bitwise" continues_bitwise limit $work/limit $k

# 5. nothing to do
input $work/done.in $work/ref/hr_n6 6 $work/ref
$hmc -i $work/done.in > $work/done.out 2>&1
check "restart with nothing to do: exit code 0" test $? -eq 0
check "  ... says so" grep -q "nothing to do: the start configuration is trajectory 6 and ntraj = 6" $work/done.out
check "  ... and prints the summary" grep -q "trajectories=0" $work/done.out

# 6. a failing save: the message in the -o log as on stderr
mkdir -p $work/full
input $work/full.in hot 4 $work/full/confs
full_disk=0
if command -v unshare > /dev/null 2>&1 &&
   unshare -m sh -c "mount -t tmpfs -o size=96k tmpfs $work/full" 2> /dev/null; then
  full_disk=1
  unshare -m sh -c "mount -t tmpfs -o size=96k tmpfs $work/full && mkdir -p $work/full/confs && exec $hmc -i $work/full.in -o $work/full.log" > $work/full.out 2> $work/full.err
  rc=$?
  how="full disk (tmpfs of 96 KiB)"
else
  sh -c "ulimit -f 160; trap '' XFSZ; exec $hmc -i $work/full.in -o $work/full.log" > $work/full.out 2> $work/full.err
  rc=$?
  how="file-size limit of 80 KiB"
fi
check "$how: exit code 3" test $rc -eq 3
msg=$(head -1 $work/full.err)
check "$how: stderr says what failed ($msg)" test -n "$msg"
check "$how: the -o log holds the same message" grep -qF "$msg" $work/full.log
[ $full_disk = 0 ] && check "$how: no partial configuration" sh -c "! ls $work/full/confs | grep -q tmp"

# 7. an unwritable conf dir is found before any work
touch $work/afile
input $work/nodir.in hot 4 $work/afile/confs
$hmc -i $work/nodir.in > $work/nodir.out 2>&1
check "conf dir under a regular file: exit code 3" test $? -eq 3
check "  ... before the first trajectory, naming the conf dir" \
  sh -c "grep -q 'conf dir $work/afile/confs: cannot create or write there' $work/nodir.out && ! grep -q 'traj=1 ' $work/nodir.out"
mkdir -p $work/ro
input $work/ro.in hot 4 $work/ro
if command -v unshare > /dev/null 2>&1 &&
   unshare -m sh -c "mount --bind $work/ro $work/ro && mount -o remount,ro,bind $work/ro" 2> /dev/null; then
  unshare -m sh -c "mount --bind $work/ro $work/ro && mount -o remount,ro,bind $work/ro && exec $hmc -i $work/ro.in" > $work/ro.out 2>&1
  rc=$?
  check "read-only conf dir: exit code 3" test $rc -eq 3
  check "  ... before the first trajectory" \
    sh -c "grep -q 'conf dir $work/ro: cannot create or write there: Read-only file system' $work/ro.out && ! grep -q 'traj=1 ' $work/ro.out"
else
  echo "SKIP: read-only conf dir (no read-only bind mount can be made here)"
fi
[ $fail -eq 0 ] && rm -rf $work # kept for inspection when a check failed
exit $fail
