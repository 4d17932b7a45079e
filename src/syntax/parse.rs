//! `parse_module`: Python 2.7 / Python 3 source → `rustpython_parser` AST whose ranges are
//! byte offsets in the original text.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use rustpython_parser::ast;
use rustpython_parser::text_size::TextSize;
use rustpython_parser::{lexer, parse_tokens, Mode, ParseError};

use super::fastlex;
use super::offsets::MapCursor;
use super::py2::{self, EXEC_FUNC, PRINT_FUNC};
use super::span::{FileId, Span};

/// A parsed module. Every node's `range` is a byte range of the original text.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedModule {
    pub file: FileId,
    pub body: Vec<ast::Stmt>,
    /// `from __future__ import print_function` is present.
    pub print_function: bool,
    /// `from __future__ import unicode_literals` is present.
    pub unicode_literals: bool,
}

/// A syntax error located in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Span of the character at `offset` (empty at end of text).
fn char_span(file: FileId, text: &str, offset: u32) -> Span {
    let mut start = (offset as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let len = text[start..].chars().next().map_or(0, char::len_utf8);
    Span::new(file, start as u32, (start + len) as u32)
}

fn clean_message(msg: String) -> String {
    if msg.contains("__rpy_") {
        msg.replace(PRINT_FUNC, "print").replace(EXEC_FUNC, "exec")
    } else {
        msg
    }
}

/// The parser's message for a `\\N{NAME}` escape naming no character ("Got unexpected
/// unicode", at the name) said as Python 2 says it.
fn unknown_char_name(text: &str, off: usize) -> Option<String> {
    let before = text.get(..off.min(text.len()))?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let esc = before[line_start..].rfind("\\N{")? + line_start;
    let end = text[esc..].find('}').map(|i| esc + i + 1)?;
    (end > off).then(|| {
        format!(
            "(unicode error) unknown Unicode character name in `{}`",
            &text[esc..end]
        )
    })
}

/// Inputs at least this large are split at top-level statements and parsed in parallel.
const PARALLEL_MIN_BYTES: usize = 96 * 1024;
/// Aim for pieces of at least this many bytes.
const PARALLEL_CHUNK_BYTES: usize = 48 * 1024;
const SOURCE_PATH: &str = "<rpython>";

type ChunkResult = Result<Vec<ast::Stmt>, ParseError>;

/// Number of pieces to parse `len` bytes in.
pub(super) fn thread_count(len: usize) -> usize {
    if len < PARALLEL_MIN_BYTES {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(len / PARALLEL_CHUNK_BYTES)
        .max(1)
}

fn module_body(m: ast::Mod) -> Vec<ast::Stmt> {
    match m {
        ast::Mod::Module(m) => m.body,
        _ => Vec::new(),
    }
}

/// Run `f` on every piece (the first on this thread, the others on scoped threads) and
/// concatenate the statements. `Err(())` means the parser panicked (or a thread could not
/// be started).
fn run_pieces<T: Send>(
    mut pieces: Vec<T>,
    f: impl Fn(T) -> ChunkResult + Sync,
) -> Result<ChunkResult, ()> {
    if pieces.len() <= 1 {
        let Some(p) = pieces.pop() else {
            return Ok(Ok(Vec::new()));
        };
        return catch_unwind(AssertUnwindSafe(|| f(p))).map_err(|_| ());
    }
    let f = &f;
    let results: Vec<Result<ChunkResult, ()>> = std::thread::scope(|scope| {
        let mut iter = pieces.into_iter();
        let first = iter.next();
        // A thread that cannot be spawned counts as a failure: the caller then redoes the
        // parse in one piece.
        let handles: Vec<_> = iter
            .map(|p| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || catch_unwind(AssertUnwindSafe(|| f(p))))
                    .ok()
            })
            .collect();
        let mut out = Vec::with_capacity(handles.len() + 1);
        if let Some(p) = first {
            out.push(catch_unwind(AssertUnwindSafe(|| f(p))).map_err(|_| ()));
        }
        for h in handles {
            out.push(match h {
                Some(h) => h.join().map_err(|_| ()).and_then(|r| r.map_err(|_| ())),
                None => Err(()),
            });
        }
        out
    });
    let mut body = Vec::new();
    for r in results {
        match r? {
            Ok(stmts) => body.extend(stmts),
            Err(e) => return Ok(Err(e)),
        }
    }
    Ok(Ok(body))
}

/// Choose up to `threads - 1` split positions out of `candidates` (increasing), about
/// `len / threads` apart; `pos` gives a candidate's position on the `0..len` scale.
fn choose_splits<C: Copy>(
    candidates: &[C],
    threads: usize,
    len: usize,
    pos: impl Fn(C) -> Option<usize>,
) -> Vec<C> {
    let mut chosen = Vec::new();
    if threads <= 1 || len == 0 {
        return chosen;
    }
    let step = len / threads;
    let mut next = step;
    for &c in candidates {
        if chosen.len() + 1 >= threads {
            break;
        }
        let Some(p) = pos(c) else { continue };
        if p >= next && p < len {
            chosen.push(c);
            next = p + step;
        }
    }
    chosen
}

/// Fast path: our own token stream straight into the parser. `None` if the input needs the
/// slow path.
fn parse_fast(a: &py2::Analysis<'_>, threads: usize) -> Option<Result<ChunkResult, ()>> {
    let ft = fastlex::fast_tokens(a)?;
    let mut tokens = ft.tokens;
    let n = tokens.len();
    let splits = choose_splits(&ft.splits, threads, n, Some);
    let mut pieces = Vec::with_capacity(splits.len() + 1);
    for &s in splits.iter().rev() {
        pieces.push(tokens.split_off(s));
    }
    pieces.push(tokens);
    pieces.reverse();
    Some(run_pieces(pieces, |toks| {
        parse_tokens(toks.into_iter().map(Ok), Mode::Module, SOURCE_PATH).map(module_body)
    }))
}

/// Parse `rw.text[start..end]` (a sequence of whole top-level statements) with
/// `rustpython-parser`'s lexer into statements whose ranges are offsets of the original text.
fn parse_text_chunk(rw: &py2::Rewritten<'_>, start: u32, end: u32) -> ChunkResult {
    let tokens = lexer::lex_starts_at(
        &rw.text[start as usize..end as usize],
        Mode::Module,
        TextSize::new(start),
    );
    if rw.map.is_identity() {
        return parse_tokens(tokens, Mode::Module, SOURCE_PATH).map(module_body);
    }
    // Move every token (and lexical error) back to the original text, so the parser
    // builds nodes with original ranges directly.
    let map = &rw.map;
    let mut cursor = MapCursor::new(map);
    let remapped = tokens.map(move |t| match t {
        Ok((tok, range)) => Ok((tok, cursor.map_range(range))),
        Err(mut e) => {
            e.location = TextSize::new(map.map_start(e.location.to_u32()));
            Err(e)
        }
    });
    parse_tokens(remapped, Mode::Module, SOURCE_PATH).map(module_body)
}

/// Slow path: rewrite the text and parse it with `rustpython-parser`'s own lexer.
pub(super) fn parse_slow(a: &py2::Analysis<'_>, threads: usize) -> Result<ChunkResult, ()> {
    let rw = py2::rewrite_text(a);
    let len = rw.text.len();
    let splits = choose_splits(&a.split_points, threads, len, |p| {
        rw.map
            .new_offset(p)
            .map(|x| x as usize)
            .filter(|&x| rw.text.is_char_boundary(x))
    });
    let mut bounds = vec![0u32];
    bounds.extend(splits.iter().filter_map(|&p| rw.map.new_offset(p)));
    bounds.push(len as u32);
    let pieces: Vec<(u32, u32)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
    run_pieces(pieces, |(s, e)| parse_text_chunk(&rw, s, e))
}

pub(super) fn parse_body(a: &py2::Analysis<'_>, threads: usize) -> Result<ChunkResult, ()> {
    let r = match parse_fast(a, threads) {
        Some(Err(())) | None => parse_slow(a, threads),
        Some(r) => r,
    };
    match r {
        // A piece boundary can change which error is reported first: redo it in one piece.
        Ok(Err(_)) | Err(_) if threads > 1 => parse_body(a, 1),
        r => r,
    }
}

/// Parse one module of Python 2.7 (RPython) or Python 3 source.
///
/// Python-2-only syntax is rewritten first (see [`super::py2`]); in the resulting tree the
/// print statement is an expression statement calling [`PRINT_FUNC`] and the exec
/// statement one calling [`EXEC_FUNC`]. Never panics.
pub fn parse_module(file: FileId, text: &str) -> Result<ParsedModule, SyntaxError> {
    let a = py2::analyze(text).map_err(|e| SyntaxError {
        span: char_span(file, text, e.offset),
        message: e.message,
    })?;
    let body = match parse_body(&a, thread_count(text.len())) {
        Err(()) => {
            return Err(SyntaxError {
                span: char_span(file, text, 0),
                message: "internal error in the Python parser".into(),
            })
        }
        Ok(Err(e)) => {
            // Offsets are already in the original text.
            let mut off = e.offset.to_u32();
            let message = clean_message(e.error.to_string());
            if message.contains("EOL while scanning") {
                // Reported after the newline; point at the end of the string's line instead.
                let b = text.as_bytes();
                let mut o = (off as usize).min(b.len());
                while o > 0 && matches!(b[o - 1], b'\n' | b'\r') {
                    o -= 1;
                }
                off = o as u32;
            }
            let message = unknown_char_name(text, off as usize).unwrap_or(message);
            return Err(SyntaxError {
                span: char_span(file, text, off),
                message,
            });
        }
        Ok(Ok(body)) => body,
    };
    Ok(ParsedModule {
        file,
        body,
        print_function: a.print_function,
        unicode_literals: a.unicode_literals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_pieces_give_the_same_tree() {
        let src = "import sys\n@dec\ndef f(x):\n    print x\nclass A:\n    pass\nif a:\n    b = `1`\nelse:\n    c <> 2\ntry:\n    pass\nexcept E, e:\n    pass\nfinally:\n    pass\nx = [0777L,\n1]\nprint >>f, 1\n".repeat(20);
        let a = py2::analyze(&src).unwrap();
        let whole = parse_slow(&a, 1).unwrap().unwrap();
        for threads in [1, 2, 3, 7] {
            assert_eq!(whole, parse_slow(&a, threads).unwrap().unwrap());
            assert_eq!(whole, parse_fast(&a, threads).unwrap().unwrap().unwrap());
        }
        // An error in a later piece is reported with its original offset.
        let bad = format!("{src}y = = 1\n{src}");
        let a = py2::analyze(&bad).unwrap();
        let e1 = parse_slow(&a, 1).unwrap().unwrap_err();
        let e3 = parse_slow(&a, 3).unwrap().unwrap_err();
        assert_eq!(e1.offset, e3.offset);
        assert_eq!(e1.offset.to_usize(), src.len() + 4);
        let e = parse_body(&a, 3).unwrap().unwrap_err();
        assert_eq!(e.offset, e1.offset);
        assert_eq!(e.error, e1.error);
    }
}
