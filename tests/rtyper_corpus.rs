//! The RTyper on every program of the fixture corpus that the reference toolchain
//! translates (`fixtures/verdicts.tsv`, verdict `OK`), analysed as `run` and `build`
//! analyse it: each must be translated (low-level graphs verified in this debug build),
//! except the programs listed in
//! `fixtures/rtyper-known-gaps.txt` with what is missing. A listed program that translates
//! fails the test too, so the list stays true. The programs of
//! `fixtures/reference-build-refused.txt` (the reference RTypes them, then its backend
//! stops) must be refused, naming the reference's error.

use std::collections::BTreeMap;

mod corpus;
use corpus::{fixtures, verdicts};

fn known_gaps() -> BTreeMap<String, String> {
    listed("rtyper-known-gaps.txt")
}

/// `fixtures/reference-build-refused.txt`: programs the reference annotates and RTypes
/// (verdict `OK`) whose build then stops in its backend; `run` and `build` must refuse
/// them with a diagnostic naming the reference's error (the first word of the reason).
fn build_refused() -> BTreeMap<String, String> {
    listed("reference-build-refused.txt")
}

/// A list of programs of the corpus, one per line: the name, then why.
fn listed(file: &str) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(fixtures().join(file))
        .unwrap_or_else(|e| panic!("fixtures/{file}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((p, why)) => (p.to_string(), why.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

#[test]
fn rtyper_translates_what_the_reference_translates() {
    let gaps = known_gaps();
    let refused = build_refused();
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    let mut translated = 0;
    let mut total = 0;
    let accepted: Vec<_> = verdicts()
        .into_iter()
        .filter(|v| v.verdict == "OK")
        .collect();
    // a listed name that is no accepted program of the corpus (renamed, or never there)
    // would stay in the list forever
    let unknown: Vec<&String> = gaps
        .keys()
        .chain(refused.keys())
        .filter(|p| !accepted.iter().any(|v| &v.rel == *p))
        .collect();
    assert!(
        unknown.is_empty(),
        "fixtures/rtyper-known-gaps.txt or reference-build-refused.txt names programs the reference does not accept in verdicts.tsv: {:?}",
        unknown
    );
    for v in accepted {
        total += 1;
        // as `run` and `build` analyse it, rffi_platform's constants being the C compiler's
        // answers and `os.urandom` the machine's bytes; the rest of the machine stays
        // sandboxed, as under `check`, so that the programs' import-time files are read
        // from their own directory
        let dir = v.path.parent().unwrap().to_path_buf();
        let mut policy = rpy_lsp::sandbox::Policy::sandboxed(vec![dir.clone()], &[], Some(dir));
        policy.c_compiler = true;
        policy.random_bytes = true;
        let mut analysis = rpy_lsp::engine::analyze_target_with(&v.path, &[], policy);
        let result = rpy_lsp::engine::translate(&mut analysis);
        if let Some(why) = refused.get(&v.rel) {
            // the reference's error class, e.g. "CannotInline:"
            let class = why
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(':');
            match result {
                Err(diags) if diags.iter().any(|d| d.message.contains(class)) => translated += 1,
                Err(diags) => failures.push(format!(
                    "{}: refused, but not naming the reference's {}: {:?}",
                    v.rel,
                    class,
                    diags.first().map(|d| d.message.as_str())
                )),
                Ok(_) => failures.push(format!(
                    "{}: translated, but the reference's build stops ({})",
                    v.rel, why
                )),
            }
            continue;
        }
        match (result, gaps.contains_key(&v.rel)) {
            (Ok(_), false) => translated += 1,
            (Ok(_), true) => stale.push(v.rel.clone()),
            (Err(_), true) => {}
            (Err(diags), false) => failures.push(format!(
                "{}: {}",
                v.rel,
                diags
                    .first()
                    .map(|d| d.message.as_str())
                    .unwrap_or("no diagnostic")
            )),
        }
    }
    eprintln!(
        "rtyper corpus: {} of {} programs the reference translates are translated ({} known gaps)",
        translated,
        total,
        gaps.len()
    );
    assert!(
        failures.is_empty(),
        "not translated:\n  {}",
        failures.join("\n  ")
    );
    assert!(
        stale.is_empty(),
        "translated now, remove from fixtures/rtyper-known-gaps.txt: {}",
        stale.join(", ")
    );
}
