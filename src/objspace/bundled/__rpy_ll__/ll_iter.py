"""rpy-lsp's low-level helpers of iterators (see ll_str.py for how they are used): `next()`
of the iterator structures of rtyper/rmodel.rs.

A range iterator is `rangeiter {next, stop, step}`; the other iterators are
`iter_<variant> {container, index}`, `index` the position of the next item. The container
is a resizable list (`list {length, items}`), a fixed-size list (the GcArray itself), a
string (`s.chars`), a tuple whose items have one type (`*args`) or a dict (its entries in insertion order, see ll_dict.py). There is one
helper per (container layout, variant), chosen by the RTyper (rtyper/riter.rs); those that
give a tuple (`enumerate`, `items()`) take its pointer type `TUPLE` as a constant.

A container changed during the iteration is read again at each step, as the reference's
iterators do: a list that shrank ends the iteration early.
"""
from rpython.rtyper.lltypesystem.lltype import malloc
from rpython.rlib.objectmodel import specialize
from rpython.rlib.unroll import unrolling_iterable


# ---- range(): the iterator made by the RTyper from range()'s bounds, or from a list
# range() made and stored (its items are start, start + step, ...)

@specialize.ll()
def ll_rangeiter_next(it):
    n = it.next
    step = it.step
    if step > 0:
        if n >= it.stop:
            raise StopIteration
    elif n <= it.stop:
        raise StopIteration
    it.next = n + step
    return n


# with a step whose sign is known (the RTyper inlines these two in the loop, rtyper/riter.rs)

@specialize.ll()
def ll_rangeiter_next_up(it):
    n = it.next
    if n >= it.stop:
        raise StopIteration
    it.next = n + it.step
    return n


@specialize.ll()
def ll_rangeiter_next_down(it):
    n = it.next
    if n <= it.stop:
        raise StopIteration
    it.next = n + it.step
    return n


@specialize.ll()
def ll_rangeiter_of_list(RANGEITER, items, n, step):
    it = malloc(RANGEITER.TO)
    start = 0
    if n > 0:
        start = items[0]
    it.next = start
    it.stop = start + n * step
    it.step = step
    return it


# ---- resizable lists

@specialize.ll()
def ll_listiter_next(it):
    l = it.container
    i = it.index
    if i >= l.length:
        raise StopIteration
    it.index = i + 1
    return l.items[i]


@specialize.ll()
def ll_listiter_next_reversed(it):
    # the reference's ll_revlistnext: the index starts at the length the list had when
    # reversed() was called (see rtyper/rbuiltin.rs) and counts down to 0, reading the
    # items as they are now (a list shrunk meanwhile shows what its array still holds)
    i = it.index
    if i < 0:
        raise StopIteration
    it.index = i - 1
    return it.container.items[i]


@specialize.ll()
def ll_listiter_next_enumerate(TUPLE, it):
    l = it.container
    i = it.index
    if i >= l.length:
        raise StopIteration
    it.index = i + 1
    t = malloc(TUPLE.TO)
    t.item0 = i
    t.item1 = l.items[i]
    return t


# ---- fixed-size lists (arrays)

@specialize.ll()
def ll_arrayiter_next(it):
    a = it.container
    i = it.index
    if i >= len(a):
        raise StopIteration
    it.index = i + 1
    return a[i]


@specialize.ll()
def ll_arrayiter_next_reversed(it):
    a = it.container
    i = it.index
    n = len(a)
    if i >= n:
        raise StopIteration
    it.index = i + 1
    return a[n - 1 - i]


@specialize.ll()
def ll_arrayiter_next_enumerate(TUPLE, it):
    a = it.container
    i = it.index
    if i >= len(a):
        raise StopIteration
    it.index = i + 1
    t = malloc(TUPLE.TO)
    t.item0 = i
    t.item1 = a[i]
    return t


# ---- strings and unicode strings

@specialize.ll()
def ll_striter_next(it):
    s = it.container
    i = it.index
    if i >= len(s.chars):
        raise StopIteration
    it.index = i + 1
    return s.chars[i]


@specialize.ll()
def ll_striter_next_reversed(it):
    s = it.container
    i = it.index
    n = len(s.chars)
    if i >= n:
        raise StopIteration
    it.index = i + 1
    return s.chars[n - 1 - i]


@specialize.ll()
def ll_striter_next_enumerate(TUPLE, it):
    s = it.container
    i = it.index
    if i >= len(s.chars):
        raise StopIteration
    it.index = i + 1
    t = malloc(TUPLE.TO)
    t.item0 = i
    t.item1 = s.chars[i]
    return t


# ---- dicts: the live entries in insertion order

MAXINT = 9223372036854775807

@specialize.ll()
def _dictiter_advance(it):
    # the number of the next live entry, which the iterator then moves past
    d = it.container
    entries = d.entries
    n = d.num_used
    i = it.index
    while i < n and not entries[i].live:
        i += 1
    if i >= n:
        # an exhausted iterator stays exhausted, even if the dict grows again
        it.index = MAXINT
        raise StopIteration
    it.index = i + 1
    return i


@specialize.ll()
def ll_dictiter_next_keys(it):
    i = _dictiter_advance(it)
    return it.container.entries[i].key


@specialize.ll()
def ll_dictiter_next_values(it):
    i = _dictiter_advance(it)
    return it.container.entries[i].value


@specialize.ll()
def ll_dictiter_next_items(TUPLE, it):
    i = _dictiter_advance(it)
    entries = it.container.entries
    t = malloc(TUPLE.TO)
    t.item0 = entries[i].key
    t.item1 = entries[i].value
    return t


# ---- tuples whose items have one type (`for a in args` of a `*args`)

def make_tuple_iter_next(n):
    """`next()` of the iterators over tuples of `n` items (made per length, as the
    RTyper asks; the items are read by field name)."""
    fields = unrolling_iterable([(i, 'item%d' % i) for i in range(n)])

    @specialize.ll()
    def ll_tupleiter_next(it):
        t = it.container
        i = it.index
        for k, name in fields:
            if i == k:
                it.index = i + 1
                return getattr(t, name)
        raise StopIteration
    return ll_tupleiter_next
