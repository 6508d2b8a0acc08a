#!/usr/bin/env bash
# Make/gpu_device_prepare.sh -- run here, before a GPU machine is used: puts into .devcheck/
# (ignored by git) what Make/gpu_device_check.sh needs on a machine that has nvcc and a GPU but
# neither autotools, the Check library nor a network: a release tarball (make dist: configure
# and the Makefile.in files included) and the Debian packages of Check and libsubunit. Carry
# .devcheck with the working tree (Doc/gpu.md, "Running on a GPU machine").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=.devcheck
rm -rf "$out"
mkdir -p "$out/debs"
if [ ! -x configure ] || [ configure.ac -nt configure ]; then
  autoreconf -fi > /dev/null 2>&1 || { echo "gpu_device_prepare: autoreconf failed" >&2; exit 1; }
fi
b=$(mktemp -d)
trap 'rm -rf "$b"' EXIT
(cd "$b" && "$top/configure" -q && make -s dist) > "$b/dist.log" 2>&1 ||
  { cat "$b/dist.log"; echo "gpu_device_prepare: make dist failed" >&2; exit 1; }
mv "$b"/libhr-*.tar.gz "$out/"
(cd "$out/debs" && apt-get download check libsubunit0 libsubunit-dev > /dev/null 2>&1) ||
  { echo "gpu_device_prepare: apt-get download of check, libsubunit0, libsubunit-dev failed" >&2
    exit 1; }
echo "gpu_device_prepare: $(ls "$out"/*.tar.gz) and $(ls "$out/debs" | wc -l) packages in $out"
du -sh "$out"
