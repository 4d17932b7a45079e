"""rpy-lsp's model of `rpython.rlib.rtimer`: `read_timestamp()`, a fast clock as an int
(the binary reads the CPU's time-stamp counter; here, time.time() scaled to a similar rate:
only differences between readings mean anything, in both)."""
import time

UNIT_TSC = 0
UNIT_NS = 1
UNIT_QUERY_PERFORMANCE_COUNTER = 2


def read_timestamp():
    return int(time.time() * 500000000.0)


def get_timestamp_unit():
    return UNIT_TSC
