//! The main program: importing the target file as a module (and resuming it after a probe
//! of the language server), running translation-time callables such as `target(driver,
//! args)`, and turning what escapes a module body into a diagnostic at the user's line.
//! Takes the target's path or a callable; gives the module or value, with diagnostics
//! collected on the object space.

use super::loader::LoaderConfig;
use super::object::{AttrMap, ObjId, Object, Value};
use super::probes::{Answer, Checkpoint, MainImport, Question};
use super::{ObjSpace, R};
use crate::diagnostics::Diagnostic;
use crate::interpreter::Unwind;
use crate::syntax::Span;
use std::path::{Path, PathBuf};

impl ObjSpace {
    /// Turns an exception or error escaping a module body into a diagnostic.
    fn report_escape(&mut self, u: Unwind<Value>) {
        match u {
            Unwind::Raise { evalue, .. } => {
                if let Value::Obj(id) = evalue {
                    if self.reported_errors.contains(&id) {
                        return;
                    }
                }
                let span = match evalue {
                    Value::Obj(id) => self.raise_spans.get(&id).copied().unwrap_or(self.span),
                    _ => self.span,
                };
                let text = self.exception_text(evalue);
                let missing =
                    matches!(evalue, Value::Obj(id) if self.missing_module_errors.contains(&id));
                let hint = match evalue {
                    Value::Obj(id) => self.missing_module_hints.get(&id).cloned(),
                    _ => None,
                };
                let d = if missing {
                    let text = match hint {
                        Some(h) => format!("{text}: {h}"),
                        None => text,
                    };
                    Diagnostic::new("RPY002", span, text)
                } else if let Some(at) = self.unknown_control {
                    // Not provably the program's: earlier import-time code took a path
                    // decided by a value rpy-lsp does not model.
                    self.import_stopped_unknown = true;
                    Diagnostic::new(
                        "RPY007",
                        span,
                        format!(
                            "exception at import time ({text}) after import-time code depended on a value rpy-lsp does not model: what the program defines from here on is unknown"
                        ),
                    )
                    .with_label(at, "a branch or loop on an unknown value")
                } else {
                    Diagnostic::new("RPY003", span, format!("exception at import time: {text}"))
                };
                self.push_diagnostic(d);
            }
            // A construct rpy-lsp's evaluator does not model is not the program's error: the
            // module stops there, and what it would define is unknown.
            Unwind::Error(d) if d.code == "RPY004" && d.message.contains("not modelled") => {
                self.import_stopped_unknown = true;
                let d = Diagnostic::new(
                    "RPY007",
                    d.span,
                    format!(
                        "{}: what the module defines from here on is unknown (the program is not checked where it uses it)",
                        d.message
                    ),
                );
                self.push_diagnostic(d);
            }
            Unwind::Error(d) if self.is_limit_stop(&d) => {
                let d = self.limit_stop(*d);
                self.push_diagnostic(d);
            }
            Unwind::Error(d) => self.push_diagnostic(*d),
            Unwind::Fork(_) | Unwind::Stop => {
                let d = Diagnostic::new(
                    "RPY004",
                    self.span,
                    "internal error: the concrete space cannot fork",
                );
                self.push_diagnostic(d);
            }
        }
    }

    /// Whether an error that stopped import-time code is past rpy-lsp's step, time or
    /// memory budget.
    pub fn is_limit_stop(&self, d: &Diagnostic) -> bool {
        d.code == "RPY004" && d.message.starts_with("import-time evaluation stopped")
    }

    /// The diagnostic of import-time code stopped by rpy-lsp's budget: a warning, since the
    /// limit is rpy-lsp's, not the program's error. The reference toolchain has none
    /// (hippyvm's and rmathics' rply grammars build their LALR tables at import time, more
    /// than rpy-lsp's heap, which frees nothing, holds), and an endless loop never gives it
    /// a verdict either. After a branch or loop on an unknown value (`while running:` over
    /// a list subclass that threads fill, in the reference's `_test_thread.py`) the loop may
    /// also only be endless because of what rpy-lsp does not model. What the module would
    /// define from there on is unknown.
    pub fn limit_stop(&mut self, d: Diagnostic) -> Diagnostic {
        self.import_stopped_unknown = true;
        self.import_limit_stop
            .get_or_insert_with(|| (d.span, d.message.clone()));
        match self.unknown_control {
            Some(at) => Diagnostic::new(
                "RPY007",
                d.span,
                format!(
                    "{} after import-time code depended on a value rpy-lsp does not model: what the module defines from here on is unknown (the program is not checked where it uses it)",
                    d.message
                ),
            )
            .with_label(at, "a branch or loop on an unknown value"),
            None => {
                let mut w = Diagnostic::new(
                    "RPY004",
                    d.span,
                    format!(
                        "{}, a limit of rpy-lsp's import-time evaluation: what the module defines from here on is unknown (the program is not checked where it uses it)",
                        d.message
                    ),
                );
                w.severity = crate::diagnostics::Severity::Warning;
                w
            }
        }
    }

    pub(super) fn push_diagnostic(&mut self, d: Diagnostic) {
        if !self.diagnostics.contains(&d) {
            self.diagnostics.push(d);
        }
    }

    /// Imports the target file as a module named after its stem (so `if __name__ ==
    /// '__main__':` bodies do not run). Returns the module even when its body failed part
    /// way (its diagnostics are in `self.diagnostics`); `Err` when the file cannot be read
    /// or parsed (that diagnostic is returned, not also pushed to `self.diagnostics`).
    pub fn import_main(&mut self, path: &Path) -> Result<ObjId, Diagnostic> {
        let dir = path.parent().map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p.to_path_buf()
            }
        });
        self.main_dir = dir;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "main".into());
        let text = match self.read_main(path) {
            Ok(t) => t,
            Err(e) => {
                // The diagnostic points into the file itself (empty here), never into
                // whatever file happens to be number 0.
                let file = self.sources.add(path.to_path_buf(), String::new());
                let d = Diagnostic::new(
                    "RPY002",
                    Span::new(file, 0, 0),
                    format!("cannot read {}: {e}", path.display()),
                );
                return Err(d);
            }
        };
        self.steps = 0;
        self.memory_base = crate::sandbox::thread_bytes();
        self.started = crate::sandbox::CpuClock::start();
        let before = self.diagnostics.len();
        let r = match self.begin_module(&stem, path.to_path_buf(), text, false, false) {
            Ok((module, code)) => {
                self.main_import = Some(MainImport {
                    module,
                    stem: stem.clone(),
                    path: path.to_path_buf(),
                    diagnostics_before: before,
                });
                let r = self.run_module_code(code, module);
                self.main_import = None;
                self.end_module(&stem, module, r)
            }
            Err(u) => Err(u),
        };
        self.main_outcome(&stem, path, before, r)
    }

    /// Why `run` and `build` cannot translate a program whose import-time code was stopped
    /// by rpy-lsp's budget (`limit_stop`): `check` goes on with what the module defined up
    /// to there (a warning), but a translation would run on tables cut short. The error
    /// names the budget, the option and a value that allows more; at the memory cap, which
    /// no budget raises, it says so instead.
    pub fn budget_stop_error(&self) -> Option<Diagnostic> {
        let (at, stop) = self.import_limit_stop.as_ref()?;
        // which limit, from the stop's message: "after 5 seconds of CPU time", "after N
        // steps", "it allocated more than N MiB"
        let which = stop
            .trim_start_matches("import-time evaluation stopped")
            .trim_start_matches([':', ' '])
            .split(" (")
            .next()
            .unwrap_or_default();
        let secs = self.max_time.as_secs_f64();
        let advice = if self.max_memory >= super::MAX_BUDGET_BYTES && which.contains("MiB") {
            format!(
                "its memory is at rpy-lsp's cap of {} MiB, which `--import-budget` does not raise",
                super::MAX_BUDGET_BYTES / (1024 * 1024)
            )
        } else {
            format!(
                "the budget is `--import-budget {secs}` (seconds of CPU time; steps and memory grow with it): raise it, e.g. `--import-budget {}`",
                (secs * 4.0).max(60.0)
            )
        };
        // RPY301 (cannot translate): `check`, which also RTypes, keeps it a warning beside
        // its own RPY004 warning of the stop
        Some(Diagnostic::new(
            "RPY301",
            *at,
            format!(
                "import-time code ran out of rpy-lsp's import budget here ({which}): what it would have computed is not known, so the program cannot be translated; {advice}"
            ),
        ))
    }

    /// Starts the import-time limits (steps, CPU time, memory) afresh for an import of our
    /// own bundled code after the program's analysis (the RTyper's helper modules): what the
    /// program's import and annotation used must not make a bounded import of ours fail.
    pub fn restart_limits(&mut self) {
        self.steps = 0;
        self.memory_base = crate::sandbox::thread_bytes();
        self.started = crate::sandbox::CpuClock::start();
    }

    /// Goes on with the import of the main module from `checkpoint` (taken before one of its
    /// top-level imports by an earlier evaluation whose questions `config` answers the same
    /// way up to it), as `import_main` would have gone on.
    pub fn resume_main(
        checkpoint: Checkpoint,
        config: LoaderConfig,
    ) -> (ObjSpace, Result<ObjId, Diagnostic>) {
        let Checkpoint {
            space,
            mut frame,
            main,
            cpu,
            bytes,
            ..
        } = checkpoint;
        let mut space = *space;
        space.config = config;
        space.started = crate::sandbox::CpuClock::started_ago(cpu);
        space.memory_base = crate::sandbox::thread_bytes() - bytes;
        // The main module's frame is the outermost import-time call (`enter`).
        let marker = 0u8;
        space.stack_base = std::hint::black_box(&marker) as *const u8 as usize;
        space.main_import = Some(main.clone());
        let r = crate::interpreter::eval(&mut space, &mut frame);
        // What `run_module_code` does after its frame.
        space.frames.pop();
        space.leave();
        space.main_import = None;
        let r = space.end_module(&main.stem, main.module, r);
        let result = space.main_outcome(&main.stem, &main.path, main.diagnostics_before, r);
        (space, result)
    }

    /// The main module's import, given the result of running it.
    fn main_outcome(
        &mut self,
        stem: &str,
        path: &Path,
        before: usize,
        r: R<ObjId>,
    ) -> Result<ObjId, Diagnostic> {
        let stem = stem.to_string();
        match r {
            Ok(m) => {
                self.main_module = Some(m);
                Ok(m)
            }
            Err(u) => {
                let syntax = matches!(&u, Unwind::Raise { evalue: Value::Obj(id), .. } if self.reported_errors.contains(id))
                    && !self.modules.contains_key(&stem)
                    && self.main_module_file_failed_to_parse(path);
                self.report_escape(u);
                if syntax {
                    let pos = self.diagnostics[before..]
                        .iter()
                        .position(|d| d.code == "RPY001");
                    let d = match pos {
                        Some(p) => self.diagnostics.remove(before + p),
                        None => Diagnostic::new("RPY001", Span::default(), "syntax error"),
                    };
                    return Err(d);
                }
                // The module object exists (its body ran part way): keep it usable.
                let m = self.find_module_by_path(path);
                match m {
                    Some(m) => {
                        self.modules.entry(stem).or_insert(m);
                        self.main_module = Some(m);
                        Ok(m)
                    }
                    None => {
                        let d = self.diagnostics.pop().unwrap_or_else(|| {
                            Diagnostic::new(
                                "RPY003",
                                Span::default(),
                                "the module could not be imported",
                            )
                        });
                        Err(d)
                    }
                }
            }
        }
    }

    fn read_main(&mut self, path: &Path) -> Result<String, crate::sandbox::ReadError> {
        let roots = self.roots();
        match self.ask(Question::Main {
            path: path.to_path_buf(),
            roots,
        }) {
            Answer::Main(r) => r.map(|t| t.to_string()),
            _ => Err(crate::sandbox::ReadError::NotFound),
        }
    }

    fn main_module_file_failed_to_parse(&self, path: &Path) -> bool {
        self.find_module_by_path(path).is_none()
    }

    fn find_module_by_path(&self, path: &Path) -> Option<ObjId> {
        self.module_info
            .iter()
            .find(|(_, i)| i.path.as_deref() == Some(path))
            .map(|(&m, _)| m)
    }

    /// The `driver` passed to `target`: the bundled model's `TranslationDriver()` (its
    /// `config.translation` options at their defaults), or a plain instance that accepts
    /// attribute writes when the model cannot be loaded.
    pub fn make_driver(&mut self) -> Value {
        let saved = self.diagnostics.len();
        if let Ok(m) = self.import_absolute("rpython.translator.driver") {
            if let Some(cls) = self.module_attr(m, "TranslationDriver") {
                if let Ok(d) = self.call(cls, vec![]) {
                    return d;
                }
            }
        }
        self.diagnostics.truncate(saved);
        let cls = self.types.object;
        let name = self.new_str(b"TranslationDriver");
        let bases = self.new_tuple(vec![Value::Obj(cls)]);
        let ns = self.new_dict();
        let c = match self.make_class(name, bases, ns, None) {
            Ok(Value::Obj(c)) => c,
            _ => cls,
        };
        let inst = self.heap.alloc(Object::Instance(super::object::Instance {
            class: c,
            dict: AttrMap::default(),
        }));
        Value::Obj(inst)
    }

    /// Runs a callable at "translation time" (e.g. `target(driver, args)`), reporting an
    /// escaping exception as a diagnostic (RPY003) instead of returning it.
    pub fn call_reporting(&mut self, func: Value, args: Vec<Value>) -> Option<Value> {
        match self.call(func, args) {
            Ok(v) => Some(v),
            Err(u) => {
                self.report_escape(u);
                None
            }
        }
    }
}
