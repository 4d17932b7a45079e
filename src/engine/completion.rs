//! Completion and signature help: what can be written at a position of a buffer, with the
//! types the annotator inferred.
//!
//! Takes the buffer's current text (which may be newer than the analysed one, and may not
//! parse: the user is typing `x.`) and an offset in it; gives members (`x.` → attributes
//! and methods of x's inferred class, members of a module or class, methods of a built-in
//! type) or names in scope, and for an open call the callee's parameters with their types.
//!
//! The text before the cursor is read, not parsed: a receiver is a dotted name (`self.node.`),
//! its first name is looked up among the locals and parameters of the enclosing function
//! (found by indentation and name, so edits elsewhere do not lose it), then among the
//! module's globals and the built-ins.

use super::types::{Values, View};
use super::Analysis;
use crate::annotator::SomeValue;
use crate::flowspace::Hlvalue;
use crate::objspace::object::{Object, Value};
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Field,
    Method,
    Function,
    Class,
    Module,
    Variable,
    Constant,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// The inferred type (or signature), in the short words of inlay hints.
    pub detail: String,
}

/// What a dotted name before the cursor stands for, in one program.
pub(super) enum Thing {
    /// An object of the import-time heap: a module, class, function, prebuilt instance.
    Value(Value),
    /// The annotations of a local, parameter or attribute.
    Ann(Vec<SomeValue>),
}

/// The identifier being typed at `offset` (possibly empty) and the dotted receiver before
/// it (`a.b.` → `["a", "b"]`; empty when there is no dot).
pub(super) fn typing_at(text: &str, offset: usize) -> (String, Vec<String>) {
    let b = text.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut start = offset.min(b.len());
    while start > 0 && is_id(b[start - 1]) {
        start -= 1;
    }
    let prefix = text[start..offset.min(b.len())].to_string();
    (prefix, receiver_before(text, start))
}

/// The dotted name ending with a `.` just before `end`: `a.b.` → `["a", "b"]`.
pub(super) fn receiver_before(text: &str, end: usize) -> Vec<String> {
    let b = text.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    if end == 0 || b[end - 1] != b'.' {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut i = end - 1;
    loop {
        // `i` is at a dot.
        let e = i;
        let mut s = e;
        while s > 0 && is_id(b[s - 1]) {
            s -= 1;
        }
        if s == e || b[s].is_ascii_digit() {
            return Vec::new();
        }
        parts.push(text[s..e].to_string());
        if s > 0 && b[s - 1] == b'.' {
            i = s - 1;
        } else {
            break;
        }
    }
    parts.reverse();
    parts
}

/// The name of the function whose body holds `offset` (by indentation), and the 0-based
/// line of its `def`.
pub(super) fn enclosing_def(text: &str, offset: usize) -> Option<(String, usize)> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let current = &text[line_start..offset];
    let mut indent = if current.trim().is_empty() {
        current.len()
    } else {
        indent_of(current)
    };
    let before: Vec<&str> = text[..line_start].split('\n').collect();
    for (n, line) in before.iter().enumerate().rev() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let i = indent_of(line);
        if i >= indent {
            continue;
        }
        if let Some(rest) = t.strip_prefix("def ") {
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            return (!name.is_empty()).then_some((name, n));
        }
        if i == 0 {
            return None;
        }
        indent = i;
    }
    None
}

impl Analysis {
    /// Completions at `offset` of `text` (the buffer of `path` as it is now).
    pub fn completions(&self, path: &Path, text: &str, offset: u32) -> Vec<Completion> {
        let offset = char_floor(text, offset as usize);
        let (prefix, receiver) = typing_at(text, offset);
        let mut out: Vec<Completion> = Vec::new();
        let mut add = |c: Completion| {
            if c.label.starts_with(prefix.as_str()) && !out.iter().any(|o| o.label == c.label) {
                out.push(c);
            }
        };
        if receiver.is_empty() {
            for c in self.names_in_scope(path, text, offset) {
                add(c);
            }
        } else if let Some((pi, view, thing)) = self.resolve_typed(path, text, offset, &receiver) {
            for c in self.members(pi, view.as_ref(), &thing) {
                add(c);
            }
        }
        out
    }

    /// What the dotted `parts` stand for at `offset` of the buffer `text` of `path`: the
    /// program, its annotated view of the file (if any) and the thing.
    pub(super) fn resolve_typed(
        &self,
        path: &Path,
        text: &str,
        offset: usize,
        parts: &[String],
    ) -> Option<(usize, Option<View<'_>>, Thing)> {
        let (first, rest) = parts.split_first()?;
        let def = enclosing_def(text, offset);
        for view in self.views(path) {
            if view.ann.is_none() {
                continue;
            }
            let Some((name, line)) = &def else { break };
            let vals = self.local_annotations(&view, name, *line, first);
            if vals.0.is_empty() {
                continue;
            }
            let mut thing = Thing::Ann(vals.0);
            for p in rest {
                thing = self.member(view.pi, Some(&view), &thing, p)?;
            }
            return Some((view.pi, Some(view), thing));
        }
        // A global (or a built-in) of the module.
        let (pi, v) = self.resolve(path, std::slice::from_ref(first))?;
        let view = self
            .views(path)
            .into_iter()
            .find(|v| v.pi == pi && v.ann.is_some());
        let mut thing = Thing::Value(v);
        for p in rest {
            thing = self.member(pi, view.as_ref(), &thing, p)?;
        }
        Some((pi, view, thing))
    }

    /// The annotations of the local or parameter `local` of the function `def` (its name and
    /// the line of its `def` in the buffer; the function on that line wins over others of
    /// the same name).
    fn local_annotations(&self, view: &View, def: &str, line: usize, local: &str) -> Values {
        let groups: Vec<_> = view
            .groups()
            .into_iter()
            .filter(|gr| &*gr.code.co_name == def)
            .collect();
        let def_line = |gr: &super::types::Group| {
            view.text[..(gr.code.name_span.start as usize).min(view.text.len())]
                .matches('\n')
                .count()
        };
        let chosen: Vec<&super::types::Group> = match groups.iter().find(|gr| def_line(gr) == line)
        {
            Some(gr) => vec![gr],
            None => groups.iter().collect(),
        };
        let mut vals = Values::default();
        for gr in chosen {
            for s in view.param_values(gr, local).0 {
                vals.push(view, Some(s));
            }
            for &g in &gr.graphs {
                for r in &view.graphs[g].side.local_refs {
                    if gr.code.co_varnames.get(r.local as usize).map(|n| &**n) == Some(local) {
                        vals.push(view, view.annotation(g, r.value));
                    }
                }
            }
        }
        vals.0.retain(|s| !s.is_impossible());
        vals
    }

    /// The member `name` of a thing.
    pub(super) fn member(
        &self,
        pi: usize,
        view: Option<&View>,
        thing: &Thing,
        name: &str,
    ) -> Option<Thing> {
        let space = &self.programs[pi].space;
        match thing {
            Thing::Value(Value::Obj(id)) => {
                let v = match space.heap.get(*id) {
                    Object::Module(m) => m.dict.get(name)?,
                    Object::Class(c) => c
                        .mro
                        .iter()
                        .find_map(|&k| space.heap.class(k).and_then(|k| k.dict.get(name)))?,
                    Object::Instance(inst) => inst.dict.get(name).or_else(|| {
                        let c = space.heap.class(inst.class)?;
                        c.mro
                            .iter()
                            .find_map(|&k| space.heap.class(k).and_then(|k| k.dict.get(name)))
                    })?,
                    _ => return None,
                };
                Some(Thing::Value(v))
            }
            Thing::Value(_) => None,
            Thing::Ann(vals) => {
                let view = view?;
                let bk = &view.ann?.bookkeeper;
                let mut out = Values::default();
                for s in vals {
                    let SomeValue::Instance { classdef, .. } = s else {
                        continue;
                    };
                    if let Some((_, a)) = bk.find_attr(*classdef, name) {
                        out.push(view, Some(a.s_value.clone()));
                    } else if let Some(f) = self.class_member(pi, view, *classdef, name) {
                        return Some(Thing::Value(f));
                    }
                }
                (!out.0.is_empty()).then_some(Thing::Ann(out.0))
            }
        }
    }

    /// A class-level member (a method) of an annotated class, through its bases.
    fn class_member(
        &self,
        pi: usize,
        view: &View,
        cd: crate::annotator::ClassDefId,
        name: &str,
    ) -> Option<Value> {
        let bk = &view.ann?.bookkeeper;
        let heap = &self.programs[pi].space.heap;
        bk.mro_defs(cd).into_iter().find_map(|c| {
            let cls = bk.class_desc(bk.classdef(c).desc)?.cls;
            heap.class(cls)?.dict.get(name)
        })
    }

    /// Every member of a thing, with its type.
    fn members(&self, pi: usize, view: Option<&View>, thing: &Thing) -> Vec<Completion> {
        let space = &self.programs[pi].space;
        let heap = &space.heap;
        let mut out: Vec<Completion> = Vec::new();
        let mut push = |c: Completion| {
            if !c.label.starts_with("__") && !out.iter().any(|o| o.label == c.label) {
                out.push(c);
            }
        };
        match thing {
            Thing::Value(Value::Obj(id)) => match heap.get(*id) {
                Object::Module(m) => {
                    for (name, v) in m.dict.iter() {
                        push(self.describe_value(pi, view, name, v, false));
                    }
                }
                Object::Class(c) => {
                    for &k in &c.mro {
                        if let Some(k) = heap.class(k).filter(|k| k.builtin.is_none()) {
                            for (name, v) in k.dict.iter() {
                                push(self.describe_value(pi, view, name, v, true));
                            }
                        }
                    }
                }
                Object::Instance(inst) => {
                    for (name, v) in inst.dict.iter() {
                        push(self.describe_value(pi, view, name, v, false));
                    }
                    for c in self.members(pi, view, &Thing::Value(Value::Obj(inst.class))) {
                        push(c);
                    }
                }
                _ => {}
            },
            Thing::Value(_) => {}
            Thing::Ann(vals) => {
                let Some(view) = view else { return out };
                let Some(ann) = view.ann else { return out };
                let bk = &ann.bookkeeper;
                for s in vals {
                    if let SomeValue::Instance { classdef, .. } = s {
                        for cd in bk.mro_defs(*classdef) {
                            let mut attrs: Vec<_> = bk.classdef(cd).attrs.iter().collect();
                            attrs.sort_by(|a, b| a.0.cmp(b.0));
                            for (name, a) in attrs {
                                let s = &a.s_value;
                                if !bk.graphs_of(s).is_empty() {
                                    // A method read through an instance: its signature.
                                    continue;
                                }
                                push(Completion {
                                    label: name.to_string(),
                                    kind: CompletionKind::Field,
                                    detail: bk.describe_short(heap, s),
                                });
                            }
                        }
                        for cd in bk.mro_defs(*classdef) {
                            let Some(cls) = bk.class_desc(bk.classdef(cd).desc).map(|d| d.cls)
                            else {
                                continue;
                            };
                            let Some(c) = heap.class(cls) else { continue };
                            for (name, v) in c.dict.iter() {
                                push(self.describe_value(pi, Some(view), name, v, true));
                            }
                        }
                    } else if let Some((tname, methods)) = crate::annotator::builtin_methods(s) {
                        for m in methods {
                            push(Completion {
                                label: m.short_name().to_string(),
                                kind: CompletionKind::Method,
                                detail: format!("method of {tname}"),
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// A member or name with what is known of it: a function's signature with its inferred
    /// types, a class, a module, a constant's annotation.
    fn describe_value(
        &self,
        pi: usize,
        view: Option<&View>,
        name: &str,
        v: Value,
        in_class: bool,
    ) -> Completion {
        let heap = &self.programs[pi].space.heap;
        let (kind, detail) = match v {
            Value::Obj(id) => match heap.get(id) {
                Object::Function(_)
                | Object::StaticMethod(_)
                | Object::ClassMethod(_)
                | Object::BoundMethod { .. } => (
                    if in_class {
                        CompletionKind::Method
                    } else {
                        CompletionKind::Function
                    },
                    self.short_signature(pi, v, in_class).unwrap_or_default(),
                ),
                Object::Class(_) => (CompletionKind::Class, "class".to_string()),
                Object::Module(m) => (CompletionKind::Module, format!("module {}", m.name)),
                _ => (CompletionKind::Constant, self.constant_type(pi, view, v)),
            },
            _ => (CompletionKind::Constant, self.constant_type(pi, view, v)),
        };
        Completion {
            label: name.to_string(),
            kind,
            detail,
        }
    }

    pub(super) fn constant_type(&self, pi: usize, view: Option<&View>, v: Value) -> String {
        let heap = &self.programs[pi].space.heap;
        match view.and_then(|view| view.ann) {
            Some(ann) => match ann.bookkeeper.known_value(heap, v) {
                Some(s) if !s.is_error() => ann.bookkeeper.describe_short(heap, &s),
                _ => crate::flowspace::render::describe_const(heap, v),
            },
            None => crate::flowspace::render::describe_const(heap, v),
        }
    }

    /// `(a: int, b: str) -> int` for a function of program `pi`: the parameters with their
    /// inferred types when it was annotated (`self` left out of methods).
    pub(super) fn short_signature(&self, pi: usize, func: Value, method: bool) -> Option<String> {
        let (params, ret) = self.parameters(pi, func, method)?;
        let shown: Vec<String> = params
            .iter()
            .map(|(n, t)| match t {
                Some(t) => format!("{n}: {t}"),
                None => n.clone(),
            })
            .collect();
        Some(match ret {
            Some(r) => format!("({}) -> {r}", shown.join(", ")),
            None => format!("({})", shown.join(", ")),
        })
    }

    /// A function's parameters (`*args` spelled so), each with its inferred type when the
    /// annotator reached the function, and the return type. `skip_self` leaves out the
    /// first parameter (a method called through an instance).
    #[allow(clippy::type_complexity)]
    pub(super) fn parameters(
        &self,
        pi: usize,
        func: Value,
        skip_self: bool,
    ) -> Option<(Vec<(String, Option<String>)>, Option<String>)> {
        let p = &self.programs[pi];
        let heap = &p.space.heap;
        let Value::Obj(id) = func else { return None };
        let (fid, skip_self) = match heap.get(id) {
            Object::Function(_) => (id, skip_self),
            Object::StaticMethod(Value::Obj(f)) => (*f, false),
            Object::ClassMethod(Value::Obj(f)) => (*f, true),
            Object::BoundMethod {
                func: Value::Obj(f),
                ..
            } => (*f, true),
            _ => return None,
        };
        let f = heap.function(Value::Obj(fid))?;
        let sig = crate::interpreter::arguments::Signature::from_code(&f.code);
        let mut names: Vec<(String, String)> = sig
            .argnames
            .iter()
            .map(|a| (a.to_string(), a.to_string()))
            .collect();
        if let Some(va) = &sig.varargs {
            names.push((va.to_string(), format!("*{va}")));
        }
        if skip_self && !names.is_empty() {
            names.remove(0);
        }
        let ann = p.annotated.as_ref();
        let graphs: Vec<usize> = ann
            .and_then(|a| a.graph_of_func.get(&fid).cloned())
            .unwrap_or_default();
        let view = ann.map(|ann| View {
            pi,
            heap,
            file: crate::syntax::FileId(0),
            text: "",
            ann: Some(ann),
            graphs: &ann.graphs,
            // every graph is looked up by index here, not by file
            in_file: &[],
        });
        let mut params = Vec::new();
        for (name, shown) in names {
            let ty = view.as_ref().and_then(|view| {
                let mut vals = Values::default();
                for &g in &graphs {
                    let gr = &view.graphs[g];
                    for &v in &gr.block(gr.startblock).inputargs {
                        if gr.var(v).name_hint.as_deref() == Some(name.as_str()) {
                            vals.push(view, view.annotation(g, Hlvalue::Var(v)));
                        }
                    }
                }
                (!vals.0.is_empty()).then(|| signature_words(&vals, view))
            });
            params.push((shown, ty));
        }
        let ret = view.as_ref().and_then(|view| {
            let mut vals = Values::default();
            for &g in &graphs {
                vals.push(view, view.ann?.return_annotation(g).cloned());
            }
            (!vals.0.is_empty()).then(|| signature_words(&vals, view))
        });
        Some((params, ret))
    }

    /// Names visible at `offset`: the enclosing function's locals and parameters, then the
    /// module's globals.
    fn names_in_scope(&self, path: &Path, text: &str, offset: usize) -> Vec<Completion> {
        let mut out = Vec::new();
        if let Some((def, line)) = enclosing_def(text, offset) {
            if let Some(view) = self.views(path).into_iter().find(|v| v.ann.is_some()) {
                let mut names: Vec<std::rc::Rc<str>> = Vec::new();
                for gr in view.groups() {
                    if *gr.code.co_name == *def {
                        for n in gr.code.co_varnames.iter() {
                            if !names.contains(n) {
                                names.push(n.clone());
                            }
                        }
                    }
                }
                for n in names {
                    let vals = self.local_annotations(&view, &def, line, &n);
                    let detail = if vals.0.is_empty() {
                        String::new()
                    } else {
                        vals.short(&view)
                    };
                    out.push(Completion {
                        label: n.to_string(),
                        kind: CompletionKind::Variable,
                        detail,
                    });
                }
            }
        }
        if let Some((pi, module)) = self.module_of(path) {
            let view = self
                .views(path)
                .into_iter()
                .find(|v| v.pi == pi && v.ann.is_some());
            let members = self.members(pi, view.as_ref(), &Thing::Value(Value::Obj(module)));
            out.extend(members);
        }
        out
    }
}

/// A type in a signature: the short words, or `unknown` for a value from what rpy-lsp does
/// not model or one poisoned by an error (the hover of the parameter says which).
fn signature_words(vals: &Values, view: &View) -> String {
    if vals.0.iter().all(|s| s.is_error()) {
        return "unknown".to_string();
    }
    vals.short(view)
}

/// `offset` moved back to a char boundary of `text` (and into it).
pub(super) fn char_floor(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_is_being_typed() {
        assert_eq!(
            typing_at("x = self.node.va", 16),
            (
                "va".to_string(),
                vec!["self".to_string(), "node".to_string()]
            )
        );
        assert_eq!(
            typing_at("x = h.", 6),
            (String::new(), vec!["h".to_string()])
        );
        assert_eq!(typing_at("x = 1.", 6).1, Vec::<String>::new());
        assert_eq!(typing_at("foo", 3), ("foo".to_string(), Vec::new()));
    }

    #[test]
    fn finds_the_enclosing_function() {
        let text =
            "class A(object):\n    def f(self):\n        if x:\n            y.\n\n    z = 1\n";
        let at = text.find("y.").unwrap() + 2;
        assert_eq!(enclosing_def(text, at), Some(("f".to_string(), 1)));
        let at = text.find("z = 1").unwrap();
        assert_eq!(enclosing_def(text, at), None);
        // An empty line being typed on, indented into the body.
        let text = "def g(a):\n    b = a\n    \n";
        assert_eq!(
            enclosing_def(text, text.len() - 1),
            Some(("g".to_string(), 0))
        );
    }
}
