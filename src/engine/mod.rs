//! The engine: what the front ends (`cli`, `lsp`) call. It finds a workspace's programs,
//! runs the pipeline on each, merges their diagnostics (with `# rpy: ignore[CODE]`
//! suppressions applied) and answers position queries (hover, definition, symbols).

pub mod config;
pub mod program;
mod queries;
mod types;

pub use config::EngineConfig;
pub use program::Program;
pub use queries::{CodeAction, HoverInfo, InlayHint, Location, Symbol, SymbolKind, TextEdit};

use crate::diagnostics::{Diagnostic, Label};
use crate::objspace::LoaderConfig;
use crate::syntax::{FileId, SourceMap, Span};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The result of analysing a workspace.
pub struct Analysis {
    /// Every file of every program (user files and bundled models), by unified FileId.
    pub sources: SourceMap,
    /// All diagnostics, suppressions applied, spans in `sources`.
    pub diagnostics: Vec<Diagnostic>,
    pub programs: Vec<Program>,
    /// Per program, its FileIds → unified FileIds.
    file_maps: Vec<Vec<FileId>>,
}

/// Analyses every program of the workspace. `overlays` are unsaved editor buffers.
pub fn analyze(config: &EngineConfig, overlays: &HashMap<PathBuf, String>) -> Analysis {
    let mut analysis = Analysis {
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        programs: Vec::new(),
        file_maps: Vec::new(),
    };
    let loader = LoaderConfig {
        search_paths: config.search_paths.clone(),
        overlays: overlays.clone(),
    };
    for target in config.targets() {
        let mut program = Program::load(&target, loader.clone());
        program.analyse();
        analysis.add_program(program);
    }
    // Files of the workspace that no program reaches: their own import and flow checks, and a
    // note saying so.
    let reached: Vec<PathBuf> = analysis.files();
    let mut standalone: Vec<PathBuf> = config::python_files(&config.root);
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
        analysis.add_program(program);
    }
    analysis.finish();
    analysis
}

/// Analyses one target file (the `check`/`graph` command's unit).
pub fn analyze_target(path: &Path, search_paths: &[PathBuf]) -> Analysis {
    let loader = LoaderConfig {
        search_paths: search_paths.to_vec(),
        overlays: HashMap::new(),
    };
    let mut analysis = Analysis {
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        programs: Vec::new(),
        file_maps: Vec::new(),
    };
    let mut program = Program::load(path, loader);
    program.analyse();
    analysis.add_program(program);
    analysis.finish();
    analysis
}

impl Analysis {
    fn add_program(&mut self, program: Program) {
        let mut map = Vec::new();
        for (_, file) in program.space.sources.iter() {
            let id = match self.sources.find(&file.path) {
                Some(id) => id,
                None => self.sources.add(file.path.clone(), file.text.clone()),
            };
            map.push(id);
        }
        for d in &program.all_diagnostics() {
            let remap = |s: Span| Span {
                file: map.get(s.file.0 as usize).copied().unwrap_or(s.file),
                ..s
            };
            let mut d = d.clone();
            d.span = remap(d.span);
            d.labels = d
                .labels
                .into_iter()
                .map(|l| Label {
                    span: remap(l.span),
                    message: l.message,
                })
                .collect();
            if !self.diagnostics.contains(&d) {
                self.diagnostics.push(d);
            }
        }
        self.file_maps.push(map);
        self.programs.push(program);
    }

    fn finish(&mut self) {
        let sources = &self.sources;
        self.diagnostics.retain(|d| !is_suppressed(sources, d));
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

/// `# rpy: ignore[CODE, ...]` (or a bare `# rpy: ignore`) on the diagnostic's line.
fn is_suppressed(sources: &SourceMap, d: &Diagnostic) -> bool {
    if d.span.file.0 as usize >= sources.len() {
        return false;
    }
    let file = sources.get(d.span.file);
    let line = file.line_text(file.line_col(d.span.start).line);
    let Some(idx) = line.find("# rpy: ignore") else {
        return false;
    };
    let rest = &line[idx + "# rpy: ignore".len()..];
    match rest.strip_prefix('[') {
        Some(list) => list
            .split(']')
            .next()
            .unwrap_or("")
            .split(',')
            .any(|c| c.trim().eq_ignore_ascii_case(d.code)),
        None => true,
    }
}

/// Translates an analysed program for `run` (and later `build`): the RTyper's low-level
/// program, or the diagnostics that prevent it (check errors come first: a program with
/// errors is not translated). Diagnostic spans are in `analysis.sources`.
pub fn translate(analysis: &Analysis) -> Result<crate::rtyper::LlProgram, Vec<Diagnostic>> {
    if analysis.error_count() > 0 {
        return Err(analysis
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect());
    }
    let Some(program) = analysis.programs.first() else {
        return Err(Vec::new());
    };
    let Some(ann) = &program.annotated else {
        return Err(vec![Diagnostic::new(
            "RPY301",
            Span::default(),
            "the program has no entry point to translate",
        )]);
    };
    crate::rtyper::rtype(ann, &program.space.heap).map_err(|diags| {
        diags
            .into_iter()
            .map(|mut d| {
                d.span.file = analysis.unified(0, d.span.file);
                d
            })
            .collect()
    })
}
