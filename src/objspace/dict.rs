//! Operations on the heap's insertion-ordered [`Dict`] (dicts and sets).

use super::object::{Dict, HashKey, Value};

/// Dict operations used by the object space (a trait, so other stages can add their own helpers).
pub trait DictOps {
    fn lookup(&self, key: &HashKey) -> Option<Value>;
    fn contains_key(&self, key: &HashKey) -> bool;
    fn insert(&mut self, hk: HashKey, key: Value, value: Value);
    fn remove_key(&mut self, hk: &HashKey) -> Option<(Value, Value)>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool;
    fn clear(&mut self);
    fn keys(&self) -> Vec<Value>;
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
            self.index.insert(hk, self.entries.len());
            self.entries.push((key, value));
        }
    }

    fn remove_key(&mut self, hk: &HashKey) -> Option<(Value, Value)> {
        let i = self.index.remove(hk)?;
        let entry = self.entries.remove(i);
        for v in self.index.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
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
    }

    fn keys(&self) -> Vec<Value> {
        self.entries.iter().map(|e| e.0).collect()
    }
}
