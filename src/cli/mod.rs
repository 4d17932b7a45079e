//! Command-line front end: parses arguments, calls the engine, renders its results. No
//! analysis happens here.

mod output;

use crate::diagnostics::{rules, Severity, RULES};
use crate::engine::{self, Analysis, EngineConfig};
use crate::flowspace::render::{render_dot, render_text};
use clap::{Parser, Subcommand, ValueEnum};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "rpy-lsp",
    version,
    about = "Language server, linter and compiler for RPython"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum CheckFormat {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum GraphFormat {
    Text,
    Dot,
}

#[derive(Subcommand)]
enum Command {
    /// Report every RPython violation of the programs under PATHS (files or directories).
    Check {
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: CheckFormat,
        /// Extra directories to resolve imports from.
        #[arg(long = "search-path")]
        search_paths: Vec<PathBuf>,
    },
    /// Print the flow graphs of a program's reachable functions.
    Graph {
        target: PathBuf,
        /// Only the graphs of functions with this name.
        #[arg(long)]
        function: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: GraphFormat,
        /// Show each variable's annotation.
        #[arg(long)]
        annotated: bool,
        #[arg(long = "search-path")]
        search_paths: Vec<PathBuf>,
    },
    /// Run the language server on stdin/stdout.
    Serve,
    /// List the diagnostic codes.
    Rules,
    /// Print the documentation of a diagnostic code.
    Explain { code: String },
}

/// Runs `f` on a thread with a [`engine::ANALYSIS_STACK_BYTES`] stack (on this thread if none can be
/// started). A panic becomes `Err` with its message.
pub fn with_big_stack<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let f = std::sync::Arc::new(std::sync::Mutex::new(Some(f)));
    let g = f.clone();
    let spawned = std::thread::Builder::new()
        .name("rpy-lsp-analysis".into())
        .stack_size(engine::ANALYSIS_STACK_BYTES)
        .spawn(move || {
            let f = g.lock().ok().and_then(|mut f| f.take());
            f.map(|f| f())
        });
    let result = match spawned {
        Ok(h) => h.join(),
        Err(_) => {
            let f = f.lock().ok().and_then(|mut f| f.take());
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f.map(|f| f())))
        }
    };
    match result {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err("the analysis thread did not run".into()),
        Err(p) => Err(p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into())),
    }
}

pub fn main() -> i32 {
    match with_big_stack(run) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("error: internal error: {why}");
            2
        }
    }
}

fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check {
            paths,
            format,
            search_paths,
        } => check(paths, format, search_paths),
        Command::Graph {
            target,
            function,
            format,
            annotated,
            search_paths,
        } => graph(target, function, format, annotated, search_paths),
        Command::Serve => crate::lsp::serve(),
        Command::Rules => {
            for r in RULES {
                println!(
                    "{}  {:<8} {:<26} {}",
                    r.code,
                    r.severity.as_str(),
                    r.name,
                    r.summary
                );
            }
            0
        }
        Command::Explain { code } => match rules::lookup(&code) {
            Some(r) => {
                println!(
                    "{} ({}, {}): {}\n\n{}\n\nRejected:\n{}\nAccepted:\n{}",
                    r.code,
                    r.name,
                    r.severity.as_str(),
                    r.summary,
                    r.doc,
                    indent(r.bad),
                    indent(r.good)
                );
                0
            }
            None => {
                eprintln!("error: unknown code `{}` (see `rpy-lsp rules`)", code);
                2
            }
        },
    }
}

/// Writes to stdout, ignoring a closed pipe (`rpy-lsp check | head`) instead of panicking.
fn write_out(s: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes()).and_then(|_| out.flush());
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {}\n", l)).collect()
}

fn check(paths: Vec<PathBuf>, format: CheckFormat, search_paths: Vec<PathBuf>) -> i32 {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths
    };
    let mut analyses: Vec<Analysis> = Vec::new();
    for path in &paths {
        if !path.exists() {
            let why = match std::fs::symlink_metadata(path) {
                Ok(_) => "a symbolic link to nothing (dangling, or a loop of links)",
                Err(_) => "no such file or directory",
            };
            eprintln!("error: {}: {why}", path.display());
            return 2;
        }
        let path = path.canonicalize().unwrap_or(path.clone());
        if !path.is_file() && !path.is_dir() {
            eprintln!("error: {}: not a regular file or directory", path.display());
            return 2;
        }
        if path.is_file() {
            analyses.push(engine::analyze_target(&path, &search_paths));
        } else {
            let mut config = EngineConfig::discover(&path);
            config.search_paths.extend(search_paths.iter().cloned());
            analyses.push(engine::analyze(&config, &HashMap::new()));
        }
    }
    let mut errors = 0;
    let color = std::io::stdout().is_terminal();
    for a in &analyses {
        errors += a.error_count();
        let text = match format {
            CheckFormat::Human => output::human(&a.sources, &a.diagnostics, color),
            CheckFormat::Json => output::json(&a.sources, &a.diagnostics),
            CheckFormat::Sarif => output::sarif(&a.sources, &a.diagnostics),
            CheckFormat::Github => output::github(&a.sources, &a.diagnostics),
        };
        write_out(&text);
        if format == CheckFormat::Json || format == CheckFormat::Sarif {
            write_out("\n");
        }
    }
    if format == CheckFormat::Human {
        let warnings: usize = analyses
            .iter()
            .map(|a| {
                a.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Warning)
                    .count()
            })
            .sum();
        eprintln!(
            "{} error{}, {} warning{}",
            errors,
            if errors == 1 { "" } else { "s" },
            warnings,
            if warnings == 1 { "" } else { "s" }
        );
    }
    i32::from(errors > 0)
}

fn graph(
    target: PathBuf,
    function: Option<String>,
    format: GraphFormat,
    annotated: bool,
    search_paths: Vec<PathBuf>,
) -> i32 {
    if !target.is_file() {
        eprintln!("error: {}: no such file", target.display());
        return 2;
    }
    let target = target.canonicalize().unwrap_or(target);
    let analysis = engine::analyze_target(&target, &search_paths);
    let Some(program) = analysis.programs.first() else {
        return 2;
    };
    let mut out = String::new();
    if format == GraphFormat::Dot {
        out.push_str("digraph flowgraphs {\n  node [fontsize=10];\n");
    }
    // With --annotated, the annotator's graphs (one per specialization) and their bindings;
    // otherwise the flow space's own graphs.
    let annotated = program.annotated.as_ref().filter(|_| annotated);
    let graphs = annotated.map_or(&program.graphs, |a| &a.graphs);
    let mut shown = 0;
    for (i, g) in graphs.iter().enumerate() {
        if function.as_deref().is_some_and(|f| f != &*g.name) {
            continue;
        }
        shown += 1;
        match format {
            GraphFormat::Text => {
                let ann = |v: crate::flowspace::VarId| {
                    let a = annotated?;
                    let s = a.bindings.get(i)?.get(v.0 as usize)?.as_ref()?;
                    Some(a.describe(&program.space.heap, s))
                };
                out.push_str(&render_text(
                    g,
                    &program.space.heap,
                    &program.space.sources,
                    &ann,
                ));
                out.push('\n');
            }
            GraphFormat::Dot => out.push_str(&render_dot(g, &program.space.heap, i)),
        }
    }
    if format == GraphFormat::Dot {
        out.push_str("}\n");
    }
    write_out(&out);
    let color = std::io::stderr().is_terminal();
    eprint!(
        "{}",
        output::human(&analysis.sources, &analysis.diagnostics, color)
    );
    if let Some(f) = &function {
        if shown == 0 {
            eprintln!("error: no reachable function named `{}`", f);
            return 1;
        }
    }
    i32::from(analysis.error_count() > 0)
}
