"""rpy-lsp's model of `rpython.rlib.debug`."""
from __rpy__ import debug_debug_print, debug_debug_start, debug_debug_stop
from __rpy__ import debug_debug_flush, debug_have_debug_prints, debug_debug_offset
from __rpy__ import debug_fatalerror, debug_fatalerror_notb, debug_make_sure_not_resized
from __rpy__ import debug_check_nonneg, debug_check_regular_int
from rpython.rlib.objectmodel import specialize

# names of newer rpythons that 0.2.1's module lacks: `debug.<name>` is an error there
_rpy_absent_ = ("make_sure_not_modified",)

debug_print = debug_debug_print
debug_start = debug_debug_start
debug_stop = debug_debug_stop
debug_flush = debug_debug_flush
have_debug_prints = debug_have_debug_prints
debug_offset = debug_debug_offset
fatalerror = debug_fatalerror
fatalerror_notb = debug_fatalerror_notb
# a built-in: the list must never be resized from now on (its annotation is marked)
make_sure_not_resized = debug_make_sure_not_resized


class FatalError(Exception):
    pass


# The reference's annotation of a call asserts that `msg` is a constant (it becomes a
# Void argument of the `debug_assert` operation): keyed on it, a message built at run
# time is an error at the call (err_debug_ll_assert_msg_not_const_bc18).
# It checks nothing: the reference makes it the `debug_assert` operation, which its C
# defines as RPyAssert, empty unless RPY_ASSERT is defined (only the lldebug builds), so
# a release binary goes on past a false one (debug_prints_asserts_suite_blind21b).
@specialize.arg(1)
def ll_assert(x, msg):
    """Assertion checked untranslated (and in debug builds)."""
    pass


@specialize.argtype(0)
def ll_assert_not_none(x):
    """`x`, asserted not None: its annotation loses None (minipypy's frames)."""
    assert x is not None
    return x


# built-ins: the annotator must prove `x` a non-negative (a plain signed) int
check_nonneg = debug_check_nonneg
check_regular_int = debug_check_regular_int


@specialize.call_location()
def check_annotation(arg, checker):
    return arg


# The reference checks this at each call, on that call's list: one graph per call site,
# or every list passed would become one list type.
@specialize.call_location()
def make_sure_not_modified(arg):
    return arg


# A hint to the reference's annotator (the dict's values are never None); no effect on
# what the program does.
@specialize.call_location()
def mark_dict_non_null(d):
    pass


@specialize.call_location()
def check_list_of_chars(l):
    return l


def attach_gdb():
    pass
