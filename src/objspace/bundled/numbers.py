"""rpy-lsp's model of the `numbers` module: the abstract base classes of numbers (PEP 3141)
as CPython 2.7 defines them, with the built-in types it registers: `complex` is a
Complex, `float` a Real, `int` and `long` (and so `bool`) are Integral. Programs use them
in `isinstance` tests, which the annotator answers from these registrations as the
reference's does from CPython's."""
from abc import ABCMeta


class Number(object):
    __metaclass__ = ABCMeta
    __slots__ = ()
    __hash__ = None


class Complex(Number):
    __slots__ = ()


try:
    Complex.register(complex)
except NameError:
    pass            # rpy-lsp's object space has no `complex` type


class Real(Complex):
    __slots__ = ()


Real.register(float)


class Rational(Real):
    __slots__ = ()


class Integral(Rational):
    __slots__ = ()


Integral.register(int)
Integral.register(long)
