"""rpy-lsp's model of `rpython.rtyper.lltypesystem.rffi`: the C integer types and `cast`.

`cast(TYPE, value)` converts an integer to a low-level integer type: to `lltype.Signed`,
`Unsigned`, `SignedLongLong`, `UnsignedLongLong` (and `LONG`, `ULONG`, ... which are
those) it is `intmask`, `r_uint`, `r_longlong`, `r_ulonglong`; to a narrower C type (`INT`,
`UINT`, `SHORT`, `UCHAR`, ...) it keeps the low bits, sign-extended for a signed type. A
narrow value is held in the word-sized type of its sign (as `rarithmetic.build_int` does),
so `cast(Signed, cast(UINT, x))` is exact, but arithmetic on a narrow value does not wrap
at its width. `cast` is specialized per type (`specialize.ll`): each `TYPE is ...` below
is decided while annotating.
"""
from rpython.rtyper.lltypesystem.lltype import Signed, Unsigned, SignedLongLong
from rpython.rtyper.lltypesystem.lltype import UnsignedLongLong, Float
from rpython.rlib.rarithmetic import intmask, r_uint, r_longlong, r_ulonglong
from rpython.rlib.objectmodel import specialize


class _CIntType(object):
    """A C integer type narrower than a machine word."""

    def __init__(self, name, bits, signed):
        self._name = name
        self.bits = bits
        self.signed = signed

    def _freeze_(self):
        return True

    def __repr__(self):
        return "<C type %s>" % self._name


INT = _CIntType("INT", 32, True)
UINT = _CIntType("UINT", 32, False)
SHORT = _CIntType("SHORT", 16, True)
USHORT = _CIntType("USHORT", 16, False)
SIGNEDCHAR = _CIntType("SIGNEDCHAR", 8, True)
UCHAR = _CIntType("UCHAR", 8, False)
INT_real = INT
INT32 = INT
UINT32 = UINT
INT16 = SHORT
UINT16 = USHORT
INT8 = SIGNEDCHAR
UINT8 = UCHAR
LONG = Signed
ULONG = Unsigned
SIGNED = Signed
UNSIGNED = Unsigned
SSIZE_T = Signed
SIZE_T = Unsigned
LONGLONG = SignedLongLong
ULONGLONG = UnsignedLongLong
INT64 = SignedLongLong
UINT64 = UnsignedLongLong


@specialize.ll()
def cast(TYPE, value):
    if TYPE is Signed:
        return intmask(value)
    if TYPE is Unsigned:
        return r_uint(value)
    if TYPE is SignedLongLong:
        return r_longlong(value)
    if TYPE is UnsignedLongLong:
        return r_ulonglong(value)
    if TYPE is Float:
        return float(value)
    bits = TYPE.bits
    v = intmask(value) & ((1 << bits) - 1)
    if TYPE.signed:
        if v >> (bits - 1):
            v -= 1 << bits
        return v
    return r_uint(v)
