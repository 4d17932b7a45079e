//! `rweakref.RWeakValueDictionary` and `RWeakKeyDictionary` made at import time (prebuilt
//! weak dictionaries): their `get` and `set` (and `length` of a key dictionary) work at
//! import time, on entries kept in a dict object beside the key and value classes
//! (`bound_self` of the `WeakValueDictPrebuilt`/`WeakKeyDictPrebuilt` object is the tuple
//! `(keyclass, valueclass, entries)`). The reference's import-time dictionaries are
//! CPython's `weakref.WeakValueDictionary` and `WeakKeyDictionary`: an entry whose value
//! (key) nothing else references is gone as soon as it is stored (reference counting).
//! The translated program starts with the value dictionary's entries still alive when it
//! is translated (`live_entries`); the reference's RTyper refuses a key dictionary that
//! still has an entry then (`live_key_entries`). Import-time `get` and `length` see every
//! entry stored: an object dropped at import time is not modelled as dead before
//! translation.

use super::builtins::BArgs;
use super::object::{Heap, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;

/// The dict object holding the entries of the prebuilt weak dictionary `id`.
fn entries_dict(heap: &Heap, id: ObjId) -> Option<ObjId> {
    let Object::Builtin {
        id: B::WeakValueDictPrebuilt | B::WeakKeyDictPrebuilt,
        bound_self: Some(Value::Obj(t)),
    } = heap.get(id)
    else {
        return None;
    };
    match heap.get(*t) {
        Object::Tuple(items) => match items.get(2) {
            Some(Value::Obj(d)) if matches!(heap.get(*d), Object::Dict(_)) => Some(*d),
            _ => None,
        },
        _ => None,
    }
}

/// The method `name` of the prebuilt weak dictionary `id` (`get`, `set`, and `length`
/// of a key dictionary), bound.
pub(crate) fn method(sp: &mut ObjSpace, id: ObjId, name: &str) -> Option<Value> {
    entries_dict(&sp.heap, id)?;
    let keyed = matches!(
        sp.heap.get(id),
        Object::Builtin {
            id: B::WeakKeyDictPrebuilt,
            ..
        }
    );
    let m = match name {
        "get" => B::WeakDictGet,
        "set" => B::WeakDictSet,
        "length" if keyed => B::WeakDictLength,
        _ => return None,
    };
    Some(sp.alloc(Object::Builtin {
        id: m,
        bound_self: Some(Value::Obj(id)),
    }))
}

/// The entries dict of the receiver of an import-time `get` or `set`.
fn receiver(sp: &mut ObjSpace, a: &BArgs) -> R<ObjId> {
    match a.this {
        Some(Value::Obj(id)) => match entries_dict(&sp.heap, id) {
            Some(d) => Ok(d),
            None => sp.type_error("not a prebuilt weak dictionary"),
        },
        _ => sp.type_error("not a prebuilt weak dictionary"),
    }
}

/// `d.get(key)` at import time: the value, or None.
pub(crate) fn get(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let d = receiver(sp, a)?;
    let Some(k) = sp.heap.hash_key(a.args[0]) else {
        return sp.type_error("unhashable key");
    };
    Ok(match sp.heap.get(d) {
        Object::Dict(dd) => dd.index.get(&k).map_or(Value::None, |&i| dd.entries[i].1),
        _ => Value::None,
    })
}

/// `d.set(key, value)` at import time (`value` None removes the key).
pub(crate) fn set(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let d = receiver(sp, a)?;
    let (key, value) = (a.args[0], a.args[1]);
    if value == Value::None {
        let present = match (sp.heap.get(d), sp.heap.hash_key(key)) {
            (Object::Dict(dd), Some(k)) => dd.index.contains_key(&k),
            _ => false,
        };
        if present {
            sp.delitem(Value::Obj(d), key)?;
        }
    } else {
        sp.setitem(Value::Obj(d), key, value)?;
    }
    Ok(Value::None)
}

/// `d.length()` of a weak key dictionary at import time: its entries.
pub(crate) fn length(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    let d = receiver(sp, a)?;
    Ok(match sp.heap.get(d) {
        Object::Dict(dd) => Value::Int(dd.entries.len() as i64),
        _ => Value::Int(0),
    })
}

/// The entries of the prebuilt weak key dictionary `id` whose key is still alive when
/// translation starts (what the reference's RTyper finds in it, and refuses).
pub fn live_key_entries(heap: &Heap, id: ObjId) -> Vec<(Value, Value)> {
    entries_alive_by(heap, id, |(k, _)| k)
}

/// The entries of the prebuilt weak value dictionary `id` that the translated program
/// starts with: those whose value is still alive when translation starts (reachable from
/// a module other than through weak dictionaries, `reach::alive_objects`: what CPython
/// has not freed).
pub fn live_entries(heap: &Heap, id: ObjId) -> Vec<(Value, Value)> {
    entries_alive_by(heap, id, |(_, v)| v)
}

/// The entries of the weak dictionary `id` whose weakly held side (`side` of the entry:
/// the key or the value) is an object still alive when translation starts.
fn entries_alive_by(
    heap: &Heap,
    id: ObjId,
    side: impl Fn(&(Value, Value)) -> &Value,
) -> Vec<(Value, Value)> {
    let Some(Object::Dict(dd)) = entries_dict(heap, id).map(|d| heap.get(d)) else {
        return Vec::new();
    };
    if dd.entries.is_empty() {
        return Vec::new();
    }
    let alive = super::reach::alive_objects(heap);
    dd.entries
        .iter()
        .filter(|e| matches!(side(e), Value::Obj(o) if alive.contains(o)))
        .copied()
        .collect()
}
