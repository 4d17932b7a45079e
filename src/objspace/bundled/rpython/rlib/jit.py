"""rpy-lsp's model of `rpython.rlib.jit`: hints and decorators for the JIT generator.

Decorators set the same function attributes as the reference; hints are primitives
(builtins named `jit.<name>`) that return their argument or do nothing.
"""
from __rpy__ import jit_promote, jit_promote_string, jit_promote_unicode, jit_hint
from __rpy__ import jit_we_are_jitted, jit_isconstant, jit_isvirtual, jit_assert_green
from __rpy__ import jit_set_param, jit_record_known_class
from __rpy__ import jit_record_exact_class, jit_jit_debug, jit_current_trace_length
from __rpy__ import jit_conditional_call_function
from __rpy__ import jit_virtual_ref, jit_non_virtual_ref, jit_virtual_ref_finish
from __rpy__ import jit_JitDriver_jit_merge_point, jit_JitDriver_can_enter_jit

# names of newer rpythons that 0.2.1's module lacks: `jit.<name>` is an error there
_rpy_absent_ = ("promote_unicode", "record_known_class", "vectorize")
from __rpy__ import jit_JitDriver_loop_header
# names the reference's jit module re-exports from objectmodel
from rpython.rlib.objectmodel import we_are_translated, keepalive_until_here, specialize
from rpython.rlib.objectmodel import not_rpython, CDefinedIntSymbolic

promote = jit_promote


# Not specialized, unlike `promote` (which is `specialize.argtype(0)` in the toolchain):
# one function, so its argument must have one type over all calls.
def promote_string(x):
    return jit_promote_string(x)


def promote_unicode(x):
    return jit_promote_unicode(x)


hint = jit_hint
we_are_jitted = jit_we_are_jitted
isconstant = jit_isconstant
isvirtual = jit_isvirtual
assert_green = jit_assert_green
set_param = jit_set_param
record_known_class = jit_record_known_class
record_exact_class = jit_record_exact_class
jit_debug = jit_jit_debug
current_trace_length = jit_current_trace_length


@specialize.call_location()
def conditional_call(condition, function, *args):
    """`if condition: function(*args)`, which the JIT compiles without a bridge."""
    if we_are_jitted():
        # the JIT's operation takes the function itself: one function, not a method
        jit_conditional_call_function(function)
    if not condition:
        return
    function(*args)
conditional_call._always_inline_ = 'try'


@specialize.call_location()
def conditional_call_elidable(value, function, *args):
    """`value` unless it is 0 or None, else `function(*args)` (a cache the JIT trusts)."""
    if we_are_jitted():
        jit_conditional_call_function(function)
    # (each call site is its own specialization: `value` is an int or an object there)
    if isinstance(value, int):
        if value != 0:
            return value
        computed = function(*args)
        assert isinstance(computed, int)
        return computed
    if value is not None:
        return value
    return function(*args)

virtual_ref = jit_virtual_ref
non_virtual_ref = jit_non_virtual_ref
virtual_ref_finish = jit_virtual_ref_finish
vref_None = non_virtual_ref(None)


class InvalidVirtualRef(Exception):
    """A virtual reference called after virtual_ref_finish (only the JIT checks it)."""


def loop_unrolling_heuristic(lst, size, cutoff=2):
    """Whether a loop over `lst` may be unrolled: without a JIT, only an empty one."""
    if size == 0 or isvirtual(lst):
        return True
    # a length the JIT knows, if it is short enough
    return isconstant(size) and size <= cutoff


def enter_portal_frame(unique_id):
    """Marks the start of a function for the JIT's profiler: nothing without a JIT."""


def leave_portal_frame():
    """Marks the end of a function for the JIT's profiler: nothing without a JIT."""


def set_param_to_default(driver, name):
    """Resets a tunable JIT parameter: nothing without a JIT."""


def _marker(attribute, value):
    """A decorator that sets the function attribute `attribute` (a hint the reference's
    JIT generator reads) to `value`."""
    def mark(func):
        setattr(func, attribute, value)
        return func
    return mark


# The function has no side effects and its result depends only on its arguments.
elidable = _marker('_elidable_function_', True)
purefunction = elidable
dont_look_inside = _marker('_jit_look_inside_', False)
look_inside = _marker('_jit_look_inside_', True)
unroll_safe = _marker('_jit_unroll_safe_', True)
not_in_trace = _marker('oopspec', 'jit.not_in_trace()')


def loop_invariant(func):
    """Computed once per loop: also not looked inside."""
    return _marker('_jit_loop_invariant_', True)(dont_look_inside(func))


def elidable_promote(promote_args='all'):
    """Elidable, with the arguments `promote_args` names promoted first."""
    mark = _marker('_jit_elidable_promote_', promote_args)
    return lambda func: mark(elidable(func))


purefunction_promote = elidable_promote


def look_inside_iff(predicate):
    """Looked inside only when `predicate` holds for the arguments."""
    return _marker('_jit_look_inside_iff_', predicate)


def oopspec(spec):
    """The JIT's description of what the function does."""
    return _marker('oopspec', spec)


def vectorize(func):
    """A hint for the JIT's vectorizer: nothing without a JIT."""
    return func


class JitHintError(Exception):
    """Inconsistency in the JIT hints."""


# Each tunable JIT parameter: its default value and one line of help (interpreters
# print them for `--jit help`).
_PARAMETER_TABLE = [
    ('threshold', 1039, 'loop iterations before a loop is traced'),
    ('function_threshold', 1619, 'calls before a function is traced from its start'),
    ('trace_eagerness', 200, 'guard failures before a bridge is traced'),
    ('decay', 40, 'how fast the counters of loops and functions decay'),
    ('trace_limit', 6000, 'the longest trace, in operations, that is compiled'),
    ('inlining', 1, 'whether functions are inlined into traces (0 or 1)'),
    ('loop_longevity', 1000, 'how long an unused compiled loop is kept'),
    ('retrace_limit', 0, 'how many times a loop may be retraced'),
    ('max_retrace_guards', 15, 'the most guards a retraced loop may have'),
    ('max_unroll_loops', 0, 'the most times a loop is unrolled'),
    ('disable_unrolling', 200, 'trace length beyond which loops are not unrolled'),
    ('enable_opts', 'all', 'the optimizations that are enabled, separated by colons'),
    ('max_unroll_recursion', 7, 'how deep recursive calls are unrolled'),
    ('vec', 0, 'whether loops are vectorized (0 or 1)'),
    ('vec_all', 0, 'whether every trace is vectorized (0 or 1)'),
    ('vec_cost', 0, 'the cost threshold of vectorization'),
]
PARAMETERS = {}
PARAMETER_DOCS = {}
# the parameters a user string may give a number for (all but `enable_opts`)
_USER_INT_PARAMS = {}
for _entry in _PARAMETER_TABLE:
    PARAMETERS[_entry[0]] = _entry[1]
    PARAMETER_DOCS[_entry[0]] = _entry[2]
    if _entry[0] != 'enable_opts':
        _USER_INT_PARAMS[_entry[0]] = 0
del _entry


class TraceLimitTooHigh(Exception):
    """A `trace_limit` above 2**14 given to set_user_param."""


def set_user_param(driver, text):
    """Parse the JIT parameters of a user string, 'name=value,...', 'off' or 'default'.
    Without a JIT the values are not kept, but the string is checked as the reference
    checks it: an unknown name, a part without one '=' or a value that is not an integer
    is ValueError, and a trace_limit above 2**14 is TraceLimitTooHigh."""
    if text == 'off' or text == 'default':
        return
    for item in text.split(','):
        pair = item.strip(' ').split('=')
        if len(pair) != 2:
            raise ValueError
        key = pair[0]
        if key == 'enable_opts':
            # any text: a list of optimization names
            continue
        if key not in _USER_INT_PARAMS:
            raise ValueError
        number = int(pair[1])
        if key == 'trace_limit' and number > 2**14:
            raise TraceLimitTooHigh


ENABLE_ALL_OPTS = 'intbounds:rewrite:virtualize:string:pure:earlyforce:heap:unroll'


class JitDriver(object):
    """Marks the main interpreter loop for the JIT: `jit_merge_point` and `can_enter_jit`
    accept the green and red variables as keyword arguments and do nothing here."""
    virtualizables = []
    name = 'jitdriver'
    inline_jit_merge_point = False

    def __init__(self, greens=None, reds=None, virtualizables=None,
                 get_jitcell_at=None, set_jitcell_at=None,
                 get_printable_location=None, confirm_enter_jit=None,
                 can_never_inline=None, should_unroll_one_iteration=None,
                 name='jitdriver', check_untranslated=True, vectorize=False,
                 get_unique_id=None, is_recursive=False, get_location=None):
        self.name = name
        self.greens = greens or []
        # reds='auto': the JIT finds the red variables itself
        self.autoreds = reds == 'auto'
        if self.autoreds:
            self.reds = []
            self.numreds = -1
        else:
            self.reds = reds or []
            self.numreds = len(self.reds)
        if virtualizables is not None:
            self.virtualizables = virtualizables
        # the callbacks and flags, kept for the program to read back
        for key, value in [('get_printable_location', get_printable_location),
                           ('get_location', get_location),
                           ('get_unique_id', get_unique_id),
                           ('confirm_enter_jit', confirm_enter_jit),
                           ('can_never_inline', can_never_inline),
                           ('should_unroll_one_iteration', should_unroll_one_iteration),
                           ('check_untranslated', check_untranslated),
                           ('is_recursive', is_recursive),
                           ('vectorize', vectorize)]:
            setattr(self, key, value)

    jit_merge_point = jit_JitDriver_jit_merge_point
    can_enter_jit = jit_JitDriver_can_enter_jit
    loop_header = jit_JitDriver_loop_header

    def _freeze_(self):
        return True
