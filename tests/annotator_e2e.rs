//! End-to-end tests of the annotator: small programs are imported with the concrete object
//! space, `entry_point` is annotated with `[list of str]`, and the tests check the annotation
//! of results and the diagnostics (code and line).

use rpy_lsp::annotator::{annotate_standalone, AnnotatedProgram, SomeValue};
use rpy_lsp::engine::program::Program;
use rpy_lsp::objspace::LoaderConfig;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Run {
    program: Program,
    ann: Option<AnnotatedProgram>,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

fn run(src: &str) -> Run {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("rpy_ann_e2e_{}_{}", std::process::id(), n));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("prog.py");
    let full = format!(
        "{}\n\ndef target(*args):\n    return entry_point, None\n",
        src
    );
    std::fs::write(&path, full).unwrap();
    let mut program = Program::load(&path, LoaderConfig::default());
    let ann = program
        .entry
        .map(|e| annotate_standalone(&mut program.space, e));
    Run { program, ann }
}

impl Run {
    fn ann(&self) -> &AnnotatedProgram {
        self.ann.as_ref().expect("entry point found")
    }

    /// (line, code, message) of every error and warning, import time included.
    fn diags(&self) -> Vec<(u32, &'static str, String)> {
        let sources = &self.program.space.sources;
        let mut all = self.program.all_diagnostics();
        if let Some(a) = &self.ann {
            all.extend(a.diagnostics.iter().cloned());
        }
        all.iter()
            .map(|d| {
                let line = if (d.span.file.0 as usize) < sources.len() {
                    sources.get(d.span.file).line_col(d.span.start).line + 1
                } else {
                    0
                };
                (line, d.code, d.message.clone())
            })
            .collect()
    }

    fn errors(&self) -> Vec<(u32, &'static str)> {
        let mut all = self.program.all_diagnostics();
        if let Some(a) = &self.ann {
            all.extend(a.diagnostics.iter().cloned());
        }
        let sources = &self.program.space.sources;
        all.iter()
            .filter(|d| d.is_error())
            .map(|d| {
                (
                    sources.get(d.span.file).line_col(d.span.start).line + 1,
                    d.code,
                )
            })
            .collect()
    }

    fn assert_clean(&self) {
        let e = self.errors();
        assert!(e.is_empty(), "unexpected errors: {:?}", self.diags());
    }

    fn assert_error(&self, line: u32, code: &str) {
        assert!(
            self.errors().iter().any(|(l, c)| *l == line && *c == code),
            "expected {} at line {}, got {:?}",
            code,
            line,
            self.diags()
        );
    }

    /// The annotation of the return value of the function `name`, described.
    fn returns(&self, name: &str) -> String {
        let ann = self.ann();
        let heap = &self.program.space.heap;
        for (i, g) in ann.graphs.iter().enumerate() {
            if &*g.name == name {
                let s = ann
                    .return_annotation(i)
                    .cloned()
                    .unwrap_or(SomeValue::Impossible);
                return ann.describe(heap, &s);
            }
        }
        panic!("no graph named {}", name)
    }

    fn returns_form(&self, name: &str) -> String {
        let ann = self.ann();
        let heap = &self.program.space.heap;
        for (i, g) in ann.graphs.iter().enumerate() {
            if &*g.name == name {
                let s = ann
                    .return_annotation(i)
                    .cloned()
                    .unwrap_or(SomeValue::Impossible);
                return ann.annotator_form(heap, &s);
            }
        }
        panic!("no graph named {}", name)
    }
}

#[test]
fn debug_implicit_none() {
    let r = run("def sign(n):\n    if n > 0:\n        return 1\n    elif n < 0:\n        return -1\n    else:\n        print \"zero\"\n\ndef entry_point(argv):\n    return sign(len(argv) - 2)");
    println!("{:?}", r.diags());
    r.assert_error(7, "RPY201");
}

/// Whole-program annotation of a generated program of about 10,000 lines stays fast (the
/// budget is 200 ms in release builds; debug builds get more slack).
#[test]
fn annotates_ten_thousand_lines_quickly() {
    let n = 360;
    let mut src = String::from("from rpython.rlib.rarithmetic import intmask\n");
    for i in 0..n {
        let prev = if i > 0 { i - 1 } else { 0 };
        src.push_str(&format!(
            r#"
class Node{i}(object):
    def __init__(self, value, name):
        self.value = value
        self.name = name
        self.children = []

    def add(self, child):
        self.children.append(child)
        return len(self.children)


def work{i}(argv, n):
    total = 0
    names = {{}}
    node = Node{i}(n, "node{i}")
    for j in range(n):
        if j % 3 == 0:
            total += j * 2
        elif j % 3 == 1:
            total -= len(argv)
        else:
            s = "%d:%s" % (j, node.name)
            names[s] = j
    for k, v in names.items():
        total += v + len(k)
    node.add(Node{i}(total, "child"))
    if total > 100:
        return intmask(total * {m})
    if n > 0 and {i} > 0:
        return total + work{prev}(argv, n - 1)
    return total
"#,
            i = i,
            m = i + 1,
            prev = prev
        ));
    }
    src.push_str("\ndef entry_point(argv):\n    t = 0\n");
    for i in 0..n {
        src.push_str(&format!("    t += work{}(argv, len(argv))\n", i));
    }
    src.push_str("    print t\n    return 0\n");
    assert!(
        src.lines().count() >= 10_000,
        "{} lines",
        src.lines().count()
    );
    let dir = std::env::temp_dir().join(format!("rpy_ann_perf_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.py");
    std::fs::write(
        &path,
        format!(
            "{}\n\ndef target(*args):\n    return entry_point, None\n",
            src
        ),
    )
    .unwrap();
    let mut program = Program::load(&path, LoaderConfig::default());
    let entry = program.entry.expect("entry point");
    let start = std::time::Instant::now();
    let ann = annotate_standalone(&mut program.space, entry);
    let elapsed = start.elapsed();
    assert!(
        !ann.has_errors(),
        "{:?}",
        ann.diagnostics
            .iter()
            .map(|d| &d.message)
            .take(3)
            .collect::<Vec<_>>()
    );
    assert!(ann.graphs.len() > 3 * n, "{} graphs", ann.graphs.len());
    let budget = if cfg!(debug_assertions) { 3000 } else { 200 };
    if std::env::var("RPY_PERF_NOASSERT").is_err() {
        assert!(
            elapsed.as_millis() < budget,
            "annotation took {:?}",
            elapsed
        );
    }
    eprintln!(
        "annotated {} lines, {} graphs in {:?}",
        src.lines().count(),
        ann.graphs.len(),
        elapsed
    );
}
