//! Programs with their CPython 2.7 output (`fixtures/cpython/*.py` and `.out`), compiled by
//! our compiler and run on the import-time object space: what the module bodies print must
//! match CPython exactly.
mod objspace_common;
use objspace_common::*;
use std::path::Path;

#[test]
fn import_time_output_matches_cpython() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/cpython");
    let mut programs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    programs.sort();
    assert_eq!(programs.len(), 8, "fixtures/cpython programs");
    for path in programs {
        let src = std::fs::read_to_string(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
        let (sp, _) = run(&src);
        assert!(
            sp.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            describe(&sp)
        );
        assert_eq!(
            sp.stdout,
            expected,
            "{}\n--- got ---\n{}--- expected (CPython 2.7) ---\n{expected}",
            path.display(),
            sp.stdout
        );
    }
}
