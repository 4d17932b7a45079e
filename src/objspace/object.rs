//! The concrete heap: every object that exists at import time. Flow graphs refer to these
//! objects as Constants (functions, classes, prebuilt instances, lists, strings…), so the heap
//! outlives import-time evaluation and is read by the flow space and the annotator.

use crate::compiler::CodeObject;
use crate::fasthash::HashMap;
use crate::syntax::{FileId, Span};
use std::rc::Rc;

/// Index of an object in the [`Heap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(pub u32);

/// A concrete value: small immutable values inline, everything else on the heap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Obj(ObjId),
}

/// Machine integer types of `rpython.rlib.rarithmetic` (`r_uint`, `r_longlong`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    /// `r_uint`: unsigned machine word.
    Unsigned,
    /// `r_longlong`.
    LongLong,
    /// `r_ulonglong`.
    ULongLong,
    /// `r_longlonglong`: the reference's 128-bit signed integer (`SignedLongLongLong`,
    /// `__int128_t` in its C). There is no unsigned 128-bit kind.
    LongLongLong,
    /// `r_int` is plain int; kept for the knowntype of `r_int(...)` results.
    Signed,
    /// A C integer narrower than a word (`r_int32`, `r_uint32`, `build_int(name, sign,
    /// 8|16|32)`, the classes of `rffi.INT`, `SHORT`, `UCHAR`...): its values wrap at
    /// `bits`; the reference stores, passes and converts them but refuses arithmetic.
    Narrow { bits: u8, signed: bool },
}

impl IntKind {
    /// The narrow C integer kinds the toolchain defines on a 64-bit machine (`int`,
    /// `short`, `signed char` and their unsigned forms).
    pub const NARROW: [IntKind; 6] = [
        IntKind::Narrow {
            bits: 32,
            signed: true,
        },
        IntKind::Narrow {
            bits: 32,
            signed: false,
        },
        IntKind::Narrow {
            bits: 16,
            signed: true,
        },
        IntKind::Narrow {
            bits: 16,
            signed: false,
        },
        IntKind::Narrow {
            bits: 8,
            signed: true,
        },
        IntKind::Narrow {
            bits: 8,
            signed: false,
        },
    ];

    /// Whether this is a narrow C integer kind.
    pub fn is_narrow(self) -> bool {
        matches!(self, IntKind::Narrow { .. })
    }

    /// The name of the rffi low-level type of a narrow kind (`INT`, `USHORT`...), as the
    /// reference names it in its messages.
    pub fn narrow_lltype_name(self) -> Option<&'static str> {
        Some(match self {
            IntKind::Narrow {
                bits: 32,
                signed: true,
            } => "INT",
            IntKind::Narrow {
                bits: 32,
                signed: false,
            } => "UINT",
            IntKind::Narrow {
                bits: 16,
                signed: true,
            } => "SHORT",
            IntKind::Narrow {
                bits: 16,
                signed: false,
            } => "USHORT",
            IntKind::Narrow {
                bits: 8,
                signed: true,
            } => "SIGNEDCHAR",
            IntKind::Narrow {
                bits: 8,
                signed: false,
            } => "UCHAR",
            _ => return None,
        })
    }

    /// A value wrapped to the range of this kind (two's complement).
    pub fn wrap(self, v: i128) -> i128 {
        match self {
            IntKind::Unsigned | IntKind::ULongLong => (v as u64) as i128,
            IntKind::Signed | IntKind::LongLong => (v as i64) as i128,
            IntKind::LongLongLong => v,
            IntKind::Narrow { bits, signed } => {
                let m = (v as u64) & ((1u64 << bits) - 1);
                if signed && m >> (bits - 1) != 0 {
                    m as i128 - (1i128 << bits)
                } else {
                    m as i128
                }
            }
        }
    }
}

/// Key used to hash and compare dict keys and constants by value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HashKey {
    None,
    Int(i128),
    Float(u64),
    Str(Rc<[u8]>),
    Unicode(crate::compiler::UStr),
    Tuple(Vec<HashKey>),
    Identity(ObjId),
    /// An object whose class defines `__hash__` (an instance, a tuple subclass's): the
    /// hash its `__hash__` gave when it became a key (-1 made -2, as CPython), and the
    /// object, which tells it apart from every other key; an equal key that is another
    /// object is found by calling `__eq__` as CPython's dict does (`ObjSpace::find_key`).
    Hashed(i64, ObjId),
}

impl HashKey {
    /// Whether the key's equality runs user code (its class's `__eq__`).
    pub fn is_user_hashed(&self) -> bool {
        matches!(self, HashKey::Hashed(..))
    }
}

/// An insertion-ordered string-keyed map: module, class and instance namespaces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AttrMap {
    entries: Vec<(Rc<str>, Value)>,
    index: HashMap<Rc<str>, usize>,
    /// CPython 2.7's table of the names (`pydict_order`), kept by the namespaces whose
    /// order import-time code sees (`vars(cls)`, `globals()`: classes and modules); it may
    /// hold names CPython's dict has and this map does not (a class's `__dict__`).
    /// `None` for the others until a name is deleted (an instance's `__dict__` is made by
    /// inserting the names in order, as CPython filled it).
    table: Option<Box<super::pydict_order::PyTable>>,
}

/// The hash key of a namespace's name.
pub fn name_key(name: &str) -> HashKey {
    HashKey::Str(Rc::from(name.as_bytes()))
}

impl AttrMap {
    /// An empty map that keeps CPython's table of its names.
    pub fn with_table() -> AttrMap {
        AttrMap {
            table: Some(Box::default()),
            ..AttrMap::default()
        }
    }

    /// CPython's table of the names, for a map that keeps one.
    pub fn table(&self) -> Option<&super::pydict_order::PyTable> {
        self.table.as_deref()
    }

    /// Replaces the table (a class's, made from its body's namespace).
    pub fn set_table(&mut self, table: super::pydict_order::PyTable) {
        self.table = Some(Box::new(table));
    }

    /// Adds a name to the table only (a name CPython's dict has that this map does not
    /// hold: a class's `__doc__`, `__dict__`, `__weakref__`).
    pub fn add_table_only(&mut self, name: &str) {
        if let Some(t) = &mut self.table {
            let k = name_key(name);
            if !t.holds(&k) {
                t.add(&k);
            }
        }
    }

    pub fn get(&self, name: &str) -> Option<Value> {
        self.index.get(name).map(|&i| self.entries[i].1)
    }
    pub fn set(&mut self, name: &str, value: Value) {
        if let Some(&i) = self.index.get(name) {
            self.entries[i].1 = value;
        } else {
            self.add_table_only(name);
            let name: Rc<str> = Rc::from(name);
            self.index.insert(name.clone(), self.entries.len());
            self.entries.push((name, value));
        }
    }
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        if self.table.is_none() && self.index.contains_key(name) {
            // a deletion leaves a dummy slot where CPython's dict had the name, which
            // inserting the remaining names in order would not reproduce: from now on the
            // map keeps the table CPython's dict has (an instance's `__dict__`)
            let mut t = super::pydict_order::PyTable::default();
            for (n, _) in &self.entries {
                t.add(&name_key(n));
            }
            self.table = Some(Box::new(t));
        }
        let i = self.index.remove(name)?;
        let (_, v) = self.entries.remove(i);
        for (j, (n, _)) in self.entries.iter().enumerate().skip(i) {
            self.index.insert(n.clone(), j);
        }
        if let Some(t) = &mut self.table {
            t.delete(&name_key(name));
        }
        Some(v)
    }
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Rc<str>, Value)> {
        self.entries.iter().map(|(n, v)| (n, *v))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A dict (or a set) with arbitrary hashable keys: the entries in insertion order, and
/// CPython 2.7's hash table of them, which gives the order import-time code sees
/// (`pydict_order`). Change it through `dict::DictOps`, which keeps both.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dict {
    pub entries: Vec<(Value, Value)>,
    pub index: HashMap<HashKey, usize>,
    pub table: super::pydict_order::PyTable,
    /// Whether a key hashed by its own `__hash__` was ever inserted: lookups then compare
    /// keys as CPython does (`ObjSpace::find_key`), else by their hash keys alone.
    pub user_keys: bool,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: Rc<str>,
    pub code: Rc<CodeObject>,
    /// The module whose namespace is this function's globals.
    pub globals: ObjId,
    pub defaults: Vec<Value>,
    /// Cell objects, one per `co_freevars` entry.
    pub closure: Vec<ObjId>,
    /// Function attributes (`f._annspecialcase_ = ...`, `_always_inline_`, ...).
    pub attrs: AttrMap,
}

/// Built-in types that are classes in the heap (so `isinstance`, subclassing and the
/// exception hierarchy work uniformly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinType {
    Object,
    Type,
    Int,
    Long,
    Bool,
    Float,
    Str,
    Unicode,
    Tuple,
    List,
    Dict,
    Set,
    NoneType,
    Function,
    Module,
    BaseException,
    /// Any other built-in class (exception classes, `property`, `staticmethod`…); the class
    /// name tells which.
    Other,
}

impl BuiltinType {
    /// The exceptions a call of this built-in class can raise, as the flow space sees them
    /// (`int(s, base)` a ValueError); the others raise none a handler could catch.
    pub fn call_raises(self) -> &'static [&'static str] {
        match self {
            BuiltinType::Int | BuiltinType::Float => &["ValueError"],
            BuiltinType::Unicode => &["UnicodeDecodeError"],
            _ => &[],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    pub name: Rc<str>,
    pub bases: Vec<ObjId>,
    /// Method resolution order, starting with the class itself.
    pub mro: Vec<ObjId>,
    pub dict: AttrMap,
    /// Defining module (None for built-in classes).
    pub module: Option<ObjId>,
    /// Span of the `class` statement and of its name.
    pub span: Option<Span>,
    pub name_span: Option<Span>,
    pub builtin: Option<BuiltinType>,
    /// The built-in that a call of this built-in class is (`int` of `int`,
    /// `rarithmetic.r_uint` of `r_uint`); `None` for other classes.
    pub constructor: Option<crate::builtins::BuiltinId>,
    /// Where the class body assigned each name (the last assignment), for messages.
    pub attr_spans: Vec<(Rc<str>, Span)>,
}

impl Class {
    /// The statement of the class body that defined `name`.
    pub fn attr_span(&self, name: &str) -> Option<Span> {
        self.attr_spans
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|(_, s)| *s)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    pub class: ObjId,
    pub dict: AttrMap,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    pub name: Rc<str>,
    pub dict: AttrMap,
    /// Source file, when the module comes from one (user or bundled model).
    pub file: Option<FileId>,
    /// True for rpy-lsp's bundled models (os, math, rpython.rlib.*).
    pub bundled: bool,
}

/// Iteration state of an import-time iterator.
#[derive(Clone, Debug, PartialEq)]
pub enum IterState {
    /// Over the items of a sequence object (tuple, list, str, dict keys…) snapshotted.
    Seq {
        items: Vec<Value>,
        pos: usize,
    },
    /// Over a list or tuple, read where it is at each step, as CPython's list iterator
    /// reads it (items appended during the loop are seen); no copy of the sequence is
    /// made, which for loops over long lists at import time would keep one per loop.
    /// `pos` is `usize::MAX` once exhausted (later appends are not seen).
    Live {
        seq: ObjId,
        pos: usize,
    },
    Range {
        next: i64,
        stop: i64,
        step: i64,
    },
}

#[derive(Clone, Debug)]
pub enum Object {
    Str(Rc<[u8]>),
    /// A `bytearray` made at import time (a prebuilt one: each use in translated code
    /// is a copy of it, as the reference converts it).
    ByteArray(Vec<u8>),
    Unicode(crate::compiler::UStr),
    Long(i128),
    RInt {
        kind: IntKind,
        value: i128,
    },
    /// A complex number (real, imaginary): only import-time code and constant folding
    /// compute with it; the annotator has no annotation of it.
    Complex(f64, f64),
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Dict(Dict),
    Set(Dict),
    Function(Box<Function>),
    /// A function implemented by rpy-lsp, by its entry in the registry of built-ins
    /// (`crate::builtins`), which identifies it for every later stage.
    Builtin {
        id: crate::builtins::BuiltinId,
        bound_self: Option<Value>,
    },
    Class(Box<Class>),
    Instance(Instance),
    Module(Box<Module>),
    BoundMethod {
        func: Value,
        self_value: Value,
    },
    /// A function read from a class (`C.f`): Python 2's unbound method, whose
    /// `isinstance(C.f, types.MethodType)` is true and `im_class` is `class`. Every later
    /// stage sees the function itself (the flow space folds `C.f` to it, the annotator
    /// describes it as it), as the reference's annotator does with an unbound method.
    UnboundMethod {
        func: Value,
        class: ObjId,
    },
    StaticMethod(Value),
    ClassMethod(Value),
    Property {
        fget: Value,
        fset: Value,
    },
    Cell(Option<Value>),
    Code(Rc<CodeObject>),
    Iterator(IterState),
    Slice(Value, Value, Value),
    Ellipsis,
    NotImplemented,
    /// Something rpy-lsp does not model: a module it cannot find or a name a modelled module
    /// lacks, and every value computed from one. `name` says what is missing (dotted:
    /// "rpython.rlib.rbigint", "rpython.rlib.rbigint.rbigint.fromint"). Operations on it give
    /// other unknowns at import time, and the annotator gives it `SomeValue::Unknown`.
    Unknown {
        name: Rc<str>,
        /// For an instance of a user class deriving from a built-in type other than
        /// `object` (`class OpSpec(tuple)`), made at import time: that class. RPython code
        /// cannot use such a prebuilt instance (the annotator reports it where it does).
        instance_of: Option<ObjId>,
    },
}

/// Objects in one chunk of the heap.
const CHUNK: usize = 4096;

/// All objects created at import time.
/// Deepest tuple nesting used as a dict key or set item.
pub const MAX_HASH_DEPTH: usize = 1_000;

#[derive(Clone, Default, Debug)]
pub struct Heap {
    /// The objects in chunks of [`CHUNK`]: a heap that grows never copies what it holds
    /// (one vector doubling to a gigabyte copied every object into fresh pages, which the
    /// kernel zeroed: a tenth of a large import's time, and half again its peak memory).
    chunks: Vec<Vec<Object>>,
    len: usize,
    /// The objects below this id are watched (`watch`), and `touched` says whether one was
    /// handed out mutable since.
    watched: u32,
    touched: bool,
    /// Counts the times a class may have changed (handed out mutable, or ids reused after
    /// `truncate`): what is cached about classes is valid while it stays the same.
    class_epoch: u64,
    /// The values of the longs beyond 128 bits (`1 << 999`): each an `Unknown` named
    /// [`crate::objspace::BIG_LONG`] for every operation that does not compute on longs.
    big_longs: HashMap<ObjId, Rc<crate::biglong::BigInt>>,
    /// The class of each tuple that is an instance of a user subclass of `tuple`
    /// (`class OpSpec(tuple)`): a tuple for every operation, of that class for `type()`,
    /// `isinstance` and attribute lookup.
    tuple_classes: HashMap<ObjId, ObjId>,
    /// The unknowns whose type is known ([`Opaque`]): what a C configuration gives at import
    /// time (`rffi_platform.configure`), which rpy-lsp does not compute.
    opaques: HashMap<ObjId, (Opaque, Option<Rc<CProbe>>)>,
}

/// How `run` and `build` may ask the C compiler for an opaque integer's value: the C
/// expression (`BUFSIZ`, `sizeof(struct stat)`), the text before it (the `#include`s) and
/// the directories the headers are looked for in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CProbe {
    pub prelude: String,
    pub expr: String,
    pub include_dirs: Vec<String>,
}

impl CProbe {
    /// The C text whose compiling answers a bool probe (`Has`, `Defined`): the prelude,
    /// then the use of the name or the `#ifndef` check.
    pub fn bool_text(&self) -> String {
        format!("{}\n{}\n", self.prelude, self.expr)
    }
}

/// The type of an import-time value whose content rpy-lsp does not compute (a C constant
/// `rffi_platform` would ask the C compiler for): an unknown to import-time code, a value of
/// this type, never a constant, to the annotator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opaque {
    /// A C integer constant or size.
    Int,
    Bool,
    Float,
    /// A C string constant (no NUL inside).
    Str,
}

impl Opaque {
    /// The kind a bundled model names (`opaque_value("int", what)`).
    pub fn from_name(name: &[u8]) -> Option<Opaque> {
        Some(match name {
            b"int" => Opaque::Int,
            b"bool" => Opaque::Bool,
            b"float" => Opaque::Float,
            b"str" => Opaque::Str,
            _ => return None,
        })
    }
}

impl Heap {
    pub fn alloc(&mut self, obj: Object) -> ObjId {
        let id = ObjId(self.len as u32);
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(c) = self.chunks.last_mut() {
            c.push(obj);
        }
        self.len += 1;
        id
    }
    /// A long beyond 128 bits: an unknown for what does not compute on it, with its value.
    pub fn alloc_big_long(&mut self, value: Rc<crate::biglong::BigInt>) -> ObjId {
        let id = self.alloc(Object::Unknown {
            name: Rc::from(crate::objspace::BIG_LONG),
            instance_of: None,
        });
        self.big_longs.insert(id, value);
        id
    }
    /// An unknown of a known type ([`Opaque`]), named `name` (what it stands for).
    pub fn alloc_opaque(&mut self, name: &str, kind: Opaque, probe: Option<CProbe>) -> ObjId {
        let id = self.alloc(Object::Unknown {
            name: Rc::from(name),
            instance_of: None,
        });
        self.opaques.insert(id, (kind, probe.map(Rc::new)));
        id
    }
    /// The type of an unknown made by [`Self::alloc_opaque`].
    pub fn opaque(&self, id: ObjId) -> Option<Opaque> {
        self.opaques.get(&id).map(|o| o.0)
    }
    /// How to ask the C compiler for the value of an unknown made by
    /// [`Self::alloc_opaque`].
    pub fn opaque_probe(&self, id: ObjId) -> Option<&CProbe> {
        self.opaques.get(&id).and_then(|o| o.1.as_deref())
    }
    /// A tuple of the items, an instance of `cls`, a user subclass of `tuple`.
    pub fn alloc_tuple_of_class(&mut self, items: Vec<Value>, cls: ObjId) -> ObjId {
        let id = self.alloc(Object::Tuple(items));
        self.tuple_classes.insert(id, cls);
        id
    }
    /// The user subclass of `tuple` a tuple is an instance of (`alloc_tuple_of_class`).
    pub fn tuple_class(&self, id: ObjId) -> Option<ObjId> {
        if self.tuple_classes.is_empty() {
            // (no instance of a tuple subclass: the common case, asked per comparison)
            return None;
        }
        self.tuple_classes.get(&id).copied()
    }
    /// The value of a long beyond 128 bits (`alloc_big_long`).
    pub fn big_long(&self, id: ObjId) -> Option<&Rc<crate::biglong::BigInt>> {
        self.big_longs.get(&id)
    }
    /// The items of an iterator over a sequence (all of them, from the start) and its
    /// position: a snapshot's, or those of the list or tuple a live one reads.
    pub fn seq_iter_items(&self, id: ObjId) -> Option<(Vec<Value>, usize)> {
        match self.get(id) {
            Object::Iterator(IterState::Seq { items, pos }) => Some((items.clone(), *pos)),
            Object::Iterator(IterState::Live { seq, pos }) => match self.get(*seq) {
                Object::List(l) | Object::Tuple(l) => Some((l.clone(), (*pos).min(l.len()))),
                _ => None,
            },
            _ => None,
        }
    }
    pub fn get(&self, id: ObjId) -> &Object {
        let i = id.0 as usize;
        &self.chunks[i / CHUNK][i % CHUNK]
    }
    pub fn get_mut(&mut self, id: ObjId) -> &mut Object {
        self.touched |= id.0 < self.watched;
        let i = id.0 as usize;
        let obj = &mut self.chunks[i / CHUNK][i % CHUNK];
        if matches!(obj, Object::Class(_)) {
            self.class_epoch += 1;
        }
        obj
    }
    /// See `class_epoch`.
    pub fn class_epoch(&self) -> u64 {
        self.class_epoch
    }
    /// Watches the objects that exist now: from here on, `touched` says whether one of
    /// them may have changed (`engine::flowcache` compares a later heap with this one
    /// instead of keeping a copy of it).
    pub fn watch(&mut self) {
        self.watched = self.len as u32;
        self.touched = false;
    }
    /// Whether an object that existed at the last `watch` was handed out mutable since.
    pub fn touched(&self) -> bool {
        self.touched
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Frees the objects from `len` on (a heap being discarded, freed in steps; ids past
    /// `len` are no longer valid).
    pub fn truncate(&mut self, len: usize) {
        self.class_epoch += 1;
        if len < self.len {
            self.chunks.truncate(len.div_ceil(CHUNK));
            if let Some(c) = self.chunks.last_mut() {
                c.truncate(len - (len - 1) / CHUNK * CHUNK);
            }
            self.len = len;
        }
    }
    pub fn str_value(&self, v: Value) -> Option<&[u8]> {
        match v {
            Value::Obj(id) => match self.get(id) {
                Object::Str(s) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }
    pub fn class(&self, id: ObjId) -> Option<&Class> {
        match self.get(id) {
            Object::Class(c) => Some(c),
            _ => None,
        }
    }
    /// The unknown base a class derives from (directly or not), if any: what rpy-lsp
    /// does not model may define its attributes and `__init__`.
    pub fn unknown_base_of(&self, cls: ObjId) -> Option<Value> {
        self.class(cls)?
            .mro
            .iter()
            .find_map(|&k| self.class(k)?.dict.get(super::UNKNOWN_BASE_ATTR))
    }
    pub fn function(&self, v: Value) -> Option<&Function> {
        match v {
            Value::Obj(id) => match self.get(id) {
                Object::Function(f) => Some(f),
                _ => None,
            },
            _ => None,
        }
    }
    /// Value-based key for hashing and constant comparison; `None` for unhashable objects
    /// (lists, dicts, sets).
    /// The dict key of a value; `None` when unhashable (or a tuple nested deeper than
    /// [`MAX_HASH_DEPTH`]).
    pub fn hash_key(&self, v: Value) -> Option<HashKey> {
        self.hash_key_at(v, 0)
    }

    fn hash_key_at(&self, v: Value, depth: usize) -> Option<HashKey> {
        if depth > MAX_HASH_DEPTH {
            return None;
        }
        Some(match v {
            Value::None => HashKey::None,
            Value::Bool(b) => HashKey::Int(b as i128),
            Value::Int(i) => HashKey::Int(i as i128),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 1e30 {
                    HashKey::Int(f as i128)
                } else {
                    HashKey::Float(f.to_bits())
                }
            }
            Value::Obj(id) => match self.get(id) {
                Object::Str(s) => HashKey::Str(s.clone()),
                // Python 2: an ASCII unicode equals the str of the same text, so both are
                // one dict key (typing's unicode_literals namespaces read with str keys).
                Object::Unicode(s) if s.is_ascii() => HashKey::Str(Rc::from(s.ascii_bytes())),
                Object::Unicode(s) => HashKey::Unicode(s.clone()),
                Object::Long(i) => HashKey::Int(*i),
                Object::RInt { value, .. } => HashKey::Int(*value),
                Object::Tuple(items) => HashKey::Tuple(
                    items
                        .iter()
                        .map(|&x| self.hash_key_at(x, depth + 1))
                        .collect::<Option<_>>()?,
                ),
                Object::List(_) | Object::Dict(_) | Object::Set(_) => return None,
                _ => HashKey::Identity(id),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every import-time value takes a slot this size (lists, tuples and instances made by
    /// the million at import time): the large variants are boxed (208 bytes before; a
    /// dict's 96 and the 16-byte alignment of the i128 of longs make it 112).
    #[test]
    fn object_slot_stays_small() {
        assert!(
            std::mem::size_of::<Object>() <= 112,
            "{}",
            std::mem::size_of::<Object>()
        );
    }

    #[test]
    fn heap_in_chunks_keeps_ids_and_truncates() {
        let mut heap = Heap::default();
        let n = CHUNK * 2 + 5;
        for i in 0..n {
            assert_eq!(heap.alloc(Object::Long(i as i128)), ObjId(i as u32));
        }
        assert_eq!(heap.len(), n);
        assert!(
            matches!(heap.get(ObjId(CHUNK as u32 + 1)), Object::Long(x) if *x == CHUNK as i128 + 1)
        );
        for len in [CHUNK * 2 + 1, CHUNK * 2, CHUNK + 3, 1, 0] {
            heap.truncate(len);
            assert_eq!(heap.len(), len);
            assert_eq!(heap.alloc(Object::Long(-1)), ObjId(len as u32));
            assert!(matches!(heap.get(ObjId(len as u32)), Object::Long(-1)));
            if len > 0 {
                assert!(
                    matches!(heap.get(ObjId(len as u32 - 1)), Object::Long(x) if *x == len as i128 - 1)
                );
            }
            heap.truncate(len);
        }
        assert!(heap.is_empty());
    }
}
