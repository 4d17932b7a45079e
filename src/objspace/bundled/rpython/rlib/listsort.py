"""rpy-lsp's model of `rpython.rlib.listsort`: a stable sort usable by RPython code
(binary insertion sort of short runs merged pairwise, written in RPython). Like the reference's class, it reaches the
sorted container only through the `getitem`, `setitem`, `length` and `getitem_slice`
functions given to `make_timsort_class` (plain indexing, `len` and slicing by default), so a
container that is not a list (an object wrapping one, say) sorts as it does there."""


# length of the runs sorted by insertion before merging: the reference sorts a list shorter
# than 64 items by binary insertion alone, so such a list is ordered exactly as there even
# by a `lt` that is not a strict order
RUN = 64


def make_timsort_class(getitem=None, setitem=None, length=None,
                       getitem_slice=None, lt=None, base_class=object):
    # The defaults are made anew for each class, so that each is annotated with its own
    # container type.
    if getitem is None:
        def getitem(lst, i):
            return lst[i]
    if setitem is None:
        def setitem(lst, i, value):
            lst[i] = value
    if length is None:
        def length(lst):
            return len(lst)
    if getitem_slice is None:
        def getitem_slice(lst, start, stop):
            return lst[start:stop]

    class TimSort(base_class):
        """Sorts `list` in place with `self.lt`."""

        def __init__(self, list, listlength=None):
            self.list = list
            if listlength is None:
                listlength = length(list)
            self.listlength = listlength

        def setitem(self, item, value):
            setitem(self.list, item, value)

        def lt(self, a, b):
            return a < b

        def le(self, a, b):
            return not self.lt(b, a)

        def sort(self):
            # Runs of RUN items sorted by binary insertion, then merged pairwise; a stable
            # sort, so it orders items as the reference's timsort does.
            lst = self.list
            n = self.listlength
            start = 0
            while start < n:
                stop = min(start + RUN, n)
                self.binarysort(lst, start, stop)
                start = stop
            width = RUN
            while width < n:
                lo = 0
                while lo + width < n:
                    mid = lo + width
                    hi = min(mid + width, n)
                    self.merge(lst, lo, mid, hi)
                    lo = hi
                width *= 2

        def binarysort(self, lst, start, stop):
            i = start + 1
            while i < stop:
                pivot = getitem(lst, i)
                lo = start
                hi = i
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if self.lt(pivot, getitem(lst, mid)):
                        hi = mid
                    else:
                        lo = mid + 1
                j = i
                while j > lo:
                    setitem(lst, j, getitem(lst, j - 1))
                    j -= 1
                setitem(lst, lo, pivot)
                i += 1

        def merge(self, lst, lo, mid, hi):
            # Like the reference's merges: copy the left run with getitem_slice and read the
            # copy with getitem; a tie takes the left item, which keeps the sort stable.
            assert 0 <= lo <= mid
            left = getitem_slice(lst, lo, mid)
            nleft = mid - lo
            i = 0
            j = mid
            k = lo
            while i < nleft and j < hi:
                a = getitem(left, i)
                b = getitem(lst, j)
                if self.lt(b, a):
                    setitem(lst, k, b)
                    j += 1
                else:
                    setitem(lst, k, a)
                    i += 1
                k += 1
            while i < nleft:
                setitem(lst, k, getitem(left, i))
                i += 1
                k += 1

    if lt is not None:
        def custom_lt(self, a, b):
            return lt(a, b)
        TimSort.lt = custom_lt
    return TimSort


TimSort = make_timsort_class()
