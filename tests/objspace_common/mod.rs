//! Helpers shared by the objspace tests.
#![allow(dead_code)]

use rpy_lsp::objspace::object::{ObjId, Value};
use rpy_lsp::objspace::{LoaderConfig, ObjSpace};
use std::path::{Path, PathBuf};

/// Imports `src` as the target file `main.py` (an editor overlay, nothing on disk).
pub fn run(src: &str) -> (ObjSpace, ObjId) {
    let mut config = LoaderConfig::default();
    let path = PathBuf::from("/virtual/prog/main.py");
    config.overlays.insert(path.clone(), src.to_string());
    let mut space = ObjSpace::new(config);
    let m = space.import_main(&path).expect("module");
    (space, m)
}

/// Imports `src` and asserts there is no diagnostic.
pub fn run_ok(src: &str) -> (ObjSpace, ObjId) {
    let (sp, m) = run(src);
    let diags = describe(&sp);
    assert!(diags.is_empty(), "unexpected diagnostics: {diags:#?}");
    (sp, m)
}

/// `repr()` of a module attribute.
pub fn attr(sp: &mut ObjSpace, m: ObjId, name: &str) -> String {
    let v = sp
        .module_attr(m, name)
        .unwrap_or_else(|| panic!("no attribute {name}"));
    repr(sp, v)
}

pub fn repr(sp: &mut ObjSpace, v: Value) -> String {
    let r = sp.repr_value(v).expect("repr");
    String::from_utf8_lossy(&r).into_owned()
}

/// Diagnostics as `CODE line: message` (1-based lines).
pub fn describe(sp: &ObjSpace) -> Vec<String> {
    sp.diagnostics
        .iter()
        .map(|d| {
            let f = sp.sources.get(d.span.file);
            let lc = f.line_col(d.span.start);
            format!(
                "{} {}:{}: {}",
                d.code,
                f.path.file_name().unwrap().to_string_lossy(),
                lc.line + 1,
                d.message
            )
        })
        .collect()
}

/// A temporary directory with files (removed on drop).
pub struct TempTree {
    pub root: PathBuf,
}

impl TempTree {
    pub fn new(tag: &str, files: &[(&str, &str)]) -> TempTree {
        let root = std::env::temp_dir().join(format!("rpy-objspace-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (rel, text) in files {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
        }
        TempTree { root }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

impl Drop for TempTree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Imports a file of a temporary tree.
pub fn run_tree(tree: &TempTree, main: &str) -> (ObjSpace, Option<ObjId>) {
    let mut sp = ObjSpace::new(LoaderConfig::default());
    let m = sp.import_main(&tree.path(main)).ok();
    (sp, m)
}

pub fn exists(p: &Path) -> bool {
    p.exists()
}
