"""rpy-lsp's model of `rpython.rlib.rstackovf`: `StackOverflow` is the exception a
translated program raises when it runs out of C stack (a RuntimeError, so `except
RuntimeError` catches it too); the RTyper gives this class to the stack check of the
runtime (`lltypesystem::runtime::BUILTIN_SUBCLASSES`). `check_stack_overflow()` only
matters before translation, where a RuntimeError may be another one.
"""


class StackOverflow(RuntimeError):
    """Out of C stack."""


def check_stack_overflow():
    pass
