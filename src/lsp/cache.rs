//! Files the server writes so that clients can open them: the text of bundled models (targets
//! of go-to-definition into `<bundled>/...`) and one page per diagnostic code (the diagnostics'
//! code description). They live in `$XDG_CACHE_HOME/rpy-lsp/<version>/` (or
//! `~/.cache/...`, or the temporary directory: `crate::cachedir`), written atomically and only when missing or
//! different.

use crate::diagnostics::{Rule, RULES};
use crate::fasthash::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use tower_lsp_server::ls_types::Uri;

/// The prefix of the engine's paths of bundled models.
pub const BUNDLED_PREFIX: &str = "<bundled>";

pub struct Cache {
    dir: PathBuf,
    rules: OnceLock<HashMap<&'static str, Uri>>,
    written: Mutex<HashMap<PathBuf, u64>>,
}

impl Cache {
    pub fn new() -> Cache {
        Cache::at(crate::cachedir::base().join(env!("CARGO_PKG_VERSION")))
    }

    pub fn at(dir: PathBuf) -> Cache {
        Cache {
            dir,
            rules: OnceLock::new(),
            written: Mutex::new(HashMap::default()),
        }
    }

    /// The engine's name (`<bundled>/...`) of a bundled model's copy written here.
    pub fn bundled_name(&self, path: &Path) -> Option<PathBuf> {
        let rel = path.strip_prefix(self.dir.join("bundled")).ok()?;
        Some(Path::new(BUNDLED_PREFIX).join(rel))
    }

    /// Where the bundled model `engine_path` (`<bundled>/rpython/rlib/jit.py`) is on disk,
    /// writing `text` there first. `None` for a path that is not a bundled one or on I/O error.
    pub fn bundled_file(&self, engine_path: &Path, text: &str) -> Option<PathBuf> {
        let rel = engine_path.strip_prefix(BUNDLED_PREFIX).ok()?;
        if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            return None;
        }
        let target = self.dir.join("bundled").join(rel);
        self.write(&target, text).then_some(target)
    }

    /// A `file:` URI of the documentation page of a diagnostic code.
    pub fn rule_page(&self, code: &str) -> Option<Uri> {
        let pages = self.rules.get_or_init(|| {
            let mut pages = HashMap::default();
            for rule in RULES {
                let path = self.dir.join("rules").join(format!("{}.md", rule.code));
                if self.write(&path, &rule_markdown(rule)) {
                    if let Some(uri) = Uri::from_file_path(&path) {
                        pages.insert(rule.code, uri);
                    }
                }
            }
            pages
        });
        pages.get(code).cloned()
    }

    /// Writes `text` to `path` unless it already holds it; true when `path` holds it after.
    fn write(&self, path: &Path, text: &str) -> bool {
        let hash = fnv1a(text.as_bytes());
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if written.get(path) == Some(&hash) {
            return true;
        }
        if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
            written.insert(path.to_path_buf(), hash);
            return true;
        }
        let Some(parent) = path.parent() else {
            return false;
        };
        if std::fs::create_dir_all(parent).is_err() {
            return false;
        }
        // Atomic against another server instance writing the same file.
        let tmp = parent.join(format!(
            ".{}.{}.tmp",
            path.file_name().unwrap_or_default().to_string_lossy(),
            std::process::id()
        ));
        let ok = std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, path).is_ok();
        if ok {
            written.insert(path.to_path_buf(), hash);
        } else {
            let _ = std::fs::remove_file(&tmp);
        }
        ok
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

fn rule_markdown(rule: &Rule) -> String {
    format!(
        "# {code} {name}\n\nSeverity: {severity}. {summary}.\n\n{doc}\n\n## Rejected\n\n```python\n{bad}```\n\n## Accepted\n\n```python\n{good}```\n\nSuppress one occurrence with `# rpy: ignore[{code}]` at the end of its line.\n",
        code = rule.code,
        name = rule.name,
        severity = rule.severity.as_str(),
        summary = rule.summary,
        doc = rule.doc,
        bad = rule.bad,
        good = rule.good,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_bundled_and_rule_pages() {
        let dir = std::env::temp_dir().join(format!("rpy-lsp-cache-test-{}", std::process::id()));
        let cache = Cache::at(dir.clone());
        let p = cache
            .bundled_file(
                Path::new("<bundled>/rpython/rlib/jit.py"),
                "def f(): pass\n",
            )
            .unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "def f(): pass\n");
        assert_eq!(
            cache.bundled_name(&p).unwrap(),
            Path::new("<bundled>/rpython/rlib/jit.py")
        );
        assert!(cache.bundled_name(Path::new("/w/a.py")).is_none());
        assert!(cache
            .bundled_file(Path::new("<bundled>/../escape.py"), "x")
            .is_none());
        assert!(cache.bundled_file(Path::new("/etc/passwd"), "x").is_none());
        let uri = cache.rule_page("RPY001").unwrap();
        let page = std::fs::read_to_string(uri.to_file_path().unwrap()).unwrap();
        assert!(page.starts_with("# RPY001 syntax-error"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
