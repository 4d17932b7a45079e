"""rpy-lsp's model of `rpython.rlib.nonconst`: `NonConstant(x)` is `x` at import time and
in translated code, but the annotator forgets that it is a constant (code that tests it is
translated on both paths, as a program driven by a configuration constant needs).
"""
from __rpy__ import nonconst_NonConstant

NonConstant = nonconst_NonConstant
