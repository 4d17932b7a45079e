#!/usr/bin/env bash
# Benchmark of the dict operations (low-level helpers, __rpy_ll__/ll_dict.py) on
# benches/programs/dictops.py: wall time of `rpy-lsp run` (the LLInterpreter, release
# build, with its low-level operations per second) and of the executable `rpy-lsp build`
# makes (default --opt 3), best of 5 runs each, on one core.
# usage: benches/dicts.sh [ROUNDS]   (default: 100 rounds under run, 5000 for the binary)
# environment: RPY_LSP, RPY_LSP_BEFORE (see benches/helper_bench.sh, which does the timing).
# Figures (session 9, load 6-7, `run --timings ... -- 100` pinned to one core, 3 runs each):
# interior paths resolved when a graph is decoded (llinterp/code.rs) took the run from
# 784-815 ms to 509-604 ms (user 0.53-0.54 s -> 0.36-0.37 s), 18 -> 27-32 million
# low-level operations/s.
exec bash "$(dirname "$0")/helper_bench.sh" benches/programs/dictops.py 100 5000 "$@"
