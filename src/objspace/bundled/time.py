"""rpy-lsp's model of the `time` module (primitives named `time.<name>`).

`sleep` never sleeps at import time.
"""
from __rpy__ import time_time, time_clock, time_sleep

time = time_time
clock = time_clock
sleep = time_sleep
