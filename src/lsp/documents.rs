//! Open documents: a rope per buffer, edited in place by incremental `didChange` events whose
//! positions are LSP positions (0-based line, UTF-16 code units).
//!
//! Lines follow the LSP definition (`\n`, `\r\n` and a lone `\r` end a line; ropey is built
//! with `cr_lines` and without `unicode_lines`, so form feeds and U+2028 stay inside a line,
//! as they do for clients).

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

#[derive(Debug, Clone)]
pub struct Document {
    pub uri: Uri,
    pub version: i32,
    pub rope: Rope,
}

impl Document {
    pub fn new(uri: Uri, version: i32, text: &str) -> Document {
        Document {
            uri,
            version,
            rope: Rope::from_str(text),
        }
    }

    /// Applies the content changes of one `didChange`, in order. A change without a range
    /// replaces the whole text. Out-of-range positions are clamped, never a panic.
    pub fn apply_changes(&mut self, version: i32, changes: &[TextDocumentContentChangeEvent]) {
        for change in changes {
            match change.range {
                None => self.rope = Rope::from_str(&change.text),
                Some(range) => {
                    let start = char_of_position(&self.rope, range.start);
                    let end = char_of_position(&self.rope, range.end).max(start);
                    self.rope.remove(start..end);
                    self.rope.insert(start, &change.text);
                }
            }
        }
        self.version = version;
    }

    pub fn text(&self) -> String {
        self.rope.to_string()
    }
}

/// Number of chars of line `line` before its line break (if any).
fn line_len_without_break(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    if len > 0 && slice.char(len - 1) == '\n' {
        len -= 1;
    }
    if len > 0 && slice.char(len - 1) == '\r' {
        len -= 1;
    }
    len
}

/// Char index of an LSP position, clamped: a line past the end is the end of the text, a
/// column past the end of its line is the end of that line, and a column inside a surrogate
/// pair is the start of that char.
pub fn char_of_position(rope: &Rope, pos: Position) -> usize {
    let line = pos.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let line_start = rope.line_to_char(line);
    let line_end = line_start + line_len_without_break(rope, line);
    let start_cu = rope.char_to_utf16_cu(line_start);
    let end_cu = rope.char_to_utf16_cu(line_end);
    let target = start_cu.saturating_add(pos.character as usize);
    if target >= end_cu {
        return line_end;
    }
    rope.utf16_cu_to_char(target).clamp(line_start, line_end)
}

/// LSP position of a char index (clamped to the text).
#[cfg(test)]
pub fn position_of_char(rope: &Rope, char_idx: usize) -> Position {
    let char_idx = char_idx.min(rope.len_chars());
    let line = rope.char_to_line(char_idx);
    let line_start = rope.line_to_char(line);
    let character = rope.char_to_utf16_cu(char_idx) - rope.char_to_utf16_cu(line_start);
    Position {
        line: line as u32,
        character: character as u32,
    }
}

/// Byte offset of an LSP position in the rope's text.
#[cfg(test)]
pub fn byte_of_position(rope: &Rope, pos: Position) -> usize {
    rope.char_to_byte(char_of_position(rope, pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Range;

    fn uri() -> Uri {
        "file:///tmp/a.py".parse().unwrap()
    }

    fn change(l1: u32, c1: u32, l2: u32, c2: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range {
                start: Position::new(l1, c1),
                end: Position::new(l2, c2),
            }),
            range_length: None,
            text: text.into(),
        }
    }

    #[test]
    fn incremental_edits_in_order() {
        let mut d = Document::new(uri(), 1, "def f(x):\n    return x\n");
        d.apply_changes(2, &[change(1, 11, 1, 12, "x + 1"), change(0, 4, 0, 5, "g")]);
        assert_eq!(d.text(), "def g(x):\n    return x + 1\n");
        assert_eq!(d.version, 2);
        d.apply_changes(
            3,
            &[TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "x = 1\n".into(),
            }],
        );
        assert_eq!(d.text(), "x = 1\n");
    }

    #[test]
    fn utf16_columns() {
        // 'é' is one UTF-16 unit, '😀' two.
        let mut d = Document::new(uri(), 1, "s = 'é😀' + t\n");
        let plus = d.text().find('+').unwrap();
        assert_eq!(byte_of_position(&d.rope, Position::new(0, 10)), plus);
        // Inside the surrogate pair: the start of the emoji.
        let emoji = d.text().find('😀').unwrap();
        assert_eq!(byte_of_position(&d.rope, Position::new(0, 7)), emoji);
        assert_eq!(
            position_of_char(&d.rope, d.rope.byte_to_char(plus)),
            Position::new(0, 10)
        );
        d.apply_changes(2, &[change(0, 6, 0, 8, "x")]);
        assert_eq!(d.text(), "s = 'éx' + t\n");
    }

    #[test]
    fn clamps_out_of_range_and_crlf() {
        let mut d = Document::new(uri(), 1, "ab\r\ncd\n");
        assert_eq!(char_of_position(&d.rope, Position::new(0, 99)), 2);
        assert_eq!(
            char_of_position(&d.rope, Position::new(9, 0)),
            d.rope.len_chars()
        );
        d.apply_changes(2, &[change(5, 0, 2, 0, "z"), change(0, 2, 1, 0, "")]);
        assert_eq!(d.text(), "abcd\nz");
        // A form feed does not end a line for LSP clients.
        let d = Document::new(uri(), 1, "a\x0cb\nc");
        assert_eq!(byte_of_position(&d.rope, Position::new(1, 0)), 4);
    }
}
