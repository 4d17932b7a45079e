"""rpy-lsp's model of `rpython.rtyper.extregistry`.

An `ExtRegistryEntry` subclass tells the reference's annotator and RTyper how to handle
the object it is `_about_` (a function: `compute_result_annotation`, `specialize_call`)
or the instances of its `_type_` (`compute_annotation`). The subclass marks what it
describes (`__rpy_extregistry__`), and the annotator never analyses a marked object's
Python body (which is usually not RPython: it runs only on the host). It runs the
entry's annotator-level code as the reference does, on the annotations of
`rpython.annotator.model`: for the instances of a `_type_` (marked
`__rpy_extregistry_type__`) the entry's `compute_annotation()` and the `method_*`/`getattr`
of the annotation it returns; for a function it is `_about_` (marked
`__rpy_extregistry_about__`) its `compute_result_annotation(*args_s)` at each call
(`_SomeDescribed`). rpy-lsp's RTyper runs the RTyper code (`specialize_call`, the
annotation's `rtyper_makerepr`) before it translates, see `rpython.rtyper.rmodel`.
Without an entry's code, a marked object is unknown.
"""
from rpython.annotator import model
from rpython.annotator import bookkeeper as _bookkeeper_model


class _SomeDescribed(model.SomeObject):
    """The annotation of a function an entry is `_about_`: calling it gives what the
    entry's `compute_result_annotation` says of the call's arguments."""

    def __init__(self, entry, obj):
        self.entry = entry
        self.obj = obj

    def __call__(self, *args_s):
        return self.entry(type(self.obj), self.obj).compute_result_annotation(*args_s)

    def _specialize_call(self, hop):
        # run by rpy-lsp's RTyper with a recording hop (`rtyper/rext.rs`)
        return self.entry(type(self.obj), self.obj).specialize_call(hop)


def _mark(obj, entry, key):
    try:
        obj.__rpy_extregistry__ = entry.__name__
        if key == '_type_':
            # rpy-lsp's annotator runs `entry(cls).compute_annotation()` for its instances
            obj.__rpy_extregistry_type__ = entry
        elif hasattr(entry, 'compute_result_annotation'):
            # and `compute_result_annotation` at each call of what it is `_about_`
            obj.__rpy_extregistry_about__ = entry
    except (AttributeError, TypeError):
        pass


class _AutoRegisteringType(type):
    def __init__(selfcls, name, bases, dict):
        type.__init__(selfcls, name, bases, dict)
        for key in ('_about_', '_type_'):
            if key in dict:
                described = dict[key]
                if isinstance(described, tuple):
                    for x in described:
                        _mark(x, selfcls, key)
                else:
                    _mark(described, selfcls, key)


class ExtRegistryEntry(object):
    __metaclass__ = _AutoRegisteringType

    def __init__(self, type, instance=None):
        self.type = type
        self.instance = instance
