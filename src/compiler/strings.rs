//! Python 2 string literals, decoded from their original source text.
//!
//! The parser gives Python 3 values (`"\xe9"` would be the character U+00E9), so the compiler
//! re-reads the literal's source text: a Python 2 byte string keeps every escape as one byte
//! and every non-ASCII source character as its UTF-8 bytes.

/// The value of a (possibly implicitly concatenated) string literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PyStr {
    Bytes(Vec<u8>),
    Unicode(super::UStr),
}

/// Why a literal could not be decoded from its source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The text is not a sequence of string literals (use the parser's value instead).
    NotALiteral,
    /// A literal with an escape Python 2 rejects (message for a diagnostic).
    Invalid(String),
}

fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => i += 1,
            b'\\' if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => i += 2,
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// Decodes the source text of one or more adjacent string literals (Python 2 rules).
/// Unprefixed literals are unicode when `unicode_literals` is in effect.
pub fn decode_literal(src: &str, unicode_literals: bool) -> Result<PyStr, DecodeError> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut pieces: Vec<PyStr> = Vec::new();
    loop {
        i = skip_trivia(b, i);
        if i >= b.len() {
            break;
        }
        let mut raw = false;
        let mut unicode = unicode_literals;
        let prefix_start = i;
        while i < b.len()
            && i - prefix_start < 3
            && matches!(b[i], b'b' | b'B' | b'u' | b'U' | b'r' | b'R')
        {
            match b[i] {
                b'b' | b'B' => unicode = false,
                b'u' | b'U' => unicode = true,
                _ => raw = true,
            }
            i += 1;
        }
        let Some(&quote) = b.get(i) else {
            return Err(DecodeError::NotALiteral);
        };
        if quote != b'\'' && quote != b'"' {
            return Err(DecodeError::NotALiteral);
        }
        let triple = b.len() >= i + 3 && b[i + 1] == quote && b[i + 2] == quote;
        let qlen = if triple { 3 } else { 1 };
        let start = i + qlen;
        let mut j = start;
        let end = loop {
            if j >= b.len() {
                return Err(DecodeError::NotALiteral);
            }
            if b[j] == b'\\' {
                j += 2;
                continue;
            }
            if b[j] == quote
                && (!triple || (b.len() >= j + 3 && b[j + 1] == quote && b[j + 2] == quote))
            {
                break j;
            }
            if !triple && b[j] == b'\n' {
                return Err(DecodeError::NotALiteral);
            }
            j += 1;
        };
        let body = &src[start..end];
        pieces.push(decode_piece(body, raw, unicode)?);
        i = end + qlen;
    }
    if pieces.is_empty() {
        return Err(DecodeError::NotALiteral);
    }
    if pieces.iter().any(|p| matches!(p, PyStr::Unicode(_))) {
        let mut s: Vec<u32> = Vec::new();
        for p in pieces {
            match p {
                PyStr::Unicode(u) => s.extend_from_slice(u.codes()),
                PyStr::Bytes(v) => s.extend(String::from_utf8_lossy(&v).chars().map(u32::from)),
            }
        }
        Ok(PyStr::Unicode(super::UStr::from_codes(s)))
    } else {
        let mut v = Vec::new();
        for p in pieces {
            if let PyStr::Bytes(b) = p {
                v.extend_from_slice(&b);
            }
        }
        Ok(PyStr::Bytes(v))
    }
}

/// Output of one literal: bytes or code points.
enum Out {
    Bytes(Vec<u8>),
    Chars(Vec<u32>),
}

impl Out {
    fn push_char(&mut self, c: char) {
        match self {
            Out::Bytes(v) => {
                let mut buf = [0u8; 4];
                v.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            Out::Chars(s) => s.push(c as u32),
        }
    }
    /// An escape's code: one byte (truncated, as Python 2 does for `'\777'`) or a character.
    fn push_code(&mut self, code: u32) -> Result<(), DecodeError> {
        match self {
            Out::Bytes(v) => v.push((code & 0xff) as u8),
            Out::Chars(s) => {
                if code > 0x10ffff {
                    return Err(DecodeError::Invalid(format!(
                        "illegal Unicode character U+{code:X}"
                    )));
                }
                s.push(code)
            }
        }
        Ok(())
    }
    /// The literal's value: escapes give code points as they are (CPython 2, a wide
    /// build, keeps `u'\\ud83d\\ude00'` as two characters and a lone surrogate as itself).
    fn finish(self) -> PyStr {
        match self {
            Out::Bytes(v) => PyStr::Bytes(v),
            Out::Chars(cps) => PyStr::Unicode(super::UStr::from_codes(cps)),
        }
    }
}

fn hex_digits(chars: &[char], at: usize, n: usize) -> Option<u32> {
    if at + n > chars.len() {
        return None;
    }
    let mut v: u32 = 0;
    for c in &chars[at..at + n] {
        v = v.checked_mul(16)? + c.to_digit(16)?;
    }
    Some(v)
}

fn decode_piece(body: &str, raw: bool, unicode: bool) -> Result<PyStr, DecodeError> {
    // Universal newlines: the source is read with `\r\n` and `\r` turned into `\n`.
    let body = if body.contains('\r') {
        body.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        body.to_string()
    };
    let chars: Vec<char> = body.chars().collect();
    let mut out = if unicode {
        Out::Chars(Vec::new())
    } else {
        Out::Bytes(Vec::new())
    };
    let mut i = 0;
    if raw {
        if !unicode {
            return Ok(PyStr::Bytes(body.into_bytes()));
        }
        // `ur'...'`: only `\u`/`\U` escapes after an odd number of backslashes are decoded.
        while i < chars.len() {
            if chars[i] != '\\' {
                out.push_char(chars[i]);
                i += 1;
                continue;
            }
            let run = chars[i..].iter().take_while(|c| **c == '\\').count();
            let next = chars.get(i + run).copied();
            if run % 2 == 1 && matches!(next, Some('u' | 'U')) {
                for _ in 0..run - 1 {
                    out.push_char('\\');
                }
                let n = if next == Some('u') { 4 } else { 8 };
                let code = hex_digits(&chars, i + run + 1, n)
                    .ok_or_else(|| DecodeError::Invalid("truncated \\uXXXX escape".into()))?;
                out.push_code(code)?;
                i += run + 1 + n;
            } else {
                for _ in 0..run {
                    out.push_char('\\');
                }
                i += run;
            }
        }
        return Ok(out.finish());
    }
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' {
            out.push_char(c);
            i += 1;
            continue;
        }
        let Some(&e) = chars.get(i + 1) else {
            out.push_char('\\');
            break;
        };
        i += 2;
        match e {
            '\n' => {}
            '\\' | '\'' | '"' => out.push_char(e),
            'a' => out.push_code(7)?,
            'b' => out.push_code(8)?,
            'f' => out.push_code(12)?,
            'n' => out.push_code(10)?,
            'r' => out.push_code(13)?,
            't' => out.push_code(9)?,
            'v' => out.push_code(11)?,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                let mut k = 0;
                while k < 2 {
                    match chars.get(i).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                            k += 1;
                        }
                        None => break,
                    }
                }
                out.push_code(v)?;
            }
            'x' => {
                let code = hex_digits(&chars, i, 2)
                    .ok_or_else(|| DecodeError::Invalid("invalid \\x escape".into()))?;
                i += 2;
                out.push_code(code)?;
            }
            'u' | 'U' if unicode => {
                let n = if e == 'u' { 4 } else { 8 };
                let code = hex_digits(&chars, i, n).ok_or_else(|| {
                    DecodeError::Invalid(format!("truncated \\{}{} escape", e, "X".repeat(n)))
                })?;
                i += n;
                out.push_code(code)?;
            }
            'N' if unicode => {
                // Python 3 decodes `\N{...}` the same way: use the parser's value.
                return Err(DecodeError::NotALiteral);
            }
            _ => {
                out.push_char('\\');
                out.push_char(e);
            }
        }
    }
    Ok(out.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(s: &str) -> Vec<u8> {
        match decode_literal(s, false).unwrap() {
            PyStr::Bytes(b) => b,
            PyStr::Unicode(u) => panic!("unicode {u:?}"),
        }
    }

    #[test]
    fn python2_byte_escapes() {
        assert_eq!(bytes(r#""\xe9""#), vec![0xe9]);
        assert_eq!(bytes("'é'"), "é".as_bytes().to_vec());
        assert_eq!(bytes(r"'\777\0\101'"), vec![0xff, 0, b'A']);
        assert_eq!(bytes(r"'\u1234\q'"), br"\u1234\q".to_vec());
        assert_eq!(bytes(r"'a\n\t\\\''"), b"a\n\t\\'".to_vec());
        assert_eq!(bytes("r'\\n\\''"), br"\n\'".to_vec());
        assert_eq!(bytes("'a' \"b\"\n  '''c\nd'''"), b"abc\nd".to_vec());
        assert_eq!(bytes("'a\\\nb'"), b"ab".to_vec());
        assert_eq!(bytes("b'x'"), b"x".to_vec());
        assert_eq!(bytes("'a'  # comment\n 'b'"), b"ab".to_vec());
    }

    #[test]
    fn unicode_literals() {
        assert_eq!(
            decode_literal(r"u'\xe9\u20ac'", false).unwrap(),
            PyStr::Unicode("é€".into())
        );
        assert_eq!(
            decode_literal(r"'\xe9'", true).unwrap(),
            PyStr::Unicode("é".into())
        );
        assert_eq!(
            decode_literal(r"b'\xe9'", true).unwrap(),
            PyStr::Bytes(vec![0xe9])
        );
        assert_eq!(
            decode_literal(r"ur'\u20ac\n'", false).unwrap(),
            PyStr::Unicode("€\\n".into())
        );
        assert_eq!(
            decode_literal("'a' u'b'", false).unwrap(),
            PyStr::Unicode("ab".into())
        );
        assert_eq!(
            decode_literal(r"u'\ud83d\ude00'", false).unwrap(),
            PyStr::Unicode(crate::compiler::UStr::from_codes(vec![0xd83d, 0xde00]))
        );
        assert_eq!(
            decode_literal(r"u'a\ud800'", false).unwrap(),
            PyStr::Unicode(crate::compiler::UStr::from_codes(vec![0x61, 0xd800]))
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(
            decode_literal(r"'\x4'", false),
            Err(DecodeError::Invalid(_))
        ));
        assert_eq!(decode_literal("foo", false), Err(DecodeError::NotALiteral));
        assert_eq!(decode_literal("'abc", false), Err(DecodeError::NotALiteral));
    }
}
