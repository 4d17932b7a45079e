//! Where a workspace's programs are, and which rules apply: `[tool.rpy-lsp]` of the
//! project's pyproject.toml (found by walking up from the checked path, as ruff does), or
//! every file that defines `def target(`.

use serde::Deserialize;
use std::collections::BTreeMap;
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
    /// The pyproject.toml read, if any.
    pub pyproject: Option<PathBuf>,
    /// That pyproject.toml has a `[tool.rpy-lsp]` section (the project declares RPython).
    pub tool_section: bool,
    /// Analyse only a workspace that shows RPython (see [`super::detect`]); elsewhere the
    /// analysis is empty. The language server sets it: editors open every Python project.
    pub only_rpython: bool,
    /// Open buffers that do not parse are analysed with the lines of their syntax error
    /// blanked (see [`super::repair`]), reporting only that error in them. The language
    /// server sets it: completion is asked while the user types.
    pub repair_buffers: bool,
    /// After a clean annotation, also run the RTyper and report what `run` and `build`
    /// could not translate (RPY301 warnings). The CLI's `check` sets it (unless
    /// `--no-translate`); the language server does not (edit latency).
    pub translate: bool,
    /// Which rules are reported (the CLI applies it; the language server reports all).
    pub rules: RuleSelection,
    /// Entries of pyproject.toml refused (path outside the workspace), with why.
    pub refused: Vec<String>,
    /// What import-time code may see; `None`: the sandbox of [`EngineConfig::policy`]
    /// (commands that run the program on purpose may pass `Policy::unrestricted()`).
    pub policy_override: Option<crate::sandbox::Policy>,
    /// CPU time import-time code may take (`None`: the default, which keeps the language
    /// server responsive); the CLI's `--import-budget`.
    pub import_budget: Option<std::time::Duration>,
}

/// Which rules are reported: `select` (codes, prefixes such as `RPY2`, or rule names; empty:
/// all), minus `ignore`, minus the `per-file-ignores` of the globs (relative to the project
/// root) a file matches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleSelection {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub per_file_ignores: Vec<(String, Vec<String>)>,
}

impl RuleSelection {
    /// Whether `code` is reported for a file at `relative` (to the project root).
    pub fn enabled(&self, code: &str, relative: &str) -> bool {
        let selected =
            self.select.is_empty() || self.select.iter().any(|s| selector_matches(s, code));
        if !selected || self.ignore.iter().any(|s| selector_matches(s, code)) {
            return false;
        }
        !self.per_file_ignores.iter().any(|(glob, codes)| {
            glob_matches(glob, relative) && codes.iter().any(|s| selector_matches(s, code))
        })
    }

    /// Every selector that names no rule (not a code, a prefix of one, nor a name).
    pub fn unknown_selectors(&self) -> Vec<String> {
        let per_file = self.per_file_ignores.iter().flat_map(|(_, c)| c.iter());
        self.select
            .iter()
            .chain(self.ignore.iter())
            .chain(per_file)
            .filter(|s| {
                !crate::diagnostics::RULES
                    .iter()
                    .any(|r| selector_matches(s, r.code))
            })
            .cloned()
            .collect()
    }

    /// The complaint about the selectors that name no rule, or `None` when every one does.
    pub fn unknown_selectors_error(&self) -> Option<String> {
        let unknown = self.unknown_selectors();
        if unknown.is_empty() {
            return None;
        }
        Some(format!(
            "unknown rule selector{} {} (see `rpy-lsp rules`)",
            if unknown.len() == 1 { "" } else { "s" },
            unknown
                .iter()
                .map(|u| format!("`{u}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// A selector: `ALL`, a code or a prefix of codes (`RPY2`, any case), or a rule name.
pub fn selector_matches(selector: &str, code: &str) -> bool {
    let s = selector.trim();
    if s.eq_ignore_ascii_case("ALL") {
        return true;
    }
    if !s.is_empty()
        && code.len() >= s.len()
        && code.is_char_boundary(s.len())
        && code[..s.len()].eq_ignore_ascii_case(s)
    {
        return true;
    }
    crate::diagnostics::rules::lookup(code).is_some_and(|r| r.name.eq_ignore_ascii_case(s))
}

/// Whether `path` (relative, `/`-separated) matches a per-file-ignores pattern: a glob
/// (`tests/**`, `*_test.py`), a file name or a directory prefix.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_start_matches("./");
    if path == pattern || path.starts_with(&format!("{}/", pattern.trim_end_matches('/'))) {
        return true;
    }
    let glob = globset::GlobBuilder::new(pattern)
        .literal_separator(false)
        .build();
    match glob {
        Ok(g) => {
            let m = g.compile_matcher();
            m.is_match(path)
                || (!pattern.contains('/')
                    && path.rsplit('/').next().is_some_and(|n| m.is_match(n)))
        }
        Err(_) => false,
    }
}

/// The pyproject.toml that configures `start` (a file or directory): the nearest one in it
/// or a parent directory.
pub fn find_pyproject(start: &Path) -> Option<PathBuf> {
    let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
    let dir = if start.is_dir() {
        start.as_path()
    } else {
        start.parent()?
    };
    dir.ancestors()
        .map(|d| d.join("pyproject.toml"))
        .find(|p| p.is_file())
}

#[derive(Deserialize)]
struct PyProject {
    tool: Option<ToolTable>,
}

#[derive(Deserialize)]
struct ToolTable {
    #[serde(rename = "rpy-lsp")]
    rpy_lsp: Option<ToolSection>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ToolSection {
    #[serde(alias = "entry_points")]
    entry_points: Option<OneOrMany>,
    #[serde(alias = "search_paths")]
    search_paths: Option<OneOrMany>,
    environment: Option<Vec<String>>,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    #[serde(alias = "per_file_ignores")]
    per_file_ignores: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(untagged, expecting = "a string or an array of strings")]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

impl EngineConfig {
    /// Reads `[tool.rpy-lsp]` from `root/pyproject.toml` when there is one. A malformed
    /// file is not fatal here (the language server keeps serving): the error becomes a
    /// `refused` note; the CLI uses [`EngineConfig::load`] and stops.
    pub fn discover(root: &Path) -> EngineConfig {
        match EngineConfig::load(root) {
            Ok(c) => c,
            Err(why) => EngineConfig {
                root: root.to_path_buf(),
                refused: vec![why],
                ..Default::default()
            },
        }
    }

    /// Reads `[tool.rpy-lsp]` (`entry-points`, `search-paths`, `environment`, `select`,
    /// `ignore`, `per-file-ignores`; paths relative to the root) from `root/pyproject.toml`.
    /// Malformed TOML, unknown keys and wrong types are errors naming the file and line.
    pub fn load(root: &Path) -> Result<EngineConfig, String> {
        let mut config = EngineConfig {
            root: root.to_path_buf(),
            ..Default::default()
        };
        let file = root.join("pyproject.toml");
        if !file.is_file() {
            return Ok(config);
        }
        let text = crate::sandbox::read_source(&file)
            .map_err(|e| format!("{}: cannot be read: {e}", file.display()))?;
        let section = parse_tool_section(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        config.pyproject = Some(file.clone());
        let Some(section) = section else {
            return Ok(config);
        };
        config.tool_section = true;
        if let Some(v) = section.entry_points {
            config.entry_points = v.into_vec().iter().map(|v| root.join(v)).collect();
        }
        if let Some(v) = section.search_paths {
            let paths: Vec<PathBuf> = v.into_vec().iter().map(|v| root.join(v)).collect();
            // An untrusted pyproject.toml must not widen what import-time code reads.
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
        config.environment = section.environment.unwrap_or_default();
        config.rules = RuleSelection {
            select: section.select.unwrap_or_default(),
            ignore: section.ignore.unwrap_or_default(),
            per_file_ignores: section
                .per_file_ignores
                .unwrap_or_default()
                .into_iter()
                .collect(),
        };
        if let Some(e) = config.rules.unknown_selectors_error() {
            return Err(format!("{}: [tool.rpy-lsp]: {e}", file.display()));
        }
        Ok(config)
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
            let mut seen = crate::fasthash::HashSet::default();
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

/// `[tool.rpy-lsp]` of a pyproject.toml text (`None`: there is none). Errors say the line.
fn parse_tool_section(text: &str) -> Result<Option<ToolSection>, String> {
    let parsed: PyProject = toml::from_str(text).map_err(|e| {
        let msg = e.message().to_string();
        match e.span() {
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                format!("line {line}: {msg}")
            }
            None => msg,
        }
    })?;
    Ok(parsed.tool.and_then(|t| t.rpy_lsp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tool_section() {
        let text = "[project]\nname='x'\n[tool.rpy-lsp]\nentry-points = [\n  \"src/main.py\", # comment\n  'b.py']\nsearch-paths = \"lib\"\n[other]\nentry-points=['no']\n";
        let got = parse_tool_section(text).unwrap().unwrap();
        assert_eq!(
            got.entry_points.unwrap().into_vec(),
            vec!["src/main.py".to_string(), "b.py".to_string()]
        );
        assert_eq!(
            got.search_paths.unwrap().into_vec(),
            vec!["lib".to_string()]
        );
        assert!(parse_tool_section("[project]\nname='x'\n")
            .unwrap()
            .is_none());
        let err = parse_tool_section("[tool.rpy-lsp]\nselect = ['RPY2']\nfrobnicate = 1\n")
            .err()
            .unwrap();
        assert!(
            err.starts_with("line 3:") && err.contains("frobnicate"),
            "{err}"
        );
        let err = parse_tool_section("[tool.rpy-lsp]\nselect = 'RPY2'\n")
            .err()
            .unwrap();
        assert!(err.starts_with("line 2:"), "{err}");
        let err = parse_tool_section("[tool.rpy-lsp\nselect = 1\n")
            .err()
            .unwrap();
        assert!(err.starts_with("line 1:"), "{err}");
    }

    #[test]
    fn rule_selection() {
        let sel = RuleSelection {
            select: vec!["RPY2".into(), "closure".into()],
            ignore: vec!["rpy202".into()],
            per_file_ignores: vec![("tests/**".into(), vec!["RPY201".into()])],
        };
        assert!(sel.enabled("RPY201", "src/a.py"));
        assert!(sel.enabled("RPY101", "src/a.py"));
        assert!(!sel.enabled("RPY202", "src/a.py"));
        assert!(!sel.enabled("RPY102", "src/a.py"));
        assert!(!sel.enabled("RPY201", "tests/x/a.py"));
        assert!(sel.unknown_selectors().is_empty());
        assert!(glob_matches("*_test.py", "src/a_test.py"));
        assert!(glob_matches("src", "src/a.py"));
        assert!(!glob_matches("src", "srcx/a.py"));
        let bad = RuleSelection {
            select: vec!["XYZ".into()],
            ..Default::default()
        };
        assert_eq!(bad.unknown_selectors(), vec!["XYZ".to_string()]);
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
