//! Containers: the `tuple`, `list`, `dict`, `set`/`frozenset` and `slice` constructors,
//! `dict.update`'s merge (shared with the `dict` constructor and the bundled models), and
//! the modelled methods of lists, tuples, dicts and sets, including their unbound slot
//! methods (`dict.__setitem__(d, k, v)`). Separate because it is the largest group and works
//! on the heap's container objects directly.

use super::BArgs;
use crate::builtins::BuiltinId as B;
use crate::objspace::dict::DictOps;
use crate::objspace::object::{Dict, HashKey, ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};

pub(super) fn c_tuple(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => {
            // (a tuple subclass's instance is copied into a plain tuple)
            if matches!(v, Value::Obj(id) if matches!(sp.heap.get(id), Object::Tuple(_))
                && sp.heap.tuple_class(id).is_none())
            {
                return Ok(v);
            }
            let items = sp.iterate(v)?;
            Ok(sp.new_tuple(items))
        }
        None => Ok(sp.new_tuple(vec![])),
    }
}

/// `tuple.__new__(cls[, iterable])`: a tuple of the items, an instance of `cls` when it is
/// a subclass of `tuple`.
pub(super) fn m_tuple_new(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let cls = a.args[0];
    let items = match a.args.get(1) {
        Some(&v) => sp.iterate(v)?,
        None => vec![],
    };
    match cls {
        Value::Obj(c) if c == sp.types.tuple => Ok(sp.new_tuple(items)),
        Value::Obj(c) if sp.heap.class(c).is_some() && sp.is_subclass(c, sp.types.tuple) => {
            Ok(Value::Obj(sp.heap.alloc_tuple_of_class(items, c)))
        }
        _ => sp.type_error("tuple.__new__(X): X is not a subtype of tuple"),
    }
}

/// `tuple.__eq__`, `tuple.__ne__`, `tuple.__hash__` called on a tuple (of a subclass,
/// whose own methods call them): item by item and the tuple's own hash, never the
/// subclass's methods again. A non-tuple `other` is unequal (CPython's NotImplemented
/// ends there for the values import-time code compares).
pub(super) fn m_tuple_special(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = a.id;
    let this = a.take_self(sp)?;
    let is_tuple = |sp: &ObjSpace, v: Value| matches!(v, Value::Obj(o) if matches!(sp.heap.get(o), Object::Tuple(_)));
    if !is_tuple(sp, this) {
        return sp.type_error(format!(
            "descriptor '{}' requires a 'tuple' object",
            id.name()
        ));
    }
    if id == B::TupleDunderHash {
        a.arity(sp, 0, 0)?;
        return match sp.heap.hash_key(this) {
            Some(k) => Ok(Value::Int(crate::objspace::ops::hash_of_key(&k))),
            None => sp.type_error("unhashable type: 'list'"),
        };
    }
    a.arity(sp, 1, 1)?;
    let other = a.args[0];
    let eq = is_tuple(sp, other) && sp.tuple_items_eq(this, other)?;
    Ok(Value::Bool(eq == (id == B::TupleDunderEq)))
}

pub(super) fn c_list(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => {
            let items = sp.iterate(v)?;
            Ok(sp.new_list(items))
        }
        None => Ok(sp.new_list(vec![])),
    }
}

impl ObjSpace {
    /// The items of a `dict` value in CPython's order, with their hash keys.
    fn dict_items(
        &self,
        v: Value,
    ) -> Option<Vec<(crate::objspace::object::HashKey, Value, Value)>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Dict(d) => Some(d.py_items()),
                _ => None,
            },
            _ => None,
        }
    }

    /// `PyDict_Merge(d, other)` of a dict into the dict `d` (one presizing, then each
    /// entry in `other`'s order). Into a `globals()` dict the names also reach the module
    /// (`globals().update(OPCODES)` defines globals at import time).
    fn dict_merge(&mut self, d: Value, items: Vec<(HashKey, Value, Value)>) -> R<()> {
        let Value::Obj(id) = d else {
            return Ok(());
        };
        if let Some(&module) = self.globals_views.get(&id) {
            for &(_, k, v) in &items {
                if let Some(name) = self.name_of(k) {
                    self.ns_set(module, &name, v)?;
                }
            }
        }
        self.merge_entries(id, items, true)
    }

    /// Keyword arguments of a built-in call as CPython 2.7 hands them over: a dict into
    /// which they were inserted last first (`update_keyword_args` pops them), merged.
    fn merge_kwargs(&mut self, d: Value, kwargs: Vec<(std::rc::Rc<str>, Value)>) -> R<()> {
        if kwargs.is_empty() {
            return Ok(());
        }
        let mut kw = Dict::default();
        for (k, v) in kwargs.into_iter().rev() {
            let key = self.intern(&k);
            let hk = self.key_of(key)?;
            kw.insert(hk, key, v);
        }
        self.dict_merge(d, kw.py_items())
    }

    /// `d.update(other)` with a mapping or an iterable of pairs.
    pub(crate) fn dict_update(&mut self, d: Value, other: Value) -> R<()> {
        if self.unknown_name(other).is_some() {
            // into `globals()`: the module's names are then partly unknown
            if let Value::Obj(id) = d {
                if let Some(&module) = self.globals_views.get(&id) {
                    self.unknown_globals.insert(module);
                }
            }
            return Ok(());
        }
        if let Some(items) = self.dict_items(other) {
            if matches!(d, Value::Obj(id) if matches!(self.heap.get(id), Object::Dict(_))) {
                return self.dict_merge(d, items);
            }
            for (_, k, v) in items {
                self.setitem(d, k, v)?;
            }
            return Ok(());
        }
        if matches!(other, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)))
            && self.special_method(other, "keys").is_some()
        {
            let keys = self.call_method(other, "keys", vec![])?;
            for k in self.iterate(keys)? {
                let v = self.getitem(other, k)?;
                self.setitem(d, k, v)?;
            }
            return Ok(());
        }
        for item in self.iterate(other)? {
            let kv = self.iterate(item)?;
            if kv.len() != 2 {
                let n = kv.len();
                return self.value_error(format!(
                    "dictionary update sequence element has length {n}; 2 is required"
                ));
            }
            self.setitem(d, kv[0], kv[1])?;
        }
        Ok(())
    }
}

pub(super) fn c_dict(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1 + a.kwargs.len())?;
    let d = sp.new_dict();
    if let Some(&src) = a.args.first() {
        sp.dict_update(d, src)?;
    }
    sp.merge_kwargs(d, a.kwargs.clone())?;
    Ok(d)
}

pub(super) fn c_set(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let s = sp.alloc(Object::Set(Dict::default()));
    if let Some(&src) = a.args.first() {
        sp.set_update_from(s, src)?;
    }
    Ok(s)
}

pub(super) fn c_slice(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 3)?;
    let (x, y, z) = match a.args.len() {
        1 => (Value::None, a.args[0], Value::None),
        2 => (a.args[0], a.args[1], Value::None),
        _ => (a.args[0], a.args[1], a.args[2]),
    };
    Ok(sp.alloc(Object::Slice(x, y, z)))
}

fn list_of(sp: &ObjSpace, v: Value) -> Option<ObjId> {
    match v {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::List(_) | Object::Tuple(_)) => Some(id),
        _ => None,
    }
}

pub(super) fn m_list(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let bid = a.id;
    let meth = bid.short_name();
    let this = a.take_self(sp)?;
    let Some(id) = list_of(sp, this) else {
        return sp.descriptor_type_error(meth, "list", this);
    };
    let items_len = match sp.heap.get(id) {
        Object::List(l) | Object::Tuple(l) => l.len(),
        _ => 0,
    };
    macro_rules! list_mut {
        () => {
            match sp.heap.get_mut(id) {
                Object::List(l) => l,
                _ => unreachable!(),
            }
        };
    }
    match bid {
        B::ListAppend => {
            a.arity(sp, 1, 1)?;
            list_mut!().push(a.args[0]);
            Ok(Value::None)
        }
        B::ListExtend => {
            a.arity(sp, 1, 1)?;
            let items = sp.iterate(a.args[0])?;
            list_mut!().extend(items);
            Ok(Value::None)
        }
        B::ListPop => {
            a.arity(sp, 0, 1)?;
            if items_len == 0 {
                return Err(sp.err("IndexError", "pop from empty list"));
            }
            let i = match a.args.first() {
                Some(&v) => sp.int_arg(v, "pop()")? as i64,
                None => -1,
            };
            let j = if i < 0 { i + items_len as i64 } else { i };
            if j < 0 || j >= items_len as i64 {
                return Err(sp.err("IndexError", "pop index out of range"));
            }
            Ok(list_mut!().remove(j as usize))
        }
        B::ListInsert => {
            a.arity(sp, 2, 2)?;
            let i = sp.int_arg(a.args[0], "insert()")? as i64;
            let n = items_len as i64;
            let j = if i < 0 { (i + n).max(0) } else { i.min(n) };
            list_mut!().insert(j as usize, a.args[1]);
            Ok(Value::None)
        }
        B::ListRemove
        | B::ListIndex
        | B::TupleIndex
        | B::ListCount
        | B::TupleCount
        | B::ListDunderContains => {
            a.arity(sp, 1, 3)?;
            let items = match sp.heap.get(id) {
                Object::List(l) | Object::Tuple(l) => l.clone(),
                _ => vec![],
            };
            let x = a.args[0];
            let (start, end) = if matches!(bid, B::ListIndex | B::TupleIndex) {
                let s = match a.args.get(1) {
                    Some(&v) => sp.int_arg(v, "index()")? as i64,
                    None => 0,
                };
                let e = match a.args.get(2) {
                    Some(&v) => sp.int_arg(v, "index()")? as i64,
                    None => items.len() as i64,
                };
                let n = items.len() as i64;
                let fix = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) } as usize;
                (fix(s), fix(e))
            } else {
                (0, items.len())
            };
            let mut count = 0;
            for (i, &y) in items.iter().enumerate().take(end).skip(start) {
                if sp.eq(y, x)? {
                    match bid {
                        B::ListRemove => {
                            list_mut!().remove(i);
                            return Ok(Value::None);
                        }
                        B::ListIndex | B::TupleIndex => return Ok(Value::Int(i as i64)),
                        B::ListDunderContains => return Ok(Value::Bool(true)),
                        _ => count += 1,
                    }
                }
            }
            match bid {
                B::ListCount | B::TupleCount => Ok(Value::Int(count)),
                B::ListDunderContains => Ok(Value::Bool(false)),
                B::ListRemove => sp.value_error("list.remove(x): x not in list"),
                _ => {
                    let r = String::from_utf8_lossy(&sp.repr_value(x)?).into_owned();
                    sp.value_error(format!("{r} is not in list"))
                }
            }
        }
        B::ListReverse => {
            a.arity(sp, 0, 0)?;
            list_mut!().reverse();
            Ok(Value::None)
        }
        B::ListSort => {
            a.arity(sp, 0, 3)?;
            let items = match sp.heap.get(id) {
                Object::List(l) => l.clone(),
                _ => vec![],
            };
            let cmp = a.get(0, "cmp");
            let key = a.get(1, "key");
            let reverse = match a.get(2, "reverse") {
                Some(v) => sp.truth(v)?,
                None => false,
            };
            let sorted = sp.sort_values(items, key, cmp, reverse)?;
            *list_mut!() = sorted;
            Ok(Value::None)
        }
        B::ListDunderLen | B::TupleDunderLen => Ok(Value::Int(items_len as i64)),
        B::ListDunderGetitem | B::TupleDunderGetitem => {
            a.arity(sp, 1, 1)?;
            sp.getitem(this, a.args[0])
        }
        B::ListDunderSetitem => {
            a.arity(sp, 2, 2)?;
            sp.setitem(this, a.args[0], a.args[1])?;
            Ok(Value::None)
        }
        _ => Err(sp.unsupported(format!("list.{meth} is not modelled"))),
    }
}

/// Unbound slot methods of dicts and lists (`dict.__delitem__(d, k)`), as Python's.
pub(super) fn m_slot_item(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let bid = a.id;
    let this = a.take_self(sp)?;
    let n = if matches!(bid, B::ListDunderSetitem | B::DictDunderSetitem) {
        2
    } else {
        1
    };
    a.arity(sp, n, n)?;
    match bid {
        B::ListDunderGetitem | B::DictDunderGetitem => sp.getitem(this, a.args[0]),
        B::ListDunderSetitem | B::DictDunderSetitem => {
            sp.setitem(this, a.args[0], a.args[1]).map(|_| Value::None)
        }
        B::ListDunderDelitem | B::DictDunderDelitem => {
            sp.delitem(this, a.args[0]).map(|_| Value::None)
        }
        _ => sp.contains(this, a.args[0]).map(Value::Bool),
    }
}

pub(super) fn m_dict(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let bid = a.id;
    let meth = bid.short_name();
    if matches!(bid, B::DictFromkeys) {
        // Class method: dict.fromkeys(seq[, value]).
        if matches!(a.this, Some(Value::Obj(id)) if matches!(sp.heap.get(id), Object::Dict(_))) {
            a.this = None;
        }
        let seq = a.args.first().copied().unwrap_or(Value::None);
        let v = a.args.get(1).copied().unwrap_or(Value::None);
        let d = sp.new_dict();
        // from a dict or a set, CPython 2.7 presizes the table for half again as many
        // keys (`sys.getsizeof` shows it) and then inserts without resizing
        let presized = match seq {
            Value::Obj(s) => match sp.heap.get(s) {
                Object::Dict(src) | Object::Set(src) => Some(src.len() / 2 * 3),
                _ => None,
            },
            _ => None,
        };
        if let (Some(n), Some(items), Value::Obj(did)) = (presized, sp.py_items_of(seq), d) {
            if let Object::Dict(dd) = sp.heap.get_mut(did) {
                dd.presize(n);
            }
            if items.iter().any(|(h, _, _)| h.is_user_hashed()) {
                // keys whose equality runs user code: each looked up with its source's
                // hash (`insertdict`), calling `__eq__` on keys of equal hash as CPython
                for (own, k, _) in items {
                    let hk = sp.find_hashed_key(did, k, own)?;
                    if let Object::Dict(dd) = sp.heap.get_mut(did) {
                        dd.insert_unresized(vec![(hk, k, v)], true);
                    }
                }
            } else if let Object::Dict(dd) = sp.heap.get_mut(did) {
                dd.insert_unresized(items.into_iter().map(|(h, k, _)| (h, k, v)).collect(), true);
            }
            return Ok(d);
        }
        for (i, k) in sp.iterate(seq)?.into_iter().enumerate() {
            if i % 4096 == 0 {
                sp.check_memory()?;
            }
            sp.setitem(d, k, v)?;
        }
        return Ok(d);
    }
    let this = a.take_self(sp)?;
    let id = match this {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Dict(_)) => id,
        _ => {
            return sp.descriptor_type_error(meth, "dict", this);
        }
    };
    let entries = |sp: &ObjSpace| match sp.heap.get(id) {
        Object::Dict(d) => d.py_entries(),
        _ => vec![],
    };
    match bid {
        B::DictGet | B::DictDunderGetitem => {
            a.arity(sp, 1, 2)?;
            let hk = sp.find_key(id, a.args[0])?;
            let found = match sp.heap.get(id) {
                Object::Dict(d) => d.lookup(&hk),
                _ => None,
            };
            match found {
                Some(v) => Ok(v),
                None if matches!(bid, B::DictGet) => {
                    Ok(a.args.get(1).copied().unwrap_or(Value::None))
                }
                None => Err(sp.err_value("KeyError", a.args[0])),
            }
        }
        B::DictHasKey | B::DictDunderContains => {
            a.arity(sp, 1, 1)?;
            let hk = sp.find_key(id, a.args[0])?;
            Ok(Value::Bool(
                matches!(sp.heap.get(id), Object::Dict(d) if d.contains_key(&hk)),
            ))
        }
        B::DictDunderSetitem => {
            a.arity(sp, 2, 2)?;
            sp.setitem(this, a.args[0], a.args[1])?;
            Ok(Value::None)
        }
        B::DictDunderLen => Ok(Value::Int(entries(sp).len() as i64)),
        B::DictKeys
        | B::DictValues
        | B::DictItems
        | B::DictIterkeys
        | B::DictItervalues
        | B::DictIteritems => {
            a.arity(sp, 0, 0)?;
            let es = entries(sp);
            let items: Vec<Value> = match bid {
                B::DictKeys | B::DictIterkeys => es.iter().map(|e| e.0).collect(),
                B::DictValues | B::DictItervalues => es.iter().map(|e| e.1).collect(),
                _ => es.iter().map(|&(k, v)| sp.new_tuple(vec![k, v])).collect(),
            };
            if matches!(bid, B::DictIterkeys | B::DictItervalues | B::DictIteritems) {
                Ok(sp.new_iter(items))
            } else {
                Ok(sp.new_list(items))
            }
        }
        B::DictSetdefault => {
            a.arity(sp, 1, 2)?;
            let hk = sp.find_key(id, a.args[0])?;
            let found = match sp.heap.get(id) {
                Object::Dict(d) => d.lookup(&hk),
                _ => None,
            };
            match found {
                Some(v) => Ok(v),
                None => {
                    let v = a.args.get(1).copied().unwrap_or(Value::None);
                    if let Object::Dict(d) = sp.heap.get_mut(id) {
                        d.insert(hk, a.args[0], v);
                    }
                    Ok(v)
                }
            }
        }
        B::DictUpdate => {
            a.arity(sp, 0, 1 + a.kwargs.len())?;
            if let Some(&o) = a.args.first() {
                sp.dict_update(this, o)?;
            }
            sp.merge_kwargs(this, a.kwargs.clone())?;
            Ok(Value::None)
        }
        B::DictPop => {
            a.arity(sp, 1, 2)?;
            let hk = sp.find_key(id, a.args[0])?;
            let removed = match sp.heap.get_mut(id) {
                Object::Dict(d) => d.remove_key(&hk),
                _ => None,
            };
            match removed {
                Some((_, v)) => Ok(v),
                None => match a.args.get(1) {
                    Some(&d) => Ok(d),
                    None => Err(sp.err_value("KeyError", a.args[0])),
                },
            }
        }
        B::DictPopitem => {
            a.arity(sp, 0, 0)?;
            let popped = match sp.heap.get_mut(id) {
                Object::Dict(d) => d.pop_entry(),
                _ => None,
            };
            let Some((k, v)) = popped else {
                return Err(sp.err("KeyError", "popitem(): dictionary is empty"));
            };
            Ok(sp.new_tuple(vec![k, v]))
        }
        B::DictCopy => {
            a.arity(sp, 0, 0)?;
            sp.copy_of(id)
        }
        B::DictClear => {
            a.arity(sp, 0, 0)?;
            if let Object::Dict(d) = sp.heap.get_mut(id) {
                d.clear();
            }
            Ok(Value::None)
        }
        _ => Err(sp.unsupported(format!("dict.{meth} is not modelled"))),
    }
}

pub(super) fn m_set(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let bid = a.id;
    let meth = bid.short_name();
    let this = a.take_self(sp)?;
    let id = match this {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Set(_)) => id,
        _ => {
            return sp.descriptor_type_error(meth, "set", this);
        }
    };
    let keys = |sp: &ObjSpace| match sp.heap.get(id) {
        Object::Set(d) => d.keys(),
        _ => vec![],
    };
    match bid {
        B::SetAdd => {
            a.arity(sp, 1, 1)?;
            sp.set_add(this, a.args[0])?;
            Ok(Value::None)
        }
        B::SetRemove | B::SetDiscard => {
            a.arity(sp, 1, 1)?;
            let hk = sp.find_key(id, a.args[0])?;
            let removed = match sp.heap.get_mut(id) {
                Object::Set(d) => d.remove_key(&hk).is_some(),
                _ => false,
            };
            if !removed && matches!(bid, B::SetRemove) {
                return Err(sp.err_value("KeyError", a.args[0]));
            }
            Ok(Value::None)
        }
        B::SetPop => {
            let popped = match sp.heap.get_mut(id) {
                Object::Set(d) => d.pop_entry(),
                _ => None,
            };
            let Some((k, _)) = popped else {
                return Err(sp.err("KeyError", "pop from an empty set"));
            };
            Ok(k)
        }
        B::SetUpdate => {
            for &o in &a.args.clone() {
                sp.set_update_from(this, o)?;
            }
            Ok(Value::None)
        }
        B::SetUnion
        | B::FrozensetUnion
        | B::SetIntersection
        | B::FrozensetIntersection
        | B::SetDifference
        | B::FrozensetDifference => {
            // as CPython 2.7 builds each result (which decides its iteration order)
            let mut result = sp.copy_of(id)?;
            let args = a.args.clone();
            if args.is_empty() {
                return Ok(result);
            }
            for (i, &o) in args.iter().enumerate() {
                let Value::Obj(rid) = result else {
                    unreachable!("alloc gives an object")
                };
                // the first operation is on the set itself, the others on the result
                let src = if i == 0 { id } else { rid };
                let next = match bid {
                    B::SetUnion | B::FrozensetUnion => {
                        sp.set_update_from(result, o)?;
                        continue;
                    }
                    B::SetIntersection | B::FrozensetIntersection => {
                        sp.set_intersection_of(src, o)?
                    }
                    _ => sp.set_difference_of(src, o)?,
                };
                result = sp.alloc(Object::Set(next));
            }
            Ok(result)
        }
        B::SetIssubset | B::FrozensetIssubset | B::SetIssuperset => {
            a.arity(sp, 1, 1)?;
            let other = sp.iterate(a.args[0])?;
            let mut other_keys = crate::fasthash::HashSet::default();
            for x in other {
                other_keys.insert(sp.key_of(x)?);
            }
            let mine: Vec<_> = match sp.heap.get(id) {
                Object::Set(d) => d.index.keys().cloned().collect(),
                _ => vec![],
            };
            let r = if matches!(bid, B::SetIssubset | B::FrozensetIssubset) {
                mine.iter().all(|k| other_keys.contains(k))
            } else {
                other_keys.iter().all(|k| mine.contains(k))
            };
            Ok(Value::Bool(r))
        }
        B::SetCopy | B::FrozensetCopy => sp.copy_of(id),
        B::SetClear => {
            if let Object::Set(d) = sp.heap.get_mut(id) {
                d.clear();
            }
            Ok(Value::None)
        }
        B::SetDunderLen => Ok(Value::Int(keys(sp).len() as i64)),
        B::SetDunderContains => {
            a.arity(sp, 1, 1)?;
            let r = sp.contains(this, a.args[0])?;
            Ok(Value::Bool(r))
        }
        _ => Err(sp.unsupported(format!("set.{meth} is not modelled"))),
    }
}
