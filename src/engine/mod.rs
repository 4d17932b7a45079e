//! The engine: what the front ends (`cli`, `lsp`) call. It finds a workspace's programs,
//! runs the pipeline on each, merges their diagnostics (with `# rpy: ignore[CODE]`
//! suppressions applied) and answers position queries (hover, definition, symbols,
//! references, call hierarchy, completion, signature help), one module per kind of query.

mod calls;
mod completion;
pub mod config;
pub mod detect;
pub mod flowcache;
pub mod importcache;
mod known;
pub mod positions;
pub mod program;
mod queries;
mod reach;
mod references;
pub mod repair;
mod signature;
mod symbols;
pub mod trace;
mod types;

pub use calls::{Call, CallItem};
pub use completion::{Completion, CompletionKind};
pub use config::EngineConfig;
pub use program::Program;
pub use queries::{CodeAction, HoverInfo, InlayHint, Location, Symbol, SymbolKind, TextEdit};
pub use signature::SignatureHelp;
pub use symbols::WorkspaceSymbol;

use crate::diagnostics::{Diagnostic, Label};
use crate::fasthash::HashMap;
use crate::objspace::LoaderConfig;
use crate::syntax::{FileId, SourceMap, Span};
use std::path::{Path, PathBuf};

/// Stack of the threads analyses run on (CLI and language server): the pipeline's deep but
/// bounded recursions on adversarial input fit in it. Only the pages used are committed.
pub const ANALYSIS_STACK_BYTES: usize = 1 << 30;

/// Longest whole-workspace analysis: past it, the remaining programs are not started (each
/// program's import-time evaluation has its own, shorter limit).
pub const ANALYSIS_TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);

/// The result of analysing a workspace.
pub struct Analysis {
    /// Every file of every program (user files and bundled models), by unified FileId.
    pub sources: SourceMap,
    /// All diagnostics, suppressions applied, spans in `sources`.
    pub diagnostics: Vec<Diagnostic>,
    pub programs: Vec<Program>,
    /// Per program, its FileIds → unified FileIds.
    file_maps: Vec<Vec<FileId>>,
    /// Every diagnostic added by `push_new` (before suppressions), for its deduplication.
    merged: crate::fasthash::HashSet<Diagnostic>,
    /// The error each program's annotation found first (`Program::leading_error`): listed
    /// before the others, which follow in source order.
    leading: crate::fasthash::HashSet<Diagnostic>,
}

/// Analyses every program of the workspace. `overlays` are unsaved editor buffers.
pub fn analyze(config: &EngineConfig, overlays: &HashMap<PathBuf, String>) -> Analysis {
    analyze_after(config, overlays, None)
}

/// [`analyze`], given the previous analysis of the workspace (the language server's): a
/// program whose code only moved takes that analysis's annotation, spans moved
/// (`Program::analyse_after`); `previous` loses it.
pub fn analyze_after(
    config: &EngineConfig,
    overlays: &HashMap<PathBuf, String>,
    mut previous: Option<&mut Analysis>,
) -> Analysis {
    let mut analysis = Analysis {
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        programs: Vec::new(),
        file_maps: Vec::new(),
        merged: Default::default(),
        leading: Default::default(),
    };
    if config.only_rpython && detect::evidence(config, overlays).is_none() {
        // Not an RPython workspace: nothing to say about its Python.
        return analysis;
    }
    // Buffers being typed: analysed repaired, reported with their syntax error alone.
    let mut repaired: Vec<(PathBuf, crate::syntax::SyntaxError)> = Vec::new();
    let mut repaired_overlays;
    let overlays = if config.repair_buffers {
        repaired_overlays = overlays.clone();
        for (path, text) in repaired_overlays.iter_mut() {
            if path.extension().is_some_and(|e| e == "py") {
                if let Some((fixed, err)) = repair::repair(text) {
                    *text = fixed;
                    repaired.push((path.clone(), err));
                }
            }
        }
        &repaired_overlays
    } else {
        overlays
    };
    let loader = LoaderConfig {
        search_paths: config.search_paths.clone(),
        overlays: overlays.clone(),
        policy: config.policy(),
        import_budget: config.import_budget,
    };
    analysis.config_notes(config);
    let mut targets = config.targets();
    if config.entry_points.is_empty() {
        // An open buffer is what the user sees: its text, not the disk's, says whether it
        // defines `target`.
        targets.retain(|t| {
            overlays
                .get(t)
                .is_none_or(|text| config::defines_target(text))
        });
        let mut extra: Vec<PathBuf> = overlays
            .iter()
            .filter(|(p, text)| {
                p.extension().is_some_and(|e| e == "py")
                    && config::defines_target(text)
                    && config.contains(p)
                    && !targets.contains(p)
            })
            .map(|(p, _)| p.clone())
            .collect();
        extra.sort();
        targets.extend(extra);
    }
    let started = std::time::Instant::now();
    let mut out_of_time = false;
    for target in targets {
        if started.elapsed() > ANALYSIS_TIME_BUDGET {
            out_of_time = true;
            break;
        }
        if !config.contains(&target) {
            analysis.refuse_target(&config.root, &target, "it is outside the workspace");
            continue;
        }
        let old = previous.as_deref_mut().and_then(|a| {
            a.programs
                .iter_mut()
                .find(|p| p.target.as_deref() == Some(target.as_path()))
        });
        let program = guarded(&target, || {
            let mut program = trace::stage("load", || Program::load(&target, loader.clone()));
            program.translate_check = config.translate;
            program.analyse_after(old);
            program
        });
        trace::stage("merge", || analysis.add_program(program));
    }
    // Files of the workspace that no program reaches: their own import and flow checks, and a
    // note saying so.
    let reached: Vec<PathBuf> = analysis.files();
    let (mut standalone, mut truncated) = crate::sandbox::walk_python_files(&config.root);
    // Links out of the workspace are not part of it.
    standalone.retain(|f| config.contains(f));
    if standalone.len() > crate::sandbox::MAX_STANDALONE_FILES {
        standalone.truncate(crate::sandbox::MAX_STANDALONE_FILES);
        truncated = true;
    }
    if truncated {
        analysis.workspace_note(
            &config.root,
            format!(
                "the workspace is too large (more than {} Python files or {} directory entries); only the first {} files no target reaches were checked",
                crate::sandbox::MAX_WORKSPACE_FILES,
                crate::sandbox::MAX_WALK_ENTRIES,
                crate::sandbox::MAX_STANDALONE_FILES
            ),
        );
    }
    standalone.extend(
        overlays
            .keys()
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .cloned(),
    );
    standalone.sort();
    standalone.dedup();
    for file in standalone {
        if reached.contains(&file) || !file.starts_with(&config.root) {
            continue;
        }
        if started.elapsed() > ANALYSIS_TIME_BUDGET {
            out_of_time = true;
            break;
        }
        let program = guarded(&file, || {
            let mut program = Program::load_library(&file, loader.clone());
            let note_file = program.space.sources.find(&file);
            program.build_module_flow_graphs();
            if let Some(f) = note_file {
                program.diagnostics.push(Diagnostic::new(
                    "RPY006",
                    Span::new(f, 0, 0),
                    "this file is not reachable from any target; only its syntax, import and flow checks ran",
                ));
            }
            program
        });
        analysis.add_program(program);
    }
    if out_of_time {
        analysis.workspace_note(
            &config.root,
            format!(
                "the analysis of the workspace stopped after {} seconds; some files were not checked",
                ANALYSIS_TIME_BUDGET.as_secs()
            ),
        );
    }
    trace::stage("finish", || {
        analysis.finish();
        analysis.report_repaired(repaired);
    });
    analysis
}

/// Analyses one target file (the `check`/`graph` command's unit) in the sandbox: import-time
/// code reads only the target's directory and the search paths.
pub fn analyze_target(path: &Path, search_paths: &[PathBuf]) -> Analysis {
    let mut roots = vec![path.parent().unwrap_or(Path::new("/")).to_path_buf()];
    roots.extend(search_paths.iter().cloned());
    let policy = crate::sandbox::Policy::sandboxed(roots.clone(), &[], Some(roots[0].clone()));
    analyze_target_with(path, search_paths, policy)
}

/// Analyses one target file with the given policy for import-time code.
pub fn analyze_target_with(
    path: &Path,
    search_paths: &[PathBuf],
    policy: crate::sandbox::Policy,
) -> Analysis {
    analyze_target_opts(path, search_paths, policy, false, None)
}

/// [`analyze_target_with`], also running the RTyper after a clean annotation when
/// `translate` (see `EngineConfig::translate`).
pub fn analyze_target_opts(
    path: &Path,
    search_paths: &[PathBuf],
    policy: crate::sandbox::Policy,
    translate: bool,
    import_budget: Option<std::time::Duration>,
) -> Analysis {
    let loader = LoaderConfig {
        search_paths: search_paths.to_vec(),
        overlays: HashMap::default(),
        policy,
        import_budget,
    };
    let mut analysis = Analysis {
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        programs: Vec::new(),
        file_maps: Vec::new(),
        merged: Default::default(),
        leading: Default::default(),
    };
    let program = guarded(path, || {
        let mut program = Program::load(path, loader);
        program.translate_check = translate;
        program.analyse();
        program
    });
    analysis.add_program(program);
    analysis.finish();
    analysis
}

/// Runs one program's analysis so that a panic (a bug) fails that program alone: it becomes
/// a diagnostic on the file instead of taking the command or the server down.
fn guarded(path: &Path, run: impl FnOnce() -> Program) -> Program {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(p) => p,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".into());
            let mut program = Program::empty();
            let text = crate::sandbox::read_source(path).unwrap_or_default();
            let file = program.space.sources.add(path.to_path_buf(), text);
            program.diagnostics.push(Diagnostic::new(
                "RPY004",
                Span::new(file, 0, 0),
                format!("internal error: the analysis of this file was aborted ({why})"),
            ));
            program
        }
    }
}

impl Analysis {
    fn add_program(&mut self, program: Program) {
        let mut map = Vec::new();
        for (_, file) in program.space.sources.iter() {
            let id = match self.sources.find(&file.path) {
                Some(id) => id,
                None => self.sources.add_file(file.clone()),
            };
            map.push(id);
        }
        let remap_diagnostic = |mut d: Diagnostic| {
            let remap = |s: Span| Span {
                file: map.get(s.file.0 as usize).copied().unwrap_or(s.file),
                ..s
            };
            d.span = remap(d.span);
            d.labels = d
                .labels
                .into_iter()
                .map(|l| Label {
                    span: remap(l.span),
                    message: l.message,
                })
                .collect();
            d
        };
        if let Some(d) = program.leading_error() {
            self.leading.insert(remap_diagnostic(d));
        }
        for d in program.all_diagnostics() {
            self.push_new(remap_diagnostic(d));
        }
        self.file_maps.push(map);
        self.programs.push(program);
    }

    /// A diagnostic at the start of a file that is not part of any program.
    fn file_note(&mut self, path: &Path, code: &'static str, message: String) {
        let file = match self.sources.find(path) {
            Some(f) => f,
            None => {
                let text = crate::sandbox::read_source(path).unwrap_or_default();
                self.sources.add(path.to_path_buf(), text)
            }
        };
        self.push_new(Diagnostic::new(code, Span::new(file, 0, 0), message));
    }

    /// Adds a diagnostic unless an equal one is already there (a program's files are often
    /// another's too). The set keeps this linear in the number of diagnostics.
    fn push_new(&mut self, d: Diagnostic) {
        if !self.merged.contains(&d) {
            self.merged.insert(d.clone());
            self.diagnostics.push(d);
        }
    }

    fn config_notes(&mut self, config: &EngineConfig) {
        let pyproject = config.root.join("pyproject.toml");
        for why in &config.refused {
            self.file_note(&pyproject, "RPY005", why.clone());
        }
    }

    fn refuse_target(&mut self, root: &Path, target: &Path, why: &str) {
        // The target is not read: the note goes on the workspace's configuration.
        let msg = format!("entry point {} is not analysed: {why}", target.display());
        self.file_note(&root.join("pyproject.toml"), "RPY005", msg);
    }

    fn workspace_note(&mut self, root: &Path, message: String) {
        self.file_note(&root.join("pyproject.toml"), "RPY006", message);
    }

    fn finish(&mut self) {
        // unused suppressions are reported in files whose every check ran (not in files no
        // target reaches)
        let unreached: crate::fasthash::HashSet<FileId> = self
            .diagnostics
            .iter()
            .filter(|d| d.code == "RPY006")
            .map(|d| d.span.file)
            .collect();
        crate::diagnostics::suppress::apply(&self.sources, &mut self.diagnostics, |f| {
            !unreached.contains(&f)
        });
        let leading = std::mem::take(&mut self.leading);
        self.diagnostics
            .sort_by_key(|d| (!leading.contains(d), d.span.file, d.span.start, d.code));
    }

    /// In each repaired buffer, only its syntax error (what else was found there is about
    /// the repaired text, not the user's).
    fn report_repaired(&mut self, repaired: Vec<(PathBuf, crate::syntax::SyntaxError)>) {
        for (path, err) in repaired {
            let file = match self.sources.find(&path) {
                Some(f) => f,
                None => continue,
            };
            self.diagnostics.retain(|d| d.span.file != file);
            let span = Span { file, ..err.span };
            self.diagnostics
                .push(Diagnostic::new("RPY001", span, err.message.clone()));
        }
        self.diagnostics
            .sort_by_key(|d| (d.span.file, d.span.start, d.code));
    }

    /// Unified id of a program's file.
    pub fn unified(&self, program: usize, file: FileId) -> FileId {
        self.file_maps[program]
            .get(file.0 as usize)
            .copied()
            .unwrap_or(file)
    }

    /// Every user file analysed (not bundled models).
    pub fn files(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for (_, f) in self.sources.iter() {
            if !f.path.starts_with("<bundled>") && !out.contains(&f.path) {
                out.push(f.path.clone());
            }
        }
        out
    }

    pub fn diagnostics_for(&self, path: &Path) -> Vec<&Diagnostic> {
        match self.sources.find(path) {
            Some(id) => self
                .diagnostics
                .iter()
                .filter(|d| d.span.file == id)
                .collect(),
            None => Vec::new(),
        }
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// Translates an analysed program for `run` (and later `build`): the RTyper's low-level
/// program, or the diagnostics that prevent it (check errors come first: a program with
/// errors is not translated). Diagnostic spans are in `analysis.sources`.
pub fn translate(analysis: &mut Analysis) -> Result<crate::rtyper::LlProgram, Vec<Diagnostic>> {
    if analysis.error_count() > 0 {
        return Err(analysis
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect());
    }
    let Some(program) = analysis.programs.first_mut() else {
        return Err(Vec::new());
    };
    let Some(ann) = &mut program.annotated else {
        // the import stopped by rpy-lsp's budget before `target` was defined or called
        if let Some(d) = program.space.budget_stop_error() {
            return Err(vec![d]);
        }
        return Err(vec![Diagnostic::new(
            "RPY301",
            Span::default(),
            "the program has no entry point to translate",
        )]);
    };
    let result = crate::rtyper::rtype(ann, &mut program.space);
    result.map_err(|diags| {
        diags
            .into_iter()
            .map(|mut d| {
                d.span.file = analysis.unified(0, d.span.file);
                d
            })
            .collect()
    })
}

#[cfg(test)]
mod editor_tests;
#[cfg(test)]
mod incremental_tests;
