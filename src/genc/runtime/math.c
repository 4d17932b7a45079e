/* math.c: the `math` functions and float `**` of translated programs, in C.
 *
 * Each is the C library's function followed by the error checks of the reference's
 * ll_math, as the LLInterpreter applies them (src/llinterp/runtime/math.rs): a NaN from
 * a number is a domain error (ValueError); an infinity from a finite argument is an
 * overflow (OverflowError) for the functions that can overflow and a domain error for
 * the others; an error of range on a small result (an underflow) is ignored.
 */
#include "text.h"

#include <math.h>

static double value_error(void) {
    rpy_raise_std(RPY_EXC_ValueError);
    return 0.0;
}

static double range_error(double r) {
    if (fabs(r) < 1.0)
        return r;
    rpy_raise_std(RPY_EXC_OverflowError);
    return 0.0;
}

/* the generic check of the single-argument functions */
static double checked(double x, double r, bool can_overflow) {
    if (isnan(r) && !isnan(x))
        return value_error();
    if (isinf(r) && isfinite(x))
        return can_overflow ? range_error(r) : value_error();
    return r;
}

#define UNARY(name, can_overflow)                                                          \
    double RPyRT_ll_math__##name(double x) { return checked(x, name(x), can_overflow); }
UNARY(acos, false)
UNARY(asin, false)
UNARY(atan, false)
UNARY(ceil, false)
UNARY(cosh, true)
UNARY(exp, true)
UNARY(fabs, false)
UNARY(sinh, true)
UNARY(tan, false)
UNARY(tanh, false)
UNARY(acosh, false)
UNARY(asinh, false)
UNARY(atanh, false)
UNARY(expm1, true)
#undef UNARY

double RPyRT_ll_math__sqrt(double x) { return x < 0.0 ? value_error() : sqrt(x); }
double RPyRT_ll_math__log(double x) { return x <= 0.0 ? value_error() : log(x); }
double RPyRT_ll_math__log_2(double x, double base) {
    return x <= 0.0 ? value_error() : log(x) / log(base);
}
double RPyRT_ll_math__log10(double x) { return x <= 0.0 ? value_error() : log10(x); }

double RPyRT_ll_math__log1p(double x) {
    if (x == 0.0)
        return x; /* 0.0 or -0.0 */
    if (x == -1.0) {
        rpy_raise_std(RPY_EXC_OverflowError);
        return 0.0;
    }
    if (x < -1.0)
        return value_error();
    return log1p(x);
}

double RPyRT_ll_math__sin(double x) { return isinf(x) ? value_error() : sin(x); }
double RPyRT_ll_math__cos(double x) { return isinf(x) ? value_error() : cos(x); }
double RPyRT_ll_math__atan2(double y, double x) { return atan2(y, x); }
double RPyRT_ll_math__floor(double x) { return floor(x); }
double RPyRT_ll_math__trunc(double x) { return trunc(x); }

double RPyRT_ll_math__fmod(double x, double y) {
    if (isinf(y) && isfinite(x))
        return x;
    double r = fmod(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y))
        return value_error();
    return r;
}

double RPyRT_ll_math__hypot(double x, double y) {
    if (isinf(x))
        return fabs(x);
    if (isinf(y))
        return fabs(y);
    double r = hypot(x, y);
    if (isnan(r) && !isnan(x) && !isnan(y))
        return value_error();
    if (isinf(r) && isfinite(x) && isfinite(y))
        return range_error(r);
    return r;
}

/* the exponent arrives as a float (every math argument does); C's int range bounds it */
double RPyRT_ll_math__ldexp(double x, double e) {
    if (x == 0.0 || !isfinite(x))
        return x;
    if (isnan(e))
        e = 0.0;
    if (e > 2147483647.0)
        return range_error(copysign(INFINITY, x));
    if (e < -2147483648.0)
        return copysign(0.0, x);
    double r = ldexp(x, (int)e);
    if (isinf(r))
        return range_error(r);
    return r;
}

double RPyRT_ll_math__pow(double x, double y) {
    if (isnan(y))
        return x == 1.0 ? 1.0 : y;
    if (isnan(x))
        return y == 0.0 ? 1.0 : x;
    if (isinf(x)) {
        bool odd_y = !isinf(y) && fmod(fabs(y), 2.0) == 1.0;
        if (y > 0.0)
            return odd_y ? x : fabs(x);
        if (y == 0.0)
            return 1.0;
        return odd_y ? copysign(0.0, x) : 0.0;
    }
    if (isinf(y)) {
        if (fabs(x) == 1.0)
            return 1.0;
        if (y > 0.0 && fabs(x) > 1.0)
            return y;
        if (y < 0.0 && fabs(x) < 1.0)
            return x == 0.0 ? value_error() : -y;
        return 0.0;
    }
    double r = pow(x, y);
    if (isnan(r))
        return value_error();
    if (isinf(r))
        return x == 0.0 ? value_error() : range_error(r);
    return r;
}

/* `x ** y` of floats in translated code is math.pow */
double RPyRT_ll_float_pow(double x, double y) { return RPyRT_ll_math__pow(x, y); }
