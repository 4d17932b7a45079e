//! Reprs (seed 000, "Representations"): the low-level representation chosen for each
//! annotation. `getrepr` builds one Repr per distinct annotation (cached by a key derived
//! from it); a Repr's `lowleveltype` becomes the concretetype of the Variables it
//! represents. Conversions between Reprs (on links, for arguments) are `convertvar`.

use super::{RTyper, TyperError};
use crate::annotator::model::{ClassDefId, DescId, IterVariant, SomeValue};
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlType, LlValue};
use crate::objspace::object::{IntKind, Object};

/// A Repr, by id in the RTyper's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReprId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Nothing at run time: None alone, impossible values, a single built-in function.
    /// The value is the annotation's constant, known statically.
    Void,
    /// Nothing at run time either: one prebuilt function, class or frozen object, known
    /// statically. Unlike `Void` it says which one, so a conversion to a Repr of several
    /// of them (a function pointer, a vtable pointer) gives its pointer, not NULL.
    Prebuilt(DescId),
    Bool,
    Int(IntKind),
    Float,
    /// C's 4-byte `float` (`r_singlefloat`): `lltype.SingleFloat`.
    SingleFloat,
    Char,
    UniChar,
    /// `Ptr(STR)`: str or None (NULL).
    Str,
    Unicode,
    /// `Ptr(BYTEARRAY)`: a bytearray (never None in RPython).
    ByteArray,
    /// `Ptr(weakref)`: a weak reference to an instance, or NULL (`rweakref`).
    WeakRef,
    /// `Ptr(object)`: a virtual reference (`jit.virtual_ref`), its object itself.
    VRef,
    /// `Ptr(GcStruct tuple)` of the items' Reprs.
    Tuple(Vec<ReprId>),
    /// Resizable: `Ptr(GcStruct list {length, items: Ptr(GcArray(ITEM))})`;
    /// fixed-size: `Ptr(GcArray(ITEM))`.
    List {
        item: ReprId,
        fixed: bool,
    },
    /// `Ptr(GcStruct dict)` (insertion-ordered entries).
    /// An `r_dict` also holds its key equality and hash functions (by graph, see `rdict`).
    Dict {
        key: ReprId,
        value: ReprId,
        custom: Option<(super::rdict::KeyFn, super::rdict::KeyFn)>,
    },
    /// `Ptr(GcStruct <class>)`: an instance of the class or a subclass, or NULL.
    Instance(ClassDefId),
    /// `Ptr(object)`: any instance (exception values, before they are known).
    Object,
    /// `Ptr(vtable)`: one of several classes (a class PBC, `type(x)`).
    Class(Option<ClassDefId>),
    /// A function pointer: one of several functions of one call family (`graphs`: the LL
    /// graph ids of the family, sorted).
    FuncPtr(Vec<u32>),
    /// A method bound to an instance: represented by the instance.
    Method {
        self_repr: ReprId,
        name: std::rc::Rc<str>,
    },
    /// One of several prebuilt frozen objects (by family, see `rfrozen`):
    /// `Ptr(Struct pbc)`, an immutable prebuilt structure of the attributes read.
    Frozen(u32),
    /// A method of one of several frozen objects (one function): represented by the
    /// object.
    FrozenMethod {
        self_repr: ReprId,
        func: DescId,
    },
    /// A built-in method bound to a value (`lst.append`): represented by the value.
    BuiltinMethod {
        self_repr: ReprId,
        id: crate::builtins::BuiltinId,
    },
    /// Iterators: a small GcStruct with the container and a position.
    Iter {
        container: ReprId,
        variant: IterVariantKey,
    },
    /// range() results iterated directly: `{next, stop, step}`.
    RangeIter,
    /// The frame of a generator (by annotated graph).
    Generator(u32),
    /// A low-level pointer of low-level code (`SomePtr`): the `Ptr` type itself.
    Ptr(LlType),
    /// An inlined array of a GC structure (`s.chars`): represented by the pointer to the
    /// structure (`base`); item accesses become interior operations on it.
    InteriorPtr {
        base: LlType,
        field: std::rc::Rc<str>,
    },
    /// A structure inside a GC array (`d.entries[i]`): no value of its own (Void); its
    /// field accesses use the array and index it was read with (see `rptr`).
    ArrayItem {
        array: LlType,
    },
    /// A library's own Repr of an ExtRegistryEntry's annotation (rply's `RuleRepr`), by
    /// index in `rext`: its `lowleveltype`.
    External(u32),
    /// A method of such a value: represented by the value.
    ExtMethod {
        self_repr: ReprId,
        name: std::rc::Rc<str>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IterVariantKey {
    Plain,
    Enumerate,
    Reversed,
    Keys,
    Values,
    Items,
}

impl From<IterVariant> for IterVariantKey {
    fn from(v: IterVariant) -> Self {
        match v {
            IterVariant::Plain => IterVariantKey::Plain,
            IterVariant::Enumerate => IterVariantKey::Enumerate,
            IterVariant::Reversed => IterVariantKey::Reversed,
            IterVariant::Keys => IterVariantKey::Keys,
            IterVariant::Values => IterVariantKey::Values,
            IterVariant::Items => IterVariantKey::Items,
        }
    }
}

impl RTyper<'_> {
    pub fn repr(&self, r: ReprId) -> &Repr {
        &self.reprs[r.0 as usize].0
    }
    pub fn lltype(&self, r: ReprId) -> LlType {
        self.reprs[r.0 as usize].1
    }

    /// The Repr of a Repr value, creating it (and its low-level type) on first use.
    pub fn intern_repr(&mut self, repr: Repr) -> ReprId {
        if let Some(&id) = self.repr_cache.get(&repr) {
            return id;
        }
        let ty = self.make_lltype(&repr);
        let id = ReprId(self.reprs.len() as u32);
        self.reprs.push((repr.clone(), ty));
        self.repr_cache.insert(repr, id);
        id
    }

    fn make_lltype(&mut self, repr: &Repr) -> LlType {
        match repr {
            Repr::Void | Repr::Prebuilt(_) | Repr::ArrayItem { .. } => LlType::VOID,
            Repr::Bool => LlType::BOOL,
            Repr::Int(k) => LlType::of_int_kind(*k),
            Repr::Float => LlType::FLOAT,
            Repr::SingleFloat => LlType::SINGLEFLOAT,
            Repr::Char => LlType::CHAR,
            Repr::UniChar => LlType::UNICHAR,
            Repr::Str => self.str_ptr,
            Repr::Unicode => self.unicode_ptr,
            Repr::ByteArray => self.bytearray_ptr,
            Repr::WeakRef => self.make_weakref_lltype(),
            Repr::Tuple(items) => {
                let fields = items
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (format!("item{}", i).into(), self.lltype(*r)))
                    .collect();
                let name = format!("tuple{}", items.len());
                let s = self.types.new_struct(&name, true, fields);
                self.types.ptr(s)
            }
            Repr::List { item, fixed: true } => {
                let item_ty = self.lltype(*item);
                let arr = self.types.gc_array(item_ty);
                self.types.ptr(arr)
            }
            Repr::List { fixed: false, .. } | Repr::Dict { .. } => {
                let (name, fields) = self.container_struct(repr);
                let s = self.types.new_struct(name, true, fields);
                self.types.ptr(s)
            }
            Repr::Instance(cd) => {
                let s = self.classes.instance_struct(*cd);
                self.types.ptr(s)
            }
            Repr::Object | Repr::VRef => {
                let o = self.classes.object;
                self.types.ptr(o)
            }
            Repr::Class(cd) => {
                let v = match cd {
                    Some(cd) => self.classes.vtable_struct(*cd),
                    None => self.classes.object_vtable,
                };
                self.types.ptr(v)
            }
            Repr::FuncPtr(graphs) => self.funcptr_type(graphs[0]),
            Repr::External(i) => self.ext_lltype(*i),
            Repr::Method { self_repr, .. }
            | Repr::ExtMethod { self_repr, .. }
            | Repr::BuiltinMethod { self_repr, .. }
            | Repr::FrozenMethod { self_repr, .. } => self.lltype(*self_repr),
            Repr::Frozen(f) => {
                let s = self.frozen_struct(*f);
                self.types.ptr(s)
            }
            Repr::Iter { container, variant } => {
                let ct = self.lltype(*container);
                let s = self.types.new_struct(
                    &format!("iter_{:?}", variant).to_lowercase(),
                    true,
                    vec![("container".into(), ct), ("index".into(), LlType::SIGNED)],
                );
                self.types.ptr(s)
            }
            Repr::Generator(g) => {
                let f = self.gen_frame(*g);
                self.types.ptr(f)
            }
            Repr::Ptr(t) | Repr::InteriorPtr { base: t, .. } => *t,
            Repr::RangeIter => {
                let s = self.types.new_struct(
                    "rangeiter",
                    true,
                    vec![
                        ("next".into(), LlType::SIGNED),
                        ("stop".into(), LlType::SIGNED),
                        ("step".into(), LlType::SIGNED),
                    ],
                );
                self.types.ptr(s)
            }
        }
    }

    /// The Repr of an annotation.
    pub fn getrepr(&mut self, s: &SomeValue) -> Result<ReprId, TyperError> {
        let repr = match s {
            SomeValue::Impossible | SomeValue::None => Repr::Void,
            SomeValue::Bool { .. } => Repr::Bool,
            SomeValue::Integer { kind, .. } => Repr::Int(*kind),
            SomeValue::Float { .. } => Repr::Float,
            SomeValue::SingleFloat => Repr::SingleFloat,
            SomeValue::Char { .. } => Repr::Char,
            SomeValue::UnicodeCodePoint { .. } => Repr::UniChar,
            SomeValue::Str { .. } => Repr::Str,
            SomeValue::Unicode { .. } => Repr::Unicode,
            SomeValue::ByteArray => Repr::ByteArray,
            SomeValue::WeakRef { .. } => Repr::WeakRef,
            SomeValue::VRef { .. } => Repr::VRef,
            SomeValue::WeakValueDict { .. } | SomeValue::WeakKeyDict { .. } => {
                self.weakdict_repr(s)?
            }
            SomeValue::Tuple(items) => {
                let mut rs = Vec::new();
                for it in items.iter() {
                    rs.push(self.getrepr(it)?);
                }
                Repr::Tuple(rs)
            }
            SomeValue::List { def, .. } => {
                let id = self.ann.bookkeeper.list_item(*def);
                let item = self.ann.bookkeeper.item(id);
                let (s_item, resized) = (item.s_value.clone(), item.resized);
                return self.container_repr(
                    id,
                    "list",
                    !resized,
                    |rt| rt.getrepr(&s_item),
                    |item| Repr::List {
                        item,
                        fixed: !resized,
                    },
                );
            }
            SomeValue::Dict { def, .. } => {
                let (k, v) = self.ann.bookkeeper.dict_items(*def);
                let (sk, sv) = (
                    self.ann.bookkeeper.item(k).s_value.clone(),
                    self.ann.bookkeeper.item(v).s_value.clone(),
                );
                let custom = self.r_dict_functions(*def)?;
                return self.container_repr(
                    v,
                    "dict",
                    false,
                    |rt| Ok((rt.getrepr(&sk)?, rt.getrepr(&sv)?)),
                    |(key, value)| Repr::Dict { key, value, custom },
                );
            }
            SomeValue::Instance { classdef, .. } => Repr::Instance(*classdef),
            SomeValue::Pbc { descs, can_be_none } => {
                // Every call site of a method family holds the family's whole set (often the
                // same `Rc`, thousands of methods in a VM): computing its Repr once per set
                // keeps the RTyper linear in the program.
                if let Some(id) = self.pbc_reprs.get(descs, *can_be_none) {
                    return Ok(id);
                }
                let id = self.pbc_repr(descs, *can_be_none)?;
                self.pbc_reprs.insert(descs, *can_be_none, id);
                return Ok(id);
            }
            SomeValue::Type { .. } => Repr::Class(None),
            SomeValue::Iterator { container, variant } => {
                if *variant == IterVariant::Plain {
                    if let Some(r) = self.range_iter_repr(container) {
                        return Ok(r);
                    }
                }
                // A one-character string is a Char: it is iterated as the string it is
                // (the reference converts the container to its string Repr).
                let c = match self.getrepr(container)? {
                    c if matches!(self.repr(c), Repr::Char) => self.intern_repr(Repr::Str),
                    c if matches!(self.repr(c), Repr::UniChar) => self.intern_repr(Repr::Unicode),
                    c => c,
                };
                Repr::Iter {
                    container: c,
                    variant: (*variant).into(),
                }
            }
            SomeValue::Builtin { s_self: None, .. } => Repr::Void,
            SomeValue::Builtin {
                s_self: Some(s),
                id,
            }
            | SomeValue::BuiltinMethod { s_self: s, id, .. } => {
                let self_repr = self.getrepr(s)?;
                Repr::BuiltinMethod { self_repr, id: *id }
            }
            SomeValue::Generator { graph } => Repr::Generator(*graph),
            SomeValue::Ptr(t) => Repr::Ptr(*t),
            SomeValue::InteriorPtr { base, field } => Repr::InteriorPtr {
                base: *base,
                field: field.clone(),
            },
            SomeValue::ArrayItem { array } => Repr::ArrayItem { array: *array },
            SomeValue::LlType(_) => Repr::Void,
            SomeValue::Unknown(what) => {
                return Err(TyperError::new(format!(
                    "a value from {}, which rpy-lsp does not model",
                    what
                )))
            }
            SomeValue::Object | SomeValue::Error => {
                return Err(TyperError::new("a value the annotator could not type"))
            }
            SomeValue::External(ann) if self.ext_repr(*ann).is_some() => {
                self.ext_repr(*ann).expect("checked")?
            }
            SomeValue::External(ann) => {
                // the annotation's class names the library (rply's `SomeRule`)
                let what = match self.objheap.get(*ann) {
                    Object::Instance(inst) => format!(
                        " ({})",
                        crate::annotator::Bookkeeper::class_name(self.objheap, inst.class)
                    ),
                    _ => String::new(),
                };
                return Err(TyperError::new(format!(
                    "a value annotated by an ExtRegistryEntry{}, whose RTyper code (rtyper_makerepr, specialize_call) rpy-lsp does not run",
                    what
                )));
            }
        };
        Ok(self.intern_repr(repr))
    }

    /// The range iterator Repr for iterating a `range()` list that is never mutated nor
    /// resized (its items are `start + i * step`): iteration needs no list.
    pub(super) fn range_iter_repr(&mut self, container: &SomeValue) -> Option<ReprId> {
        if self.range_list_step(container).is_some() {
            return Some(self.intern_repr(Repr::RangeIter));
        }
        None
    }

    /// The constant step of a `range()` list never mutated nor resized.
    pub(super) fn range_list_step(&self, container: &SomeValue) -> Option<i64> {
        let SomeValue::List { def, .. } = container else {
            return None;
        };
        let item = self.ann.bookkeeper.list_item(*def);
        let item = self.ann.bookkeeper.item(item);
        match item.range_step {
            Some(step) if step != 0 && !item.mutated && !item.resized => Some(step),
            _ => None,
        }
    }

    /// Converts `v` (held in Repr `from`) to Repr `to`, emitting operations into `llops`.
    pub fn convertvar(
        &mut self,
        llops: &mut super::LlOps,
        v: Hlvalue,
        from: ReprId,
        to: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        if from == to {
            return Ok(v);
        }
        let (tf, tt) = (self.lltype(from), self.lltype(to));
        if let Hlvalue::Ll(c) = v {
            if let Some(k) = self.convert_const_ll(c.value, c.ty, tt) {
                return Ok(Hlvalue::Ll(k));
            }
        }
        if tf == tt {
            return Ok(v);
        }
        if tt == LlType::VOID {
            // a value nobody reads (None, an impossible value)
            return Ok(super::hop::cvoid());
        }
        let rf = self.repr(from).clone();
        let rt = self.repr(to).clone();
        let cast = |op: LlOp| Some(op);
        let op = match (&rf, &rt) {
            // narrow C integers and floats do not convert into each other (the reference
            // has no such cast)
            (Repr::Int(k), Repr::Float) | (Repr::Float, Repr::Int(k)) if k.is_narrow() => {
                return Err(TyperError::new(format!(
                    "cannot convert between a float and a narrow C integer ({})",
                    crate::annotator::model::int_kind_name(*k)
                )))
            }
            // nor do 128-bit integers and floats
            (Repr::Int(IntKind::LongLongLong), Repr::Float)
            | (Repr::Float, Repr::Int(IntKind::LongLongLong)) => {
                return Err(TyperError::new(
                    "cannot convert between a float and an r_longlonglong (the reference's RTyper has no conversion between SignedLongLongLong and Float)",
                ))
            }
            (Repr::Bool, Repr::Int(IntKind::Signed)) => cast(LlOp::CastBoolToInt),
            (Repr::Bool, Repr::Float) => cast(LlOp::CastBoolToFloat),
            (Repr::Int(IntKind::Signed), Repr::Float) => cast(LlOp::CastIntToFloat),
            (Repr::Int(_) | Repr::Bool, Repr::Int(_) | Repr::Float) => cast(LlOp::CastPrimitive),
            // where the annotator let a float reach an integer (`range(x * 1.0)`): C's
            // truncation, as the reference converts
            (Repr::Float, Repr::Int(IntKind::Signed)) => cast(LlOp::CastFloatToInt),
            (Repr::Float, Repr::Int(_)) => cast(LlOp::CastPrimitive),
            (Repr::Char, Repr::UniChar) => {
                // a str character as the unicode code point of the same number
                let i = llops.genop(LlOp::CastCharToInt, vec![v], LlType::SIGNED);
                return Ok(llops.genop(LlOp::CastIntToUnichar, vec![i], tt));
            }
            (Repr::Char, Repr::Str) | (Repr::UniChar, Repr::Unicode) => {
                let t = super::hop::ctype(tt);
                return self.gendirectcall(llops, "ll_char_str", vec![t, v], tt);
            }
            // a string where the annotator says a character (`str(c)` of a char is one):
            // its first character, as the reference converts a string to a char
            (Repr::Str, Repr::Char) => {
                let i = super::hop::cint(0);
                let chars = super::hop::cfield("chars");
                return Ok(llops.genop(LlOp::GetInteriorField, vec![v, chars, i], tt));
            }
            (Repr::Prebuilt(d), _) => {
                // the one object becoming a pointer among several (a function of a family,
                // a class among classes)
                let Some(obj) = self.ann.bookkeeper.desc_obj(*d) else {
                    return Err(TyperError::new(format!(
                        "cannot convert a prebuilt method to {}",
                        self.types.name(tt)
                    )));
                };
                let c = self.const_value(crate::objspace::object::Value::Obj(obj), to)?;
                return Ok(Hlvalue::Ll(c));
            }
            (Repr::Void, _) if self.types.is_ptr(tt) => {
                // None becoming a pointer
                return Ok(Hlvalue::Ll(crate::flowspace::LlConstant {
                    ty: tt,
                    value: LlValue::Ptr(crate::lltypesystem::LlPtr::Null),
                }));
            }
            (Repr::Tuple(from_items), Repr::Tuple(to_items))
                if from_items.len() == to_items.len() =>
            {
                // tuples of other item Reprs are other structures (an item None at one
                // return is a Void field there, an instance pointer at another): a new
                // tuple of the converted items, never a cast of the pointer
                let mut items = Vec::with_capacity(to_items.len());
                for (i, (&fi, &ti)) in from_items.iter().zip(to_items).enumerate() {
                    let field = super::hop::cfield(&format!("item{}", i));
                    let x = llops.genop(LlOp::GetField, vec![v, field], self.lltype(fi));
                    items.push(self.convertvar(llops, x, fi, ti)?);
                }
                return Ok(self.build_tuple(llops, to, items));
            }
            (Repr::Void, _) => {
                return Err(TyperError::new(format!(
                    "cannot convert a constant to {}",
                    self.types.name(tt)
                )));
            }
            _ if self.types.is_ptr(tf) && self.types.is_ptr(tt) => cast(LlOp::CastPointer),
            _ => None,
        };
        // A number or character where a string, container or instance is expected (or the
        // reverse): the reference's RTyper has no conversion between them either
        // ("don't know how to convert"), e.g. an int key given to an
        // `RWeakValueDictionary(str, ...)`, which its annotator lets through.
        let primitive = |r: &Repr| {
            matches!(
                r,
                Repr::Bool | Repr::Int(_) | Repr::Float | Repr::Char | Repr::UniChar
            )
        };
        let gc_object = |r: &Repr| {
            matches!(
                r,
                Repr::Str
                    | Repr::Unicode
                    | Repr::List { .. }
                    | Repr::Dict { .. }
                    | Repr::Tuple(_)
                    | Repr::Instance(_)
            )
        };
        if op.is_none()
            && ((primitive(&rf) && gc_object(&rt)) || (gc_object(&rf) && primitive(&rt)))
        {
            let kind = |r: &Repr| match r {
                Repr::Bool => "a bool",
                Repr::Int(_) => "an integer",
                Repr::Float => "a float",
                Repr::Char | Repr::UniChar => "a character",
                Repr::Str => "a string",
                Repr::Unicode => "a unicode string",
                Repr::List { .. } => "a list",
                Repr::Dict { .. } => "a dict",
                Repr::Tuple(_) => "a tuple",
                _ => "an instance",
            };
            return Err(TyperError::rejected(
                "RPY218",
                format!(
                    "{} is given where {} is expected: RPython cannot convert between them",
                    kind(&rf),
                    kind(&rt)
                ),
            ));
        }
        match op {
            Some(op) => Ok(llops.genop(op, vec![v], tt)),
            None => Err(TyperError::new(format!(
                "cannot convert {} to {}",
                self.types.name(tf),
                self.types.name(tt)
            ))),
        }
    }

    /// A low-level constant converted between primitive types, or a NULL pointer of
    /// another type.
    pub fn convert_const_ll(
        &self,
        v: LlValue,
        from: LlType,
        to: LlType,
    ) -> Option<crate::flowspace::LlConstant> {
        use crate::flowspace::LlConstant;
        if from == to {
            return Some(LlConstant { ty: to, value: v });
        }
        // a pointer constant (a prebuilt string, say) is no number: the caller's
        // conversion decides (and refuses it where the reference does)
        if self.types.is_ptr(from) && !self.types.is_ptr(to) {
            return None;
        }
        let value = match to {
            LlType::SIGNED | LlType::SIGNEDLONGLONG => LlValue::Int(v.as_int()),
            LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG => LlValue::Uint(v.as_uint()),
            LlType::SIGNEDLONGLONGLONG => LlValue::int128(v.as_i128()),
            _ if to.narrow_bits().is_some() => LlValue::narrow(to, v.as_int()),
            LlType::FLOAT => LlValue::Float(v.as_float()),
            LlType::BOOL => LlValue::Bool(v.as_bool()),
            _ if self.types.is_ptr(to) && matches!(v, LlValue::Ptr(_)) => v,
            _ => return None,
        };
        Some(LlConstant { ty: to, value })
    }
}
