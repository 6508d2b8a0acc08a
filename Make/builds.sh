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

hr_build_options() {
  case "$1" in
    su3-fund)          echo "--with-ng=3 --with-repr=fund --enable-debug-checks";;
    mpi-omp-su3-fund)  echo "--with-ng=3 --with-repr=fund --enable-mpi --enable-openmp $hr_simd_avx2";;
    su2-adj-omp)       echo "--with-ng=2 --with-repr=adj --enable-openmp";;
    su4-2as)           echo "--with-ng=4 --with-repr=2as --with-simd=portable";;
    su3-2s-mpi)        echo "--with-ng=3 --with-repr=2s --enable-mpi";;
    emulated-mpi-su3-fund) echo "--with-ng=3 --with-repr=fund --enable-gpu=emulated --enable-openmp --enable-mpi";;
    install-pkgconfig) echo "--prefix=$root/install-pkgconfig/prefix";;
    distcheck)         echo "";;
    cuda-compile)      echo "--enable-gpu=cuda --with-cuda=${CUDA_HOME:-/usr/local/cuda}";;
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
# open-boundary flow against openQCD's log) run in one build only.
hr_build_env() {
  case "$1" in
    su3-fund) echo "HR_LONG_TESTS=1";;
    # the emulated build also runs the host-staged halo exchange (as without CUDA-aware MPI)
    emulated-mpi-su3-fund) echo "HR_GPU_HALO=host";;
    *)        echo "";;
  esac
}

hr_build_action() {
  case "$1" in
    install-pkgconfig) echo "make -s install && bash \"$top/Make/check_installed.sh\" \"$root/install-pkgconfig/prefix\"";;
    distcheck)         echo "make -s distcheck";;
    # compile and link library, programs and tests; run nothing (no GPU); then the register
    # check of every kernel (Make/ptxas_check.sh: budgets, no spills, no stack frame) and the
    # width of the field accesses in the SASS (Make/sass_check.sh)
    cuda-compile)      echo "make -s check TESTS= && sh \"$top/Make/ptxas_check.sh\" \"$top\" . \"${CUDA_HOME:-/usr/local/cuda}/bin/nvcc\" && sh \"$top/Make/sass_check.sh\" \"$top\" . \"${CUDA_HOME:-/usr/local/cuda}/bin/nvcc\"";;
    *)                 echo "check";;
  esac
}
