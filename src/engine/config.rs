//! Where a workspace's programs are: explicit entry points and search paths from
//! `[tool.rpy-lsp]` in pyproject.toml, or every file that defines `def target(`.

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    pub root: PathBuf,
    pub search_paths: Vec<PathBuf>,
    /// Target files; empty means "find them" (files defining `def target(`).
    pub entry_points: Vec<PathBuf>,
}

impl EngineConfig {
    /// Reads `[tool.rpy-lsp]` (`entry-points`, `search-paths`, relative to the root) from
    /// `root/pyproject.toml` when there is one.
    pub fn discover(root: &Path) -> EngineConfig {
        let mut config = EngineConfig {
            root: root.to_path_buf(),
            ..Default::default()
        };
        if let Ok(text) = std::fs::read_to_string(root.join("pyproject.toml")) {
            for (key, values) in tool_section(&text) {
                let paths: Vec<PathBuf> = values.iter().map(|v| root.join(v)).collect();
                match key.as_str() {
                    "entry-points" | "entry_points" => config.entry_points = paths,
                    "search-paths" | "search_paths" => config.search_paths = paths,
                    _ => {}
                }
            }
        }
        config
    }

    /// The target files of the workspace.
    pub fn targets(&self) -> Vec<PathBuf> {
        if !self.entry_points.is_empty() {
            return self.entry_points.clone();
        }
        let mut found = Vec::new();
        for file in python_files(&self.root) {
            if let Ok(text) = std::fs::read_to_string(&file) {
                if defines_target(&text) {
                    found.push(file);
                }
            }
        }
        found
    }
}

/// Whether module text defines a top-level `target` function.
pub fn defines_target(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("def target(") || l.starts_with("def target ("))
}

/// Every `.py` file under `root` (skipping hidden directories, virtualenvs and build output),
/// sorted. `root` itself may be a file.
pub fn python_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if root.is_file() {
        out.push(root.to_path_buf());
        return out;
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.starts_with('.')
                    && !matches!(
                        name.as_str(),
                        "node_modules" | "target" | "venv" | "__pycache__" | "build" | "dist"
                    )
                {
                    stack.push(path);
                }
            } else if name.ends_with(".py") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The `key = value` pairs of `[tool.rpy-lsp]`; values are a string or an array of strings.
fn tool_section(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut pending: Option<(String, String)> = None;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some((key, mut acc)) = pending.take() {
            acc.push_str(line);
            if acc.contains(']') {
                out.push((key, strings_in(&acc)));
            } else {
                pending = Some((key, acc));
            }
            continue;
        }
        if line.starts_with('[') {
            inside = line == "[tool.rpy-lsp]";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            let (k, v) = (k.trim().to_string(), v.trim().to_string());
            if v.starts_with('[') && !v.contains(']') {
                pending = Some((k, v));
            } else {
                out.push((k, strings_in(&v)));
            }
        }
    }
    out
}

fn strings_in(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = rest.as_bytes()[start] as char;
        let after = &rest[start + 1..];
        let Some(end) = after.find(quote) else { break };
        out.push(after[..end].to_string());
        rest = &after[end + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tool_section() {
        let text = "[project]\nname='x'\n[tool.rpy-lsp]\nentry-points = [\n  \"src/main.py\", # comment\n  'b.py']\nsearch-paths = \"lib\"\n[other]\nentry-points=['no']\n";
        let got = tool_section(text);
        assert_eq!(
            got,
            vec![
                (
                    "entry-points".to_string(),
                    vec!["src/main.py".to_string(), "b.py".to_string()]
                ),
                ("search-paths".to_string(), vec!["lib".to_string()]),
            ]
        );
    }

    #[test]
    fn finds_target_definitions() {
        assert!(defines_target(
            "import os\ndef target(*args):\n    return f, None\n"
        ));
        assert!(!defines_target("    def target(self):\n"));
    }
}
