"""rpy-lsp's model of `rpython.rlib.special_value`: the classes of a float that C99's
Annex G tables of complex functions are indexed by (`special_type`), and those tables
(`<function>_special_values[special_type(real)][special_type(imag)]`, each a (real,
imag) tuple), as CPython's cmath tabulates them."""
import math
from rpython.rlib.rfloat import isnan, isinf, copysign

ST_NINF = 0     # -inf
ST_NEG = 1      # a negative finite number
ST_NZERO = 2    # -0.0
ST_PZERO = 3    # +0.0
ST_POS = 4      # a positive finite number
ST_PINF = 5     # +inf
ST_NAN = 6      # nan


def special_type(d):
    if isnan(d):
        return ST_NAN
    if isinf(d):
        if d > 0.0:
            return ST_PINF
        return ST_NINF
    if d == 0.0:
        if copysign(1., d) == 1.:
            return ST_PZERO
        return ST_NZERO
    if d > 0.0:
        return ST_POS
    return ST_NEG


P = math.pi
P14 = 0.25 * math.pi
P12 = 0.5 * math.pi
P34 = 0.75 * math.pi
INF = 1e200 * 1e200
# the machine's inf / inf, as the reference computes its nan
N = INF / INF
NAN = N
# a value no finite argument ever reads (the tables hold results only for an infinite or
# nan part)
U = -9.5426319407711027e33
Z = 0.0

# the spellings of the table entries below: i infinity, z zero, n nan, p pi, h pi/2,
# q pi/4, t 3*pi/4, 1 one, u the placeholder; a leading minus negates
_WORDS = {'i': INF, 'z': Z, 'n': N, 'p': P, 'h': P12, 'q': P14, 't': P34, '1': 1.0,
          'u': U}


def _word(w):
    if w.startswith('-'):
        return -_WORDS[w[1:]]
    return _WORDS[w]


def build_table(lst):
    """Seven rows of seven (real, imag) results from a list of 49."""
    assert len(lst) == 49
    return [lst[7 * i:7 * i + 7] for i in range(7)]


def _table(text):
    cells = []
    for pair in text.split():
        re_word, im_word = pair.split(',')
        cells.append((_word(re_word), _word(im_word)))
    return build_table(cells)


sqrt_special_values = _table("""
    i,-i z,-i z,-i z,i z,i i,i n,i
    i,-i u,u u,u u,u u,u i,i n,n
    i,-i u,u z,-z z,z u,u i,i n,n
    i,-i u,u z,-z z,z u,u i,i n,n
    i,-i u,u u,u u,u u,u i,i n,n
    i,-i i,-z i,-z i,z i,z i,i i,n
    i,-i n,n n,n n,n n,n i,i n,n
""")
acos_special_values = _table("""
    t,i p,i p,i p,-i p,-i t,-i n,i
    h,i u,u u,u u,u u,u h,-i n,n
    h,i u,u h,z h,-z u,u h,-i h,n
    h,i u,u h,z h,-z u,u h,-i h,n
    h,i u,u u,u u,u u,u h,-i n,n
    q,i z,i z,i z,-i z,-i q,-i n,i
    n,i n,n n,n n,n n,n n,-i n,n
""")
acosh_special_values = _table("""
    i,-t i,-p i,-p i,p i,p i,t i,n
    i,-h u,u u,u u,u u,u i,h n,n
    i,-h u,u z,-h z,h u,u i,h n,n
    i,-h u,u z,-h z,h u,u i,h n,n
    i,-h u,u u,u u,u u,u i,h n,n
    i,-q i,-z i,-z i,z i,z i,q i,n
    i,n n,n n,n n,n n,n i,n n,n
""")
asinh_special_values = _table("""
    -i,-q -i,-z -i,-z -i,z -i,z -i,q -i,n
    -i,-h u,u u,u u,u u,u -i,h n,n
    -i,-h u,u -z,-z -z,z u,u -i,h n,n
    i,-h u,u z,-z z,z u,u i,h n,n
    i,-h u,u u,u u,u u,u i,h n,n
    i,-q i,-z i,-z i,z i,z i,q i,n
    i,n n,n n,-z n,z n,n i,n n,n
""")
atanh_special_values = _table("""
    -z,-h -z,-h -z,-h -z,h -z,h -z,h -z,n
    -z,-h u,u u,u u,u u,u -z,h n,n
    -z,-h u,u -z,-z -z,z u,u -z,h -z,n
    z,-h u,u z,-z z,z u,u z,h z,n
    z,-h u,u u,u u,u u,u z,h n,n
    z,-h z,-h z,-h z,h z,h z,h z,n
    z,-h n,n n,n n,n n,n z,h n,n
""")
log_special_values = _table("""
    i,-t i,-p i,-p i,p i,p i,t i,n
    i,-h u,u u,u u,u u,u i,h n,n
    i,-h u,u -i,-p -i,p u,u i,h n,n
    i,-h u,u -i,-z -i,z u,u i,h n,n
    i,-h u,u u,u u,u u,u i,h n,n
    i,-q i,-z i,-z i,z i,z i,q i,n
    i,n n,n n,n n,n n,n i,n n,n
""")
exp_special_values = _table("""
    z,z u,u z,-z z,z u,u z,z z,z
    n,n u,u u,u u,u u,u n,n n,n
    n,n u,u 1,-z 1,z u,u n,n n,n
    n,n u,u 1,-z 1,z u,u n,n n,n
    n,n u,u u,u u,u u,u n,n n,n
    i,n u,u i,-z i,z u,u i,n i,n
    n,n n,n n,-z n,z n,n n,n n,n
""")
cosh_special_values = _table("""
    i,n u,u i,z i,-z u,u i,n i,n
    n,n u,u u,u u,u u,u n,n n,n
    n,z u,u 1,z 1,-z u,u n,z n,z
    n,z u,u 1,-z 1,z u,u n,z n,z
    n,n u,u u,u u,u u,u n,n n,n
    i,n u,u i,-z i,z u,u i,n i,n
    n,n n,n n,z n,z n,n n,n n,n
""")
sinh_special_values = _table("""
    i,n u,u -i,-z -i,z u,u i,n i,n
    n,n u,u u,u u,u u,u n,n n,n
    z,n u,u -z,-z -z,z u,u z,n z,n
    z,n u,u z,-z z,z u,u z,n z,n
    n,n u,u u,u u,u u,u n,n n,n
    i,n u,u i,-z i,z u,u i,n i,n
    n,n n,n n,-z n,z n,n n,n n,n
""")
tanh_special_values = _table("""
    -1,z u,u -1,-z -1,z u,u -1,z -1,z
    n,n u,u u,u u,u u,u n,n n,n
    n,n u,u -z,-z -z,z u,u n,n n,n
    n,n u,u z,-z z,z u,u n,n n,n
    n,n u,u u,u u,u u,u n,n n,n
    1,z u,u 1,-z 1,z u,u 1,z 1,z
    n,n n,n n,-z n,z n,n n,n n,n
""")
rect_special_values = _table("""
    i,n u,u -i,z -i,-z u,u i,n i,n
    n,n u,u u,u u,u u,u n,n n,n
    z,z u,u -z,z -z,-z u,u z,z z,z
    z,z u,u z,-z z,z u,u z,z z,z
    n,n u,u u,u u,u u,u n,n n,n
    i,n u,u i,-z i,z u,u i,n i,n
    n,n n,n n,z n,z n,n n,n n,n
""")
