#!/usr/bin/env bash
# Check time and peak memory of `rpy-lsp check` on a real RPython program (the goal on
# RPySOM, ~10k lines: under 150 ms). Nothing is downloaded: pass the path of a checkout.
#
#   bash benches/check_real.sh CHECKOUT [TARGET] [VAR=VALUE ...]
#
# TARGET is the entry file relative to CHECKOUT (default src/main-rpython.py); VAR=VALUE
# pairs are environment variables the program reads at import time, e.g. for RPySOM:
#
#   bash benches/check_real.sh ~/src/RPySOM src/main-rpython.py SOM_INTERP=AST
#
# The checkout is copied to a temporary directory with a pyproject.toml that names the
# target and lets import-time code see those variables (the checkout itself is not
# touched). Builds the release binary, runs `check` 7 times on one core, and prints the
# best and median wall time, the CPU time and peak resident memory of one more run (GNU
# time) and check's own summary. With valgrind installed it also counts the instructions of
# one run (callgrind): the figure to compare on a machine shared with other jobs, where
# neither wall nor CPU time is stable.
#
# Measured 2026-11-24 (release build, a machine loaded by other builds: load 9-12 on 2
# cores, so the wall clock is several times the CPU time):
#   RPySOM, SOM_INTERP=AST (10,390 lines under src/, the largest real program checked):
#     wall best 632 ms, median 680 ms; CPU 130-170 ms; peak RSS 58 MiB; 0 errors
#   rpyforth (pli-tmu/rpyforth, target importing rpyforth.targetrpyforth; 10,133 lines
#   of the interpreter, a 3,500-line primitives module): CPU 110 ms; peak RSS 60 MiB; 0 errors
# End of session 16 (quiet machine, load 1.3; after the file splits and `check` no longer
#   annotating the RTyper's low-level helpers): SOM_INTERP=AST all cores best 123 ms, median
#   124 ms; one core best 137 ms, median 140 ms; 130 ms CPU; peak RSS 75 MiB; 633M
#   instructions (588M on the analysing thread); 0 errors, 24 warnings.
# End of session 13 (quiet machine, load 0.3; the mirror's RPySOM): SOM_INTERP=AST wall best
#   144 ms, median 149 ms, 210 ms CPU, peak RSS 73 MiB, 936M instructions (the models added
#   this session are parsed too); SOM_INTERP=BC best 96 ms, median 97 ms, 55 MiB, 603M.
# End of session 12 (quiet machine, the mirror's current RPySOM, SOM_INTERP=AST): wall best
#   187 ms, median 195 ms; CPU 220 ms; peak RSS 75 MiB; 0 errors (the goal of 150 ms is not met:
#   check runs the RTyper after a clean annotation, about a third of the time).
# Session 13 (branch speed; RPySOM at the mirror's HEAD, the same outputs before and after):
#   instructions (callgrind), SOM_INTERP=AST 1,109M -> 827M; SOM_INTERP=BC 805M -> 593M.
#   CPU (perf stat, 10 runs, machine at load 8-12): AST user 190-217 -> 162 ms, sys 20-30 ms;
#   BC user 135 -> 112 ms; peak RSS AST 73 -> 67 MiB, BC 65 -> 57 MiB. Where AST's
#   instructions go now: import 30%, flow graphs 31% (imports made from function bodies
#   included), annotation 21%, RTyper 18% (importing the low-level helper modules: 6%).
#   Across those stages, parsing 169 files is 26% (rustpython's LALR parser) and
#   compiling them 10%.
# Session 14 (branch speed; the same outputs, AST and BC, json, before and after). Under
#   callgrind a check runs ~7 s of CPU, past the 5 s import-time clock that starts with the
#   object space: the RTyper's late import of its helper modules then fails (a hidden
#   internal RPY301), so a run counts either ~850M (helpers not annotated) or ~936M
#   (complete) instructions depending on the environment's size; compare complete runs.
#   Instructions (callgrind, all threads; complete runs), SOM_INTERP=AST 936M -> 854M, of
#   which the analysing thread 806M and the parse-ahead thread 47M; SOM_INTERP=BC 603M ->
#   563M (analysing thread 515M). What each change bought (AST): the allocator calling
#   mimalloc's unaligned entry points (mi_malloc_aligned over-allocated blocks above 1 KiB)
#   -51M; one flow per function in the annotator, copied for its other specializations
#   (the helpers are specialized per type) -26M; joins without per-Variable vectors -8M;
#   the helper modules and the models they import parsed ahead on a second thread -45M on
#   the analysing thread (the wall clock gains only with two cores; this script's timed
#   runs are pinned to one). Peak RSS 73 MiB is mostly transparent huge pages (MIMALLOC_ALLOW_THP=0:
#   48 MiB, but 9,300 page faults instead of 300 and more CPU time). This script at the end,
#   on a machine at load 9 (wall and CPU inflated, no quiet moment to compare): AST best
#   163 ms, median 175 ms wall, 180 ms CPU, 73 MiB, 854M; BC best 107 ms, median 114 ms,
#   99 ms CPU, 63 MiB, 563M.
# Session 15 (branch speed15; the same outputs, AST and BC, concise and json, before and
#   after; the same `check` output on every fixture program). The bundled models are
#   compiled at build time (build.rs) instead of being parsed and compiled on every run, and
#   the program's own modules are parsed ahead on a second thread (objspace::preparse,
#   following their imports), which replaces session 14's parse-ahead of the helper modules.
#   Instructions (callgrind, --separate-threads), SOM_INTERP=AST: all threads 861M -> 735M
#   with the models compiled at build time, 748M with the parse-ahead thread; the analysing
#   thread 812M -> 630M (-22%). SOM_INTERP=BC: all 570M -> 504M, analysing thread 521M ->
#   410M. (How much of the parsing the other thread takes depends on the scheduling: under
#   callgrind the analysing thread counts 630-655M.) Peak RSS: AST 71-73 -> 72-80 MiB (the
#   second thread's heap), BC 57-67 -> 57-61 MiB. Wall and CPU time could not be compared
#   fairly: the machine was at load 8-13 all session (this script, at load 9: new best 304 ms
#   unpinned, 356 ms pinned, 169 ms CPU; session 14's binary right after: 363 ms, 427 ms,
#   280 ms CPU).
#   End of session 15 (main with every branch merged, quiet machine, load 1.5; RPySOM at the
#   mirror's HEAD, SOM_INTERP=AST): all cores best 123 ms, median 133 ms wall; one core best
#   141 ms, median 150 ms; 190 ms CPU; peak RSS 69 MiB; 703M instructions; 0 errors.
# Session 16 (branch split16; the same `check` output on all 1,676 fixture programs and the
#   same `graph` output on the 497 run fixtures, before and after). `check` runs the RTyper
#   on the program's own graphs only: the low-level helpers they ask for are annotated and
#   translated by `run` and `build` alone (-79M); join points read their candidates in
#   place; remove_dead_blocks maps link ids by index. Instructions (callgrind, all
#   threads, SOM_INTERP=AST, the same RPySOM): 718M -> 627M, the analysing thread 598M ->
#   515M. CPU time, interleaved runs pinned to one core on a machine at load 7-8: median
#   140 -> 120 ms (wall median 383 -> 320 ms, inflated by the load).
# Session 20 (branch perf20; the same `check` output, concise and json, after each commit;
#   check_corpus, rtyper_corpus, cli and the library tests pass). Allocation and hashing
#   cut out of the per-graph passes: the flow simplifications (one table of entering
#   links, no copied blocks or exit lists, no renumbering when nothing changes), the frame
#   state copied in place at each instruction, the engine's graphs read in place by the
#   annotator, tables by id instead of hash maps (RTyper Variables, join points), the
#   annotator's dead-code passes, the symbol table's names. Instructions (callgrind, the
#   mirror's RPySOM, SOM_INTERP=AST): all threads 668M -> 603M (-10%), the analysing thread
#   553M -> 479M (-13%; without parsing, whose share between the two threads varies by
#   +-8M from run to run, 529M -> 464M, -12%). The generated 10k-line program of
#   benches/rtyper.sh under `run`: 732M -> 647M (flow graphs 261M -> 207M, annotation
#   111M -> 93M, RTyper 102M -> 94M). Wall and CPU could not be compared quietly (load
#   13-16 at the end); the two binaries interleaved, pinned to one core: CPU best 150 ->
#   130 ms, median 169 -> 150 ms; wall best 424 -> 378 ms; peak RSS 72 MiB, unchanged.
# Session 23 (branch gaps23a: list iterators read the list in place, == and `in` on plain
#   values without the rich comparison, instance truth cached per class, Object's large
#   variants boxed (208 -> 112 bytes), the heap in chunks). RPySOM, SOM_INTERP=AST, machine
#   at load 15-20: instructions (callgrind, all threads) 613M before, 602-617M after (two
#   runs; the split between the threads moves by more than that); CPU 90-110 ms both;
#   peak RSS 73-81 MiB both. hippyvm's targethippy.py, whose rply grammar builds its LALR
#   tables at import time, still stops at the 5 s import-time clock (CPython itself takes
#   about 2.5 s of CPU for that table, rmathics' about 17 s), with 172 MiB instead of
#   395 MiB at the stop; rmathics 183 MiB instead of 399 MiB.
# Session 27/28 (branch check28): rply-based programs, whose grammar tables are built at
#   import time (`--import-budget 120`; CPU user time, machine at load 15-20). rmathics
#   (sn6uv/rmathics, targetrm.py): 33.3 s before, 22.4 s after (`in` over lists with a str
#   or a tuple of ints and strs as needle compares each item once, without the general
#   comparison; identical objects first, as CPython); peak RSS 708 -> 704 MiB. CPython 2.7
#   importing the same parser module without rply's table cache: 20.2 s user, of which
#   rply's add_lookaheads (`if a not in laheads` over lists of terminal names) is 85%.
#   joshsharp/python-braid (target.py): 0.21 s. The generated equivalent without
#   third-party code is benches/import_tables.sh (benches/programs/import_lr_tables.py).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
checkout=$(cd "$1" && pwd)
target=${2:-src/main-rpython.py}
shift $(( $# >= 2 ? 2 : 1 ))
[ -f "$checkout/$target" ] || { echo "no $target in $checkout" >&2; exit 2; }
cargo build --release --quiet --bin rpy-lsp
bin="$PWD/target/release/rpy-lsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$checkout" "$tmp/prog"
names=()
for kv in "$@"; do names+=("\"${kv%%=*}\""); done
{
  echo "[tool.rpy-lsp]"
  echo "entry-points = [\"$target\"]"
  echo "environment = [$(IFS=,; echo "${names[*]:-}")]"
} > "$tmp/prog/pyproject.toml"
cd "$tmp/prog"
lines=$(find "$(dirname "$target")" -name '*.py' -print0 | xargs -0 cat | wc -l)
echo "program: $checkout ($target, $lines lines of Python under $(dirname "$target")/)${*:+, $*}"
times=()
for _ in 1 2 3 4 5 6 7; do
  start=$(date +%s%N)
  env "$@" taskset -c 0 "$bin" check --format concise "$target" > /dev/null 2> "$tmp/summary" || true
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
# the same unpinned: the program's modules are parsed ahead on a second thread
# (objspace::preparse), which runs in parallel on a machine with two cores or more
times=()
for _ in 1 2 3 4 5 6 7; do
  start=$(date +%s%N)
  env "$@" "$bin" check --format concise "$target" > /dev/null 2>&1 || true
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
unpinned=($(printf '%s\n' "${times[@]}" | sort -n))
env "$@" /usr/bin/time -f '%M %U %S' -o "$tmp/rss" "$bin" check --format concise "$target" > /dev/null 2>&1 || true
read -r rss usr sys < <(tail -1 "$tmp/rss")
# CPU time too: on a loaded machine the wall clock measures the other jobs as well
cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
echo "check, all cores: best ${unpinned[0]} ms, median ${unpinned[3]} ms wall"
echo "check, one core: best ${sorted[0]} ms, median ${sorted[3]} ms wall; ${cpu} ms CPU (user+sys); peak RSS $(( rss / 1024 )) MiB; $(tail -1 "$tmp/summary")"
if command -v valgrind > /dev/null; then
  env "$@" valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.out" \
    "$bin" check --format concise "$target" > /dev/null 2>&1 || true
  # one file per thread: all of them, and the analysing thread's (the largest)
  read -r all main < <(cat "$tmp"/cg.out* | sed -n 's/^totals: *//p' \
    | awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%d %d\n", s, m }')
  echo "instructions (callgrind): $(( all / 1000000 ))M, of which the analysing thread $(( main / 1000000 ))M"
fi
