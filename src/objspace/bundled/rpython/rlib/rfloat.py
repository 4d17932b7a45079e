"""rpy-lsp's model of `rpython.rlib.rfloat`: float constants and helpers, written in
RPython (the formatting helpers have the real signatures and result types; their text is
approximate)."""
import math
from __rpy__ import rfloat_formatd
from math import isinf, isnan, copysign, log1p

INFINITY = 1e200 * 1e200
NAN = INFINITY - INFINITY

DTSF_STR_PRECISION = 12
DTSF_SIGN = 0x1
DTSF_ADD_DOT_0 = 0x2
DTSF_ALT = 0x4
DTSF_CUT_EXP_0 = 0x8

DIST_FINITE = 1
DIST_NAN = 2
DIST_INFINITY = 3


def isfinite(x):
    return not math.isinf(x) and not math.isnan(x)


def string_to_float(s):
    return float(s)


def rstring_to_float(s):
    return float(s)


def formatd(x, code, precision, flags=0):
    return rfloat_formatd(x, code, precision, flags)


def double_to_string(value, tp, precision, flags):
    return str(value), DIST_FINITE


def round_away(x):
    r = math.floor(abs(x) + 0.5)
    return math.copysign(r, x)


def round_half_even(x):
    ax = abs(x)
    r = math.floor(ax + 0.5)
    if r - ax == 0.5 and math.fmod(r, 2.0) != 0.0:
        r -= 1.0
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
    if value == 0.0 or not isfinite(value):
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


def log2(x):
    return math.log(x) / math.log(2.0)
