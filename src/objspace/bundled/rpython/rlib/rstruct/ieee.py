"""rpy-lsp's model of `rpython.rlib.rstruct.ieee`, written in RPython: floats to and from
the bits of the IEEE 754 binary formats of 2, 4 and 8 bytes.

`float_pack(x, size)` gives the bits as an `r_ulonglong` (rounding half to even, raising
OverflowError when a finite value is too large for the format), `float_unpack(bits,
size)` the float; `pack_float(wbuf, pos, x, size, be)` writes the bytes into a buffer with
`setitem` (big-endian when `be`), `unpack_float(s, be)` reads them from a string.
"""
import math
from rpython.rlib.rarithmetic import r_ulonglong, intmask, longlongmask
from rpython.rlib.rfloat import isinf, isnan, copysign
from rpython.rlib.objectmodel import _rpy_argkinds

INFINITY = 1e200 * 1e200
NAN = INFINITY / INFINITY


def _mant_dig(size):
    # digits of the significand, its implicit leading 1 included
    if size == 8:
        return 53
    if size == 4:
        return 24
    if size == 2:
        return 11
    raise ValueError("invalid size value")


def _min_exp(size):
    # the smallest exponent e of a normal number 0.5 * 2**e, as C's FLT_MIN_EXP
    if size == 8:
        return -1021
    if size == 4:
        return -125
    if size == 2:
        return -13
    raise ValueError("invalid size value")


def _exp_all_ones(size):
    # the biased exponent of infinities and NaNs
    bits = size * 8 - _mant_dig(size)
    return (1 << bits) - 1


def _round_half_even(x):
    i = int(x)
    rest = x - float(i)
    if rest > 0.5 or (rest == 0.5 and i & 1):
        i += 1
    return i


# the reference shifts and masks Q as it is: an integer of any kind, not a float
@_rpy_argkinds('integer', None)
def float_unpack(Q, size):
    mant_dig = _mant_dig(size)
    min_exp = _min_exp(size)
    bits = size * 8
    Q = r_ulonglong(Q)
    one = r_ulonglong(1)
    mant = intmask(Q & ((one << (mant_dig - 1)) - one))
    exp = intmask((Q >> (mant_dig - 1)) & ((one << (bits - mant_dig)) - one))
    negative = intmask((Q >> (bits - 1)) & one)
    if exp == _exp_all_ones(size):
        if mant == 0:
            result = INFINITY
        else:
            result = NAN
    elif exp == 0:
        result = math.ldexp(float(mant), min_exp - mant_dig)
    else:
        mant += 1 << (mant_dig - 1)
        result = math.ldexp(float(mant), exp + min_exp - mant_dig - 1)
    if negative:
        return -result
    return result


def float_pack(x, size):
    mant_dig = _mant_dig(size)
    min_exp = _min_exp(size)
    bits = size * 8
    top = _exp_all_ones(size)
    if isnan(x):
        negative = copysign(1.0, x) < 0.0
        exp = top
        mant = 1 << (mant_dig - 2)
    elif isinf(x):
        negative = x < 0.0
        exp = top
        mant = 0
    elif x == 0.0:
        negative = copysign(1.0, x) < 0.0
        exp = 0
        mant = 0
    else:
        negative = x < 0.0
        m, e = math.frexp(abs(x))
        if e < min_exp:
            # a subnormal number: mant * 2**(min_exp - mant_dig)
            exp = 0
            mant = _round_half_even(math.ldexp(m, e - min_exp + mant_dig))
        else:
            exp = e - min_exp + 1
            mant = _round_half_even(math.ldexp(m, mant_dig))
            if mant == 1 << mant_dig:
                mant = 1 << (mant_dig - 1)
                exp += 1
            mant -= 1 << (mant_dig - 1)
        if exp >= top:
            raise OverflowError("float too large to pack in this format")
    result = (r_ulonglong(exp) << (mant_dig - 1)) | r_ulonglong(mant)
    if negative:
        result |= r_ulonglong(1) << (bits - 1)
    return result


def pack_float(wbuf, pos, x, size, be):
    value = longlongmask(float_pack(x, size))
    for i in range(size):
        c = chr(intmask((value >> (i * 8)) & 0xFF))
        if be:
            wbuf.setitem(pos + size - i - 1, c)
        else:
            wbuf.setitem(pos + i, c)


def unpack_float(s, be):
    n = len(s)
    unsigned = r_ulonglong(0)
    for i in range(min(n, 8)):
        if be:
            c = ord(s[n - i - 1])
        else:
            c = ord(s[i])
        unsigned |= r_ulonglong(c) << (i * 8)
    return float_unpack(unsigned, n)
