//! Annotations (seed 001, "The Annotation Pass"): immutable values describing the set of
//! run-time objects a Variable can hold. Mutable containers and instances refer to shared,
//! growing definitions by id (`ListDefId`, `DictDefId`, `ClassDefId`); their unions live in
//! the bookkeeper (`union.rs`), because merging two lists merges their definitions.
//!
//! The enum is meant to grow: later stages add low-level variants (pointers, lltype
//! annotations) next to the RPython-level ones.

use crate::builtins::BuiltinId;
use crate::flowspace::VarId;
use crate::lltypesystem::LlType;
use crate::objspace::object::{IntKind, Value};
use std::rc::Rc;

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}

id_type! {
    /// A user class as seen by the annotator (its attributes as they are used).
    ClassDefId;
    /// The definition shared by all lists that can meet at run time.
    ListDefId;
    /// The definition shared by all dicts that can meet at run time.
    DictDefId;
    /// A description of a prebuilt callable or frozen object (function, class, method…).
    DescId;
    /// A list item or dict key/value cell (union-find node shared by merged definitions).
    ItemId;
}

/// Where an operation is: graph, block and operation index. The unit of re-flowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub graph: u32,
    pub block: u32,
    pub op: u32,
}

/// What an iterator produces from its container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IterVariant {
    Plain,
    Enumerate,
    Reversed,
    Keys,
    Values,
    Items,
}

impl IterVariant {
    pub fn name(self) -> &'static str {
        match self {
            IterVariant::Plain => "",
            IterVariant::Enumerate => "enumerate",
            IterVariant::Reversed => "reversed",
            IterVariant::Keys => "keys",
            IterVariant::Values => "values",
            IterVariant::Items => "items",
        }
    }
}

/// Facts a boolean carries about other Variables of its block, by truth value: what
/// `isinstance(x, C)`, `x is None` or `x >= 0` tell about `x` on each branch.
pub type KnownTypeData = Vec<(bool, VarId, SomeValue)>;

/// An annotation. Constants are kept where the reference keeps them (`konst`).
#[derive(Clone, Debug)]
pub enum SomeValue {
    /// Any Python object: the program is not RPython here.
    Object,
    Integer {
        nonneg: bool,
        kind: IntKind,
        konst: Option<Value>,
    },
    Bool {
        konst: Option<bool>,
        ktd: Option<Rc<KnownTypeData>>,
    },
    Float {
        konst: Option<Value>,
    },
    /// An `r_singlefloat`, C's 4-byte `float` (the reference's `SomeSingleFloat`): no
    /// operation but `float()` of it, storage (fields, items, raw memory) and casts; no
    /// union with anything else.
    SingleFloat,
    Char {
        no_nul: bool,
        konst: Option<Value>,
    },
    Str {
        can_be_none: bool,
        no_nul: bool,
        konst: Option<Value>,
    },
    UnicodeCodePoint {
        no_nul: bool,
        konst: Option<Value>,
    },
    Unicode {
        can_be_none: bool,
        no_nul: bool,
        konst: Option<Value>,
    },
    /// A `bytearray` (the reference's `SomeByteArray`): a mutable string of bytes whose
    /// items are ints. Never a constant (a prebuilt one is mutable: `Object::ByteArray`), and
    /// never None: the reference's annotator has no union of a bytearray with None.
    ByteArray,
    /// A weak reference (`weakref.ref(x)`, `rweakref.ref`; the reference's `SomeWeakRef`)
    /// to an instance of the class or of a subclass; `None` for `rweakref.dead_ref` alone
    /// (a reference to no class, whose call gives None).
    WeakRef {
        classdef: Option<ClassDefId>,
    },
    /// A virtual reference (`jit.virtual_ref(x)`, `jit.non_virtual_ref(x)`, `vref_None`;
    /// the reference's `SomeVRef`): calling it gives `s_instance`, an instance annotation
    /// or None. Never None itself.
    VRef {
        s_instance: Rc<SomeValue>,
    },
    /// `rweakref.RWeakValueDictionary(keyclass, valueclass)` (`SomeWeakValueDict`): keys of
    /// the annotation `key` (str, int or instances), values instances of `value` held
    /// weakly.
    WeakValueDict {
        key: Rc<SomeValue>,
        value: ClassDefId,
    },
    /// `rweakref.RWeakKeyDictionary(keyclass, valueclass)` (`SomeWeakKeyDict`): instances
    /// of `key` held weakly, by identity, mapped to instances of `value`.
    WeakKeyDict {
        key: ClassDefId,
        value: ClassDefId,
    },
    Tuple(Rc<[SomeValue]>),
    /// A list; `konst` is the prebuilt list object when the list is a constant.
    List {
        def: ListDefId,
        konst: Option<Value>,
    },
    Dict {
        def: DictDefId,
        konst: Option<Value>,
    },
    /// An instance of the class or of any subclass; `konst` for a prebuilt instance.
    Instance {
        classdef: ClassDefId,
        can_be_none: bool,
        konst: Option<Value>,
    },
    /// One of a set of prebuilt objects: functions, classes, methods, frozen objects.
    Pbc {
        descs: Rc<[DescId]>,
        can_be_none: bool,
    },
    None,
    Iterator {
        container: Rc<SomeValue>,
        variant: IterVariant,
    },
    /// The iterator returned by calling a generator function (one per graph).
    Generator {
        graph: u32,
    },
    /// A built-in function (`len`, `os.write`); `s_self` for the few built-ins bound to a
    /// value.
    Builtin {
        id: BuiltinId,
        s_self: Option<Rc<SomeValue>>,
    },
    /// A method of a built-in type bound to its receiver (`list.append` of a list).
    /// `char_analyser`: the reference's analyser of this method is the one of SomeChar or
    /// SomeUnicodeCodePoint (the receiver of the first method merged here was one character);
    /// the union of two bound methods keeps the first one's analyser, so it stays set when a
    /// longer string's method merges in (see `call_builtin_method`).
    BuiltinMethod {
        id: BuiltinId,
        s_self: Rc<SomeValue>,
        char_analyser: bool,
    },
    /// A type object (built-in types like `int` as values, `type(x)`, the class of a caught
    /// exception). `of` are the Variables whose type this is.
    Type {
        konst: Option<Value>,
        of: Option<Rc<[VarId]>>,
    },
    /// The empty set: no value reaches here (yet).
    Impossible,
    /// A value whose computation was reported as an error: it unions silently with anything
    /// and operations on it produce it again, so one mistake is reported once.
    Error,
    /// A value from something rpy-lsp does not model (an import it could not find, a name a
    /// bundled model lacks), named by what is missing ("rpython.rlib.rbigint"). It behaves as
    /// `Error` does (unions with anything into itself, operations on it give it again, no
    /// diagnostic), but nothing was reported about the user's code: the import got one
    /// warning. A program whose annotations contain it was not fully checked, and a later
    /// stage (`build`, `run`) must refuse it (see `AnnotatedProgram::unknowns`).
    Unknown(Rc<str>),
    /// An annotation an `ExtRegistryEntry` built (the object its `compute_annotation()`
    /// returned, a `SomeObject` subclass of the library's, such as rply's `SomeRule`, or
    /// one of its bound `method_*`s): operations on it run the library's annotator-level
    /// code (see `annotator::extregistry`).
    External(crate::objspace::object::ObjId),
    /// A low-level pointer (`SomePtr`): low-level helpers and user code of `lltype`. The
    /// type is the `Ptr` type itself; NULL is a value of it.
    Ptr(LlType),
    /// A pointer into a GC structure (`SomeInteriorPtr`): the inlined field `field` (an
    /// array) of the structure `base` points to (`s.chars`). `base` is the `Ptr` type.
    InteriorPtr {
        base: LlType,
        field: Rc<str>,
    },
    /// A structure inlined in a GC array, reached by indexing it (`d.entries[i]`, the
    /// reference's `SomeInteriorPtr` with an index offset): only its fields are read and
    /// written (`d.entries[i].key`). `array` is the `Ptr` type of the array.
    ArrayItem {
        array: LlType,
    },
    /// A low-level type used as a value (`Signed`, `STR`, `typeOf(p).TO`): a constant.
    LlType(LlType),
}

use SomeValue as S;

impl SomeValue {
    pub fn int() -> SomeValue {
        S::Integer {
            nonneg: false,
            kind: IntKind::Signed,
            konst: None,
        }
    }
    pub fn nonneg_int() -> SomeValue {
        S::Integer {
            nonneg: true,
            kind: IntKind::Signed,
            konst: None,
        }
    }
    /// The constant nonnegative int `n` (a known length).
    pub fn const_len(n: usize) -> SomeValue {
        S::Integer {
            nonneg: true,
            kind: IntKind::Signed,
            konst: Some(Value::Int(n as i64)),
        }
    }
    pub fn int_of_kind(kind: IntKind, nonneg: bool) -> SomeValue {
        let nonneg = nonneg || is_unsigned(kind);
        S::Integer {
            nonneg,
            kind,
            konst: None,
        }
    }
    pub fn bool() -> SomeValue {
        S::Bool {
            konst: None,
            ktd: None,
        }
    }
    pub fn const_bool(b: bool) -> SomeValue {
        S::Bool {
            konst: Some(b),
            ktd: None,
        }
    }
    pub fn float() -> SomeValue {
        S::Float { konst: None }
    }
    pub fn string() -> SomeValue {
        S::Str {
            can_be_none: false,
            no_nul: false,
            konst: None,
        }
    }
    pub fn string0(no_nul: bool) -> SomeValue {
        S::Str {
            can_be_none: false,
            no_nul,
            konst: None,
        }
    }
    pub fn char(no_nul: bool) -> SomeValue {
        S::Char {
            no_nul,
            konst: None,
        }
    }
    pub fn unicode(no_nul: bool) -> SomeValue {
        S::Unicode {
            can_be_none: false,
            no_nul,
            konst: None,
        }
    }
    pub fn unichar(no_nul: bool) -> SomeValue {
        S::UnicodeCodePoint {
            no_nul,
            konst: None,
        }
    }
    pub fn instance(classdef: ClassDefId) -> SomeValue {
        S::Instance {
            classdef,
            can_be_none: false,
            konst: None,
        }
    }
    pub fn pbc(descs: Vec<DescId>) -> SomeValue {
        let mut d = descs;
        d.sort();
        d.dedup();
        S::Pbc {
            descs: d.into(),
            can_be_none: false,
        }
    }
    pub fn bytearray() -> SomeValue {
        S::ByteArray
    }
    pub fn tuple(items: Vec<SomeValue>) -> SomeValue {
        S::Tuple(items.into())
    }

    pub fn is_impossible(&self) -> bool {
        matches!(self, S::Impossible)
    }
    /// An erroneous value (already reported) or an unknown one (from what rpy-lsp does not
    /// model): both absorb every operation silently.
    pub fn is_error(&self) -> bool {
        matches!(self, S::Error | S::Unknown(_))
    }
    /// A value from something rpy-lsp does not model.
    pub fn is_unknown(&self) -> bool {
        matches!(self, S::Unknown(_))
    }
    /// Integers and booleans (the reference's SomeInteger and its subclass SomeBool).
    pub fn is_int_like(&self) -> bool {
        matches!(self, S::Integer { .. } | S::Bool { .. })
    }
    /// Numbers: ints, bools and floats (the reference's SomeFloat hierarchy).
    pub fn is_number(&self) -> bool {
        matches!(self, S::Integer { .. } | S::Bool { .. } | S::Float { .. })
    }
    /// A method of a built-in type bound to `s_self`, as getattr makes it.
    pub fn builtin_method(id: BuiltinId, s_self: SomeValue) -> SomeValue {
        let char_analyser = matches!(s_self, S::Char { .. } | S::UnicodeCodePoint { .. });
        S::BuiltinMethod {
            id,
            s_self: Rc::new(s_self),
            char_analyser,
        }
    }

    /// The `str` methods the reference's annotator defines again for one-character strings
    /// (their bound methods cannot be merged with a longer string's).
    pub fn char_overrides(id: BuiltinId) -> bool {
        matches!(
            id,
            BuiltinId::StrLower | BuiltinId::StrUpper | BuiltinId::StrIsalnum
        )
    }

    /// `self` (the union of an operation's old and new result) with the method analyser of
    /// `new`: the reference's setbinding replaces a result's annotation by the new one (which
    /// must contain the old), so a bound method re-read from a receiver that became a longer
    /// string gets that string's analyser; only block arguments keep the first one's.
    pub fn with_analyser_of(self, new: &SomeValue) -> SomeValue {
        match (self, new) {
            (
                S::BuiltinMethod { id, s_self, .. },
                S::BuiltinMethod {
                    char_analyser: c, ..
                },
            ) => S::BuiltinMethod {
                id,
                s_self,
                char_analyser: *c,
            },
            (u, _) => u,
        }
    }

    /// `str` and chars.
    pub fn is_str_like(&self) -> bool {
        matches!(self, S::Str { .. } | S::Char { .. })
    }
    pub fn is_unicode_like(&self) -> bool {
        matches!(self, S::Unicode { .. } | S::UnicodeCodePoint { .. })
    }

    /// Whether the annotation includes None.
    pub fn can_be_none(&self) -> bool {
        match self {
            S::Str { can_be_none, .. } | S::Unicode { can_be_none, .. } => *can_be_none,
            S::Instance { can_be_none, .. } | S::Pbc { can_be_none, .. } => *can_be_none,
            S::List { .. } | S::Dict { .. } | S::None | S::Object | S::Error | S::Unknown(_) => {
                true
            }
            _ => false,
        }
    }

    /// The same set without None.
    pub fn nonnoneify(&self) -> SomeValue {
        match self {
            S::Str { no_nul, konst, .. } => S::Str {
                can_be_none: false,
                no_nul: *no_nul,
                konst: *konst,
            },
            S::Unicode { no_nul, konst, .. } => S::Unicode {
                can_be_none: false,
                no_nul: *no_nul,
                konst: *konst,
            },
            S::Instance {
                classdef, konst, ..
            } => S::Instance {
                classdef: *classdef,
                can_be_none: false,
                konst: *konst,
            },
            S::Pbc { descs, .. } => S::Pbc {
                descs: descs.clone(),
                can_be_none: false,
            },
            S::None => S::Impossible,
            other => other.clone(),
        }
    }

    /// The constant this annotation stands for, when it is one (not for PBCs, whose
    /// constant the bookkeeper knows).
    pub fn konst(&self) -> Option<Value> {
        match self {
            S::Integer { konst, .. }
            | S::Float { konst }
            | S::Char { konst, .. }
            | S::Str { konst, .. }
            | S::UnicodeCodePoint { konst, .. }
            | S::Unicode { konst, .. }
            | S::List { konst, .. }
            | S::Dict { konst, .. }
            | S::Instance { konst, .. }
            | S::Type { konst, .. } => *konst,
            S::Bool { konst, .. } => konst.map(Value::Bool),
            S::None => Some(Value::None),
            _ => None,
        }
    }

    /// Whether this is a constant of an immutable type (numbers, strings, None, tuples of
    /// those): the ones operations may fold.
    pub fn is_immutable_constant(&self) -> bool {
        match self {
            S::Integer { konst, .. }
            | S::Float { konst }
            | S::Char { konst, .. }
            | S::Str { konst, .. }
            | S::UnicodeCodePoint { konst, .. }
            | S::Unicode { konst, .. }
            | S::Type { konst, .. } => konst.is_some(),
            S::Bool { konst, .. } => konst.is_some(),
            S::None => true,
            S::Tuple(items) => items.iter().all(|s| s.is_immutable_constant()),
            _ => false,
        }
    }

    /// The same annotation without its constant.
    pub fn not_const(&self) -> SomeValue {
        let mut s = self.clone();
        match &mut s {
            S::Integer { konst, .. }
            | S::Float { konst }
            | S::Char { konst, .. }
            | S::Str { konst, .. }
            | S::UnicodeCodePoint { konst, .. }
            | S::Unicode { konst, .. }
            | S::List { konst, .. }
            | S::Dict { konst, .. }
            | S::Instance { konst, .. } => *konst = None,
            S::Bool { konst, ktd } => {
                *konst = None;
                *ktd = None;
            }
            S::Tuple(items) => *items = items.iter().map(|s| s.not_const()).collect(),
            _ => {}
        }
        s
    }

    /// The boolean's facts about Variables.
    pub fn ktd(&self) -> Option<&Rc<KnownTypeData>> {
        match self {
            S::Bool { ktd, .. } => ktd.as_ref(),
            _ => None,
        }
    }

    /// `no_nul` of strings and chars (false otherwise).
    pub fn no_nul(&self) -> bool {
        match self {
            S::Str { no_nul, .. }
            | S::Char { no_nul, .. }
            | S::Unicode { no_nul, .. }
            | S::UnicodeCodePoint { no_nul, .. } => *no_nul,
            _ => false,
        }
    }

    /// Integer knowntype (bools count as plain ints for arithmetic).
    pub fn int_kind(&self) -> Option<IntKind> {
        match self {
            S::Integer { kind, .. } => Some(*kind),
            S::Bool { .. } => Some(IntKind::Signed),
            _ => None,
        }
    }
    pub fn is_nonneg(&self) -> bool {
        match self {
            S::Integer { nonneg, .. } => *nonneg,
            S::Bool { .. } => true,
            _ => false,
        }
    }
    pub fn is_unsigned(&self) -> bool {
        matches!(self, S::Integer { kind, .. } if is_unsigned(*kind))
    }

    /// The short kind name used in messages about the reference's forms ("SomeInteger").
    pub fn reference_name(&self) -> &'static str {
        match self {
            S::Object => "SomeObject",
            S::Integer { .. } => "SomeInteger",
            S::Bool { .. } => "SomeBool",
            S::Float { .. } => "SomeFloat",
            S::SingleFloat => "SomeSingleFloat",
            S::Char { .. } => "SomeChar",
            S::Str { .. } => "SomeString",
            S::UnicodeCodePoint { .. } => "SomeUnicodeCodePoint",
            S::Unicode { .. } => "SomeUnicodeString",
            S::ByteArray => "SomeByteArray",
            S::WeakRef { .. } => "SomeWeakRef",
            S::VRef { .. } => "SomeVRef",
            S::WeakValueDict { .. } => "SomeWeakValueDict",
            S::WeakKeyDict { .. } => "SomeWeakKeyDict",
            S::Tuple(_) => "SomeTuple",
            S::List { .. } => "SomeList",
            S::Dict { .. } => "SomeDict",
            S::Instance { .. } => "SomeInstance",
            S::Pbc { .. } => "SomePBC",
            S::None => "SomeNone",
            S::Iterator { .. } => "SomeIterator",
            S::Generator { .. } => "SomeInstance",
            S::Builtin { .. } => "SomeBuiltin",
            S::BuiltinMethod { .. } => "SomeBuiltinMethod",
            S::Type { .. } => "SomeType",
            S::Impossible => "SomeImpossibleValue",
            S::Error => "SomeImpossibleValue",
            S::Unknown(_) | S::External(_) => "SomeObject",
            S::Ptr(_) => "SomePtr",
            S::InteriorPtr { .. } | S::ArrayItem { .. } => "SomeInteriorPtr",
            S::LlType(_) => "SomeLLType",
        }
    }
}

pub fn is_unsigned(kind: IntKind) -> bool {
    matches!(
        kind,
        IntKind::Unsigned | IntKind::ULongLong | IntKind::Narrow { signed: false, .. }
    )
}

/// Why the reference refuses arithmetic (and comparisons, truth tests, str()) on a
/// narrow C integer: its Repr has no low-level operations; `None` for the other kinds.
pub fn narrow_arith_message(kind: IntKind) -> Option<String> {
    let t = kind.narrow_lltype_name()?;
    Some(format!(
        "no arithmetic, comparison, truth test or str() on a narrow C integer ({}, {}): \
         widen it first with widen(), intmask() or int()",
        int_kind_name(kind),
        t
    ))
}

/// The refusal of an operation whose integers are of a narrow `kind` (RPY220).
pub fn narrow_refusal(kind: Option<IntKind>) -> Result<(), crate::annotator::AnnError> {
    match kind.and_then(narrow_arith_message) {
        Some(m) => Err(crate::annotator::AnnError::new("RPY220", m).at_typer()),
        None => Ok(()),
    }
}

/// Python name of an integer knowntype.
pub fn int_kind_name(kind: IntKind) -> &'static str {
    match kind {
        IntKind::Signed => "int",
        IntKind::Unsigned => "r_uint",
        IntKind::LongLong => "r_longlong",
        IntKind::ULongLong => "r_ulonglong",
        IntKind::LongLongLong => "r_longlonglong",
        IntKind::Narrow {
            bits: 32,
            signed: true,
        } => "r_int32",
        IntKind::Narrow {
            bits: 32,
            signed: false,
        } => "r_uint32",
        IntKind::Narrow {
            bits: 16,
            signed: true,
        } => "r_int16",
        IntKind::Narrow {
            bits: 16,
            signed: false,
        } => "r_uint16",
        IntKind::Narrow { signed: true, .. } => "r_int8",
        IntKind::Narrow { signed: false, .. } => "r_uint8",
    }
}

/// The result type of arithmetic between two integer knowntypes (the reference's
/// `compute_restype`); `None` when they cannot be mixed.
pub fn compute_restype(a: IntKind, b: IntKind) -> Option<IntKind> {
    use IntKind::*;
    if a == b {
        return Some(a);
    }
    match (a, b) {
        (x, Signed) | (Signed, x) => Some(x),
        (Unsigned, ULongLong) | (ULongLong, Unsigned) => Some(ULongLong),
        // signed kinds with the 128-bit one: the 128-bit one
        (LongLong | Narrow { signed: true, .. }, LongLongLong)
        | (LongLongLong, LongLong | Narrow { signed: true, .. }) => Some(LongLongLong),
        // the same sign: the larger size (a word-sized kind, of which the reference has
        // one per sign on 64-bit machines)
        (Narrow { bits: x, signed: s }, Narrow { bits: y, signed: t }) if s == t => Some(Narrow {
            bits: x.max(y),
            signed: s,
        }),
        (Narrow { signed: true, .. }, w @ LongLong)
        | (w @ LongLong, Narrow { signed: true, .. }) => Some(w),
        (Narrow { signed: false, .. }, w @ (Unsigned | ULongLong))
        | (w @ (Unsigned | ULongLong), Narrow { signed: false, .. }) => Some(w),
        _ => None,
    }
}
