//! Type queries on the annotated graphs of the programs that reach a file: the annotation of
//! the local, parameter, attribute or expression at a position (hover), the inferred types
//! of parameters and first assignments (inlay hints), and where a local or an instance
//! attribute is defined.
//!
//! The cursor is mapped to a graph through the spans of the function definitions (the
//! innermost one containing it; specializations of one function share a span and are read
//! together), and to its Variables through the graph's `side.local_refs` (every `LoadFast` and
//! `StoreFast` flowed, with the span of the name and the value it held), the start block's
//! input arguments (parameters) and the spans of the operations (attributes, expressions).

use super::queries::{HoverInfo, InlayHint, Location};
use super::Analysis;
use crate::annotator::{AnnotatedProgram, SomeValue};
use crate::compiler::CodeObject;
use crate::fasthash::HashMap;
use crate::flowspace::{FunctionGraph, Hlvalue};
use crate::interpreter::Op;
use crate::objspace::object::{Heap, Object, Value};
use crate::syntax::{FileId, Span};
use std::path::Path;
use std::rc::Rc;

/// One program's graphs in one file.
pub(super) struct View<'a> {
    pub(super) pi: usize,
    pub(super) heap: &'a Heap,
    /// The file's id in the program's own source map.
    pub(super) file: FileId,
    pub(super) text: &'a str,
    /// The annotator's result; `None` for the flow-only graphs of a program.
    pub(super) ann: Option<&'a AnnotatedProgram>,
    pub(super) graphs: &'a [FunctionGraph],
    /// The indexes of the graphs defined in `file`.
    pub(super) in_file: &'a [usize],
}

/// Per program, the indexes of its annotated and flow-only graphs by file: a hover looks at
/// the graphs of its file only, whatever the size of the program.
#[derive(Default)]
pub struct GraphsByFile {
    annotated: std::cell::OnceCell<HashMap<FileId, Vec<usize>>>,
    flow_only: std::cell::OnceCell<HashMap<FileId, Vec<usize>>>,
}

fn index_by_file(graphs: &[FunctionGraph]) -> HashMap<FileId, Vec<usize>> {
    let mut out: HashMap<FileId, Vec<usize>> = HashMap::default();
    for (i, g) in graphs.iter().enumerate() {
        out.entry(g.span.file).or_default().push(i);
    }
    out
}

/// The graphs of one function (its specializations), by index into the view's graphs.
pub(super) struct Group {
    pub(super) graphs: Vec<usize>,
    pub(super) span: Span,
    pub(super) code: Rc<CodeObject>,
}

impl Group {
    pub(super) fn contains(&self, offset: u32) -> bool {
        self.span.start <= offset && offset <= self.span.end
    }
}

impl View<'_> {
    pub(super) fn code(&self, g: usize) -> Option<Rc<CodeObject>> {
        let f = self.graphs[g].func?;
        self.heap.function(Value::Obj(f)).map(|f| f.code.clone())
    }

    /// The functions defined in the file, innermost first when they nest.
    pub(super) fn groups(&self) -> Vec<Group> {
        let mut by_span: HashMap<(u32, u32), usize> = HashMap::default();
        let mut out: Vec<Group> = Vec::new();
        for &i in self.in_file {
            let g = &self.graphs[i];
            let Some(code) = self.code(i) else { continue };
            match by_span.get(&(g.span.start, g.span.end)) {
                Some(&k) => out[k].graphs.push(i),
                None => {
                    by_span.insert((g.span.start, g.span.end), out.len());
                    out.push(Group {
                        graphs: vec![i],
                        span: g.span,
                        code,
                    });
                }
            }
        }
        out.sort_by_key(|gr| (gr.span.end - gr.span.start, gr.span.start));
        out
    }

    pub(super) fn groups_at(&self, offset: u32) -> Vec<Group> {
        self.groups()
            .into_iter()
            .filter(|gr| gr.contains(offset))
            .collect()
    }

    /// The annotation of an argument of graph `g`.
    pub(super) fn annotation(&self, g: usize, a: Hlvalue) -> Option<SomeValue> {
        let ann = self.ann?;
        match a {
            Hlvalue::Var(v) => ann.bindings.get(g)?.get(v.0 as usize)?.clone(),
            Hlvalue::Const(c) => ann.bookkeeper.known_value(self.heap, c),
            Hlvalue::Ll(_) => None,
        }
    }

    /// The Variables of the parameter `name` of the graphs of a group.
    pub(super) fn param_values(&self, group: &Group, name: &str) -> Values {
        let mut vals = Values::default();
        for &g in &group.graphs {
            let graph = &self.graphs[g];
            for &v in &graph.block(graph.startblock).inputargs {
                if graph.var(v).name_hint.as_deref() == Some(name) {
                    vals.push(self, self.annotation(g, Hlvalue::Var(v)));
                }
            }
        }
        vals
    }

    /// The values a local held at the name spanning `[start, end)` (the stored value when
    /// the name is written there).
    pub(super) fn local_values(
        &self,
        group: &Group,
        start: u32,
        end: u32,
    ) -> Option<(Rc<str>, Values)> {
        let mut name = None;
        let mut loads = Values::default();
        let mut stores = Values::default();
        for &g in &group.graphs {
            for r in &self.graphs[g].side.local_refs {
                if r.span.file != self.file || r.span.start != start || r.span.end != end {
                    continue;
                }
                name = group.code.co_varnames.get(r.local as usize).cloned();
                let s = self.annotation(g, r.value);
                if r.store {
                    stores.push(self, s);
                } else {
                    loads.push(self, s);
                }
            }
        }
        let name = name?;
        Some((name, if stores.0.is_empty() { loads } else { stores }))
    }

    /// The parameter of the group's function whose name spans `[start, end)`.
    fn param_at(&self, group: &Group, start: u32, end: u32) -> Option<Rc<str>> {
        let header_start = group.code.name_span.end as usize;
        param_spans(self.text, header_start)
            .into_iter()
            .find(|&(s, e)| s as u32 == start && e as u32 == end)
            .map(|(s, e)| Rc::from(&self.text[s..e]))
    }

    /// The attribute operation (`getattr`/`setattr` with a constant name) whose attribute
    /// name spans `[start, end)`: its graph and arguments.
    fn attr_ops(&self, group: &Group, start: u32, end: u32) -> Vec<(usize, Op, Vec<Hlvalue>, u32)> {
        let name = &self.text[start as usize..end as usize];
        let mut out = Vec::new();
        for &g in &group.graphs {
            let graph = &self.graphs[g];
            for b in graph.iterblocks() {
                for op in &graph.block(b).operations {
                    if !matches!(op.opname, Op::GetAttr | Op::SetAttr)
                        || op.span.file != self.file
                        || op.span.end != end
                        || op.span.start >= start
                    {
                        continue;
                    }
                    let attr = match op.args.get(1) {
                        Some(Hlvalue::Const(Value::Obj(id))) => match self.heap.get(*id) {
                            Object::Str(s) => s.as_ref() == name.as_bytes(),
                            _ => false,
                        },
                        _ => false,
                    };
                    if attr {
                        out.push((g, op.opname, op.args.clone(), op.result.0));
                    }
                }
            }
        }
        out
    }
}

/// Annotations, without repeats.
#[derive(Default)]
pub(super) struct Values(pub(super) Vec<SomeValue>);

impl Values {
    pub(super) fn push(&mut self, view: &View, s: Option<SomeValue>) {
        let (Some(s), Some(ann)) = (s, view.ann) else {
            return;
        };
        if !self.0.iter().any(|x| ann.bookkeeper.eq(view.heap, x, &s)) {
            self.0.push(s);
        }
    }

    /// Some value that is neither poisoned by an error (already reported) nor impossible.
    fn worth_a_hint(&self) -> bool {
        self.0.iter().any(|s| !s.is_error() && !s.is_impossible())
    }

    fn words(&self, view: &View, f: impl Fn(&AnnotatedProgram, &SomeValue) -> String) -> String {
        let Some(ann) = view.ann else {
            return String::new();
        };
        let mut out: Vec<String> = Vec::new();
        for s in &self.0 {
            let w = f(ann, s);
            if !out.contains(&w) {
                out.push(w);
            }
        }
        out.join(" | ")
    }

    pub(super) fn plain(&self, view: &View) -> String {
        self.words(view, |ann, s| ann.describe(view.heap, s))
    }

    pub(super) fn form(&self, view: &View) -> String {
        self.words(view, |ann, s| ann.annotator_form(view.heap, s))
    }

    pub(super) fn short(&self, view: &View) -> String {
        self.words(view, |ann, s| ann.bookkeeper.describe_short(view.heap, s))
    }
}

/// Spans of the parameter names of the `def` whose name ends at `from`: the identifiers
/// that open a parameter (after `(`, `,`, `*` or `**` at depth 1), up to the closing `)`.
/// Strings and comments in default values are skipped.
pub(super) fn param_spans(text: &str, from: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    while i < b.len() && b[i] != b'(' {
        if b[i] == b':' || b[i] == b'\n' {
            return out;
        }
        i += 1;
    }
    let mut depth = 0usize;
    let mut expect = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' | b'[' | b'{' => {
                depth += 1;
                expect = depth == 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => expect = true,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                expect = false;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if expect && depth == 1 {
                    out.push((s, i));
                }
                expect = false;
                continue;
            }
            b'*' | b' ' | b'\t' | b'\n' | b'\r' | b'\\' => {}
            _ => expect = false,
        }
        i += 1;
    }
    out
}

/// The code object of the innermost function of `file` (defined at import time, or nested
/// in one) whose definition contains `offset`.
fn enclosing_code(heap: &Heap, file: FileId, offset: u32) -> Option<Rc<CodeObject>> {
    let contains = |s: Span| s.file == file && s.start <= offset && offset <= s.end;
    let mut best: Option<Rc<CodeObject>> = None;
    for i in 0..heap.len() {
        if let Object::Function(f) = heap.get(crate::objspace::object::ObjId(i as u32)) {
            let s = f.code.span;
            if contains(s)
                && best
                    .as_ref()
                    .is_none_or(|b| s.end - s.start < b.span.end - b.span.start)
            {
                best = Some(f.code.clone());
            }
        }
    }
    let mut code = best?;
    'descend: loop {
        for c in &code.co_consts {
            if let crate::compiler::Const::Code(inner) = c {
                if contains(inner.span) {
                    code = inner.clone();
                    continue 'descend;
                }
            }
        }
        return Some(code);
    }
}

/// Whether the line holding `offset` is a statement that binds names without an
/// assignment worth a hint (`def`, `class`, imports, decorators, `global`).
fn is_binding_statement(text: &str, offset: usize) -> bool {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].trim_start();
    ["def ", "class ", "import ", "from ", "@", "global "]
        .iter()
        .any(|k| line.starts_with(k))
}

impl Analysis {
    /// Every program's view of a file: the annotated graphs first, then the flow-only ones.
    pub(super) fn views<'a>(&'a self, path: &Path) -> Vec<View<'a>> {
        let mut annotated = Vec::new();
        let mut flow_only = Vec::new();
        for (pi, p) in self.programs.iter().enumerate() {
            let Some(file) = p.space.sources.find(path) else {
                continue;
            };
            let text = p.space.sources.get(file).text.as_str();
            let in_file = |index: &'a std::cell::OnceCell<HashMap<FileId, Vec<usize>>>,
                           graphs: &[FunctionGraph]|
             -> &'a [usize] {
                index
                    .get_or_init(|| index_by_file(graphs))
                    .get(&file)
                    .map_or(&[], |v| &v[..])
            };
            if let Some(ann) = &p.annotated {
                annotated.push(View {
                    pi,
                    heap: &p.space.heap,
                    file,
                    text,
                    ann: Some(ann),
                    graphs: &ann.graphs,
                    in_file: in_file(&p.graphs_by_file.annotated, &ann.graphs),
                });
            }
            flow_only.push(View {
                pi,
                heap: &p.space.heap,
                file,
                text,
                ann: None,
                graphs: &p.graphs,
                in_file: in_file(&p.graphs_by_file.flow_only, &p.graphs),
            });
        }
        annotated.extend(flow_only);
        annotated
    }

    /// Hover on a local, a parameter, a function's name or an attribute, from the graphs.
    pub(super) fn type_hover(
        &self,
        path: &Path,
        fid: FileId,
        start: u32,
        end: u32,
    ) -> Option<HoverInfo> {
        let span = Span::new(fid, start, end);
        for view in self.views(path) {
            if view.ann.is_none() {
                continue;
            }
            let all = view.groups();
            // The name of a `def`.
            for gr in &all {
                if gr.code.name_span.start == start && gr.code.name_span.end == end {
                    if let Some((plain, form)) = signature(&view, &gr.graphs) {
                        return Some(HoverInfo {
                            span,
                            plain,
                            annotator_form: form,
                        });
                    }
                }
            }
            for gr in all.iter().filter(|gr| gr.contains(start)) {
                let (what, name, vals) = if let Some(name) = view.param_at(gr, start, end) {
                    let vals = view.param_values(gr, &name);
                    ("parameter", name, vals)
                } else if let Some((name, vals)) = view.local_values(gr, start, end) {
                    ("variable", name, vals)
                } else if let Some(h) = attr_hover(&view, gr, start, end) {
                    return Some(HoverInfo { span, ..h });
                } else {
                    continue;
                };
                if vals.0.is_empty() {
                    return Some(HoverInfo {
                        span,
                        plain: format!(
                            "({what}) {name}\nno type: the annotator never reaches this code"
                        ),
                        annotator_form: None,
                    });
                }
                let words = self
                    .known_words(&view, gr, &vals, start, end)
                    .unwrap_or_else(|| vals.plain(&view));
                return Some(HoverInfo {
                    span,
                    plain: format!("({what}) {name}: {words}"),
                    annotator_form: Some(vals.form(&view)),
                });
            }
        }
        // A local of a function the annotator did not reach: say so.
        let name = self
            .sources
            .get(fid)
            .text
            .get(start as usize..end as usize)?;
        for p in &self.programs {
            let Some(file) = p.space.sources.find(path) else {
                continue;
            };
            let Some(code) = enclosing_code(&p.space.heap, file, start) else {
                continue;
            };
            if !code.co_varnames.iter().any(|v| &**v == name) {
                continue;
            }
            let annotated = p.annotated.as_ref().is_some_and(|ann| {
                ann.graphs
                    .iter()
                    .any(|g| g.span == code.span && !g.side.local_refs.is_empty())
            });
            let why = if annotated {
                "the annotator never reaches this code".to_string()
            } else {
                format!("`{}` is not reached from an entry point", code.co_name)
            };
            let what = if code.co_varnames[..code.co_argcount as usize]
                .iter()
                .any(|v| &**v == name)
            {
                "parameter"
            } else {
                "variable"
            };
            return Some(HoverInfo {
                span,
                plain: format!("({what}) {name}\nno type: {why}"),
                annotator_form: None,
            });
        }
        None
    }

    /// The signature of a function object, from its graphs, when it was annotated.
    pub(super) fn function_signature(
        &self,
        pi: usize,
        func: Value,
    ) -> Option<(String, Option<String>)> {
        let Value::Obj(f) = func else { return None };
        let p = &self.programs[pi];
        let ann = p.annotated.as_ref()?;
        let graphs: Vec<usize> = ann.graph_of_func.get(&f)?.clone();
        let view = View {
            pi,
            heap: &p.space.heap,
            file: FileId(0),
            text: "",
            ann: Some(ann),
            graphs: &ann.graphs,
            // (no file: only `graphs` below are read)
            in_file: &[],
        };
        signature(&view, &graphs)
    }

    /// Hover on an expression: the result of the innermost operation around `offset`.
    pub(super) fn expression_hover(
        &self,
        path: &Path,
        fid: FileId,
        offset: u32,
    ) -> Option<HoverInfo> {
        for view in self.views(path) {
            if view.ann.is_none() {
                continue;
            }
            let Some(gr) = view.groups_at(offset).into_iter().next() else {
                continue;
            };
            let mut best: Option<(u32, u32)> = None;
            let mut found: Vec<(usize, Hlvalue)> = Vec::new();
            for &g in &gr.graphs {
                let graph = &view.graphs[g];
                for b in graph.iterblocks() {
                    let mut last_here: Option<(usize, Hlvalue, (u32, u32))> = None;
                    for op in &graph.block(b).operations {
                        let s = op.span;
                        if s.file != view.file
                            || s.start > offset
                            || offset >= s.end
                            || matches!(op.opname, Op::SetAttr | Op::SetItem | Op::DelItem)
                        {
                            continue;
                        }
                        let key = (s.start, s.end);
                        let better = match best {
                            None => true,
                            Some((bs, be)) => s.end - s.start < be - bs,
                        };
                        if better {
                            best = Some(key);
                            found.clear();
                        }
                        if best == Some(key) {
                            last_here = Some((g, Hlvalue::Var(op.result), key));
                        }
                    }
                    if let Some((g, v, key)) = last_here {
                        if best == Some(key) {
                            found.push((g, v));
                        }
                    }
                }
            }
            let (bs, be) = best?;
            let mut vals = Values::default();
            for (g, v) in found {
                vals.push(&view, view.annotation(g, v));
            }
            if vals.0.is_empty() {
                continue;
            }
            let plain = self
                .known_words(&view, &gr, &vals, bs, be)
                .unwrap_or_else(|| vals.plain(&view));
            return Some(HoverInfo {
                span: Span::new(fid, bs, be),
                plain,
                annotator_form: Some(vals.form(&view)),
            });
        }
        None
    }

    /// Inlay hints: `: type` after each parameter (but `self`) and after the first
    /// assignment of each local, in the functions the annotator reached.
    pub(super) fn type_inlay_hints(&self, path: &Path) -> Vec<InlayHint> {
        let mut out = Vec::new();
        let Some(view) = self.views(path).into_iter().find(|v| v.ann.is_some()) else {
            return out;
        };
        for gr in view.groups() {
            let code = &gr.code;
            let mut params: Vec<Rc<str>> = Vec::new();
            for (s, e) in param_spans(view.text, code.name_span.end as usize) {
                let name = &view.text[s..e];
                params.push(Rc::from(name));
                if name == "self" {
                    continue;
                }
                let vals = view.param_values(&gr, name);
                if vals.worth_a_hint() {
                    out.push(InlayHint {
                        offset: e as u32,
                        label: format!(": {}", vals.short(&view)),
                    });
                }
            }
            // The first store of each local, in source order.
            let mut first: HashMap<u32, Span> = HashMap::default();
            for &g in &gr.graphs {
                for r in &view.graphs[g].side.local_refs {
                    if !r.store || r.span.file != view.file {
                        continue;
                    }
                    let e = first.entry(r.local).or_insert(r.span);
                    if r.span.start < e.start {
                        *e = r.span;
                    }
                }
            }
            let mut firsts: Vec<(u32, Span)> = first.into_iter().collect();
            firsts.sort_by_key(|(_, s)| s.start);
            for (local, span) in firsts {
                let Some(name) = code.co_varnames.get(local as usize) else {
                    continue;
                };
                let (s, e) = (span.start as usize, span.end as usize);
                if params.contains(name)
                    || view.text.get(s..e) != Some(&**name)
                    || is_binding_statement(view.text, s)
                {
                    continue;
                }
                if let Some((_, vals)) = view.local_values(&gr, span.start, span.end) {
                    if vals.worth_a_hint() {
                        out.push(InlayHint {
                            offset: span.end,
                            label: format!(": {}", vals.short(&view)),
                        });
                    }
                }
            }
        }
        out.sort_by_key(|h| h.offset);
        out
    }

    /// Definition of a local (its parameter or first assignment in the function) or of an
    /// instance attribute (its class-level definition or first assignment).
    pub(super) fn type_definition(
        &self,
        path: &Path,
        fid: FileId,
        start: u32,
        end: u32,
    ) -> Option<Location> {
        let here = |s: u32, e: u32| Location {
            path: path.to_path_buf(),
            span: Span::new(fid, s, e),
        };
        for view in self.views(path) {
            for gr in view.groups_at(start) {
                let params = param_spans(view.text, gr.code.name_span.end as usize);
                let name: Rc<str> = if let Some(name) = view.param_at(&gr, start, end) {
                    name
                } else if let Some((name, _)) = view.local_values(&gr, start, end) {
                    name
                } else {
                    if view.ann.is_some() {
                        if let Some(loc) = self.attr_definition(&view, &gr, start, end) {
                            return Some(loc);
                        }
                    }
                    continue;
                };
                if let Some(&(s, e)) = params.iter().find(|&&(s, e)| view.text[s..e] == *name) {
                    return Some(here(s as u32, e as u32));
                }
                let first = gr
                    .graphs
                    .iter()
                    .flat_map(|&g| view.graphs[g].side.local_refs.iter())
                    .filter(|r| {
                        r.store
                            && r.span.file == view.file
                            && gr.code.co_varnames.get(r.local as usize) == Some(&name)
                    })
                    .map(|r| r.span)
                    .min_by_key(|s| s.start)?;
                return Some(here(first.start, first.end));
            }
        }
        None
    }

    fn attr_definition(&self, view: &View, gr: &Group, start: u32, end: u32) -> Option<Location> {
        let ann = view.ann?;
        let bk = &ann.bookkeeper;
        let name = &view.text[start as usize..end as usize];
        let (g, _, args, _) = view.attr_ops(gr, start, end).into_iter().next()?;
        let SomeValue::Instance { classdef, .. } = view.annotation(g, args[0])? else {
            return None;
        };
        let unified = |s: Span| Span {
            file: self.unified(view.pi, s.file),
            ..s
        };
        let location = |s: Span| {
            let s = unified(s);
            Some(Location {
                path: self.sources.get(s.file).path.clone(),
                span: s,
            })
        };
        for cd in bk.mro_defs(classdef) {
            let desc = bk.classdef(cd).desc;
            let Some(cdesc) = bk.class_desc(desc) else {
                continue;
            };
            // A class-level attribute: a method, or an assignment in the class body.
            if let Some(v) = view.heap.class(cdesc.cls).and_then(|c| c.dict.get(name)) {
                if let Some(f) = view.heap.function(v) {
                    return location(f.code.name_span);
                }
                let cspan = view.heap.class(cdesc.cls)?.span?;
                let src = self.programs[view.pi].space.sources.get(cspan.file);
                let body = &src.text[cspan.start as usize..cspan.end as usize];
                let mut pos = cspan.start as usize;
                for line in body.split_inclusive('\n') {
                    let t = line.trim_start();
                    let indent = line.len() - t.len();
                    if let Some(rest) = t.strip_prefix(name) {
                        let rest = rest.trim_start();
                        if rest.starts_with('=') && !rest.starts_with("==") {
                            let s = (pos + indent) as u32;
                            return location(Span::new(cspan.file, s, s + name.len() as u32));
                        }
                    }
                    pos += line.len();
                }
                return location(cdesc.name_span.or(Some(cspan))?);
            }
            if bk.classdef(cd).attrs.contains_key(name) {
                return self.first_attr_store(view, ann, cd, name).or_else(|| {
                    // Stored only at import time (a prebuilt instance's `__init__` ran
                    // then, not under the annotator): the first `self.name =` in the
                    // classes' bodies.
                    bk.mro_defs(classdef).into_iter().find_map(|c| {
                        let cls = bk.class_desc(bk.classdef(c).desc)?.cls;
                        let cspan = view.heap.class(cls)?.span?;
                        let src = self.programs[view.pi].space.sources.get(cspan.file);
                        let body = src.text.get(cspan.start as usize..cspan.end as usize)?;
                        let at = self_store_in(body, name)?;
                        let s = cspan.start + at as u32;
                        location(Span::new(cspan.file, s, s + name.len() as u32))
                    })
                });
            }
        }
        None
    }

    /// The first `x.name = ...` on an instance of `cd` or a subclass: in an `__init__` if
    /// there is one, else the first in source order.
    fn first_attr_store(
        &self,
        view: &View,
        ann: &AnnotatedProgram,
        cd: crate::annotator::ClassDefId,
        name: &str,
    ) -> Option<Location> {
        let bk = &ann.bookkeeper;
        let mut best: Option<(bool, Span)> = None;
        for (g, graph) in ann.graphs.iter().enumerate() {
            let not_init = &*graph.name != "__init__";
            for b in graph.iterblocks() {
                for op in &graph.block(b).operations {
                    if op.opname != Op::SetAttr {
                        continue;
                    }
                    let is_name = matches!(op.args.get(1), Some(Hlvalue::Const(Value::Obj(id)))
                        if matches!(view.heap.get(*id), Object::Str(s) if s.as_ref() == name.as_bytes()));
                    if !is_name {
                        continue;
                    }
                    let on_cd = matches!(view.annotation(g, op.args[0]),
                        Some(SomeValue::Instance { classdef, .. }) if bk.issubclass_def(classdef, cd));
                    if !on_cd {
                        continue;
                    }
                    let key = (not_init, op.span);
                    let better = match best {
                        None => true,
                        Some((n, s)) => (key.0, key.1.file.0, key.1.start) < (n, s.file.0, s.start),
                    };
                    if better {
                        best = Some(key);
                    }
                }
            }
        }
        let (_, s) = best?;
        let s = Span {
            file: self.unified(view.pi, s.file),
            ..s
        };
        // The attribute's name: the end of the target `x.name`.
        let at = Span::new(s.file, s.end.saturating_sub(name.len() as u32), s.end);
        Some(Location {
            path: self.sources.get(s.file).path.clone(),
            span: at,
        })
    }
}

/// Offset in a class body of `name` in its first `self.name = ...` (not `==`).
fn self_store_in(body: &str, name: &str) -> Option<usize> {
    let needle = format!("self.{name}");
    let mut from = 0;
    while let Some(i) = body[from..].find(&needle) {
        let at = from + i;
        let after = body[at + needle.len()..].trim_start_matches([' ', '\t']);
        let ends_name =
            !body[at + needle.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if ends_name && after.starts_with('=') && !after.starts_with("==") {
            return Some(at + "self.".len());
        }
        from = at + needle.len();
    }
    None
}

/// Hover on `x.name`: the instance attribute's annotation on its class, or what the
/// `getattr` produced.
fn attr_hover(view: &View, gr: &Group, start: u32, end: u32) -> Option<HoverInfo> {
    let ann = view.ann?;
    let bk = &ann.bookkeeper;
    let name = &view.text[start as usize..end as usize];
    let ops = view.attr_ops(gr, start, end);
    let mut attr = Values::default();
    let mut owner = None;
    let mut read = Values::default();
    for (g, opname, args, result) in &ops {
        if let Some(SomeValue::Instance { classdef, .. }) = view.annotation(*g, args[0]) {
            if let Some((cd, a)) = bk.find_attr(classdef, name) {
                owner = Some(cd);
                attr.push(view, Some(a.s_value.clone()));
            }
        }
        if *opname == Op::GetAttr {
            read.push(
                view,
                view.annotation(*g, Hlvalue::Var(crate::flowspace::VarId(*result))),
            );
        }
    }
    // A method: its signature.
    for vals in [&attr, &read] {
        if let [s] = vals.0.as_slice() {
            let graphs: Vec<usize> = bk.graphs_of(s).into_iter().map(|g| g as usize).collect();
            if let Some((plain, form)) = signature(view, &graphs) {
                return Some(HoverInfo {
                    span: Span::default(),
                    plain,
                    annotator_form: form,
                });
            }
        }
    }
    if let (Some(cd), false) = (owner, attr.0.is_empty()) {
        return Some(HoverInfo {
            span: Span::default(),
            plain: format!(
                "(attribute) {}.{}: {}",
                bk.classdef(cd).name,
                name,
                attr.plain(view)
            ),
            annotator_form: Some(attr.form(view)),
        });
    }
    if read.0.is_empty() {
        return None;
    }
    Some(HoverInfo {
        span: Span::default(),
        plain: format!("(attribute) {}: {}", name, read.plain(view)),
        annotator_form: Some(read.form(view)),
    })
}

/// `def name(params)` with each parameter's annotation and the return annotation, over the
/// given graphs of one function; and the annotator's form `name(...) -> ...`.
pub(super) fn signature(view: &View, graphs: &[usize]) -> Option<(String, Option<String>)> {
    let ann = view.ann?;
    let g0 = *graphs.first()?;
    let graph = &view.graphs[g0];
    let code = view.code(g0)?;
    let sig = crate::interpreter::arguments::Signature::from_code(&code);
    let mut names: Vec<String> = sig.argnames.iter().map(|a| a.to_string()).collect();
    let mut shown = names.clone();
    if let Some(va) = &sig.varargs {
        names.push(va.to_string());
        shown.push(format!("*{}", va));
    }
    let mut plain = format!("def {}({})", graph.name, shown.join(", "));
    let mut forms = Vec::new();
    for name in &names {
        let mut vals = Values::default();
        for &g in graphs {
            let gr = &view.graphs[g];
            for &v in &gr.block(gr.startblock).inputargs {
                if gr.var(v).name_hint.as_deref() == Some(name.as_str()) {
                    vals.push(view, ann.bindings[g][v.0 as usize].clone());
                }
            }
        }
        if vals.0.is_empty() {
            forms.push("?".to_string());
            continue;
        }
        plain.push_str(&format!("\n{}: {}", name, vals.plain(view)));
        forms.push(vals.form(view));
    }
    let mut ret = Values::default();
    for &g in graphs {
        ret.push(view, ann.return_annotation(g).cloned());
    }
    if ret.0.is_empty() {
        return Some((plain, None));
    }
    plain.push_str(&format!("\nreturns: {}", ret.plain(view)));
    let form = format!("{}({}) -> {}", graph.name, forms.join(", "), ret.form(view));
    Some((plain, Some(form)))
}

#[cfg(test)]
#[path = "types_tests.rs"]
mod tests;
