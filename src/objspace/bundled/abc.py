"""rpy-lsp's model of the `abc` module, for classes built at import time: ABCMeta (a
metaclass with `register`) and the abstract-method decorators."""


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


class abstractproperty(property):
    __isabstractmethod__ = True


class ABCMeta(type):
    """Classes it builds keep their registered virtual subclasses (answered by
    `_abc_is_registered`; issubclass() itself knows only the real bases here)."""

    _abc_invalidation_counter = 0

    def __new__(mcls, name, bases, namespace):
        cls = type.__new__(mcls, name, bases, namespace)
        cls._abc_registry = []
        # The caches CPython's ABCMeta keeps: metaclasses deriving from it (typing's
        # GenericMeta) share them between classes.
        cls._abc_cache = set()
        cls._abc_negative_cache = set()
        cls._abc_negative_cache_version = ABCMeta._abc_invalidation_counter
        return cls

    def register(cls, subclass):
        if subclass not in cls._abc_registry:
            cls._abc_registry.append(subclass)
        return subclass

    def _abc_is_registered(cls, subclass):
        return subclass in cls._abc_registry
