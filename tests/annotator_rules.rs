//! The examples of the annotator's rules (`rpy-lsp explain RPY2xx`) do what they say: the
//! rejected example produces the rule's code, the accepted one no error.

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
        all.extend(annotate_standalone(&mut program.space, e).diagnostics);
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
