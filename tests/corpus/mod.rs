//! The reference verdicts of the fixture corpus (`fixtures/verdicts.tsv`, made by
//! `fixtures/make-verdicts.sh`), shared by the tests that compare against them.

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// One line of `fixtures/verdicts.tsv`.
pub struct Verdict {
    /// Path relative to `fixtures/programs`.
    pub rel: String,
    pub path: PathBuf,
    /// `OK` or `ERROR <stage> <message>`.
    pub verdict: String,
    /// The line of the `# REJECT` marker, for rejected programs.
    #[allow(dead_code)]
    pub line: Option<u32>,
}

pub fn verdicts() -> Vec<Verdict> {
    let text =
        std::fs::read_to_string(fixtures().join("verdicts.tsv")).expect("fixtures/verdicts.tsv");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Verdict {
                rel: cols[0].to_string(),
                path: fixtures().join("programs").join(cols[0]),
                verdict: cols.get(1).copied().unwrap_or("").to_string(),
                line: cols.get(2).and_then(|c| c.parse().ok()),
            }
        })
        .collect()
}
