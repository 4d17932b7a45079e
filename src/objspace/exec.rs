//! Generated code at import time: the `exec` statement and the `compile()` built-in.
//!
//! Takes a source string or a code object (from `compile()`, often through
//! `py.code.Source(...).compile()`) and runs it on our interpreter over the object space,
//! exactly as a module body runs: nothing is executed natively. Interpreters such as
//! Pyrolog build their built-in operations this way, so without it every function they
//! generate would be missing. The generated text is registered in the SourceMap under the
//! name it was compiled with, so diagnostics in generated functions point at it.

use super::object::{ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::diagnostics::Diagnostic;
use std::path::PathBuf;
use std::rc::Rc;

/// The name `eval_text` binds the value of the expression to.
const EVAL_RESULT: &str = "__rpy_eval_result__";

impl ObjSpace {
    /// `compile(source, filename, 'exec')`: parses and compiles `source` into a code object.
    pub(crate) fn compile_source(&mut self, source: Value, filename: Value, mode: Value) -> R {
        let text = match self.heap.str_value(source) {
            Some(b) => String::from_utf8_lossy(b).into_owned(),
            None => {
                if let Value::Obj(id) = source {
                    if let Object::Code(_) = self.heap.get(id) {
                        return Ok(source);
                    }
                }
                return self.type_error("compile() expected string without null bytes");
            }
        };
        let name = match self.heap.str_value(filename) {
            Some(b) => String::from_utf8_lossy(b).into_owned(),
            None => return self.type_error("compile() argument 2 must be string"),
        };
        if self.heap.str_value(mode) != Some(b"exec".as_slice()) {
            return Err(self.unsupported(
                "compile() in a mode other than 'exec' is not modelled by rpy-lsp at import time",
            ));
        }
        let file = self.sources.add(PathBuf::from(&name), text.clone());
        if self.bundled_files.contains(&self.span.file) {
            // Code a bundled model generates (rffi's llexternal, rstruct's unpackers) is
            // the model's: its diagnostics point at the user code that called into it.
            self.bundled_files.insert(file);
        }
        // Text built from values rpy-lsp does not model (a `re.sub` of an unmodelled `re`)
        // is not the program's: its syntax error is ours, so it is a warning that stops
        // this import-time computation, not an error of the program.
        if self.diagnostics.iter().any(|d| d.code == "RPY007")
            && crate::syntax::parse_module(file, &text).is_err()
        {
            let span = self.user_span();
            let d = Diagnostic::new(
                "RPY007",
                span,
                format!(
                    "the code generated at import time for `{name}` does not parse: it was \
                     built from values rpy-lsp does not model, so what it defines is unknown"
                ),
            );
            if !self.diagnostics.contains(&d) {
                self.diagnostics.push(d);
            }
            return Ok(self.new_unknown(&name));
        }
        let compiled = self.parse_and_compile(file, &name, &text)?;
        self.diagnostics.extend(compiled.diagnostics);
        Ok(self.alloc(Object::Code(compiled.code)))
    }

    /// A bare `exec code` in a function at import time (characteristic's `exec_` helper,
    /// for one): the code runs with the module `globals` and a dict of the function's
    /// bound locals as its namespace, as Python 2 runs it; gives the namespace back.
    pub(crate) fn exec_with_locals(
        &mut self,
        code: Value,
        globals: ObjId,
        namespace: Option<ObjId>,
        locals: Vec<(Rc<str>, Value)>,
    ) -> R<crate::interpreter::space::ExecOutcome<Value>> {
        let code = self.code_to_exec(code)?;
        let Some(code) = code else {
            return Ok((Vec::new(), namespace));
        };
        let ns = namespace.unwrap_or_else(|| self.heap.alloc(Object::Dict(Default::default())));
        for (k, v) in locals {
            let key = self.intern(&k);
            self.setitem(Value::Obj(ns), key, v)?;
        }
        self.run_code_in_namespace(code, globals, ns)?;
        let entries = match self.heap.get(ns) {
            Object::Dict(d) => d.entries.clone(),
            _ => Vec::new(),
        };
        let names = entries
            .into_iter()
            .filter_map(|(k, v)| self.name_of(k).map(|n| (n, v)))
            .collect();
        Ok((names, Some(ns)))
    }

    /// `eval(text)` called from a frame: the expression is evaluated with the module
    /// `globals`, then the frame's `namespace` (a class body's, when it is not the module)
    /// and `locals` (a function's) as its local names. Text that is not a string (a code
    /// object) is unknown.
    pub(crate) fn eval_text(
        &mut self,
        text: Value,
        globals: ObjId,
        namespace: Option<ObjId>,
        locals: Vec<(Rc<str>, Value)>,
    ) -> R {
        let Some(src) = self.heap.str_value(text).map(|b| b.to_vec()) else {
            self.warn_unknown("eval()", "the result of");
            return Ok(self.new_unknown("eval()"));
        };
        // CPython strips leading blanks; the expression becomes the value of one assignment
        let start = src
            .iter()
            .position(|&c| c != b' ' && c != b'\t')
            .unwrap_or(src.len());
        let mut wrapped = format!("{EVAL_RESULT} = (").into_bytes();
        wrapped.extend_from_slice(&src[start..]);
        wrapped.extend_from_slice(b"\n)\n");
        let source = self.new_str(&wrapped);
        let name = self.new_str(b"<string>");
        let mode = self.new_str(b"exec");
        let code = self.compile_source(source, name, mode)?;
        let Some(code) = self.code_to_exec(code)? else {
            return Ok(self.new_unknown("eval()"));
        };
        let ns = self.heap.alloc(Object::Dict(Default::default()));
        let mut names: Vec<(Value, Value)> = match namespace {
            Some(n) if n != globals => match self.heap.get(n) {
                Object::Dict(d) => d.entries.clone(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for (k, v) in locals {
            names.push((self.intern(&k), v));
        }
        for (k, v) in names {
            self.setitem(Value::Obj(ns), k, v)?;
        }
        self.run_code_in_namespace(code, globals, ns)?;
        let key = self.intern(EVAL_RESULT);
        self.getitem(Value::Obj(ns), key)
    }

    /// The code object `exec` runs: a string is compiled; `None` for unmodelled code.
    fn code_to_exec(&mut self, code: Value) -> R<Option<Rc<crate::compiler::CodeObject>>> {
        let code = if self.heap.str_value(code).is_some() {
            let name = self.new_str(b"<string>");
            let mode = self.new_str(b"exec");
            self.compile_source(code, name, mode)?
        } else {
            code
        };
        if self.unknown_name(code).is_some() {
            return Ok(None);
        }
        match code {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Code(c) => Ok(Some(c.clone())),
                _ => self.type_error("exec: arg 1 must be a string, file, or code object"),
            },
            _ => self.type_error("exec: arg 1 must be a string, file, or code object"),
        }
    }

    /// `exec code [in globals [, locals]]` at import time.
    pub(crate) fn exec_statement(&mut self, args: Vec<Value>) -> R<()> {
        let Some(&code) = args.first() else {
            return self.type_error("exec needs code");
        };
        let globals = args.get(1).copied().filter(|v| !matches!(v, Value::None));
        // A separate locals mapping is the code's namespace (where its names are bound).
        let locals =
            match (globals, args.get(2)) {
                (Some(g), Some(&Value::Obj(l))) if Value::Obj(l) != g => match self.heap.get(l) {
                    Object::Dict(_) => Some(l),
                    _ => return Err(self.unsupported(
                        "`exec` with a locals mapping other than a dict is not modelled by rpy-lsp",
                    )),
                },
                _ => None,
            };
        let Some(code) = self.code_to_exec(code)? else {
            // Unmodelled code: what it defines in a namespace dict is unknown.
            for d in [globals, locals.map(Value::Obj)].into_iter().flatten() {
                if let Value::Obj(d) = d {
                    self.unknown_dicts.insert(d);
                }
            }
            if locals.is_none() {
                let module = match globals {
                    None => self.frames.last().map(|&(m, _)| m),
                    Some(Value::Obj(g)) => self.globals_views.get(&g).copied(),
                    Some(_) => None,
                };
                if let Some(module) = module {
                    self.forget_module_globals(module);
                }
            }
            return Ok(());
        };
        let run = |sp: &mut Self, code, module| match locals {
            Some(ns) => sp.run_code_in_namespace(code, module, ns).map(|_| ()),
            None => sp.run_module_code(code, module).map(|_| ()),
        };
        let Some(g) = globals else {
            // The current module's globals.
            let Some(&(module, _)) = self.frames.last() else {
                return self.type_error("exec without globals outside a frame");
            };
            return run(self, code, module);
        };
        let Value::Obj(gid) = g else {
            return self.type_error("exec: arg 2 must be a dictionary or None");
        };
        if let Some(&module) = self.globals_views.get(&gid) {
            return run(self, code, module);
        }
        let entries = match self.heap.get(gid) {
            Object::Dict(d) => d.entries.clone(),
            _ => return self.type_error("exec: arg 2 must be a dictionary or None"),
        };
        // The dict's names become the globals of a module of their own (functions defined
        // by the code keep it as their globals), and what the code defines is copied back.
        let name = entries
            .iter()
            .find(|(k, _)| self.heap.str_value(*k) == Some(b"__name__".as_slice()))
            .and_then(|(_, v)| self.heap.str_value(*v))
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_else(|| "__exec__".to_string());
        let module = self.new_module(&name, None, false);
        for (k, v) in entries {
            if let Some(n) = self.name_of(k) {
                self.ns_set(module, &n, v)?;
            }
        }
        run(self, code, module)?;
        let defined: Vec<(Rc<str>, Value)> = match self.heap.get(module) {
            Object::Module(m) => m.dict.iter().map(|(k, v)| (k.clone(), v)).collect(),
            _ => Vec::new(),
        };
        for (k, v) in defined {
            let key = self.intern(&k);
            self.setitem(g, key, v)?;
        }
        Ok(())
    }

    /// After `exec` of code rpy-lsp could not read into a module's globals: that code may
    /// have bound any name (tinySelf execs a copy of a class's source under the name of a
    /// placeholder class), so the module's names from before are unknown from here on, and
    /// so is a name missing there. What the module defines after the `exec` is known again.
    fn forget_module_globals(&mut self, module: ObjId) {
        self.unknown_globals.insert(module);
        // Imported modules stay known: generated code rebinding `os` is not a pattern seen.
        let names: Vec<Rc<str>> = match self.heap.get(module) {
            Object::Module(m) => m
                .dict
                .iter()
                .filter(|(k, v)| {
                    let dunder = k.starts_with("__") && k.ends_with("__");
                    let module = matches!(v, Value::Obj(id) if matches!(self.heap.get(*id), Object::Module(_)));
                    !dunder && !module
                })
                .map(|(k, _)| k.clone())
                .collect(),
            _ => return,
        };
        for name in names {
            let v = self.new_unknown(&format!(
                "{name} (after an exec of code rpy-lsp does not read)"
            ));
            let _ = self.ns_set(module, &name, v);
        }
    }
}
