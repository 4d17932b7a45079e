//! Buffers being typed rarely parse (`x = node.`, `f(a, `), yet completion and signature
//! help are asked exactly then. The language server analyses such a buffer with the lines
//! around its syntax error blanked, so the rest of the module (its functions, their types)
//! stays known; only the syntax error is reported in that file.
//!
//! Takes a module's text; gives a text of the same length with the same line breaks (every
//! offset and position still means the same place) that parses, with the syntax error of
//! the original, or `None` when the text parses or no repair was found.

use crate::syntax::{parse_module, FileId, SyntaxError};

/// Lines blanked at most: past this the buffer is not "being typed", it is broken.
const MAX_BLANKED: usize = 8;

pub fn repair(text: &str) -> Option<(String, SyntaxError)> {
    let original = parse_module(FileId(0), text).err()?;
    let mut bytes = text.as_bytes().to_vec();
    let mut err = original.clone();
    for _ in 0..MAX_BLANKED {
        let t = std::str::from_utf8(&bytes).ok()?;
        let at = (err.span.start as usize).min(t.len());
        // The lines that may be unfinished, the likeliest first: the one opening a bracket
        // still open at the error, the statement before an error on a blank line, the
        // error's own line. One is blanked per step (the fewer statements lost, the more
        // of the module stays as the user wrote it).
        let mut lines = Vec::new();
        if let Some(open) = innermost_open_bracket(t, at) {
            lines.push(line_start(t, open));
        }
        let here = line_start(t, at);
        let blank_here = t[here..]
            .split('\n')
            .next()
            .is_some_and(|l| l.trim().is_empty());
        if blank_here && here > 0 {
            lines.push(line_start(t, here - 1));
        }
        lines.push(here);
        // Blank the first candidate that makes the text parse, else the one that moves the
        // error furthest on.
        let mut best: Option<(Vec<u8>, SyntaxError)> = None;
        for l in lines {
            let mut trial = bytes.clone();
            if !blank_line(&mut trial, l) {
                continue;
            }
            let trial_text = std::str::from_utf8(&trial).ok()?;
            match parse_module(FileId(0), trial_text) {
                Ok(_) => return Some((trial_text.to_string(), original)),
                Err(e) => {
                    if best
                        .as_ref()
                        .is_none_or(|(_, b)| e.span.start > b.span.start)
                    {
                        best = Some((trial, e));
                    }
                }
            }
        }
        let (next, e) = best?;
        bytes = next;
        err = e;
    }
    None
}

fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// Replaces the statement on the line starting at `start` with `pass` (or `0` when the line
/// is too short), keeping its indentation and length. False for a blank line.
fn blank_line(bytes: &mut [u8], start: usize) -> bool {
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |i| start + i);
    let indent = bytes[start..end]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let body = start + indent..end;
    if body.is_empty() {
        return false;
    }
    let filler: &[u8] = if body.len() >= 4 { b"pass" } else { b"0" };
    for (k, i) in body.enumerate() {
        bytes[i] = filler.get(k).copied().unwrap_or(b' ');
    }
    true
}

/// The offset of the innermost bracket still open at `offset` (strings and comments
/// skipped), if any.
fn innermost_open_bracket(text: &str, offset: usize) -> Option<usize> {
    let mut stack = Vec::new();
    for tok in crate::syntax::tokens(&text[..offset]) {
        if tok.kind != crate::syntax::TokKind::Op {
            continue;
        }
        match &text[tok.start as usize..tok.end as usize] {
            "(" | "[" | "{" => stack.push(tok.start as usize),
            ")" | "]" | "}" => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[test]
    fn blanks_the_lines_being_typed() {
        let text = "def f(node):\n    x = node.\n    return 1\n";
        let (fixed, err) = repair(text).unwrap();
        assert_eq!(fixed, "def f(node):\n    pass     \n    return 1\n");
        let line = &text[..err.span.start as usize].matches('\n').count();
        assert_eq!(*line, 1, "{err:?}");
        let text = "def f(a):\n    y = g(a, \n    return y\n";
        let (fixed, _) = repair(text).unwrap();
        assert_eq!(fixed.len(), text.len());
        assert!(crate::syntax::parse_module(crate::syntax::FileId(0), &fixed).is_ok());
        // Only the unfinished line goes; the `return` after it stays.
        assert_eq!(fixed, "def f(a):\n    pass     \n    return y\n");
        assert!(repair("def f():\n    return 1\n").is_none());
    }
}
