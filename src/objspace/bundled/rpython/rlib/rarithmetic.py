"""rpy-lsp's model of `rpython.rlib.rarithmetic`: machine integers.

`r_uint`, `r_int`, `r_longlong` and `r_ulonglong` are built-in classes of rpy-lsp whose
arithmetic wraps around like C integers; `intmask`, `ovfcheck` and friends are primitives
(builtins named `rarithmetic.<name>`).
"""
from __rpy__ import rarithmetic_intmask, rarithmetic_ovfcheck, rarithmetic_widen
from __rpy__ import rarithmetic_is_valid_int, rarithmetic_longlongmask
from __rpy__ import rarithmetic_r_uint, rarithmetic_r_int, rarithmetic_r_longlong
from __rpy__ import rarithmetic_r_ulonglong, rarithmetic_r_singlefloat
from __rpy__ import rarithmetic_r_longlonglong

# names of newer rpythons that 0.2.1's module lacks: `rarithmetic.<name>` is an error there
_rpy_absent_ = ("get_int", "mulmod")
from __rpy__ import rarithmetic_r_int32, rarithmetic_r_uint32, rarithmetic_r_int16
from __rpy__ import rarithmetic_r_uint16, rarithmetic_r_int8, rarithmetic_r_uint8
from rpython.rlib.objectmodel import specialize, we_are_translated

LONG_BIT = 64
LONG_MASK = (2 ** LONG_BIT) - 1
LONG_TEST = 2 ** (LONG_BIT - 1)
LONGLONG_BIT = 64
LONGLONG_MASK = (2 ** LONGLONG_BIT) - 1
LONGLONG_TEST = 2 ** (LONGLONG_BIT - 1)
LONGLONGLONG_BIT = 128
LONG_BIT_SHIFT = 6
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


def ovfcheck_float_to_longlong(x):
    if x != x:
        raise OverflowError
    if -9223372036854775808.0 <= x < 9223372036854775808.0:
        return r_longlong(x)
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


def _digit_value(c):
    """The value of digit character c in any base up to 36, or 36 for a non-digit."""
    if '0' <= c <= '9':
        return ord(c) - ord('0')
    if 'a' <= c <= 'z':
        return ord(c) - ord('a') + 10
    if 'A' <= c <= 'Z':
        return ord(c) - ord('A') + 10
    return 36


def _strip_whitespace(s, start, stop):
    while start < stop and s[start] in ' \f\n\r\t\v':
        start += 1
    while stop > start and s[stop - 1] in ' \f\n\r\t\v':
        stop -= 1
    return start, stop


def string_to_int(s, base=10):
    """s as a machine integer: surrounding whitespace, a sign, a base prefix (base 0
    guesses the base from it). ParseStringError for anything else, and
    ParseStringOverflowError when the value does not fit in a Signed (real programs fall
    back to rbigint then)."""
    from rpython.rlib.rstring import ParseStringError, ParseStringOverflowError
    from rpython.rlib.rstring import InvalidBaseError
    original_base = base
    start, stop = _strip_whitespace(s, 0, len(s))
    sign = 1
    if start < stop and (s[start] == '-' or s[start] == '+'):
        if s[start] == '-':
            sign = -1
        start, stop = _strip_whitespace(s, start + 1, stop)
    prefix = ''
    if stop - start >= 2 and s[start] == '0':
        prefix = s[start + 1].lower()
    if base == 0:
        if prefix == 'x':
            base = 16
        elif prefix == 'b':
            base = 2
        elif stop - start >= 1 and s[start] == '0':
            base = 8
        else:
            base = 10
    elif base < 2 or base > 36:
        raise InvalidBaseError("int() base must be >= 2 and <= 36")
    if (base == 16 and prefix == 'x') or (base == 8 and prefix == 'o') or \
            (base == 2 and prefix == 'b'):
        start += 2
    if start >= stop:
        raise ParseStringError("invalid literal for int() with base %d" % original_base)
    result = 0
    i = start
    while i < stop:
        digit = _digit_value(s[i])
        if digit >= base:
            raise ParseStringError("invalid literal for int() with base %d" %
                                   original_base)
        try:
            result = ovfcheck(result * base)
            result = ovfcheck(result + sign * digit)
        except OverflowError:
            raise ParseStringOverflowError(None)
        i += 1
    return result


@specialize.argtype(0)
def most_neg_value_of_same_type(x):
    """The lowest value of x's integer type (0 for the unsigned ones), of that type; for
    a machine word (`int`, and `r_longlong`, which is `r_int` on a 64-bit machine) the
    plain int, a constant, as the reference's memo on `typeOf(x)` (Signed) gives it."""
    if isinstance(x, r_longlong) or isinstance(x, int):
        return -9223372036854775807 - 1
    zero = x & 0
    ones = ~zero
    if ones < zero:
        # signed: only the top bit set (these types are all 64 bits wide)
        return ones << 63
    return zero


@specialize.argtype(0)
def most_pos_value_of_same_type(x):
    """The highest value of x's integer type (all bits set for the unsigned ones); a
    machine word's is the plain int, as for `most_neg_value_of_same_type`."""
    if isinstance(x, r_longlong) or isinstance(x, int):
        return 9223372036854775807
    zero = x & 0
    ones = ~zero
    if ones < zero:
        return ~(ones << 63)
    return ones


def _int_class_of_lltype(tp):
    """(the integer class, its bits, whether signed) of a low-level integer type."""
    from rpython.rtyper.lltypesystem import lltype
    if tp is lltype.Unsigned:
        return r_uint, 64, False
    if tp is lltype.SignedLongLong:
        return r_longlong, 64, True
    if tp is lltype.UnsignedLongLong:
        return r_ulonglong, 64, False
    return _NARROW[tp.signed, tp.bits], tp.bits, tp.signed


@specialize.memo()
def most_neg_value_of(tp):
    """The lowest value of the low-level integer type `tp`, of its class (a plain int
    for Signed)."""
    from rpython.rtyper.lltypesystem import lltype
    if tp is lltype.Signed:
        return -9223372036854775807 - 1
    cls, bits, signed = _int_class_of_lltype(tp)
    if signed:
        return cls(-(1 << (bits - 1)))
    return cls(0)


@specialize.memo()
def most_pos_value_of(tp):
    """The highest value of the low-level integer type `tp`, of its class."""
    from rpython.rtyper.lltypesystem import lltype
    if tp is lltype.Signed:
        return 9223372036854775807
    cls, bits, signed = _int_class_of_lltype(tp)
    if signed:
        return cls((1 << (bits - 1)) - 1)
    return cls((1 << bits) - 1)


def normalizedinttype(t):
    return t


def is_signed_integer_type(tp):
    return tp is int or tp is r_int or tp is r_longlong


def mulmod(a, b, c):
    return (a * b) % c


@specialize.argtype(0)
def _byteswap_word(x):
    """The 8 bytes of the word-sized integer x in the opposite order, in x's own type
    (the 8 low bytes are taken one at a time, so the sign bits a signed shift brings in
    are never used)."""
    res = x & 0
    i = 0
    while i < 8:
        res = (res << 8) | (x & 0xFF)
        x = x >> 8
        i += 1
    return res


@specialize.ll()
def byteswap(arg):
    """Little <-> big endian of a word-sized integer, or of the 8 bytes of a float (one
    version per low-level type, as the reference's)."""
    if isinstance(arg, float):
        from rpython.rlib.longlong2float import float2longlong, longlong2float
        return longlong2float(_byteswap_word(float2longlong(arg)))
    return _byteswap_word(arg)


# the 128-bit signed integer (`SignedLongLongLong`, C's __int128_t)
r_longlonglong = rarithmetic_r_longlonglong


longlongmax = r_longlong(LONGLONG_TEST - 1)


def longlonglongmask(n):
    return r_longlonglong(n)


def int_c_div(x, y):
    """C's `x / y`: the quotient rounded towards zero (Python's `//` floors)."""
    q = x // y
    if x % y != 0 and (x < 0) != (y < 0):
        q += 1
    return q


def int_c_mod(x, y):
    """C's `x % y`: the remainder has the sign of `x`."""
    return x - int_c_div(x, y) * y


def int_force_ge_zero(n):
    if n < 0:
        return 0
    return n


# Arithmetic on values that fit a C int (32 bits), with OverflowError when the result
# does not.
def _int32_checked(z):
    if z < INT_MIN or z > INT_MAX:
        raise OverflowError
    return z


def ovfcheck_int32_add(x, y):
    return _int32_checked(x + y)


def ovfcheck_int32_sub(x, y):
    return _int32_checked(x - y)


def ovfcheck_int32_mul(x, y):
    return _int32_checked(x * y)


# the integer classes of a 64-bit machine narrower than a word (those of C's int, short
# and signed char): values wrap at their size, and the toolchain refuses arithmetic on them
r_int32 = rarithmetic_r_int32
r_uint32 = rarithmetic_r_uint32
_NARROW = {(True, 32): r_int32, (False, 32): r_uint32,
           (True, 16): rarithmetic_r_int16, (False, 16): rarithmetic_r_uint16,
           (True, 8): rarithmetic_r_int8, (False, 8): rarithmetic_r_uint8}


# The reference's modules whose import leaves rffi unimported (each imported alone by
# rpython 0.2.1 under CPython 2.7, which then lists no rpython.rtyper.lltypesystem.rffi in
# sys.modules), and the packages above them. The 8- and 16-bit integer types are made by
# rffi's import: while only these modules are imported there is no predefined one.
_NO_RFFI = frozenset([
    'rpython', 'rpython.rlib', 'rpython.rtyper', 'rpython.rtyper.lltypesystem',
    'rpython.rtyper.tool', 'rpython.translator', 'rpython.translator.tool',
    'rpython.rtyper.lltypesystem.lltype', 'rpython.rtyper.lltypesystem.llmemory',
    'rpython.rtyper.lltypesystem.lloperation', 'rpython.rtyper.lltypesystem.rstr',
    'rpython.rtyper.annlowlevel', 'rpython.rtyper.extregistry',
    'rpython.rlib._jit_vref', 'rpython.rlib._rweakkeydict', 'rpython.rlib._rweakvaldict',
    'rpython.rlib.cache', 'rpython.rlib.exports', 'rpython.rlib.jit',
    'rpython.rlib.jit_hooks', 'rpython.rlib.listsort', 'rpython.rlib.nonconst',
    'rpython.rlib.objectmodel', 'rpython.rlib.rStringIO', 'rpython.rlib.rarithmetic',
    'rpython.rlib.rbisect', 'rpython.rlib.rgc', 'rpython.rlib.rope', 'rpython.rlib.rrandom',
    'rpython.rlib.rrawarray', 'rpython.rlib.rshrinklist', 'rpython.rlib.rstackovf',
    'rpython.rlib.rstring', 'rpython.rlib.rweaklist', 'rpython.rlib.rweakref',
    'rpython.rlib.signature', 'rpython.rlib.types', 'rpython.rlib.unroll'])


def _rffi_may_be_imported():
    """Whether a module imported so far is one whose import (may) import rffi: any other
    rpython module than those of `_NO_RFFI`."""
    import sys
    for k in sys.modules.keys():
        if (k == 'rpython' or k.startswith('rpython.')) and k not in _NO_RFFI:
            return True
    return False


def build_int(name, sign, bits, force_creation=False):
    """The machine integer class of a sign and a size (one class per sign and size, as
    the toolchain's: build_int('x', True, 32) is r_int32). Without a name, the class
    must exist already: the 8- and 16-bit ones only once rffi is imported."""
    if bits > 64:
        return r_longlonglong
    if bits == LONG_BIT:
        if sign:
            return r_int
        return r_uint
    if (name is None and bits < 32 and not force_creation
            and not _rffi_may_be_imported()):
        raise TypeError('No predefined %sint%d' % (['u', ''][bool(sign)], bits))
    return _NARROW[bool(sign), bits]


def get_int(name):
    return r_int


@specialize.argtype(0)
def is_valid_int(r):
    """Translated, whether `r` is a plain (signed machine) int: the annotator answers it
    from the type, so it is a constant; at import time, whether `r` is an integer in
    the range of one (the primitive)."""
    if we_are_translated():
        return isinstance(r, int)
    return rarithmetic_is_valid_int(r)
