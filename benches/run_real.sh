#!/usr/bin/env bash
# `rpy-lsp run` and `rpy-lsp build` of a real RPython interpreter next to its binary built
# by the reference toolchain. Nothing is downloaded: pass the path of a checkout and the
# reference binary (built once, e.g. `SOM_INTERP=AST rpython-build src/main-rpython.py OUT`).
#
#   bash benches/run_real.sh CHECKOUT REF_BINARY TARGET [VAR=VALUE ...] -- PROGRAM ARGS...
#
# TARGET is the entry file relative to CHECKOUT; VAR=VALUE pairs are environment variables
# the program reads at import time; PROGRAM ARGS are what the interpreter is given, run in
# CHECKOUT. For RPySOM (core-lib checked out as its submodule):
#
#   bash benches/run_real.sh ~/src/RPySOM ./som-ast-interp src/main-rpython.py \
#       SOM_INTERP=AST -- -cp Smalltalk:Examples/Benchmarks \
#       Examples/Benchmarks/BenchmarkHarness.som Sieve 1 0 20
#
# Prints the wall and CPU time of the reference binary, of `rpy-lsp run` (translation and
# LLInterpreter) and of `rpy-lsp build` and its executable, and whether each one's stdout
# is the reference's once lines with timings ("us") are dropped.
#
# Measured 2026-11-24 (release build; machine loaded by other builds, load 8-11 on 2
# cores, so CPU time is the figure to compare):
#   RPySOM AST interpreter, Sieve benchmark (1 iteration, inner 20):
#     reference binary: 161 ms (its own report), 0.04 s CPU
#     rpy-lsp run: Hello.som 0.3 s wall; Sieve 16 s user + 8 s sys CPU (127 s wall on the
#     loaded machine) -- output identical apart from the timing figures
#     rpy-lsp build: annotate 0.60 s, rtype 0.19 s, C generation 0.18 s (7.8 s wall, 1.4 s
#     CPU), then the C compiler rejects the source (the constructor dispatcher of classes
#     called through a variable passes a pointer to Double.__init__'s float parameter)
# Measured 2026-11-24 evening (release build, load 10-14: CPU time is the figure):
#   program / interpreter      check      run                      build
#   RPySOM AST Hello           ok         same, 0.3 s              same
#   RPySOM AST TestSuite       ok         same, 1.5 s user         same (102/102 tests)
#     (before: run stopped at a null function pointer, build did not compile)
#   RPySOM AST Sieve (1 0 20)  ok         same apart from timings; same apart from timings;
#                                         16.0 s user + 7.1 s sys  0.10 s user (reference
#                                         (reference 0.04 s)       binary 0.04 s)
#   RPySOM BC Hello/TestSuite  ok (was a  same, 0.3 s / 2.0 s user  not measured
#                              false RPY205)
#   RPySOM BC Sieve (1 0 20)   ok         same apart from timings; not measured
#                                         37.8 s user (reference
#                                         binary 0.05 s)
#   rpy-lsp build of RPySOM AST: annotate 1.0 s, rtype 0.44 s, C generation 0.50 s, C
#   compilation 45 s wall (8.3 s CPU in all); the reference's build takes minutes.
# Measured 2026-11-24 late evening (release build, load 8-14 on 2 cores: CPU time is the
# figure; "same" = byte-identical stdout, stderr and exit status to the reference binary,
# apart from printed timings and object addresses). Reference binaries built with
# rpython-build; mal's targets are a 3-line root file setting sys.argv[0] = "rpython"
# (mal's own test) then importing stepN's entry_point/target; its tests are fed one line
# per prompt (the inputs of tests/stepN_*.mal), both binaries the same way.
#   program                  check  run                          build (ours)  built exe
#   RPySOM BC TestSuite      ok     same, 1.0 s user             same          0.00 s user (ref 0.01)
#   RPySOM BC Sieve (1 0 20) ok     same                         same          0.19 s user (ref 0.06)
#     (build: annotate 0.14 s, rtype 0.09 s, C 9.3 s; 5.8 s CPU in all)
#   RTruffleSOM AST          0 err  same: Hello, TestSuite        same          TestSuite 0.01 s, Sieve
#     (was: py.path unknown)        (100 tests) 1.0 s user;                    0.12 s user (ref 0.04)
#                                   Sieve 10.5 s user
#     (check 0.21 s CPU, 77 MB; build: annotate 0.29 s, rtype 0.10 s, C 16 s; 8.1 s CPU)
#   mal step2/4/9/A          0 err  same on every step test   same except   stepA tests 0.05-0.09 s
#     (was: RPY108 llop,            <= the step (stepA: 1..A);  step4's deep  user (ref 0.08-0.10)
#     rsre unknown; then            stepA tests 0.2-2.6 s user  recursion
#     __class__() refused,          (step5 TCO 2.6 s; ref 0.1)  (ref: StackOverflow)
#     `in (None, nil, false)` wrong)
#     (stepA build: 4.5 s wall, 2.6 s CPU)
#   rpylox (12 examples,     ok     same, loop.lox 0.36 s user   same          0.01 s (ref 0.00)
#     REPL on stdin)                (REPL: prompts buffered as C stdio's)
#   pylox (2 examples, REPL) ok     same                         same          0.00 s
#   tiger-rpython (43 print  ok     43/43 = the project's        (no reference binary yet)
#     tests)                        expected outputs
#     (was: rtimer unknown, isinstance(x, self.__class__) refused)
#   bf-jit                   bytearray is not modelled (run refuses)
#   H1rono bf-pypy           rlib.signature / annotator.model types not modelled
#   rpyforth                 rffi raw memory (CCHARP, ptradd) not modelled
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 4 ] || [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
checkout=$(cd "$1" && pwd)
ref=$(realpath "$2")
target=$3
shift 3
envs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
cargo build --release --quiet --bin rpy-lsp
bin="$PWD/target/release/rpy-lsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$checkout"
measure() { # name, command...
  local name=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$tmp/$name.time" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" || true
  read -r wall usr sys < <(tail -1 "$tmp/$name.time")
  grep -v 'us' "$tmp/$name.out" > "$tmp/$name.cmp" || true
  local same=no
  cmp -s "$tmp/ref.cmp" "$tmp/$name.cmp" 2>/dev/null && same=yes
  echo "$name: ${wall} s wall, ${usr} s user + ${sys} s sys; same output as the reference: $same"
}
measure ref "$ref" "$@"
measure run env ${envs[@]+"${envs[@]}"} "$bin" run "$target" -- "$@"
start=$(date +%s%N)
if env ${envs[@]+"${envs[@]}"} "$bin" build "$target" -o "$tmp/ours" > "$tmp/build.log" 2>&1; then
  end=$(date +%s%N)
  echo "build: $(( (end - start) / 1000000 )) ms"
  measure built "$tmp/ours" "$@"
else
  echo "build: failed ($(tail -1 "$tmp/build.log"))"
fi
