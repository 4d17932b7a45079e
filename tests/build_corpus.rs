//! `rpy-lsp build` against the reference-built binaries: every program of `fixtures/run/`
//! is compiled to a native executable (`--opt 1`) and run, normally and with
//! `RPY_GC_STRESS=1` (a collection at every allocation, which flushes out missing GC
//! roots and write barriers), with the C runtime compiled once and reused; stdout, stderr and exit status must be byte-identical to the
//! reference binary's, except for the programs listed in
//! `fixtures/run/build-known-gaps.txt`, which must still differ. The long-running programs
//! of `fixtures/run-long/` are built and run once each, without the stress run.

mod runcorpus;

use runcorpus::{assess, cases, check_case, known_gaps, program_args, run_all, Case};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds one program into `dir`; the executable's path, or the build's error output.
fn build(bin: &Path, case: &Case, dir: &Path) -> Result<PathBuf, String> {
    build_with(bin, case, dir, None)
}

/// `build` with CFLAGS.
fn build_with(
    bin: &Path,
    case: &Case,
    dir: &Path,
    cflags: Option<&str>,
) -> Result<PathBuf, String> {
    let exe = dir.join(&case.name);
    let mut cmd = Command::new(bin);
    // the compiled runtime is kept in the test's own directory: the first build of the
    // run compiles it, the others reuse it
    cmd.env("RPY_LSP_CACHE_DIR", dir.join("cache"));
    if let Some(f) = cflags {
        cmd.env("CFLAGS", f);
    }
    let out = cmd
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

/// Builds every program of `fixtures/DIR` and runs its executable, normally and (with
/// `stress`) under `RPY_GC_STRESS=1`, against the reference's outputs; the programs of
/// `fixtures/DIR/GAPS` must still differ.
fn build_and_compare(dir: &str, gaps: &str, stress: bool, what: &str) {
    if Command::new("cc").arg("--version").output().is_err() {
        println!("no C compiler (`cc`): {what} skipped");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(dir);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let gaps = known_gaps(&root.join(gaps));
    let tmp = std::env::temp_dir().join(format!("rpy-{dir}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cases = cases(&root);
    assert!(!cases.is_empty(), "no programs under {}", root.display());
    let results = run_all(&cases, |c| {
        let exe = build(&bin, c, &tmp)?;
        let run = |env: &[(&str, &str)]| {
            let mut cmd = Command::new(&exe);
            cmd.args(program_args(&c.prog));
            check_case(cmd, c, env)
        };
        run(&[])?;
        if stress {
            run(&[("RPY_GC_STRESS", "1"), ("RPY_GC_NURSERY", "65536")])
                .map_err(|e| format!("under RPY_GC_STRESS=1: {}", e))?;
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&tmp);
    assess(what, &results, &gaps);
}

#[test]
fn build_corpus_matches_reference_binaries() {
    build_and_compare("run", "build-known-gaps.txt", true, "build corpus");
}

const SANITIZE: &str =
    "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer";

/// A sample of the corpus (every eighth program) built with AddressSanitizer and
/// UndefinedBehaviorSanitizer (`--opt 1`): no memory error, no undefined behaviour, the
/// same output. (`fixtures/run/sanitize.sh` runs the whole corpus so.)
#[test]
fn build_corpus_sample_under_sanitizers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let dir = std::env::temp_dir().join(format!("rpy-build-asan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // a compiler that cannot link sanitized programs: skipped
    let probe = dir.join("probe.c");
    std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
    let ok = Command::new("cc")
        .args(SANITIZE.split(' '))
        .arg(&probe)
        .arg("-o")
        .arg(dir.join("probe"))
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        println!("the C compiler cannot build sanitized programs: skipped");
        return;
    }
    let gaps = known_gaps(&root.join("build-known-gaps.txt"));
    let cases: Vec<Case> = cases(&root)
        .into_iter()
        .filter(|c| !gaps.contains(&c.name))
        // a program that dies of an unchecked division trap (SIGFPE, 136) or of a null
        // dereference (SIGSEGV, 139), as the reference's binary does, executes undefined
        // behaviour by design: the sanitizer reports it instead of the signal
        .filter(|c| {
            std::fs::read_to_string(c.base.with_extension("exit"))
                .map_or(true, |e| !matches!(e.trim(), "136" | "139"))
        })
        .step_by(8)
        .collect();
    let results = run_all(&cases, |c| {
        let exe = build_with(&bin, c, &dir, Some(SANITIZE))?;
        let mut cmd = Command::new(&exe);
        cmd.args(program_args(&c.prog));
        check_case(cmd, c, &[("ASAN_OPTIONS", "detect_leaks=0")])
    });
    let _ = std::fs::remove_dir_all(&dir);
    assess("build corpus under sanitizers (sample)", &results, &[]);
}

/// The C runtime compiled by the first build is kept and reused by the next ones, which
/// give the same executable's output; a damaged entry (another recorded key, a missing
/// object) is made again.
#[test]
fn build_reuses_the_compiled_runtime() {
    if Command::new("cc").arg("--version").output().is_err() {
        println!("no C compiler (`cc`): skipped");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rpy-lsp"));
    let dir = std::env::temp_dir().join(format!("rpy-build-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let case = cases(&root)
        .into_iter()
        .find(|c| c.name == "float_round_double")
        .expect("fixture float_round_double");
    let runtime_dirs = || -> Vec<PathBuf> {
        let Ok(versions) = std::fs::read_dir(dir.join("cache")) else {
            return Vec::new();
        };
        versions
            .flatten()
            .flat_map(|v| std::fs::read_dir(v.path()).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("runtime-"))
            })
            .collect()
    };
    let run = |exe: &Path| {
        check_case(Command::new(exe), &case, &[]).unwrap_or_else(|e| panic!("{e}"));
    };
    let first = build(&bin, &case, &dir).unwrap();
    run(&first);
    let kept = runtime_dirs();
    assert_eq!(kept.len(), 1, "one compiled runtime kept: {kept:?}");
    let gc = kept[0].join("gc.o");
    let stamp = std::fs::metadata(&gc).unwrap().modified().unwrap();
    let second = build(&bin, &case, &dir).unwrap();
    run(&second);
    assert_eq!(
        std::fs::metadata(&gc).unwrap().modified().unwrap(),
        stamp,
        "the second build reused the objects"
    );
    std::fs::write(kept[0].join("key"), "something else").unwrap();
    std::fs::remove_file(kept[0].join("text.o")).unwrap();
    let third = build(&bin, &case, &dir).unwrap();
    run(&third);
    // the damaged entry was made again, and is used by the next build
    assert!(kept[0].join("text.o").is_file());
    assert_ne!(
        std::fs::read_to_string(kept[0].join("key")).unwrap(),
        "something else"
    );
    let stamp = std::fs::metadata(&gc).unwrap().modified().unwrap();
    let fourth = build(&bin, &case, &dir).unwrap();
    run(&fourth);
    assert_eq!(std::fs::metadata(&gc).unwrap().modified().unwrap(), stamp);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The long-running corpus (`fixtures/run-long/`: programs over large data whose `run`
/// takes longer than the LLInterpreter's debug build should spend in a test): each is
/// built and its executable run once (no GC stress: a collection at every allocation is
/// quadratic on a heap of a million objects), byte-identical to the reference binary.
/// `benches/run_long.sh` compares their `run` too, with the release build.
#[test]
fn build_long_corpus_matches_reference_binaries() {
    build_and_compare("run-long", "known-gaps.txt", false, "long corpus (build)");
}
