#!/usr/bin/env bash
# Make/gpu_device_prepare.sh -- run here, before a GPU machine is used: puts into .devcheck/
# (ignored by git) what Make/gpu_device_check.sh needs on a machine that has nvcc and a GPU but
# neither autotools, the Check library nor a network: a release tarball (make dist: configure
# and the Makefile.in files included) and the Debian packages of Check and libsubunit. Carry
# .devcheck with the working tree (Doc/gpu.md, "Running on a GPU machine").
# With HR_DEVICE_PREBUILD=ARCH (e.g. 90; this machine needs nvcc, no GPU) it also configures
# and builds the tarball here for sm_ARCH, in the same places under /tmp as the GPU machine
# would (Make/gpu_device_common.sh), and packs the tree into .devcheck/prebuilt.tar.gz, which
# gpu_device_check.sh unpacks instead of building: the build (about 4 minutes on the
# 16 cores of an H100 machine) then costs no device time. With HR_DEVICE_MPI=1 as well, the
# tree is configured with --enable-mpi and the Debian packages of Open MPI (4 MB) go into
# .devcheck/mpi, so that the GPU machine (which has no MPI) runs the tests on process grids,
# several processes sharing its GPU (Make/gpu_device_common.sh, hr_dev_mpi). The prebuilt
# tree comes with the library built once more with HR_GPU_WIDE_LOADS=1 (.devcheck/wide). With
# HR_DEVICE_OMPI_CUDA=1, a CUDA-aware Open MPI (Make/ompi_cuda_build.sh, /tmp/hr_ompi_cuda)
# is packed too, for the halo tests through device memory (Doc/gpu.md, "Running on a GPU
# machine").
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
if [ -n "${HR_DEVICE_MPI:-}" ]; then
  mkdir -p "$out/mpi"
  (cd "$out/mpi" && apt-get download libopenmpi3 openmpi-bin openmpi-common libhwloc15 \
     libevent-core-2.1-7 libevent-pthreads-2.1-7 libpmix2 libmunge2 libudev1 > /dev/null 2>&1) ||
    { echo "gpu_device_prepare: apt-get download of the Open MPI packages failed" >&2; exit 1; }
  export HR_DEVICE_CONFIGURE="--enable-mpi ${HR_DEVICE_CONFIGURE:-}"
fi
if [ -n "${HR_DEVICE_PREBUILD:-}" ]; then
  . "$top/Make/gpu_device_common.sh"
  hr_dev_deps "$out/debs"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  logs=$(mktemp -d)
  if ! hr_dev_build "$(ls "$out"/libhr-*.tar.gz)" "$(dirname "$(dirname "$nvcc")")" \
         "$HR_DEVICE_PREBUILD" "$logs" 1800; then
    tail -30 "$logs/build.log" "$logs/configure.log"
    echo "gpu_device_prepare: the build for sm_$HR_DEVICE_PREBUILD failed" >&2
    exit 1
  fi
  # the objects of the library are not make targets: left out (the shared library is kept)
  tar czf "$out/prebuilt.tar.gz" -C / --exclude='*/.libs/*.o' "${hr_src#/}" "${hr_build#/}"
  # the library once more with wide loads (HR_GPU_WIDE_LOADS=1), for the step wide of
  # gpu_device_check.sh, which runs the Dirac benchmark with it first in the library path
  find "$hr_build/LibHR/Dirac" -name 'dirac_gpu_cuda.*o' -delete
  if ! make -C "$hr_build/LibHR" NVCCFLAGS=-DHR_GPU_WIDE_LOADS=1 > "$logs/wide.log" 2>&1; then
    tail -30 "$logs/wide.log"
    echo "gpu_device_prepare: the build with HR_GPU_WIDE_LOADS=1 failed" >&2
    exit 1
  fi
  mkdir -p "$out/wide"
  gzip -c "$hr_build/LibHR/.libs/libhr.so.0" > "$out/wide/libhr.so.0.gz"
  rm -f "$out"/libhr-*.tar.gz # the prebuilt tree holds the sources
  rm -rf "$logs"
fi
if [ -n "${HR_DEVICE_OMPI_CUDA:-}" ]; then
  # a CUDA-aware Open MPI in /tmp/hr_ompi_cuda (built by Make/ompi_cuda_build.sh unless
  # there), for the step cudampi of gpu_device_check.sh
  . "$top/Make/gpu_device_common.sh"
  [ -x "$hr_ompi_cuda/bin/mpirun" ] || bash "$top/Make/ompi_cuda_build.sh"
  tar czf "$out/ompi_cuda.tar.gz" -C / --exclude='*/share/doc' --exclude='*/share/man' \
    --exclude='*/include' "${hr_ompi_cuda#/}"
fi
echo "gpu_device_prepare: $(ls "$out"/*.tar.gz) and $(ls "$out/debs" | wc -l) packages in $out"
du -sh "$out"
