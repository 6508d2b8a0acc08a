#!/bin/sh
# test_rhmc.sh -- test_rhmc (the rhmc monomial: action against the hmc monomial, force against
# finite differences, heatbath, spectral range, reversibility; short HMC runs with
# HR_LONG_TESTS=1, the nf = 1 plaquette check at full length with HR_RHMC_LONG_TEST=1) with its
# own approximation cache. Exit: 0 pass, 1 fail, 77 skipped (no MPFR).
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export OMP_NUM_THREADS
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
HR_RATIONAL_CACHE=test_rhmc.cache
export HR_RATIONAL_CACHE
if [ -n "$HR_MPIRUN" ]; then "$HR_MPIRUN" -np 1 --oversubscribe ./test_rhmc
else ./test_rhmc; fi
