//! What a call may do, for the two transforms of `funcgen`: whether it may run a
//! collection (then the caller's live GC pointers go to the shadow stack around it) and
//! whether it may raise (then the caller tests the exception state after it). Computed
//! for every graph of the program by a fixpoint over the call graph, so that a call of a
//! small function that neither allocates nor raises costs a plain C call.

use super::database::Database;
use crate::flowspace::{FunctionGraph, Hlvalue, SpaceOperation};
use crate::interpreter::Op;
use crate::lltypesystem::lloperation::CanRaise;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::rtyper::{LlFunction, LlProgram};

/// Per function of the function table (graphs only; other entries stay `true`).
pub struct Effects {
    pub may_collect: Vec<bool>,
    pub can_raise: Vec<bool>,
    /// In a cycle of the call graph: such a function checks the depth of the C stack on
    /// entry and raises RuntimeError near its end (as the reference inserts its stack
    /// checks on the cycles of the call graph), so it may raise.
    pub recursive: Vec<bool>,
}

fn ll_op(op: &SpaceOperation) -> Option<LlOp> {
    match op.opname {
        Op::Ll(o) => Some(o),
        _ => None,
    }
}

/// The function a `direct_call` calls, by index, with its function type.
fn callee(op: &SpaceOperation) -> Option<(u32, LlType)> {
    match op.args.first() {
        Some(Hlvalue::Ll(c)) => match c.value {
            LlValue::Ptr(LlPtr::Func(f)) => Some((f, c.ty)),
            _ => None,
        },
        _ => None,
    }
}

impl Effects {
    pub fn compute(db: &Database, prog: &LlProgram) -> Effects {
        let n = prog.functions.len();
        let is_graph = |f: usize| matches!(prog.functions[f], LlFunction::Graph { .. });
        let recursive = recursive_functions(prog);
        let mut e = Effects {
            may_collect: (0..n).map(|f| !is_graph(f)).collect(),
            can_raise: (0..n).map(|f| !is_graph(f) || recursive[f]).collect(),
            recursive,
        };
        runtime_can_raise(prog, &mut e);
        loop {
            let mut changed = false;
            for (f, func) in prog.functions.iter().enumerate() {
                let LlFunction::Graph { graph, .. } = func else {
                    continue;
                };
                let g = &prog.graphs[*graph as usize];
                if !e.may_collect[f]
                    && g.blocks
                        .iter()
                        .any(|b| b.operations.iter().any(|op| e.op_may_collect(db, op)))
                {
                    e.may_collect[f] = true;
                    changed = true;
                }
                if !e.can_raise[f] && e.graph_raises(g) {
                    e.can_raise[f] = true;
                    changed = true;
                }
            }
            if !changed {
                return e;
            }
        }
    }

    /// Whether an exception may leave the graph: a link to its except block, or an
    /// operation that may raise outside a `last_exception` switch.
    fn graph_raises(&self, g: &FunctionGraph) -> bool {
        // (the operation a `last_exception` switch catches may still let unmatched
        // exceptions through: it counts as raising too)
        g.blocks.iter().any(|b| {
            b.exits.iter().any(|&l| g.link(l).target == g.exceptblock)
                || b.operations.iter().any(|op| self.op_can_raise(op))
        })
    }

    /// Whether an operation may run a collection (allocate, or call what may).
    pub fn op_may_collect(&self, db: &Database, op: &SpaceOperation) -> bool {
        match ll_op(op) {
            Some(
                LlOp::Malloc
                | LlOp::MallocVarsize
                | LlOp::IndirectCall
                | LlOp::WeakrefCreate
                | LlOp::GcCollect,
            ) => true,
            Some(LlOp::DirectCall) => match callee(op) {
                Some((f, ty)) => match &db.prog.functions[f as usize] {
                    LlFunction::Runtime(rf) => {
                        let fty = db.types().pointee(ty).unwrap_or(LlType::VOID);
                        super::helpers::may_collect_call(db, *rf, fty)
                    }
                    LlFunction::Graph { .. } => self.may_collect[f as usize],
                    // C functions allocate nothing of the GC's
                    LlFunction::C(_) => false,
                },
                None => true,
            },
            _ => false,
        }
    }

    /// Whether an operation may raise.
    pub fn op_can_raise(&self, op: &SpaceOperation) -> bool {
        match ll_op(op) {
            Some(LlOp::DirectCall) => match callee(op) {
                Some((f, _)) => self.can_raise[f as usize],
                None => true,
            },
            Some(LlOp::IndirectCall) => true,
            // an absurd length raises MemoryError (`rpy_gc_malloc_varsize`), which the
            // program may catch, as from the reference's GC
            Some(LlOp::MallocVarsize) => true,
            Some(o) => o.canraise() != CanRaise::Nothing,
            None => false,
        }
    }
}

/// Runtime functions raise what their registry entry says.
fn runtime_can_raise(prog: &LlProgram, e: &mut Effects) {
    for (f, func) in prog.functions.iter().enumerate() {
        if let LlFunction::Runtime(rf) = func {
            e.can_raise[f] = !rf.raises().is_empty();
        }
    }
}

/// The functions in a cycle of the call graph (Tarjan's strongly connected components).
/// A function calling through a pointer may call any function whose address is taken.
fn recursive_functions(prog: &LlProgram) -> Vec<bool> {
    let n = prog.functions.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut address_taken = vec![false; n];
    let mut indirect = vec![false; n];
    for (f, func) in prog.functions.iter().enumerate() {
        let LlFunction::Graph { graph, .. } = func else {
            continue;
        };
        for b in &prog.graphs[*graph as usize].blocks {
            for op in &b.operations {
                if ll_op(op) == Some(LlOp::IndirectCall) {
                    indirect[f] = true;
                }
                for (i, a) in op.args.iter().enumerate() {
                    if let Hlvalue::Ll(c) = a {
                        if let LlValue::Ptr(LlPtr::Func(t)) = c.value {
                            if i == 0 && ll_op(op) == Some(LlOp::DirectCall) {
                                edges[f].push(t as usize);
                            } else {
                                address_taken[t as usize] = true;
                            }
                        }
                    }
                }
            }
            for &l in &b.exits {
                for a in &prog.graphs[*graph as usize].link(l).args {
                    if let Hlvalue::Ll(c) = a {
                        if let LlValue::Ptr(LlPtr::Func(t)) = c.value {
                            address_taken[t as usize] = true;
                        }
                    }
                }
            }
        }
    }
    // functions stored in prebuilt data (vtables' methods) may be called through pointers
    for c in &prog.heap.containers {
        for v in &c.fields {
            if let LlValue::Ptr(LlPtr::Func(t)) = v {
                address_taken[*t as usize] = true;
            }
        }
    }
    let taken: Vec<usize> = (0..n).filter(|&t| address_taken[t]).collect();
    for f in 0..n {
        if indirect[f] {
            edges[f].extend(taken.iter().copied());
        }
    }
    // iterative Tarjan
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(p, _)) = work.last() {
                low[p] = low[p].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = comp.len() > 1 || edges[v].contains(&v);
                for w in comp {
                    out[w] = cyclic;
                }
            }
        }
    }
    out
}
