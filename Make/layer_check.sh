#!/usr/bin/env bash
# Make/layer_check.sh -- checks LibHR's layering: every file includes and calls only its own
# layer and the layers below, no file includes by a relative path, and no two folders depend
# on each other (no circle). The layers are the table in INDEX ("layer N  folder folder ...");
# a public header belongs to the folder its banner names ("Implemented in: Folder/file.c ..."
# or "Implemented in: Folder (header only)").
#
# Usage: Make/layer_check.sh SRCDIR [BUILDDIR]
#   SRCDIR:   the source tree (INDEX, Include/, the folders of the table)
#   BUILDDIR: a built tree; its convenience libraries (FOLDER/.libs/lib*.a) give the calls
#             (nm: a symbol a folder uses and another defines). Without it only includes.
# Prints one line per violation (file, what it names, the folders and layers) and exits 1 if
# there is any, 0 otherwise.
set -u
src=${1:?usage: layer_check.sh SRCDIR [BUILDDIR]}
build=${2:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/layer_check.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- the layer table: "folder layer" per line
awk '$1 == "layer" && $2 ~ /^[0-9]+$/ { for (i = 3; i <= NF; i++) print $i, $2 }' \
  "$src/INDEX" > "$work/layers"
if [ ! -s "$work/layers" ]; then
  echo "layer_check: no layer table (lines 'layer N folder ...') in $src/INDEX" >&2
  exit 2
fi

# folder of a path relative to SRCDIR: the longest folder of the table that is a prefix
folder_of() {
  awk -v p="$1" '{ f = $1 "/"; if (substr(p, 1, length(f)) == f && length(f) > best) { best = length(f); r = $1 } }
                 END { print r }' "$work/layers"
}
layer_of() { awk -v f="$1" '$1 == f { print $2 }' "$work/layers"; }

# ---- the folder of every public header, from its banner
: > "$work/headers"
for h in "$src"/Include/*.h "$src"/Include/*.h.in; do
  [ -e "$h" ] || continue
  name=$(basename "$h" .in)
  impl=$(awk 'NR <= 40 && /Implemented in:/ { sub(/.*Implemented in:[ \t]*/, ""); print; exit }' "$h")
  if [ -z "$impl" ]; then
    echo "Include/$name: no 'Implemented in:' line in its banner"
    continue
  fi
  first=${impl%%[ ,(]*}
  [ "$first" = all ] && continue   # an umbrella header (libhr.h): every layer
  f=$(folder_of "$first/")
  [ -z "$f" ] && f=$(folder_of "$first")
  if [ -z "$f" ]; then
    echo "Include/$name: 'Implemented in: $impl' names no folder of the layer table"
    continue
  fi
  echo "$name $f" >> "$work/headers"
done > "$work/violations"

# ---- includes
: > "$work/edges"
while read -r folder layer; do
  [ -d "$src/$folder" ] || continue
  find "$src/$folder" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort |
  while read -r file; do
    rel=${file#"$src"/}
    grep -n '^[ \t]*#[ \t]*include[ \t]*"' "$file" | sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
    while read -r line inc; do
      case "$inc" in
      */*) echo "$rel:$line: includes \"$inc\" by a relative path (use the header's name; headers of another folder are public ones in Include/)"
           continue ;;
      esac
      [ -e "$(dirname "$file")/$inc" ] && continue   # the folder's own header
      hf=$(awk -v n="$inc" '$1 == n { print $2 }' "$work/headers")
      [ -z "$hf" ] && continue                        # system or generated header
      hl=$(layer_of "$hf")
      if [ "$hl" -gt "$layer" ]; then
        echo "$rel:$line: includes $inc of $hf (layer $hl) from $folder (layer $layer)"
      fi
      [ "$hf" != "$folder" ] && echo "$folder $hf" >> "$work/edges"
    done
  done
done < "$work/layers" >> "$work/violations"

# public headers including headers of higher layers
while read -r name hfolder; do
  hlayer=$(layer_of "$hfolder")
  grep -n '^[ \t]*#[ \t]*include[ \t]*"' "$src/Include/$name" 2>/dev/null |
  sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
  while read -r line inc; do
    f2=$(awk -v n="$inc" '$1 == n { print $2 }' "$work/headers")
    [ -z "$f2" ] && continue
    l2=$(layer_of "$f2")
    if [ "$l2" -gt "$hlayer" ]; then
      echo "Include/$name:$line: includes $inc of $f2 (layer $l2) from a header of $hfolder (layer $hlayer)"
    fi
    [ "$f2" != "$hfolder" ] && echo "$hfolder $f2" >> "$work/edges"
  done
done < "$work/headers" >> "$work/violations"

# ---- calls: symbols used by one folder's library and defined by another's
if [ -n "$build" ]; then
  : > "$work/defs"
  : > "$work/uses"
  while read -r folder layer; do
    for lib in "$build/$folder"/.libs/lib*.a; do
      [ -e "$lib" ] || continue
      nm -A "$lib" 2>/dev/null | awk -v f="$folder" '
        { n = split($0, a, " "); sym = a[n]; type = a[n - 1]; split(a[1], o, ":"); obj = o[2]
          if (type ~ /^[TDBRCVW]$/) print sym, f >> "'"$work/defs"'"
          else if (type == "U") print sym, f, obj >> "'"$work/uses"'" }'
    done
  done < "$work/layers"
  if [ ! -s "$work/defs" ]; then
    echo "layer_check: no convenience libraries (FOLDER/.libs/lib*.a) under $build" >&2
    exit 2
  fi
  sort -u "$work/defs" -o "$work/defs"
  awk 'NR == FNR { if (!($1 in d)) d[$1] = $2; next }
       ($1 in d) && d[$1] != $2 { print $2, d[$1], $3, $1 }' "$work/defs" "$work/uses" |
  sort -u > "$work/calls"
  while read -r from to obj sym; do
    lf=$(layer_of "$from")
    lt=$(layer_of "$to")
    if [ "$lt" -gt "$lf" ]; then
      echo "$from/${obj%.o}.c: calls $sym of $to (layer $lt) from $from (layer $lf)"
    fi
    echo "$from $to" >> "$work/edges"
  done < "$work/calls" >> "$work/violations"
fi

# ---- circles between folders (depth-first search over the folder graph)
sort -u "$work/edges" | awk '
  { adj[$1] = adj[$1] " " $2; nodes[$1]; nodes[$2] }
  function visit(n,    i, k, m, list) {
    state[n] = 1; path[++depth] = n
    k = split(adj[n], list, " ")
    for (i = 1; i <= k; i++) {
      m = list[i]
      if (state[m] == 1) {
        for (j = depth; j >= 1 && path[j] != m; j--) ;
        s = ""; for (; j <= depth; j++) s = s path[j] " -> "
        print "circle between folders: " s m
      } else if (state[m] == 0) visit(m)
    }
    depth--; state[n] = 2
  }
  END { for (n in nodes) if (state[n] == 0) visit(n) }' >> "$work/violations"

if [ -s "$work/violations" ]; then
  sort -u "$work/violations"
  echo "layer_check: $(sort -u "$work/violations" | wc -l) violation(s) of the layers in INDEX"
  exit 1
fi
echo "layer_check: $(wc -l < "$work/layers") folders in $(cut -d' ' -f2 "$work/layers" | sort -u | wc -l) layers; includes$( [ -n "$build" ] && echo " and calls") respect them, no circle"
exit 0
