//! End-to-end tests of the `rpy-lsp` binary: the README's commands on the shipped examples,
//! output formats, exit codes and suppressions.

use std::path::{Path, PathBuf};
use std::process::Command;

fn rpy(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write_program(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpy-cli-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.py", name));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn check_broken_example_as_json() {
    let (code, stdout, _) = rpy(&["check", "examples/broken.py", "--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let found: Vec<(String, u64)> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![("RPY102".to_string(), 7), ("RPY107".to_string(), 11)]
    );
}

#[test]
fn check_clean_example_and_ci_formats() {
    let (code, stdout, stderr) = rpy(&["check", "examples/hello.py"]);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    let (code, stdout, _) = rpy(&["check", "examples/broken.py", "--format", "github"]);
    assert_eq!(code, 1);
    assert!(
        stdout.lines().next().unwrap().starts_with("::error file="),
        "{stdout}"
    );
    assert!(
        stdout.contains("line=11,col=18") && stdout.contains("title=RPY107"),
        "{stdout}"
    );
    let (_, stdout, _) = rpy(&["check", "examples/broken.py", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 2);
}

#[test]
fn type_error_has_a_reason_label_and_can_be_suppressed() {
    let src = "def entry_point(argv):\n    x = 1\n    if len(argv) > 1:\n        x = 'a'\n    print x\n    return 0\n\ndef target(*args):\n    return entry_point, None\n";
    let path = write_program("union", src);
    let (code, stdout, _) = rpy(&["check", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let d = &json["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["line"].as_u64()),
        (Some("RPY201"), Some(4))
    );
    assert_eq!(d["labels"][0]["line"].as_u64(), Some(2));
    let suppressed = write_program(
        "union_ignored",
        &src.replace("x = 'a'", "x = 'a'  # rpy: ignore[RPY201]"),
    );
    let (code, _, _) = rpy(&["check", suppressed.to_str().unwrap()]);
    assert_eq!(code, 0);
}

#[test]
fn kwargs_diagnostic_names_the_parameter() {
    let src = "def f(a, **options):\n    extra = 1\n    return a + extra\n\ndef entry_point(argv):\n    return f(1)\n\ndef target(*args):\n    return entry_point, None\n";
    let path = write_program("kwargs", src);
    let (code, stdout, _) = rpy(&["check", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("`**options` in the definition of `f`"),
        "{stdout}"
    );
}

#[test]
fn graph_plain_annotated_and_dot() {
    let (code, stdout, _) = rpy(&["graph", "fixtures/graphs/arith.py", "--function", "f"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("v3 = add(x_0, v2)"), "{stdout}");
    let (code, stdout, _) = rpy(&[
        "graph",
        "fixtures/graphs/arith.py",
        "--function",
        "f",
        "--annotated",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("v4: int = sub(v3, 1)"), "{stdout}");
    let (code, stdout, _) = rpy(&["graph", "examples/hello.py", "--format", "dot"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("digraph flowgraphs {") && stdout.contains("-> "),
        "{stdout}"
    );
    let (code, _, stderr) = rpy(&["graph", "examples/broken.py"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("RPY102"), "{stderr}");
}

#[test]
fn rules_explain_and_usage_errors() {
    let (code, stdout, _) = rpy(&["rules"]);
    assert_eq!(code, 0);
    assert!(
        stdout.lines().any(|l| l.starts_with("RPY107"))
            && stdout.lines().any(|l| l.starts_with("RPY201"))
    );
    let (code, stdout, _) = rpy(&["explain", "RPY107"]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Rejected:") && stdout.contains("l[::2]"),
        "{stdout}"
    );
    assert_eq!(rpy(&["explain", "NOPE"]).0, 2);
    assert_eq!(rpy(&["check", "no/such/file.py"]).0, 2);
    assert_eq!(rpy(&["frobnicate"]).0, 2);
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("README.md")
        .exists());
}

/// `rpy-lsp explain RPY205 | head` closes the pipe early: the tool ends as `cat` does
/// (killed by SIGPIPE, or exit 0), never with a panic message.
#[test]
#[cfg(unix)]
fn output_into_a_closed_pipe_is_not_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
        .args(["explain", "RPY205"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.status.signal() == Some(libc::SIGPIPE) || out.status.code() == Some(0),
        "{:?}",
        out.status
    );
}

#[test]
fn run_executes_the_example_with_its_arguments() {
    let (code, stdout, _) = rpy(&["run", "examples/hello.py", "--", "bob"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "hello, bob\nhello, bob\n");
    let (code, stdout, _) = rpy(&["run", "examples/hello.py"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "hello, world\nhello, world\n");
}

#[test]
fn run_exit_status_uncaught_exception_and_refusal() {
    let p = write_program(
        "runexit",
        "def entry_point(argv):\n    if len(argv) > 1:\n        raise ValueError\n    return 300\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, _, _) = rpy(&["run", p.to_str().unwrap()]);
    assert_eq!(code, 300 & 0xff);
    let (code, _, stderr) = rpy(&["run", p.to_str().unwrap(), "--", "x"]);
    assert_eq!(code, 134);
    assert_eq!(
        stderr,
        "RPython traceback:\nFatal RPython error: ValueError\n"
    );
    let bad = write_program(
        "runbad",
        "def entry_point(argv):\n    x = 1\n    x = 'a'\n    return x\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, _, stderr) = rpy(&["run", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("cannot be run: fix the errors above first"),
        "{}",
        stderr
    );
}

#[test]
fn graph_rtyped_shows_low_level_operations_and_types() {
    let (code, stdout, _) = rpy(&[
        "graph",
        "examples/hello.py",
        "--function",
        "greet",
        "--rtyped",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("int_lt(") && stdout.contains(": Signed"),
        "{}",
        stdout
    );
    assert!(stdout.contains("* GcStruct rpy_string"), "{}", stdout);
}

#[test]
fn graph_and_run_use_the_projects_search_paths() {
    let dir = std::env::temp_dir().join(format!("rpy-cli-project-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("pyproject.toml"),
        "[tool.rpy-lsp]\nsearch-paths = [\"lib\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("lib/helper.py"),
        "def twice(x):\n    return x * 2\n",
    )
    .unwrap();
    let target = dir.join("src/target.py");
    std::fs::write(
        &target,
        "from helper import twice\n\ndef entry_point(argv):\n    print twice(len(argv))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    )
    .unwrap();
    let t = target.to_str().unwrap();
    let (code, stdout, stderr) = rpy(&["run", t, "--", "a", "b"]);
    assert_eq!((code, stdout.as_str()), (0, "6\n"), "{}", stderr);
    let (code, stdout, _) = rpy(&["graph", t, "--function", "twice"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("graph twice"), "{}", stdout);
    std::fs::write(dir.join("pyproject.toml"), "[tool.rpy-lsp\n").unwrap();
    let (code, _, stderr) = rpy(&["run", t]);
    assert_eq!(code, 2);
    assert!(stderr.contains("pyproject.toml"), "{}", stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rpy-lsp build` with extra environment variables, from the repository root.
fn rpy_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn build_hello_example_runs_natively() {
    let dir = std::env::temp_dir().join(format!("rpy-cli-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("hello");
    let emit = dir.join("c");
    let (code, _, stderr) = rpy(&[
        "build",
        "examples/hello.py",
        "-o",
        exe.to_str().unwrap(),
        "--emit-c",
        emit.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{}", stderr);
    for stage in ["annotate", "rtype", "C compilation"] {
        assert!(stderr.contains(stage), "no timing of {}: {}", stage, stderr);
    }
    let out = Command::new(&exe).arg("bob").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello, bob\nhello, bob\n"
    );
    // the kept C names the source line of each block
    let c = std::fs::read_to_string(emit.join("program.c")).unwrap();
    assert!(c.contains("hello.py:"), "no line comments in the emitted C");
    // the same program gives the same C
    let emit2 = dir.join("c2");
    let (code, _, _) = rpy(&[
        "build",
        "examples/hello.py",
        "-o",
        exe.to_str().unwrap(),
        "--emit-c",
        emit2.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(c, std::fs::read_to_string(emit2.join("program.c")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_refuses_a_program_with_errors() {
    let (code, _, stderr) = rpy(&["build", "examples/broken.py", "-o", "/dev/null"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot be built"), "{}", stderr);
}

#[test]
fn build_with_a_failing_c_compiler_keeps_the_sources() {
    let dir = std::env::temp_dir().join(format!("rpy-cli-badcc-{}", std::process::id()));
    let emit = dir.join("c");
    let (code, _, stderr) = rpy_env(
        &[
            "build",
            "examples/hello.py",
            "-o",
            dir.join("hello").to_str().unwrap(),
            "--emit-c",
            emit.to_str().unwrap(),
        ],
        &[("CC", "/nonexistent/cc")],
    );
    assert_eq!(code, 2, "{}", stderr);
    assert!(stderr.contains("C compiler"), "{}", stderr);
    assert!(emit.join("program.c").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_warning_free_under_wall_wextra() {
    let dir = std::env::temp_dir().join(format!("rpy-cli-wall-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for prog in [
        "fixtures/run/mm_interp/main.py",
        "fixtures/run/gc_dict_tuple_keys.py",
        "fixtures/run/dict_r_dict_custom.py",
    ] {
        let (code, _, stderr) = rpy_env(
            &["build", prog, "-o", dir.join("x").to_str().unwrap()],
            &[("CFLAGS", "-Wall -Wextra -Werror")],
        );
        assert_eq!(code, 0, "{}: {}", prog, stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_gc_none_never_frees_but_runs_the_same() {
    let dir = std::env::temp_dir().join(format!("rpy-cli-gcnone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = "fixtures/run/gc_binary_trees.py";
    let want = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/run/gc_binary_trees.stdout"),
    )
    .unwrap();
    for gc in ["none", "gen"] {
        let exe = dir.join(gc);
        let (code, _, stderr) = rpy(&[
            "build",
            prog,
            "-o",
            exe.to_str().unwrap(),
            "--gc",
            gc,
            "--opt",
            "1",
        ]);
        assert_eq!(code, 0, "{}", stderr);
        let out = Command::new(&exe).output().unwrap();
        assert_eq!(out.stdout, want, "--gc {}", gc);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check` runs the RTyper after a clean annotation: what `run` and `build` could not
/// translate is a warning at the user's line (the examples of `explain RPY301`), not an
/// error; `--no-translate` skips it; `run` refuses the same program with an error.
#[test]
fn check_reports_what_the_rtyper_cannot_translate() {
    let rule = rpy_lsp::diagnostics::rules::lookup("RPY301").expect("RPY301 is a rule");
    let bad = write_program("rpy301_bad", rule.bad);
    let good = write_program("rpy301_good", rule.good);
    let bad_s = bad.to_str().unwrap();
    let codes = |stdout: &str| -> Vec<(String, String, u64)> {
        let json: serde_json::Value = serde_json::from_str(stdout).unwrap();
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["severity"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let (code, stdout, _) = rpy(&["check", "--format", "json", bad_s]);
    assert_eq!(code, 0, "a warning only: {stdout}");
    assert_eq!(
        codes(&stdout),
        vec![("RPY301".to_string(), "warning".to_string(), 5)]
    );
    let (_, stdout, _) = rpy(&["check", "--format", "json", "--no-translate", bad_s]);
    assert!(codes(&stdout).is_empty(), "{stdout}");
    let (code, stdout, _) = rpy(&["check", "--format", "json", good.to_str().unwrap()]);
    assert_eq!((code, codes(&stdout)), (0, vec![]));
    let (code, _, stderr) = rpy(&["run", bad_s]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("error[RPY301]") && stderr.contains("rpy301_bad.py:5:"),
        "{stderr}"
    );
}

/// A string method is a low-level helper graph (README, "Running programs"): `graph
/// --rtyped --function ll_upper` shows it, and the loop it calls the interior accesses of
/// the characters.
#[test]
fn string_helper_is_a_low_level_graph() {
    let prog = write_program(
        "helper_graph",
        "def entry_point(argv):\n    print argv[0].upper()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, stdout, stderr) = rpy(&[
        "graph",
        "--rtyped",
        "--function",
        "ll_upper",
        prog.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("graph ll_upper(s_0)"), "{stdout}");
    assert!(stdout.contains("direct_call"), "{stdout}");
    // the loop it calls: a new string, the characters read and written in place
    let (code, stdout, stderr) = rpy(&[
        "graph",
        "--rtyped",
        "--function",
        "_case",
        prog.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    for op in ["malloc_varsize", "getinteriorfield", "setinteriorfield"] {
        assert!(stdout.contains(op), "{op}: {stdout}");
    }
}

/// Operations whose behaviour a compiled program leaves undefined (the reference's helpers
/// only `ll_assert` them, unchecked in release builds) stop `run` with status 134 and a
/// message naming the user's line, after the output printed before them.
#[test]
fn run_stops_at_undefined_behaviour_naming_the_line() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "ubindex",
            "print l[n]",
            "list index 5 out of range (length 3) without an IndexError handler",
        ),
        (
            "ubneg",
            "print l[-n - 1]",
            "list index -3 out of range (length 3) without an IndexError handler",
        ),
        (
            "ubstr",
            "print 'abc'[n]",
            "string index 5 out of range (length 3) without an IndexError handler",
        ),
        (
            "ubinsert",
            "l.insert(n, 7)",
            "list.insert() index 5 past the end of the list (length 3)",
        ),
        (
            "ubdel",
            "del l[n]",
            "list index 5 out of range (length 3) without an IndexError handler",
        ),
        (
            "ubpop",
            "l.pop(n)",
            "list index 5 out of range (length 3) without an IndexError handler",
        ),
        (
            "ubdelslice",
            "del l[n:]",
            "list slice start 5 past the end of the list (length 3)",
        ),
    ];
    for (name, stmt, what) in cases {
        let text = format!(
            "def entry_point(argv):\n    l = [1, 2, 3]\n    n = len(argv) + 4\n    print 'before'\n    {}\n    print 'after'\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
            stmt
        );
        let p = write_program(name, &text);
        let (code, stdout, stderr) = rpy(&["run", p.to_str().unwrap()]);
        assert_eq!(code, 134, "{}: {}", name, stderr);
        assert_eq!(stdout, "before\n", "{}", name);
        assert_eq!(
            stderr,
            format!(
                "rpy-lsp run: undefined behaviour at {}:5: {}\n",
                p.display(),
                what
            ),
            "{}",
            name
        );
    }
    // a list slice of a negative length (start past the end, stop before the start) is
    // the reference's MemoryError (its GC refuses the negative-length allocation), not
    // undefined: a fatal error here, as there
    for (name, stmt) in [
        ("memslice", "print len(l[n:])"),
        ("memslicestop", "print len(l[2:len(argv)])"),
    ] {
        let text = format!(
            "def entry_point(argv):\n    l = [1, 2, 3]\n    n = len(argv) + 4\n    print 'before'\n    {}\n    print 'after'\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
            stmt
        );
        let p = write_program(name, &text);
        let (code, stdout, stderr) = rpy(&["run", p.to_str().unwrap()]);
        assert_eq!(
            (code, stdout.as_str()),
            (134, "before\n"),
            "{}: {}",
            name,
            stderr
        );
        assert!(
            stderr.ends_with("Fatal RPython error: MemoryError\n"),
            "{}: {}",
            name,
            stderr
        );
    }
    // the same operations under a handler raise IndexError, which the program catches
    let p = write_program(
        "ubhandled",
        "def entry_point(argv):\n    l = [1, 2, 3]\n    n = len(argv) + 4\n    try:\n        del l[n]\n    except IndexError:\n        print 'del'\n    try:\n        l.pop(n)\n    except IndexError:\n        print 'pop'\n    try:\n        print l[n]\n    except IndexError:\n        print 'get'\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, stdout, _) = rpy(&["run", p.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, "del\npop\nget\n"));
}

/// A C function declared with `rffi.llexternal` that `run` does not model: `run` goes up
/// to its call and stops there naming the function, its declaration's line and the
/// call's (status 134);
/// `build` calls the C library's function (declared under an asm label, so the header's
/// `const char *` declaration does not conflict).
#[test]
fn run_stops_at_an_unmodelled_c_function_and_build_calls_it() {
    let p = write_program(
        "cfunc_atoi",
        "import os\nfrom rpython.rtyper.lltypesystem import rffi\n\nc_strlen = rffi.llexternal('strlen', [rffi.CCHARP], rffi.SIZE_T)\nc_atoi = rffi.llexternal('atoi', [rffi.CCHARP], rffi.INT)\n\ndef entry_point(argv):\n    os.write(1, '%d\\n' % c_strlen('four'))\n    os.write(1, '%d\\n' % c_atoi('4' + str(len(argv) + 1)))\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, stdout, stderr) = rpy(&["run", p.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (134, "4\n"), "{}", stderr);
    assert!(
        stderr.starts_with(&format!(
            "rpy-lsp run: the C function `atoi` (declared with rffi.llexternal at {}:5) cannot be called by `run`: it runs only the C library functions rpy-lsp models (strlen, ",
            p.display()
        )),
        "{}",
        stderr
    );
    assert!(
        stderr.ends_with(&format!("\n  at {}:9\n", p.display())),
        "{}",
        stderr
    );
    let exe = p.with_extension("bin");
    let (code, _, stderr) = rpy(&["build", p.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    assert_eq!(code, 0, "{}", stderr);
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "4\n42\n");
}

/// A C function of a library the program names (`compilation_info=` an
/// `ExternalCompilationInfo` with `libraries=`): `run` refuses it saying what `build`
/// links; `build` links it, and fails on a library the machine lacks with the linker's
/// message; a failing `pkg-config` is named.
#[test]
fn build_links_the_libraries_of_a_compilation_info() {
    let text = |lib: &str, how: &str| {
        format!(
            "from rpython.rtyper.lltypesystem import rffi\nfrom rpython.translator.tool.cbuild import ExternalCompilationInfo\n\neci = {how}\nc_f = rffi.llexternal('zlibVersion', [], rffi.CCHARP, compilation_info=eci)\n\ndef entry_point(argv):\n    print rffi.charp2str(c_f())[:1] == '{lib}'\n    return 0\n\ndef target(*args):\n    return entry_point, None\n"
        )
    };
    let p = write_program(
        "eci_zlib_version",
        &text(
            "1",
            "ExternalCompilationInfo(includes=['zlib.h'], libraries=['z'])",
        ),
    );
    let (code, _, stderr) = rpy(&["run", p.to_str().unwrap()]);
    assert_eq!(code, 134, "{stderr}");
    assert!(
        stderr.contains("cannot be called by `run`")
            && stderr.contains("`rpy-lsp build` calls it (linking -lz)"),
        "{stderr}"
    );
    let exe = p.with_extension("bin");
    let (code, _, stderr) = rpy(&["build", p.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let out = Command::new(&exe).output().unwrap();
    // (a bool computed at run time prints as 1, as in the reference's binaries)
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    let missing = write_program(
        "eci_missing_lib",
        &text(
            "1",
            "ExternalCompilationInfo(libraries=['rpy_no_such_library'])",
        ),
    );
    let exe = missing.with_extension("bin");
    let (code, _, stderr) = rpy(&[
        "build",
        missing.to_str().unwrap(),
        "-o",
        exe.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("rpy_no_such_library"), "{stderr}");
    let pkg = write_program(
        "eci_missing_pkg",
        &text(
            "1",
            "ExternalCompilationInfo.from_pkg_config('rpy-no-such-package')",
        ),
    );
    // the package is asked for at import time, as the reference asks (an ImportError
    // there), so the program is refused before anything is compiled
    let (code, _, stderr) = rpy(&["build", pkg.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("failed: 'pkg-config rpy-no-such-package --exists'"),
        "{stderr}"
    );
}

/// Import-time code that loops over a value rpy-lsp does not model
/// (`htmlentitydefs.name2codepoint`) left a table rpy-lsp cannot know: `check` accepts the
/// program (an unknown is a warning), `run` and `build` refuse it naming the loop's line
/// and the value; import-time code that only stores an unknown, never branching on it,
/// runs; and so does a table filled from the lines of a data file, which import-time code
/// reads with `open()`.
#[test]
fn run_refuses_import_time_control_flow_on_an_unknown() {
    let written = write_program(
        "unknown_loop",
        "import htmlentitydefs\n\nRESERVED = {}\n\n\ndef entry_point(argv):\n    print len(RESERVED)\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n\n\nfor name in htmlentitydefs.name2codepoint:\n    RESERVED[name] = len(name)\n",
    );
    let prog = written.to_str().unwrap();
    let (code, _, stderr) = rpy(&["check", prog]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("RPY301"), "{stderr}");
    for cmd in ["run", "build"] {
        let out = std::env::temp_dir().join(format!("rpy-cli-unknown-loop-{}", std::process::id()));
        let args: Vec<&str> = match cmd {
            "run" => vec!["run", prog],
            _ => vec!["build", prog, "-o", out.to_str().unwrap()],
        };
        let (code, stdout, stderr) = rpy(&args);
        assert_eq!((code, stdout.as_str()), (1, ""), "{cmd}: {stderr}");
        assert!(
            stderr.contains("error[RPY301]: import-time code branched or looped here on a value rpy-lsp does not model (htmlentitydefs.name2codepoint)")
                && stderr.contains("unknown_loop.py:15:13"),
            "{cmd}: {stderr}"
        );
        assert!(!out.exists(), "{cmd} wrote an executable");
    }
    let stores = write_program(
        "unknown_stored",
        "import keyword\n\nKWLIST = keyword.kwlist\nTABLE = {}\nfor w in [\"if\", \"while\"]:\n    TABLE[w] = len(w)\n\n\ndef entry_point(argv):\n    print TABLE.get(argv[1], 0)\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let (code, stdout, stderr) = rpy(&["run", stores.to_str().unwrap(), "--", "while"]);
    assert_eq!((code, stdout.as_str()), (0, "5\n"), "{stderr}");
    // keywords.txt maps `if` to 2; argv[0] is no keyword
    let file_table = "fixtures/programs/ok_mm_import_time_file_read/main.py";
    let (code, stdout, stderr) = rpy(&["run", file_table]);
    assert_eq!((code, stdout.as_str()), (0, "2\n"), "{stderr}");
}

/// With an annotator error, the flow stage's errors are reported only in functions a path
/// from the entry point reaches: not in methods nothing calls (the reference rejects the
/// fixture for its union only), but in a function called after the annotator's error.
#[test]
fn flow_errors_of_unreached_functions_are_not_reported() {
    let errors = |path: &str| -> Vec<(String, u64)> {
        let (code, stdout, _) = rpy(&["check", "--format", "json", path]);
        assert_eq!(code, 1, "{stdout}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        errors("fixtures/programs/err_union_beside_unreached_flow_errors.py"),
        vec![("RPY201".to_string(), 24)]
    );
    let reached = write_program(
        "flow_error_reached_after",
        "def helper(items):\n    return items[::2]\n\n\nclass Shape(object):\n    def area(self):\n        return 4\n\n    def trimmed(self, items):\n        return items[::2]\n\n\ndef entry_point(argv):\n    s = Shape()\n    if len(argv) > 1:\n        x = s.area()\n    else:\n        x = \"none\"\n    print x\n    print len(helper(argv))\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n",
    );
    assert_eq!(
        errors(reached.to_str().unwrap()),
        vec![("RPY107".to_string(), 2), ("RPY201".to_string(), 18)]
    );
}

/// A low-level helper that does not annotate (rpy-lsp's bug, broken here on purpose through
/// `RPY_LSP_BUNDLED_DIR`) is one RPY301 at the user's line that needed it: nothing inside
/// the bundled helpers, nothing at the entry point.
#[test]
fn broken_helper_is_one_error_at_the_users_line() {
    let root = std::env::temp_dir().join(format!("rpy-cli-broken-helper-{}", std::process::id()));
    let helpers = root.join("bundled/__rpy_ll__");
    std::fs::create_dir_all(&helpers).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/objspace/bundled/__rpy_ll__");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, helpers.join(p.file_name().unwrap())).unwrap();
    }
    let dict = helpers.join("ll_dict.py");
    let text = std::fs::read_to_string(&dict).unwrap();
    let head = "def ll_dict_contains(d, key, custom, eq):\n";
    assert!(text.contains(head));
    let broken = text.replace(head, &format!("{}    d.no_such_field = 1\n", head));
    std::fs::write(&dict, broken).unwrap();
    let prog = root.join("main.py");
    std::fs::write(
        &prog,
        "def lookup(d, k):\n    return k in d\n\ndef entry_point(argv):\n    d = {1: 2}\n    print lookup(d, len(argv)), d.keys()\n    return 0\n\ndef target(*args):\n    return entry_point, None\n",
    )
    .unwrap();
    let p = prog.to_str().unwrap();
    let dir = root.join("bundled");
    let env = [("RPY_LSP_BUNDLED_DIR", dir.to_str().unwrap())];
    let (code, stdout, stderr) = rpy_env(&["run", p], &env);
    assert_eq!((code, stdout.as_str()), (1, ""));
    let expected = format!(
        "error[RPY301]: cannot be translated: internal error in the low-level helper ll_dict_contains: GcStruct dict has no field `no_such_field`\n  ┌─ {p}:2:12\n  │\n2 │     return k in d\n  │            ^^^^^^\n  │\n  = see `rpy-lsp explain RPY301`\n\nerror: {p} cannot be run: fix the errors above first\n"
    );
    assert_eq!(stderr, expected);
    // the same helpers unbroken: the program runs
    std::fs::write(&dict, text).unwrap();
    let (code, stdout, stderr) = rpy_env(&["run", p], &env);
    assert_eq!((code, stdout.as_str()), (0, "1 [1]\n"), "{}", stderr);
    let _ = std::fs::remove_dir_all(&root);
}

/// `os.environ` of the translated program is the environment it runs with: `run`, and
/// the executable `build` makes, read a variable given when they start (not the one of
/// the translation), and set and unset their own (`getenv`, `setenv`, `unsetenv`, as the
/// reference's controller of `os.environ`).
#[test]
fn environ_is_read_when_the_program_runs() {
    let p = write_program(
        "environ_at_run_time",
        "# os.environ in the translated program is the environment the binary runs with (getenv,\n# setenv and unsetenv), not the one of the translation: reads, KeyError, set and del.\nimport os\n\n\ndef show(name):\n    value = os.environ.get(name)\n    if value is None:\n        print name, \"unset\"\n    else:\n        print name, \"=\", value\n\n\ndef entry_point(argv):\n    show(\"RPY_ENV_PROBE_REALPROG17\")\n    try:\n        print os.environ[\"RPY_ENV_MISSING_REALPROG17\"]\n    except KeyError:\n        print \"KeyError on read\"\n    os.environ[\"RPY_ENV_NEW_REALPROG17\"] = \"set-\" + str(len(argv))\n    show(\"RPY_ENV_NEW_REALPROG17\")\n    print os.environ[\"RPY_ENV_NEW_REALPROG17\"]\n    del os.environ[\"RPY_ENV_NEW_REALPROG17\"]\n    show(\"RPY_ENV_NEW_REALPROG17\")\n    try:\n        del os.environ[\"RPY_ENV_NEW_REALPROG17\"]\n    except KeyError:\n        print \"KeyError on del\"\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let prog = p.to_str().unwrap();
    let tail = "KeyError on read\nRPY_ENV_NEW_REALPROG17 = set-1\nset-1\nRPY_ENV_NEW_REALPROG17 unset\nKeyError on del\n";
    let with_var = format!("RPY_ENV_PROBE_REALPROG17 = from-env\n{tail}");
    let run = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
        .args(["run", prog])
        .env("RPY_ENV_PROBE_REALPROG17", "from-env")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), with_var);
    let exe = p.with_extension("bin");
    let (code, _, stderr) = rpy(&["build", prog, "-o", exe.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let out = Command::new(&exe)
        .env("RPY_ENV_PROBE_REALPROG17", "from-env")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), with_var);
    let out = Command::new(&exe)
        .env_remove("RPY_ENV_PROBE_REALPROG17")
        .output()
        .unwrap();
    let without = format!("RPY_ENV_PROBE_REALPROG17 unset\n{tail}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), without);
}

/// A program calling C through `rpython.rlib.clibffi` (not modelled): `check` gives no
/// error, and `run` refuses it naming the clibffi names it uses, not the methods of the
/// program's own classes that the unmodelled objects might call back (agrif/lisplisp's
/// FFI layer has a `call` method, and calls `call` on a clibffi function pointer).
#[test]
fn run_refuses_clibffi_naming_what_it_uses() {
    let path = write_program(
        "clibffi_refused",
        r#"from rpython.rlib import clibffi
from rpython.rtyper.lltypesystem import rffi


class DoubleType(object):
    def push_arg(self, func, val):
        func.push_arg(val)

    def call(self, func):
        return func.call(rffi.DOUBLE)


def entry_point(argv):
    lib = clibffi.CDLL("libm.so.6")
    f = lib.getpointer("sqrt", [clibffi.ffi_type_double], clibffi.ffi_type_double)
    t = DoubleType()
    t.push_arg(f, float(len(argv)))
    print t.call(f)
    return 0


def target(*args):
    return entry_point, None
"#,
    );
    let p = path.to_str().unwrap();
    let (code, _, stderr) = rpy(&["check", p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 errors"), "{stderr}");
    let (code, _, stderr) = rpy(&["run", p]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains(
            "error[RPY301]: the program uses what rpy-lsp does not model (rpython.rlib.clibffi.CDLL, rpython.rlib.clibffi.ffi_type_double): it can be checked but not run"
        ),
        "{stderr}"
    );
}

/// C constants from `rffi_platform.configure`: `check` types them (an int, a string; no
/// error, no warning: the code using them is checked); `run` asks the C compiler for the
/// integer (compile-only) and refuses a program using the string, naming it.
#[test]
fn run_asks_the_c_compiler_for_rffi_platform_integers() {
    let program = |name: &str, use_line: &str| {
        write_program(
            name,
            &format!(
                r#"from rpython.rtyper.tool import rffi_platform
from rpython.translator.tool.cbuild import ExternalCompilationInfo


class CConfig:
    _compilation_info_ = ExternalCompilationInfo(includes=["errno.h", "stdio.h"])
    EINTR = rffi_platform.ConstantInteger("EINTR")
    P_tmpdir = rffi_platform.DefinedConstantString("P_tmpdir")


globals().update(rffi_platform.configure(CConfig))


def entry_point(argv):
    print {use_line}
    return 0


def target(*args):
    return entry_point, None
"#
            ),
        )
    };
    let ints = program("rffi_platform_int", "len(argv) * EINTR");
    let p = ints.to_str().unwrap();
    let (code, _, stderr) = rpy(&["check", p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 errors, 0 warnings"), "{stderr}");
    let (code, stdout, stderr) = rpy(&["run", p]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "4\n");
    let strs = program("rffi_platform_str", "P_tmpdir + argv[0]");
    let p = strs.to_str().unwrap();
    let (code, _, stderr) = rpy(&["check", p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 errors"), "{stderr}");
    let (code, _, stderr) = rpy(&["run", p]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains(
            "the C constant P_tmpdir (from rffi_platform) is a value rpy-lsp does not compute"
        ),
        "{stderr}"
    );
}

/// `--import-budget SECONDS` is the CPU time `check` gives import-time code: past it, a
/// warning naming the budget and the option (not an error: the limit is rpy-lsp's);
/// a budget that is not a positive number of seconds is a usage error.
#[test]
fn check_import_budget_option() {
    let prog = write_program(
        "import_budget",
        "N = 0\nfor i in xrange(100000000):\n    N += 1\n\n\ndef entry_point(argv):\n    return N\n\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let p = prog.to_str().unwrap();
    let started = std::time::Instant::now();
    let (code, stdout, _) = rpy(&["check", "--format", "concise", "--import-budget", "0.2", p]);
    assert_eq!(code, 0, "a warning only: {stdout}");
    assert!(
        stdout.contains("stopped after 0.2 seconds of CPU time")
            && stdout.contains("--import-budget SECONDS"),
        "{stdout}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    for bad in ["0", "-1", "soon"] {
        let (code, _, stderr) = rpy(&["check", "--import-budget", bad, p]);
        assert_eq!(code, 2, "{bad}: {stderr}");
    }
}

/// `run` and `build` take the same `--import-budget` (README): past it the import is
/// stopped, and what it left unknown cannot be translated (exit 1, well before the default
/// budget's 5 s would end it); a budget that is not a positive number is a usage error too.
#[test]
fn run_and_build_take_the_import_budget() {
    let prog = write_program(
        "import_budget_run",
        "N = 0\nfor i in xrange(100000000):\n    N += 1\n\n\ndef entry_point(argv):\n    return N\n\n\ndef target(*args):\n    return entry_point, None\n",
    );
    let p = prog.to_str().unwrap();
    let out = prog.with_extension("exe");
    let out = out.to_str().unwrap();
    for cmd in [
        &["run", "--import-budget", "0.2", p][..],
        &["build", "--import-budget", "0.2", p, "-o", out],
    ] {
        let started = std::time::Instant::now();
        let (code, _, stderr) = rpy(cmd);
        assert_eq!(code, 1, "{cmd:?}: {stderr}");
        // the refusal names the budget that ran out and the option, not a missing entry point
        assert!(
            stderr.contains(
                "ran out of rpy-lsp's import budget here (after 0.2 seconds of CPU time)"
            ),
            "{cmd:?}: {stderr}"
        );
        assert!(
            stderr.contains("the budget is `--import-budget 0.2`")
                && stderr.contains("raise it, e.g. `--import-budget 60`"),
            "{cmd:?}: {stderr}"
        );
        assert!(!stderr.contains("no entry point"), "{cmd:?}: {stderr}");
        // the default budget is 5 s of CPU time: stopping well before it shows the option
        // was taken
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_millis(4500),
            "{cmd:?}: {took:?}"
        );
    }
    // stopped after `target` is defined: the program is annotated, and the RTyper refuses
    // it with the same error (the loop's table is cut short)
    let late = write_program(
        "import_budget_run_late",
        "def entry_point(argv):\n    return len(T)\n\n\ndef target(*args):\n    return entry_point, None\n\n\nT = []\nfor i in xrange(100000000):\n    T.append(i)\n",
    );
    let (code, _, stderr) = rpy(&["run", "--import-budget", "0.2", late.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("ran out of rpy-lsp's import budget here")
            && stderr.contains("`--import-budget 0.2`"),
        "{stderr}"
    );
    for cmd in [
        &["run", "--import-budget", "0", p][..],
        &["build", "--import-budget", "soon", p],
    ] {
        let (code, _, stderr) = rpy(cmd);
        assert_eq!(code, 2, "{cmd:?}: {stderr}");
        assert!(stderr.contains("invalid value"), "{cmd:?}: {stderr}");
        assert!(
            stderr.contains("--import-budget <SECONDS>"),
            "{cmd:?}: {stderr}"
        );
    }
}
