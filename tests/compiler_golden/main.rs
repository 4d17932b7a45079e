//! Golden disassembly of representative snippets (Python 2 syntax, through
//! `syntax::parse_module`). Every snippet is also checked with `verify_stack_depth`.

mod control_flow;
mod definitions;
mod expressions;

use rpy_lsp::compiler::{compile_module, disassemble, verify_stack_depth};
use rpy_lsp::syntax::{parse_module, FileId};

fn golden(src: &str, expected: &str) {
    let module = parse_module(FileId(0), src).expect("snippet parses");
    let compiled = compile_module(&module, "<test>", src);
    assert!(
        compiled.diagnostics.is_empty(),
        "unexpected diagnostics: {:?}",
        compiled.diagnostics
    );
    verify_stack_depth(&compiled.code).expect("stack discipline");
    let got = disassemble(&compiled.code);
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    if got.trim_end() != expected.trim_end() {
        panic!("disassembly differs\n--- got ---\n{got}\n--- expected ---\n{expected}");
    }
}
