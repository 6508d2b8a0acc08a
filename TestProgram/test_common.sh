# test_common.sh -- sourced by the shell tests of TestProgram (". $HR_SRCDIR/TestProgram/
# test_common.sh"): the check function, and `dir`, the folder of the stored configurations.
fail=0
check() { # check DESCRIPTION COMMAND...: print PASS or FAIL (and remember the failure)
  what=$1
  shift
  if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fail=1; fi
}
# the stored configurations (TestProgram/data, or HR_STORED_CONFS)
dir=${HR_STORED_CONFS:-"${HR_SRCDIR:-../..}/TestProgram/data"}
if [ ! -d "$dir" ]; then
  echo "FAIL: stored configurations not found at $dir (HR_SRCDIR=$HR_SRCDIR)"
  exit 1
fi
