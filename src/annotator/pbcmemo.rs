//! Memos of pure functions of PBC description sets, keyed by the identity of the shared
//! `Rc<[DescId]>` (each key keeps its `Rc` alive, so an address is never reused while it is
//! a key). Takes the sets the union and the instance-attribute filter see; gives back the
//! set they computed before, so that re-flowing a call site on a family of thousands of
//! methods costs a lookup instead of a pass over the family.
//!
//! Both functions memoized depend only on the descriptions' contents and on the class
//! hierarchy between existing class definitions, neither of which changes.

use super::model::{ClassDefId, DescId, SomeValue};
use crate::fasthash::HashMap;
use std::rc::Rc;

/// Sets shorter than this are cheap to recompute: not memoized.
pub const MIN_LEN: usize = 8;
/// Entries kept before the memo is cleared (it only saves time, never changes a result).
const MAX_ENTRIES: usize = 1 << 16;

fn key(d: &Rc<[DescId]>) -> usize {
    Rc::as_ptr(d) as *const DescId as usize
}

/// A set kept alive while its address is a key.
type Set = Rc<[DescId]>;

#[derive(Default)]
pub struct PbcMemo {
    /// (set, set) → their union's set (`simplify_methods` included).
    unions: HashMap<(usize, usize), [Set; 3]>,
    /// (class, set, can be None) → the attribute as seen on an instance of the class.
    filters: HashMap<(ClassDefId, usize, bool), (Set, SomeValue)>,
    /// set → its unbound methods by the class defining them (`lookup_filter`).
    origins: HashMap<usize, (Rc<[DescId]>, OriginIndex)>,
}

/// The positions in a set of its unbound methods, by origin class, and of the rest.
#[derive(Default)]
pub struct OriginIndex {
    pub by_origin: HashMap<ClassDefId, Vec<usize>>,
    pub others: Vec<usize>,
}

impl PbcMemo {
    pub fn union(&self, a: &Rc<[DescId]>, b: &Rc<[DescId]>) -> Option<Rc<[DescId]>> {
        if a.len() < MIN_LEN && b.len() < MIN_LEN {
            return None;
        }
        self.unions.get(&(key(a), key(b))).map(|e| e[2].clone())
    }
    pub fn set_union(&mut self, a: &Rc<[DescId]>, b: &Rc<[DescId]>, r: &Rc<[DescId]>) {
        if a.len() < MIN_LEN && b.len() < MIN_LEN {
            return;
        }
        if self.unions.len() >= MAX_ENTRIES {
            self.unions.clear();
        }
        self.unions
            .insert((key(a), key(b)), [a.clone(), b.clone(), r.clone()]);
    }
    pub fn filter(&self, cd: ClassDefId, d: &Rc<[DescId]>, none: bool) -> Option<SomeValue> {
        if d.len() < MIN_LEN {
            return None;
        }
        self.filters.get(&(cd, key(d), none)).map(|e| e.1.clone())
    }
    pub fn set_filter(&mut self, cd: ClassDefId, d: &Rc<[DescId]>, none: bool, r: &SomeValue) {
        if d.len() < MIN_LEN {
            return;
        }
        if self.filters.len() >= MAX_ENTRIES {
            self.filters.clear();
        }
        self.filters
            .insert((cd, key(d), none), (d.clone(), r.clone()));
    }
    pub fn origin_index(&self, d: &Rc<[DescId]>) -> Option<&OriginIndex> {
        self.origins.get(&key(d)).map(|e| &e.1)
    }
    pub fn set_origin_index(&mut self, d: &Rc<[DescId]>, index: OriginIndex) {
        if self.origins.len() >= MAX_ENTRIES {
            self.origins.clear();
        }
        self.origins.insert(key(d), (d.clone(), index));
    }
}
