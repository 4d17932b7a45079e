//! The examples of the annotator's rules (`rpy-lsp explain RPY2xx`) do what they say: the
//! rejected example produces the rule's code, the accepted one no error (through the
//! RTyper's round of `check` too, where the reference's RTyper enforces the rule).

use rpy_lsp::annotator::annotate_standalone;
use rpy_lsp::diagnostics::{Diagnostic, RULES};
use rpy_lsp::engine::program::Program;
use rpy_lsp::objspace::LoaderConfig;

fn diagnostics(name: &str, src: &str) -> Vec<Diagnostic> {
    let dir = std::env::temp_dir().join(format!("rpy_ann_rules_{}_{}", std::process::id(), name));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("example.py");
    std::fs::write(&path, src).unwrap();
    let mut program = Program::load(&path, LoaderConfig::default());
    let mut all = program.all_diagnostics();
    if let Some(e) = program.entry {
        let mut ann = annotate_standalone(&mut program.space, e);
        all.extend(ann.diagnostics.iter().cloned());
        // the rules the reference's RTyper enforces (RPY223) are met only by `check`'s
        // RTyper round, after a clean annotation
        if !ann.diagnostics.iter().any(|d| d.is_error()) {
            if let Err(ds) = rpy_lsp::rtyper::check(&mut ann, &mut program.space) {
                all.extend(ds);
            }
        }
    }
    all
}

#[test]
fn rule_examples() {
    let mut failures = Vec::new();
    for rule in RULES.iter().filter(|r| r.code.starts_with("RPY2")) {
        let bad = diagnostics(&format!("{}_bad", rule.code), rule.bad);
        if !bad.iter().any(|d| d.code == rule.code) {
            failures.push(format!(
                "{}: the rejected example gives {:?}",
                rule.code,
                bad.iter().map(|d| (d.code, &d.message)).collect::<Vec<_>>()
            ));
        }
        let good = diagnostics(&format!("{}_good", rule.code), rule.good);
        if good.iter().any(|d| d.is_error() || d.code == rule.code) {
            failures.push(format!(
                "{}: the accepted example gives {:?}",
                rule.code,
                good.iter()
                    .map(|d| (d.code, &d.message))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
