"""rpy-lsp's model of `rpython.tool.pairtype`, import-time machinery:

- `extendabletype`: a metaclass under which `class __extend__(C): ...` adds its
  attributes to `C` instead of making a subclass (the statement then binds None);
- `pair(a, b)` / `pairtype(A, B)`: a class per pair of classes, whose bases are the pairs
  of the classes' bases, so methods defined on `pairtype(A, B)` dispatch on both types.
"""


class extendabletype(type):
    def __new__(cls, name, bases, attrs):
        if name == '__extend__':
            for base in bases:
                for key, value in attrs.items():
                    if key != '__module__':
                        setattr(base, key, value)
            return None
        return type.__new__(cls, name, bases, attrs)


def pair(a, b):
    """The object of the pair class of `a` and `b`'s classes, holding both."""
    tp = pairtype(a.__class__, b.__class__)
    return tp((a, b))


_pairtypes = {}


def pairtype(cls1, cls2):
    key = (cls1, cls2)
    if key in _pairtypes:
        return _pairtypes[key]
    bases1 = list(cls1.__bases__)
    bases2 = list(cls2.__bases__)
    bases = []
    for b in bases1:
        bases.append(pairtype(b, cls2))
    for b in bases2:
        bases.append(pairtype(cls1, b))
    if not bases:
        bases = [tuple]
    name = 'pairtype(%s, %s)' % (cls1.__name__, cls2.__name__)
    tp = type.__new__(extendabletype, name, tuple(bases), {})
    _pairtypes[key] = tp
    return tp
