//! Position queries (hover, go-to-definition, inlay hints) over every program of the fixture
//! corpus (`fixtures/programs`): they answer at every identifier without failing, and agree
//! with each other — each inlay hint sits after a name whose hover gives a type and whose
//! definition is that very name (a parameter, or the local's first assignment).

use rpy_lsp::engine::analyze_target;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixtures/programs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    out.sort();
    out
}

#[test]
fn hovers_definitions_and_inlay_hints_agree_on_the_corpus() {
    let mut hints_seen = 0;
    let mut typed_hovers = 0;
    let mut ok_programs_with_hints = 0;
    for path in programs() {
        let analysis = analyze_target(&path, &[]);
        let Some(fid) = analysis.sources.find(&path) else {
            continue;
        };
        let text = analysis.sources.get(fid).text.clone();
        let bytes = text.as_bytes();
        // Every identifier start: hover and definition must not fail (a panic fails the
        // test); a hover's range must lie around the cursor.
        for (i, &b) in bytes.iter().enumerate() {
            let starts = (b.is_ascii_alphabetic() || b == b'_')
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
            if !starts {
                continue;
            }
            if let Some(h) = analysis.hover(&path, i as u32) {
                assert!(
                    h.span.start as usize <= i && i <= h.span.end as usize,
                    "{}: hover at {i} has range {:?}",
                    path.display(),
                    h.span
                );
                if h.annotator_form.is_some() {
                    typed_hovers += 1;
                }
            }
            let _ = analysis.definition(&path, i as u32);
        }
        let hints = analysis.inlay_hints(&path);
        let is_ok = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("ok_"));
        if is_ok && !hints.is_empty() {
            ok_programs_with_hints += 1;
        }
        for h in &hints {
            hints_seen += 1;
            let at = h.offset - 1;
            let where_ = format!("{}:{} ({:?})", path.display(), h.offset, h.label);
            assert!(h.label.starts_with(": ") && h.label.len() > 2, "{where_}");
            let hover = analysis
                .hover(&path, at)
                .unwrap_or_else(|| panic!("no hover at the hint {where_}"));
            assert_eq!(hover.span.end, h.offset, "{where_}");
            assert!(
                (hover.plain.starts_with("(variable) ") || hover.plain.starts_with("(parameter) "))
                    && hover.annotator_form.is_some(),
                "{where_}: {}",
                hover.plain
            );
            let def = analysis
                .definition(&path, at)
                .unwrap_or_else(|| panic!("no definition at the hint {where_}"));
            assert_eq!(
                (def.path.as_path(), def.span.end),
                (path.as_path(), h.offset),
                "{where_}"
            );
        }
    }
    // The corpus is annotated: most accepted programs get hints, many hovers have types.
    assert!(ok_programs_with_hints >= 90, "{ok_programs_with_hints}");
    assert!(hints_seen >= 800, "{hints_seen}");
    assert!(typed_hovers >= 3500, "{typed_hovers}");
    println!(
        "{hints_seen} inlay hints, {typed_hovers} typed hovers, {ok_programs_with_hints} accepted programs with hints"
    );
}
