"""rpy-lsp's model of `rpython.rlib.constant`: float.h's double limits (of the x86-64
host the reference configures itself on) and the constants CPython's cmath derives from
them, which `rcomplex` uses."""
import math

DBL_MAX = 1.7976931348623157e308
DBL_MIN = 2.2250738585072014e-308
DBL_MANT_DIG = 53

M_LN2 = 0.6931471805599453094
M_LN10 = 2.302585092994045684

# beyond these, cmath rescales to avoid overflow (a quarter of the largest double, its
# square root and its log)
CM_LARGE_DOUBLE = DBL_MAX / 4.
CM_SQRT_LARGE_DOUBLE = math.sqrt(CM_LARGE_DOUBLE)
CM_LOG_LARGE_DOUBLE = math.log(CM_LARGE_DOUBLE)
CM_SQRT_DBL_MIN = math.sqrt(DBL_MIN)
# an odd power of two that makes any subnormal normal, and minus half of one more
CM_SCALE_UP = 2 * (DBL_MANT_DIG // 2) + 1
CM_SCALE_DOWN = -(CM_SCALE_UP + 1) // 2
