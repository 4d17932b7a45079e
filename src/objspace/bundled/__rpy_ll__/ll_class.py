"""rpy-lsp's low-level helpers of instances (see ll_str.py for how they are used).

Classes are numbered so that the subclasses of a class have the ids [min, max) of that
class; each vtable holds its class's id as `subclassrange_min`.
"""
from rpython.rtyper.lltypesystem.lltype import typeOf, nullptr
from rpython.rlib.objectmodel import specialize
from __rpy_ll__.ll_str import OBJECT


def ll_isinstance(obj, min, max):
    """`isinstance(obj, C)`, C's subclasses having the ids [min, max): False for None."""
    if not obj:
        return False
    m = obj.typeptr.subclassrange_min
    return min <= m < max


def ll_inst_type(obj):
    """`type(obj)` of an instance that may be None: its vtable, or a null pointer for
    None (the reference's `type(None)` gives NULL, which compares unequal to every
    class)."""
    if obj:
        return obj.typeptr
    return nullptr(typeOf(obj).TO.typeptr.TO)


@specialize.ll()
def ll_memo_index(keys, key, stride, acc):
    """One argument of a `specialize.memo` call known only at run time (a class, a frozen
    object, a bool): `acc` plus `stride` times the position of `key` among `keys`, the
    values the argument can be (prebuilt). The sum over the arguments is the position of
    the call's result in the table of every combination (`ll_memo_result`)."""
    i = 0
    n = len(keys)
    while i < n - 1:
        if keys[i] == key:
            break
        i += 1
    return acc + i * stride


@specialize.ll()
def ll_memo_result(values, i):
    """The result of a `specialize.memo` call computed at translation time: item `i` of
    the prebuilt table of results (see `ll_memo_index`)."""
    return values[i]
