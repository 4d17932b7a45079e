//! End-to-end tests of `rpy-lsp check`'s configuration (pyproject.toml found by walking up,
//! rule selection, suppressions) and CI output formats.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn rpy_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.unwrap_or("").as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh project directory with the given files (`path`, text).
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpy-cfg-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir.canonicalize().unwrap()
}

/// A target whose helper module (found through `search-paths = ["lib"]`) has a type error.
const TARGET: &str = "import helper\n\ndef entry_point(argv):\n    return helper.f(len(argv))\n\ndef target(*args):\n    return entry_point, None\n";
const HELPER: &str =
    "def f(n):\n    x = 1\n    if n > 1:\n        x = 'a'\n    print x\n    return 0\n";
const BROKEN: &str = "COUNTER = 0\n\ndef bump():\n    global COUNTER\n    COUNTER = COUNTER + 1\n\ndef every_other(items):\n    return items[::2]\n\ndef entry_point(argv):\n    bump()\n    return len(every_other(argv))\n\ndef target(*args):\n    return entry_point, None\n";

fn codes(json: &str) -> Vec<(String, String, u64)> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn pyproject_is_found_from_a_file_and_a_subdirectory() {
    let dir = project(
        "walk",
        &[
            (
                "pyproject.toml",
                "[project]\nname = 'x'\n\n[tool.rpy-lsp]\nentry-points = [\"src/target.py\"]\nsearch-paths = [\"lib\"]\n",
            ),
            ("src/target.py", TARGET),
            ("lib/helper.py", HELPER),
        ],
    );
    let expected = vec![("RPY201".to_string(), "lib/helper.py".to_string(), 4)];
    let (code, out, err) = rpy_in(&dir, &["check", "--format", "json"], None);
    assert_eq!((code, codes(&out)), (1, expected.clone()), "{err}");
    // the file alone: the project's search paths still apply; paths relative to the root
    let (code, out, err) = rpy_in(&dir, &["check", "src/target.py", "--format", "json"], None);
    assert_eq!((code, codes(&out)), (1, expected.clone()), "{err}");
    // from a subdirectory, with no path
    let (code, out, err) = rpy_in(&dir.join("lib"), &["check", "--format", "json"], None);
    assert_eq!((code, codes(&out)), (1, expected.clone()), "{err}");
    let (code, out, _) = rpy_in(&dir.join("src"), &["check", "--show-settings"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("search-paths = [") && out.contains("/lib\""),
        "{out}"
    );
    assert!(
        out.contains(&format!("root = {:?}", dir.display().to_string())),
        "{out}"
    );
}

#[test]
fn malformed_or_unknown_configuration_is_exit_2_with_the_file_and_line() {
    for (name, toml, what) in [
        ("bad", "[tool.rpy-lsp\nselect = 1\n", "line 1"),
        (
            "unknown",
            "[tool.rpy-lsp]\nselect = [\"RPY2\"]\nfrobnicate = 1\n",
            "line 3",
        ),
        ("type", "[tool.rpy-lsp]\nentry-points = 3\n", "line 2"),
        ("rule", "[tool.rpy-lsp]\nselect = [\"NOPE9\"]\n", "NOPE9"),
    ] {
        let dir = project(name, &[("pyproject.toml", toml), ("sub/t.py", BROKEN)]);
        let (code, out, err) = rpy_in(&dir.join("sub"), &["check", "t.py"], None);
        assert_eq!((code, out.as_str()), (2, ""), "{name}: {err}");
        assert!(
            err.contains("pyproject.toml") && err.contains(what),
            "{name}: {err}"
        );
    }
    let dir = project("cli-rule", &[("t.py", BROKEN)]);
    let (code, _, err) = rpy_in(&dir, &["check", "--select", "RPY9999"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("RPY9999"), "{err}");
}

#[test]
fn select_ignore_per_file_ignores_exit_zero_and_statistics() {
    let dir = project("select", &[("t.py", BROKEN), ("tests/t2.py", BROKEN)]);
    let all = |args: &[&str]| {
        let mut a = vec!["check", "--format", "json"];
        a.extend_from_slice(args);
        let (code, out, err) = rpy_in(&dir, &a, None);
        let mut got: Vec<String> = codes(&out)
            .into_iter()
            .map(|c| format!("{}:{}", c.1, c.0))
            .collect();
        got.sort();
        (code, got, err)
    };
    let (code, got, _) = all(&[]);
    assert_eq!(code, 1);
    assert_eq!(
        got,
        [
            "t.py:RPY102",
            "t.py:RPY107",
            "tests/t2.py:RPY102",
            "tests/t2.py:RPY107"
        ]
    );
    let (_, got, _) = all(&["--select", "RPY107"]);
    assert_eq!(got, ["t.py:RPY107", "tests/t2.py:RPY107"]);
    let (_, got, _) = all(&["--select", "RPY1", "--ignore", "global-rebinding"]);
    assert_eq!(got, ["t.py:RPY107", "tests/t2.py:RPY107"]);
    let (code, got, _) = all(&["--ignore", "RPY102,RPY107"]);
    assert_eq!((code, got.len()), (0, 0));
    std::fs::write(
        dir.join("pyproject.toml"),
        "[tool.rpy-lsp]\nignore = [\"RPY102\"]\n[tool.rpy-lsp.per-file-ignores]\n\"tests/**\" = [\"extended-slice\"]\n",
    )
    .unwrap();
    let (code, got, err) = all(&[]);
    assert_eq!((code, got), (1, vec!["t.py:RPY107".to_string()]), "{err}");
    let (code, _, _) = all(&["--exit-zero"]);
    assert_eq!(code, 0);
    let (code, out, _) = rpy_in(&dir, &["check", "--statistics", "--ignore", "RPY0"], None);
    assert_eq!(code, 1);
    assert_eq!(out.trim(), "1  RPY107  extended-slice");
}

#[test]
fn suppressions_tolerate_spacing_take_names_and_warn_when_unused() {
    let src = "import no_such_module  #rpy:ignore[ not-modelled ]\nimport os  # rpy: ignore[RPY007]\nimport nothing_here  # rpy :ignore[RPY007, RPY201]\n\ndef entry_point(argv):\n    return 0\n\ndef target(*args):\n    return entry_point, None\n";
    let dir = project("suppress", &[("t.py", src)]);
    let (code, out, err) = rpy_in(&dir, &["check", "t.py", "--format", "concise"], None);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("t.py:2:") && lines[0].contains(" RPY008 unused suppression"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("t.py:3:") && lines[1].contains("`RPY201`"),
        "{out}"
    );
    let (_, out, _) = rpy_in(repo(), &["explain", "unused-suppression"], None);
    assert!(out.is_empty() || out.contains("RPY008"));
    let (code, out, _) = rpy_in(repo(), &["explain", "RPY008"], None);
    assert_eq!(code, 0);
    assert!(out.contains("Rejected:"), "{out}");
}

#[test]
fn several_paths_give_one_json_document_and_one_sarif_log() {
    let dir = project("multi", &[("a/t.py", BROKEN), ("b c/t.py", BROKEN)]);
    let (code, out, _) = rpy_in(
        &dir,
        &["check", "a/t.py", "b c/t.py", "--format", "json"],
        None,
    );
    assert_eq!(code, 1);
    let got = codes(&out);
    assert_eq!(got.len(), 4);
    assert_eq!(got[0].1, "a/t.py");
    assert_eq!(got[3].1, "b c/t.py");
    let (_, out, _) = rpy_in(
        &dir,
        &["check", "a/t.py", "b c/t.py", "--format", "sarif"],
        None,
    );
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(sarif["runs"].as_array().unwrap().len(), 1);
    assert_eq!(run["results"].as_array().unwrap().len(), 4);
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    let loc = &run["results"][3]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], "b%20c/t.py");
    assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let r107 = rules.iter().find(|r| r["id"] == "RPY107").unwrap();
    assert_eq!(r107["name"], "extended-slice");
    assert!(r107["help"]["text"].as_str().unwrap().contains("Rejected:"));
    let index = run["results"][0]["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], run["results"][0]["ruleId"]);
}

#[test]
fn github_annotations_are_escaped_and_concise_lines() {
    let dir = project("gh", &[("a,b:c%/t.py", BROKEN)]);
    let (code, out, _) = rpy_in(&dir, &["check", "--format", "github"], None);
    assert_eq!(code, 1);
    for line in out.lines() {
        // `::error file=…,line=…::message`: properties split on `,` and `=` parse back
        let rest = line.strip_prefix("::error ").unwrap();
        let (props, message) = rest.split_once("::").unwrap();
        assert!(!message.contains('\n'));
        let props: Vec<(&str, &str)> = props
            .split(',')
            .map(|p| p.split_once('=').unwrap())
            .collect();
        assert_eq!(props[0], ("file", "a%2Cb%3Ac%25/t.py"), "{line}");
        assert_eq!(props[1].0, "line");
        assert!(
            props
                .iter()
                .any(|p| p.0 == "title" && p.1.starts_with("RPY1")),
            "{line}"
        );
    }
    let (_, out, _) = rpy_in(&dir, &["check", "--format", "concise"], None);
    assert_eq!(
        out.lines()
            .map(|l| l.split(": ").next().unwrap())
            .collect::<Vec<_>>(),
        ["a,b:c%/t.py:5:5", "a,b:c%/t.py:8:18"],
        "{out}"
    );
    assert!(out.lines().next().unwrap().contains(": RPY102 "), "{out}");
}

#[test]
fn stdin_color_and_no_target() {
    let (code, out, _) = rpy_in(repo(), &["check", "-", "--format", "concise"], Some(BROKEN));
    assert_eq!(code, 1);
    assert!(out.starts_with("<stdin>:5:5: RPY102 "), "{out}");
    let (_, out, _) = rpy_in(
        repo(),
        &["check", "examples/broken.py", "--color", "always"],
        None,
    );
    assert!(out.contains("\u{1b}["), "{out}");
    let (_, out, _) = rpy_in(
        repo(),
        &["check", "examples/broken.py", "--color", "never"],
        None,
    );
    assert!(
        !out.contains("\u{1b}[") && out.contains("examples/broken.py:7"),
        "{out}"
    );
    let py3 = project(
        "py3",
        &[
            ("app/main.py", "def main() -> None:\n    print(f'{1}')\n"),
            ("pyproject.toml", "[project]\nname = 'app'\n"),
        ],
    );
    let (code, out, err) = rpy_in(&py3, &["check"], None);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no RPython target"), "{err}");
}

#[test]
fn readme_installs_with_cargo_install_and_documents_every_check_option() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(readme.contains("cargo install --path . --locked"));
    assert!(readme.contains("rpy-lsp check examples/broken.py") && !readme.contains("cargo run"));
    let (_, help, _) = rpy_in(repo(), &["check", "--help"], None);
    for line in help.lines() {
        let line = line.trim_start();
        if let Some(opt) = line.strip_prefix("--") {
            let name = opt.split([' ', '<']).next().unwrap();
            if name != "help" {
                assert!(
                    readme.contains(&format!("`--{name}")),
                    "--{name} is not in the README"
                );
            }
        }
    }
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    assert!(cargo.contains("rust-version = "));
    let release: Vec<&str> = cargo
        .split("[profile.release]")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(release.contains(&"debug = false") && !release.contains(&"debug = 1"));
}
