//! Attributes: lookup on instances (with method binding, properties, static and class
//! methods), classes, modules, functions and built-in values; assignment and deletion;
//! `super`; namespace access. Class creation is in `build_class`.

/// Class attribute marking a class whose base rpy-lsp does not model (its value is that
/// unknown base).
pub const UNKNOWN_BASE_ATTR: &str = "__rpy_unknown_base__";

/// Global of a module that did `from <bundled model> import *` (its value: that model).
/// The model may lack names the real module has, so a global the module lacks is unknown
/// (one warning) rather than undefined.
pub const STAR_FROM_MODEL_ATTR: &str = "__rpy_star_from_model__";

use super::dict::DictOps;
use super::object::{name_key, AttrMap, Dict, HashKey, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;
use std::rc::Rc;

impl ObjSpace {
    /// Finds `name` in the class dicts along the MRO of `cls`.
    pub fn lookup_class_attr(&self, cls: ObjId, name: &str) -> Option<Value> {
        let Object::Class(c) = self.heap.get(cls) else {
            return None;
        };
        for &k in &c.mro {
            if let Object::Class(kc) = self.heap.get(k) {
                if let Some(v) = kc.dict.get(name) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Is this builtin a method that binds to the instance (its owner is a class)?
    pub(crate) fn is_method_builtin(&self, id: crate::builtins::BuiltinId) -> bool {
        let Some(owner) = id.owner() else {
            return false;
        };
        self.types.by_name.contains_key(owner)
            || owner.starts_with(|c: char| c.is_ascii_uppercase())
    }

    /// The bound method `make` describes for `key` (function, receiver), allocated once and
    /// reused after (see `ObjSpace::bound_methods`); without a key, a new one each time.
    fn bound_once(&mut self, key: Option<(ObjId, ObjId)>, make: Object) -> Value {
        if let Some(&m) = key.and_then(|k| self.bound_methods.get(&k)) {
            return Value::Obj(m);
        }
        let m = self.alloc(make);
        if let (Some(k), Value::Obj(id)) = (key, m) {
            self.bound_methods.insert(k, id);
        }
        m
    }

    /// Descriptor binding of a class attribute found for `obj` (an instance of `cls`).
    pub(crate) fn bind_attr(&mut self, attr: Value, obj: Value, cls: ObjId) -> R {
        let Value::Obj(id) = attr else {
            return Ok(attr);
        };
        let memo_key = match obj {
            Value::Obj(o) => Some((id, o)),
            _ => None,
        };
        match self.heap.get(id) {
            Object::Function(_) => Ok(self.bound_once(
                memo_key,
                Object::BoundMethod {
                    func: attr,
                    self_value: obj,
                },
            )),
            Object::Builtin {
                id: bid,
                bound_self: None,
            } if self.is_method_builtin(*bid) => {
                let bid = *bid;
                Ok(self.bound_once(
                    memo_key,
                    Object::Builtin {
                        id: bid,
                        bound_self: Some(obj),
                    },
                ))
            }
            Object::StaticMethod(f) => Ok(*f),
            Object::ClassMethod(f) => {
                let f = *f;
                Ok(self.alloc(Object::BoundMethod {
                    func: f,
                    self_value: Value::Obj(cls),
                }))
            }
            Object::Property { fget, .. } => {
                let fget = *fget;
                if fget == Value::None {
                    return Err(self.err("AttributeError", "unreadable attribute"));
                }
                self.call_value(fget, vec![obj], Vec::new())
            }
            _ => Ok(attr),
        }
    }

    /// A dict snapshot of a namespace: with CPython's table of it when the namespace keeps
    /// one (a class, a module), so that it iterates as CPython's does; the names the table
    /// has and the namespace does not (a class's `__doc__`, `__dict__`, `__weakref__`)
    /// are None. Without a table, the names inserted in order (an instance's, which
    /// CPython filled that way).
    pub(crate) fn dict_of_attrs(&mut self, attrs: &AttrMap) -> Value {
        let mut d = Dict::default();
        let items: Vec<(Rc<str>, Value)> = attrs
            .iter()
            .filter(|(k, _)| &***k != UNKNOWN_BASE_ATTR)
            .map(|(k, v)| (k.clone(), v))
            .collect();
        let ordered: Option<Vec<Rc<str>>> = attrs.table().and_then(|t| {
            t.order()?
                .into_iter()
                .map(|k| match k {
                    HashKey::Str(b) => std::str::from_utf8(b).ok().map(Rc::from),
                    _ => None,
                })
                .collect()
        });
        // every name of the namespace must be in the table (else insertion order)
        let ordered = ordered.filter(|names| {
            let held: crate::fasthash::HashSet<&str> = names.iter().map(|n| &**n).collect();
            items.iter().all(|(k, _)| held.contains(&**k))
        });
        match (ordered, attrs.table()) {
            (Some(mut names), Some(table)) => {
                let mut table = table.clone();
                if names.iter().any(|n| &**n == UNKNOWN_BASE_ATTR) {
                    // rpy-lsp's own marker is no name of CPython's dict
                    table.delete(&name_key(UNKNOWN_BASE_ATTR));
                    names.retain(|n| &**n != UNKNOWN_BASE_ATTR);
                }
                for name in names {
                    let key = self.intern(&name);
                    let hk = self.heap.hash_key(key).expect("str is hashable");
                    let v = attrs.get(&name).unwrap_or(Value::None);
                    d.index.insert(hk, d.entries.len());
                    d.entries.push((key, v));
                }
                d.table = table;
            }
            _ => {
                for (k, v) in items {
                    let key = self.intern(&k);
                    let hk = self.heap.hash_key(key).expect("str is hashable");
                    d.insert(hk, key, v);
                }
            }
        }
        self.alloc(Object::Dict(d))
    }

    /// `getattr(obj, name)`, raising AttributeError when missing.
    pub fn getattr(&mut self, obj: Value, name: &Rc<str>) -> R {
        match self.getattr_opt(obj, name)? {
            Some(v) => Ok(v),
            None => Err(self.attribute_error(obj, name)),
        }
    }

    pub(crate) fn attribute_error(
        &mut self,
        obj: Value,
        name: &str,
    ) -> crate::interpreter::Unwind<Value> {
        let msg = match obj {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Module(_) => format!("'module' object has no attribute '{name}'"),
                Object::Class(c) => format!("type object '{}' has no attribute '{name}'", c.name),
                _ => format!("'{}' object has no attribute '{name}'", self.type_name(obj)),
            },
            _ => format!("'{}' object has no attribute '{name}'", self.type_name(obj)),
        };
        let _ = &msg;
        self.err("AttributeError", msg)
    }

    /// Attribute lookup; `Ok(None)` when the attribute does not exist.
    pub fn getattr_opt(&mut self, obj: Value, name: &Rc<str>) -> R<Option<Value>> {
        if &**name == "__class__" {
            return Ok(Some(Value::Obj(self.type_of(obj))));
        }
        let Value::Obj(id) = obj else {
            return self.type_attr(obj, name);
        };
        if let Some(what) = self.unknown_name(obj) {
            return Ok(Some(self.new_unknown(&format!("{what}.{name}"))));
        }
        if let Some(m) = super::weakdicts::method(self, id, name) {
            return Ok(Some(m));
        }
        if let Object::Builtin {
            id: b @ B::WeakKeyDictPrebuilt,
            ..
        } = self.heap.get(id)
        {
            // another method of a weak dictionary made at import time, or a method of a
            // weak key dictionary, used at import time: its entries are not modelled, so
            // from here on the dictionary itself is unknown
            let ctor = if *b == B::WeakKeyDictPrebuilt {
                B::RweakrefRWeakKeyDictionary
            } else {
                B::RweakrefRWeakValueDictionary
            };
            let dict = format!("{}()", ctor.name());
            let what = format!("{dict}.{name}");
            self.warn_unknown(&what, "the import-time use of");
            *self.heap.get_mut(id) = Object::Unknown {
                name: Rc::from(dict.as_str()),
                instance_of: None,
            };
            return Ok(Some(self.new_unknown(&what)));
        }
        match self.heap.get(id) {
            Object::Instance(inst) => {
                let cls = inst.class;
                if cls == self.types.super_ {
                    return self.super_getattr(id, name);
                }
                if &**name == "__dict__" {
                    let attrs = inst.dict.clone();
                    return Ok(Some(self.dict_of_attrs(&attrs)));
                }
                let cattr = self.lookup_class_attr(cls, name);
                if let Some(Value::Obj(a)) = cattr {
                    if matches!(self.heap.get(a), Object::Property { .. }) {
                        return self.bind_attr(Value::Obj(a), obj, cls).map(Some);
                    }
                }
                if let Object::Instance(inst) = self.heap.get(id) {
                    if let Some(v) = inst.dict.get(name) {
                        return Ok(Some(v));
                    }
                    // Attributes of an instance whose class derives from an unknown base
                    // may come from that base.
                    let cls = inst.class;
                    if self.unknown_base_classes.contains(&cls)
                        && self.lookup_class_attr(cls, name).is_none()
                    {
                        let cname = self.heap.class(cls).map(|c| c.name.clone());
                        let what = format!("{}.{name}", cname.as_deref().unwrap_or("?"));
                        return Ok(Some(self.new_unknown(&what)));
                    }
                }
                match cattr {
                    Some(a) => self.bind_attr(a, obj, cls).map(Some),
                    None => match self.lookup_class_attr(cls, "__getattr__") {
                        Some(ga) if !name.starts_with("__") => {
                            let n = self.intern(name);
                            let bound = self.bind_attr(ga, obj, cls)?;
                            match self.call_value(bound, vec![n], Vec::new()) {
                                Ok(v) => Ok(Some(v)),
                                Err(crate::interpreter::Unwind::Raise {
                                    etype: Value::Obj(e),
                                    ..
                                }) if self
                                    .is_subclass(e, self.types.exceptions["AttributeError"]) =>
                                {
                                    Ok(None)
                                }
                                Err(e) => Err(e),
                            }
                        }
                        _ => Ok(None),
                    },
                }
            }
            Object::Class(c) => {
                match &**name {
                    "__name__" => {
                        let n = c.name.clone();
                        return Ok(Some(self.new_str(n.as_bytes())));
                    }
                    "__dict__" => {
                        let attrs = c.dict.clone();
                        let d = self.dict_of_attrs(&attrs);
                        // an old-style class's `__dict__` is its own dict in Python 2:
                        // `C.__dict__.update(...)` sets class attributes (SQPyte's CConfig)
                        if let (Value::Obj(did), true) = (d, self.old_style_classes.contains(&id)) {
                            self.globals_views.insert(did, id);
                        }
                        return Ok(Some(d));
                    }
                    "__bases__" => {
                        let b: Vec<Value> = c.bases.iter().map(|&b| Value::Obj(b)).collect();
                        return Ok(Some(self.new_tuple(b)));
                    }
                    "__base__" => {
                        return Ok(Some(match c.bases.first() {
                            Some(&b) => Value::Obj(b),
                            None => Value::None,
                        }));
                    }
                    "__mro__" => {
                        let b: Vec<Value> = c.mro.iter().map(|&b| Value::Obj(b)).collect();
                        return Ok(Some(self.new_tuple(b)));
                    }
                    "__subclasses__" => {
                        return Ok(Some(self.alloc(Object::Builtin {
                            id: crate::builtins::BuiltinId::TypeSubclasses,
                            bound_self: Some(obj),
                        })));
                    }
                    "__module__" if c.builtin.is_some() => {
                        return Ok(Some(self.new_str(b"__builtin__")))
                    }
                    "__doc__" if !c.dict.contains("__doc__") => return Ok(Some(Value::None)),
                    _ => {}
                }
                let Some(a) = self.lookup_class_attr(id, name) else {
                    // Methods and attributes of the class's metaclass.
                    if let Some(&meta) = self.metaclasses.get(&id) {
                        if let Some(m) = self.lookup_class_attr(meta, name) {
                            if matches!(m, Value::Obj(f) if matches!(self.heap.get(f), Object::Function(_)))
                            {
                                return Ok(Some(self.alloc(Object::BoundMethod {
                                    func: m,
                                    self_value: obj,
                                })));
                            }
                            return Ok(Some(m));
                        }
                    }
                    return Ok(None);
                };
                let Value::Obj(aid) = a else {
                    return Ok(Some(a));
                };
                match self.heap.get(aid) {
                    Object::StaticMethod(f) => Ok(Some(*f)),
                    Object::ClassMethod(f) => {
                        let f = *f;
                        Ok(Some(self.alloc(Object::BoundMethod {
                            func: f,
                            self_value: obj,
                        })))
                    }
                    Object::Function(_) => Ok(Some(
                        self.alloc(Object::UnboundMethod { func: a, class: id }),
                    )),
                    _ => Ok(Some(a)),
                }
            }
            Object::Module(m) => {
                if let Some(v) = m.dict.get(name) {
                    return Ok(Some(v));
                }
                if &**name == "__dict__" {
                    let attrs = m.dict.clone();
                    return Ok(Some(self.dict_of_attrs(&attrs)));
                }
                // A name a bundled model (not a package: its submodules are imported) lacks
                // is unknown; the caller warns at the user's line. `os` is a package only
                // in the bundle (to hold `os.path`): in Python it is a module.
                let full = format!("{}.{}", m.name, name);
                let package =
                    &*m.name != "os" && self.module_info.get(&id).is_some_and(|i| i.is_package);
                if self.is_bundled_module(obj) && !name.starts_with("__") && !package {
                    return Ok(Some(self.new_unknown(&full)));
                }
                // A module whose globals received an unknown mapping
                // (`globals().update(htmlentitydefs.name2codepoint)`) may hold the name:
                // seen from another module too it is unknown.
                if self.unknown_globals.contains(&id) && !name.starts_with("__") {
                    return Ok(Some(self.new_unknown(&full)));
                }
                Ok(None)
            }
            Object::Function(f) => {
                let v = match &**name {
                    "__name__" | "func_name" => {
                        let n = f.name.clone();
                        self.new_str(n.as_bytes())
                    }
                    "__doc__" | "func_doc" => match f.attrs.get("__doc__") {
                        Some(d) => d,
                        None => match f.code.docstring.clone() {
                            Some(d) => self.new_str(d.as_bytes()),
                            None => Value::None,
                        },
                    },
                    "func_defaults" | "__defaults__" => {
                        if f.defaults.is_empty() {
                            Value::None
                        } else {
                            let d = f.defaults.clone();
                            self.new_tuple(d)
                        }
                    }
                    "func_code" | "__code__" => {
                        let c = f.code.clone();
                        self.alloc(Object::Code(c))
                    }
                    "func_globals" | "__globals__" => {
                        let g = f.globals;
                        match self.heap.get(g) {
                            Object::Module(m) => {
                                let attrs = m.dict.clone();
                                self.dict_of_attrs(&attrs)
                            }
                            _ => Value::None,
                        }
                    }
                    "__module__" => {
                        let g = f.globals;
                        match f.attrs.get("__module__") {
                            Some(m) => m,
                            None => self.module_attr(g, "__name__").unwrap_or(Value::None),
                        }
                    }
                    "func_closure" | "__closure__" => {
                        if f.closure.is_empty() {
                            Value::None
                        } else {
                            let c: Vec<Value> = f.closure.iter().map(|&c| Value::Obj(c)).collect();
                            self.new_tuple(c)
                        }
                    }
                    "__dict__" | "func_dict" => {
                        let attrs = f.attrs.clone();
                        self.dict_of_attrs(&attrs)
                    }
                    // Class attributes are plain functions here (Python 2 unbound methods).
                    "im_func" | "__func__" => obj,
                    "im_self" => Value::None,
                    _ => match f.attrs.get(name) {
                        Some(v) => v,
                        None => return self.type_attr(obj, name),
                    },
                };
                Ok(Some(v))
            }
            Object::BoundMethod { func, self_value } => {
                let (func, sv) = (*func, *self_value);
                match &**name {
                    "im_func" | "__func__" => Ok(Some(func)),
                    "im_self" | "__self__" => Ok(Some(sv)),
                    "im_class" => Ok(Some(Value::Obj(self.type_of(sv)))),
                    _ => self.getattr_opt(func, name),
                }
            }
            Object::UnboundMethod { func, class } => {
                let (func, class) = (*func, *class);
                match &**name {
                    "im_func" | "__func__" => Ok(Some(func)),
                    "im_self" | "__self__" => Ok(Some(Value::None)),
                    "im_class" => Ok(Some(Value::Obj(class))),
                    _ => self.getattr_opt(func, name),
                }
            }
            Object::Builtin {
                id: bid,
                bound_self,
            } => {
                let (bid, bname, bs) = (*bid, bid.name(), *bound_self);
                match &**name {
                    "__name__" => Ok(Some(self.new_str(bid.short_name().as_bytes()))),
                    "__self__" => Ok(Some(bs.unwrap_or(Value::None))),
                    "__module__" => {
                        let m = match bname.rsplit_once('.') {
                            Some((m, _)) => m.to_string(),
                            None => "__builtin__".to_string(),
                        };
                        Ok(Some(self.new_str(m.as_bytes())))
                    }
                    "__doc__" => Ok(Some(Value::None)),
                    _ => self.type_attr(obj, name),
                }
            }
            Object::StaticMethod(f) | Object::ClassMethod(f) => match &**name {
                "__func__" => Ok(Some(*f)),
                _ => self.type_attr(obj, name),
            },
            Object::Property { fget, fset } => match &**name {
                "fget" => Ok(Some(*fget)),
                "fset" => Ok(Some(*fset)),
                "fdel" | "__doc__" => Ok(Some(Value::None)),
                _ => self.type_attr(obj, name),
            },
            Object::Code(c) => {
                let c = c.clone();
                let v = match &**name {
                    "co_name" => self.new_str(c.co_name.as_bytes()),
                    "co_filename" => self.new_str(c.co_filename.as_bytes()),
                    "co_argcount" => Value::Int(c.co_argcount as i64),
                    "co_flags" => Value::Int(c.co_flags as i64),
                    "co_firstlineno" => {
                        self.positions_read = true;
                        Value::Int(c.co_firstlineno as i64)
                    }
                    "co_varnames" => {
                        let names: Vec<Value> =
                            c.co_varnames.iter().map(|n| self.intern(n)).collect();
                        self.new_tuple(names)
                    }
                    _ => return self.type_attr(obj, name),
                };
                Ok(Some(v))
            }
            Object::Cell(c) if &**name == "cell_contents" => match c {
                Some(v) => Ok(Some(*v)),
                None => self.value_error("Cell is empty"),
            },
            Object::Slice(a, b, c) => {
                let (a, b, c) = (*a, *b, *c);
                match &**name {
                    "start" => Ok(Some(a)),
                    "stop" => Ok(Some(b)),
                    "step" => Ok(Some(c)),
                    _ => self.type_attr(obj, name),
                }
            }
            _ => self.type_attr(obj, name),
        }
    }

    /// Attributes of built-in values: methods of their class, bound.
    fn type_attr(&mut self, obj: Value, name: &Rc<str>) -> R<Option<Value>> {
        let cls = self.type_of(obj);
        match self.lookup_class_attr(cls, name) {
            Some(a) => self.bind_attr(a, obj, cls).map(Some),
            None => match &**name {
                "real" if matches!(obj, Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
                    Ok(Some(obj))
                }
                "imag" if matches!(obj, Value::Int(_) | Value::Bool(_)) => Ok(Some(Value::Int(0))),
                "imag" if matches!(obj, Value::Float(_)) => Ok(Some(Value::Float(0.0))),
                "real" | "imag" => Ok(self.complex_attr(obj, name)),
                _ => Ok(None),
            },
        }
    }

    /// `super(C, obj).name`.
    fn super_getattr(&mut self, sup: ObjId, name: &Rc<str>) -> R<Option<Value>> {
        let (this, obj) = match self.heap.get(sup) {
            Object::Instance(i) => (i.dict.get("__thisclass__"), i.dict.get("__self__")),
            _ => (None, None),
        };
        let (Some(Value::Obj(this)), Some(obj)) = (this, obj) else {
            return Ok(None);
        };
        // super(C, cls) with cls a subclass of C reads class attributes; otherwise obj is
        // an instance of C, a class itself when C is a metaclass (typing's GenericMeta).
        let start_cls = match obj {
            Value::Obj(o)
                if matches!(self.heap.get(o), Object::Class(_)) && self.is_subclass(o, this) =>
            {
                o
            }
            _ => self.type_of(obj),
        };
        let mro = self.mro(start_cls).to_vec();
        let pos = mro
            .iter()
            .position(|&c| c == this)
            .map(|p| p + 1)
            .unwrap_or(mro.len());
        for &k in &mro[pos..] {
            let found = match self.heap.get(k) {
                Object::Class(kc) => kc.dict.get(name),
                _ => None,
            };
            if let Some(a) = found {
                if obj == Value::Obj(start_cls) {
                    // super(C, cls): class-level access.
                    if let Value::Obj(aid) = a {
                        match self.heap.get(aid) {
                            Object::StaticMethod(f) => return Ok(Some(*f)),
                            Object::ClassMethod(f) => {
                                let f = *f;
                                return Ok(Some(self.alloc(Object::BoundMethod {
                                    func: f,
                                    self_value: obj,
                                })));
                            }
                            _ => return Ok(Some(a)),
                        }
                    }
                    return Ok(Some(a));
                }
                return self.bind_attr(a, obj, start_cls).map(Some);
            }
        }
        Ok(None)
    }

    /// `obj.name = value`, through a `__setattr__` the program defines on the class (or,
    /// for a class, on its metaclass), as CPython does at import time.
    pub fn setattr(&mut self, obj: Value, name: &Rc<str>, value: Value) -> R<()> {
        if let Value::Obj(id) = obj {
            let cls = match self.heap.get(id) {
                Object::Instance(i) => Some(i.class),
                Object::Class(_) => self.metaclasses.get(&id).copied(),
                _ => None,
            };
            let hook = cls.and_then(|c| self.lookup_class_attr(c, "__setattr__"));
            if let Some(f @ Value::Obj(fid)) = hook {
                if matches!(self.heap.get(fid), Object::Function(_)) {
                    let n = self.intern(name);
                    self.call_value(f, vec![obj, n, value], Vec::new())?;
                    return Ok(());
                }
            }
        }
        self.setattr_raw(obj, name, value)
    }

    /// `obj.name = value` without the class's `__setattr__` (`object.__setattr__`).
    pub fn setattr_raw(&mut self, obj: Value, name: &Rc<str>, value: Value) -> R<()> {
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return Err(self.err(
                "AttributeError",
                format!("'{tn}' object has no attribute '{name}'"),
            ));
        };
        match self.heap.get(id) {
            Object::Instance(inst) => {
                let cls = inst.class;
                if let Some(Value::Obj(a)) = self.lookup_class_attr(cls, name) {
                    if let Object::Property { fset, .. } = self.heap.get(a) {
                        let fset = *fset;
                        if fset == Value::None {
                            return Err(self.err("AttributeError", "can't set attribute"));
                        }
                        self.call_value(fset, vec![obj, value], Vec::new())?;
                        return Ok(());
                    }
                }
                if &**name == "__class__" {
                    return Err(self.unsupported("assigning `__class__` is not modelled"));
                }
                if let Object::Instance(inst) = self.heap.get_mut(id) {
                    inst.dict.set(name, value);
                }
                Ok(())
            }
            Object::Class(c) => {
                if c.builtin.is_some() {
                    let cn = c.name.clone();
                    return self.type_error(format!(
                        "can't set attributes of built-in/extension type '{cn}'"
                    ));
                }
                let new_name = if &**name == "__name__" {
                    self.text_of(value).map(Rc::<str>::from)
                } else {
                    None
                };
                if let Object::Class(c) = self.heap.get_mut(id) {
                    match new_name {
                        Some(n) => c.name = n,
                        None => c.dict.set(name, value),
                    }
                }
                Ok(())
            }
            Object::Module(_) => {
                if let Object::Module(m) = self.heap.get_mut(id) {
                    m.dict.set(name, value);
                }
                Ok(())
            }
            Object::Function(_) => {
                let text = self.text_of(value);
                let defaults = match value {
                    Value::None => Some(Vec::new()),
                    Value::Obj(t) => match self.heap.get(t) {
                        Object::Tuple(items) => Some(items.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                if let Object::Function(f) = self.heap.get_mut(id) {
                    match &**name {
                        "__name__" | "func_name" if text.is_some() => {
                            f.name = Rc::from(text.unwrap_or_default())
                        }
                        "func_defaults" | "__defaults__" if defaults.is_some() => {
                            f.defaults = defaults.unwrap_or_default()
                        }
                        _ => f.attrs.set(name, value),
                    }
                }
                Ok(())
            }
            Object::BoundMethod { .. } | Object::UnboundMethod { .. } => Err(self.err(
                "AttributeError",
                format!("'instancemethod' object has no attribute '{name}'"),
            )),
            _ => {
                let tn = self.type_name(obj);
                Err(self.err(
                    "AttributeError",
                    format!("'{tn}' object has no attribute '{name}'"),
                ))
            }
        }
    }

    /// `del obj.name`.
    pub fn delattr(&mut self, obj: Value, name: &Rc<str>) -> R<()> {
        let removed = match obj {
            Value::Obj(id) => match self.heap.get_mut(id) {
                Object::Instance(i) => i.dict.remove(name).is_some(),
                Object::Class(c) if c.builtin.is_none() => c.dict.remove(name).is_some(),
                Object::Module(m) => m.dict.remove(name).is_some(),
                Object::Function(f) => f.attrs.remove(name).is_some(),
                _ => false,
            },
            _ => false,
        };
        if removed {
            Ok(())
        } else {
            Err(self.attribute_error(obj, name))
        }
    }

    /// Stores `name = value` in a namespace object (module or class-body dict).
    pub(crate) fn ns_set(&mut self, ns: ObjId, name: &Rc<str>, value: Value) -> R<()> {
        let key = if matches!(self.heap.get(ns), Object::Dict(_)) {
            Some(self.intern(name))
        } else {
            None
        };
        match self.heap.get_mut(ns) {
            Object::Module(m) => {
                m.dict.set(name, value);
                Ok(())
            }
            Object::Dict(_) => {
                if self.class_body_spans.contains_key(&ns) {
                    let span = self.span;
                    self.class_attr_spans
                        .entry(ns)
                        .or_default()
                        .push((name.clone(), span));
                }
                let key = key.expect("interned");
                let Some(hk) = self.heap.hash_key(key) else {
                    unreachable!()
                };
                if let Object::Dict(d) = self.heap.get_mut(ns) {
                    d.insert(hk, key, value);
                }
                Ok(())
            }
            Object::Class(c) => {
                c.dict.set(name, value);
                Ok(())
            }
            _ => Err(self.unsupported("assignment into an unknown namespace")),
        }
    }

    /// Reads `name` from a namespace object (module or dict).
    pub(crate) fn ns_get(&mut self, ns: ObjId, name: &Rc<str>) -> Option<Value> {
        match self.heap.get(ns) {
            Object::Module(m) => m.dict.get(name),
            Object::Dict(d) => {
                let hk = HashKey::Str(match self.str_consts.get(name.as_bytes()) {
                    Some(&id) => match self.heap.get(id) {
                        Object::Str(s) => s.clone(),
                        _ => Rc::from(name.as_bytes()),
                    },
                    None => Rc::from(name.as_bytes()),
                });
                d.lookup(&hk)
            }
            Object::Class(c) => c.dict.get(name),
            _ => None,
        }
    }

    pub(crate) fn ns_del(&mut self, ns: ObjId, name: &Rc<str>) -> bool {
        match self.heap.get_mut(ns) {
            Object::Module(m) => m.dict.remove(name).is_some(),
            Object::Dict(d) => d
                .remove_key(&HashKey::Str(Rc::from(name.as_bytes())))
                .is_some(),
            Object::Class(c) => c.dict.remove(name).is_some(),
            _ => false,
        }
    }
}
