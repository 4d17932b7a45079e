//! The garbage collector of the C runtime (src/genc/runtime/gc.c), exercised by the C
//! programs of tests/gc/: each is compiled with the system C compiler (`cc`, warnings
//! as errors) together with gc.c, then run normally, with a small nursery (many more
//! collections, more objects allocated old) and with RPY_GC_STRESS=1 (a collection at
//! every allocation, which moves every young object and so exposes a missing root).
//! The programs check their own results and exit 0. Without a `cc` the tests print a
//! message and pass.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have_cc() -> bool {
    let ok = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("gc_runtime: no `cc` on PATH, skipping");
    }
    ok
}

/// A fresh directory for one test's executables, removed when the test passes.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rpy-lsp-gc-{}-{}", std::process::id(), name));
        std::fs::create_dir_all(&dir).expect("create the temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Compiles tests/gc/<test>.c with gc.c into `dir`; `Err` has the compiler's output.
fn try_compile(dir: &Path, test: &str, tag: &str, flags: &[&str]) -> Result<PathBuf, String> {
    let runtime = root().join("src/genc/runtime");
    let tests = root().join("tests/gc");
    let exe = dir.join(format!("{test}-{tag}"));
    let out = Command::new("cc")
        .args(["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-g"])
        .args(flags)
        .arg("-I")
        .arg(&runtime)
        .arg("-I")
        .arg(&tests)
        .arg(tests.join(format!("{test}.c")))
        .arg(runtime.join("gc.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run cc");
    if out.status.success() {
        Ok(exe)
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn compile(dir: &Path, test: &str, tag: &str, flags: &[&str]) -> PathBuf {
    try_compile(dir, test, tag, flags)
        .unwrap_or_else(|err| panic!("compiling tests/gc/{test}.c ({tag}) failed:\n{err}"))
}

fn run(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .env_remove("RPY_GC_STRESS")
        .env_remove("RPY_GC_STRESS_MAJOR")
        .env_remove("RPY_GC_NURSERY")
        .env_remove("RPY_GC_VERBOSE")
        .env_remove("GCTEST_SMALL");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run the test program")
}

/// Runs the program and asserts it succeeded; returns its stdout.
fn run_ok(exe: &Path, env: &[(&str, &str)]) -> String {
    let out = run(exe, &[], env);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} with {env:?} failed ({}):\nstdout: {stdout}\nstderr: {}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{} {env:?}: {}", exe.display(), stdout.trim());
    stdout
}

/// The ways every program runs under the generational GC.
fn run_variants(exe: &Path) {
    run_ok(exe, &[]);
    run_ok(exe, &[("RPY_GC_NURSERY", "65536")]);
    run_ok(exe, &[("RPY_GC_STRESS", "1"), ("GCTEST_SMALL", "1")]);
    // and a major collection every 37 allocations (the default is every 1000)
    run_ok(
        exe,
        &[
            ("RPY_GC_STRESS", "1"),
            ("RPY_GC_STRESS_MAJOR", "37"),
            ("GCTEST_SMALL", "1"),
        ],
    );
}

fn peak_rss_kib(stdout: &str) -> u64 {
    stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix("peak_rss_kib="))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no peak_rss_kib in {stdout:?}"))
}

#[test]
fn gc_lists_trees_arrays_cycles_barriers_statics() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("structures");
    run_variants(&compile(&dir.0, "test_structures", "gc", &["-O2"]));
}

#[test]
fn gc_identity_hashes_stable_and_distinct() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("hash");
    run_variants(&compile(&dir.0, "test_hash", "gc", &["-O2"]));
}

#[test]
fn gc_weakrefs_follow_moves_and_die_with_their_object() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("weakref");
    let exe = compile(&dir.0, "test_weakref", "gc", &["-O2"]);
    run_variants(&exe);
    // --gc=none never frees: a reference is only never wrong there, not tested
}

#[test]
fn gc_long_allocation_loop_has_bounded_rss() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("rss");
    let exe = compile(&dir.0, "test_rss", "gc", &["-O2"]);
    // 2e8 bytes allocated in all; the program also checks the bound itself
    let stdout = run_ok(&exe, &[]);
    let rss = peak_rss_kib(&stdout);
    assert!(rss < 64 * 1024, "peak RSS {rss} KiB");
    run_ok(&exe, &[("RPY_GC_STRESS", "1"), ("GCTEST_SMALL", "1")]);
}

#[test]
fn gc_none_allocates_without_collecting() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("none");
    for test in ["test_structures", "test_hash"] {
        let exe = compile(&dir.0, test, "none", &["-O2", "-DRPY_GC_NONE"]);
        run_ok(&exe, &[("GCTEST_SMALL", "1")]);
    }
}

#[test]
fn gc_fatal_errors() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("fatal");
    let exe = compile(&dir.0, "test_fatal", "gc", &["-O2"]);
    for (mode, message) in [("stack", "StackOverflow"), ("length", "MemoryError")] {
        let out = run(&exe, &[mode], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(134), "{mode}: {stderr}");
        assert!(
            stderr.contains(&format!("Fatal RPython error: {message}")),
            "{mode}: {stderr}"
        );
    }
    // pushing roots past the end without allocating hits the guard pages: a crash, not
    // a silent overwrite
    let out = run(&exe, &["guard"], &[]);
    assert!(!out.status.success() && out.status.code() != Some(0));
}

/// The programs again under AddressSanitizer and UndefinedBehaviorSanitizer (the GC
/// poisons the nursery space it does not hand out, so a stale pointer to a moved object
/// is reported at once), if the compiler and the machine support them.
#[test]
fn gc_under_sanitizers() {
    if !have_cc() {
        return;
    }
    let dir = TempDir::new("sanitize");
    let flags = [
        "-O1",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-fno-omit-frame-pointer",
    ];
    let exe = match try_compile(&dir.0, "test_structures", "asan", &flags) {
        Ok(exe) => exe,
        Err(err) => {
            eprintln!("gc_runtime: no sanitizers with this cc, skipping:\n{err}");
            return;
        }
    };
    // a sanitizer runtime may also fail to start in some sandboxes: then skip (but a
    // report of the sanitizers or of the program is a failure, below)
    let env = [("GCTEST_SMALL", "1"), ("ASAN_OPTIONS", "detect_leaks=0")];
    let probe = run(&exe, &[], &env);
    let stderr = String::from_utf8_lossy(&probe.stderr);
    if !probe.status.success()
        && !stderr.contains("ERROR: AddressSanitizer")
        && !stderr.contains("runtime error")
        && !stderr.contains("check failed")
    {
        eprintln!("gc_runtime: sanitizer runtime unusable here, skipping:\n{stderr}");
        return;
    }
    run_ok(&exe, &env);
    let stress = [
        ("GCTEST_SMALL", "1"),
        ("RPY_GC_STRESS", "1"),
        ("ASAN_OPTIONS", "detect_leaks=0"),
    ];
    run_ok(&exe, &stress);
    let exe = compile(&dir.0, "test_hash", "asan", &flags);
    run_ok(&exe, &env);
    run_ok(&exe, &stress);
    let exe = compile(&dir.0, "test_weakref", "asan", &flags);
    run_ok(&exe, &env);
    run_ok(&exe, &stress);
}
