#!/usr/bin/env bash
# Latency of the language server on a generated 10,000-line RPython program: time from a
# one-character edit to the updated diagnostics (p50/p95) and hover latency.
#
#   bash benches/lsp_latency.sh [--lines N] [--edits N] [--hovers N] [--strict]
#
# Builds the release binary, then drives `rpy-lsp serve` over stdio (benches/lsp_latency.py).
# --strict exits 1 when a target (edit p95 <= 250 ms, hover p95 <= 20 ms) is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin rpy-lsp
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 benches/lsp_latency.py "$target_dir/release/rpy-lsp" "$@"
