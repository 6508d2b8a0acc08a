#!/usr/bin/env bash
# Make/gpu_device_check.sh [LOGDIR] -- the checks that need a GPU, in one run on a GPU machine
# (Doc/gpu.md, "Running on a GPU machine"), from the files of Make/gpu_device_prepare.sh in
# .devcheck/: unpacks Check into /tmp, builds the release tarball with --enable-gpu=cuda for
# the machine's GPU (or unpacks the tree gpu_device_prepare.sh built, HR_DEVICE_PREBUILD),
# then, each step with its own time limit and its log in LOGDIR (default /tmp/hr_device_logs):
#   1. nvidia-smi, nvcc --version, the configure and build logs;
#   2. make check: every test, the GPU-vs-CPU comparisons included, on the real device, on one
#      process (with the Open MPI of .devcheck/mpi and HR_DEVICE_GRIDS=1: on process grids
#      sharing the GPU);
#   3. the benchmarks: Dirac operators on 16^4 and 48x24^3 against the device bandwidth and
#      the bound per site, the field algebra, the solvers, an HMC and a Wilson-flow run;
#   4. sass: Make/sass_check.sh (the width of every global load and store in the SASS of the
#      Dirac and field-algebra kernels) for the GPU's architecture, if the toolkit has nvdisasm;
#   5. compute-sanitizer memcheck of test_dirac and test_linear_algebra (if installed);
#   6. wide: the Dirac kernels rebuilt with HR_GPU_WIDE_LOADS=1 (one 128-bit access per unit,
#      with the spills ptxas then needs; Doc/gpu.md, "Wide loads") and the Dirac benchmark
#      on 16^4 and 48x24^3 again, to compare with step 3 (the tree keeps the wide loads;
#      with the library gpu_device_prepare.sh built with them, .devcheck/wide, the tree stays);
#   7. cudampi: with the CUDA-aware Open MPI of .devcheck/ompi_cuda.tar.gz
#      (gpu_device_prepare.sh, HR_DEVICE_OMPI_CUDA) and HR_GPU_HALO=device: the Dirac, field,
#      field-algebra, observable, flow and HMC tests on their process grids (the processes
#      share the GPU), and the Dirac benchmark on two processes, the halo handed to MPI in
#      device memory and staged through the host.
# A benchmark killed by a signal runs once more under cuda-gdb (if installed), for a backtrace.
# The whole run keeps within HR_DEVICE_BUDGET seconds (default 540): a step whose time is
# short is cut at the budget, and the steps after it are skipped. After every step the logs
# are packed into $OUT/device_logs.tar.gz (when OUT is set), so a run stopped from outside
# still returns what it did. HR_DEVICE_STEPS (default "build check bench sass sanitizer wide
# cudampi") selects steps; HR_DEVICE_ARCH (default: the GPU's compute capability from
# nvidia-smi, else 90) the sm_XX to build for; HR_DEVICE_BENCH (default all) the input files
# of the benchmarks to run (e.g. "input_file_dirac input_file_flow"); HR_DEVICE_CHECK_SECONDS
# (default 300) the limit of make check (on process grids it needs more: 290 s ran about two
# thirds of it on an H200). Prints one line per step (ok / FAILED / skipped) and exits
# non-zero if any failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
logs=${1:-/tmp/hr_device_logs}
mkdir -p "$logs"
steps=${HR_DEVICE_STEPS:-build check bench sass sanitizer wide cudampi}
budget=${HR_DEVICE_BUDGET:-540}
start=$SECONDS
dc="$top/.devcheck"
jobs=$(nproc 2>/dev/null || echo 4)
status=0
summary=()
pack() {
  if [ -n "${OUT:-}" ]; then
    printf '%s\n' "${summary[@]}" > "$logs/summary.txt"
    tar czf "$OUT/device_logs.tar.gz.tmp" -C "$logs" . && \
      mv "$OUT/device_logs.tar.gz.tmp" "$OUT/device_logs.tar.gz"
  fi
}
note() {
  summary+=("$1: $2 ($((SECONDS - start)) s)")
  echo "gpu_device_check: $1: $2 at $((SECONDS - start)) s"
  if [ "$2" = FAILED ]; then status=1; fi
  pack
}
# limit WANT: the seconds a step may take, WANT or what is left of the budget (0: skip it)
limit() {
  local left=$((budget - (SECONDS - start)))
  if [ "$left" -lt 20 ]; then echo 0; elif [ "$1" -lt "$left" ]; then echo "$1"; else
    echo "$left"; fi
}
want() { case " $steps " in *" $1 "*) return 0;; *) return 1;; esac; }

. "$top/Make/gpu_device_common.sh"
tarball=$(ls "$dc"/libhr-*.tar.gz 2>/dev/null | head -1)
prebuilt=$dc/prebuilt.tar.gz
if [ -z "$tarball" ] && [ ! -f "$prebuilt" ]; then
  echo "gpu_device_check: no release tarball or prebuilt tree in $dc: run" \
       "bash Make/gpu_device_prepare.sh here first and carry .devcheck" >&2
  exit 2
fi
hr_dev_deps "$dc/debs"
mpirun_arg=("HR_MPIRUN=") # one process: make check skips the grids of several processes
if [ -d "$dc/mpi" ]; then # Open MPI from gpu_device_prepare.sh (HR_DEVICE_MPI=1)
  if hr_dev_mpi "$dc/mpi" > "$logs/mpi.txt" 2>&1; then
    if [ "${HR_DEVICE_GRIDS:-0}" = 1 ]; then
      mpirun_arg=("HR_MPIRUN=$HR_MPIRUN")
      echo "gpu_device_check: Open MPI runs (tests on process grids, the processes share the GPU)"
    else
      echo "gpu_device_check: Open MPI runs (make check on one process; grids: HR_DEVICE_GRIDS=1)"
    fi
  else
    echo "gpu_device_check: Open MPI does not run here:"; tail -5 "$logs/mpi.txt"
  fi
fi

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda=$(dirname "$(dirname "$nvcc")")
{ nvidia-smi; "$nvcc" --version; nproc; free -g; } > "$logs/device.txt" 2>&1
arch=${HR_DEVICE_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null |
                         head -1 | tr -d ' .')}
arch=${arch:-90}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -1)
echo "gpu_device_check: GPU ${gpu:-none found} (building for sm_$arch), CUDA $cuda, $jobs cores"

src=$hr_src
build=$hr_build
if want build; then
  t=$(limit 420)
  if [ -f "$prebuilt" ]; then # built by gpu_device_prepare.sh (HR_DEVICE_PREBUILD) in place
    rm -rf "$src" "$build"
    if tar xzf "$prebuilt" -C / && [ -x "$build/libtool" ]; then
      built_for=$(sed -n 's/.*code=sm_\([0-9]*\).*/\1/p' "$build/config.log" | head -1)
      [ "$built_for" = "$arch" ] ||
        echo "gpu_device_check: the prebuilt tree is for sm_$built_for, this GPU is sm_$arch"
      note build "ok (prebuilt for sm_$built_for, unpacked)"
    else
      note build FAILED
      steps=""
    fi
  elif [ "$t" -gt 0 ] && hr_dev_build "$tarball" "$cuda" "$arch" "$logs" "$t"; then
    note build ok
  else
    note build FAILED
    tail -30 "$logs/build.log" "$logs/configure.log" 2> /dev/null
    steps=""
  fi
fi

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
if want check; then
  t=$(limit "${HR_DEVICE_CHECK_SECONDS:-300}")
  if [ "$t" = 0 ]; then
    note check skipped
  elif touch "$logs/check.start" &&
       (cd "$build" && timeout "$t" make -k -j"$jobs" check "${mpirun_arg[@]}" \
         > "$logs/check.log" 2>&1); then
    note check ok
  else
    note check FAILED
  fi
  grep -E '^(FAIL|ERROR):' "$logs/check.log" | head -30
  awk '/^# (TOTAL|PASS|SKIP|FAIL|ERROR):/ { n[$2] += $3 }
       END { printf "gpu_device_check: tests: %d total, %d pass, %d skip, %d fail, %d error\n",
             n["TOTAL:"], n["PASS:"], n["SKIP:"], n["FAIL:"], n["ERROR:"] }' "$logs/check.log"
  find "$build" -name '*.log' -newer "$logs/check.start" -path '*TestProgram*' \
       -exec grep -l -E '^(FAIL|ERROR)' {} + 2> /dev/null | head -8 |
       while read -r f; do
         cp "$f" "$logs/failed_$(basename "$(dirname "$f")")_$(basename "$f")"
       done
  pack
fi

if want bench; then
  ok=1
  b="$build/Benchmarks"
  for run in "speed_test_diracoperator input_file_dirac" \
             "speed_test_diracoperator input_file_dirac_large" \
             "speed_test_diracoperator input_file_dirac_links12" \
             "speed_test_linear_algebra input_file_linear_algebra" \
             "speed_test_inverters input_file_inverters" \
             "speed_test_hmc input_file_hmc" \
             "speed_test_flow input_file_flow"; do
    set -- $run
    case " ${HR_DEVICE_BENCH:-$2} " in *" $2 "*) ;; *) continue;; esac
    t=$(limit 90)
    if [ "$t" = 0 ]; then ok=2; break; fi
    (cd "$b" && timeout "$t" "./$1" -i "$src/Benchmarks/$2") > "$logs/bench_$1_$2.log" 2>&1
    rc=$?
    echo "exit status $rc" >> "$logs/bench_$1_$2.log"
    if [ "$rc" != 0 ]; then ok=0; fi
    # killed by a signal (not the time limit): once more under cuda-gdb, for a backtrace
    if [ "$rc" -gt 128 ] && [ "$rc" != 137 ] && command -v cuda-gdb > /dev/null &&
       [ "$(limit 60)" -ge 60 ]; then
      (cd "$b" && timeout 60 "$build/libtool" --mode=execute cuda-gdb -batch -ex run -ex bt \
         --args "./$1" -i "$src/Benchmarks/$2") > "$logs/gdb_$1_$2.log" 2>&1
      grep -A12 -E 'received signal|^#0' "$logs/gdb_$1_$2.log" | head -30
    fi
    grep -E 'op=|GB/s|bound|STREAM|device' "$logs/bench_$1_$2.log" | head -30
    pack
  done
  case $ok in 1) note bench ok;; 2) note bench "cut short";; *) note bench FAILED;; esac
fi

if want sass; then
  # the SASS width check of CI (Make/sass_check.sh) for this GPU's architecture, with the
  # toolkit's own nvdisasm (this machine cannot download one)
  t=$(limit 200)
  if [ ! -x "$cuda/bin/nvdisasm" ] || [ "$t" = 0 ]; then
    note sass skipped
  else
    HR_SASS_ARCHS=$arch NVDISASM="$cuda/bin/nvdisasm" timeout "$t" \
      sh "$src/Make/sass_check.sh" "$src" "$build" "$nvcc" > "$logs/sass_check.log" 2>&1 &&
      note sass ok || note sass FAILED
    tail -3 "$logs/sass_check.log"
  fi
fi

if want sanitizer; then
  san=$(command -v compute-sanitizer || ls "$cuda"/bin/compute-sanitizer 2> /dev/null | head -1)
  if [ -z "$san" ] || [ "$(limit 60)" -lt 60 ]; then
    note sanitizer skipped
  else
    ok=1
    for t in Dirac/test_dirac LinearAlgebra/test_linear_algebra; do
      tl=$(limit 300)
      [ "$tl" = 0 ] && { ok=2; break; }
      (cd "$build/TestProgram/$(dirname "$t")" && CK_FORK=no timeout "$tl" "$build/libtool" \
         --mode=execute "$san" --tool memcheck --error-exitcode 1 "./$(basename "$t")") \
        > "$logs/sanitizer_$(basename "$t").log" 2>&1 || ok=0
    done
    case $ok in 1) note sanitizer ok;; 2) note sanitizer "cut short";; *) note sanitizer FAILED;;
    esac
  fi
fi

if want wide; then
  # without the library prebuilt with wide loads, the tree is rebuilt with them (and the
  # steps after this one use it)
  need=150 # the rebuild here and two benchmarks; with the prebuilt library the benchmarks
  [ -f "$dc/wide/libhr.so.0.gz" ] && need=60
  if [ "$(limit $need)" -lt $need ]; then
    note wide skipped
  else
    # the library built with wide loads by gpu_device_prepare.sh (first in the library path
    # of the program itself, not of its libtool wrapper), else the tree rebuilt here
    bench=(./speed_test_diracoperator)
    if [ -f "$dc/wide/libhr.so.0.gz" ]; then
      gunzip -c "$dc/wide/libhr.so.0.gz" > "$dc/wide/libhr.so.0"
    fi
    if [ -f "$dc/wide/libhr.so.0" ]; then
      bench=(env "LD_LIBRARY_PATH=$dc/wide:$build/LibHR/.libs:$LD_LIBRARY_PATH"
             ./.libs/speed_test_diracoperator)
      echo "prebuilt: $dc/wide/libhr.so.0" > "$logs/wide_build.log"
    else
      find "$build/LibHR/Dirac" -name 'dirac_gpu_cuda.*o' -delete
    fi
    if [ -f "$dc/wide/libhr.so.0" ] || timeout 100 make -C "$build/LibHR" \
         NVCCFLAGS=-DHR_GPU_WIDE_LOADS=1 > "$logs/wide_build.log" 2>&1; then
      for inp in input_file_dirac input_file_dirac_large; do
        tl=$(limit 60)
        [ "$tl" = 0 ] && break
        (cd "$build/Benchmarks" && timeout "$tl" "${bench[@]}" -i "$src/Benchmarks/$inp") \
          > "$logs/bench_wide_$inp.log" 2>&1
        grep -E 'op=' "$logs/bench_wide_$inp.log" | head -12
      done
      note wide ok
    else
      tail -20 "$logs/wide_build.log"
      note wide FAILED
    fi
  fi
fi

if want cudampi; then
  # the exchanges handed device memory: the tests of the Dirac operators, the field
  # exchanges and the field algebra on their process grids, and the Dirac benchmark on two
  # processes (device halo against host staging), under the CUDA-aware Open MPI that
  # gpu_device_prepare.sh built (HR_DEVICE_OMPI_CUDA), the processes sharing the GPU
  if [ ! -f "$dc/ompi_cuda.tar.gz" ] || [ "$(limit 60)" -lt 60 ]; then
    note cudampi skipped
  else
    tar xzf "$dc/ompi_cuda.tar.gz" -C /
    touch "$logs/cudampi.start"
    (
      unset PMIX_INSTALL_PREFIX PMIX_MCA_mca_base_component_path OPAL_SYSCONFDIR OMPI_MCA_btl \
            OMPI_MCA_btl_vader_single_copy_mechanism
      export OPAL_PREFIX=$hr_ompi_cuda PATH=$hr_ompi_cuda/bin:$PATH
      export LD_LIBRARY_PATH=$hr_ompi_cuda/lib:$LD_LIBRARY_PATH HR_GPU_HALO=device
      mpirun=$hr_ompi_cuda/bin/mpirun
      ompi_info --parsable --all | grep -E 'built_with_cuda_support:value|mpi_ext' | head -3
      "$mpirun" -np 2 hostname || exit 1
      rc=0
      # each folder's tests (Update: the HMC on grids and two grids of its updates only)
      for d in Dirac Memory LinearAlgebra Observables Flow Update; do
        t=$(limit 150)
        [ "$t" = 0 ] && break
        tests=()
        [ "$d" = Update ] && tests=(TESTS="test_hmc_grids.sh grid_2x1x1x1.grid grid_2x2x1x1.grid")
        timeout "$t" make -k -j4 -C "$build/TestProgram/$d" check HR_MPIRUN="$mpirun" \
          "${tests[@]}" || rc=1
      done
      sed 's/^NP_T = 1/NP_T = 2/' "$src/Benchmarks/input_file_dirac_large" > "$logs/in_np2"
      for path in device host; do
        t=$(limit 60)
        [ "$t" = 0 ] && break
        echo "== two processes, HR_GPU_HALO=$path"
        (cd "$build/Benchmarks" && HR_GPU_HALO=$path timeout "$t" "$mpirun" -np 2 \
           ./speed_test_diracoperator -i "$logs/in_np2") 2>&1 |
          grep -E 'op=|halo|exchange|GPU' | head -30
      done
      exit $rc
    ) > "$logs/cudampi.log" 2>&1 && note cudampi ok || note cudampi FAILED
    grep -E '^(PASS|FAIL|ERROR|SKIP):|# (TOTAL|PASS|FAIL)|built_with_cuda' "$logs/cudampi.log" |
      head -40
    find "$build/TestProgram" -name '*.log' -newer "$logs/cudampi.start" \
      -exec grep -l -E '^(FAIL|ERROR)' {} + 2> /dev/null | head -6 |
      while read -r f; do cp "$f" "$logs/cudampi_failed_$(basename "$f")"; done
  fi
fi

echo "gpu_device_check: ${summary[*]}"
pack
exit $status
