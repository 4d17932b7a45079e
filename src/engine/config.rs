//! Where a workspace's programs are: explicit entry points and search paths from
//! `[tool.rpy-lsp]` in pyproject.toml, or every file that defines `def target(`.

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    pub root: PathBuf,
    pub search_paths: Vec<PathBuf>,
    /// Target files; empty means "find them" (files defining `def target(`).
    pub entry_points: Vec<PathBuf>,
    /// Environment variables import-time code may see (`environment = [...]`); it sees no
    /// other.
    pub environment: Vec<String>,
    /// Entries of pyproject.toml refused (path outside the workspace), with why.
    pub refused: Vec<String>,
    /// What import-time code may see; `None`: the sandbox of [`EngineConfig::policy`]
    /// (commands that run the program on purpose may pass `Policy::unrestricted()`).
    pub policy_override: Option<crate::sandbox::Policy>,
}

impl EngineConfig {
    /// Reads `[tool.rpy-lsp]` (`entry-points`, `search-paths`, relative to the root) from
    /// `root/pyproject.toml` when there is one.
    pub fn discover(root: &Path) -> EngineConfig {
        let mut config = EngineConfig {
            root: root.to_path_buf(),
            ..Default::default()
        };
        if let Ok(text) = crate::sandbox::read_source(&root.join("pyproject.toml")) {
            for (key, values) in tool_section(&text) {
                let paths: Vec<PathBuf> = values.iter().map(|v| root.join(v)).collect();
                match key.as_str() {
                    "entry-points" | "entry_points" => config.entry_points = paths,
                    // An untrusted pyproject.toml must not widen what import-time code reads.
                    "search-paths" | "search_paths" => {
                        let (inside, outside): (Vec<PathBuf>, Vec<PathBuf>) =
                            paths.into_iter().partition(|p| config.contains(p));
                        for p in outside {
                            config.refused.push(format!(
                                "search path {} is outside the workspace; it is not searched",
                                p.display()
                            ));
                        }
                        config.search_paths = inside;
                    }
                    "environment" => config.environment = values,
                    _ => {}
                }
            }
        }
        config
    }

    /// Whether `path` is inside the workspace root (symlinks and `..` resolved).
    pub fn contains(&self, path: &Path) -> bool {
        let root = self.root.canonicalize().unwrap_or(self.root.clone());
        match path.canonicalize() {
            Ok(p) => p.starts_with(&root),
            // Not there (yet): judge by its components.
            Err(_) => {
                !path
                    .components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
                    && path.starts_with(&self.root)
            }
        }
    }

    /// What import-time code of this workspace may see: files of the root and the search
    /// paths, the configured environment variables, a fixed clock, cwd and pid.
    pub fn policy(&self) -> crate::sandbox::Policy {
        if let Some(p) = &self.policy_override {
            return p.clone();
        }
        let mut roots = vec![self.root.clone()];
        roots.extend(self.search_paths.iter().cloned());
        crate::sandbox::Policy::sandboxed(roots, &self.environment, Some(self.root.clone()))
    }

    /// The target files of the workspace.
    pub fn targets(&self) -> Vec<PathBuf> {
        if !self.entry_points.is_empty() {
            // The same file named twice (or through a symlink) is one target.
            let mut seen = std::collections::HashSet::new();
            return self
                .entry_points
                .iter()
                .filter(|p| seen.insert(p.canonicalize().unwrap_or_else(|_| (*p).clone())))
                .cloned()
                .collect();
        }
        let mut found = Vec::new();
        for file in python_files(&self.root) {
            if let Ok(text) = crate::sandbox::read_source(&file) {
                if defines_target(&text) {
                    found.push(file);
                }
            }
        }
        found
    }
}

/// Whether module text defines a top-level `target` function (lines end at `\n`, `\r\n` or
/// a lone `\r`).
pub fn defines_target(text: &str) -> bool {
    text.split(['\n', '\r'])
        .any(|l| l.starts_with("def target(") || l.starts_with("def target ("))
}

/// Every `.py` file under `root` (skipping hidden directories, virtualenvs, build output and
/// what `.gitignore` excludes; bounded, see [`crate::sandbox::walk_python_files`]), sorted.
/// `root` itself may be a file.
pub fn python_files(root: &Path) -> Vec<PathBuf> {
    crate::sandbox::walk_python_files(root).0
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
    fn policy_is_sandboxed_unless_overridden() {
        let mut config = EngineConfig {
            root: PathBuf::from("/nonexistent/ws"),
            environment: vec!["RPY_SURELY_UNSET".into()],
            ..Default::default()
        };
        let p = config.policy();
        assert_eq!(p.environment, Some(vec![]));
        assert_eq!(p.clock, Some(crate::sandbox::FIXED_TIME));
        assert!(!p.may_read(Path::new("/etc/passwd")));
        config.policy_override = Some(crate::sandbox::Policy::unrestricted());
        assert_eq!(config.policy().environment, None);
    }

    #[test]
    fn search_paths_outside_the_workspace_are_refused() {
        let dir = std::env::temp_dir().join(format!("rpy-config-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        std::fs::write(
            dir.join("pyproject.toml"),
            "[tool.rpy-lsp]\nsearch-paths = [\"lib\", \"/usr\", \"../x\"]\n",
        )
        .unwrap();
        let config = EngineConfig::discover(&dir);
        assert_eq!(config.search_paths, vec![dir.join("lib")]);
        assert_eq!(config.refused.len(), 2, "{:?}", config.refused);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn finds_target_definitions() {
        assert!(defines_target(
            "import os\ndef target(*args):\n    return f, None\n"
        ));
        assert!(!defines_target("    def target(self):\n"));
        assert!(defines_target("import os\rdef target(*args):\r    pass\r"));
    }
}
