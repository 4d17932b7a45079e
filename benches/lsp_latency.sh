#!/usr/bin/env bash
# Latency of the language server on a generated 10,000-line RPython program: time from a
# one-character edit to the updated diagnostics (p50/p95) and hover latency.
#
#   bash benches/lsp_latency.sh [--lines N] [--edits N] [--hovers N] [--strict]
#                               [--edit-kind digit|comment|base] [--edit-module first|last]
#
# Builds the release binary, then drives `rpy-lsp serve` over stdio (benches/lsp_latency.py).
# --strict exits 1 when a target (edit p95 <= 250 ms, hover p95 <= 20 ms) is missed.
# --edit-kind digit (default) changes a constant in a leaf function (its graph changes);
# comment adds or removes a '#' at the end of the same lines (the code only moves: the
# server takes the previous annotation with its spans moved, Program::analyse_after);
# base generates every class deriving from one base class whose `visit` every other class
# overrides and every function calls, and changes the constant of the base's method.
# --edit-module first (default) edits mod0, the first module the main module imports;
# last edits the last one (the server resumes the import from a checkpoint before it,
# engine::importcache).
#
# Figures, session 9 (2 cores, load 8-9 from other developers' builds: wall times are
# inflated and noisy, the server's CPU time per edit is the comparable figure); 20 edits,
# the two binaries run back to back; "before" is 27889e8 (+ stage timings), "after" the
# branch incr:
#   lines  edit     CPU/edit before -> after   edit->diagnostics p50/p95 before -> after
#   10k    digit    44 -> 32 ms                115/174 -> 95/146 ms
#   10k    comment  38 -> 20 ms                98/128 -> 74/108 ms
#   50k    digit    172 -> 158 ms              299/732 -> 350/488 ms
#   50k    comment  197 -> 68 ms               377/583 -> 167/251 ms
#
# Figures, session 10 (load 11-12: wall times are 2-3x the quiet machine's, compare the
# CPU per edit); 20 edits, 40 hovers; "before" is fd3f065, "after" the branch incr2
# (import resumed from a checkpoint, no copy of the heap for the flow cache, only the
# graphs the annotator reaches copied):
#   lines  edit          CPU/edit before -> after   edit->diagnostics p50/p95 before -> after
#   50k    digit first   136 -> 135 ms              325/390 -> 331/421 ms
#   50k    digit last    138 -> 123 ms              317/401 -> 285/344 ms
#   50k    comment first  60 ->  62 ms              192/223 -> 180/233 ms
#   50k    base          143 -> 138 ms              312/430 -> 310/522 ms
#   10k    digit first    37 ->  36 ms              182/229 -> 177/198 ms
#   10k    digit last     38 ->  42 ms              119/158 -> 120/173 ms
#   10k    comment first  19 ->  18 ms              127/155 -> 109/147 ms
#
# Figures, end of session 10, quiet machine (load 0.1), main 88c2d91, 50k lines, 20 edits,
# 40 hovers: edit->diagnostics p50/p95 digit first 164/182 ms, digit last 158/167 ms,
# base 169/177 ms, comment 100/104 ms; hover p95 1.0-1.6 ms (targets: 250 ms, 5 ms).
#   10k    base           30 ->  31 ms              111/130 -> 112/192 ms
#   hover p95 (up to date analysis): 3-15 ms before, 3-13 ms after at 50k (load 11); 1-7 ms at 10k.
# Where a 50k-line digit edit of the last module goes (RPY_LSP_TRACE=1, load ~8, ms),
# before -> after: load 36 -> 16 (replaying the loader's questions 2, copying the
# checkpoint 11, importing the last module and target() 2-3); heap comparison 14 -> 6;
# taking kept graphs 24-32 -> 24; copying graphs for the annotator 28 -> 0 (the graphs it
# reaches are copied inside annotation, which stays 170-185); whole analysis 325 -> 260.
# An edit of the first module (mod0) gains nothing from the import checkpoint (only
# `import os` is before it). The shared-hierarchy shape (benches/gen_shared.sh) is not
# measured in the server; --edit-kind base is its server-side stand-in.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin rpy-lsp
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 benches/lsp_latency.py "$target_dir/release/rpy-lsp" "$@"
