//! End-to-end tests of `rpy-lsp serve`: the real binary, spoken to in JSON-RPC over stdio by
//! the small client of `lsp_support`.

mod lsp_support;

use lsp_support::*;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const MAIN: &str = "\
import helper

LIMIT = 10


def entry_point(argv):
    n = helper.double(len(argv))
    if n > LIMIT:
        return 1
    return 0


def target(*args):
    return entry_point, None
";

const HELPER: &str = "\
def double(n):
    return n * 2


class Node(object):
    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value
";

fn program(name: &str) -> Workspace {
    Workspace::new(name, &[("main.py", MAIN), ("helper.py", HELPER)])
}

fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn has_code(params: &Value, code: &str) -> bool {
    codes(params).iter().any(|c| c == code)
}

fn diagnostic<'a>(params: &'a Value, code: &str) -> &'a Value {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {params}"))
}

fn line_count(text: &str) -> u32 {
    text.lines().count() as u32
}

// ---------------------------------------------------------------------------------------
// Tests.

#[test]
fn diagnostics_appear_and_disappear_with_incremental_edits() {
    let ws = program("appear");
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("main.py");
    c.open(&uri, 1, &ws.text("main.py"));
    let first = c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    assert!(!has_code(&first, "RPY001"), "{first}");

    // Append a broken function: an RPY001 on its line.
    let end = line_count(MAIN);
    let mark = c.log.len();
    c.edit(&uri, 2, (end, 0), (end, 0), "\n\ndef f(:\n    return 1\n");
    let broken = c.wait_diagnostics(mark, &uri, |p| p["version"] == 2);
    let d = diagnostic(&broken, "RPY001");
    assert_eq!(d["range"]["start"]["line"], end + 2, "{d}");
    assert_eq!(d["severity"], 1);
    assert_eq!(
        d["source"].as_str().map(|s| s.starts_with("rpy-lsp")),
        Some(true)
    );
    assert!(
        d["codeDescription"]["href"]
            .as_str()
            .is_some_and(|h| h.starts_with("file://") && h.ends_with("RPY001.md")),
        "{d}"
    );

    // Fix it with a one-character insertion.
    let mark = c.log.len();
    c.edit(&uri, 3, (end + 2, 6), (end + 2, 6), ")");
    let fixed = c.wait_diagnostics(mark, &uri, |p| p["version"] == 3);
    assert!(!has_code(&fixed, "RPY001"), "{fixed}");
    c.shutdown();
}

#[test]
fn files_that_are_not_open_get_diagnostics_without_version() {
    let ws = Workspace::new(
        "closed",
        &[
            ("main.py", MAIN),
            ("helper.py", HELPER),
            ("broken.py", "def g(:\n    pass\n"),
        ],
    );
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("broken.py");
    let got = c.wait_diagnostics(0, &uri, |p| has_code(p, "RPY001"));
    assert!(got.get("version").is_none_or(Value::is_null), "{got}");
    assert_eq!(diagnostic(&got, "RPY001")["range"]["start"]["line"], 0);

    // Opening it, fixing it in the buffer (unsaved) clears it, with the buffer's version.
    c.open(&uri, 7, "def g(:\n    pass\n");
    let mark = c.log.len();
    c.edit(&uri, 8, (0, 6), (0, 6), ")");
    let fixed = c.wait_diagnostics(mark, &uri, |p| p["version"] == 8);
    assert!(!has_code(&fixed, "RPY001"), "{fixed}");
    // Closing it goes back to the file on disk: broken again, without a version.
    let mark = c.log.len();
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let again = c.wait_diagnostics(mark, &uri, |p| has_code(p, "RPY001"));
    assert!(again.get("version").is_none_or(Value::is_null), "{again}");
    c.shutdown();
}

#[test]
fn hover_and_definition() {
    let ws = program("hover");
    let mut c = Client::start(
        &ws.root,
        json!({"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}}}),
    );
    let uri = ws.uri("main.py");
    c.open(&uri, 1, MAIN);
    // `helper.double(len(argv))` on line 6: hover and go to `double`.
    let line = MAIN.lines().nth(6).unwrap();
    let col = line.find("double").unwrap() as u32 + 2;
    let pos = json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": col}});
    let hover = c.request("textDocument/hover", pos.clone());
    assert_eq!(hover["contents"]["kind"], "markdown", "{hover}");
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("double"), "hover text: {text}");
    assert_eq!(
        hover["range"]["start"],
        json!({"line": 6, "character": col - 2}),
        "{hover}"
    );

    let def = c.request("textDocument/definition", pos);
    assert_eq!(def["uri"], ws.uri("helper.py"), "{def}");
    assert_eq!(def["range"]["start"]["line"], 0, "{def}");

    // Hover on a module constant names its value or type.
    let col = MAIN.lines().nth(7).unwrap().find("LIMIT").unwrap() as u32;
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": col}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("10") || text.contains("int"),
        "hover on LIMIT: {hover}"
    );

    // Hover on a local variable: its annotation in plain words and in the annotator's form;
    // its definition is its assignment.
    let col = MAIN.lines().nth(7).unwrap().find('n').unwrap() as u32;
    let pos = json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": col}});
    let hover = c.request("textDocument/hover", pos.clone());
    assert_eq!(
        hover["contents"]["value"],
        "(variable) n: int, non-negative\n\n---\nannotator: `SomeInteger(nonneg=True)`",
        "{hover}"
    );
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 7, "character": col}, "end": {"line": 7, "character": col + 1}})
    );
    let def = c.request("textDocument/definition", pos);
    assert_eq!(def["uri"], uri, "{def}");
    assert_eq!(
        def["range"],
        json!({"start": {"line": 6, "character": 4}, "end": {"line": 6, "character": 5}})
    );

    // Nothing under the cursor: null, not an error.
    let blank = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 0}}),
    );
    assert!(blank.is_null(), "{blank}");
    c.shutdown();
}

#[test]
fn many_rapid_edits_end_in_the_right_final_diagnostics() {
    let ws = program("rapid");
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("main.py");
    c.open(&uri, 1, MAIN);
    c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    let mark = c.log.len();

    // Type a new function one character at a time, without waiting: its text contains
    // non-ASCII (UTF-16 columns) and a syntax error whose column depends on every edit
    // having been applied in order.
    let end = line_count(MAIN);
    let typed = "\n\ndef h(s):\n    t = 'é😀' + s +\n    return t\n";
    let mut version = 1;
    let (mut line, mut col) = (end, 0u32);
    for ch in typed.chars() {
        version += 1;
        c.edit(&uri, version, (line, col), (line, col), &ch.to_string());
        if ch == '\n' {
            line += 1;
            col = 0;
        } else {
            col += ch.len_utf16() as u32;
        }
    }
    // Then delete and retype the last character of the broken line a few times.
    let broken_line = end + 3;
    let plus_col = "    t = 'é😀' + s +".encode_utf16().count() as u32 - 1;
    for _ in 0..5 {
        version += 1;
        c.edit(
            &uri,
            version,
            (broken_line, plus_col),
            (broken_line, plus_col + 1),
            "",
        );
        version += 1;
        c.edit(
            &uri,
            version,
            (broken_line, plus_col),
            (broken_line, plus_col),
            "+",
        );
    }
    let last = version;
    let fin = c.wait_diagnostics(mark, &uri, |p| p["version"] == last);
    let d = diagnostic(&fin, "RPY001");
    let start = d["range"]["start"]["line"].as_u64().unwrap() as u32;
    assert!(
        start == broken_line || start == broken_line + 1,
        "RPY001 at line {start}, expected {broken_line}: {d}"
    );

    // Versions published for the document never go backwards, none is newer than the last
    // edit, and the server analysed far fewer versions than it received (superseded).
    c.settle(Duration::from_millis(500));
    let versions: Vec<i64> = c
        .published(&uri)
        .iter()
        .filter_map(|p| p["version"].as_i64())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] <= w[1]), "{versions:?}");
    assert_eq!(*versions.last().unwrap(), last as i64);
    assert!(
        versions.len() < (last as usize) / 2,
        "debounce: {} publishes for {} versions",
        versions.len(),
        last
    );

    // The server's text is exactly the client's: hover at the last character's position
    // gives the same answer as a fresh open of the same text would.
    let mut expected = MAIN.to_string();
    expected.push_str(typed);
    let mark = c.log.len();
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    c.open(&uri, last + 1, &expected);
    let reopened = c.wait_diagnostics(mark, &uri, |p| p["version"] == last + 1);
    assert_eq!(reopened["diagnostics"], fin["diagnostics"]);
    c.shutdown();
}

#[test]
fn code_actions_suppress_and_symbols() {
    // An import rpy-lsp cannot find is one warning (RPY007), which can be suppressed.
    let text = "import no_such_module\n\n\ndef entry_point(argv):\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n";
    let ws = Workspace::new("actions", &[("main.py", text), ("helper.py", HELPER)]);
    let mut c = Client::start(
        &ws.root,
        json!({"workspace": {"workspaceEdit": {"documentChanges": true}}, "textDocument": {"documentSymbol": {"hierarchicalDocumentSymbolSupport": true}}}),
    );
    let uri = ws.uri("main.py");
    c.open(&uri, 1, text);
    let got = c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    let d = diagnostic(&got, "RPY007").clone();
    assert_eq!(d["range"]["start"]["line"], 0);

    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let suppress = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .is_some_and(|t| t.contains("rpy: ignore[RPY007]"))
        })
        .unwrap_or_else(|| panic!("no suppression among {actions}"))
        .clone();
    assert!(
        suppress["kind"].as_str().unwrap().starts_with("quickfix"),
        "{suppress}"
    );
    assert_eq!(suppress["diagnostics"][0]["code"], "RPY007");
    let doc_edit = &suppress["edit"]["documentChanges"][0];
    assert_eq!(doc_edit["textDocument"], json!({"uri": uri, "version": 1}));
    let edit = &doc_edit["edits"][0];
    assert!(edit["newText"]
        .as_str()
        .unwrap()
        .contains("# rpy: ignore[RPY007]"));

    // Apply it as the client would: the diagnostic goes away.
    let mark = c.log.len();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]}),
    );
    let after = c.wait_diagnostics(mark, &uri, |p| p["version"] == 2);
    assert!(!has_code(&after, "RPY007"), "{after}");

    // Hierarchical symbols of helper.py: Node with its methods.
    let helper = ws.uri("helper.py");
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": helper}}),
    );
    let node = symbols
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Node")
        .unwrap_or_else(|| panic!("{symbols}"));
    assert_eq!(node["kind"], 5, "class: {node}");
    let methods: Vec<&str> = node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["__init__", "get"]);
    assert_eq!(node["children"][1]["kind"], 6, "method");
    assert!(symbols
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["name"] == "double" && s["kind"] == 12));
    c.shutdown();
}

#[test]
fn configuration_progress_inlay_hints_and_flow_graph() {
    let ws = Workspace::new(
        "config",
        &[("main.py", MAIN), ("helper.py", HELPER), ("other.py", "def entry_point(argv):\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n")],
    );
    let caps = json!({"window": {"workDoneProgress": true}, "workspace": {"configuration": true, "inlayHint": {"refreshSupport": true}}});
    let mut c = Client::start_with(
        &ws.root,
        caps,
        json!({"entryPoints": ["main.py"], "inlayHints": {"enable": true}}),
    );
    let uri = ws.uri("main.py");
    c.open(&uri, 1, MAIN);
    c.wait_diagnostics(0, &uri, |p| p["version"] == 1);

    // Work-done progress was created, begun and ended around the analysis.
    c.settle(Duration::from_millis(300));
    assert!(c
        .log
        .iter()
        .any(|m| m["method"] == "window/workDoneProgress/create"));
    let kinds: Vec<&str> = c
        .log
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .filter_map(|m| m["params"]["value"]["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"begin") && kinds.contains(&"end"),
        "{kinds:?}"
    );

    // Inlay hints answer; turned off by a configuration change they are empty.
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}});
    let hints = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": range}),
    );
    assert!(hints.is_array(), "{hints}");
    // Pull model: the notification carries no settings; the server asks for them.
    *c.settings.lock().unwrap() =
        json!({"entryPoints": ["other.py"], "inlayHints": {"enable": false}});
    let mark = c.log.len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    // A re-analysis with the new entry point: main.py is no longer reached from a target.
    let republished = c.wait_diagnostics(mark, &uri, |p| p["version"] == 1);
    assert!(has_code(&republished, "RPY006"), "{republished}");
    let hints = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": range}),
    );
    assert_eq!(hints, json!([]));
    assert!(c.log[mark..]
        .iter()
        .any(|m| m["method"] == "workspace/inlayHint/refresh"));

    // Push model (VS Code): the settings are in the notification.
    let mark = c.log.len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"rpy-lsp": {"entryPoints": ["main.py"]}}}),
    );
    let back = c.wait_diagnostics(mark, &uri, |p| p["version"] == 1);
    assert!(!has_code(&back, "RPY006"), "{back}");

    // The flow graph of the function at the cursor, as DOT.
    let graph = c.request(
        "rpy-lsp/flowGraph",
        json!({"textDocument": {"uri": uri}, "position": {"line": 7, "character": 8}}),
    );
    let dot = graph["dot"].as_str().unwrap_or_else(|| panic!("{graph}"));
    assert!(
        dot.starts_with("digraph") && dot.contains("entry_point"),
        "{dot}"
    );
    let none = c.request(
        "rpy-lsp/flowGraph",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 0}}),
    );
    assert_eq!(none, json!({"dot": null}));
    c.shutdown();
}

#[test]
fn inlay_hints_show_types_and_the_setting_turns_them_off() {
    let ws = program("inlay");
    let caps = json!({"workspace": {"inlayHint": {"refreshSupport": true}}});
    let mut c = Client::start(&ws.root, caps);
    let uri = ws.uri("main.py");
    c.open(&uri, 1, MAIN);
    c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    let params = json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}});
    let hints = c.request("textDocument/inlayHint", params.clone());
    let got: Vec<(Value, Value, Value)> = hints
        .as_array()
        .unwrap_or_else(|| panic!("{hints}"))
        .iter()
        .map(|h| (h["position"].clone(), h["label"].clone(), h["kind"].clone()))
        .collect();
    // `argv` in `def entry_point(argv):` and `n` in `n = helper.double(len(argv))`.
    assert_eq!(
        got,
        vec![
            (
                json!({"line": 5, "character": 20}),
                json!(": list of str"),
                json!(1)
            ),
            (json!({"line": 6, "character": 5}), json!(": int"), json!(1)),
        ],
        "{hints}"
    );
    // A range that covers only line 6 gets only its hint.
    let line6 = json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 6, "character": 0}, "end": {"line": 7, "character": 0}}});
    let hints = c.request("textDocument/inlayHint", line6);
    assert_eq!(hints.as_array().map(Vec::len), Some(1), "{hints}");

    // Turned off (VS Code's push model): the server asks the client to refresh, and answers
    // with no hints.
    let mark = c.log.len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"rpy-lsp": {"inlayHints": {"enable": false}}}}),
    );
    let until = Instant::now() + TIMEOUT;
    while !c.log[mark..]
        .iter()
        .any(|m| m["method"] == "workspace/inlayHint/refresh")
    {
        assert!(c.pump(until), "no inlayHint/refresh");
    }
    assert_eq!(
        c.request("textDocument/inlayHint", params.clone()),
        json!([])
    );

    // Back on: the hints are back.
    let mark = c.log.len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"rpy-lsp": {"inlayHints": {"enable": true}}}}),
    );
    while c.log[mark..]
        .iter()
        .filter(|m| m["method"] == "workspace/inlayHint/refresh")
        .count()
        == 0
    {
        assert!(c.pump(until), "no inlayHint/refresh");
    }
    let hints = c.request("textDocument/inlayHint", params);
    assert_eq!(hints.as_array().map(Vec::len), Some(2), "{hints}");
    c.shutdown();
}

#[test]
fn definition_into_a_bundled_model() {
    // ll_assert is a function of the bundled model (check_nonneg is now a built-in alias)
    let text = "from rpython.rlib.debug import ll_assert\n\n\ndef entry_point(argv):\n    ll_assert(len(argv) > 0, \"argv\")\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n";
    let ws = Workspace::new("bundled", &[("main.py", text)]);
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("main.py");
    c.open(&uri, 1, text);
    c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    let def = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 6}}),
    );
    let target = def["uri"].as_str().unwrap_or_else(|| panic!("{def}"));
    assert!(
        target.starts_with("file://") && target.ends_with("rpython/rlib/debug.py"),
        "{target}"
    );
    let path = PathBuf::from(target.strip_prefix("file://").unwrap());
    let model = std::fs::read_to_string(&path).unwrap();
    let line = def["range"]["start"]["line"].as_u64().unwrap() as usize;
    assert!(
        model.lines().nth(line).unwrap().contains("def ll_assert"),
        "{def}"
    );
    // The model opened in the editor answers hover too, and gets no diagnostics of its own.
    c.open(target, 1, &model);
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": target}, "position": def["range"]["start"]}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("ll_assert")),
        "{hover}"
    );
    c.shutdown();
}

#[test]
fn definition_of_a_builtin_alias_in_a_bundled_model() {
    // check_nonneg is a built-in of the registry that the bundled debug model binds to its
    // name: go-to-definition goes to that line of the model
    let text = "from rpython.rlib.debug import check_nonneg\n\n\ndef entry_point(argv):\n    check_nonneg(len(argv))\n    return 0\n\n\ndef target(*args):\n    return entry_point, None\n";
    let ws = Workspace::new("bundled_alias", &[("main.py", text)]);
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("main.py");
    c.open(&uri, 1, text);
    c.wait_diagnostics(0, &uri, |p| p["version"] == 1);
    for (line, character) in [(4, 8), (0, 35)] {
        let def = c.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        );
        let target = def["uri"].as_str().unwrap_or_else(|| panic!("{def}"));
        assert!(
            target.starts_with("file://") && target.ends_with("rpython/rlib/debug.py"),
            "{target}"
        );
        let path = PathBuf::from(target.strip_prefix("file://").unwrap());
        let model = std::fs::read_to_string(&path).unwrap();
        let at = def["range"]["start"]["line"].as_u64().unwrap() as usize;
        assert!(
            model
                .lines()
                .nth(at)
                .unwrap()
                .starts_with("check_nonneg = "),
            "{def}"
        );
    }
    c.shutdown();
}

#[test]
fn bad_input_never_kills_the_server() {
    let ws = program("bad");
    let mut c = Client::start(&ws.root, json!({}));
    let uri = ws.uri("main.py");
    // Edits to documents that were never opened, other schemes, absurd positions, a range
    // that ends before it starts, a change without a range.
    c.edit(&ws.uri("nope.py"), 2, (0, 0), (0, 0), "x");
    c.open("untitled:Untitled-1", 1, "def f(:\n");
    c.edit("untitled:Untitled-1", 2, (0, 0), (0, 0), "x");
    c.open(&uri, 1, MAIN);
    c.edit(&uri, 2, (9999, 9999), (9999, 99999), "\n# tail\n");
    c.edit(&uri, 3, (5, 40), (2, 1), "é😀");
    c.edit(&uri, 4, (3, 4_000_000_000), (4, 4_000_000_000), "");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": MAIN}]}),
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri}, "contentChanges": "garbage"}),
    );
    c.notify("no/suchNotification", json!({"a": 1}));
    // Malformed params: an error response, not a crash.
    let bad = c.request_raw("textDocument/hover", json!({"textDocument": 3}));
    assert!(bad.get("error").is_some(), "{bad}");
    let unknown = c.request_raw("no/suchMethod", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    // Queries on things the server does not know.
    let far =
        json!({"textDocument": {"uri": uri}, "position": {"line": 100000, "character": 100000}});
    assert!(c.request("textDocument/hover", far.clone()).is_null());
    assert!(c.request("textDocument/definition", far).is_null());
    let other = json!({"textDocument": {"uri": ws.uri("nope.py")}, "position": {"line": 0, "character": 0}});
    assert!(c.request("textDocument/hover", other).is_null());
    let untitled = json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 0, "character": 0}});
    assert!(c.request("textDocument/hover", untitled).is_null());
    // Still serving, with the text of the full replacement.
    let fin = c.wait_diagnostics(0, &uri, |p| p["version"] == 5);
    assert!(!has_code(&fin, "RPY001"), "{fin}");
    let col = MAIN.lines().nth(6).unwrap().find("double").unwrap() as u32;
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 6, "character": col}}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|v| v.contains("double")),
        "{hover}"
    );
    c.shutdown();
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let ws = program("exit");
    let mut c = Client::start(&ws.root, json!({}));
    c.notify("exit", json!(null));
    let until = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = c.child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(1));
            return;
        }
        assert!(Instant::now() < until, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue #10: malformed messages get the JSON-RPC error the specification prescribes and the
/// server keeps serving; a file with lone-CR line endings is a target with real lines.
#[test]
fn malformed_messages_are_answered_and_the_server_stays_up() {
    let ws = program("malformed");
    let mut c = Client::start(&ws.root, json!({}));
    let raw = |c: &Client, body: &[u8]| {
        let mut stdin = c.stdin.lock().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(body).unwrap();
        stdin.flush().unwrap();
    };
    let cases: [(&[u8], i64, Value); 5] = [
        (b"{not json", -32700, Value::Null),
        (b"[]", -32600, Value::Null),
        (b"42", -32600, Value::Null),
        (
            br#"{"jsonrpc":"1.0","id":901,"method":"shutdown"}"#,
            -32600,
            json!(901),
        ),
        (
            br#"[{"jsonrpc":"2.0","id":902,"method":"shutdown"}]"#,
            -32600,
            json!(902),
        ),
    ];
    for (body, code, id) in cases {
        let from = c.log.len();
        raw(&c, body);
        let until = Instant::now() + TIMEOUT;
        let answer = loop {
            if let Some(m) = c.log[from..].iter().find(|m| {
                let m = if m.is_array() { &m[0] } else { *m };
                m.get("error").is_some()
            }) {
                break m.clone();
            }
            assert!(
                c.pump(until),
                "no answer to {}",
                String::from_utf8_lossy(body)
            );
        };
        let answer = if answer.is_array() {
            answer[0].clone()
        } else {
            answer
        };
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert_eq!(answer["id"], id, "{answer}");
    }
    // A normal request still works, and a lone-CR file is analysed as a target.
    let text = "def entry_point(argv):\r    x = 1\r    return x + 'a'\rdef target(*args):\r    return entry_point, None\r";
    std::fs::write(ws.path("cr.py"), text).unwrap();
    let uri = ws.uri("cr.py");
    c.open(&uri, 1, text);
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(symbols.to_string().contains("entry_point"), "{symbols}");
    let params = c.wait_diagnostics(0, &uri, |p| {
        !p["diagnostics"].as_array().unwrap().is_empty()
    });
    let d = &params["diagnostics"][0];
    assert_eq!(d["code"], "RPY108", "{params}");
    assert_eq!(d["range"]["start"]["line"], 2, "{params}");
    c.shutdown();
}

/// Issue #10: a document whose analysis stops (too deep, memory budget, endless loop) gets a
/// diagnostic saying why, and the server goes on answering.
#[test]
fn analyses_that_stop_are_diagnostics_and_the_server_stays_up() {
    let ws = program("stops");
    let mut c = Client::start(&ws.root, json!({}));
    let tail = "\ndef entry_point(argv):\n    return 0\n\ndef target(*args):\n    return entry_point, None\n";
    let cases = [
        (
            "deep.py",
            format!("x = {}1\n{tail}", "-".repeat(20_000)),
            "RPY001",
        ),
        (
            "hog.py",
            format!("s = ''\nwhile 1:\n    s += 'a'\n{tail}"),
            "RPY004",
        ),
    ];
    for (name, text, code) in cases {
        std::fs::write(ws.path(name), &text).unwrap();
        let uri = ws.uri(name);
        c.open(&uri, 1, &text);
        let params = c.wait_diagnostics(0, &uri, |p| has_code(p, code));
        assert!(has_code(&params, code), "{params}");
        let symbols = c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": ws.uri("main.py")}}),
        );
        assert!(symbols.to_string().contains("entry_point"), "{symbols}");
    }
    c.shutdown();
}
