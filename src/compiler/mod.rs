//! Compiler: syntax tree (`syntax::ParsedModule`) → code objects (`bytecode::CodeObject`).
//!
//! [`compile_module`] runs a symbol-table pass (`symtable`) and then code generation
//! (`codegen`) with Python 2.7 semantics; [`disassemble`] dumps code objects as stable text
//! and [`verify_stack_depth`] checks the stack discipline of compiled code.

pub mod bytecode;
pub mod cache;
mod codegen;
pub mod disasm;
pub mod serial;
mod strings;
mod symtable;
pub mod ustr;
pub mod verify;

pub use bytecode::{BinOp, CmpOp, CodeObject, Const, Instr, UnOp};
pub use disasm::disassemble;
pub use ustr::UStr;
pub use verify::verify_stack_depth;

use crate::diagnostics::Diagnostic;
use crate::syntax::{ast, FileId, ParsedModule};
use std::rc::Rc;

/// The result of compiling one module: its code object (always produced, with unsupported
/// constructs replaced by `raise SystemError(...)`) and the diagnostics found on the way.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub code: Rc<CodeObject>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Compiles a parsed module. `filename` becomes `co_filename`; `text` is the module's
/// original source text (the AST's ranges index into it). Never panics.
pub fn compile_module(module: &ParsedModule, filename: &str, text: &str) -> Compiled {
    compile_body(
        module.file,
        &module.body,
        module.unicode_literals,
        filename,
        text,
    )
}

/// Compiles a module body given as statements (for callers that built the AST otherwise).
pub fn compile_body(
    file: FileId,
    body: &[ast::Stmt],
    unicode_literals: bool,
    filename: &str,
    text: &str,
) -> Compiled {
    let mut gen = codegen::Codegen::new(file, filename, text, body, unicode_literals);
    let code = gen.compile_module(body);
    Compiled {
        code,
        diagnostics: gen.diagnostics,
    }
}
