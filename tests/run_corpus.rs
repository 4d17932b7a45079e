//! `rpy-lsp run` against the reference-built binaries: every program of `fixtures/run/`
//! with expected outputs (made by `fixtures/run/make-expected.sh`) must give byte-identical
//! stdout, stderr and exit status, except the programs listed in
//! `fixtures/run/known-gaps.txt` (each with the reason), which must still differ — a gap
//! that closes has to leave the list. Lines `  File "...", line N, in f` of an RPython
//! traceback are dropped from both sides (the reference's name generated C files).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Case {
    name: String,
    prog: PathBuf,
    base: PathBuf,
}

fn cases(root: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let (prog, base) = if p.is_dir() {
            (p.join("main.py"), p.join("main"))
        } else if p.extension().is_some_and(|e| e == "py") {
            (p.clone(), p.with_extension(""))
        } else {
            continue;
        };
        if !prog.is_file() || !base.with_extension("exit").is_file() {
            continue;
        }
        let name = p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".py")
            .to_string();
        out.push(Case { name, prog, base });
    }
    out
}

fn filter_traceback(s: &[u8]) -> String {
    String::from_utf8_lossy(s)
        .split_inclusive('\n')
        .filter(|l| {
            !((l.starts_with("  File \"") && l.contains("\", line ")) || l.trim_end() == "  ...")
        })
        .collect()
}

fn program_args(prog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(prog).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("# ARGS:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Runs one program; `Err` describes the first difference.
fn run_case(bin: &Path, case: &Case) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("rpy-run-{}-{}", std::process::id(), case.name));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(bin)
        .arg("run")
        .arg(&case.prog)
        .arg("--")
        .args(program_args(&case.prog))
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let Some(status) = status else {
        return Err("timed out after 60 s".into());
    };
    let want_out = std::fs::read(case.base.with_extension("stdout")).unwrap_or_default();
    let want_err = std::fs::read(case.base.with_extension("stderr")).unwrap_or_default();
    let want_exit: i32 = std::fs::read_to_string(case.base.with_extension("exit"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let got_exit = status.code().unwrap_or(-1);
    if out.stdout != want_out {
        let got = String::from_utf8_lossy(&out.stdout);
        let want = String::from_utf8_lossy(&want_out);
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        return Err(format!(
            "stdout differs at line {}: got {:?}, want {:?} (stderr: {})",
            line + 1,
            got.lines().nth(line).unwrap_or("<end>"),
            want.lines().nth(line).unwrap_or("<end>"),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ));
    }
    if filter_traceback(&out.stderr) != filter_traceback(&want_err) {
        return Err(format!(
            "stderr differs: got {:?}, want {:?}",
            filter_traceback(&out.stderr),
            filter_traceback(&want_err)
        ));
    }
    if got_exit != want_exit {
        return Err(format!("exit status {} instead of {}", got_exit, want_exit));
    }
    Ok(())
}

#[test]
fn run_corpus_matches_reference_binaries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let gaps_text = std::fs::read_to_string(root.join("known-gaps.txt")).unwrap_or_default();
    let gaps: Vec<&str> = gaps_text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let cases = cases(&root);
    assert!(!cases.is_empty(), "no run corpus under {}", root.display());
    let results: Vec<(String, Result<(), String>)> = std::thread::scope(|s| {
        let chunks: Vec<&[Case]> = cases.chunks(cases.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let bin = &bin;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|c| (c.name.clone(), run_case(bin, c)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut failures = Vec::new();
    let mut passed = 0;
    for (name, r) in &results {
        let is_gap = gaps.contains(&name.as_str());
        match (r, is_gap) {
            (Ok(()), false) => passed += 1,
            (Ok(()), true) => failures.push(format!(
                "{}: listed in known-gaps.txt but now identical: remove it from the list",
                name
            )),
            (Err(e), false) => failures.push(format!("{}: {}", name, e)),
            (Err(_), true) => {}
        }
    }
    println!(
        "run corpus: {} of {} programs identical to the reference binaries ({} known gaps)",
        passed,
        results.len(),
        gaps.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
