"""rpy-lsp's model of `rpython.rlib.rsre.rpy`: `get_code` compiles a regular expression at
import time into the pattern list the `rsre_core` model matches with."""
from __rpy__ import re_program

VERSION = "2.7.6"


def get_code(regexp, flags=0, allargs=False):
    info = re_program(regexp, flags)
    if isinstance(info, str):
        raise ValueError(info)
    code, start, registers, groups, names = info
    # rsre_core.OWN_PROGRAM last: rsre_core matches it with the program's matcher
    pattern = list(code) + [start, registers, groups, 1380997409]
    if allargs:
        groupindex = {}
        for name, index in names:
            groupindex[name] = index
        return pattern, flags, (groups, groupindex, None)
    return pattern
