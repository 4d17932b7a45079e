//! The bodies of string literals that Python 2 reads differently from Python 3, re-expressed
//! for `rustpython-parser` (used by the `py2` pre-pass): raw unicode literals, escapes only
//! Python 2 byte strings accept, non-ASCII characters in byte strings. Takes a literal's
//! body; gives the new body, or `None` when it needs no change.

fn is_hex_run(s: &[u8], n: usize) -> bool {
    s.len() >= n && s[..n].iter().all(|b| b.is_ascii_hexdigit())
}

/// Body of a Python 2 `ur'...'` literal re-expressed for a non-raw `u'...'` literal with the
/// same quotes: backslashes are kept literally except `\uXXXX` / `\UXXXXXXXX` escapes
/// preceded by an odd number of backslashes (Python 2's raw-unicode-escape rule).
pub(super) fn raw_unicode_body(body: &str, quote: u8) -> String {
    let b = body.as_bytes();
    let mut out = String::with_capacity(body.len() + 8);
    let mut k = 0;
    let mut copied = 0;
    while k < b.len() {
        if b[k] != b'\\' {
            k += 1;
            continue;
        }
        out.push_str(&body[copied..k]);
        let run_start = k;
        while k < b.len() && b[k] == b'\\' {
            k += 1;
        }
        let run = k - run_start;
        let rest = &b[k..];
        let odd = run % 2 == 1;
        let unicode_escape = odd
            && ((rest.first() == Some(&b'u') && is_hex_run(&rest[1..], 4))
                || (rest.first() == Some(&b'U') && is_hex_run(&rest[1..], 8)));
        if unicode_escape {
            for _ in 0..run - 1 {
                out.push_str("\\\\");
            }
            out.push('\\');
            copied = k;
            continue;
        }
        for _ in 0..run {
            out.push_str("\\\\");
        }
        copied = k;
        if odd {
            // The last backslash protects the next character from ending the literal.
            match rest.first() {
                Some(&c) if c == quote || c == b'\'' || c == b'"' => {
                    out.push('\\');
                    out.push(c as char);
                    k += 1;
                    copied = k;
                }
                Some(b'\r') => {
                    out.push_str("\\n");
                    k += if rest.get(1) == Some(&b'\n') { 2 } else { 1 };
                    copied = k;
                }
                Some(b'\n') => {
                    out.push_str("\\n");
                    k += 1;
                    copied = k;
                }
                _ => {}
            }
        }
    }
    out.push_str(&body[copied..]);
    out
}

/// In a Python 2 byte string (no prefix, no `unicode_literals`), `\N`, `\u` and `\U` are
/// not escapes. Python 3 rejects malformed ones; double their backslash so the literal
/// parses with the Python 2 value. Well-formed ones are left alone (their value then
/// differs from Python 2; see `strings::py2_bytes_literal` for exact bytes).
pub(super) fn fix_py2_bytes_escapes(body: &str) -> Option<String> {
    let b = body.as_bytes();
    if !b.contains(&b'\\') {
        return None;
    }
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut k = 0;
    while k < b.len() {
        if b[k] != b'\\' {
            k += 1;
            continue;
        }
        let bs = k;
        let next = b.get(k + 1).copied();
        let rest = b.get(k + 2..).unwrap_or(&[]);
        let bad = match next {
            Some(b'u') => !is_hex_run(rest, 4),
            Some(b'U') => {
                !is_hex_run(rest, 8)
                    || u32::from_str_radix(std::str::from_utf8(&rest[..8]).unwrap_or("z"), 16)
                        .map_or(true, |v| char::from_u32(v).is_none())
            }
            Some(b'N') => {
                !(rest.first() == Some(&b'{')
                    && rest
                        .iter()
                        .skip(1)
                        .position(|&c| c == b'}')
                        .is_some_and(|p| {
                            p > 0
                                && rest[1..1 + p]
                                    .iter()
                                    .all(|c| c.is_ascii_alphanumeric() || b" -".contains(c))
                        }))
            }
            _ => false,
        };
        if bad {
            let o = out.get_or_insert_with(|| String::with_capacity(body.len() + 4));
            o.push_str(&body[copied..bs]);
            o.push_str("\\\\");
            copied = bs + 1;
        }
        // Skip the escaped character (may be a backslash itself).
        k += 2;
    }
    out.map(|mut o| {
        o.push_str(&body[copied..]);
        o
    })
}

/// Non-ASCII characters in a (non-raw) `b'...'` literal become `\xNN` escapes of their
/// UTF-8 bytes, as Python 2 reads them.
pub(super) fn escape_non_ascii(body: &str) -> Option<String> {
    if body.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(body.len() * 2);
    for ch in body.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            let mut buf = [0u8; 4];
            for byte in ch.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{byte:02x}"));
            }
        }
    }
    Some(out)
}
