//! Every fixture program imports without import-time errors (and its `target` runs).
use rpy_lsp::objspace::object::{Object, Value};
use rpy_lsp::objspace::{LoaderConfig, ObjSpace};
use std::path::{Path, PathBuf};

fn targets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.push(p.join("main.py"));
        } else if p.extension().is_some_and(|x| x == "py") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn fixtures_import_cleanly() {
    let mut failures = Vec::new();
    // Programs Python 2 cannot even load (reference verdict CRASH, e.g. PEP 263) are
    // rejected at import on purpose.
    let verdicts = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verdicts.tsv"),
    )
    .expect("fixtures/verdicts.tsv");
    let crashes: Vec<&str> = verdicts
        .lines()
        .filter(|l| l.split('\t').nth(1).is_some_and(|v| v.starts_with("CRASH")))
        .filter_map(|l| l.split('\t').next())
        .collect();
    for t in targets() {
        if crashes.iter().any(|c| t.ends_with(c)) {
            continue;
        }
        // As `check` does: import-time code may read the program's own directory.
        let dir = t.parent().expect("a program's directory").to_path_buf();
        let config = LoaderConfig {
            policy: rpy_lsp::sandbox::Policy::sandboxed(vec![dir.clone()], &[], Some(dir)),
            ..LoaderConfig::default()
        };
        let mut sp = ObjSpace::new(config);
        let r = sp.import_main(&t);
        let name = t
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .display()
            .to_string();
        let import_errors: Vec<_> = sp
            .diagnostics
            .iter()
            // (running past rpy-lsp's import-time budget is a warning of RPY004: rpy-lsp's
            // limit, not an error of the program)
            .filter(|d| d.is_error() && matches!(d.code, "RPY001" | "RPY002" | "RPY003" | "RPY004"))
            .map(|d| {
                let f = sp.sources.get(d.span.file);
                let lc = f.line_col(d.span.start);
                format!(
                    "{} {}:{}: {}",
                    d.code,
                    f.path.display(),
                    lc.line + 1,
                    d.message
                )
            })
            .collect();
        if !import_errors.is_empty() {
            failures.push(format!("{name}: {import_errors:?}"));
            continue;
        }
        let m = r.unwrap();
        if !name.contains("/ok_") {
            continue;
        }
        if let Some(target) = sp.module_attr(m, "target") {
            let driver = sp.make_driver();
            let args = sp.new_list(vec![]);
            // as `check` does: `target` runs with budgets of its own
            sp.restart_limits();
            match sp.call(target, vec![driver, args]) {
                Ok(Value::Obj(t)) if matches!(sp.heap.get(t), Object::Tuple(_)) => {}
                Ok(other) => failures.push(format!("{name}: target returned {other:?}")),
                // After import-time code branched on something rpy-lsp does not model, a
                // failing `target` is not the program's (check warns; nothing is checked).
                Err(_) if sp.branched_on_unknown() => {}
                Err(e) => failures.push(format!("{name}: target raised {e:?}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
