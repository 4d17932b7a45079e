"""rpy-lsp's model of `rpython.rlib.unroll`."""


class SpecTag(object):
    def _freeze_(self):
        return True


class unrolling_iterable(SpecTag):
    """A constant sequence whose loops the translator unrolls."""

    def __init__(self, iterable):
        self._items = tuple(iterable)

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)
