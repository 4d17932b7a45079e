//! `rpy-lsp build`: the whole translation of a target to a native executable, with the
//! time of each stage (as the reference's `[Timer]` lines): analysis (import, flow
//! graphs, annotation), RTyper, database and source generation, C compilation.

use super::{output, project_search_paths};
use crate::engine;
use crate::genc::{self, CompileOptions, GcKind};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

pub struct BuildArgs {
    pub target: PathBuf,
    pub output: Option<PathBuf>,
    pub opt: u32,
    pub gc: GcKind,
    pub emit_c: Option<PathBuf>,
    pub search_paths: Vec<PathBuf>,
    /// `--import-budget` (see `EngineConfig::import_budget`).
    pub import_budget: Option<std::time::Duration>,
}

fn timer(stage: &str, t: Instant) {
    eprintln!(
        "[build] {:<28} {:>9.1} ms",
        stage,
        t.elapsed().as_secs_f64() * 1e3
    );
}

pub fn build(args: BuildArgs) -> i32 {
    if !args.target.is_file() {
        eprintln!("error: {}: no such file", args.target.display());
        return 2;
    }
    let shown = args.target.display().to_string();
    let target = args.target.canonicalize().unwrap_or(args.target.clone());
    let search_paths = match project_search_paths(&target, args.search_paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}", e);
            return 2;
        }
    };
    let t = Instant::now();
    let mut analysis = engine::analyze_target_opts(
        &target,
        &search_paths,
        crate::sandbox::Policy::unrestricted(),
        false,
        args.import_budget,
    );
    timer("annotate", t);
    let t = Instant::now();
    let prog = match engine::translate(&mut analysis) {
        Ok(p) => p,
        Err(diags) => {
            let color = std::io::stderr().is_terminal();
            eprint!("{}", output::human(&analysis.sources, &diags, color));
            eprintln!(
                "error: {} cannot be built: fix the errors above first",
                shown
            );
            return 1;
        }
    };
    timer("rtype", t);
    let t = Instant::now();
    // the source files, for the line comments of `--emit-c`
    let lines = args
        .emit_c
        .as_ref()
        .and_then(|_| analysis.programs.first())
        .map(|p| &p.space.sources);
    let sources = match genc::generate(&prog, lines) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {}", e);
            }
            eprintln!("error: {} cannot be built yet", shown);
            return 1;
        }
    };
    timer("database and source generation", t);
    let out = args.output.unwrap_or_else(|| {
        let stem = target
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "program".into());
        PathBuf::from(format!("{}-c", stem))
    });
    let (dir, keep) = match &args.emit_c {
        Some(d) => (d.clone(), true),
        None => (
            std::env::temp_dir().join(format!("rpy-build-{}", std::process::id())),
            false,
        ),
    };
    let t = Instant::now();
    let opts = CompileOptions {
        opt: args.opt,
        gc: args.gc,
    };
    match genc::compile(&sources, &dir, &out, &opts) {
        Ok(()) => {
            timer("C compilation", t);
            if !keep {
                let _ = std::fs::remove_dir_all(&dir);
            }
            eprintln!("[build] wrote {}", out.display());
            0
        }
        Err(e) => {
            eprintln!("error: {}", e);
            2
        }
    }
}
