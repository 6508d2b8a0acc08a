#!/bin/sh
# Make/sass_widths.sh FILE -- reads SASS, the output of `cuobjdump -sass` or of `nvdisasm`,
# and prints one line per kernel: its global loads (LDG) and stores (STG) counted by width,
# 128, 64 and 32 bits (narrower accesses, such as the 8-bit boundary flags, count as 32)
# (Doc/gpu.md, "Wide loads"). Names stay mangled. Exits non-zero when FILE holds no kernel.
# Used by Make/sass_check.sh and Make/gpu_device_check.sh.
awk '
  function width(op) { return op ~ /\.128/ ? 128 : (op ~ /\.64/ ? 64 : 32) }
  function start(name) { k = name; order[++n] = k }
  /Function : / { name = $0; sub(/.*Function : /, "", name); sub(/[ \t].*/, "", name)
                  start(name); next }                        # cuobjdump
  /^\.text\..*:$/ { name = $0; sub(/^\.text\./, "", name); sub(/:$/, "", name)
                    start(name); next }                      # nvdisasm
  /^\.nv\./ { k = "" }                                       # data sections of nvdisasm
  n > 0 && k != "" {
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
