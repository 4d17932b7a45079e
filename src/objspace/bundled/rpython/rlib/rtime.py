"""rpy-lsp's model of `rpython.rlib.rtime`: the reference's replacements of time.time,
time.clock and time.sleep, here the `time` module's own primitives."""
from __rpy__ import time_time, time_clock, time_sleep

time = time_time
clock = time_clock
sleep = time_sleep
