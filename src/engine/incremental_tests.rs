//! The language server's invariant: a sequence of edits analysed one after the other on one
//! thread, with what that thread keeps from one analysis to the next (compiled modules by
//! content, `compiler::cache`; flow graphs, `engine::flowcache`), gives after each edit
//! exactly the diagnostics of a fresh analysis of the same texts on a thread that keeps
//! nothing.
//!
//! The edits are the kinds an editor session makes: change a module-level constant a
//! function's graph folded, rename a function (breaking its caller) and rename it back, add
//! a class, break a type and fix it, edit an imported module, type a syntax error and
//! finish the line.

use super::{analyze, EngineConfig};
use crate::diagnostics::Diagnostic;
use std::collections::HashMap;
use std::path::PathBuf;

const MAIN: &str = "\
import helper

SCALE = 3


def scaled(n):
    return n * SCALE


def entry_point(argv):
    node = helper.Node(len(argv))
    total = scaled(node.value) + node.get()
    if len(argv) > 2:
        total += helper.double(helper.LIMIT)
    return total


def target(*args):
    return entry_point, None
";

const HELPER: &str = "\
LIMIT = 10


def double(n):
    return n * 2


class Node(object):
    def __init__(self, value):
        self.value = value

    def get(self):
        return double(self.value)
";

/// A diagnostic with its file named by path (file ids are per analysis).
type Seen = (
    String,
    &'static str,
    String,
    u32,
    u32,
    Vec<(String, u32, String)>,
);

fn seen(a: &super::Analysis, d: &Diagnostic) -> Seen {
    let path = |f| a.sources.get(f).path.display().to_string();
    (
        path(d.span.file),
        d.code,
        d.message.clone(),
        d.span.start,
        d.span.end,
        d.labels
            .iter()
            .map(|l| (path(l.span.file), l.span.start, l.message.clone()))
            .collect(),
    )
}

/// Each step: the file edited (`main` or `helper`), the text replaced and its replacement,
/// whether the program has errors after it, and whether flow graphs of the previous analysis
/// are reused (only an edit inside function bodies leaves the import-time heap as it was).
const EDITS: &[(&str, &str, &str, bool, bool)] = &[
    // A constant the flow graph of `scaled` folds.
    ("main", "SCALE = 3", "SCALE = 4", false, false),
    // The constant becomes a string: `n * SCALE` is now int * str.
    ("main", "SCALE = 4", "SCALE = 'x'", true, false),
    ("main", "SCALE = 'x'", "SCALE = 5", false, false),
    // Rename a function: its caller reads a missing global.
    ("main", "def scaled(n):", "def scale_by(n):", true, false),
    ("main", "def scale_by(n):", "def scaled(n):", false, false),
    // A new class, used.
    (
        "main",
        "def entry_point(argv):\n",
        "class Extra(object):\n    def size(self):\n        return 2\n\n\ndef entry_point(argv):\n    extra = Extra().size()\n",
        false,
        false,
    ),
    // Break a type in a local variable, then fix it.
    (
        "main",
        "    return total\n",
        "    if total > 3:\n        total = 'many'\n    return total\n",
        true,
        true,
    ),
    (
        "main",
        "        total = 'many'\n",
        "        total = 0\n",
        false,
        true,
    ),
    // An imported module: its constant, a method the program calls, then back.
    ("helper", "LIMIT = 10", "LIMIT = 'ten'", true, false),
    ("helper", "LIMIT = 'ten'", "LIMIT = 11", false, false),
    (
        "helper",
        "        return double(self.value)",
        "        return double(self.missing)",
        true,
        true,
    ),
    (
        "helper",
        "        return double(self.missing)",
        "        return double(self.value)",
        false,
        true,
    ),
    // A line being typed (a syntax error in the buffer), then finished.
    ("main", "    extra = Extra().size()\n", "    extra = Extra(.size()\n", true, true),
    ("main", "    extra = Extra(.size()\n", "    extra = Extra().size()\n", false, true),
];

#[test]
fn an_edit_sequence_gives_the_diagnostics_of_a_fresh_analysis() {
    let root = PathBuf::from("/nonexistent/rpy-lsp-incremental-test");
    let (main, helper) = (root.join("main.py"), root.join("helper.py"));
    let config = EngineConfig {
        root,
        entry_points: vec![main.clone()],
        repair_buffers: true,
        ..Default::default()
    };
    let mut texts = HashMap::from([
        (main.clone(), MAIN.to_string()),
        (helper.clone(), HELPER.to_string()),
    ]);
    // This thread plays the server's engine thread: it keeps compiled modules.
    crate::compiler::cache::enable();
    crate::compiler::cache::new_generation();
    super::flowcache::enable();
    super::flowcache::new_generation();
    let first = analyze(&config, &texts);
    assert!(first.diagnostics.is_empty(), "{:?}", first.diagnostics);
    for (step, &(file, from, to, errors, reuse)) in EDITS.iter().enumerate() {
        let path = if file == "main" { &main } else { &helper };
        let text = texts.get_mut(path).unwrap();
        assert!(text.contains(from), "step {step}: {from:?} not in {file}");
        *text = text.replacen(from, to, 1);
        crate::compiler::cache::new_generation();
        super::flowcache::new_generation();
        let incremental = analyze(&config, &texts);
        let reused: usize = incremental.programs.iter().map(|p| p.reused_graphs).sum();
        let got: Vec<Seen> = incremental
            .diagnostics
            .iter()
            .map(|d| seen(&incremental, d))
            .collect();
        // A fresh thread: nothing kept from earlier analyses.
        let (config2, texts2) = (config.clone(), texts.clone());
        let fresh = std::thread::Builder::new()
            .stack_size(super::ANALYSIS_STACK_BYTES)
            .spawn(move || {
                let a = analyze(&config2, &texts2);
                a.diagnostics
                    .iter()
                    .map(|d| seen(&a, d))
                    .collect::<Vec<Seen>>()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(got, fresh, "step {step}: {file}: {from:?} -> {to:?}");
        let has_errors = incremental.error_count() > 0;
        assert_eq!(
            has_errors, errors,
            "step {step}: {file}: {from:?} -> {to:?}: {got:?}"
        );
        assert_eq!(
            reused > 0,
            reuse,
            "step {step}: {file}: {from:?} -> {to:?}: {reused} graphs reused"
        );
    }
}
