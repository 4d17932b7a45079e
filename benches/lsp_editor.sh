#!/usr/bin/env bash
# Latency of the editor requests (references, call hierarchy, workspace symbols, completion,
# signature help) on the generated 10,000-line program of benches/lsp_latency.py.
#
#   bash benches/lsp_editor.sh [--lines N] [--runs N]
#
# Builds the release binary, then drives `rpy-lsp serve` over stdio (benches/lsp_editor.py).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin rpy-lsp
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 benches/lsp_editor.py "$target_dir/release/rpy-lsp" "$@"
