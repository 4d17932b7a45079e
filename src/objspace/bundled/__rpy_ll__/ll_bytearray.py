"""rpy-lsp's low-level helpers of `bytearray`, written in low-level RPython (seed 000,
"Implementing RPython types"; see ll_str.py for how the RTyper calls them).

A bytearray is laid out as the reference lays it out: `BYTEARRAY`, a GcStruct with only a
`chars` array (a string without its hash, as it can change). Its items read as ints
(`ord` of the byte, 0..255) and are written from ints (the low byte, as the C cast of the
reference's `chr` keeps it). Copies go through the `arraycopy` operation: the `chars` of
`STR` and of `BYTEARRAY` are the same array type. `BYTEARRAY` and `STR` are bound to the
RTyper's own structures. User programs do not import this module.
"""
from rpython.rtyper.lltypesystem.lltype import GcStruct, Array, Char
from rpython.rtyper.lltypesystem.lltype import malloc
from rpython.rlib.objectmodel import specialize
from rpython.rlib.rgc import ll_arraycopy
from __rpy_ll__.ll_str import STR, ll_undefined, _clamp, _piece

BYTEARRAY = GcStruct('rpy_bytearray', ('chars', Array(Char)))


@specialize.ll()
def ll_bytearray_from(s):
    """`bytearray(s)` of a str or a bytearray: a new bytearray with its bytes."""
    n = len(s.chars)
    b = malloc(BYTEARRAY, n)
    ll_arraycopy(s.chars, b.chars, 0, 0, n)
    return b


def ll_bytearray_str(b):
    """`str(b)`: a new string with the bytes (a bytearray is never None)."""
    n = len(b.chars)
    s = malloc(STR, n)
    ll_arraycopy(b.chars, s.chars, 0, 0, n)
    return s


@specialize.ll()
def ll_bytearray_concat(s1, s2):
    """`s1 + s2` where either is a bytearray and the other a bytearray or a str."""
    n1 = len(s1.chars)
    n2 = len(s2.chars)
    b = malloc(BYTEARRAY, n1 + n2)
    ll_arraycopy(s1.chars, b.chars, 0, 0, n1)
    ll_arraycopy(s2.chars, b.chars, 0, n1, n2)
    return b


def ll_bytearray_slice(b, start, stop):
    """`b[start:stop]`: always a new bytearray (the result can be changed)."""
    n = len(b.chars)
    start = _clamp(start, n)
    stop = _clamp(stop, n)
    if stop < start:
        stop = start
    return _piece(b, start, stop)


def ll_bytearray_getitem(b, i):
    """`b[i]` without an IndexError handler: negative from the end; out of range is
    undefined behaviour in the binary."""
    n = len(b.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        ll_undefined("bytearray index {} out of range (length {}) without an IndexError handler", i, n)
    return ord(b.chars[i])


def ll_bytearray_getitem_checked(b, i):
    """`b[i]` under an IndexError handler."""
    n = len(b.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError
    return ord(b.chars[i])


def ll_bytearray_setitem(b, i, item):
    """`b[i] = item`, with or without an IndexError handler: the reference never checks
    this store, so out of range is undefined behaviour in its binaries."""
    n = len(b.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        ll_undefined("bytearray index {} out of range (length {}) without an IndexError handler", i, n)
    b.chars[i] = chr(item & 255)


def ll_bytearray_contains_char(b, c):
    """`c in b` of a character."""
    n = len(b.chars)
    i = 0
    while i < n:
        if b.chars[i] == c:
            return True
        i += 1
    return False
