# Make/gpu_device_common.sh -- sourced by Make/gpu_device_prepare.sh and
# Make/gpu_device_check.sh: the fixed places under /tmp (the same on this machine and on the
# GPU machine, so that a tree built here runs there: libtool's wrappers hold absolute paths),
# the Check library and (optionally) Open MPI from their Debian packages, and the CUDA
# configure and build of the release tarball for one GPU architecture.
hr_src=/tmp/hr_src
hr_build=/tmp/hr_build
hr_deps=/tmp/hr_deps
hr_ompi_cuda=/tmp/hr_ompi_cuda # a CUDA-aware Open MPI (gpu_device_prepare.sh, HR_DEVICE_OMPI_CUDA)

# hr_dev_unpack DEBDIR DEST: unpack the files of the .deb packages of DEBDIR under DEST (dpkg
# -x, or where there is no dpkg the data.tar.* of the ar archive), installing nothing.
hr_dev_unpack() {
  mkdir -p "$2"
  local f data
  for f in "$1"/*.deb; do
    if command -v dpkg > /dev/null; then
      dpkg -x "$f" "$2"
    else
      data=$(ar t "$f" | grep '^data\.tar')
      (cd /tmp && ar x "$f" "$data" && tar xf "/tmp/$data" -C "$2" && rm -f "/tmp/$data")
    fi
  done
}

# hr_dev_deps DEBDIR: unpack the .deb files of DEBDIR into $hr_deps and export what configure
# and the tests need to find Check there (no pkg-config: configure takes CHECK_CFLAGS and
# CHECK_LIBS as given).
hr_dev_deps() {
  hr_dev_unpack "$1" "$hr_deps"
  local libdir
  libdir=$(dirname "$(find "$hr_deps" -name 'libcheck_pic.a' | head -1)")
  export CHECK_CFLAGS="-I$hr_deps/usr/include"
  export CHECK_LIBS="-L$libdir -lcheck_pic -pthread -lrt -lm -lsubunit"
  export LIBRARY_PATH="$libdir${LIBRARY_PATH:+:$LIBRARY_PATH}"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# hr_dev_build TARBALL CUDA_DIR ARCH LOGDIR SECONDS: unpack the release tarball into $hr_src,
# configure it in $hr_build with the CUDA backend (OpenMP on, shared library only, and the
# flags of HR_DEVICE_CONFIGURE, e.g. --enable-mpi) for sm_ARCH alone, build the library, the
# programs and the tests (not run), within SECONDS; the logs
# are LOGDIR/configure.log and LOGDIR/build.log. No dependency tracking: a one-shot build
# needs none, and a tree built here and unpacked on the GPU machine must not name this
# machine's system headers (a header missing there, mpfr.h say, makes make rebuild the file).
hr_dev_build() {
  rm -rf "$hr_src" "$hr_build"
  mkdir -p "$hr_src" "$hr_build"
  tar xzf "$1" -C "$hr_src" --strip-components=1
  local jobs
  jobs=$(nproc 2> /dev/null || echo 4)
  (cd "$hr_build" && timeout "$5" sh -c "'$hr_src/configure' --enable-gpu=cuda \
      --with-cuda='$2' --enable-openmp --disable-static --disable-dependency-tracking \
      ${HR_DEVICE_CONFIGURE:-} \
      HR_NVCC_ARCH_FLAGS='-gencode arch=compute_$3,code=sm_$3' > '$4/configure.log' 2>&1 &&
      make -j$jobs > '$4/build.log' 2>&1 && make -j$jobs check TESTS= >> '$4/build.log' 2>&1")
}

# hr_dev_mpi DEBDIR: unpack the Open MPI packages of DEBDIR (Debian's, downloaded by
# gpu_device_prepare.sh with HR_DEVICE_MPI=1) into $hr_ompi and export what makes that copy
# work outside /usr: Open MPI's and PMIx's relocation variables, the library path, the MCA
# settings for one node (shared memory, TCP over loopback as a fallback; no InfiniBand or UCX
# probing), root allowed, and HR_MPIRUN
# for make check. Returns non-zero when two processes cannot run.
hr_ompi=/tmp/hr_ompi
hr_dev_mpi() {
  rm -rf "$hr_ompi"
  hr_dev_unpack "$1" "$hr_ompi"
  local lib=$hr_ompi/usr/lib/x86_64-linux-gnu
  export OPAL_PREFIX=$hr_ompi/usr
  export OPAL_SYSCONFDIR=$hr_ompi/etc/openmpi
  export PMIX_INSTALL_PREFIX=$lib/pmix2
  export PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
  export LD_LIBRARY_PATH="$lib:$lib/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PATH="$hr_ompi/usr/bin:$PATH"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  export PMIX_MCA_pcompress_base_silence_warning=1 # its zlib component does not load there
  export HR_MPIRUN=$hr_ompi/usr/bin/orterun
  "$HR_MPIRUN" -np 2 sh -c 'echo "rank $OMPI_COMM_WORLD_RANK of $OMPI_COMM_WORLD_SIZE"'
}
