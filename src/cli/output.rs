//! Rendering diagnostics for people (codespan-reporting) and for CI (JSON, SARIF, GitHub
//! workflow annotations).

use crate::diagnostics::{Diagnostic, Severity};
use crate::syntax::{SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use serde_json::json;

/// 1-based line and column (in characters) of both ends of a span.
pub fn position(sources: &SourceMap, span: Span) -> (String, u32, u32, u32, u32) {
    let file = sources.get(span.file);
    let (a, b) = (file.line_col(span.start), file.line_col(span.end));
    let col = |off: u32, lc: crate::syntax::LineCol| {
        let start = file.line_starts()[lc.line as usize] as usize;
        file.text
            .get(start..off as usize)
            .map_or(lc.column, |s| s.chars().count() as u32)
    };
    (
        file.path.display().to_string(),
        a.line + 1,
        col(span.start, a) + 1,
        b.line + 1,
        col(span.end, b) + 1,
    )
}

pub fn human(sources: &SourceMap, diagnostics: &[Diagnostic], color: bool) -> String {
    let mut files = SimpleFiles::new();
    let ids: Vec<usize> = sources
        .iter()
        // A lone `\r` ends a line as `\n` does (same length: offsets unchanged).
        .map(|(_, f)| files.add(f.path.display().to_string(), lone_cr_as_lf(&f.text)))
        .collect();
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let config = term::Config::default();
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Info => cs::Severity::Note,
        };
        let mut labels = Vec::new();
        if let Some(&id) = ids.get(d.span.file.0 as usize) {
            labels.push(cs::Label::primary(id, clamp(sources, d.span)));
        }
        for l in &d.labels {
            if let Some(&id) = ids.get(l.span.file.0 as usize) {
                labels.push(
                    cs::Label::secondary(id, clamp(sources, l.span))
                        .with_message(l.message.clone()),
                );
            }
        }
        let diag = cs::Diagnostic::new(severity)
            .with_code(d.code)
            .with_message(&d.message)
            .with_labels(labels)
            .with_notes(vec![format!("see `rpy-lsp explain {}`", d.code)]);
        let _ = term::emit(&mut buf, &config, &files, &diag);
    }
    String::from_utf8_lossy(buf.as_slice()).into_owned()
}

/// A span's byte range, clamped to its file's text and to character boundaries.
fn clamp(sources: &SourceMap, span: Span) -> std::ops::Range<usize> {
    let text = &sources.get(span.file).text;
    let fix = |mut o: usize| {
        o = o.min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        o
    };
    let (a, b) = (fix(span.start as usize), fix(span.end as usize));
    a.min(b)..b
}

fn lone_cr_as_lf(text: &str) -> String {
    if !text.contains('\r') {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '\r' && b.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

pub fn json(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let items: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let (file, line, column, end_line, end_column) = position(sources, d.span);
            let labels: Vec<serde_json::Value> = d
                .labels
                .iter()
                .map(|l| {
                    let (file, line, column, _, _) = position(sources, l.span);
                    json!({"file": file, "line": line, "column": column, "message": l.message})
                })
                .collect();
            json!({
                "code": d.code,
                "severity": d.severity.as_str(),
                "message": d.message,
                "file": file,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "labels": labels,
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({ "diagnostics": items })).unwrap_or_default()
}

pub fn sarif(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let rules: Vec<serde_json::Value> = crate::diagnostics::RULES
        .iter()
        .map(|r| json!({"id": r.code, "name": r.name, "shortDescription": {"text": r.summary}, "fullDescription": {"text": r.doc}}))
        .collect();
    let results: Vec<serde_json::Value> = diagnostics
        .iter()
        .map(|d| {
            let (file, line, column, end_line, end_column) = position(sources, d.span);
            let related: Vec<serde_json::Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let (file, line, column, end_line, end_column) = position(sources, l.span);
                    json!({"id": i, "message": {"text": l.message}, "physicalLocation": {"artifactLocation": {"uri": file}, "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}}})
                })
                .collect();
            json!({
                "ruleId": d.code,
                "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning", Severity::Info => "note" },
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": file}, "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}}}],
                "relatedLocations": related,
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "rpy-lsp", "version": env!("CARGO_PKG_VERSION"), "rules": rules}}, "results": results}],
    }))
    .unwrap_or_default()
}

/// GitHub Actions workflow commands (`::error file=…::message`).
pub fn github(sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let escape = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let mut out = String::new();
    for d in diagnostics {
        let (file, line, column, end_line, end_column) = position(sources, d.span);
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        out.push_str(&format!(
            "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            level,
            file,
            line,
            column,
            end_line,
            end_column,
            d.code,
            escape(&d.message)
        ));
    }
    out
}
