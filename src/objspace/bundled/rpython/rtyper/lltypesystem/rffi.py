"""rpy-lsp's model of `rpython.rtyper.lltypesystem.rffi`: the C integer types and `cast`.

`cast(TYPE, value)` converts an integer to a low-level integer type: to `lltype.Signed`,
`Unsigned`, `SignedLongLong`, `UnsignedLongLong` (and `LONG`, `ULONG`, ... which are
those) it is `intmask`, `r_uint`, `r_longlong`, `r_ulonglong`; to a narrower C type (`INT`,
`UINT`, `SHORT`, `UCHAR`, ...) it keeps the low bits, sign-extended for a signed type: the
value is of the narrow integer class of that type (`rarithmetic.r_int32` for `INT`, also
`rffi.r_int`), which the toolchain stores and converts but refuses arithmetic on. `cast`
is specialized per type (`specialize.ll`): each `TYPE is ...` below is decided while
annotating.

Raw memory as programs use it: `cast` to a pointer type and `ptradd` (typed; `run` stops
there), `CCHARP` (a `char *`: a pointer to an array of chars
without length), `CArray`/`CArrayPtr`, `str2charp`/`charp2str`/`charpsize2str`/
`free_charp`/`scoped_str2charp`, and `llexternal(name, args, result)` declaring a C
function. Calling a declared function converts its arguments as the toolchain's wrapper
does (a number to the declared C number type; a string passed for a `char *` becomes a
fresh NUL-terminated copy, freed after the call, and None becomes NULL), then calls
`_c_<name>`, the C function itself: its attribute `_rpy_c_function` (the C name and the C
spellings of the declared types) tells the RTyper to call C there, and `_rpy_c_eci` (the
lists of an `ExternalCompilationInfo`) what `build` compiles and links with. `run` executes the C
library functions rpy-lsp models (`lltypesystem/libc.rs`) and stops at the others; `build`
calls the C function. The body of `_c_<name>` only gives the annotator a value of the
result type, never a constant. `INT` and `UINT` results come as `Signed` and `Unsigned`,
as the toolchain's wrapper gives them on 64-bit machines.
"""
from rpython.rtyper.lltypesystem.lltype import Signed, Unsigned, SignedLongLong
from rpython.rtyper.lltypesystem.lltype import UnsignedLongLong, Float, Char, Bool, Void
from rpython.rtyper.lltypesystem.lltype import UniChar, SingleFloat
from rpython.rtyper.lltypesystem import lltype
from rpython.rlib.rstring import StringBuilder
from rpython.rlib.rarithmetic import intmask, r_longlong, r_ulonglong, r_singlefloat
from rpython.rlib.rarithmetic import build_int, r_uint as _r_word_uint
from rpython.rlib.objectmodel import specialize, we_are_translated
from __rpy__ import model_unknown, rffi_cast_ptr, rffi_is_ptr, rffi_ptradd
import os


from rpython.rtyper.lltypesystem.lltype import INT, UINT, SHORT, USHORT, SIGNEDCHAR, UCHAR
from rpython.rtyper.lltypesystem.lltype import _NarrowInt
INT_real = INT
# the integer classes of the C types (rffi.r_int is C's int, not rarithmetic.r_int)
r_int = build_int(None, True, 32)
r_uint = build_int(None, False, 32)
r_short = build_int(None, True, 16)
r_ushort = build_int(None, False, 16)
r_signedchar = build_int(None, True, 8)
r_uchar = build_int(None, False, 8)
r_int_real = r_int
# C's long, size_t, ssize_t and time_t are machine words on the reference's platform:
# their classes are rarithmetic's word classes
from rpython.rlib.rarithmetic import r_int as _r_word_int
r_long = r_ssize_t = r_time_t = _r_word_int
r_ulong = r_size_t = _r_word_uint
INT32 = INT
UINT32 = UINT
INT16 = SHORT
UINT16 = USHORT
INT8 = SIGNEDCHAR
UINT8 = UCHAR
LONG = Signed
# the other C integer types of the reference's platform (x86-64 Linux), as its rffi
# finds them there
TIME_T = Signed
MODE_T = INT
PID_T = INT
WCHAR_T = INT
INTPTR_T = Signed
UINTPTR_T = Unsigned
PTRDIFF_T = Signed
INT_LEAST8_T = SIGNEDCHAR
UINT_LEAST8_T = UCHAR
INT_LEAST16_T = SHORT
UINT_LEAST16_T = USHORT
INT_LEAST32_T = INT
UINT_LEAST32_T = UINT
INT_LEAST64_T = Signed
UINT_LEAST64_T = Unsigned
INT_FAST8_T = SIGNEDCHAR
UINT_FAST8_T = UCHAR
INT_FAST16_T = Signed
UINT_FAST16_T = Unsigned
INT_FAST32_T = Signed
UINT_FAST32_T = Unsigned
INT_FAST64_T = Signed
UINT_FAST64_T = Unsigned
INTMAX_T = Signed
UINTMAX_T = Unsigned
ULONG = Unsigned
SIGNED = Signed
UNSIGNED = Unsigned
SSIZE_T = Signed
SIZE_T = Unsigned
LONGLONG = SignedLongLong
ULONGLONG = UnsignedLongLong
INT64 = SignedLongLong
UINT64 = UnsignedLongLong


@specialize.ll()
def cast(TYPE, value):
    if rffi_is_ptr(value):
        # C's cast of an address: to another pointer type, or to an integer
        return rffi_cast_ptr(TYPE, value)
    if isinstance(value, str) or isinstance(value, unicode):
        # as the reference's `force_cast`: a character is its code, a string the address
        # of its low-level structure
        if not we_are_translated():
            if len(value) == 1:
                return cast(TYPE, ord(value))
            return model_unknown("rffi.cast()")
        return rffi_cast_ptr(TYPE, value)
    if TYPE is Signed:
        return intmask(value)
    if TYPE is Unsigned:
        return _r_word_uint(value)
    if TYPE is SignedLongLong:
        return r_longlong(value)
    if TYPE is UnsignedLongLong:
        return r_ulonglong(value)
    if TYPE is Float:
        return float(value)
    if TYPE is SingleFloat:
        return r_singlefloat(value)
    if TYPE is INT:
        return r_int(value)
    if TYPE is UINT:
        return r_uint(value)
    if TYPE is SHORT:
        return r_short(value)
    if TYPE is USHORT:
        return r_ushort(value)
    if TYPE is SIGNEDCHAR:
        return r_signedchar(value)
    if TYPE is UCHAR:
        return r_uchar(value)
    # a number to a character or a bool: the toolchain's primitive cast (C's `(char)n`)
    if TYPE is Char:
        return chr(intmask(value) & 0xff)
    if TYPE is Bool:
        return bool(value)
    return _cast_pointer(TYPE, value)


def CArray(T):
    return lltype.Array(T, hints={'nolength': True})
# (called in translated code too, with a constant type: computed while annotating)
CArray._annspecialcase_ = 'specialize:memo'


def CArrayPtr(T):
    return lltype.Ptr(CArray(T))
CArrayPtr._annspecialcase_ = 'specialize:memo'


def CStruct(name, *fields, **kwds):
    """A C structure: its fields are named `c_<field>`, as the toolchain's."""
    c_fields = [('c_' + key, value) for key, value in fields]
    return lltype.Struct(name, *c_fields, **kwds)


def CStructPtr(*args, **kwds):
    return lltype.Ptr(CStruct(*args, **kwds))


def CCallback(args, res):
    return lltype.Ptr(lltype.FuncType(args, res))
CCallback._annspecialcase_ = 'specialize:memo'


def COpaque(name=None, ptr_typedef=None, hints=None, compilation_info=None):
    # a C type of the library's headers: its C name is what a raw malloc takes the size of
    T = lltype.OpaqueType(name)
    if name is not None:
        T._c_name = name
    return T


def COpaquePtr(*args, **kwds):
    kwds.pop('typedef', None)
    return lltype.Ptr(COpaque(*args, **kwds))


CHAR = Char
DOUBLE = Float
FLOAT = SingleFloat
CCHARP = CArrayPtr(Char)
# `void *`: an array of chars with the reference's `render_as_void` hint, a type of its own;
# a C function's `void *` argument takes any pointer (and `rffi.cast` makes one)
VOIDP = lltype.Ptr(lltype.Array(Char, hints={'nolength': True, 'render_as_void': True}))
# `const char *`: an array of chars with the reference's `render_as_const` hint, a type
# of its own: a `char *` given where a C function declares a `const char *` (or the
# reverse) is refused, and llexternal makes none from a string
CONST_CCHARP = lltype.Ptr(lltype.Array(Char, hints={'nolength': True,
                                                    'render_as_const': True}))
CCHARPP = CArrayPtr(CCHARP)
SIGNEDP = CArrayPtr(Signed)
DOUBLEP = CArrayPtr(Float)
LONGP = SIGNEDP
# arrays of narrow C integers
INTP = CArrayPtr(INT)
UINTP = CArrayPtr(UINT)
SHORTP = CArrayPtr(SHORT)
UCHARP = CArrayPtr(UCHAR)
USHORTP = CArrayPtr(USHORT)
SIGNEDCHARP = CArrayPtr(SIGNEDCHAR)
ULONGP = CArrayPtr(Unsigned)
LONGLONGP = CArrayPtr(SignedLongLong)
ULONGLONGP = CArrayPtr(UnsignedLongLong)
SIZE_TP = ULONGP
SSIZE_TP = LONGP
TIME_TP = LONGP
MODE_TP = INTP
PID_TP = INTP
WCHAR_TP = INTP
FLOATP = CArrayPtr(SingleFloat)
CWCHARP = CArrayPtr(UniChar)
VOIDPP = CArrayPtr(VOIDP)
NULL = None


@specialize.memo()
def sizeof(tp):
    """The size in bytes of a C type on the 64-bit machines the toolchain targets."""
    if isinstance(tp, _NarrowInt):
        return tp.bits // 8
    if tp is Char or tp is Bool:
        return 1
    if tp is UniChar or tp is SingleFloat:
        return 4
    if isinstance(tp, lltype.Struct):
        # natural alignment, as the C compiler lays the structure out
        size = 0
        for fname, FIELD in tp._fields:
            a = _alignment(FIELD)
            size = (size + a - 1) // a * a + sizeof(FIELD)
        align = _alignment(tp)
        return (size + align - 1) // align * align
    # Signed, Unsigned, the long longs, Float and pointers
    return 8


def _alignment(tp):
    """The C alignment of a type: a structure's is its most aligned field's."""
    if isinstance(tp, lltype.Struct):
        align = 1
        for fname, FIELD in tp._fields:
            align = max(align, _alignment(FIELD))
        return align
    return min(sizeof(tp), 8)


@specialize.memo()
def offsetof(STRUCT, fieldname):
    """The offset in bytes of the field `fieldname` of a structure, laid out as `sizeof`
    lays it (a configured structure has C's own layout, padding fields included)."""
    offset = 0
    for fname, FIELD in STRUCT._fields:
        a = _alignment(FIELD)
        offset = (offset + a - 1) // a * a
        if fname == fieldname:
            return offset
        offset += sizeof(FIELD)
    raise AttributeError("%s has no field %s" % (STRUCT, fieldname))


@specialize.ll_and_arg(1)
def setintfield(pdst, fieldname, value):
    """Stores an integer into a field of a structure, cast to the field's type."""
    STRUCT = lltype.typeOf(pdst).TO
    setattr(pdst, fieldname, cast(getattr(STRUCT, fieldname), value))


@specialize.ll_and_arg(1)
def getintfield(pdst, fieldname):
    """Reads an integer field of a structure as a Signed."""
    return cast(Signed, getattr(pdst, fieldname))

RFFI_ERR_NONE = 0
RFFI_SAVE_ERRNO = 1
RFFI_READSAVED_ERRNO = 2
RFFI_ZERO_ERRNO_BEFORE = 4
RFFI_FULL_ERRNO = RFFI_SAVE_ERRNO | RFFI_READSAVED_ERRNO
RFFI_FULL_ERRNO_ZERO = RFFI_SAVE_ERRNO | RFFI_ZERO_ERRNO_BEFORE


def str2charp(s, track_allocation=True):
    n = len(s)
    p = lltype.malloc(CCHARP.TO, n + 1, flavor='raw')
    for i in range(n):
        p[i] = s[i]
    p[n] = '\x00'
    return p


def free_charp(cp, track_allocation=True):
    lltype.free(cp, flavor='raw')


def charp2str(cp):
    lltype.typeOf(cp)     # a `char *`, not a string
    b = StringBuilder()
    i = 0
    while cp[i] != '\x00':
        b.append(cp[i])
        i += 1
    return b.build()
# the standalone entry point calls it with each argument's `char *`: another pointer
# type is a UnionError (objectmodel._rpy_argkinds)
charp2str._rpy_argkinds_ = ('charp',)


def charp2strn(cp, maxlen):
    lltype.typeOf(cp)
    b = StringBuilder()
    i = 0
    while i < maxlen and cp[i] != '\x00':
        b.append(cp[i])
        i += 1
    return b.build()


def charpsize2str(cp, size):
    lltype.typeOf(cp)
    b = StringBuilder(size)
    for i in range(size):
        b.append(cp[i])
    return b.build()


class scoped_alloc_buffer(object):
    """`with scoped_alloc_buffer(size) as buf:` a raw buffer `buf.raw` of `size` chars;
    `buf.str(n)` is a string of its first `n`."""

    def __init__(self, size):
        self.size = size

    def __enter__(self):
        self.raw = lltype.malloc(CCHARP.TO, self.size, flavor='raw')
        return self

    def __exit__(self, *args):
        lltype.free(self.raw, flavor='raw')

    def str(self, length):
        assert self.size >= length
        return charpsize2str(self.raw, length)


class scoped_nonmovingbuffer(object):
    """`with scoped_nonmovingbuffer(s) as buf:` a `char *` to the characters of `s`."""

    def __init__(self, data):
        self.data = data
    __init__._annenforceargs_ = [None, str]

    def __enter__(self):
        # (the toolchain points into the string when its GC can pin it; a copy here)
        self.buf = str2charp(self.data)
        return self.buf

    def __exit__(self, *args):
        free_charp(self.buf)


scoped_view_charp = scoped_nonmovingbuffer


def liststr2charpp(l):
    """A NULL-terminated `char **` of copies of the strings."""
    array = lltype.malloc(CCHARPP.TO, len(l) + 1, flavor='raw')
    for i in range(len(l)):
        array[i] = str2charp(l[i])
    array[len(l)] = lltype.nullptr(CCHARP.TO)
    return array


def free_charpp(ref):
    """Frees what `liststr2charpp` made."""
    i = 0
    while ref[i]:
        free_charp(ref[i])
        i += 1
    lltype.free(ref, flavor='raw')


def charpp2liststr(p):
    """The strings of a NULL-terminated `char **`."""
    result = []
    i = 0
    while p[i]:
        result.append(charp2str(p[i]))
        i += 1
    return result


class scoped_str2charp(object):
    def __init__(self, value):
        if value is not None:
            self.buf = str2charp(value)
        else:
            self.buf = lltype.nullptr(CCHARP.TO)

    def __enter__(self):
        return self.buf

    def __exit__(self, *args):
        if self.buf:
            free_charp(self.buf)


class _ExternalCalls(object):
    """Counts calls of declared C functions: a prebuilt instance's attribute written by
    every call, so that what is made of it is never a constant to the annotator."""

    def __init__(self):
        self.count = 0


_external = _ExternalCalls()


def _arg_source(i, TARGET):
    """NOT_RPYTHON: the expression converting argument `i` as the toolchain does."""
    if TARGET is CCHARP:
        # a string (copied), None (NULL) or a `char *`
        return "_charp_arg(a%d)" % i
    if TARGET is VOIDP:
        # the same, and any other pointer
        return "_voidp_arg(a%d)" % i
    if isinstance(TARGET, lltype.Ptr) and isinstance(TARGET.TO, lltype.FuncType):
        # a function given for a C function pointer: the toolchain makes it a callback
        # (`llhelper`), which this model does not; it is passed on unchecked
        return "a%d" % i
    if TARGET is Float:
        return "float(a%d)" % i
    # to a number type (or a bool), the toolchain's wrapper casts only a number (or a
    # bool): a float, a character or a string reaches the C function as it is, whose
    # argument check (`_rpy_c_argtypes`) refuses it
    if TARGET is Bool:
        return _num_arg_source(i, "bool(a%d)" % i)
    if TARGET is SignedLongLong:
        return _num_arg_source(i, "r_longlong(a%d)" % i)
    if TARGET is UnsignedLongLong:
        return _num_arg_source(i, "r_ulonglong(a%d)" % i)
    if isinstance(TARGET, _NarrowInt) or TARGET is Signed or TARGET is Unsigned:
        return _num_arg_source(i, "cast(ARG%d, a%d)" % (i, i))
    # (a `const char *` too: the wrapper makes none from a string)
    return "_typed_arg(a%d)" % i


def _num_arg_source(i, converted):
    """NOT_RPYTHON: argument `i` converted by `converted` when it is a number."""
    return ("a%d if (isinstance(a%d, float) or isinstance(a%d, str) or isinstance(a%d, "
            "unicode)) else %s" % (i, i, i, i, converted)).replace(
                "a%d if" % i, "_typed_arg(a%d) if" % i, 1)


@specialize.ll()
def _charp_arg(x):
    """A `char *` argument: a string's NUL-terminated copy, NULL for None; a pointer as it
    is (the C function's argument check refuses any but a `char *`)."""
    if rffi_is_ptr(x):
        return x
    if x is None:
        return lltype.nullptr(CCHARP.TO)
    if isinstance(x, str):
        return str2charp(x)
    return x


@specialize.ll()
def _voidp_arg(x):
    """A `void *` argument: a string's NUL-terminated copy, NULL for None, and any pointer,
    as a `void *`: the toolchain's call of the C function converts any pointer to
    `void *`, so one C function may take pointers of several types at different calls."""
    if rffi_is_ptr(x):
        if lltype.typeOf(x) == VOIDP:
            return x
        return cast(VOIDP, x)
    if x is None:
        return lltype.nullptr(VOIDP.TO)
    if isinstance(x, str):
        return cast(VOIDP, str2charp(x))
    return x


@specialize.ll()
def _typed_arg(x):
    """An argument the wrapper does not make from a string (all but a `char *`): the
    toolchain's wrapper asks for its low-level type first, which a string has not (unlike
    `cast`, which takes a string's address)."""
    if isinstance(x, str) or isinstance(x, unicode):
        lltype.typeOf(x)
    return x


@specialize.ll()
def _charp_done(x, p):
    """After the call: frees the copy `_charp_arg` (or `_voidp_arg`, as a `void *`) made
    of a string."""
    if isinstance(x, str):
        lltype.free(p, flavor='raw')


# The C spelling of the declared types (what `build` declares and casts to).
_C_TYPES = [(Signed, "long"), (Unsigned, "unsigned long"), (SignedLongLong, "long long"),
            (UnsignedLongLong, "unsigned long long"), (Float, "double"), (Char, "char"),
            (Bool, "bool"), (Void, "void"), (INT, "int"), (UINT, "unsigned int"),
            (SHORT, "short"), (USHORT, "unsigned short"), (SIGNEDCHAR, "signed char"),
            (UCHAR, "unsigned char"), (CCHARP, "char *"), (CONST_CCHARP, "const char *"),
            (CCHARPP, "char **"),
            (SIGNEDP, "long *"), (DOUBLEP, "double *")]


def _c_type(T):
    """NOT_RPYTHON: the C spelling of a declared type (another pointer is `void *`)."""
    for t, c in _C_TYPES:
        if T is t:
            return c
    return "void *"


def _result_source(RESULT):
    """NOT_RPYTHON: the expression of a call's result, made from the call count `n`."""
    if RESULT is Void:
        return "None"
    if RESULT is Float:
        return "float(n)"
    if RESULT is Bool:
        return "n > 1"
    if RESULT is Signed or RESULT is INT:
        # any int, negative ones too (`n` itself is known to be non-negative)
        return "-n"
    if RESULT is Unsigned or RESULT is UINT:
        # the wrapper gives a C int or unsigned int as a word (64-bit machines)
        return "r_uint(n)"
    if RESULT is SignedLongLong:
        return "r_longlong(n)"
    if RESULT is UnsignedLongLong:
        return "r_ulonglong(n)"
    if isinstance(RESULT, _NarrowInt):
        return "cast(RESULT, n)"
    return "lltype.nullptr(RESULT.TO)"


@specialize.ll()
def _cast_pointer(TYPE, value):
    # A cast to a pointer type: of a pointer (`cast(SIGNEDP, buf)`), the same raw memory
    # read and written as what the new type says; of an integer, the pointer at that
    # address (a tagged word kept in a pointer). At import time (a function pointer from
    # dlsym) the address is unknown: one warning, not an error.
    if not we_are_translated():
        return model_unknown("rffi.cast()")
    return rffi_cast_ptr(TYPE, value)


@specialize.ll()
def ptradd(ptr, n):
    """`ptr` moved by `n` items (bytes for a `char *`): `run` computes it in raw `char`
    arrays (`lltype.malloc(CCHARP.TO, n, flavor='raw')`, `str2charp`). The toolchain's
    ptradd is not a function but an operation typed at each call, so `n` may be a signed
    int at one call and an r_uint at another (gnitz's checksum): one copy per types."""
    if not we_are_translated():
        return model_unknown("rffi.ptradd()")
    return rffi_ptradd(ptr, n)


# the lists of an ExternalCompilationInfo that `build` passes to the C compiler and linker
_ECI_LISTS = ['pre_include_bits', 'includes', 'include_dirs', 'post_include_bits',
              'libraries', 'library_dirs', 'separate_module_sources',
              'separate_module_files', 'compile_extra', 'link_extra', 'link_files']


def _eci_lists(eci):
    """NOT_RPYTHON: the non-empty lists of `eci` as (name, items) pairs of strings,
    ('use_cpp_linker', ()) if it is set and the config tools `build` asks for flags
    (`from_pkg_config`): what the RTyper reads (`_rpy_c_eci`)."""
    pairs = []
    for attr in _ECI_LISTS:
        items = getattr(eci, attr, ())
        if items:
            pairs.append((attr, tuple([str(item) for item in items])))
    if getattr(eci, 'use_cpp_linker', False):
        pairs.append(('use_cpp_linker', ()))
    tools = getattr(eci, '_rpy_config_tools', ())
    if tools:
        pairs.append(('config_tools', tuple(tools)))
    return tuple(pairs)


def llexternal(name, args, result, _callable=None, compilation_info=None,
               sandboxsafe=False, releasegil='auto', _nowrapper=False,
               calling_conv='c', elidable_function=False, macro=None,
               random_effects_on_gcobjs='auto', save_err=RFFI_ERR_NONE):
    """NOT_RPYTHON: a function calling the C function `name`, generated for its
    declared argument and result types: the wrapper (converting the arguments) and the
    C function `_c_<name>` it calls (shared by the wrapper's specializations)."""
    params = ", ".join(["c%d" % i for i in range(len(args))])
    # (called at import time, the toolchain runs the C function through ctypes: what it
    # gives is unknown here, with a warning)
    lines = ["def _c_%s(%s):" % (name, params),
             "    if not we_are_translated():",
             "        return model_unknown(%r)" % ("%s()" % name,),
             "    _external.count += 1",
             "    n = _external.count",
             "    if n > 0:",
             "        os.write(2, MESSAGE + '\\n')",
             "        raise NotImplementedError(MESSAGE)",
             "    return " + _result_source(result),
             "def %s(%s):" % (name, ", ".join(["a%d" % i for i in range(len(args))]))]
    namespace = {'cast': cast, 'r_uint': _r_word_uint, 'r_longlong': r_longlong,
                 'r_ulonglong': r_ulonglong, 'lltype': lltype, 'os': os,
                 '_external': _external, 'RESULT': result, '_charp_arg': _charp_arg,
                 '_voidp_arg': _voidp_arg,
                 '_charp_done': _charp_done, '_typed_arg': _typed_arg,
                 'we_are_translated': we_are_translated,
                 'model_unknown': model_unknown,
                 'MESSAGE': "rpy-lsp cannot call the C function `%s` (rffi.llexternal)" % name}
    for i in range(len(args)):
        namespace['ARG%d' % i] = args[i]
        lines.append("    c%d = %s" % (i, _arg_source(i, args[i])))
    lines.append("    res = _c_%s(%s)" % (name, params))
    for i in range(len(args)):
        if args[i] is CCHARP or args[i] is VOIDP:
            lines.append("    _charp_done(a%d, c%d)" % (i, i))
    lines.append("    return res")
    exec "\n".join(lines) + "\n" in namespace
    namespace['_c_' + name]._rpy_c_function = (
        name, tuple([_c_type(T) for T in args]), _c_type(result))
    # the declared types, which the annotator checks the arguments against
    namespace['_c_' + name]._rpy_c_argtypes = tuple(args)
    if compilation_info is not None:
        # what `build` tells the C compiler and linker (translator/tool/cbuild.py)
        namespace['_c_' + name]._rpy_c_eci = _eci_lists(compilation_info)
    # one wrapper per kind of argument (a string or a buffer for a `char *`)
    namespace[name]._annspecialcase_ = 'specialize:ll'
    # the toolchain's wrapper releases the GIL around the call (explicit releasegil, or
    # by default unless sandboxsafe; a _nowrapper function is the bare C function): it
    # calls rgil.release/acquire, which no __del__ may reach (rtyper/rdel.rs)
    if releasegil in (False, True):
        releases = releasegil
    else:
        releases = not sandboxsafe
    if releases and not _nowrapper:
        namespace[name]._dont_reach_me_in_del_ = True
        namespace[name]._rpy_releases_gil_ = name
    return namespace[name]


# C functions of the toolchain's rffi (void results: their pointer results are not used)
c_memcpy = llexternal("memcpy", [VOIDP, VOIDP, SIZE_T], Void, releasegil=False)
c_memset = llexternal("memset", [VOIDP, Signed, SIZE_T], Void, releasegil=False)
