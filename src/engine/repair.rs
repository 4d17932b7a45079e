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
    let mut blanked: Vec<usize> = Vec::new();
    let mut err = original.clone();
    loop {
        let t = std::str::from_utf8(&bytes).ok()?;
        let at = (err.span.start as usize).min(t.len());
        let mut lines = vec![line_start(t, at)];
        if let Some(open) = innermost_open_bracket(t, at) {
            lines.push(line_start(t, open));
        }
        // An error at a blank line or at the end: the statement before it is unfinished.
        if t[lines[0]..]
            .split('\n')
            .next()
            .is_some_and(|l| l.trim().is_empty())
            && lines[0] > 0
        {
            lines.push(line_start(t, lines[0] - 1));
        }
        let mut progress = false;
        for l in lines {
            if !blanked.contains(&l) && blank_line(&mut bytes, l) {
                blanked.push(l);
                progress = true;
            }
        }
        if !progress || blanked.len() > MAX_BLANKED {
            return None;
        }
        let t = std::str::from_utf8(&bytes).ok()?;
        match parse_module(FileId(0), t) {
            Ok(_) => return Some((t.to_string(), original)),
            Err(e) => err = e,
        }
    }
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
        assert!(fixed.starts_with("def f(a):\n    pass"), "{fixed}");
        assert!(repair("def f():\n    return 1\n").is_none());
    }
}
