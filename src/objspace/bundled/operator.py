"""rpy-lsp's model of the `operator` module: the operators as functions (RPython code may
call the plain ones; the reference's flow space folds them into operations)."""


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def floordiv(a, b):
    return a // b


def div(a, b):
    return a / b


truediv = div


def mod(a, b):
    return a % b


def neg(a):
    return -a


def pos(a):
    return +a


def abs(a):
    return a if a >= 0 else -a


def and_(a, b):
    return a & b


def or_(a, b):
    return a | b


def xor(a, b):
    return a ^ b


def invert(a):
    return ~a


inv = invert


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def not_(a):
    return not a


def truth(a):
    return bool(a)


def is_(a, b):
    return a is b


def is_not(a, b):
    return a is not b


def contains(a, b):
    return b in a


def getitem(a, b):
    return a[b]


def setitem(a, b, c):
    a[b] = c


def delitem(a, b):
    del a[b]


def index(a):
    return a


class attrgetter(object):
    def __init__(self, attr):
        self.attr = attr

    def __call__(self, obj):
        for name in self.attr.split('.'):
            obj = getattr(obj, name)
        return obj


class itemgetter(object):
    def __init__(self, item):
        self.item = item

    def __call__(self, obj):
        return obj[self.item]
