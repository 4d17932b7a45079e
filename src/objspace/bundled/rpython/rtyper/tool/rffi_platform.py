"""rpy-lsp's model of `rpython.rtyper.tool.rffi_platform`: what a program asks the C
compiler about its platform (`configure(CConfig)`, `getconstantinteger`, `has`, ...).

The toolchain compiles and runs small C programs to find the values. rpy-lsp runs no C
while checking, so each answer is a value of its type whose content is unknown: an integer
constant (`ConstantInteger`, `DefinedConstantInteger`, `SizeOf`...) is an `int` that is
never a constant to the annotator, `Has` and `Defined` are bools, `DefinedConstantString` a
string. At import time such a value is unknown: a branch on it takes one path, with a
warning. A `Struct` is the structure its entry declares (the fields named, as
`rffi.CStruct` makes them); `run` and `build` give each integer field the size and sign
of the C field and lay the structure out as C does (`_c_layout`), as the toolchain does,
and `check`, which asks no C compiler, takes such a
field as an integer of unknown C type (any integer is read from it or stored into it) and
lets the padding fields the toolchain adds (`c__pad0`...) be named. A `SimpleType` is the
type hint it was given. An entry whose `ifdef` macro is undefined would be None: rpy-lsp takes
it as defined.

Each integer and bool carries the C question that gives it (the expression, or a text that
compiles when the answer is yes, after the configuration's headers): `run` and `build`
ask the C compiler, without running anything (`platform::probe`)."""
from rpython.rtyper.lltypesystem import rffi
from rpython.translator.tool.cbuild import ExternalCompilationInfo
from __rpy__ import model_opaque


class CompilationError(Exception):
    pass


def eci_from_header(c_header_source, include_dirs=None, libraries=None):
    if include_dirs is None:
        include_dirs = []
    if libraries is None:
        libraries = []
    return ExternalCompilationInfo(post_include_bits=[c_header_source],
                                   include_dirs=include_dirs, libraries=libraries)


def _configure_one(entry, c_header_source):
    class CConfig:
        _compilation_info_ = eci_from_header(c_header_source)
        RESULT = entry
    return configure(CConfig)['RESULT']


def getstruct(name, c_header_source, interesting_fields):
    return _configure_one(Struct(name, interesting_fields), c_header_source)


def getsimpletype(name, c_header_source, ctype_hint=rffi.INT):
    return _configure_one(SimpleType(name, ctype_hint), c_header_source)


def getconstantinteger(name, c_header_source):
    return _configure_one(ConstantInteger(name), c_header_source)


def getdefined(macro, c_header_source):
    return _configure_one(Defined(macro), c_header_source)


def getdefineddouble(macro, c_header_source):
    return _configure_one(DefinedConstantDouble(macro), c_header_source)


def getdefinedinteger(macro, c_header_source):
    return _configure_one(DefinedConstantInteger(macro), c_header_source)


def getdefinedstring(macro, c_header_source):
    return _configure_one(DefinedConstantString(macro), c_header_source)


def getintegerfunctionresult(function, args=None, c_header_source='', includes=[]):
    return _configure_one(IntegerFunctionResult(function, args), c_header_source)


def has(name, c_header_source, include_dirs=None, libraries=None):
    return model_opaque("bool", "rffi_platform.has(%r)" % (name,), _has_text(name),
                        c_header_source, "\n".join([str(d) for d in include_dirs or []]))


def _has_text(name):
    """C that compiles when `name` exists (what `run` and `build` ask the C compiler)."""
    return "void rpy_probe_has(void) { (void)(%s); }" % (name,)


def verify_eci(eci):
    pass


def checkcompiles(expression, c_header_source, include_dirs=None):
    return has(expression, c_header_source, include_dirs)


def sizeof(name, eci, **kwds):
    return model_opaque("int", "rffi_platform.sizeof(%r)" % (name,), "sizeof(%s)" % (name,),
                        _prelude(eci), _include_dirs(eci))


def memory_alignment():
    return model_opaque("int", "rffi_platform.memory_alignment()")


def _prelude(eci):
    """The C text before a question: the headers of the configuration, in the order the
    toolchain writes them."""
    lines = list(eci.pre_include_bits)
    for h in eci.includes:
        lines.append("#include <%s>" % (h,))
    lines.extend(eci.post_include_bits)
    return "\n".join(lines)


def _include_dirs(eci):
    """The configuration's include directories, one per line (`-I` for the C compiler); a
    directory may be given as a `py.path.local` (hippyvm's timelib)."""
    return "\n".join([str(d) for d in eci.include_dirs])


def configure(CConfig, ignore_errors=False):
    """The answers to the entries of `CConfig` (its attributes that are entries), by
    name."""
    eci = CConfig._compilation_info_
    results = {'': _prelude(eci), '-I': _include_dirs(eci)}
    res = {}
    for key in dir(CConfig):
        value = getattr(CConfig, key)
        if isinstance(value, CConfigEntry) or isinstance(value, CConfigSingleEntry):
            res[key] = _result(value, results)
    return res


def _result(entry, results):
    """The answer to one entry, once per entry (a structure's field may be another
    entry); `results['']` is the configuration's C prelude, `results['-I']` its include
    directories."""
    if entry in results:
        return results[entry]
    r = entry.build_result(results)
    results[entry] = r
    return r


def _c_integer(what, expr, results):
    """An integer of unknown value, which `run` and `build` ask the C compiler for."""
    return model_opaque("int", what, expr, results[''], results['-I'])


class CConfigEntry(object):
    "Abstract base class."


class Struct(CConfigEntry):
    def __init__(self, name, interesting_fields, ifdef=None, adtmeths={}):
        self.name = name
        self.interesting_fields = interesting_fields
        self.ifdef = ifdef
        self.adtmeths = adtmeths

    def build_result(self, results):
        fields = []
        unknown = []
        for fieldname, fieldtype in self.interesting_fields:
            if isinstance(fieldtype, Struct):
                fieldtype = _result(fieldtype, results)
            elif fieldtype in _integer_class:
                # the toolchain gives the field the C field's own size and sign
                real = _c_field_type(self.name, fieldname, fieldtype, results)
                if real is None:
                    unknown.append('c_' + fieldname)
                else:
                    fieldtype = real
            fields.append((fieldname, fieldtype))
        if not unknown:
            laid_out = _c_layout(self.name, fields, results)
            if laid_out is not None:
                fields = laid_out
        name = self.name
        if name.startswith('struct '):
            name = name[7:]
        S = rffi.CStruct(name, *fields)
        if unknown or type(_c_integer("", "1", results)) is not int:
            # no C compiler was asked (`check`): these fields are integers of unknown
            # C type, and the structure may have padding fields (`c__pad0`...) too
            S._rpy_c_unknown = tuple(unknown)
        return S


# the C integer types a structure's field may be declared with, and their (size in
# bytes, unsigned); the toolchain replaces one by the first type of this order that has
# the C field's size and sign
_integer_class = [rffi.SIGNEDCHAR, rffi.UCHAR, rffi.CHAR, rffi.SHORT, rffi.USHORT,
                  rffi.INT, rffi.UINT, rffi.LONG, rffi.ULONG, rffi.LONGLONG,
                  rffi.ULONGLONG]
_size_and_sign = [(1, 0), (1, 1), (1, 1), (2, 0), (2, 1), (4, 0), (4, 1), (8, 0), (8, 1),
                  (8, 0), (8, 1)]


def _c_field_type(cname, fieldname, fieldtype, results):
    """The type the toolchain gives an integer field of the C structure `cname`, or None
    when the C compiler is not asked (an opaque answer is not of type int)."""
    field = "((%s *)0)->%s" % (cname, fieldname)
    expr = "sizeof(%s) * 2 + ((__typeof__(%s))-1 > 0)" % (field, field)
    answer = _c_integer("the C type of %s.%s" % (cname, fieldname), expr, results)
    if type(answer) is not int:
        return None
    key = (answer // 2, answer % 2)
    if _size_and_sign[_integer_class.index(fieldtype)] == key:
        return fieldtype
    if key not in _size_and_sign:
        return None
    return _integer_class[_size_and_sign.index(key)]


def _c_layout(cname, fields, results):
    """The fields of the C structure `cname` as the toolchain lays a configured structure
    out: in the order of their offsets in C, with a one-byte padding field `_padN` (an
    unsigned char) for every byte no field covers, up to the C structure's size, so that
    `sizeof`, `offsetof` and a raw buffer cast to the structure see C's layout. None when
    the C compiler is not asked (`check`), or the fields do not tile (a union, a field past
    the end): they then keep the declared order."""
    size = _c_integer("sizeof(%s)" % (cname,), "sizeof(%s)" % (cname,), results)
    if type(size) is not int or size <= 0 or size > 65535:
        return None
    cells = [-1] * size
    k = 0
    for fieldname, fieldtype in fields:
        field = "((%s *)0)->%s" % (cname, fieldname)
        # one question per field: its offset and size
        answer = _c_integer("the place of %s.%s" % (cname, fieldname),
                            "__builtin_offsetof(%s, %s) * 65536 + sizeof(%s)"
                            % (cname, fieldname, field), results)
        if type(answer) is not int:
            return None
        offset = answer // 65536
        end = offset + answer % 65536
        if end > size:
            return None
        for i in range(offset, end):
            if cells[i] != -1:
                return None
            cells[i] = k
        k += 1
    out = []
    seen = {}
    npad = 0
    for cell in cells:
        if cell == -1:
            out.append(('_pad%d' % (npad,), rffi.UCHAR))
            npad += 1
        elif cell not in seen:
            seen[cell] = True
            out.append(fields[cell])
    return out


class SimpleType(CConfigEntry):
    def __init__(self, name, ctype_hint=rffi.INT, ifdef=None):
        self.name = name
        self.ctype_hint = ctype_hint
        self.ifdef = ifdef

    def build_result(self, results):
        return self.ctype_hint


class ConstantInteger(CConfigEntry):
    def __init__(self, name):
        self.name = name

    def build_result(self, results):
        return _c_integer("the C constant %s" % (self.name,), self.name, results)


class IntegerFunctionResult(CConfigEntry):
    def __init__(self, name, args=None):
        self.name = name
        self.args = args if args else []

    def build_result(self, results):
        return model_opaque("int", "the result of the C function %s" % (self.name,))


class DefinedConstantInteger(CConfigEntry):
    def __init__(self, macro):
        self.name = self.macro = macro

    def build_result(self, results):
        return _c_integer("the C constant %s" % (self.macro,), self.macro, results)


class DefinedConstantDouble(CConfigEntry):
    def __init__(self, macro):
        self.name = self.macro = macro

    def build_result(self, results):
        return model_opaque("float", "the C constant %s" % (self.macro,))


class DefinedConstantString(CConfigEntry):
    def __init__(self, macro, name=None):
        self.macro = macro
        self.name = name or macro

    def build_result(self, results):
        return model_opaque("str", "the C constant %s" % (self.name,))


class Defined(CConfigEntry):
    def __init__(self, macro):
        self.macro = macro
        self.name = macro

    def build_result(self, results):
        return model_opaque("bool", "whether the C macro %s is defined" % (self.macro,),
                            "#ifndef %s\n#error undefined\n#endif" % (self.macro,),
                            results[''], results['-I'])


class SizeOf(CConfigEntry):
    def __init__(self, name):
        self.name = name

    def build_result(self, results):
        return _c_integer("sizeof(%s)" % (self.name,), "sizeof(%s)" % (self.name,), results)


class CConfigSingleEntry(object):
    "Abstract base class."


class Has(CConfigSingleEntry):
    def __init__(self, name):
        self.name = name

    def build_result(self, results):
        return model_opaque("bool", "whether the C name %s exists" % (self.name,),
                            _has_text(self.name), results[''], results['-I'])


class Works(CConfigSingleEntry):
    def build_result(self, results):
        return None


def expose_value_as_rpython(value):
    return value


def configure_external_library(name, eci, configurations, symbol=None, _cache={}):
    return eci
