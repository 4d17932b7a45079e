"""rpy-lsp's model of `rpython.rlib.rbisect`: binary search in the first `hi` items of
a sorted list, written in RPython."""


def bisect_left(a, x, hi):
    """The first index in a[:hi] where x could be inserted keeping the order (before
    any equal items)."""
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def bisect_right(a, x, hi):
    """The last such index (after any equal items)."""
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def bisect_left_addr(a, x, hi):
    """bisect_left comparing x with the items' `addr` attribute."""
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid].addr < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def bisect_right_addr(a, x, hi):
    """bisect_right comparing x with the items' `addr` attribute."""
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid].addr:
            hi = mid
        else:
            lo = mid + 1
    return lo
