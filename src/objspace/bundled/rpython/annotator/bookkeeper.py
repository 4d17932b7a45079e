"""rpy-lsp's model of `rpython.annotator.bookkeeper`: `getbookkeeper()` as an
`ExtRegistryEntry`'s annotator-level code sees it. The calls it asks for
(`emulate_pbc_call`) are recorded in `_emulated`, which rpy-lsp's annotator annotates
after that code returns.
"""
from rpython.annotator import model


class _Const(model.SomeObject):
    """`immutablevalue(x)`: the annotation of a prebuilt object, as rpy-lsp computes it."""

    def __init__(self, value):
        self.const = value


class _ClassDef(object):
    def __init__(self, cls):
        self.cls = cls


class _ListDef(object):
    def __init__(self, s_item):
        self.s_item = s_item


_emulated = []


class Bookkeeper(object):
    def immutablevalue(self, x):
        return _Const(x)

    def getuniqueclassdef(self, cls):
        return _ClassDef(cls)

    def newlist(self, *s_values):
        s_item = s_values[0] if s_values else model.s_ImpossibleValue
        return model.SomeList(_ListDef(s_item))

    def emulate_pbc_call(self, unique_key, pbc, args_s, replace=[], callback=None):
        _emulated.append((pbc, list(args_s)))
        return model.SomeObject()


_bookkeeper = Bookkeeper()


def getbookkeeper():
    return _bookkeeper
