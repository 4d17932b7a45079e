//! Command-line front end: parses arguments, calls the engine, renders its results. No
//! analysis happens here.

mod build;
mod output;

use crate::diagnostics::{rules, Severity, RULES};
use crate::engine::{self, Analysis, EngineConfig};
use crate::fasthash::HashMap;
use crate::flowspace::render::{render_dot, render_text};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

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
    /// Diagnostics with source excerpts and labels.
    Human,
    /// One line per diagnostic: `file:line:col: CODE message`.
    Concise,
    /// One JSON document: `{"diagnostics": [...]}`.
    Json,
    /// One SARIF 2.1.0 log (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

/// The options of `check`.
#[derive(clap::Args)]
struct CheckArgs {
    /// Files or directories to check (default: the current directory); `-` reads a program
    /// from stdin. Settings come from the nearest pyproject.toml above each path.
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "human")]
    format: CheckFormat,
    /// Extra directories to resolve imports from.
    #[arg(long = "search-path")]
    search_paths: Vec<PathBuf>,
    /// Report only these rules: codes, prefixes (`RPY2`), rule names or `ALL`,
    /// comma-separated; replaces `select` of pyproject.toml.
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Do not report these rules (codes, prefixes or names, comma-separated); added to
    /// `ignore` of pyproject.toml.
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// Exit 0 even when errors are reported.
    #[arg(long)]
    exit_zero: bool,
    /// Print the number of diagnostics of each code instead of the diagnostics.
    #[arg(long)]
    statistics: bool,
    /// Print the resolved settings (project root, pyproject.toml, rules) and exit.
    #[arg(long)]
    show_settings: bool,
    /// Colour of the human output (`NO_COLOR` in the environment turns `auto` off).
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// Do not run the RTyper after a clean annotation (by default `check` reports, as
    /// RPY301 warnings, what `run` and `build` could not translate).
    #[arg(long)]
    no_translate: bool,
    #[command(flatten)]
    budget: ImportBudget,
}

/// `--import-budget`, one option of `check`, `run` and `build` (each imports the program
/// the same way; the value reaches the object space as `EngineConfig::import_budget`).
#[derive(clap::Args, Clone, Copy)]
struct ImportBudget {
    /// CPU seconds the program's import-time code may take before it is stopped (default 5,
    /// as in the language server; steps and memory grow with it). `check` reports the stop
    /// as a warning; `run` and `build` cannot translate what the stop left unknown.
    #[arg(long, value_name = "SECONDS", default_value_t = IMPORT_BUDGET_SECS, value_parser = parse_budget)]
    import_budget: f64,
}

impl ImportBudget {
    /// The budget as `EngineConfig::import_budget` holds it.
    fn duration(self) -> Option<std::time::Duration> {
        Some(std::time::Duration::from_secs_f64(self.import_budget))
    }
}

/// The command line's default `--import-budget`, the language server's: an endless loop at
/// import time must not hold a CI job for a minute. Programs that build big tables at
/// import time ask for more (hippyvm's and rmathics' rply grammars need about 10 s and
/// 30 s); the warning at the stop names the option.
const IMPORT_BUDGET_SECS: f64 = 5.0;

/// A positive number of seconds (fractions allowed), at most a day.
fn parse_budget(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum GraphFormat {
    Text,
    Dot,
}

#[derive(Subcommand)]
enum Command {
    /// Report every RPython violation of the programs under PATHS (files or directories).
    /// Exit status: 0 no error, 1 errors, 2 usage, configuration or I/O problem.
    Check(CheckArgs),
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
        #[command(flatten)]
        budget: ImportBudget,
    },
    /// Translate a program to C and compile it into a native executable (annotate,
    /// RTyper, GenC, the system C compiler).
    Build {
        target: PathBuf,
        /// The executable to write (default: `<target name>-c` in the current directory).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Optimization level of the C compiler (default 3: the reference toolchain
        /// compiles its C with gcc -O3 on Linux, whatever its own -O level).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=3))]
        opt: u32,
        /// Garbage collector: `gen` (generational) or `none` (never frees; debugging).
        #[arg(long, value_enum, default_value = "gen")]
        gc: GcArg,
        /// Keep the generated C in this directory, with comments naming the source line of
        /// each block.
        #[arg(long = "emit-c")]
        emit_c: Option<PathBuf>,
        #[arg(long = "search-path")]
        search_paths: Vec<PathBuf>,
        #[command(flatten)]
        budget: ImportBudget,
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
    restore_sigpipe();
    match with_big_stack(run) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("error: internal error: {why}");
            2
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`rpy-lsp explain RPY205 | head`)
/// would panic in `println!`. A command-line tool (and a program under `run`, as its
/// compiled binary would) should end quietly instead, as `cat` does: restore the default.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread is spawned; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
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
        Command::Check(args) => check(args),
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
            budget,
        } => run_program(target, args, search_paths, timings, budget.duration()),
        Command::Build {
            target,
            output,
            opt,
            gc,
            emit_c,
            search_paths,
            budget,
        } => {
            let opts = build::BuildArgs {
                target,
                output,
                opt,
                gc: match gc {
                    GcArg::Gen => crate::genc::GcKind::Gen,
                    GcArg::None => crate::genc::GcKind::None,
                },
                emit_c,
                search_paths,
                import_budget: budget.duration(),
            };
            on_big_stack(move || build::build(opts))
        }
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

/// `--gc`
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum GcArg {
    Gen,
    None,
}

/// Runs `f` on a thread with a large stack (the pipeline recurses on deep programs).
fn on_big_stack(f: impl FnOnce() -> i32 + Send + 'static) -> i32 {
    match std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .map(|h| h.join())
    {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: the translation stopped unexpectedly");
            2
        }
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

/// What one PATH of `check` analyses, and which of its diagnostics are shown.
struct Checked {
    analysis: Analysis,
    /// Only diagnostics in files under this path (a subdirectory or a file of the project).
    only_under: Option<PathBuf>,
    rules: engine::config::RuleSelection,
    root: PathBuf,
}

fn check(args: CheckArgs) -> i32 {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let paths = if args.paths.is_empty() {
        vec![cwd.clone()]
    } else {
        args.paths.clone()
    };
    // the program read from stdin goes to a file of its own directory
    let mut stdin_file: Option<PathBuf> = None;
    let mut resolved: Vec<PathBuf> = Vec::new();
    for path in &paths {
        if path.as_os_str() == "-" {
            use std::io::Read;
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("error: stdin: {e}");
                return 2;
            }
            let dir = std::env::temp_dir().join(format!("rpy-lsp-stdin-{}", std::process::id()));
            let file = dir.join("stdin.py");
            if let Err(e) = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&file, text))
            {
                eprintln!("error: stdin: {e}");
                return 2;
            }
            let file = file.canonicalize().unwrap_or(file);
            stdin_file = Some(file.clone());
            resolved.push(file);
            continue;
        }
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
        resolved.push(path);
    }
    let code = check_paths(&args, &cwd, &resolved, stdin_file.as_deref());
    if let Some(f) = &stdin_file {
        if let Some(dir) = f.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    code
}

/// The configuration of `path`: its project's pyproject.toml (the nearest above it) with
/// the command line's options; `Err` says why when it is malformed or names unknown rules.
fn settings_for(args: &CheckArgs, path: &Path, stdin: bool) -> Result<EngineConfig, String> {
    let project = if stdin {
        None
    } else {
        engine::config::find_pyproject(path)
    };
    let root = match &project {
        Some(p) => p.parent().unwrap_or(Path::new("/")).to_path_buf(),
        None if path.is_dir() => path.to_path_buf(),
        None => path.parent().unwrap_or(Path::new("/")).to_path_buf(),
    };
    let mut config = EngineConfig::load(&root)?;
    config
        .search_paths
        .extend(args.search_paths.iter().cloned());
    if !args.select.is_empty() {
        config.rules.select = args.select.clone();
    }
    config.rules.ignore.extend(args.ignore.iter().cloned());
    config.translate = !args.no_translate;
    config.import_budget = args.budget.duration();
    if let Some(e) = config.rules.unknown_selectors_error() {
        return Err(e);
    }
    Ok(config)
}

fn show_settings(config: &EngineConfig, path: &Path) -> String {
    let list = |v: &[PathBuf]| -> String {
        let v: Vec<String> = v
            .iter()
            .map(|p| format!("{:?}", p.display().to_string()))
            .collect();
        format!("[{}]", v.join(", "))
    };
    let strings = |v: &[String]| -> String {
        let v: Vec<String> = v.iter().map(|s| format!("{s:?}")).collect();
        format!("[{}]", v.join(", "))
    };
    let mut out = String::new();
    out.push_str(&format!("path = {:?}\n", path.display().to_string()));
    out.push_str(&format!("root = {:?}\n", config.root.display().to_string()));
    out.push_str(&format!(
        "pyproject = {}\n",
        config
            .pyproject
            .as_ref()
            .map_or("none".to_string(), |p| format!(
                "{:?}",
                p.display().to_string()
            ))
    ));
    out.push_str(&format!("entry-points = {}\n", list(&config.entry_points)));
    out.push_str(&format!("search-paths = {}\n", list(&config.search_paths)));
    out.push_str(&format!("environment = {}\n", strings(&config.environment)));
    out.push_str(&format!("select = {}\n", strings(&config.rules.select)));
    out.push_str(&format!("ignore = {}\n", strings(&config.rules.ignore)));
    out.push_str("per-file-ignores = {");
    let pfi: Vec<String> = config
        .rules
        .per_file_ignores
        .iter()
        .map(|(g, c)| format!("{g:?} = {}", strings(c)))
        .collect();
    out.push_str(&pfi.join(", "));
    out.push_str("}\n");
    let enabled: Vec<&str> = RULES
        .iter()
        .filter(|r| {
            let sel = &config.rules;
            (sel.select.is_empty()
                || sel
                    .select
                    .iter()
                    .any(|s| engine::config::selector_matches(s, r.code)))
                && !sel
                    .ignore
                    .iter()
                    .any(|s| engine::config::selector_matches(s, r.code))
        })
        .map(|r| r.code)
        .collect();
    out.push_str(&format!("enabled = [{}]\n", enabled.join(", ")));
    out
}

fn check_paths(args: &CheckArgs, cwd: &Path, paths: &[PathBuf], stdin: Option<&Path>) -> i32 {
    let mut checked: Vec<Checked> = Vec::new();
    let mut display_root: Option<PathBuf> = None;
    let mut settings_text = String::new();
    for path in paths {
        let is_stdin = stdin == Some(path.as_path());
        let config = match settings_for(args, path, is_stdin) {
            Ok(c) => c,
            Err(why) => {
                eprintln!("error: {why}");
                return 2;
            }
        };
        if display_root.is_none() {
            display_root = Some(match &config.pyproject {
                Some(_) => config.root.clone(),
                None => cwd.to_path_buf(),
            });
        }
        if args.show_settings {
            settings_text.push_str(&show_settings(&config, path));
            continue;
        }
        let rules = config.rules.clone();
        let root = config.root.clone();
        if path.is_file() {
            let text = crate::sandbox::read_source(path).unwrap_or_default();
            let analysis = if config.pyproject.is_none() || engine::config::defines_target(&text) {
                // the file is a program: it, and what it imports, with the project's search
                // paths and environment
                let policy = if config.pyproject.is_some() {
                    config.policy()
                } else {
                    let mut roots = vec![config.root.clone()];
                    roots.extend(config.search_paths.iter().cloned());
                    crate::sandbox::Policy::sandboxed(roots.clone(), &[], Some(roots[0].clone()))
                };
                // the program's modules, parsed on another core while this one runs them
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let mut roots = vec![dir];
                roots.extend(config.search_paths.iter().cloned());
                crate::objspace::preparse::start(path, roots, policy.clone());
                engine::analyze_target_opts(
                    path,
                    &config.search_paths,
                    policy,
                    config.translate,
                    config.import_budget,
                )
            } else {
                // a module of the project: the project's programs, this file's diagnostics
                engine::analyze(&config, &HashMap::default())
            };
            let only_under = (config.pyproject.is_some() && !engine::config::defines_target(&text))
                .then(|| path.clone());
            checked.push(Checked {
                analysis,
                only_under,
                rules,
                root,
            });
        } else {
            if config.targets().is_empty() {
                eprintln!(
                    "note: no RPython target found under {} (no file defines `def target(*args)`, and no pyproject.toml names `[tool.rpy-lsp] entry-points`); nothing to check",
                    path.display()
                );
                continue;
            }
            let analysis = engine::analyze(&config, &HashMap::default());
            let only_under = (path != &config.root).then(|| path.clone());
            checked.push(Checked {
                analysis,
                only_under,
                rules,
                root,
            });
        }
    }
    if args.show_settings {
        write_out(&settings_text);
        return 0;
    }
    let style = output::PathStyle {
        root: display_root,
        stdin: stdin.map(Path::to_path_buf),
    };
    let reports: Vec<output::Report> = checked
        .iter()
        .map(|c| {
            let sources = &c.analysis.sources;
            let diagnostics = c
                .analysis
                .diagnostics
                .iter()
                .filter(|d| {
                    if d.span.file.0 as usize >= sources.len() {
                        return true;
                    }
                    let file = &sources.get(d.span.file).path;
                    if let Some(under) = &c.only_under {
                        if !file.starts_with(under) {
                            return false;
                        }
                    }
                    let relative = output::PathStyle {
                        root: Some(c.root.clone()),
                        stdin: None,
                    }
                    .show(file);
                    c.rules.enabled(d.code, &relative)
                })
                .cloned()
                .collect();
            output::Report {
                sources,
                diagnostics,
            }
        })
        .collect();
    let count = |s: Severity| -> usize {
        reports
            .iter()
            .map(|r| r.diagnostics.iter().filter(|d| d.severity == s).count())
            .sum()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if args.statistics {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for r in &reports {
            for d in &r.diagnostics {
                *counts.entry(d.code).or_default() += 1;
            }
        }
        let mut text = String::new();
        for (code, n) in counts {
            let name = rules::lookup(code).map_or("", |r| r.name);
            text.push_str(&format!("{n:>5}  {code}  {name}\n"));
        }
        write_out(&text);
    } else {
        let text = match args.format {
            CheckFormat::Human => {
                let color = match args.color {
                    ColorChoice::Always => true,
                    ColorChoice::Never => false,
                    ColorChoice::Auto => {
                        std::io::stdout().is_terminal()
                            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    }
                };
                reports
                    .iter()
                    .map(|r| output::human_with(&style, r.sources, &r.diagnostics, color))
                    .collect()
            }
            CheckFormat::Concise => output::concise(&style, &reports),
            CheckFormat::Json => output::json(&style, &reports),
            CheckFormat::Sarif => output::sarif(&style, &reports),
            CheckFormat::Github => output::github(&style, &reports),
        };
        write_out(&text);
    }
    if matches!(args.format, CheckFormat::Human | CheckFormat::Concise) || args.statistics {
        eprintln!(
            "{} error{}, {} warning{}",
            errors,
            if errors == 1 { "" } else { "s" },
            warnings,
            if warnings == 1 { "" } else { "s" }
        );
    }
    // The process exits next: freeing the programs' heaps, graphs and annotations one
    // allocation at a time would cost a tenth of a large check for nothing.
    drop(reports);
    std::mem::forget(checked);
    i32::from(errors > 0 && !args.exit_zero)
}

fn run_program(
    target: PathBuf,
    args: Vec<String>,
    search_paths: Vec<PathBuf>,
    timings: bool,
    import_budget: Option<std::time::Duration>,
) -> i32 {
    // the whole pipeline runs on a thread with a large stack (deep RPython recursion)
    let handle = std::thread::Builder::new()
        .stack_size(4 << 30)
        .spawn(move || run_on_this_thread(target, args, search_paths, timings, import_budget));
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
    import_budget: Option<std::time::Duration>,
) -> i32 {
    if !target.is_file() {
        eprintln!("error: {}: no such file", target.display());
        return 2;
    }
    let shown = target.display().to_string();
    let target = target.canonicalize().unwrap_or(target);
    let search_paths = match project_search_paths(&target, search_paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}", e);
            return 2;
        }
    };
    let t0 = std::time::Instant::now();
    // the program runs: its import-time code sees the real machine, as the reference's
    // translation does
    let mut analysis = engine::analyze_target_opts(
        &target,
        &search_paths,
        crate::sandbox::Policy::unrestricted(),
        false,
        import_budget,
    );
    let t1 = std::time::Instant::now();
    let translated = engine::translate(&mut analysis);
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
            "[timings] analysis (import, flow, annotation) {:.1} ms; rtype {:.1} ms; run {:.1} ms, {} low-level operations ({:.1} million/s), {} collections",
            (t1 - t0).as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            secs * 1e3,
            interp.steps,
            interp.steps as f64 / secs.max(1e-9) / 1e6,
            interp.collections
        );
    }
    if let Some((msg, span)) = &result.fatal {
        let sources = &analysis.programs[0].space.sources;
        let at = ((span.file.0 as usize) < sources.len()
            && *span != crate::syntax::Span::default())
        .then(|| {
            let file = sources.get(span.file);
            let lc = file.line_col(span.start);
            format!("{}:{}", file.path.display(), lc.line + 1)
        });
        let signal_stop = msg
            .strip_prefix(crate::llinterp::TRAP)
            .or_else(|| msg.strip_prefix(crate::llinterp::SEGV));
        if let Some(what) = signal_stop {
            // the binary says nothing: explain only to a person at a terminal
            // SAFETY: isatty only reads the file descriptor's state
            if unsafe { libc::isatty(2) } == 1 {
                eprintln!("rpy-lsp run: {} at {}", what, at.as_deref().unwrap_or("?"));
            }
            return result.exit_code;
        }
        match (msg.strip_prefix(crate::llinterp::UNDEFINED), at) {
            (Some(what), Some(at)) => {
                eprintln!("rpy-lsp run: undefined behaviour at {}: {}", at, what)
            }
            (_, Some(at)) => eprintln!("rpy-lsp run: {}\n  at {}", msg, at),
            (_, None) => eprintln!("rpy-lsp run: {}", msg),
        }
    }
    result.exit_code
}

/// The search paths of the project a target belongs to (the `pyproject.toml` found by
/// walking up from it, as `check` finds it), after the command line's.
fn project_search_paths(
    target: &std::path::Path,
    mut search_paths: Vec<PathBuf>,
) -> Result<Vec<PathBuf>, String> {
    if let Some(pyproject) = crate::engine::config::find_pyproject(target) {
        let root = pyproject.parent().unwrap_or(std::path::Path::new("."));
        let config = EngineConfig::load(root)?;
        for p in config.search_paths {
            if !search_paths.contains(&p) {
                search_paths.push(p);
            }
        }
    }
    Ok(search_paths)
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
    let search_paths = match project_search_paths(&target, search_paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}", e);
            return 2;
        }
    };
    // the low-level graphs are those `run` translates: import-time code sees the machine
    let mut analysis = if rtyped {
        engine::analyze_target_with(
            &target,
            &search_paths,
            crate::sandbox::Policy::unrestricted(),
        )
    } else {
        engine::analyze_target(&target, &search_paths)
    };
    if analysis.programs.is_empty() {
        return 2;
    }
    let mut out = String::new();
    if format == GraphFormat::Dot {
        out.push_str("digraph flowgraphs {\n  node [fontsize=10];\n");
    }
    // With --rtyped, the RTyper's low-level graphs (those of reached functions); with
    // --annotated, the annotator's graphs (one per specialization) and their bindings;
    // otherwise the flow space's own graphs.
    let lowlevel = if rtyped {
        match engine::translate(&mut analysis) {
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
    let program = &analysis.programs[0];
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
