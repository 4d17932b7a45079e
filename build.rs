//! Compiles the bundled models (`src/objspace/bundled/**/*.py`, the one source of truth) to
//! code objects at build time, with the crate's own parser and compiler (their modules are
//! included below), and writes them to `$OUT_DIR/bundled_models.bin` in the form of
//! `compiler::serial`; `objspace::precompiled` reads them back instead of parsing and
//! compiling the models on every run. A model that does not compile cleanly is left out
//! (compiled at run time, with its diagnostics).

// The included modules are the library's; the build script uses a part of them.
#![allow(dead_code, unused_imports, unused_macros)]

#[path = "src/biglong.rs"]
mod biglong;
#[path = "src/compiler/mod.rs"]
mod compiler;
#[path = "src/diagnostics/mod.rs"]
mod diagnostics;
#[path = "src/fasthash.rs"]
mod fasthash;
#[path = "src/generations.rs"]
mod generations;
#[path = "src/syntax/mod.rs"]
mod syntax;

use std::path::{Path, PathBuf};

const MODELS: &str = "src/objspace/bundled";

/// The file id the models are compiled as (any id but the default one, so that a span that
/// is not in the model's own file cannot pass for one).
const FILE: syntax::FileId = syntax::FileId(1);

fn main() {
    println!("cargo:rerun-if-changed={MODELS}");
    println!("cargo:rerun-if-changed=build.rs");
    let mut files = Vec::new();
    collect(Path::new(MODELS), &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(MODELS)
            .expect("under the models' directory")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let text = std::fs::read_to_string(path).expect("a bundled model is UTF-8");
        let Ok(parsed) = syntax::parse_module(FILE, &text) else {
            continue;
        };
        let compiled = compiler::compile_module(&parsed, &format!("<bundled>/{rel}"), &text);
        if !compiled.diagnostics.is_empty() {
            continue;
        }
        let mut module = Vec::new();
        match compiler::serial::write_module(&compiled.code, FILE, &mut module) {
            Ok(()) => compiler::serial::write_entry(&mut out, &rel, &text, &module),
            Err(e) => println!(
                "cargo:warning=bundled model {rel} left to run time: {}",
                e.0
            ),
        }
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(dest.join("bundled_models.bin"), out).expect("writing the compiled models");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("the bundled models' directory");
    for e in entries {
        let path = e.expect("a directory entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|x| x == "py") {
            out.push(path);
        }
    }
}
