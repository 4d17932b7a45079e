//! Issue #10: on any input the binary answers with a diagnostic or an error and an exit code,
//! in bounded time and memory, and reveals nothing of the machine. Each test runs the real
//! binary with a deadline.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: debug builds on a loaded machine. Each case is meant to take a second or two.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs the binary in `dir` with a deadline; (exit code, stdout, stderr).
fn rpy_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("rpy-lsp {args:?} did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&t_out.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&t_err.join().unwrap()).into_owned();
    (status.code().unwrap_or(-1), stdout, stderr)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpy-harden-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const TAIL: &str =
    "\ndef entry_point(argv):\n    return 0\n\ndef target(*args):\n    return entry_point, None\n";

/// Checks `text` as a target in its own directory; (code, json diagnostics, stderr).
fn check_text(name: &str, text: &str) -> (i32, Vec<serde_json::Value>, String) {
    let dir = scratch(name);
    std::fs::write(dir.join("t.py"), text).unwrap();
    let (code, stdout, stderr) = rpy_in(&dir, &["check", "t.py", "--format", "json"], &[]);
    let json: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{name}: {e}: {stdout} {stderr}"));
    let diags = json["diagnostics"].as_array().cloned().unwrap_or_default();
    (code, diags, stderr)
}

fn messages(diags: &[serde_json::Value]) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {}\n",
                d["code"].as_str().unwrap_or(""),
                d["line"],
                d["column"],
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

#[test]
fn huge_format_precision_is_an_error_not_a_panic() {
    for (i, expr) in [
        "'%.65536f' % 1.0",
        "'%.65536e' % 1.0",
        "'%.65536g' % 1.0",
        "'%.99999999999999999999999f' % 1.0",
        "'{:.65536}'.format(1.0)",
        "'{:.99999999999999999999999f}'.format(1.0)",
        "'%.*f' % (10**6, 1.0)",
    ]
    .iter()
    .enumerate()
    {
        let (code, diags, stderr) = check_text(&format!("fmt{i}"), &format!("x = {expr}\n{TAIL}"));
        let m = messages(&diags);
        assert_eq!(code, 1, "{expr}: {m} {stderr}");
        assert!(m.contains("RPY003:1:"), "{expr}: {m}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn int_with_a_bad_base_is_a_value_error() {
    for (i, base) in ["1", "37", "-1", "2**64"].iter().enumerate() {
        let (code, diags, stderr) = check_text(
            &format!("base{i}"),
            &format!("x = int('1', {base})\n{TAIL}"),
        );
        let m = messages(&diags);
        assert_eq!(code, 1, "{base}: {m} {stderr}");
        assert!(
            m.contains("ValueError: int() base must be >= 2 and <= 36"),
            "{base}: {m}"
        );
    }
    let (code, diags, _) = check_text("base_ok", &format!("x = int('z', 36)\n{TAIL}"));
    assert_eq!(code, 0, "{}", messages(&diags));
}

#[test]
fn targets_that_cannot_be_read_are_usage_errors() {
    let dir = scratch("unreadable");
    std::os::unix::fs::symlink("nowhere.py", dir.join("dangling.py")).unwrap();
    std::os::unix::fs::symlink("b.py", dir.join("a.py")).unwrap();
    std::os::unix::fs::symlink("a.py", dir.join("b.py")).unwrap();
    let fifo = dir.join("fifo.py");
    let made_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut cases = vec!["dangling.py", "a.py", "/dev/null", "/dev/zero"];
    if made_fifo {
        cases.push("fifo.py");
    }
    for case in cases {
        for cmd in ["check", "graph"] {
            let (code, stdout, stderr) = rpy_in(&dir, &[cmd, case], &[]);
            assert_eq!(code, 2, "{cmd} {case}: {stdout} {stderr}");
            assert!(stderr.starts_with("error: "), "{cmd} {case}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
}

#[test]
fn import_time_code_sees_nothing_of_the_machine() {
    let dir = scratch("secrets");
    let program = "import os, time\n\
        fd = os.open('/etc/passwd', os.O_RDONLY, 0)\n\
        "
    .to_string();
    std::fs::write(dir.join("passwd.py"), format!("{program}{TAIL}")).unwrap();
    std::fs::write(
        dir.join("environ.py"),
        format!(
            "import os, time\nraise ValueError(repr(os.environ) + os.getcwd() + str(os.getpid()) + repr(time.time()) + str(os.getenv('RPY_SECRET')) + str(os.listdir('/')))\n{TAIL}"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("allowed.py"),
        format!("import os\nfd = os.open('allowed.py', os.O_RDONLY, 0)\nx = os.read(fd, 6)\nassert x == 'import', x\n{TAIL}"),
    )
    .unwrap();
    let secret = [("RPY_SECRET", "hunter2-secret")];
    for format in ["json", "sarif", "human", "github"] {
        let (code, stdout, stderr) = rpy_in(
            &dir,
            &["check", "passwd.py", "environ.py", "--format", format],
            &secret,
        );
        assert_eq!(code, 1, "{stdout} {stderr}");
        let all = format!("{stdout}{stderr}");
        assert!(!all.contains("root:"), "{all}");
        assert!(!all.contains("hunter2"), "{all}");
        assert!(!all.contains("PATH"), "{all}");
        assert!(all.contains("Permission denied"), "{all}");
    }
    let (code, stdout, stderr) = rpy_in(&dir, &["check", "allowed.py"], &[]);
    assert_eq!(code, 0, "{stdout} {stderr}");

    // The workspace names the variables import-time code may see.
    let ws = scratch("secrets-ws");
    std::fs::write(
        ws.join("pyproject.toml"),
        "[tool.rpy-lsp]\nentry-points = [\"main.py\", \"../outside.py\"]\nenvironment = [\"RPY_VISIBLE\"]\n",
    )
    .unwrap();
    std::fs::write(
        ws.join("main.py"),
        format!("import os\nraise ValueError(repr(sorted(os.environ.items())))\n{TAIL}"),
    )
    .unwrap();
    let (code, stdout, stderr) = rpy_in(
        &ws,
        &["check", ".", "--format", "json"],
        &[("RPY_VISIBLE", "shown"), ("RPY_SECRET", "hunter2-secret")],
    );
    assert_eq!(code, 1, "{stdout} {stderr}");
    assert!(
        stdout.contains("RPY_VISIBLE") && stdout.contains("shown"),
        "{stdout}"
    );
    assert!(!stdout.contains("hunter2"), "{stdout}");
    assert!(
        stdout.contains("outside.py is not analysed: it is outside the workspace"),
        "{stdout}"
    );

    // Module files that are links out of the workspace are not read.
    let links = scratch("secrets-links");
    std::fs::write(
        links.join("main.py"),
        format!(
            "import env
{TAIL}"
        ),
    )
    .unwrap();
    std::os::unix::fs::symlink("/proc/self/environ", links.join("env.py")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", links.join("other.py")).unwrap();
    for format in ["json", "human"] {
        let (code, stdout, stderr) = rpy_in(&links, &["check", ".", "--format", format], &secret);
        assert_eq!(code, 1, "{stdout} {stderr}");
        assert!(stdout.contains("No module named env"), "{stdout}");
        assert!(
            !stdout.contains("hunter2") && !stdout.contains("root:"),
            "{stdout}"
        );
    }
}

#[test]
fn lone_cr_line_endings_give_real_lines() {
    let dir = scratch("lonecr");
    let text = "import os\rdef entry_point(argv):\r    return 0\rdef target(*args):\r    return entry_point, None\rx = 1 +\r";
    std::fs::write(dir.join("t.py"), text).unwrap();
    for args in [
        vec!["check", "t.py", "--format", "json"],
        vec!["check", ".", "--format", "json"],
    ] {
        let (code, stdout, stderr) = rpy_in(&dir, &args, &[]);
        assert_eq!(code, 1, "{stdout} {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let d = &json["diagnostics"][0];
        assert_eq!(
            (d["code"].as_str(), d["line"].as_u64()),
            (Some("RPY001"), Some(6)),
            "{stdout}"
        );
    }
    let (_, stdout, _) = rpy_in(&dir, &["check", "t.py"], &[]);
    assert!(stdout.contains("t.py:6:"), "{stdout}");
}

#[test]
fn latin1_target_is_the_same_checked_directly_or_in_a_directory() {
    let dir = scratch("latin1");
    let mut text = b"# caf\xe9\nx = 1 + ''\n".to_vec();
    text.extend_from_slice(TAIL.as_bytes());
    std::fs::write(dir.join("t.py"), &text).unwrap();
    let (c1, direct, e1) = rpy_in(&dir, &["check", "t.py", "--format", "json"], &[]);
    let (c2, walked, e2) = rpy_in(&dir, &["check", ".", "--format", "json"], &[]);
    assert_eq!(c1, 1, "{direct} {e1}");
    assert_eq!((c1, &direct), (c2, &walked), "{e2}");
}

#[test]
fn deep_nesting_is_a_diagnostic_at_its_line() {
    let mut nested_try = String::new();
    for i in 0..150 {
        nested_try.push_str(&format!("{}try:\n", " ".repeat(i)));
    }
    nested_try.push_str(&format!("{}pass\n", " ".repeat(150)));
    for i in (0..150).rev() {
        nested_try.push_str(&format!("{}except: pass\n", " ".repeat(i)));
    }
    let cases = [
        (
            "lambdas",
            format!("import os\nf = {}1\n", "lambda: ".repeat(8_600)),
            2,
            "expression too deeply nested",
        ),
        (
            "unary",
            format!("import os\nx = {}1\n", "-".repeat(20_000)),
            2,
            "expression too deeply nested",
        ),
        (
            "attrs",
            format!("import os\nx = os{}\n", ".path".repeat(20_000)),
            2,
            "expression too deeply nested",
        ),
        (
            "calls",
            format!("import os\nx = f{}\n", "()".repeat(20_000)),
            2,
            "expression too deeply nested",
        ),
        (
            "subscripts",
            format!("import os\nx = f{}\n", "[0]".repeat(20_000)),
            2,
            "expression too deeply nested",
        ),
        (
            "binops",
            format!("import os\nx = 1{}\n", "+1".repeat(20_000)),
            2,
            "expression too deeply nested",
        ),
        (
            "try",
            format!("import os\n{nested_try}"),
            103,
            "too many levels of indentation",
        ),
    ];
    for (name, text, line, message) in cases {
        let (code, diags, stderr) = check_text(name, &format!("{text}{TAIL}"));
        let m = messages(&diags);
        assert_eq!(code, 1, "{name}: {m} {stderr}");
        assert!(
            m.starts_with(&format!("RPY001:{line}:")) && m.contains(message),
            "{name}: {m}"
        );
    }
}

#[test]
fn deep_import_time_values_are_bounded() {
    let cases = [
        (
            "eq",
            "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\nx = a == b\n",
            "RuntimeError: maximum recursion depth exceeded",
        ),
        (
            "lt",
            "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\nx = a < b\n",
            "RuntimeError: maximum recursion depth exceeded",
        ),
        (
            "hash",
            "a = ()\nfor i in range(100000):\n    a = (a,)\nd = {a: 1}\n",
            "unhashable",
        ),
    ];
    for (name, text, message) in cases {
        let (code, diags, stderr) = check_text(name, &format!("{text}{TAIL}"));
        let m = messages(&diags);
        assert_eq!(code, 1, "{name}: {m} {stderr}");
        assert!(m.contains(message), "{name}: {m}");
    }
    let (code, diags, stderr) = check_text(
        "prebuilt",
        "a = []\nfor i in range(100000):\n    a = [a]\ndef entry_point(argv):\n    print a\n    return len(a)\ndef target(*args):\n    return entry_point, None\n",
    );
    let m = messages(&diags);
    assert_eq!(code, 1, "{m} {stderr}");
    assert!(
        m.contains("RPY217:5:") && m.contains("nested more than"),
        "{m}"
    );
}

#[test]
fn directory_walk_has_no_loops_reads_only_regular_files_and_respects_gitignore() {
    let dir = scratch("walk");
    std::fs::write(dir.join("main.py"), format!("x = 1\n{TAIL}")).unwrap();
    // Two links to `.`: a naive walk is exponential.
    std::os::unix::fs::symlink(".", dir.join("a")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("b")).unwrap();
    std::fs::create_dir_all(dir.join("ignored")).unwrap();
    std::fs::write(dir.join("ignored/bad.py"), "x = 1 +\n").unwrap();
    std::fs::write(dir.join(".gitignore"), "ignored/\n").unwrap();
    let fifo = Command::new("mkfifo")
        .arg(dir.join("x.py"))
        .status()
        .is_ok_and(|s| s.success());
    std::fs::write(
        dir.join("opener.py"),
        "import os\nfd = os.open('x.py', os.O_RDONLY, 0)\nfd = os.open('/dev/zero', os.O_RDONLY, 0)\n",
    )
    .unwrap();
    let (code, stdout, stderr) = rpy_in(&dir, &["check", ".", "--format", "json"], &[]);
    assert_eq!(code, 1, "{stdout} {stderr}");
    assert!(!stdout.contains("bad.py"), "{stdout}");
    assert!(
        !stdout.contains("/a/") && !stdout.contains("/b/"),
        "{stdout}"
    );
    if fifo {
        assert!(stdout.contains("not a regular file"), "{stdout}");
    }

    // The same target named 5,000 times is analysed once.
    let ws = scratch("dup-targets");
    std::fs::write(ws.join("main.py"), format!("x = 1 + ''\n{TAIL}")).unwrap();
    let names = vec!["\"main.py\""; 5_000].join(", ");
    std::fs::write(
        ws.join("pyproject.toml"),
        format!("[tool.rpy-lsp]\nentry-points = [{names}]\n"),
    )
    .unwrap();
    let start = Instant::now();
    let (code, stdout, stderr) = rpy_in(&ws, &["check", ".", "--format", "json"], &[]);
    assert_eq!(code, 1, "{stdout} {stderr}");
    assert_eq!(stdout.matches("RPY003").count(), 1, "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn import_time_memory_and_work_are_bounded() {
    let cases = [
        (
            "grow_str",
            "s = ''\nwhile 1:\n    s += 'a'\n",
            "import-time evaluation stopped",
            0,
        ),
        (
            "grow_list",
            "l = []\nwhile 1:\n    l.append('abcdefgh' * 20)\n",
            "import-time evaluation stopped",
            0,
        ),
        (
            "fromkeys",
            "d = dict.fromkeys(range(2*10**7))\n",
            "import-time evaluation stopped",
            0,
        ),
        (
            "expandtabs",
            "x = 'a\\t' * 10**6\ny = x.expandtabs(1000)\n",
            "MemoryError",
            1,
        ),
        (
            "replace",
            "x = 'a' * 10**6\ny = x.replace('a', 'b' * 1000)\n",
            "MemoryError",
            1,
        ),
        (
            "join",
            "x = ('b' * 1000).join(['a'] * 10**6)\n",
            "MemoryError",
            1,
        ),
        (
            "write",
            "import os\nwhile 1:\n    os.write(1, 'x' * 100000)\n",
            "import-time evaluation stopped",
            0,
        ),
    ];
    // Running past a budget is rpy-lsp's limit, not the program's error (the reference
    // has no such limit): a warning. A MemoryError the program raises is its error.
    for (name, text, message, want) in cases {
        let start = Instant::now();
        let (code, diags, stderr) = check_text(name, &format!("{text}{TAIL}"));
        let m = messages(&diags);
        assert_eq!(code, want, "{name}: {m} {stderr}");
        assert!(m.contains(message), "{name}: {m}");
        assert!(start.elapsed() < Duration::from_secs(45), "{name}");
    }
    // 10,000 chained classes: linear MRO computation.
    let mut chain = String::from("class C0(object): pass\n");
    for i in 1..10_000 {
        chain.push_str(&format!("class C{i}(C{}): pass\n", i - 1));
    }
    let start = Instant::now();
    let (code, diags, _) = check_text("mro", &format!("{chain}{TAIL}"));
    assert_eq!(code, 0, "{}", messages(&diags));
    assert!(start.elapsed() < Duration::from_secs(30));
}

/// A fixed-seed mutation loop over the fixture programs, bounded in time: no mutant makes the
/// pipeline panic (the engine turns a panic into an "analysis was aborted" diagnostic), hang
/// or overflow the stack.
#[test]
fn mutated_fixture_programs_never_break_the_pipeline() {
    let handle = std::thread::Builder::new()
        .stack_size(rpy_lsp::engine::ANALYSIS_STACK_BYTES)
        .spawn(mutation_loop)
        .unwrap();
    handle.join().unwrap();
}

fn mutation_loop() {
    use rpy_lsp::engine::{analyze, EngineConfig};
    use rpy_lsp::fasthash::HashMap;
    let budget = Duration::from_secs(
        std::env::var("RPY_MUTATION_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(4),
    );
    let mut programs: Vec<(PathBuf, String)> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs"))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
            .collect();
    programs.sort();
    assert!(!programs.is_empty());
    const SNIPPETS: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        "lambda: ",
        "-",
        "not ",
        "\r",
        "\t",
        "\n    ",
        "\n",
        "é",
        "\u{1F600}",
        "'%.99999f' % 1.0",
        "int('1', 99)",
        "`x`",
        "\\",
        "\"\"\"",
        "**",
        ".x",
        "()",
        "[0]",
        "if 1:\n",
        "yield ",
        "0777L",
        "print >>f, ",
        "exec ",
        "@",
        ":",
        "global x\n",
        "class C(C): pass\n",
        "x = [x]\n",
        "while 1: pass\n",
        "import os\n",
        "from . import x\n",
        "def target(*args):\n    return entry_point, None\n",
        "raise ",
        "u'\\N{",
        "%",
        "{",
        "}",
        "0x",
        "1e999",
        "'%s' % ",
        "*args",
        "**kw",
        "return",
        "del ",
        "try:\n",
        "except:\n",
    ];
    let mut seed: u64 = std::env::var("RPY_MUTATION_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    let mut rand = move |n: usize| -> usize {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let boundary = |t: &str, mut i: usize| {
        i = i.min(t.len());
        while !t.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let root = PathBuf::from("/nonexistent/rpy-lsp-mutations");
    let main = root.join("main.py");
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed() < budget {
        let (_, original) = &programs[rand(programs.len())];
        let mut text = original.clone();
        for _ in 0..1 + rand(3) {
            let a = boundary(&text, rand(text.len() + 1));
            let b = boundary(&text, a + rand(40));
            match rand(3) {
                0 => text.replace_range(a..b, ""),
                1 => {
                    let piece = text[a..b].to_string();
                    text.insert_str(a, &piece);
                }
                _ => text.insert_str(a, SNIPPETS[rand(SNIPPETS.len())]),
            }
        }
        let config = EngineConfig {
            root: root.clone(),
            entry_points: vec![main.clone()],
            ..Default::default()
        };
        let overlays = HashMap::from_iter([(main.clone(), text.clone())]);
        let one = Instant::now();
        let analysis = analyze(&config, &overlays);
        runs += 1;
        for d in &analysis.diagnostics {
            assert!(
                !d.message.contains("analysis of this file was aborted"),
                "{}\n--- mutant ---\n{text}",
                d.message
            );
        }
        assert!(
            one.elapsed() < Duration::from_secs(30),
            "slow mutant:\n{text}"
        );
    }
    assert!(runs > 0);
}

#[test]
fn endless_import_time_loops_stop_within_seconds() {
    let start = Instant::now();
    let (code, diags, _) = check_text(
        "endless",
        "def entry_point(argv):\n    return 0\ndef target(*args):\n    while 1: pass\n    return entry_point, None\n",
    );
    let m = messages(&diags);
    // rpy-lsp's budget, not the program's error (the reference would never finish): a
    // warning
    assert_eq!(code, 0, "{m}");
    assert!(
        m.contains("RPY004:4:") && m.contains("stopped after"),
        "{m}"
    );
    // the budget is 5 s of CPU time; wall-clock time only guards against a hang (a shared
    // machine may give the check a fraction of a core)
    assert!(start.elapsed() < Duration::from_secs(120));
}

/// Built-ins and operators with extreme arguments: an exception or a diagnostic, never a
/// panic (which the engine reports as an aborted analysis).
#[test]
fn extreme_arguments_never_panic() {
    std::thread::Builder::new()
        .stack_size(rpy_lsp::engine::ANALYSIS_STACK_BYTES)
        .spawn(extreme_arguments)
        .unwrap()
        .join()
        .unwrap();
}

fn extreme_arguments() {
    use rpy_lsp::engine::{analyze, EngineConfig};
    use rpy_lsp::fasthash::HashMap;
    const EXPRS: &[&str] = &[
        "'a' * -1",
        "range(10**30)",
        "[0] * 10**10",
        "1 << 10**9",
        "10 ** 10**9",
        "divmod(1,0)",
        "int('9'*100)",
        "chr(-1)",
        "unichr(0x110000)",
        "'x'.center(10**12)",
        "'%c' % 10**9",
        "round(1e308, -400)",
        "float('nan') // 0",
        "'x'.ljust(2**63)",
        "'abc'[10**20]",
        "'abc'[-10**20:10**20]",
        "[1,2][::0]",
        "'abc'[::-(2**63)]",
        "[1,2,3][::-(2**63)]",
        "(1,2,3)[::-(2**63)]",
        "xrange(0, 10, 0)",
        "'%*d' % (-2**63, 1)",
        "'%.*d' % (2**62, 1)",
        "'{:>99999999999999999999}'.format(1)",
        "'{0[999999999999999999999]}'.format([])",
        "'{:,.2f}'.format(1e308)",
        "'%x' % -2**200",
        "hash(float('inf'))",
        "int(float('inf'))",
        "long(float('nan'))",
        "2**64 % 0",
        "(-1) ** 0.5",
        "0.0 ** -1",
        "pow(2, 10**6, 0)",
        "pow(2, -1, 5)",
        "abs(-2**127)",
        "-(-2**127)",
        "(-2**127) // -1",
        "(-2**127) * 2",
        "sum([2**126]*4)",
        "str(2**127 * 2**127)",
        "'%d' % 2**200",
        "bin(-2**127)",
        "oct(2**127)",
        "'a'.zfill(10**12)",
        "u'a' * 10**12",
        "u'%c' % 0x110000",
        "unichr(-5)",
        "'a'.split('')",
        "sorted([1, 'a', None, 1.0, [], {}])",
        "max([])",
        "[].pop()",
        "'abc'.index('z')",
        "int('1'*5000)",
        "float('1e99999')",
        "1e308 * 10",
        "int(1e300)",
        "'%.3f' % 1e300",
        "'%g' % 1e-320",
        "round(2.5, 10**9)",
        "'abc'.expandtabs(-1)",
        "'a\\tb'.expandtabs(2**62)",
        "'x'.replace('', 'y', 2**62)",
        "'{:c}'.format(-1)",
        "'{:c}'.format(2**40)",
        "divmod(-2**127, -1)",
        "(-2**127) % -1",
        "~(2**127)",
        "-2**127 >> 200",
        "1 << -1",
        "1 << 200",
        "'%.65536s' % 'a'",
        "'{:.99999999999}'.format(1.5)",
        "'%0*d' % (2**40, 1)",
        "[0][2**63:]",
        "[0][-2**63:]",
        "'a'.rjust(-5)",
        "'ab'.count('', 2**62)",
        "'ab'.find('b', -2**63, 2**63-1)",
        "'ab'[2**63-1:]",
        "list(xrange(-2**63, -2**63+2))",
        "range(0, 2**63, 2**62)",
        "[1] * (2**63 - 1)",
        "'a' * 2**63",
        "bytearray(10**12)",
        "'%s' % ((1,) * 3)",
        "int('1', 0)",
        "int('0x', 16)",
        "int(' ', 10)",
    ];
    let root = PathBuf::from("/nonexistent/rpy-lsp-extremes");
    let main = root.join("main.py");
    let mut raised = 0;
    for expr in EXPRS {
        let text = format!("x = {expr}\n{TAIL}");
        let config = EngineConfig {
            root: root.clone(),
            entry_points: vec![main.clone()],
            ..Default::default()
        };
        let overlays = HashMap::from_iter([(main.clone(), text)]);
        let analysis = analyze(&config, &overlays);
        raised += usize::from(analysis.diagnostics.iter().any(|d| d.code == "RPY003"));
        for d in &analysis.diagnostics {
            assert!(
                !d.message.contains("analysis of this file was aborted"),
                "{expr}: {}",
                d.message
            );
        }
    }
    // The expressions did run: most raise.
    assert!(raised > EXPRS.len() / 2, "{raised} of {}", EXPRS.len());
}

#[test]
fn long_class_chains_with_two_bases_are_fast_and_c3_is_kept() {
    let mut text = String::from("class M(object): pass\nclass C0(object): pass\n");
    for i in 1..1_500 {
        text.push_str(&format!("class C{i}(C{}, M): pass\n", i - 1));
    }
    text.push_str(
        "assert C1499.__mro__[-2] is M\n\
         class O(object): pass\nclass F(O): pass\nclass E(O): pass\nclass DD(O): pass\n\
         class CC(DD, F): pass\nclass BB(DD, E): pass\nclass AA(BB, CC): pass\n\
         assert [k.__name__ for k in AA.__mro__] == ['AA', 'BB', 'CC', 'DD', 'E', 'F', 'O', 'object']\n",
    );
    let start = Instant::now();
    let (code, diags, _) = check_text("mro2", &format!("{text}{TAIL}"));
    assert_eq!(code, 0, "{}", messages(&diags));
    assert!(start.elapsed() < Duration::from_secs(30));
}

#[test]
fn one_long_line_is_linear() {
    // 6,000 `or`s of parenthesised `and`s on one line (with a non-ASCII comment): flat, not
    // deep; its thousands of blocks are rendered without quadratic lookups.
    let expr: Vec<String> = (0..6_000).map(|i| format!("(x and {i})")).collect();
    let text = format!(
        "# -*- coding: utf-8 -*-\ndef f(x):\n    return {}  # caf\u{e9}\n\ndef entry_point(argv):\n    return f(len(argv))\n\ndef target(*args):\n    return entry_point, None\n",
        expr.join(" or ")
    );
    let dir = scratch("longline");
    std::fs::write(dir.join("t.py"), text).unwrap();
    let start = Instant::now();
    let (code, stdout, stderr) = rpy_in(&dir, &["graph", "t.py", "--function", "f"], &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("graph f(x_0)"), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(30));
}
