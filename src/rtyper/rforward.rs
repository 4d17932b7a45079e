//! Reprs of lists and dicts whose items hold their own type (a dict whose values are
//! tuples of the dict's own type, as an environment that keeps the environment it was
//! copied from). The reference keys list and dict Reprs by their definition and lays out
//! their structures lazily, so such types translate; Reprs here are structural, so the
//! second visit of a definition while its items' Reprs are computed gets a forward Repr:
//! a Repr id and an empty structure, filled in once the items' Reprs are known.
//! Takes the definition's item; gives the Repr id every visit shares.

use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::ItemId;
use crate::lltypesystem::lltype::Field;
use crate::lltypesystem::LlType;
use std::collections::HashMap;

/// The definitions whose Reprs are being computed, by item, with the forward Repr (and
/// its structure or array) a visit from inside their own items made.
#[derive(Default)]
pub(super) struct ForwardReprs {
    in_progress: HashMap<ItemId, Option<(ReprId, LlType)>>,
}

impl RTyper<'_> {
    /// The Repr of a list or dict definition (`item` identifies it: the list's item, the
    /// dict's value), whose items' Reprs `items` computes; `make` builds the Repr from
    /// them. A `fixed` list is its bare array.
    pub(super) fn container_repr<T>(
        &mut self,
        item: ItemId,
        name: &'static str,
        fixed: bool,
        items: impl FnOnce(&mut Self) -> Result<T, TyperError>,
        make: impl FnOnce(T) -> Repr,
    ) -> Result<ReprId, TyperError> {
        if let Some(slot) = self.forward.in_progress.get(&item).copied() {
            if let Some((id, _)) = slot {
                return Ok(id);
            }
            // a fixed-size list is its array; the others are structures
            let s = if fixed {
                self.types.forward_gc_array()
            } else {
                self.types.new_struct(name, true, Vec::new())
            };
            let p = self.types.ptr(s);
            // outside the cache until its Repr is known
            let id = ReprId(self.reprs.len() as u32);
            self.reprs.push((Repr::Void, p));
            self.forward.in_progress.insert(item, Some((id, s)));
            return Ok(id);
        }
        self.forward.in_progress.insert(item, None);
        let computed = items(self);
        let slot = self.forward.in_progress.remove(&item).flatten();
        let repr = make(computed?);
        let Some((id, s)) = slot else {
            return Ok(self.intern_repr(repr));
        };
        // the items hold this very Repr: its structure is completed in place
        if let Repr::List { item, fixed: true } = repr {
            let item_ty = self.lltype(item);
            self.types.set_array_item(s, item_ty);
        } else {
            let (_, fields) = self.container_struct(&repr);
            self.types.set_fields(s, fields);
        }
        self.reprs[id.0 as usize].0 = repr.clone();
        self.repr_cache.insert(repr, id);
        Ok(id)
    }

    /// The name and fields of the structure of a resizable list or a dict (`ll_list`,
    /// `ll_dict`: the items' array is allocated apart).
    pub(super) fn container_struct(&mut self, repr: &Repr) -> (&'static str, Vec<Field>) {
        match repr {
            Repr::List { item, .. } => {
                let item_ty = self.lltype(*item);
                let arr = self.types.gc_array(item_ty);
                let arr_ptr = self.types.ptr(arr);
                (
                    "list",
                    vec![("length".into(), LlType::SIGNED), ("items".into(), arr_ptr)],
                )
            }
            Repr::Dict { key, value, custom } => {
                let (kt, vt) = (self.lltype(*key), self.lltype(*value));
                let fns: Vec<Field> = match custom {
                    Some((eq, hash)) => self.r_dict_fields(*eq, *hash),
                    None => Vec::new(),
                };
                let mut entry_fields: Vec<Field> = vec![
                    ("key".into(), kt),
                    ("value".into(), vt),
                    ("live".into(), LlType::BOOL),
                ];
                if custom.is_some() {
                    // an r_dict keeps its keys' hashes (see ll_dict.py)
                    entry_fields.push(("hash".into(), LlType::SIGNED));
                }
                let entry = self.types.new_struct("dictentry", false, entry_fields);
                let entries = self.types.gc_array(entry);
                let entries_ptr = self.types.ptr(entries);
                let index_arr = self.types.gc_array(LlType::SIGNED);
                let index_ptr = self.types.ptr(index_arr);
                let fields = vec![
                    ("num_live".into(), LlType::SIGNED),
                    ("num_used".into(), LlType::SIGNED),
                    // what may be added before the index is rebuilt (see ll_dict.py)
                    ("resize_counter".into(), LlType::SIGNED),
                    ("entries".into(), entries_ptr),
                    // the hash index (NULL until the first operation)
                    ("indexes".into(), index_ptr),
                ]
                .into_iter()
                .chain(fns)
                .collect();
                ("dict", fields)
            }
            _ => unreachable!("container_struct of {:?}", repr),
        }
    }
}
