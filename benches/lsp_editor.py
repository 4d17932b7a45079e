#!/usr/bin/env python3
"""Latency of the editor requests of `rpy-lsp serve` on the generated 10,000-line program of
lsp_latency.py: references, call hierarchy, workspace symbols, completion and signature help
(both while the line being typed does not parse).

Usage: lsp_editor.py SERVER_BINARY [--lines N] [--runs N]

Prints, per request, the median and p95 over RUNS requests and what the last one answered
(how many results), so a fast but empty answer shows.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_latency import Server, file_uri, percentile, write_program  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()

    root = tempfile.mkdtemp(prefix="rpy-lsp-bench-editor-")
    try:
        lines, files = write_program(root, args.lines)
        print("program: %d lines in %d files" % (lines, files))
        path = os.path.join(root, "mod0.py")
        uri = file_uri(path)
        with open(path) as f:
            text = f.read()
        doc = text.split("\n")
        server = Server(args.binary, root)
        server.request("initialize", {"processId": os.getpid(), "rootUri": file_uri(root), "capabilities": {
            "textDocument": {"publishDiagnostics": {"versionSupport": True}}}})
        server.notify("initialized", {})
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
        server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri and m["params"].get("version") == 1)

        def at(prefix, needle, delta=0):
            line = next(i for i, l in enumerate(doc) if l.startswith(prefix))
            return {"textDocument": {"uri": uri}, "position": {"line": line, "character": doc[line].index(needle) + delta}}

        def count(result):
            if result is None:
                return "null"
            if isinstance(result, list):
                return "%d results" % len(result)
            if "signatures" in result:
                return repr(result["signatures"][0]["label"]) if result["signatures"] else "no signature"
            return "?"

        rows = []

        def measure(name, method, params_fn):
            ms = []
            result = None
            for _ in range(args.runs):
                params = params_fn()
                start = time.perf_counter()
                t, result = server.request(method, params)
                ms.append((t - start) * 1000)
            rows.append((name, percentile(ms, 50), percentile(ms, 95), count(result)))
            return result

        value_attr = at("        self.value = value", "value", 0)
        measure("references of an attribute (self.value)", "textDocument/references",
                lambda: dict(value_attr, context={"includeDeclaration": True}))
        compute = at("def compute0_0(", "compute0_0", 1)
        measure("references of a function", "textDocument/references",
                lambda: dict(compute, context={"includeDeclaration": True}))
        items = measure("prepare call hierarchy", "textDocument/prepareCallHierarchy", lambda: compute)
        measure("incoming calls", "callHierarchy/incomingCalls", lambda: {"item": items[0]})
        measure("outgoing calls", "callHierarchy/outgoingCalls", lambda: {"item": items[0]})
        measure("workspace symbols 'total'", "workspace/symbol", lambda: {"query": "total"})

        # Typing: `x = head.` on a new line in compute0_0 (the buffer does not parse).
        line = next(i for i, l in enumerate(doc) if l.startswith("    return head.total()"))
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": "    x = head.\n"}]})
        measure("completion after `head.` (buffer does not parse)", "textDocument/completion",
                lambda: {"textDocument": {"uri": uri}, "position": {"line": line, "character": 13}})
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 13}}, "text": "compute0_1(1, "}]})
        measure("signature help in `compute0_1(1, `", "textDocument/signatureHelp",
                lambda: {"textDocument": {"uri": uri}, "position": {"line": line, "character": 22}})

        width = max(len(r[0]) for r in rows)
        print("%-*s  %8s  %8s  %s" % (width, "request", "p50 ms", "p95 ms", "last answer"))
        for name, p50, p95, what in rows:
            print("%-*s  %8.1f  %8.1f  %s" % (width, name, p50, p95, what))
        server.request("shutdown", None)
        server.notify("exit", None)
        server.proc.wait(timeout=10)
        return 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
