//! Vtable rows of specialized methods. A method whose graphs are specialized on an
//! argument (`@specialize.arg(1)`: one graph per function passed) has, in each class, one
//! graph per specialization key; a call through the vtable must reach the graph of its
//! own key. As the reference gives each row of such a call family its own vtable entry,
//! each key gets a slot of its own (`<name>__row<i>`) beside the method's plain slot.

use super::RTyper;
use crate::annotator::classdef::ClassAttr;
use crate::annotator::description::{Desc, KeyPart, SpecKey};
use crate::annotator::model::ClassDefId;
use std::rc::Rc;

/// The slot of row `i` of method `name`.
pub(super) fn row_slot_name(name: &str, i: usize) -> Rc<str> {
    Rc::from(format!("{}__row{}", name, i))
}

impl RTyper<'_> {
    /// The graphs of method `name` in class `cd` (its own or inherited), by key.
    fn method_graphs_by_key(&self, cd: ClassDefId, name: &str) -> Vec<(SpecKey, u32)> {
        let bk = &self.ann.bookkeeper;
        let d = match self.lookup_class_attr(cd, name) {
            Some(ClassAttr::Desc(d)) => d,
            // a function of the class dict: its description
            Some(ClassAttr::Const(crate::objspace::object::Value::Obj(f))) => {
                match bk.desc_of_obj.get(&f) {
                    Some(&d) => d,
                    None => return Vec::new(),
                }
            }
            _ => return Vec::new(),
        };
        let f = match bk.desc(d) {
            Desc::Method(m) => m.func,
            _ => d,
        };
        match bk.desc(f) {
            // the number of `*args` is the call shape's, not a row's: at one call site a
            // plain method and a `*args` override of it are in the same row
            Desc::Function(fd) => fd
                .graphs
                .iter()
                .map(|(k, g)| {
                    let key = k
                        .iter()
                        .filter(|p| !matches!(p, KeyPart::Star(_)))
                        .cloned()
                        .collect();
                    (key, *g)
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The rows of method `name` over the classes under `cd`: per specialization key, the
    /// graphs of the classes, ordered by their smallest graph; empty when the method has
    /// one key only (its plain slot serves).
    pub(super) fn method_rows(&self, cd: ClassDefId, name: &str) -> Vec<(SpecKey, Vec<u32>)> {
        let mut rows: Vec<(SpecKey, Vec<u32>)> = Vec::new();
        for sub in self.ann.bookkeeper.getallsubdefs(cd) {
            for (k, g) in self.method_graphs_by_key(sub, name) {
                match rows.iter_mut().find(|(rk, _)| *rk == k) {
                    Some((_, gs)) => gs.push(g),
                    None => rows.push((k, vec![g])),
                }
            }
        }
        if rows.len() < 2 {
            return Vec::new();
        }
        for (_, gs) in rows.iter_mut() {
            gs.sort();
            gs.dedup();
        }
        rows.sort_by_key(|(_, gs)| gs[0]);
        rows
    }

    /// The graph of method `name` of class `cd` in the row of key `key`.
    pub(super) fn method_graph_in_row(
        &self,
        cd: ClassDefId,
        name: &str,
        key: &SpecKey,
    ) -> Option<u32> {
        self.method_graphs_by_key(cd, name)
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, g)| g)
    }

    /// The row slot of `owner` whose graphs include `g` (a call's target), if the method
    /// has rows.
    pub(super) fn row_slot_of(&self, owner: ClassDefId, name: &str, g: u32) -> Option<Rc<str>> {
        self.classes
            .rows
            .iter()
            .filter(|((o, _), (m, _))| *o == owner && &**m == name)
            .find(|((_, slot), (_, key))| {
                self.ann
                    .bookkeeper
                    .getallsubdefs(owner)
                    .into_iter()
                    .any(|sub| self.method_graph_in_row(sub, name, key) == Some(g))
                    && !slot.is_empty()
            })
            .map(|((_, slot), _)| slot.clone())
    }
}
