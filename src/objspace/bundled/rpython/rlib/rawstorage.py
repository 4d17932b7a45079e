"""rpy-lsp's model of `rpython.rlib.rawstorage`: untyped raw byte storage (a raw `char`
array) read and written at byte offsets as any primitive low-level type. The reference
turns each access into one `raw_load`/`raw_store` of the item's type at the address plus
the offset (no alignment check survives translation, and x86-64 reads misaligned items
directly, so the `_unaligned` variants are the same operations); here each access casts
the storage's address plus the offset to a pointer to an array of the item's type and
reads or writes its item 0, which the RTyper and the C backend turn into the same load
or store. A stored item's type is its low-level type as the annotator knows it: the
functions are specialized on the type of the item (C's 4-byte `float` for an
`r_singlefloat`)."""
from rpython.rtyper.lltypesystem import lltype, rffi
from rpython.rlib.objectmodel import specialize

RAW_STORAGE = rffi.CCHARP.TO
RAW_STORAGE_PTR = rffi.CCHARP
# the largest alignment an aligned access asks for
MAXIMUM_ALIGNMENT = 8


class AlignmentError(NotImplementedError):
    "raw_storage_getitem/setitem on an offset not aligned for the item's type"


@specialize.arg(1, 2)
def alloc_raw_storage(size, track_allocation=True, zero=False):
    return lltype.malloc(RAW_STORAGE, size, flavor='raw', zero=zero,
                         track_allocation=track_allocation)


@specialize.arg(1)
def free_raw_storage(storage, track_allocation=True):
    lltype.free(storage, flavor='raw', track_allocation=track_allocation)


@specialize.arg(0)
def raw_storage_getitem(TP, storage, index):
    return rffi.cast(rffi.CArrayPtr(TP), rffi.ptradd(storage, index))[0]


@specialize.argtype(2)
def raw_storage_setitem(storage, index, item):
    TP = lltype.typeOf(item)
    rffi.cast(rffi.CArrayPtr(TP), rffi.ptradd(storage, index))[0] = item


raw_storage_getitem_unaligned = raw_storage_getitem
raw_storage_setitem_unaligned = raw_storage_setitem
