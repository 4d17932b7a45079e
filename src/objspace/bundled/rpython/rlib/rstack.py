"""rpy-lsp's model of `rpython.rlib.rstack`: the stack check every translated function
does (raising `rstackovf.StackOverflow`) is the runtime's, so an explicit `stack_check()`
does nothing more, and the stack is never reported almost full.
"""


def stack_check():
    pass


def stack_almost_full():
    return False


def _stack_set_length_fraction(fraction):
    # the share of the stack limit a program allows itself: nothing to do without one
    pass
