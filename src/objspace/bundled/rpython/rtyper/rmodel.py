"""rpy-lsp's model of `rpython.rtyper.rmodel`: `Repr`, the base class of a library's own
low-level representation. An ExtRegistryEntry's annotation makes one
(`rtyper_makerepr(rtyper)`, rply's `RuleRepr`); rpy-lsp's RTyper runs that Python code in
its object space before it translates (`rtyper/rext.rs`): it reads the Repr's
`lowleveltype`, copies what `convert_const` builds for each prebuilt value into the
program's data, and records what each `rtype_*` method asks of the `hop` it is given
(`inputargs`, `inputconst`, `gendirectcall`), to generate those operations where the
program does that operation.

`_LowLevelRepr` stands for the RTyper's own Reprs as such code sees them
(`rtyper.getrepr(s)`, `string_repr`): their `lowleveltype` only."""
from rpython.rtyper.error import TyperError


class Repr(object):
    def __init__(self):
        pass

    def _freeze_(self):
        # a Repr is a prebuilt constant (a helper's Void argument)
        return True

    def setup(self):
        self._setup_repr()

    def _setup_repr(self):
        pass

    def convert_const(self, value):
        raise TyperError("convert_const not defined for %r" % (self,))

    def rtype_getattr(self, hop):
        # a method (the annotation's `method_<name>`) is represented by its `self`
        s_attr = hop.args_s[1]
        if s_attr.is_constant() and isinstance(s_attr.const, str):
            if hasattr(hop.args_s[0], 'method_' + s_attr.const):
                return hop.inputarg(self, arg=0)
        raise TyperError("getattr not supported on %r" % (self,))

    def get_r_implfunc(self):
        raise TyperError("%r has no implementation function" % (self,))


class _LowLevelRepr(Repr):
    """One of the RTyper's own Reprs, known by its low-level type; `value` is the
    constant it stands for when it is a prebuilt function or class (`hlinvoke`'s first
    argument), None otherwise."""

    def __init__(self, lowleveltype, value=None):
        self.lowleveltype = lowleveltype
        self.value = value
