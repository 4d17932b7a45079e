"""rpy-lsp's model of `rpython.rlib.longlong2float`, written in RPython: the bits of a
float as a signed 64-bit integer and back, computed from the IEEE 754 layout with frexp and
ldexp instead of the reference's memory casts. The integer side is `r_int64`, which on a
64-bit machine is `int` (Signed), as in the reference."""
import math
from rpython.rlib.signature import signature
from rpython.rlib import types

_MANT_BITS = 52
_MANT_MASK = (1 << _MANT_BITS) - 1
_EXP_MASK = 0x7ff
_MININT = -9223372036854775807 - 1
_MAXINT = 9223372036854775807


def float2longlong(floatval):
    if math.isnan(floatval):
        return 0x7ff8000000000000
    negative = floatval < 0.0 or (floatval == 0.0 and math.copysign(1.0, floatval) < 0.0)
    ax = abs(floatval)
    if math.isinf(ax):
        bits = _EXP_MASK << _MANT_BITS
    elif ax == 0.0:
        bits = 0
    else:
        m, e = math.frexp(ax)
        exponent = e + 1022
        if exponent <= 0:
            bits = int(math.ldexp(ax, 1074))
        else:
            bits = (exponent << _MANT_BITS) | int(math.ldexp(m * 2.0 - 1.0, _MANT_BITS))
    if negative:
        bits += _MININT
    return bits


# the reference asserts that the argument is an r_int64 (`int` here): an r_longlong (a
# distinct class, r_int) is refused
@signature(types.int(), returns=types.float())
def longlong2float(llval):
    v = int(llval)
    negative = v < 0
    bits = v & _MAXINT
    exponent = bits >> _MANT_BITS
    mantissa = bits & _MANT_MASK
    if exponent == _EXP_MASK:
        if mantissa != 0:
            nan = (1e200 * 1e200) - (1e200 * 1e200)
            return math.copysign(nan, -1.0 if negative else 1.0)
        result = 1e200 * 1e200
    elif exponent == 0:
        result = math.ldexp(float(mantissa), -1074)
    else:
        result = math.ldexp(float(mantissa | (1 << _MANT_BITS)), exponent - 1075)
    if negative:
        return -result
    return result


def uint2singlefloat_emulator(ival):
    return float(ival)


def singlefloat2uint_emulator(singlefloatval):
    return int(singlefloatval)


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
