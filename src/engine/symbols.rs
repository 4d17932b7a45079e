//! Workspace symbols: the classes, functions, methods and module-level variables of every
//! user file of the analysis whose name matches a query.
//!
//! Takes a query; gives symbols with the class that contains them. Matching is as editors
//! do it: the query's characters appear in the name in order, case-insensitively (an empty
//! query matches everything); names that start with the query come first.

use super::queries::{Symbol, SymbolKind};
use super::Analysis;
use crate::syntax::Span;
use std::path::PathBuf;

/// Most symbols answered.
const MAX_SYMBOLS: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub path: PathBuf,
    pub name_span: Span,
    /// The enclosing class, for methods and class attributes.
    pub container: Option<String>,
}

/// Whether the characters of `query` appear in `name` in order, ignoring case.
pub fn fuzzy_matches(query: &str, name: &str) -> bool {
    let mut chars = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .flat_map(char::to_lowercase)
        .all(|q| chars.any(|c| c == q))
}

impl Analysis {
    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        let mut out = Vec::new();
        for path in self.files() {
            let symbols = self.symbols(&path);
            collect(&path, &symbols, None, query, &mut out);
        }
        let q = query.to_lowercase();
        out.sort_by_key(|s| {
            (
                !s.name.to_lowercase().starts_with(&q),
                s.name.len(),
                s.name.clone(),
                s.path.clone(),
                s.name_span.start,
            )
        });
        out.truncate(MAX_SYMBOLS);
        out
    }
}

fn collect(
    path: &PathBuf,
    symbols: &[Symbol],
    container: Option<&str>,
    query: &str,
    out: &mut Vec<WorkspaceSymbol>,
) {
    for s in symbols {
        if fuzzy_matches(query, &s.name) {
            out.push(WorkspaceSymbol {
                name: s.name.clone(),
                kind: s.kind,
                path: path.clone(),
                name_span: s.name_span,
                container: container.map(str::to_string),
            });
        }
        collect(path, &s.children, Some(&s.name), query, out);
    }
}

#[cfg(test)]
mod tests {
    use super::fuzzy_matches;

    #[test]
    fn matches_in_order_ignoring_case() {
        assert!(fuzzy_matches("ep", "entry_point"));
        assert!(fuzzy_matches("", "x"));
        assert!(fuzzy_matches("NoDe", "Node"));
        assert!(!fuzzy_matches("pe", "ep"));
    }
}
