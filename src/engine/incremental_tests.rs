//! The language server's invariant: a sequence of edits analysed one after the other on one
//! thread, with what that thread keeps from one analysis to the next (compiled modules by
//! content, `compiler::cache`; a checkpoint of the import, `engine::importcache`; flow
//! graphs, `engine::flowcache`; the previous analysis's annotation when the code only
//! moved, `Program::analyse_after`), gives after each edit
//! exactly the diagnostics, hovers and inlay hints of a fresh analysis of the same texts on
//! a thread that keeps nothing.
//!
//! The edits are the kinds an editor session makes: change a module-level constant a
//! function's graph folded, rename a function (breaking its caller) and rename it back, add
//! a class, break a type and fix it, edit an imported module, type a syntax error and
//! finish the line; comments, blank lines and spaces (code that only moves, with and
//! without errors in the program), docstrings; and edits that grow annotations and shrink
//! them again (a call passing a str to a function that gets ints, an attribute written with
//! another type, a return type changed), which an annotation restarting from the previous
//! fixpoint would have to undo.

use super::{analyze, analyze_after, Analysis, EngineConfig};
use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
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
/// whether the program has errors after it, whether flow graphs of the previous analysis
/// are reused (only an edit inside function bodies leaves the import-time heap as it was),
/// and whether the previous annotation is reused with its spans moved (the code only moved).
const EDITS: &[(&str, &str, &str, bool, bool, bool)] = &[
    // A constant the flow graph of `scaled` folds.
    ("main", "SCALE = 3", "SCALE = 4", false, false, false),
    // The constant becomes a string: `n * SCALE` is now int * str.
    ("main", "SCALE = 4", "SCALE = 'x'", true, false, false),
    ("main", "SCALE = 'x'", "SCALE = 5", false, false, false),
    // Rename a function: its caller reads a missing global.
    ("main", "def scaled(n):", "def scale_by(n):", true, false, false),
    ("main", "def scale_by(n):", "def scaled(n):", false, false, false),
    // A new class, used.
    (
        "main",
        "def entry_point(argv):\n",
        "class Extra(object):\n    def size(self):\n        return 2\n\n\ndef entry_point(argv):\n    extra = Extra().size()\n",
        false,
        false,
        false,
    ),
    // Code that only moves: a comment line, blank lines in the other module, spaces inside
    // brackets, a comment at the end of a line.
    (
        "main",
        "    total = scaled",
        "    # the total\n    total = scaled",
        false,
        true,
        true,
    ),
    (
        "helper",
        "class Node(object):",
        "\n\nclass Node(object):",
        false,
        true,
        true,
    ),
    (
        "main",
        "helper.Node(len(argv))",
        "helper.Node( len(argv) )  # a node",
        false,
        true,
        true,
    ),
    // Break a type in a local variable, then fix it.
    (
        "main",
        "    return total\n",
        "    if total > 3:\n        total = 'many'\n    return total\n",
        true,
        true,
        false,
    ),
    // A program with an error whose code moves: the error moves with it.
    (
        "main",
        "    if total > 3:\n",
        "\n    # too many?\n    if total > 3:\n",
        true,
        true,
        true,
    ),
    (
        "main",
        "        total = 'many'\n",
        "        total = 0\n",
        false,
        true,
        false,
    ),
    // An imported module: its constant, a method the program calls, then back.
    ("helper", "LIMIT = 10", "LIMIT = 'ten'", true, false, false),
    ("helper", "LIMIT = 'ten'", "LIMIT = 11", false, false, false),
    (
        "helper",
        "        return double(self.value)",
        "        return double(self.missing)",
        true,
        true,
        false,
    ),
    (
        "helper",
        "        return double(self.missing)",
        "        return double(self.value)",
        false,
        true,
        false,
    ),
    // A comment that is not only a comment: non-ASCII without an encoding declaration
    // (PEP 263) makes the module unreadable, and taking it out again.
    ("helper", "LIMIT = 11", "LIMIT = 11  # \u{e9}", true, false, false),
    ("helper", "LIMIT = 11  # \u{e9}", "LIMIT = 11", false, false, false),
    // A docstring is a token of the program: added, then changed.
    (
        "helper",
        "def double(n):\n",
        "def double(n):\n    \"\"\"Twice n.\"\"\"\n",
        false,
        true,
        false,
    ),
    (
        "helper",
        "Twice n.",
        "Two times n.",
        false,
        true,
        false,
    ),
    // Grow an annotation and shrink it again: a call passing a str to a function that also
    // gets ints.
    (
        "main",
        "    extra = Extra().size()\n",
        "    extra = Extra().size()\n    scaled('a')\n",
        true,
        true,
        false,
    ),
    (
        "main",
        "    scaled('a')\n",
        "",
        false,
        true,
        false,
    ),
    // An attribute written with another type, then not.
    (
        "main",
        "    total = scaled",
        "    node.value = 'v'\n    total = scaled",
        true,
        true,
        false,
    ),
    (
        "main",
        "    node.value = 'v'\n",
        "",
        false,
        true,
        false,
    ),
    // A return type changed, then back.
    ("main", "        return 2\n", "        return 'two'\n", false, true, false),
    (
        "main",
        "    extra = Extra().size()\n",
        // printed: an unused result is dropped before annotation, as in the reference
        "    print Extra().size() + 1\n",
        true,
        true,
        false,
    ),
    ("main", "        return 'two'\n", "        return 2\n", false, true, false),
    // A line being typed (a syntax error in the buffer), then finished.
    (
        "main",
        "    print Extra().size() + 1\n",
        "    print Extra(.size() + 1\n",
        true,
        true,
        false,
    ),
    (
        "main",
        "    print Extra(.size() + 1\n",
        "    print Extra().size() + 1\n",
        false,
        true,
        false,
    ),
];

/// What an editor sees of an analysis: its diagnostics, the hover at the start of every
/// token of each file, and the inlay hints of each file (file ids are per analysis).
fn observed(a: &Analysis, files: &[PathBuf]) -> (Vec<Seen>, Vec<String>) {
    let diagnostics = a.diagnostics.iter().map(|d| seen(a, d)).collect();
    let mut queries = Vec::new();
    for path in files {
        let Some(fid) = a.sources.find(path) else {
            continue;
        };
        let text = &a.sources.get(fid).text;
        for t in crate::syntax::tokens(text) {
            if let Some(h) = a.hover(path, t.start) {
                queries.push(format!(
                    "hover {}:{}: {}..{} {} {:?}",
                    path.display(),
                    t.start,
                    h.span.start,
                    h.span.end,
                    h.plain,
                    h.annotator_form
                ));
            }
        }
        for h in a.inlay_hints(path) {
            queries.push(format!("hint {}:{} {}", path.display(), h.offset, h.label));
        }
    }
    (diagnostics, queries)
}

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
    let mut texts = HashMap::from_iter([
        (main.clone(), MAIN.to_string()),
        (helper.clone(), HELPER.to_string()),
    ]);
    // This thread plays the server's engine thread: it keeps compiled modules.
    crate::compiler::cache::enable();
    crate::compiler::cache::new_generation();
    super::flowcache::enable();
    super::flowcache::new_generation();
    let mut previous = analyze(&config, &texts);
    assert!(
        previous.diagnostics.is_empty(),
        "{:?}",
        previous.diagnostics
    );
    let files = vec![main.clone(), helper.clone()];
    for (step, &(file, from, to, errors, reuse, moved)) in EDITS.iter().enumerate() {
        let path = if file == "main" { &main } else { &helper };
        let text = texts.get_mut(path).unwrap();
        assert!(text.contains(from), "step {step}: {from:?} not in {file}");
        *text = text.replacen(from, to, 1);
        crate::compiler::cache::new_generation();
        super::flowcache::new_generation();
        let incremental = analyze_after(&config, &texts, Some(&mut previous));
        let reused: usize = incremental.programs.iter().map(|p| p.reused_graphs).sum();
        let was_moved = incremental.programs.iter().any(|p| p.moved_annotation);
        let got = observed(&incremental, &files);
        // A fresh thread: nothing kept from earlier analyses.
        let (config2, texts2, files2) = (config.clone(), texts.clone(), files.clone());
        let fresh = std::thread::Builder::new()
            .stack_size(super::ANALYSIS_STACK_BYTES)
            .spawn(move || observed(&analyze(&config2, &texts2), &files2))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(got.0, fresh.0, "step {step}: {file}: {from:?} -> {to:?}");
        if let Some(i) =
            (0..got.1.len().max(fresh.1.len())).find(|&i| got.1.get(i) != fresh.1.get(i))
        {
            panic!(
                "step {step}: {file}: {from:?} -> {to:?}: query {i}:\n incremental {:?}\n fresh       {:?}",
                got.1.get(i),
                fresh.1.get(i)
            );
        }
        let has_errors = incremental.error_count() > 0;
        assert_eq!(
            has_errors, errors,
            "step {step}: {file}: {from:?} -> {to:?}: {:?}",
            got.0
        );
        assert_eq!(
            reused > 0,
            reuse,
            "step {step}: {file}: {from:?} -> {to:?}: {reused} graphs reused"
        );
        assert_eq!(
            was_moved, moved,
            "step {step}: {file}: {from:?} -> {to:?}: annotation moved"
        );
        previous = incremental;
    }
}

/// A program of several modules imported by the main module's top level, in this order:
/// `table` (a dict), `mutator` (writes into `table.TABLE` at import time), `util` (found on
/// the search path `lib`, unless a `util.py` beside the main file shadows it) and `leaf`.
const IMPORT_MODULES: &[(&str, &str)] = &[
    (
        "main.py",
        "import os\nimport table\nimport mutator\nimport util\nimport leaf\n\n\n\
def entry_point(argv):\n    n = len(argv)\n    total = table.lookup('a') + leaf.twice(n) + util.helper(n)\n    os.write(1, str(total) + '\\n')\n    return 0\n\n\n\
def target(*args):\n    return entry_point, None\n",
    ),
    (
        "table.py",
        "TABLE = {'a': 1}\n\n\ndef lookup(key):\n    return TABLE.get(key, 0)\n",
    ),
    ("mutator.py", "import table\n\ntable.TABLE['b'] = 2\n"),
    ("lib/util.py", "def helper(n):\n    return n + 1\n"),
    ("leaf.py", "import deep\n\n\ndef twice(n):\n    return deep.inc(n) + n * 2\n"),
    ("deep.py", "def inc(n):\n    return n + 1\n"),
];

/// Each step: the file edited (`<new>` as `from` creates it with `to`, `<gone>` as `to`
/// deletes it), whether the program has errors after it, and whether the import resumed
/// from the previous one's checkpoint (kept before the top-level import of the module the
/// previous edit changed, when no file read before it changed since).
const IMPORT_EDITS: &[(&str, &str, &str, bool, bool)] = &[
    // The module imported last: the first edit there leaves a checkpoint before it, the
    // next ones start from it.
    ("leaf.py", "n * 2", "n * 3", false, false),
    (
        "leaf.py",
        "return deep.inc(n) + n * 3",
        "return 'x'",
        true,
        true,
    ),
    (
        "leaf.py",
        "return 'x'",
        "return deep.inc(n) + n * 3",
        false,
        true,
    ),
    // A module that writes into another's table at import time.
    (
        "mutator.py",
        "TABLE['b'] = 2",
        "TABLE['a'] = 'one'",
        true,
        false,
    ),
    (
        "mutator.py",
        "TABLE['a'] = 'one'",
        "TABLE['b'] = 2",
        false,
        true,
    ),
    (
        "mutator.py",
        "TABLE['b'] = 2",
        "TABLE['c'] = 3",
        false,
        true,
    ),
    // A module imported by an imported module: resumed from the checkpoint before
    // `mutator`, then from one before the top-level import that imports it.
    ("deep.py", "n + 1", "n + 2", false, true),
    ("deep.py", "n + 2", "n + 3", false, true),
    ("deep.py", "return n + 3", "return 'x'", true, true),
    ("deep.py", "return 'x'", "return n + 4", false, true),
    // The first module the main module imports.
    ("table.py", "{'a': 1}", "{'a': 5}", false, false),
    ("table.py", "{'a': 5}", "{'a': 'five'}", true, true),
    ("table.py", "{'a': 'five'}", "{'a': 6}", false, true),
    // A file added beside the main file shadows the search path's module, then goes.
    (
        "util.py",
        "<new>",
        "def helper(n):\n    return 'x'\n",
        true,
        true,
    ),
    ("util.py", "", "<gone>", false, true),
    // The main module itself: nothing before it to start from.
    (
        "main.py",
        "n = len(argv)",
        "n = len(argv) + 1",
        false,
        false,
    ),
    ("leaf.py", "n * 3", "n * 4", false, false),
    ("leaf.py", "n * 4", "n * 5", false, true),
    // Import-time code that looks at the file system: nothing after it is a checkpoint,
    // what comes before it still is.
    (
        "mutator.py",
        "import table\n",
        "import os\nimport table\nos.path.exists('x')\n",
        false,
        false,
    ),
    ("leaf.py", "n * 5", "n * 6", false, true),
    ("leaf.py", "n * 6", "n * 7", false, true),
    (
        "mutator.py",
        "TABLE['c'] = 3",
        "TABLE['c'] = 4",
        false,
        true,
    ),
];

#[test]
fn edits_in_imported_modules_resume_the_import_and_give_a_fresh_analysis() {
    let root = PathBuf::from("/nonexistent/rpy-lsp-import-test");
    let config = EngineConfig {
        root: root.clone(),
        entry_points: vec![root.join("main.py")],
        search_paths: vec![root.join("lib")],
        repair_buffers: true,
        ..Default::default()
    };
    let mut texts: HashMap<PathBuf, String> = IMPORT_MODULES
        .iter()
        .map(|(f, t)| (root.join(f), t.to_string()))
        .collect();
    crate::compiler::cache::enable();
    crate::compiler::cache::new_generation();
    super::flowcache::enable();
    super::flowcache::new_generation();
    super::importcache::enable();
    super::importcache::new_generation();
    let mut previous = analyze(&config, &texts);
    assert!(
        previous.diagnostics.is_empty(),
        "{:?}",
        previous.diagnostics
    );
    for (step, &(file, from, to, errors, resumed)) in IMPORT_EDITS.iter().enumerate() {
        let path = root.join(file);
        if from == "<new>" {
            assert!(texts.insert(path.clone(), to.to_string()).is_none());
        } else if to == "<gone>" {
            assert!(texts.remove(&path).is_some(), "step {step}: {file}");
        } else {
            let text = texts.get_mut(&path).unwrap();
            assert!(text.contains(from), "step {step}: {from:?} not in {file}");
            *text = text.replacen(from, to, 1);
        }
        let mut files: Vec<PathBuf> = texts.keys().cloned().collect();
        files.sort();
        crate::compiler::cache::new_generation();
        super::flowcache::new_generation();
        super::importcache::new_generation();
        let incremental = analyze_after(&config, &texts, Some(&mut previous));
        let was_resumed = incremental.programs.iter().any(|p| p.resumed_import);
        let got = observed(&incremental, &files);
        let (config2, texts2, files2) = (config.clone(), texts.clone(), files.clone());
        let fresh = std::thread::Builder::new()
            .stack_size(super::ANALYSIS_STACK_BYTES)
            .spawn(move || observed(&analyze(&config2, &texts2), &files2))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(got.0, fresh.0, "step {step}: {file}: {from:?} -> {to:?}");
        if let Some(i) =
            (0..got.1.len().max(fresh.1.len())).find(|&i| got.1.get(i) != fresh.1.get(i))
        {
            panic!(
                "step {step}: {file}: {from:?} -> {to:?}: query {i}:\n incremental {:?}\n fresh       {:?}",
                got.1.get(i),
                fresh.1.get(i)
            );
        }
        assert_eq!(
            incremental.error_count() > 0,
            errors,
            "step {step}: {file}: {from:?} -> {to:?}: {:?}",
            got.0
        );
        assert_eq!(
            was_resumed, resumed,
            "step {step}: {file}: {from:?} -> {to:?}: import resumed"
        );
        // Each of the main module's 5 top-level imports is noted once, up to the one
        // importing the module that reads the file system; the checkpoint is before one.
        let (noted, checkpoint) = super::importcache::kept(&root.join("main.py")).unwrap();
        let world_read = texts[&root.join("mutator.py")].contains("os.path");
        assert_eq!(noted, if world_read { 3 } else { 5 }, "step {step}");
        // (none when the main module itself changed: nothing before it stayed the same)
        assert_eq!(
            checkpoint.is_some_and(|c| c < noted),
            file != "main.py",
            "step {step}: {checkpoint:?}"
        );
        previous = incremental;
    }
}
