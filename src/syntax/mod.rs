//! Syntax: Python 2.7 and Python 3 source text → syntax tree with exact spans.
//!
//! [`parse_module`] returns a `rustpython_parser` AST (re-exported as [`ast`]) whose node
//! ranges are byte offsets into the original text. Python-2-only constructs are rewritten
//! by a token-level pre-pass before parsing (see `py2.rs` for the list); in particular the
//! print statement becomes a call to [`PRINT_FUNC`] and the exec statement a call to
//! [`EXEC_FUNC`].
//!
//! Pipeline: `tokenize` (a small lenient tokenizer) → `py2::analyze` (edits, `__future__`
//! flags) → `fastlex` (tokens for the parser, edits applied, original ranges) → the
//! `rustpython-parser` LALR parser, in parallel pieces for large modules. Input the fast
//! path does not handle exactly like `rustpython-parser`'s lexer falls back to rewriting
//! the text (`py2::rewrite_text`) and lexing it with `rustpython-parser`, remapping token
//! ranges through `offsets::OffsetMap`.
//!
//! Python 2 byte strings are parsed as Python 3 `str` constants (`kind == None`); use
//! [`py2_bytes_literal`] on the original literal text for their exact bytes.

mod encoding;
mod fastlex;
mod offsets;
mod parse;
mod py2;
mod py2_literals;
mod py2_params;
mod span;
mod strings;
mod tokenize;

pub use encoding::check_source_encoding;
pub use parse::{parse_module, ParsedModule, SyntaxError};
pub use py2::{EXEC_FUNC, PRINT_FUNC, PRINT_TO_NONE};
pub use rustpython_parser::ast;
pub use span::{FileId, LineCol, SourceFile, SourceMap, Span};
pub use strings::py2_bytes_literal;
pub(crate) use tokenize::{TokKind, Token};

/// The tokens of `src` (names, strings, comments skipped, ...); never fails. Editor queries
/// use it to find names outside strings and comments.
pub(crate) fn tokens(src: &str) -> Vec<Token> {
    tokenize::tokenize(src).tokens
}

/// The tokens of `src` when the tokenizer read all of it exactly as the parser does (see
/// `Tokenized::clean`); `None` otherwise.
pub(crate) fn clean_tokens(src: &str) -> Option<Vec<Token>> {
    let t = tokenize::tokenize(src);
    t.clean.then_some(t.tokens)
}

#[cfg(test)]
mod tests;
