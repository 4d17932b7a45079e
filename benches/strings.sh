#!/usr/bin/env bash
# Benchmark of string building and string methods (low-level helpers, __rpy_ll__/ll_str.py
# and ll_num.py) on benches/programs/strops.py and strmeths.py: wall time of `rpy-lsp run`
# (the LLInterpreter, release build, with its low-level operations per second) and of the
# executable `rpy-lsp build` makes (default --opt 3), best of 5 runs each, on one core.
# usage: benches/strings.sh [ROUNDS]   (default: strops 300 rounds under run, 20000 for the
#   binary; strmeths 100 and 10000)
# environment: RPY_LSP, RPY_LSP_BEFORE (see benches/helper_bench.sh, which does the timing).
#
# Measured 2026-11-24 on the loaded shared machine (2 cores, 4 other builds running), the
# executable of `build` at 20000 rounds, best of 5, two alternating series: before the
# move of concatenation/slicing/repetition/char->str from the C runtime to ll_str.py
# (helpers copying with the `arraycopy` operation) 411 / 708 ms, after 251 / 404 ms.
# Measured 2026-11-24 (load average 15 on the 2 cores), the executables only (their speed
# does not depend on rpy-lsp's own build), 8 alternating runs each, best (median): before
# and after the move of replace/split/rsplit/splitlines/join, str()/hex()/oct() of ints,
# int(s), min/max, isinstance and the string hash to ll_str.py/ll_num.py/ll_class.py:
#   strops   20000 rounds: before 270 ms (385), after 277 ms (400): the same within noise
#   strmeths 10000 rounds: before 274 ms (400), after 128 ms (140)
set -e
bash "$(dirname "$0")/helper_bench.sh" benches/programs/strops.py 300 20000 "$@"
bash "$(dirname "$0")/helper_bench.sh" benches/programs/strmeths.py 100 10000 "$@"
