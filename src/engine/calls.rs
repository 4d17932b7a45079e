//! Call hierarchy from the annotator's call table: who calls a function (and with which
//! argument types: a union error is whole-program, the question is who passes the other
//! type) and what it calls.
//!
//! Takes a file and an offset (the function's name, at its `def` or at a call) or an item
//! from a previous answer; gives call items with the call sites. Only calls the annotator
//! followed are known: code no target reaches has no calls here.

use super::queries::{Location, SymbolKind};
use super::types::{Values, View};
use super::Analysis;
use crate::interpreter::Op;
use crate::objspace::object::Value;
use crate::syntax::Span;
use std::path::PathBuf;

/// A function, as the call hierarchy shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallItem {
    pub name: String,
    pub kind: SymbolKind,
    pub path: PathBuf,
    /// The whole `def` (unified file ids).
    pub span: Span,
    /// Its name.
    pub name_span: Span,
    /// The signature with inferred types.
    pub detail: String,
}

/// One caller (incoming) or callee (outgoing) and where the calls are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub item: CallItem,
    /// The call expressions, in the caller's file.
    pub sites: Vec<Span>,
    /// For incoming calls: the types of the arguments passed at these sites, one
    /// `(int, str)` per distinct combination.
    pub passes: Vec<String>,
}

impl Analysis {
    /// The function whose name is at `offset` (its `def`, or a call of it).
    pub fn call_item_at(&self, path: &std::path::Path, offset: u32) -> Option<CallItem> {
        if let Some(span) = self.function_defined_at(path, offset) {
            return self.call_item_by_name_span(span);
        }
        let Location { span, .. } = self.definition(path, offset)?;
        self.call_item_by_name_span(span)
    }

    /// The name span (unified ids) of the function whose `def` names it at `offset` of
    /// `path` (a method's name, which no global resolves).
    pub(super) fn function_defined_at(&self, path: &std::path::Path, offset: u32) -> Option<Span> {
        let file = self.sources.find(path)?;
        for (pi, p) in self.programs.iter().enumerate() {
            for i in 0..p.space.heap.len() {
                let id = crate::objspace::object::ObjId(i as u32);
                let Some(f) = p.space.heap.function(Value::Obj(id)) else {
                    continue;
                };
                let ns = f.code.name_span;
                if ns.start <= offset && offset <= ns.end && self.unified(pi, ns.file) == file {
                    return Some(Span { file, ..ns });
                }
            }
        }
        None
    }

    /// The function whose name has this span (unified ids), from any program that has it.
    pub fn call_item_by_name_span(&self, name_span: Span) -> Option<CallItem> {
        for (pi, p) in self.programs.iter().enumerate() {
            for i in 0..p.space.heap.len() {
                let id = crate::objspace::object::ObjId(i as u32);
                let Some(f) = p.space.heap.function(Value::Obj(id)) else {
                    continue;
                };
                let ns = f.code.name_span;
                if ns.start != name_span.start
                    || ns.end != name_span.end
                    || self.unified(pi, ns.file) != name_span.file
                {
                    continue;
                }
                return self.item_for(pi, id);
            }
        }
        None
    }

    fn item_for(&self, pi: usize, func: crate::objspace::object::ObjId) -> Option<CallItem> {
        let p = &self.programs[pi];
        let f = p.space.heap.function(Value::Obj(func))?;
        let unify = |s: Span| Span {
            file: self.unified(pi, s.file),
            ..s
        };
        let span = unify(f.code.span);
        let in_class = defined_in_class(&self.sources.get(span.file).text, span.start as usize);
        Some(CallItem {
            name: f.name.to_string(),
            kind: if in_class {
                SymbolKind::Method
            } else {
                SymbolKind::Function
            },
            path: self.sources.get(span.file).path.clone(),
            span,
            name_span: unify(f.code.name_span),
            detail: self
                .short_signature(pi, Value::Obj(func), false)
                .unwrap_or_default(),
        })
    }

    /// The graphs (per program) of the function an item names.
    fn graphs_of_item(&self, item: &CallItem) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for (pi, p) in self.programs.iter().enumerate() {
            let Some(ann) = &p.annotated else { continue };
            let gs: Vec<usize> = ann
                .graphs
                .iter()
                .enumerate()
                .filter(|(_, g)| {
                    g.func
                        .and_then(|f| p.space.heap.function(Value::Obj(f)))
                        .is_some_and(|f| {
                            let ns = f.code.name_span;
                            ns.start == item.name_span.start
                                && ns.end == item.name_span.end
                                && self.unified(pi, ns.file) == item.name_span.file
                        })
                })
                .map(|(i, _)| i)
                .collect();
            if !gs.is_empty() {
                out.push((pi, gs));
            }
        }
        out
    }

    /// The call operation at `pos` in program `pi`, and its span in the unified files.
    fn call_site<'g>(
        &self,
        pi: usize,
        ann: &'g crate::annotator::AnnotatedProgram,
        pos: crate::annotator::model::Position,
    ) -> Option<(&'g crate::flowspace::SpaceOperation, Span)> {
        let caller = &ann.graphs[pos.graph as usize];
        let op = caller
            .block(crate::flowspace::BlockId(pos.block))
            .operations
            .get(pos.op as usize)?;
        let site = Span {
            file: self.unified(pi, op.span.file),
            ..op.span
        };
        Some((op, site))
    }

    /// Who calls the function of `item`, where, and with which argument types.
    pub fn incoming_calls(&self, item: &CallItem) -> Vec<Call> {
        let mut out: Vec<Call> = Vec::new();
        for (pi, graphs) in self.graphs_of_item(item) {
            let p = &self.programs[pi];
            let Some(ann) = &p.annotated else { continue };
            let view = View {
                pi,
                heap: &p.space.heap,
                file: crate::syntax::FileId(0),
                text: "",
                ann: Some(ann),
                graphs: &ann.graphs,
                // every graph is looked up by index here, not by file
                in_file: &[],
            };
            let mut positions: Vec<_> = ann
                .call_targets
                .iter()
                .filter(|(_, targets)| targets.iter().any(|t| graphs.contains(&(*t as usize))))
                .map(|(pos, _)| *pos)
                .collect();
            positions.sort_by_key(|p| (p.graph, p.block, p.op));
            for pos in positions {
                let Some(func) = ann.graphs[pos.graph as usize].func else {
                    continue;
                };
                let Some((op, site)) = self.call_site(pi, ann, pos) else {
                    continue;
                };
                let passes = (op.opname == Op::SimpleCall).then(|| {
                    let words: Vec<String> = op
                        .args
                        .get(1..)
                        .unwrap_or(&[])
                        .iter()
                        .map(|a| {
                            let mut v = Values::default();
                            v.push(&view, view.annotation(pos.graph as usize, *a));
                            if v.0.is_empty() {
                                "?".to_string()
                            } else {
                                v.short(&view)
                            }
                        })
                        .collect();
                    format!("({})", words.join(", "))
                });
                let Some(caller_item) = self.item_for(pi, func) else {
                    continue;
                };
                add_call(&mut out, caller_item, site, passes);
            }
        }
        out
    }

    /// What the function of `item` calls (functions and methods the annotator followed).
    pub fn outgoing_calls(&self, item: &CallItem) -> Vec<Call> {
        let mut out: Vec<Call> = Vec::new();
        for (pi, graphs) in self.graphs_of_item(item) {
            let p = &self.programs[pi];
            let Some(ann) = &p.annotated else { continue };
            let mut calls: Vec<_> = ann
                .call_targets
                .iter()
                .filter(|(pos, _)| graphs.contains(&(pos.graph as usize)))
                .collect();
            calls.sort_by_key(|(p, _)| (p.graph, p.block, p.op));
            for (pos, targets) in calls {
                let Some((_, site)) = self.call_site(pi, ann, *pos) else {
                    continue;
                };
                for &t in targets.iter() {
                    let Some(func) = ann.graphs.get(t as usize).and_then(|g| g.func) else {
                        continue;
                    };
                    let Some(callee) = self.item_for(pi, func) else {
                        continue;
                    };
                    add_call(&mut out, callee, site, None);
                }
            }
        }
        out
    }
}

/// Whether the `def` at `offset` is directly in a class body: the nearest line above it with
/// less indentation is a `class` statement.
fn defined_in_class(text: &str, offset: usize) -> bool {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    if indent == 0 {
        return false;
    }
    for l in text[..line_start].lines().rev() {
        let t = l.trim_start_matches([' ', '\t']);
        if t.is_empty() || t.starts_with('#') || t.starts_with('@') {
            continue;
        }
        if l.len() - t.len() < indent {
            return t.starts_with("class ");
        }
    }
    false
}

/// Records a call of (or from) `item` at `site` in `out`: one entry per function, its call
/// sites and the argument types passed (`passes`) each listed once.
fn add_call(out: &mut Vec<Call>, item: CallItem, site: Span, passes: Option<String>) {
    let k = match out.iter().position(|c| c.item.name_span == item.name_span) {
        Some(k) => k,
        None => {
            out.push(Call {
                item,
                sites: Vec::new(),
                passes: Vec::new(),
            });
            out.len() - 1
        }
    };
    let entry = &mut out[k];
    if !entry.sites.contains(&site) {
        entry.sites.push(site);
    }
    if let Some(p) = passes {
        if !entry.passes.contains(&p) {
            entry.passes.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::defined_in_class;

    #[test]
    fn methods_are_defs_in_class_bodies() {
        let text = "class A(object):\n    @staticmethod\n    def f():\n        def g():\n            pass\n";
        assert!(defined_in_class(text, text.find("def f").unwrap()));
        assert!(!defined_in_class(text, text.find("def g").unwrap()));
        assert!(!defined_in_class("def h():\n    pass\n", 0));
    }
}
