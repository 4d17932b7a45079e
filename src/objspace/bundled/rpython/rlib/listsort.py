"""rpy-lsp's model of `rpython.rlib.listsort`: a stable sort usable by RPython code
(binary insertion sort, written in RPython)."""


def make_timsort_class(getitem=None, setitem=None, length=None,
                       getitem_slice=None, lt=None, base_class=object):

    class TimSort(base_class):
        """Sorts `list` in place with `self.lt`."""

        def __init__(self, list, listlength=None):
            self.list = list
            if listlength is None:
                listlength = len(list)
            self.listlength = listlength

        def lt(self, a, b):
            return a < b

        def le(self, a, b):
            return not self.lt(b, a)

        def sort(self):
            lst = self.list
            n = self.listlength
            i = 1
            while i < n:
                pivot = lst[i]
                lo = 0
                hi = i
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if self.lt(pivot, lst[mid]):
                        hi = mid
                    else:
                        lo = mid + 1
                j = i
                while j > lo:
                    lst[j] = lst[j - 1]
                    j -= 1
                lst[lo] = pivot
                i += 1

    if lt is not None:
        def custom_lt(self, a, b):
            return lt(a, b)
        TimSort.lt = custom_lt
    return TimSort


TimSort = make_timsort_class()
