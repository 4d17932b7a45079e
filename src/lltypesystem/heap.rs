//! The runnable model of the low-level types (seed 000): values, pointers and a heap of
//! containers with `malloc`, field and item access, pointer equality and casts between a
//! structure and its first-field parents. Prebuilt constants of the RTyper and the objects
//! the LLInterpreter allocates live in the same heap.
//!
//! A container stores its fixed-size fields flattened (nested first-field structures in
//! place, see `LlTypes::flat_fields`), so a pointer to a parent structure and a pointer to
//! the whole object are the same pointer: `cast_pointer` only changes the static type.

use super::lltype::{LlType, LlTypes, TypeDef};
use std::rc::Rc;

/// A pointer: null, a container of the heap (or the variable-sized array inlined at its
/// end), or a function of the translated program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LlPtr {
    Null,
    /// `inner`: the pointer designates the inlined array at the end of the structure (what
    /// `getsubstruct(s, 'chars')` gives) rather than the structure.
    Obj {
        obj: u32,
        inner: bool,
    },
    /// A function by index in the program's function table.
    Func(u32),
    /// Raw memory at a computed address (`rffi.ptradd`): byte `off` of the characters of
    /// the raw `char` array `obj`, read and written through any pointer type as the C
    /// memory it is (`LlHeap::raw_load`).
    Raw {
        obj: u32,
        off: u32,
    },
    /// A pointer made from an integer that is no object's address (`rffi.cast(PTR, n)`:
    /// a tagged word kept in a pointer). It compares and casts back to the integer; it
    /// cannot be dereferenced.
    Addr(i64),
}

/// A low-level value. Integers of every kind but one are kept in 64 bits; `Signed` and
/// `SignedLongLong` values are both 64-bit on the machines we target. A
/// `SignedLongLongLong` is 128 bits wide: its low and high words, which keep a value
/// 8-byte aligned (an `i128` would make every value 32 bytes) but make it 24 bytes where
/// it was 16 (a pointer's 16 bytes left room for the tag).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LlValue {
    Void,
    Int(i64),
    Uint(u64),
    Int128([u64; 2]),
    Float(f64),
    Char(u8),
    UniChar(u32),
    Bool(bool),
    Ptr(LlPtr),
    /// Void constants of operations: a field name (`getfield(p, 'x')`) or a type
    /// (`malloc(T)`); they never exist at run time.
    Name(super::Sym),
    Type(LlType),
}

impl LlValue {
    /// `v` as a value of narrow C integer type `t`: its low bits, sign-extended into an
    /// `Int` for a signed type, zero-extended into a `Uint` for an unsigned one (C's
    /// conversion); `v` itself for other types.
    pub fn narrow(t: LlType, v: i64) -> LlValue {
        match t.narrow_bits() {
            Some((bits, signed)) => {
                let w = crate::objspace::object::IntKind::Narrow { bits, signed }.wrap(v as i128);
                if signed {
                    LlValue::Int(w as i64)
                } else {
                    LlValue::Uint(w as u64)
                }
            }
            None => LlValue::Int(v),
        }
    }

    /// The zero value of a type, as `malloc` initialises fields.
    pub fn zero(types: &LlTypes, t: LlType) -> LlValue {
        match t {
            LlType::VOID => LlValue::Void,
            LlType::SIGNED | LlType::SIGNEDLONGLONG => LlValue::Int(0),
            LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG => LlValue::Uint(0),
            LlType::SIGNEDLONGLONGLONG => LlValue::int128(0),
            LlType::FLOAT | LlType::SINGLEFLOAT => LlValue::Float(0.0),
            LlType::CHAR => LlValue::Char(0),
            LlType::UNICHAR => LlValue::UniChar(0),
            LlType::BOOL => LlValue::Bool(false),
            _ if t.narrow_bits().is_some() => LlValue::narrow(t, 0),
            _ => match types.def(t) {
                TypeDef::Ptr(_) => LlValue::Ptr(LlPtr::Null),
                _ => LlValue::Void,
            },
        }
    }
    /// A `SignedLongLongLong` value.
    pub fn int128(v: i128) -> LlValue {
        LlValue::Int128([v as u64, (v >> 64) as u64])
    }

    /// The value as a 128-bit integer, as C converts to `__int128_t` (an unsigned word
    /// zero-extended, a float truncated towards zero and saturated).
    pub fn as_i128(self) -> i128 {
        match self {
            LlValue::Int128([lo, hi]) => ((hi as i128) << 64) | lo as i128,
            LlValue::Uint(u) => u as i128,
            LlValue::Float(f) => f as i128,
            other => other.as_int() as i128,
        }
    }

    /// The value as a signed word: a 128-bit value's low word, as C truncates.
    pub fn as_int(self) -> i64 {
        match self {
            LlValue::Int(i) => i,
            LlValue::Uint(u) => u as i64,
            LlValue::Int128([lo, _]) => lo as i64,
            LlValue::Bool(b) => b as i64,
            LlValue::Char(c) => c as i64,
            LlValue::UniChar(c) => c as i64,
            LlValue::Float(f) => f as i64,
            _ => 0,
        }
    }
    pub fn as_uint(self) -> u64 {
        match self {
            LlValue::Uint(u) => u,
            other => other.as_int() as u64,
        }
    }
    pub fn as_float(self) -> f64 {
        match self {
            LlValue::Float(f) => f,
            LlValue::Uint(u) => u as f64,
            LlValue::Int128(_) => self.as_i128() as f64,
            other => other.as_int() as f64,
        }
    }
    pub fn as_bool(self) -> bool {
        match self {
            LlValue::Bool(b) => b,
            LlValue::Ptr(p) => p != LlPtr::Null,
            LlValue::Float(f) => f != 0.0,
            LlValue::Int128(_) => self.as_i128() != 0,
            other => other.as_int() != 0,
        }
    }
    pub fn as_ptr(self) -> LlPtr {
        match self {
            LlValue::Ptr(p) => p,
            _ => LlPtr::Null,
        }
    }
}

impl std::fmt::Display for LlValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LlValue::Void => f.write_str("void"),
            LlValue::Int(i) => write!(f, "{}", i),
            LlValue::Uint(u) => write!(f, "{}u", u),
            LlValue::Int128(_) => write!(f, "{}lll", self.as_i128()),
            LlValue::Float(x) => write!(f, "{:?}", x),
            LlValue::Char(c) => write!(f, "{:?}", *c as char),
            LlValue::UniChar(c) => write!(f, "u{:?}", char::from_u32(*c).unwrap_or('?')),
            LlValue::Bool(b) => write!(f, "{}", b),
            LlValue::Ptr(LlPtr::Null) => f.write_str("NULL"),
            LlValue::Ptr(LlPtr::Obj { obj, inner }) => {
                write!(f, "<ptr {}{}>", obj, if *inner { " items" } else { "" })
            }
            LlValue::Ptr(LlPtr::Func(i)) => write!(f, "<func {}>", i),
            LlValue::Ptr(LlPtr::Raw { obj, off }) => write!(f, "<ptr {}+{}>", obj, off),
            LlValue::Ptr(LlPtr::Addr(n)) => write!(f, "<address {}>", n),
            LlValue::Name(s) => write!(f, "'{}'", s),
            LlValue::Type(t) => write!(f, "<type {}>", t.0),
        }
    }
}

/// The items of an array (a GcArray, or the variable-sized part of a structure).
#[derive(Clone, Debug)]
pub enum Items {
    None,
    /// Arrays of Char, stored compactly (strings are most of the heap).
    Bytes(Vec<u8>),
    /// Any other item type; items that are structures are flattened, `stride` slots each.
    Values(Vec<LlValue>),
}

/// Number of items of a container's array (its length: without the extra item).
pub fn items_len(c: &Container) -> usize {
    items_allocated(c) - c.extra as usize
}

/// Number of items allocated for a container's array: its length and its extra item
/// (`LlTypes::extra_item_after_alloc`), which may be read and written but is no item.
#[inline]
fn items_allocated(c: &Container) -> usize {
    match &c.items {
        Items::None => 0,
        Items::Bytes(b) => b.len(),
        Items::Values(v) => v.len() / c.stride.max(1),
    }
}

/// The error of an item index outside a container's array, out of line: the item accessors
/// are on the LLInterpreter's hot path and stay small enough to inline.
#[cold]
#[inline(never)]
fn out_of_bounds(c: &Container, index: i64) -> HeapError {
    HeapError::IndexOutOfBounds {
        index,
        length: items_len(c),
    }
}

/// The bytes one item of type `t` takes in raw memory (C's `sizeof` on the machines we
/// target), for the types raw memory is read and written as: characters, booleans and
/// numbers; None for pointers, structures and the rest.
pub fn raw_item_size(t: LlType) -> Option<usize> {
    match t {
        LlType::CHAR | LlType::BOOL => Some(1),
        LlType::UNICHAR | LlType::SINGLEFLOAT => Some(4),
        LlType::SIGNED
        | LlType::UNSIGNED
        | LlType::SIGNEDLONGLONG
        | LlType::UNSIGNEDLONGLONG
        | LlType::FLOAT => Some(8),
        t => t.narrow_bits().map(|(bits, _)| bits as usize / 8),
    }
}

/// C's `sizeof` of a structure of these field types, each aligned to its size, the whole
/// to its largest (the layout `raw_field` reads); None if a field is not a number, a
/// character or a boolean, or there is none.
pub fn raw_struct_size(fields: impl Iterator<Item = LlType>) -> Option<usize> {
    let (mut size, mut align) = (0usize, 0usize);
    for t in fields {
        let n = raw_item_size(t)?;
        size = size.div_ceil(n) * n + n;
        align = align.max(n);
    }
    (align > 0).then(|| size.div_ceil(align) * align)
}

/// How many bytes of `Items::Bytes` make one item of `c`: 1 for a `char` array, the item's
/// size for a raw array of numbers kept as bytes (`LlHeap::malloc_raw`).
fn byte_width(c: &Container) -> usize {
    match c.items {
        Items::Bytes(_) if c.item_ty != LlType::CHAR => raw_item_size(c.item_ty).unwrap_or(1),
        _ => 1,
    }
}

/// One malloc'ed object (or prebuilt constant).
#[derive(Clone, Debug)]
pub struct Container {
    /// The type it was allocated with (the outermost structure, or the array).
    pub ty: LlType,
    pub fields: Vec<LlValue>,
    pub items: Items,
    /// The item type of `items` and the number of flattened slots per item.
    pub item_ty: LlType,
    pub stride: usize,
    /// Items allocated past the length (`LlTypes::extra_item_after_alloc`), zeroed.
    pub extra: u8,
}

/// A failed heap access: what it was, for the LLInterpreter's message.
#[derive(Clone, Debug, PartialEq)]
pub enum HeapError {
    NullDereference,
    IndexOutOfBounds { index: i64, length: usize },
    NoSuchField(Rc<str>),
    Invalid(String),
}

impl std::fmt::Display for HeapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeapError::NullDereference => write!(f, "dereference of a null pointer"),
            HeapError::IndexOutOfBounds { index, length } => {
                write!(f, "index {} out of bounds (length {})", index, length)
            }
            HeapError::NoSuchField(n) => write!(f, "no field `{}`", n),
            HeapError::Invalid(m) => f.write_str(m),
        }
    }
}

type R<T> = Result<T, HeapError>;

/// Where an interior path ends.
enum Place {
    Field(usize),
    Item(usize),
}

/// The heap of low-level containers.
#[derive(Clone, Debug, Default)]
pub struct LlHeap {
    pub containers: Vec<Container>,
    /// Slots of containers the LLInterpreter's collector freed (`sweep`), reused first.
    free: Vec<u32>,
    /// Containers allocated since the last `sweep` (when the LLInterpreter collects).
    pub allocated: u64,
    /// The zero fields of each structure type allocated so far, once the types are final
    /// (the LLInterpreter's heap, see `cache_layouts`): `malloc` flattens a type's fields
    /// once, not at every allocation.
    zero_fields: Option<crate::fasthash::HashMap<LlType, std::rc::Rc<[LlValue]>>>,
}

/// What a freed slot holds until it is reused: no fields, no items (an access through a
/// dangling pointer finds nothing).
fn tombstone() -> Container {
    Container {
        ty: LlType::VOID,
        fields: Vec::new(),
        items: Items::None,
        item_ty: LlType::VOID,
        stride: 0,
        extra: 0,
    }
}

impl LlHeap {
    pub fn new() -> LlHeap {
        LlHeap::default()
    }

    /// Allocates a zero-initialised `ty` (a structure, a variable-sized structure with
    /// `length` items, or an array of `length` items).
    pub fn malloc(&mut self, types: &LlTypes, ty: LlType, length: usize) -> LlPtr {
        let zero = |types: &LlTypes| -> Vec<LlValue> {
            types
                .flat_fields(ty)
                .into_iter()
                .map(|(_, ft)| LlValue::zero(types, ft))
                .collect()
        };
        let fields = match &mut self.zero_fields {
            None => zero(types),
            Some(cache) => match cache.get(&ty) {
                Some(z) => z.to_vec(),
                None => {
                    let z = zero(types);
                    cache.insert(ty, z.as_slice().into());
                    z
                }
            },
        };
        let extra = types.extra_item_after_alloc(ty);
        let length = length + extra;
        let (items, item_ty, stride) = match types.varsize_array(ty) {
            Some(arr) => {
                let item = types.array_item(arr).unwrap();
                if item == LlType::CHAR {
                    (Items::Bytes(vec![0; length]), item, 1)
                } else if let TypeDef::Struct { .. } = types.def(item) {
                    let zero: Vec<LlValue> = types
                        .flat_fields(item)
                        .into_iter()
                        .map(|(_, ft)| LlValue::zero(types, ft))
                        .collect();
                    let stride = zero.len().max(1);
                    let mut v = Vec::with_capacity(length * stride);
                    for _ in 0..length {
                        v.extend_from_slice(&zero);
                        if zero.is_empty() {
                            v.push(LlValue::Void);
                        }
                    }
                    (Items::Values(v), item, stride)
                } else {
                    let z = LlValue::zero(types, item);
                    (Items::Values(vec![z; length]), item, 1)
                }
            }
            None => (Items::None, LlType::VOID, 0),
        };
        self.place_container(Container {
            ty,
            fields,
            items,
            item_ty,
            stride,
            extra: extra as u8,
        })
    }

    /// Says that the types will not change any more (the translation is done): `malloc`
    /// may keep each structure's zero fields.
    pub fn cache_layouts(&mut self) {
        self.zero_fields.get_or_insert_with(Default::default);
    }

    /// Puts a new container in a free slot, or at the end.
    fn place_container(&mut self, c: Container) -> LlPtr {
        self.allocated += 1;
        let obj = match self.free.pop() {
            Some(i) => {
                self.containers[i as usize] = c;
                i
            }
            None => {
                self.containers.push(c);
                self.containers.len() as u32 - 1
            }
        };
        LlPtr::Obj { obj, inner: false }
    }

    /// Frees every GC container at or after `first` that `marked` does not mark (the
    /// LLInterpreter's collector: they are unreachable); returns how many are left.
    /// Raw containers are freed only by the program (`lltype.free`), never here.
    pub fn sweep(&mut self, types: &LlTypes, marked: &[bool], first: usize) -> usize {
        let mut live = 0;
        for (i, c) in self.containers.iter_mut().enumerate().skip(first) {
            if c.ty == LlType::VOID {
                continue;
            }
            if marked.get(i).copied().unwrap_or(true) || !types.is_gc(c.ty) {
                live += 1;
                continue;
            }
            *c = tombstone();
            self.free.push(i as u32);
        }
        self.allocated = 0;
        live
    }

    /// `malloc(ty, length, flavor='raw')`: a raw array of numbers keeps its items as the
    /// little-endian bytes of C memory, so that a pointer of another item type cast from it
    /// (`rffi.cast(rffi.CCHARP, longs)`) reads and writes the same memory, as in C; accesses
    /// through its own type go through `raw_load`/`raw_store` like those of a cast `char`
    /// buffer. Any other type is allocated as by `malloc`.
    pub fn malloc_raw(&mut self, types: &LlTypes, ty: LlType, length: usize) -> LlPtr {
        let item = match types.def(ty) {
            TypeDef::Array {
                item, gc: false, ..
            } if *item != LlType::CHAR => *item,
            TypeDef::Struct {
                fields, gc: false, ..
            } => {
                // a raw structure of numbers is C memory too: viewed as a `char *` (and
                // `memcpy`'d) it shows its fields' bytes at C's offsets; its own fields
                // are read and written there (the LLInterpreter's `raw_field`)
                let Some(size) = raw_struct_size(fields.iter().map(|(_, t)| *t)) else {
                    return self.malloc(types, ty, length);
                };
                return self.place_container(Container {
                    ty,
                    fields: Vec::new(),
                    items: Items::Bytes(vec![0; size]),
                    item_ty: LlType::CHAR,
                    stride: 1,
                    extra: 0,
                });
            }
            _ => return self.malloc(types, ty, length),
        };
        let Some(size) = raw_item_size(item) else {
            return self.malloc(types, ty, length);
        };
        self.place_container(Container {
            ty,
            fields: Vec::new(),
            items: Items::Bytes(vec![0; length * size]),
            item_ty: item,
            stride: 1,
            extra: 0,
        })
    }

    /// A prebuilt string-like container with these bytes as its Char items.
    pub fn container(&self, p: LlPtr) -> R<&Container> {
        match p {
            LlPtr::Obj { obj, .. } => self
                .containers
                .get(obj as usize)
                .ok_or(HeapError::NullDereference),
            _ => Err(HeapError::NullDereference),
        }
    }
    fn container_mut(&mut self, p: LlPtr) -> R<&mut Container> {
        match p {
            LlPtr::Obj { obj, .. } => self
                .containers
                .get_mut(obj as usize)
                .ok_or(HeapError::NullDereference),
            _ => Err(HeapError::NullDereference),
        }
    }

    /// Whether `p` is to a container whose items are characters.
    pub fn is_bytes(&self, p: LlPtr) -> bool {
        self.container(p)
            .is_ok_and(|c| matches!(c.items, Items::Bytes(_)))
    }

    /// `ptradd(p, n)` of a pointer to raw memory (a raw array of numbers, or into one):
    /// `n` items of `size` bytes further, the size of the items of `p`'s static type
    /// (`None` when they are not numbers: then only a `char` array is moved through, by bytes).
    pub fn ptradd(&self, p: LlPtr, n: i64, size: Option<usize>) -> R<LlPtr> {
        let (obj, off) = match p {
            LlPtr::Obj { obj, inner: false } => (obj, 0i64),
            LlPtr::Raw { obj, off } => (obj, off as i64),
            LlPtr::Null => return Err(HeapError::NullDereference),
            _ => {
                return Err(HeapError::Invalid(
                    "ptradd of a pointer that is not to raw memory".into(),
                ))
            }
        };
        let c = self.container(LlPtr::Obj { obj, inner: false })?;
        let size = match size {
            Some(size) if matches!(c.items, Items::Bytes(_)) => size as i64,
            None if matches!(c.items, Items::Bytes(_)) && c.item_ty == LlType::CHAR => 1,
            _ => {
                return Err(HeapError::Invalid(
                    "ptradd of an array that is not raw memory of numbers is not modelled".into(),
                ))
            }
        };
        let n = n.saturating_mul(size);
        let off = off.saturating_add(n);
        match u32::try_from(off) {
            Ok(off) if off as usize <= items_len(c) => Ok(LlPtr::Raw { obj, off }),
            _ => Err(HeapError::IndexOutOfBounds {
                index: off,
                length: items_len(c),
            }),
        }
    }

    /// The bytes of raw memory item `index` of type `item` through `p` (a pointer to a raw
    /// `char` array or into one, whatever its static type says): where they are.
    fn raw_span(&self, p: LlPtr, index: i64, item: LlType) -> R<(u32, usize, usize)> {
        let (obj, off) = match p {
            LlPtr::Obj { obj, inner: false } => (obj, 0usize),
            LlPtr::Raw { obj, off } => (obj, off as usize),
            LlPtr::Null => return Err(HeapError::NullDereference),
            _ => return Err(HeapError::Invalid("not a pointer to raw memory".into())),
        };
        let Some(size) = raw_item_size(item) else {
            return Err(HeapError::Invalid(
                "raw memory read or written as pointers is not modelled".into(),
            ));
        };
        let c = self.container(LlPtr::Obj { obj, inner: false })?;
        let n = items_len(c);
        let start = off as i64 + index * size as i64;
        if !matches!(c.items, Items::Bytes(_)) || start < 0 || start as usize + size > n {
            return Err(HeapError::IndexOutOfBounds {
                index: start,
                length: n,
            });
        }
        Ok((obj, start as usize, size))
    }

    /// Item `index` of type `item` of raw memory through `p`: the little-endian bytes there.
    pub fn raw_load(&self, p: LlPtr, index: i64, item: LlType) -> R<LlValue> {
        let (obj, start, size) = self.raw_span(p, index, item)?;
        let Items::Bytes(b) = &self.containers[obj as usize].items else {
            return Err(HeapError::NullDereference);
        };
        let mut buf = [0u8; 8];
        buf[..size].copy_from_slice(&b[start..start + size]);
        let bits = u64::from_le_bytes(buf);
        Ok(match item {
            LlType::CHAR => LlValue::Char(bits as u8),
            LlType::BOOL => LlValue::Bool(bits != 0),
            LlType::UNICHAR => LlValue::UniChar(bits as u32),
            LlType::FLOAT => LlValue::Float(f64::from_bits(bits)),
            LlType::SINGLEFLOAT => LlValue::Float(f32::from_bits(bits as u32) as f64),
            LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG => LlValue::Uint(bits),
            LlType::SIGNED | LlType::SIGNEDLONGLONG => LlValue::Int(bits as i64),
            t => LlValue::narrow(t, bits as i64),
        })
    }

    /// Stores `v` as item `index` of type `item` of raw memory through `p`.
    pub fn raw_store(&mut self, p: LlPtr, index: i64, item: LlType, v: LlValue) -> R<()> {
        let (obj, start, size) = self.raw_span(p, index, item)?;
        let bits = match v {
            LlValue::Float(f) if item == LlType::SINGLEFLOAT => (f as f32).to_bits() as u64,
            LlValue::Float(f) => f.to_bits(),
            other => other.as_uint(),
        };
        let Items::Bytes(b) = &mut self.containers[obj as usize].items else {
            return Err(HeapError::NullDereference);
        };
        b[start..start + size].copy_from_slice(&bits.to_le_bytes()[..size]);
        Ok(())
    }

    /// `getfield(p, name)` where `p`'s static type points to the structure `s`.
    pub fn getfield(&self, types: &LlTypes, p: LlPtr, s: LlType, name: &str) -> R<LlValue> {
        let (slot, _) = types
            .field_slot(s, name)
            .ok_or_else(|| HeapError::NoSuchField(name.into()))?;
        let c = self.container(p)?;
        c.fields
            .get(slot)
            .copied()
            .ok_or_else(|| HeapError::Invalid(format!("field `{}` outside its object", name)))
    }

    pub fn setfield(
        &mut self,
        types: &LlTypes,
        p: LlPtr,
        s: LlType,
        name: &str,
        v: LlValue,
    ) -> R<()> {
        let (slot, _) = types
            .field_slot(s, name)
            .ok_or_else(|| HeapError::NoSuchField(name.into()))?;
        let c = self.container_mut(p)?;
        match c.fields.get_mut(slot) {
            Some(f) => {
                *f = v;
                Ok(())
            }
            None => Err(HeapError::Invalid(format!(
                "field `{}` outside its object",
                name
            ))),
        }
    }

    /// The fixed-size field at flattened `slot` (see `LlTypes::field_slot`).
    pub fn get_slot(&self, p: LlPtr, slot: usize) -> R<LlValue> {
        self.container(p)?
            .fields
            .get(slot)
            .copied()
            .ok_or_else(|| HeapError::Invalid("field outside its object".into()))
    }
    pub fn set_slot(&mut self, p: LlPtr, slot: usize, v: LlValue) -> R<()> {
        match self.container_mut(p)?.fields.get_mut(slot) {
            Some(f) => {
                *f = v;
                Ok(())
            }
            None => Err(HeapError::Invalid("field outside its object".into())),
        }
    }

    /// Number of items of the array of `p` (a GcArray or a variable-sized structure).
    pub fn len(&self, p: LlPtr) -> R<usize> {
        let c = self.container(p)?;
        Ok(items_len(c) / byte_width(c))
    }

    /// Item `index` (a primitive or pointer item) of the array of `p`.
    #[inline]
    pub fn getitem(&self, p: LlPtr, index: i64) -> R<LlValue> {
        self.get_item_slot(p, index, 0)
    }

    #[inline]
    pub fn setitem(&mut self, p: LlPtr, index: i64, value: LlValue) -> R<()> {
        self.set_item_slot(p, index, 0, value)
    }

    /// Flattened slot `off` of item `index` of the array of `p`: the item itself (0), or
    /// a field of an item that is a structure (an interior path resolved ahead of time).
    #[inline]
    pub fn get_item_slot(&self, p: LlPtr, index: i64, off: usize) -> R<LlValue> {
        let c = self.container(p)?;
        let stride = c.stride.max(1);
        if index < 0 || index as usize >= items_allocated(c) {
            return Err(out_of_bounds(c, index));
        }
        let s = index as usize * stride + off;
        Ok(match &c.items {
            Items::Bytes(b) => LlValue::Char(b[s]),
            Items::Values(v) => v[s],
            Items::None => LlValue::Void,
        })
    }

    #[inline]
    pub fn set_item_slot(&mut self, p: LlPtr, index: i64, off: usize, value: LlValue) -> R<()> {
        let c = self.container_mut(p)?;
        let stride = c.stride.max(1);
        if index < 0 || index as usize >= items_allocated(c) {
            return Err(out_of_bounds(c, index));
        }
        let s = index as usize * stride + off;
        match &mut c.items {
            Items::Bytes(b) => b[s] = value.as_int() as u8,
            Items::Values(v) => v[s] = value,
            Items::None => {}
        }
        Ok(())
    }

    /// `arraycopy`: `n` items from the array of `src` at `i` to that of `dst` at `j`, as
    /// `memmove` (the two may be one array, the ranges overlapping). Both ranges must be in
    /// bounds; items of one type are assumed (the annotator checked it).
    pub fn copy_items(&mut self, src: LlPtr, dst: LlPtr, i: i64, j: i64, n: i64) -> R<()> {
        if n <= 0 {
            return Ok(());
        }
        for (p, start) in [(src, i), (dst, j)] {
            let length = self.len(p)?;
            if start < 0 || (start as usize).saturating_add(n as usize) > length {
                let index = if start < 0 { start } else { start + n - 1 };
                return Err(HeapError::IndexOutOfBounds { index, length });
            }
        }
        let (LlPtr::Obj { obj: a, .. }, LlPtr::Obj { obj: b, .. }) = (src, dst) else {
            return Err(HeapError::NullDereference);
        };
        let w = byte_width(&self.containers[a as usize]);
        let (i, j, n) = (i as usize * w, j as usize * w, n as usize * w);
        let stride = self.containers[a as usize].stride.max(1);
        if a == b {
            match &mut self.containers[a as usize].items {
                Items::Bytes(v) => v.copy_within(i..i + n, j),
                Items::Values(v) => v.copy_within(i * stride..(i + n) * stride, j * stride),
                Items::None => {}
            }
            return Ok(());
        }
        let (sc, dc) = if a < b {
            let (x, y) = self.containers.split_at_mut(b as usize);
            (&x[a as usize], &mut y[0])
        } else {
            let (x, y) = self.containers.split_at_mut(a as usize);
            (&y[0], &mut x[b as usize])
        };
        match (&sc.items, &mut dc.items) {
            (Items::Bytes(s), Items::Bytes(d)) => d[j..j + n].copy_from_slice(&s[i..i + n]),
            (Items::Values(s), Items::Values(d)) => {
                d[j * stride..(j + n) * stride].copy_from_slice(&s[i * stride..(i + n) * stride])
            }
            _ => {}
        }
        Ok(())
    }

    /// Resolves an interior path of field names and indices from a pointer whose static
    /// type points to `ty`.
    fn place(&self, types: &LlTypes, p: LlPtr, ty: LlType, path: &[Offset]) -> R<Place> {
        let c = self.container(p)?;
        let inner = matches!(p, LlPtr::Obj { inner: true, .. });
        let mut cur = ty;
        let mut base_field = 0usize;
        let mut in_items: Option<usize> = None; // slot base within items
        let mut i = 0;
        if inner || matches!(types.def(ty), TypeDef::Array { .. }) {
            // the pointer designates the array itself: an index must come first
            cur = types.varsize_array(c.ty).unwrap_or(ty);
        }
        while i < path.len() {
            match (&path[i], types.def(cur)) {
                (Offset::Field(name), TypeDef::Struct { .. }) => {
                    let (slot, ft) = types
                        .field_slot(cur, name)
                        .ok_or_else(|| HeapError::NoSuchField(name.clone()))?;
                    match types.def(ft) {
                        TypeDef::Array { .. } => {
                            cur = ft;
                        }
                        TypeDef::Struct { .. } => {
                            match &mut in_items {
                                Some(b) => *b += slot,
                                None => base_field += slot,
                            }
                            cur = ft;
                        }
                        _ => {
                            return Ok(match in_items {
                                Some(b) => Place::Item(b + slot),
                                None => Place::Field(base_field + slot),
                            });
                        }
                    }
                }
                (Offset::Index(idx), TypeDef::Array { item, .. }) => {
                    if *idx < 0 || *idx as usize >= items_allocated(c) {
                        return Err(HeapError::IndexOutOfBounds {
                            index: *idx,
                            length: items_len(c),
                        });
                    }
                    let b = *idx as usize * c.stride.max(1);
                    match types.def(*item) {
                        TypeDef::Struct { .. } => {
                            in_items = Some(b);
                            cur = *item;
                        }
                        _ => return Ok(Place::Item(b)),
                    }
                }
                _ => {
                    return Err(HeapError::Invalid(format!(
                        "bad interior path at offset {} of {}",
                        i,
                        types.name(ty)
                    )))
                }
            }
            i += 1;
        }
        Err(HeapError::Invalid(format!(
            "interior path into {} ends at a container",
            types.name(ty)
        )))
    }

    pub fn getinterior(
        &self,
        types: &LlTypes,
        p: LlPtr,
        ty: LlType,
        path: &[Offset],
    ) -> R<LlValue> {
        let place = self.place(types, p, ty, path)?;
        let c = self.container(p)?;
        Ok(match place {
            Place::Field(s) => c.fields[s],
            Place::Item(s) => match &c.items {
                Items::Bytes(b) => LlValue::Char(b[s]),
                Items::Values(v) => v[s],
                Items::None => LlValue::Void,
            },
        })
    }

    pub fn setinterior(
        &mut self,
        types: &LlTypes,
        p: LlPtr,
        ty: LlType,
        path: &[Offset],
        value: LlValue,
    ) -> R<()> {
        let place = self.place(types, p, ty, path)?;
        let c = self.container_mut(p)?;
        match place {
            Place::Field(s) => c.fields[s] = value,
            Place::Item(s) => match &mut c.items {
                Items::Bytes(b) => b[s] = value.as_int() as u8,
                Items::Values(v) => v[s] = value,
                Items::None => {}
            },
        }
        Ok(())
    }

    /// The Char items of a container as bytes (strings).
    pub fn bytes(&self, p: LlPtr) -> R<&[u8]> {
        let c = self.container(p)?;
        match &c.items {
            Items::Bytes(b) => Ok(&b[..b.len() - c.extra as usize]),
            Items::None => Ok(&[]),
            Items::Values(_) => Err(HeapError::Invalid("not an array of chars".into())),
        }
    }
    pub fn bytes_mut(&mut self, p: LlPtr) -> R<&mut [u8]> {
        let c = self.container_mut(p)?;
        let extra = c.extra as usize;
        match &mut c.items {
            Items::Bytes(b) => {
                let n = b.len() - extra;
                Ok(&mut b[..n])
            }
            _ => Err(HeapError::Invalid("not an array of chars".into())),
        }
    }
    /// The bytes of raw memory from where `p` points (a raw array kept as bytes, or into
    /// one after `ptradd`) to the end of its array: what a C function reads there.
    pub fn bytes_from(&self, p: LlPtr) -> R<&[u8]> {
        match p {
            LlPtr::Raw { obj, off } => {
                let b = self.bytes(LlPtr::Obj { obj, inner: false })?;
                Ok(b.get(off as usize..).unwrap_or(&[]))
            }
            _ => self.bytes(p),
        }
    }
    /// `bytes_from`, to write.
    pub fn bytes_from_mut(&mut self, p: LlPtr) -> R<&mut [u8]> {
        match p {
            LlPtr::Raw { obj, off } => {
                let b = self.bytes_mut(LlPtr::Obj { obj, inner: false })?;
                let off = (off as usize).min(b.len());
                Ok(&mut b[off..])
            }
            _ => self.bytes_mut(p),
        }
    }
    /// The items of a raw array of pointers (one machine word each, as C lays it out), for
    /// the C library's byte functions on them (`memset`, `memcpy`); None when `p` is to
    /// anything else.
    pub fn pointer_words_mut(&mut self, types: &LlTypes, p: LlPtr) -> Option<&mut Vec<LlValue>> {
        let c = self.container_mut(p).ok()?;
        match &mut c.items {
            Items::Values(v) if c.stride == 1 && types.is_ptr(c.item_ty) => Some(v),
            _ => None,
        }
    }
    /// The items of a container (non-Char arrays).
    pub fn values_mut(&mut self, p: LlPtr) -> R<&mut Vec<LlValue>> {
        match &mut self.container_mut(p)?.items {
            Items::Values(v) => Ok(v),
            _ => Err(HeapError::Invalid("not an array of values".into())),
        }
    }

    /// The dynamic type of the object `p` points to.
    pub fn typeof_obj(&self, p: LlPtr) -> R<LlType> {
        Ok(self.container(p)?.ty)
    }
}

/// One step of an interior path.
#[derive(Clone, Debug, PartialEq)]
pub enum Offset {
    Field(Rc<str>),
    Index(i64),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malloc_fields_items_and_first_field_casts() {
        let mut t = LlTypes::new();
        let object = t.new_struct("object", true, vec![("typeptr".into(), LlType::SIGNED)]);
        let point = t.new_struct(
            "Point",
            true,
            vec![("super".into(), object), ("x".into(), LlType::FLOAT)],
        );
        let mut h = LlHeap::new();
        let p = h.malloc(&t, point, 0);
        assert_eq!(h.getfield(&t, p, point, "x").unwrap(), LlValue::Float(0.0));
        h.setfield(&t, p, object, "typeptr", LlValue::Int(7))
            .unwrap();
        h.setfield(&t, p, point, "x", LlValue::Float(1.5)).unwrap();
        // the same pointer seen as its parent
        assert_eq!(
            h.getfield(&t, p, object, "typeptr").unwrap(),
            LlValue::Int(7)
        );
        assert_eq!(h.getfield(&t, p, point, "x").unwrap(), LlValue::Float(1.5));

        let chars = t.array(LlType::CHAR);
        let string = t.new_struct(
            "rpy_string",
            true,
            vec![("hash".into(), LlType::SIGNED), ("chars".into(), chars)],
        );
        let s = h.malloc(&t, string, 3);
        let path = [Offset::Field("chars".into()), Offset::Index(1)];
        h.setinterior(&t, s, string, &path, LlValue::Char(b'x'))
            .unwrap();
        assert_eq!(h.bytes(s).unwrap(), b"\0x\0");
        assert_eq!(
            h.getinterior(
                &t,
                s,
                string,
                &[Offset::Field("chars".into()), Offset::Index(3)]
            ),
            Err(HeapError::IndexOutOfBounds {
                index: 3,
                length: 3
            })
        );

        let entry = t.new_struct(
            "entry",
            false,
            vec![
                ("key".into(), LlType::SIGNED),
                ("value".into(), LlType::FLOAT),
            ],
        );
        let entries = t.gc_array(entry);
        let e = h.malloc(&t, entries, 2);
        let path = [Offset::Index(1), Offset::Field("value".into())];
        h.setinterior(&t, e, entries, &path, LlValue::Float(2.5))
            .unwrap();
        assert_eq!(
            h.getinterior(&t, e, entries, &path).unwrap(),
            LlValue::Float(2.5)
        );
        assert_eq!(h.len(e).unwrap(), 2);
    }
}
