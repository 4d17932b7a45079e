//! Reporting what the annotation finds: an `AnnError` becomes a diagnostic at the user's
//! code (a problem inside a bundled model is shown at the user call that led there),
//! once per place, the latest message kept when a re-flowed block finds it again; nothing
//! is reported from speculative annotation or from a function whose graph failed to build
//! (the reference stops at that flow error).

use super::annrpython::Annotator;
use super::AnnError;
use crate::diagnostics::{Diagnostic, BUNDLED_MODEL_LABEL};
use crate::fasthash::HashSet;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Object;
use crate::syntax::Span;
use std::collections::VecDeque;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// The refusal of arithmetic on a narrow integer (RPY220), which is the reference
    /// RTyper's: none when the program replaced the RTyper's helpers (RPyChip8 makes such
    /// arithmetic work), and the operation is then typed as an ordinary integer one.
    pub(super) fn narrow_refusal(
        &self,
        kind: Option<crate::objspace::object::IntKind>,
    ) -> Result<(), AnnError> {
        if self.space.rtyper_patched() {
            return Ok(());
        }
        super::model::narrow_refusal(kind)
    }

    pub fn report(&mut self, e: AnnError, default_span: Span) {
        if self.speculative.contains(&self.bk.position.graph) {
            return;
        }
        let mut span = e.span.unwrap_or(default_span);
        if self.inside_flow_errored_graph(span) {
            return;
        }
        // An RTyper the program changed at import time is not the one modelled here.
        if e.typer && self.space.rtyper_patched() {
            return;
        }
        let mut labels = e.labels;
        if self.bundled_files.contains(&span.file) {
            // A problem found inside rpy-lsp's bundled models (os, rlib…) is the caller's:
            // point at the user code that called into them.
            if let Some(user) = self.user_call_site(self.bk.position.graph) {
                labels.push((span, BUNDLED_MODEL_LABEL.to_string()));
                span = user;
            }
        }
        if !self.seen.insert((e.code, span, e.msg.clone())) {
            return;
        }
        // the stage of the message kept at this place (the latest, see below)
        if e.typer {
            self.typer_stage.insert((e.code, span));
        } else {
            self.typer_stage.remove(&(e.code, span));
        }
        let here = self.annotating_op.then_some(self.bk.position);
        if let Some(pos) = here {
            let seq = self.report_log.len();
            self.reported_at
                .entry(pos)
                .or_default()
                .push((e.code, span, seq));
        }
        self.report_log.push((here, e.code));
        let mut d = Diagnostic::new(e.code, span, e.msg);
        for (s, m) in labels {
            if s != span {
                d = d.with_label(s, m);
            }
        }
        // The same problem found again at the same place with more general annotations
        // (the block was re-flowed): the later message describes the final types. Two
        // places inside a bundled model shown at one user call are two problems.
        let origin = d.bundled_origin();
        if let Some(old) = self
            .diagnostics
            .iter_mut()
            .find(|o| o.code == d.code && o.span == d.span && o.bundled_origin() == origin)
        {
            *old = d;
            return;
        }
        self.diagnostics.push(d);
    }

    /// The operation at `pos` is annotated again with an argument poisoned by a union
    /// error on an instance attribute (RPY203) found since elsewhere: what it reported
    /// before came from the attribute's earlier, narrower annotation, which the reference
    /// has generalized (and failed on) before it reaches this operation, so it is
    /// withdrawn (YASI's `Status.result`, `err_packrat_result_union_before_use_realprog19`).
    /// A function result's union (RPY201) withdraws nothing: the reference, too, has
    /// already stopped at what the callers found with the earlier result
    /// (`err_search_minus_one_recursive_probe_blind12`). Nothing is withdrawn either
    /// when no other error came after it: the poison is then its own, come back around a
    /// loop.
    pub(super) fn retract_at(&mut self, pos: super::Position) {
        let Some(found) = self.reported_at.get(&pos) else {
            return;
        };
        let log = &self.report_log;
        let later_elsewhere = |seq: usize| {
            log[seq + 1..]
                .iter()
                .any(|&(p, code)| p != Some(pos) && code == "RPY203")
        };
        let (gone, kept): (Vec<_>, Vec<_>) =
            found.iter().partition(|&&(_, _, seq)| later_elsewhere(seq));
        if gone.is_empty() {
            return;
        }
        let withdrawn = |d: &Diagnostic| {
            gone.iter()
                .any(|&(code, span, _)| d.code == code && d.span == span)
        };
        // an error stays: the one that poisoned the argument (its place may be shared,
        // as the user call of a bundled model is)
        if !self
            .diagnostics
            .iter()
            .any(|d| d.is_error() && !withdrawn(d))
        {
            return;
        }
        self.diagnostics.retain(|d| !withdrawn(d));
        self.reported_at.insert(pos, kept);
    }

    /// The span of the innermost call, from user code, that led to graph `g`.
    fn user_call_site(&self, g: u32) -> Option<Span> {
        let mut seen = HashSet::default();
        let mut queue = VecDeque::from([g]);
        while let Some(g) = queue.pop_front() {
            if !seen.insert(g) {
                continue;
            }
            for p in self.callers_of(g) {
                let span = self.graphs[p.graph as usize].blocks[p.block as usize].operations
                    [p.op as usize]
                    .span;
                if !self.bundled_files.contains(&span.file) {
                    return Some(span);
                }
                queue.push_back(p.graph);
            }
        }
        None
    }

    /// Whether `span` is in the function of the graph being annotated, and building that
    /// graph reported an error: the reference stops at that error, before annotating.
    fn inside_flow_errored_graph(&self, span: Span) -> bool {
        let g = self.bk.position.graph as usize;
        if !self.info.get(g).is_some_and(|i| i.flow_error) {
            return false;
        }
        match self.graphs[g].func.map(|f| self.heap().get(f)) {
            Some(Object::Function(f)) => {
                let c = f.code.span;
                c.file == span.file && c.start <= span.start && span.end <= c.end
            }
            _ => false,
        }
    }

    /// A problem found while building the flow graph of a function the annotation reached:
    /// inside a bundled model (or code it generated), it is shown at the user code whose
    /// call led there, as `report` does.
    pub fn push_flow_diagnostic(&mut self, mut d: Diagnostic) {
        if self.bundled_files.contains(&d.span.file) {
            let pos = self.bk.position;
            let here = self
                .graphs
                .get(pos.graph as usize)
                .and_then(|g| g.blocks.get(pos.block as usize))
                .and_then(|b| b.operations.get(pos.op as usize))
                .map(|op| op.span);
            let user = match here {
                Some(s) if !self.bundled_files.contains(&s.file) => Some(s),
                _ => self.user_call_site(pos.graph),
            };
            if let Some(user) = user {
                let inner = d.span;
                d.span = user;
                d = d.with_label(inner, BUNDLED_MODEL_LABEL);
            }
        }
        self.push_diagnostic(d);
    }

    pub fn push_diagnostic(&mut self, d: Diagnostic) {
        if self.seen.insert((d.code, d.span, d.message.clone())) {
            self.diagnostics.push(d);
        }
    }
}
