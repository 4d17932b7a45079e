//! Operations on the heap's [`Dict`] (dicts and sets): each keeps its entries (insertion
//! order, for lookups) and CPython 2.7's table of them (`pydict_order`, for the order
//! import-time code iterates in) in step.

use super::object::{Dict, HashKey, Value};

/// Dict operations used by the object space (a trait, so other stages can add their own helpers).
pub trait DictOps {
    fn lookup(&self, key: &HashKey) -> Option<Value>;
    fn contains_key(&self, key: &HashKey) -> bool;
    /// `d[key] = value` (`PyDict_SetItem`, `set.add`).
    fn insert(&mut self, hk: HashKey, key: Value, value: Value);
    fn remove_key(&mut self, hk: &HashKey) -> Option<(Value, Value)>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool;
    fn clear(&mut self);
    /// The keys in the order CPython iterates over them.
    fn keys(&self) -> Vec<Value>;
    /// `dict.popitem()` / `set.pop()`: the entry CPython removes (the last one inserted
    /// when the order is unknown).
    fn pop_entry(&mut self) -> Option<(Value, Value)>;
    /// `PyDict_Merge` / `set_merge` of the entries of another dict or set, given in its
    /// iteration order: the table is presized once for all of them, then each is inserted
    /// without a resize; an existing key keeps its value unless `replace`.
    fn merge(&mut self, items: Vec<(HashKey, Value, Value)>, replace: bool);
    /// `insertdict` of each entry, without any resize (after an explicit `presize`).
    fn insert_unresized(&mut self, items: Vec<(HashKey, Value, Value)>, replace: bool);
    /// `_PyDict_NewPresized` / `dictresize`: a table sized for `minused` keys.
    fn presize(&mut self, minused: usize);
    /// `PyDict_Merge`'s one resize before it inserts `n` keys (when they could fill the
    /// table to two thirds).
    fn presize_for(&mut self, n: usize);
}

impl Dict {
    /// The entries in the order CPython iterates over them (insertion order when that
    /// order is unknown).
    pub fn py_entries(&self) -> Vec<(Value, Value)> {
        match self.table.order() {
            Some(order) => order
                .into_iter()
                .map(|k| self.entries[self.index[k]])
                .collect(),
            None => self.entries.clone(),
        }
    }

    /// `py_entries` with each key's hash key.
    pub fn py_items(&self) -> Vec<(HashKey, Value, Value)> {
        match self.table.order() {
            Some(order) => order
                .into_iter()
                .map(|k| {
                    let (key, v) = self.entries[self.index[k]];
                    (k.clone(), key, v)
                })
                .collect(),
            None => {
                let mut keys: Vec<Option<&HashKey>> = vec![None; self.entries.len()];
                for (k, &i) in &self.index {
                    keys[i] = Some(k);
                }
                keys.into_iter()
                    .zip(&self.entries)
                    .filter_map(|(k, &(key, v))| Some((k?.clone(), key, v)))
                    .collect()
            }
        }
    }

    /// Gives up CPython's order: iterates in insertion order (an `OrderedDict`).
    pub fn keep_insertion_order(&mut self) {
        self.table.forget();
    }

    /// `d[key] = value` for an `r_dict`'s entry: `hk` tells it apart from every other key
    /// (the entry's number), `hash` is what the program's hash function gave its key
    /// (`None`: not an int, so no order is known).
    pub fn insert_with_hash(&mut self, hash: Option<i64>, hk: HashKey, key: Value, value: Value) {
        if let Some(&i) = self.index.get(&hk) {
            self.entries[i].1 = value;
            return;
        }
        match hash {
            Some(h) => self.table.add_with_hash(h, &hk),
            None => self.table.forget(),
        }
        self.push_entry(hk, key, value);
    }

    /// `del d[key]` of an entry added with `insert_with_hash`.
    pub fn remove_with_hash(&mut self, hash: Option<i64>, hk: &HashKey) -> Option<(Value, Value)> {
        let entry = self.take_entry(hk)?;
        match hash {
            Some(h) => self.table.delete_with_hash(h, hk),
            None => self.table.forget(),
        }
        Some(entry)
    }

    /// Adds a new entry without touching the table.
    fn push_entry(&mut self, hk: HashKey, key: Value, value: Value) {
        self.user_keys |= hk.is_user_hashed();
        self.index.insert(hk, self.entries.len());
        self.entries.push((key, value));
    }

    /// Removes an entry without touching the table.
    fn take_entry(&mut self, hk: &HashKey) -> Option<(Value, Value)> {
        let i = self.index.remove(hk)?;
        let entry = self.entries.remove(i);
        for v in self.index.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
        Some(entry)
    }
}

impl DictOps for Dict {
    fn lookup(&self, key: &HashKey) -> Option<Value> {
        self.index.get(key).map(|&i| self.entries[i].1)
    }

    fn contains_key(&self, key: &HashKey) -> bool {
        self.index.contains_key(key)
    }

    /// Inserts or replaces; the original key object is kept on replacement (as Python).
    fn insert(&mut self, hk: HashKey, key: Value, value: Value) {
        if let Some(&i) = self.index.get(&hk) {
            self.entries[i].1 = value;
        } else {
            self.table.add(&hk);
            self.push_entry(hk, key, value);
        }
    }

    fn remove_key(&mut self, hk: &HashKey) -> Option<(Value, Value)> {
        let entry = self.take_entry(hk)?;
        self.table.delete(hk);
        Some(entry)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.index.clear();
        self.table.clear();
    }

    fn keys(&self) -> Vec<Value> {
        self.py_entries().into_iter().map(|e| e.0).collect()
    }

    fn pop_entry(&mut self) -> Option<(Value, Value)> {
        if self.table.is_known() {
            let hk = self.table.pop()?;
            return self.take_entry(&hk);
        }
        let last = self.entries.len().checked_sub(1)?;
        let hk = self
            .index
            .iter()
            .find(|(_, &i)| i == last)
            .map(|(k, _)| k.clone())?;
        self.take_entry(&hk)
    }

    fn merge(&mut self, items: Vec<(HashKey, Value, Value)>, replace: bool) {
        if items.is_empty() {
            return;
        }
        self.presize_for(items.len());
        self.insert_unresized(items, replace);
    }

    fn presize_for(&mut self, n: usize) {
        if let Some((used, fill, size)) = self.table.counts() {
            if n > 0 && (fill + n) * 3 >= size * 2 {
                self.table.resize((used + n) * 2);
            }
        }
    }

    fn insert_unresized(&mut self, items: Vec<(HashKey, Value, Value)>, replace: bool) {
        for (hk, key, value) in items {
            match self.index.get(&hk) {
                Some(&i) => {
                    if replace {
                        self.entries[i].1 = value;
                    }
                }
                None => {
                    self.table.insert(&hk);
                    self.push_entry(hk, key, value);
                }
            }
        }
    }

    fn presize(&mut self, minused: usize) {
        self.table.resize(minused);
    }
}
