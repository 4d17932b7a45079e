#!/usr/bin/env bash
# Benchmark of the RTyper and the LLInterpreter (`rpy-lsp run --timings`), on one core:
#  1. a generated 10,000-line program: analysis (parse, import, flow graphs, annotation)
#     and RTyper time, best and median of 7 runs;
#  2. benches/loop.py, a loop-heavy program: low-level operations per second of the
#     LLInterpreter, best and median of 5 runs.
# Figures (2 cores shared with other developers' builds, load 14-20: wall figures are
# pessimistic): analysis best 188 ms, RTyper best 88 ms (issue 8's goal: annotate + RTyper
# under 300 ms); LLInterpreter 15-20 million operations/s when it walked the flow graphs,
# 33-42 million/s since graphs are decoded for execution (llinterp/code.rs; user time of
# the loop program 0.97 -> 0.49 s; goal: 20 million/s). Quiet machine (load 1.3), end of
# session 8: analysis 89 ms, RTyper 25 ms, LLInterpreter 90 million operations/s.
# Session 9 (load 6-7): range iteration moved from a Rust runtime function to ll_iter.py,
# inlined in the loop when the step's sign is known: a loop of 10 million `for i in
# range(...)` iterations went from 1.33-1.36 s to 0.82-0.87 s user; as one helper call per
# iteration (not inlined) it was 1.74 s, 25% slower than the runtime function. loop.py
# (a while loop) is unchanged: 0.43-0.44 s user before and after.
# End of session 9, quiet machine (load 0.9): analysis best 92 ms, RTyper best 30 ms
# (together 122 ms), LLInterpreter 89.6 million operations/s; benches/dicts.sh: dictops
# run 370 ms (47.6 million operations/s), build executable 106 ms.
# Session 10 (load 6-9, same machine, best of 7 and of 5, the previous binary and this
# one run alternately): classes chosen at run time instantiated through per-class
# `instantiate` graphs instead of a Rust runtime function: RTyper best 73.6/69.5 ms before,
# 76.1/82.1 ms after (medians 109-128 vs 104-119: noise at this load); LLInterpreter
# 36.8/33.3 vs 36.6/42.8 million operations/s; a loop of 1 million `pick(i)(i)` (two
# classes with different __init__s) 0.51 s user before and 0.50 s after.
# End of session 12, quiet machine (load < 1, after weak references, call-family defaults and
# the tuple rebuild): analysis best 94.1 ms, RTyper best 31.3 ms (together 125 ms),
# LLInterpreter 89.8 million operations/s: unchanged from session 9.
# Session 27 (load 1.2-1.7): strings allocated with their extra char had taken the array
# item accessors out of line (perf: `get_item_slot` 11.7% on its own): 114 -> 103 million
# operations/s. With the bounds error out of line (`out_of_bounds`, cold) and the accessors
# `#[inline]`: 109.4 million/s best; analysis best 59.4 ms, RTyper best 14.5 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tmp=$(mktemp -d)
bash benches/gen_program.sh "${1:-10000}" > "$tmp/big.py"
echo "program: $(wc -l < "$tmp/big.py") lines"
an=(); rt=()
for _ in 1 2 3 4 5 6 7; do
  line=$(taskset -c 0 ./target/release/rpy-lsp run --timings "$tmp/big.py" 2>&1 >/dev/null | grep '^\[timings\]')
  an+=($(sed -E 's/.*analysis \(import, flow, annotation\) ([0-9.]+) ms.*/\1/' <<< "$line"))
  rt+=($(sed -E 's/.*rtype ([0-9.]+) ms.*/\1/' <<< "$line"))
done
sa=($(printf '%s\n' "${an[@]}" | sort -n)); sr=($(printf '%s\n' "${rt[@]}" | sort -n))
echo "analysis (parse + import + flow + annotation): best ${sa[0]} ms, median ${sa[3]} ms"
echo "RTyper: best ${sr[0]} ms, median ${sr[3]} ms"
ops=()
for _ in 1 2 3 4 5; do
  line=$(taskset -c 0 ./target/release/rpy-lsp run --timings benches/loop.py 2>&1 >/dev/null | grep '^\[timings\]')
  ops+=($(sed -E 's/.*\(([0-9.]+) million\/s\).*/\1/' <<< "$line"))
done
so=($(printf '%s\n' "${ops[@]}" | sort -rn))
echo "LLInterpreter on benches/loop.py: best ${so[0]} million low-level operations/s, median ${so[2]}"
rm -rf "$tmp"
