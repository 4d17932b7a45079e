//! Copies, merges and set algebra of heap dicts and sets, done the way CPython 2.7 does
//! them (`PyDict_Merge`, `set_update_internal`, `set_intersection`…): which entries are
//! visited in which order, and when the result's table is presized, decide the order
//! import-time code later iterates over the result in (`pydict_order`).

use super::dict::DictOps;
use super::object::{Dict, HashKey, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::interpreter::Op;

impl ObjSpace {
    /// The entries of a heap dict or set in CPython's order, with their hash keys.
    pub(crate) fn py_items_of(&self, v: Value) -> Option<Vec<(HashKey, Value, Value)>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Dict(d) | Object::Set(d) => Some(d.py_items()),
                _ => None,
            },
            _ => None,
        }
    }

    /// A copy of a dict or set (`dict.copy()`, `set(s)`): a new table that the entries
    /// are merged into, without the source's deleted slots.
    pub(crate) fn copy_container(&self, id: ObjId) -> Dict {
        let mut d = Dict::default();
        if let Some(items) = self.py_items_of(Value::Obj(id)) {
            if matches!(self.heap.get(id), Object::Dict(src) | Object::Set(src) if !src.table.is_known())
            {
                d.keep_insertion_order();
            }
            d.merge(items, true);
        }
        d
    }

    /// `set_update_internal`: adds the items of `other` to the set `target`: a set's
    /// are merged, a dict's keys added after one presizing, another iterable's one by
    /// one.
    pub(crate) fn set_update_from(&mut self, target: Value, other: Value) -> R<()> {
        let Value::Obj(tid) = target else {
            return Ok(());
        };
        if let Value::Obj(oid) = other {
            match self.heap.get(oid) {
                Object::Set(o) | Object::Dict(o) => {
                    // a dict's keys are added after the same presizing as a set's items
                    let items = (o.py_items().into_iter())
                        .map(|(hk, k, _)| (hk, k, Value::None))
                        .collect();
                    if matches!(self.heap.get(tid), Object::Set(_)) {
                        self.merge_entries(tid, items, false)?;
                    }
                    return Ok(());
                }
                _ => {}
            }
        }
        for x in self.iterate(other)? {
            self.set_add(target, x)?;
        }
        Ok(())
    }

    /// `set_intersection`: with another set, the smaller one's items (in its order) that
    /// the larger one holds; with another iterable, its items the set holds.
    pub(crate) fn set_intersection_of(&mut self, a: ObjId, other: Value) -> R<Dict> {
        let mut out = Dict::default();
        let other_set = match other {
            Value::Obj(o) if matches!(self.heap.get(o), Object::Set(_)) => Some(o),
            _ => None,
        };
        let (walk, probe): (Vec<(HashKey, Value)>, ObjId) = match other_set {
            Some(o) => {
                let (small, large) = if self.container_len(o) > self.container_len(a) {
                    (a, o)
                } else {
                    (o, a)
                };
                let items = self.py_items_of(Value::Obj(small)).unwrap_or_default();
                (items.into_iter().map(|(h, k, _)| (h, k)).collect(), large)
            }
            None => {
                let mut items = Vec::new();
                for x in self.iterate(other)? {
                    items.push((self.key_of(x)?, x));
                }
                (items, a)
            }
        };
        for (hk, k) in walk {
            let hk = self.find_hashed_key(probe, k, hk)?;
            let found = matches!(self.heap.get(probe), Object::Set(s) if s.contains_key(&hk));
            if found {
                out.insert(hk, k, Value::None);
            }
        }
        Ok(out)
    }

    /// `set_difference`: with a set or a dict, the set's items (in its order) the other
    /// lacks, added to a new set; with another iterable, a copy from which its items are
    /// discarded, resized when a fifth of its slots are then dummies.
    pub(crate) fn set_difference_of(&mut self, a: ObjId, other: Value) -> R<Dict> {
        let other_map = match other {
            Value::Obj(o) if matches!(self.heap.get(o), Object::Set(_) | Object::Dict(_)) => {
                Some(o)
            }
            _ => None,
        };
        if let Some(o) = other_map {
            let mut out = Dict::default();
            for (hk, k, _) in self.py_items_of(Value::Obj(a)).unwrap_or_default() {
                let hk = self.find_hashed_key(o, k, hk)?;
                let found = matches!(self.heap.get(o), Object::Set(s) | Object::Dict(s) if s.contains_key(&hk));
                if !found {
                    out.insert(hk, k, Value::None);
                }
            }
            return Ok(out);
        }
        let copy = self.copy_of(a)?;
        self.set_difference_update(copy, other)?;
        let Value::Obj(cid) = copy else {
            unreachable!("alloc gives an object")
        };
        Ok(match self.heap.get_mut(cid) {
            Object::Set(d) => std::mem::take(d),
            _ => Dict::default(),
        })
    }

    /// `set_difference_update_internal` (`s -= t`): discards the items of `other` (in
    /// its order) from the set `target`, whose table is then rebuilt when at least a
    /// fifth of it is deleted slots.
    pub(crate) fn set_difference_update(&mut self, target: Value, other: Value) -> R<()> {
        let Value::Obj(tid) = target else {
            return Ok(());
        };
        let keys: Vec<HashKey> = match self.py_items_of(other) {
            Some(items) => items.into_iter().map(|(h, _, _)| h).collect(),
            None => {
                let mut keys = Vec::new();
                for x in self.iterate(other)? {
                    keys.push(self.key_of(x)?);
                }
                keys
            }
        };
        if let Object::Set(t) = self.heap.get_mut(tid) {
            for hk in keys {
                t.remove_key(&hk);
            }
            if let Some((used, fill, size)) = t.table.counts() {
                if (fill - used) * 5 >= size - 1 {
                    t.presize(if used > 50000 { used * 2 } else { used * 4 });
                }
            }
        }
        Ok(())
    }

    /// `set_symmetric_difference_update` (`s ^= t`): each item of `other` (in its order)
    /// is discarded from the set `target`, or added when it was not there.
    pub(crate) fn set_symmetric_difference_update(&mut self, target: Value, other: Value) -> R<()> {
        let Value::Obj(tid) = target else {
            return Ok(());
        };
        let items = match self.py_items_of(other) {
            Some(items) => items,
            None => {
                let tmp = self.alloc(Object::Set(Dict::default()));
                self.set_update_from(tmp, other)?;
                self.py_items_of(tmp).unwrap_or_default()
            }
        };
        if let Object::Set(t) = self.heap.get_mut(tid) {
            for (hk, k, _) in items {
                if t.remove_key(&hk).is_none() {
                    t.insert(hk, k, Value::None);
                }
            }
        }
        Ok(())
    }

    /// `s op= t` of two sets, in place as CPython does it (`set_ior`, `set_isub`,
    /// `set_iand`, `set_ixor`); `None` when `op` has no in-place set form.
    pub(crate) fn set_inplace(&mut self, op: Op, a: ObjId, b: Value) -> R<Option<Value>> {
        let target = Value::Obj(a);
        match op {
            Op::InplaceOr => self.set_update_from(target, b)?,
            Op::InplaceSub => self.set_difference_update(target, b)?,
            Op::InplaceXor => self.set_symmetric_difference_update(target, b)?,
            Op::InplaceAnd => {
                // the intersection is made as a new set whose body then replaces the set's
                let body = self.set_intersection_of(a, b)?;
                if let Object::Set(t) = self.heap.get_mut(a) {
                    *t = body;
                }
            }
            _ => return Ok(None),
        }
        Ok(Some(target))
    }

    /// `set_symmetric_difference`: a copy of `other` as a set, from which each item of
    /// the set (in its order) is discarded, or added when it was not there.
    pub(crate) fn set_symmetric_difference_of(&mut self, a: ObjId, other: Value) -> R<Dict> {
        let tmp = self.alloc(Object::Set(Dict::default()));
        self.set_update_from(tmp, other)?;
        let Value::Obj(tid) = tmp else {
            unreachable!("alloc gives an object")
        };
        let items = self.py_items_of(Value::Obj(a)).unwrap_or_default();
        let Object::Set(out) = self.heap.get_mut(tid) else {
            unreachable!("a set was made")
        };
        let mut out = std::mem::take(out);
        for (hk, k, _) in items {
            if out.remove_key(&hk).is_none() {
                out.insert(hk, k, Value::None);
            }
        }
        Ok(out)
    }

    fn container_len(&self, id: ObjId) -> usize {
        match self.heap.get(id) {
            Object::Set(d) | Object::Dict(d) => d.len(),
            _ => 0,
        }
    }
}
