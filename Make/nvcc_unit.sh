# Make/nvcc_unit.sh -- sourced by Make/ptxas_check.sh and Make/sass_check.sh: one home for the
# nvcc command of a library .cu file outside make.
# hr_nvcc_unit NVCC SRCDIR BUILDDIR CU ARGS...: nvcc on SRCDIR/CU with the flags of
# Make/cuda.am's .cu.lo rule (-std=c++17 -O2 -lineinfo -fmad=false, the include folders of CU
# and of Include/ in the source and build trees), then ARGS (architecture, output, extra
# flags). Its variables are prefixed hr_nu_ so that the caller's are left alone.
hr_nvcc_unit() {
  hr_nu_nvcc=$1 hr_nu_src=$2 hr_nu_build=$3 hr_nu_cu=$4
  shift 4
  hr_nu_dir=$(dirname "$hr_nu_cu")
  "$hr_nu_nvcc" -std=c++17 -O2 -lineinfo -fmad=false -I"$hr_nu_src/$hr_nu_dir" \
    -I"$hr_nu_build/$hr_nu_dir" -I"$hr_nu_src/Include" -I"$hr_nu_build/Include" \
    -D_POSIX_C_SOURCE=200809L "$@" "$hr_nu_src/$hr_nu_cu"
}
