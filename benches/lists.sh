#!/usr/bin/env bash
# Benchmark of the list operations (low-level helpers, __rpy_ll__/ll_list.py) on
# benches/programs/listops.py: wall time of `rpy-lsp run` (the LLInterpreter, release
# build, with its low-level operations per second) and of the executable `rpy-lsp build`
# makes (default --opt 3), best of 5 runs each, on one core.
# usage: benches/lists.sh [ROUNDS]   (default: 300 rounds under run, 20000 for the binary)
# environment: RPY_LSP, RPY_LSP_BEFORE (see benches/helper_bench.sh, which does the timing).
#
# Measured 2026-11-24 on the loaded shared machine (figures vary with the load): before
# the `arraycopy` operation (ll_list.py copying item by item) run 8003 ms (4.0 million
# low-level operations/s), build executable 842 ms; with ll_list.py copying by
# `arraycopy` (a memmove in C) run 2694 ms, build executable 706 ms.
exec bash "$(dirname "$0")/helper_bench.sh" benches/programs/listops.py 300 20000 "$@"
