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
        /// Show the low-level graphs of the RTyper, each variable with its concretetype.
        #[arg(long, conflicts_with = "annotated")]
        rtyped: bool,
        #[arg(long = "search-path")]
        search_paths: Vec<PathBuf>,
    },
    /// Translate a program (annotate, RTyper) and run `entry_point(argv)` on the
    /// LLInterpreter; exits with its result.
    Run {
        target: PathBuf,
        /// Arguments passed to the program (after `--`).
        #[arg(last = true)]
        args: Vec<String>,
        #[arg(long = "search-path")]
        search_paths: Vec<PathBuf>,
        /// Print the time of each stage (analysis, RTyper, run) and the number of
        /// low-level operations executed to stderr.
        #[arg(long)]
        timings: bool,
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
            rtyped,
            search_paths,
        } => graph(target, function, format, annotated, rtyped, search_paths),
        Command::Run {
            target,
            args,
            search_paths,
            timings,
        } => run_program(target, args, search_paths, timings),
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

fn run_program(
    target: PathBuf,
    args: Vec<String>,
    search_paths: Vec<PathBuf>,
    timings: bool,
) -> i32 {
    // the whole pipeline runs on a thread with a large stack (deep RPython recursion)
    let handle = std::thread::Builder::new()
        .stack_size(4 << 30)
        .spawn(move || run_on_this_thread(target, args, search_paths, timings));
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: the LLInterpreter stopped unexpectedly");
            2
        }
    }
}

fn run_on_this_thread(
    target: PathBuf,
    args: Vec<String>,
    search_paths: Vec<PathBuf>,
    timings: bool,
) -> i32 {
    if !target.is_file() {
        eprintln!("error: {}: no such file", target.display());
        return 2;
    }
    let shown = target.display().to_string();
    let target = target.canonicalize().unwrap_or(target);
    let t0 = std::time::Instant::now();
    // the program runs: its import-time code sees the real machine, as the reference's
    // translation does
    let analysis = engine::analyze_target_with(
        &target,
        &search_paths,
        crate::sandbox::Policy::unrestricted(),
    );
    let t1 = std::time::Instant::now();
    let translated = engine::translate(&analysis);
    let t2 = std::time::Instant::now();
    let prog = match translated {
        Ok(p) => p,
        Err(diags) => {
            let color = std::io::stderr().is_terminal();
            eprint!("{}", output::human(&analysis.sources, &diags, color));
            eprintln!("error: {} cannot be run: fix the errors above first", shown);
            return 1;
        }
    };
    let mut argv = vec![shown];
    argv.extend(args);
    let mut interp = crate::llinterp::LlInterpreter::new(&prog, crate::llinterp::Output::Inherit);
    let result = interp.run_entry(&argv);
    if timings {
        let t3 = std::time::Instant::now();
        let secs = (t3 - t2).as_secs_f64();
        eprintln!(
            "[timings] analysis (import, flow, annotation) {:.1} ms; rtype {:.1} ms; run {:.1} ms, {} low-level operations ({:.1} million/s)",
            (t1 - t0).as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            secs * 1e3,
            interp.steps,
            interp.steps as f64 / secs.max(1e-9) / 1e6
        );
    }
    if let Some((_, span)) = &result.fatal {
        let sources = &analysis.programs[0].space.sources;
        if (span.file.0 as usize) < sources.len() && *span != crate::syntax::Span::default() {
            let file = sources.get(span.file);
            let lc = file.line_col(span.start);
            eprintln!("  at {}:{}", file.path.display(), lc.line + 1);
        }
    }
    result.exit_code
}

fn graph(
    target: PathBuf,
    function: Option<String>,
    format: GraphFormat,
    annotated: bool,
    rtyped: bool,
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
    // With --rtyped, the RTyper's low-level graphs (those of reached functions); with
    // --annotated, the annotator's graphs (one per specialization) and their bindings;
    // otherwise the flow space's own graphs.
    let lowlevel = if rtyped {
        match engine::translate(&analysis) {
            Ok(p) => Some(p),
            Err(diags) => {
                let color = std::io::stderr().is_terminal();
                eprint!("{}", output::human(&analysis.sources, &diags, color));
                return 1;
            }
        }
    } else {
        None
    };
    let annotated = program.annotated.as_ref().filter(|_| annotated);
    let graphs = match &lowlevel {
        Some(ll) => &ll.graphs,
        None => annotated.map_or(&program.graphs, |a| &a.graphs),
    };
    let mut shown = 0;
    for (i, g) in graphs.iter().enumerate() {
        if function.as_deref().is_some_and(|f| f != &*g.name) {
            continue;
        }
        shown += 1;
        match format {
            GraphFormat::Text => {
                if let Some(ll) = &lowlevel {
                    if g.blocks.len() <= 2
                        && g.block(g.startblock).inputargs.is_empty()
                        && g.block(g.startblock).exits.is_empty()
                    {
                        continue; // not reached: no low-level graph
                    }
                    let ann = |v: crate::flowspace::VarId| {
                        g.concretetype.get(v.0 as usize).map(|t| ll.types.name(*t))
                    };
                    out.push_str(&render_text(
                        g,
                        &program.space.heap,
                        &program.space.sources,
                        &ann,
                    ));
                    out.push('\n');
                    continue;
                }
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
