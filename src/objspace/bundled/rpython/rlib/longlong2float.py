"""rpy-lsp's model of `rpython.rlib.longlong2float`, written in RPython: the bits of a
float as a signed 64-bit integer and back (primitives: the memory casts of the reference,
which keep NaN payloads), and the 32 bits of a single-precision float (an `r_singlefloat`,
which rpy-lsp keeps as the double of the same value) as an `rffi.UINT` and back, computed
from the IEEE 754 layouts: a single converts to a double exactly, a NaN keeping its sign
and the high bits of its payload, as the machine's conversions do. The integer side of
the doubles is `r_int64`, which on a 64-bit machine is `int` (Signed), as in the
reference."""
import math
from __rpy__ import longlong2float_float2longlong, longlong2float_longlong2float
from rpython.rlib.rarithmetic import intmask, r_singlefloat
from rpython.rlib.signature import signature
from rpython.rlib import types
from rpython.rtyper.lltypesystem import rffi

float2longlong = longlong2float_float2longlong


# the reference asserts that the argument is an r_int64 (`int` here): an r_longlong (a
# distinct class, r_int) is refused
@signature(types.int(), returns=types.float())
def longlong2float(llval):
    return longlong2float_longlong2float(llval)

_MININT = -9223372036854775807 - 1


def uint2singlefloat(ival):
    bits = intmask(ival) & 0xffffffff
    exponent = (bits >> 23) & 0xff
    mantissa = bits & 0x7fffff
    if exponent == 0xff:
        # infinities and NaNs: the double of the same sign, the payload in its high bits
        # (quiet, as the conversion makes it)
        dbits = (0x7ff << 52) | (mantissa << 29)
        if mantissa != 0:
            dbits |= 1 << 51
        if bits >> 31:
            dbits += _MININT
        return r_singlefloat(longlong2float(dbits))
    if exponent == 0:
        result = math.ldexp(float(mantissa), -149)
    else:
        result = math.ldexp(float(mantissa | (1 << 23)), exponent - 150)
    if bits >> 31:
        result = -result
    return r_singlefloat(result)


def singlefloat2uint(singlefloatval):
    x = float(singlefloatval)
    dbits = float2longlong(x)
    sign = 0
    if dbits < 0:
        sign = 1 << 31
    if math.isnan(x):
        return rffi.cast(rffi.UINT, sign | 0x7fc00000 | ((dbits >> 29) & 0x7fffff))
    ax = abs(x)
    if math.isinf(ax):
        return rffi.cast(rffi.UINT, sign | 0x7f800000)
    if ax == 0.0:
        return rffi.cast(rffi.UINT, sign)
    m, e = math.frexp(ax)
    exponent = e + 126
    if exponent <= 0:
        bits = int(math.ldexp(ax, 149))
    else:
        bits = (exponent << 23) | int(math.ldexp(m * 2.0 - 1.0, 23))
    return rffi.cast(rffi.UINT, sign | bits)


def uint2singlefloat_emulator(ival):
    return uint2singlefloat(ival)


def singlefloat2uint_emulator(singlefloatval):
    return singlefloat2uint(singlefloatval)


def encode_int32_into_longlong_nan(value):
    return (0x7ff80000 << 32) | (value & 0xffffffff)


def decode_int32_from_longlong_nan(value):
    return int(value & 0xffffffff)


def is_int32_from_longlong_nan(value):
    return (value >> 32) == 0x7ff80000


def can_encode_int32(value):
    return True


def can_encode_float(value):
    return (float2longlong(value) >> 32) != 0x7ff80000


def maybe_decode_longlong_as_float(value):
    if is_int32_from_longlong_nan(value):
        return float(decode_int32_from_longlong_nan(value))
    return longlong2float(value)
