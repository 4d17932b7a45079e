//! Edits that move code without changing it: takes the text a file had at the previous
//! analysis and the text it has now; gives, when the two are the same program (the same
//! tokens, each logical line with the same indentation, the same first two lines, which may
//! declare the encoding), the map from old offsets to new ones. Inserting or deleting blank
//! lines and comments, or spaces inside brackets, are such edits; a changed docstring, name
//! or literal is not (it is a token).
//!
//! Why: every stage is a function of the program's tokens and of positions that it only
//! carries (spans) and compares or orders, never computes with. The one exception,
//! import-time code reading `co_firstlineno`, is tracked by the object space
//! (`ObjSpace::positions_read`). So when every file is the same program, the previous
//! analysis's results are this one's with spans moved by the map (`Program::analyse`).

use crate::syntax::{TokKind, Token};

/// Old token span → new token span, in order, for one file.
pub struct OffsetMap {
    /// (old start, old end, new start, new end) of each token.
    tokens: Vec<(u32, u32, u32, u32)>,
    new_len: u32,
}

impl OffsetMap {
    /// The new offset of an old span start: a token's start maps to its new start; an
    /// offset inside a token keeps its distance from the token's start; one between tokens
    /// keeps its distance from the previous token's end, without passing the next token.
    pub fn map_start(&self, x: u32) -> u32 {
        let k = self.tokens.partition_point(|t| t.0 <= x);
        if k == 0 {
            let first = self.tokens.first().map_or(self.new_len, |t| t.2);
            return x.min(first);
        }
        let (os, oe, ns, ne) = self.tokens[k - 1];
        if x < oe {
            return (ns + (x - os)).min(ne);
        }
        let limit = self.tokens.get(k).map_or(self.new_len, |t| t.2);
        (ne + (x - oe)).min(limit)
    }

    /// The new offset of an old span end: a token's end maps to its new end (where a
    /// token ends just before the next starts, the two may part: a span ending there
    /// covers the first), other offsets as [`OffsetMap::map_start`].
    pub fn map_end(&self, x: u32) -> u32 {
        let k = self.tokens.partition_point(|t| t.1 < x);
        match self.tokens.get(k) {
            Some(&(os, oe, _, ne)) if oe == x && os < x => ne,
            _ => self.map_start(x),
        }
    }

    /// A span's new start and end (an empty span stays empty).
    pub fn map_span(&self, start: u32, end: u32) -> (u32, u32) {
        let s = self.map_start(start);
        if end <= start {
            return (s, s);
        }
        (s, self.map_end(end).max(s))
    }
}

/// The map from `old` to `new` when both texts are the same program (module doc).
pub fn same_program(old: &str, new: &str) -> Option<OffsetMap> {
    fn first_two(t: &str) -> (&str, &str) {
        let mut it = t.split_inclusive('\n');
        (it.next().unwrap_or(""), it.next().unwrap_or(""))
    }
    if first_two(old) != first_two(new) {
        return None;
    }
    let (a, b) = (
        crate::syntax::clean_tokens(old)?,
        crate::syntax::clean_tokens(new)?,
    );
    if a.len() != b.len() {
        return None;
    }
    let text = |src: &str, t: &Token| src.get(t.start as usize..t.end as usize).map(str::to_owned);
    let indent = |src: &str, t: &Token| {
        let line = src[..t.start as usize]
            .rfind(['\n', '\r'])
            .map_or(0, |i| i + 1);
        src.get(line..t.start as usize).map(str::to_owned)
    };
    let mut tokens = Vec::with_capacity(a.len());
    let mut line_start = true;
    for (x, y) in a.iter().zip(&b) {
        if x.kind != y.kind {
            return None;
        }
        // Newlines may differ in their characters (`\r\n`); any other token is compared by
        // its text, and the first of a logical line by its indentation too.
        if x.kind != TokKind::Newline {
            if text(old, x)? != text(new, y)? {
                return None;
            }
            if line_start && indent(old, x)? != indent(new, y)? {
                return None;
            }
        }
        line_start = x.kind == TokKind::Newline;
        tokens.push((x.start, x.end, y.start, y.end));
    }
    Some(OffsetMap {
        tokens,
        new_len: new.len() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str =
        "import os\n\n\ndef f(x):\n    # a comment\n    return (x +\n            1)\n";

    #[test]
    fn comments_blank_lines_and_spaces_in_brackets_move_code() {
        let new = "import os\n\n\n\n# new\ndef f(x):\n\n    return (x +\n      1)  # c\n";
        let m = same_program(OLD, new).expect("same program");
        // `def`, `return`, `1` and the final newline land on their new offsets.
        for word in ["def", "return", "1)", "f(x)"] {
            let (o, n) = (OLD.find(word).unwrap(), new.find(word).unwrap());
            let (o, n, len) = (o as u32, n as u32, word.len() as u32);
            assert_eq!(m.map_span(o, o + len), (n, n + len), "{word}");
        }
        assert_eq!(m.map_span(0, 0), (0, 0));
    }

    #[test]
    fn changed_tokens_indentation_or_encoding_line_are_another_program() {
        for new in [
            // a literal
            "import os\n\n\ndef f(x):\n    return (x +\n            2)\n",
            // a statement moved out of its block
            "import os\n\n\ndef f(x):\n    pass\nreturn (x +\n            1)\n",
            // a name
            "import os\n\n\ndef g(x):\n    return (x +\n            1)\n",
            // a second line that may declare an encoding
            "import os\n# -*- coding: latin-1 -*-\n\ndef f(x):\n    return (x +\n            1)\n",
        ] {
            assert!(same_program(OLD, new).is_none(), "{new}");
        }
        let docstring = |d: &str| format!("def f():\n    \"{d}\"\n    return 1\n");
        assert!(same_program(&docstring("a"), &docstring("b")).is_none());
        assert!(same_program(&docstring("a"), &docstring("a")).is_some());
    }
}
