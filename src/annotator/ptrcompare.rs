//! Comparisons of two low-level pointers the annotator accepts but the reference's RTyper
//! refuses: `==`, `!=` and `is` convert both sides to one pointer type, which two pointers
//! of different types (a `void *` and a `char *`...) do not have ("don't know how to
//! convert"). Judged on the final annotations, at the operation's line.

use super::annrpython::*;
use super::model::*;
use super::AnnError;
use crate::flowspace::SpaceOperation;
use crate::interpreter::{ConcreteSpace, Op};

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Reports each `==`, `!=` or `is` between pointers of two types.
    pub(super) fn check_pointer_comparisons(&mut self) {
        let mut found: Vec<(u32, SpaceOperation)> = Vec::new();
        for (g, graph) in self.graphs.iter().enumerate() {
            for op in graph.blocks.iter().flat_map(|b| &b.operations) {
                if matches!(op.opname, Op::Eq | Op::Ne | Op::Is)
                    && self.info[g].bindings[op.result.0 as usize].is_some()
                {
                    found.push((g as u32, op.clone()));
                }
            }
        }
        for (g, op) in found {
            let a = self.annotation(g, op.args[0]);
            let b = self.annotation(g, op.args[1]);
            let (SomeValue::Ptr(p), SomeValue::Ptr(q)) = (&a, &b) else {
                continue;
            };
            if p == q {
                continue;
            }
            let symbol = match op.opname {
                Op::Eq => "==",
                Op::Ne => "!=",
                _ => "is",
            };
            let msg = format!(
                "`{symbol}` between pointers of two types ({} and {}) is not supported by the RPython typer: cast one to the other's type with rffi.cast first",
                self.bk.describe_type(self.heap(), &a),
                self.bk.describe_type(self.heap(), &b),
            );
            self.report(AnnError::new("RPY205", msg).at_typer(), op.span);
        }
    }
}
