//! The flow space: code objects of the functions reachable from the entry point → flow
//! graphs (the flow model of seed 001), with flow-level restrictions as diagnostics.

mod constfold;
mod flowcontext;
mod joins;
pub mod model;
pub mod render;
pub mod simplify;
mod space;
pub mod transform;
pub mod verify;

pub use flowcontext::{build_flow, is_sys_module, SYS_CONSTANTS};
pub use model::*;
pub use verify::{verify, verify_low_level};
