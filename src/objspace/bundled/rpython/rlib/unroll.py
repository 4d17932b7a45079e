"""rpy-lsp's model of `rpython.rlib.unroll`."""


class SpecTag(object):
    def _freeze_(self):
        return True


class unrolling_iterable(SpecTag):
    """A constant sequence whose loops the translator unrolls. Built at run time
    (not a prebuilt constant) it is an ordinary instance over a list, as in the
    reference: its items are a list and its first step an `_unroller`."""

    def __init__(self, iterable):
        self._items = list(iterable)
        self._head = _unroller(self._items)

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def get_unroller(self):
        return self._head


class _unroller(SpecTag):
    def __init__(self, items, i=0):
        self._items = items
        self._i = i
        self._next = None

    def step(self):
        v = self._items[self._i]
        if self._next is None:
            self._next = _unroller(self._items, self._i + 1)
        return v, self._next
