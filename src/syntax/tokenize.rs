//! A small, lenient tokenizer for Python 2/3 source used by the Python 2 → 3 pre-pass.
//!
//! It only needs to know where strings, comments, names, numbers, brackets and logical
//! lines are; it never fails (the real parser reports errors later). Offsets are byte
//! offsets into the original text and always fall on `char` boundaries.

/// Maximum bracket nesting accepted (CPython's tokenizer limit is 200 as well).
pub(crate) const MAX_NESTING: u32 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    Name,
    Number,
    /// A string literal including its prefix and quotes.
    String,
    Op,
    Backtick,
    /// End of a logical line (empty at end of file when the file lacks a final newline).
    Newline,
    /// Any other character (e.g. `$`, `?`, a stray backslash).
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokKind,
    pub start: u32,
    pub end: u32,
}

/// Details of a string token, see [`string_parts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StringParts {
    /// Length of the prefix letters (`ur` → 2).
    pub prefix_len: usize,
    pub quote: u8,
    pub triple: bool,
    /// The closing quote(s) are present.
    pub terminated: bool,
}

/// Leading whitespace of a logical line that contains a tab: byte range and the
/// Python 2 column it amounts to (a tab advances to the next multiple of 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TabIndent {
    pub start: u32,
    pub end: u32,
    pub column: u32,
}

#[derive(Debug, Default)]
pub(crate) struct Tokenized {
    pub tokens: Vec<Token>,
    pub tab_indents: Vec<TabIndent>,
    /// Offset of the first bracket that exceeds [`MAX_NESTING`].
    pub too_deep: Option<u32>,
    /// False if the text has anything the fast token path does not handle exactly like
    /// `rustpython-parser`'s lexer (stray characters, unterminated strings, unbalanced
    /// brackets, non-ASCII identifiers, odd line continuations): the caller then falls back
    /// to rewriting the text and lexing it with `rustpython-parser`.
    pub clean: bool,
}

const OPS3: [&[u8; 3]; 5] = [b"**=", b"//=", b">>=", b"<<=", b"..."];
const OPS2: [&[u8; 2]; 20] = [
    b"**", b"//", b">>", b"<<", b"<=", b">=", b"==", b"!=", b"<>", b"->", b"+=", b"-=", b"*=",
    b"/=", b"%=", b"&=", b"|=", b"^=", b"@=", b":=",
];

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_name_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Whether `p` (the letters before a quote) is a string prefix in Python 2 or 3.
pub(crate) fn is_string_prefix(p: &[u8]) -> bool {
    if p.len() > 2 {
        return false;
    }
    let mut lower = [0u8; 2];
    for (i, b) in p.iter().enumerate() {
        lower[i] = b.to_ascii_lowercase();
    }
    matches!(
        &lower[..p.len()],
        b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"ur" | b"fr" | b"rf"
    )
}

/// Decompose a string token's text.
pub(crate) fn string_parts(tok: &[u8]) -> StringParts {
    let prefix_len = tok
        .iter()
        .take_while(|b| **b != b'\'' && **b != b'"')
        .count();
    let quote = tok.get(prefix_len).copied().unwrap_or(b'"');
    let rest = &tok[prefix_len.min(tok.len())..];
    let triple = rest.len() >= 3 && rest[1] == quote && rest[2] == quote;
    let qlen = if triple { 3 } else { 1 };
    let terminated = if rest.len() >= 2 * qlen {
        let body_end = rest.len() - qlen;
        rest[body_end..].iter().all(|b| *b == quote) && {
            // The closing quote must not be escaped: count backslashes before it.
            let body = &rest[qlen..body_end];
            body.iter().rev().take_while(|b| **b == b'\\').count() % 2 == 0
        }
    } else {
        false
    };
    StringParts {
        prefix_len,
        quote,
        triple,
        terminated,
    }
}

/// Scan a string body starting right after the opening quote(s) at `i`; returns the end
/// offset (after the closing quotes, or where the unterminated string stops) and whether
/// the string is terminated.
fn scan_string_body(b: &[u8], mut i: usize, quote: u8, triple: bool) -> (usize, bool) {
    let n = b.len();
    while i < n {
        let c = b[i];
        if c == b'\\' {
            if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                i += 3;
            } else {
                i += 2;
            }
            continue;
        }
        if c == quote {
            if !triple {
                return (i + 1, true);
            }
            if b.get(i + 1) == Some(&quote) && b.get(i + 2) == Some(&quote) {
                return (i + 3, true);
            }
        } else if !triple && (c == b'\n' || c == b'\r') {
            // Unterminated single-quoted string: stop before the newline.
            return (i, false);
        }
        i += 1;
    }
    (n, false)
}

/// Scan a number token; sets `odd` if `rustpython-parser` would lex it differently.
fn scan_number(b: &[u8], start: usize, odd: &mut bool) -> usize {
    let n = b.len();
    let mut i = start;
    if b[i] == b'0' && i + 1 < n && matches!(b[i + 1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B') {
        let radix_hex = matches!(b[i + 1], b'x' | b'X');
        i += 2;
        while i < n
            && (b[i] == b'_'
                || if radix_hex {
                    b[i].is_ascii_hexdigit()
                } else {
                    b[i].is_ascii_digit()
                })
        {
            i += 1;
        }
        if i < n && matches!(b[i], b'l' | b'L') {
            i += 1;
        }
        return i;
    }
    while i < n && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    if i < n && b[i] == b'.' {
        i += 1;
        if i < n && b[i] == b'_' {
            *odd = true; // rustpython: "Invalid Syntax"
        }
        while i < n && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
        if i < n && matches!(b[i], b'e' | b'E') {
            // rustpython consumes any `e` after a fraction, then needs digits.
            let mut k = i + 1;
            if k < n && matches!(b[k], b'+' | b'-') {
                k += 1;
            }
            if !(k < n && b[k].is_ascii_digit()) {
                *odd = true;
            }
        }
    }
    if i < n && matches!(b[i], b'e' | b'E') {
        let mut k = i + 1;
        if k < n && matches!(b[k], b'+' | b'-') {
            k += 1;
        }
        if k < n && b[k].is_ascii_digit() {
            i = k;
            while i < n && (b[i].is_ascii_digit() || b[i] == b'_') {
                i += 1;
            }
        }
    }
    if i < n && matches!(b[i], b'j' | b'J' | b'l' | b'L') {
        i += 1;
    }
    i
}

/// Tokenize `src`. Never fails; malformed input yields `Other` tokens or unterminated strings.
pub(crate) fn tokenize(src: &str) -> Tokenized {
    let b = src.as_bytes();
    let n = b.len();
    let mut out = Tokenized {
        tokens: Vec::with_capacity(n / 4 + 8),
        clean: true,
        ..Default::default()
    };
    let mut i = 0usize;
    if b.starts_with("\u{feff}".as_bytes()) {
        i = 3;
    }
    let mut depth: u32 = 0;
    let mut at_line_start = true;
    let mut line_has_tokens = false;
    let push = |out: &mut Tokenized, kind, s: usize, e: usize| {
        out.tokens.push(Token {
            kind,
            start: s as u32,
            end: e as u32,
        });
    };
    loop {
        if at_line_start {
            at_line_start = false;
            let ws_start = i;
            let mut col = 0u32;
            let mut has_tab = false;
            while i < n {
                match b[i] {
                    b' ' => col = col.saturating_add(1),
                    b'\t' => {
                        col = (col / 8).saturating_add(1).saturating_mul(8);
                        has_tab = true;
                    }
                    0x0c => col = 0,
                    _ => break,
                }
                i += 1;
            }
            if has_tab {
                out.tab_indents.push(TabIndent {
                    start: ws_start as u32,
                    end: i as u32,
                    column: col,
                });
            }
            continue;
        }
        if i >= n {
            break;
        }
        let c = b[i];
        match c {
            b' ' | b'\t' | 0x0c => i += 1,
            b'#' => {
                while i < n && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'\n' | b'\r' => {
                let s = i;
                i += if c == b'\r' && b.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                if depth == 0 {
                    if line_has_tokens {
                        push(&mut out, TokKind::Newline, s, i);
                        line_has_tokens = false;
                    }
                    at_line_start = true;
                }
            }
            b'\\' => {
                if b.get(i + 1) == Some(&b'\n') {
                    i += 2;
                } else if b.get(i + 1) == Some(&b'\r') {
                    i += if b.get(i + 2) == Some(&b'\n') { 3 } else { 2 };
                } else {
                    push(&mut out, TokKind::Other, i, i + 1);
                    out.clean = false;
                    line_has_tokens = true;
                    i += 1;
                    continue;
                }
                if i >= n || !line_has_tokens {
                    out.clean = false;
                }
            }
            b'\'' | b'"' => {
                let s = i;
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                let (end, closed) = scan_string_body(b, i + if triple { 3 } else { 1 }, c, triple);
                i = end;
                out.clean &= closed;
                push(&mut out, TokKind::String, s, i);
                line_has_tokens = true;
            }
            b'`' => {
                push(&mut out, TokKind::Backtick, i, i + 1);
                line_has_tokens = true;
                i += 1;
            }
            _ if c.is_ascii_digit()
                || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                let s = i;
                let mut odd = false;
                i = scan_number(b, i, &mut odd);
                out.clean &= !odd;
                push(&mut out, TokKind::Number, s, i);
                line_has_tokens = true;
            }
            _ if is_name_start(c) => {
                let s = i;
                while i < n && is_name_continue(b[i]) {
                    i += 1;
                }
                if i < n && (b[i] == b'\'' || b[i] == b'"') && is_string_prefix(&b[s..i]) {
                    let q = b[i];
                    let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
                    let (end, closed) =
                        scan_string_body(b, i + if triple { 3 } else { 1 }, q, triple);
                    i = end;
                    out.clean &= closed;
                    push(&mut out, TokKind::String, s, i);
                } else {
                    out.clean &= b[s..i].is_ascii();
                    push(&mut out, TokKind::Name, s, i);
                }
                line_has_tokens = true;
            }
            _ => {
                let s = i;
                let len = if i + 3 <= n && OPS3.iter().any(|op| &b[i..i + 3] == *op) {
                    3
                } else if i + 2 <= n && OPS2.iter().any(|op| &b[i..i + 2] == *op) {
                    2
                } else if b"+-*/%&|^~<>=.,:;@()[]{}!".contains(&c) {
                    1
                } else {
                    0
                };
                if len == 0 {
                    push(&mut out, TokKind::Other, s, s + 1);
                    out.clean = false;
                    i += 1;
                } else {
                    match c {
                        b'(' | b'[' | b'{' => {
                            depth += 1;
                            if depth > MAX_NESTING && out.too_deep.is_none() {
                                out.too_deep = Some(s as u32);
                            }
                        }
                        b')' | b']' | b'}' => {
                            out.clean &= depth > 0;
                            depth = depth.saturating_sub(1);
                        }
                        _ => {}
                    }
                    push(&mut out, TokKind::Op, s, s + len);
                    i += len;
                }
                line_has_tokens = true;
            }
        }
    }
    if line_has_tokens {
        push(&mut out, TokKind::Newline, n, n);
    }
    out.clean &= depth == 0;
    out
}

/// Deepest expression accepted: unary operators, binary operators, attribute accesses, calls,
/// subscripts, `lambda`s, `not`s and conditional expressions chained in one expression, counted
/// along the deepest path (each later stage recurses over the tree).
pub(crate) const MAX_EXPR_DEPTH: u32 = 3_000;
/// Most indentation levels (CPython's tokenizer limit is 100 as well).
pub(crate) const MAX_INDENT_LEVELS: usize = 100;

fn is_keyword(name: &[u8]) -> bool {
    matches!(
        name,
        b"and"
            | b"or"
            | b"not"
            | b"in"
            | b"is"
            | b"if"
            | b"else"
            | b"elif"
            | b"lambda"
            | b"return"
            | b"yield"
            | b"print"
            | b"assert"
            | b"del"
            | b"exec"
            | b"raise"
            | b"for"
            | b"while"
            | b"with"
            | b"as"
            | b"import"
            | b"from"
            | b"global"
            | b"await"
            | b"def"
            | b"class"
            | b"try"
            | b"except"
            | b"finally"
    )
}

/// The first place where the source nests deeper than the later stages handle: too many
/// indentation levels, or an expression chaining more than [`MAX_EXPR_DEPTH`] nesting
/// operations. A cheap token-level over-approximation of the syntax tree's depth.
pub(crate) fn nesting_problem(src: &str, tokens: &[Token]) -> Option<(u32, String)> {
    let b = src.as_bytes();
    // Per open bracket: the depth at the bracket (where `,` goes back to), the depth before
    // it and whether it is a call or subscript (which nests what follows) rather than a
    // grouping or a display.
    let mut bases: Vec<(u32, u32, bool)> = vec![(0, 0, false)];
    let mut cur: u32 = 0;
    let mut prev_ends_operand = false;
    let mut indents: Vec<u32> = vec![0];
    let mut line_start = true;
    for t in tokens {
        let text = &b[t.start as usize..t.end as usize];
        if line_start && t.kind != TokKind::Newline {
            line_start = false;
            let mut col = 0u32;
            let mut k = t.start as usize;
            while k > 0 && !matches!(b[k - 1], b'\n' | b'\r') {
                k -= 1;
            }
            for &c in &b[k..t.start as usize] {
                match c {
                    b'\t' => col = (col / 8 + 1) * 8,
                    0x0c => col = 0,
                    _ => col += 1,
                }
            }
            while indents.len() > 1 && indents.last().is_some_and(|&top| top > col) {
                indents.pop();
            }
            if indents.last().is_some_and(|&top| col > top) {
                indents.push(col);
                if indents.len() > MAX_INDENT_LEVELS + 1 {
                    return Some((
                        t.start,
                        format!("too many levels of indentation (more than {MAX_INDENT_LEVELS})"),
                    ));
                }
            }
        }
        let ends_operand = match t.kind {
            TokKind::Name => !is_keyword(text),
            TokKind::Number | TokKind::String => true,
            TokKind::Op => matches!(text, b")" | b"]" | b"}"),
            _ => false,
        };
        let step = match t.kind {
            TokKind::Newline => {
                line_start = true;
                bases.truncate(1);
                cur = 0;
                prev_ends_operand = false;
                continue;
            }
            TokKind::Name => u32::from(matches!(
                text,
                b"lambda" | b"not" | b"if" | b"yield" | b"await"
            )),
            TokKind::Op => match text {
                b"(" | b"[" | b"{" => {
                    let before = cur;
                    cur += 1;
                    bases.push((cur, before, prev_ends_operand));
                    0
                }
                b")" | b"]" | b"}" => {
                    // What nested inside the brackets does not nest what follows them; a
                    // call or subscript does.
                    if bases.len() > 1 {
                        if let Some((_, before, trailer)) = bases.pop() {
                            cur = before + u32::from(trailer);
                        }
                    }
                    0
                }
                b"," | b";" | b"=" => {
                    cur = bases.last().map_or(0, |b| b.0);
                    0
                }
                b"+" | b"-" | b"~" | b"*" | b"/" | b"//" | b"%" | b"**" | b"<<" | b">>" | b"&"
                | b"|" | b"^" | b"." | b"@" | b"`" => 1,
                _ => 0,
            },
            TokKind::Backtick => 1,
            _ => 0,
        };
        prev_ends_operand = ends_operand;
        cur += step;
        if cur > MAX_EXPR_DEPTH {
            return Some((
                t.start,
                format!("expression too deeply nested (more than {MAX_EXPR_DEPTH} levels)"),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokKind, &str)> {
        tokenize(src)
            .tokens
            .iter()
            .map(|t| (t.kind, &src[t.start as usize..t.end as usize]))
            .collect()
    }

    #[test]
    fn strings_comments_and_continuations() {
        let src = "x = ur'a\\'b' + \"\"\"q\n'\"\"\" # c 'x\ny = (1,\n  0777L)\\\n  + `z`\n";
        let toks = kinds(src);
        use TokKind::*;
        assert_eq!(
            toks,
            vec![
                (Name, "x"),
                (Op, "="),
                (String, "ur'a\\'b'"),
                (Op, "+"),
                (String, "\"\"\"q\n'\"\"\""),
                (Newline, "\n"),
                (Name, "y"),
                (Op, "="),
                (Op, "("),
                (Number, "1"),
                (Op, ","),
                (Number, "0777L"),
                (Op, ")"),
                (Op, "+"),
                (Backtick, "`"),
                (Name, "z"),
                (Backtick, "`"),
                (Newline, "\n"),
            ]
        );
    }

    #[test]
    fn string_parts_work() {
        let p = string_parts(b"ur'''ab'''");
        assert_eq!(
            (p.prefix_len, p.quote, p.triple, p.terminated),
            (2, b'\'', true, true)
        );
        let p = string_parts(b"''");
        assert_eq!((p.prefix_len, p.triple, p.terminated), (0, false, true));
        let p = string_parts(b"'a\\'");
        assert!(!p.terminated);
        let p = string_parts(b"'''ab");
        assert!(p.triple && !p.terminated);
    }

    #[test]
    fn tab_indents_recorded() {
        let t = tokenize("if x:\n\tif y:\n\t    z\n");
        assert_eq!(t.tab_indents.len(), 2);
        assert_eq!(t.tab_indents[0].column, 8);
        assert_eq!(t.tab_indents[1].column, 12);
    }
}
