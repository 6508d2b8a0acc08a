#!/bin/sh
# test_hmc_grids.sh -- test_hmc: the integrator checks (reversibility, order, exactness) on one
# process; then three HMC trajectories with fermions (dH and plaquette printed in hex) must be
# bitwise the same on the process grids 2x1x1x1 and 2x2x1x1 (MPI builds) and on the CPU loops
# and the GPU path (GPU builds) as on one process with the default backend. Exit: 0 pass, 1
# fail.
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
fail=0
run() { # run NPROC ARGS...
  n=$1
  shift
  if [ -n "$HR_MPIRUN" ]; then "$HR_MPIRUN" -np "$n" --oversubscribe ./test_hmc "$@"
  else ./test_hmc "$@"; fi
}
run 1 || fail=1
run 1 1 1 1 1 --print > hmc_ref.out || fail=1
grep '^traj' hmc_ref.out > hmc_ref.lines
cat hmc_ref.lines
compare() { # compare DESCRIPTION NPROC ARGS...
  d=$1
  shift
  run "$@" > hmc_cmp.out || { echo "FAIL: $d: run failed"; fail=1; return; }
  grep '^traj' hmc_cmp.out > hmc_cmp.lines
  if test -s hmc_ref.lines && cmp -s hmc_ref.lines hmc_cmp.lines; then
    echo "PASS: $d: the same trajectories bit for bit"
  else
    echo "FAIL: $d differs:"; cat hmc_cmp.lines; fail=1
  fi
}
OMP_NUM_THREADS=1 compare "1 thread" 1 1 1 1 1 --print
if [ -n "$HR_MPIRUN" ]; then
  compare "grid 2x1x1x1" 2 2 1 1 1 --print
  compare "grid 2x2x1x1" 4 2 2 1 1 --print
fi
if ./test_hmc --has-gpu > /dev/null 2>&1; then
  compare "CPU loops instead of the GPU path" 1 1 1 1 1 --print --cpu
fi
rm -f hmc_ref.out hmc_ref.lines hmc_cmp.out hmc_cmp.lines
exit $fail
