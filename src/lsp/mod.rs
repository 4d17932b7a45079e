//! The language server (`rpy-lsp serve`, LSP over stdio).
//!
//! This layer only translates: protocol requests become engine calls on an
//! [`engine::Analysis`], engine values become protocol values (`convert`). It holds no
//! analysis logic.
//!
//! How a keystroke flows:
//! * `didOpen`/`didChange`/`didClose` edit the document ropes synchronously, before their
//!   handler's first await. tower-lsp-server first-polls handler futures in arrival order
//!   (its buffer is a FIFO `FuturesUnordered` driven by one task), so changes are applied
//!   strictly in the order received. Each edit bumps a generation counter, which wakes the
//!   analysis task.
//! * The analysis task (off the message loop) waits until no edit came for [`DEBOUNCE`],
//!   snapshots the open buffers and has the engine thread (`worker`, which owns the
//!   analysis: it is not `Send`) run the whole-program `engine::analyze`. When an edit
//!   arrived meanwhile the result is superseded: it serves queries at the versions it saw,
//!   but its diagnostics are not published (the newer run follows at once). Otherwise
//!   diagnostics are published for every file of the program, open documents with their
//!   version, other files without.
//! * Position requests (hover, definition, ...) note the document version they were made
//!   against, wait for an analysis of exactly that version (never for typing to stop) and
//!   run their engine query on the engine thread, ahead of any waiting analysis.

mod cache;
mod convert;
mod documents;
pub mod filter;
mod requests;
mod settings;
mod worker;

use crate::fasthash::{HashMap, HashSet};
use cache::{Cache, BUNDLED_PREFIX};
use documents::Document;
use requests::workspace_edit;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use settings::Settings;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};
use worker::{AnalysisInput, Snapshot, Worker};

/// Quiet time after the last edit before an analysis starts.
pub const DEBOUNCE: Duration = Duration::from_millis(50);
/// How long a position request waits for the analysis of its document version.
const QUERY_WAIT: Duration = Duration::from_secs(20);

/// Runs the language server on stdin/stdout until the client says `exit`. Returns the process
/// exit code: 0 after an orderly `shutdown`, 1 otherwise (as the protocol asks).
pub fn serve() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("rpy-lsp: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let cache = Arc::new(Cache::new());
    let worker = match Worker::start(cache.clone()) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("rpy-lsp: cannot start the engine thread: {e}");
            return 1;
        }
    };
    let shut_down = Arc::new(AtomicBool::new(false));
    let flag = shut_down.clone();
    runtime.block_on(async move {
        let (service, socket) =
            LspService::build(move |client| Backend::new(client, flag, worker, cache))
                .custom_method("rpy-lsp/flowGraph", Backend::flow_graph)
                .finish();
        // Malformed messages never reach the protocol library (it would stop serving).
        let (to_server, server_input) = tokio::io::duplex(1 << 20);
        let stdout = filter::SharedStdout::stdout();
        tokio::spawn(filter::run(tokio::io::stdin(), to_server, stdout.clone()));
        Server::new(server_input, stdout, socket)
            // Position requests may wait for an analysis; let them not hold up edits.
            .concurrency_level(64)
            .serve(service)
            .await;
    });
    // Neither the analysis task nor the blocking stdin reader may keep the process alive.
    runtime.shutdown_timeout(Duration::from_millis(200));
    if shut_down.load(Ordering::SeqCst) {
        0
    } else {
        1
    }
}

/// What the client said it supports, read once from `initialize`.
#[derive(Clone, Copy, Debug, Default)]
struct ClientCaps {
    work_done_progress: bool,
    configuration: bool,
    hierarchical_symbols: bool,
    inlay_hint_refresh: bool,
    watched_files_registration: bool,
    document_changes: bool,
    hover_markdown: bool,
}

impl ClientCaps {
    fn from(caps: &lsp::ClientCapabilities) -> ClientCaps {
        let v = serde_json::to_value(caps).unwrap_or(Value::Null);
        let flag = |ptr: &str| v.pointer(ptr).and_then(Value::as_bool).unwrap_or(false);
        let hover_formats = v
            .pointer("/textDocument/hover/contentFormat")
            .and_then(Value::as_array);
        ClientCaps {
            work_done_progress: flag("/window/workDoneProgress"),
            configuration: flag("/workspace/configuration"),
            hierarchical_symbols: flag(
                "/textDocument/documentSymbol/hierarchicalDocumentSymbolSupport",
            ),
            inlay_hint_refresh: flag("/workspace/inlayHint/refreshSupport"),
            watched_files_registration: flag(
                "/workspace/didChangeWatchedFiles/dynamicRegistration",
            ),
            document_changes: flag("/workspace/workspaceEdit/documentChanges"),
            hover_markdown: hover_formats.is_some_and(|f| f.iter().any(|k| k == "markdown")),
        }
    }
}

/// The server's inputs, edited by the message handlers.
#[derive(Default)]
struct Inputs {
    docs: HashMap<PathBuf, Document>,
    root: Option<PathBuf>,
    settings: Settings,
    /// Bumped by every change of the inputs; an analysis is current when it saw the latest.
    generation: u64,
    /// Documents opened or closed since the last snapshot: their next diagnostics are
    /// published even when unchanged (a client may have dropped them on close).
    reopened: HashSet<PathBuf>,
}

/// What the async side knows of the engine thread's latest analysis.
#[derive(Debug, Default)]
struct Meta {
    versions: HashMap<PathBuf, i32>,
}

struct Shared {
    client: Client,
    inputs: Mutex<Inputs>,
    caps: OnceLock<ClientCaps>,
    /// The generation, for the analysis task to wait on.
    changes: watch::Sender<u64>,
    meta: watch::Sender<Option<Arc<Meta>>>,
    worker: Arc<Worker>,
    cache: Arc<Cache>,
    shut_down: Arc<AtomicBool>,
    loop_started: AtomicBool,
}

impl Shared {
    fn inputs(&self) -> MutexGuard<'_, Inputs> {
        self.inputs.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn caps(&self) -> ClientCaps {
        self.caps.get().copied().unwrap_or_default()
    }
    fn generation(&self) -> u64 {
        self.inputs().generation
    }
    /// Records that the inputs changed and wakes the analysis task.
    fn touch(&self, inputs: &mut Inputs) {
        inputs.generation += 1;
        self.changes.send_replace(inputs.generation);
    }
}

pub struct Backend {
    shared: Arc<Shared>,
}

/// Params of `rpy-lsp/flowGraph`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowGraphParams {
    pub text_document: lsp::TextDocumentIdentifier,
    pub position: lsp::Position,
}

/// Result of `rpy-lsp/flowGraph`: the DOT text of the function at the position, if any.
#[derive(Debug, Serialize)]
pub struct FlowGraphResult {
    pub dot: Option<String>,
}

fn path_of(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

/// What the client calls a document: a user file, or `Bundled` for the cached copy of a
/// bundled model (opened through go-to-definition; the engine knows it as `<bundled>/...`).
enum DocPath {
    User(PathBuf),
    Bundled(PathBuf),
}

impl Shared {
    fn doc_path(&self, uri: &Uri) -> Option<DocPath> {
        let path = path_of(uri)?;
        Some(match self.cache.bundled_name(&path) {
            Some(name) => DocPath::Bundled(name),
            None => DocPath::User(path),
        })
    }

    /// The user file of `uri`; `None` for other schemes and bundled models.
    fn user_path(&self, uri: &Uri) -> Option<PathBuf> {
        match self.doc_path(uri)? {
            DocPath::User(p) => Some(p),
            DocPath::Bundled(_) => None,
        }
    }
}

/// The root of a file opened outside any workspace: the nearest ancestor that looks like a
/// project, else the file alone (never a whole home directory).
fn root_for_lone_file(path: &Path) -> PathBuf {
    for dir in path.ancestors().skip(1) {
        if ["pyproject.toml", "setup.py", ".git"]
            .iter()
            .any(|m| dir.join(m).exists())
        {
            return dir.to_path_buf();
        }
    }
    path.to_path_buf()
}

/// Where a position request applies: the file and the document version it was made against
/// (`None` for a file that is not open).
struct Target {
    path: PathBuf,
    version: Option<i32>,
}

impl Target {
    /// The snapshot, if it analysed the version the request was made against.
    fn matches<'a>(&self, snap: Option<&'a Snapshot>) -> Option<&'a Snapshot> {
        snap.filter(|s| {
            self.version.is_none() || s.versions.get(&self.path) == self.version.as_ref()
        })
    }
}

impl Backend {
    /// Runs `f` on the analysis of the document `uri` once it covers the version the request
    /// was made against (`target`), with the snapshot, the file's path and its source; `None`
    /// when no analysis of that version comes within `QUERY_WAIT` or `f` finds nothing.
    async fn query_file<T, F>(&self, uri: &Uri, f: F) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot, &Path, &crate::syntax::SourceFile) -> Option<T> + Send + 'static,
    {
        let t = self.target(uri).await?;
        self.shared
            .worker
            .query(move |snap| {
                let s = t.matches(snap)?;
                let a = &s.analysis;
                f(s, &t.path, a.sources.get(a.sources.find(&t.path)?))
            })
            .await
    }

    fn new(
        client: Client,
        shut_down: Arc<AtomicBool>,
        worker: Arc<Worker>,
        cache: Arc<Cache>,
    ) -> Backend {
        let (meta, _) = watch::channel(None);
        Backend {
            shared: Arc::new(Shared {
                client,
                inputs: Mutex::new(Inputs::default()),
                caps: OnceLock::new(),
                changes: watch::channel(0).0,
                meta,
                worker,
                cache,
                shut_down,
                loop_started: AtomicBool::new(false),
            }),
        }
    }

    /// Waits until the engine thread holds an analysis of the version of `uri` that is
    /// current now (for a file that is not open, any analysis). Must be called before the
    /// handler's first await: the version that counts is the one current when the request
    /// arrived. `None` when the document moved on (the request's positions are stale) or no
    /// analysis came in time.
    fn target(
        &self,
        uri: &Uri,
    ) -> impl std::future::Future<Output = Option<Target>> + Send + 'static {
        let shared = self.shared.clone();
        let path = shared.doc_path(uri).map(|p| match p {
            DocPath::User(p) | DocPath::Bundled(p) => p,
        });
        let version = path
            .as_ref()
            .and_then(|p| shared.inputs().docs.get(p).map(|d| d.version));
        let mut rx = shared.meta.subscribe();
        async move {
            let path = path?;
            let deadline = tokio::time::Instant::now() + QUERY_WAIT;
            loop {
                if let Some(meta) = rx.borrow_and_update().clone() {
                    if version.is_none() || meta.versions.get(&path) == version.as_ref() {
                        return Some(Target { path, version });
                    }
                }
                if version.is_some()
                    && shared.inputs().docs.get(&path).map(|d| d.version) != version
                {
                    return None;
                }
                match tokio::time::timeout_at(deadline, rx.changed()).await {
                    Ok(Ok(())) => {}
                    _ => return None,
                }
            }
        }
    }

    async fn flow_graph(&self, params: FlowGraphParams) -> Result<FlowGraphResult> {
        let pos = params.position;
        let dot = self
            .query_file(&params.text_document.uri, move |s, path, file| {
                s.analysis.flow_graph_dot(path, convert::offset(file, pos))
            })
            .await;
        Ok(FlowGraphResult { dot })
    }

    /// Applies new settings; re-analyses when they changed.
    async fn apply_settings(&self, value: &Value) {
        let (changed, inlay_changed) = {
            let mut inputs = self.shared.inputs();
            let before = inputs.settings.clone();
            inputs.settings.update_from(value);
            let changed = inputs.settings != before;
            let inlay_changed = inputs.settings.inlay_hints != before.inlay_hints;
            if changed {
                self.shared.touch(&mut inputs);
            }
            (changed, inlay_changed)
        };
        if changed && inlay_changed && self.shared.caps().inlay_hint_refresh {
            let _ = self.shared.client.inlay_hint_refresh().await;
        }
    }

    /// Asks the client for the `rpy-lsp` section (pull model), when it supports that.
    async fn pull_settings(&self) {
        if !self.shared.caps().configuration {
            return;
        }
        let item = lsp::ConfigurationItem {
            scope_uri: None,
            section: Some("rpy-lsp".to_string()),
        };
        let reply = tokio::time::timeout(
            Duration::from_secs(5),
            self.shared.client.configuration(vec![item]),
        )
        .await;
        if let Ok(Ok(values)) = reply {
            if let Some(v) = values.first() {
                self.apply_settings(v).await;
            }
        }
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: lsp::InitializeParams) -> Result<lsp::InitializeResult> {
        let _ = self.shared.caps.set(ClientCaps::from(&params.capabilities));
        #[allow(deprecated)]
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .and_then(|f| path_of(&f.uri))
            .or_else(|| params.root_uri.as_ref().and_then(path_of))
            .or_else(|| params.root_path.as_ref().map(PathBuf::from));
        {
            let mut inputs = self.shared.inputs();
            inputs.root = root;
            if let Some(opts) = &params.initialization_options {
                inputs.settings.update_from(opts);
            }
        }
        let sync = lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
            save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        };
        Ok(lsp::InitializeResult {
            capabilities: lsp::ServerCapabilities {
                position_encoding: Some(lsp::PositionEncodingKind::UTF16),
                text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(sync)),
                hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
                definition_provider: Some(lsp::OneOf::Left(true)),
                document_symbol_provider: Some(lsp::OneOf::Left(true)),
                inlay_hint_provider: Some(lsp::OneOf::Left(true)),
                references_provider: Some(lsp::OneOf::Left(true)),
                call_hierarchy_provider: Some(lsp::CallHierarchyServerCapability::Simple(true)),
                workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
                completion_provider: Some(lsp::CompletionOptions {
                    trigger_characters: Some(vec![".".to_string()]),
                    ..Default::default()
                }),
                signature_help_provider: Some(lsp::SignatureHelpOptions {
                    trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
                    retrigger_characters: None,
                    work_done_progress_options: Default::default(),
                }),
                code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
                    lsp::CodeActionOptions {
                        code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                        ..Default::default()
                    },
                )),
                experimental: Some(serde_json::json!({ "flowGraphRequest": "rpy-lsp/flowGraph" })),
                ..Default::default()
            },
            server_info: Some(lsp::ServerInfo {
                name: "rpy-lsp".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            ..Default::default()
        })
    }

    async fn initialized(&self, _: lsp::InitializedParams) {
        self.pull_settings().await;
        if self.shared.caps().watched_files_registration {
            let client = self.shared.client.clone();
            tokio::spawn(async move {
                let options = serde_json::json!({ "watchers": [
                    { "globPattern": "**/*.py" },
                    { "globPattern": "**/pyproject.toml" },
                ]});
                let registration = lsp::Registration {
                    id: "rpy-lsp-watch".to_string(),
                    method: "workspace/didChangeWatchedFiles".to_string(),
                    register_options: Some(options),
                };
                let _ = client.register_capability(vec![registration]).await;
            });
        }
        if !self.shared.loop_started.swap(true, Ordering::SeqCst) {
            tokio::spawn(analysis_loop(
                self.shared.clone(),
                self.shared.changes.subscribe(),
            ));
        }
        let mut inputs = self.shared.inputs();
        self.shared.touch(&mut inputs);
    }

    async fn shutdown(&self) -> Result<()> {
        self.shared.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    // The three document handlers edit synchronously: no await may precede the edit.
    async fn did_open(&self, params: lsp::DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let Some(path) = self.shared.user_path(&doc.uri) else {
            return;
        };
        let mut inputs = self.shared.inputs();
        if inputs.root.is_none() {
            inputs.root = Some(root_for_lone_file(&path));
        }
        inputs.reopened.insert(path.clone());
        inputs
            .docs
            .insert(path, Document::new(doc.uri, doc.version, &doc.text));
        self.shared.touch(&mut inputs);
    }

    async fn did_change(&self, params: lsp::DidChangeTextDocumentParams) {
        let Some(path) = self.shared.user_path(&params.text_document.uri) else {
            return;
        };
        let mut inputs = self.shared.inputs();
        let Some(doc) = inputs.docs.get_mut(&path) else {
            return;
        };
        doc.apply_changes(params.text_document.version, &params.content_changes);
        self.shared.touch(&mut inputs);
    }

    async fn did_close(&self, params: lsp::DidCloseTextDocumentParams) {
        let Some(path) = self.shared.user_path(&params.text_document.uri) else {
            return;
        };
        let mut inputs = self.shared.inputs();
        if inputs.docs.remove(&path).is_some() {
            inputs.reopened.insert(path);
            self.shared.touch(&mut inputs);
        }
    }

    async fn did_save(&self, _: lsp::DidSaveTextDocumentParams) {
        // The buffer was analysed as it is while open; saving changes none of the inputs.
    }

    async fn did_change_watched_files(&self, _: lsp::DidChangeWatchedFilesParams) {
        let mut inputs = self.shared.inputs();
        self.shared.touch(&mut inputs);
    }

    async fn did_change_configuration(&self, params: lsp::DidChangeConfigurationParams) {
        // VS Code sends `{"rpy-lsp": {...}}`; clients of the pull model send null and expect
        // `workspace/configuration`.
        let has_section = params
            .settings
            .as_object()
            .is_some_and(|o| o.keys().any(|k| k.starts_with("rpy-lsp")));
        if !has_section && self.shared.caps().configuration {
            self.pull_settings().await;
        } else {
            self.apply_settings(&params.settings).await;
        }
    }

    async fn hover(&self, params: lsp::HoverParams) -> Result<Option<lsp::Hover>> {
        let at = params.text_document_position_params;
        let markdown = self.shared.caps().hover_markdown;
        Ok(self
            .query_file(&at.text_document.uri, move |s, path, file| {
                let a = &s.analysis;
                let info = a.hover(path, convert::offset(file, at.position))?;
                Some(convert::hover(&a.sources, &info, markdown))
            })
            .await)
    }

    async fn goto_definition(
        &self,
        params: lsp::GotoDefinitionParams,
    ) -> Result<Option<lsp::GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        Ok(self
            .query_file(&at.text_document.uri, move |s, path, file| {
                let a = &s.analysis;
                let loc = a.definition(path, convert::offset(file, at.position))?;
                let target = convert::file_of(&a.sources, loc.span)?;
                let uri = uri_for(s, &target.path)?;
                let range = convert::range_in(target, loc.span);
                Some(lsp::GotoDefinitionResponse::Scalar(lsp::Location {
                    uri,
                    range,
                }))
            })
            .await)
    }

    async fn document_symbol(
        &self,
        params: lsp::DocumentSymbolParams,
    ) -> Result<Option<lsp::DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        let hierarchical = self.shared.caps().hierarchical_symbols;
        Ok(self
            .query_file(&uri.clone(), move |s, path, file| {
                let symbols = s.analysis.symbols(path);
                Some(if hierarchical {
                    lsp::DocumentSymbolResponse::Nested(
                        symbols
                            .iter()
                            .map(|sym| convert::document_symbol(file, sym))
                            .collect(),
                    )
                } else {
                    let mut flat = Vec::new();
                    convert::flat_symbols(file, &uri, &symbols, None, &mut flat);
                    lsp::DocumentSymbolResponse::Flat(flat)
                })
            })
            .await)
    }

    async fn inlay_hint(
        &self,
        params: lsp::InlayHintParams,
    ) -> Result<Option<Vec<lsp::InlayHint>>> {
        if !self.shared.inputs().settings.inlay_hints {
            return Ok(Some(Vec::new()));
        }
        let range = params.range;
        Ok(self
            .query_file(&params.text_document.uri, move |s, path, file| {
                let (start, end) = (
                    convert::offset(file, range.start),
                    convert::offset(file, range.end),
                );
                let hints = s.analysis.inlay_hints(path);
                Some(
                    hints
                        .iter()
                        .filter(|h| h.offset >= start && h.offset <= end)
                        .map(|h| convert::inlay_hint(file, h))
                        .collect(),
                )
            })
            .await)
    }

    // The requests below live in `requests`.
    async fn references(&self, p: lsp::ReferenceParams) -> Result<Option<Vec<lsp::Location>>> {
        self.references_request(p).await
    }

    async fn prepare_call_hierarchy(
        &self,
        p: lsp::CallHierarchyPrepareParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyItem>>> {
        self.prepare_call_hierarchy_request(p).await
    }

    async fn incoming_calls(
        &self,
        p: lsp::CallHierarchyIncomingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyIncomingCall>>> {
        self.incoming_calls_request(p).await
    }

    async fn outgoing_calls(
        &self,
        p: lsp::CallHierarchyOutgoingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyOutgoingCall>>> {
        self.outgoing_calls_request(p).await
    }

    async fn symbol(
        &self,
        p: lsp::WorkspaceSymbolParams,
    ) -> Result<Option<lsp::WorkspaceSymbolResponse>> {
        self.workspace_symbol_request(p).await
    }

    async fn completion(
        &self,
        p: lsp::CompletionParams,
    ) -> Result<Option<lsp::CompletionResponse>> {
        self.completion_request(p).await
    }

    async fn signature_help(
        &self,
        p: lsp::SignatureHelpParams,
    ) -> Result<Option<lsp::SignatureHelp>> {
        self.signature_help_request(p).await
    }

    async fn code_action(
        &self,
        params: lsp::CodeActionParams,
    ) -> Result<Option<lsp::CodeActionResponse>> {
        let versioned = self.shared.caps().document_changes;
        let range = params.range;
        let context = params.context;
        Ok(self
            .query_file(&params.text_document.uri, move |s, path, file| {
                let a = &s.analysis;
                let (start, end) = (convert::offset(file, range.start), convert::offset(file, range.end));
                let mut out: lsp::CodeActionResponse = Vec::new();
                for action in a.code_actions(path, start, end) {
                    let kind = if action.is_quickfix { lsp::CodeActionKind::QUICKFIX } else { lsp::CodeActionKind::new("quickfix.suppress") };
                    if let Some(only) = &context.only {
                        let wanted = |k: &lsp::CodeActionKind| kind.as_str() == k.as_str() || kind.as_str().starts_with(&format!("{}.", k.as_str()));
                        if !only.iter().any(wanted) {
                            continue;
                        }
                    }
                    let Some(edit) = workspace_edit(s, &action.edits, versioned) else { continue };
                    let diagnostics: Vec<lsp::Diagnostic> = context
                        .diagnostics
                        .iter()
                        .filter(|d| matches!(&d.code, Some(lsp::NumberOrString::String(c)) if c == action.code))
                        .cloned()
                        .collect();
                    out.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                        title: action.title.clone(),
                        kind: Some(kind),
                        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                        edit: Some(edit),
                        command: None,
                        is_preferred: Some(action.is_quickfix),
                        disabled: None,
                        data: None,
                    }));
                }
                Some(out)
            })
            .await)
    }
}

/// The URI to show the client for a file of an analysis: an open document's own URI, a
/// bundled model's cached copy, else the file's URI.
fn uri_for(snap: &Snapshot, path: &Path) -> Option<Uri> {
    if let Some(uri) = snap.uris.get(path) {
        return Some(uri.clone());
    }
    if path.starts_with(BUNDLED_PREFIX) {
        let sources = &snap.analysis.sources;
        let text = &sources.get(sources.find(path)?).text;
        return Uri::from_file_path(snap.cache.bundled_file(path, text)?);
    }
    Uri::from_file_path(path)
}

/// Diagnostics of one file, ready to publish.
#[derive(Clone, PartialEq)]
struct FileDiagnostics {
    path: PathBuf,
    uri: Uri,
    /// The document version for open documents, `None` for files read from disk.
    version: Option<i32>,
    diagnostics: Vec<lsp::Diagnostic>,
}

/// Converts the diagnostics of every file of the program (and of every open document).
/// Runs on the engine thread.
fn collect_diagnostics(snap: &Snapshot) -> Vec<FileDiagnostics> {
    let a = &snap.analysis;
    let mut files = a.files();
    let mut open: Vec<&PathBuf> = snap.versions.keys().collect();
    open.sort();
    for path in open {
        if !files.contains(path) {
            files.push(path.clone());
        }
    }
    let uri_of = |p: &Path| uri_for(snap, p);
    let rule_page = |code: &str| snap.cache.rule_page(code);
    let mut out = Vec::new();
    for path in files {
        let Some(uri) = uri_of(&path) else { continue };
        let diagnostics = a
            .diagnostics_for(&path)
            .into_iter()
            .filter_map(|d| convert::diagnostic(&a.sources, d, &uri_of, &rule_page))
            .collect();
        let version = snap.versions.get(&path).copied();
        out.push(FileDiagnostics {
            path,
            uri,
            version,
            diagnostics,
        });
    }
    out
}

/// The analysis task: debounce, have the engine thread analyse, publish.
async fn analysis_loop(shared: Arc<Shared>, mut changes: watch::Receiver<u64>) {
    let mut published: HashMap<PathBuf, FileDiagnostics> = HashMap::default();
    let mut reopened: HashSet<PathBuf> = HashSet::default();
    let mut run = 0u64;
    loop {
        // Wakes when the generation moved past the last one seen: edits made while an
        // analysis ran wake it at once, edits already covered by the debounce do not.
        if changes.changed().await.is_err() {
            return;
        }
        loop {
            let seen = *changes.borrow_and_update();
            tokio::time::sleep(DEBOUNCE).await;
            if *changes.borrow() == seen {
                break;
            }
        }
        let (generation, input) = {
            let mut inputs = shared.inputs();
            reopened.extend(inputs.reopened.drain());
            let Some(root) = inputs.root.clone() else {
                continue;
            };
            let mut input = AnalysisInput {
                root,
                settings: inputs.settings.clone(),
                overlays: HashMap::default(),
                versions: HashMap::default(),
                uris: HashMap::default(),
            };
            for (path, doc) in &inputs.docs {
                input.overlays.insert(path.clone(), doc.text());
                input.versions.insert(path.clone(), doc.version);
                input.uris.insert(path.clone(), doc.uri.clone());
            }
            (inputs.generation, input)
        };
        let versions = input.versions.clone();
        run += 1;
        let progress = shared
            .caps()
            .work_done_progress
            .then(|| start_progress(&shared.client, run));
        let started = Instant::now();
        match shared
            .worker
            .analyze(input, Box::new(collect_diagnostics))
            .await
        {
            Ok(files) => {
                shared.meta.send_replace(Some(Arc::new(Meta { versions })));
                // Superseded: a newer analysis is queued; its diagnostics will be published.
                if shared.generation() == generation {
                    publish(&shared, files, &mut published, &reopened).await;
                    reopened.clear();
                }
            }
            Err(e) => {
                let msg =
                    format!("rpy-lsp: the analysis failed ({e}); diagnostics are not up to date");
                eprintln!("{msg}");
                shared
                    .client
                    .log_message(lsp::MessageType::ERROR, msg)
                    .await;
            }
        }
        if std::env::var_os("RPY_LSP_TRACE").is_some() {
            eprintln!(
                "rpy-lsp: analysis {run} (generation {generation}) took {:?}",
                started.elapsed()
            );
        }
        if let Some(done) = progress {
            let _ = done.send(());
        }
    }
}

/// Begins a work-done progress (create, then begin) on its own task; it ends when the
/// returned sender fires. Never delays the analysis or its diagnostics.
fn start_progress(client: &Client, run: u64) -> tokio::sync::oneshot::Sender<()> {
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
    let client = client.clone();
    tokio::spawn(async move {
        let token = lsp::NumberOrString::String(format!("rpy-lsp/analysis/{run}"));
        let created = tokio::time::timeout(
            Duration::from_secs(5),
            client.create_work_done_progress(token.clone()),
        )
        .await;
        if !matches!(created, Ok(Ok(()))) {
            return;
        }
        let progress = client
            .progress(token, "rpy-lsp")
            .with_message("analysing the program")
            .begin()
            .await;
        let _ = done_rx.await;
        progress.finish().await;
    });
    done_tx
}

async fn publish(
    shared: &Shared,
    files: Vec<FileDiagnostics>,
    published: &mut HashMap<PathBuf, FileDiagnostics>,
    force: &HashSet<PathBuf>,
) {
    let mut now: HashSet<PathBuf> = HashSet::default();
    for file in files {
        now.insert(file.path.clone());
        // Open documents get a publish per version; unchanged closed files are skipped.
        if published.get(&file.path) == Some(&file) && !force.contains(&file.path) {
            continue;
        }
        shared
            .client
            .publish_diagnostics(file.uri.clone(), file.diagnostics.clone(), file.version)
            .await;
        published.insert(file.path.clone(), file);
    }
    // Files that left the program (or were closed outside it): clear what they showed.
    let gone: Vec<PathBuf> = published
        .keys()
        .filter(|p| !now.contains(*p))
        .cloned()
        .collect();
    for path in gone {
        if let Some(old) = published.remove(&path) {
            if !old.diagnostics.is_empty() {
                shared
                    .client
                    .publish_diagnostics(old.uri, Vec::new(), None)
                    .await;
            }
        }
    }
}
