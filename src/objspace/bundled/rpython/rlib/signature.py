"""rpy-lsp's model of `rpython.rlib.signature`: `@signature(argtypes..., returns=type)`
records `func._signature_ = (paramtypes, returntype)` as the reference does; the annotator
(`annotator::signature`) checks the arguments of every call and the function's result
against it. `finishsigs` replaces `types.self()` by the decorated class."""
from rpython.rlib import types


def signature(*paramtypes, **kwargs):
    returntype = kwargs.pop('returns', None)
    if returntype is None:
        raise TypeError("signature: parameter 'returns' required")

    def decorator(f):
        f._signature_ = (paramtypes, returntype)
        return f
    return decorator


def finishsigs(cls):
    def fix(sigtype):
        if isinstance(sigtype, types.SelfTypeMarker):
            return types.instance(cls)
        return sigtype
    for attr in cls.__dict__.values():
        if hasattr(attr, '_signature_'):
            paramtypes, returntype = attr._signature_
            attr._signature_ = (tuple([fix(t) for t in paramtypes]), fix(returntype))
    return cls


class FieldSpec(object):
    def __init__(self, tp):
        pass


class ClassSpec(object):
    def __init__(self, fields, inherit=False):
        pass
