//! `rpy-lsp build` against the reference-built binaries: every program of `fixtures/run/`
//! is compiled to a native executable (`--opt 1`) and run, normally and with
//! `RPY_GC_STRESS=1` (a collection at every allocation, which flushes out missing GC
//! roots and write barriers); stdout, stderr and exit status must be byte-identical to the
//! reference binary's, except for the programs listed in
//! `fixtures/run/build-known-gaps.txt`, which must still differ.

mod runcorpus;

use runcorpus::{assess, cases, check_case, known_gaps, program_args, run_all, Case};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds one program into `dir`; the executable's path, or the build's error output.
fn build(bin: &Path, case: &Case, dir: &Path) -> Result<PathBuf, String> {
    let exe = dir.join(&case.name);
    let out = Command::new(bin)
        .arg("build")
        .arg(&case.prog)
        .arg("-o")
        .arg(&exe)
        .arg("--opt")
        .arg("1")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "build failed: {}",
            err.lines()
                .filter(|l| !l.starts_with("[build]"))
                .take(6)
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    Ok(exe)
}

#[test]
fn build_corpus_matches_reference_binaries() {
    if Command::new("cc").arg("--version").output().is_err() {
        println!("no C compiler (`cc`): build corpus skipped");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let gaps = known_gaps(&root.join("build-known-gaps.txt"));
    let dir = std::env::temp_dir().join(format!("rpy-build-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases(&root);
    assert!(!cases.is_empty());
    let results = run_all(&cases, |c| {
        let exe = build(&bin, c, &dir)?;
        let run = |env: &[(&str, &str)]| {
            let mut cmd = Command::new(&exe);
            cmd.args(program_args(&c.prog));
            check_case(cmd, c, env)
        };
        run(&[])?;
        run(&[("RPY_GC_STRESS", "1"), ("RPY_GC_NURSERY", "65536")])
            .map_err(|e| format!("under RPY_GC_STRESS=1: {}", e))
    });
    let _ = std::fs::remove_dir_all(&dir);
    assess("build corpus", &results, &gaps);
}
