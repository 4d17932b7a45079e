"""rpy-lsp's low-level helpers of lists (see ll_str.py for how they are used).

Two layouts: a resizable list is `list {length, items}` (`items` a GcArray with room to
grow, overallocated as RPython's lists are), a list never resized is the GcArray itself.
The helpers that only read a list take its items array and its length (`items, n`), so
one helper serves both layouts; those that change the length take the resizable list.
Those that make a new list take its type (`LIST`, a pointer type, as a constant) and come
in two kinds, `ll_x` for a resizable result and `ll_x_fixed` for an array.

The item equality of `index`, `remove`, `in` and `==` is the constant `eq` (see
rtyper/annlowlevel.rs): None compares with `==`, otherwise it is the function.
"""
from rpython.rtyper.lltypesystem.lltype import malloc, typeOf, nullptr, Float, Signed
from rpython.rtyper.lltypesystem.lltype import Unsigned, SignedLongLong, UnsignedLongLong
from rpython.rtyper.lltypesystem.lltype import SignedLongLongLong
from rpython.rtyper.lltypesystem.lltype import Char, UniChar, Bool, Void, SingleFloat
from rpython.rtyper.lltypesystem.lltype import INT, UINT, SHORT, USHORT, SIGNEDCHAR, UCHAR
from rpython.rlib.objectmodel import specialize
from rpython.rlib.unroll import unrolling_iterable
from rpython.rlib.rgc import ll_arraycopy
from __rpy_ll__.ll_str import _clamp, ll_undefined


@specialize.ll()
def ll_reverse(items, n):
    i = 0
    j = n - 1
    while i < j:
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i += 1
        j -= 1


@specialize.ll()
def _copy(src, i, dst, j, n):
    # n items from src[i:] to dst[j:] (the `arraycopy` operation: a memmove, so the
    # ranges may overlap either way)
    ll_arraycopy(src, dst, i, j, n)


@specialize.ll()
def _eq(a, b, eq):
    if eq is None:
        return a == b
    return eq(a, b)


# ---- resizing (resizable lists)

@specialize.ll()
def _resize_ge(l, newsize):
    # room for newsize items: a bigger array, with as much spare room as the
    # reference's lists get (newsize / 8, plus 3 or 6)
    items = l.items
    if newsize <= len(items):
        return
    if newsize < 9:
        cap = newsize + (newsize >> 3) + 3
    else:
        cap = newsize + (newsize >> 3) + 6
    new = malloc(typeOf(l).TO.items.TO, cap)
    _copy(items, 0, new, 0, l.length)
    l.items = new


@specialize.ll()
def _shrink(l, newsize):
    # the length becomes newsize; the array shrinks when less than half of it is used
    items = l.items
    if newsize < (len(items) >> 1) - 5:
        # exactly newsize, as the reference's lists shrink (the spare room decides
        # which stale items a later slice assignment shows, see ll_setslice)
        new = malloc(typeOf(l).TO.items.TO, newsize)
        _copy(items, 0, new, 0, newsize)
        l.items = new
    l.length = newsize


@specialize.ll()
def _is_pointer(T):
    # an item or field type is a number, a character, a pointer or nothing (None): the
    # test is decided per type, so only the branch of the type's kind is kept
    return (T != Signed and T != Unsigned and T != SignedLongLong
            and T != UnsignedLongLong and T != SignedLongLongLong and T != Float and T != SingleFloat and T != Char
            and T != UniChar and T != Bool and T != Void and T != INT and T != UINT
            and T != SHORT and T != USHORT and T != SIGNEDCHAR and T != UCHAR)


@specialize.ll()
def _clear(l, start, stop):
    # the slots [start, stop) a list gives up by pop, del and del-slice: the reference's
    # lists set them to NULL when the items are pointers (a later slice assignment that
    # grows the list shows what the array holds there, see ll_setslice)
    ITEM = typeOf(l).TO.items.TO.OF
    if _is_pointer(ITEM):
        items = l.items
        null = nullptr(ITEM.TO)
        while start < stop:
            items[start] = null
            start += 1


@specialize.ll()
def ll_append(l, x):
    n = l.length
    if n >= len(l.items):
        _resize_ge(l, n + 1)
    l.length = n + 1
    l.items[n] = x


# ---- lists a loop fills (rtyper/rfill.rs)

@specialize.ll()
def ll_set_maxlength(l, n):
    # at the loop's iter: room for exactly the iterable's length (the reference's
    # preallocation of a list a loop fills); the list is still empty here
    if l.length == 0:
        l.items = malloc(typeOf(l).TO.items.TO, n)


@specialize.ll()
def ll_fill_exact(l):
    # at the loop's normal end, for a list never resized afterwards: the reference's
    # result is the preallocated array itself, so a loop that shrank the list it iterated
    # leaves zeros (or NULLs) after the items appended (one that grew it wrote past that
    # array there, undefined; here ll_append made room)
    n = len(l.items)
    if l.length < n:
        l.length = n


@specialize.ll()
def _check_index(index, n):
    # an index in [-n, n) made non-negative; out of it, undefined (no IndexError handler)
    if index < 0:
        index += n
    if index < 0 or index >= n:
        ll_undefined("list index {} out of range (length {}) without an IndexError handler",
                     index, n)
    return index


@specialize.ll()
def ll_pop(l, index):
    n = l.length
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError
    return _pop(l, index)


@specialize.ll()
def ll_pop_unchecked(l, index):
    return _pop(l, _check_index(index, l.length))


@specialize.ll()
def _pop(l, index):
    n = l.length
    items = l.items
    x = items[index]
    _copy(items, index + 1, items, index, n - index - 1)
    _clear(l, n - 1, n)
    _shrink(l, n - 1)
    return x


@specialize.ll()
def ll_delitem(l, index):
    n = l.length
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError
    _delitem(l, index)


@specialize.ll()
def ll_delitem_unchecked(l, index):
    _delitem(l, _check_index(index, l.length))


@specialize.ll()
def _delitem(l, index):
    n = l.length
    items = l.items
    _copy(items, index + 1, items, index, n - index - 1)
    _clear(l, n - 1, n)
    _shrink(l, n - 1)


@specialize.ll()
def ll_insert(l, index, x):
    n = l.length
    if index > n:
        ll_undefined("list.insert() index {} past the end of the list (length {})", index, n)
    index = _clamp(index, n)
    _resize_ge(l, n + 1)
    l.length = n + 1
    items = l.items
    _copy(items, index, items, index + 1, n - index)
    items[index] = x


@specialize.ll()
def ll_extend(l, items2, n2):
    # items2 may be l's own array (l.extend(l)): read before l grows, never overlapping
    n = l.length
    _resize_ge(l, n + n2)
    _copy(items2, 0, l.items, n, n2)
    l.length = n + n2


@specialize.ll()
def ll_extend_chars(l, s):
    # lst.extend(a string) on a list of characters
    n = l.length
    m = len(s.chars)
    _resize_ge(l, n + m)
    _copy(s.chars, 0, l.items, n, m)
    l.length = n + m


@specialize.ll()
def ll_setslice(l, start, stop, items2, n2):
    # l[start:stop] = other: the items between replaced by other's, which may be l's
    n = l.length
    _check_slice_start(start, n)
    if stop > n:
        # the reference only asserts `stop <= len(l)` here (no clamping as for a read):
        # its binaries copy a negative number of items
        ll_undefined("list slice assignment stop {} past the end of the list (length {})",
                     stop, n)
    if 0 <= stop < start:
        _setslice_stop_before_start(l, start, stop, items2, n2)
        return
    start = _clamp(start, n)
    stop = _clamp(stop, n)
    if stop < start:
        stop = start
    tail = n - stop
    if n2 > stop - start:
        # growing: the compiled binaries make the list n + n2 long, not n + n2 -
        # (stop - start) as Python; the items past the moved tail are whatever the
        # array held there (the items array is not cleared when a list shrinks)
        newlen = n + n2
    else:
        newlen = start + n2 + tail
    src = items2
    if items2 == l.items:
        # a copy first: the move below would overwrite what is read
        src = malloc(typeOf(items2).TO, n2)
        _copy(items2, 0, src, 0, n2)
    if newlen > n:
        _resize_ge(l, newlen)
    items = l.items
    _copy(items, stop, items, start + n2, tail)
    _copy(src, 0, items, start, n2)
    if newlen < n:
        _shrink(l, newlen)
    else:
        l.length = newlen


@specialize.ll()
def _setslice_stop_before_start(l, start, stop, items2, n2):
    # l[start:stop] = other with stop < start: the reference's helper takes it as a list
    # that grows by n2 (len2 > stop - start), so the list becomes n + n2 long, the items
    # from `stop` on (not from `start`) move to start + n2 and other's items go to start.
    # Its binaries move them with memcpy over an overlap, which glibc does as memmove;
    # beyond the array's spare room the move would write past it.
    n = l.length
    newlen = n + n2
    src = items2
    if items2 == l.items:
        src = malloc(typeOf(items2).TO, n2)
        _copy(items2, 0, src, 0, n2)
    _resize_ge(l, newlen)
    items = l.items
    tail = n - stop
    if start + n2 + tail > len(items):
        ll_undefined("list slice assignment [{}:{}] moves items past the list's array",
                     start, stop)
    _copy(items, stop, items, start + n2, tail)
    _copy(src, 0, items, start, n2)
    l.length = newlen


@specialize.ll()
def ll_delslice(l, start, stop):
    n = l.length
    _check_slice(start, stop, n)
    start = _clamp(start, n)
    stop = _clamp(stop, n)
    if stop <= start:
        return
    items = l.items
    _copy(items, stop, items, start, n - stop)
    _clear(l, n - (stop - start), n)
    _shrink(l, n - (stop - start))


# ---- the bounds of slices that change a list: a start past the end, or a stop before
# the start, is undefined (the reference's helpers only assert them); a stop past the end
# is the end. Negative bounds (from the end) are Python's, as the RTyper passes them.
# (Read slices, below, raise the reference's MemoryError instead.)

@specialize.ll()
def _check_slice_start(start, n):
    if start > n:
        ll_undefined("list slice start {} past the end of the list (length {})", start, n)


@specialize.ll()
def _check_slice(start, stop, n):
    _check_slice_start(start, n)
    if 0 <= start and 0 <= stop < start:
        ll_undefined("list slice stop {} before its start {}", stop, start)


# ---- indexing with checks (an IndexError handler is around the operation)

@specialize.ll()
def ll_getitem_checked(items, n, index):
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError
    return items[index]


@specialize.ll()
def ll_setitem_checked(items, n, index, x):
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError
    items[index] = x


# ---- new lists

@specialize.ll()
def _newlist(LIST, n):
    l = malloc(LIST.TO)
    l.length = n
    l.items = malloc(LIST.TO.items.TO, n)
    return l


@specialize.ll()
def _read_slice_start(start, n):
    # a negative start (from the end, as Python) never comes from RPython code, which
    # needs a start >= 0; a start past the end stays as it is (see _read_slice_length)
    if start < 0:
        return _clamp(start, n)
    return start


@specialize.ll()
def _read_slice_length(start, stop, n):
    # The reference's read-slice helpers only assert their bounds (unchecked at -O2):
    # they clip the stop to the end (`[:-1]` is n - 1) and allocate stop - start items,
    # and its GC's malloc refuses a negative length with MemoryError, so `l[5:2]`,
    # `l[len(l) + 1:]` and `[][:-1]` raise MemoryError, which a handler can catch.
    if stop < 0:
        stop = _clamp(stop, n) if stop < -1 else stop + n
    if stop > n:
        stop = n
    length = stop - start
    if length < 0:
        raise MemoryError
    return length


@specialize.ll()
def ll_slice(LIST, items, n, start, stop):
    start = _read_slice_start(start, n)
    length = _read_slice_length(start, stop, n)
    l = _newlist(LIST, length)
    _copy(items, start, l.items, 0, length)
    return l


@specialize.ll()
def ll_slice_fixed(ARRAY, items, n, start, stop):
    start = _read_slice_start(start, n)
    length = _read_slice_length(start, stop, n)
    a = malloc(ARRAY.TO, length)
    _copy(items, start, a, 0, length)
    return a


@specialize.ll()
def _chars_into(dst, s):
    _copy(s.chars, 0, dst, 0, len(s.chars))


@specialize.ll()
def ll_list_of_chars(LIST, s):
    # list(a string)
    l = _newlist(LIST, len(s.chars))
    _chars_into(l.items, s)
    return l


@specialize.ll()
def ll_list_of_chars_fixed(ARRAY, s):
    a = malloc(ARRAY.TO, len(s.chars))
    _chars_into(a, s)
    return a


@specialize.ll()
def ll_concat(LIST, items1, n1, items2, n2):
    l = _newlist(LIST, n1 + n2)
    _copy(items1, 0, l.items, 0, n1)
    _copy(items2, 0, l.items, n1, n2)
    return l


@specialize.ll()
def ll_concat_fixed(ARRAY, items1, n1, items2, n2):
    a = malloc(ARRAY.TO, n1 + n2)
    _copy(items1, 0, a, 0, n1)
    _copy(items2, 0, a, n1, n2)
    return a


@specialize.ll()
def _is_narrow(T):
    # the C integer types narrower than a machine word (rffi's INT, UINT, ...): the
    # low-level graphs do no arithmetic or comparison on them
    return (T == INT or T == UINT or T == SHORT or T == USHORT or T == SIGNEDCHAR
            or T == UCHAR)


@specialize.ll()
def _fill(dst, x, times):
    # one store per item, none when x is the zero the new array already holds (not for
    # floats, where -0.0 == 0.0, nor for narrow integers, which cannot be compared: the
    # type test comes first so that their comparison is never flowed)
    OF = typeOf(dst).TO.OF
    if times > 0 and OF != Float and not _is_narrow(OF) and x == dst[0]:
        return
    k = 0
    while k < times:
        dst[k] = x
        k += 1


@specialize.ll()
def _repeat_into(dst, items, n, times):
    if n == 1:
        # `[x] * n`, the usual case
        _fill(dst, items[0], times)
        return
    k = 0
    while k < times:
        _copy(items, 0, dst, k * n, n)
        k += 1


@specialize.ll()
def ll_mul(LIST, items, n, times):
    if times < 0:
        times = 0
    l = _newlist(LIST, n * times)
    _repeat_into(l.items, items, n, times)
    return l


@specialize.ll()
def ll_mul_fixed(ARRAY, items, n, times):
    if times < 0:
        times = 0
    a = malloc(ARRAY.TO, n * times)
    _repeat_into(a, items, n, times)
    return a


# `[x] * times` written as such in one block (the reference's `alloc_and_set`): x itself,
# not the list the literal made, which the block may have changed before the `*`
@specialize.ll()
def ll_alloc_and_set(LIST, times, x):
    if times < 0:
        times = 0
    l = _newlist(LIST, times)
    _fill(l.items, x, times)
    return l


@specialize.ll()
def ll_alloc_and_set_fixed(ARRAY, times, x):
    if times < 0:
        times = 0
    a = malloc(ARRAY.TO, times)
    _fill(a, x, times)
    return a


def _range_len(start, stop, step):
    if step == 0:
        raise ValueError
    if step > 0 and start < stop:
        return (stop - start - 1) // step + 1
    if step < 0 and start > stop:
        return (start - stop - 1) // (-step) + 1
    return 0


@specialize.ll()
def _range_into(dst, start, step, n):
    i = 0
    while i < n:
        dst[i] = start + i * step
        i += 1


@specialize.ll()
def ll_range(LIST, start, stop, step):
    n = _range_len(start, stop, step)
    l = _newlist(LIST, n)
    _range_into(l.items, start, step, n)
    return l


@specialize.ll()
def ll_range_fixed(ARRAY, start, stop, step):
    n = _range_len(start, stop, step)
    a = malloc(ARRAY.TO, n)
    _range_into(a, start, step, n)
    return a


# ---- truth

@specialize.ll()
def ll_list_is_true(l):
    return bool(l) and l.length > 0


@specialize.ll()
def ll_array_is_true(a):
    return bool(a) and len(a) > 0


# ---- item equality

@specialize.ll()
def _find(items, n, x, eq):
    # the position of the first item equal to x, or -1
    i = 0
    while i < n:
        if _eq(items[i], x, eq):
            return i
        i += 1
    return -1


@specialize.ll()
def ll_index(items, n, x, eq):
    i = _find(items, n, x, eq)
    if i < 0:
        raise ValueError
    return i


@specialize.ll()
def ll_list_contains(items, n, x, eq):
    return _find(items, n, x, eq) >= 0


@specialize.ll()
def ll_remove(l, x, eq):
    ll_delitem(l, ll_index(l.items, l.length, x, eq))


@specialize.ll()
def ll_list_eq(items1, n1, items2, n2, eq):
    if n1 != n2:
        return False
    i = 0
    while i < n1:
        if not _eq(items1[i], items2[i], eq):
            return False
        i += 1
    return True


@specialize.ll()
def ll_eq(a, b, eq):
    # `a == b` of two values (tuples, say) with the equality of their type
    return _eq(a, b, eq)


def make_tuple_eq(eqs):
    """The equality of tuples whose items compare with `eqs` (one per item), made when
    the RTyper first needs it: the loop over the items is unrolled, so the function reads
    each field by its name."""
    fields = unrolling_iterable([('item%d' % i, eqs[i]) for i in range(len(eqs))])

    @specialize.ll()
    def ll_tuple_eq(a, b):
        for name, eq in fields:
            if not _eq(getattr(a, name), getattr(b, name), eq):
                return False
        return True
    return ll_tuple_eq


def make_list_eq(fixed, eq):
    """The equality of lists (which may be None) whose items compare with `eq`; `fixed`
    for lists that are arrays."""
    if fixed:
        @specialize.ll()
        def ll_arrays_eq(a, b):
            if not a or not b:
                return a == b
            return ll_list_eq(a, len(a), b, len(b), eq)
        return ll_arrays_eq

    @specialize.ll()
    def ll_lists_eq(a, b):
        if not a or not b:
            return a == b
        return ll_list_eq(a.items, a.length, b.items, b.length, eq)
    return ll_lists_eq
