"""rpy-lsp's model of `rpython.rlib.rshrinklist`: a list that drops, now and then on
`append`, the items its subclass's `must_keep(x)` rejects, keeping the others in order.
A `_mixin_`, as the reference's: each subclass gets its own copy of the methods.

When it shrinks matters to a program that reads `items()`: before each append, once
the list holds at least the threshold (16 at first), it keeps only what `must_keep`
accepts and sets the next threshold to 16 plus twice what it kept."""


class AbstractShrinkList(object):
    _mixin_ = True

    def __init__(self):
        self._list = []
        self._next_shrink = 16

    def append(self, x):
        self._do_shrink()
        self._list.append(x)

    def items(self):
        """The live list itself (for reading)."""
        return self._list

    def _do_shrink(self):
        if len(self._list) < self._next_shrink:
            return
        kept = 0
        for x in self._list:
            if self.must_keep(x):
                self._list[kept] = x
                kept += 1
        del self._list[kept:]
        self._next_shrink = 16 + 2 * kept

    def must_keep(self, x):
        raise NotImplementedError
