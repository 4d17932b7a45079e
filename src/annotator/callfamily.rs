//! Call families: the set of callables one PBC holds (a method and its overrides), shared by
//! every call site that calls that set. Takes the member graphs and the argument
//! annotations already pushed into them; gives, per family, the union of the members'
//! results, computed once per change of a member's result instead of once per call site.
//!
//! Why: in a VM-shaped program every `w_obj.method()` calls a family as large as the class
//! hierarchy, from call sites whose number grows with the program too. Binding the
//! arguments of every member at every call site, each time the site is re-flowed, is
//! quadratic to cubic. Pushing the same arguments into a member twice is a no-op (bindings
//! only grow), so a call site whose arguments the family has already seen only needs the
//! family's result, and only needs re-flowing when that result changes.

use super::call::ArgsS;
use super::model::{DescId, Position, SomeValue};
use crate::fasthash::{HashMap, HashSet};
use std::rc::Rc;

/// Call positions, in the order they were first seen, without duplicates.
#[derive(Clone, Debug, Default)]
pub struct Callers {
    order: Vec<Position>,
    set: HashSet<Position>,
}

impl Callers {
    /// Adds `p`; false when it was already there.
    pub fn insert(&mut self, p: Position) -> bool {
        if self.set.insert(p) {
            self.order.push(p);
            true
        } else {
            false
        }
    }
    /// Removes `p`; false when it was not there.
    pub fn remove(&mut self, p: Position) -> bool {
        if self.set.remove(&p) {
            self.order.retain(|&q| q != p);
            true
        } else {
            false
        }
    }
    pub fn contains(&self, p: Position) -> bool {
        self.set.contains(&p)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Position> {
        self.order.iter()
    }
    pub fn to_vec(&self) -> Vec<Position> {
        self.order.clone()
    }
}

/// One family: its members' graphs (in the order of the PBC's descriptions), the argument
/// annotations already pushed into all of them, the union of their results, and the call
/// sites that took that union from the cache.
pub struct Family {
    pub graphs: Rc<[u32]>,
    pub seen_args: Vec<ArgsS>,
    /// `None` when a member's result changed since it was computed.
    pub result: Option<SomeValue>,
    pub callers: Callers,
}

/// The registry of call families.
#[derive(Default)]
pub struct CallFamilies {
    by_descs: HashMap<Rc<[DescId]>, u32>,
    /// The same, by the address of a set (each entry keeps its `Rc` alive).
    by_ptr: HashMap<usize, (Rc<[DescId]>, u32)>,
    pub families: Vec<Family>,
    /// Graph → the families it is a member of.
    of_graph: HashMap<u32, Vec<u32>>,
    /// Description sets known not to be cacheable (specialized, generators, …).
    uncacheable: HashSet<Rc<[DescId]>>,
}

/// How many different argument annotations a family remembers: call sites of one family
/// nearly always pass the same annotations; beyond that the normal path runs.
const MAX_SEEN_ARGS: usize = 8;

impl CallFamilies {
    /// The family of `descs`: by the identity of the shared set first (the union and the
    /// attribute memos hand out the same `Rc` again), by its contents otherwise.
    pub fn lookup(&mut self, descs: &Rc<[DescId]>) -> Option<u32> {
        let ptr = Rc::as_ptr(descs) as *const DescId as usize;
        if let Some((_, f)) = self.by_ptr.get(&ptr) {
            return Some(*f);
        }
        let f = self.by_descs.get(&descs[..]).copied()?;
        if self.by_ptr.len() >= 1 << 16 {
            self.by_ptr.clear();
        }
        self.by_ptr.insert(ptr, (descs.clone(), f));
        Some(f)
    }
    pub fn is_uncacheable(&self, descs: &[DescId]) -> bool {
        self.uncacheable.contains(descs)
    }
    pub fn mark_uncacheable(&mut self, descs: &Rc<[DescId]>) {
        self.uncacheable.insert(descs.clone());
    }

    /// The family of `descs`, whose members are `graphs`, created if needed.
    pub fn family(&mut self, descs: &Rc<[DescId]>, graphs: &[u32]) -> u32 {
        if let Some(f) = self.lookup(descs) {
            return f;
        }
        let f = self.families.len() as u32;
        self.families.push(Family {
            graphs: graphs.into(),
            seen_args: Vec::new(),
            result: None,
            callers: Callers::default(),
        });
        self.by_descs.insert(descs.clone(), f);
        for &g in graphs {
            self.of_graph.entry(g).or_default().push(f);
        }
        f
    }

    /// Remembers that `args` were pushed into every member of `f`.
    pub fn add_seen(&mut self, f: u32, args: &ArgsS) {
        let fam = &mut self.families[f as usize];
        if fam.seen_args.len() >= MAX_SEEN_ARGS {
            fam.seen_args.remove(0);
        }
        fam.seen_args.push(args.clone());
    }

    /// The families graph `g` belongs to.
    pub fn of_graph(&self, g: u32) -> &[u32] {
        self.of_graph.get(&g).map(|v| &v[..]).unwrap_or(&[])
    }
}
