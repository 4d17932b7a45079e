//! End-to-end tests of the front end and the flow space: golden flow graphs of
//! `fixtures/graphs/*.py` (regenerate with `UPDATE_GOLDEN=1 cargo test`), `verify()` on every
//! graph built from the fixture corpus, and agreement with the reference toolchain's verdicts
//! on the flow stage.

use rpy_lsp::engine;
use rpy_lsp::flowspace::{render::render_text, verify};
use std::path::{Path, PathBuf};

mod corpus;
use corpus::{fixtures, verdicts};

fn graphs_text(path: &Path) -> (String, Vec<String>) {
    let analysis = engine::analyze_target(path, &[]);
    let program = &analysis.programs[0];
    let mut text = String::new();
    for g in &program.graphs {
        verify(g).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
        text.push_str(&render_text(
            g,
            &program.space.heap,
            &program.space.sources,
            &|_| None,
        ));
        text.push('\n');
    }
    let errors = analysis
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    (text, errors)
}

#[test]
fn golden_flow_graphs() {
    let dir = fixtures().join("graphs");
    let mut failures = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6);
    for path in paths {
        let (text, errors) = graphs_text(&path);
        assert!(
            errors.is_empty(),
            "{}: unexpected errors {:?}",
            path.display(),
            errors
        );
        let golden = path.with_extension("graph.txt");
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&golden, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != text {
            failures.push(format!(
                "{} differs from {}:\n{}",
                path.display(),
                golden.display(),
                text
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Programs where the flow stage disagrees with the reference today, with the reason. The
/// test fails when one of them starts agreeing, so the list only shrinks.
fn known_gaps() -> Vec<String> {
    std::fs::read_to_string(fixtures().join("flow-known-gaps.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn flow_stage_agrees_with_reference_verdicts() {
    let gaps = known_gaps();
    let mut disagreements = Vec::new();
    let mut agreed = 0;
    let all = verdicts();
    for v in &all {
        let analysis = engine::analyze_target(&v.path, &[]);
        let invalid: Vec<String> = analysis
            .programs
            .iter()
            .flat_map(|p| p.graphs.iter())
            .filter_map(|g| verify(g).err())
            .collect();
        // Front-end and flow-level errors: RPY0xx and RPY1xx.
        let flow_errors: Vec<(u32, String)> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && (d.code.starts_with("RPY0") || d.code.starts_with("RPY1")))
            .map(|d| {
                let f = analysis.sources.get(d.span.file);
                (
                    f.line_col(d.span.start).line + 1,
                    format!("{} {}", d.code, d.message),
                )
            })
            .collect();
        // A program the reference rejects at a later stage may be rejected here already
        // (e.g. `**kwargs` in a definition), as long as it is at the marked line.
        let at_marked_line = flow_errors
            .iter()
            .any(|(line, _)| v.line.is_none_or(|l| l == *line));
        let ok = invalid.is_empty()
            && if v.verdict.starts_with("ERROR flow") {
                at_marked_line
            } else if v.verdict.starts_with("ERROR") || v.verdict.starts_with("CRASH") {
                // CRASH: Python 2 could not even load it (a PEP 263 syntax error, say).
                flow_errors.is_empty() || at_marked_line
            } else {
                flow_errors.is_empty()
            };
        let name = v.rel.clone();
        match (ok, gaps.contains(&name)) {
            (true, false) => agreed += 1,
            (true, true) => disagreements.push(format!(
                "{}: agrees now; remove it from fixtures/flow-known-gaps.txt",
                name
            )),
            (false, true) => {}
            (false, false) => disagreements.push(format!(
                "{}: reference `{}` (line {:?}), rpy-lsp flow errors {:?}, invalid graphs {:?}",
                name, v.verdict, v.line, flow_errors, invalid
            )),
        }
    }
    println!(
        "flow stage agrees with the reference on {} of {} programs ({} known gaps)",
        agreed,
        all.len(),
        gaps.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// `fixtures/flow/*.py`: each error is reported exactly at the lines marked
/// `# expect: CODE`, and nowhere else (no cascades).
#[test]
fn flow_restrictions_at_their_lines() {
    let dir = fixtures().join("flow");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut expected: Vec<(u32, String)> = text
            .lines()
            .enumerate()
            .filter_map(|(i, l)| {
                let code = l.split("# expect: ").nth(1)?;
                Some((i as u32 + 1, code.trim().to_string()))
            })
            .collect();
        let analysis = engine::analyze_target(&path, &[]);
        for p in &analysis.programs {
            for g in &p.graphs {
                verify(g).unwrap_or_else(|e| panic!("{}: {}", path.display(), e));
            }
        }
        let mut got: Vec<(u32, String)> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| {
                let f = analysis.sources.get(d.span.file);
                (f.line_col(d.span.start).line + 1, d.code.to_string())
            })
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{}", path.display());
    }
}
