"""rpy-lsp's model of `rpython.rlib.rerased`: type erasure, written in RPython.

The reference turns an erased value into an untyped GC pointer. Here an erased value is an
instance of `Erased`: each erasing pair boxes its values in a subclass of its own, so that
storages erased by different pairs share one type (the base class) while `unerase` gets
back exactly the type its pair erased; an erased int is an `_ErasedInt`.
"""
from __rpy__ import rerased_requires_taggedpointers

# names of newer rpythons that 0.2.1's module lacks: `rerased.<name>` is an error there
_rpy_absent_ = ("is_integer",)


class Erased(object):
    """An erased value (the common type of every erasing pair)."""
    _attrs_ = ()


class _ErasedInt(Erased):
    _immutable_fields_ = ['_int']

    def __init__(self, i):
        self._int = i


def erase_int(x):
    rerased_requires_taggedpointers()
    return _ErasedInt(x)


def unerase_int(y):
    assert isinstance(y, _ErasedInt)
    return y._int


def is_integer(e):
    return isinstance(e, _ErasedInt)


def new_erasing_pair(name):
    """(erase, unerase): erase(x) hides x's type, unerase(e) gives it back."""

    class _ErasedBox(Erased):
        _immutable_fields_ = ['_x']

        def __init__(self, x):
            self._x = x

    _ErasedBox.__name__ = 'Erased_' + name

    def erase(x):
        return _ErasedBox(x)

    def unerase(y):
        assert isinstance(y, _ErasedBox)
        return y._x

    return erase, unerase


new_static_erasing_pair = new_erasing_pair
