//! PEP 263 for Python 2 sources: takes a module's text, gives the syntax error Python 2
//! raises when a non-ASCII character appears (even in a comment) and neither of the first
//! two lines declares the source encoding (`# -*- coding: utf-8 -*-`) nor does a UTF-8 byte
//! order mark start the file. The reference toolchain runs on Python 2, so such a module
//! cannot even be imported there, whatever Python 3 would make of it.

use super::parse::SyntaxError;
use super::span::{FileId, Span};

/// The error for the first non-ASCII character of an undeclared source, if any.
pub fn check_source_encoding(file: FileId, text: &str) -> Option<SyntaxError> {
    if text.starts_with('\u{feff}') || text.is_ascii() {
        return None;
    }
    if text.split('\n').take(2).any(declares_encoding) {
        return None;
    }
    let (off, ch) = text.char_indices().find(|(_, c)| !c.is_ascii())?;
    let line = text[..off].matches('\n').count() + 1;
    Some(SyntaxError {
        span: Span::new(file, off as u32, (off + ch.len_utf8()) as u32),
        message: format!(
            "non-ASCII character {ch:?} on line {line}, but no encoding declared: Python 2 \
             cannot read this module (PEP 263); declare it on the first or second line, \
             e.g. `# -*- coding: utf-8 -*-`"
        ),
    })
}

/// Whether a line is a comment declaring the encoding, as Python 2's tokenizer reads it:
/// blanks, `#`, then `coding` followed by `:` or `=` and a name.
fn declares_encoding(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t', '\x0c']);
    let Some(comment) = rest.strip_prefix('#') else {
        return false;
    };
    let mut from = 0;
    while let Some(i) = comment[from..].find("coding") {
        let after = &comment[from + i + "coding".len()..];
        if let Some(value) = after.strip_prefix([':', '=']) {
            let name = value.trim_start_matches([' ', '\t']);
            if name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            {
                return true;
            }
        }
        from += i + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Option<(u32, String)> {
        check_source_encoding(FileId(0), text).map(|e| (e.span.start, e.message))
    }

    #[test]
    fn undeclared_non_ascii_is_an_error_even_in_a_comment() {
        let (off, msg) = err("x = 1\n# caf\u{e9}\n").unwrap();
        assert_eq!(off, 11);
        assert!(msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn a_declaration_on_line_one_or_two_or_a_bom_allows_it() {
        assert_eq!(err("# -*- coding: utf-8 -*-\ns = '\u{e9}'\n"), None);
        assert_eq!(
            err("#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\ns = '\u{e9}'\n"),
            None
        );
        assert_eq!(err("\u{feff}s = '\u{e9}'\n"), None);
        assert_eq!(err("s = 1\n"), None);
    }

    #[test]
    fn a_declaration_too_late_or_outside_a_comment_does_not_count() {
        assert!(err("x = 1\ny = 2\n# coding: utf-8\ns = '\u{e9}'\n").is_some());
        assert!(err("coding = 'utf-8'\ns = '\u{e9}'\n").is_some());
        assert!(err("# coding: \ns = '\u{e9}'\n").is_some());
    }
}
