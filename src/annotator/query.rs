//! Read-only questions to a finished annotation, for position queries (hover, inlay hints):
//! the annotation of a constant the flow space folded, short type names, and where an
//! instance attribute lives. Nothing here changes the bookkeeper.

use super::bookkeeper::Bookkeeper;
use super::classdef::AttrDef;
use super::description::Desc;
use super::model::*;
use crate::objspace::object::{Heap, IntKind, Object, Value};

use SomeValue as S;

impl Bookkeeper {
    /// The annotation of a prebuilt value, as `immutablevalue` gives it, for the values that
    /// need no new definition (scalars, strings, tuples of them, and objects the annotation
    /// already described); `None` otherwise.
    pub fn known_value(&self, heap: &Heap, v: Value) -> Option<SomeValue> {
        let id = match v {
            Value::None => return Some(S::None),
            Value::Bool(b) => return Some(SomeValue::const_bool(b)),
            Value::Int(i) => {
                return Some(S::Integer {
                    nonneg: i >= 0,
                    kind: IntKind::Signed,
                    konst: Some(v),
                })
            }
            Value::Float(_) => return Some(S::Float { konst: Some(v) }),
            Value::Obj(id) => id,
        };
        if let Some(s) = self.immutable_cache.get(&id) {
            return Some(s.clone());
        }
        if let Some(&t) = self.lltype_objs.get(&id) {
            return Some(S::LlType(t));
        }
        Some(match heap.get(id) {
            Object::Str(s) => super::immutablevalue::const_str(s, v),
            Object::Unicode(s) => super::immutablevalue::const_unicode(s, v),
            Object::RInt { kind, value } => S::Integer {
                nonneg: *value >= 0 || is_unsigned(*kind),
                kind: *kind,
                konst: Some(v),
            },
            Object::Long(i) => {
                let small = i64::try_from(*i).ok()?;
                S::Integer {
                    nonneg: small >= 0,
                    kind: IntKind::Signed,
                    konst: Some(Value::Int(small)),
                }
            }
            Object::Tuple(items) => S::Tuple(
                items
                    .iter()
                    .map(|&x| self.known_value(heap, x))
                    .collect::<Option<Vec<_>>>()?
                    .into(),
            ),
            // a virtual reference made at import time: to its object
            Object::Builtin {
                id: crate::builtins::BuiltinId::JitVrefPrebuilt,
                bound_self: Some(x),
            } => S::VRef {
                s_instance: std::rc::Rc::new(self.known_value(heap, *x)?),
            },
            // a weak reference made at import time: to its object's class
            Object::Builtin {
                id: crate::builtins::BuiltinId::WeakrefPrebuilt,
                bound_self: Some(x),
            } => match self.known_value(heap, *x)? {
                S::Instance { classdef, .. } => S::WeakRef {
                    classdef: Some(classdef),
                },
                _ => return None,
            },
            Object::Builtin {
                id,
                bound_self: None,
            } => S::Builtin {
                id: *id,
                s_self: None,
            },
            Object::Class(_) if Self::is_builtin_type(heap, id) => S::Type {
                konst: Some(v),
                of: None,
            },
            Object::Function(_) | Object::Class(_) | Object::Module(_) | Object::Instance(_) => {
                SomeValue::pbc(vec![*self.desc_of_obj.get(&id)?])
            }
            Object::StaticMethod(f) => return self.known_value(heap, *f),
            Object::Unknown { .. } if heap.opaque(id).is_some() => {
                super::immutablevalue::opaque_annotation(heap.opaque(id)?)
            }
            Object::ByteArray(_) => S::ByteArray,
            _ => return None,
        })
    }

    /// The class definition (among `cd` and its bases) holding the instance attribute
    /// `name`, and the attribute.
    pub fn find_attr(&self, cd: ClassDefId, name: &str) -> Option<(ClassDefId, &AttrDef)> {
        self.mro_iter(cd)
            .find_map(|c| self.classdef(c).attrs.get(name).map(|a| (c, a)))
    }

    /// The graphs of the functions an annotation can call (functions and methods).
    pub fn graphs_of(&self, s: &SomeValue) -> Vec<u32> {
        let S::Pbc { descs, .. } = s else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &d in descs.iter() {
            let f = match self.desc(d) {
                Desc::Method(m) => m.func,
                Desc::MethodOfFrozen { func, .. } => *func,
                _ => d,
            };
            if let Desc::Function(fd) = self.desc(f) {
                let mut gs: Vec<u32> = fd.graphs.values().copied().collect();
                gs.sort_unstable();
                out.extend(gs);
            }
        }
        out
    }

    /// Short plain words for inlay hints and signatures: "int", "str or None",
    /// "list of int", "Node or None", "(int, str)".
    pub fn describe_short(&self, heap: &Heap, s: &SomeValue) -> String {
        self.short_depth(heap, s, 0)
    }

    fn short_depth(&self, heap: &Heap, s: &SomeValue, depth: usize) -> String {
        if depth > 2 {
            return "...".into();
        }
        let inner = |x: &SomeValue| self.short_depth(heap, x, depth + 1);
        let or_none = |t: String, n: bool| if n { format!("{} or None", t) } else { t };
        match s {
            S::Integer { kind, .. } => int_kind_name(*kind).into(),
            S::Char { .. } => "char".into(),
            S::UnicodeCodePoint { .. } => "unichar".into(),
            S::Str { can_be_none, .. } => or_none("str".into(), *can_be_none),
            S::Unicode { can_be_none, .. } => or_none("unicode".into(), *can_be_none),
            S::ByteArray => "bytearray".into(),
            S::Tuple(items) => {
                let parts: Vec<String> = items.iter().map(inner).collect();
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            }
            S::List { def, .. } => {
                let it = &self.item(self.list_item(*def)).s_value;
                if it.is_impossible() {
                    "empty list".into()
                } else {
                    format!("list of {}", inner(it))
                }
            }
            S::Dict { def, .. } => {
                let (k, v) = self.dict_items(*def);
                let (sk, sv) = (&self.item(k).s_value, &self.item(v).s_value);
                if sk.is_impossible() {
                    "empty dict".into()
                } else {
                    format!("dict of {} to {}", inner(sk), inner(sv))
                }
            }
            S::Instance {
                classdef,
                can_be_none,
                ..
            } => or_none(self.classdef(*classdef).name.to_string(), *can_be_none),
            S::Iterator { .. } => "iterator".into(),
            S::Generator { .. } => "generator".into(),
            S::Pbc { descs, can_be_none } if descs.len() == 1 => or_none(
                self.describe(heap, &SomeValue::pbc(descs.to_vec())),
                *can_be_none,
            )
            .replace('`', ""),
            S::Pbc { descs, can_be_none } => {
                let kind = self.desc(descs[0]).kind();
                or_none(format!("one of {} {}s", descs.len(), kind), *can_be_none)
            }
            S::Builtin { id, .. } => format!("built-in {}", id.name()),
            S::BuiltinMethod { id, .. } => format!("method {}", id.short_name()),
            _ => self.describe_type(heap, s),
        }
    }
}
