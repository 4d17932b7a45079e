"""rpy-lsp's model of the `time` module (primitives named `time.<name>`).

`sleep` never sleeps at import time. `_rpy_complete_` lists all the reference
translates (its rtime replaces these three and no other): another name of the real
module is unknown at import time and not RPython in translated code.
"""
from __rpy__ import time_time, time_clock, time_sleep

time = time_time
clock = time_clock
sleep = time_sleep
_rpy_complete_ = ("time", "clock", "sleep")
