#!/usr/bin/env python3
"""Latency of `rpy-lsp serve` on a generated 10,000-line RPython program.

Measures, over stdio JSON-RPC like an editor:
  * edit -> updated diagnostics: a one-character didChange until the publishDiagnostics
    carrying that document version (debounce included);
  * hover: request -> response on an up-to-date analysis;
  * hover right after an edit (waits for the analysis of that version);
  * hover on a local variable (its annotation) and inlay hints for the whole file.

Usage: lsp_latency.py SERVER_BINARY [--lines N] [--edits N] [--hovers N] [--strict]
                      [--edit-kind digit|comment|base] [--edit-module first|last]

Measured figures (before/after each change, per edit kind, 10k and 50k lines) are in the
header of benches/lsp_latency.sh.
"""

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

EDIT_P95_TARGET_MS = 250.0
HOVER_P95_TARGET_MS = 20.0


# --------------------------------------------------------------------------------------
# The program.

BASE = """class Base(object):
    def visit(self, n):
        return n + 1
"""


def module_text(m, lines_wanted, shared_base=False):
    """One module of about `lines_wanted` lines: classes, methods, arithmetic, lists, dicts,
    strings, loops; `run_m(n)` calls everything. With `shared_base`, every class derives
    from `base.Base`, every other one overrides `visit`, and every function calls it."""
    out = ["# generated module %d" % m, "", ""]
    if shared_base:
        out = ["# generated module %d" % m, "from base import Base", "", ""]
    calls = []
    k = 0
    while len(out) < lines_wanted - 12:
        if shared_base:
            out += [
                "class Node%d_%d(Base):" % (m, k),
            ]
            if k % 2:
                out += [
                    "    def visit(self, n):",
                    "        return n * %d" % (k % 5 + 2),
                    "",
                ]
        else:
            out += [
                "class Node%d_%d(object):" % (m, k),
            ]
        out += [
            "    def __init__(self, value, next):",
            "        self.value = value",
            "        self.next = next",
            "",
            "    def total(self):",
            "        node = self",
            "        s = 0",
            "        while node is not None:",
            "            s += node.value",
            "            node = node.next",
            "        return s",
            "",
            "",
            "def compute%d_%d(x, y):" % (m, k),
            "    a = x + y * %d" % (k % 9 + 1),
            "    if a > 100:",
            "        a = a - 100",
            "    items = [a, x, y]",
            "    items.append(a %% %d)" % (k % 7 + 2),
            "    names = {}",
            "    names['k%d'] = len(items)" % k,
            "    label = 'v' + str(a)",
            "    head = Node%d_%d(a, None)" % (m, k),
            "    head = Node%d_%d(x, head)" % (m, k),
            "    return head.total() + names['k%d'] + len(label)%s" % (k, " + head.visit(a)" if shared_base else ""),
            "",
            "",
        ]
        calls.append("    total += compute%d_%d(n, total %% 13)" % (m, k))
        k += 1
    out += ["def run_%d(n):" % m, "    total = 0"] + calls + ["    return total", ""]
    return "\n".join(out)


def write_program(root, lines, shared_base=False):
    per_module = 500
    modules = max(1, (lines - 20) // per_module)
    total = 0
    if shared_base:
        with open(os.path.join(root, "base.py"), "w") as f:
            f.write(BASE)
        total += BASE.count("\n")
    for m in range(modules):
        text = module_text(m, per_module, shared_base)
        with open(os.path.join(root, "mod%d.py" % m), "w") as f:
            f.write(text)
        total += text.count("\n") + 1
    main = ["import os"] + ["import mod%d" % m for m in range(modules)] + ["", "", "def entry_point(argv):", "    n = len(argv)", "    total = 0"]
    main += ["    total += mod%d.run_%d(n)" % (m, m) for m in range(modules)]
    main += ["    os.write(1, str(total) + '\\n')", "    return 0", "", "", "def target(*args):", "    return entry_point, None", ""]
    text = "\n".join(main)
    with open(os.path.join(root, "main.py"), "w") as f:
        f.write(text)
    total += text.count("\n") + 1
    return total, modules + 1


# --------------------------------------------------------------------------------------
# A minimal LSP client.

class Server:
    def __init__(self, binary, root):
        env = dict(os.environ, RPY_LSP_CACHE_DIR=os.path.join(root, ".cache"))
        self.proc = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.messages = queue.Queue()
        self.next_id = 0
        self.backlog = []  # received, not yet waited for
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            now = time.perf_counter()
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self._write({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            self.messages.put((now, msg))

    def _write(self, msg):
        body = json.dumps(msg).encode()
        with self.lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def notify(self, method, params):
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def send_request(self, method, params):
        self.next_id += 1
        self._write({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, pred, timeout=120.0):
        """The first message satisfying pred, with its arrival time."""
        for i, item in enumerate(self.backlog):
            if pred(item[1]):
                return self.backlog.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message within %.0f s" % timeout)
            item = self.messages.get(timeout=left)
            if item is None:
                raise RuntimeError("the server exited")
            if pred(item[1]):
                return item
            self.backlog.append(item)
            del self.backlog[:-1000]

    def request(self, method, params):
        rid = self.send_request(method, params)
        t, msg = self.wait(lambda m: m.get("id") == rid and "method" not in m)
        if "error" in msg:
            raise RuntimeError("%s failed: %s" % (method, msg["error"]))
        return t, msg.get("result")


def file_uri(path):
    return "file://" + urllib.parse.quote(path)


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def cpu_seconds(pid):
    """User + system CPU time of a process so far (Linux), or None: on a loaded machine the
    server's CPU time per edit is the figure that does not depend on the other processes."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return None


def summary(name, ms, target=None):
    line = "%-40s n=%-4d p50 %7.1f ms   p95 %7.1f ms   max %7.1f ms" % (name, len(ms), percentile(ms, 50), percentile(ms, 95), max(ms) if ms else float("nan"))
    if target is not None:
        ok = percentile(ms, 95) <= target
        line += "   (target p95 <= %g ms: %s)" % (target, "met" if ok else "MISSED")
        return line, ok
    return line, True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--lines", type=int, default=10000)
    ap.add_argument("--edits", type=int, default=60)
    ap.add_argument("--hovers", type=int, default=200)
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    ap.add_argument("--edit-kind", choices=["digit", "comment", "base"], default="digit",
                    help="digit: toggle a constant of a function (the code changes); comment: "
                         "add or remove a '#' at the end of the same lines (the code only moves); "
                         "base: every class derives from one base class whose method every other "
                         "one overrides, and the edit toggles the constant of the base's method")
    ap.add_argument("--edit-module", choices=["first", "last"], default="first",
                    help="the module edited by digit and comment edits: the first the main "
                         "module imports (mod0) or the last")
    args = ap.parse_args()

    root = tempfile.mkdtemp(prefix="rpy-lsp-bench-")
    try:
        shared = args.edit_kind == "base"
        lines, files = write_program(root, args.lines, shared)
        print("program: %d lines in %d files (%s)" % (lines, files, root))
        modules = max(1, (args.lines - 20) // 500)
        name = "mod0.py" if args.edit_module == "first" else "mod%d.py" % (modules - 1)
        path = os.path.join(root, "base.py" if shared else name)
        uri = file_uri(path)
        with open(path) as f:
            text = f.read()
        doc_lines = text.split("\n")

        server = Server(args.binary, root)
        t0 = time.perf_counter()
        server.request("initialize", {"processId": os.getpid(), "rootUri": file_uri(root), "capabilities": {
            "textDocument": {"hover": {"contentFormat": ["markdown"]}, "publishDiagnostics": {"versionSupport": True}}}})
        server.notify("initialized", {})
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})

        def diagnostics_for(version):
            return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"]["uri"] == uri and m["params"].get("version") == version)

        t, msg = server.wait(diagnostics_for(1))
        print("startup: initialize -> first diagnostics of the open file: %.0f ms (%d diagnostics)"
              % ((t - t0) * 1000, len(msg["params"]["diagnostics"])))

        # One-character edits: toggle the digit of `a = x + y * K` in successive functions.
        edit_lines = [i for i, l in enumerate(doc_lines) if l.startswith("    a = x + y * ") or l == "        return n + 1"]
        version = 1
        edit_ms = []
        hover_ms = []
        hover_after_edit_ms = []
        hover_line = next(i for i, l in enumerate(doc_lines) if l.startswith("    head = Node") or l.startswith("class Base"))
        hover_col = doc_lines[hover_line].index("Node" if "Node" in doc_lines[hover_line] else "Base") + 2
        hover_params = {"textDocument": {"uri": uri}, "position": {"line": hover_line, "character": hover_col}}
        local_line = next(i for i, l in enumerate(doc_lines) if l.startswith("    label = ") or l.startswith("    def visit"))
        local_params = {"textDocument": {"uri": uri}, "position": {"line": local_line, "character": 5}}
        inlay_params = {"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": len(doc_lines), "character": 0}}}
        local_hover_ms = []
        inlay_ms = []
        hovers_per_edit = max(1, args.hovers // max(1, args.edits))
        hover_text = None
        local_text = None
        inlay_count = None
        cpu_before = cpu_seconds(server.proc.pid)
        for i in range(args.edits):
            line = edit_lines[i % len(edit_lines)]
            if args.edit_kind in ("digit", "base"):
                col = len(doc_lines[line]) - 1
                old = doc_lines[line][col]
                new = "5" if old != "5" else "6"
                end = col + 1
            elif doc_lines[line].endswith("#"):
                col, end, new = len(doc_lines[line]) - 1, len(doc_lines[line]), ""
            else:
                col = end = len(doc_lines[line])
                new = "#"
            doc_lines[line] = doc_lines[line][:col] + new + doc_lines[line][end:]
            version += 1
            sent = time.perf_counter()
            server.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": end}}, "text": new}],
            })
            if i % 4 == 3:
                # A hover sent right behind the edit: answered once that version is analysed.
                t, _ = server.request("textDocument/hover", hover_params)
                hover_after_edit_ms.append((t - sent) * 1000)
            t, _ = server.wait(diagnostics_for(version))
            edit_ms.append((t - sent) * 1000)
            for _ in range(hovers_per_edit):
                start = time.perf_counter()
                t, result = server.request("textDocument/hover", hover_params)
                hover_ms.append((t - start) * 1000)
                if result:
                    hover_text = result["contents"]["value"]
                start = time.perf_counter()
                t, result = server.request("textDocument/hover", local_params)
                local_hover_ms.append((t - start) * 1000)
                if result:
                    local_text = result["contents"]["value"]
            start = time.perf_counter()
            t, result = server.request("textDocument/inlayHint", inlay_params)
            inlay_ms.append((t - start) * 1000)
            inlay_count = len(result or [])

        cpu_after = cpu_seconds(server.proc.pid)
        if cpu_before is not None and cpu_after is not None and args.edits:
            print("server CPU time per edit (its analysis, hovers and inlay hints): %.0f ms"
                  % ((cpu_after - cpu_before) * 1000 / args.edits))
        print("hover text at %d:%d: %r" % (hover_line + 1, hover_col + 1, hover_text))
        print("hover text at %d:6: %r" % (local_line + 1, local_text))
        print("inlay hints in %s: %s" % (os.path.basename(path), inlay_count))
        ok = True
        for name, values, target in [
            ("one-character edit -> diagnostics", edit_ms, EDIT_P95_TARGET_MS),
            ("hover (analysis up to date)", hover_ms, HOVER_P95_TARGET_MS),
            ("hover on a local variable", local_hover_ms, HOVER_P95_TARGET_MS),
            ("hover sent right after an edit", hover_after_edit_ms, None),
            ("inlay hints, whole file", inlay_ms, None),
        ]:
            line, met = summary(name, values, target)
            ok = ok and met
            print(line)

        server.request("shutdown", None)
        server.notify("exit", None)
        server.proc.wait(timeout=10)
        return 0 if ok or not args.strict else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
