"""rpy-lsp's model of `rpython.rlib.rarithmetic`: machine integers.

`r_uint`, `r_int`, `r_longlong` and `r_ulonglong` are built-in classes of rpy-lsp whose
arithmetic wraps around like C integers; `intmask`, `ovfcheck` and friends are primitives
(builtins named `rarithmetic.<name>`).
"""
from __rpy__ import rarithmetic_intmask, rarithmetic_ovfcheck, rarithmetic_widen
from __rpy__ import rarithmetic_is_valid_int, rarithmetic_longlongmask
from __rpy__ import rarithmetic_r_uint, rarithmetic_r_int, rarithmetic_r_longlong
from __rpy__ import rarithmetic_r_ulonglong, rarithmetic_r_singlefloat

LONG_BIT = 64
LONG_MASK = (2 ** LONG_BIT) - 1
LONG_TEST = 2 ** (LONG_BIT - 1)
LONGLONG_BIT = 64
LONGLONG_MASK = (2 ** LONGLONG_BIT) - 1
LONGLONG_TEST = 2 ** (LONGLONG_BIT - 1)
LONGLONGLONG_BIT = 128
INT_MAX = 2147483647
INT_MIN = -2147483648
UINT_MAX = 4294967295
maxint = 9223372036854775807
SHRT_MIN = -32768
SHRT_MAX = 32767
USHRT_MAX = 65535

intmask = rarithmetic_intmask
ovfcheck = rarithmetic_ovfcheck
widen = rarithmetic_widen
is_valid_int = rarithmetic_is_valid_int
longlongmask = rarithmetic_longlongmask

r_uint = rarithmetic_r_uint
r_int = rarithmetic_r_int
r_longlong = rarithmetic_r_longlong
r_ulonglong = rarithmetic_r_ulonglong
r_int64 = int  # on a 64-bit machine, as the reference
r_uint64 = rarithmetic_r_uint
r_singlefloat = rarithmetic_r_singlefloat
r_longfloat = float


def ovfcheck_float_to_int(x):
    if x != x:
        raise OverflowError
    if -9223372036854775808.0 <= x < 9223372036854775808.0:
        return int(x)
    raise OverflowError


def int_between(n, m, p):
    """True if n <= m < p."""
    return n <= m < p


def highest_bit(n):
    """The index of the highest bit set in n (n must be a positive power of two)."""
    assert n > 0
    i = -1
    while n:
        i += 1
        n >>= 1
    return i


def string_to_int(s, base=10):
    return int(s, base)


def most_neg_value_of_same_type(x):
    return -9223372036854775807 - 1


def most_pos_value_of_same_type(x):
    return 9223372036854775807


def normalizedinttype(t):
    return t


def is_signed_integer_type(tp):
    return tp is int or tp is r_int or tp is r_longlong


def mulmod(a, b, c):
    return (a * b) % c


def byteswap(arg):
    return arg


r_longlonglong = r_longlong


def build_int(name, sign, bits, force_creation=False):
    """The machine integer type of a sign and a size (the predefined ones; the narrower
    C types are modelled by the word-sized type of the same sign)."""
    if bits > 64:
        return r_longlonglong
    if sign:
        if bits == LONG_BIT:
            return r_int
        return r_longlong
    if bits == LONG_BIT:
        return r_uint
    return r_ulonglong


def get_int(name):
    return r_int

