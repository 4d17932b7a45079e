"""rpy-lsp's low-level helpers of numbers (see ll_str.py for how they are used): integers
to text (`str()`, `hex()`, `oct()`, `%d`/`%x`/`%o`) and back (`int(s, base)`), and
`min`/`max` of two values. Float formatting and parsing are external functions (C/Rust).
"""
from rpython.rtyper.lltypesystem.lltype import malloc
from rpython.rlib.objectmodel import specialize
from rpython.rlib.rarithmetic import r_uint, intmask
from __rpy_ll__.ll_str import STR


# ---- integers to text

def _dec_digits(mag):
    # the number of decimal digits of the r_uint mag
    n = 1
    while mag >= 10:
        mag = mag // 10
        n += 1
    return n


def _dec_fill(r, end, mag):
    # the decimal digits of mag written to r.chars, the last one at end - 1
    i = end - 1
    while True:
        r.chars[i] = chr(48 + intmask(mag % 10))
        mag = mag // 10
        if mag == 0:
            break
        i -= 1


def _magnitude(x):
    # |x| as an r_uint (exact for -sys.maxint-1 too)
    if x < 0:
        return r_uint(0) - r_uint(x)
    return r_uint(x)


def ll_int_str(x):
    """`str()` of a Signed."""
    mag = _magnitude(x)
    sign = 0
    if x < 0:
        sign = 1
    n = sign + _dec_digits(mag)
    r = malloc(STR, n)
    if sign:
        r.chars[0] = '-'
    _dec_fill(r, n, mag)
    return r


def ll_uint_str(x):
    """`str()` of an Unsigned."""
    n = _dec_digits(x)
    r = malloc(STR, n)
    _dec_fill(r, n, x)
    return r


def _radix_str(mag, negative, shift, prefix):
    # hex (shift 4) or oct (shift 3) of the r_uint mag: a sign if negative, then the
    # prefix ('0x' for hex, '0' for a non-zero oct) if asked for, then the digits
    mask = (1 << shift) - 1
    n = 1
    t = mag >> shift
    while t != 0:
        t = t >> shift
        n += 1
    head = 0
    if negative:
        head = 1
    if prefix:
        if shift == 4:
            head += 2
        elif mag != 0:
            head += 1
    r = malloc(STR, head + n)
    if negative:
        r.chars[0] = '-'
    if prefix and shift == 4:
        r.chars[head - 2] = '0'
        r.chars[head - 1] = 'x'
    elif prefix and mag != 0:
        r.chars[head - 1] = '0'
    i = head + n - 1
    while i >= head:
        d = intmask(mag) & mask
        if d < 10:
            r.chars[i] = chr(48 + d)
        else:
            r.chars[i] = chr(87 + d)
        mag = mag >> shift
        i -= 1
    return r


def ll_int_hex(x, prefix):
    """`hex(x)` (prefix True) and `'%x' % x`."""
    return _radix_str(_magnitude(x), x < 0, 4, prefix)


def ll_int_oct(x, prefix):
    """`oct(x)` (prefix True) and `'%o' % x`."""
    return _radix_str(_magnitude(x), x < 0, 3, prefix)


def ll_lllong_oct(x, prefix):
    """`oct(x)` and `'%o' % x` of an r_longlonglong: the reference's helper tests the
    128-bit value for zero, then writes the digits of the low 64 bits of its magnitude,
    none when those are 0 (a sign and the prefix only)."""
    mag = _magnitude(x)
    if x == 0 or mag != 0:
        return _radix_str(mag, x < 0, 3, prefix)
    n = 0
    if x < 0:
        n += 1
    if prefix:
        n += 1
    r = malloc(STR, n)
    if x < 0:
        r.chars[0] = '-'
    if prefix:
        r.chars[n - 1] = '0'
    return r


def ll_uint_hex(x, prefix):
    """`hex(x)` (prefix True) and `'%x' % x` of an Unsigned: its digits, never a sign."""
    return _radix_str(x, False, 4, prefix)


def ll_uint_oct(x, prefix):
    """`oct(x)` (prefix True) and `'%o' % x` of an Unsigned."""
    return _radix_str(x, False, 3, prefix)


# ---- text to integers

@specialize.ll()
def ll_str_to_int(s, base):
    """`int(s, base)` of a string or a unicode string as the reference's compiled
    programs read it: spaces (only ' ') around and between the sign and the digits,
    digits of the base (no 0x prefix); the value wraps around (no OverflowError);
    anything else is a ValueError."""
    if base < 2 or base > 36:
        raise ValueError
    n = len(s.chars)
    i = 0
    while i < n and ord(s.chars[i]) == 32:
        i += 1
    sign = 1
    if i < n and ord(s.chars[i]) == 45:
        sign = -1
        i += 1
    elif i < n and ord(s.chars[i]) == 43:
        i += 1
    while i < n and ord(s.chars[i]) == 32:
        i += 1
    start = i
    val = 0
    while i < n:
        c = ord(s.chars[i])
        if 97 <= c <= 122:
            d = c - 87
        elif 65 <= c <= 90:
            d = c - 55
        elif 48 <= c <= 57:
            d = c - 48
        else:
            break
        if d >= base:
            break
        val = intmask(r_uint(val) * r_uint(base) + r_uint(d))
        i += 1
    if i == start:
        raise ValueError
    while i < n and ord(s.chars[i]) == 32:
        i += 1
    if i != n:
        raise ValueError
    return intmask(r_uint(val) * r_uint(sign))



# ---- min and max

@specialize.ll()
def ll_max(a, b):
    """`max(a, b)` of two numbers or characters. On a tie (0.0 and -0.0) or a NaN the
    second one, as the compiled binaries (not Python, which keeps the first)."""
    if a > b:
        return a
    return b


@specialize.ll()
def ll_min(a, b):
    if a < b:
        return a
    return b


# ---- chr() and unichr() under a ValueError handler

def ll_check_chr(n):
    """The range check `chr(n)` makes when a handler catches its ValueError."""
    if n < 0 or n > 255:
        raise ValueError


def ll_check_unichr(n):
    """The range check of `unichr(n)` under a ValueError handler (0 to 0x10FFFF)."""
    if n < 0 or n > 0x10FFFF:
        raise ValueError
