#!/usr/bin/env bash
# Make/quickstart.sh -- the two commands of the README.
#   bash Make/quickstart.sh run    install missing packages, build the default theory, run the
#                                  main job (the flagship program on its default input file)
#   bash Make/quickstart.sh test   install missing packages, build every CI configuration and
#                                  run its test suite; ends with "N passed, N failed"
# Build trees go to build/<name>/ (override with HR_BUILD_ROOT). HR_BUILDS="a b" restricts
# the test run to some of the configurations listed in Make/builds.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mode=${1:-}
case "$mode" in run|test) ;; *) echo "usage: bash Make/quickstart.sh run|test" >&2; exit 2;; esac

bash Make/deps.sh || { echo "quickstart: could not install dependencies" >&2; exit 1; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
jobs=$(nproc 2>/dev/null || echo 2)
root=${HR_BUILD_ROOT:-$top/build}
mkdir -p "$root"

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
  echo "quickstart: autoreconf -fi"
  autoreconf -fi >"$root/autoreconf.log" 2>&1 || { cat "$root/autoreconf.log"; echo "quickstart: autoreconf failed" >&2; exit 1; }
fi

# shellcheck source=Make/builds.sh
source Make/builds.sh

if [ "$mode" = run ]; then
  b="$root/main"
  mkdir -p "$b"
  ( cd "$b" && "$top/configure" -q $HR_MAIN_CONFIGURE && make -s -j"$jobs" ) || { echo "quickstart: build failed" >&2; exit 1; }
  echo "quickstart: running the main job: $HR_MAIN_JOB"
  cd "$b" && eval "$HR_MAIN_JOB"
  exit $?
fi

# make check of build tree $1 with the tests of all folders sharing the make -j slots: the
# programs of every folder first (make check TESTS=), then the tests of every folder with tests
# through one make, HR_SLOW_TEST_DIRS (Make/builds.sh) first. The environment of the build
# comes from hr_build_env.
check_build_tree() {
  local b=$1 d dirs=""
  local rc=0
  make -C "$b" -k -j"$jobs" check TESTS= || rc=1
  for d in $HR_SLOW_TEST_DIRS $(cd "$top" && grep -l -E '^TESTS *[+]?=' */Makefile.am */*/Makefile.am |
                                 grep -v '^build/' | xargs -n 1 dirname); do
    [ -f "$b/$d/Makefile" ] && case " $dirs " in *" $d "*) ;; *) dirs="$dirs $d";; esac
  done
  { echo ".PHONY: all$dirs"
    echo "all:$dirs"
    for d in $dirs; do printf '%s:\n\t+$(MAKE) -C %s check\n' "$d" "$d"; done
  } >"$b/check_folders.mk"
  make -C "$b" -k -j"$jobs" -f check_folders.mk || rc=1
  return $rc
}

passed=0; failed=0; summary=(); built=" "
for name in ${HR_BUILDS:-$HR_ALL_BUILDS}; do
  opts=$(hr_build_options "$name") || { echo "quickstart: unknown build '$name'" >&2; failed=$((failed+1)); continue; }
  what=$(hr_build_action "$name")
  cflags=$(hr_build_cflags "$name") # empty: configure's default CFLAGS
  tree=$(hr_build_tree "$name")
  start=$(date +%s)
  if [ "$tree" != "$name" ] && [[ "$built" == *" $tree "* ]]; then
    b="$root/$tree"
    echo "=== build $name: in the tree of build $tree; $what"
  else
    b="$root/$name"
    rm -rf "$b"; mkdir -p "$b"
    echo "=== build $name: configure $opts${cflags:+ CFLAGS=\"$cflags\"}; $what"
    if ! ( cd "$b" && if [ -n "$cflags" ]; then export CFLAGS="$cflags"; fi &&
           "$top/configure" -q $opts >configure.out 2>&1 ); then
      tail -n 20 "$b/configure.out"; tail -n 40 "$b/config.log"
      echo "=== build $name: configure FAILED"; failed=$((failed+1)); summary+=("$name: configure failed"); continue
    fi
    if ! make -C "$b" -s -j"$jobs" >"$b/make.out" 2>&1; then
      tail -n 60 "$b/make.out"; echo "=== build $name: make FAILED"
      failed=$((failed+1)); summary+=("$name: make failed"); continue
    fi
    if grep -q "warning:" "$b/make.out"; then
      grep -B2 -A3 "warning:" "$b/make.out" | head -n 60
      echo "=== build $name: compiler warnings (the code must be -Wall -Wextra clean)"
      failed=$((failed+1)); summary+=("$name: compiler warnings")
    else
      built="$built$name "
    fi
  fi
  built_s=$(( $(date +%s) - start ))
  case "$what" in
    check)
      ( env_words=$(hr_build_env "$name"); [ -z "$env_words" ] || export $env_words
        check_build_tree "$b" ) >"$b/check.out" 2>&1; rc=$?
      read -r p f < <(bash "$top/Make/count_tests.sh" "$b")
      if grep -q "warning:" "$b/check.out"; then # the test programs are compiled here
        grep -B2 -A3 "warning:" "$b/check.out" | head -n 60
        echo "=== build $name: compiler warnings in the test programs"
        f=$((f + 1))
      fi
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; tail -n 60 "$b/check.out"; fi
      if [ "$f" -ne 0 ]; then
        grep -h -A1 -E "^(FAIL|ERROR|XPASS):" "$b/check.out" || true
        find "$b" -name '*.log' ! -name test-suite.log ! -name config.log -newer "$b/make.out" \
          -exec grep -l -E "^(FAIL|ERROR)" {} + 2>/dev/null | while read -r l; do echo "--- $l"; tail -n 30 "$l"; done
      fi
      passed=$((passed+p)); failed=$((failed+f))
      summary+=("$name: $p passed, $f failed ($(( $(date +%s) - start ))s: build ${built_s}s, check $(( $(date +%s) - start - built_s ))s)");;
    build)
      passed=$((passed+1)); summary+=("$name: built ($(( $(date +%s) - start ))s)");;
    *)
      if ( cd "$b" && env_words=$(hr_build_env "$name") && { [ -z "$env_words" ] || export $env_words; } &&
           eval "$what" ) >"$b/$name.out" 2>&1; then
        passed=$((passed+1)); summary+=("$name: '$what' passed ($(( $(date +%s) - start ))s: build ${built_s}s, the rest $(( $(date +%s) - start - built_s ))s)")
      else
        tail -n 60 "$b/$name.out"; failed=$((failed+1)); summary+=("$name: '$what' FAILED")
      fi;;
  esac
done
echo "=== summary"
for s in "${summary[@]}"; do echo "  $s"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
