//! `# rpy: ignore[CODE-or-name, ...]` suppression comments (spacing is free: `#rpy:ignore[X]`,
//! `# rpy: ignore[ X ]`; a bare `# rpy: ignore` suppresses everything on its line), and the
//! RPY008 warning for a suppression that suppresses nothing.

use super::{rules, Diagnostic};
use crate::fasthash::HashMap;
use crate::syntax::{FileId, SourceMap, Span};

/// The suppression comment of one line of text, if any: the offset of its `#` and what it
/// names (`None`: every code).
pub fn parse_line(line: &str) -> Option<(usize, Option<Vec<String>>)> {
    let mut from = 0;
    while let Some(i) = line[from..].find('#') {
        let at = from + i;
        if let Some(items) = parse_comment(&line[at + 1..]) {
            return Some((at, items));
        }
        from = at + 1;
    }
    None
}

/// `rest` follows a `#`: `rpy: ignore` with any spacing, then an optional `[...]` list.
fn parse_comment(rest: &str) -> Option<Option<Vec<String>>> {
    let rest = rest.trim_start();
    let rest = strip_prefix_ci(rest, "rpy")?.trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let rest = strip_prefix_ci(rest, "ignore")?;
    // `ignore` is a word: `# rpy: ignored` is not a suppression
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_') {
        return None;
    }
    let rest = rest.trim_start();
    match rest.strip_prefix('[') {
        Some(list) => {
            let list = list.split(']').next().unwrap_or("");
            Some(Some(
                list.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            ))
        }
        None => Some(None),
    }
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether an item of a suppression (a code or a rule name) names `code`.
pub fn item_matches(item: &str, code: &str) -> bool {
    item.eq_ignore_ascii_case(code)
        || rules::lookup(code).is_some_and(|r| r.name.eq_ignore_ascii_case(item))
}

/// Removes the suppressed diagnostics and adds an RPY008 warning for every suppression (or
/// item of one) that suppressed nothing, in the files for which `check_unused(file)` holds
/// (files whose every check ran).
pub fn apply(
    sources: &SourceMap,
    diagnostics: &mut Vec<Diagnostic>,
    check_unused: impl Fn(FileId) -> bool,
) {
    // the suppressions of the lines diagnostics are on: their items, which items were used,
    // whether anything was suppressed
    type State = Option<(Option<Vec<String>>, Vec<bool>, bool)>;
    let mut found: HashMap<(FileId, u32), State> = HashMap::default();
    let mut keep = Vec::with_capacity(diagnostics.len());
    for d in diagnostics.drain(..) {
        if d.span.file.0 as usize >= sources.len() {
            keep.push(d);
            continue;
        }
        let f = sources.get(d.span.file);
        let line = f.line_col(d.span.start.min(f.text.len() as u32)).line;
        let state = found.entry((d.span.file, line)).or_insert_with(|| {
            let (_, items) = parse_line(f.line_text(line))?;
            let n = items.as_ref().map_or(0, |v| v.len());
            Some((items, vec![false; n], false))
        });
        let hit = match state {
            None => false,
            Some((None, _, any)) => {
                *any = true;
                true
            }
            Some((Some(items), used, any)) => {
                match items.iter().position(|i| item_matches(i, d.code)) {
                    Some(i) => {
                        used[i] = true;
                        *any = true;
                        true
                    }
                    None => false,
                }
            }
        };
        if !hit {
            keep.push(d);
        }
    }
    *diagnostics = keep;
    // every suppression comment of the checked user files
    for (id, f) in sources.iter() {
        if f.path.starts_with("<bundled>") || !check_unused(id) {
            continue;
        }
        for line in 0..f.line_starts().len() as u32 {
            let text = f.line_text(line);
            if !text.contains('#') {
                continue;
            }
            let Some((at, items)) = parse_line(text) else {
                continue;
            };
            let start = f.line_starts()[line as usize] + at as u32;
            let span = Span::new(id, start, start + (text.len() - at) as u32);
            let state = found.get(&(id, line)).and_then(|s| s.as_ref());
            match items {
                None => {
                    if !state.is_some_and(|(_, _, any)| *any) {
                        diagnostics.push(Diagnostic::new(
                            "RPY008",
                            span,
                            "unused suppression: there is no diagnostic on this line",
                        ));
                    }
                }
                Some(items) => {
                    if items.is_empty() {
                        diagnostics.push(Diagnostic::new(
                            "RPY008",
                            span,
                            "empty suppression: name a code or a rule in the brackets",
                        ));
                    }
                    for (i, item) in items.iter().enumerate() {
                        let used = state.is_some_and(|(_, used, _)| used[i]);
                        if used {
                            continue;
                        }
                        let message = if rules::lookup_code_or_name(item).is_none() {
                            format!("unknown rule `{item}` in suppression (see `rpy-lsp rules`)")
                        } else {
                            format!("unused suppression: no `{item}` diagnostic on this line")
                        };
                        diagnostics.push(Diagnostic::new("RPY008", span, message));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerant_spacing_and_names() {
        assert_eq!(
            parse_line("x = 1  # rpy: ignore[RPY201]"),
            Some((7, Some(vec!["RPY201".to_string()])))
        );
        assert_eq!(
            parse_line("x # rpy:ignore[X]").map(|p| p.1),
            Some(Some(vec!["X".to_string()]))
        );
        assert_eq!(
            parse_line("x #rpy: ignore[ X , import-not-found ]").map(|p| p.1),
            Some(Some(vec!["X".to_string(), "import-not-found".to_string()]))
        );
        assert_eq!(parse_line("x  #  RPY :  IGNORE").map(|p| p.1), Some(None));
        assert_eq!(parse_line("x  # rpy: ignored"), None);
        assert_eq!(parse_line("x = '#' # nothing"), None);
        assert!(item_matches("import-not-found", "RPY002"));
        assert!(item_matches("rpy002", "RPY002"));
        assert!(!item_matches("closure", "RPY002"));
    }
}
