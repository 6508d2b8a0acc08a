#!/bin/sh
# Make/sass_widths.sh FILE -- reads the output of `cuobjdump -sass` and prints one line per
# kernel: its global loads (LDG) and stores (STG) counted by width, 128, 64 and 32 bits
# (Doc/gpu.md, "Wide loads"). Exits non-zero when FILE holds no kernel. Used by
# Make/gpu_device_check.sh on a GPU machine (cuobjdump is not installed everywhere).
awk '
  function width(op) { return op ~ /\.128/ ? 128 : (op ~ /\.64/ ? 64 : 32) }
  /Function : / { k = $0; sub(/.*Function : /, "", k); sub(/[ \t].*/, "", k); order[++n] = k; next }
  n > 0 {
    for (i = 1; i <= NF; ++i) {
      if ($i ~ /^(@!?U?P[0-9T]+)$/) continue     # a predicate
      if ($i ~ /^LDG(\.|$)/) c[k, "ld", width($i)]++
      else if ($i ~ /^STG(\.|$)/) c[k, "st", width($i)]++
      if ($i ~ /^\/\*[0-9a-f]+\*\/$/) continue  # the address
      if ($i ~ /^[A-Z]/) break                  # the first opcode decides
    }
  }
  END {
    if (n == 0) { print "sass_widths: no kernel found"; exit 1 }
    printf "%-60s %6s %6s %6s %6s %6s %6s\n", "kernel", "ld128", "ld64", "ld32", "st128", "st64", "st32"
    for (j = 1; j <= n; ++j) { k = order[j]
      printf "%-60s %6d %6d %6d %6d %6d %6d\n", k, c[k, "ld", 128], c[k, "ld", 64], c[k, "ld", 32],
             c[k, "st", 128], c[k, "st", 64], c[k, "st", 32] }
  }' "$1"
