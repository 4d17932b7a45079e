//! Rendering diagnostics for people (codespan-reporting) and for CI (JSON, SARIF, GitHub
//! workflow annotations).

use crate::diagnostics::{Diagnostic, Severity};
use crate::syntax::{SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use serde_json::json;
use std::path::{Path, PathBuf};

/// How paths are shown: relative to the project root (`/`-separated) when inside it, the
/// program read from stdin as `<stdin>`, others as they are.
#[derive(Clone, Debug, Default)]
pub struct PathStyle {
    pub root: Option<PathBuf>,
    pub stdin: Option<PathBuf>,
}

impl PathStyle {
    pub fn show(&self, path: &Path) -> String {
        if self.stdin.as_deref() == Some(path) {
            return "<stdin>".to_string();
        }
        if let Some(rel) = self.root.as_ref().and_then(|r| path.strip_prefix(r).ok()) {
            if !rel.as_os_str().is_empty() {
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                return parts.join("/");
            }
        }
        path.display().to_string()
    }
}

/// The diagnostics of one analysis, with its sources.
pub struct Report<'a> {
    pub sources: &'a SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

/// 1-based line and column (in characters) of both ends of a span.
pub fn position(
    style: &PathStyle,
    sources: &SourceMap,
    span: Span,
) -> (String, u32, u32, u32, u32) {
    let file = sources.get(span.file);
    let (a, b) = (file.line_col(span.start), file.line_col(span.end));
    let col = |off: u32, lc: crate::syntax::LineCol| {
        let start = file.line_starts()[lc.line as usize] as usize;
        file.text
            .get(start..off as usize)
            .map_or(lc.column, |s| s.chars().count() as u32)
    };
    (
        style.show(&file.path),
        a.line + 1,
        col(span.start, a) + 1,
        b.line + 1,
        col(span.end, b) + 1,
    )
}

pub fn human(sources: &SourceMap, diagnostics: &[Diagnostic], color: bool) -> String {
    human_with(&PathStyle::default(), sources, diagnostics, color)
}

pub fn human_with(
    style: &PathStyle,
    sources: &SourceMap,
    diagnostics: &[Diagnostic],
    color: bool,
) -> String {
    let mut files = SimpleFiles::new();
    let ids: Vec<usize> = sources
        .iter()
        // A lone `\r` ends a line as `\n` does (same length: offsets unchanged).
        .map(|(_, f)| files.add(style.show(&f.path), lone_cr_as_lf(&f.text)))
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

/// One line per diagnostic: `file:line:col: CODE message`.
pub fn concise(style: &PathStyle, reports: &[Report]) -> String {
    let mut out = String::new();
    for r in reports {
        for d in &r.diagnostics {
            let (file, line, column, _, _) = position(style, r.sources, d.span);
            let message = d.message.replace(['\r', '\n'], " ");
            out.push_str(&format!("{file}:{line}:{column}: {} {message}\n", d.code));
        }
    }
    out
}

/// One JSON document for every report.
pub fn json(style: &PathStyle, reports: &[Report]) -> String {
    let mut items: Vec<serde_json::Value> = Vec::new();
    for r in reports {
        let sources = r.sources;
        items.extend(r.diagnostics.iter().map(|d| {
            let (file, line, column, end_line, end_column) = position(style, sources, d.span);
            let labels: Vec<serde_json::Value> = d
                .labels
                .iter()
                .map(|l| {
                    let (file, line, column, _, _) = position(style, sources, l.span);
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
        }));
    }
    let mut s = serde_json::to_string_pretty(&json!({ "diagnostics": items })).unwrap_or_default();
    s.push('\n');
    s
}

/// Percent-encodes a relative path for a SARIF URI reference (RFC 3986: unreserved
/// characters and `/` as they are).
fn uri_path(path: &str) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A SARIF artifact location: relative to `%SRCROOT%` (the project root) when the path is
/// relative, a `file://` URI otherwise.
fn artifact(path: &str) -> serde_json::Value {
    if path.starts_with('/') {
        json!({"uri": format!("file://{}", uri_path(path))})
    } else {
        json!({"uri": uri_path(path), "uriBaseId": "%SRCROOT%"})
    }
}

/// One SARIF 2.1.0 log with one run for every report.
pub fn sarif(style: &PathStyle, reports: &[Report]) -> String {
    let rules: Vec<serde_json::Value> = crate::diagnostics::RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "fullDescription": {"text": r.doc},
                "help": {"text": format!("{}\n\nRejected:\n{}\nAccepted:\n{}", r.doc, r.bad, r.good)},
                "defaultConfiguration": {"level": level(r.severity)},
            })
        })
        .collect();
    let region = |line, column, end_line, end_column| json!({"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column});
    let mut results: Vec<serde_json::Value> = Vec::new();
    for r in reports {
        let sources = r.sources;
        results.extend(r.diagnostics.iter().map(|d| {
            let (file, line, column, end_line, end_column) = position(style, sources, d.span);
            let related: Vec<serde_json::Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let (file, line, column, end_line, end_column) = position(style, sources, l.span);
                    json!({"id": i, "message": {"text": l.message}, "physicalLocation": {"artifactLocation": artifact(&file), "region": region(line, column, end_line, end_column)}})
                })
                .collect();
            let mut result = json!({
                "ruleId": d.code,
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {"artifactLocation": artifact(&file), "region": region(line, column, end_line, end_column)}}],
                "relatedLocations": related,
            });
            if let Some(i) = crate::diagnostics::RULES.iter().position(|r| r.code == d.code) {
                result["ruleIndex"] = json!(i);
            }
            result
        }));
    }
    let mut run = json!({
        "tool": {"driver": {
            "name": "rpy-lsp",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": rules,
        }},
        "results": results,
    });
    // the project's address, when Cargo.toml names one (`repository`)
    if !INFORMATION_URI.is_empty() {
        run["tool"]["driver"]["informationUri"] = json!(INFORMATION_URI);
    }
    if let Some(root) = &style.root {
        let mut uri = format!("file://{}", uri_path(&root.display().to_string()));
        if !uri.ends_with('/') {
            uri.push('/');
        }
        run["originalUriBaseIds"] = json!({"%SRCROOT%": {"uri": uri}});
    }
    let mut s = serde_json::to_string_pretty(&json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }))
    .unwrap_or_default();
    s.push('\n');
    s
}

const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// GitHub Actions workflow commands (`::error file=…::message`), escaped as GitHub's
/// toolkit does: `%`, CR and LF in the message; also `:` and `,` in property values.
pub fn github(style: &PathStyle, reports: &[Report]) -> String {
    let data = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    let mut out = String::new();
    for r in reports {
        for d in &r.diagnostics {
            let (file, line, column, end_line, end_column) = position(style, r.sources, d.span);
            let level = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let title = crate::diagnostics::rules::lookup(d.code)
                .map_or(d.code.to_string(), |r| format!("{} ({})", d.code, r.name));
            out.push_str(&format!(
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
                level,
                property(&file),
                line,
                column,
                end_line,
                end_column,
                property(&title),
                data(&d.message)
            ));
        }
    }
    out
}
