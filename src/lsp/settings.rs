//! Client settings (`rpy-lsp.*`) and how they turn into an engine configuration.

use crate::engine::EngineConfig;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `rpy-lsp.entryPoints`: target files; when non-empty they replace pyproject's.
    pub entry_points: Vec<String>,
    /// `rpy-lsp.searchPaths`: import roots; when non-empty they replace pyproject's.
    pub search_paths: Vec<String>,
    /// `rpy-lsp.inlayHints.enable` (default true).
    pub inlay_hints: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            entry_points: Vec::new(),
            search_paths: Vec::new(),
            inlay_hints: true,
        }
    }
}

impl Settings {
    /// Reads settings from any of the shapes clients send: `{"rpy-lsp": {...}}` (VS Code's
    /// `didChangeConfiguration`), the section itself (`workspace/configuration` with section
    /// `rpy-lsp`, initialization options), or flat dotted keys (`"rpy-lsp.entryPoints"`).
    /// Keys that are missing or of the wrong type leave the current value unchanged.
    pub fn update_from(&mut self, value: &Value) {
        let Some(obj) = value.as_object() else { return };
        if let Some(section) = obj.get("rpy-lsp") {
            self.update_from(section);
        }
        let get = |key: &str| obj.get(key).or_else(|| obj.get(&format!("rpy-lsp.{key}")));
        if let Some(v) = get("entryPoints") {
            if let Some(list) = string_list(v) {
                self.entry_points = list;
            }
        }
        if let Some(v) = get("searchPaths") {
            if let Some(list) = string_list(v) {
                self.search_paths = list;
            }
        }
        if let Some(b) = get("inlayHints")
            .and_then(|v| v.get("enable"))
            .and_then(Value::as_bool)
        {
            self.inlay_hints = b;
        }
        if let Some(b) = get("inlayHints.enable").and_then(Value::as_bool) {
            self.inlay_hints = b;
        }
    }

    /// The engine configuration for a workspace root: `[tool.rpy-lsp]` of its pyproject.toml,
    /// with non-empty settings taking precedence. Relative paths are relative to the root.
    pub fn engine_config(&self, root: &Path) -> EngineConfig {
        let mut config = EngineConfig::discover(root);
        // Editors start the server in every Python project; only RPython ones get answers.
        config.only_rpython = true;
        config.repair_buffers = true;
        let resolve = |p: &String| -> PathBuf {
            let p = Path::new(p);
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                root.join(p)
            }
        };
        if !self.entry_points.is_empty() {
            config.entry_points = self.entry_points.iter().map(resolve).collect();
        }
        if !self.search_paths.is_empty() {
            config.search_paths = self.search_paths.iter().map(resolve).collect();
        }
        config
    }
}

/// A list of strings (also accepting one string); `None` for anything else.
fn string_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) if s.is_empty() => Some(Vec::new()),
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect(),
        ),
        Value::Null => Some(Vec::new()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_every_shape() {
        let mut s = Settings::default();
        s.update_from(
            &json!({"rpy-lsp": {"entryPoints": ["a.py"], "inlayHints": {"enable": false}}}),
        );
        assert_eq!(s.entry_points, vec!["a.py"]);
        assert!(!s.inlay_hints);
        s.update_from(&json!({"searchPaths": "lib", "inlayHints": {"enable": true}}));
        assert_eq!(s.search_paths, vec!["lib"]);
        assert!(s.inlay_hints);
        s.update_from(&json!({"rpy-lsp.inlayHints.enable": false, "rpy-lsp.entryPoints": []}));
        assert!(!s.inlay_hints);
        assert!(s.entry_points.is_empty());
        // Garbage changes nothing and does not panic.
        let before = s.clone();
        s.update_from(&json!({"rpy-lsp": 3, "entryPoints": 7, "inlayHints": "yes"}));
        s.update_from(&json!(null));
        assert_eq!(s, before);
    }

    #[test]
    fn settings_override_relative_to_root() {
        let s = Settings {
            entry_points: vec!["src/t.py".into(), "/abs/u.py".into()],
            search_paths: vec![],
            inlay_hints: true,
        };
        let dir = std::env::temp_dir().join("rpy-lsp-settings-test-no-pyproject");
        let config = s.engine_config(&dir);
        assert_eq!(
            config.entry_points,
            vec![dir.join("src/t.py"), PathBuf::from("/abs/u.py")]
        );
        assert!(config.search_paths.is_empty());
    }
}
