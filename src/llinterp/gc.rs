//! The LLInterpreter's model of the collector, for weak references: `rgc.collect()`
//! (`gc__collect`) finds the objects reachable from the roots and sets every weak
//! reference to another object to NULL, as the compiled program's GC does when it frees
//! that object. Objects are never freed here (the heap only grows); only what the program
//! can observe, its weak references, changes.
//!
//! The roots are those of the compiled program's shadow stack: the prebuilt constants,
//! and in every active frame the GC pointers that are *live* at its current operation
//! (read by a later operation of the block, its switch or its exits). A frame's other
//! slots hold values of earlier blocks or dead temporaries, which a real GC does not see
//! either. Frames are on the Rust stack, so a call pushes its frame's live pointers on
//! `gc_roots` (only in programs that have weak references) and pops them on return.

use super::LlInterpreter;
use crate::flowspace::{BlockId, FunctionGraph};
use crate::lltypesystem::heap::Items;
use crate::lltypesystem::{LlPtr, LlTypes, LlValue};

/// For each operation of block `b`: the slots of the GC pointers live after it, for the
/// calls and collections (empty for the other operations).
pub(super) fn live_gc_slots(graph: &FunctionGraph, b: BlockId, types: &LlTypes) -> Vec<Box<[u32]>> {
    let block = graph.block(b);
    graph
        .live_after_ops(b)
        .into_iter()
        .zip(&block.operations)
        .map(|(live, op)| {
            if !collects(op) {
                return Box::default();
            }
            live.iter()
                .filter(|v| types.is_gc_ptr(graph.concretetype[v.0 as usize]))
                .map(|v| v.0)
                .collect()
        })
        .collect()
}

/// Whether a collection may happen during the operation (a call, or `gc__collect`).
fn collects(op: &crate::flowspace::SpaceOperation) -> bool {
    use crate::lltypesystem::LlOp;
    matches!(
        op.opname,
        crate::interpreter::Op::Ll(LlOp::DirectCall | LlOp::IndirectCall | LlOp::GcCollect)
    )
}

impl LlInterpreter<'_> {
    /// Pushes the values of `slots` of `frame` as roots; returns the mark to pop to.
    pub(super) fn push_roots(&mut self, slots: &[u32], frame: &[LlValue]) -> usize {
        let mark = self.gc_roots.len();
        self.gc_roots
            .extend(slots.iter().map(|&s| frame[s as usize]));
        mark
    }

    /// `gc__collect`: the weak references to objects unreachable from the roots (the
    /// pushed frames' and `live`, the current frame's live pointers) become NULL.
    pub(super) fn collect(&mut self, live: &[u32], frame: &[LlValue]) {
        let Some(weakref) = self.prog.weakref else {
            return;
        };
        let n = self.heap.containers.len();
        let mut marked = vec![false; n];
        let mut grey: Vec<u32> = Vec::new();
        let mut mark = |v: LlValue, grey: &mut Vec<u32>| {
            if let LlValue::Ptr(LlPtr::Obj { obj, .. }) = v {
                if let Some(m) = marked.get_mut(obj as usize) {
                    if !*m {
                        *m = true;
                        grey.push(obj);
                    }
                }
            }
        };
        // the prebuilt constants (static data of the compiled program)
        for i in 0..self.prog.heap.containers.len().min(n) {
            mark(
                LlValue::Ptr(LlPtr::Obj {
                    obj: i as u32,
                    inner: false,
                }),
                &mut grey,
            );
        }
        for &v in &self.gc_roots {
            mark(v, &mut grey);
        }
        for &s in live {
            mark(frame[s as usize], &mut grey);
        }
        while let Some(o) = grey.pop() {
            let c = &self.heap.containers[o as usize];
            if c.ty == weakref {
                // its referent is not a strong reference
                continue;
            }
            for &f in &c.fields {
                mark(f, &mut grey);
            }
            if let Items::Values(items) = &c.items {
                for &x in items {
                    mark(x, &mut grey);
                }
            }
        }
        for c in self.heap.containers.iter_mut().filter(|c| c.ty == weakref) {
            if let Some(LlValue::Ptr(LlPtr::Obj { obj, .. })) = c.fields.first().copied() {
                if !marked[obj as usize] {
                    c.fields[0] = LlValue::Ptr(LlPtr::Null);
                }
            }
        }
    }
}
