//! rpy-lsp: a language server, linter and compiler for RPython.
//!
//! The crate is laid out by pipeline stage; a program flows through it in this order:
//! `syntax` → `compiler` → `interpreter` over `objspace` (import time) → `interpreter`
//! over `flowspace` (flow graphs) → `annotator` → front ends (`cli`, `lsp`).
//! `diagnostics` and `builtins` (the registry of built-in functions and methods) are
//! shared by every stage; `sandbox` says what the analysed program may see of the machine.

pub mod annotator;
pub mod biglong;
pub mod builtins;
pub mod cachedir;
pub mod cli;
pub mod compiler;
pub mod diagnostics;
pub mod engine;
pub mod fasthash;
pub mod flowspace;
pub mod genc;
pub mod generations;
pub mod interpreter;
pub mod libm;
pub mod llinterp;
pub mod lltypesystem;
pub mod lsp;
pub mod objspace;
pub mod platform;
pub mod rtyper;
pub mod sandbox;
pub mod syntax;
