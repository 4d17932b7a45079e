//! Exact Python 2 byte-string values.
//!
//! The parser produces Python 3 string constants: a Python 2 `'...'` literal becomes a
//! `Constant::Str` (with `kind == None`), whose value differs from the Python 2 bytes when
//! the literal contains non-ASCII characters or `\u`/`\U`/`\N{}` escapes. Later stages that
//! need the exact bytes decode the original literal text (the constant's range) here.

use super::tokenize::{string_parts, tokenize, TokKind};

/// Decode the source text of a (possibly implicitly concatenated) Python 2 byte-string
/// literal — e.g. the original text sliced by a `Constant::Str` node's range — to the bytes
/// Python 2 would produce. Returns `None` if the text is not only string literals, or if any
/// piece is a unicode string (`u` prefix, or no `b` prefix while `unicode_literals` is on),
/// an f-string, unterminated, or has an invalid `\x` escape.
pub fn py2_bytes_literal(literal_source: &str, unicode_literals: bool) -> Option<Vec<u8>> {
    let toks = tokenize(literal_source);
    let mut out = Vec::with_capacity(literal_source.len());
    let mut any = false;
    for t in &toks.tokens {
        match t.kind {
            TokKind::Newline => continue,
            TokKind::String => {}
            _ => return None,
        }
        let tok = &literal_source[t.start as usize..t.end as usize];
        let parts = string_parts(tok.as_bytes());
        if !parts.terminated {
            return None;
        }
        let prefix = tok[..parts.prefix_len].to_ascii_lowercase();
        if prefix.contains('u')
            || prefix.contains('f')
            || (unicode_literals && !prefix.contains('b'))
        {
            return None;
        }
        let qlen = if parts.triple { 3 } else { 1 };
        let body = &tok.as_bytes()[parts.prefix_len + qlen..tok.len() - qlen];
        decode_body(body, prefix.contains('r'), &mut out)?;
        any = true;
    }
    any.then_some(out)
}

fn decode_body(b: &[u8], raw: bool, out: &mut Vec<u8>) -> Option<()> {
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        if c == b'\r' {
            // Universal newlines: CRLF and CR read as LF.
            out.push(b'\n');
            k += if b.get(k + 1) == Some(&b'\n') { 2 } else { 1 };
            continue;
        }
        if c != b'\\' || k + 1 >= b.len() {
            out.push(c);
            k += 1;
            continue;
        }
        if raw {
            // The backslash stays, and protects the next character (copied next round).
            out.push(b'\\');
            out.push(b[k + 1]);
            k += 2;
            if b[k - 1] == b'\r' {
                *out.last_mut()? = b'\n';
                if b.get(k) == Some(&b'\n') {
                    k += 1;
                }
            }
            continue;
        }
        let e = b[k + 1];
        k += 2;
        match e {
            b'\n' => {}
            b'\r' => {
                if b.get(k) == Some(&b'\n') {
                    k += 1;
                }
            }
            b'\\' | b'\'' | b'"' => out.push(e),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    match b.get(k) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            k += 1;
                        }
                        _ => break,
                    }
                }
                out.push((v & 0xff) as u8);
            }
            b'x' => {
                let hex = b.get(k..k + 2)?;
                let s = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(s, 16).ok()?);
                k += 2;
            }
            _ => {
                out.push(b'\\');
                out.push(e);
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_py2_bytes() {
        assert_eq!(
            py2_bytes_literal(r"'a\n\x41\101\u1234\N\q'", false).unwrap(),
            b"a\nAA\\u1234\\N\\q"
        );
        assert_eq!(py2_bytes_literal("'é'", false).unwrap(), "é".as_bytes());
        assert_eq!(
            py2_bytes_literal("'a' \"b\"\n  r'\\n'", false).unwrap(),
            b"ab\\n"
        );
        assert_eq!(py2_bytes_literal("'''x\r\ny'''", false).unwrap(), b"x\ny");
        assert_eq!(py2_bytes_literal("'a\\\nb'", false).unwrap(), b"ab");
        assert_eq!(py2_bytes_literal("b'\\777'", true).unwrap(), vec![0xff]);
        assert!(py2_bytes_literal("u'a'", false).is_none());
        assert!(py2_bytes_literal("'a'", true).is_none());
        assert!(py2_bytes_literal("'a' + 'b'", false).is_none());
        assert!(py2_bytes_literal("'\\x4'", false).is_none());
    }
}
