"""rpy-lsp's low-level helpers of lists (see ll_str.py for how they are used): they work
on the items array of a list and its length, so one helper serves resizable lists (whose
structure holds the array and the length) and fixed-size ones (which are the array)."""
from rpython.rlib.objectmodel import specialize


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
