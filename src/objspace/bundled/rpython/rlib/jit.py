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
from __rpy__ import jit_JitDriver_loop_header
# names the reference's jit module re-exports from objectmodel
from rpython.rlib.objectmodel import we_are_translated, keepalive_until_here, specialize
from rpython.rlib.objectmodel import not_rpython, CDefinedIntSymbolic

promote = jit_promote
promote_string = jit_promote_string
promote_unicode = jit_promote_unicode
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
    if condition:
        function(*args)
conditional_call._always_inline_ = 'try'


@specialize.call_location()
def conditional_call_elidable(value, function, *args):
    """`value` unless it is 0 or None, else `function(*args)` (a cache the JIT trusts)."""
    if we_are_jitted():
        jit_conditional_call_function(function)
    if isinstance(value, int):
        if value == 0:
            value = function(*args)
            assert isinstance(value, int)
    else:
        if value is None:
            value = function(*args)
    return value

virtual_ref = jit_virtual_ref
non_virtual_ref = jit_non_virtual_ref
virtual_ref_finish = jit_virtual_ref_finish
vref_None = non_virtual_ref(None)


class InvalidVirtualRef(Exception):
    """A virtual reference called after virtual_ref_finish (only the JIT checks it)."""


def loop_unrolling_heuristic(lst, size, cutoff=2):
    """Whether a loop over `lst` may be unrolled: without a JIT, only an empty one."""
    return size == 0 or isvirtual(lst) or (isconstant(size) and size <= cutoff)


def enter_portal_frame(unique_id):
    """Marks the start of a function for the JIT's profiler: nothing without a JIT."""


def leave_portal_frame():
    """Marks the end of a function for the JIT's profiler: nothing without a JIT."""


def set_param_to_default(driver, name):
    """Resets a tunable JIT parameter: nothing without a JIT."""


def elidable(func):
    """The function has no side effects and its result depends only on its arguments."""
    func._elidable_function_ = True
    return func


purefunction = elidable


def dont_look_inside(func):
    func._jit_look_inside_ = False
    return func


def look_inside(func):
    func._jit_look_inside_ = True
    return func


def unroll_safe(func):
    func._jit_unroll_safe_ = True
    return func


def loop_invariant(func):
    dont_look_inside(func)
    func._jit_loop_invariant_ = True
    return func


def elidable_promote(promote_args='all'):
    def decorator(func):
        elidable(func)
        func._jit_elidable_promote_ = promote_args
        return func
    return decorator


purefunction_promote = elidable_promote


def look_inside_iff(predicate):
    def inner(func):
        func._jit_look_inside_iff_ = predicate
        return func
    return inner


def oopspec(spec):
    def decorator(func):
        func.oopspec = spec
        return func
    return decorator


def not_in_trace(func):
    func.oopspec = 'jit.not_in_trace()'
    return func


def vectorize(func):
    return func


class JitHintError(Exception):
    """Inconsistency in the JIT hints."""


PARAMETERS = {'threshold': 1039,
              'function_threshold': 1619,
              'trace_eagerness': 200,
              'decay': 40,
              'trace_limit': 6000,
              'inlining': 1,
              'loop_longevity': 1000,
              'retrace_limit': 0,
              'max_retrace_guards': 15,
              'max_unroll_loops': 0,
              'disable_unrolling': 200,
              'enable_opts': 'all',
              'max_unroll_recursion': 7,
              'vec': 0,
              'vec_all': 0,
              'vec_cost': 0,
              }

# The parameters a user string may name (`enable_opts` is the one that is not a number).
_USER_INT_PARAMS = {}
for _name in PARAMETERS:
    if _name != 'enable_opts':
        _USER_INT_PARAMS[_name] = 0
del _name


class TraceLimitTooHigh(Exception):
    """A `trace_limit` above 2**14 given to set_user_param."""


def set_user_param(driver, text):
    """Parse the JIT parameters of a user string, 'name=value,...', 'off' or 'default'.
    Without a JIT the values are not kept, but the string is checked as the reference
    checks it: an unknown name, a part without one '=' or a value that is not an integer
    is ValueError, and a trace_limit above 2**14 is TraceLimitTooHigh."""
    if text == 'off' or text == 'default':
        return
    for s in text.split(','):
        s = s.strip(' ')
        parts = s.split('=')
        if len(parts) != 2:
            raise ValueError
        name = parts[0]
        value = parts[1]
        if name == 'enable_opts':
            continue
        if name not in _USER_INT_PARAMS:
            raise ValueError
        if name == 'trace_limit' and int(value) > 2**14:
            raise TraceLimitTooHigh
        int(value)


# One line of help for each parameter (interpreters print them for `--jit help`).
PARAMETER_DOCS = {
    'threshold': 'loop iterations before a loop is traced',
    'function_threshold': 'calls before a function is traced from its start',
    'trace_eagerness': 'guard failures before a bridge is traced',
    'decay': 'how fast the counters of loops and functions decay',
    'trace_limit': 'the longest trace, in operations, that is compiled',
    'inlining': 'whether functions are inlined into traces (0 or 1)',
    'loop_longevity': 'how long an unused compiled loop is kept',
    'retrace_limit': 'how many times a loop may be retraced',
    'max_retrace_guards': 'the most guards a retraced loop may have',
    'max_unroll_loops': 'the most times a loop is unrolled',
    'disable_unrolling': 'trace length beyond which loops are not unrolled',
    'enable_opts': 'the optimizations that are enabled, separated by colons',
    'max_unroll_recursion': 'how deep recursive calls are unrolled',
    'vec': 'whether loops are vectorized (0 or 1)',
    'vec_all': 'whether every trace is vectorized (0 or 1)',
    'vec_cost': 'the cost threshold of vectorization',
}

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
        if greens is None:
            greens = []
        self.greens = greens
        self.name = name
        if reds == 'auto':
            self.autoreds = True
            self.reds = []
            self.numreds = -1
        else:
            self.autoreds = False
            if reds is None:
                reds = []
            self.reds = reds
            self.numreds = len(reds)
        if virtualizables is not None:
            self.virtualizables = virtualizables
        self.get_printable_location = get_printable_location
        self.get_location = get_location
        self.get_unique_id = get_unique_id
        self.confirm_enter_jit = confirm_enter_jit
        self.can_never_inline = can_never_inline
        self.should_unroll_one_iteration = should_unroll_one_iteration
        self.check_untranslated = check_untranslated
        self.is_recursive = is_recursive
        self.vectorize = vectorize

    jit_merge_point = jit_JitDriver_jit_merge_point
    can_enter_jit = jit_JitDriver_can_enter_jit
    loop_header = jit_JitDriver_loop_header

    def _freeze_(self):
        return True
