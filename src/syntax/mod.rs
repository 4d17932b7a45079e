//! Syntax: Python 2.7 and Python 3 source text → syntax tree with exact spans.

mod span;
pub use span::{FileId, LineCol, SourceFile, SourceMap, Span};
