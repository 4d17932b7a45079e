"""rpy-lsp's model of `rpython.rtyper.extregistry`.

An `ExtRegistryEntry` subclass tells the reference's annotator and RTyper how to handle
the object it is `_about_` (a function: `compute_result_annotation`, `specialize_call`)
or the instances of its `_type_` (`compute_annotation`). rpy-lsp does not run that
annotator-level code, except for the instances of a `_type_`: the subclass marks what
it describes (`__rpy_extregistry__`), and the annotator gives a marked object an unknown
annotation instead of analysing its Python body (which is usually not RPython: it runs
only on the host). For the instances of a `_type_` (marked `__rpy_extregistry_type__`),
the annotator runs the entry's `compute_annotation()` and the `method_*`/`getattr` of the
annotation it returns (`rpython.annotator.model`), as the reference does.
"""


def _mark(obj, entry, key):
    try:
        obj.__rpy_extregistry__ = entry.__name__
        if key == '_type_':
            # rpy-lsp's annotator runs `entry(cls).compute_annotation()` for its instances
            obj.__rpy_extregistry_type__ = entry
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
