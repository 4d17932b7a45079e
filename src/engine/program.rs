//! One program: a target file imported on the concrete object space, its entry point, and
//! the flow graphs of the functions reachable from it.

use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::flowspace::{build_flow, FunctionGraph, Hlvalue};
use crate::interpreter::Unwind;
use crate::objspace::object::{Heap, ObjId, Object, Value};
use crate::objspace::{LoaderConfig, ObjSpace};
use crate::syntax::Span;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

pub struct Program {
    pub space: ObjSpace,
    pub module: Option<ObjId>,
    /// The `entry_point` function returned by `target()`.
    pub entry: Option<ObjId>,
    /// Flow graphs of the user functions reachable from the entry point (flow-only view).
    pub graphs: Vec<FunctionGraph>,
    /// The annotator's result (whole-program types), when there is an entry point.
    pub annotated: Option<crate::annotator::AnnotatedProgram>,
    pub diagnostics: Vec<Diagnostic>,
    /// The argument types `target()` gave (`return entry_point, [int]`), by name (`None`
    /// for a type that is not a simple built-in one); `None` for a standalone program.
    pub entry_types: Option<Vec<Option<String>>>,
    /// The flow space's diagnostics of each graph of `graphs` (same order).
    graph_diagnostics: Vec<Vec<Diagnostic>>,
    /// The functions whose graph could not be built, with why.
    flow_failures: Vec<(ObjId, Diagnostic)>,
    /// Whether `analyse` also runs the RTyper on a program the annotator accepted (the
    /// CLI's `check`), reporting what `run` and `build` could not translate.
    pub translate_check: bool,
    /// The RTyper's diagnostics (warnings: the reference may accept the program).
    translation: Vec<Diagnostic>,
    /// The graphs of each file, built on the first query (`types::GraphsByFile`).
    pub(super) graphs_by_file: super::types::GraphsByFile,
    /// The target file (for `flowcache`: graphs kept from the previous analysis of it).
    pub(super) target: Option<PathBuf>,
    /// How many flow graphs came from the previous analysis (`flowcache`).
    pub reused_graphs: usize,
    /// The `flowcache` session whose kept graphs are this program's `graphs`.
    flow_session: Option<u64>,
    /// The heap's length after import, and after the flow stage.
    import_heap_len: usize,
    flow_heap_len: usize,
    /// Annotating made no object, reported nothing into the space and ran no import-time
    /// code: the annotation is a function of the heap and the graphs.
    annotation_pure: bool,
    /// The annotation is the previous analysis's with its spans moved (`engine::positions`).
    pub moved_annotation: bool,
    /// The import started from a checkpoint of the previous one (`engine::importcache`).
    pub resumed_import: bool,
}

impl Program {
    /// Imports `path` and finds its entry point through `target(driver, args)`.
    pub fn load(path: &Path, config: LoaderConfig) -> Program {
        let (space, imported, resumed) = super::importcache::import(path, config);
        let mut program = Program::imported(space, imported);
        program.target = Some(path.to_path_buf());
        program.resumed_import = resumed;
        if let Some(m) = program.module {
            program.entry = program.find_entry(m);
        }
        program
    }

    /// A program with no module (its analysis could not run).
    pub fn empty() -> Program {
        Program::imported(ObjSpace::new(LoaderConfig::default()), Ok(None))
    }

    /// Imports a module that is not a target (a library file no target reaches).
    pub fn load_library(path: &Path, config: LoaderConfig) -> Program {
        let mut space = ObjSpace::new(config);
        let imported = space.import_main(path);
        Program::imported(space, imported)
    }

    /// A program after its import (the module, or the diagnostic that stopped it), before
    /// any analysis stage ran.
    fn imported<M: Into<Option<ObjId>>>(
        space: ObjSpace,
        imported: Result<M, Diagnostic>,
    ) -> Program {
        let (module, diagnostics) = match imported {
            Ok(m) => (m.into(), Vec::new()),
            Err(d) => (None, vec![d]),
        };
        Program {
            space,
            module,
            entry: None,
            graphs: Vec::new(),
            annotated: None,
            diagnostics,
            entry_types: None,
            graph_diagnostics: Vec::new(),
            flow_failures: Vec::new(),
            translate_check: false,
            translation: Vec::new(),
            graphs_by_file: Default::default(),
            target: None,
            reused_graphs: 0,
            flow_session: None,
            import_heap_len: 0,
            flow_heap_len: 0,
            annotation_pure: false,
            moved_annotation: false,
            resumed_import: false,
        }
    }

    /// Runs the analysis stages after import.
    ///
    /// With an entry point, only what the annotator reaches is reported: the flow stage's
    /// own view of reachability is wider (every method of a class a graph mentions), and the
    /// annotator reports the flow diagnostics of each graph it uses. When the annotator
    /// found errors, it may have stopped short of code a path does reach: the flow stage's
    /// diagnostics of the functions a path reaches (`reach`) are then kept, so that every
    /// independent error is reported.
    pub fn analyse(&mut self) {
        self.analyse_after(None)
    }

    /// [`Program::analyse`], taking the annotation of `previous` (the previous analysis of
    /// the same target) with its spans moved when the code only moved since
    /// (`engine::positions`); `previous` is left without it.
    pub fn analyse_after(&mut self, previous: Option<&mut Program>) {
        let before_flow = self.diagnostics.len();
        self.import_heap_len = self.space.heap.len();
        let mut previous = previous;
        super::trace::stage("flow", || {
            self.build_flow_graphs_after(previous.as_deref_mut())
        });
        self.flow_heap_len = self.space.heap.len();
        if let Some(entry) = self.entry {
            let flow_diagnostics = self.diagnostics.split_off(before_flow);
            let space_diagnostics = self.space.diagnostics.len();
            let moved = previous.and_then(|old| self.moved_annotation_of(old));
            self.moved_annotation = moved.is_some();
            let annotated = match moved {
                Some(a) => a,
                None => self.annotate(entry),
            };
            self.annotation_pure = self.moved_annotation
                || (self.space.heap.len() == self.flow_heap_len
                    && self.space.diagnostics.len() == space_diagnostics
                    && !annotated.ran_import_time_code());
            self.annotated = Some(annotated);
            if self.annotated.as_ref().is_some_and(|a| a.has_errors()) {
                let kept = self.reachable_flow_diagnostics(entry, flow_diagnostics);
                self.diagnostics.extend(kept);
            }
            self.check_translation();
        }
    }

    /// Of the flow stage's diagnostics, those of functions a path from `entry` reaches (one
    /// also found in an unreached function is kept).
    fn reachable_flow_diagnostics(
        &self,
        entry: ObjId,
        mut flow_diagnostics: Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        let reached = super::reach::reachable_functions(&self.space.heap, &self.graphs, entry);
        let is_reached = |f: Option<ObjId>| f.is_none_or(|f| reached.contains(&f));
        let of_graphs = self
            .graphs
            .iter()
            .map(|g| g.func)
            .zip(&self.graph_diagnostics);
        let of_failures = self
            .flow_failures
            .iter()
            .map(|(f, d)| (Some(*f), std::slice::from_ref(d)));
        let mut unreached: HashSet<&Diagnostic> = HashSet::default();
        let mut reached_diags: HashSet<&Diagnostic> = HashSet::default();
        for (f, diags) in of_graphs.map(|(f, d)| (f, &d[..])).chain(of_failures) {
            let set = if is_reached(f) {
                &mut reached_diags
            } else {
                &mut unreached
            };
            set.extend(diags);
        }
        flow_diagnostics.retain(|d| reached_diags.contains(d) || !unreached.contains(d));
        flow_diagnostics
    }

    /// Annotates from the entry point, starting from the graphs the flow stage built.
    fn annotate(&mut self, entry: ObjId) -> crate::annotator::AnnotatedProgram {
        // The annotator copies the graphs it reaches (it changes its own copies).
        let prebuilt = self
            .graphs
            .iter()
            .zip(&self.graph_diagnostics)
            .filter_map(|(g, d)| Some((g.func?, (g, &d[..]))))
            .collect();
        super::trace::stage("annotate", || match &self.entry_types {
            Some(types) => {
                let types: Vec<Option<&str>> = types.iter().map(|t| t.as_deref()).collect();
                crate::annotator::annotate_with_types(&mut self.space, entry, &types, prebuilt)
            }
            None => crate::annotator::annotate_standalone_with(&mut self.space, entry, prebuilt),
        })
    }

    /// The annotation of `old` with its spans moved, when this program is `old`'s with its
    /// code only moved: every file the same program (`positions::same_program`), no code
    /// reading positions, the same heap after the flow stage, and an annotation of `old`
    /// that depends on nothing else (`annotation_pure`). Takes it out of `old`.
    fn moved_annotation_of(&self, old: &mut Program) -> Option<crate::annotator::AnnotatedProgram> {
        use super::positions::{same_program, OffsetMap};
        if self.translate_check
            || old.translate_check
            || !old.annotation_pure
            || old.annotated.is_none()
            || self.space.positions_read
            || old.space.positions_read
            || old.entry != self.entry
            || old.entry_types != self.entry_types
            || old.import_heap_len != self.import_heap_len
            || old.flow_heap_len != self.flow_heap_len
            || old.space.heap.len() != self.space.heap.len()
            || old.space.diagnostics.len() != self.space.diagnostics.len()
        {
            return None;
        }
        // What flowing made (`str` constants) is at the same ids.
        for i in self.import_heap_len..self.flow_heap_len {
            let id = ObjId(i as u32);
            let same = match (self.space.heap.get(id), old.space.heap.get(id)) {
                (Object::Str(a), Object::Str(b)) => {
                    a == b && self.space.is_interned(id) == old.space.is_interned(id)
                }
                _ => false,
            };
            if !same {
                return None;
            }
        }
        let (new_files, old_files) = (&self.space.sources, &old.space.sources);
        if new_files.iter().count() != old_files.iter().count() {
            return None;
        }
        let mut maps: Vec<Option<OffsetMap>> = Vec::new();
        for ((_, n), (_, o)) in new_files.iter().zip(old_files.iter()) {
            if n.path != o.path {
                return None;
            }
            maps.push(if n.text == o.text {
                None
            } else {
                Some(same_program(&o.text, &n.text)?)
            });
        }
        let mut ann = old.annotated.take()?;
        if maps.iter().any(Option::is_some) {
            let f = |s: Span| match maps.get(s.file.0 as usize) {
                Some(Some(m)) => {
                    let (start, end) = m.map_span(s.start, s.end);
                    Span { start, end, ..s }
                }
                _ => s,
            };
            super::trace::stage("move annotation", || ann.map_spans(&f));
        }
        Some(ann)
    }

    /// With `translate_check`: the RTyper on an annotated program with no error and
    /// nothing unmodelled. What it cannot translate is reported at the user's line as a
    /// warning (RPY301): `run` and `build` would refuse the program, but the reference
    /// toolchain, the language's definition, may accept it.
    fn check_translation(&mut self) {
        if !self.translate_check
            || self.diagnostics.iter().any(|d| d.is_error())
            || self.space.diagnostics.iter().any(|d| d.is_error())
        {
            return;
        }
        let Some(ann) = self.annotated.as_mut() else {
            return;
        };
        // what rpy-lsp does not model is already a warning (RPY007) of its own
        if ann.has_errors() || !ann.unknowns().is_empty() || self.space.branched_on_unknown() {
            return;
        }
        if let Err(diags) = crate::rtyper::check(ann, &mut self.space) {
            for mut d in diags {
                // a rejection the reference's RTyper makes too stays an error
                if d.code != "RPY301" {
                    self.translation.push(d);
                    continue;
                }
                d.severity = crate::diagnostics::Severity::Warning;
                d.message = format!(
                    "{} (`run` and `build` refuse the program; the reference toolchain may accept it)",
                    d.message
                );
                self.translation.push(d);
            }
        }
    }

    /// The error to list first, when source order would not put the reference's first
    /// error first. The reference stops at its first error, and meets errors in the order
    /// ours does in two cases:
    /// - the flow graph of a function is built when the annotation first reaches a call of
    ///   it (the entry point's first), so of the errors of the flow stage (a constant
    ///   operation that always raises...) the one of the function reached first comes
    ///   first, and before what the annotation finds in functions reached later;
    /// - of a union error and a call with wrong arguments, the one the annotation reaches
    ///   first: both are found at the call, and a call whose callee's result is not known
    ///   yet waits for the callee (an error in a function called earlier comes first; a
    ///   bad call before the call of a function with a union error comes before that
    ///   error, wherever the function is defined);
    /// - a missing attribute found before a union error: a function whose result is
    ///   known on one path first (`return -1` while the path returning an instance waits
    ///   for a callee) has its callers re-flowed with that partial result, and reading an
    ///   attribute of it stops the reference before the union at the return is met;
    /// - a union error before an error found inside a bundled model (a library function
    ///   called with a wrong argument: `stream.write(n)` then `stream.write(s)`): the
    ///   union is met in the calling block, the library's code only after that block
    ///   (`err_streamio_write_int_bc14`);
    /// - an error of the annotation proper before one the reference finds only while
    ///   RTyping (`AnnError::typer`: printing a dict, `%d` of a string...), as its RTyper
    ///   runs after the whole annotation;
    /// - of two errors in different functions, neither a union nor a bad call, the one met
    ///   first: a caller's block is annotated up to the call before the callee
    ///   (`err_debug_check_nonneg_str_bc16`: a bad `check_nonneg` in the entry point
    ///   before the call of a function with another).
    ///
    /// Otherwise source order is the better guess (the two annotators visit the blocks of
    /// one function in different orders, and the bundled models differ from the library's
    /// code): `None`, as when the import-time stage has errors.
    pub fn leading_error(&self) -> Option<Diagnostic> {
        let ann = self.annotated.as_ref()?;
        let of_annotation: HashSet<&Diagnostic> = ann.diagnostics.iter().collect();
        if self.space.diagnostics.iter().any(|d| d.is_error())
            || self
                .diagnostics
                .iter()
                .any(|d| d.is_error() && !of_annotation.contains(d))
        {
            return None;
        }
        let user = |d: &Diagnostic| !self.space.is_bundled_file(d.span.file);
        let flow_stage = |d: &Diagnostic| d.code.starts_with("RPY1");
        let union_or_call =
            |d: &Diagnostic| matches!(d.code, "RPY201" | "RPY202" | "RPY203" | "RPY206");
        let union = |d: &Diagnostic| matches!(d.code, "RPY201" | "RPY202" | "RPY203");
        let missing_attribute = |d: &Diagnostic| d.code == "RPY204";
        let first_in_source = ann.diagnostics.iter().find(|d| d.is_error())?;
        let typer_stage = |d: &Diagnostic| ann.typer_stage.contains(&(d.code, d.span));
        // an error found inside a bundled model, at a call the annotator follows into
        // the library's code: met after the rest of the calling block
        let in_model = |d: &Diagnostic| d.bundled_origin().is_some();
        // the innermost function whose definition holds a diagnostic: of two errors in
        // different functions, neither a union nor a bad call, the one met first (a bad
        // library argument in the caller's block before the call reaching the other)
        let function_of = |d: &Diagnostic| {
            ann.graphs
                .iter()
                .map(|g| g.span)
                .filter(|s| s.file == d.span.file && s.start <= d.span.start && d.span.end <= s.end)
                .min_by_key(|s| s.end - s.start)
                .map(|s| (s.file, s.start))
        };
        let other_function = |d: &Diagnostic| {
            function_of(d).is_some() && function_of(d) != function_of(first_in_source)
        };
        ann.first_error.clone().filter(|d| {
            user(d)
                && (flow_stage(d)
                    || (other_function(d) && !union_or_call(d) && !union_or_call(first_in_source))
                    || (union_or_call(d) && union_or_call(first_in_source))
                    || (union(d) && in_model(first_in_source))
                    || (missing_attribute(d) && union(first_in_source))
                    || (typer_stage(first_in_source) && !typer_stage(d)))
        })
    }

    /// Import-time and analysis diagnostics together.
    /// Warnings located inside rpy-lsp's bundled models are not the user's: they are left
    /// out (errors there are reported at the user's call with a label).
    pub fn all_diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = Vec::new();
        // A set, not `all.contains`: a program with thousands of diagnostics made this
        // quadratic.
        let mut seen: HashSet<&Diagnostic> = HashSet::default();
        for d in self
            .space
            .diagnostics
            .iter()
            .chain(self.diagnostics.iter())
            .chain(self.annotated.iter().flat_map(|a| a.diagnostics.iter()))
            .chain(self.translation.iter())
        {
            if !d.is_error() && self.space.is_bundled_file(d.span.file) {
                continue;
            }
            if seen.insert(d) {
                all.push(d.clone());
            }
        }
        all
    }

    /// Flow graphs of every function and method defined in the main module itself (for files
    /// no target reaches).
    pub fn build_module_flow_graphs(&mut self) {
        let Some(module) = self.module else { return };
        let Object::Module(m) = self.space.heap.get(module) else {
            return;
        };
        let file = m.file;
        let values: Vec<Value> = m.dict.iter().map(|(_, v)| v).collect();
        let mut seen = HashSet::default();
        let mut funcs: Vec<ObjId> = Vec::new();
        for v in values {
            for f in self.functions_of_const(v, &mut seen) {
                let defined_here = self
                    .space
                    .heap
                    .function(Value::Obj(f))
                    .is_some_and(|func| Some(func.code.span.file) == file);
                if defined_here && !funcs.contains(&f) {
                    funcs.push(f);
                }
            }
        }
        for f in funcs {
            if !self.is_user_function(f) {
                continue;
            }
            match build_flow(&mut self.space, f) {
                Ok((graph, diags)) => {
                    self.diagnostics.extend(diags);
                    self.graphs.push(graph);
                }
                Err(d) => self.diagnostics.push(d),
            }
        }
    }

    fn file_span(&self, module: ObjId) -> Span {
        match self.space.heap.get(module) {
            Object::Module(m) => m.file.map(|f| Span::new(f, 0, 0)).unwrap_or_default(),
            _ => Span::default(),
        }
    }

    fn find_entry(&mut self, module: ObjId) -> Option<ObjId> {
        let span = self.file_span(module);
        let no_target = |msg: &str| Diagnostic::new("RPY005", span, msg.to_string());
        let Some(target) = self.space.module_attr(module, "target") else {
            // A module without `target` may still define `entry_point` directly.
            return match self.space.module_attr(module, "entry_point") {
                Some(Value::Obj(f)) if matches!(self.space.heap.get(f), Object::Function(_)) => {
                    Some(f)
                }
                _ => {
                    // When the module body stopped at an error, `target` was never reached:
                    // that error is the one to fix.
                    if !self.space.import_stopped_unknown
                        && !self.space.diagnostics.iter().any(|d| d.is_error())
                    {
                        self.diagnostics.push(no_target(
                            "the program defines no `target` function returning the entry point",
                        ));
                    }
                    None
                }
            };
        };
        let driver = self.space.make_driver();
        // The toolchain adds the option groups of `get_additional_config_options()` to
        // the config; rpy-lsp does not model them: reading one gives an unknown.
        if self
            .space
            .module_attr(module, "get_additional_config_options")
            .is_some()
        {
            let config: std::rc::Rc<str> = std::rc::Rc::from("config");
            let extra: std::rc::Rc<str> = std::rc::Rc::from("_extra_options");
            if let Ok(c) = self.space.getattr(driver, &config) {
                let _ = self.space.setattr(c, &extra, Value::Bool(true));
            }
        }
        // `args` is what follows the target on the toolchain's command line: none here.
        let args = self.space.new_list(Vec::new());
        // `target` runs with budgets of its own: an import that ran past rpy-lsp's memory
        // budget (a warning) would otherwise stop it at its first step
        self.space.restart_limits();
        let result = match self.space.call(target, vec![driver, args]) {
            Ok(v) => v,
            Err(u) => {
                let target_span = self
                    .space
                    .heap
                    .function(target)
                    .map(|f| f.code.name_span)
                    .unwrap_or(span);
                // Point at the line that raised inside `target`, naming the exception.
                let d = match u {
                    Unwind::Raise { evalue, .. } => {
                        let at = match evalue {
                            Value::Obj(id) => self.space.raise_spans.get(&id).copied(),
                            _ => None,
                        }
                        .unwrap_or(target_span);
                        let text = self.space.exception_text(evalue);
                        match self.space.unknown_control {
                            // Not provably the program's: import-time code took a path
                            // decided by a value rpy-lsp does not model (RSqueak's options
                            // from `rpython.config`), so there is no entry point to check.
                            Some(unknown_at) => Diagnostic::new(
                                "RPY007",
                                at,
                                format!("calling `target(driver, args)` at import time failed ({text}) after import-time code depended on a value rpy-lsp does not model: the program is not checked"),
                            )
                            .with_label(unknown_at, "a branch or loop on an unknown value"),
                            None => Diagnostic::new(
                                "RPY005",
                                at,
                                format!("calling `target(driver, args)` at import time failed: {text}"),
                            )
                            .with_label(target_span, "the target function"),
                        }
                    }
                    // past rpy-lsp's budget (hippyvm imports its interpreter here)
                    Unwind::Error(d) if self.space.is_limit_stop(&d) => self.space.limit_stop(*d),
                    Unwind::Error(d) => *d,
                    _ => Diagnostic::new(
                        "RPY005",
                        target_span,
                        "calling `target(driver, args)` at import time failed",
                    ),
                };
                self.diagnostics.push(d);
                return None;
            }
        };
        if self.space.unknown_name(result).is_some() {
            // `target` itself comes from something rpy-lsp does not model (its import
            // warned): there is no entry point to check.
            return None;
        }
        let (first, second) = match result {
            Value::Obj(id) => match self.space.heap.get(id) {
                Object::Tuple(items) if !items.is_empty() => {
                    (items[0], items.get(1).copied().unwrap_or(Value::None))
                }
                Object::Function(_) => (result, Value::None),
                _ => (Value::None, Value::None),
            },
            _ => (Value::None, Value::None),
        };
        // `return entry_point, [int, str]`: the entry point's argument types.
        if let Value::Obj(l) = second {
            if let Object::List(items) | Object::Tuple(items) = self.space.heap.get(l) {
                let types = items
                    .iter()
                    .map(|&t| match t {
                        Value::Obj(c) => self
                            .space
                            .heap
                            .class(c)
                            .filter(|c| c.builtin.is_some())
                            .map(|c| c.name.to_string()),
                        _ => None,
                    })
                    .collect();
                self.entry_types = Some(types);
            }
        }
        if let Some(what) = self.space.unknown_name(first) {
            // The entry point comes from something rpy-lsp does not model: nothing to
            // check, and the import already warned.
            let _ = what;
            return None;
        }
        match first {
            Value::Obj(f) if matches!(self.space.heap.get(f), Object::Function(_)) => Some(f),
            _ => {
                let span = self
                    .space
                    .heap
                    .function(target)
                    .map(|f| f.code.name_span)
                    .unwrap_or(span);
                self.diagnostics.push(Diagnostic::new("RPY005", span, "`target()` must return `entry_point, None` with a Python function as entry point"));
                None
            }
        }
    }

    /// Whether a function is analysed: user code (not a bundled model), not `NOT_RPYTHON`.
    pub fn is_user_function(&self, f: ObjId) -> bool {
        let Some(func) = self.space.heap.function(Value::Obj(f)) else {
            return false;
        };
        if self.space.is_bundled_file(func.code.span.file)
            || func.attrs.get("_not_rpython_").is_some()
        {
            return false;
        }
        !func
            .code
            .docstring
            .as_deref()
            .is_some_and(|d| d.trim_start().starts_with("NOT_RPYTHON"))
    }

    /// Builds the graphs of every user function reachable from the entry point through the
    /// constants the graphs mention (functions, classes and their methods, prebuilt
    /// instances, bound methods). This is the flow stage's own view of reachability; the
    /// annotator refines it with types.
    pub fn build_flow_graphs(&mut self) {
        self.build_flow_graphs_after(None)
    }

    /// [`Program::build_flow_graphs`], moving the graphs `flowcache` says are still right
    /// out of `previous` (the previous analysis of the same target).
    fn build_flow_graphs_after(&mut self, previous: Option<&mut Program>) {
        let Some(entry) = self.entry else { return };
        let (previous_session, previous_graphs): (Option<(u64, &Heap)>, &mut [FunctionGraph]) =
            match previous {
                Some(p) => (
                    p.flow_session.map(|id| (id, &p.space.heap)),
                    &mut p.graphs[..],
                ),
                None => (None, &mut []),
            };
        let mut seen: HashSet<ObjId> = HashSet::default();
        let mut queue: VecDeque<ObjId> = VecDeque::new();
        let mut seen_consts: HashSet<ObjId> = HashSet::default();
        queue.push_back(entry);
        seen.insert(entry);
        let mut cache = super::trace::stage("flow: compare heaps", || {
            self.target.as_deref().and_then(|t| {
                super::flowcache::Session::start(t, &mut self.space.heap, previous_session)
            })
        });
        while let Some(f) = queue.pop_front() {
            if !self.is_user_function(f) {
                continue;
            }
            let taken = super::trace::stage("flow: take", || {
                cache
                    .as_mut()
                    .and_then(|c| c.take(f, &mut self.space, previous_graphs))
            });
            let index = self.graphs.len();
            let (graph, diags) = match taken {
                Some((mut graph, diags)) => {
                    if let Some(c) = cache.as_mut() {
                        super::trace::stage("flow: keep", || {
                            c.keep(f, index, &mut graph, &diags, &self.space, true)
                        });
                    }
                    (graph, diags)
                }
                None => {
                    let before = (self.space.heap.len(), self.space.diagnostics.len());
                    let (mut graph, diags) = match build_flow(&mut self.space, f) {
                        Ok(r) => r,
                        Err(d) => {
                            self.flow_failures.push((f, d.clone()));
                            self.diagnostics.push(d);
                            continue;
                        }
                    };
                    // A graph whose flowing made objects other than `str` constants, or
                    // reported elsewhere, depends on more than the heap the next analysis
                    // compares: not kept.
                    if let Some(c) = cache.as_mut() {
                        let only_strings = (before.0..self.space.heap.len()).all(|i| {
                            matches!(self.space.heap.get(ObjId(i as u32)), Object::Str(_))
                        });
                        let clean = only_strings && before.1 == self.space.diagnostics.len();
                        super::trace::stage("flow: keep", || {
                            c.keep(f, index, &mut graph, &diags, &self.space, clean)
                        });
                    }
                    (graph, diags)
                }
            };
            self.diagnostics.extend(diags.iter().cloned());
            self.graph_diagnostics.push(diags);
            let mut consts = Vec::new();
            for b in graph.iterblocks() {
                let block = graph.block(b);
                for op in &block.operations {
                    consts.extend(op.args.iter().filter_map(|a| a.constant()));
                }
                for &l in &block.exits {
                    consts.extend(
                        graph
                            .link(l)
                            .args
                            .iter()
                            .filter_map(|a: &Hlvalue| a.constant()),
                    );
                }
            }
            for c in consts {
                for g in self.functions_of_const(c, &mut seen_consts) {
                    if seen.insert(g) {
                        queue.push_back(g);
                    }
                }
            }
            self.graphs.push(graph);
        }
        if let Some(c) = cache {
            self.reused_graphs = c.reused;
            self.flow_session = Some(c.id);
            super::trace::stage("flow: finish", || c.finish());
        }
    }

    /// The functions a constant makes reachable (depth first, in order; iterative, since
    /// import-time code can nest containers without bound).
    fn functions_of_const(&self, v: Value, seen: &mut HashSet<ObjId>) -> Vec<ObjId> {
        let heap = &self.space.heap;
        let mut out = Vec::new();
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            let Value::Obj(id) = v else { continue };
            if !seen.insert(id) {
                continue;
            }
            let mut children: Vec<Value> = Vec::new();
            match heap.get(id) {
                Object::Function(_) => out.push(id),
                Object::BoundMethod { func, .. }
                | Object::StaticMethod(func)
                | Object::ClassMethod(func) => children.push(*func),
                Object::Class(c) => {
                    for &k in &c.mro {
                        if let Some(kc) = heap.class(k) {
                            children.extend(kc.dict.iter().map(|(_, v)| v));
                        }
                    }
                }
                Object::Instance(inst) => children.push(Value::Obj(inst.class)),
                Object::Tuple(items) | Object::List(items) => children.extend(items.iter()),
                Object::Dict(d) => children.extend(d.entries.iter().map(|(_, v)| *v)),
                _ => {}
            }
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// Function name → its graph index, for `graph --function`.
    pub fn graphs_by_name(&self) -> HashMap<String, Vec<usize>> {
        let mut map: HashMap<String, Vec<usize>> = HashMap::default();
        for (i, g) in self.graphs.iter().enumerate() {
            map.entry(g.name.to_string()).or_default().push(i);
        }
        map
    }
}
