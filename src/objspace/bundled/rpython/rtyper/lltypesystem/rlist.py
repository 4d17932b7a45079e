"""rpy-lsp's model of `rpython.rtyper.lltypesystem.rlist`, as a library's own Repr uses
it (see `rmodel`): `FixedSizeListRepr(rtyper, item_repr)` is the Repr of a list that never
changes size, a pointer to a GC array of its items, as the RTyper lays such a list out."""
from rpython.rtyper.lltypesystem.lltype import GcArray, Ptr
from rpython.rtyper.rmodel import Repr


class FixedSizeListRepr(Repr):
    def __init__(self, rtyper, item_repr, listitem=None):
        self.rtyper = rtyper
        self.item_repr = item_repr
        self.listitem = listitem

    def _setup_repr(self):
        self.lowleveltype = Ptr(GcArray(self.item_repr.lowleveltype))
