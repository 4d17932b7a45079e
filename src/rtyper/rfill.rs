//! Lists a loop fills with one `append` per pass (`annotator::fill_loops::exact_fill_loops`),
//! preallocated as the reference's RTyper does after its `detect_list_comprehension`: at the
//! loop's `iter` the list gets room for exactly the iterable's length (`ll_set_maxlength`),
//! so its `append`s (the plain `ll_append`) find room without growing it, and at the loop's normal
//! end a list never resized afterwards becomes the preallocated array itself
//! (`ll_list2fixed_exact`): when the loop shrank the list it iterates, the result keeps
//! the starting length, zeros after the items appended.
//!
//! The reference does this only when the iterable is annotated as a list, a dict or a
//! string (its `maxlength` hint), and makes the exact array only on the exits where the
//! iterator is exhausted; a loop left by `break` copies the items appended.

use super::hop::LlOps;
use super::rmodel::Repr;
use super::{RTyper, TyperError, VarMap};
use crate::annotator::fill_loops::{exact_fill_loops, names};
use crate::annotator::model::SomeValue;
use crate::flowspace::{BlockId, Hlvalue, LinkId};
use crate::lltypesystem::LlType;
use crate::objspace::object::Value;

impl RTyper<'_> {
    /// Finds the preallocated fill loops of graph `g` before it is translated.
    pub(super) fn plan_fills(&mut self, g: u32) {
        self.fills.clear();
        if g as usize >= self.program_graphs {
            return;
        }
        let heap = self.objheap;
        let is_str = |v: Value, s: &str| names(heap, v, s);
        let hl = &self.ann.graphs[g as usize];
        let found = exact_fill_loops(hl, &is_str);
        for f in found {
            // a `range()` list only iterated is never built (`lazy_ranges`) and cannot
            // change length: left to the plain append
            let s = self.annotation(g, f.iterable);
            let preallocated = match &s {
                SomeValue::List { .. } => self.range_list_step(&s).is_none(),
                SomeValue::Dict { .. } | SomeValue::Str { .. } | SomeValue::Char { .. } => true,
                _ => false,
            };
            if preallocated {
                self.fills.push(f);
            }
        }
    }

    /// At the end of block `b`, when it holds a fill loop's `iter`: the list gets room for
    /// the iterable's length.
    pub(super) fn fill_prealloc(
        &mut self,
        g: u32,
        b: BlockId,
        llops: &mut LlOps,
        vmap: &VarMap,
    ) -> Result<(), TyperError> {
        let hl = &self.ann.graphs[g as usize];
        let todo: Vec<(Hlvalue, Hlvalue)> = self
            .fills
            .iter()
            .filter(|f| f.iter_block == b)
            .map(|f| {
                let link = hl.link(hl.block(b).exits[0]);
                (f.iterable, link.args[f.iter_link_arg])
            })
            .collect();
        for (iterable, list) in todo {
            let (lv, lr) = self.value_of(g, list, vmap)?;
            if !matches!(self.repr(lr), Repr::List { fixed: false, .. }) {
                continue;
            }
            let (iv, ir) = self.value_of(g, iterable, vmap)?;
            let Some(n) = self.len_of(llops, iv, ir) else {
                continue;
            };
            self.gendirectcall(llops, "ll_set_maxlength", vec![lv, n], LlType::VOID)?;
        }
        Ok(())
    }

    /// On link `l` of graph `g`, when it leaves a fill loop whose iterator is exhausted and
    /// the list is never resized afterwards: the list takes its preallocated length.
    pub(super) fn fill_exact_on_link(
        &mut self,
        g: u32,
        l: LinkId,
        conv: &mut LlOps,
        vmap: &VarMap,
    ) -> Result<(), TyperError> {
        let hl = &self.ann.graphs[g as usize];
        let lists: Vec<Hlvalue> = self
            .fills
            .iter()
            .flat_map(|f| f.stop_links.iter())
            .filter(|&&(sl, _)| sl == l)
            .map(|&(_, k)| hl.link(l).args[k])
            .collect();
        for list in lists {
            let SomeValue::List { def, .. } = self.annotation(g, list) else {
                continue;
            };
            let bk = &self.ann.bookkeeper;
            if bk.item(bk.list_item(def)).resized_outside_fill {
                continue;
            }
            let (lv, lr) = self.value_of(g, list, vmap)?;
            if matches!(self.repr(lr), Repr::List { fixed: false, .. }) {
                self.gendirectcall(conv, "ll_fill_exact", vec![lv], LlType::VOID)?;
            }
        }
        Ok(())
    }
}
