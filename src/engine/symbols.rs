//! Workspace symbols: the classes, functions, methods and module-level variables of every
//! user file of the analysis whose name matches a query.
//!
//! Takes a query; gives symbols with the class that contains them. Matching is as editors
//! do it: the query's characters appear in the name in order, case-insensitively (an empty
//! query matches everything); names that start with the query come first.

use super::queries::{Symbol, SymbolKind};
use super::Analysis;
use crate::fasthash::HashMap;
use crate::objspace::object::{ObjId, Value};
use crate::syntax::Span;
use std::path::{Path, PathBuf};

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
    /// Fills the `detail` of a file's symbols: functions' and methods' signatures with their
    /// inferred types (`self` left out), module-level variables' types.
    pub(super) fn fill_details(&self, path: &Path, symbols: &mut [Symbol]) {
        let Some(file) = self.sources.find(path) else {
            return;
        };
        // The functions of the file by the span of their name; an annotated program's first.
        let mut functions: HashMap<(u32, u32), (usize, Value)> = HashMap::default();
        let mut order: Vec<usize> = (0..self.programs.len()).collect();
        order.sort_by_key(|&pi| self.programs[pi].annotated.is_none());
        for pi in order {
            let heap = &self.programs[pi].space.heap;
            for i in 0..heap.len() {
                let v = Value::Obj(ObjId(i as u32));
                if let Some(f) = heap.function(v) {
                    let ns = f.code.name_span;
                    if self.unified(pi, ns.file) == file {
                        functions.entry((ns.start, ns.end)).or_insert((pi, v));
                    }
                }
            }
        }
        let module = self.module_of(path);
        self.fill(symbols, &functions, module, true);
    }

    fn fill(
        &self,
        symbols: &mut [Symbol],
        functions: &HashMap<(u32, u32), (usize, Value)>,
        module: Option<(usize, ObjId)>,
        top: bool,
    ) {
        for s in symbols {
            match s.kind {
                SymbolKind::Function | SymbolKind::Method => {
                    if let Some(&(pi, f)) = functions.get(&(s.name_span.start, s.name_span.end)) {
                        let method = s.kind == SymbolKind::Method;
                        s.detail = self.short_signature(pi, f, method).unwrap_or_default();
                    }
                }
                SymbolKind::Variable if top => {
                    if let Some((pi, m)) = module {
                        let space = &self.programs[pi].space;
                        if let Some(v) = space.module_attr(m, &s.name) {
                            let view = self
                                .views(&self.sources.get(s.name_span.file).path)
                                .into_iter()
                                .find(|v| v.pi == pi && v.ann.is_some());
                            s.detail = self.constant_type(pi, view.as_ref(), v);
                        }
                    }
                }
                _ => {}
            }
            self.fill(&mut s.children, functions, module, false);
        }
    }

    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        let mut out = Vec::new();
        for path in self.files() {
            let symbols = self.syntax_symbols(&path);
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
