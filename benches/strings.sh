#!/usr/bin/env bash
# Benchmark of string building and string methods (low-level helpers, __rpy_ll__/ll_str.py
# and ll_num.py) on benches/programs/strops.py and strmeths.py: wall time of `rpy-lsp run`
# (the LLInterpreter, release build, with its low-level operations per second) and of the
# executable `rpy-lsp build` makes (default --opt 2), best of 5 runs each, on one core.
# usage: benches/strings.sh [ROUNDS]   (default: strops 300 rounds under run, 20000 for the
#   binary; strmeths 100 and 10000)
# environment: RPY_LSP, RPY_LSP_BEFORE (see benches/helper_bench.sh, which does the timing).
#
# Measured 2026-11-24 on the loaded shared machine (2 cores, 4 other builds running), the
# executable of `build` at 20000 rounds, best of 5, two alternating series: before the
# move of concatenation/slicing/repetition/char->str from the C runtime to ll_str.py
# (helpers copying with the `arraycopy` operation) 411 / 708 ms, after 251 / 404 ms.
set -e
bash "$(dirname "$0")/helper_bench.sh" benches/programs/strops.py 300 20000 "$@"
bash "$(dirname "$0")/helper_bench.sh" benches/programs/strmeths.py 100 10000 "$@"
