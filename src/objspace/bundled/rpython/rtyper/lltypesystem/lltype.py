"""rpy-lsp's model of `rpython.rtyper.lltypesystem.lltype`: low-level types and pointers.

Types are ordinary objects built at import time (`GcStruct('node', ('x', Signed))`); the
annotator turns each into a type of its low-level type arena (structures by identity,
arrays and pointers by structure). `malloc`, `nullptr` and `typeOf` are primitives that
only translated code calls: the annotator gives `malloc(T, n)` a pointer to T, and field
and item accesses through pointers their field and item types. rpy-lsp's own low-level
helpers (the operations of strings, lists, dicts) are written with this module.
"""
from __rpy__ import lltype_malloc, lltype_nullptr, lltype_typeOf


class LowLevelType(object):
    pass


class Primitive(LowLevelType):
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return self._name


Signed = Primitive("Signed")
Unsigned = Primitive("Unsigned")
SignedLongLong = Primitive("SignedLongLong")
UnsignedLongLong = Primitive("UnsignedLongLong")
SignedLongLongLong = Primitive("SignedLongLongLong")
Float = Primitive("Float")
# C's 4-byte float: its values are `r_singlefloat`s
SingleFloat = Primitive("SingleFloat")
Char = Primitive("Char")
UniChar = Primitive("UniChar")
Bool = Primitive("Bool")
Void = Primitive("Void")


class _NarrowInt(Primitive):
    """A C integer type narrower than a machine word (rffi's `INT`, `SHORT`, `UCHAR`...)."""

    def __init__(self, name, bits, signed):
        self._name = name
        self.bits = bits
        self.signed = signed


# rffi's names for them
INT = _NarrowInt("INT", 32, True)
UINT = _NarrowInt("UINT", 32, False)
SHORT = _NarrowInt("SHORT", 16, True)
USHORT = _NarrowInt("USHORT", 16, False)
SIGNEDCHAR = _NarrowInt("SIGNEDCHAR", 8, True)
UCHAR = _NarrowInt("UCHAR", 8, False)


class ContainerType(LowLevelType):
    _gckind = 'raw'


class Struct(ContainerType):
    """`Struct(name, (field, TYPE), ...)`; the last field may be an Array (the structure
    is then variable-sized)."""

    def __init__(self, name, *fields, **kwds):
        self._name = name
        self._fields = fields
        self._names = tuple([f[0] for f in fields])
        for fname, ftype in fields:
            setattr(self, fname, ftype)

    def __repr__(self):
        return "%s %s" % (self.__class__.__name__, self._name)


class GcStruct(Struct):
    _gckind = 'gc'


class Array(ContainerType):
    """`Array(ITEM)`: items of one type, with a length."""

    def __init__(self, OF, **kwds):
        self.OF = OF
        # rffi.CArray's bare C array: the annotator refuses its len()
        self._nolength = bool(kwds.get('hints', {}).get('nolength', False))
        # rffi.CONST_CCHARP's: another type than CCHARP's array
        self._render_as_const = bool(kwds.get('hints', {}).get('render_as_const', False))
        # rffi.VOIDP's: another type than CCHARP's array too
        self._render_as_void = bool(kwds.get('hints', {}).get('render_as_void', False))


class GcArray(Array):
    _gckind = 'gc'


class ForwardReference(ContainerType):
    """A structure or array declared before it is defined (a type that points to
    itself): `become(T)` makes it `T`. The annotator reads it as the type it became
    (`_become`), so that a `Ptr` made before `become` points to that type; its fields and
    name are copied for the program's own import-time code."""

    def become(self, realcontainertype):
        if not isinstance(realcontainertype, ContainerType):
            raise TypeError("ForwardReference can only be to a container, not %r" %
                            (realcontainertype,))
        if realcontainertype._gckind != self._gckind:
            raise TypeError("become() gives conflicting gckind, use the "
                            "correct XxForwardReference")
        self._become = realcontainertype
        if isinstance(realcontainertype, Struct):
            self._name = realcontainertype._name
            self._fields = realcontainertype._fields
            self._names = realcontainertype._names
            for fname, ftype in realcontainertype._fields:
                setattr(self, fname, ftype)
        else:
            self.OF = realcontainertype.OF


class GcForwardReference(ForwardReference):
    _gckind = 'gc'


class OpaqueType(ContainerType):
    """A C type whose content RPython code never sees (`rffi.COpaquePtr`): only pointers
    to it are passed around."""

    def __init__(self, tag, hints={}):
        self.tag = tag
        self._name = tag or "opaque"


class FuncType(ContainerType):
    """The type of a C function (`rffi.CCallback`): `FuncType([ARG, ...], RESULT)`."""

    def __init__(self, args, result):
        self.ARGS = tuple(args)
        self.RESULT = result


class Ptr(LowLevelType):
    def __init__(self, TO):
        self.TO = TO


malloc = lltype_malloc


class _HostContainer(object):
    """A structure or array `malloc`ed while rpy-lsp's RTyper runs a library's own Repr
    (`rpython.rtyper.rmodel`; the Repr's `convert_const` builds the prebuilt value of a
    constant this way). The RTyper copies it into the program's prebuilt data: fields are
    attributes (absent ones are zero or NULL), items a list."""

    def __init__(self, T, n):
        self._T = T
        if n is not None:
            self._items = [None] * n

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, value):
        self._items[i] = value

    def __nonzero__(self):
        return True


def _host_malloc(T, n=None):
    return _HostContainer(T, n)
nullptr = lltype_nullptr


class _NullPtr(object):
    """What `nullptr(T)` gives at import time (a module-level `NULL`): the annotator reads
    it as a constant null pointer to `T`."""

    def __init__(self, T):
        self._T = T

    def __nonzero__(self):
        return False
typeOf = lltype_typeOf


def free(p, flavor, track_allocation=True):
    """Frees raw memory from `malloc(..., flavor='raw')`: nothing to do for a model that
    never runs out of it (a program's memory is kept until it exits)."""
    pass
free._annspecialcase_ = 'specialize:ll'    # one per pointer type, as the primitive


def _make_scoped_allocator(T, zero):
    class ScopedAlloc:
        def __init__(self, n=None):
            if n is None:
                self.buf = malloc(T, flavor='raw', zero=zero)
            else:
                self.buf = malloc(T, n, flavor='raw', zero=zero)

        def __enter__(self):
            return self.buf

        def __exit__(self, *args):
            free(self.buf, flavor='raw')
    return ScopedAlloc
_make_scoped_allocator._annspecialcase_ = 'specialize:memo'


def scoped_alloc(T, n=None, zero=False):
    """`with scoped_alloc(T, n) as buf:` raw memory freed after the block."""
    return _make_scoped_allocator(T, zero)(n=n)
scoped_alloc._annspecialcase_ = 'specialize:arg(0, 2)'
