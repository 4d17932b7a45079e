#!/usr/bin/env bash
# The driver of benches/lists.sh, dicts.sh and strings.sh: times one program of
# benches/programs under `rpy-lsp run` (the LLInterpreter, with its low-level operations
# per second) and as the executable `rpy-lsp build` makes (default --opt 3), best of 5
# runs each, pinned to one core.
# usage: benches/helper_bench.sh PROGRAM RUN_ROUNDS BUILD_ROUNDS [ROUNDS]
#   ROUNDS, when given, replaces both defaults.
# environment: RPY_LSP (default target/release/rpy-lsp, built by this script when unset);
#   RPY_LSP_BEFORE, another rpy-lsp to measure the same way (the figures before a change).
set -euo pipefail
cd "$(dirname "$0")/.."
prog=$1
RUN_ROUNDS=${4:-$2}
BUILD_ROUNDS=${4:-$3}
if [ -z "${RPY_LSP:-}" ]; then
  cargo build --release --quiet
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { sort -n | head -1; }
measure() {
  local label=$1 bin=$2
  local t=() ops=()
  for _ in 1 2 3 4 5; do
    local start end line
    start=$(date +%s%N)
    line=$(taskset -c 0 "$bin" run --timings "$prog" -- "$RUN_ROUNDS" 2>&1 >/dev/null | grep '^\[timings\]')
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
    ops+=($(sed -E 's/.*\(([0-9.]+) million\/s\).*/\1/' <<< "$line"))
  done
  echo "$label run ($RUN_ROUNDS rounds): best $(printf '%s\n' "${t[@]}" | best) ms, $(printf '%s\n' "${ops[@]}" | sort -rn | head -1) million low-level operations/s"
  "$bin" build "$prog" -o "$tmp/$label.bin" > /dev/null 2>&1
  t=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    taskset -c 0 "$tmp/$label.bin" "$BUILD_ROUNDS" > /dev/null
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
  done
  echo "$label build executable ($BUILD_ROUNDS rounds): best $(printf '%s\n' "${t[@]}" | best) ms"
}
measure current "${RPY_LSP:-target/release/rpy-lsp}"
if [ -n "${RPY_LSP_BEFORE:-}" ]; then
  measure before "$RPY_LSP_BEFORE"
fi
