//! The run corpus (`fixtures/run/`): programs with the outputs of the reference-built
//! binaries, and the comparison every runner of them shares (`rpy-lsp run`, and the
//! executables of `rpy-lsp build`). Lines `  File "...", line N, in f` of an RPython
//! traceback are dropped from both sides (the reference's name generated C files).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a program wrote.
struct Output {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

pub struct Case {
    pub name: String,
    pub prog: PathBuf,
    pub base: PathBuf,
}

pub fn cases(root: &Path) -> Vec<Case> {
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

pub fn filter_traceback(s: &[u8]) -> String {
    String::from_utf8_lossy(s)
        .split_inclusive('\n')
        .filter(|l| {
            !((l.starts_with("  File \"") && l.contains("\", line ")) || l.trim_end() == "  ...")
        })
        .collect()
}

pub fn program_args(prog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(prog).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("# ARGS:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// The environment variables of the program's `# ENV: NAME=VALUE ...` header line.
pub fn program_env(prog: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(prog).unwrap_or_default();
    text.lines()
        .find_map(|l| l.strip_prefix("# ENV:"))
        .map(|a| {
            a.split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs one program with `cmd` (the program's arguments already given, its `# ENV:`
/// variables added here); `Err` describes the first difference with the expected
/// outputs. `env`: extra environment.
pub fn check_case(mut cmd: Command, case: &Case, env: &[(&str, &str)]) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!(
        "rpy-corpus-{}-{}-{}",
        std::process::id(),
        case.name,
        env.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, v) in env {
        cmd.env(k, v);
    }
    for (k, v) in program_env(&case.prog) {
        cmd.env(k, v);
    }
    let mut child = cmd
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // the pipes are drained while the program runs: one that writes more than a pipe holds
    // (64 KB) would otherwise block until the time limit
    let drain = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_reader = drain(child.stdout.take().map(|r| Box::new(r) as _));
    let err_reader = drain(child.stderr.take().map(|r| Box::new(r) as _));
    // a guard against hangs, not a speed test (benches/ measures speed): the program's own
    // CPU time, generous because the LLInterpreter runs as a debug build here, so a busy
    // shared machine does not make a slow program look hung; wall-clock time as a last
    // resort
    let cpu_limit = 180.0;
    let wall_limit = Duration::from_secs(1200);
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        let cpu = cpu_seconds(child.id()).unwrap_or(0.0);
        if cpu > cpu_limit || start.elapsed() > wall_limit {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = child.wait();
    let out = Output {
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    let Some(status) = status else {
        return Err(format!(
            "timed out after {:.0} s of CPU time ({:.0} s elapsed)",
            cpu_limit,
            start.elapsed().as_secs_f64()
        ));
    };
    let want_out = std::fs::read(case.base.with_extension("stdout")).unwrap_or_default();
    let want_err = std::fs::read(case.base.with_extension("stderr")).unwrap_or_default();
    let want_exit: i32 = std::fs::read_to_string(case.base.with_extension("exit"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // killed by a signal: the status bash's $? shows (134 for an abort)
    let got_exit = {
        use std::os::unix::process::ExitStatusExt;
        status
            .code()
            .unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
    };
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

/// The programs listed in a known-gaps file (first word of each line).
pub fn known_gaps(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// Runs `f` on every case on two threads; results in the cases' order.
pub fn run_all<F>(cases: &[Case], f: F) -> Vec<(String, Result<(), String>)>
where
    F: Fn(&Case) -> Result<(), String> + Sync,
{
    std::thread::scope(|s| {
        let chunks: Vec<&[Case]> = cases.chunks(cases.len().div_ceil(2).max(1)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let f = &f;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|c| (c.name.clone(), f(c)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// Checks results against the known gaps: every program identical except the listed
/// ones, which must still differ. Returns the number identical.
pub fn assess(what: &str, results: &[(String, Result<(), String>)], gaps: &[String]) -> usize {
    let mut failures = Vec::new();
    let mut passed = 0;
    for (name, r) in results {
        let is_gap = gaps.iter().any(|g| g == name);
        match (r, is_gap) {
            (Ok(()), false) => passed += 1,
            (Ok(()), true) => failures.push(format!(
                "{}: listed as a known gap but now identical: remove it from the list",
                name
            )),
            (Err(e), false) => failures.push(format!("{}: {}", name, e)),
            (Err(_), true) => {}
        }
    }
    println!(
        "{}: {} of {} programs identical to the reference binaries ({} known gaps)",
        what,
        passed,
        results.len(),
        gaps.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    passed
}

/// The CPU time (user + system) process `pid` has used so far, from Linux's
/// `/proc/PID/stat` (fields 14 and 15, in clock ticks).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{}/stat", pid)).ok()?;
    // the fields after the command name, which is in parentheses and may hold spaces
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf has no preconditions
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some(ticks / if hz > 0.0 { hz } else { 100.0 })
}
