//! End-to-end tests of the editor requests of `rpy-lsp serve` (references, call hierarchy,
//! workspace symbols, completion, signature help) and of its silence in workspaces without
//! RPython: the real binary over stdio, a small workspace on disk.

mod lsp_support;

use lsp_support::*;
use serde_json::{json, Value};
use std::time::Duration;

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

fn pos(text: &str, needle: &str, delta: usize) -> Value {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?}")) + delta;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

fn lines(locations: &Value, ws: &Workspace) -> Vec<(String, u64)> {
    locations
        .as_array()
        .unwrap_or_else(|| panic!("{locations}"))
        .iter()
        .map(|l| {
            let uri = l["uri"].as_str().unwrap();
            let name = if uri == ws.uri("main.py") {
                "main.py"
            } else if uri == ws.uri("helper.py") {
                "helper.py"
            } else {
                uri
            };
            (
                name.to_string(),
                l["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn references_call_hierarchy_and_workspace_symbols() {
    let ws = Workspace::new("editor-nav", &[("main.py", MAIN), ("helper.py", HELPER)]);
    let mut c = Client::start(
        &ws.root,
        json!({"textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": true}}}),
    );
    let main = ws.uri("main.py");
    c.open(&main, 1, MAIN);
    let d = c.wait_diagnostics(0, &main, |p| p["version"] == 1);
    assert_eq!(d["diagnostics"], json!([]), "{d}");

    // References of `double`, from a call in main.py: its def and three calls.
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": main}, "position": pos(MAIN, "double(3)", 1), "context": {"includeDeclaration": true}}),
    );
    let mut got = lines(&refs, &ws);
    got.sort();
    assert_eq!(
        got,
        [
            ("helper.py".to_string(), 3),
            ("helper.py".to_string(), 13),
            ("main.py".to_string(), 5),
            ("main.py".to_string(), 7)
        ]
    );

    // Call hierarchy: `double` is called by entry_point (twice) and Node.get, with ints.
    let items = c.request(
        "textDocument/prepareCallHierarchy",
        json!({"textDocument": {"uri": main}, "position": pos(MAIN, "double(3)", 1)}),
    );
    let item = &items[0];
    assert_eq!(item["name"], "double");
    assert_eq!(item["kind"], 12);
    assert_eq!(item["detail"], "(n: int) -> int");
    assert_eq!(item["uri"], ws.uri("helper.py"));
    let incoming = c.request("callHierarchy/incomingCalls", json!({"item": item}));
    let callers: Vec<(String, usize, String)> = incoming
        .as_array()
        .unwrap()
        .iter()
        .map(|call| {
            (
                call["from"]["name"].as_str().unwrap().to_string(),
                call["fromRanges"].as_array().unwrap().len(),
                call["from"]["detail"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        callers,
        [
            ("entry_point".to_string(), 2, "passes (int)".to_string()),
            ("get".to_string(), 1, "passes (int)".to_string())
        ]
    );
    let entry = c.request(
        "textDocument/prepareCallHierarchy",
        json!({"textDocument": {"uri": main}, "position": pos(MAIN, "def entry_point", 4)}),
    );
    let outgoing = c.request("callHierarchy/outgoingCalls", json!({"item": entry[0]}));
    let mut callees: Vec<&str> = outgoing
        .as_array()
        .unwrap()
        .iter()
        .map(|call| call["to"]["name"].as_str().unwrap())
        .collect();
    callees.sort();
    assert_eq!(callees, ["__init__", "double", "get"]);

    // Workspace symbols: a method with its class, in a file that is not open.
    let symbols = c.request("workspace/symbol", json!({"query": "get"}));
    let first = &symbols[0];
    assert_eq!(first["name"], "get");
    assert_eq!(first["containerName"], "Node");
    assert_eq!(first["kind"], 6);
    assert_eq!(first["location"]["uri"], ws.uri("helper.py"));
    assert_eq!(first["location"]["range"]["start"]["line"], 12);

    // Document symbols: nested by class, with the inferred signatures as details.
    let outline = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": ws.uri("helper.py")}}),
    );
    let details: Vec<(&str, &str)> = outline
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| std::iter::once(s).chain(s["children"].as_array().into_iter().flatten()))
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["detail"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        details,
        [
            ("LIMIT", "int"),
            ("double", "(n: int) -> int"),
            ("Node", ""),
            ("__init__", "(value: int) -> None"),
            ("get", "() -> int")
        ]
    );
    c.shutdown();
}

#[test]
fn completion_and_signature_help_while_typing() {
    let ws = Workspace::new("editor-typing", &[("main.py", MAIN), ("helper.py", HELPER)]);
    let mut c = Client::start(&ws.root, json!({}));
    let main = ws.uri("main.py");
    c.open(&main, 1, MAIN);
    c.wait_diagnostics(0, &main, |p| p["version"] == 1);

    // The user types `x = node.` on a new line before `return total`: the buffer does
    // not parse; its syntax error is the only diagnostic, and completion still knows node.
    let line = MAIN[..MAIN.find("    return total").unwrap()]
        .matches('\n')
        .count() as u32;
    let mark = c.log.len();
    c.edit(&main, 2, (line, 0), (line, 0), "    x = node.\n");
    let broken = c.wait_diagnostics(mark, &main, |p| p["version"] == 2);
    let codes: Vec<&str> = broken["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["RPY001"], "{broken}");
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": main}, "position": {"line": line, "character": 13}, "context": {"triggerKind": 2, "triggerCharacter": "."}}),
    );
    let got: Vec<(String, u64, String)> = items
        .as_array()
        .unwrap_or_else(|| panic!("{items}"))
        .iter()
        .map(|i| {
            (
                i["label"].as_str().unwrap().to_string(),
                i["kind"].as_u64().unwrap(),
                i["detail"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("name".to_string(), 5, "str".to_string()),
            ("value".to_string(), 5, "int".to_string()),
            ("get".to_string(), 2, "() -> int".to_string())
        ]
    );

    // Then `helper.double(` : the signature with the parameter's type.
    c.edit(&main, 3, (line, 8), (line, 13), "helper.double(");
    let help = c.request(
        "textDocument/signatureHelp",
        json!({"textDocument": {"uri": main}, "position": {"line": line, "character": 22}}),
    );
    let sig = &help["signatures"][0];
    assert_eq!(sig["label"], "double(n: int) -> int", "{help}");
    assert_eq!(sig["parameters"][0]["label"], json!([7, 13]));
    assert_eq!(help["activeParameter"], 0);
    // Module members, with their types, filtered by what is typed.
    c.edit(&main, 4, (line, 8), (line, 22), "helper.");
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": main}, "position": {"line": line, "character": 15}}),
    );
    let members: Vec<(&str, &str)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["label"].as_str().unwrap(),
                i["detail"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        members,
        [
            ("LIMIT", "int"),
            ("double", "(n: int) -> int"),
            ("Node", "class")
        ]
    );
    c.shutdown();
}

#[test]
fn a_workspace_without_rpython_gets_no_diagnostics() {
    // Python 3: f-strings, stdlib imports, no target: every one a false error for RPython.
    let app = "import asyncio\nimport dataclasses\n\n\ndef main() -> None:\n    name = 'x'\n    print(f'hello {name}')\n\n\nasyncio.run(main())\n";
    let ws = Workspace::new(
        "editor-plain",
        &[
            ("app.py", app),
            ("util.py", "import json\nx = json.dumps({})\n"),
            ("pyproject.toml", "[project]\nname = 'plain'\n"),
        ],
    );
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("app.py");
    c.open(&uri, 1, app);
    let first = c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    assert_eq!(first["diagnostics"], json!([]), "{first}");
    c.settle(Duration::from_millis(500));
    for m in &c.log {
        if m["method"] == "textDocument/publishDiagnostics" {
            assert_eq!(m["params"]["diagnostics"], json!([]), "{m}");
        }
    }
    // Hover answers nothing rather than guesses.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 4}}),
    );
    assert_eq!(hover, Value::Null);

    // The buffer starts importing rpython: now it is an RPython workspace, and the
    // Python 3 code gets its diagnostics.
    let mark = c.log.len();
    c.edit(&uri, 2, (0, 0), (0, 0), "from rpython.rlib import jit\n");
    let now = c.wait_diagnostics(mark, &uri, |p| p["version"] == 2);
    assert!(!now["diagnostics"].as_array().unwrap().is_empty(), "{now}");
    c.shutdown();
}
