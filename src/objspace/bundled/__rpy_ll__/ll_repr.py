"""rpy-lsp's low-level helpers of the hash and the `str()` of values (see ll_str.py for how
they are used): `compute_hash` of floats and tuples, `str()` of lists and tuples.

The hash of a value is RPython's: integers are their own hash, characters their code,
strings as `ll_strhash` (ll_str.py), floats as `ll_hash_float` below, tuples combine their
items' hashes (`make_tuple_hash`), instances hash by identity. The RTyper picks the one of
an item's type (`compute_hash` in a helper is typed as in a program).

`str()` of a list is `[a, b]` and of a tuple `(a, b)` (`(a,)` for one item), each item as
its `str()` (a string item as itself, None as `None`, a bool as `1`/`0`). The functions
that make the `str()` of one item are made per item type when the RTyper first needs them
(`make_list_str`, `make_tuple_str`, called in the object space as `make_tuple_eq` is, see
rtyper/annlowlevel.rs); `ll_item_str` and `ll_str_or_none` are those of the other types.
"""
from rpython.rtyper.lltypesystem.lltype import malloc, Ptr, nullptr, typeOf
from rpython.rlib.objectmodel import specialize, compute_hash
from rpython.rlib.unroll import unrolling_iterable
from rpython.rlib.rarithmetic import intmask
from rpython.rtyper.annlowlevel import llstr
from rpython.rlib.rgc import ll_arraycopy
from __rpy_ll__.ll_str import STR, OBJECT, ll_instance_str
from __rpy__ import rffi_cast_ptr
import math

OBJECTPTR = Ptr(OBJECT)


def _isfinite(f):
    return f - f == 0.0


def ll_hash_float(f):
    """RPython's hash of a float: CPython 2's, without its special case for the floats
    that are integers (in RPython a dict's keys are all floats or all integers)."""
    if not _isfinite(f):
        if f != f:
            return 0
        if f < 0.0:
            return -271828
        return 314159
    v, expo = math.frexp(f)
    v *= 2147483648.0
    hipart = int(v)
    v = (v - float(hipart)) * 2147483648.0
    return intmask(hipart + int(v) + (expo << 15))


@specialize.argtype(0)
def ll_eq_shortint(a, b):
    """Equality of narrow C integers (dict keys, list items): as words, since the values
    themselves have no comparison."""
    return intmask(a) == intmask(b)


def make_tuple_hash(n):
    """The hash of tuples of `n` items (Python 2.3's tuple hash, as RPython's)."""
    names = unrolling_iterable(['item%d' % i for i in range(n)])

    @specialize.ll()
    def ll_tuple_hash(t):
        x = 0x345678
        for name in names:
            y = compute_hash(getattr(t, name))
            x = intmask((1000003 * x) ^ y)
        return x
    return ll_tuple_hash


@specialize.ll()
def ll_call(x, f):
    # the function made for the type of x, called (a made function is a constant argument)
    return f(x)


@specialize.ll()
def ll_item_str(x):
    # a number, a character or None (Void)
    return llstr(str(x))


@specialize.ll()
def ll_item_instance_str(x):
    # an instance of any class, seen as an `object` (the base structure of them all)
    return ll_instance_str(rffi_cast_ptr(OBJECTPTR, x))


@specialize.ll()
def ll_item_class_str(c):
    # a class (a pointer to its vtable, which starts with the root vtable): the name the
    # vtable carries
    obj = nullptr(OBJECT)
    return rffi_cast_ptr(typeOf(obj).TO.typeptr, c).name


@specialize.ll()
def ll_str_or_none(s):
    if not s:
        return llstr("None")
    return s


@specialize.ll()
def _put(r, o, s):
    # s's characters into r from position o; the position after them
    n = len(s.chars)
    ll_arraycopy(s.chars, r.chars, 0, o, n)
    return o + n


@specialize.ll()
def _put_sep(r, o):
    r.chars[o] = ','
    r.chars[o + 1] = ' '
    return o + 2


@specialize.ll()
def _seq_str(items, n, item_str):
    # `[a, b]` of n items; each item's str() is made twice (to size the result, then to
    # copy it), so the result is allocated once, at its size
    total = 2
    if n > 1:
        total += 2 * (n - 1)
    i = 0
    while i < n:
        total += len(item_str(items[i]).chars)
        i += 1
    r = malloc(STR, total)
    r.chars[0] = '['
    o = 1
    i = 0
    while i < n:
        if i > 0:
            o = _put_sep(r, o)
        o = _put(r, o, item_str(items[i]))
        i += 1
    r.chars[o] = ']'
    return r


def make_list_str(fixed, item_str):
    """The `str()` of lists (which may be None) of items whose `str()` is `item_str`;
    `fixed` for lists that are arrays."""
    if fixed:
        @specialize.ll()
        def ll_array_str(a):
            if not a:
                return llstr("None")
            return _seq_str(a, len(a), item_str)
        return ll_array_str

    @specialize.ll()
    def ll_list_str(l):
        if not l:
            return llstr("None")
        return _seq_str(l.items, l.length, item_str)
    return ll_list_str


def make_tuple_str(item_strs):
    """The `str()` of tuples whose items' `str()` are `item_strs`: `(a, b)`, `(a,)`."""
    n = len(item_strs)
    # (whether a separator comes first, field, str function); the separator goes by
    # position, not by what was written: an item's str() may be empty
    fields = unrolling_iterable([(i > 0, 'item%d' % i, item_strs[i]) for i in range(n)])
    # "()" for no item, "(a,)" for one
    fixed_chars = 2 + 2 * (n - 1) if n > 1 else n + 2

    @specialize.ll()
    def ll_tuple_str(t):
        total = fixed_chars
        for sep, name, item_str in fields:
            total += len(item_str(getattr(t, name)).chars)
        r = malloc(STR, total)
        r.chars[0] = '('
        o = 1
        for sep, name, item_str in fields:
            if sep:
                o = _put_sep(r, o)
            o = _put(r, o, item_str(getattr(t, name)))
        if n == 1:
            r.chars[o] = ','
            o += 1
        r.chars[o] = ')'
        return r
    return ll_tuple_str
