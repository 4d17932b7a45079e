//! The join of annotations (the reference's `unionof` and the `union` of each pair of
//! annotation kinds), equality, containment, and the narrowing used on branches.
//!
//! None joins pointer-like values (strings, unicode, lists, dicts, instances, PBCs) but not
//! numbers or tuples; ints and bools join into ints, numbers into floats; chars into strings;
//! instances into their most precise common base class; tuples of the same length item by
//! item. Joining two lists or dicts unifies their definitions for good (a side effect), so
//! the pure form used by `contains` refuses to.

use super::bookkeeper::Bookkeeper;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::fasthash::HashMap;
use crate::objspace::object::{Heap, IntKind, Object, Value};
use std::rc::Rc;

use SomeValue as S;

impl Bookkeeper {
    /// `Class.name` of a method of a frozen object, for messages.
    fn frozen_method_name(&self, heap: &Heap, (func, frozen): (DescId, DescId)) -> String {
        let name = match self.desc(func) {
            Desc::Function(f) => f.name.to_string(),
            _ => "?".into(),
        };
        let class = match self.desc(frozen) {
            Desc::Frozen(f) => match heap.get(f.obj) {
                Object::Instance(i) => heap.class(i.class).map(|c| c.name.to_string()),
                _ => None,
            },
            _ => None,
        };
        match class {
            Some(c) => format!("{c}.{name}"),
            None => name,
        }
    }
}

fn union_error(reason: impl Into<String>) -> AnnError {
    AnnError::new("RPY201", reason.into())
}

/// Whether two constants are the same value (strings by content).
pub fn same_const(heap: &Heap, a: Option<Value>, b: Option<Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Float(x)), Some(Value::Float(y))) => x.to_bits() == y.to_bits(),
        (Some(x), Some(y)) if x == y => true,
        (Some(Value::Obj(x)), Some(Value::Obj(y))) => match (heap.get(x), heap.get(y)) {
            (Object::Str(s), Object::Str(t)) => s == t,
            (Object::Unicode(s), Object::Unicode(t)) => s == t,
            (
                Object::RInt {
                    kind: k1,
                    value: v1,
                },
                Object::RInt {
                    kind: k2,
                    value: v2,
                },
            ) => k1 == k2 && v1 == v2,
            _ => false,
        },
        _ => false,
    }
}

fn keep_const(heap: &Heap, a: Option<Value>, b: Option<Value>) -> Option<Value> {
    if same_const(heap, a, b) {
        a
    } else {
        None
    }
}

impl Bookkeeper {
    /// Structural equality (lists and dicts: same definition).
    pub fn eq(&self, heap: &Heap, a: &SomeValue, b: &SomeValue) -> bool {
        match (a, b) {
            (
                S::Integer {
                    nonneg: n1,
                    kind: k1,
                    konst: c1,
                },
                S::Integer {
                    nonneg: n2,
                    kind: k2,
                    konst: c2,
                },
            ) => n1 == n2 && k1 == k2 && same_const(heap, *c1, *c2),
            // what a test tells about other variables is part of it: a re-annotated
            // `x is not None` whose x was generalized must replace the narrowed x
            (S::Bool { konst: c1, ktd: k1 }, S::Bool { konst: c2, ktd: k2 }) => {
                c1 == c2
                    && match (k1, k2) {
                        (None, None) => true,
                        (Some(x), Some(y)) => {
                            x.len() == y.len()
                                && x.iter().zip(y.iter()).all(|((t1, v1, s1), (t2, v2, s2))| {
                                    t1 == t2 && v1 == v2 && self.eq(heap, s1, s2)
                                })
                        }
                        _ => false,
                    }
            }
            (S::Float { konst: c1 }, S::Float { konst: c2 }) => same_const(heap, *c1, *c2),
            (S::SingleFloat, S::SingleFloat) => true,
            (
                S::Char {
                    no_nul: n1,
                    konst: c1,
                },
                S::Char {
                    no_nul: n2,
                    konst: c2,
                },
            )
            | (
                S::UnicodeCodePoint {
                    no_nul: n1,
                    konst: c1,
                },
                S::UnicodeCodePoint {
                    no_nul: n2,
                    konst: c2,
                },
            ) => n1 == n2 && same_const(heap, *c1, *c2),
            (
                S::Str {
                    can_be_none: a1,
                    no_nul: n1,
                    konst: c1,
                },
                S::Str {
                    can_be_none: a2,
                    no_nul: n2,
                    konst: c2,
                },
            )
            | (
                S::Unicode {
                    can_be_none: a1,
                    no_nul: n1,
                    konst: c1,
                },
                S::Unicode {
                    can_be_none: a2,
                    no_nul: n2,
                    konst: c2,
                },
            ) => a1 == a2 && n1 == n2 && same_const(heap, *c1, *c2),
            (S::Tuple(x), S::Tuple(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| self.eq(heap, p, q))
            }
            (S::Ptr(x), S::Ptr(y)) | (S::LlType(x), S::LlType(y)) => x == y,
            (S::ArrayItem { array: x }, S::ArrayItem { array: y }) => x == y,
            (S::InteriorPtr { base: x, field: f }, S::InteriorPtr { base: y, field: g }) => {
                x == y && f == g
            }
            (S::List { def: d1, konst: c1 }, S::List { def: d2, konst: c2 }) => {
                self.list_item(*d1) == self.list_item(*d2) && same_const(heap, *c1, *c2)
            }
            (S::Dict { def: d1, konst: c1 }, S::Dict { def: d2, konst: c2 }) => {
                self.dict_items(*d1) == self.dict_items(*d2) && same_const(heap, *c1, *c2)
            }
            (
                S::Instance {
                    classdef: c1,
                    can_be_none: n1,
                    konst: k1,
                },
                S::Instance {
                    classdef: c2,
                    can_be_none: n2,
                    konst: k2,
                },
            ) => c1 == c2 && n1 == n2 && k1 == k2,
            (
                S::Pbc {
                    descs: d1,
                    can_be_none: n1,
                },
                S::Pbc {
                    descs: d2,
                    can_be_none: n2,
                },
            ) => n1 == n2 && d1 == d2,
            (
                S::Iterator {
                    container: c1,
                    variant: v1,
                },
                S::Iterator {
                    container: c2,
                    variant: v2,
                },
            ) => v1 == v2 && self.eq(heap, c1, c2),
            (S::Generator { graph: g1 }, S::Generator { graph: g2 }) => g1 == g2,
            (S::ByteArray, S::ByteArray) => true,
            (S::WeakRef { classdef: c1 }, S::WeakRef { classdef: c2 }) => c1 == c2,
            (S::VRef { s_instance: i1 }, S::VRef { s_instance: i2 }) => self.eq(heap, i1, i2),
            (S::WeakValueDict { key: k1, value: v1 }, S::WeakValueDict { key: k2, value: v2 }) => {
                v1 == v2 && self.eq(heap, k1, k2)
            }
            (S::WeakKeyDict { key: k1, value: v1 }, S::WeakKeyDict { key: k2, value: v2 }) => {
                k1 == k2 && v1 == v2
            }
            (S::Builtin { id: n1, s_self: s1 }, S::Builtin { id: n2, s_self: s2 }) => {
                n1 == n2
                    && match (s1, s2) {
                        (None, None) => true,
                        (Some(x), Some(y)) => self.eq(heap, x, y),
                        _ => false,
                    }
            }
            (
                S::BuiltinMethod {
                    id: n1,
                    s_self: s1,
                    char_analyser: c1,
                },
                S::BuiltinMethod {
                    id: n2,
                    s_self: s2,
                    char_analyser: c2,
                },
            ) => n1 == n2 && c1 == c2 && self.eq(heap, s1, s2),
            (S::Type { konst: c1, of: o1 }, S::Type { konst: c2, of: o2 }) => c1 == c2 && o1 == o2,
            (S::None, S::None)
            | (S::Impossible, S::Impossible)
            | (S::Error, S::Error)
            | (S::Unknown(_), S::Unknown(_))
            | (S::Object, S::Object) => true,
            (S::External(x), S::External(y)) => x == y,
            _ => false,
        }
    }

    /// The most precise annotation containing both; merges list and dict definitions.
    pub fn union(
        &mut self,
        heap: &Heap,
        a: &SomeValue,
        b: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        self.union_impl(heap, a, b, false)
    }

    /// Whether `a` contains `b`, without side effects.
    pub fn contains(&mut self, heap: &Heap, a: &SomeValue, b: &SomeValue) -> bool {
        if self.eq(heap, a, b) {
            return true;
        }
        match self.union_impl(heap, a, b, true) {
            Ok(u) => self.eq(heap, &u, a),
            Err(_) => false,
        }
    }

    /// Whether `a` and `b` have a union, without side effects.
    pub fn compatible(&mut self, heap: &Heap, a: &SomeValue, b: &SomeValue) -> bool {
        self.union_impl(heap, a, b, true).is_ok()
    }

    /// Whether all of `items` have a union (the reference's `unionof(*items)` succeeds),
    /// without side effects.
    pub fn compatible_all(&mut self, heap: &Heap, items: &[SomeValue]) -> bool {
        let mut acc = SomeValue::Impossible;
        for s in items {
            match self.union_impl(heap, &acc, s, true) {
                Ok(u) => acc = u,
                Err(_) => return false,
            }
        }
        true
    }

    /// `a ∪ None`.
    pub fn noneify(&self, heap: &Heap, a: &SomeValue) -> Result<SomeValue, AnnError> {
        Ok(match a {
            S::Str { no_nul, .. } | S::Char { no_nul, .. } => S::Str { can_be_none: true, no_nul: *no_nul, konst: None },
            S::Unicode { no_nul, .. } | S::UnicodeCodePoint { no_nul, .. } => S::Unicode { can_be_none: true, no_nul: *no_nul, konst: None },
            S::List { def, .. } => S::List { def: *def, konst: None },
            S::Dict { def, .. } => S::Dict { def: *def, konst: None },
            S::Instance { classdef, .. } => S::Instance { classdef: *classdef, can_be_none: true, konst: None },
            S::Pbc { descs, .. } => S::Pbc { descs: descs.clone(), can_be_none: true },
            // a pointer may be NULL; a weak reference may be None (a NULL one, as the
            // reference's `noneify` keeps it)
            S::None
            | S::Error
            | S::Unknown(_)
            | S::Ptr(_)
            | S::WeakRef { .. }
            | S::WeakValueDict { .. }
            | S::WeakKeyDict { .. } => a.clone(),
            S::Impossible => S::None,
            other => {
                return Err(union_error(format!(
                    "None can only be mixed with pointer-like values (strings, instances, lists, dicts), not with {}",
                    self.describe_type(heap, other)
                )))
            }
        })
    }

    fn union_impl(
        &mut self,
        heap: &Heap,
        a: &SomeValue,
        b: &SomeValue,
        pure: bool,
    ) -> Result<SomeValue, AnnError> {
        if self.eq(heap, a, b) {
            return Ok(a.clone());
        }
        Ok(match (a, b) {
            (S::Unknown(_), _) => a.clone(),
            (_, S::Unknown(_)) => b.clone(),
            (S::Error, _) | (_, S::Error) => S::Error,
            (S::Impossible, x) | (x, S::Impossible) => x.clone(),
            // two annotations of one ExtRegistryEntry's kind (`SomeRule(const=r1) ∪
            // SomeRule(const=r2)`): what the library's `pairtype(K, K).union` gives, if it
            // defines one; else the reference's UnionError
            (S::External(x), S::External(y)) if same_class(heap, *x, *y) => {
                let kind = match heap.get(*x) {
                    Object::Instance(i) => Some(i.class),
                    _ => None,
                };
                if !kind.is_some_and(|k| self.ext_unions.contains(&k)) {
                    return Err(union_error(format!(
                        "{} and another one cannot be mixed: the library defines no union of the pair",
                        self.describe_type(heap, a)
                    )));
                }
                S::External(*x.min(y))
            }
            (S::External(_), _) | (_, S::External(_)) => S::Unknown(Rc::from(
                "an annotation of an ExtRegistryEntry mixed with another",
            )),
            (S::None, x) | (x, S::None) => self.noneify(heap, x)?,
            (S::Bool { konst: c1, ktd: k1 }, S::Bool { konst: c2, ktd: k2 }) => {
                let ktd = match (k1, k2) {
                    (Some(x), Some(y)) => {
                        let mut out = Vec::new();
                        for (t, v, s) in x.iter() {
                            if let Some((_, _, s2)) =
                                y.iter().find(|(t2, v2, _)| t2 == t && v2 == v)
                            {
                                if let Ok(u) = self.union_impl(heap, s, s2, true) {
                                    out.push((*t, *v, u));
                                }
                            }
                        }
                        (!out.is_empty()).then(|| Rc::new(out))
                    }
                    _ => None,
                };
                S::Bool {
                    konst: if c1 == c2 { *c1 } else { None },
                    ktd,
                }
            }
            (x, y) if x.is_int_like() && y.is_int_like() => self.union_ints(heap, x, y)?,
            (x, y) if x.is_number() && y.is_number() => S::Float { konst: None },
            (S::SingleFloat, S::SingleFloat) => S::SingleFloat,
            (S::Char { no_nul: n1, .. }, S::Char { no_nul: n2, .. }) => S::Char {
                no_nul: *n1 && *n2,
                konst: None,
            },
            (x, y) if x.is_str_like() && y.is_str_like() => S::Str {
                can_be_none: x.can_be_none() || y.can_be_none(),
                no_nul: x.no_nul() && y.no_nul(),
                konst: None,
            },
            (S::UnicodeCodePoint { no_nul: n1, .. }, S::UnicodeCodePoint { no_nul: n2, .. }) => {
                S::UnicodeCodePoint {
                    no_nul: *n1 && *n2,
                    konst: None,
                }
            }
            (S::Char { .. }, S::UnicodeCodePoint { .. })
            | (S::UnicodeCodePoint { .. }, S::Char { .. }) => S::UnicodeCodePoint {
                no_nul: false,
                konst: None,
            },
            (x, y) if x.is_unicode_like() && y.is_unicode_like() => S::Unicode {
                can_be_none: x.can_be_none() || y.can_be_none(),
                no_nul: x.no_nul() && y.no_nul(),
                konst: None,
            },
            (S::Tuple(x), S::Tuple(y)) => {
                if x.len() != y.len() {
                    return Err(union_error(format!(
                        "tuples of different lengths cannot be mixed: {} versus {}",
                        x.len(),
                        y.len()
                    )));
                }
                let mut items = Vec::with_capacity(x.len());
                for (p, q) in x.iter().zip(y.iter()) {
                    items.push(self.union_impl(heap, p, q, pure)?);
                }
                S::Tuple(items.into())
            }
            (S::List { def: d1, konst: c1 }, S::List { def: d2, konst: c2 }) => {
                if self.list_item(*d1) != self.list_item(*d2) {
                    if pure {
                        return Err(union_error("different lists"));
                    }
                    self.merge_listdefs(heap, *d1, *d2)?;
                }
                S::List {
                    def: *d1,
                    konst: keep_const(heap, *c1, *c2),
                }
            }
            (S::Dict { def: d1, konst: c1 }, S::Dict { def: d2, konst: c2 }) => {
                if self.dict_items(*d1) != self.dict_items(*d2) {
                    if pure {
                        return Err(union_error("different dicts"));
                    }
                    self.merge_dictdefs(heap, *d1, *d2)?;
                }
                S::Dict {
                    def: *d1,
                    konst: keep_const(heap, *c1, *c2),
                }
            }
            (S::WeakValueDict { key: k1, value: v1 }, S::WeakValueDict { key: k2, value: v2 })
                if v1 == v2 =>
            {
                let key = self.union_impl(heap, k1, k2, pure)?;
                S::WeakValueDict {
                    key: Rc::new(key),
                    value: *v1,
                }
            }
            (S::WeakValueDict { .. }, S::WeakValueDict { .. }) => {
                return Err(union_error(
                    "two RWeakValueDictionary of different value classes",
                ))
            }
            (S::WeakKeyDict { .. }, S::WeakKeyDict { .. }) => {
                return Err(union_error(
                    "two RWeakKeyDictionary of different key or value classes",
                ))
            }
            // virtual references: of the union of their objects
            (S::VRef { s_instance: i1 }, S::VRef { s_instance: i2 }) => {
                let s = self.union_impl(heap, i1, i2, pure)?;
                S::VRef {
                    s_instance: Rc::new(s),
                }
            }
            // a dead reference (no class) joins any other
            (S::WeakRef { classdef: None }, w @ S::WeakRef { .. })
            | (w @ S::WeakRef { .. }, S::WeakRef { classdef: None }) => w.clone(),
            (S::WeakRef { classdef: Some(c1) }, S::WeakRef { classdef: Some(c2) }) => {
                let Some(base) = self.commonbase(*c1, *c2) else {
                    return Err(union_error(format!(
                        "weak references to `{}` and `{}` have no common base class",
                        self.classdef(*c1).name,
                        self.classdef(*c2).name
                    )));
                };
                S::WeakRef {
                    classdef: Some(base),
                }
            }
            (
                S::Instance {
                    classdef: c1,
                    can_be_none: n1,
                    konst: k1,
                },
                S::Instance {
                    classdef: c2,
                    can_be_none: n2,
                    konst: k2,
                },
            ) => {
                let Some(base) = self.commonbase(*c1, *c2) else {
                    // Both derive from a base rpy-lsp does not model (`rply.token.BaseBox`):
                    // that may be their common base, so the union is unknown.
                    let unknown_base = |cd: ClassDefId| {
                        self.class_desc(self.classdef(cd).desc)
                            .and_then(|c| heap.class(c.cls))
                            .and_then(|c| {
                                c.mro.iter().find_map(|&k| {
                                    heap.class(k)?.dict.get(crate::objspace::UNKNOWN_BASE_ATTR)
                                })
                            })
                    };
                    if let (Some(Value::Obj(u)), Some(_)) = (unknown_base(*c1), unknown_base(*c2)) {
                        if let Object::Unknown { name, .. } = heap.get(u) {
                            return Ok(S::Unknown(name.clone()));
                        }
                    }
                    return Err(union_error(format!(
                        "instances of `{}` and `{}` have no common base class",
                        self.classdef(*c1).name,
                        self.classdef(*c2).name
                    )));
                };
                S::Instance {
                    classdef: base,
                    can_be_none: *n1 || *n2,
                    konst: if k1 == k2 { *k1 } else { None },
                }
            }
            (
                S::Pbc {
                    descs: d1,
                    can_be_none: n1,
                },
                S::Pbc {
                    descs: d2,
                    can_be_none: n2,
                },
            ) => {
                if let Some(all) = self.pbc_memo.union(d1, d2) {
                    return Ok(S::Pbc {
                        descs: all,
                        can_be_none: *n1 || *n2,
                    });
                }
                let mut all: Vec<DescId> = d1.iter().chain(d2.iter()).copied().collect();
                all.sort();
                all.dedup();
                let k0 = self.desc(all[0]).kind();
                if let Some(&other) = all.iter().find(|&&d| self.desc(d).kind() != k0) {
                    return Err(union_error(format!(
                        "a {} and a {} cannot be mixed",
                        k0,
                        self.desc(other).kind()
                    )));
                }
                if k0 == "method" {
                    let mut names: Vec<Rc<str>> = all
                        .iter()
                        .filter_map(|&d| match self.desc(d) {
                            Desc::Method(m) => Some(m.name.clone()),
                            _ => None,
                        })
                        .collect();
                    names.sort();
                    names.dedup();
                    if names.len() > 1 {
                        // a set of methods to the reference's annotator; its typer
                        // refuses them
                        return Err(union_error(format!(
                            "the methods `{}` and `{}` cannot be mixed: the RPython typer needs one attribute name for all the methods a variable can hold",
                            names[0], names[1]
                        ))
                        .at_typer());
                    }
                }
                if k0 == "method of a frozen object" {
                    // the RTyper represents such a variable by the frozen object alone,
                    // so all its methods must be one function (the reference refuses
                    // the mix when it types the variable)
                    let methods: Vec<(DescId, DescId)> = all
                        .iter()
                        .filter_map(|&d| match self.desc(d) {
                            Desc::MethodOfFrozen { func, frozen } => Some((*func, *frozen)),
                            _ => None,
                        })
                        .collect();
                    if let Some(other) = methods.iter().find(|m| m.0 != methods[0].0) {
                        return Err(union_error(format!(
                            "the methods `{}` and `{}` of prebuilt (frozen) objects cannot be mixed: a variable holding methods of frozen objects must hold methods of one function",
                            self.frozen_method_name(heap, methods[0]),
                            self.frozen_method_name(heap, *other)
                        ))
                        .at_typer());
                    }
                }
                let all: Rc<[DescId]> = self.simplify_methods(all).into();
                self.pbc_memo.set_union(d1, d2, &all);
                S::Pbc {
                    descs: all,
                    can_be_none: *n1 || *n2,
                }
            }
            (
                S::Iterator {
                    container: c1,
                    variant: v1,
                },
                S::Iterator {
                    container: c2,
                    variant: v2,
                },
            ) => {
                if v1 != v2 {
                    return Err(union_error("iterators of different kinds cannot be mixed"));
                }
                let c = self.union_impl(heap, c1, c2, pure)?;
                S::Iterator {
                    container: Rc::new(c),
                    variant: *v1,
                }
            }
            (S::Generator { .. }, S::Generator { .. }) => {
                return Err(union_error(
                    "two different generators cannot be merged at one point of the program",
                ))
            }
            (
                S::BuiltinMethod {
                    id: n1,
                    s_self: s1,
                    char_analyser,
                },
                S::BuiltinMethod {
                    id: n2,
                    s_self: s2,
                    char_analyser: c2,
                },
            ) if n1 == n2 => {
                // The reference keeps the first method's analyser (its descriptor compares
                // equal to the second's whatever class it was taken from), except for the
                // methods a one-character string defines itself: their analysers differ.
                if char_analyser != c2 && SomeValue::char_overrides(*n1) {
                    return Err(union_error(format!(
                        "the method `{}` of a one-character string cannot be merged with the \
                         same method of a longer string (one-character strings have their own \
                         `{}`); call it separately on each path",
                        n1.short_name(),
                        n1.short_name()
                    )));
                }
                let s = self.union_impl(heap, s1, s2, pure)?;
                S::BuiltinMethod {
                    id: *n1,
                    s_self: Rc::new(s),
                    char_analyser: *char_analyser,
                }
            }
            (S::Type { of, .. }, S::Pbc { descs, .. })
            | (S::Pbc { descs, .. }, S::Type { of, .. })
                if descs
                    .iter()
                    .all(|&d| matches!(self.desc(d), Desc::Class(_))) =>
            {
                S::Type {
                    konst: None,
                    of: of.clone(),
                }
            }
            (S::Type { konst: c1, of: o1 }, S::Type { konst: c2, of: o2 }) => {
                let of = match (o1, o2) {
                    (Some(x), Some(y)) => {
                        let mut v: Vec<_> = x.iter().chain(y.iter()).copied().collect();
                        v.sort();
                        v.dedup();
                        Some(v.into())
                    }
                    _ => None,
                };
                S::Type {
                    konst: if c1 == c2 { *c1 } else { None },
                    of,
                }
            }
            _ => return Err(union_error("")),
        })
    }

    fn union_ints(
        &mut self,
        heap: &Heap,
        a: &SomeValue,
        b: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        let (k1, k2) = (a.int_kind().expect("int"), b.int_kind().expect("int"));
        let (n1, n2) = (a.is_nonneg(), b.is_nonneg());
        let kind = if is_unsigned(k1) == is_unsigned(k2) {
            compute_restype(k1, k2).ok_or_else(|| {
                union_error(format!(
                    "{} and {} cannot be mixed",
                    int_kind_name(k1),
                    int_kind_name(k2)
                ))
            })?
        } else if k2 == IntKind::Signed {
            if !n2 {
                return Err(union_error(
                    "RPython cannot prove that these integers are of the same signedness",
                ));
            }
            k1
        } else if k1 == IntKind::Signed {
            if !n1 {
                return Err(union_error(
                    "RPython cannot prove that these integers are of the same signedness",
                ));
            }
            k2
        } else {
            return Err(union_error(format!(
                "{} and {} cannot be mixed",
                int_kind_name(k1),
                int_kind_name(k2)
            )));
        };
        let konst = keep_const(heap, a.konst(), b.konst())
            .filter(|_| matches!(a, S::Integer { .. }) && matches!(b, S::Integer { .. }));
        Ok(S::Integer {
            nonneg: (n1 && n2) || is_unsigned(kind),
            kind,
            konst,
        })
    }

    /// Whether adding `s` to a run of PBC unions (the attribute's value `current`, then the
    /// run so far, whose first value is `first`) cannot fail: all PBCs, of one kind, and
    /// methods of one name. Checked on `current` only at the start of a run.
    pub(super) fn pbc_batchable(
        &self,
        current: &SomeValue,
        first: Option<&SomeValue>,
        s: &SomeValue,
    ) -> bool {
        let descs_of = |v: &SomeValue| match v {
            S::Pbc { descs, .. } => Some(descs.clone()),
            _ => None,
        };
        let Some(ds) = descs_of(s) else { return false };
        let reference = match (current, first) {
            (S::Impossible, None) => None,
            (S::Impossible, Some(f)) => descs_of(f),
            (c, _) => match descs_of(c) {
                Some(cd) => Some(cd),
                None => return false,
            },
        };
        let Some(&d0) = reference.as_ref().and_then(|r| r.first()).or(ds.first()) else {
            return false;
        };
        let name_of = |d: DescId| match self.desc(d) {
            Desc::Method(m) => Some(m.name.clone()),
            _ => None,
        };
        let (k0, n0) = (self.desc(d0).kind(), name_of(d0));
        let same = |d: &DescId| self.desc(*d).kind() == k0 && name_of(*d) == n0;
        if first.is_none() && !matches!(current, S::Impossible) {
            if let Some(r) = &reference {
                if !r.iter().all(same) {
                    return false;
                }
            }
        }
        ds.iter().all(same)
    }

    /// The union `current ∪ values[0] ∪ values[1] …` done one value at a time, in one pass:
    /// `values` are PBCs that `pbc_batchable` accepted. As the one-at-a-time unions, a value
    /// equal to the running one changes nothing (and a single value is kept as it is).
    pub(super) fn union_pbc_run(
        &mut self,
        heap: &Heap,
        current: &SomeValue,
        values: &[SomeValue],
    ) -> SomeValue {
        let (mut running, rest) = match current {
            S::Impossible => (values[0].clone(), &values[1..]),
            c => (c.clone(), values),
        };
        let Some(i) = rest.iter().position(|v| !self.eq(heap, &running, v)) else {
            return running;
        };
        let mut all: Vec<DescId> = Vec::new();
        let mut none = false;
        for v in std::iter::once(&running).chain(&rest[i..]) {
            if let S::Pbc { descs, can_be_none } = v {
                all.extend(descs.iter().copied());
                none |= *can_be_none;
            }
        }
        all.sort();
        all.dedup();
        running = S::Pbc {
            descs: self.simplify_methods(all).into(),
            can_be_none: none,
        };
        running
    }

    /// Drops methods that are less general than another one of the set (same function, a
    /// subclass as `self`).
    fn simplify_methods(&self, descs: Vec<DescId>) -> Vec<DescId> {
        if descs.len() < 2 || !matches!(self.desc(descs[0]), Desc::Method(_)) {
            return descs;
        }
        // Only methods of one function, origin and name compete: group them first, so that
        // a family of overrides (all different functions) costs one pass, not its square.
        let mut groups: HashMap<(DescId, ClassDefId, Rc<str>), Vec<Option<ClassDefId>>> =
            HashMap::default();
        let key = |d: DescId| match self.desc(d) {
            Desc::Method(m) => ((m.func, m.origin, m.name.clone()), m.selfclassdef),
            _ => unreachable!(),
        };
        for &d in &descs {
            let (k, s) = key(d);
            groups.entry(k).or_default().push(s);
        }
        if groups.len() == descs.len() {
            return descs;
        }
        descs
            .iter()
            .copied()
            .filter(|&d| {
                let (k, s) = key(d);
                let Some(s) = s else { return true };
                !groups[&k]
                    .iter()
                    .any(|s2| s2.is_some_and(|s2| s2 != s && self.issubclass_def(s, s2)))
            })
            .collect()
    }

    /// Narrows `obj` with what a branch tells (`isinstance`, `is None`, comparisons): the
    /// intersection when it is easy to tell, `obj` otherwise.
    pub fn improve(&mut self, heap: &Heap, obj: &SomeValue, imp: &SomeValue) -> SomeValue {
        match (obj, imp) {
            (S::Error, _) => S::Error,
            (S::Unknown(_), _) => obj.clone(),
            // narrowed to instances of a class rpy-lsp does not model: unknown from there on
            (_, S::Unknown(_)) => imp.clone(),
            (
                S::Instance {
                    classdef: c1,
                    can_be_none: n1,
                    konst,
                },
                S::Instance {
                    classdef: c2,
                    can_be_none: n2,
                    ..
                },
            ) => {
                let resdef = if self.issubclass_def(*c1, *c2) {
                    *c1
                } else if self.issubclass_def(*c2, *c1) {
                    *c2
                } else if *n1 && *n2 {
                    return S::None;
                } else {
                    return S::Impossible;
                };
                S::Instance {
                    classdef: resdef,
                    can_be_none: *n1 && *n2,
                    konst: if resdef == *c1 { *konst } else { None },
                }
            }
            _ => {
                if !self.contains(heap, imp, obj) && self.contains(heap, obj, imp) {
                    imp.clone()
                } else {
                    obj.clone()
                }
            }
        }
    }
}

/// Whether two objects are instances of one class (two annotations of one kind).
fn same_class(
    heap: &Heap,
    x: crate::objspace::object::ObjId,
    y: crate::objspace::object::ObjId,
) -> bool {
    match (heap.get(x), heap.get(y)) {
        (Object::Instance(a), Object::Instance(b)) => a.class == b.class,
        _ => false,
    }
}
