"""rpy-lsp's low-level helpers of dicts (see ll_str.py for how they are used): the
insertion-ordered `dict {num_live, num_used, resize_counter, entries, indexes[, fneq[,
fneqself], fnhash[, fnhashself]]}` of rtyper/rmodel.rs and rtyper/rdict.rs.

`entries` holds the entries in insertion order (`{key, value, live}`), `num_used` of them
used, `num_live` of those alive; a deleted entry stays, dead, until the array is
compacted. `indexes` is an open-addressing hash index (a power of two long) whose slots
hold FREE, DELETED or VALID + the number of an entry.

A loop over a dict walks the entries array (ll_iter.py) and a dict may change while a
loop runs, so what the loop sees depends on when the array grows, compacts or reuses a
place; those moments follow the reference's ordered dicts, so programs print the same:
- a new dict has an empty entries array and no index; its first lookup makes an index
  of 16 slots. A full entries array grows to n + n/8 + 8 places, unless at least half of
  it is dead: then it is compacted in place (or into a smaller array when three quarters
  are dead), and the index rebuilt;
- `resize_counter` is twice the index size less three per live entry when the index was
  made, less three per entry added since: when it would drop to zero the index is rebuilt
  bigger (about four times the live entries), or the entries compacted when that would
  not be bigger;
- deleting the last used entry gives back its place (and the dead ones before it), an
  emptied dict starts again at place 0, and a dict at least 7/8 dead is resized;
- `clear()` of a used dict gives it a new empty entries array and a new index;
- a prebuilt dict has an entries array exactly as long as its items and no index: its
  first operation makes the smallest index holding them.

Keys are hashed with `compute_hash` (integers as themselves, strings by content, tuples item
by item, instances by identity) and compared with the key equality `eq` (see
rtyper/annlowlevel.rs); an r_dict uses its own `fneq` and `fnhash`. Which of the two is
the constant `custom`, a type: `Void` for a dict, otherwise an r_dict: `Bool` when both its
functions are plain functions; a bound method (`r_dict(space.eq, space.hash)`) is called
with the instance the dict keeps beside it (`fneqself`, `fnhashself`): `Char` when the
equality is one, `UniChar` when the hash is one, `Signed` when both are (a comparison of
types is decided by the annotator, so each specialization keeps one branch).
As the reference's, an r_dict's entries keep their key's hash (`hash`): a lookup takes an
entry of the very same key, else calls the equality only on an entry of the same hash
(and starts again if that call changed the dict), and the index is rebuilt, a dict copied
or merged with the kept hashes, so the program's functions are called as often (a
prebuilt r_dict's keys are hashed again at its first operation, as the reference's
binary does).
The type of a new dict (`DICT`, a pointer type) is passed as a constant.
"""
from rpython.rtyper.lltypesystem.lltype import malloc, typeOf, nullptr, Bool, Char, UniChar
from rpython.rtyper.lltypesystem.lltype import Signed, Void
from rpython.rlib.objectmodel import specialize, compute_hash
from __rpy_ll__.ll_list import _newlist, _is_pointer

# the slots of `indexes`
FREE = 0
DELETED = 1
VALID = 2
PERTURB_SHIFT = 5
MAXINT = 9223372036854775807
# the size of the first index of a dict, and the most live entries `resize_counter`
# accounts for at once
INDEX_MIN = 16
RESIZE_MAX_EXTRA = 30000


@specialize.ll()
def ll_dict_is_true(d):
    return bool(d) and d.num_live > 0


@specialize.ll()
def _hash(d, key, custom):
    if custom == Bool or custom == Char:
        return d.fnhash(key)
    if custom == UniChar or custom == Signed:
        return d.fnhash(d.fnhashself, key)
    return compute_hash(key)


@specialize.ll()
def _entry_hash(d, entries, i, custom):
    # the hash of entry i's key: kept in an r_dict's entry
    if custom == Void:
        return _hash(d, entries[i].key, custom)
    return entries[i].hash


@specialize.ll()
def _keyeq(d, a, b, custom, eq):
    if custom == Bool or custom == UniChar:
        return d.fneq(a, b)
    if custom == Char or custom == Signed:
        return d.fneq(d.fneqself, a, b)
    if eq is None:
        return a == b
    return eq(a, b)


def _grown_length(n):
    # the places of an entries array grown from n places: 0, 8, 17, 27, 38, 50...
    return n + (n >> 3) + 8


def _most_entries(nslots):
    # the reference's index stores entry numbers in bytes up to 256 slots, in 16 bits up
    # to 65536, in 32 bits up to 2**32: it can name this many entries
    if nslots <= 256:
        return 253
    if nslots <= 65536:
        return 65533
    if nslots <= 4294967296:
        return 4294967293
    return MAXINT


# ---- the index

@specialize.ll()
def _store(indexes, h, i):
    # entry i (of hash h) in the first FREE or DELETED slot of its probe sequence
    mask = len(indexes) - 1
    perturb = h & MAXINT
    s = h & mask
    while indexes[s] >= VALID:
        s = (s * 5 + 1 + perturb) & mask
        perturb >>= PERTURB_SHIFT
    indexes[s] = i + VALID


@specialize.ll()
def _reindex(d, nslots, custom):
    # a new index of nslots slots naming the live entries
    d.indexes = malloc(typeOf(d).TO.indexes.TO, nslots)
    d.resize_counter = nslots * 2 - d.num_live * 3
    entries = d.entries
    i = 0
    while i < d.num_used:
        if entries[i].live:
            _store(d.indexes, _entry_hash(d, entries, i, custom), i)
        i += 1


@specialize.ll()
def _ensure_index(d, custom):
    # a new or prebuilt dict gets the smallest index that holds its entries
    if not d.indexes:
        if custom != Void:
            # a prebuilt r_dict: the reference's binary hashes its keys again, in order,
            # with the r_dict's function
            entries = d.entries
            i = 0
            while i < d.num_used:
                entries[i].hash = _hash(d, entries[i].key, custom)
                i += 1
        nslots = INDEX_MIN
        while nslots * 2 <= d.num_live * 3:
            nslots *= 2
        _reindex(d, nslots, custom)


@specialize.ll()
def _find(d, key, h, custom, eq):
    # the slot naming the live entry of `key` (whose hash is h), or -1
    _ensure_index(d, custom)
    indexes = d.indexes
    mask = len(indexes) - 1
    perturb = h & MAXINT
    s = h & mask
    while True:
        x = indexes[s]
        if x == FREE:
            return -1
        if x >= VALID:
            if custom == Void:
                if _keyeq(d, d.entries[x - VALID].key, key, custom, eq):
                    return s
            else:
                entries = d.entries
                k = entries[x - VALID].key
                if k == key:
                    return s
                if entries[x - VALID].hash == h:
                    found = _keyeq(d, k, key, custom, eq)
                    if (entries != d.entries or indexes != d.indexes
                            or not entries[x - VALID].live
                            or entries[x - VALID].key != k):
                        # the equality changed the dict: start again
                        return _find(d, key, h, custom, eq)
                    if found:
                        return s
        s = (s * 5 + 1 + perturb) & mask
        perturb >>= PERTURB_SHIFT


@specialize.ll()
def _slot_of(d, i, custom):
    # the slot naming entry i
    indexes = d.indexes
    mask = len(indexes) - 1
    h = _entry_hash(d, d.entries, i, custom)
    perturb = h & MAXINT
    s = h & mask
    while indexes[s] != i + VALID:
        s = (s * 5 + 1 + perturb) & mask
        perturb >>= PERTURB_SHIFT
    return s


@specialize.ll()
def _lookup(d, key, h, custom, eq):
    # the number of the live entry of `key`, or -1
    s = _find(d, key, h, custom, eq)
    if s < 0:
        return -1
    return d.indexes[s] - VALID


# ---- the entries array

@specialize.ll()
def _forget(entries, i):
    # entry i no longer holds anything (the reference clears the pointers a dead entry
    # held, so that they do not keep objects alive)
    ENTRY = typeOf(entries).TO.OF
    entries[i].live = False
    if _is_pointer(ENTRY.key):
        entries[i].key = nullptr(ENTRY.key.TO)
    if _is_pointer(ENTRY.value):
        entries[i].value = nullptr(ENTRY.value.TO)


@specialize.ll()
def _compact(d, custom):
    # the live entries moved to the front (of a smaller array when at least three
    # quarters of the array are dead), and the index rebuilt at its size
    old = d.entries
    live = d.num_live
    if live < len(old) // 4:
        new = malloc(typeOf(d).TO.entries.TO, _grown_length(live))
    else:
        new = old
    n = d.num_used
    i = 0
    j = 0
    while i < n:
        if old[i].live:
            if i != j or new != old:
                new[j].key = old[i].key
                new[j].value = old[i].value
                new[j].live = True
                if custom != Void:
                    new[j].hash = old[i].hash
            j += 1
        i += 1
    if new == old:
        while j < n:
            _forget(new, j)
            j += 1
    d.entries = new
    d.num_used = live
    _reindex(d, len(d.indexes), custom)


@specialize.ll()
def _resize_for(d, extra, custom):
    # an index with room for `extra` more entries, or the entries compacted when that
    # index would be smaller than the present one
    estimate = (d.num_live + extra) * 2
    nslots = INDEX_MIN
    while nslots <= estimate:
        nslots *= 2
    if nslots < len(d.indexes):
        _compact(d, custom)
    else:
        _reindex(d, nslots, custom)


@specialize.ll()
def _resize(d, custom):
    extra = d.num_live + 1
    if extra > RESIZE_MAX_EXTRA:
        extra = RESIZE_MAX_EXTRA
    _resize_for(d, extra, custom)


@specialize.ll()
def _grow(d, custom):
    # room for one more entry in a full entries array: compacted when at least half
    # of it is dead (or when the index could not name the entries of a bigger
    # array), else copied into a longer one
    if d.num_live < d.num_used // 2:
        _compact(d, custom)
        return
    old = d.entries
    cap = _grown_length(len(old))
    if cap > _most_entries(len(d.indexes)):
        _compact(d, custom)
        return
    new = malloc(typeOf(d).TO.entries.TO, cap)
    i = 0
    while i < d.num_used:
        new[i].key = old[i].key
        new[i].value = old[i].value
        new[i].live = old[i].live
        if custom != Void:
            new[i].hash = old[i].hash
        i += 1
    d.entries = new


@specialize.ll()
def _add(d, key, value, h, custom):
    # a new entry (the key is not in the dict, which has an index)
    if d.num_used == len(d.entries):
        _grow(d, custom)
    if d.resize_counter <= 3:
        _resize(d, custom)
    d.resize_counter -= 3
    i = d.num_used
    entries = d.entries
    entries[i].key = key
    entries[i].value = value
    entries[i].live = True
    if custom != Void:
        entries[i].hash = h
    d.num_used = i + 1
    d.num_live += 1
    _store(d.indexes, h, i)


@specialize.ll()
def _delete(d, s, custom):
    # deletes the entry named by slot s
    i = d.indexes[s] - VALID
    d.indexes[s] = DELETED
    _forget(d.entries, i)
    d.num_live -= 1
    if d.num_live == 0:
        d.num_used = 0
    elif i == d.num_used - 1:
        # the last place, and the dead ones before it, are given back
        while not d.entries[i - 1].live:
            i -= 1
        d.num_used = i
    if d.num_live + INDEX_MIN <= len(d.entries) // 8:
        _resize(d, custom)


@specialize.ll()
def ll_newdict(DICT):
    d = malloc(DICT.TO)
    d.entries = malloc(DICT.TO.entries.TO, 0)
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
    _setitem_hashed(d, key, value, _hash(d, key, custom), custom, eq)


@specialize.ll()
def _setitem_hashed(d, key, value, h, custom, eq):
    i = _lookup(d, key, h, custom, eq)
    if i >= 0:
        d.entries[i].value = value
    else:
        _add(d, key, value, h, custom)


@specialize.ll()
def ll_dict_delitem(d, key, custom, eq):
    s = _find(d, key, _hash(d, key, custom), custom, eq)
    if s < 0:
        raise KeyError
    _delete(d, s, custom)


@specialize.ll()
def ll_dict_contains(d, key, custom, eq):
    return _find(d, key, _hash(d, key, custom), custom, eq) >= 0


@specialize.ll()
def ll_dict_keyhash(d, key, custom, eq):
    # the hash the dict keeps for `key` (objectmodel's *_with_hash helpers)
    return _hash(d, key, custom)


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
    s = _find(d, key, _hash(d, key, custom), custom, eq)
    if s < 0:
        raise KeyError
    value = d.entries[d.indexes[s] - VALID].value
    _delete(d, s, custom)
    return value


@specialize.ll()
def ll_dict_pop_default(d, key, default, custom, eq):
    s = _find(d, key, _hash(d, key, custom), custom, eq)
    if s < 0:
        return default
    value = d.entries[d.indexes[s] - VALID].value
    _delete(d, s, custom)
    return value


@specialize.ll()
def ll_dict_clear(d):
    # a dict never used keeps what it has (an emptied one its long entries array)
    if d.num_used == 0:
        return
    d.entries = malloc(typeOf(d).TO.entries.TO, 0)
    d.indexes = malloc(typeOf(d).TO.indexes.TO, INDEX_MIN)
    d.resize_counter = INDEX_MIN * 2
    d.num_used = 0
    d.num_live = 0


@specialize.ll()
def ll_dict_popitem(TUPLE, d, custom, eq):
    """`d.popitem()`: the last inserted entry."""
    if d.num_live == 0:
        raise KeyError
    _ensure_index(d, custom)
    i = d.num_used - 1
    while not d.entries[i].live:
        i -= 1
    d.num_used = i + 1
    t = malloc(TUPLE.TO)
    t.item0 = d.entries[i].key
    t.item1 = d.entries[i].value
    _delete(d, _slot_of(d, i, custom), custom)
    return t


@specialize.ll()
def ll_dict_update(d, other, custom, eq):
    if d == other:
        return
    _ensure_index(other, custom)
    _ensure_index(d, custom)
    # room for the other's entries, unless the dict is bigger already
    if d.resize_counter <= (other.num_live - d.num_live) * 3:
        _resize_for(d, other.num_live, custom)
    i = 0
    while i < other.num_used:
        src = other.entries
        if src[i].live:
            h = _entry_hash(other, src, i, custom)
            _setitem_hashed(d, src[i].key, src[i].value, h, custom, eq)
        i += 1


@specialize.ll()
def ll_dict_copy(d, custom, eq):
    # the same entries array (dead entries too, at their places) and an index as big
    _ensure_index(d, custom)
    new = malloc(typeOf(d).TO)
    if custom != Void:
        new.fneq = d.fneq
        new.fnhash = d.fnhash
    if custom == Char or custom == Signed:
        new.fneqself = d.fneqself
    if custom == UniChar or custom == Signed:
        new.fnhashself = d.fnhashself
    src = d.entries
    dst = malloc(typeOf(d).TO.entries.TO, len(src))
    n = d.num_used
    i = 0
    while i < n:
        dst[i].key = src[i].key
        dst[i].value = src[i].value
        dst[i].live = src[i].live
        if custom != Void:
            dst[i].hash = src[i].hash
        i += 1
    new.entries = dst
    new.num_used = n
    new.num_live = d.num_live
    _reindex(new, len(d.indexes), custom)
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
