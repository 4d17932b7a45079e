"""rpy-lsp's model of `rpython.rlib.signature`: `@signature(argtypes..., returns=type)`
records `func._signature_ = (paramtypes, returntype)` as the reference does; the annotator
(`annotator::signature`) checks the arguments of every call and the function's result
against it. `finishsigs` replaces `types.self()` by the decorated class."""
from rpython.rlib import types


def signature(*paramtypes, **kwargs):
    # `returns` is the one keyword, and it is required
    if kwargs.get('returns') is None:
        raise TypeError("signature: parameter 'returns' required")
    spec = (paramtypes, kwargs['returns'])

    def record(func):
        func._signature_ = spec
        return func
    return record


def finishsigs(cls):
    """Puts the instances of cls where its methods' signatures say `types.self()`."""
    def resolve(sigtype):
        if not isinstance(sigtype, types.SelfTypeMarker):
            return sigtype
        return types.instance(cls)
    for member in cls.__dict__.values():
        spec = getattr(member, '_signature_', None)
        if spec is not None:
            params = tuple([resolve(t) for t in spec[0]])
            member._signature_ = (params, resolve(spec[1]))
    return cls


class FieldSpec(object):
    def __init__(self, tp):
        pass


class ClassSpec(object):
    def __init__(self, fields, inherit=False):
        pass
