#!/usr/bin/env bash
# Import-time speed of `rpy-lsp check`: benches/programs/import_lr_tables.py builds SLR
# parse tables for a generated grammar while it is imported (tuples in lists, `in` over
# lists of tuples and strs, tuple-keyed dicts, attribute reads), the work rply-based
# interpreters (rmathics, python-braid, pybibim, hippyvm) do at import time. No
# third-party code. Builds the release binary (unless RPY_LSP names one), runs `check` 7
# times and prints the best and median CPU time (user + system) and the peak RSS.
#
#   bash benches/import_tables.sh
#
# Measured 2026-11-30 (branch check28; machine at load 15-20, so CPU times, not wall):
#   CPython 2.7 importing the module: 0.52 s user.
#   before (the session's first release binary): best 910-970 ms CPU, 126-130 MiB.
#   after (`in` with a str or plain-tuple needle compares each item once, identical
#   objects first): best 810 ms, median 830 ms, 126 MiB (the same minute, same load).
#   rmathics under check_real.sh's setup: 33.3-34.7 s -> 22.4-27.4 s (see there).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${RPY_LSP:-}
if [ -z "$bin" ]; then
  cargo build --release --quiet --bin rpy-lsp
  bin="$PWD/target/release/rpy-lsp"
fi
prog=benches/programs/import_lr_tables.py
times=()
for _ in 1 2 3 4 5 6 7; do
  t=$( { /usr/bin/time -f "%U %S %M" "$bin" check --format concise "$prog" > /dev/null; } 2>&1 | tail -n 1)
  read -r u s kb <<< "$t"
  times+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')")
  rss=$kb
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
best=$(echo "$sorted" | head -n 1)
median=$(echo "$sorted" | sed -n 4p)
echo "import_lr_tables: CPU best ${best} ms, median ${median} ms; peak RSS $((rss / 1024)) MiB"
