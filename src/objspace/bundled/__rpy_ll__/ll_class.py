"""rpy-lsp's low-level helpers of instances (see ll_str.py for how they are used).

Classes are numbered so that the subclasses of a class have the ids [min, max) of that
class; each vtable holds its class's id as `subclassrange_min`.
"""
from __rpy_ll__.ll_str import OBJECT


def ll_isinstance(obj, min, max):
    """`isinstance(obj, C)`, C's subclasses having the ids [min, max): False for None."""
    if not obj:
        return False
    m = obj.typeptr.subclassrange_min
    return min <= m < max
