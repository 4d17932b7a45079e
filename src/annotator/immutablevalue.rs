//! Import-time values → annotations (the reference's `immutablevalue`): takes a prebuilt
//! value of the object space (a constant, a prebuilt list, dict or instance, a function
//! or class, a module); gives its most precise annotation, building the descriptions and
//! definitions it needs and marking the prebuilt instances and containers.

use super::bookkeeper::{Bookkeeper, MAX_PREBUILT_DEPTH};
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::objspace::object::{BuiltinType, Heap, IntKind, ObjId, Object, Opaque, Value};
use std::rc::Rc;

/// Bundled models of libraries that only run at import time (`re`): their objects reach
/// translated code only through the reference's own machinery (rply gives `re` patterns an
/// rsre-based translation), which rpy-lsp does not model, so there they are unknown.
const IMPORT_TIME_MODELS: &[&str] = &["re"];

/// The model an object (module, function, class or instance) belongs to, if it is one of
/// [`IMPORT_TIME_MODELS`].
fn import_time_model_of(heap: &Heap, id: ObjId) -> Option<&'static str> {
    let module = match heap.get(id) {
        Object::Module(_) => Some(id),
        Object::Function(f) => Some(f.globals),
        Object::Class(c) => c.module,
        Object::Instance(i) => heap.class(i.class).and_then(|c| c.module),
        Object::BoundMethod {
            func: Value::Obj(f),
            ..
        } => heap.function(Value::Obj(*f)).map(|f| f.globals),
        _ => None,
    }?;
    match heap.get(module) {
        Object::Module(m) if m.bundled => {
            IMPORT_TIME_MODELS.iter().copied().find(|n| **n == *m.name)
        }
        _ => None,
    }
}

/// The `ExtRegistryEntry` subclass that describes an object (a function it is `_about_`,
/// a class that is its `_type_`, or an instance of that class), marked by the bundled
/// model of `rpython.rtyper.extregistry`: what the entry's annotator-level code says of it
/// is unknown to rpy-lsp, which does not run that code.
fn ext_registry_entry(heap: &Heap, id: ObjId) -> Option<String> {
    const MARK: &str = "__rpy_extregistry__";
    let attrs = |id: ObjId| match heap.get(id) {
        Object::Function(f) => f.attrs.get(MARK),
        Object::Class(c) => c.dict.get(MARK),
        _ => None,
    };
    let mark = match heap.get(id) {
        Object::Instance(i) => heap
            .class(i.class)
            .and_then(|c| c.mro.iter().find_map(|&k| attrs(k))),
        _ => attrs(id),
    }?;
    heap.str_value(mark)
        .map(|n| String::from_utf8_lossy(n).into_owned())
}

/// The name of `cls` when its instances are callable objects the reference refuses as
/// prebuilt constants: its class (or a base) defines `__call__`, and it is the user's or
/// one of the objects CPython's `site` adds to the built-ins (`exit`, `quit`…, whose
/// model marks them with `_rpy_site_callable_`). The reference's bookkeeper sees a
/// callable constant as a function-like object and has no description for an instance.
fn prebuilt_callable_class(heap: &Heap, cls: ObjId) -> Option<String> {
    let c = heap.class(cls)?;
    let defines = |attr: &str| {
        c.mro.iter().any(|&k| {
            heap.class(k)
                .is_some_and(|kc| kc.builtin.is_none() && kc.dict.contains(attr))
        })
    };
    if !defines("__call__") {
        return None;
    }
    let bundled = c
        .module
        .is_some_and(|m| matches!(heap.get(m), Object::Module(m) if m.bundled));
    if bundled && !defines("_rpy_site_callable_") {
        return None;
    }
    Some(c.name.to_string())
}

/// Whether `cls` is the bundled model's `r_dict` or `r_ordereddict`.
pub(crate) fn is_bundled_r_dict(heap: &Heap, cls: ObjId) -> bool {
    heap.class(cls).is_some_and(|c| {
        matches!(&*c.name, "r_dict" | "r_ordereddict")
            && c.module
                .is_some_and(|m| matches!(heap.get(m), Object::Module(m) if m.bundled))
    })
}

/// The entries of a prebuilt `r_dict` of the bundled model, in the order CPython iterates
/// over the r_dict's own dict (its table of the keys' hashes by the r_dict's function), as
/// the reference converts it; insertion order when that order is not known.
pub(crate) fn r_dict_entries(heap: &Heap, id: ObjId) -> Vec<(Value, Value)> {
    let Object::Instance(inst) = heap.get(id) else {
        return Vec::new();
    };
    let Some(Value::Obj(d)) = inst.dict.get("_dict") else {
        return Vec::new();
    };
    let Object::Dict(d) = heap.get(d) else {
        return Vec::new();
    };
    // each entry is [key, value, hash]
    d.py_entries()
        .into_iter()
        .filter_map(|(_, e)| match e {
            Value::Obj(l) => match heap.get(l) {
                Object::List(items) if items.len() == 3 => Some((items[0], items[1])),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

impl Bookkeeper {
    /// A prebuilt `r_dict`: a dict (the reference's `immutablevalue` of an r_dict) whose
    /// keys are compared and hashed by its two functions.
    fn immutable_r_dict(&mut self, heap: &Heap, id: ObjId) -> Result<SomeValue, AnnError> {
        if let Some(s) = self.immutable_cache.get(&id) {
            return Ok(s.clone());
        }
        let def = self.new_dictdef();
        let s = SomeValue::Dict {
            def,
            konst: Some(Value::Obj(id)),
        };
        self.immutable_cache.insert(id, s.clone());
        let Object::Instance(inst) = heap.get(id) else {
            return Ok(s);
        };
        let (eq, hash) = (inst.dict.get("key_eq"), inst.dict.get("key_hash"));
        let (Some(eq), Some(hash)) = (eq, hash) else {
            return Ok(s);
        };
        let (s_eq, s_hash) = (
            self.immutablevalue(heap, eq)?,
            self.immutablevalue(heap, hash)?,
        );
        self.r_dicts.push((def, s_eq, s_hash));
        for (k, v) in r_dict_entries(heap, id) {
            let sk = self.immutablevalue(heap, k)?;
            let sv = self.immutablevalue(heap, v)?;
            self.generalize_key(heap, def, &sk)?;
            self.generalize_value(heap, def, &sv)?;
        }
        self.prebuilt_r_dicts.push((def, SomeValue::Impossible));
        Ok(s)
    }

    /// The most precise annotation of a prebuilt value.
    pub fn immutablevalue(&mut self, heap: &Heap, v: Value) -> Result<SomeValue, AnnError> {
        Ok(match v {
            Value::None => SomeValue::None,
            Value::Bool(b) => SomeValue::const_bool(b),
            Value::Int(i) => SomeValue::Integer {
                nonneg: i >= 0,
                kind: IntKind::Signed,
                konst: Some(v),
            },
            Value::Float(_) => SomeValue::Float { konst: Some(v) },
            Value::Obj(id) => return self.immutable_obj(heap, id),
        })
    }

    fn immutable_obj(&mut self, heap: &Heap, id: ObjId) -> Result<SomeValue, AnnError> {
        // Prebuilt containers nested without bound (built by a loop at import time) would
        // make this recursion, and every later one over the annotation, overflow the stack.
        thread_local! {
            static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        }
        let depth = DEPTH.with(|d| d.get());
        if depth >= MAX_PREBUILT_DEPTH {
            return Err(AnnError::new(
                "RPY217",
                format!("a prebuilt constant is nested more than {MAX_PREBUILT_DEPTH} levels deep"),
            ));
        }
        DEPTH.with(|d| d.set(depth + 1));
        let r = self.immutable_obj_inner(heap, id);
        DEPTH.with(|d| d.set(depth));
        r
    }

    fn immutable_obj_inner(&mut self, heap: &Heap, id: ObjId) -> Result<SomeValue, AnnError> {
        let v = Value::Obj(id);
        if let Some(what) = import_time_model_of(heap, id) {
            return Ok(SomeValue::Unknown(Rc::from(what)));
        }
        if let Some(&s) = self.ext_types.get(&id) {
            return Ok(SomeValue::External(s));
        }
        if let Some(t) =
            super::llannotation::null_ptr_type(heap, &mut self.lltypes, &mut self.lltype_objs, id)
        {
            // (cached: the RTyper reads a constant's annotation back with `known_value`)
            self.immutable_cache.insert(id, SomeValue::Ptr(t));
            return Ok(SomeValue::Ptr(t));
        }
        if super::llannotation::is_null_ptr_obj(heap, id) {
            // a null pointer to a type rpy-lsp has no low-level type for
            return Ok(SomeValue::Unknown(Rc::from(
                "lltype.nullptr() of a low-level type rpy-lsp does not model",
            )));
        }
        if let Some(entry) = ext_registry_entry(heap, id) {
            let msg = format!("this object is described by the ExtRegistryEntry `{entry}`, whose annotator-level code (compute_annotation, compute_result_annotation, specialize_call) rpy-lsp does not run: what it gives is unknown, and the code using it is not checked");
            self.warn("RPY007", self.span, msg, Vec::new());
            return Ok(SomeValue::Unknown(Rc::from(format!(
                "the ExtRegistryEntry `{entry}`"
            ))));
        }
        Ok(match heap.get(id) {
            // a prebuilt bytearray: never a constant (it is mutable)
            Object::ByteArray(_) => SomeValue::ByteArray,
            Object::Str(s) => const_str(s, v),
            Object::Unicode(s) => const_unicode(s, v),
            // as a function (the reference's annotator takes an unbound method's im_func)
            Object::UnboundMethod { func, .. } => {
                if matches!(func, Value::Obj(f) if matches!(heap.get(*f), Object::Function(_))) {
                    // (the later stages find the function's description from either object)
                    self.getdesc(heap, id)?;
                }
                return self.immutablevalue(heap, *func);
            }
            Object::Complex(re, im) => {
                return Err(AnnError::new(
                    "RPY217",
                    format!(
                        "complex numbers are not RPython: the constant {} cannot be used at run time (only folded away, as in `print` or `str()` of a constant)",
                        crate::objspace::format::complex_format(*re, *im, true)
                    ),
                ))
            }
            Object::Long(i) => {
                if let Ok(small) = i64::try_from(*i) {
                    SomeValue::Integer {
                        nonneg: small >= 0,
                        kind: IntKind::Signed,
                        konst: Some(Value::Int(small)),
                    }
                } else if (0..=u64::MAX as i128).contains(i) {
                    SomeValue::Integer {
                        nonneg: true,
                        kind: IntKind::ULongLong,
                        konst: None,
                    }
                } else {
                    return Err(AnnError::new(
                        "RPY217",
                        format!(
                            "a prebuilt long integer ({}) does not fit in a machine word",
                            i
                        ),
                    ));
                }
            }
            Object::Unknown {
                instance_of: Some(cls),
                ..
            } => {
                // A prebuilt instance of a class deriving from a built-in type: as the
                // class's own definition, it cannot be annotated.
                let d = self.getdesc(heap, *cls)?;
                self.classdef_of_desc(heap, d)?;
                return Err(AnnError::new(
                    "RPY219",
                    "a prebuilt instance of a class deriving from a built-in type".to_string(),
                ));
            }
            // a long constant the compiler folded beyond 128 bits (`1 << 999`)
            Object::Unknown { name, .. } if &**name == crate::objspace::BIG_LONG => {
                return Err(AnnError::new(
                    "RPY217",
                    "a prebuilt long integer (beyond 128 bits) does not fit in a machine word"
                        .to_string(),
                ));
            }
            // a C constant `rffi_platform` asks the C compiler for: of its type, not constant
            Object::Unknown { .. } if heap.opaque(id).is_some() => {
                opaque_annotation(heap.opaque(id).unwrap_or(Opaque::Int))
            }
            Object::Unknown { name, .. } => SomeValue::Unknown(name.clone()),
            Object::RInt { kind, value } => SomeValue::Integer {
                nonneg: *value >= 0 || is_unsigned(*kind),
                kind: *kind,
                konst: Some(v),
            },
            Object::Tuple(_) if heap.tuple_class(id).is_some() => {
                // an instance of a tuple subclass: as a prebuilt instance of any class
                // deriving from a built-in type, it cannot be annotated
                let cls = heap.tuple_class(id).unwrap_or(id);
                let d = self.getdesc(heap, cls)?;
                self.classdef_of_desc(heap, d)?;
                return Err(AnnError::new(
                    "RPY219",
                    "a prebuilt instance of a class deriving from a built-in type".to_string(),
                ));
            }
            Object::Tuple(items) => {
                let items = items.clone();
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.immutablevalue(heap, x)?);
                }
                SomeValue::Tuple(out.into())
            }
            Object::List(items) => {
                if let Some(s) = self.immutable_cache.get(&id) {
                    return Ok(s.clone());
                }
                let def = self.new_listdef(SomeValue::Impossible);
                let s = SomeValue::List {
                    def,
                    konst: Some(v),
                };
                self.immutable_cache.insert(id, s.clone());
                let items = items.clone();
                for x in items {
                    let sx = self.immutablevalue(heap, x)?;
                    self.generalize_list(heap, def, &sx)?;
                }
                s
            }
            Object::Dict(d) => {
                if let Some(s) = self.immutable_cache.get(&id) {
                    return Ok(s.clone());
                }
                let def = self.new_dictdef();
                let s = SomeValue::Dict {
                    def,
                    konst: Some(v),
                };
                self.immutable_cache.insert(id, s.clone());
                let entries = d.entries.clone();
                // each key is generalized before its value is looked at, as the
                // reference does: a key that does not mix is met before what seeing the
                // value (a prebuilt instance's attributes) may find
                for (ek, ev) in entries {
                    let sk = self.immutablevalue(heap, ek)?;
                    self.generalize_key(heap, def, &sk)?;
                    let sv = self.immutablevalue(heap, ev)?;
                    self.generalize_value(heap, def, &sv)?;
                }
                if self.os_environ == Some(id) {
                    self.os_environ_def = Some(def);
                    self.generalize_key(heap, def, &SomeValue::string0(true))?;
                    self.generalize_value(heap, def, &SomeValue::string0(true))?;
                }
                s
            }
            Object::Set(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "sets are not RPython: use a dict with None values".to_string(),
                ))
            }
            Object::Function(_) => SomeValue::pbc(vec![self.getdesc(heap, id)?]),
            Object::Builtin {
                id: crate::builtins::BuiltinId::RweakrefDeadRef,
                bound_self: None,
            } => SomeValue::WeakRef { classdef: None },
            // a virtual reference made at import time (`vref_None`): to its object
            Object::Builtin {
                id: crate::builtins::BuiltinId::JitVrefPrebuilt,
                bound_self: Some(x),
            } => {
                let x = *x;
                let s = self.immutablevalue(heap, x)?;
                SomeValue::VRef {
                    s_instance: std::rc::Rc::new(s),
                }
            }
            // a weak reference made at import time: to its object's class
            Object::Builtin {
                id: crate::builtins::BuiltinId::WeakrefPrebuilt,
                bound_self: Some(x),
            } => {
                let x = *x;
                match self.immutablevalue(heap, x)? {
                    SomeValue::Instance { classdef, .. } => SomeValue::WeakRef {
                        classdef: Some(classdef),
                    },
                    other => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "weakref.ref() needs an instance, not {}",
                                self.describe_type(heap, &other)
                            ),
                        ))
                    }
                }
            }
            // a weak dictionary made at import time: of its key and value classes
            Object::Builtin {
                id:
                    ctor @ (crate::builtins::BuiltinId::WeakValueDictPrebuilt
                    | crate::builtins::BuiltinId::WeakKeyDictPrebuilt),
                bound_self: Some(Value::Obj(classes)),
            } => {
                let ctor = if *ctor == crate::builtins::BuiltinId::WeakKeyDictPrebuilt {
                    crate::builtins::BuiltinId::RweakrefRWeakKeyDictionary
                } else {
                    crate::builtins::BuiltinId::RweakrefRWeakValueDictionary
                };
                let Object::Tuple(items) = heap.get(*classes) else {
                    return Err(AnnError::new("RPY218", "a malformed prebuilt weak dictionary".to_string()));
                };
                let items = items.clone();
                // (a value dictionary's third item holds its import-time entries)
                let p = items
                    .iter()
                    .take(2)
                    .map(|&x| self.immutablevalue(heap, x))
                    .collect::<Result<Vec<_>, _>>()?;
                // (the values it starts with are not annotated: the reference's annotator
                // does not look into a prebuilt weak dictionary, its RTyper converts them)
                let s = self.weakdict_of(heap, ctor, &p)?;
                // its constant's annotation for the RTyper (`known_value`)
                self.immutable_cache.insert(id, s.clone());
                s
            }
            Object::Builtin {
                id,
                bound_self: None,
            } => SomeValue::Builtin {
                id: *id,
                s_self: None,
            },
            Object::Builtin {
                id,
                bound_self: Some(s),
            } => {
                let (id, s) = (*id, *s);
                let s_self = self.immutablevalue(heap, s)?;
                SomeValue::builtin_method(id, s_self)
            }
            Object::Class(_) => {
                if Self::is_builtin_type(heap, id) {
                    SomeValue::Type {
                        konst: Some(v),
                        of: None,
                    }
                } else {
                    SomeValue::pbc(vec![self.getdesc(heap, id)?])
                }
            }
            Object::Instance(inst) if is_bundled_r_dict(heap, inst.class) => {
                return self.immutable_r_dict(heap, id)
            }
            Object::Instance(inst) => {
                let cls = inst.class;
                if self.is_frozen_instance(heap, id) {
                    SomeValue::pbc(vec![self.getdesc(heap, id)?])
                } else if Self::is_builtin_type(heap, cls) {
                    return Err(AnnError::new(
                        "RPY217",
                        format!(
                            "don't know how to represent a prebuilt `{}` object",
                            Self::class_name(heap, cls)
                        ),
                    ));
                } else if let Some(name) = prebuilt_callable_class(heap, cls) {
                    return Err(AnnError::new(
                        "RPY217",
                        format!(
                            "object with a __call__ is not RPython: the prebuilt `{name}` instance (only functions, classes and methods can be called in RPython; a frozen object needs `_freeze_`)"
                        ),
                    ));
                } else {
                    if let Some(s) = self.immutable_cache.get(&id) {
                        return Ok(s.clone());
                    }
                    let cd = self.getuniqueclassdef(heap, cls)?;
                    let s = SomeValue::Instance {
                        classdef: cd,
                        can_be_none: false,
                        konst: Some(v),
                    };
                    self.immutable_cache.insert(id, s.clone());
                    self.see_instance(heap, cd, id)?;
                    s
                }
            }
            Object::Module(_) => SomeValue::pbc(vec![self.getdesc(heap, id)?]),
            Object::BoundMethod { func, self_value } => {
                let (func, self_value) = (*func, *self_value);
                let Value::Obj(fid) = func else {
                    return Err(AnnError::new(
                        "RPY217",
                        "unexpected bound method".to_string(),
                    ));
                };
                let fdesc = self.getdesc(heap, fid)?;
                match self_value {
                    Value::Obj(sid)
                        if self.is_frozen_instance(heap, sid)
                            || matches!(heap.get(sid), Object::Module(_)) =>
                    {
                        let frozen = self.getdesc(heap, sid)?;
                        SomeValue::pbc(vec![self.getmethodoffrozen(fdesc, frozen)])
                    }
                    Value::Obj(sid) if matches!(heap.get(sid), Object::Instance(_)) => {
                        let Object::Instance(inst) = heap.get(sid) else {
                            unreachable!()
                        };
                        let cls = inst.class;
                        let name = match heap.get(fid) {
                            Object::Function(f) => f.name.clone(),
                            _ => Rc::from("?"),
                        };
                        // The class where the function is found along the MRO.
                        let origin_cls = heap
                            .class(cls)
                            .and_then(|c| {
                                c.mro.iter().copied().find(|&k| {
                                    heap.class(k)
                                        .is_some_and(|kc| kc.dict.iter().any(|(_, v)| v == func))
                                })
                            })
                            .unwrap_or(cls);
                        let attr = heap
                            .class(origin_cls)
                            .and_then(|c| {
                                c.dict
                                    .iter()
                                    .find(|(_, v)| *v == func)
                                    .map(|(n, _)| n.clone())
                            })
                            .unwrap_or(name);
                        let origin = self.getuniqueclassdef(heap, origin_cls)?;
                        let selfdef = self.getuniqueclassdef(heap, cls)?;
                        self.see_instance(heap, selfdef, sid)?;
                        self.find_attribute(heap, selfdef, &attr)?;
                        let d = self.getmethoddesc(fdesc, origin, Some(selfdef), &attr);
                        SomeValue::pbc(vec![d])
                    }
                    Value::Obj(sid) if heap.class(sid).is_some() => {
                        return Err(AnnError::new(
                            "RPY217",
                            "classmethods are not supported".to_string(),
                        ));
                    }
                    _ => {
                        return Err(AnnError::new(
                            "RPY217",
                            "unexpected bound method".to_string(),
                        ))
                    }
                }
            }
            Object::StaticMethod(f) => return self.immutablevalue(heap, *f),
            Object::ClassMethod(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "classmethods are not supported".to_string(),
                ))
            }
            Object::Property { .. } => {
                return Err(AnnError::new(
                    "RPY217",
                    "a property object cannot be used as a value".to_string(),
                ))
            }
            Object::Iterator(_) => {
                return Err(AnnError::new(
                    "RPY217",
                    "a prebuilt iterator cannot be used at run time".to_string(),
                ))
            }
            Object::Cell(_)
            | Object::Code(_)
            | Object::Slice(..)
            | Object::Ellipsis
            | Object::NotImplemented => {
                return Err(AnnError::new(
                    "RPY217",
                    "this prebuilt object has no RPython representation".to_string(),
                ))
            }
        })
    }

    /// A prebuilt list or dict used directly as a constant (a module global, a default
    /// argument): modifying it at run time deserves a warning. Lists reached through the
    /// attributes of prebuilt instances are mutable state and are not marked.
    pub fn mark_prebuilt(&mut self, s: &SomeValue) {
        match s {
            SomeValue::List {
                def,
                konst: Some(v),
            } => {
                let it = self.list_item(*def);
                self.items[it.index()].prebuilt.get_or_insert(*v);
            }
            SomeValue::Dict {
                def,
                konst: Some(v),
            } => {
                let (k, _) = self.dict_items(*def);
                self.items[k.index()].prebuilt.get_or_insert(*v);
            }
            SomeValue::BuiltinMethod { s_self, .. } => self.mark_prebuilt(s_self),
            _ => {}
        }
    }

    /// Prebuilt instances whose class defines `_freeze_` are frozen PBCs.
    pub fn is_frozen_instance(&self, heap: &Heap, obj: ObjId) -> bool {
        match heap.get(obj) {
            Object::Instance(inst) => heap.class(inst.class).is_some_and(|c| {
                c.mro.iter().any(|&k| {
                    heap.class(k)
                        .is_some_and(|kc| kc.dict.contains("_freeze_") && kc.builtin.is_none())
                })
            }),
            _ => false,
        }
    }

    /// The annotation of an instance of a class given as a type (`isinstance` narrowing).
    pub fn valueoftype(&mut self, heap: &Heap, cls: ObjId) -> Option<SomeValue> {
        let c = heap.class(cls)?;
        if Self::is_builtin_type(heap, cls) {
            return Some(match c.builtin? {
                BuiltinType::Int => SomeValue::int(),
                BuiltinType::Bool => SomeValue::bool(),
                BuiltinType::Float => SomeValue::float(),
                BuiltinType::Str => SomeValue::string(),
                BuiltinType::Unicode => SomeValue::unicode(false),
                _ => match &*c.name {
                    "r_uint" => SomeValue::int_of_kind(IntKind::Unsigned, true),
                    "r_longlong" => SomeValue::int_of_kind(IntKind::LongLong, false),
                    "r_ulonglong" => SomeValue::int_of_kind(IntKind::ULongLong, true),
                    "r_longlonglong" => SomeValue::int_of_kind(IntKind::LongLongLong, false),
                    _ => return None,
                },
            });
        }
        let cd = self.getuniqueclassdef(heap, cls).ok()?;
        Some(SomeValue::instance(cd))
    }

    /// The constant a PBC annotation stands for (a single prebuilt object).
    pub fn pbc_const(&self, s: &SomeValue) -> Option<Value> {
        match s {
            SomeValue::Pbc {
                descs,
                can_be_none: false,
            } if descs.len() == 1 => self.desc_obj(descs[0]).map(Value::Obj),
            _ => s.konst(),
        }
    }

    /// The import-time object a description stands for.
    pub fn desc_obj(&self, d: DescId) -> Option<ObjId> {
        match self.desc(d) {
            Desc::Function(f) => Some(f.func),
            Desc::Class(c) => Some(c.cls),
            Desc::Frozen(f) => Some(f.obj),
            Desc::Method(_) | Desc::MethodOfFrozen { .. } => None,
        }
    }
}

/// The annotation of the prebuilt str `v` (bytes `s`): a character when it has one byte,
/// else a string; a constant, never None. Shared by `immutablevalue` and the editor's
/// `known_value`.
pub(super) fn const_str(s: &[u8], v: Value) -> SomeValue {
    let no_nul = !s.contains(&0);
    if s.len() == 1 {
        SomeValue::Char {
            no_nul,
            konst: Some(v),
        }
    } else {
        SomeValue::Str {
            can_be_none: false,
            no_nul,
            konst: Some(v),
        }
    }
}

/// The annotation of the prebuilt unicode `v` (text `s`), as `const_str` for str.
pub(super) fn const_unicode(s: &crate::compiler::UStr, v: Value) -> SomeValue {
    let no_nul = !s.codes().contains(&0);
    if s.len() == 1 {
        SomeValue::UnicodeCodePoint {
            no_nul,
            konst: Some(v),
        }
    } else {
        SomeValue::Unicode {
            can_be_none: false,
            no_nul,
            konst: Some(v),
        }
    }
}

/// The annotation of a value of a known type and unknown content (`rffi_platform`'s
/// answers): never a constant. An integer is taken as non-negative, as most C constants
/// are (sizes, flags, errno values, signal numbers): the reference knows the value, and a
/// positive one slices a string (`buf[:PATH_MAX]`); a negative one (an error code) is
/// compared, never used where the sign matters.
pub(super) fn opaque_annotation(kind: Opaque) -> SomeValue {
    match kind {
        Opaque::Bool => SomeValue::Bool {
            konst: None,
            ktd: None,
        },
        Opaque::Float => SomeValue::Float { konst: None },
        Opaque::Str => SomeValue::Str {
            can_be_none: false,
            no_nul: true,
            konst: None,
        },
        Opaque::Int => SomeValue::Integer {
            nonneg: true,
            kind: IntKind::Signed,
            konst: None,
        },
    }
}
