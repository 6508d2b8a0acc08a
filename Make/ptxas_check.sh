#!/bin/sh
# ptxas_check.sh SRCDIR BUILDDIR [NVCC] -- the register check of the CUDA kernels (Doc/gpu.md):
# compiles every .cu file of the library (not TestProgram/) with nvcc -Xptxas -v for sm_80
# and sm_90, prints one table line per kernel and architecture (registers, spill stores and
# loads, stack frame) and fails when a kernel spills, uses a stack frame or exceeds its
# register budget: 96 for single-precision (_flt) kernels, 128 for the others (double
# precision hopping, clover, linear algebra, force, heatbath ...). Kernels listed in
# Make/ptxas_known.txt are known offenders: they are printed as KNOWN and fail only when one
# of their figures (registers, spill bytes, stack bytes) gets worse than listed there, so the
# list can only shrink. Run by the cuda-compile build of Make/builds.sh; exit status 0 = pass.
# HR_PTXAS_ARCHS (default "80 90") and HR_PTXAS_FLAGS (extra nvcc flags) may be set.
set -u
src=$(cd "${1:?usage: ptxas_check.sh SRCDIR BUILDDIR [NVCC]}" && pwd)
build=$(cd "${2:?usage: ptxas_check.sh SRCDIR BUILDDIR [NVCC]}" && pwd)
nvcc=${3:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
archs=${HR_PTXAS_ARCHS:-80 90}
known="$src/Make/ptxas_known.txt"
. "$src/Make/nvcc_unit.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The budgets (registers per thread).
budget_flt=96
budget_dbl=128

: > "$tmp/table"
status=0
for cu in $(cd "$src" && find . -name '*.cu' ! -path './TestProgram/*' ! -path './build/*' | sort); do
  for sm in $archs; do
    log="$tmp/log"
    # the flags of Make/cuda.am's .cu.lo rule (hr_nvcc_unit), for one architecture
    if ! hr_nvcc_unit "$nvcc" "$src" "$build" "$cu" ${HR_PTXAS_FLAGS:-} \
         -gencode "arch=compute_$sm,code=sm_$sm" -Xptxas -v -c -o "$tmp/o.o" > "$log" 2>&1; then
      cat "$log"
      echo "ptxas_check: $cu does not compile for sm_$sm"
      status=1
      continue
    fi
    # ptxas prints, per kernel: "Compiling entry function '<mangled>' for 'sm_XX'",
    # "N bytes stack frame, N bytes spill stores, N bytes spill loads", "Used N registers".
    awk -v file="$cu" -v sm="$sm" '
      /Compiling entry function/ { k = $0; sub(/.*function .?/, "", k); sub(/.? for .*/, "", k);
                                   kern = k; stack = 0; st = 0; ld = 0 }
      /bytes stack frame/ && kern != "" { stack = $1 + 0; st = $5 + 0; ld = $9 + 0 }
      /Used [0-9]+ registers/ && kern != "" {
        for (i = 1; i <= NF; i++) if ($i == "Used") regs = $(i + 1) + 0;
        print kern, sm, regs, st, ld, stack, file; kern = "" }' "$log" >> "$tmp/table"
  done
done

# Demangle kernel names where c++filt is present (static kernels: _ZL<len><name>...).
if command -v c++filt > /dev/null 2>&1; then
  awk '{ print $1 }' "$tmp/table" | c++filt | sed 's/(.*//' > "$tmp/names"
else
  awk '{ print $1 }' "$tmp/table" > "$tmp/names"
fi
paste -d' ' "$tmp/names" "$tmp/table" > "$tmp/table2"

printf '%-34s %-5s %5s %6s %5s %6s %6s  %s\n' kernel sm regs budget spillS spillL stack result
awk -v bf="$budget_flt" -v bd="$budget_dbl" -v knownfile="$known" '
  BEGIN {
    while ((getline line < knownfile) > 0) {
      if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
      split(line, f, /[ \t]+/)  # kernel sm regs spill_stores stack
      key = f[1] " " f[2]; kr[key] = f[3]; ks[key] = f[4]; kst[key] = f[5]; listed[key] = 1
    }
  }
  {
    name = $1; sm = $3; regs = $4; st = $5; ld = $6; stack = $7
    budget = (name ~ /_flt/) ? bf : bd
    key = name " " sm
    ok = (regs <= budget && st == 0 && ld == 0 && stack == 0)
    if (ok) res = "ok"
    else if (key in listed) {
      seen[key] = 1
      if (regs <= kr[key] && st <= ks[key] && stack <= kst[key])
        res = "KNOWN (listed: " kr[key] " regs, " ks[key] " B spill, " kst[key] " B stack)"
      else { res = "FAIL: worse than listed (" kr[key] " regs, " ks[key] " B spill, " kst[key] " B stack)"; bad = 1 }
    } else { res = "FAIL"; bad = 1 }
    if (ok && (key in listed)) { seen[key] = 1; res = "ok (listed as known: remove it)" }
    printf "%-34s %-5s %5d %6d %5d %6d %6d  %s\n", name, "sm_" sm, regs, budget, st, ld, stack, res
  }
  END { exit bad }' "$tmp/table2" || status=1
# ptx_vector_check CU WHAT SELECT EXCLUDE STORES_OK [NVCC FLAGS...]: compiles CU to PTX
# (compute_90, the build's flags) and fails unless every kernel whose name matches SELECT and
# not EXCLUDE moves its field units as vector accesses (ld/st.global.v2: 128 bits in double, 64
# in single; ptxas keeps them as LDG.E.128 / LDG.E.64): no scalar global load, and no scalar
# global store except at most 2 in the kernels matching STORES_OK (a reduction's per-site
# result). PTX rather than SASS: cuobjdump is not part of the toolkit everywhere.
ptx_vector_check() {
  cu=$1 what=$2 sel=$3 excl=$4 stok=$5
  shift 5
  if ! hr_nvcc_unit "$nvcc" "$src" "$build" "$cu" "$@" ${HR_PTXAS_FLAGS:-} -arch=compute_90 \
       -ptx -o "$tmp/v.ptx" > "$tmp/log" 2>&1; then
    cat "$tmp/log"
    echo "ptxas_check: $cu does not compile to PTX ($*)"
    return 1
  fi
  awk -v sel="$sel" -v excl="$excl" -v stok="$stok" -v what="$what" '
    /\.entry / { kern = ""; if ($0 ~ sel && (excl == "" || $0 !~ excl)) {
                   kern = $0; sub(/.*entry /, "", kern); sub(/\(.*/, "", kern); n++ } }
    kern != "" && /(ld|st)\.global\.v2\.f(32|64)/ { vec[kern]++ }
    kern != "" && /ld\.global\.f(32|64)/ { ld[kern]++ }
    kern != "" && /st\.global\.f(32|64)/ { st[kern]++ }
    END { bad = 0
          for (k in vec) nv++
          for (k in ld) { print "wide loads: " k ": " ld[k] " scalar field loads"; bad = 1 }
          for (k in st) if (st[k] > 2 || stok == "" || k !~ stok) {
            print "wide loads: " k ": " st[k] " scalar stores"; bad = 1 }
          if (n == 0 || nv < n) { print "wide loads: " nv + 0 " of " n + 0 " " what " use vector accesses"; bad = 1 }
          if (!bad) print "wide loads: the " n " " what " move every field unit as one vector access (PTX ld/st.global.v2)"
          exit bad }' "$tmp/v.ptx"
}
# The Dirac hopping kernels without clover with HR_GPU_WIDE_LOADS=1 (hr_complex.h): not the
# default build (Doc/gpu.md, "Wide loads"); checked so that the option keeps working.
ptx_vector_check LibHR/Dirac/dirac_gpu_cuda.cu "hopping kernels without clover" \
  'dirac_hop_kernel(_flt)?_[0-9]_[0-9]_0' "" "" -DHR_GPU_WIDE_LOADS=1 || status=1
# The field algebra moves complex units whole in every build (la_sites.h): its kernels for the
# complex kinds (all but scalar_field and suNg_av_field, whose units are reals).
ptx_vector_check Memory/linear_algebra_gpu_cuda.cu "field-algebra kernels of complex kinds" \
  'la_kernel_' 'scalar_field|suNg_av_field' 'sqnorm|prod|cg_update' || status=1

nk=$(wc -l < "$tmp/table2")
if [ "$nk" -eq 0 ]; then
  echo "ptxas_check: no kernel found"
  status=1
fi
if [ $status -eq 0 ]; then
  echo "ptxas_check: $nk kernel builds within budget (or no worse than Make/ptxas_known.txt)"
else
  echo "ptxas_check: FAILED (budgets: $budget_flt registers for _flt kernels, $budget_dbl otherwise; no spills, no stack)"
fi
exit $status
