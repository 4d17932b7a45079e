//! Fast path: turn the pre-pass tokens (plus the Python 2 → 3 edits) directly into the
//! `rustpython-parser` token stream, with ranges in the original text.
//!
//! This replaces `rustpython-parser`'s own (slower) lexer for well-formed input and makes
//! rewritten constructs exact by construction: every token produced by an edit gets the
//! original range of the text it replaces (or an empty range for pure insertions), exactly
//! what the text-rewrite path computes through its offset map. Anything unusual makes
//! [`fast_tokens`] return `None`, and the caller falls back to rewriting the text and using
//! `rustpython-parser`'s lexer, which also produces its exact error messages.

use rustpython_parser::ast::bigint::BigInt;
use rustpython_parser::lexer::Spanned;
use rustpython_parser::text_size::{TextRange, TextSize};
use rustpython_parser::{StringKind, Tok};

use super::py2::Analysis;
use super::tokenize::{string_parts, tokenize, TokKind, Token};

/// Tokens for the parser, and the indices in `tokens` where an independent top-level
/// statement starts (the module can be parsed in pieces split there).
pub(crate) struct FastTokens {
    pub tokens: Vec<Spanned>,
    pub splits: Vec<usize>,
}

fn range(start: u32, end: u32) -> TextRange {
    TextRange::new(TextSize::new(start), TextSize::new(end))
}

fn keyword(name: &str) -> Option<Tok> {
    Some(match name {
        "False" => Tok::False,
        "None" => Tok::None,
        "True" => Tok::True,
        "and" => Tok::And,
        "as" => Tok::As,
        "assert" => Tok::Assert,
        "async" => Tok::Async,
        "await" => Tok::Await,
        "break" => Tok::Break,
        "case" => Tok::Case,
        "class" => Tok::Class,
        "continue" => Tok::Continue,
        "def" => Tok::Def,
        "del" => Tok::Del,
        "elif" => Tok::Elif,
        "else" => Tok::Else,
        "except" => Tok::Except,
        "finally" => Tok::Finally,
        "for" => Tok::For,
        "from" => Tok::From,
        "global" => Tok::Global,
        "if" => Tok::If,
        "import" => Tok::Import,
        "in" => Tok::In,
        "is" => Tok::Is,
        "lambda" => Tok::Lambda,
        "match" => Tok::Match,
        "nonlocal" => Tok::Nonlocal,
        "not" => Tok::Not,
        "or" => Tok::Or,
        "pass" => Tok::Pass,
        "raise" => Tok::Raise,
        "return" => Tok::Return,
        "try" => Tok::Try,
        "type" => Tok::Type,
        "while" => Tok::While,
        "with" => Tok::With,
        "yield" => Tok::Yield,
        _ => return None,
    })
}

fn operator(op: &str) -> Option<Tok> {
    Some(match op {
        "(" => Tok::Lpar,
        ")" => Tok::Rpar,
        "[" => Tok::Lsqb,
        "]" => Tok::Rsqb,
        "{" => Tok::Lbrace,
        "}" => Tok::Rbrace,
        ":" => Tok::Colon,
        "," => Tok::Comma,
        ";" => Tok::Semi,
        "+" => Tok::Plus,
        "-" => Tok::Minus,
        "*" => Tok::Star,
        "/" => Tok::Slash,
        "|" => Tok::Vbar,
        "&" => Tok::Amper,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "=" => Tok::Equal,
        "." => Tok::Dot,
        "%" => Tok::Percent,
        "==" => Tok::EqEqual,
        "!=" => Tok::NotEqual,
        "<>" => Tok::NotEqual,
        "<=" => Tok::LessEqual,
        ">=" => Tok::GreaterEqual,
        "~" => Tok::Tilde,
        "^" => Tok::CircumFlex,
        "<<" => Tok::LeftShift,
        ">>" => Tok::RightShift,
        "**" => Tok::DoubleStar,
        "**=" => Tok::DoubleStarEqual,
        "+=" => Tok::PlusEqual,
        "-=" => Tok::MinusEqual,
        "*=" => Tok::StarEqual,
        "/=" => Tok::SlashEqual,
        "%=" => Tok::PercentEqual,
        "&=" => Tok::AmperEqual,
        "|=" => Tok::VbarEqual,
        "^=" => Tok::CircumflexEqual,
        "<<=" => Tok::LeftShiftEqual,
        ">>=" => Tok::RightShiftEqual,
        "//" => Tok::DoubleSlash,
        "//=" => Tok::DoubleSlashEqual,
        ":=" => Tok::ColonEqual,
        "@" => Tok::At,
        "@=" => Tok::AtEqual,
        "->" => Tok::Rarrow,
        "..." => Tok::Ellipsis,
        _ => return None,
    })
}

fn parse_radix(digits: &str, radix: u32) -> Option<BigInt> {
    if digits.is_empty() {
        return None; // an error: leave it to the slow path
    }
    if let Ok(v) = u64::from_str_radix(digits, radix) {
        return Some(BigInt::from(v));
    }
    // `sys.maxint` and its kin have 19 digits: as the lexer, any length (bundled models
    // write them, and the slow path costs a second lexer)
    if radix == 10 && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse::<BigInt>().ok();
    }
    u128::from_str_radix(digits, radix).ok().map(BigInt::from)
}

/// Number token, mirroring `rustpython-parser`'s lexer; `None` for anything unusual.
fn number(t: &str) -> Option<Tok> {
    if t.contains('_') {
        return None;
    }
    let lower = t.as_bytes().get(1).map(u8::to_ascii_lowercase);
    if t.starts_with('0') && matches!(lower, Some(b'x' | b'o' | b'b')) {
        let radix = match lower {
            Some(b'x') => 16,
            Some(b'o') => 8,
            _ => 2,
        };
        return parse_radix(&t[2..], radix).map(|value| Tok::Int { value });
    }
    let (body, imaginary) = match t.strip_suffix(['j', 'J']) {
        Some(b) => (b, true),
        None => (t, false),
    };
    let is_float = body.contains(['.', 'e', 'E']);
    if !body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    if is_float || imaginary {
        let value: f64 = body.parse().ok()?;
        return Some(if imaginary {
            Tok::Complex {
                real: 0.0,
                imag: value,
            }
        } else {
            Tok::Float { value }
        });
    }
    if body.len() > 1 && body.starts_with('0') && body.bytes().any(|b| b != b'0') {
        return None; // leading zeros: an error in Python 3
    }
    parse_radix(body, 10).map(|value| Tok::Int { value })
}

fn string(t: &str) -> Option<Tok> {
    let parts = string_parts(t.as_bytes());
    if !parts.terminated {
        return None;
    }
    let prefix = &t.as_bytes()[..parts.prefix_len];
    let mut lower = [0u8; 2];
    for (i, b) in prefix.iter().enumerate().take(2) {
        lower[i] = b.to_ascii_lowercase();
    }
    let kind = match &lower[..prefix.len().min(2)] {
        b"" => StringKind::String,
        b"r" => StringKind::RawString,
        b"u" => StringKind::Unicode,
        b"b" => StringKind::Bytes,
        b"f" => StringKind::FString,
        b"rf" | b"fr" => StringKind::RawFString,
        b"rb" | b"br" => StringKind::RawBytes,
        _ => return None,
    };
    let qlen = if parts.triple { 3 } else { 1 };
    let body = &t[parts.prefix_len + qlen..t.len() - qlen];
    let value = if body.contains('\r') {
        body.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        body.to_owned()
    };
    Some(Tok::String {
        value,
        kind,
        triple_quoted: parts.triple,
    })
}

/// The parser token for one pre-pass token (not `Newline`).
fn convert(src: &str, t: Token) -> Option<Tok> {
    let text = &src[t.start as usize..t.end as usize];
    match t.kind {
        TokKind::Name => Some(keyword(text).unwrap_or_else(|| Tok::Name {
            name: text.to_owned(),
        })),
        TokKind::Number => number(text),
        TokKind::String => string(text),
        TokKind::Op => operator(text),
        TokKind::Backtick | TokKind::Other | TokKind::Newline => None,
    }
}

/// Tokens of an edit's replacement text, all with range `r`.
fn snippet(text: &str, r: TextRange, out: &mut Vec<Spanned>) -> Option<()> {
    let toks = tokenize(text);
    for t in &toks.tokens {
        if t.kind == TokKind::Newline {
            // A line break written in the edit (the unpacking of a tuple parameter given
            // its own line before a compound statement) ends a statement; the empty one
            // the tokenizer adds at the end of the text does not.
            if t.start < t.end {
                out.push((Tok::Newline, r));
            }
            continue;
        }
        out.push((convert(text, *t)?, r));
    }
    Some(())
}

/// Python 2 indentation column of the logical line whose first token starts at `start`, and
/// the number of whitespace characters `rustpython-parser` counts for its `Indent` range.
fn indentation(src: &[u8], start: usize) -> Option<(u32, u32)> {
    let mut ls = start;
    while ls > 0 && matches!(src[ls - 1], b' ' | b'\t' | 0x0c) {
        ls -= 1;
    }
    if ls > 0
        && !matches!(src[ls - 1], b'\n' | b'\r')
        && !(ls == 3 && src.starts_with("\u{feff}".as_bytes()))
    {
        return None;
    }
    let mut col = 0u32;
    let mut chars = 0u32;
    for &c in &src[ls..start] {
        match c {
            b' ' => {
                col = col.saturating_add(1);
                chars += 1;
            }
            b'\t' => {
                col = (col / 8).saturating_add(1).saturating_mul(8);
                chars += 1;
            }
            _ => {
                col = 0;
                chars = 0;
            }
        }
    }
    Some((col, chars))
}

/// Build the parser token stream for `a`, or `None` to use the slow path.
pub(crate) fn fast_tokens(a: &Analysis<'_>) -> Option<FastTokens> {
    if !a.tokenized.clean {
        return None;
    }
    let src = a.src;
    let bytes = src.as_bytes();
    let toks = &a.tokenized.tokens;
    let edits = &a.edits;
    let mut out: Vec<Spanned> = Vec::with_capacity(toks.len() + toks.len() / 8 + 8);
    let mut splits = Vec::new();
    let mut next_split = 0usize;
    let mut indents: Vec<u32> = vec![0];
    let mut line_start = true;
    let mut e = 0usize;
    let mut skip_until = 0u32;
    for &t in toks {
        if t.kind == TokKind::Newline {
            while e < edits.len() && edits[e].start == edits[e].end && edits[e].start <= t.start {
                let at = edits[e].start;
                snippet(&edits[e].text, range(at, at), &mut out)?;
                e += 1;
            }
            out.push((Tok::Newline, range(t.start, t.end)));
            line_start = true;
            continue;
        }
        if t.start < skip_until {
            continue; // covered by a replacement
        }
        if line_start {
            line_start = false;
            let (col, chars) = indentation(bytes, t.start as usize)?;
            let top = *indents.last()?;
            if col > top {
                indents.push(col);
                out.push((Tok::Indent, range(t.start - chars, t.start)));
            } else if col < top {
                while col < *indents.last()? {
                    indents.pop();
                    out.push((Tok::Dedent, range(t.start, t.start)));
                }
                if col != *indents.last()? {
                    return None; // unindent does not match: let rustpython report it
                }
            }
            while next_split < a.split_points.len() && a.split_points[next_split] < t.start {
                next_split += 1;
            }
            if next_split < a.split_points.len()
                && a.split_points[next_split] == t.start
                && col == 0
            {
                splits.push(out.len());
            }
        }
        // Insertions before this token, then a replacement starting at it.
        while e < edits.len() && edits[e].start == edits[e].end && edits[e].start <= t.start {
            let at = edits[e].start;
            snippet(&edits[e].text, range(at, at), &mut out)?;
            e += 1;
        }
        if e < edits.len() && edits[e].start == t.start && edits[e].end > t.start {
            snippet(
                &edits[e].text,
                range(edits[e].start, edits[e].end),
                &mut out,
            )?;
            skip_until = edits[e].end;
            e += 1;
            continue;
        }
        if e < edits.len() && edits[e].start < t.start {
            return None; // an edit not aligned with tokens
        }
        out.push((convert(src, t)?, range(t.start, t.end)));
    }
    if e < edits.len() {
        return None;
    }
    let end = src.len() as u32;
    while indents.len() > 1 {
        indents.pop();
        out.push((Tok::Dedent, range(end, end)));
    }
    soft_keywords(&mut out);
    Some(FastTokens {
        tokens: out,
        splits,
    })
}

/// Port of `rustpython-parser`'s `SoftKeywordTransformer`: `match`, `case` and `type` are
/// names unless used as soft keywords.
fn soft_keywords(toks: &mut [Spanned]) {
    let mut start_of_line = true;
    for i in 0..toks.len() {
        let is_keyword = match &toks[i].0 {
            Tok::Match | Tok::Case => {
                start_of_line && {
                    let mut nesting = 0i32;
                    let mut first = true;
                    let mut seen_colon = false;
                    let mut seen_lambda = false;
                    for (tok, _) in &toks[i + 1..] {
                        match tok {
                            Tok::Newline => break,
                            Tok::Lambda if nesting == 0 => seen_lambda = true,
                            Tok::Colon if nesting == 0 => {
                                if seen_lambda {
                                    seen_lambda = false;
                                } else if !first {
                                    seen_colon = true;
                                }
                            }
                            Tok::Lpar | Tok::Lsqb | Tok::Lbrace => nesting += 1,
                            Tok::Rpar | Tok::Rsqb | Tok::Rbrace => nesting -= 1,
                            _ => {}
                        }
                        first = false;
                    }
                    seen_colon
                }
            }
            Tok::Type => {
                start_of_line
                    && matches!(
                        toks.get(i + 1).map(|t| &t.0),
                        Some(Tok::Name { .. } | Tok::Type | Tok::Match | Tok::Case)
                    )
                    && {
                        // (rustpython peeks past the name first, then scans on from there)
                        let mut nesting = 0i32;
                        let mut alias = false;
                        for (tok, _) in toks.get(i + 2..).unwrap_or(&[]) {
                            match tok {
                                Tok::Newline => break,
                                Tok::Equal if nesting == 0 => {
                                    alias = true;
                                    break;
                                }
                                Tok::Lsqb => nesting += 1,
                                Tok::Rsqb => nesting -= 1,
                                _ if nesting > 0 => {}
                                _ => break,
                            }
                        }
                        alias
                    }
            }
            _ => true,
        };
        if !is_keyword {
            let name = match toks[i].0 {
                Tok::Match => "match",
                Tok::Case => "case",
                _ => "type",
            };
            toks[i].0 = Tok::Name {
                name: name.to_owned(),
            };
        }
        start_of_line = matches!(toks[i].0, Tok::Newline | Tok::Indent | Tok::Dedent);
    }
}
