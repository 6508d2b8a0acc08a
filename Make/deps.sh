#!/usr/bin/env bash
# Make/deps.sh -- installs the Debian packages LibHR needs to build and test, when missing.
# Usage: bash Make/deps.sh   (as root, or as a user with sudo)
set -euo pipefail

packages=(build-essential autoconf automake libtool pkg-config check
          libopenmpi-dev openmpi-bin librandom123-dev libfftw3-dev libfftw3-mpi-dev
          libmpfr-dev libgmp-dev)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all Debian packages present (${packages[*]})"
  exit 0
fi

echo "deps: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "deps: error: packages ${missing[*]} are missing and this user is neither root nor has sudo;" >&2
  echo "deps: ask an administrator to run: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
echo "deps: done"
