//! Tests of the editor queries (references, call hierarchy, workspace symbols, completion,
//! signature help) on a small two-module program held in editor buffers.

use super::{analyze, Analysis, CompletionKind, EngineConfig, SymbolKind};
use crate::fasthash::HashMap;
use std::path::PathBuf;

const MAIN: &str = "\
import helper


def entry_point(argv):
    node = helper.Node(len(argv))
    total = helper.double(node.value) + node.get()
    if len(argv) > 2:
        total += helper.double(3)
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
        self.name = 'node'

    def get(self):
        return double(self.value)
";

fn workspace() -> (Analysis, PathBuf, PathBuf) {
    let root = PathBuf::from("/nonexistent/rpy-lsp-editor-test");
    let (main, helper) = (root.join("main.py"), root.join("helper.py"));
    let config = EngineConfig {
        root,
        entry_points: vec![main.clone()],
        ..Default::default()
    };
    let overlays = HashMap::from_iter([
        (main.clone(), MAIN.to_string()),
        (helper.clone(), HELPER.to_string()),
    ]);
    let a = analyze(&config, &overlays);
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    (a, main, helper)
}

/// Offset of the `nth` occurrence of `needle` in `text`, plus `delta`.
fn at(text: &str, needle: &str, nth: usize, delta: usize) -> u32 {
    let mut from = 0;
    for _ in 0..nth {
        from += text[from..].find(needle).unwrap() + 1;
    }
    (from + text[from..].find(needle).unwrap() + delta) as u32
}

fn line_of(text: &str, offset: u32) -> usize {
    text[..offset as usize].matches('\n').count()
}

#[test]
fn references_across_modules() {
    let (a, main, helper) = workspace();
    let refs = a.references(&helper, at(HELPER, "def double", 0, 4), true);
    let got: Vec<(PathBuf, usize)> = refs
        .iter()
        .map(|l| {
            let text = if l.path == main { MAIN } else { HELPER };
            (l.path.clone(), line_of(text, l.span.start))
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (helper.clone(), 3),
            (helper.clone(), 13),
            (main.clone(), 5),
            (main.clone(), 7)
        ]
    );
    // Without the declaration; from a use; an attribute through its inferred class.
    assert_eq!(
        a.references(&main, at(MAIN, "double(3)", 0, 1), false)
            .len(),
        3
    );
    let value_refs = a.references(&main, at(MAIN, "node.value", 0, 6), true);
    assert_eq!(
        value_refs.len(),
        3,
        "{value_refs:?} {:?}",
        a.definition(&main, at(MAIN, "node.value", 0, 6))
    );
    // A local is its function's alone.
    let totals = a.references(&main, at(MAIN, "return total", 0, 8), true);
    assert_eq!(totals.len(), 3, "{totals:?}");
}

#[test]
fn call_hierarchy_with_argument_types() {
    let (a, main, helper) = workspace();
    let item = a.call_item_at(&main, at(MAIN, "double(3)", 0, 1)).unwrap();
    assert_eq!(
        (item.name.as_str(), item.kind),
        ("double", SymbolKind::Function)
    );
    assert_eq!(item.path, helper);
    assert_eq!(item.detail, "(n: int) -> int");
    let incoming = a.incoming_calls(&item);
    let callers: Vec<(&str, usize, Vec<String>)> = incoming
        .iter()
        .map(|c| (c.item.name.as_str(), c.sites.len(), c.passes.clone()))
        .collect();
    assert_eq!(
        callers,
        vec![
            ("entry_point", 2, vec!["(int)".to_string()]),
            ("get", 1, vec!["(int)".to_string()])
        ]
    );
    let entry = a
        .call_item_at(&main, at(MAIN, "def entry_point", 0, 4))
        .unwrap();
    let mut callees: Vec<String> = a
        .outgoing_calls(&entry)
        .iter()
        .map(|c| c.item.name.clone())
        .collect();
    callees.sort();
    assert_eq!(callees, ["__init__", "double", "get"]);
}

#[test]
fn workspace_symbols_match_fuzzily() {
    let (a, _, helper) = workspace();
    let got: Vec<(String, Option<String>)> = a
        .workspace_symbols("get")
        .into_iter()
        .map(|s| (s.name, s.container))
        .collect();
    // Prefix matches first, then the other fuzzy ones (g-e-t in order in `target`).
    assert_eq!(
        got,
        vec![
            ("get".to_string(), Some("Node".to_string())),
            ("target".to_string(), None)
        ]
    );
    let limit = a.workspace_symbols("LIM");
    assert_eq!(limit[0].path, helper);
    assert_eq!(limit[0].kind, SymbolKind::Variable);
}

#[test]
fn completion_of_attributes_module_members_and_names() {
    let (a, main, _) = workspace();
    // `node.` typed on a new line: the buffer does not parse, the analysis is older.
    let typed = MAIN.replace("    return total\n", "    x = node.\n    return total\n");
    let offset = at(&typed, "node.\n", 0, 5);
    let got: Vec<(String, CompletionKind, String)> = a
        .completions(&main, &typed, offset)
        .into_iter()
        .map(|c| (c.label, c.kind, c.detail))
        .collect();
    assert_eq!(
        got,
        vec![
            ("name".to_string(), CompletionKind::Field, "str".to_string()),
            (
                "value".to_string(),
                CompletionKind::Field,
                "int".to_string()
            ),
            (
                "get".to_string(),
                CompletionKind::Method,
                "() -> int".to_string()
            ),
        ]
    );
    // A module's members, filtered by the prefix being typed.
    let typed = MAIN.replace(
        "    return total\n",
        "    x = helper.do\n    return total\n",
    );
    let offset = at(&typed, "helper.do", 0, 9);
    let got: Vec<(String, String)> = a
        .completions(&main, &typed, offset)
        .into_iter()
        .map(|c| (c.label, c.detail))
        .collect();
    assert_eq!(
        got,
        vec![("double".to_string(), "(n: int) -> int".to_string())]
    );
    // A string's methods, through an attribute.
    let typed = MAIN.replace(
        "    return total\n",
        "    x = node.name.st\n    return total\n",
    );
    let labels: Vec<String> = a
        .completions(&main, &typed, at(&typed, ".st", 0, 3))
        .into_iter()
        .map(|c| c.label)
        .collect();
    assert_eq!(labels, ["strip", "startswith"]);
    // Names in scope: locals with their types, then globals.
    let typed = MAIN.replace("    return total\n", "    x = to\n    return total\n");
    let got: Vec<(String, String)> = a
        .completions(&main, &typed, at(&typed, "x = to", 0, 6))
        .into_iter()
        .map(|c| (c.label, c.detail))
        .collect();
    assert_eq!(got, vec![("total".to_string(), "int".to_string())]);
}

#[test]
fn signature_help_with_parameter_types() {
    let (a, main, _) = workspace();
    let typed = MAIN.replace(
        "    return total\n",
        "    x = helper.double(\n    return total\n",
    );
    let h = a
        .signature_help(&main, &typed, at(&typed, "double(\n", 0, 7))
        .unwrap();
    assert_eq!(h.label, "double(n: int) -> int");
    assert_eq!(h.params, vec![(7, 13)]);
    assert_eq!(h.active, 0);
    // A class: its `__init__` without `self`; a method through an instance.
    let typed = MAIN.replace(
        "    return total\n",
        "    x = helper.Node(1, \n    return total\n",
    );
    let h = a
        .signature_help(&main, &typed, at(&typed, "Node(1, ", 0, 8))
        .unwrap();
    assert_eq!((h.label.as_str(), h.active), ("Node(value: int)", 1));
    let typed = MAIN.replace(
        "    return total\n",
        "    x = node.get(\n    return total\n",
    );
    let h = a
        .signature_help(&main, &typed, at(&typed, "get(\n", 0, 4))
        .unwrap();
    assert_eq!(h.label, "get() -> int");
}

#[test]
fn methods_from_their_def_name() {
    let (a, main, helper) = workspace();
    // References of a method from its `def`: the def and the call through an instance.
    let refs = a.references(&helper, at(HELPER, "def get", 0, 5), true);
    let got: Vec<(PathBuf, u32)> = refs
        .iter()
        .map(|l| (l.path.clone(), l.span.start))
        .collect();
    assert_eq!(
        got,
        vec![
            (helper.clone(), at(HELPER, "get(self)", 0, 0)),
            (main.clone(), at(MAIN, "get()", 0, 0))
        ]
    );
    let item = a
        .call_item_at(&helper, at(HELPER, "def get", 0, 5))
        .unwrap();
    assert_eq!((item.name.as_str(), item.kind), ("get", SymbolKind::Method));
    let callers: Vec<String> = a
        .incoming_calls(&item)
        .into_iter()
        .map(|c| c.item.name)
        .collect();
    assert_eq!(callers, ["entry_point"]);
}

#[test]
fn attributes_of_prebuilt_instances_have_a_definition() {
    // `__init__` ran at import time: no annotated graph stores the attribute.
    let text = "\
class Config(object):
    def __init__(self):
        self.size = 3


CONFIG = Config()


def entry_point(argv):
    return CONFIG.size


def target(*args):
    return entry_point, None
";
    let root = PathBuf::from("/nonexistent/rpy-lsp-editor-test-prebuilt");
    let main = root.join("main.py");
    let config = EngineConfig {
        root,
        entry_points: vec![main.clone()],
        ..Default::default()
    };
    let a = analyze(
        &config,
        &HashMap::from_iter([(main.clone(), text.to_string())]),
    );
    assert!(a.diagnostics.is_empty(), "{:?}", a.diagnostics);
    let loc = a.definition(&main, at(text, "CONFIG.size", 0, 8)).unwrap();
    assert_eq!(loc.span.start, at(text, "size = 3", 0, 0));
}

#[test]
fn signatures_say_unknown_for_what_is_not_modelled() {
    let text = "\
import no_such_module


def f(x):
    return x


def entry_point(argv):
    f(no_such_module.thing)
    return 0


def target(*args):
    return entry_point, None
";
    let root = PathBuf::from("/nonexistent/rpy-lsp-editor-test-unknown");
    let main = root.join("main.py");
    let config = EngineConfig {
        root,
        entry_points: vec![main.clone()],
        ..Default::default()
    };
    let a = analyze(
        &config,
        &HashMap::from_iter([(main.clone(), text.to_string())]),
    );
    let h = a
        .signature_help(&main, text, at(text, "f(no_such", 0, 2))
        .unwrap();
    assert_eq!(h.label, "f(x: unknown) -> unknown");
}

#[test]
fn document_symbols_nested_by_class_with_types() {
    let (a, _, helper) = workspace();
    let symbols = a.symbols(&helper);
    let flat: Vec<(String, SymbolKind, String, usize)> = symbols
        .iter()
        .map(|s| (s.name.clone(), s.kind, s.detail.clone(), s.children.len()))
        .collect();
    assert_eq!(
        flat,
        vec![
            (
                "LIMIT".to_string(),
                SymbolKind::Variable,
                "int".to_string(),
                0
            ),
            (
                "double".to_string(),
                SymbolKind::Function,
                "(n: int) -> int".to_string(),
                0
            ),
            ("Node".to_string(), SymbolKind::Class, String::new(), 2),
        ]
    );
    let methods: Vec<(String, String)> = symbols[2]
        .children
        .iter()
        .map(|s| (s.name.clone(), s.detail.clone()))
        .collect();
    assert_eq!(
        methods,
        vec![
            ("__init__".to_string(), "(value: int) -> None".to_string()),
            ("get".to_string(), "() -> int".to_string())
        ]
    );
}
