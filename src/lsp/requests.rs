//! The editor requests past the first ones (references, call hierarchy, workspace symbols,
//! completion, signature help): each translates its protocol params into an engine query on
//! the engine thread and the engine's answer into protocol values. No analysis here.

use super::cache::BUNDLED_PREFIX;
use super::worker::Snapshot;
use super::{convert, uri_for, Backend, Target, QUERY_WAIT};
use crate::engine;
use crate::syntax::{SourceFile, Span};
use serde_json::json;
use std::path::PathBuf;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

/// A location of the engine as a protocol location.
fn location(s: &Snapshot, path: &std::path::Path, span: Span) -> Option<lsp::Location> {
    let file = convert::file_of(&s.analysis.sources, span)?;
    Some(lsp::Location {
        uri: uri_for(s, path)?,
        range: convert::range_in(file, span),
    })
}

fn call_item(s: &Snapshot, item: &engine::CallItem) -> Option<lsp::CallHierarchyItem> {
    let file = convert::file_of(&s.analysis.sources, item.span)?;
    let range = convert::range_in(file, item.span);
    let mut selection_range = convert::range_in(file, item.name_span);
    if selection_range.start < range.start || selection_range.end > range.end {
        selection_range = range;
    }
    Some(lsp::CallHierarchyItem {
        name: item.name.clone(),
        kind: convert::symbol_kind(item.kind),
        tags: None,
        detail: (!item.detail.is_empty()).then(|| item.detail.clone()),
        uri: uri_for(s, &item.path)?,
        range,
        selection_range,
        // Which function: the span of its name, found again in a later analysis.
        data: Some(json!({
            "path": item.path.to_string_lossy(),
            "start": item.name_span.start,
            "end": item.name_span.end,
        })),
    })
}

/// The engine's item for a protocol item from an earlier answer.
fn engine_item(s: &Snapshot, item: &lsp::CallHierarchyItem) -> Option<engine::CallItem> {
    let data = item.data.as_ref()?;
    let path = PathBuf::from(data.get("path")?.as_str()?);
    let start = data.get("start")?.as_u64()? as u32;
    let end = data.get("end")?.as_u64()? as u32;
    let file = s.analysis.sources.find(&path)?;
    s.analysis
        .call_item_by_name_span(Span::new(file, start, end))
}

fn completion_kind(k: engine::CompletionKind) -> lsp::CompletionItemKind {
    match k {
        engine::CompletionKind::Field => lsp::CompletionItemKind::FIELD,
        engine::CompletionKind::Method => lsp::CompletionItemKind::METHOD,
        engine::CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        engine::CompletionKind::Class => lsp::CompletionItemKind::CLASS,
        engine::CompletionKind::Module => lsp::CompletionItemKind::MODULE,
        engine::CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
        engine::CompletionKind::Constant => lsp::CompletionItemKind::CONSTANT,
    }
}

impl Backend {
    /// Waits until some analysis exists (requests without a document: workspace symbols,
    /// the steps of a call hierarchy). False when none came in time.
    async fn any_analysis(&self) -> bool {
        let mut rx = self.shared.meta.subscribe();
        let deadline = tokio::time::Instant::now() + QUERY_WAIT;
        loop {
            if rx.borrow_and_update().is_some() {
                return true;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => return false,
            }
        }
    }

    /// The buffer of `uri` as it is now (`None` for a file that is not open).
    fn buffer_text(&self, uri: &lsp::Uri) -> Option<String> {
        let path = self.shared.user_path(uri)?;
        self.shared.inputs().docs.get(&path).map(|d| d.text())
    }

    pub(super) async fn references_request(
        &self,
        params: lsp::ReferenceParams,
    ) -> Result<Option<Vec<lsp::Location>>> {
        let at = params.text_document_position;
        let include = params.context.include_declaration;
        Ok(self
            .query_file(&at.text_document.uri, move |s, path, file| {
                let a = &s.analysis;
                let refs = a.references(path, convert::offset(file, at.position), include);
                Some(
                    refs.iter()
                        .filter_map(|l| location(s, &l.path, l.span))
                        .collect(),
                )
            })
            .await)
    }

    pub(super) async fn prepare_call_hierarchy_request(
        &self,
        params: lsp::CallHierarchyPrepareParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyItem>>> {
        let at = params.text_document_position_params;
        Ok(self
            .query_file(&at.text_document.uri, move |s, path, file| {
                let item = s
                    .analysis
                    .call_item_at(path, convert::offset(file, at.position))?;
                Some(vec![call_item(s, &item)?])
            })
            .await)
    }

    pub(super) async fn incoming_calls_request(
        &self,
        params: lsp::CallHierarchyIncomingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyIncomingCall>>> {
        if !self.any_analysis().await {
            return Ok(None);
        }
        let item = params.item;
        Ok(self
            .shared
            .worker
            .query(move |snap| {
                let s = snap?;
                let target = engine_item(s, &item)?;
                let calls = s.analysis.incoming_calls(&target);
                Some(
                    calls
                        .iter()
                        .filter_map(|c| {
                            let mut from = call_item(s, &c.item)?;
                            // Who passes what: the argument types at these calls.
                            if !c.passes.is_empty() {
                                from.detail = Some(format!("passes {}", c.passes.join(" | ")));
                            }
                            let file = convert::file_of(&s.analysis.sources, *c.sites.first()?)?;
                            Some(lsp::CallHierarchyIncomingCall {
                                from,
                                from_ranges: c
                                    .sites
                                    .iter()
                                    .map(|&site| convert::range_in(file, site))
                                    .collect(),
                            })
                        })
                        .collect(),
                )
            })
            .await)
    }

    pub(super) async fn outgoing_calls_request(
        &self,
        params: lsp::CallHierarchyOutgoingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyOutgoingCall>>> {
        if !self.any_analysis().await {
            return Ok(None);
        }
        let item = params.item;
        Ok(self
            .shared
            .worker
            .query(move |snap| {
                let s = snap?;
                let source = engine_item(s, &item)?;
                let calls = s.analysis.outgoing_calls(&source);
                Some(
                    calls
                        .iter()
                        .filter_map(|c| {
                            let file = convert::file_of(&s.analysis.sources, *c.sites.first()?)?;
                            Some(lsp::CallHierarchyOutgoingCall {
                                to: call_item(s, &c.item)?,
                                from_ranges: c
                                    .sites
                                    .iter()
                                    .map(|&site| convert::range_in(file, site))
                                    .collect(),
                            })
                        })
                        .collect(),
                )
            })
            .await)
    }

    pub(super) async fn workspace_symbol_request(
        &self,
        params: lsp::WorkspaceSymbolParams,
    ) -> Result<Option<lsp::WorkspaceSymbolResponse>> {
        if !self.any_analysis().await {
            return Ok(None);
        }
        let query = params.query;
        Ok(self
            .shared
            .worker
            .query(move |snap| {
                let s = snap?;
                let symbols = s.analysis.workspace_symbols(&query);
                Some(lsp::WorkspaceSymbolResponse::Nested(
                    symbols
                        .iter()
                        .filter_map(|sym| {
                            Some(lsp::WorkspaceSymbol {
                                name: sym.name.clone(),
                                kind: convert::symbol_kind(sym.kind),
                                tags: None,
                                container_name: sym.container.clone(),
                                location: lsp::OneOf::Left(location(s, &sym.path, sym.name_span)?),
                                data: None,
                            })
                        })
                        .collect(),
                ))
            })
            .await)
    }

    pub(super) async fn completion_request(
        &self,
        params: lsp::CompletionParams,
    ) -> Result<Option<lsp::CompletionResponse>> {
        let uri = params.text_document_position.text_document.uri;
        let text = self.buffer_text(&uri);
        let pending = self.target(&uri);
        let Some(t) = pending.await else {
            return Ok(None);
        };
        let pos = params.text_document_position.position;
        Ok(self
            .shared
            .worker
            .query(move |snap| {
                let s = t.matches(snap)?;
                let a = &s.analysis;
                let (text, offset) = buffer_offset(a, &t, text, pos)?;
                let items: Vec<lsp::CompletionItem> = a
                    .completions(&t.path, &text, offset)
                    .into_iter()
                    .map(|c| lsp::CompletionItem {
                        label: c.label,
                        kind: Some(completion_kind(c.kind)),
                        detail: (!c.detail.is_empty()).then_some(c.detail),
                        ..Default::default()
                    })
                    .collect();
                Some(lsp::CompletionResponse::Array(items))
            })
            .await)
    }

    pub(super) async fn signature_help_request(
        &self,
        params: lsp::SignatureHelpParams,
    ) -> Result<Option<lsp::SignatureHelp>> {
        let uri = params.text_document_position_params.text_document.uri;
        let text = self.buffer_text(&uri);
        let pending = self.target(&uri);
        let Some(t) = pending.await else {
            return Ok(None);
        };
        let pos = params.text_document_position_params.position;
        Ok(self
            .shared
            .worker
            .query(move |snap| {
                let s = t.matches(snap)?;
                let a = &s.analysis;
                let (text, offset) = buffer_offset(a, &t, text, pos)?;
                let h = a.signature_help(&t.path, &text, offset)?;
                let utf16 = |b: u32| h.label[..b as usize].encode_utf16().count() as u32;
                let parameters = h
                    .params
                    .iter()
                    .map(|&(s, e)| lsp::ParameterInformation {
                        label: lsp::ParameterLabel::LabelOffsets([utf16(s), utf16(e)]),
                        documentation: None,
                    })
                    .collect();
                Some(lsp::SignatureHelp {
                    signatures: vec![lsp::SignatureInformation {
                        label: h.label.clone(),
                        documentation: None,
                        parameters: Some(parameters),
                        active_parameter: Some(h.active),
                    }],
                    active_signature: Some(0),
                    active_parameter: Some(h.active),
                })
            })
            .await)
    }
}

/// The buffer's text (else the analysed one) and the byte offset of `pos` in it.
fn buffer_offset(
    a: &engine::Analysis,
    t: &Target,
    text: Option<String>,
    pos: lsp::Position,
) -> Option<(String, u32)> {
    let text = match text {
        Some(text) => text,
        None => a.sources.get(a.sources.find(&t.path)?).text.clone(),
    };
    let file = SourceFile::new(t.path.clone(), text);
    let offset = convert::offset(&file, pos);
    Some((file.text, offset))
}

/// Engine edits as a workspace edit: per-document versioned edits when the client supports
/// them, else a map of changes. `None` when an edit would touch a bundled model.
pub(super) fn workspace_edit(
    snap: &Snapshot,
    edits: &[crate::engine::TextEdit],
    versioned: bool,
) -> Option<lsp::WorkspaceEdit> {
    let a = &snap.analysis;
    let mut per_file: Vec<(PathBuf, Vec<lsp::TextEdit>)> = Vec::new();
    for e in edits {
        let file = convert::file_of(&a.sources, e.span)?;
        if file.path.starts_with(BUNDLED_PREFIX) {
            return None;
        }
        let edit = lsp::TextEdit {
            range: convert::range_in(file, e.span),
            new_text: e.new_text.clone(),
        };
        match per_file.iter_mut().find(|(p, _)| *p == file.path) {
            Some((_, list)) => list.push(edit),
            None => per_file.push((file.path.clone(), vec![edit])),
        }
    }
    if per_file.is_empty() {
        return None;
    }
    if versioned {
        let mut changes = Vec::new();
        for (path, list) in per_file {
            changes.push(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                    uri: uri_for(snap, &path)?,
                    version: snap.versions.get(&path).copied(),
                },
                edits: list.into_iter().map(lsp::OneOf::Left).collect(),
            });
        }
        Some(lsp::WorkspaceEdit {
            document_changes: Some(lsp::DocumentChanges::Edits(changes)),
            ..Default::default()
        })
    } else {
        let mut changes = std::collections::HashMap::new();
        for (path, list) in per_file {
            changes.insert(uri_for(snap, &path)?, list);
        }
        Some(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        })
    }
}
