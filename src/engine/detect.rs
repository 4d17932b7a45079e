//! Whether a workspace is an RPython project at all. Editors start the language server for
//! every Python project; one without RPython must get no diagnostics (its Python 3 code
//! would be full of false errors). Takes a workspace's configuration and its open buffers;
//! gives the first evidence found, or none.
//!
//! The evidence, cheapest first: a `[tool.rpy-lsp]` section in pyproject.toml, entry points
//! named in the settings, a file defining a top-level `def target(`, a file importing
//! `rpython`. The VS Code extension applies the same three file rules before it starts the
//! server (editors/vscode/src/activation.ts); this is the authority.

use super::config::{self, EngineConfig};
use crate::fasthash::HashMap;
use std::path::PathBuf;

/// Why a workspace counts as RPython.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// `[tool.rpy-lsp]` in the project's pyproject.toml.
    ToolSection,
    /// Entry points given by the settings or the configuration.
    EntryPoints,
    /// A file defining `def target(`.
    Target(PathBuf),
    /// A file importing `rpython` (`import rpython...`, `from rpython... import`).
    Import(PathBuf),
}

/// Whether module text imports from the `rpython` package: a line (after indentation)
/// `import rpython`, `import rpython.x`, `from rpython import`, `from rpython.x import`.
pub fn imports_rpython(text: &str) -> bool {
    text.split(['\n', '\r']).any(|line| {
        let l = line.trim_start();
        let rest = if let Some(r) = l.strip_prefix("import ") {
            r
        } else if let Some(r) = l.strip_prefix("from ") {
            r
        } else {
            return false;
        };
        let rest = rest.trim_start();
        rest.strip_prefix("rpython").is_some_and(|after| {
            after.is_empty() || after.starts_with(['.', ' ', '\t', ',', ';', '\\'])
        })
    })
}

/// The first evidence that the workspace is RPython; open buffers count with their text.
pub fn evidence(config: &EngineConfig, overlays: &HashMap<PathBuf, String>) -> Option<Evidence> {
    if config.tool_section || malformed_tool_section(config) {
        return Some(Evidence::ToolSection);
    }
    if !config.entry_points.is_empty() {
        return Some(Evidence::EntryPoints);
    }
    let mut buffers: Vec<(&PathBuf, &String)> = overlays
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "py"))
        .collect();
    buffers.sort();
    let mut importer = None;
    for (path, text) in buffers {
        if config::defines_target(text) {
            return Some(Evidence::Target(path.clone()));
        }
        if importer.is_none() && imports_rpython(text) {
            importer = Some(path.clone());
        }
    }
    for path in config::python_files(&config.root) {
        if overlays.contains_key(&path) {
            continue;
        }
        let Ok(text) = crate::sandbox::read_source(&path) else {
            continue;
        };
        if config::defines_target(&text) {
            return Some(Evidence::Target(path));
        }
        if importer.is_none() && imports_rpython(&text) {
            importer = Some(path);
        }
    }
    importer.map(Evidence::Import)
}

/// A pyproject.toml that could not be read but names `[tool.rpy-lsp]`: the user meant to
/// configure rpy-lsp and must see why it failed.
fn malformed_tool_section(config: &EngineConfig) -> bool {
    if config.refused.is_empty() {
        return false;
    }
    crate::sandbox::read_source(&config.root.join("pyproject.toml"))
        .is_ok_and(|t| t.contains("[tool.rpy-lsp"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_rpython_imports() {
        assert!(imports_rpython("from rpython.rlib import jit\n"));
        assert!(imports_rpython(
            "import os\n    import rpython.rtyper.lltypesystem\n"
        ));
        assert!(imports_rpython("from rpython import conftest"));
        assert!(imports_rpython("import rpython"));
        assert!(!imports_rpython(
            "import rpythonic\nfrom rpython_utils import x\n"
        ));
        assert!(!imports_rpython(
            "# from rpython.rlib import jit\nx = 'import rpython'\n"
        ));
    }

    /// The cases the VS Code extension is tested on too (editors/vscode/test).
    #[test]
    fn shared_detection_cases() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../fixtures/editor/detection_cases.json"))
                .unwrap();
        for case in cases["python"].as_array().unwrap() {
            let text = case["text"].as_str().unwrap();
            assert_eq!(
                config::defines_target(text),
                case["defines_target"].as_bool().unwrap(),
                "{text:?}"
            );
            assert_eq!(
                imports_rpython(text),
                case["imports_rpython"].as_bool().unwrap(),
                "{text:?}"
            );
        }
        let dir = std::env::temp_dir().join(format!("rpy-detect-toml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for case in cases["pyproject"].as_array().unwrap() {
            let text = case["text"].as_str().unwrap();
            std::fs::write(dir.join("pyproject.toml"), text).unwrap();
            let config = EngineConfig::discover(&dir);
            assert_eq!(
                evidence(&config, &HashMap::default()) == Some(Evidence::ToolSection),
                case["declares"].as_bool().unwrap(),
                "{text:?} {:?}",
                config.refused
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn evidence_in_buffers_and_on_disk() {
        let dir = std::env::temp_dir().join(format!("rpy-detect-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("app.py"), "import os\nprint(f'{os.sep}')\n").unwrap();
        let config = EngineConfig {
            root: dir.clone(),
            ..Default::default()
        };
        assert_eq!(evidence(&config, &HashMap::default()), None);
        // An unsaved buffer that starts importing rpython makes it an RPython workspace.
        let buffer = dir.join("app.py");
        let overlays =
            HashMap::from_iter([(buffer.clone(), "from rpython.rlib import jit\n".into())]);
        assert_eq!(evidence(&config, &overlays), Some(Evidence::Import(buffer)));
        std::fs::write(dir.join("t.py"), "def target(*args):\n    return None\n").unwrap();
        assert_eq!(
            evidence(&config, &HashMap::default()),
            Some(Evidence::Target(dir.join("t.py")))
        );
        std::fs::write(dir.join("pyproject.toml"), "[tool.rpy-lsp\n").unwrap();
        let config = EngineConfig::discover(&dir);
        assert_eq!(
            evidence(&config, &HashMap::default()),
            Some(Evidence::ToolSection)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
