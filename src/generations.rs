//! What a long-lived thread keeps from one analysis to the next (the language server's
//! engine thread: compiled modules, `compiler::cache`; flow graphs, `engine::flowcache`):
//! entries by key, each marked with the last analysis (generation) that used it. Starting an
//! analysis drops the entries the previous one did not use, so what is kept stays the size
//! of one program.

use crate::fasthash::HashMap;
use std::hash::Hash;

pub struct Generations<K, V> {
    entries: HashMap<K, (V, u64)>,
    generation: u64,
}

impl<K, V> Default for Generations<K, V> {
    fn default() -> Self {
        Generations {
            entries: HashMap::default(),
            generation: 0,
        }
    }
}

impl<K: Eq + Hash, V> Generations<K, V> {
    /// Starts a new analysis: forgets what the previous one did not use.
    pub fn new_generation(&mut self) {
        let last = self.generation;
        self.entries.retain(|_, (_, g)| *g >= last);
        self.generation += 1;
    }

    /// The entry of `key`, marked as used by this analysis.
    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        let generation = self.generation;
        let (v, g) = self.entries.get_mut(key)?;
        *g = generation;
        Some(v)
    }

    /// Takes the entry of `key` out (to be inserted again if it is to stay).
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.entries.remove(key).map(|(v, _)| v)
    }

    /// Keeps `value` for `key`, as used by this analysis.
    pub fn insert(&mut self, key: K, value: V) {
        self.entries.insert(key, (value, self.generation));
    }
}
