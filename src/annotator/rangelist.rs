//! Operations on a `range()` list the annotator accepts but the reference's RTyper refuses.
//! A list made by `range()` that nothing mutates or resizes stays a range (`listdef`'s
//! `range_step`): its low-level form is a `{start, stop}` structure, and the typer's range
//! Repr knows only `len`, truth, indexing by an int, iteration (not reversed) and being
//! read by `list.extend` (and `==`, which the reference types). What the reference was
//! seen to refuse: slicing, `in`, `list()`, `+`, `*` (either side), `index`, an `isinstance()` the annotator
//! does not fold (`count` is refused for every list, by the annotator).
//! Judged on the final annotations, at the operation's line.

use super::annrpython::*;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::Value;

/// What the reference's typer cannot do with a range list, as one operation uses it.
#[derive(Clone, Copy)]
enum RangeUse {
    Reversed,
    Contains,
    Slice,
    ListCall,
    /// `isinstance()` whose answer the annotator does not fold.
    IsInstance,
    /// A binary operator (`+`, `*`, `==`...), by its symbol.
    Operator(&'static str),
    /// A list method, by name.
    Method(&'static str),
}

impl RangeUse {
    fn message(self) -> String {
        match self {
            RangeUse::Reversed => "reversed() of a list made by range() is not supported by the RPython typer: iterate over range(n - 1, -1, -1) instead".into(),
            RangeUse::Contains => "`in` of a list made by range() is not supported by the RPython typer: compare with the bounds (`0 <= x < n`) instead".into(),
            RangeUse::Slice => "slicing a list made by range() is not supported by the RPython typer (a list only range() makes, never changed, is a range): call range() with the slice's bounds instead".into(),
            RangeUse::IsInstance => "isinstance() of a list made by range() is not supported by the RPython typer when the annotator cannot answer it (a list only range() makes, never changed, is a range, which cannot be None): drop the test".into(),
            RangeUse::ListCall => "list() of a list made by range() is not supported by the RPython typer (a list only range() makes, never changed, is a range): build the copy with a comprehension, [i for i in range(...)]".into(),
            RangeUse::Operator(op) => format!(
                "`{op}` on a list made by range() is not supported by the RPython typer (a list only range() makes, never changed, is a range): build the list with a comprehension, [i for i in range(...)]"
            ),
            RangeUse::Method(m) => format!(
                "{m}() of a list made by range() is not supported by the RPython typer (a list only range() makes, never changed, is a range): compute it from the bounds, or build the list with a comprehension"
            ),
        }
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Reports every operation on a range list the typer refuses.
    pub(super) fn check_range_lists(&mut self) {
        let mut ops: Vec<(u32, SpaceOperation)> = Vec::new();
        for (g, graph) in self.graphs.iter().enumerate() {
            for op in graph.blocks.iter().flat_map(|b| &b.operations) {
                if self.info[g].bindings[op.result.0 as usize].is_some() {
                    ops.push((g as u32, op.clone()));
                }
            }
        }
        for (g, op) in ops {
            if let Some(what) = self.range_use(g, &op) {
                self.report(AnnError::new("RPY210", what.message()).at_typer(), op.span);
            }
        }
    }

    /// Whether `s` is a list the typer represents as a range.
    fn is_range_list(&self, s: &SomeValue) -> bool {
        let SomeValue::List { def, .. } = s else {
            return false;
        };
        let item = self.bk.item(self.bk.list_item(*def));
        item.range_step.is_some() && !item.mutated && !item.resized
    }

    fn arg_is_range(&mut self, g: u32, op: &SpaceOperation, i: usize) -> bool {
        match op.args.get(i) {
            Some(a) => {
                let s = self.annotation(g, *a);
                self.is_range_list(&s)
            }
            None => false,
        }
    }

    /// What `op` does with a range list that the typer refuses, if anything.
    fn range_use(&mut self, g: u32, op: &SpaceOperation) -> Option<RangeUse> {
        let operator = match op.opname {
            Op::Contains => return self.arg_is_range(g, op, 0).then_some(RangeUse::Contains),
            Op::GetSlice => return self.arg_is_range(g, op, 0).then_some(RangeUse::Slice),
            Op::IsInstance => {
                let folded = matches!(
                    &self.info[g as usize].bindings[op.result.0 as usize],
                    Some(s) if s.konst().is_some()
                );
                return (!folded && self.arg_is_range(g, op, 0)).then_some(RangeUse::IsInstance);
            }
            // (`==`, `!=` and `+=` of a range list are typed by the reference; `<` and
            // `<=` of lists are refused for every list, elsewhere)
            Op::Add => "+",
            Op::Mul => "*",
            Op::SimpleCall => return self.range_call(g, op),
            _ => {
                // reversed() of a range list: the iterator the operation makes
                let result = self.info[g as usize].bindings[op.result.0 as usize].clone();
                if let Some(SomeValue::Iterator {
                    container,
                    variant: IterVariant::Reversed,
                }) = result
                {
                    if self.is_range_list(&container) {
                        return Some(RangeUse::Reversed);
                    }
                }
                return None;
            }
        };
        (self.arg_is_range(g, op, 0) || self.arg_is_range(g, op, 1))
            .then_some(RangeUse::Operator(operator))
    }

    /// `list(r)` and `r.index(x)` of a range list `r`.
    fn range_call(&mut self, g: u32, op: &SpaceOperation) -> Option<RangeUse> {
        // `list` is a built-in class whose constructor is the builtin
        if let Some(Hlvalue::Const(Value::Obj(cls))) = op.args.first() {
            let constructor = self.heap().class(*cls).and_then(|c| c.constructor);
            if constructor == Some(B::List) && op.args.len() == 2 {
                return self.arg_is_range(g, op, 1).then_some(RangeUse::ListCall);
            }
        }
        let callee = self.annotation(g, *op.args.first()?);
        match callee {
            SomeValue::Builtin { id: B::List, .. } if op.args.len() == 2 => {
                self.arg_is_range(g, op, 1).then_some(RangeUse::ListCall)
            }
            SomeValue::BuiltinMethod { id, s_self, .. } => {
                // (`count` is refused for every list, by the annotator)
                let name = match id {
                    B::ListIndex => "index",
                    _ => return None,
                };
                self.is_range_list(&s_self)
                    .then_some(RangeUse::Method(name))
            }
            _ => None,
        }
    }
}
