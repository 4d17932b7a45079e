//! The low-level type system (seed 000, "Low-Level Types"): what the RTyper translates
//! annotations into and every later stage works on. `lltype`: the types, interned in an
//! arena; `lloperation`: the table of low-level operations; `heap`: the runnable model of
//! the types (malloc, fields, items), shared by prebuilt constants and the LLInterpreter;
//! `runtime`: the runtime functions; `libc`: the C functions programs declare; `int128`:
//! the 128-bit integer's operations and constants.

pub mod eci;
pub mod heap;
pub mod int128;
pub mod libc;
pub mod lloperation;
pub mod lltype;
pub mod runtime;
pub mod symbol;

pub use heap::{LlHeap, LlPtr, LlValue, Offset};
pub use lloperation::{CanRaise, LlOp, ResultRule};
pub use lltype::{LlType, LlTypes, TypeDef};
pub use symbol::Sym;
