//! Agreement of the annotator with the reference verdicts on the fixture corpus
//! (`fixtures/programs`): accepted programs must give no error; rejected programs an error
//! at the line marked `# REJECT`. Prints the figure and the disagreements; run with
//! `cargo test --release --test annotator_corpus -- --nocapture`.

use rpy_lsp::annotator::{annotate_standalone, SomeValue};
use rpy_lsp::diagnostics::Diagnostic;
use rpy_lsp::engine::program::Program;
use rpy_lsp::objspace::LoaderConfig;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

struct Outcome {
    errors: Vec<(u32, String)>,
    /// Variables annotated as erroneous although no error was reported (a bug).
    silent_poison: usize,
}

fn programs(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            let m = p.join("main.py");
            if m.is_file() {
                out.push(m);
            }
        } else if p.extension().is_some_and(|x| x == "py") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn run(path: &Path) -> Outcome {
    let mut program = Program::load(path, LoaderConfig::default());
    let mut diags: Vec<Diagnostic> = program.all_diagnostics();
    let mut poisoned = 0;
    if let Some(entry) = program.entry {
        let ann = annotate_standalone(&mut program.space, entry);
        poisoned = ann
            .bindings
            .iter()
            .flatten()
            .filter(|b| matches!(b, Some(SomeValue::Error)))
            .count();
        diags.extend(ann.diagnostics);
    }
    let sources = &program.space.sources;
    let mut errors = Vec::new();
    for d in diags.iter().filter(|d| d.is_error()) {
        let line = if (d.span.file.0 as usize) < sources.len() {
            sources.get(d.span.file).line_col(d.span.start).line + 1
        } else {
            0
        };
        errors.push((line, format!("{} {}", d.code, d.message)));
    }
    let silent_poison = if errors.is_empty() { poisoned } else { 0 };
    Outcome {
        errors,
        silent_poison,
    }
}

fn marker_line(path: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .position(|l| l.contains("# REJECT"))
        .map(|i| i as u32 + 1)
}

/// Expected verdicts: fixtures/verdicts.tsv when present (path, verdict, marked line),
/// else the file name (`err_` / `ok_`) and the `# REJECT` marker.
fn expected(root: &Path, path: &Path) -> (bool, Option<u32>) {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .to_string();
    let tsv = root.parent().expect("fixtures").join("verdicts.tsv");
    if let Ok(text) = std::fs::read_to_string(&tsv) {
        let table: HashMap<String, (bool, Option<u32>)> = text
            .lines()
            .filter_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                let ok = cols.get(1)?.starts_with("OK");
                let line = cols.get(2).and_then(|c| c.parse().ok());
                Some((cols[0].to_string(), (!ok, line)))
            })
            .collect();
        if let Some(&(reject, line)) = table.get(&rel) {
            // The marker in the file wins: the table may predate edits of the program.
            return (reject, marker_line(path).or(line));
        }
    }
    let line = marker_line(path);
    let name = rel
        .rsplit('/')
        .find(|s| s.starts_with("err_") || s.starts_with("ok_"))
        .unwrap_or(&rel)
        .to_string();
    (name.starts_with("err_"), line)
}

#[test]
fn corpus_agreement() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let progs = programs(&root);
    if progs.is_empty() {
        return;
    }
    let (mut agree, mut total) = (0, 0);
    let mut report = Vec::new();
    for p in &progs {
        let (reject, line) = expected(&root, p);
        let out = run(p);
        total += 1;
        if out.silent_poison > 0 {
            println!(
                "SILENT-POISON {} ({} variables)",
                p.display(),
                out.silent_poison
            );
        }
        let ok = if reject {
            match line {
                Some(l) => out.errors.iter().any(|(el, _)| *el == l),
                None => !out.errors.is_empty(),
            }
        } else {
            out.errors.is_empty()
        };
        if ok {
            agree += 1;
        } else {
            let rel = p.strip_prefix(&root).unwrap_or(p).display().to_string();
            let got: Vec<String> = out
                .errors
                .iter()
                .take(3)
                .map(|(l, m)| format!("{}: {}", l, m))
                .collect();
            report.push(format!(
                "{} expected {}{} got [{}]",
                rel,
                if reject { "REJECT" } else { "OK" },
                line.map(|l| format!(" at {}", l)).unwrap_or_default(),
                got.join(" | ")
            ));
        }
    }
    for r in &report {
        println!("MISMATCH {}", r);
    }
    println!(
        "annotator corpus agreement: {}/{} ({:.1}%)",
        agree,
        total,
        100.0 * agree as f64 / total as f64
    );
}
