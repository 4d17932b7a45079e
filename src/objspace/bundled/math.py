"""rpy-lsp's model of the `math` module (primitives named `math.<name>`)."""
from __rpy__ import math_sqrt, math_floor, math_ceil, math_fabs, math_fmod, math_pow
from __rpy__ import math_exp, math_log, math_log10, math_log1p, math_sin, math_cos
from __rpy__ import math_tan, math_asin, math_acos, math_atan, math_atan2, math_sinh
from __rpy__ import math_cosh, math_tanh, math_isnan, math_isinf, math_hypot
from __rpy__ import math_frexp, math_ldexp, math_modf, math_copysign, math_degrees
from __rpy__ import math_radians, math_trunc, math_factorial
from __rpy__ import math_asinh, math_acosh, math_atanh, math_expm1

pi = 3.141592653589793
e = 2.718281828459045

sqrt = math_sqrt
floor = math_floor
ceil = math_ceil
fabs = math_fabs
fmod = math_fmod
pow = math_pow
exp = math_exp
log = math_log
log10 = math_log10
log1p = math_log1p
sin = math_sin
cos = math_cos
tan = math_tan
asin = math_asin
acos = math_acos
atan = math_atan
atan2 = math_atan2
sinh = math_sinh
cosh = math_cosh
tanh = math_tanh
asinh = math_asinh
acosh = math_acosh
atanh = math_atanh
expm1 = math_expm1
isnan = math_isnan
isinf = math_isinf
hypot = math_hypot
frexp = math_frexp
ldexp = math_ldexp
modf = math_modf
copysign = math_copysign
degrees = math_degrees
radians = math_radians
trunc = math_trunc
factorial = math_factorial
