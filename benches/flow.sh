#!/usr/bin/env bash
# Benchmark: parse + import + flow (and whatever `check` runs) of a generated 10,000-line
# program, on one core. Prints the best and median wall time of several runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tmp=$(mktemp -d)
bash benches/gen_program.sh "${1:-10000}" > "$tmp/big.py"
echo "program: $(wc -l < "$tmp/big.py") lines"
times=()
for _ in 1 2 3 4 5 6 7; do
  start=$(date +%s%N)
  taskset -c 0 ./target/release/rpy-lsp check "$tmp/big.py" > /dev/null 2>&1 || true
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "check (parse + import + flow + annotation) of the generated program: best ${sorted[0]} ms, median ${sorted[3]} ms"
rm -rf "$tmp"
