//! Position queries on an `Analysis`: document symbols, go-to-definition, hover, inlay hints,
//! code actions and the flow graph of the function at a position.

use super::Analysis;
use crate::flowspace::render::{describe_const, render_dot};
use crate::objspace::object::{Object, Value};
use crate::syntax::ast::{self, Ranged};
use crate::syntax::{parse_module, FileId, Span};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverInfo {
    pub span: Span,
    pub plain: String,
    pub annotator_form: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Class,
    Function,
    Method,
    Variable,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub span: Span,
    pub name_span: Span,
    /// What is known of it: a function's signature with inferred types, a variable's type;
    /// empty when nothing is.
    pub detail: String,
    pub children: Vec<Symbol>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: u32,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub new_text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub code: &'static str,
    pub edits: Vec<TextEdit>,
    pub is_quickfix: bool,
}

/// The identifier (possibly dotted: `mod.name`) around `offset` in `text`, with its span.
pub(super) fn dotted_name_at(text: &str, offset: usize) -> Option<(usize, usize, Vec<String>)> {
    let bytes = text.as_bytes();
    let is_id = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let offset = offset.min(bytes.len());
    let mut end = offset;
    while end < bytes.len() && is_id(bytes[end]) {
        end += 1;
    }
    let mut start = offset;
    while start > 0 && (is_id(bytes[start - 1]) || bytes[start - 1] == b'.') {
        start -= 1;
    }
    if start == end {
        return None;
    }
    let parts: Vec<String> = text[start..end].split('.').map(str::to_string).collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || p.as_bytes()[0].is_ascii_digit())
    {
        return None;
    }
    // Only the parts up to the one under the cursor.
    let mut upto = Vec::new();
    let mut pos = start;
    for p in parts {
        upto.push(p.clone());
        if pos + p.len() >= offset {
            return Some((pos, pos + p.len(), upto));
        }
        pos += p.len() + 1;
    }
    None
}

impl Analysis {
    fn file_id(&self, path: &Path) -> Option<FileId> {
        self.sources.find(path)
    }

    /// The program that loaded `path`, and the module object of that file.
    pub(super) fn module_of(&self, path: &Path) -> Option<(usize, crate::objspace::object::ObjId)> {
        for (i, program) in self.programs.iter().enumerate() {
            let Some(fid) = program.space.sources.find(path) else {
                continue;
            };
            for (&m, _) in program.space.module_info.iter() {
                if let Object::Module(module) = program.space.heap.get(m) {
                    if module.file == Some(fid) {
                        return Some((i, m));
                    }
                }
            }
        }
        None
    }

    /// Resolves a dotted global name in a module to a value.
    pub(super) fn resolve(&self, path: &Path, parts: &[String]) -> Option<(usize, Value)> {
        let (pi, module) = self.module_of(path)?;
        let space = &self.programs[pi].space;
        let mut v = space
            .module_attr(module, &parts[0])
            .or_else(|| space.module_attr(space.builtins_module, &parts[0]))?;
        for p in &parts[1..] {
            v = match v {
                Value::Obj(id) => match space.heap.get(id) {
                    Object::Module(m) => m.dict.get(p)?,
                    Object::Class(c) => c
                        .mro
                        .iter()
                        .find_map(|&k| space.heap.class(k).and_then(|k| k.dict.get(p)))?,
                    Object::Instance(inst) => inst.dict.get(p)?,
                    _ => return None,
                },
                _ => return None,
            };
        }
        Some((pi, v))
    }

    /// Definition site of a value: a function's or class's name, a module's file.
    pub(super) fn definition_of(&self, pi: usize, v: Value) -> Option<Location> {
        let space = &self.programs[pi].space;
        let Value::Obj(id) = v else { return None };
        let span = match space.heap.get(id) {
            Object::Function(f) => f.code.name_span,
            Object::BoundMethod { func, .. }
            | Object::StaticMethod(func)
            | Object::ClassMethod(func) => return self.definition_of(pi, *func),
            Object::Class(c) => c.name_span?,
            Object::Module(m) => Span::new(m.file?, 0, 0),
            Object::Instance(inst) => return self.definition_of(pi, Value::Obj(inst.class)),
            _ => return None,
        };
        let span = Span {
            file: self.unified(pi, span.file),
            ..span
        };
        Some(Location {
            path: self.sources.get(span.file).path.clone(),
            span,
        })
    }

    /// Where the name at `offset` is defined: a local's parameter or first assignment, an
    /// instance attribute's class-level definition or first assignment, a global's
    /// definition (in this module, another one, or a bundled model).
    pub fn definition(&self, path: &Path, offset: u32) -> Option<Location> {
        let fid = self.file_id(path)?;
        let text = &self.sources.get(fid).text;
        let (start, end, parts) = dotted_name_at(text, offset as usize)?;
        if let Some(loc) = self.type_definition(path, fid, start as u32, end as u32) {
            return Some(loc);
        }
        let (pi, v) = self.resolve(path, &parts)?;
        self.definition_of(pi, v)
            .or_else(|| self.model_binding(pi, parts.last()?, v))
    }

    /// A built-in of the registry that a bundled model binds to a name
    /// (`check_nonneg = debug_check_nonneg` in `rpython.rlib.debug`) has no definition
    /// of its own: the model's line binding `name` to it is where the user is sent.
    fn model_binding(&self, pi: usize, name: &str, v: Value) -> Option<Location> {
        let space = &self.programs[pi].space;
        let mut modules: Vec<_> = space.module_info.keys().copied().collect();
        modules.sort();
        modules.into_iter().find_map(|m| {
            let Object::Module(module) = space.heap.get(m) else {
                return None;
            };
            if !module.bundled || module.dict.get(name) != Some(v) {
                return None;
            }
            let fid = self.unified(pi, module.file?);
            let file = self.sources.get(fid);
            let body = parse_module(fid, &file.text).ok()?.body;
            let symbol = symbols_of(fid, &file.text, &body, false)
                .into_iter()
                .find(|s| s.name == name)?;
            Some(Location {
                path: file.path.clone(),
                span: symbol.name_span,
            })
        })
    }

    /// What is known of the name or expression at `offset`: the annotation of a local,
    /// parameter or attribute, a function's signature with its annotations, a constant's
    /// value, or the result of the innermost operation.
    pub fn hover(&self, path: &Path, offset: u32) -> Option<HoverInfo> {
        let fid = self.file_id(path)?;
        let text = &self.sources.get(fid).text;
        let Some((start, end, parts)) = dotted_name_at(text, offset as usize) else {
            return self.expression_hover(path, fid, offset);
        };
        if let Some(h) = self.type_hover(path, fid, start as u32, end as u32) {
            return Some(h);
        }
        let span = Span::new(fid, start as u32, end as u32);
        let Some((pi, v)) = self.resolve(path, &parts) else {
            return self.expression_hover(path, fid, offset);
        };
        if let Some((plain, annotator_form)) = self.function_signature(pi, v) {
            return Some(HoverInfo {
                span,
                plain,
                annotator_form,
            });
        }
        let heap = &self.programs[pi].space.heap;
        let plain = match v {
            Value::Obj(id) => match heap.get(id) {
                Object::Function(f) => {
                    let sig = crate::interpreter::arguments::Signature::from_code(&f.code);
                    let mut params: Vec<String> =
                        sig.argnames.iter().map(|a| a.to_string()).collect();
                    if let Some(va) = sig.varargs {
                        params.push(format!("*{}", va));
                    }
                    format!("function {}({})", f.name, params.join(", "))
                }
                _ => format!("constant {}", describe_const(heap, v)),
            },
            _ => format!("constant {}", describe_const(heap, v)),
        };
        Some(HoverInfo {
            span,
            plain,
            annotator_form: None,
        })
    }

    /// Classes, functions, methods and module-level variables of a file, from its syntax,
    /// with what is known of each (signatures with inferred types, variables' types).
    pub fn symbols(&self, path: &Path) -> Vec<Symbol> {
        let Some(fid) = self.file_id(path) else {
            return Vec::new();
        };
        let text = &self.sources.get(fid).text;
        let Ok(module) = parse_module(fid, text) else {
            return Vec::new();
        };
        let mut symbols = symbols_of(fid, text, &module.body, false);
        self.fill_details(path, &mut symbols);
        symbols
    }

    /// The symbols of a file from its syntax alone (no details).
    pub(super) fn syntax_symbols(&self, path: &Path) -> Vec<Symbol> {
        let Some(fid) = self.file_id(path) else {
            return Vec::new();
        };
        let text = &self.sources.get(fid).text;
        match parse_module(fid, text) {
            Ok(module) => symbols_of(fid, text, &module.body, false),
            Err(_) => Vec::new(),
        }
    }

    /// The inferred types of parameters and of first assignments of locals, in the
    /// functions of the file the annotator reached.
    pub fn inlay_hints(&self, path: &Path) -> Vec<InlayHint> {
        self.type_inlay_hints(path)
    }

    /// Quick fixes and suppressions for the diagnostics overlapping `[start, end]`.
    pub fn code_actions(&self, path: &Path, start: u32, end: u32) -> Vec<CodeAction> {
        let Some(fid) = self.file_id(path) else {
            return Vec::new();
        };
        let file = self.sources.get(fid);
        let mut out = Vec::new();
        for d in self
            .diagnostics
            .iter()
            .filter(|d| d.span.file == fid && d.span.start <= end && d.span.end >= start)
        {
            let line = file.line_col(d.span.start).line;
            let line_end = file.line_starts()[line as usize] + file.line_text(line).len() as u32;
            out.push(CodeAction {
                title: format!(
                    "Suppress {} on this line with `# rpy: ignore[{}]`",
                    d.code, d.code
                ),
                code: d.code,
                edits: vec![TextEdit {
                    span: Span::new(fid, line_end, line_end),
                    new_text: format!("  # rpy: ignore[{}]", d.code),
                }],
                is_quickfix: false,
            });
            if let Some(fix) = mechanical_fix(file.text.as_str(), d) {
                out.push(CodeAction {
                    title: fix.0,
                    code: d.code,
                    edits: fix.1,
                    is_quickfix: true,
                });
            }
        }
        out
    }

    /// DOT text of the flow graphs of the function whose definition contains `offset`.
    pub fn flow_graph_dot(&self, path: &Path, offset: u32) -> Option<String> {
        for (pi, program) in self.programs.iter().enumerate() {
            let mut best: Option<&crate::flowspace::FunctionGraph> = None;
            for g in &program.graphs {
                let s = g.span;
                if self.unified(pi, s.file) == self.file_id(path)?
                    && s.start <= offset
                    && offset <= s.end
                    && best.is_none_or(|b| b.span.end - b.span.start > s.end - s.start)
                {
                    best = Some(g);
                }
            }
            if let Some(g) = best {
                return Some(format!(
                    "digraph \"{}\" {{\n{}}}\n",
                    g.name,
                    render_dot(g, &program.space.heap, 0)
                ));
            }
        }
        None
    }
}

/// A mechanical rewrite for a diagnostic, when there is one: `set()` → `{}`.
fn mechanical_fix(
    text: &str,
    d: &crate::diagnostics::Diagnostic,
) -> Option<(String, Vec<TextEdit>)> {
    let snippet = text.get(d.span.start as usize..d.span.end as usize)?;
    if snippet == "set()" {
        return Some((
            "Replace `set()` with a dict (use `d[key] = None` to add)".into(),
            vec![TextEdit {
                span: d.span,
                new_text: "{}".into(),
            }],
        ));
    }
    None
}

fn name_span(fid: FileId, text: &str, stmt_start: usize, keyword: &str, name: &str) -> Span {
    let from = text[stmt_start..]
        .find(keyword)
        .map(|i| stmt_start + i + keyword.len())
        .unwrap_or(stmt_start);
    let at = text[from..]
        .find(name)
        .map(|i| from + i)
        .unwrap_or(stmt_start);
    Span::new(fid, at as u32, (at + name.len()) as u32)
}

pub(super) fn symbols_of(
    fid: FileId,
    text: &str,
    body: &[ast::Stmt],
    in_class: bool,
) -> Vec<Symbol> {
    let mut out = Vec::new();
    for stmt in body {
        let r = stmt.range();
        let span = Span::new(fid, r.start().to_u32(), r.end().to_u32());
        match stmt {
            ast::Stmt::FunctionDef(f) => out.push(Symbol {
                name: f.name.to_string(),
                kind: if in_class {
                    SymbolKind::Method
                } else {
                    SymbolKind::Function
                },
                span,
                name_span: name_span(fid, text, r.start().to_usize(), "def", &f.name),
                detail: String::new(),
                children: Vec::new(),
            }),
            ast::Stmt::ClassDef(c) => out.push(Symbol {
                name: c.name.to_string(),
                kind: SymbolKind::Class,
                span,
                name_span: name_span(fid, text, r.start().to_usize(), "class", &c.name),
                detail: String::new(),
                children: symbols_of(fid, text, &c.body, true),
            }),
            ast::Stmt::Assign(a) => {
                for t in &a.targets {
                    if let ast::Expr::Name(n) = t {
                        let tr = n.range();
                        out.push(Symbol {
                            name: n.id.to_string(),
                            kind: SymbolKind::Variable,
                            span,
                            name_span: Span::new(fid, tr.start().to_u32(), tr.end().to_u32()),
                            detail: String::new(),
                            children: Vec::new(),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::dotted_name_at;

    #[test]
    fn finds_dotted_names() {
        let text = "x = os.path.join(a)";
        let (s, e, parts) = dotted_name_at(text, 8).unwrap();
        assert_eq!(
            (&text[s..e], parts),
            ("path", vec!["os".to_string(), "path".to_string()])
        );
        assert_eq!(dotted_name_at(text, 0).unwrap().2, vec!["x".to_string()]);
    }
}
