#!/bin/sh
# test_doc_commands.sh -- runs the program runs that README.md and Doc/*.md show, exactly as
# written, from the build folder the text names (the convention of Doc/README.md). Run by
# make check in the build folder of TestProgram/Docs (HR_SRCDIR, HR_BUILDDIR and HR_MPIRUN
# come from TestProgram/Docs/Makefile.am and Make/common.am); by hand:
#   HR_SRCDIR=<source tree> HR_BUILDDIR=<build tree> sh test_doc_commands.sh [DOC.md ...]
# (DOC.md relative to the source tree; default README.md and Doc/*.md).
#
# 1. Extraction (awk): the programs are the bin_PROGRAMS of the source tree's */Makefile.am
#    (HMC/hmc, Info/libhr_info, Benchmarks/speed_test_hmc, ...). A program run is a program
#    name, with or without its folder, followed by an option (`hmc -i`, `converter --info`).
#    Every program run in the docs must be one of:
#    - a line of a ```sh block whose paragraph above says "From the build folder
#      `build/<name>`": run (or, with the line <!-- doc-test: not run: REASON --> in that
#      paragraph, not run, its paths checked);
#    - a usage line, in any other code (inline, indented or fenced): it shows a placeholder
#      (FILE, CONFIG..., [-o log], <x>, a|b); not run.
#    Anything else (a concrete run in an inline code span, a ```sh block without its build
#    folder) fails with the doc file and line.
# 2. Build folders: `build/main` is the folder of `bash Make/quickstart.sh run`
#    (HR_MAIN_CONFIGURE of Make/builds.sh), `build/<name>` the folder of configuration <name>
#    of Make/builds.sh. A block runs in the build under test when that configuration has the
#    same gauge group and representation (configure --with-ng, --with-repr; defaults 3, fund);
#    blocks using mpirun need an MPI build, blocks of a CUDA configuration a CUDA build, and a
#    command that fails naming FFTW in a build without FFTW ends its block; such
#    blocks are skipped with a message.
# 3. Running: a scratch copy of the source tree (without build folders) in a temporary
#    folder; each ```sh block runs in a fresh folder build/<name> of that copy holding links to
#    the program folders of the build under test, so "../../X" is the source tree's X and files
#    a block writes (saved configurations) never meet those of another block. Every command
#    runs through sh in that folder; a non-zero exit code fails the test with file:line.
#    Blocks not run (marked or skipped) still have their paths checked: every word starting
#    with ./, ../ or / must exist seen from the build folder. With HR_SHORT_TESTS set in the
#    environment (CI builds whose runs another build of the same theory makes) every block
#    is skipped that way.
# 4. Self-check first: a small doc with a wrong input path (run and not run), a ```sh block
#    without its build folder and a concrete run in an inline code span must give exactly
#    those four failures, at their lines.
# Exit: 0 pass, 1 fail, 99 setup error.

src=$(cd "${HR_SRCDIR:-../..}" && pwd) || exit 99
bld=$(cd "${HR_BUILDDIR:-../..}" && pwd) || exit 99
config_h=$bld/Include/hr_build_config.h
[ -f "$config_h" ] || { echo "ERROR: no $config_h (HR_BUILDDIR must be a configured build tree)"; exit 99; }
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
if [ -n "$HR_MPIRUN" ]; then # the docs write mpirun: the one configure found comes first
  PATH=$(dirname "$HR_MPIRUN"):$PATH
  export PATH
fi
tab=$(printf '\t')

# the build under test
config_value() { sed -n "s/^#define $1 //p" "$config_h" | tr -d '"'; }
build_ng=$(config_value NG)
build_repr=$(config_value HR_REPR_NAME)
build_mpi=$(config_value HR_WITH_MPI)
build_fftw=$(config_value HR_WITH_FFTW)
build_gpu=$(config_value HR_GPU_NAME)

# the programs: "Dir/name" for every bin_PROGRAMS of a top-level folder
programs=$(cd "$src" && for mk in */Makefile.am; do
  d=${mk%/Makefile.am}
  sed -n 's/^[ \t]*bin_PROGRAMS[ \t]*+\{0,1\}=//p' "$mk" | tr ' \t' '\n\n' | sed "/^\$/d; s|^|$d/|"
done)
program_dirs=$(for p in $programs; do echo "${p%/*}"; done | sort -u)
[ -n "$programs" ] || { echo "ERROR: no bin_PROGRAMS found in $src/*/Makefile.am"; exit 99; }

work=$(mktemp -d "${TMPDIR:-/tmp}/doc_commands.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM

# the scratch copy of the source tree: everything but build folders and version control
mkdir "$work/tree" || exit 99
for entry in "$src"/* "$src"/.[!.]*; do
  [ -e "$entry" ] || continue
  case ${entry##*/} in build* | _build* | .git | autom4te.cache | libhr-*) continue ;; esac
  cp -R "$entry" "$work/tree/" || { echo "ERROR: cannot copy $entry into the scratch tree"; exit 99; }
done
chmod -R u+w "$work/tree" # a read-only source tree (make distcheck) gives a writable copy

# extract ROOT FILE...: one record per line, fields separated by tabs
#   B file line build reason   a ```sh block from build/<build> (reason: not run, or empty)
#   C file line command        a command of the last B block
#   U file line text           a usage line (not run)
#   E file line message        something the convention does not allow
extract() {
  root=$1
  shift
  (cd "$root" && awk -v progs="$(printf '%s\n' "$programs" | tr '\n' ' ')" '
  BEGIN {
    n = split(progs, p, /[ \t\n]+/)
    for (i = 1; i <= n; i++) {
      if (p[i] == "") continue
      d = p[i]; sub(/\/.*/, "", d); b = p[i]; sub(/.*\//, "", b)
      if (!(d in seen_dir)) { seen_dir[d] = 1; dirs = dirs (dirs == "" ? "" : "|") d }
      names = names (names == "" ? "" : "|") b
    }
    run_re = "(^|[^A-Za-z0-9_.-])([.]/)?((" dirs ")/)?(" names ")[ \t]+-"
    from_re = "[Ff]rom the build folder `build/[A-Za-z0-9_.-]+`"
  }
  function out(kind, line, a, b) { print kind "\t" FILENAME "\t" line "\t" a (kind == "B" ? "\t" b : "") }
  function placeholder(s,   w, k, i) {
    if (index(s, "[") || index(s, "|") || index(s, "...") || index(s, "<")) return 1
    k = split(s, w, /[ \t]+/)
    for (i = 1; i <= k; i++) if (w[i] ~ /^[A-Z][A-Z0-9_]+$/) return 1
    return 0
  }
  function code(s, line, where) { # a piece of code outside ```sh blocks
    if (s !~ run_re) return
    sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s)
    if (placeholder(s)) out("U", line, s)
    else out("E", line, "a program run " where " (" s "): runnable commands go in a ```sh block " \
             "under \"From the build folder `build/<name>`\" (Doc/README.md), usage lines show " \
             "placeholders such as FILE or [-o log]")
  }
  function spans(s, line,   i, c, n) { # inline code spans: from a run of n backticks to the
    for (i = 1; i <= length(s); i++) {  # next run of n; they may continue on the next lines
      c = substr(s, i, 1)
      if (c == "`") {
        for (n = 1; substr(s, i + n, 1) == "`"; n++) ;
        if (!inspan) { inspan = n; span = ""; spanline = line }
        else if (n == inspan) { code(span, spanline, "in an inline code span"); inspan = 0 }
        else span = span substr(s, i, n)
        i += n - 1
      } else if (inspan) span = span c
    }
    if (inspan) span = span " "
  }
  FNR == 1 { fence = 0; para = ""; lastpara = ""; inspan = 0; cmd = "" }
  fence && /^ *```+ *$/ {
    if (cmd != "") { out("C", cmdline, cmd); cmd = "" }
    fence = 0; next
  }
  fence && lang == "sh" {
    line = $0
    if (cmd == "") { if (line ~ /^[ \t]*(#.*)?$/) next; cmdline = FNR }
    if (line ~ /\\$/) { sub(/\\$/, "", line); cmd = cmd line; next }
    out("C", cmdline, cmd line); cmd = ""; next
  }
  fence && lang == "unnamed" { next }
  fence { code($0, FNR, "in a ``` block that is not ```sh"); next }
  /^ *```/ {
    lang = $0; sub(/^ *```+ */, "", lang); sub(/[ \t].*/, "", lang)
    fence = 1; inspan = 0
    ctx = (para != "" ? para : lastpara); para = ""; lastpara = ""
    if (lang != "sh") next
    if (!match(ctx, from_re)) {
      out("E", FNR, "a ```sh block without \"From the build folder `build/<name>`\" in the " \
          "paragraph above it (Doc/README.md)")
      lang = "unnamed"; next
    }
    b = substr(ctx, RSTART, RLENGTH); sub(/^.*`build\//, "", b); sub(/`$/, "", b)
    reason = ""
    if (match(ctx, /<!-- doc-test: not run: [^>]*-->/)) {
      reason = substr(ctx, RSTART, RLENGTH); sub(/^<!-- doc-test: not run: */, "", reason)
      sub(/ *-->$/, "", reason)
    }
    out("B", FNR, b, reason); next
  }
  /^[ \t]*$/ { if (para != "") lastpara = para; para = ""; inspan = 0; next }
  {
    para = para (para == "" ? "" : " ") $0
    if (/^(    |\t)/ && !index($0, "`") && !inspan) code($0, FNR, "in an indented block")
    else spans($0, FNR)
  }
  ' "$@")
}

# configure options of build/NAME (Make/builds.sh); fails for an unknown name
build_options() {
  (top=$src; root=$src/build; export top root; . "$src/Make/builds.sh" > /dev/null 2>&1
   if [ "$1" = main ]; then echo "$HR_MAIN_CONFIGURE"; else hr_build_options "$1"; fi)
}

# why the build under test cannot run a block from build/NAME with the given commands
# (empty: it can); for an unknown NAME the message and status 1
mismatch() { # NAME COMMANDS-FILE
  opts=$(build_options "$1") || { echo "unknown build folder build/$1 (Make/builds.sh: main or one of its configurations)"; return 1; }
  ng=3; repr=fund; gpu=none
  for o in $opts; do
    case $o in --with-ng=*) ng=${o#*=} ;; --with-repr=*) repr=${o#*=} ;; --enable-gpu=*) gpu=${o#*=} ;; esac
  done
  if [ -n "${HR_SHORT_TESTS:-}" ]; then
    echo "HR_SHORT_TESTS is set: the runs are left to a build without it"
  elif [ "$ng" != "$build_ng" ] || [ "$repr" != "$build_repr" ]; then
    echo "build/$1 is SU($ng) $repr, this build SU($build_ng) $build_repr"
  elif [ "$gpu" = cuda ] && [ "$build_gpu" != cuda ]; then
    echo "build/$1 is a CUDA build, this build is not"
  elif [ "$build_mpi" != 1 ] && grep -q -E '(^|[ ;&|(])(mpirun|mpiexec)( |$)' "$2"; then
    echo "it runs mpirun, this build has no MPI"
  fi
  return 0
}

# check_docs ROOT FILE...: prints one line per command and failure; sets failures, counts
check_docs() {
  failures=0; n_run=0; n_notrun=0; n_skipped=0; n_usage=0
  extract "$@" > "$work/records" || { echo "FAIL: cannot read the docs"; failures=1; return; }
  echo "E${tab}-${tab}0${tab}end" >> "$work/records" # closes the last block
  block=""
  while IFS=$tab read -r kind file line a b; do
    if [ "$kind" != C ] && [ -n "$block" ]; then finish_block; block=""; fi
    case $kind in
      B)
        block=$file:$line; block_build=$a; block_reason=$b
        : > "$work/block.cmds"; : > "$work/block.lines" ;;
      C)
        printf '%s\n' "$a" >> "$work/block.cmds"; printf '%s:%s\n' "$file" "$line" >> "$work/block.lines" ;;
      U) echo "use  $file:$line: a usage line: $a"; n_usage=$((n_usage + 1)) ;;
      E)
        [ "$file" = - ] && continue
        echo "FAIL $file:$line: $a"; failures=$((failures + 1)) ;;
    esac
  done < "$work/records"
  echo "doc commands: $n_run run, $n_notrun not run (marked), $n_skipped skipped (build), $n_usage usage lines, $failures failures"
}

# run or check the block collected in block.cmds / block.lines
finish_block() {
  dir=$work/tree/build/$block_build
  rm -rf "$dir" && mkdir -p "$dir" || { echo "FAIL $block: cannot make $dir"; failures=$((failures + 1)); return; }
  for d in $program_dirs; do ln -s "$bld/$d" "$dir/$d"; done
  if [ ! -s "$work/block.cmds" ]; then echo "FAIL $block: an empty \`\`\`sh block"; failures=$((failures + 1)); return; fi
  why=$(mismatch "$block_build" "$work/block.cmds") || { echo "FAIL $block: $why"; failures=$((failures + 1)); return; }
  if [ -n "$block_reason" ] || [ -n "$why" ]; then
    if [ -n "$block_reason" ]; then what="not run ($block_reason)"; n_notrun=$((n_notrun + 1))
    else what="skipped ($why)"; n_skipped=$((n_skipped + 1)); fi
    i=0
    while IFS= read -r cmd; do
      i=$((i + 1)); where=$(sed -n "${i}p" "$work/block.lines")
      missing=""
      set -f
      for word in $cmd; do
        word=$(printf '%s' "$word" | tr -d "\"'")
        case $word in ./* | ../* | /*) (cd "$dir" && [ -e "$word" ]) || missing="$missing $word" ;; esac
      done
      set +f
      if [ -n "$missing" ]; then
        echo "FAIL $where: $what, and from build/$block_build there is no$missing: $cmd"; failures=$((failures + 1))
      else
        echo "---- $where: $what: $cmd"
      fi
    done < "$work/block.cmds"
    return
  fi
  n_run=$((n_run + 1)); i=0
  while IFS= read -r cmd; do
    i=$((i + 1)); where=$(sed -n "${i}p" "$work/block.lines")
    start=$(date +%s)
    (cd "$dir" && sh -c "$cmd") < /dev/null > "$work/cmd.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      echo "ok   $where: from build/$block_build ($(($(date +%s) - start)) s): $cmd"
    elif [ "$build_fftw" != 1 ] && grep -q FFTW "$work/cmd.log"; then
      echo "---- $where: skipped (it needs FFTW, this build has none; the rest of its block too): $cmd"
      n_skipped=$((n_skipped + 1)); return
    else
      echo "FAIL $where: exit code $rc from build/$block_build: $cmd"; failures=$((failures + 1))
      tail -n 15 "$work/cmd.log" | sed 's/^/     | /'
      return
    fi
  done < "$work/block.cmds"
}

# 4. the self-check: these four failures, no more, no fewer
mkdir -p "$work/selfcheck/Doc" || exit 99
cat > "$work/selfcheck/Doc/wrong.md" << 'EOF'
From the build folder `build/main` (made by `bash Make/quickstart.sh run`):

```sh
./Info/libhr_info -i ../../Info/no_such_input_file
```

From the build folder `build/main`, a benchmark:
<!-- doc-test: not run: the self-check -->

```sh
./Benchmarks/speed_test_hmc -i ../../Benchmarks/no_such_input_file
```

```sh
./Info/libhr_info -i ../../Info/input_file
```

Run `Info/libhr_info -i Info/input_file`, usage `Info/libhr_info -i FILE`.
EOF
echo "== self-check: a doc with four mistakes"
check_docs "$work/selfcheck" Doc/wrong.md > "$work/selfcheck.out"
sed 's/^/   /' "$work/selfcheck.out"
expected="Doc/wrong.md:4: Doc/wrong.md:11: Doc/wrong.md:14: Doc/wrong.md:18:"
got=$(sed -n 's/^FAIL \([^ ]*:[0-9]*:\).*/\1/p' "$work/selfcheck.out" | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$expected" ] || ! grep -q "1 usage lines, 4 failures" "$work/selfcheck.out"; then
  echo "FAIL: the self-check expected failures at $expected and one usage line; got: $got"
  exit 1
fi
echo "== self-check passed: the four mistakes fail at their lines"

# the docs
if [ $# -eq 0 ]; then
  set -- README.md
  for f in "$src"/Doc/*.md; do set -- "$@" "Doc/${f##*/}"; done
fi
echo "== $* (build: SU($build_ng) $build_repr, MPI $build_mpi, FFTW $build_fftw, GPU $build_gpu)"
check_docs "$work/tree" "$@"
[ "$failures" -eq 0 ] || exit 1
exit 0
