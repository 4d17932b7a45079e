"""rpy-lsp's model of `rpython.rlib.rfloat`: float constants and helpers, written in
RPython with the real signatures and result types (formatd is dtoa's formatting)."""
import math
from __rpy__ import rfloat_formatd
from math import isinf, isnan, copysign, log1p, acosh, asinh, atanh, expm1
from rpython.rlib.objectmodel import enforceargs

INFINITY = 1e200 * 1e200
# a positive NaN, as the reference's (the machine's inf - inf is negative on x86-64)
NAN = abs(INFINITY - INFINITY)

DTSF_STR_PRECISION = 12
DTSF_SIGN = 0x1
DTSF_ADD_DOT_0 = 0x2
DTSF_ALT = 0x4
DTSF_CUT_EXP_0 = 0x8

DIST_FINITE = 1
DIST_NAN = 2
DIST_INFINITY = 3

# float.h of the x86-64 host the reference configures itself on
DBL_MAX = 1.7976931348623157e308
DBL_MIN = 2.2250738585072014e-308
DBL_EPSILON = 2.220446049250313e-16
DBL_MAX_EXP = 1024
DBL_MAX_10_EXP = 308
DBL_MIN_EXP = -1021
DBL_MIN_10_EXP = -307
DBL_DIG = 15
DBL_MANT_DIG = 53
FLT_RADIX = 2
FLT_ROUNDS = 1


def isfinite(x):
    # x - x is 0 for a finite x, nan for an infinity or a nan
    return x - x == 0.0


INVALID_MSG = "could not convert string to float"


def string_to_float(s):
    """s (surrounding ASCII whitespace allowed) as a float: also the spellings of the
    infinities and nan, in any case; ParseStringError for anything else."""
    from rpython.rlib.rstring import strip_spaces, ParseStringError
    text = strip_spaces(s)
    # (the results are constants of the code, as in the reference: a prebuilt NaN's
    # sign is what its compiled program makes of it)
    key = text.lower()
    if key in ('inf', '+inf', 'infinity', '+infinity'):
        return INFINITY
    if key in ('-inf', '-infinity'):
        return -INFINITY
    if key in ('nan', '+nan'):
        return NAN
    if key == '-nan':
        return -NAN
    if text:
        try:
            return rstring_to_float(text)
        except ValueError:
            pass
    raise ParseStringError(INVALID_MSG)


def rstring_to_float(s):
    """The whole of s as a float, by dtoa's strtod: no whitespace around it (float(s)
    would strip spaces), ValueError for anything else."""
    if s and (s[0] == ' ' or s[len(s) - 1] == ' '):
        raise ValueError
    return float(s)


# the reference declares the types (its code argument, a character, is left unchecked
# here): a precision that is not an int is refused at the call
@enforceargs(float, None, int, int)
def formatd(x, code, precision, flags=0):
    # 'r' is the shortest repr: a precision makes no sense there and the reference asserts
    # it is 0 (a fatal AssertionError in its binaries); other codes are a ValueError.
    if code == 'r':
        assert precision == 0
    elif code not in 'efgEFG':
        raise ValueError('Invalid mode')
    return rfloat_formatd(x, code, precision, flags)


def double_to_string(value, tp, precision, flags):
    """formatd's text of value and what kind of number it is (DIST_*)."""
    if isfinite(value):
        special = DIST_FINITE
    elif isinf(value):
        special = DIST_INFINITY
    else:
        special = DIST_NAN
    return formatd(value, tp, precision, flags), special


def round_away(x):
    """x rounded to an integer, halves away from zero."""
    ax = abs(x)
    r = math.floor(ax + 0.5)
    if r - ax >= 1.0:
        # ax + 0.5 was rounded up to ax + 1.0: only happens for integral ax in
        # [2**52, 2**53), which is its own rounding
        return x
    return math.copysign(r, x)


def round_half_even(x):
    """x rounded to an integer, halves to the even neighbour."""
    ax = abs(x)
    r = math.floor(ax + 0.5)
    frac = r - ax
    if frac >= 1.0:
        # as in round_away: ax is already an integer
        return x
    if frac >= 0.5:
        # ax is n + 1/2: 2 * round(ax / 2) is the even one of n and n + 1
        r = math.floor(ax * 0.5 + 0.5) * 2.0
    return math.copysign(r, x)


def _is_decimal_tie(a, ndigits):
    """Whether the finite a > 0 lies exactly halfway between two multiples of
    10**-ndigits: its lowest set bit weighs 2**-(ndigits + 1) and, for ndigits < 0, it
    is a multiple of 5**-ndigits (beyond 5**22 no double is such a multiple)."""
    m, e = math.frexp(a)
    while m != math.floor(m):
        m *= 2.0
        e -= 1
    if e != -ndigits - 1:
        return False
    if ndigits >= 0:
        return True
    if ndigits < -22:
        return False
    p = 1.0
    i = 0
    while i < -ndigits:
        p *= 5.0
        i += 1
    return math.fmod(a, p) == 0.0


def _bump_last_digit(s):
    """The decimal string s ("129.95", "9") with one added to its last digit."""
    suffix = ''
    i = len(s) - 1
    while i >= 0:
        c = s[i]
        if c == '.':
            suffix = '.' + suffix
        elif c == '9':
            suffix = '0' + suffix
        else:
            return s[:i] + chr(ord(c) + 1) + suffix
        i -= 1
    return '1' + suffix


def round_double(value, ndigits, half_even=False):
    """value rounded to ndigits decimal places (negative: to tens, hundreds...), the
    exact binary value rounded correctly; exact ties go away from zero (half_even: to the
    even neighbour)."""
    if ndigits == 0:
        if half_even:
            return round_half_even(value)
        return round_away(value)
    if value == 0.0:
        # as the reference: a zero of either sign rounds to +0.0 (ndigits != 0)
        return 0.0
    if not isfinite(value):
        return value
    a = abs(value)
    tie = _is_decimal_tie(a, ndigits)
    if ndigits > 0:
        if ndigits > 340:
            return value
        # correctly rounded, exact ties to even
        digits = formatd(a, 'f', ndigits, 0)
        if tie and not half_even and float(digits) < a:
            digits = _bump_last_digit(digits)
    else:
        k = -ndigits
        if k > 330:
            return copysign(0.0, value)
        whole = formatd(a, 'f', 0, 0)
        if len(whole) <= k:
            head = '0'
            tail = '0' * (k - len(whole)) + whole
        else:
            j = len(whole) - k
            assert j >= 0
            head = whole[:j]
            tail = whole[j:]
        half = '5' + '0' * (k - 1)
        if tail > half:
            up = True
        elif tail < half:
            up = False
        elif tie:
            # exactly halfway in the value itself
            up = not half_even or (ord(head[len(head) - 1]) - ord('0')) % 2 == 1
        else:
            # halfway only after rounding to an integer: the value decides
            up = a > float(whole)
        if up:
            head = _bump_last_digit(head)
        digits = head + '0' * k
    return copysign(float(digits), value)


_LN2 = math.log(2.0)


def log2(x):
    """The base-2 logarithm, exact for powers of two: the exponent plus the log of the
    frexp mantissa over log(2) (of twice the mantissa from 1 up, so that a negative
    log does not cancel against the exponent); nan and +inf are their own log2,
    ValueError for x <= 0 and -inf."""
    if isnan(x):
        return x
    if x <= 0.0:
        raise ValueError("math domain error")
    if isinf(x):
        return x
    mant, exp = math.frexp(x)
    if x < 1.0:
        return exp + math.log(mant) / _LN2
    return (exp - 1) + math.log(mant * 2.0) / _LN2


def float_as_rbigint_ratio(value):
    """(numerator, denominator) as rbigints, the denominator a power of two (1 for an
    integral value): OverflowError for an infinity, ValueError for nan."""
    from rpython.rlib.rbigint import rbigint
    if isinf(value):
        raise OverflowError("cannot pass infinity to as_integer_ratio()")
    if isnan(value):
        raise ValueError("cannot pass nan to as_integer_ratio()")
    m, e = math.frexp(value)
    i = 0
    while i < 300 and m != math.floor(m):
        m *= 2.0
        e -= 1
        i += 1
    num = rbigint.fromfloat(m)
    den = rbigint.fromint(1)
    power = den.lshift(abs(e))
    if e > 0:
        num = num.mul(power)
    else:
        den = power
    return num, den


# The error function, its complement, gamma and log-gamma, computed the way the
# reference's rfloat computes them (not the C library's versions): erf by its power
# series below 1.5 and erfc by a continued fraction above; gamma and lgamma by the
# Lanczos approximation (g = 6.024680040776729583740234375, 13 terms, the numerator and
# denominator polynomials below). The operations and their order matter: every result
# must be bit-for-bit that of the compiled reference.

_ERF_SERIES_CUTOFF = 1.5
_ERF_SERIES_TERMS = 25
_ERFC_CONTFRAC_CUTOFF = 30.0
_ERFC_CONTFRAC_TERMS = 50
_SQRT_PI = 1.772453850905516027298167483341145182798


def _erf_series(x):
    # 2/sqrt(pi) * exp(-x*x) * sum of x**(2k+1) / (1/2 * 3/2 * ... * (k+1/2)),
    # evaluated from the last term down
    x2 = x * x
    acc = 0.0
    fk = _ERF_SERIES_TERMS + 0.5
    i = 0
    while i < _ERF_SERIES_TERMS:
        acc = 2.0 + x2 * acc / fk
        fk -= 1.0
        i += 1
    return acc * x * math.exp(-x2) / _SQRT_PI


def _erfc_contfrac(x):
    # the continued fraction of erfc for x >= 1.5, by its convergents p/q
    if x >= _ERFC_CONTFRAC_CUTOFF:
        return 0.0
    x2 = x * x
    a = 0.0
    da = 0.5
    p = 1.0
    p_last = 0.0
    q = da + x2
    q_last = 1.0
    i = 0
    while i < _ERFC_CONTFRAC_TERMS:
        a += da
        da += 2.0
        b = da + x2
        p_last, p = p, b * p - a * p_last
        q_last, q = q, b * q - a * q_last
        i += 1
    return p / q * x * math.exp(-x2) / _SQRT_PI


def erf(x):
    if isnan(x):
        return x
    ax = abs(x)
    if ax < _ERF_SERIES_CUTOFF:
        return _erf_series(x)
    cf = _erfc_contfrac(ax)
    if x > 0.0:
        return 1.0 - cf
    return cf - 1.0


def erfc(x):
    if isnan(x):
        return x
    ax = abs(x)
    if ax < _ERF_SERIES_CUTOFF:
        return 1.0 - _erf_series(x)
    cf = _erfc_contfrac(ax)
    if x > 0.0:
        return cf
    return 2.0 - cf


def _sinpi(x):
    # sin(pi * x), reduced to a quarter period first so that it is exact at integers
    y = math.fmod(abs(x), 2.0)
    k = int(round_away(2.0 * y))
    if k == 0:
        r = math.sin(math.pi * y)
    elif k == 1:
        r = math.cos(math.pi * (y - 0.5))
    elif k == 2:
        r = math.sin(math.pi * (1.0 - y))
    elif k == 3:
        r = -math.cos(math.pi * (y - 1.5))
    else:
        r = math.sin(math.pi * (y - 2.0))
    return copysign(1.0, x) * r


_LANCZOS_G = 6.024680040776729583740234375
_LANCZOS_G_MINUS_HALF = 5.524680040776729583740234375
_LANCZOS_NUM = [
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
]
_LANCZOS_DEN = [
    0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0,
    13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0,
]
# gamma(1) .. gamma(23): exact as doubles
_GAMMA_OF_INTEGERS = [
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0,
    3628800.0, 39916800.0, 479001600.0, 6227020800.0, 87178291200.0,
    1307674368000.0, 20922789888000.0, 355687428096000.0,
    6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0,
]


def _lanczos_sum(x):
    # the rational function of the approximation, by Horner's rule in x below 5 and
    # in 1/x above (to avoid overflow)
    num = 0.0
    den = 0.0
    assert x > 0.0
    n = len(_LANCZOS_DEN)
    if x < 5.0:
        i = n - 1
        while i >= 0:
            num = num * x + _LANCZOS_NUM[i]
            den = den * x + _LANCZOS_DEN[i]
            i -= 1
    else:
        i = 0
        while i < n:
            num = num / x + _LANCZOS_NUM[i]
            den = den / x + _LANCZOS_DEN[i]
            i += 1
    return num / den


def gamma(x):
    if isnan(x) or (isinf(x) and x > 0.0):
        return x
    if isinf(x) or x == 0.0:
        raise ValueError("math domain error")
    if x == math.floor(x):
        if x < 0.0:
            raise ValueError("math domain error")
        if x < len(_GAMMA_OF_INTEGERS):
            return _GAMMA_OF_INTEGERS[int(x) - 1]
    ax = abs(x)
    if ax < 1e-20:
        r = 1.0 / x
        if isinf(r):
            raise OverflowError("math range error")
        return r
    if ax > 200.0:
        if x < 0.0:
            return 0.0 / -_sinpi(x)
        raise OverflowError("math range error")
    y = ax + _LANCZOS_G_MINUS_HALF
    # z: the rounding error of y, to correct the power below
    if ax > _LANCZOS_G_MINUS_HALF:
        q = y - ax
        z = q - _LANCZOS_G_MINUS_HALF
    else:
        q = y - _LANCZOS_G_MINUS_HALF
        z = q - ax
    z = z * _LANCZOS_G / y
    if x < 0.0:
        r = -math.pi / _sinpi(ax) / ax * math.exp(y) / _lanczos_sum(ax)
        r -= z * r
        if ax < 140.0:
            r /= math.pow(y, ax - 0.5)
        else:
            half_pow = math.pow(y, ax / 2.0 - 0.25)
            r /= half_pow
            r /= half_pow
    else:
        r = _lanczos_sum(ax) / math.exp(y)
        r += z * r
        if ax < 140.0:
            r *= math.pow(y, ax - 0.5)
        else:
            half_pow = math.pow(y, ax / 2.0 - 0.25)
            r *= half_pow
            r *= half_pow
    if isinf(r):
        raise OverflowError("math range error")
    return r


def lgamma(x):
    if isnan(x):
        return x
    if isinf(x):
        return INFINITY
    if x == math.floor(x) and x <= 2.0:
        if x <= 0.0:
            raise ValueError("math range error")
        return 0.0
    ax = abs(x)
    if ax < 1e-20:
        return -math.log(ax)
    if x > 0.0:
        r = (math.log(_lanczos_sum(x)) - _LANCZOS_G +
             (x - 0.5) * (math.log(x + _LANCZOS_G - 0.5) - 1))
    else:
        r = (math.log(math.pi) - math.log(abs(_sinpi(ax))) - math.log(ax) -
             (math.log(_lanczos_sum(ax)) - _LANCZOS_G +
              (ax - 0.5) * (math.log(ax + _LANCZOS_G - 0.5) - 1)))
    if isinf(r):
        raise OverflowError("math domain error")
    return r
