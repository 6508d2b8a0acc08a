#!/bin/sh
# Make/sass_tool.sh [NVCC] -- prints the path of an nvdisasm (the SASS disassembler) for
# Make/sass_check.sh, or says why there is none and exits non-zero. In order: $NVDISASM; the
# nvdisasm beside NVCC (full CUDA toolkits have it); one already unpacked in the cache
# (${XDG_CACHE_HOME:-$HOME/.cache}/libhr/nvdisasm); else it downloads Debian's package
# nvidia-cuda-toolkit (section non-free, about 84 MB, signature checked by apt, nothing
# installed: apt works on private lists in the cache, and only usr/bin/nvdisasm is unpacked
# there).
# That toolkit (CUDA 11.8) disassembles sm_80 and sm_90 code; Make/sass_check.sh converts the
# ELF header of newer cubins for it (sass_cubin_for_old_disasm).
set -u
nvcc=${1:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}

if [ -n "${NVDISASM:-}" ]; then
  [ -x "$NVDISASM" ] && { echo "$NVDISASM"; exit 0; }
  echo "sass_tool: NVDISASM=$NVDISASM is not an executable" >&2
  exit 1
fi
beside=$(dirname "$nvcc")/nvdisasm
if [ -x "$beside" ]; then
  echo "$beside"
  exit 0
fi

cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/libhr/nvdisasm
tool=$cache/root/usr/bin/nvdisasm
if [ -x "$tool" ]; then
  echo "$tool"
  exit 0
fi

fail() {
  echo "sass_tool: $*" >&2
  echo "sass_tool: install a CUDA toolkit with nvdisasm, or set NVDISASM=/path/to/nvdisasm" >&2
  exit 1
}
command -v apt-get > /dev/null 2>&1 || fail "no nvdisasm beside $nvcc and no apt-get to fetch one"
codename=$(. /etc/os-release 2> /dev/null && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || fail "cannot tell the Debian release (/etc/os-release)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail "no Debian archive keyring ($keyring)"
mkdir -p "$cache/lists/partial" "$cache/archives/partial" "$cache/root" ||
  fail "cannot create $cache"
echo "deb [signed-by=$keyring] http://deb.debian.org/debian $codename contrib non-free" \
  > "$cache/sources.list"
: > "$cache/status"
# apt on private lists, cache and status: the system's package state is not touched.
aptopts="-o Dir::Etc::SourceList=$cache/sources.list -o Dir::Etc::SourceParts=/dev/null
  -o Dir::State::Lists=$cache/lists -o Dir::Cache::Archives=$cache/archives
  -o Dir::State::Status=$cache/status -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
echo "sass_tool: fetching Debian's nvidia-cuda-toolkit ($codename non-free) for nvdisasm" >&2
# shellcheck disable=SC2086
apt-get $aptopts -qq update > "$cache/apt.log" 2>&1 ||
  { cat "$cache/apt.log" >&2; fail "apt-get update of the non-free section failed"; }
# shellcheck disable=SC2086
(cd "$cache/archives" && apt-get $aptopts -qq download nvidia-cuda-toolkit) >> "$cache/apt.log" 2>&1 ||
  { cat "$cache/apt.log" >&2; fail "apt-get download nvidia-cuda-toolkit failed"; }
deb=$(ls "$cache"/archives/nvidia-cuda-toolkit_*.deb 2> /dev/null | head -1)
[ -n "$deb" ] || fail "the package was not downloaded"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$cache/root" ./usr/bin/nvdisasm ||
  fail "cannot unpack usr/bin/nvdisasm from $deb"
rm -f "$deb"
[ -x "$tool" ] || fail "the package $deb has no usr/bin/nvdisasm"
echo "$tool"
