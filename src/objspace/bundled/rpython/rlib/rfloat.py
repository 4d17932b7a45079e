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


def round_double(value, ndigits, half_even=False):
    scale = 1.0
    i = 0
    while i < ndigits:
        scale *= 10.0
        i += 1
    if half_even:
        return round_half_even(value * scale) / scale
    return round_away(value * scale) / scale


def log2(x):
    return math.log(x) / math.log(2.0)
