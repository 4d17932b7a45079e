#!/usr/bin/env bash
# Native build benchmark: `rpy-lsp build` against the reference toolchain.
#
# usage: benches/build.sh [-n RUNS] [--no-ref] [--no-big] [PROGRAM ...]
#   PROGRAM: names of benches/programs/*.py (default: all of them, in the order below)
#   -n RUNS  runs of each binary, ours and the reference's alternately (default 3)
#   --no-ref skip the reference toolchain even where it exists
#   --no-big skip the build-time figure of the generated 10,000-line program
# environment:
#   RPY_LSP          our binary (default target/release/rpy-lsp; not rebuilt by this script)
#   RPY_BUILD_FLAGS  extra flags for `rpy-lsp build` (default none), e.g. "--opt 2 --gc gen"
#   RPYTHON_BUILD    the reference build script (default /work/shared/reference/rpython-build)
#   BENCH_ARGS_<name> command-line arguments (the size) of one program, instead of the
#                    default below, e.g. BENCH_ARGS_nbody=500000
#   XDG_CACHE_HOME   reference binaries are cached under ${XDG_CACHE_HOME:-~/.cache}/rpy-bench/,
#                    keyed by the sha256 of the program's text (a re-run does not rebuild them)
#
# For each program: builds it with `rpy-lsp build` (a failure prints one line
# "NAME: rpy-lsp build FAILED: ..." and only the reference is measured), builds it with
# the reference (or takes the cached binary), checks both print the same stdout and exit
# status ("NAME: OUTPUT DIFFERS" and a diff otherwise, the row is then marked), then runs
# them alternately RUNS times (stdin /dev/null, stdout discarded) measuring wall time,
# peak RSS and CPU time (/usr/bin/time, or python3's getrusage when it is missing).
# Prints a table of median wall times, max peak RSS, median CPU times and the ratios
# ours / reference, then the build times (ours vs the reference's, the latter as measured
# when the cached binary was made), then the build times of a 10,000-line program made
# by benches/gen_program.sh (its binaries' outputs are compared too).
# Progress and the reference's output go to stderr, the results to stdout.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
rpy="${RPY_LSP:-$root/target/release/rpy-lsp}"
refbuild="${RPYTHON_BUILD:-/work/shared/reference/rpython-build}"
read -r -a build_flags <<< "${RPY_BUILD_FLAGS:-}"
runs=3
use_ref=1
big=1
progs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    -n*) runs="${1#-n}"; shift ;;
    --no-ref) use_ref=0; shift ;;
    --no-big) big=0; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) progs+=("${1%.py}"); shift ;;
  esac
done
[ ${#progs[@]} -eq 0 ] && progs=(nbody fannkuch binarytrees bytecode_vm wordfreq spectralnorm)
[ -x "$refbuild" ] || use_ref=0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/rpy-bench"
mkdir -p "$cache"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -x "$rpy" ]; then
  echo "note: $rpy not found (build it with cargo build --release, or set RPY_LSP); only the reference is measured" >&2
fi

# measure OUTFILE CMD...: runs CMD (stdin /dev/null, stdout to OUTFILE, stderr
# discarded, in $work/cwd) and prints "WALL_SECONDS PEAK_KIB CPU_SECONDS STATUS"
# (CPU = user + system).
if [ -x /usr/bin/time ]; then
  measure() {
    local out="$1"; shift
    ( cd "$work/cwd" && /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$@" > "$out" 2>/dev/null < /dev/null )
    local st=$?
    tail -n 1 "$work/time.txt" | awk -v st="$st" '{ printf "%s %s %.2f %s\n", $1, $2, $3 + $4, st }'
  }
else
  measure() {
    local out="$1"; shift
    ( cd "$work/cwd" && python3 -c '
import resource, subprocess, sys, time
t = time.time()
with open(sys.argv[1], "wb") as out, open("/dev/null", "rb") as devnull, open("/dev/null", "wb") as err:
    st = subprocess.call(sys.argv[2:], stdout=out, stderr=err, stdin=devnull)
t = time.time() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f %d %.2f %d" % (t, ru.ru_maxrss, ru.ru_utime + ru.ru_stime, st % 256))
' "$out" "$@" )
  }
fi
mkdir -p "$work/cwd"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
maxof() { sort -g | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { n = "^[0-9]+([.][0-9]*)?$"; if (a !~ n || b !~ n || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

# ref_binary PROG.py: prints the path of the cached reference binary, building it if needed
# (its build time goes to the .buildtime file beside it); prints nothing on failure.
ref_binary() {
  local src="$1" name key bin
  name="$(basename "$src" .py)"
  key="$(sha256sum "$src" | cut -c1-16)"
  bin="$cache/$name-$key"
  if [ ! -x "$bin" ]; then
    local t0 t1 dir
    dir="$work/ref-$name"; mkdir -p "$dir"; cp "$src" "$dir/"
    t0=$(now)
    if "$refbuild" "$dir/$(basename "$src")" "$bin.tmp" > "$work/ref-$name.log" 2>&1; then
      t1=$(now)
      # the translator's own total ("[Timer] Total: --- 23.2 s" in the log that
      # rpython-build names) leaves out the time spent waiting for the reference's lock
      local log total
      log="$(sed -n 's/.*(log: \(.*\))$/\1/p' "$work/ref-$name.log" | tail -n 1)"
      total="$(sed -n 's/^\[Timer\] Total: *--- *\([0-9.]*\) s$/\1/p' "$log" 2>/dev/null | tail -n 1)"
      if [ -n "$total" ]; then echo "$total" > "$bin.buildtime"; else elapsed "$t0" "$t1" > "$bin.buildtime"; fi
      mv "$bin.tmp" "$bin"
    else
      rm -f "$bin.tmp"
      echo "reference build of $name failed: $(grep -m1 -v '^\s*$' "$work/ref-$name.log")" >&2
      return
    fi
  fi
  echo "$bin"
}

# Sizes giving about 1-2.5 s of CPU time for the reference's -O2 binaries on this 2-core
# x86-64 machine (measured with other builds running: wall times were 3x the CPU times).
default_args() {
  case "$1" in
    nbody) echo 20000000 ;;
    fannkuch) echo 11 ;;
    binarytrees) echo 18 ;;
    bytecode_vm) echo 600000 ;;
    wordfreq) echo 800000 ;;
    spectralnorm) echo 5000 ;;
    *) echo "" ;;  # the program's own default
  esac
}

declare -a table builds
for name in "${progs[@]}"; do
  src="$here/programs/$name.py"
  if [ ! -f "$src" ]; then echo "$name: no such program $src" >&2; continue; fi
  var="BENCH_ARGS_$name"
  read -r -a args <<< "${!var-$(default_args "$name")}"
  echo "== $name ${args[*]}" >&2
  ours="" ref="" our_bt="-" ref_bt="-"
  if [ -x "$rpy" ]; then
    t0=$(now)
    if "$rpy" build "$src" -o "$work/$name.ours" "${build_flags[@]}" > "$work/$name.build.log" 2>&1 \
        && [ -x "$work/$name.ours" ]; then
      t1=$(now); our_bt=$(elapsed "$t0" "$t1"); ours="$work/$name.ours"
    else
      line="$(grep -m1 -E 'error|Error|ERROR' "$work/$name.build.log" || grep -m1 -v '^\s*$' "$work/$name.build.log")"
      echo "$name: rpy-lsp build FAILED: ${line:-exit status nonzero}"
    fi
  fi
  if [ "$use_ref" = 1 ]; then
    ref="$(ref_binary "$src")"
    [ -n "$ref" ] && ref_bt="$(cat "$ref.buildtime" 2>/dev/null || echo -)"
  fi
  builds+=("$name $our_bt $ref_bt")
  [ -z "$ours" ] && [ -z "$ref" ] && continue
  # one untimed run of each to compare the outputs
  note=""
  if [ -n "$ours" ]; then o=$(measure "$work/$name.ours.out" "$ours" "${args[@]}"); ost=${o##* }; fi
  if [ -n "$ref" ]; then r=$(measure "$work/$name.ref.out" "$ref" "${args[@]}"); rst=${r##* }; fi
  if [ -n "$ours" ] && [ -n "$ref" ]; then
    if ! cmp -s "$work/$name.ours.out" "$work/$name.ref.out" || [ "$ost" != "$rst" ]; then
      note="OUTPUT DIFFERS"
      echo "$name: OUTPUT DIFFERS (exit $ost vs $rst); first differing lines:"
      diff "$work/$name.ours.out" "$work/$name.ref.out" | head -6
    fi
  fi
  [ -n "$ref" ] && echo "$name output: $(tr '\n' ' ' < "$work/$name.ref.out" | cut -c1-100)" >&2
  : > "$work/ot"; : > "$work/om"; : > "$work/oc"; : > "$work/rt"; : > "$work/rm"; : > "$work/rc"
  for ((i = 0; i < runs; i++)); do
    if [ -n "$ours" ]; then
      read -r t m c _ <<< "$(measure /dev/null "$ours" "${args[@]}")"
      echo "$t" >> "$work/ot"; echo "$m" >> "$work/om"; echo "$c" >> "$work/oc"
    fi
    if [ -n "$ref" ]; then
      read -r t m c _ <<< "$(measure /dev/null "$ref" "${args[@]}")"
      echo "$t" >> "$work/rt"; echo "$m" >> "$work/rm"; echo "$c" >> "$work/rc"
    fi
  done
  ot=$(median < "$work/ot"); rt=$(median < "$work/rt")
  oc=$(median < "$work/oc"); rc=$(median < "$work/rc")
  om=$(maxof < "$work/om"); rm_=$(maxof < "$work/rm")
  table+=("$name ${ot:--} ${rt:--} $(ratio "${ot:--}" "${rt:--}") ${om:--} ${rm_:--} $(ratio "${om:--}" "${rm_:--}") ${oc:--} ${rc:--} $(ratio "${oc:--}" "${rc:--}") $note")
done

echo
echo "runtime: median wall time of $runs runs (s), max peak RSS (KiB), median CPU time (user + sys, s);"
echo "ratio = ours / reference"
printf '%-14s %8s %8s %6s %10s %10s %6s %8s %8s %6s\n' program ours ref ratio ours_KiB ref_KiB ratio ours_cpu ref_cpu ratio
for row in "${table[@]}"; do
  read -r n a b c d e f g h i j <<< "$row"
  printf '%-14s %8s %8s %6s %10s %10s %6s %8s %8s %6s %s\n' "$n" "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h" "$i" "$j"
done
echo
echo "build time (s; the reference's is the translator's total when its cached binary was made)"
printf '%-14s %9s %9s %7s\n' program ours ref ratio
for row in "${builds[@]}"; do
  read -r n a b <<< "$row"
  printf '%-14s %9s %9s %7s\n' "$n" "$a" "$b" "$(ratio "$a" "$b")"
done

# Build time of a generated 10,000-line program (benches/gen_program.sh).
if [ "$big" = 1 ]; then
  echo
  echo "build time (s) of a generated 10,000-line program (benches/gen_program.sh)"
  gen="$here/gen_program.sh"
  dir="$work/big"; mkdir -p "$dir"
  if ! bash "$gen" 10000 > "$dir/gen10k.py" 2>/dev/null; then
    echo "10k-line program: skipped (gen_program.sh failed)"
  else
    lines=$(wc -l < "$dir/gen10k.py")
    our_bt="-" ref_bt="-"
    if [ -x "$rpy" ]; then
      t0=$(now)
      if "$rpy" build "$dir/gen10k.py" -o "$dir/gen10k.ours" "${build_flags[@]}" > "$dir/build.log" 2>&1 \
          && [ -x "$dir/gen10k.ours" ]; then
        our_bt=$(elapsed "$t0" "$(now)")
      else
        our_bt="FAILED"
        echo "10k-line program: rpy-lsp build FAILED: $(grep -m1 -E 'error|Error' "$dir/build.log")"
      fi
    fi
    if [ "$use_ref" = 1 ]; then
      ref="$(ref_binary "$dir/gen10k.py")"
      [ -n "$ref" ] && ref_bt="$(cat "$ref.buildtime" 2>/dev/null || echo -)"
      if [ -n "$ref" ] && [ "$our_bt" != "FAILED" ] && [ "$our_bt" != "-" ]; then
        a="$("$dir/gen10k.ours" 2>&1)"; b="$("$ref" 2>&1)"
        [ "$a" = "$b" ] || echo "10k-line program: OUTPUT DIFFERS: ours '$a', reference '$b'"
      fi
    fi
    printf '%-14s %9s %9s %7s   (%d lines)\n' gen10k "$our_bt" "$ref_bt" "$(ratio "$our_bt" "$ref_bt")" "$lines"
  fi
fi
