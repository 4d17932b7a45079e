"""rpy-lsp's low-level helpers of dicts (see ll_str.py for how they are used): the
insertion-ordered `dict {num_live, num_used, entries, indexes[, fneq, fnhash]}` of
rtyper/rmodel.rs.

`entries` holds the entries in insertion order (`{key, value, live}`; a deleted entry stays,
dead, until the array is rebuilt), `num_used` of them used, `num_live` of those alive.
`indexes` is an open-addressing hash index of entry numbers (FREE for an empty slot; a slot
naming a dead entry is a tombstone). It is always at least 1.5 times as large as `entries`,
so a probe always ends on a FREE slot; it is rebuilt, with the entries compacted, when the
entries array is full. A prebuilt dict (or one the RTyper made without an index) has
`indexes` NULL: the first operation builds it.

Keys are hashed with `compute_hash` (integers as themselves, strings by content, tuples item
by item, instances by identity) and compared with the key equality `eq` (see
rtyper/annlowlevel.rs); an r_dict uses its own `fneq` and `fnhash`. Which of the two is
the constant `custom`, a type: `Bool` for an r_dict, `Void` otherwise (a comparison of
types is decided by the annotator, so each specialization keeps one branch).
The type of a new dict (`DICT`, a pointer type) is passed as a constant.
"""
from rpython.rtyper.lltypesystem.lltype import malloc, typeOf, nullptr, Bool
from rpython.rlib.objectmodel import specialize, compute_hash
from __rpy_ll__.ll_list import _newlist

FREE = -1
PERTURB_SHIFT = 5
MAXINT = 9223372036854775807


@specialize.ll()
def ll_dict_is_true(d):
    return bool(d) and d.num_live > 0


@specialize.ll()
def _hash(d, key, custom):
    if custom == Bool:
        return d.fnhash(key)
    return compute_hash(key)


@specialize.ll()
def _keyeq(d, a, b, custom, eq):
    if custom == Bool:
        return d.fneq(a, b)
    if eq is None:
        return a == b
    return eq(a, b)


@specialize.ll()
def _index_size(n):
    # the smallest power of two at least 1.5 times n (and 16)
    size = 16
    while size * 2 < n * 3:
        size *= 2
    return size


@specialize.ll()
def _insert_index(indexes, h, i):
    mask = len(indexes) - 1
    perturb = h & MAXINT
    s = h & mask
    while indexes[s] != FREE:
        s = (s * 5 + 1 + perturb) & mask
        perturb >>= PERTURB_SHIFT
    indexes[s] = i


@specialize.ll()
def _reindex(d, custom):
    # a new index of the used entries, sized for the whole entries array
    entries = d.entries
    indexes = malloc(typeOf(d).TO.indexes.TO, _index_size(len(entries)))
    k = 0
    while k < len(indexes):
        indexes[k] = FREE
        k += 1
    i = 0
    n = d.num_used
    while i < n:
        if entries[i].live:
            _insert_index(indexes, _hash(d, entries[i].key, custom), i)
        i += 1
    d.indexes = indexes


@specialize.ll()
def _lookup(d, key, h, custom, eq):
    # the number of the live entry of `key` (whose hash is h), or -1
    if not d.indexes:
        _reindex(d, custom)
    indexes = d.indexes
    entries = d.entries
    mask = len(indexes) - 1
    perturb = h & MAXINT
    s = h & mask
    while True:
        i = indexes[s]
        if i == FREE:
            return -1
        if entries[i].live:
            if _keyeq(d, entries[i].key, key, custom, eq):
                return i
        s = (s * 5 + 1 + perturb) & mask
        perturb >>= PERTURB_SHIFT


@specialize.ll()
def _grow(d, custom):
    # room for one more entry: the live entries, in order, in an array big enough for
    # twice as many, and their new index
    old = d.entries
    n = d.num_used
    live = d.num_live
    cap = live * 2 + 8
    if cap < len(old):
        cap = len(old)
    new = malloc(typeOf(d).TO.entries.TO, cap)
    i = 0
    j = 0
    while i < n:
        if old[i].live:
            new[j].key = old[i].key
            new[j].value = old[i].value
            new[j].live = True
            j += 1
        i += 1
    d.entries = new
    d.num_used = j
    _reindex(d, custom)


@specialize.ll()
def _add(d, key, value, h, custom):
    # a new entry (the key is not in the dict)
    if d.num_used >= len(d.entries):
        _grow(d, custom)
    elif not d.indexes:
        _reindex(d, custom)
    i = d.num_used
    entries = d.entries
    entries[i].key = key
    entries[i].value = value
    entries[i].live = True
    d.num_used = i + 1
    d.num_live += 1
    _insert_index(d.indexes, h, i)


@specialize.ll()
def _kill(d, i):
    # entry i is deleted: it stays in the array, dead, until the next rebuild
    d.entries[i].live = False
    d.num_live -= 1


@specialize.ll()
def ll_newdict(DICT):
    d = malloc(DICT.TO)
    d.entries = malloc(DICT.TO.entries.TO, 8)
    d.indexes = nullptr(DICT.TO.indexes.TO)
    return d


@specialize.ll()
def ll_dict_getitem(d, key, custom, eq):
    i = _lookup(d, key, _hash(d, key, custom), custom, eq)
    if i < 0:
        raise KeyError
    return d.entries[i].value


@specialize.ll()
def ll_dict_setitem(d, key, value, custom, eq):
    h = _hash(d, key, custom)
    i = _lookup(d, key, h, custom, eq)
    if i >= 0:
        d.entries[i].value = value
    else:
        _add(d, key, value, h, custom)


@specialize.ll()
def ll_dict_delitem(d, key, custom, eq):
    i = _lookup(d, key, _hash(d, key, custom), custom, eq)
    if i < 0:
        raise KeyError
    _kill(d, i)


@specialize.ll()
def ll_dict_contains(d, key, custom, eq):
    return _lookup(d, key, _hash(d, key, custom), custom, eq) >= 0


@specialize.ll()
def ll_dict_get(d, key, default, custom, eq):
    i = _lookup(d, key, _hash(d, key, custom), custom, eq)
    if i < 0:
        return default
    return d.entries[i].value


@specialize.ll()
def ll_dict_setdefault(d, key, default, custom, eq):
    h = _hash(d, key, custom)
    i = _lookup(d, key, h, custom, eq)
    if i >= 0:
        return d.entries[i].value
    _add(d, key, default, h, custom)
    return default


@specialize.ll()
def ll_dict_pop(d, key, custom, eq):
    i = _lookup(d, key, _hash(d, key, custom), custom, eq)
    if i < 0:
        raise KeyError
    value = d.entries[i].value
    _kill(d, i)
    return value


@specialize.ll()
def ll_dict_pop_default(d, key, default, custom, eq):
    i = _lookup(d, key, _hash(d, key, custom), custom, eq)
    if i < 0:
        return default
    value = d.entries[i].value
    _kill(d, i)
    return value


@specialize.ll()
def ll_dict_clear(d):
    d.entries = malloc(typeOf(d).TO.entries.TO, 8)
    d.indexes = nullptr(typeOf(d).TO.indexes.TO)
    d.num_used = 0
    d.num_live = 0


@specialize.ll()
def _last_live(d):
    i = d.num_used - 1
    while i >= 0:
        if d.entries[i].live:
            return i
        i -= 1
    raise KeyError


@specialize.ll()
def ll_dict_popitem(TUPLE, d):
    """`d.popitem()`: the last inserted entry."""
    i = _last_live(d)
    t = malloc(TUPLE.TO)
    t.item0 = d.entries[i].key
    t.item1 = d.entries[i].value
    _kill(d, i)
    # the entries from i on are all dead: forget them, and the index that names them
    # (rebuilt by the next lookup; emptying a dict with popitem() needs none)
    d.num_used = i
    d.indexes = nullptr(typeOf(d).TO.indexes.TO)
    return t


@specialize.ll()
def ll_dict_update(d, other, custom, eq):
    src = other.entries
    n = other.num_used
    i = 0
    while i < n:
        if src[i].live:
            ll_dict_setitem(d, src[i].key, src[i].value, custom, eq)
            # the source may be the dict itself: its entries array may have changed
            src = other.entries
            n = other.num_used
        i += 1


@specialize.ll()
def ll_dict_copy(d, custom, eq):
    new = malloc(typeOf(d).TO)
    new.entries = malloc(typeOf(d).TO.entries.TO, 8)
    new.indexes = nullptr(typeOf(d).TO.indexes.TO)
    if custom == Bool:
        new.fneq = d.fneq
        new.fnhash = d.fnhash
    ll_dict_update(new, d, custom, eq)
    return new


@specialize.ll()
def _fill_keys(items, d):
    entries = d.entries
    i = 0
    j = 0
    while i < d.num_used:
        if entries[i].live:
            items[j] = entries[i].key
            j += 1
        i += 1


@specialize.ll()
def _fill_values(items, d):
    entries = d.entries
    i = 0
    j = 0
    while i < d.num_used:
        if entries[i].live:
            items[j] = entries[i].value
            j += 1
        i += 1


@specialize.ll()
def _fill_items(items, d):
    entries = d.entries
    i = 0
    j = 0
    while i < d.num_used:
        if entries[i].live:
            t = malloc(typeOf(items).TO.OF.TO)
            t.item0 = entries[i].key
            t.item1 = entries[i].value
            items[j] = t
            j += 1
        i += 1


# `d.keys()`, `d.values()`, `d.items()`: a resizable list (LIST) or an array (ARRAY)

@specialize.ll()
def ll_dict_keys(LIST, d):
    lst = _newlist(LIST, d.num_live)
    _fill_keys(lst.items, d)
    return lst


@specialize.ll()
def ll_dict_keys_fixed(ARRAY, d):
    items = malloc(ARRAY.TO, d.num_live)
    _fill_keys(items, d)
    return items


@specialize.ll()
def ll_dict_values(LIST, d):
    lst = _newlist(LIST, d.num_live)
    _fill_values(lst.items, d)
    return lst


@specialize.ll()
def ll_dict_values_fixed(ARRAY, d):
    items = malloc(ARRAY.TO, d.num_live)
    _fill_values(items, d)
    return items


@specialize.ll()
def ll_dict_items(LIST, d):
    lst = _newlist(LIST, d.num_live)
    _fill_items(lst.items, d)
    return lst


@specialize.ll()
def ll_dict_items_fixed(ARRAY, d):
    items = malloc(ARRAY.TO, d.num_live)
    _fill_items(items, d)
    return items
