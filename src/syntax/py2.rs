//! Token-aware pre-pass that rewrites Python-2-only constructs into Python 3 that
//! `rustpython-parser` accepts.
//!
//! [`analyze`] tokenizes the module and computes the edits. They are applied either
//! directly to the parser's token stream (`fastlex`, the normal path), or to the text
//! ([`rewrite_text`], with an [`OffsetMap`] back to the original text) which is then lexed
//! by `rustpython-parser` itself (the fallback for unusual or erroneous input). Either way
//! every token of a rewritten construct gets the original range of the text it replaces,
//! and inserted tokens get an empty range at the insertion point.
//!
//! Rewrites (outside strings and comments only):
//! - `print a, b` / `print` / `print a,` / `print >>f, a` (unless `print_function`)
//!   → `__rpy_print__(DEST, NL, a, b)` with `DEST` = file expression or `None`, `NL` = `True`
//!   unless there is a trailing comma.
//! - `exec code [in g [, l]]` → `__rpy_exec__(code[, g[, l]])`.
//! - `except E, e:` → `except E as e:`.
//! - `raise E, v` / `raise E, v, tb` → `raise E(v)` (`raise E, (a, b)` → `raise E(a, b)`,
//!   `raise E, None` → `raise E()`).
//! - `` `x` `` → `repr(x)`; `<>` → `!=`.
//! - `0777` → `0o777`; `10L` → `10`.
//! - `ur"..."` → an equivalent `u"..."`; escapes that Python 2 byte strings accept but
//!   Python 3 rejects (`\N`, short `\u`/`\U`) are neutralised; non-ASCII in `b'...'`
//!   becomes `\xNN` escapes.
//! - indentation containing tabs → spaces (tab stops every 8 columns, as Python 2).
//! - tuple parameters `def f((a, b)):` / `lambda (a, b): ...` → one parameter, unpacked
//!   (in `py2_params`).

use std::borrow::Cow;

use super::py2_literals::{escape_non_ascii, fix_py2_bytes_escapes, raw_unicode_body};

use super::offsets::{Anchor, OffsetMap};
use super::tokenize::{
    nesting_problem, string_parts, tokenize, TokKind, Token, Tokenized, MAX_NESTING,
};

/// Name the print statement is rewritten to call.
pub const PRINT_FUNC: &str = "__rpy_print__";
/// What `print >>None, ...` names as its destination after the rewrite.
pub const PRINT_TO_NONE: &str = "__rpy_print_to_none__";
/// Name the exec statement is rewritten to call.
pub const EXEC_FUNC: &str = "__rpy_exec__";

pub(crate) struct Rewritten<'a> {
    pub text: Cow<'a, str>,
    pub map: OffsetMap,
}

#[derive(Debug)]
pub(crate) struct PrepassError {
    pub offset: u32,
    pub message: String,
}

pub(crate) struct Edit {
    pub start: u32,
    pub end: u32,
    pub text: Cow<'static, str>,
}

const KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "exec", "finally", "for", "from", "global", "if", "import", "in", "is",
    "lambda", "nonlocal", "not", "or", "pass", "print", "raise", "return", "try", "while", "with",
    "yield",
];

pub(super) struct Rewriter<'a> {
    pub(super) src: &'a str,
    pub(super) toks: &'a [Token],
    /// Tuple parameters rewritten so far (names `__rpy_targN`).
    pub(super) tuple_params: u32,
    edits: Vec<Edit>,
    split_points: Vec<u32>,
    print_function: bool,
    unicode_literals: bool,
}

struct BacktickOpen {
    tok: usize,
    depth: u32,
    comma: bool,
}

impl<'a> Rewriter<'a> {
    pub(super) fn text(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.src[t.start as usize..t.end as usize]
    }

    pub(super) fn is_op(&self, i: usize, op: &str) -> bool {
        i < self.toks.len() && self.toks[i].kind == TokKind::Op && self.text(i) == op
    }

    fn is_name(&self, i: usize, name: &str) -> bool {
        i < self.toks.len() && self.toks[i].kind == TokKind::Name && self.text(i) == name
    }

    /// Whether token `i` can end an operand (so a following backtick closes a repr).
    fn operand_end(&self, i: usize, backtick_closed: bool) -> bool {
        let t = self.toks[i];
        match t.kind {
            TokKind::Name => !KEYWORDS.contains(&self.text(i)),
            TokKind::Number | TokKind::String => true,
            TokKind::Op => matches!(self.text(i), ")" | "]" | "}"),
            TokKind::Backtick => backtick_closed,
            _ => false,
        }
    }

    fn replace(&mut self, i: usize, text: impl Into<Cow<'static, str>>) {
        let t = self.toks[i];
        self.edits.push(Edit {
            start: t.start,
            end: t.end,
            text: text.into(),
        });
    }

    pub(super) fn replace_span(
        &mut self,
        start: u32,
        end: u32,
        text: impl Into<Cow<'static, str>>,
    ) {
        self.edits.push(Edit {
            start,
            end,
            text: text.into(),
        });
    }

    pub(super) fn insert(&mut self, at: u32, text: impl Into<Cow<'static, str>>) {
        self.edits.push(Edit {
            start: at,
            end: at,
            text: text.into(),
        });
    }

    /// `async` and `await` used as ordinary names (Python 2: `def async(self)`,
    /// `obj.await`) become `async_` / `await_`, which the parser accepts; `async def`,
    /// `async for`, `async with` and `await EXPR` stay Python 3 syntax.
    fn async_await_name(&mut self, i: usize) {
        let word = self.text(i);
        if word != "async" && word != "await" {
            return;
        }
        let prev_dot_or_def = i > 0 && (self.is_op(i - 1, ".") || self.is_name(i - 1, "def"));
        let next = i + 1;
        let next_is_keyword_use = if word == "async" {
            self.is_name(next, "def") || self.is_name(next, "for") || self.is_name(next, "with")
        } else {
            next < self.toks.len()
                && matches!(
                    self.toks[next].kind,
                    TokKind::Name | TokKind::Number | TokKind::String
                )
        };
        let used_as_name = prev_dot_or_def
            || !next_is_keyword_use
                && (next >= self.toks.len()
                    || self.toks[next].kind == TokKind::Newline
                    || [
                        "=", ".", ",", ")", ":", "]", "(", "[", "+", "-", "*", "/", "%", "==", "!=",
                    ]
                    .iter()
                    .any(|op| self.is_op(next, op)));
        if used_as_name && !(word == "await" && next_is_keyword_use && !prev_dot_or_def) {
            let renamed = if word == "async" { "async_" } else { "await_" };
            self.replace(i, renamed);
        }
    }

    /// End (exclusive token index) of the simple statement starting at token `i`.
    fn stmt_end(&self, i: usize) -> usize {
        let mut depth = 0u32;
        let mut j = i;
        while j < self.toks.len() {
            let t = self.toks[j];
            match t.kind {
                TokKind::Newline => return j,
                TokKind::Op => match self.text(j) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        if depth == 0 {
                            return j;
                        }
                        depth -= 1;
                    }
                    ";" if depth == 0 => return j,
                    _ => {}
                },
                _ => {}
            }
            j += 1;
        }
        j
    }

    /// Matching close bracket of the open bracket at `i`, searching before `limit`.
    pub(super) fn matching_close(&self, i: usize, limit: usize) -> Option<usize> {
        let mut depth = 0u32;
        for j in i..limit {
            if self.toks[j].kind != TokKind::Op {
                continue;
            }
            match self.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Indices in `from..to` of tokens at bracket (and backtick) depth 0 satisfying `pred`.
    fn top_level(
        &self,
        from: usize,
        to: usize,
        mut pred: impl FnMut(&Self, usize) -> bool,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        let mut depth = 0u32;
        let mut backticks = 0u32;
        let mut last_bt_closed = false;
        for j in from..to {
            let t = self.toks[j];
            match t.kind {
                TokKind::Op => match self.text(j) {
                    "(" | "[" | "{" => {
                        depth += 1;
                        continue;
                    }
                    ")" | "]" | "}" => {
                        depth = depth.saturating_sub(1);
                        continue;
                    }
                    _ => {}
                },
                TokKind::Backtick => {
                    if backticks > 0 && j > from && self.operand_end(j - 1, last_bt_closed) {
                        backticks -= 1;
                        last_bt_closed = true;
                    } else {
                        backticks += 1;
                        last_bt_closed = false;
                    }
                    continue;
                }
                _ => {}
            }
            if depth == 0 && backticks == 0 && pred(self, j) {
                out.push(j);
            }
        }
        out
    }

    fn top_level_commas(&self, from: usize, to: usize) -> Vec<usize> {
        self.top_level(from, to, |s, j| s.is_op(j, ","))
    }

    fn print_stmt(&mut self, i: usize) -> Result<(), PrepassError> {
        let j = self.stmt_end(i);
        let k = i + 1;
        if k < j && self.toks[k].kind == TokKind::Op {
            let t = self.text(k);
            if matches!(t, "=" | "." | ":" | "," | ")" | "]" | "}" | ";") || is_augassign(t) {
                return Ok(());
            }
            if t == "(" && self.looks_like_print_function_call(k, j) {
                return Ok(());
            }
        }
        let print_end = self.toks[i].end;
        let last_end = self.toks[j - 1].end;
        self.replace(i, PRINT_FUNC);
        if k < j && self.is_op(k, ">>") {
            let commas = self.top_level_commas(k + 1, j);
            if k + 1 == j || commas.first() == Some(&(k + 1)) {
                return Err(PrepassError {
                    offset: self.toks[k].end,
                    message: "invalid syntax: `print >>` needs a file expression".into(),
                });
            }
            self.replace(k, "(");
            // `print >>None, x` prints to stdout in Python 2 but is not RPython: keep it
            // apart from a plain print (whose destination is the constant None).
            let dest_is_none =
                self.is_name(k + 1, "None") && (k + 2 == j || commas.first() == Some(&(k + 2)));
            if dest_is_none {
                self.replace(k + 1, PRINT_TO_NONE);
            }
            match commas.first() {
                None => self.insert(last_end, ", True)"),
                Some(&c) => {
                    if c + 1 == j {
                        return Err(PrepassError {
                            offset: self.toks[c].start,
                            message: "invalid syntax: trailing comma after `print >>file`".into(),
                        });
                    }
                    let trailing = commas.last() == Some(&(j - 1));
                    let dest_end = self.toks[c - 1].end;
                    self.insert(dest_end, if trailing { ", False" } else { ", True" });
                    self.insert(last_end, ")");
                }
            }
        } else if k == j {
            self.insert(print_end, "(None, True)");
        } else {
            let commas = self.top_level_commas(k, j);
            let trailing = commas.last() == Some(&(j - 1));
            self.insert(
                print_end,
                if trailing {
                    "(None, False,"
                } else {
                    "(None, True,"
                },
            );
            self.insert(last_end, ")");
        }
        Ok(())
    }

    /// `print(...)` spanning the whole statement with keyword or star arguments: a Python 3
    /// call (a syntax error in Python 2), left unchanged.
    fn looks_like_print_function_call(&self, open: usize, end: usize) -> bool {
        if self.matching_close(open, end) != Some(end - 1) {
            return false;
        }
        let close = end - 1;
        let inner = self.top_level(open + 1, close, |s, j| {
            let prev_sep = j == open + 1 || s.is_op(j - 1, ",");
            (s.is_op(j, "=") && s.toks[j - 1].kind == TokKind::Name)
                || (prev_sep && (s.is_op(j, "*") || s.is_op(j, "**")))
        });
        !inner.is_empty()
    }

    fn exec_stmt(&mut self, i: usize) {
        let j = self.stmt_end(i);
        let k = i + 1;
        if k >= j {
            return;
        }
        if self.toks[k].kind == TokKind::Op {
            let t = self.text(k);
            if matches!(t, "=" | "." | ":" | "," | ")" | "]" | "}") || is_augassign(t) {
                return;
            }
        }
        self.replace(i, EXEC_FUNC);
        if self.is_op(k, "(") && self.matching_close(k, j) == Some(j - 1) {
            return;
        }
        self.insert(self.toks[i].end, "(");
        if let Some(&in_tok) = self.top_level(k, j, |s, x| s.is_name(x, "in")).first() {
            self.replace(in_tok, ",");
        }
        self.insert(self.toks[j - 1].end, ")");
    }

    fn raise_stmt(&mut self, i: usize) {
        let j = self.stmt_end(i);
        let commas = self.top_level_commas(i + 1, j);
        let Some(&c1) = commas.first() else { return };
        let c2 = commas.get(1).copied();
        let v_end = c2.unwrap_or(j);
        if c1 + 1 >= v_end || c1 == i + 1 {
            return; // malformed; let the parser report it
        }
        let last_end = self.toks[j - 1].end;
        let comma = self.toks[c1];
        if v_end == c1 + 2 && self.is_name(c1 + 1, "None") {
            let end = if c2.is_some() {
                last_end
            } else {
                self.toks[c1 + 1].end
            };
            self.replace_span(comma.start, end, "()");
        } else if self.is_op(c1 + 1, "(") && self.matching_close(c1 + 1, v_end) == Some(v_end - 1) {
            self.replace_span(comma.start, self.toks[c1 + 1].end, "(");
            if c2.is_some() {
                self.replace_span(self.toks[v_end - 1].start, last_end, ")");
            }
        } else {
            self.replace(c1, "(");
            match c2 {
                Some(c2) => self.replace_span(self.toks[c2].start, last_end, ")"),
                None => self.insert(last_end, ")"),
            }
        }
    }

    /// `except E, e:` → `except E as e:`. Returns nothing; the header colon is handled by
    /// the main loop.
    fn except_clause(&mut self, i: usize) {
        let j = self.stmt_end(i);
        let mut lambdas = 0u32;
        let mut colon = None;
        for x in self.top_level(i + 1, j, |s, x| s.is_op(x, ":") || s.is_name(x, "lambda")) {
            if self.is_name(x, "lambda") {
                lambdas += 1;
            } else if lambdas > 0 {
                lambdas -= 1;
            } else {
                colon = Some(x);
                break;
            }
        }
        let Some(colon) = colon else { return };
        let commas = self.top_level_commas(i + 1, colon);
        let has_as = !self
            .top_level(i + 1, colon, |s, x| s.is_name(x, "as"))
            .is_empty();
        if commas.len() == 1 && !has_as && commas[0] > i + 1 {
            self.replace(commas[0], " as ");
        }
    }

    fn future_import(&mut self, i: usize) {
        if !(self.is_name(i + 1, "__future__") && self.is_name(i + 2, "import")) {
            return;
        }
        let j = if self.is_op(i + 3, "(") {
            self.matching_close(i + 3, self.toks.len())
                .unwrap_or(self.toks.len())
        } else {
            self.stmt_end(i + 3)
        };
        let mut x = i + 3;
        while x < j && x < self.toks.len() {
            if self.is_name(x, "print_function") {
                self.print_function = true;
            } else if self.is_name(x, "unicode_literals") {
                self.unicode_literals = true;
            }
            x += 1;
        }
    }

    fn number(&mut self, i: usize) {
        let t = self.text(i);
        let mut body = t;
        let mut changed = false;
        if let Some(stripped) = t.strip_suffix(['l', 'L']) {
            let lower = stripped.to_ascii_lowercase();
            let is_int =
                if lower.starts_with("0x") || lower.starts_with("0o") || lower.starts_with("0b") {
                    true
                } else {
                    !stripped.is_empty()
                        && stripped.bytes().all(|b| b.is_ascii_digit() || b == b'_')
                };
            if is_int {
                body = stripped;
                changed = true;
            }
        }
        let mut new: String = if body.len() > 1
            && body.starts_with('0')
            && body.bytes().all(|b| b.is_ascii_digit())
            && body.bytes().any(|b| b != b'0')
        {
            format!("0o{}", &body[1..])
        } else if changed {
            body.to_string()
        } else {
            return;
        };
        // Keep the literal a separate token (`1L.real`, `1L2`).
        let next = self
            .src
            .as_bytes()
            .get(self.toks[i].end as usize)
            .copied()
            .unwrap_or(b' ');
        if next.is_ascii_alphanumeric() || next == b'_' || next == b'.' || next >= 0x80 {
            new.push(' ');
        }
        self.replace(i, new);
    }

    fn string(&mut self, i: usize) {
        let tok = self.text(i);
        let parts = string_parts(tok.as_bytes());
        if !parts.terminated {
            return;
        }
        let prefix = tok[..parts.prefix_len].to_ascii_lowercase();
        let qlen = if parts.triple { 3 } else { 1 };
        let body = &tok[parts.prefix_len + qlen..tok.len() - qlen];
        let quotes = &tok[parts.prefix_len..parts.prefix_len + qlen];
        let new_body = if prefix.contains('u') && prefix.contains('r') {
            Some(raw_unicode_body(body, parts.quote))
        } else if prefix.is_empty() && !self.unicode_literals {
            fix_py2_bytes_escapes(body)
        } else if prefix == "b" {
            escape_non_ascii(body)
        } else {
            None
        };
        if let Some(new_body) = new_body {
            let new_prefix = if prefix.contains('u') {
                "u"
            } else {
                &tok[..parts.prefix_len]
            };
            let text = format!("{new_prefix}{quotes}{new_body}{quotes}");
            self.replace(i, text);
        }
    }

    fn run(&mut self) -> Result<(), PrepassError> {
        let mut stmt_start = true;
        let mut header = false;
        let mut lambdas = 0u32;
        let mut depth = 0u32;
        let mut backticks: Vec<BacktickOpen> = Vec::new();
        let mut last_bt_closed = false;
        let mut line_start = true;
        let mut after_decorator = false;
        for idx in 0..self.toks.len() {
            let t = self.toks[idx];
            if line_start && t.kind != TokKind::Newline {
                line_start = false;
                let column0 = t.start > 0
                    && matches!(self.src.as_bytes()[t.start as usize - 1], b'\n' | b'\r');
                let continuation = t.kind == TokKind::Name
                    && matches!(self.text(idx), "else" | "elif" | "except" | "finally");
                if column0 && !continuation && !after_decorator {
                    self.split_points.push(t.start);
                }
                after_decorator = self.is_op(idx, "@");
            }
            if stmt_start && t.kind != TokKind::Newline {
                stmt_start = false;
                if t.kind == TokKind::Name {
                    match self.text(idx) {
                        "print" if !self.print_function => self.print_stmt(idx)?,
                        "exec" => self.exec_stmt(idx),
                        "raise" => self.raise_stmt(idx),
                        "except" => {
                            self.except_clause(idx);
                            header = true;
                        }
                        "if" | "elif" | "else" | "while" | "for" | "try" | "finally" | "with"
                        | "class" => header = true,
                        "def" => {
                            header = true;
                            self.def_tuple_params(idx);
                        }
                        "async" => {
                            header = self.is_name(idx + 1, "def")
                                || self.is_name(idx + 1, "for")
                                || self.is_name(idx + 1, "with")
                        }
                        "from" => self.future_import(idx),
                        _ => {}
                    }
                }
            }
            match t.kind {
                TokKind::Newline => {
                    line_start = true;
                    stmt_start = true;
                    header = false;
                    lambdas = 0;
                    depth = 0;
                    backticks.clear();
                }
                TokKind::Op => match self.text(idx) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    ";" if depth == 0 => {
                        stmt_start = true;
                        header = false;
                    }
                    ":" if depth == 0 && header => {
                        if lambdas > 0 {
                            lambdas -= 1;
                        } else {
                            header = false;
                            stmt_start = true;
                        }
                    }
                    "," => {
                        if let Some(top) = backticks.last_mut() {
                            if top.depth == depth {
                                top.comma = true;
                            }
                        }
                    }
                    "<>" => self.replace(idx, "!="),
                    _ => {}
                },
                TokKind::Name => {
                    if self.text(idx) == "lambda" {
                        self.lambda_tuple_params(idx);
                    }
                    self.async_await_name(idx);
                    if header && depth == 0 && self.text(idx) == "lambda" {
                        lambdas += 1;
                    }
                }
                TokKind::Backtick => {
                    let closes = idx > 0
                        && self.operand_end(idx - 1, last_bt_closed)
                        && backticks.last().is_some_and(|o| o.depth == depth);
                    if closes {
                        if let Some(open) = backticks.pop() {
                            let open_start = self.toks[open.tok].start as usize;
                            let glued = open_start > 0 && {
                                let p = self.src.as_bytes()[open_start - 1];
                                p.is_ascii_alphanumeric() || p == b'_' || p >= 0x80
                            };
                            self.replace(open.tok, if glued { " repr(" } else { "repr(" });
                            self.replace(idx, ")");
                            if open.comma {
                                // Parenthesise the tuple so it spans the text between backticks.
                                let (after_open, before_close) = (self.toks[open.tok].end, t.start);
                                self.insert(after_open, "(");
                                self.insert(before_close, ")");
                            }
                        }
                        last_bt_closed = true;
                    } else {
                        backticks.push(BacktickOpen {
                            tok: idx,
                            depth,
                            comma: false,
                        });
                        last_bt_closed = false;
                    }
                }
                TokKind::Number => self.number(idx),
                TokKind::String => self.string(idx),
                TokKind::Other => {}
            }
        }
        Ok(())
    }
}

fn is_augassign(op: &str) -> bool {
    op.len() >= 2 && op.ends_with('=') && !matches!(op, "==" | "<=" | ">=" | "!=")
}

/// Result of the token-level analysis of a module: tokens, Python 2 → 3 edits and flags.
pub(crate) struct Analysis<'a> {
    pub src: &'a str,
    pub tokenized: Tokenized,
    /// Sorted by position, non-overlapping; each starts at a token start (or is an
    /// insertion) and ends at a token end. Tab-indentation edits are not included.
    pub edits: Vec<Edit>,
    pub print_function: bool,
    pub unicode_literals: bool,
    /// Original offsets where an independent top-level statement starts at column 0
    /// (not `else`/`elif`/`except`/`finally`, not after a decorator): the module can be
    /// split there and the pieces parsed separately.
    pub split_points: Vec<u32>,
}

/// Tokenize `src` and compute the edits that turn it into Python 3.
pub(crate) fn analyze(src: &str) -> Result<Analysis<'_>, PrepassError> {
    if src.len() >= u32::MAX as usize / 2 {
        return Err(PrepassError {
            offset: 0,
            message: "file too large".into(),
        });
    }
    let tokenized = tokenize(src);
    if let Some(off) = tokenized.too_deep {
        return Err(PrepassError {
            offset: off,
            message: format!("too many nested parentheses (more than {MAX_NESTING})"),
        });
    }
    if let Some((offset, message)) = nesting_problem(src, &tokenized.tokens) {
        return Err(PrepassError { offset, message });
    }
    let mut rw = Rewriter {
        src,
        toks: &tokenized.tokens,
        tuple_params: 0,
        edits: Vec::new(),
        split_points: Vec::new(),
        print_function: false,
        unicode_literals: false,
    };
    rw.run()?;
    let Rewriter {
        mut edits,
        split_points,
        print_function,
        unicode_literals,
        ..
    } = rw;
    edits.sort_by_key(|e| (e.start, e.end));
    // Drop edits nested in an earlier (enclosing) one.
    let mut pos = 0u32;
    edits.retain(|e| {
        let keep = e.start >= pos
            && (e.end as usize) <= src.len()
            && src.is_char_boundary(e.start as usize)
            && src.is_char_boundary(e.end as usize);
        if keep {
            pos = e.end;
        }
        keep
    });
    Ok(Analysis {
        src,
        tokenized,
        edits,
        print_function,
        unicode_literals,
        split_points,
    })
}

/// Apply the edits of `a` (plus tab-indentation rewriting) to get Python 3 text with an
/// offset map back to the original.
pub(crate) fn rewrite_text<'a>(a: &Analysis<'a>) -> Rewritten<'a> {
    let src = a.src;
    let tabs = &a.tokenized.tab_indents;
    if a.edits.is_empty() && tabs.is_empty() {
        return Rewritten {
            text: Cow::Borrowed(src),
            map: OffsetMap::default(),
        };
    }
    let tab_edits: Vec<Edit> = tabs
        .iter()
        .map(|ti| Edit {
            start: ti.start,
            end: ti.end,
            text: Cow::Owned(" ".repeat(ti.column as usize)),
        })
        .collect();
    // Merge the two sorted lists (indentation never overlaps token edits).
    let mut all: Vec<&Edit> = Vec::with_capacity(a.edits.len() + tab_edits.len());
    let (mut i, mut j) = (0, 0);
    while i < a.edits.len() || j < tab_edits.len() {
        let take_tab = j < tab_edits.len()
            && (i >= a.edits.len()
                || (tab_edits[j].start, tab_edits[j].end) <= (a.edits[i].start, a.edits[i].end));
        if take_tab {
            all.push(&tab_edits[j]);
            j += 1;
        } else {
            all.push(&a.edits[i]);
            i += 1;
        }
    }
    let extra: usize = all.iter().map(|e| e.text.len()).sum();
    let mut out = String::with_capacity(src.len() + extra);
    let mut anchors = Vec::with_capacity(all.len());
    let mut pos = 0usize;
    for e in all {
        let (s, end) = (e.start as usize, e.end as usize);
        if s < pos {
            continue;
        }
        out.push_str(&src[pos..s]);
        let new_start = out.len() as u32;
        out.push_str(&e.text);
        anchors.push(Anchor {
            new_start,
            new_end: out.len() as u32,
            old_start: e.start,
            old_end: e.end,
        });
        pos = end;
    }
    out.push_str(&src[pos..]);
    Rewritten {
        text: Cow::Owned(out),
        map: OffsetMap::new(anchors),
    }
}

/// Rewrite `src` into Python 3 text with an offset map back to `src`.
#[cfg(test)]
pub(crate) fn rewrite(src: &str) -> Result<Rewritten<'_>, PrepassError> {
    Ok(rewrite_text(&analyze(src)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(src: &str) -> String {
        rewrite(src)
            .map(|r| r.text.into_owned())
            .unwrap_or_else(|e| format!("ERROR@{}: {}", e.offset, e.message))
    }

    #[test]
    fn print_forms() {
        assert_eq!(rw("print a, b\n"), "__rpy_print__(None, True, a, b)\n");
        assert_eq!(rw("print\n"), "__rpy_print__(None, True)\n");
        assert_eq!(rw("print a,\n"), "__rpy_print__(None, False, a,)\n");
        assert_eq!(rw("print >>f, a\n"), "__rpy_print__ (f, True, a)\n");
        assert_eq!(rw("print >>f, a,\n"), "__rpy_print__ (f, False, a,)\n");
        assert_eq!(rw("print >> f\n"), "__rpy_print__ ( f, True)\n");
        assert_eq!(rw("print(a, b)\n"), "__rpy_print__(None, True,(a, b))\n");
        assert_eq!(rw("print(a, end='')\n"), "print(a, end='')\n");
        assert_eq!(rw("print = 3\nprint.x\n"), "print = 3\nprint.x\n");
        assert_eq!(
            rw("if x: print y; print\n"),
            "if x: __rpy_print__(None, True, y); __rpy_print__(None, True)\n"
        );
        assert_eq!(rw("x = 1 # print y\n"), "x = 1 # print y\n");
        assert!(rw("print >>f,\n").starts_with("ERROR"));
        assert!(rw("print >>\n").starts_with("ERROR"));
    }

    #[test]
    fn print_function_future_disables_rewrite() {
        let src = "from __future__ import (absolute_import,\n    print_function)\nprint(a, b)\n";
        assert_eq!(rw(src), src);
        let r = analyze(src).unwrap();
        assert!(r.print_function && !r.unicode_literals);
    }

    #[test]
    fn exec_raise_except() {
        assert_eq!(rw("exec code\n"), "__rpy_exec__( code)\n");
        assert_eq!(rw("exec code in g, l\n"), "__rpy_exec__( code , g, l)\n");
        assert_eq!(rw("exec(code, g)\n"), "__rpy_exec__(code, g)\n");
        assert_eq!(rw("raise E, v\n"), "raise E( v)\n");
        assert_eq!(rw("raise E, v, tb\n"), "raise E( v)\n");
        assert_eq!(rw("raise E, (a, b)\n"), "raise E(a, b)\n");
        assert_eq!(rw("raise E, (a, b), tb\n"), "raise E(a, b)\n");
        assert_eq!(rw("raise E, None\n"), "raise E()\n");
        assert_eq!(rw("raise E(v)\n"), "raise E(v)\n");
        assert_eq!(
            rw("try: pass\nexcept (A, B), e: pass\n"),
            "try: pass\nexcept (A, B) as  e: pass\n"
        );
        assert_eq!(rw("except E as e:\n"), "except E as e:\n");
    }

    #[test]
    fn tokens() {
        assert_eq!(rw("x = `a` + `b, c`\n"), "x = repr(a) + repr((b, c))\n");
        assert_eq!(rw("x = `1 + `2``\n"), "x = repr(1 + repr(2))\n");
        assert_eq!(rw("a <> b\n"), "a != b\n");
        assert_eq!(
            rw("x = 0777 + 10L + 0xFFl + 0 + 0.5 + 07.5 + 1e5 + 0L\n"),
            "x = 0o777 + 10 + 0xFF + 0 + 0.5 + 07.5 + 1e5 + 0\n"
        );
        assert_eq!(rw("s = '<>' # `x`\n"), "s = '<>' # `x`\n");
    }

    #[test]
    fn strings() {
        assert_eq!(
            rw(r#"x = ur'\d\u1234\\u12\''"#),
            r#"x = u'\\d\u1234\\\\u12\\\''"#
        );
        assert_eq!(rw(r#"x = UR"a\"""#), r#"x = u"a\\\"""#);
        assert_eq!(rw(r#"x = '\N\u12'"#), r#"x = '\\N\\u12'"#);
        assert_eq!(rw(r#"x = '\u1234\N{DASH}'"#), r#"x = '\u1234\N{DASH}'"#);
        assert_eq!(rw(r#"x = u'\u1234'"#), r#"x = u'\u1234'"#);
        assert_eq!(rw("x = b'é'"), r"x = b'\xc3\xa9'");
        assert_eq!(
            rw("from __future__ import unicode_literals\nx = '\\N'"),
            "from __future__ import unicode_literals\nx = '\\N'"
        );
    }

    #[test]
    fn tabs() {
        assert_eq!(
            rw("if x:\n\tif y:\n\t    z\n  \t# c\n"),
            "if x:\n        if y:\n            z\n        # c\n"
        );
    }
}
