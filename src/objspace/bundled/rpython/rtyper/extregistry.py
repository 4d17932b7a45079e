"""rpy-lsp's model of `rpython.rtyper.extregistry`.

An `ExtRegistryEntry` subclass tells the reference's annotator and RTyper how to handle
the object it is `_about_` (a function: `compute_result_annotation`, `specialize_call`)
or the instances of its `_type_` (`compute_annotation`). rpy-lsp does not run that
annotator-level code: the subclass marks what it describes (`__rpy_extregistry__`), and
the annotator gives a marked object an unknown annotation instead of analysing its
Python body (which is usually not RPython: it runs only on the host).
"""


def _mark(obj, entry):
    try:
        obj.__rpy_extregistry__ = entry.__name__
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
                        _mark(x, selfcls)
                else:
                    _mark(described, selfcls)


class ExtRegistryEntry(object):
    __metaclass__ = _AutoRegisteringType

    def __init__(self, type, instance=None):
        self.type = type
        self.instance = instance
