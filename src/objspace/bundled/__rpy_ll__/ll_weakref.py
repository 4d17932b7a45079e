"""rpy-lsp's low-level helpers of `rweakref.RWeakKeyDictionary` (see ll_str.py for how they
are used): a dict of the identity hash of each key to a tuple (weak reference to the key,
value) (rtyper/rweakref.rs). A weak reference's `referent` is its object, or NULL once the
object was freed.
"""
from rpython.rtyper.lltypesystem.lltype import typeOf, nullptr
from rpython.rlib.objectmodel import specialize


@specialize.ll()
def ll_weakkey_value(t, key):
    # the value of entry `t` (NULL if the hash was not found) when its key is `key`: an
    # identity hash is reused only after its object died, whose reference is then NULL
    if t and t.item0.referent == key:
        return t.item1
    return nullptr(typeOf(t).TO.item1.TO)


@specialize.ll()
def ll_weakkey_length(d):
    # the entries whose key is alive and whose value was not set to None
    entries = d.entries
    n = 0
    i = 0
    while i < d.num_used:
        if entries[i].live:
            t = entries[i].value
            if t.item0.referent and t.item1:
                n += 1
        i += 1
    return n
