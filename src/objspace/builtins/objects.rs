//! Builtins about any object: identity and hashing (`id`, `hash`), comparison (`cmp`),
//! class tests (`isinstance`, `issubclass`, `callable`), attribute access by name
//! (`getattr` and friends), the namespaces of the running code (`globals`, `locals`,
//! `vars`, `dir`) and `__import__`. Separate because they work on any value through the
//! space's generic protocols (attribute lookup, type tests, frames), not on one kind of
//! object.

use super::BArgs;
use crate::interpreter::Unwind;
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};
use std::cmp::Ordering;
use std::rc::Rc;

impl ObjSpace {
    fn callable(&self, v: Value) -> bool {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Function(_)
                | Object::Builtin { .. }
                | Object::Class(_)
                | Object::BoundMethod { .. }
                | Object::UnboundMethod { .. } => true,
                Object::Instance(i) => self.lookup_class_attr(i.class, "__call__").is_some(),
                _ => false,
            },
            _ => false,
        }
    }
}

pub(super) fn b_hash(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let h = sp.hash_value(a.args[0])?;
    Ok(Value::Int(h))
}

pub(super) fn b_id(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Int(sp.id_of(a.args[0])))
}

pub(super) fn b_isinstance(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let t = Value::Obj(sp.type_of(a.args[0]));
    match sp.issubclass_value(t, a.args[1]) {
        Ok(r) => Ok(Value::Bool(r)),
        Err(_) => {
            sp.type_error("isinstance() arg 2 must be a class, type, or tuple of classes and types")
        }
    }
}

pub(super) fn b_issubclass(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let r = sp.issubclass_value(a.args[0], a.args[1])?;
    Ok(Value::Bool(r))
}

pub(super) fn attr_name_arg(sp: &mut ObjSpace, v: Value, f: &str) -> R<Rc<str>> {
    match sp.name_of(v) {
        Some(n) => Ok(n),
        None => sp.type_error(format!("{f}(): attribute name must be string")),
    }
}

pub(super) fn b_hasattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[1], "hasattr")?;
    match sp.getattr_opt(a.args[0], &n) {
        Ok(r) => Ok(Value::Bool(r.is_some())),
        Err(Unwind::Raise { .. }) => Ok(Value::Bool(false)),
        Err(e) => Err(e),
    }
}

pub(super) fn b_getattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    let n = attr_name_arg(sp, a.args[1], "getattr")?;
    match a.args.get(2) {
        None => sp.getattr(a.args[0], &n),
        Some(&d) => match sp.getattr_opt(a.args[0], &n) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Ok(d),
            Err(Unwind::Raise {
                etype: Value::Obj(e),
                ..
            }) if sp.is_subclass(e, sp.types.exceptions["AttributeError"]) => Ok(d),
            Err(e) => Err(e),
        },
    }
}

pub(super) fn b_setattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 3)?;
    let n = attr_name_arg(sp, a.args[1], "setattr")?;
    sp.setattr(a.args[0], &n, a.args[2])?;
    Ok(Value::None)
}

pub(super) fn b_delattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[1], "delattr")?;
    sp.delattr(a.args[0], &n)?;
    Ok(Value::None)
}

pub(super) fn b_callable(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Bool(sp.callable(a.args[0])))
}

pub(super) fn b_globals(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    match sp.frames.last().map(|f| f.0) {
        Some(g) => Ok(globals_view(sp, g)),
        None => Ok(sp.new_dict()),
    }
}

/// The dict `globals()` gives for the frame whose globals are `g`: a copy of the module's
/// namespace whose writes reach the module (`globals()[name] = value` defines a global).
pub(crate) fn globals_view(sp: &mut ObjSpace, g: ObjId) -> Value {
    match sp.heap.get(g) {
        Object::Module(m) => {
            let attrs = m.dict.clone();
            let d = sp.dict_of_attrs(&attrs);
            if let Value::Obj(did) = d {
                sp.globals_views.insert(did, g);
            }
            d
        }
        _ => sp.new_dict(),
    }
}

pub(super) fn b_locals(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    match sp.frames.last().copied() {
        Some((_, Some(ns))) => match sp.heap.get(ns) {
            Object::Dict(_) => Ok(Value::Obj(ns)),
            Object::Module(m) => {
                let attrs = m.dict.clone();
                Ok(sp.dict_of_attrs(&attrs))
            }
            _ => Ok(sp.new_dict()),
        },
        Some((g, None)) if sp.frames.len() == 1 => match sp.heap.get(g) {
            Object::Module(m) => {
                let attrs = m.dict.clone();
                Ok(sp.dict_of_attrs(&attrs))
            }
            _ => Ok(sp.new_dict()),
        },
        _ => Err(sp.unsupported("`locals()` inside a function is not modelled at import time")),
    }
}

pub(super) fn b_vars(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        None => b_locals(sp, a),
        Some(&v) => {
            let n: Rc<str> = Rc::from("__dict__");
            sp.getattr(v, &n)
        }
    }
}

pub(super) fn b_dir(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let mut names: Vec<Rc<str>> = Vec::new();
    match a.args.first() {
        None => {
            return b_locals(sp, a)
                .and_then(|d| sp.iterate(d))
                .map(|v| sp.new_list(v))
        }
        Some(&Value::Obj(id)) => match sp.heap.get(id) {
            Object::Module(m) => names.extend(m.dict.iter().map(|(k, _)| k.clone())),
            Object::Class(c) => {
                for &k in &c.mro {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
            Object::Instance(i) => {
                names.extend(i.dict.iter().map(|(k, _)| k.clone()));
                for &k in sp.mro(i.class) {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
            _ => {
                let t = sp.type_of(Value::Obj(id));
                for &k in sp.mro(t) {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
        },
        Some(&v) => {
            let t = sp.type_of(v);
            for &k in sp.mro(t) {
                if let Object::Class(kc) = sp.heap.get(k) {
                    names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                }
            }
        }
    }
    names.sort();
    names.dedup();
    let vals: Vec<Value> = names.iter().map(|n| sp.intern(n)).collect();
    Ok(sp.new_list(vals))
}

pub(super) fn b_cmp(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    if sp.eq(a.args[0], a.args[1])? {
        return Ok(Value::Int(0));
    }
    let o = sp.cmp_values(a.args[0], a.args[1])?;
    Ok(Value::Int(match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }))
}

pub(super) fn b_import(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.is_empty() {
        return sp.type_error("__import__() takes at least 1 argument (0 given)");
    }
    let Some(name) = sp.name_of(a.args[0]) else {
        return sp.type_error("__import__() argument 1 must be string");
    };
    let fromlist = a.get(3, "fromlist").unwrap_or(Value::None);
    let level = a.get(4, "level").unwrap_or(Value::Int(-1));
    let globals = sp.frames.last().map(|f| f.0).unwrap_or(sp.builtins_module);
    crate::interpreter::Space::import_name(sp, &name, fromlist, level, globals)
}
