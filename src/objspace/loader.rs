//! The loader: finds, parses, compiles and runs modules (step 1 of seed 001: "the complete
//! program is imported").
//!
//! Resolution order for `import a.b`: Python 2 implicit relative imports (the importing
//! module's package first, unless `from __future__ import absolute_import`), then the target
//! file's directory, then the configured search paths, then the bundled models. The bundled
//! `rpython` package wins over a user copy where rpy-lsp has the module; a module of it that
//! rpy-lsp lacks comes from the search roots when one has it. Packages are directories with
//! `__init__.py`.
//!
//! A module found nowhere (the standard library beyond `os`, `sys`, `math`, `time`, the parts
//! of `rpython` rpy-lsp does not model) is not an error: the import gives an *unknown*
//! (`Object::Unknown`) with one warning (RPY007), and everything computed from it is
//! unknown too. Only a submodule missing from the user's own package, a module of `rpython`
//! that rpython 0.2.1 lacks, and the old `pypy` package (not installed beside the reference's
//! toolchain) are an ImportError; and, for `run`/`build` (`Policy::closed_site`), a top-level
//! module that is not CPython 2.7's.
//!
//! The target file itself (the main module) is imported by `mainmodule`.

use super::bundled;
use super::object::{AttrMap, Module, ObjId, Object, Value};
use super::probes::{Answer, Question};
use super::{ModuleInfo, ObjSpace, R};
use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::interpreter::Unwind;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Where modules come from.
#[derive(Clone, Debug, Default)]
pub struct LoaderConfig {
    /// Extra directories searched after the target file's directory.
    pub search_paths: Vec<PathBuf>,
    /// Unsaved editor buffers, used instead of the files on disk.
    pub overlays: HashMap<PathBuf, String>,
    /// What import-time code may see of the machine (sandboxed by default).
    pub policy: crate::sandbox::Policy,
    /// CPU time import-time evaluation may take (`None`: [`super::DEFAULT_MAX_TIME`], what
    /// the language server allows); its step limit grows in proportion.
    pub import_budget: Option<std::time::Duration>,
}

/// The package the toolchain lived in before it became `rpython`; not on the reference's
/// path unless the program brings its own.
const OLD_TOOLCHAIN_PACKAGE: &str = "pypy";

/// The top-level modules the reference's Python has without the program (see the file's
/// header): with [`crate::sandbox::Policy::closed_site`], any other name found nowhere is an
/// ImportError.
fn importable_beside_the_program(name: &str) -> bool {
    const NAMES: &str = include_str!("cpython27_modules.txt");
    NAMES
        .lines()
        .filter(|l| !l.starts_with('#'))
        .any(|l| l == name)
}

/// A module found by the resolver.
#[derive(Clone, Debug)]
enum Found {
    File { path: PathBuf, is_package: bool },
    Bundled(&'static bundled::BundledModule),
}

impl ObjSpace {
    fn file_exists(&mut self, p: &Path) -> bool {
        self.ask(Question::IsFile(p.to_path_buf())) == Answer::Bool(true)
    }

    fn read_source(&mut self, p: &Path) -> Option<String> {
        // The search roots matter only for a file the policy does not let the program read.
        let roots = match self.config.overlays.contains_key(p) || self.config.policy.may_read(p) {
            true => Vec::new(),
            false => self.roots(),
        };
        match self.ask(Question::Source {
            path: p.to_path_buf(),
            roots,
        }) {
            Answer::Text(t) => t.map(|t| t.to_string()),
            _ => None,
        }
    }

    fn find_in_dir(&mut self, dir: &Path, part: &str) -> Option<Found> {
        let pkg = dir.join(part);
        let init = pkg.join("__init__.py");
        if self.file_exists(&init) {
            return Some(Found::File {
                path: init,
                is_package: true,
            });
        }
        let file = dir.join(format!("{part}.py"));
        if self.file_exists(&file) {
            return Some(Found::File {
                path: file,
                is_package: false,
            });
        }
        None
    }

    pub(super) fn roots(&mut self) -> Vec<PathBuf> {
        let mut roots = Vec::new();
        if let Some(d) = &self.main_dir {
            roots.push(d.clone());
        }
        for p in &self.config.search_paths {
            if !roots.contains(p) {
                roots.push(p.clone());
            }
        }
        for p in self.sys_path_dirs() {
            if !roots.contains(&p) {
                roots.push(p);
            }
        }
        roots
    }

    /// The directories import-time code put on `sys.path` (`sys.path.insert(0, dir)`, as
    /// simulators that import from their repository do), relative ones taken from the
    /// process's working directory; only those the policy lets the program read.
    fn sys_path_dirs(&mut self) -> Vec<PathBuf> {
        let Some(&sys) = self.modules.get("sys") else {
            return Vec::new();
        };
        let list = match self.heap.get(sys) {
            Object::Module(m) => match m.dict.get("path") {
                Some(Value::Obj(l)) => l,
                _ => return Vec::new(),
            },
            _ => return Vec::new(),
        };
        let Object::List(items) = self.heap.get(list) else {
            return Vec::new();
        };
        let cwd = PathBuf::from(self.config.policy.cwd());
        let entries: Vec<PathBuf> = items
            .iter()
            .filter_map(|&v| self.heap.str_value(v))
            .map(|b| PathBuf::from(String::from_utf8_lossy(b).as_ref()))
            .map(|p| if p.is_absolute() { p } else { cwd.join(p) })
            .collect();
        entries
            .into_iter()
            .filter(|p| self.ask(Question::Dir(p.clone())) == Answer::Bool(true))
            .collect()
    }

    fn find_top(&mut self, part: &str) -> Option<Found> {
        if part == "rpython" {
            if let Some(b) = bundled::lookup(part) {
                return Some(Found::Bundled(b));
            }
        }
        for root in self.roots() {
            if let Some(f) = self.find_in_dir(&root, part) {
                return Some(f);
            }
        }
        bundled::lookup(part).map(Found::Bundled)
    }

    fn find_sub(&mut self, parent: ObjId, fullname: &str, part: &str) -> Option<Found> {
        let info = self.module_info.get(&parent)?;
        if !info.is_package {
            return None;
        }
        let (in_bundled, package_dir) = (info.bundled, info.package_dir.clone());
        if in_bundled {
            if let Some(b) = bundled::lookup(fullname) {
                return Some(Found::Bundled(b));
            }
            // A module of `rpython` rpy-lsp does not bundle: the user's checkout on the
            // search path may have it.
            let parts: Vec<&str> = fullname.split('.').collect();
            let (last, dirs) = parts.split_last()?;
            for root in self.roots() {
                let dir = dirs.iter().fold(root, |d, p| d.join(p));
                if let Some(f) = self.find_in_dir(&dir, last) {
                    return Some(f);
                }
            }
            return None;
        }
        self.find_in_dir(&package_dir?, part)
    }

    /// The ImportError of a module that does not exist (reported as RPY002 when it escapes).
    fn missing_module(&mut self, name: &str) -> Unwind<Value> {
        let u = self.err("ImportError", format!("No module named {name}"));
        if let Unwind::Raise {
            evalue: Value::Obj(id),
            ..
        } = &u
        {
            self.missing_module_errors.insert(*id);
        }
        u
    }

    /// `missing_module` with the sentence its report adds (why the module is missing).
    fn missing_module_with_hint(&mut self, name: &str, hint: String) -> Unwind<Value> {
        let u = self.missing_module(name);
        if let Unwind::Raise {
            evalue: Value::Obj(id),
            ..
        } = &u
        {
            self.missing_module_hints.insert(*id, hint);
        }
        u
    }

    /// Whether the bundled package `package` lists its real submodules (`_rpy_submodules_`,
    /// those of rpython 0.2.1) and `name` is not one of them.
    fn absent_submodule(&self, package: ObjId, name: &str) -> bool {
        let Object::Module(m) = self.heap.get(package) else {
            return false;
        };
        let Some(Value::Obj(t)) = m.dict.get("_rpy_submodules_") else {
            return false;
        };
        match self.heap.get(t) {
            Object::Tuple(items) => !items
                .iter()
                .any(|&v| self.heap.str_value(v) == Some(name.as_bytes())),
            _ => false,
        }
    }

    /// A missing submodule of a package rpy-lsp models (`rpython.translator`): the report says
    /// which parts are modelled, since the real package has it.
    fn note_missing_bundled(&mut self, fullname: &str, u: &Unwind<Value>) {
        let Some((package, _)) = fullname.split_once('.') else {
            return;
        };
        let modelled: Vec<&str> = bundled::bundled_module_names()
            .into_iter()
            .filter(|n| n.starts_with(package) && n.len() > package.len())
            .collect();
        if let (
            Unwind::Raise {
                evalue: Value::Obj(id),
                ..
            },
            false,
        ) = (u, modelled.is_empty())
        {
            self.missing_module_hints.insert(
                *id,
                format!(
                    "`{fullname}` is not modelled by rpy-lsp; the modelled modules of `{package}` are {}",
                    modelled.join(", ")
                ),
            );
        }
    }

    pub(crate) fn new_module(
        &mut self,
        fullname: &str,
        file: Option<crate::syntax::FileId>,
        bundled: bool,
    ) -> ObjId {
        // a program's module keeps CPython's table of its globals (`globals()`, `vars(m)`)
        let mut dict = if bundled {
            AttrMap::default()
        } else {
            AttrMap::with_table()
        };
        let n = self.new_str(fullname.as_bytes());
        dict.set("__name__", n);
        dict.set("__doc__", Value::None);
        let pkg_name = fullname.rsplit_once('.').map(|(p, _)| p.to_string());
        let pv = match pkg_name {
            Some(p) => self.new_str(p.as_bytes()),
            None => Value::None,
        };
        dict.set("__package__", pv);
        self.heap.alloc(Object::Module(Box::new(Module {
            name: Rc::from(fullname),
            dict,
            file,
            bundled,
        })))
    }

    /// Loads and runs a module's source; the module is registered before its body runs.
    fn load_found(&mut self, fullname: &str, found: Found) -> R<ObjId> {
        let (path, text, is_package, bundled) = match found {
            Found::File { path, is_package } => {
                let Some(text) = self.read_source(&path) else {
                    return Err(self.missing_module(fullname));
                };
                (path, text, is_package, false)
            }
            Found::Bundled(b) => (
                PathBuf::from(format!("<bundled>/{}", b.path)),
                bundled_source(b),
                b.is_package,
                true,
            ),
        };
        self.exec_source(fullname, path, text, is_package, bundled)
    }

    /// Parses, compiles and runs `text` as module `fullname`.
    fn exec_source(
        &mut self,
        fullname: &str,
        path: PathBuf,
        text: String,
        is_package: bool,
        bundled: bool,
    ) -> R<ObjId> {
        let (module, code) = self.begin_module(fullname, path, text, is_package, bundled)?;
        let r = self.run_module_code(code, module);
        self.end_module(fullname, module, r)
    }

    /// What `exec_source` does before running the module's body: the module registered,
    /// with its code.
    pub(super) fn begin_module(
        &mut self,
        fullname: &str,
        path: PathBuf,
        text: String,
        is_package: bool,
        bundled: bool,
    ) -> R<(ObjId, Rc<crate::compiler::CodeObject>)> {
        let file = match self.sources.find(&path) {
            Some(f) if self.sources.get(f).text == text => f,
            _ => self.sources.add(path.clone(), text.clone()),
        };
        if bundled {
            self.bundled_files.insert(file);
        }
        let filename = path.display().to_string();
        let precompiled = filename
            .strip_prefix("<bundled>/")
            .filter(|_| bundled)
            .and_then(|p| super::precompiled::lookup(p, &text, file));
        let cached = precompiled.or_else(|| crate::compiler::cache::lookup(file, &filename, &text));
        let compiled = match cached {
            Some(c) => c,
            None => self.parse_and_compile(file, &filename, &text)?,
        };
        self.diagnostics.extend(compiled.diagnostics);
        let module = self.new_module(fullname, Some(file), bundled);
        let fv = self.new_str(filename.as_bytes());
        let package_dir = if is_package {
            path.parent().map(|p| p.to_path_buf())
        } else {
            None
        };
        let path_list = match (&package_dir, bundled) {
            (Some(d), false) => {
                let dv = self.new_str(d.display().to_string().as_bytes());
                Some(self.new_list(vec![dv]))
            }
            _ if is_package => Some(self.new_list(vec![])),
            _ => None,
        };
        if let Object::Module(m) = self.heap.get_mut(module) {
            // CPython's order of the first names: the import sets `__builtins__` just
            // before running the code, after a package's `__file__` and `__path__` (only
            // the table has it: `globals()` shows it as None)
            if !is_package {
                m.dict.add_table_only("__builtins__");
            }
            m.dict.set("__file__", fv);
            if let Some(pl) = path_list {
                m.dict.set("__path__", pl);
            }
            if is_package {
                m.dict.add_table_only("__builtins__");
            }
            if is_package {
                let n: Value = m.dict.get("__name__").unwrap_or(Value::None);
                m.dict.set("__package__", n);
            }
        }
        self.modules.insert(fullname.to_string(), module);
        self.module_info.insert(
            module,
            ModuleInfo {
                name: fullname.to_string(),
                package_dir,
                path: Some(path),
                is_package,
                bundled,
            },
        );
        self.sync_sys_modules(fullname, Some(module));
        Ok((module, compiled.code))
    }

    /// What `exec_source` does after the module's body ran with the result `r`.
    pub(super) fn end_module(&mut self, fullname: &str, module: ObjId, r: R) -> R<ObjId> {
        match r {
            Ok(_) => {
                if fullname == "sys" {
                    let all: Vec<(String, ObjId)> =
                        self.modules.iter().map(|(k, v)| (k.clone(), *v)).collect();
                    for (k, v) in all {
                        self.sync_sys_modules(&k, Some(v));
                    }
                }
                // As Python: a module that put something else in sys.modules under its
                // own name during its import is replaced by it for every importer.
                if let Some(replacement) = self.sys_modules_entry(fullname) {
                    if replacement != module {
                        self.modules.insert(fullname.to_string(), replacement);
                        return Ok(replacement);
                    }
                }
                Ok(module)
            }
            Err(e) => {
                if matches!(e, Unwind::Raise { .. }) {
                    // As Python: a module whose body failed is not kept in sys.modules.
                    self.modules.remove(fullname);
                    self.sync_sys_modules(fullname, None);
                }
                Err(e)
            }
        }
    }

    /// Parses and compiles a module's text (remembered by the compile cache when it is on);
    /// a syntax error is reported and raised.
    pub(crate) fn parse_and_compile(
        &mut self,
        file: crate::syntax::FileId,
        filename: &str,
        text: &str,
    ) -> R<crate::compiler::Compiled> {
        // Python 2 refuses an undeclared non-ASCII source before parsing it (PEP 263); our
        // bundled models are read by no Python 2.
        let encoding_error = match self.bundled_files.contains(&file) {
            true => None,
            false => crate::syntax::check_source_encoding(file, text),
        };
        let parse = || {
            super::preparse::take(text, file)
                .unwrap_or_else(|| crate::syntax::parse_module(file, text))
        };
        let parsed = match encoding_error.map_or_else(parse, Err) {
            Ok(p) => p,
            Err(e) => {
                self.diagnostics
                    .push(Diagnostic::new("RPY001", e.span, e.message.clone()));
                let u = self.err("SyntaxError", e.message);
                if let Unwind::Raise {
                    evalue: Value::Obj(id),
                    ..
                } = &u
                {
                    self.reported_errors.insert(*id);
                    self.raise_spans.insert(*id, e.span);
                }
                return Err(u);
            }
        };
        let compiled = crate::compiler::compile_module(&parsed, filename, text);
        crate::compiler::cache::store(file, filename, text, &compiled);
        Ok(compiled)
    }

    /// Imports `fullname` absolutely, binding submodules as attributes of their packages.
    pub(crate) fn import_absolute(&mut self, fullname: &str) -> R<ObjId> {
        let mut parent: Option<ObjId> = None;
        let mut prefix = String::new();
        for part in fullname.split('.') {
            if part.is_empty() {
                return self.value_error("Empty module name");
            }
            if !prefix.is_empty() {
                prefix.push('.');
            }
            prefix.push_str(part);
            if let Some(&u) = self.unknown_modules.get(&prefix) {
                self.warn_unknown(&prefix, "the module");
                return Ok(self.unknown_rest(u, &prefix, fullname));
            }
            let m = match self.modules.get(&prefix) {
                Some(&m) => m,
                None => {
                    let found = match parent {
                        None => self.find_top(part),
                        Some(p) => self.find_sub(p, &prefix, part),
                    };
                    // A module of the toolchain's own package (`rpython.*`) taken from the
                    // search path, not bundled.
                    let toolchain_module =
                        prefix.starts_with("rpython.") && matches!(found, Some(Found::File { .. }));
                    match found {
                        Some(f) if toolchain_module => match self.load_found(&prefix, f) {
                            Ok(m) => m,
                            // A module of the toolchain (`rpython.*` from the search path)
                            // that rpy-lsp cannot evaluate: unknown, with one warning.
                            Err(e @ (Unwind::Raise { .. } | Unwind::Error(_))) => {
                                let why = match e {
                                    Unwind::Raise { evalue, .. } => self.exception_text(evalue),
                                    Unwind::Error(d) => d.message.clone(),
                                    _ => String::new(),
                                };
                                let span = self.user_span();
                                let d = Diagnostic::new(
                                    "RPY007",
                                    span,
                                    format!("the module `{prefix}` (from the search path) could not be evaluated by rpy-lsp ({why}): what comes from it is unknown, and the code using it is not checked"),
                                );
                                self.push_diagnostic(d);
                                let u = self.new_unknown(&prefix);
                                let Value::Obj(uid) = u else { unreachable!() };
                                self.unknown_modules.insert(prefix.clone(), uid);
                                if let Some(p) = parent {
                                    if let Object::Module(pm) = self.heap.get_mut(p) {
                                        pm.dict.set(part, u);
                                    }
                                }
                                return Ok(self.unknown_rest(uid, &prefix, fullname));
                            }
                            Err(e) => return Err(e),
                        },
                        Some(f) => self.load_found(&prefix, f)?,
                        None if parent.is_some_and(|p| {
                            self.module_info
                                .get(&p)
                                .is_some_and(|i| !i.bundled || !i.is_package)
                        }) =>
                        {
                            // A submodule missing from the user's own package, or any
                            // submodule of a plain module (Python 2.7's `collections` has
                            // no `collections.abc`: typing falls back on an ImportError).
                            let u = self.missing_module(part);
                            self.note_missing_bundled(&prefix, &u);
                            return Err(u);
                        }
                        None if parent.is_some_and(|p| self.absent_submodule(p, part)) => {
                            // A submodule a later RPython added (`rpython.rlib.rutf8`): the
                            // reference's package has no such module.
                            let hint = format!(
                                "`{prefix}` does not exist in the reference's rpython (0.2.1)"
                            );
                            return Err(self.missing_module_with_hint(part, hint));
                        }
                        None if parent.is_none() && part == OLD_TOOLCHAIN_PACKAGE => {
                            // `pypy.rlib`, `pypy.jit`: the toolchain before it moved to its
                            // own `rpython` package (2013). The reference installs only
                            // `rpython`, so such an import is its ImportError, and a
                            // `try: ... except ImportError:` fallback is what it annotates.
                            let hint = format!(
                                "the reference's toolchain (rpython 0.2.1) has no `{part}` package: `{part}.rlib` and `{part}.jit` are `rpython.rlib` and `rpython.jit` there"
                            );
                            return Err(self.missing_module_with_hint(part, hint));
                        }
                        None if parent.is_none()
                            && self.config.policy.closed_site
                            && !importable_beside_the_program(part) =>
                        {
                            // Not the program's, not on the search path, not the standard
                            // library's: the reference's Python has no such module.
                            let hint = format!(
                                "`{part}` is neither beside the program, on the search path, nor a module of CPython 2.7's standard library"
                            );
                            return Err(self.missing_module_with_hint(part, hint));
                        }
                        None => {
                            // Neither modelled nor found (the standard library, parts of
                            // `rpython` rpy-lsp lacks): an unknown module, one warning.
                            self.warn_unknown(&prefix, "the module");
                            let u = self.new_unknown(&prefix);
                            let Value::Obj(uid) = u else { unreachable!() };
                            self.unknown_modules.insert(prefix.clone(), uid);
                            if let Some(p) = parent {
                                if let Object::Module(pm) = self.heap.get_mut(p) {
                                    if !pm.dict.contains(part) {
                                        pm.dict.set(part, u);
                                    }
                                }
                            }
                            return Ok(self.unknown_rest(uid, &prefix, fullname));
                        }
                    }
                }
            };
            if let Some(p) = parent {
                if let Object::Module(pm) = self.heap.get_mut(p) {
                    if !pm.dict.contains(part) {
                        pm.dict.set(part, Value::Obj(m));
                    }
                }
            }
            parent = Some(m);
        }
        match parent {
            Some(m) => Ok(m),
            None => self.value_error("Empty module name"),
        }
    }

    /// The unknown standing for `fullname` once its prefix `known` is unknown (`import
    /// a.b.c` with `a.b` missing: `a.b.c` is an attribute of the unknown `a.b`).
    fn unknown_rest(&mut self, unknown: ObjId, known: &str, fullname: &str) -> ObjId {
        let mut cur = Value::Obj(unknown);
        let mut prefix = known.to_string();
        for part in fullname[known.len()..].split('.').filter(|p| !p.is_empty()) {
            prefix.push('.');
            prefix.push_str(part);
            cur = match self.unknown_modules.get(&prefix) {
                Some(&u) => Value::Obj(u),
                None => {
                    let u = self.new_unknown(&prefix);
                    if let Value::Obj(uid) = u {
                        self.unknown_modules.insert(prefix.clone(), uid);
                    }
                    u
                }
            };
        }
        match cur {
            Value::Obj(id) => id,
            _ => unknown,
        }
    }

    /// The package a module's relative imports start from.
    fn package_context(&self, importer: ObjId) -> Option<String> {
        let info = self.module_info.get(&importer)?;
        if info.is_package {
            Some(info.name.clone())
        } else {
            info.name.rsplit_once('.').map(|(p, _)| p.to_string())
        }
    }

    /// Resolves the full name an import statement refers to and the prefix length (in
    /// components) of the module `import a.b` binds.
    fn resolve_name(&mut self, name: &str, level: i64, importer: ObjId) -> R<(String, usize)> {
        let ctx = self.package_context(importer);
        if level > 0 {
            let Some(mut base) = ctx else {
                return self.value_error("Attempted relative import in non-package");
            };
            for _ in 1..level {
                match base.rsplit_once('.') {
                    Some((p, _)) => base = p.to_string(),
                    None => {
                        return self
                            .value_error("Attempted relative import beyond toplevel package")
                    }
                }
            }
            let depth = base.split('.').count();
            let full = if name.is_empty() {
                base
            } else {
                format!("{base}.{name}")
            };
            return Ok((full, depth + 1));
        }
        if level < 0 {
            if let Some(pkg) = ctx {
                let first = name.split('.').next().unwrap_or(name);
                let rel = format!("{pkg}.{first}");
                let exists = self.modules.contains_key(&rel)
                    || match self.modules.get(&pkg).copied() {
                        Some(pm) => self.find_sub(pm, &rel, first).is_some(),
                        None => false,
                    };
                if exists {
                    let depth = pkg.split('.').count();
                    return Ok((format!("{pkg}.{name}"), depth + 1));
                }
            }
        }
        Ok((name.to_string(), 1))
    }

    /// `import name` / `from name import fromlist` in the module `globals`.
    pub(crate) fn import_statement(
        &mut self,
        name: &str,
        fromlist: &[Rc<str>],
        level: i64,
        globals: ObjId,
    ) -> R {
        let (full, bind_depth) = self.resolve_name(name, level, globals)?;
        let last = self.import_absolute(&full)?;
        if fromlist.is_empty() {
            let bound: String = full
                .split('.')
                .take(bind_depth)
                .collect::<Vec<_>>()
                .join(".");
            return match self.modules.get(&bound) {
                Some(&m) => Ok(Value::Obj(m)),
                None => Ok(Value::Obj(last)),
            };
        }
        let is_pkg = self.module_info.get(&last).is_some_and(|i| i.is_package);
        if is_pkg {
            for item in fromlist {
                if &**item == "*" {
                    let all = self.module_attr(last, "__all__");
                    if let Some(all) = all {
                        for n in self.iterate(all)? {
                            if let Some(n) = self.name_of(n) {
                                if self.module_attr(last, &n).is_none() {
                                    self.try_import_submodule(last, &n)?;
                                }
                            }
                        }
                    }
                    continue;
                }
                if self.module_attr(last, item).is_none() {
                    self.try_import_submodule(last, item)?;
                }
            }
        }
        Ok(Value::Obj(last))
    }

    /// Imports `pkg.name` if `pkg` is a package with such a submodule.
    pub(crate) fn try_import_submodule(&mut self, pkg: ObjId, name: &str) -> R<Option<Value>> {
        let Some(info) = self.module_info.get(&pkg) else {
            return Ok(None);
        };
        if !info.is_package {
            return Ok(None);
        }
        let full = format!("{}.{}", info.name, name);
        if let Some(&m) = self.modules.get(&full) {
            return Ok(Some(Value::Obj(m)));
        }
        let Some(found) = self.find_sub(pkg, &full, name) else {
            return Ok(None);
        };
        let m = self.load_found(&full, found)?;
        if let Object::Module(pm) = self.heap.get_mut(pkg) {
            pm.dict.set(name, Value::Obj(m));
        }
        Ok(Some(Value::Obj(m)))
    }

    /// Imports a module as an `import` statement in module `from` would (`level` -1:
    /// implicit relative then absolute, 0: absolute, >0: explicit relative). Returns the
    /// module named by `name` itself (not its top-level package).
    pub fn import_module(
        &mut self,
        name: &str,
        from: Option<ObjId>,
        level: i64,
    ) -> Result<ObjId, Unwind<Value>> {
        let importer = from.unwrap_or(self.builtins_module);
        let (full, _) = self.resolve_name(name, level, importer)?;
        self.import_absolute(&full)
    }

    /// The module object of an imported module by full name.
    pub fn module(&self, name: &str) -> Option<ObjId> {
        self.modules.get(name).copied()
    }
}

impl ObjSpace {
    /// Mirrors `self.modules` into the bundled `sys.modules` dict once `sys` is loaded.
    /// What `sys.modules[name]` holds, when it is an object.
    fn sys_modules_entry(&mut self, name: &str) -> Option<ObjId> {
        let sys = *self.modules.get("sys")?;
        let d @ Value::Obj(did) = self.module_attr(sys, "modules")? else {
            return None;
        };
        if !matches!(self.heap.get(did), Object::Dict(_)) {
            return None;
        }
        let k = self.new_str(name.as_bytes());
        match self.getitem(d, k) {
            Ok(Value::Obj(m)) => Some(m),
            _ => None,
        }
    }

    fn sync_sys_modules(&mut self, name: &str, module: Option<ObjId>) {
        let Some(&sys) = self.modules.get("sys") else {
            return;
        };
        let Some(d @ Value::Obj(did)) = self.module_attr(sys, "modules") else {
            return;
        };
        if !matches!(self.heap.get(did), Object::Dict(_)) {
            return;
        }
        let k = self.new_str(name.as_bytes());
        let _ = match module {
            Some(m) => self.setitem(d, k, Value::Obj(m)),
            None => self.delitem(d, k),
        };
    }
}

/// The source of a bundled module: the one compiled into the binary, or, when the
/// environment variable `RPY_LSP_BUNDLED_DIR` names a directory holding the module's file
/// (`src/objspace/bundled` of a checkout), that file's text, still as a bundled module (for
/// working on the models and the low-level helpers without rebuilding; the tests use it to
/// break a helper on purpose).
fn bundled_source(b: &bundled::BundledModule) -> String {
    std::env::var_os("RPY_LSP_BUNDLED_DIR")
        .and_then(|d| std::fs::read_to_string(PathBuf::from(d).join(b.path)).ok())
        .unwrap_or_else(|| b.source.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_own_late_imports_get_fresh_limits() {
        let mut space = ObjSpace::new(LoaderConfig::default());
        // as after a program whose import and annotation used all the CPU time allowed
        space.started = crate::sandbox::CpuClock::started_ago(space.max_time * 2);
        space.steps = space.max_steps;
        assert!(space.import_module("__rpy_ll__.ll_str", None, 0).is_err());
        space.restart_limits();
        assert!(space.import_module("__rpy_ll__.ll_list", None, 0).is_ok());
    }
}
