//! The reference backend's rule for functions marked `_always_inline_ = True`
//! (`objectmodel.always_inline`, `rbigint.lshift`): its inliner (backendopt) must inline
//! every call of them, and it cannot inline a call guarded by an `except` (the call is the
//! operation a `try` block catches exceptions around) when the function can raise, and to
//! it every allocation can (MemoryError), so the
//! reference's build stops there ("CannotInline: ... can't handle exceptions"). Its
//! annotator and RTyper accept the program (`rpython-verdict` says OK), so `check` only
//! warns, as for every RPY301; `run` and `build`, which stand for the binary the reference
//! cannot make, refuse it at the call. `_always_inline_ = 'try'` (`rbigint.rshift`) is
//! inlined only where it can be: never an error.

use super::{RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::{Position, SomeValue};
use crate::flowspace::Hlvalue;
use crate::interpreter::Op;
use crate::objspace::object::{ObjId, Object, Value};

impl RTyper<'_> {
    /// The reference's refusal of the exception-guarded call at `position`, if one of the
    /// functions it calls is always inlined and can raise.
    pub(super) fn check_guarded_always_inline(&self, position: Position) -> Result<(), TyperError> {
        let Some(targets) = self.ann.call_targets.get(&position) else {
            return Ok(());
        };
        for &t in targets.iter() {
            let graph = &self.ann.graphs[t as usize];
            let Some(func) = graph.func else { continue };
            let Object::Function(f) = self.objheap.get(func) else {
                continue;
            };
            if !matches!(f.attrs.get("_always_inline_"), Some(Value::Bool(true))) {
                continue;
            }
            if !self.graph_can_raise(t) {
                continue;
            }
            return Err(TyperError::new(format!(
                "`{}` is always inlined (`_always_inline_ = True`) and can raise (an allocation counts: MemoryError), and this call is guarded by `except`: the reference's inliner cannot inline it here, so its build stops (CannotInline: can't handle exceptions); call it outside the `try`, or through a function that is not always inlined",
                f.name
            )));
        }
        Ok(())
    }

    /// Whether the reference's inliner sees graph `g` as one that can raise: its check
    /// (`any_call_to_raising_graphs`) counts every operation that can raise, and every
    /// allocation can (`MemoryError`): an instance, list, dict or tuple made, a string or
    /// list computed, or a call of a function that does one of these. A `raise` of an
    /// exception class alone does not stop it (the reference builds such a function), nor
    /// does a function of arithmetic, comparisons and field accesses.
    fn graph_can_raise(&self, g: u32) -> bool {
        let mut seen = Vec::new();
        self.allocates(g, &mut seen)
    }

    fn allocates(&self, g: u32, seen: &mut Vec<u32>) -> bool {
        if seen.contains(&g) || seen.len() > 64 {
            // a recursive call, or a call chain too long to follow: not certain
            return false;
        }
        seen.push(g);
        let graph = &self.ann.graphs[g as usize];
        let reached = |b: usize| {
            self.ann
                .blocks_reached
                .get(g as usize)
                .and_then(|r| r.get(b))
                .copied()
                .unwrap_or(false)
        };
        for (bi, block) in graph.blocks.iter().enumerate() {
            if !reached(bi) {
                continue;
            }
            for (oi, op) in block.operations.iter().enumerate() {
                let allocates = match op.opname {
                    Op::NewList | Op::NewDict | Op::NewTuple | Op::NewSet => true,
                    Op::SimpleCall | Op::CallArgs => {
                        let position = Position {
                            graph: g,
                            block: bi as u32,
                            op: oi as u32,
                        };
                        self.ann
                            .call_targets
                            .get(&position)
                            .is_some_and(|ts| ts.iter().any(|&t| self.allocates(t, seen)))
                            || self.is_instantiation(g, op.args.first().copied())
                    }
                    _ => false,
                };
                // a string, list or dict computed here (a concatenation, a slice, str())
                let made = matches!(
                    self.ann
                        .bindings
                        .get(g as usize)
                        .and_then(|b| b.get(op.result.0 as usize)),
                    Some(Some(
                        SomeValue::Str { konst: None, .. }
                            | SomeValue::Unicode { konst: None, .. }
                            | SomeValue::List { .. }
                            | SomeValue::Dict { .. }
                    ))
                ) && !matches!(op.opname, Op::GetAttr | Op::GetItem | Op::Hint);
                if allocates || made {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the called value is a class other than an exception class (the call makes
    /// an instance; the exception a `raise` makes is not counted, see `graph_can_raise`).
    fn is_instantiation(&self, g: u32, callee: Option<Hlvalue>) -> bool {
        match callee {
            Some(Hlvalue::Const(Value::Obj(id))) => self.is_plain_class(id),
            Some(Hlvalue::Var(v)) => matches!(
                self.ann.bindings.get(g as usize).and_then(|b| b.get(v.0 as usize)),
                Some(Some(SomeValue::Pbc { descs, .. }))
                    if descs.iter().any(|&d| matches!(self.ann.bookkeeper.desc(d), Desc::Class(c) if self.is_plain_class(c.cls)))
            ),
            _ => false,
        }
    }

    fn is_plain_class(&self, id: ObjId) -> bool {
        let heap = self.objheap;
        matches!(heap.get(id), Object::Class(_))
            && !heap.class(id).is_some_and(|c| {
                c.mro.iter().any(|&k| {
                    heap.class(k)
                        .is_some_and(|k| k.builtin.is_some() && &*k.name == "BaseException")
                })
            })
    }
}
