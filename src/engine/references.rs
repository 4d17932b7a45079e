//! Find references: every use of the name at a position that resolves to the same
//! definition, in every user file of the analysis.
//!
//! Takes a file and an offset; gives locations. A candidate is an identifier token (not in a
//! string or comment) spelled like the name; it is a reference when go-to-definition from it
//! lands where go-to-definition from the cursor lands. So references know exactly what
//! definitions know: locals per function, instance attributes through the inferred class,
//! globals across modules.

use super::queries::Location;
use super::Analysis;
use crate::syntax::{Span, TokKind};
use std::path::Path;

/// Most candidates examined: past this the answer is cut short rather than slow.
const MAX_CANDIDATES: usize = 20_000;

impl Analysis {
    /// The uses of the name at `offset` of `path`; with `include_declaration`, its definition
    /// too. Sorted by file then position.
    pub fn references(&self, path: &Path, offset: u32, include_declaration: bool) -> Vec<Location> {
        let Some(fid) = self.sources.find(path) else {
            return Vec::new();
        };
        let text = &self.sources.get(fid).text;
        let Some((start, end, _)) = super::queries::dotted_name_at(text, offset as usize) else {
            return Vec::new();
        };
        let name = &text[start..end];
        let target = self.definition(path, offset).or_else(|| {
            let span = self.function_defined_at(path, offset)?;
            Some(Location {
                path: path.to_path_buf(),
                span,
            })
        });
        let Some(target) = target else {
            return Vec::new();
        };
        // An instance attribute (declared by `x.name = ...`) is only ever used as `y.name`:
        // other spellings need not be resolved. (A module's global is not: its own module
        // uses it undotted.)
        let dotted =
            self.sources.get(target.span.file).text.as_bytes()[..target.span.start as usize].last()
                == Some(&b'.');
        let mut out: Vec<Location> = Vec::new();
        let mut examined = 0usize;
        for (id, file) in self.sources.iter() {
            if file.path.starts_with("<bundled>") {
                continue;
            }
            for tok in crate::syntax::tokens(&file.text) {
                if tok.kind != TokKind::Name
                    || &file.text[tok.start as usize..tok.end as usize] != name
                {
                    continue;
                }
                if dotted
                    && !(tok.start > 0 && file.text.as_bytes()[tok.start as usize - 1] == b'.')
                    && Span::new(id, tok.start, tok.end) != target.span
                {
                    continue;
                }
                examined += 1;
                if examined > MAX_CANDIDATES {
                    return finish(out);
                }
                let span = Span::new(id, tok.start, tok.end);
                let is_decl = span == target.span;
                if is_decl && !include_declaration {
                    continue;
                }
                let hit = is_decl
                    || self
                        .definition(&file.path, tok.start)
                        .is_some_and(|d| d.span == target.span);
                if hit {
                    out.push(Location {
                        path: file.path.clone(),
                        span,
                    });
                }
            }
        }
        if include_declaration && !out.iter().any(|l| l.span == target.span) {
            // A definition in a bundled model, or one whose name is spelled otherwise.
            out.push(target);
        }
        finish(out)
    }
}

fn finish(mut out: Vec<Location>) -> Vec<Location> {
    out.sort_by(|a, b| (&a.path, a.span.start).cmp(&(&b.path, b.span.start)));
    out.dedup();
    out
}
