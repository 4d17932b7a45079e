//! Source files and spans: every later stage points back into user text through a `Span`.

use crate::fasthash::HashMap;
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range `[start, end)` in the original text of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }
    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// Line/column of a byte offset. `line` and `column` are 0-based; `utf16_column` counts
/// UTF-16 code units as LSP positions do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
    pub utf16_column: u32,
}

/// One loaded source file with its line table.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<u32>,
    /// Lines (sorted) holding a non-ASCII character: elsewhere a column in UTF-16 units is
    /// the byte column (so positions on long lines cost O(1), not O(line length)).
    non_ascii_lines: Vec<u32>,
}

impl SourceFile {
    pub fn new(path: PathBuf, text: String) -> SourceFile {
        // A line ends at `\n`, `\r\n` or a lone `\r` (as Python reads it).
        let mut line_starts = vec![0u32];
        let bytes = text.as_bytes();
        if bytes.contains(&b'\r') {
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                    line_starts.push(i as u32 + 1);
                }
            }
        } else {
            // (the usual text: `\n` found by memchr, not byte by byte)
            line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        }
        let mut non_ascii_lines = Vec::new();
        if !text.is_ascii() {
            for (line, w) in line_starts.iter().enumerate() {
                let end = line_starts
                    .get(line + 1)
                    .map_or(bytes.len(), |&e| e as usize);
                if !bytes[*w as usize..end].is_ascii() {
                    non_ascii_lines.push(line as u32);
                }
            }
        }
        SourceFile {
            path,
            text,
            line_starts,
            non_ascii_lines,
        }
    }

    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// 0-based line of a byte offset, clamped to the text (O(log lines)).
    pub fn line_of(&self, offset: u32) -> u32 {
        let offset = offset.min(self.text.len() as u32);
        match self.line_starts.binary_search(&offset) {
            Ok(l) => l as u32,
            Err(l) => l as u32 - 1,
        }
    }

    /// 0-based line and columns (bytes and UTF-16 units) of a byte offset, clamped to the text.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line];
        if self.non_ascii_lines.binary_search(&(line as u32)).is_err() {
            return LineCol {
                line: line as u32,
                column: offset - start,
                utf16_column: offset - start,
            };
        }
        let mut off = offset as usize;
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        let prefix = &self.text[start as usize..off];
        LineCol {
            line: line as u32,
            column: offset - start,
            utf16_column: prefix.encode_utf16().count() as u32,
        }
    }

    /// Byte offset of a 0-based line and UTF-16 column (LSP position), clamped to the line.
    pub fn offset_of_utf16(&self, line: u32, utf16_col: u32) -> u32 {
        let Some(&start) = self.line_starts.get(line as usize) else {
            return self.text.len() as u32;
        };
        let end = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.text.len() as u32);
        let mut units = 0u32;
        for (i, ch) in self.text[start as usize..end as usize].char_indices() {
            if units >= utf16_col || ch == '\n' || ch == '\r' {
                return start + i as u32;
            }
            units += ch.len_utf16() as u32;
        }
        end
    }

    /// The text of a 0-based line without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let Some(&start) = self.line_starts.get(line as usize) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.text.len() as u32);
        self.text[start as usize..end as usize].trim_end_matches(['\n', '\r'])
    }
}

/// All files of one analysis, addressed by `FileId`.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    /// The first file of each path (`find` is asked once per file a program loads).
    by_path: HashMap<PathBuf, FileId>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.add_file(SourceFile::new(path, text))
    }
    /// Adds a file already loaded elsewhere (another program's), line table and all.
    pub fn add_file(&mut self, file: SourceFile) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.by_path.entry(file.path.clone()).or_insert(id);
        self.files.push(file);
        id
    }
    /// The file `id`; an id of no file (a bug elsewhere) gets an empty file named `<unknown>`
    /// rather than a panic.
    pub fn get(&self, id: FileId) -> &SourceFile {
        static UNKNOWN: std::sync::OnceLock<SourceFile> = std::sync::OnceLock::new();
        self.files.get(id.0 as usize).unwrap_or_else(|| {
            UNKNOWN.get_or_init(|| SourceFile::new(PathBuf::from("<unknown>"), String::new()))
        })
    }
    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied()
    }
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }
    pub fn len(&self) -> usize {
        self.files.len()
    }
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_utf16() {
        let f = SourceFile::new("a.py".into(), "ab\nx = 'é😀' + y\n".into());
        let off = f.text.find('+').unwrap() as u32;
        let lc = f.line_col(off);
        assert_eq!((lc.line, lc.column, lc.utf16_column), (1, 13, 10));
        assert_eq!(f.offset_of_utf16(1, 10), off);
        assert_eq!(f.line_text(1), "x = 'é😀' + y");
    }

    #[test]
    fn lines_end_at_newline_crlf_or_lone_cr() {
        let starts = |t: &str| {
            SourceFile::new("a.py".into(), t.into())
                .line_starts()
                .to_vec()
        };
        assert_eq!(starts("a\nbc\n\nd"), [0, 2, 5, 6]);
        assert_eq!(starts("a\r\nbc\r\rd\n"), [0, 3, 6, 7, 9]);
        assert_eq!(starts(""), [0]);
    }
}
