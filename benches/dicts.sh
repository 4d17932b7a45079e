#!/usr/bin/env bash
# Benchmark of the dict operations (low-level helpers, __rpy_ll__/ll_dict.py) on
# benches/programs/dictops.py: wall time of `rpy-lsp run` (the LLInterpreter, release
# build, with its low-level operations per second) and of the executable `rpy-lsp build`
# makes (default --opt 2), best of 5 runs each, on one core.
# usage: benches/dicts.sh [ROUNDS]   (default: 100 rounds under run, 5000 for the binary)
# environment: RPY_LSP (default target/release/rpy-lsp, built by this script when unset);
#   RPY_LSP_BEFORE, another rpy-lsp to measure the same way (the figures before a change).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${RPY_LSP:-}" ]; then
  cargo build --release --quiet
fi
prog=benches/programs/dictops.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { sort -n | head -1; }
measure() {
  local label=$1 bin=$2
  local t=() ops=()
  for _ in 1 2 3 4 5; do
    local start end line
    start=$(date +%s%N)
    line=$(taskset -c 0 "$bin" run --timings "$prog" -- "${RUN_ROUNDS:-100}" 2>&1 >/dev/null | grep '^\[timings\]')
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
    ops+=($(sed -E 's/.*\(([0-9.]+) million\/s\).*/\1/' <<< "$line"))
  done
  echo "$label run (${RUN_ROUNDS:-100} rounds): best $(printf '%s\n' "${t[@]}" | best) ms, $(printf '%s\n' "${ops[@]}" | sort -rn | head -1) million low-level operations/s"
  "$bin" build "$prog" -o "$tmp/$label.bin" > /dev/null 2>&1
  t=()
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s%N)
    taskset -c 0 "$tmp/$label.bin" "${BUILD_ROUNDS:-5000}" > /dev/null
    end=$(date +%s%N)
    t+=($(( (end - start) / 1000000 )))
  done
  echo "$label build executable (${BUILD_ROUNDS:-5000} rounds): best $(printf '%s\n' "${t[@]}" | best) ms"
}
[ -n "${1:-}" ] && RUN_ROUNDS=$1 && BUILD_ROUNDS=$1
measure current "${RPY_LSP:-target/release/rpy-lsp}"
if [ -n "${RPY_LSP_BEFORE:-}" ]; then
  measure before "$RPY_LSP_BEFORE"
fi
