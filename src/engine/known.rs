//! What a hover says of a value poisoned by an error. The annotator gives such a value the
//! annotation `Error` (reported once, absorbing what follows), which on its own reads "an
//! erroneous value"; the user wants to know what is known and which error is to blame.
//!
//! Takes the values of a local (or an expression) and where it is; gives the words: the
//! known annotations if some are, the operation that produced the erroneous one with the
//! types of its operands (`add(int, str)`), and the error reported there (line, code,
//! message). `None` when no value is erroneous.

use super::types::{Group, Values, View};
use super::Analysis;
use crate::annotator::SomeValue;
use crate::flowspace::{Hlvalue, VarId};
use crate::syntax::Span;

impl Analysis {
    /// Hover words for `vals` (held by the name or expression spanning `[start, end)` in the
    /// group's function) when one of them is erroneous.
    pub(super) fn known_words(
        &self,
        view: &View,
        gr: &Group,
        vals: &Values,
        start: u32,
        end: u32,
    ) -> Option<String> {
        if !vals.0.iter().any(|s| matches!(s, SomeValue::Error)) {
            return None;
        }
        let mut known = Values::default();
        for s in vals.0.iter().filter(|s| !matches!(s, SomeValue::Error)) {
            known.push(view, Some(s.clone()));
        }
        let made_by = self.producing_operation(view, gr, start, end);
        let blame = self.blamed_error(view, gr, start);
        let mut why = String::new();
        if let Some(op) = &made_by {
            why.push_str(&format!("made by `{op}`"));
        }
        if let Some(err) = &blame {
            if !why.is_empty() {
                why.push_str(", ");
            }
            why.push_str(err);
        }
        if why.is_empty() {
            why.push_str("an error reported elsewhere in the program");
        }
        Some(if known.0.is_empty() {
            format!("no type: its value is erroneous ({why})")
        } else {
            format!("{}; or an erroneous value ({why})", known.plain(view))
        })
    }

    /// The operation whose result the name spanning `[start, end)` stores (or the
    /// expression spanning it computes), with its operands' types: `add(int, str)`.
    fn producing_operation(&self, view: &View, gr: &Group, start: u32, end: u32) -> Option<String> {
        let ann = view.ann?;
        let bk = &ann.bookkeeper;
        for &g in &gr.graphs {
            let graph = &view.graphs[g];
            let stored: Vec<VarId> = graph
                .side
                .local_refs
                .iter()
                .filter(|r| {
                    r.store
                        && r.span.file == view.file
                        && r.span.start == start
                        && r.span.end == end
                })
                .filter_map(|r| match r.value {
                    Hlvalue::Var(v) => Some(v),
                    _ => None,
                })
                .collect();
            for b in graph.iterblocks() {
                for op in &graph.block(b).operations {
                    let computes_here =
                        op.span.file == view.file && op.span.start == start && op.span.end == end;
                    if !stored.contains(&op.result) && !computes_here {
                        continue;
                    }
                    if !matches!(
                        view.annotation(g, Hlvalue::Var(op.result)),
                        Some(SomeValue::Error)
                    ) {
                        continue;
                    }
                    let args: Vec<String> = op
                        .args
                        .iter()
                        .map(|a| match view.annotation(g, *a) {
                            Some(s) if !s.is_error() => bk.describe_short(view.heap, &s),
                            Some(_) => "erroneous".to_string(),
                            None => "?".to_string(),
                        })
                        .collect();
                    return Some(format!("{}({})", op.opname.name(), args.join(", ")));
                }
            }
        }
        None
    }

    /// The error to blame for a value at `offset` of the group's function: the last error
    /// reported in the function at or before it, else the first in the function. "the
    /// error at line 12: RPY201 message".
    fn blamed_error(&self, view: &View, gr: &Group, offset: u32) -> Option<String> {
        let file = self.unified(view.pi, gr.span.file);
        let in_function =
            |s: Span| s.file == file && s.start >= gr.span.start && s.end <= gr.span.end;
        let errors: Vec<_> = self
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && in_function(d.span))
            .collect();
        let d = errors
            .iter()
            .rev()
            .find(|d| d.span.start <= offset)
            .or_else(|| errors.first())?;
        let line = self.sources.get(file).line_col(d.span.start).line + 1;
        let first_line = d.message.lines().next().unwrap_or("");
        Some(format!("the error at line {line}: {} {first_line}", d.code))
    }
}
