//! Tests of the type queries (hover, inlay hints, definitions) on small programs held in
//! editor buffers.

use super::param_spans;
use crate::engine::{analyze, Analysis, EngineConfig};
use crate::fasthash::HashMap;
use std::path::{Path, PathBuf};

const PROGRAM: &str = "\
class Node(object):
    limit = 3

    def __init__(self, value):
        self.value = value
        self.next = None

    def get(self):
        return self.value


def count(node):
    total = 0
    while node is not None:
        total += node.get()
        node = node.next
    return total


def unused(x):
    y = x
    return y


def entry_point(argv):
    n = len(argv)
    head = Node(n)
    head.next = Node(n + 1)
    s = argv[0]
    print s
    return count(head) + head.limit


def target(*args):
    return entry_point, None
";

/// Analyses `text` as the target `main.py` of a workspace that exists only as editor
/// buffers.
fn analysis(text: &str) -> (Analysis, PathBuf) {
    let root = PathBuf::from("/nonexistent/rpy-lsp-types-test");
    let main = root.join("main.py");
    let config = EngineConfig {
        root: root.clone(),
        search_paths: Vec::new(),
        entry_points: vec![main.clone()],
        ..Default::default()
    };
    let overlays = HashMap::from_iter([(main.clone(), text.to_string())]);
    (analyze(&config, &overlays), main)
}

/// Offset of the `nth` occurrence of `needle` in `text`, plus `delta`.
fn at(text: &str, needle: &str, nth: usize, delta: usize) -> u32 {
    let mut from = 0;
    for _ in 0..nth {
        from += text[from..].find(needle).unwrap() + 1;
    }
    (from + text[from..].find(needle).unwrap() + delta) as u32
}

fn hover(a: &Analysis, path: &Path, offset: u32) -> (String, String, String) {
    let h = a.hover(path, offset).expect("a hover");
    let text = &a.sources.get(h.span.file).text;
    (
        text[h.span.start as usize..h.span.end as usize].to_string(),
        h.plain,
        h.annotator_form.unwrap_or_default(),
    )
}

#[test]
fn hover_on_locals_parameters_and_attributes() {
    let (a, main) = analysis(PROGRAM);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let t = PROGRAM;
    assert_eq!(
        hover(&a, &main, at(t, "n = len(argv)", 0, 0)),
        (
            "n".into(),
            "(variable) n: int, non-negative".into(),
            "SomeInteger(nonneg=True)".into()
        )
    );
    // A later read of the same local.
    assert_eq!(
        hover(&a, &main, at(t, "Node(n)", 0, 5)).1,
        "(variable) n: int, non-negative"
    );
    assert_eq!(
        hover(&a, &main, at(t, "argv):", 0, 1)).1,
        "(parameter) argv: list of str, resizable"
    );
    assert_eq!(
        hover(&a, &main, at(t, "count(node)", 0, 7)).1,
        "(parameter) node: instance of Node"
    );
    // `node = node.next` makes it possibly None inside the loop.
    assert_eq!(
        hover(&a, &main, at(t, "node = node.next", 0, 0)).1,
        "(variable) node: instance of Node or None"
    );
    assert_eq!(
        hover(&a, &main, at(t, "total += ", 0, 0)),
        (
            "total".into(),
            "(variable) total: int, non-negative".into(),
            "SomeInteger(nonneg=True)".into()
        )
    );
    assert_eq!(
        hover(&a, &main, at(t, "self.value = value", 0, 6)),
        (
            "value".into(),
            "(attribute) Node.value: int, non-negative".into(),
            "SomeInteger(nonneg=True)".into()
        )
    );
    assert_eq!(
        hover(&a, &main, at(t, "node.next", 0, 6)).1,
        "(attribute) Node.next: instance of Node or None"
    );
    // A constant the flow space folded: its own annotation.
    assert_eq!(
        hover(&a, &main, at(t, "total = 0", 0, 0)),
        (
            "total".into(),
            "(variable) total: int, non-negative".into(),
            "SomeInteger(const=0, nonneg=True)".into()
        )
    );
}

#[test]
fn hover_on_functions_and_expressions() {
    let (a, main) = analysis(PROGRAM);
    let t = PROGRAM;
    let (span, plain, form) = hover(&a, &main, at(t, "def count", 0, 5));
    assert_eq!(span, "count");
    assert_eq!(
        plain,
        "def count(node)\nnode: instance of Node\nreturns: int, non-negative"
    );
    assert_eq!(
        form,
        "count(SomeInstance(classdef=Node)) -> SomeInteger(nonneg=True)"
    );
    // A call of it shows the same signature; so does a method through an instance.
    assert_eq!(hover(&a, &main, at(t, "count(head)", 0, 1)).1, plain);
    assert_eq!(
        hover(&a, &main, at(t, "node.get()", 0, 6)).1,
        "def get(self)\nself: instance of Node\nreturns: int, non-negative"
    );
    // The operator of `n + 1`: the result of the addition.
    assert_eq!(
        hover(&a, &main, at(t, "n + 1", 0, 2)),
        (
            "n + 1".into(),
            "int, non-negative".into(),
            "SomeInteger(nonneg=True)".into()
        )
    );
}

#[test]
fn code_the_annotator_does_not_reach_says_so() {
    let (a, main) = analysis(PROGRAM);
    let h = a.hover(&main, at(PROGRAM, "y = x", 0, 0)).unwrap();
    assert_eq!(
        h.plain,
        "(variable) y\nno type: `unused` is not reached from an entry point"
    );
    assert_eq!(h.annotator_form, None);
}

#[test]
fn inlay_hints_for_parameters_and_first_assignments() {
    let (a, main) = analysis(PROGRAM);
    let t = PROGRAM;
    let hints: Vec<(String, String)> = a
        .inlay_hints(&main)
        .into_iter()
        .map(|h| {
            let line_start = t[..h.offset as usize].rfind('\n').map_or(0, |i| i + 1);
            (
                t[line_start..h.offset as usize].trim_start().to_string(),
                h.label,
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("def __init__(self, value", ": int"),
        ("def count(node", ": Node"),
        ("total", ": int"),
        ("def entry_point(argv", ": list of str"),
        ("n", ": int"),
        ("head", ": Node"),
        ("s", ": str"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(hints, expected);
}

#[test]
fn definitions_of_attributes_in_another_module() {
    let root = PathBuf::from("/nonexistent/rpy-lsp-types-test-2");
    let (main, helper) = (root.join("main.py"), root.join("helper.py"));
    let main_text = "import helper\n\n\ndef entry_point(argv):\n    h = helper.Node(len(argv))\n    return h.value + h.get()\n\n\ndef target(*args):\n    return entry_point, None\n";
    let helper_text = "class Node(object):\n    def __init__(self, value):\n        self.value = value\n\n    def get(self):\n        return self.value\n";
    let config = EngineConfig {
        root: root.clone(),
        search_paths: Vec::new(),
        entry_points: vec![main.clone()],
        ..Default::default()
    };
    let overlays = HashMap::from_iter([
        (main.clone(), main_text.to_string()),
        (helper.clone(), helper_text.to_string()),
    ]);
    let a = analyze(&config, &overlays);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let def = |needle: &str, delta: usize| {
        let loc = a
            .definition(&main, at(main_text, needle, 0, delta))
            .unwrap();
        (loc.path, loc.span.start)
    };
    assert_eq!(
        def("h.value", 2),
        (helper.clone(), at(helper_text, "value = value", 0, 0))
    );
    assert_eq!(
        def("h.get()", 2),
        (helper.clone(), at(helper_text, "get(self)", 0, 0))
    );
    assert_eq!(
        a.hover(&main, at(main_text, "h.value", 0, 3))
            .map(|h| h.plain),
        Some("(attribute) Node.value: int, non-negative".to_string())
    );
}

#[test]
fn no_hints_for_values_poisoned_by_an_error() {
    let text = "\
class A(object):
    def f(self):
        return 1


class B(A):
    def f(self):
        return 2


def entry_point(argv):
    fs = [A().f(), \"two\"]
    return len(fs)


def target(*args):
    return entry_point, None
";
    let (a, main) = analysis(text);
    assert!(a.error_count() > 0, "{:?}", a.diagnostics);
    let hints: Vec<(u32, String)> = a
        .inlay_hints(&main)
        .into_iter()
        .map(|h| (h.offset, h.label))
        .collect();
    assert_eq!(
        hints,
        vec![(at(text, "argv)", 0, 4), ": list of str".to_string())]
    );
    // Not "an erroneous value": what made it, and the error to blame.
    let line = text[..at(text, "fs =", 0, 0) as usize]
        .matches('\n')
        .count()
        + 1;
    let err = a.diagnostics.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(
        a.hover(&main, at(text, "fs =", 0, 0)).map(|h| h.plain),
        Some(format!(
            "(variable) fs: no type: its value is erroneous (made by `newlist(int, str)`, the error at line {line}: {} {})",
            err.code,
            err.message.lines().next().unwrap()
        ))
    );
}

#[test]
fn definition_of_locals_and_attributes() {
    let (a, main) = analysis(PROGRAM);
    let t = PROGRAM;
    let def = |offset: u32| {
        let loc = a.definition(&main, offset).expect("a definition");
        assert_eq!(loc.path, main);
        loc.span.start
    };
    assert_eq!(def(at(t, "return total", 0, 7)), at(t, "total = 0", 0, 0));
    assert_eq!(def(at(t, "node.next", 0, 0)), at(t, "node):", 0, 0));
    assert_eq!(
        def(at(t, "return self.value", 0, 12)),
        at(t, "value = value", 0, 0)
    );
    assert_eq!(def(at(t, "head.limit", 0, 6)), at(t, "limit = 3", 0, 0));
    assert_eq!(def(at(t, "node.get()", 0, 6)), at(t, "get(self)", 0, 0));
    assert_eq!(def(at(t, "node.next", 0, 6)), at(t, "next = None", 0, 0));
}

#[test]
fn finds_parameter_names_in_def_headers() {
    let text = "def f(a, b=(1, 2), *args, # c, d\n      c='x,y'):\n    pass\n";
    let names: Vec<&str> = param_spans(text, 5)
        .into_iter()
        .map(|(s, e)| &text[s..e])
        .collect();
    assert_eq!(names, vec!["a", "b", "args", "c"]);
    assert!(param_spans("def g():\n", 5).is_empty());
}
