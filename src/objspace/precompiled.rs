//! The bundled models as `build.rs` compiled them (`compiler::serial`): loading a model
//! reads its code object instead of parsing and compiling its source, which was an eighth
//! of a `check`. A model is taken only for the very text it was compiled from (with
//! `RPY_LSP_BUNDLED_DIR`, an edited model is compiled at run time as any module).

use crate::compiler::{serial, Compiled};
use crate::syntax::FileId;
use std::sync::OnceLock;

static COMPILED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bundled_models.bin"));

fn entries() -> &'static [serial::Entry<'static>] {
    static ENTRIES: OnceLock<Vec<serial::Entry<'static>>> = OnceLock::new();
    ENTRIES.get_or_init(|| serial::entries(COMPILED).unwrap_or_default())
}

/// The compiled bundled model at `path` (under `<bundled>/`) when `text` is the text it was
/// compiled from, its spans in `file`.
pub fn lookup(path: &str, text: &str, file: FileId) -> Option<Compiled> {
    let entry = entries().iter().find(|e| e.path == path)?;
    if entry.text_hash != serial::text_hash(text) {
        return None;
    }
    let code = serial::read_module(entry.module, file)?;
    Some(Compiled {
        code,
        diagnostics: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objspace::bundled::BUNDLED;

    #[test]
    fn every_model_reads_back_as_compiling_it_gives() {
        let file = FileId(5);
        let mut read = 0;
        for m in BUNDLED {
            let parsed = crate::syntax::parse_module(file, m.source).expect("a model parses");
            let filename = format!("<bundled>/{}", m.path);
            let compiled = crate::compiler::compile_module(&parsed, &filename, m.source);
            match lookup(m.path, m.source, file) {
                Some(p) => {
                    assert_eq!(p.code, compiled.code, "{}", m.path);
                    read += 1;
                }
                // left out at build time: only a model whose compiling reports something
                None => assert!(!compiled.diagnostics.is_empty(), "{} not compiled", m.path),
            }
        }
        assert!(read > 0);
    }

    #[test]
    fn another_text_is_compiled_at_run_time() {
        let m = &BUNDLED[0];
        assert!(lookup(m.path, m.source, FileId(1)).is_some());
        let edited = format!("{}\n", m.source);
        assert!(lookup(m.path, &edited, FileId(1)).is_none());
        assert!(lookup("no/such.py", m.source, FileId(1)).is_none());
    }
}
