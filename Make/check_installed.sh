#!/usr/bin/env bash
# Make/check_installed.sh PREFIX -- builds and runs a small program against an installed
# LibHR through pkg-config, as a user of the library would.
set -euo pipefail
prefix=$1
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/use_libhr.c" <<'C'
#include <libhr.h>
#include <stdio.h>
int main(void) {
  printf("LibHR %s: SU(%d), representation %s (NF = %d)\n", LIBHR_VERSION, NG, HR_REPR_NAME, NF);
  return (NG >= 2 && NF >= 1) ? 0 : 1;
}
C
# shellcheck disable=SC2046
cc -o "$tmp/use_libhr" "$tmp/use_libhr.c" $(pkg-config --cflags --libs libhr)
LD_LIBRARY_PATH="$prefix/lib" "$tmp/use_libhr"
