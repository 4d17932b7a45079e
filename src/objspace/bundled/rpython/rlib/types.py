"""rpy-lsp's model of `rpython.rlib.types`: the annotations `rlib.signature.signature`
declares. The reference returns annotator objects (SomeInteger()...); here each function
returns a `SignatureType` naming the annotation, which the annotator turns into one
(`annotator::signature`). A list or dict type is one container definition however often
the signature is used, as in the reference, where `types.list(...)` makes one ListDef.
`self()` and `any()` are the reference's marker classes."""


class SignatureType(object):
    """An annotation of a signature: `kind` (`int`, `str`, `list`, `instance`...), the
    annotations or class it is made of (`args`), and whether it may be None."""

    def __init__(self, kind, args, can_be_None):
        self.kind = kind
        self.args = args
        self.can_be_None = can_be_None

    def __repr__(self):
        return "types.%s%r" % (self.kind, self.args)


def none():
    return SignatureType('none', (), False)


def impossible():
    return SignatureType('impossible', (), False)


def float():
    return SignatureType('float', (), False)


def singlefloat():
    return SignatureType('singlefloat', (), False)


def longfloat():
    return SignatureType('longfloat', (), False)


def int():
    return SignatureType('int', (), False)


def bool():
    return SignatureType('bool', (), False)


def unicode():
    return SignatureType('unicode', (), False)


def unicode0():
    return SignatureType('unicode0', (), False)


def str(can_be_None=False):
    return SignatureType('str', (), can_be_None)


def bytearray():
    return SignatureType('bytearray', (), False)


def str0():
    return SignatureType('str0', (), False)


def char():
    return SignatureType('char', (), False)


def ptr(ll_type):
    return SignatureType('ptr', (ll_type,), False)


def list(element):
    return SignatureType('list', (element,), False)


def array(element):
    return SignatureType('array', (element,), False)


def dict(keytype, valuetype):
    return SignatureType('dict', (keytype, valuetype), False)


def instance(cls, can_be_None=False):
    return SignatureType('instance', (cls,), can_be_None)


class SelfTypeMarker(object):
    pass


def self():
    return SelfTypeMarker()


class AnyTypeMarker(object):
    pass


def any():
    return AnyTypeMarker()
