//! Engine values → protocol values. Spans are byte ranges in the text the engine analysed;
//! positions are converted with that text's line table (UTF-16 columns), so they agree with
//! the document version the analysis saw.

use crate::diagnostics::{Diagnostic, Severity};
use crate::engine;
use crate::syntax::{SourceFile, SourceMap, Span};
use std::path::Path;
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::ls_types::Uri;

/// The source file of a span, if the span's file id is valid.
pub fn file_of(sources: &SourceMap, span: Span) -> Option<&SourceFile> {
    ((span.file.0 as usize) < sources.len()).then(|| sources.get(span.file))
}

pub fn position(file: &SourceFile, offset: u32) -> lsp::Position {
    let lc = file.line_col(offset);
    lsp::Position {
        line: lc.line,
        character: lc.utf16_column,
    }
}

/// Byte offset in `file` of an LSP position (clamped to the text).
pub fn offset(file: &SourceFile, pos: lsp::Position) -> u32 {
    file.offset_of_utf16(pos.line, pos.character)
}

pub fn range_in(file: &SourceFile, span: Span) -> lsp::Range {
    let start = position(file, span.start);
    let end = position(file, span.end.max(span.start));
    lsp::Range { start, end }
}

pub fn range(sources: &SourceMap, span: Span) -> Option<lsp::Range> {
    Some(range_in(file_of(sources, span)?, span))
}

pub fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    }
}

/// A protocol diagnostic: code, code description (`rule_page`), secondary labels as related
/// information (`uri_of` names the files they are in).
pub fn diagnostic(
    sources: &SourceMap,
    d: &Diagnostic,
    uri_of: &dyn Fn(&Path) -> Option<Uri>,
    rule_page: &dyn Fn(&str) -> Option<Uri>,
) -> Option<lsp::Diagnostic> {
    let range = range(sources, d.span)?;
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter_map(|l| {
            let file = file_of(sources, l.span)?;
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: uri_of(&file.path)?,
                    range: range_in(file, l.span),
                },
                message: l.message.clone(),
            })
        })
        .collect();
    let rule = crate::diagnostics::rules::lookup(d.code);
    Some(lsp::Diagnostic {
        range,
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        code_description: rule_page(d.code).map(|href| lsp::CodeDescription { href }),
        source: Some(match rule {
            Some(r) => format!("rpy-lsp({})", r.name),
            None => "rpy-lsp".to_string(),
        }),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    })
}

/// Escapes markdown's special characters in plain text.
fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if "\\`*_[]<>|".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// Hover contents: the annotation in plain words (one line break kept per line), then the
/// annotator's own form.
pub fn hover(sources: &SourceMap, info: &engine::HoverInfo, markdown: bool) -> lsp::Hover {
    let value = if markdown {
        let lines: Vec<String> = info.plain.lines().map(escape_markdown).collect();
        let mut v = lines.join("  \n");
        if let Some(form) = &info.annotator_form {
            v.push_str("\n\n---\nannotator: `");
            v.push_str(&form.replace('`', "'"));
            v.push('`');
        }
        v
    } else {
        let mut v = info.plain.clone();
        if let Some(form) = &info.annotator_form {
            v.push_str("\nannotator: ");
            v.push_str(form);
        }
        v
    };
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: if markdown {
                lsp::MarkupKind::Markdown
            } else {
                lsp::MarkupKind::PlainText
            },
            value,
        }),
        range: range(sources, info.span),
    }
}

pub fn symbol_kind(k: engine::SymbolKind) -> lsp::SymbolKind {
    match k {
        engine::SymbolKind::Class => lsp::SymbolKind::CLASS,
        engine::SymbolKind::Function => lsp::SymbolKind::FUNCTION,
        engine::SymbolKind::Method => lsp::SymbolKind::METHOD,
        engine::SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must be spelled out.
pub fn document_symbol(file: &SourceFile, s: &engine::Symbol) -> lsp::DocumentSymbol {
    let range = range_in(file, s.span);
    let mut selection_range = range_in(file, s.name_span);
    // The protocol requires the selection range inside the range.
    if selection_range.start < range.start || selection_range.end > range.end {
        selection_range = lsp::Range {
            start: range.start,
            end: range.start,
        };
    }
    let children: Vec<lsp::DocumentSymbol> = s
        .children
        .iter()
        .map(|c| document_symbol(file, c))
        .collect();
    lsp::DocumentSymbol {
        name: if s.name.is_empty() {
            "?".to_string()
        } else {
            s.name.clone()
        },
        detail: (!s.detail.is_empty()).then(|| s.detail.clone()),
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range,
        children: (!children.is_empty()).then_some(children),
    }
}

/// The flat form, for clients without hierarchical document symbol support.
#[allow(deprecated)]
pub fn flat_symbols(
    file: &SourceFile,
    uri: &Uri,
    symbols: &[engine::Symbol],
    container: Option<&str>,
    out: &mut Vec<lsp::SymbolInformation>,
) {
    for s in symbols {
        out.push(lsp::SymbolInformation {
            name: s.name.clone(),
            kind: symbol_kind(s.kind),
            tags: None,
            deprecated: None,
            location: lsp::Location {
                uri: uri.clone(),
                range: range_in(file, s.span),
            },
            container_name: container.map(str::to_string),
        });
        flat_symbols(file, uri, &s.children, Some(&s.name), out);
    }
}

pub fn inlay_hint(file: &SourceFile, h: &engine::InlayHint) -> lsp::InlayHint {
    lsp::InlayHint {
        position: position(file, h.offset),
        label: lsp::InlayHintLabel::String(h.label.clone()),
        kind: Some(lsp::InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: None,
        padding_right: None,
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::FileId;

    #[test]
    fn spans_to_utf16_ranges() {
        let mut sources = SourceMap::default();
        let id = sources.add("/w/a.py".into(), "s = 'é😀'\nt = s\n".into());
        let text = &sources.get(id).text;
        let t = text.find('t').unwrap() as u32;
        let r = range(&sources, Span::new(id, 5, t + 1)).unwrap();
        assert_eq!(
            (r.start, r.end),
            (lsp::Position::new(0, 5), lsp::Position::new(1, 1))
        );
        assert!(range(&sources, Span::new(FileId(7), 0, 1)).is_none());
        assert_eq!(offset(sources.get(id), lsp::Position::new(1, 4)), t + 4);
    }

    #[test]
    fn hover_markdown_escapes_plain_words() {
        let mut sources = SourceMap::default();
        let id = sources.add("/w/a.py".into(), "x = 1\n".into());
        let info = engine::HoverInfo {
            span: Span::new(id, 0, 1),
            plain: "function f(a, *args)".into(),
            annotator_form: Some("SomeInteger(nonneg=True)".into()),
        };
        let h = hover(&sources, &info, true);
        let lsp::HoverContents::Markup(m) = h.contents else {
            panic!()
        };
        assert_eq!(
            m.value,
            "function f(a, \\*args)\n\n---\nannotator: `SomeInteger(nonneg=True)`"
        );
        // Lines of a signature stay lines (a hard break in markdown).
        let info = engine::HoverInfo {
            plain: "def f(n)\nn: int\nreturns: int".into(),
            ..info
        };
        let lsp::HoverContents::Markup(m) = hover(&sources, &info, true).contents else {
            panic!()
        };
        assert!(
            m.value
                .starts_with("def f(n)  \nn: int  \nreturns: int\n\n---"),
            "{}",
            m.value
        );
    }
}
