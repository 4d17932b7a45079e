//! Interned names for the Void constants of low-level operations (field names of
//! `getfield`/`setfield`, interior paths): a `Sym` is a small copyable id, so low-level
//! constants stay `Copy` like the rest of the flow model's values.

use crate::fasthash::HashMap;
use std::sync::{Mutex, OnceLock};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);

struct Table {
    names: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Mutex::new(Table {
            names: Vec::new(),
            ids: HashMap::default(),
        })
    })
}

impl Sym {
    /// The symbol of `name`. Names are field and attribute names of the program: there are
    /// few distinct ones, so they are kept for the life of the process.
    pub fn new(name: &str) -> Sym {
        let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&i) = t.ids.get(name) {
            return Sym(i);
        }
        let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let i = t.names.len() as u32;
        t.names.push(leaked);
        t.ids.insert(leaked, i);
        Sym(i)
    }
    pub fn as_str(self) -> &'static str {
        let t = table().lock().unwrap_or_else(|e| e.into_inner());
        t.names[self.0 as usize]
    }
}

impl std::fmt::Display for Sym {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
