//! `objectmodel.import_from_mixin(M)` at import time: copies the mixin's methods (and those
//! of its bases, MRO first) into the class body being executed, each function a fresh copy
//! so that the annotator specializes it per class, as the toolchain's helper does.

use super::builtins::BArgs;
use super::object::{Object, Value};
use super::{ObjSpace, R};
use std::rc::Rc;

pub(super) fn om_import_from_mixin(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let m = match a.args[0] {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Class(_)) => id,
        _ => return sp.type_error("import_from_mixin() argument must be a class"),
    };
    let special: Vec<Rc<str>> = match a.get(1, "special_methods") {
        Some(v) => {
            let items = sp.iterate(v)?;
            items.into_iter().filter_map(|x| sp.name_of(x)).collect()
        }
        None => vec![Rc::from("__init__"), Rc::from("__del__")],
    };
    let Some(target) = sp.current_class_namespace() else {
        return Err(sp.unsupported("import_from_mixin() must be called directly in a class body"));
    };
    let mut flatten: Vec<(Rc<str>, Value)> = Vec::new();
    // every class's `_immutable_fields_` is added to the target's, not copied over it
    let mut immutable_fields: Vec<Value> = Vec::new();
    let mro = sp.mro(m).to_vec();
    for base in mro {
        if base == sp.types.object {
            continue;
        }
        let entries: Vec<(Rc<str>, Value)> = match sp.heap.get(base) {
            Object::Class(c) => c.dict.iter().map(|(k, v)| (k.clone(), v)).collect(),
            _ => continue,
        };
        for (key, value) in entries {
            if &*key == "_immutable_fields_" {
                immutable_fields.extend(sp.iterate(value)?);
                continue;
            }
            if key.starts_with("__") && key.ends_with("__") && !special.contains(&key) {
                continue;
            }
            if matches!(&*key, "__dict__" | "__module__" | "__weakref__") {
                continue;
            }
            if flatten.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let copied = match value {
                Value::Obj(id) => match sp.heap.get(id) {
                    Object::Function(_) => sp.copy_function(value, None)?,
                    Object::StaticMethod(f) => {
                        let f = *f;
                        let nf = if sp.heap.function(f).is_some() {
                            sp.copy_function(f, None)?
                        } else {
                            f
                        };
                        sp.alloc(Object::StaticMethod(nf))
                    }
                    Object::ClassMethod(_) => {
                        return Err(sp.err(
                            "AssertionError",
                            "classmethods not supported in 'import_from_mixin'",
                        ));
                    }
                    _ => value,
                },
                _ => value,
            };
            flatten.push((key, copied));
        }
    }
    // as the toolchain's: a name the class body already defined, or a mixin marked as one
    // (`_mixin_ = True` is for the other way of mixing in), stops the import
    for (k, v) in flatten {
        if sp.ns_get(target, &k).is_some() {
            return Err(sp.err(
                "Exception",
                format!("import_from_mixin: would overwrite the value already defined locally for '{k}'"),
            ));
        }
        if &*k == "_mixin_" {
            return Err(sp.err(
                "Exception",
                "import_from_mixin(M): class M should not have '_mixin_ = True'",
            ));
        }
        sp.ns_set(target, &k, v)?;
    }
    if !immutable_fields.is_empty() {
        let name: Rc<str> = Rc::from("_immutable_fields_");
        let mut all = match sp.ns_get(target, &name) {
            Some(v) => sp.iterate(v)?,
            None => Vec::new(),
        };
        all.extend(immutable_fields);
        let list = sp.new_list(all);
        sp.ns_set(target, &name, list)?;
    }
    Ok(Value::None)
}
