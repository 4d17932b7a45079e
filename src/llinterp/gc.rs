//! The LLInterpreter's collector. In a program with weak references it models what the
//! program can observe: `rgc.collect()` (`gc__collect`) finds the objects reachable from
//! the roots and sets every weak reference to another object to NULL, as the compiled
//! program's GC does when it frees that object; nothing is freed. In a program without
//! weak references nothing about collection is observable, and `auto_collect` frees the
//! unreachable objects so that a long run's memory stays that of what it still uses.
//!
//! The roots are those of the compiled program's shadow stack: the prebuilt constants,
//! and in every active frame the GC pointers that are *live* at its current operation
//! (read by a later operation of the block, its switch or its exits). A frame's other
//! slots hold values of earlier blocks or dead temporaries, which a real GC does not see
//! either. Frames are on the Rust stack, so a call pushes its frame's live pointers on
//! `gc_roots` and pops them on return.

use super::LlInterpreter;
use crate::flowspace::{BlockId, FunctionGraph};
use crate::lltypesystem::heap::Items;
use crate::lltypesystem::{LlPtr, LlType, LlTypes, LlValue};

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
        let marked = self.mark(live.iter().map(|&s| frame[s as usize]), Some(weakref));
        for c in self.heap.containers.iter_mut().filter(|c| c.ty == weakref) {
            if let Some(LlValue::Ptr(LlPtr::Obj { obj, .. })) = c.fields.first().copied() {
                if !marked[obj as usize] {
                    c.fields[0] = LlValue::Ptr(LlPtr::Null);
                }
            }
        }
    }

    /// The collector that keeps `run`'s memory bounded, in programs without weak
    /// references (where nothing can observe it): at the start of a block, once as many
    /// objects were allocated as were alive after the last collection, frees the GC
    /// objects unreachable from the roots. The roots are those of `collect`, with the
    /// whole current `frame` (at a block's start its inputargs are what is live; other
    /// slots hold values of earlier blocks, kept conservatively) and raw memory. Between
    /// blocks every value of the program is in a frame or on the roots of the calls in
    /// progress; runtime functions, which hold pointers in Rust variables, never run a
    /// block.
    pub(super) fn auto_collect(&mut self, frame: &[LlValue]) {
        let marked = self.mark(frame.iter().copied(), None);
        let first = self.prog.heap.containers.len();
        let live = self.heap.sweep(&self.prog.types, &marked, first);
        self.collections += 1;
        self.gc_next = if stress() {
            STRESS_ALLOCATIONS
        } else {
            (live as u64).max(GC_MIN_ALLOCATIONS)
        };
    }

    /// Marks what is reachable from the prebuilt constants, raw memory, the roots of the
    /// calls in progress and `extra`; a `weakref` container's referent is not followed.
    fn mark(&self, extra: impl Iterator<Item = LlValue>, weakref: Option<LlType>) -> Vec<bool> {
        let n = self.heap.containers.len();
        let mut marked = vec![false; n];
        let mut grey: Vec<u32> = Vec::new();
        let mut mark = |v: LlValue, grey: &mut Vec<u32>| {
            if let LlValue::Ptr(LlPtr::Obj { obj, .. } | LlPtr::Raw { obj, .. }) = v {
                if let Some(m) = marked.get_mut(obj as usize) {
                    if !*m {
                        *m = true;
                        grey.push(obj);
                    }
                }
            }
        };
        // the prebuilt constants (static data of the compiled program)
        let prebuilt = self.prog.heap.containers.len().min(n);
        for i in 0..prebuilt {
            mark(Self::obj(i), &mut grey);
        }
        // raw memory (freed by the program only; it holds no GC pointer in RPython, but
        // what it holds is kept rather than trusted)
        for (i, c) in self.heap.containers.iter().enumerate().skip(prebuilt) {
            if c.ty != LlType::VOID && !self.prog.types.is_gc(c.ty) {
                mark(Self::obj(i), &mut grey);
            }
        }
        for &v in &self.gc_roots {
            mark(v, &mut grey);
        }
        for v in extra {
            mark(v, &mut grey);
        }
        while let Some(o) = grey.pop() {
            let c = &self.heap.containers[o as usize];
            if Some(c.ty) == weakref {
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
        marked
    }

    fn obj(i: usize) -> LlValue {
        LlValue::Ptr(LlPtr::Obj {
            obj: i as u32,
            inner: false,
        })
    }
}

/// The fewest allocations between two automatic collections.
const GC_MIN_ALLOCATIONS: u64 = 200_000;

/// The allocations between two collections under `RPY_GC_STRESS=1` (as the executables of
/// `build` collect at every allocation then): a missing root shows at once.
const STRESS_ALLOCATIONS: u64 = 8;

fn stress() -> bool {
    std::env::var_os("RPY_GC_STRESS").is_some_and(|v| v == "1")
}

/// The allocations before the first automatic collection.
pub(super) fn first_collection() -> u64 {
    if stress() {
        STRESS_ALLOCATIONS
    } else {
        GC_MIN_ALLOCATIONS
    }
}
