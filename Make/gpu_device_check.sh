#!/usr/bin/env bash
# Make/gpu_device_check.sh [OUTDIR] -- the checks that need a GPU, in one run on a GPU machine
# (Doc/gpu.md, "Running on a GPU machine"), from the files of Make/gpu_device_prepare.sh in
# .devcheck/: unpacks Check into /tmp, builds the release tarball with --enable-gpu=cuda for
# the machine's GPU, then, each step with its own time limit and its log in OUTDIR (default
# $OUT, else /tmp/hr_device_out):
#   1. nvidia-smi, nvcc --version, the configure and build logs;
#   2. make check: every test, the GPU-vs-CPU comparisons included, on the real device;
#   3. compute-sanitizer memcheck of test_dirac and test_linear_algebra (if installed);
#   4. the benchmarks: Dirac operators on 16^4 and 48x24^3 against the device bandwidth and
#      the bound per site, the field algebra, the solvers;
#   5. sass: Make/sass_check.sh (the width of every global load and store in the SASS of the
#      Dirac and field-algebra kernels) for the GPU's architecture, if the toolkit has nvdisasm.
# HR_DEVICE_STEPS (default "build check sanitizer bench sass") selects steps; HR_DEVICE_ARCH
# (default: the GPU's compute capability from nvidia-smi, else 90) the sm_XX to build for.
# Prints one line per step (ok / FAILED / skipped) and exits non-zero if any failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:-/tmp/hr_device_out}}
mkdir -p "$out"
steps=${HR_DEVICE_STEPS:-build check sanitizer bench sass}
dc="$top/.devcheck"
jobs=$(nproc 2>/dev/null || echo 4)
status=0
summary=()
note() {
  summary+=("$1: $2")
  echo "gpu_device_check: $1: $2"
  if [ "$2" = FAILED ]; then status=1; fi
}

tarball=$(ls "$dc"/libhr-*.tar.gz 2>/dev/null | head -1)
if [ -z "$tarball" ]; then
  echo "gpu_device_check: no release tarball in $dc: run bash Make/gpu_device_prepare.sh here" \
       "first and carry .devcheck" >&2
  exit 2
fi

# Check and libsubunit from their Debian packages (no pkg-config needed: configure takes
# CHECK_CFLAGS / CHECK_LIBS as given).
deps=/tmp/hr_deps
mkdir -p "$deps"
for f in "$dc"/debs/*.deb; do
  if command -v dpkg > /dev/null; then
    dpkg -x "$f" "$deps"
  else # a .deb is an ar archive holding data.tar.*
    data=$(ar t "$f" | grep '^data\.tar')
    (cd /tmp && ar x "$f" "$data" && tar xf "/tmp/$data" -C "$deps" && rm -f "/tmp/$data")
  fi
done
libdir=$(dirname "$(find "$deps" -name 'libcheck_pic.a' | head -1)")
export CHECK_CFLAGS="-I$deps/usr/include"
export CHECK_LIBS="-L$libdir -lcheck_pic -pthread -lrt -lm -lsubunit"
export LIBRARY_PATH="$libdir${LIBRARY_PATH:+:$LIBRARY_PATH}"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda=$(dirname "$(dirname "$nvcc")")
{ nvidia-smi; "$nvcc" --version; } > "$out/device.txt" 2>&1
arch=${HR_DEVICE_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null |
                         head -1 | tr -d ' .')}
arch=${arch:-90}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -1)
echo "gpu_device_check: GPU ${gpu:-none found} (building for sm_$arch), CUDA $cuda, $jobs cores"

src=/tmp/hr_src
build=/tmp/hr_build
case " $steps " in *" build "*)
  rm -rf "$src" "$build"
  mkdir -p "$src" "$build"
  tar xzf "$tarball" -C "$src" --strip-components=1
  if (cd "$build" && timeout 300 "$src/configure" --enable-gpu=cuda --with-cuda="$cuda" \
        --enable-openmp HR_NVCC_ARCH_FLAGS="-gencode arch=compute_$arch,code=sm_$arch" \
        > "$out/configure.log" 2>&1 &&
        timeout 600 make -j"$jobs" > "$out/build.log" 2>&1 &&
        timeout 300 make -j"$jobs" check TESTS= >> "$out/build.log" 2>&1); then
    note build ok
  else
    note build FAILED
    tail -30 "$out/build.log" "$out/configure.log" 2> /dev/null
  fi;;
esac

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
case " $steps " in *" check "*)
  if (cd "$build" && timeout 600 make -j"$jobs" check > "$out/check.log" 2>&1); then
    note check ok
  else
    note check FAILED
  fi
  grep -E '^(# (TOTAL|PASS|FAIL|ERROR)|FAIL:|ERROR:)' "$out/check.log" | head -40
  find "$build" -name '*.log' -newer "$out/configure.log" -path '*TestProgram*' \
       -exec grep -l -E '^(FAIL|ERROR)' {} + 2> /dev/null | head -8 |
       while read -r f; do cp "$f" "$out/failed_$(basename "$(dirname "$f")")_$(basename "$f")"; done;;
esac

case " $steps " in *" sanitizer "*)
  san=$(command -v compute-sanitizer || ls "$cuda"/bin/compute-sanitizer 2> /dev/null | head -1)
  if [ -z "$san" ]; then
    note sanitizer skipped
  else
    ok=1
    for t in Dirac/test_dirac LinearAlgebra/test_linear_algebra; do
      (cd "$build/TestProgram/$(dirname "$t")" && CK_FORK=no timeout 300 "$build/libtool" \
         --mode=execute "$san" --tool memcheck --error-exitcode 1 "./$(basename "$t")") \
        > "$out/sanitizer_$(basename "$t").log" 2>&1 || ok=0
    done
    [ $ok = 1 ] && note sanitizer ok || note sanitizer FAILED
  fi;;
esac

case " $steps " in *" bench "*)
  ok=1
  b="$build/Benchmarks"
  for run in "speed_test_diracoperator input_file_dirac" \
             "speed_test_diracoperator input_file_dirac_large" \
             "speed_test_diracoperator input_file_dirac_links12" \
             "speed_test_linear_algebra input_file_linear_algebra" \
             "speed_test_inverters input_file_inverters"; do
    set -- $run
    (cd "$b" && timeout 240 "./$1" -i "$src/Benchmarks/$2") > "$out/bench_$1_$2.log" 2>&1 || ok=0
    grep -E 'op=|GB/s|bound|STREAM|device' "$out/bench_$1_$2.log" | head -30
  done
  [ $ok = 1 ] && note bench ok || note bench FAILED;;
esac

case " $steps " in *" sass "*)
  # the SASS width check of CI (Make/sass_check.sh) for this GPU's architecture, with the
  # toolkit's own nvdisasm (this machine cannot download one)
  if [ ! -x "$cuda/bin/nvdisasm" ]; then
    note sass skipped
  else
    HR_SASS_ARCHS=$arch NVDISASM="$cuda/bin/nvdisasm" timeout 300 \
      sh "$src/Make/sass_check.sh" "$src" "$build" "$nvcc" > "$out/sass_check.log" 2>&1 &&
      note sass ok || note sass FAILED
    tail -3 "$out/sass_check.log"
  fi;;
esac

echo "gpu_device_check: ${summary[*]}"
exit $status
