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
        let mut e = Effects {
            may_collect: (0..n).map(|f| !is_graph(f)).collect(),
            can_raise: (0..n).map(|f| !is_graph(f)).collect(),
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
            Some(LlOp::Malloc | LlOp::MallocVarsize | LlOp::IndirectCall) => true,
            Some(LlOp::DirectCall) => match callee(op) {
                Some((f, ty)) => match &db.prog.functions[f as usize] {
                    LlFunction::Runtime(rf) => {
                        let fty = db.types().pointee(ty).unwrap_or(LlType::VOID);
                        super::helpers::may_collect_call(db, *rf, fty)
                    }
                    LlFunction::Graph { .. } => self.may_collect[f as usize],
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
