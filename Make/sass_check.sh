#!/bin/sh
# Make/sass_check.sh SRCDIR BUILDDIR [NVCC] -- the SASS check of the field accesses of the CUDA
# kernels (Doc/gpu.md, "Wide loads"): compiles the Dirac kernels (with HR_GPU_WIDE_LOADS=1)
# and the field-algebra kernels to cubins for sm_80 and sm_90, disassembles them with nvdisasm
# (Make/sass_tool.sh) and counts each kernel's global loads and stores by width
# (Make/sass_widths.sh). It fails unless
#   - the double-precision hopping kernels without clover and the halo packing read and write
#     every field unit as one 128-bit access (no 64-bit LDG/STG);
#   - the double-precision clover variants and the diagonal kernel use 64-bit loads only for
#     the real clover diagonal (4 NF: each of its 2 NF units is read half at a time);
#   - the double field-algebra kernels of complex kinds read every unit as one 128-bit load
#     and store 64 bits only for a reduction's per-site result (at most 2);
#   - single-precision kernels (8-byte units) move every unit as one 64-bit access: no
#     32-bit access beyond the site tables (the 32-bit loads of their double twin) and the
#     clover diagonal halves; the precision conversions read and write whole units.
# Prints the table of every kernel checked. BUILDDIR is a configured build (--enable-gpu=cuda)
# for its generated headers. HR_SASS_ARCHS (default "80 90") may be set. Exit 0 = pass.
set -u
src=$(cd "${1:?usage: sass_check.sh SRCDIR BUILDDIR [NVCC]}" && pwd)
build=$(cd "${2:?usage: sass_check.sh SRCDIR BUILDDIR [NVCC]}" && pwd)
nvcc=${3:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
archs=${HR_SASS_ARCHS:-80 90}
dis=$(sh "$src/Make/sass_tool.sh" "$nvcc") || {
  echo "sass_check: FAILED: no SASS disassembler"
  exit 1
}
nf=$(awk '$1 == "#define" && $2 == "NF" { print $3 }' "$build/Include/hr_build_config.h")
[ -n "$nf" ] || { echo "sass_check: no NF in $build/Include/hr_build_config.h"; exit 1; }
. "$src/Make/nvcc_unit.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# sass_cubin_for_old_disasm IN OUT: a copy of the cubin IN whose ELF header has the layout
# older disassemblers read (CUDA 11: ABI version 7, e_flags = sm | 0x500 | sm << 16) where IN
# has the newer one (ABI version 8, the sm in bits 8-15 of e_flags). The code is unchanged.
sass_cubin_for_old_disasm() {
  cp "$1" "$2" || return 1
  abi=$(od -An -tu1 -j8 -N1 "$1" | tr -d ' ')
  [ "$abi" = 8 ] || return 1
  flags=$(od -An -tu4 -j48 -N4 "$1" | tr -d ' ')
  sm=$(( (flags >> 8) & 255 ))
  o=$(printf '%03o' "$sm")
  printf '\007' | dd of="$2" bs=1 seek=8 conv=notrunc 2> /dev/null &&
    printf "\\$o\\005\\$o\\000" | dd of="$2" bs=1 seek=48 conv=notrunc 2> /dev/null
}

# sass_of CU SM OUT [FLAGS...]: the SASS of CU for sm_SM (the build's nvcc flags) in OUT.
sass_of() {
  cu=$1 sm=$2 out=$3
  shift 3
  if ! hr_nvcc_unit "$nvcc" "$src" "$build" "$cu" "$@" -gencode "arch=compute_$sm,code=sm_$sm" \
       -cubin -o "$tmp/k.cubin" > "$tmp/log" 2>&1; then
    cat "$tmp/log"
    echo "sass_check: $cu does not compile for sm_$sm"
    return 1
  fi
  "$dis" "$tmp/k.cubin" > "$out" 2> "$tmp/err" && return 0
  if grep -q "architecture information" "$tmp/err" &&
     sass_cubin_for_old_disasm "$tmp/k.cubin" "$tmp/old.cubin" &&
     "$dis" "$tmp/old.cubin" > "$out" 2> "$tmp/err"; then
    return 0
  fi
  cat "$tmp/err"
  echo "sass_check: $dis cannot disassemble $cu for sm_$sm"
  return 1
}

# widths SASS: "kernel ld128 ld64 ld32 st128 st64 st32" per kernel, names demangled.
widths() {
  sh "$src/Make/sass_widths.sh" "$1" | tail -n +2 > "$tmp/w" || return 1
  if command -v c++filt > /dev/null 2>&1; then
    awk '{ print $1 }' "$tmp/w" | c++filt | sed 's/(.*//' > "$tmp/names"
  else
    awk '{ print $1 }' "$tmp/w" > "$tmp/names"
  fi
  awk '{ $1 = ""; print }' "$tmp/w" | paste -d' ' "$tmp/names" -
}

status=0
: > "$tmp/table"
for sm in $archs; do
  sass_of LibHR/Dirac/dirac_gpu_cuda.cu "$sm" "$tmp/dirac.sass" -DHR_GPU_WIDE_LOADS=1 &&
    widths "$tmp/dirac.sass" | awk -v sm="$sm" '{ print "dirac", sm, $0 }' >> "$tmp/table" ||
    status=1
  sass_of Memory/linear_algebra_gpu_cuda.cu "$sm" "$tmp/la.sass" &&
    widths "$tmp/la.sass" | awk -v sm="$sm" '{ print "la", sm, $0 }' >> "$tmp/table" ||
    status=1
done

printf '%-44s %-5s %6s %5s %5s %6s %5s %5s  %s\n' kernel sm ld128 ld64 ld32 st128 st64 st32 result
# table: file sm kernel ld128 ld64 ld32 st128 st64 st32
awk -v nf="$nf" '
  { file[NR] = $1; sm[NR] = $2; k[NR] = $3; l128[NR] = $4; l64[NR] = $5; l32[NR] = $6
    s128[NR] = $7; s64[NR] = $8; s32[NR] = $9; row[$1, $2, $3] = NR }
  function twin(i,   d) { d = k[i]; sub(/_flt/, "", d); return row[file[i], sm[i], d] }
  END {
    for (i = 1; i <= NR; i++) {
      n = k[i]; flt = n ~ /_flt/; res = ""
      if (file[i] == "dirac") {
        if (n !~ /^dirac_(hop|diag|halo_pack)_kernel/) continue
        clover = n ~ /^dirac_hop_kernel(_flt)?_[0-9]_[0-9]_1/ || n ~ /^dirac_diag_kernel/
        if (!flt) {
          allowed = clover ? 4 * nf : 0
          if (l64[i] > allowed || s64[i] > 0 || l128[i] == 0 || s128[i] == 0)
            res = "FAIL: " l64[i] " 64-bit loads (allowed " allowed "), " s64[i] " 64-bit stores"
        } else {
          t = twin(i)
          if (t == "") res = "FAIL: no double twin"
          else if (l32[i] > l32[t] + (clover ? 4 * nf : 0) || s32[i] > 0 || l64[i] == 0)
            res = "FAIL: " l32[i] - l32[t] " 32-bit field loads, " s32[i] " 32-bit stores"
        }
      } else {
        if (n !~ /^la_kernel_/ || n ~ /scalar_field|suNg_av_field/) continue
        red = n ~ /sqnorm|prod|cg_update/
        if (n ~ /^la_kernel_to_(flt|dbl)_/) { # precision conversions: read one, write the other
          w = n ~ /^la_kernel_to_flt_/
          if (l32[i] + s32[i] > 0 || (w ? l64[i] + s128[i] : l128[i] + s64[i]) > 0)
            res = "FAIL: an access narrower than its unit"
        } else if (!flt) {
          if (l64[i] > 0 || l32[i] > 0 || l128[i] == 0 || s64[i] > (red ? 2 : 0) || s32[i] > 0)
            res = "FAIL: " l64[i] + l32[i] " narrow loads, " s64[i] + s32[i] " narrow stores"
        } else if (l32[i] > 0 || s32[i] > 0 || l64[i] == 0)
          res = "FAIL: " l32[i] " 32-bit loads, " s32[i] " 32-bit stores"
      }
      if (res == "") res = "ok"; else bad++
      checked++
      printf "%-44s %-5s %6d %5d %5d %6d %5d %5d  %s\n", n, "sm_" sm[i], l128[i], l64[i],
             l32[i], s128[i], s64[i], s32[i], res
    }
    print "sass_check: " checked + 0 " kernel builds checked, " bad + 0 " failed"
    exit (checked == 0 || bad > 0) }' "$tmp/table" || status=1
if [ $status -eq 0 ]; then
  echo "sass_check: every field access of the checked kernels has the width of its unit (128 bits in double)"
else
  echo "sass_check: FAILED"
fi
exit $status
