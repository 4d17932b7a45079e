//! Moving an annotated program's spans: takes a finished annotation and a map from old
//! source positions to new ones; gives the annotation a fresh annotation of the moved code
//! would give (`engine::positions` says when the code only moved). The annotator compares
//! and orders spans but never computes with them, so moving every span it kept — in the
//! graphs, the diagnostics, the bookkeeper and the state kept for late helpers — is enough.
//! A span kept somewhere not listed here would stay at its old place: each new place the
//! annotator keeps a span must be added.

use super::annrpython::Origin;
use super::AnnotatedProgram;
use crate::diagnostics::Diagnostic;
use crate::flowspace::{FunctionGraph, LinkId};
use crate::syntax::Span;

/// Moves every span of a flow graph.
pub fn map_graph_spans(g: &mut FunctionGraph, f: &dyn Fn(Span) -> Span) {
    g.span = f(g.span);
    for b in &mut g.blocks {
        for op in &mut b.operations {
            op.span = f(op.span);
        }
    }
    for r in &mut g.side.local_refs {
        r.span = f(r.span);
    }
    for l in 0..g.links.len() {
        let l = LinkId(l as u32);
        let span = g.link_span(l);
        if span != Span::default() {
            g.set_link_span(l, f(span));
        }
        let target = g.link(l).target;
        let n = g.block(target).inputargs.len();
        let spans: Vec<Span> = (0..n)
            .map(|i| match g.arg_span(l, i) {
                s if s == Span::default() => s,
                s => f(s),
            })
            .collect();
        g.set_arg_spans(l, &spans);
    }
}

/// Moves a diagnostic's span and its labels'.
pub fn map_diagnostic_spans(d: &mut Diagnostic, f: &dyn Fn(Span) -> Span) {
    d.span = f(d.span);
    for l in &mut d.labels {
        l.span = f(l.span);
    }
}

impl AnnotatedProgram {
    /// Moves every span the annotation kept by `f` (module doc).
    pub fn map_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        let opt = |s: &mut Option<Span>| {
            if let Some(s) = s {
                *s = f(*s);
            }
        };
        for g in &mut self.graphs {
            map_graph_spans(g, f);
        }
        for d in self.diagnostics.iter_mut().chain(self.first_error.as_mut()) {
            map_diagnostic_spans(d, f);
        }
        let bk = &mut self.bookkeeper;
        bk.span = f(bk.span);
        for i in &mut bk.items {
            opt(&mut i.origin);
        }
        for g in bk.generators.values_mut() {
            opt(&mut g.origin);
        }
        for d in &mut bk.warnings {
            map_diagnostic_spans(d, f);
        }
        bk.warned = std::mem::take(&mut bk.warned)
            .into_iter()
            .map(|(c, s)| (c, f(s)))
            .collect();
        for c in &mut bk.classdefs {
            for a in c.attrs.values_mut() {
                opt(&mut a.origin);
            }
        }
        for d in &mut bk.descs {
            match d {
                super::description::Desc::Function(fd) => fd.name_span = f(fd.name_span),
                super::description::Desc::Class(cd) => opt(&mut cd.name_span),
                super::description::Desc::Method(_)
                | super::description::Desc::Frozen(_)
                | super::description::Desc::MethodOfFrozen { .. } => {}
            }
        }
        let Some(r) = self.resume.as_mut() else {
            return;
        };
        let origin = |o: &mut Option<Origin>| {
            if let Some(Origin::Span(s)) = o {
                *s = f(*s);
            }
        };
        for info in &mut r.info {
            info.origins.iter_mut().for_each(origin);
            for (o, _) in &mut info.return_sources {
                origin(o);
            }
        }
        r.seen = std::mem::take(&mut r.seen)
            .into_iter()
            .map(|(c, s, m)| (c, f(s), m))
            .collect();
        for (_, s, _) in &mut r.list_checks {
            *s = f(*s);
        }
        for (_, s, _) in &mut r.raising_unpacks {
            *s = f(*s);
        }
        for shapes in r.call_shapes.shapes.values_mut() {
            for (_, s) in shapes {
                *s = f(*s);
            }
        }
    }

    /// Whether annotating ran import-time code (`specialize.memo` functions): it may have
    /// changed the heap in place, so the annotation is not a function of the graphs alone.
    pub fn ran_import_time_code(&self) -> bool {
        self.resume
            .as_ref()
            .is_some_and(|r| !r.memo_results.is_empty())
    }
}
