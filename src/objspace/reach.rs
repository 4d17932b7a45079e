//! Which import-time objects are still alive when translation starts: those reachable
//! from a module (CPython keeps every module in `sys.modules`, and an object nothing
//! refers to is freed at once by reference counting). A weak value dictionary made at
//! import time (`rweakref.RWeakValueDictionary`) holds its values weakly: the reference
//! toolchain prebuilds it with the entries whose values are still alive then.

use super::object::{Heap, IterState, ObjId, Object, Value};
use crate::builtins::BuiltinId as B;
use crate::fasthash::HashSet;

/// The objects reachable from the modules of `heap`, not counting the values of weak
/// dictionaries (their keys and their key and value classes are strong references).
pub fn alive_objects(heap: &Heap) -> HashSet<ObjId> {
    let mut seen: HashSet<ObjId> = HashSet::default();
    let mut stack: Vec<ObjId> = (0..heap.len() as u32)
        .map(ObjId)
        .filter(|&id| matches!(heap.get(id), Object::Module(_)))
        .collect();
    let mut out: Vec<Value> = Vec::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        out.clear();
        referents(heap, id, &mut out);
        stack.extend(out.iter().filter_map(|v| match v {
            Value::Obj(o) if !seen.contains(o) => Some(*o),
            _ => None,
        }));
    }
    seen
}

/// The values object `id` refers to strongly.
fn referents(heap: &Heap, id: ObjId, out: &mut Vec<Value>) {
    match heap.get(id) {
        Object::Tuple(items) | Object::List(items) => out.extend(items.iter().copied()),
        Object::Dict(d) | Object::Set(d) => {
            for (k, v) in &d.entries {
                out.push(*k);
                out.push(*v);
            }
        }
        Object::Function(f) => {
            out.push(Value::Obj(f.globals));
            out.extend(f.defaults.iter().copied());
            out.extend(f.closure.iter().map(|&c| Value::Obj(c)));
            out.extend(f.attrs.iter().map(|(_, v)| v));
        }
        Object::Builtin {
            id: B::WeakValueDictPrebuilt,
            bound_self: Some(Value::Obj(t)),
        } => {
            // (key class, value class, entries): the entries' keys only
            if let Object::Tuple(items) = heap.get(*t) {
                out.extend(items.iter().take(2).copied());
                if let Some(Value::Obj(entries)) = items.get(2) {
                    if let Object::Dict(d) = heap.get(*entries) {
                        out.extend(d.entries.iter().map(|(k, _)| *k));
                    }
                }
            }
        }
        Object::Builtin {
            id: B::WeakKeyDictPrebuilt,
            bound_self: Some(Value::Obj(t)),
        } => {
            // (key class, value class, entries): the classes only (a value is held while
            // its key lives, and the keys are weak)
            if let Object::Tuple(items) = heap.get(*t) {
                out.extend(items.iter().take(2).copied());
            }
        }
        Object::Builtin { bound_self, .. } => out.extend(*bound_self),
        Object::Class(c) => {
            out.extend(c.bases.iter().map(|&b| Value::Obj(b)));
            out.extend(c.dict.iter().map(|(_, v)| v));
            out.extend(c.module.map(Value::Obj));
        }
        Object::Instance(inst) => {
            out.push(Value::Obj(inst.class));
            out.extend(inst.dict.iter().map(|(_, v)| v));
        }
        Object::Module(m) => out.extend(m.dict.iter().map(|(_, v)| v)),
        Object::BoundMethod { func, self_value } => {
            out.push(*func);
            out.push(*self_value);
        }
        Object::UnboundMethod { func, class } => {
            out.push(*func);
            out.push(Value::Obj(*class));
        }
        Object::StaticMethod(v) | Object::ClassMethod(v) => out.push(*v),
        Object::Property { fget, fset } => {
            out.push(*fget);
            out.push(*fset);
        }
        Object::Cell(v) => out.extend(*v),
        Object::Iterator(IterState::Seq { items, .. }) => out.extend(items.iter().copied()),
        Object::Iterator(IterState::Live { seq, .. }) => out.push(Value::Obj(*seq)),
        Object::Slice(a, b, c) => out.extend([*a, *b, *c]),
        Object::Unknown {
            instance_of: Some(c),
            ..
        } => out.push(Value::Obj(*c)),
        _ => {}
    }
}
