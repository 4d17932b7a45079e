"""rpy-lsp's model of `rpython.rtyper.lltypesystem.rstr`: the low-level structures of
strings (`STR`, `UNICODE`, bound to the RTyper's own when it translates) and the Reprs of
`str` and `unicode` as a library's own Repr sees them (`rmodel._LowLevelRepr`)."""
from rpython.rtyper.lltypesystem.lltype import GcStruct, Array, Signed, Char, UniChar, Ptr
from rpython.rtyper.rmodel import _LowLevelRepr

STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(Char)))
UNICODE = GcStruct('rpy_unicode', ('hash', Signed), ('chars', Array(UniChar)))

string_repr = _LowLevelRepr(Ptr(STR))
unicode_repr = _LowLevelRepr(Ptr(UNICODE))
