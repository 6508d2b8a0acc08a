#!/usr/bin/env bash
# test_layers.sh -- the layer check (Make/layer_check.sh) passes on LibHR's own sources and
# libraries, and fails on a made-up tree with an upward include, an upward call, a relative
# include and a circle between folders.
src=${HR_SRCDIR:-../..}
build=${HR_BUILDDIR:-../..}
. "$src/TestProgram/test_common.sh"
checker="$src/Make/layer_check.sh"

out=$(bash "$checker" "$src" "$build" 2>&1)
rc=$?
echo "$out" | tail -n 30
check "LibHR's includes and calls respect the layers of INDEX, no circle" [ "$rc" -eq 0 ]

# a made-up tree: Low (layer 1) and High (layer 2), each a library of one object
work=$(mktemp -d "${TMPDIR:-/tmp}/test_layers.XXXXXX")
mkdir -p "$work/Include" "$work/Low/.libs" "$work/High/.libs" "$work/Other/.libs"
printf 'INDEX\nlayer 1  Low Other\nlayer 2  High\n' > "$work/INDEX"
printf '/* low.h -- low things.\n * Implemented in: Low/low.c. */\nint low(void);\n' > "$work/Include/low.h"
printf '/* high.h -- high things.\n * Implemented in: High/high.c. */\nint high(void);\n' > "$work/Include/high.h"
printf '/* other.h -- other things.\n * Implemented in: Other/other.c. */\nint other(void);\n' > "$work/Include/other.h"
printf '#include "low.h"\nint low(void) { return 1; }\n' > "$work/Low/low.c"
printf '#include "high.h"\n#include "low.h"\nint high(void) { return low(); }\n' > "$work/High/high.c"
printf '#include "other.h"\nint other(void) { return 2; }\n' > "$work/Other/other.c"
build_libs() {
  for d in Low High Other; do
    f=$(echo "$d" | tr 'A-Z' 'a-z')
    cc -c -I"$work/Include" -o "$work/$d/$f.o" "$work/$d/$f.c" || return 1
    rm -f "$work/$d/.libs/lib$f.a"
    ar rc "$work/$d/.libs/lib$f.a" "$work/$d/$f.o" || return 1
  done
}
expect() { # expect DESCRIPTION RC PATTERN: the checker's exit code and a line of its output
  local o r
  build_libs || { echo "FAIL: $1: cannot compile the made-up tree"; fail=1; return; }
  o=$(bash "$checker" "$work" "$work" 2>&1)
  r=$?
  if [ "$r" -eq "$2" ] && echo "$o" | grep -q -- "$3"; then
    echo "PASS: $1"
  else
    echo "FAIL: $1 (exit $r, expected $2 and a line matching '$3'):"
    echo "$o"
    fail=1
  fi
}
expect "a tree that respects its layers passes" 0 "respect them, no circle"
printf '#include "high.h"\nint low(void) { return 1; }\n' > "$work/Low/low.c"
expect "an upward include fails" 1 "Low/low.c:1: includes high.h of High (layer 2) from Low (layer 1)"
printf 'int high(void);\nint low(void) { return high(); }\n' > "$work/Low/low.c"
expect "an upward call fails" 1 "Low/low.c: calls high of High (layer 2) from Low (layer 1)"
printf '#include "../Include/low.h"\nint low(void) { return 1; }\n' > "$work/Low/low.c"
expect "a relative include fails" 1 'includes "../Include/low.h" by a relative path'
printf '#include "low.h"\nint low(void) { return 1; }\n' > "$work/Low/low.c"
printf '#include "other.h"\n#include "low.h"\nint low(void) { return other(); }\n' > "$work/Low/low.c"
printf '#include "low.h"\n#include "other.h"\nint other(void) { return low(); }\n' > "$work/Other/other.c"
expect "a circle between two folders of one layer fails" 1 "circle between folders"
printf '/* low.h -- low things. */\nint low(void);\n' > "$work/Include/low.h"
expect "a header without 'Implemented in:' fails" 1 "Include/low.h: no 'Implemented in:' line"

[ "$fail" -eq 0 ] && rm -rf "$work"
exit $fail
