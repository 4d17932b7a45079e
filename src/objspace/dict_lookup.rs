//! Finding a key in an import-time dict or set as CPython 2.7 does when the keys'
//! equality runs user code: keys whose class defines `__hash__` ([`HashKey::Hashed`]) and
//! the entries of an `r_dict` (whose reference is a CPython dict of key wrappers). CPython's
//! `lookdict` walks the key's probe sequence ([`LookWalk`]); at each active slot it takes
//! the very key object without a comparison, and compares with `==` only a key whose hash
//! equals the one looked up, stored key first. How often, and in which order, `__eq__` (or
//! the r_dict's equality) runs is what import-time code can count and freeze into the
//! program. Dicts without such keys keep the exact lookup by hash key.

use super::object::{HashKey, ObjId, Object, Value};
use super::pydict_order::{py_hash, LookStep, LookWalk};
use super::{ObjSpace, R};
use crate::objspace::dict::DictOps;

impl ObjSpace {
    /// The hash key under which the dict or set `id` holds a key equal to `key` (CPython's
    /// `lookdict`, calling `__eq__` as it does), else `key`'s own hash key.
    pub(crate) fn find_key(&mut self, id: ObjId, key: Value) -> R<HashKey> {
        let own = self.key_of(key)?;
        self.find_hashed_key(id, key, own)
    }

    /// `find_key` of a key whose hash key `own` is known (a merge takes the hashes the
    /// source dict stored: no `__hash__` call).
    pub(crate) fn find_hashed_key(&mut self, id: ObjId, key: Value, own: HashKey) -> R<HashKey> {
        let user_keys =
            matches!(self.heap.get(id), Object::Dict(d) | Object::Set(d) if d.user_keys);
        if !own.is_user_hashed() && !user_keys {
            return Ok(own);
        }
        if let Some(h) = py_hash(&own) {
            let mut walk = LookWalk::new(h);
            loop {
                let step = match self.heap.get(id) {
                    Object::Dict(d) | Object::Set(d) => walk.step(&d.table, &own),
                    _ => return Ok(own),
                };
                match step {
                    None => break,
                    Some(LookStep::End) => return Ok(own),
                    Some(LookStep::Same(k)) => return Ok(k),
                    Some(LookStep::Compare(k)) => {
                        // two keys of equal hash that run no user code are unequal (their
                        // hash keys differ)
                        if (k.is_user_hashed() || own.is_user_hashed())
                            && self.stored_key_equals(id, &k, key)?
                        {
                            return Ok(k);
                        }
                    }
                }
            }
        }
        // the table's order is unknown (a key hashed by its address): the keys of equal
        // hash, compared in insertion order
        let h = super::ops::hash_of_key(&own);
        let mut candidates: Vec<(usize, HashKey)> = match self.heap.get(id) {
            Object::Dict(d) | Object::Set(d) => d
                .index
                .iter()
                .filter(|(k, _)| **k == own || super::ops::hash_of_key(k) == h)
                .map(|(k, &i)| (i, k.clone()))
                .collect(),
            _ => return Ok(own),
        };
        candidates.sort_by_key(|c| c.0);
        for (_, k) in candidates {
            if k == own
                || ((k.is_user_hashed() || own.is_user_hashed())
                    && self.stored_key_equals(id, &k, key)?)
            {
                return Ok(k);
            }
        }
        Ok(own)
    }

    /// `PyDict_Merge` / `set_merge` of entries (with their hash keys) into the dict or set
    /// `id`: one presizing, then each inserted without a resize; an existing key keeps its
    /// value unless `replace`. With keys whose equality runs user code, each is looked up
    /// (`insertdict`, calling `__eq__` as CPython does) with the hash its source stored.
    pub(crate) fn merge_entries(
        &mut self,
        id: ObjId,
        items: Vec<(HashKey, Value, Value)>,
        replace: bool,
    ) -> R<()> {
        let user_keys = matches!(self.heap.get(id), Object::Dict(d) | Object::Set(d) if d.user_keys)
            || items.iter().any(|(k, _, _)| k.is_user_hashed());
        if !user_keys {
            if let Object::Dict(d) | Object::Set(d) = self.heap.get_mut(id) {
                d.merge(items, replace);
            }
            return Ok(());
        }
        if let Object::Dict(d) | Object::Set(d) = self.heap.get_mut(id) {
            d.presize_for(items.len());
        }
        for (own, k, v) in items {
            let hk = self.find_hashed_key(id, k, own)?;
            if let Object::Dict(d) | Object::Set(d) = self.heap.get_mut(id) {
                d.insert_unresized(vec![(hk, k, v)], replace);
            }
        }
        Ok(())
    }

    /// A copy of the dict or set `id` (`PyDict_Copy`, `make_new_set`): a merge into a new
    /// one, which with keys whose equality runs user code compares the keys of equal
    /// hash as CPython does.
    pub(crate) fn copy_of(&mut self, id: ObjId) -> R<Value> {
        let (set, user_keys) = match self.heap.get(id) {
            Object::Set(d) => (true, d.user_keys),
            Object::Dict(d) => (false, d.user_keys),
            _ => (false, false),
        };
        let wrap = |d| if set { Object::Set(d) } else { Object::Dict(d) };
        if !user_keys {
            let d = self.copy_container(id);
            return Ok(self.alloc(wrap(d)));
        }
        let items = self.py_items_of(Value::Obj(id)).unwrap_or_default();
        let copy = self.alloc(wrap(super::object::Dict::default()));
        if let Value::Obj(c) = copy {
            self.merge_entries(c, items, true)?;
        }
        Ok(copy)
    }

    /// `PyObject_RichCompareBool(startkey, key, Py_EQ)` of the key stored under `k` and
    /// `key` (the same object is equal without a call).
    fn stored_key_equals(&mut self, id: ObjId, k: &HashKey, key: Value) -> R<bool> {
        let stored = match self.heap.get(id) {
            Object::Dict(d) | Object::Set(d) => d.index.get(k).map(|&i| d.entries[i].0),
            _ => None,
        };
        let Some(stored) = stored else {
            return Ok(false);
        };
        if self.is_same(stored, key) {
            return Ok(true);
        }
        let r = self.compare(crate::interpreter::Op::Eq, stored, key)?;
        self.truth(r)
    }

    /// The number of the entry of an `r_dict` equal to `key`, found as CPython finds its
    /// `_r_dictkey` in the reference's dict: the entries live in the dict `d` under their
    /// numbers, stored with `h`, the CPython hash of what the r_dict's hash function
    /// gave; each entry of equal hash on the walk is compared by calling `key_eq(its key,
    /// key)` (two wrappers are never the same object). -1 when there is none; `None` when
    /// the table's order is unknown.
    pub(crate) fn r_dict_find(
        &mut self,
        d: ObjId,
        h: i64,
        key: Value,
        key_eq: Value,
    ) -> R<Option<i64>> {
        // no entry is numbered -1: the walk never meets the very key
        let probe = HashKey::Int(-1);
        let mut walk = LookWalk::new(h);
        loop {
            let step = match self.heap.get(d) {
                Object::Dict(dict) => walk.step(&dict.table, &probe),
                _ => None,
            };
            let k = match step {
                None => return Ok(None),
                Some(LookStep::End) => return Ok(Some(-1)),
                Some(LookStep::Same(k) | LookStep::Compare(k)) => k,
            };
            let entry = match self.heap.get(d) {
                Object::Dict(dict) => dict.lookup(&k),
                _ => None,
            };
            let stored = match entry {
                Some(Value::Obj(e)) => match self.heap.get(e) {
                    Object::List(l) => l.first().copied(),
                    _ => None,
                },
                _ => None,
            };
            let (Some(stored), HashKey::Int(n)) = (stored, k) else {
                continue;
            };
            let r = self.call(key_eq, vec![stored, key])?;
            if self.truth(r)? {
                return Ok(Some(n as i64));
            }
        }
    }
}
