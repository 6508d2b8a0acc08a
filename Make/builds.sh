# Make/builds.sh -- the build configurations that CI checks (sourced by Make/quickstart.sh).
# Each build: configure options and an action: "check" (make check, counting every test),
# "build" (compile and link only) or a shell command run in the build tree (counts as one test).

# Main job of "quickstart.sh run": configure options and command (run in the build tree).
HR_MAIN_CONFIGURE="--enable-openmp"
HR_MAIN_JOB="OMP_NUM_THREADS=2 ./HMC/hmc -i \"$top/HMC/input_file\""

HR_ALL_BUILDS="su3-fund mpi-omp-su3-fund su2-adj-omp su4-2as su3-2s-mpi emulated-mpi-su3-fund install-pkgconfig distcheck"
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  HR_ALL_BUILDS="$HR_ALL_BUILDS cuda-compile"
else
  echo "builds: no nvcc in ${CUDA_HOME:-/usr/local/cuda}/bin: the CUDA compile check is skipped"
fi

# The CPU Dirac kernels (configure --with-simd): the builds default to the best path of the
# machine (avx512 where it has AVX-512); one MPI build takes the AVX2 path where the CPU has
# AVX2 and FMA, and su4-2as the portable path (bit for bit the generic code, tested).
# The AVX2 build is compiled as for an AVX2 machine: CFLAGS choose -march=x86-64-v3 (no
# AVX-512 anywhere), as a user building for a cluster would; configure must then still keep
# the library outside the kernels without FMA (test_gamma and test_suN_group check the bits).
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo 2>/dev/null; then
  hr_simd_avx2=--with-simd=avx2
  hr_cflags_avx2="-g -O2 -march=x86-64-v3"
else
  hr_simd_avx2=--with-simd=portable
  hr_cflags_avx2=
fi

# The test builds make the shared library only (--disable-static: libtool compiles each
# library source once instead of twice); install-pkgconfig and distcheck keep the default
# (shared and static).
hr_shared_only=--disable-static
hr_build_options() {
  case "$1" in
    su3-fund)          echo "--with-ng=3 --with-repr=fund --enable-debug-checks $hr_shared_only";;
    mpi-omp-su3-fund)  echo "--with-ng=3 --with-repr=fund --enable-mpi --enable-openmp $hr_simd_avx2 $hr_shared_only";;
    su2-adj-omp)       echo "--with-ng=2 --with-repr=adj --enable-openmp $hr_shared_only";;
    su4-2as)           echo "--with-ng=4 --with-repr=2as --with-simd=portable $hr_shared_only";;
    su3-2s-mpi)        echo "--with-ng=3 --with-repr=2s --enable-mpi $hr_shared_only";;
    emulated-mpi-su3-fund) echo "--with-ng=3 --with-repr=fund --enable-gpu=emulated --enable-openmp --enable-mpi $hr_shared_only";;
    install-pkgconfig) echo "--prefix=$root/install-pkgconfig/prefix";;
    distcheck)         echo "";;
    cuda-compile)      echo "--enable-gpu=cuda --with-cuda=${CUDA_HOME:-/usr/local/cuda} $hr_shared_only";;
    *) return 1;;
  esac
}

# CFLAGS of a build's configure (empty: configure's default, -g -O2 and -march=native).
hr_build_cflags() {
  case "$1" in
    mpi-omp-su3-fund) echo "$hr_cflags_avx2";;
    *) echo "";;
  esac
}

# Environment of `make check` of a build: the long tests (HR_LONG_TESTS=1, e.g. the 13750-step
# open-boundary flow against openQCD's log) run in one build only. With HR_SHORT_TESTS=1 a test
# leaves out the slow part that another build of the same theory runs in full and checks only
# what depends on its build: test_doc_commands.sh checks the paths of the documented runs
# without running them (they run in su3-fund, mpi-omp-su3-fund and the other theories).
hr_build_env() {
  case "$1" in
    su3-fund) echo "HR_LONG_TESTS=1";;
    # the emulated build also runs the host-staged halo exchange (as without CUDA-aware MPI)
    emulated-mpi-su3-fund) echo "HR_GPU_HALO=host HR_SHORT_TESTS=1";;
    distcheck) echo "HR_SHORT_TESTS=1";;
    *)        echo "";;
  esac
}

# A build that runs in the tree of an earlier build of the same run instead of configuring
# and compiling its own (where that build is not part of the run, it makes its own tree):
# make distcheck needs a configured tree only, so it takes install-pkgconfig's.
hr_build_tree() {
  case "$1" in
    distcheck) echo "install-pkgconfig";;
    *)         echo "$1";;
  esac
}

# The test folders whose tests take longest: `make check` of the check builds runs the tests
# of every folder through one make (Make/quickstart.sh), these folders first, so that their
# long tests overlap with the short ones of the other folders.
HR_SLOW_TEST_DIRS="TestProgram/Flow TestProgram/Fourier TestProgram/Docs TestProgram/Inverters TestProgram/Update TestProgram/Ensemble TestProgram/Input"

# The register check (Make/ptxas_check.sh) and the SASS check (Make/sass_check.sh) of the
# cuda-compile build, run side by side (each compiles the kernels again, one nvcc at a time);
# their outputs are printed one after the other. Run in the build tree.
hr_cuda_kernel_checks() {
  nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
  sh "$top/Make/ptxas_check.sh" "$top" . "$nvcc" > ptxas_check.out 2>&1 &
  ptxas_pid=$!
  sh "$top/Make/sass_check.sh" "$top" . "$nvcc" > sass_check.out 2>&1
  sass_rc=$?
  wait "$ptxas_pid"
  ptxas_rc=$?
  cat ptxas_check.out sass_check.out
  [ "$ptxas_rc" -eq 0 ] && [ "$sass_rc" -eq 0 ]
}

hr_build_action() {
  case "$1" in
    install-pkgconfig) echo "make -s install && bash \"$top/Make/check_installed.sh\" \"$root/install-pkgconfig/prefix\"";;
    # the tarball's own build: shared library only (the default build is install-pkgconfig's)
    distcheck)         echo "make -s distcheck DISTCHECK_CONFIGURE_FLAGS=$hr_shared_only";;
    # compile and link library, programs and tests; run nothing (no GPU); then the register
    # check of every kernel (Make/ptxas_check.sh: budgets, no spills, no stack frame) and the
    # width of the field accesses in the SASS (Make/sass_check.sh)
    cuda-compile)      echo "make -s check TESTS= && hr_cuda_kernel_checks";;
    *)                 echo "check";;
  esac
}
