//! Diagnostics shared by every stage: a `Diagnostic` is a value with a stable rule code, a
//! primary span at user code and secondary labels saying why. Stages produce them; the
//! front ends (`cli`, `lsp`) only render them.

pub mod rules;
pub mod suppress;

use crate::syntax::Span;
pub use rules::{Rule, RULES};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
}

/// The label of a diagnostic moved from inside a bundled model to the user's call.
pub const BUNDLED_MODEL_LABEL: &str = "inside the bundled model of the library";

impl Diagnostic {
    /// Where inside a bundled model a diagnostic moved to the user's call was found.
    pub fn bundled_origin(&self) -> Option<Span> {
        self.labels
            .iter()
            .find(|l| l.message == BUNDLED_MODEL_LABEL)
            .map(|l| l.span)
    }

    /// A diagnostic of rule `code` (which must be registered in [`RULES`]); its severity is
    /// the rule's default.
    pub fn new(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        let severity = rules::lookup(code)
            .map(|r| r.severity)
            .unwrap_or(Severity::Error);
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span,
            labels: Vec::new(),
        }
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
