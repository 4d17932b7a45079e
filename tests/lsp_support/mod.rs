//! A minimal LSP client for the end-to-end tests of `rpy-lsp serve` (the real binary,
//! spoken to in JSON-RPC over stdio) and throwaway workspaces on disk. Shared by the
//! `lsp_*` test crates; each uses part of it.
#![allow(dead_code)]
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------------
// A minimal LSP client.

pub fn write_message(out: &mut impl Write, msg: &Value) {
    let body = serde_json::to_vec(msg).unwrap();
    write!(out, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
    out.write_all(&body).unwrap();
    out.flush().unwrap();
}

pub fn read_message(input: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    input.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

pub struct Client {
    pub child: Child,
    pub stdin: Arc<Mutex<ChildStdin>>,
    pub rx: Receiver<Value>,
    /// Every message received from the server, in order.
    pub log: Vec<Value>,
    pub next_id: i64,
    /// Answers to `workspace/configuration`.
    pub settings: Arc<Mutex<Value>>,
}

pub fn file_uri(path: &Path) -> String {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

impl Client {
    /// Starts the server for the workspace `root` and completes the initialize handshake.
    pub fn start(root: &Path, capabilities: Value) -> Client {
        Client::start_with(root, capabilities, json!({}))
    }

    /// `settings` is what the client answers to `workspace/configuration`.
    pub fn start_with(root: &Path, capabilities: Value, settings: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rpy-lsp"))
            .arg("serve")
            .env("RPY_LSP_CACHE_DIR", root.join(".cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start rpy-lsp serve");
        let stdin = Arc::new(Mutex::new(child.stdin.take().unwrap()));
        let stdout = child.stdout.take().unwrap();
        let settings = Arc::new(Mutex::new(settings));
        let (tx, rx) = channel();
        {
            let stdin = stdin.clone();
            let settings = settings.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                while let Some(msg) = read_message(&mut reader) {
                    // Answer the server's requests as a client would.
                    if let (Some(id), Some(method)) =
                        (msg.get("id"), msg.get("method").and_then(Value::as_str))
                    {
                        let result = match method {
                            "workspace/configuration" => {
                                let n = msg["params"]["items"].as_array().map_or(1, Vec::len);
                                Value::Array(vec![settings.lock().unwrap().clone(); n])
                            }
                            _ => Value::Null,
                        };
                        write_message(
                            &mut *stdin.lock().unwrap(),
                            &json!({"jsonrpc": "2.0", "id": id, "result": result}),
                        );
                    }
                    if tx.send(msg).is_err() {
                        break;
                    }
                }
            });
        }
        let mut client = Client {
            child,
            stdin,
            rx,
            log: Vec::new(),
            next_id: 0,
            settings,
        };
        let init = client.request(
            "initialize",
            json!({
                "processId": std::process::id(),
                "rootUri": file_uri(root),
                "capabilities": capabilities,
            }),
        );
        assert_eq!(
            init["capabilities"]["textDocumentSync"]["change"], 2,
            "incremental sync: {init}"
        );
        client.notify("initialized", json!({}));
        client
    }

    pub fn send(&self, msg: Value) {
        write_message(&mut *self.stdin.lock().unwrap(), &msg);
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Receives one message into the log; false on timeout.
    pub fn pump(&mut self, until: Instant) -> bool {
        let left = until.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(msg) => {
                self.log.push(msg);
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the server closed its output; log: {:#?}", self.log)
            }
        }
    }

    /// Sends a request and waits for its response; returns the whole response.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let until = Instant::now() + TIMEOUT;
        let mut seen = self.log.len();
        loop {
            while seen < self.log.len() {
                let m = &self.log[seen];
                seen += 1;
                if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                    return m.clone();
                }
            }
            assert!(
                self.pump(until),
                "no response to {method} within {TIMEOUT:?}"
            );
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request_raw(method, params);
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    /// Waits for a `publishDiagnostics` for `uri` (searching from log index `from`) that
    /// satisfies `pred`; returns its params.
    pub fn wait_diagnostics(
        &mut self,
        from: usize,
        uri: &str,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let until = Instant::now() + TIMEOUT;
        let mut seen = from;
        loop {
            while seen < self.log.len() {
                let m = &self.log[seen];
                seen += 1;
                if m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri
                    && pred(&m["params"])
                {
                    return m["params"].clone();
                }
            }
            assert!(
                self.pump(until),
                "no matching diagnostics for {uri}; published: {:#?}",
                self.published(uri)
            );
        }
    }

    /// Every `publishDiagnostics` for `uri` received so far.
    pub fn published(&self, uri: &str) -> Vec<Value> {
        self.log
            .iter()
            .filter(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            })
            .map(|m| m["params"].clone())
            .collect()
    }

    /// Reads whatever arrives during `d`.
    pub fn settle(&mut self, d: Duration) {
        let until = Instant::now() + d;
        while self.pump(until) {}
    }

    pub fn open(&self, uri: &str, version: i32, text: &str) {
        self.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}}));
    }

    /// One incremental change replacing `[(l1, c1), (l2, c2))` (UTF-16 columns).
    pub fn edit(
        &self,
        uri: &str,
        version: i32,
        (l1, c1): (u32, u32),
        (l2, c2): (u32, u32),
        text: &str,
    ) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}, "text": text}],
            }),
        );
    }

    /// `shutdown` then `exit`; the server must exit with status 0.
    pub fn shutdown(mut self) {
        self.request("shutdown", json!(null));
        self.notify("exit", json!(null));
        let until = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < until, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------
// Workspaces.

pub struct Workspace {
    pub root: PathBuf,
}

impl Workspace {
    pub fn new(name: &str, files: &[(&str, &str)]) -> Workspace {
        let root =
            std::env::temp_dir().join(format!("rpy-lsp-e2e-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        Workspace { root }
    }
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
    pub fn uri(&self, rel: &str) -> String {
        file_uri(&self.path(rel))
    }
    pub fn text(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
