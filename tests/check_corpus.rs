//! Agreement of `rpy-lsp check` with the reference toolchain on the fixture corpus
//! (`fixtures/programs`, verdicts in `fixtures/verdicts.tsv` made by
//! `fixtures/make-verdicts.sh`). The real binary runs on every program with `--format json`:
//! a program the reference accepts must get no error; a program it rejects must get an
//! error whose primary span or one of whose labels is at the line marked `# REJECT` (in any
//! module of a multi-module program), and
//! that error must be the first listed (the reference reports only its first error).
//! Also checks that no variable is left poisoned without an error being reported.

use rpy_lsp::annotator::{annotate_standalone, SomeValue};
use rpy_lsp::engine::program::Program;
use rpy_lsp::objspace::LoaderConfig;
use std::path::{Path, PathBuf};
use std::process::Command;

mod corpus;
use corpus::verdicts;

/// The `# REJECT` markers of a program as (file, 1-based line): those of the target file,
/// and for a multi-module program (a `main.py` target in its own directory) those of every
/// module beside it, since the reference may stop in a module other than the target.
fn marked_lines(path: &Path) -> Vec<(PathBuf, u64)> {
    let mut files = vec![path.to_path_buf()];
    if path.file_name().is_some_and(|n| n == "main.py") {
        if let Some(dir) = path.parent() {
            collect_modules(dir, &mut files);
        }
    }
    let mut marks = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let canon = f.canonicalize().unwrap_or(f.clone());
        for (i, l) in text.lines().enumerate() {
            if l.contains("# REJECT") && !marks.contains(&(canon.clone(), i as u64 + 1)) {
                marks.push((canon.clone(), i as u64 + 1));
            }
        }
    }
    marks
}

/// Every `.py` file under `dir`, recursively.
fn collect_modules(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_modules(&p, out);
        } else if p.extension().is_some_and(|e| e == "py") && !out.contains(&p) {
            out.push(p);
        }
    }
}

/// The number of errors `check` reports on `path`, and the places (file, line) the first
/// one listed is at or labels.
fn check_first_error_lines(path: &Path) -> (usize, Vec<(PathBuf, u64)>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
        .args(["check", "--format", "json"])
        .arg(path)
        .output()
        .expect("run rpy-lsp");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{}: bad JSON ({e}): {stdout}", path.display()));
    let place = |f: &serde_json::Value, l: &serde_json::Value| {
        let f = Path::new(f.as_str()?).canonicalize().ok()?;
        Some((f, l.as_u64().unwrap_or(0)))
    };
    let mut errors = 0;
    let mut first_places = Vec::new();
    let mut summary = Vec::new();
    for d in json["diagnostics"].as_array().expect("diagnostics") {
        if d["severity"] != "error" {
            continue;
        }
        errors += 1;
        summary.push(format!("{}:{} {}", d["line"], d["code"], d["message"]));
        if errors > 1 {
            continue;
        }
        first_places.extend(place(&d["file"], &d["line"]));
        for l in d["labels"].as_array().into_iter().flatten() {
            first_places.extend(place(&l["file"], &l["line"]));
        }
    }
    let code = out.status.code();
    assert_eq!(
        code,
        Some(if errors > 0 { 1 } else { 0 }),
        "{}: exit code disagrees with the diagnostics",
        path.display()
    );
    (errors, first_places, summary.join(" | "))
}

#[test]
fn check_agrees_with_reference_verdicts_at_marked_lines() {
    let all = verdicts();
    assert!(all.len() >= 80, "the corpus has {} programs", all.len());
    let mut disagreements = Vec::new();
    for e in &all {
        let (errors, first_places, summary) = check_first_error_lines(&e.path);
        let marked = marked_lines(&e.path);
        let ok = if e.verdict.starts_with("OK") {
            errors == 0
        } else {
            errors > 0 && (marked.is_empty() || marked.iter().any(|m| first_places.contains(m)))
        };
        if !ok {
            disagreements.push(format!(
                "{}: reference `{}`, marked {:?}, check: [{}]",
                e.rel,
                e.verdict,
                marked
                    .iter()
                    .map(|(f, l)| format!(
                        "{}:{l}",
                        f.file_name().unwrap_or_default().to_string_lossy()
                    ))
                    .collect::<Vec<_>>(),
                summary
            ));
        }
    }
    println!(
        "check agrees with the reference on {} of {} programs",
        all.len() - disagreements.len(),
        all.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// The annotator poisons a variable (`SomeValue::Error`) only after reporting an error:
/// a program without errors must have no poisoned variable.
#[test]
fn no_silent_poison_in_accepted_programs() {
    let mut bad = Vec::new();
    for e in verdicts().iter().filter(|e| e.verdict.starts_with("OK")) {
        // As `check` does: import-time code may read the program's own directory.
        let dir = e
            .path
            .parent()
            .expect("a program's directory")
            .to_path_buf();
        let config = LoaderConfig {
            policy: rpy_lsp::sandbox::Policy::sandboxed(vec![dir.clone()], &[], Some(dir)),
            ..LoaderConfig::default()
        };
        let mut program = Program::load(&e.path, config);
        let Some(entry) = program.entry else {
            // Only a program whose `target()` failed after depending on something rpy-lsp
            // does not model, or whose import stopped at a construct rpy-lsp does not
            // model, may have no entry point: it is then not checked (a warning).
            if !program
                .diagnostics
                .iter()
                .chain(program.space.diagnostics.iter())
                .any(|d| d.code == "RPY007" && d.message.contains("the program is not checked"))
            {
                bad.push(format!("{}: no entry point", e.rel));
            }
            continue;
        };
        let ann = annotate_standalone(&mut program.space, entry);
        let poisoned = ann
            .bindings
            .iter()
            .flatten()
            .filter(|b| matches!(b, Some(SomeValue::Error)))
            .count();
        if poisoned > 0 && !ann.diagnostics.iter().any(|d| d.is_error()) {
            bad.push(format!("{}: {} poisoned variables", e.rel, poisoned));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
