"""What rpy-lsp's RTyper hands a library's own Repr (see `rmodel`; `rtyper/rext.rs` runs
it): an `RTyper` whose `getrepr` knows the Reprs of plain values and prebuilt constants,
and a `Hop` that records what an `rtype_*` method asks for. Each `inputarg`,
`inputconst` and `gendirectcall` is one step of `steps` and returns its `_Step`; the
RTyper generates those operations in that order where the program does the
operation, the method's result being the step it returned."""
from rpython.annotator import model
from rpython.annotator.bookkeeper import getbookkeeper, _Const
from rpython.rtyper.lltypesystem import lltype
from rpython.rtyper.lltypesystem.rstr import string_repr, unicode_repr
from rpython.rtyper.rmodel import _LowLevelRepr
from rpython.rtyper.error import TyperError


class _Annotator(object):
    def __init__(self):
        self.bookkeeper = getbookkeeper()


class RTyper(object):
    def __init__(self):
        self.annotator = _Annotator()

    def getrepr(self, s):
        if isinstance(s, _Const):
            return _LowLevelRepr(lltype.Void, s.const)
        if isinstance(s, model.SomeBool):
            return _LowLevelRepr(lltype.Bool)
        if isinstance(s, model.SomeInteger):
            return _LowLevelRepr(lltype.Signed)
        if isinstance(s, model.SomeFloat):
            return _LowLevelRepr(lltype.Float)
        if isinstance(s, model.SomeChar):
            return _LowLevelRepr(lltype.Char)
        if isinstance(s, model.SomeString):
            return string_repr
        if isinstance(s, model.SomeUnicodeString):
            return unicode_repr
        raise TyperError("rpy-lsp does not give a library's Repr the Repr of %r" % (s,))

    def getprimitiverepr(self, lltype):
        return _LowLevelRepr(lltype)


class _ArgRepr(_LowLevelRepr):
    """`hop.args_r[i]`: the Repr argument `i` already has."""

    def __init__(self, index):
        self._arg_index = index


class _Step(object):
    def __init__(self, index):
        self.index = index


class Hop(object):
    def __init__(self, args_s):
        self.args_s = args_s
        self.nb_args = len(args_s)
        self.args_r = [_ArgRepr(i) for i in range(len(args_s))]
        self.steps = []

    def _add(self, step):
        self.steps.append(step)
        return _Step(len(self.steps) - 1)

    def inputarg(self, converted_to, arg):
        if not 0 <= arg < self.nb_args:
            raise TyperError("no argument %d" % (arg,))
        return self._add(('arg', arg, converted_to))

    def inputargs(self, *converted_to):
        if len(converted_to) != self.nb_args:
            raise TyperError("operation argument count mismatch")
        return [self.inputarg(converted_to[i], i) for i in range(self.nb_args)]

    def inputconst(self, lltype, value):
        return self._add(('const', lltype, value))

    def gendirectcall(self, ll_function, *args_v):
        return self._add(('call', ll_function, list(args_v)))

    def exception_cannot_occur(self):
        pass

    def exception_is_here(self):
        pass
