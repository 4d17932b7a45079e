//! The reference backend's rule for functions marked `_always_inline_ = True`
//! (`objectmodel.always_inline`, `rbigint.lshift`): its inliner (backendopt) must inline
//! every call of them, and it cannot inline a call guarded by an `except` (the call is the
//! operation a `try` block catches exceptions around) when the function can raise, so the
//! reference's build stops there ("CannotInline: ... can't handle exceptions"). Its
//! annotator and RTyper accept the program (`rpython-verdict` says OK), so `check` only
//! warns, as for every RPY301; `run` and `build`, which stand for the binary the reference
//! cannot make, refuse it at the call. `_always_inline_ = 'try'` (`rbigint.rshift`) is
//! inlined only where it can be: never an error.

use super::{RTyper, TyperError};
use crate::annotator::model::Position;
use crate::objspace::object::{Object, Value};

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
                "`{}` is always inlined (`_always_inline_ = True`) and can raise, and this call is guarded by `except`: the reference's inliner cannot inline it here, so its build stops (CannotInline: can't handle exceptions); call it outside the `try`, or through a function that is not always inlined",
                f.name
            )));
        }
        Ok(())
    }

    /// Whether graph `g` can raise: the annotator reached its except block (a `raise`, or
    /// an exception of an operation or call no handler in it takes).
    fn graph_can_raise(&self, g: u32) -> bool {
        let graph = &self.ann.graphs[g as usize];
        self.ann
            .blocks_reached
            .get(g as usize)
            .and_then(|r| r.get(graph.exceptblock.0 as usize))
            .copied()
            .unwrap_or(false)
    }
}
