"""rpy-lsp's model of `rpython.rlib.rcomplex`: complex numbers as (real, imag) float
tuples, with the C99 Annex G results for infinities, nans and signed zeros (the algorithms
of CPython 2.7's cmath, which the reference's binaries compute with the C library's math
functions: the same operations in the same order give the same bits). Written in RPython;
`math` is the model of the C library's functions (OverflowError/ValueError as the
reference's ll_math raises them)."""
import math
from math import fabs
from rpython.rlib.rfloat import copysign, asinh, log1p, isfinite, isinf, isnan
from rpython.rlib.constant import DBL_MIN, CM_SCALE_UP, CM_SCALE_DOWN
from rpython.rlib.constant import CM_LARGE_DOUBLE, DBL_MANT_DIG
from rpython.rlib.constant import M_LN2, M_LN10
from rpython.rlib.constant import CM_SQRT_LARGE_DOUBLE, CM_SQRT_DBL_MIN
from rpython.rlib.constant import CM_LOG_LARGE_DOUBLE
from rpython.rlib.special_value import special_type, INF, NAN
from rpython.rlib.special_value import sqrt_special_values as _SQRT
from rpython.rlib.special_value import acos_special_values as _ACOS
from rpython.rlib.special_value import acosh_special_values as _ACOSH
from rpython.rlib.special_value import asinh_special_values as _ASINH
from rpython.rlib.special_value import atanh_special_values as _ATANH
from rpython.rlib.special_value import log_special_values as _LOG
from rpython.rlib.special_value import exp_special_values as _EXP
from rpython.rlib.special_value import cosh_special_values as _COSH
from rpython.rlib.special_value import sinh_special_values as _SINH
from rpython.rlib.special_value import tanh_special_values as _TANH
from rpython.rlib.special_value import rect_special_values as _RECT


def _special(table, x, y):
    return table[special_type(x)][special_type(y)]


# binary operations


def c_add(x, y):
    (r1, i1), (r2, i2) = x, y
    return (r1 + r2, i1 + i2)


def c_sub(x, y):
    (r1, i1), (r2, i2) = x, y
    return (r1 - r2, i1 - i2)


def c_mul(x, y):
    (r1, i1), (r2, i2) = x, y
    return (r1 * r2 - i1 * i2, r1 * i2 + i1 * r2)


def c_div(x, y):
    """x / y by Smith's method: divide through by the larger part of y."""
    (r1, i1), (r2, i2) = x, y
    if fabs(r2) >= fabs(i2):
        if r2 == 0.0:
            raise ZeroDivisionError
        t = i2 / r2
        den = r2 + i2 * t
        return ((r1 + i1 * t) / den, (i1 - r1 * t) / den)
    if isnan(r2):
        return (NAN, NAN)
    t = r2 / i2
    den = r2 * t + i2
    return ((r1 * t + i1) / den, (i1 * t - r1) / den)


def c_pow(x, y):
    (r1, i1), (r2, i2) = x, y
    if i1 == 0 and i2 == 0 and r1 > 0:
        return (math.pow(r1, r2), 0.)
    if r2 == 0.0 and i2 == 0.0:
        return (1.0, 0.0)
    if r1 == 1.0 and i1 == 0.0:
        return (1.0, 0.0)
    if r1 == 0.0 and i1 == 0.0:
        if i2 != 0.0 or r2 < 0.0:
            raise ZeroDivisionError
        return (0.0, 0.0)
    vabs = math.hypot(r1, i1)
    mag = math.pow(vabs, r2)
    arg = math.atan2(i1, r1)
    phase = arg * r2
    if i2 != 0.0:
        mag /= math.exp(arg * i2)
        phase += i2 * math.log(vabs)
    try:
        rr = mag * math.cos(phase)
        ir = mag * math.sin(phase)
    except ValueError:
        rr = NAN
        ir = NAN
    return (rr, ir)


# unary operations


def c_neg(r, i):
    return (-r, -i)


def c_sqrt(x, y):
    """The principal square root: s = sqrt((|x| + |z|) / 2) computed with x and y
    divided by 8 (no overflow), or scaled up by 2**CM_SCALE_UP when both are subnormal;
    the other part is |y| / 2s."""
    if not isfinite(x) or not isfinite(y):
        return _special(_SQRT, x, y)
    if x == 0. and y == 0.:
        return (0., y)
    ax = fabs(x)
    ay = fabs(y)
    if ax < DBL_MIN and ay < DBL_MIN and (ax > 0. or ay > 0.):
        ax = math.ldexp(ax, CM_SCALE_UP)
        s = math.ldexp(math.sqrt(ax + math.hypot(ax, math.ldexp(ay, CM_SCALE_UP))),
                       CM_SCALE_DOWN)
    else:
        ax /= 8.
        s = 2. * math.sqrt(ax + math.hypot(ax, ay / 8.))
    d = ay / (2. * s)
    if x >= 0.:
        return (s, copysign(d, y))
    return (d, copysign(s, y))


def _log_half_hypot(x, y):
    # log(2|z|) for a huge z, without overflow: log(|z| / 2) + 2 log(2)
    return math.log(math.hypot(x / 2., y / 2.)) + M_LN2 * 2.


def c_acos(x, y):
    if not isfinite(x) or not isfinite(y):
        return _special(_ACOS, x, y)
    if fabs(x) > CM_LARGE_DOUBLE or fabs(y) > CM_LARGE_DOUBLE:
        real = math.atan2(fabs(y), x)
        if x < 0.:
            imag = -copysign(_log_half_hypot(x, y), y)
        else:
            imag = copysign(_log_half_hypot(x, y), -y)
        return (real, imag)
    ax, ay = c_sqrt(1. - x, -y)
    bx, by = c_sqrt(1. + x, y)
    return (2. * math.atan2(ax, bx), asinh(bx * ay - by * ax))


def c_acosh(x, y):
    if not isfinite(x) or not isfinite(y):
        return _special(_ACOSH, x, y)
    if fabs(x) > CM_LARGE_DOUBLE or fabs(y) > CM_LARGE_DOUBLE:
        return (_log_half_hypot(x, y), math.atan2(y, x))
    ax, ay = c_sqrt(x - 1., y)
    bx, by = c_sqrt(x + 1., y)
    return (asinh(ax * bx + ay * by), 2. * math.atan2(ay, bx))


def c_asin(x, y):
    # asin(z) is -i * asinh(i * z)
    r, i = c_asinh(-y, x)
    return (i, -r)


def c_asinh(x, y):
    if not isfinite(x) or not isfinite(y):
        return _special(_ASINH, x, y)
    if fabs(x) > CM_LARGE_DOUBLE or fabs(y) > CM_LARGE_DOUBLE:
        if y >= 0.:
            real = copysign(_log_half_hypot(x, y), x)
        else:
            real = -copysign(_log_half_hypot(x, y), -x)
        return (real, math.atan2(y, fabs(x)))
    ax, ay = c_sqrt(1. + y, -x)
    bx, by = c_sqrt(1. - y, x)
    return (asinh(ax * by - bx * ay), math.atan2(y, ax * bx - ay * by))


def c_atan(x, y):
    # atan(z) is -i * atanh(i * z)
    r, i = c_atanh(-y, x)
    return (i, -r)


def c_atanh(x, y):
    if not isfinite(x) or not isfinite(y):
        return _special(_ATANH, x, y)
    if x < 0.:
        # atanh is odd
        r, i = c_atanh(-x, -y)
        return (-r, -i)
    ay = fabs(y)
    if x > CM_SQRT_LARGE_DOUBLE or ay > CM_SQRT_LARGE_DOUBLE:
        # about 1/z + i*pi/2 with the sign of y
        h = math.hypot(x / 2., y / 2.)
        return (x / 4. / h / h, -copysign(math.pi / 2., -y))
    if x == 1. and ay < CM_SQRT_DBL_MIN:
        if ay == 0.:
            raise ValueError("math domain error")
        real = -math.log(math.sqrt(ay) / math.sqrt(math.hypot(ay, 2.)))
        return (real, copysign(math.atan2(2., -ay) / 2, y))
    real = log1p(4. * x / ((1 - x) * (1 - x) + ay * ay)) / 4.
    imag = -math.atan2(-2. * y, (1 - x) * (1 + x) - ay * ay) / 2.
    return (real, imag)


def c_log(x, y):
    """log|z| + i*arg(z), rescaling huge and subnormal moduli and using log1p near
    |z| == 1; a zero is a ValueError."""
    if not isfinite(x) or not isfinite(y):
        return _special(_LOG, x, y)
    ax = fabs(x)
    ay = fabs(y)
    if ax > CM_LARGE_DOUBLE or ay > CM_LARGE_DOUBLE:
        real = math.log(math.hypot(ax / 2., ay / 2.)) + M_LN2
    elif ax < DBL_MIN and ay < DBL_MIN:
        if not (ax > 0. or ay > 0.):
            raise ValueError("math domain error")
        real = math.log(math.hypot(math.ldexp(ax, DBL_MANT_DIG),
                                   math.ldexp(ay, DBL_MANT_DIG)))
        real -= DBL_MANT_DIG * M_LN2
    else:
        h = math.hypot(ax, ay)
        if 0.71 <= h and h <= 1.73:
            big = max(ax, ay)
            small = min(ax, ay)
            real = log1p((big - 1) * (big + 1) + small * small) / 2.
        else:
            real = math.log(h)
    return (real, math.atan2(y, x))


def c_log10(x, y):
    r, i = c_log(x, y)
    return (r / M_LN10, i / M_LN10)


def _domain_error():
    raise ValueError("math domain error")


def _range_check(real, imag):
    if isinf(real) or isinf(imag):
        raise OverflowError("math range error")
    return (real, imag)


def c_exp(x, y):
    if not isfinite(x) or not isfinite(y):
        if isinf(x) and isfinite(y) and y != 0.:
            if x > 0:
                result = (copysign(INF, math.cos(y)), copysign(INF, math.sin(y)))
            else:
                result = (copysign(0., math.cos(y)), copysign(0., math.sin(y)))
        else:
            result = _special(_EXP, x, y)
        # an infinite y is an error unless x is a nan or -inf
        if isinf(y) and (isfinite(x) or (isinf(x) and x > 0)):
            _domain_error()
        return result
    if x > CM_LOG_LARGE_DOUBLE:
        # exp(x) alone would overflow where exp(z) does not
        l = math.exp(x - 1.)
        return _range_check(l * math.cos(y) * math.e, l * math.sin(y) * math.e)
    l = math.exp(x)
    return _range_check(l * math.cos(y), l * math.sin(y))


def c_cosh(x, y):
    if not isfinite(x) or not isfinite(y):
        if isinf(x) and isfinite(y) and y != 0.:
            if x > 0:
                result = (copysign(INF, math.cos(y)), copysign(INF, math.sin(y)))
            else:
                result = (copysign(INF, math.cos(y)), -copysign(INF, math.sin(y)))
        else:
            result = _special(_COSH, x, y)
        if isinf(y) and not isnan(x):
            _domain_error()
        return result
    if fabs(x) > CM_LOG_LARGE_DOUBLE:
        xm = x - copysign(1., x)
        return _range_check(math.cos(y) * math.cosh(xm) * math.e,
                            math.sin(y) * math.sinh(xm) * math.e)
    return _range_check(math.cos(y) * math.cosh(x), math.sin(y) * math.sinh(x))


def c_sinh(x, y):
    if not isfinite(x) or not isfinite(y):
        if isinf(x) and isfinite(y) and y != 0.:
            if x > 0:
                result = (copysign(INF, math.cos(y)), copysign(INF, math.sin(y)))
            else:
                result = (-copysign(INF, math.cos(y)), copysign(INF, math.sin(y)))
        else:
            result = _special(_SINH, x, y)
        if isinf(y) and not isnan(x):
            _domain_error()
        return result
    if fabs(x) > CM_LOG_LARGE_DOUBLE:
        xm = x - copysign(1., x)
        return _range_check(math.cos(y) * math.sinh(xm) * math.e,
                            math.sin(y) * math.cosh(xm) * math.e)
    return _range_check(math.cos(y) * math.sinh(x), math.sin(y) * math.cosh(x))


def c_tanh(x, y):
    """(tanh(x)(1 + tan(y)**2) + i tan(y)(1 - tanh(x)**2)) / (1 + tan(y)**2 tanh(x)**2),
    with 1 - tanh(x)**2 as 1/cosh(x)**2, or 4 exp(-2|x|) for a large x."""
    if not isfinite(x) or not isfinite(y):
        if isinf(x) and isfinite(y) and y != 0.:
            imag = copysign(0., 2. * math.sin(y) * math.cos(y))
            if x > 0:
                result = (1.0, imag)
            else:
                result = (-1.0, imag)
        else:
            result = _special(_TANH, x, y)
        if isinf(y) and isfinite(x):
            _domain_error()
        return result
    if fabs(x) > CM_LOG_LARGE_DOUBLE:
        return (copysign(1., x),
                4. * math.sin(y) * math.cos(y) * math.exp(-2. * fabs(x)))
    tx = math.tanh(x)
    ty = math.tan(y)
    cx = 1. / math.cosh(x)
    txty = tx * ty
    den = 1. + txty * txty
    return (tx * (1. + ty * ty) / den, ((ty / den) * cx) * cx)


def c_cos(r, i):
    # cos(z) is cosh(i * z)
    return c_cosh(-i, r)


def c_sin(r, i):
    # sin(z) is -i * sinh(i * z)
    a, b = c_sinh(-i, r)
    return (b, -a)


def c_tan(r, i):
    # tan(z) is -i * tanh(i * z)
    a, b = c_tanh(-i, r)
    return (b, -a)


def c_rect(r, phi):
    if not isfinite(r) or not isfinite(phi):
        if isinf(r) and isfinite(phi) and phi != 0.:
            # the signs of the infinities are those of cos(phi) and sin(phi)
            if r > 0:
                result = (copysign(INF, math.cos(phi)), copysign(INF, math.sin(phi)))
            else:
                result = (-copysign(INF, math.cos(phi)), -copysign(INF, math.sin(phi)))
        else:
            result = _special(_RECT, r, phi)
        if r != 0. and not isnan(r) and isinf(phi):
            _domain_error()
        return result
    return (r * math.cos(phi), r * math.sin(phi))


def c_phase(x, y):
    """atan2(y, x) with C99's results for infinities and zeros spelled out."""
    if isnan(x) or isnan(y):
        return NAN
    if isinf(y):
        if isinf(x):
            if copysign(1., x) == 1.:
                return copysign(0.25 * math.pi, y)
            return copysign(0.75 * math.pi, y)
        return copysign(0.5 * math.pi, y)
    if isinf(x) or y == 0.:
        if copysign(1., x) == 1.:
            return copysign(0., y)
        return copysign(math.pi, y)
    return math.atan2(y, x)


def c_abs(r, i):
    if not isfinite(r) or not isfinite(i):
        # an infinite part wins over a nan one
        if isinf(r) or isinf(i):
            return INF
        return NAN
    result = math.hypot(r, i)
    if not isfinite(result):
        raise OverflowError("math range error")
    return result


def c_polar(r, i):
    return c_abs(r, i), c_phase(r, i)


def c_isinf(r, i):
    return isinf(r) or isinf(i)


def c_isnan(r, i):
    return isnan(r) or isnan(i)


def c_isfinite(r, i):
    return isfinite(r) and isfinite(i)
