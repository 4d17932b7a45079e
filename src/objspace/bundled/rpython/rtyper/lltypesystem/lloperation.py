"""rpy-lsp's model of `rpython.rtyper.lltypesystem.lloperation`: `llop`.

`llop.NAME(RESULTTYPE, args...)` emits one low-level operation directly. Interpreters use
the integer ones for C semantics (`llop.int_mod`: the remainder has the sign of the
dividend, as C's `%`). Each is written here in RPython with the same result; `llop` is a
frozen object, so `int_mod = llop.int_mod` at import time is a method bound to it.
Operations not written here are simply absent (the program then uses what rpy-lsp does
not model).
"""
import os
from rpython.rlib.objectmodel import specialize
from rpython.rlib.debug import fatalerror_notb, debug_print as _debug_print
from rpython.rlib.rarithmetic import r_uint, intmask


class _LLOp(object):
    def _freeze_(self):
        return True

    @specialize.ll()
    def int_mod(self, RESULTTYPE, x, y):
        # Python's % has the sign of the divisor; C's that of the dividend
        r = x % y
        if r != 0 and (x < 0) != (y < 0):
            r -= y
        return r

    @specialize.ll()
    def int_floordiv(self, RESULTTYPE, x, y):
        # C division truncates toward zero
        q = x // y
        if q < 0 and q * y != x:
            q += 1
        return q

    # the word operations, which wrap in C as RPython's int operations do
    @specialize.ll()
    def int_add(self, RESULTTYPE, x, y):
        return x + y

    @specialize.ll()
    def int_sub(self, RESULTTYPE, x, y):
        return x - y

    @specialize.ll()
    def int_mul(self, RESULTTYPE, x, y):
        return x * y

    @specialize.ll()
    def int_neg(self, RESULTTYPE, x):
        return -x

    @specialize.ll()
    def int_lt(self, RESULTTYPE, x, y):
        return x < y

    @specialize.ll()
    def int_le(self, RESULTTYPE, x, y):
        return x <= y

    @specialize.ll()
    def int_eq(self, RESULTTYPE, x, y):
        return x == y

    @specialize.ll()
    def int_ne(self, RESULTTYPE, x, y):
        return x != y

    @specialize.ll()
    def int_gt(self, RESULTTYPE, x, y):
        return x > y

    @specialize.ll()
    def int_ge(self, RESULTTYPE, x, y):
        return x >= y

    @specialize.ll()
    def int_and(self, RESULTTYPE, x, y):
        return x & y

    @specialize.ll()
    def int_or(self, RESULTTYPE, x, y):
        return x | y

    @specialize.ll()
    def int_xor(self, RESULTTYPE, x, y):
        return x ^ y

    @specialize.ll()
    def int_lshift(self, RESULTTYPE, x, y):
        return x << y

    @specialize.ll()
    def int_rshift(self, RESULTTYPE, x, y):
        return x >> y

    @specialize.ll()
    def int_invert(self, RESULTTYPE, x):
        return ~x

    @specialize.ll()
    def int_abs(self, RESULTTYPE, x):
        # C's labs: abs(-maxint-1) wraps to itself, as RPython's abs() of an int does
        return abs(x)

    @specialize.ll()
    def int_force_ge_zero(self, RESULTTYPE, x):
        if x < 0:
            return 0
        return x

    @specialize.ll()
    def int_is_true(self, RESULTTYPE, x):
        return x != 0

    @specialize.ll()
    def int_between(self, RESULTTYPE, a, x, b):
        return a <= x < b

    # Unsigned words: the arguments are r_uint already (or Signed, which C converts);
    # r_uint() makes the model's arithmetic the unsigned one either way
    @specialize.ll()
    def uint_add(self, RESULTTYPE, x, y):
        return r_uint(x) + r_uint(y)

    @specialize.ll()
    def uint_sub(self, RESULTTYPE, x, y):
        return r_uint(x) - r_uint(y)

    @specialize.ll()
    def uint_mul(self, RESULTTYPE, x, y):
        return r_uint(x) * r_uint(y)

    @specialize.ll()
    def uint_floordiv(self, RESULTTYPE, x, y):
        return r_uint(x) // r_uint(y)

    @specialize.ll()
    def uint_mod(self, RESULTTYPE, x, y):
        return r_uint(x) % r_uint(y)

    @specialize.ll()
    def uint_and(self, RESULTTYPE, x, y):
        return r_uint(x) & r_uint(y)

    @specialize.ll()
    def uint_or(self, RESULTTYPE, x, y):
        return r_uint(x) | r_uint(y)

    @specialize.ll()
    def uint_xor(self, RESULTTYPE, x, y):
        return r_uint(x) ^ r_uint(y)

    @specialize.ll()
    def uint_invert(self, RESULTTYPE, x):
        return ~r_uint(x)

    @specialize.ll()
    def uint_lshift(self, RESULTTYPE, x, y):
        return r_uint(x) << y

    @specialize.ll()
    def uint_rshift(self, RESULTTYPE, x, y):
        return r_uint(x) >> y

    @specialize.ll()
    def uint_is_true(self, RESULTTYPE, x):
        return r_uint(x) != r_uint(0)

    @specialize.ll()
    def uint_lt(self, RESULTTYPE, x, y):
        return r_uint(x) < r_uint(y)

    @specialize.ll()
    def uint_le(self, RESULTTYPE, x, y):
        return r_uint(x) <= r_uint(y)

    @specialize.ll()
    def uint_eq(self, RESULTTYPE, x, y):
        return r_uint(x) == r_uint(y)

    @specialize.ll()
    def uint_ne(self, RESULTTYPE, x, y):
        return r_uint(x) != r_uint(y)

    @specialize.ll()
    def uint_gt(self, RESULTTYPE, x, y):
        return r_uint(x) > r_uint(y)

    @specialize.ll()
    def uint_ge(self, RESULTTYPE, x, y):
        return r_uint(x) >= r_uint(y)

    # casts between the word types: the bits are kept
    @specialize.ll()
    def cast_int_to_uint(self, RESULTTYPE, x):
        return r_uint(x)

    @specialize.ll()
    def cast_uint_to_int(self, RESULTTYPE, x):
        return intmask(x)

    @specialize.ll()
    def cast_bool_to_int(self, RESULTTYPE, x):
        if x:
            return 1
        return 0

    @specialize.ll()
    def cast_char_to_int(self, RESULTTYPE, c):
        return ord(c)

    @specialize.ll()
    def cast_int_to_float(self, RESULTTYPE, x):
        return float(x)

    @specialize.ll()
    def cast_float_to_int(self, RESULTTYPE, x):
        # C's (long) conversion truncates toward zero, as RPython's int() of a float
        return int(x)

    @specialize.ll()
    def cast_int_to_char(self, RESULTTYPE, x):
        # C's (char) keeps the low byte
        return chr(x & 0xff)

    @specialize.ll()
    def cast_unichar_to_int(self, RESULTTYPE, c):
        return ord(c)

    @specialize.ll()
    def cast_int_to_unichar(self, RESULTTYPE, x):
        return unichr(x)

    # characters compare as unsigned bytes, as RPython's comparisons of chars do
    @specialize.ll()
    def char_lt(self, RESULTTYPE, a, b):
        return a < b

    @specialize.ll()
    def char_le(self, RESULTTYPE, a, b):
        return a <= b

    @specialize.ll()
    def char_eq(self, RESULTTYPE, a, b):
        return a == b

    @specialize.ll()
    def char_ne(self, RESULTTYPE, a, b):
        return a != b

    @specialize.ll()
    def char_gt(self, RESULTTYPE, a, b):
        return a > b

    @specialize.ll()
    def char_ge(self, RESULTTYPE, a, b):
        return a >= b

    @specialize.ll()
    def unichar_eq(self, RESULTTYPE, a, b):
        return a == b

    @specialize.ll()
    def unichar_ne(self, RESULTTYPE, a, b):
        return a != b

    # doubles: IEEE arithmetic as RPython's float operations
    @specialize.ll()
    def float_add(self, RESULTTYPE, x, y):
        return x + y

    @specialize.ll()
    def float_sub(self, RESULTTYPE, x, y):
        return x - y

    @specialize.ll()
    def float_mul(self, RESULTTYPE, x, y):
        return x * y

    @specialize.ll()
    def float_neg(self, RESULTTYPE, x):
        return -x

    @specialize.ll()
    def float_abs(self, RESULTTYPE, x):
        return abs(x)

    @specialize.ll()
    def float_is_true(self, RESULTTYPE, x):
        return x != 0.0

    @specialize.ll()
    def float_lt(self, RESULTTYPE, x, y):
        return x < y

    @specialize.ll()
    def float_le(self, RESULTTYPE, x, y):
        return x <= y

    @specialize.ll()
    def float_eq(self, RESULTTYPE, x, y):
        return x == y

    @specialize.ll()
    def float_ne(self, RESULTTYPE, x, y):
        return x != y

    @specialize.ll()
    def float_gt(self, RESULTTYPE, x, y):
        return x > y

    @specialize.ll()
    def float_ge(self, RESULTTYPE, x, y):
        return x >= y

    def debug_print(self, RESULTTYPE, *args):
        # rlib.debug's: stderr outside a debug_start/debug_stop section
        _debug_print(*args)

    def debug_fatalerror(self, RESULTTYPE, msg):
        # the message and a newline on stderr, then abort (no traceback header)
        fatalerror_notb(msg)

    def debug_print_traceback(self, RESULTTYPE):
        # The binary prints the C locations of the exception being handled after this
        # header; they name the generated C, which rpy-lsp does not reproduce.
        os.write(2, "RPython traceback:\n")


llop = _LLOp()
