#!/usr/bin/env bash
# Make/ompi_cuda_build.sh [CUDA_DIR] -- builds a CUDA-aware Open MPI (Debian's source of the
# system's version, 4.1.4 on bookworm, configured --with-cuda) into /tmp/hr_ompi_cuda, for the
# GPU machine's test of the halo exchanges that hand device memory to MPI (gpu_device_check.sh,
# step cudampi; gpu_device_prepare.sh with HR_DEVICE_OMPI_CUDA=1 calls this when that folder
# has no mpirun). Debian's own Open MPI is built without CUDA support. The source comes from
# Debian's deb-src archive through private apt lists (nothing of the system's apt setup
# changes); the build takes about 10 minutes on two cores. CUDA_DIR: default /usr/local/cuda.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/Make/gpu_device_common.sh"
cuda=${1:-/usr/local/cuda}
[ -f "$cuda/include/cuda.h" ] || { echo "ompi_cuda_build: no $cuda/include/cuda.h" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$work/src.list"
apt=(-oDir::Etc::SourceList="$work/src.list" -oDir::Etc::SourceParts=/dev/null
     -oDir::State::Lists="$work/lists")
(cd "$work" && apt-get "${apt[@]}" update && apt-get "${apt[@]}" source --download-only openmpi) \
  > "$work/apt.log" 2>&1 || { cat "$work/apt.log"; echo "ompi_cuda_build: no source" >&2; exit 1; }
tar xf "$work"/openmpi_*.orig.tar.xz -C "$work"
src=$(ls -d "$work"/openmpi-*/)
mkdir -p "$work/build"
cd "$work/build"
# MPI for C only, shared memory and TCP transports, its own hwloc, libevent and PMIx (the GPU
# machine has none of them)
"$src/configure" --prefix="$hr_ompi_cuda" --with-cuda="$cuda" --disable-mpi-fortran \
  --disable-oshmem --disable-mpi-java --disable-io-romio --disable-man-pages --enable-static=no \
  --without-ucx --without-verbs --without-ofi --without-psm2 --without-slurm --without-tm \
  --without-lsf --without-sge --without-alps --with-hwloc=internal --with-libevent=internal \
  --with-pmix=internal > configure.log 2>&1 ||
  { tail -20 configure.log; echo "ompi_cuda_build: configure failed" >&2; exit 1; }
grep -q "if have cuda support... yes" configure.log ||
  { echo "ompi_cuda_build: configure found no CUDA support" >&2; exit 1; }
make -j"$(nproc)" > make.log 2>&1 || { tail -30 make.log; exit 1; }
rm -rf "$hr_ompi_cuda"
make install > install.log 2>&1 || { tail -30 install.log; exit 1; }
"$hr_ompi_cuda/bin/ompi_info" --parsable --all |
  grep -q 'opal_built_with_cuda_support:value:true' ||
  { echo "ompi_cuda_build: $hr_ompi_cuda/bin/ompi_info reports no CUDA support" >&2; exit 1; }
echo "ompi_cuda_build: a CUDA-aware Open MPI in $hr_ompi_cuda"
