#!/usr/bin/env bash
# Benchmark of the list operations (low-level helpers, __rpy_ll__/ll_list.py) on
# benches/programs/listops.py: wall time of `rpy-lsp run` (the LLInterpreter, release
# build, with its low-level operations per second) and of the executable `rpy-lsp build`
# makes (default --opt 2), best of 5 runs each, on one core.
# usage: benches/lists.sh [ROUNDS]   (default: 300 rounds under run, 20000 for the binary)
# environment: RPY_LSP (default target/release/rpy-lsp, built by this script when unset);
#   RPY_LSP_BEFORE, another rpy-lsp to measure the same way (the figures before a change).
#
# Measured 2026-11-24 on the loaded shared machine (figures vary with the load): before
# the `arraycopy` operation (ll_list.py copying item by item) run 8003 ms (4.0 million
# low-level operations/s), build executable 842 ms; with ll_list.py copying by
# `arraycopy` (a memmove in C) run 2694 ms, build executable 706 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${RPY_LSP:-}" ]; then
  cargo build --release --quiet
fi
prog=benches/programs/listops.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { sort -n | head -1; }
measure() {
  local label=$1 bin=$2
  local t=() ops=()
  for _ in 1 2 3 4 5; do
    local start end line
    start=$(date +%s%N)
    line=$(taskset -c 0 "$bin" run --timings "$prog" -- "${RUN_ROUNDS:-300}" 2>&1 >/dev/null | grep '^\[timings\]')
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
    ops+=($(sed -E 's/.*\(([0-9.]+) million\/s\).*/\1/' <<< "$line"))
  done
  echo "$label run (${RUN_ROUNDS:-300} rounds): best $(printf '%s\n' "${t[@]}" | best) ms, $(printf '%s\n' "${ops[@]}" | sort -rn | head -1) million low-level operations/s"
  "$bin" build "$prog" -o "$tmp/$label.bin" > /dev/null 2>&1
  t=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    taskset -c 0 "$tmp/$label.bin" "${BUILD_ROUNDS:-20000}" > /dev/null
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
  done
  echo "$label build executable (${BUILD_ROUNDS:-20000} rounds): best $(printf '%s\n' "${t[@]}" | best) ms"
}
[ -n "${1:-}" ] && RUN_ROUNDS=$1 && BUILD_ROUNDS=$1
measure current "${RPY_LSP:-target/release/rpy-lsp}"
if [ -n "${RPY_LSP_BEFORE:-}" ]; then
  measure before "$RPY_LSP_BEFORE"
fi
