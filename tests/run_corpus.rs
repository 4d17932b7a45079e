//! `rpy-lsp run` against the reference-built binaries: every program of `fixtures/run/`
//! with expected outputs (made by `fixtures/run/make-expected.sh`) must give byte-identical
//! stdout, stderr and exit status, except the programs listed in
//! `fixtures/run/known-gaps.txt` (each with the reason), which must still differ — a gap
//! that closes has to leave the list.

mod runcorpus;

use runcorpus::{assess, cases, check_case, known_gaps, program_args, run_all};
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn run_corpus_matches_reference_binaries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let gaps = known_gaps(&root.join("known-gaps.txt"));
    let cases = cases(&root);
    assert!(!cases.is_empty(), "no run corpus under {}", root.display());
    let results = run_all(&cases, |c| {
        let mut cmd = Command::new(&bin);
        cmd.arg("run")
            .arg(&c.prog)
            .arg("--")
            .args(program_args(&c.prog));
        check_case(cmd, c, &[])
    });
    assess("run corpus", &results, &gaps);
}
