//! The frame interpreter (seed 003): one bytecode loop with a value stack and a block stack,
//! generic over an object space. Over `objspace` it evaluates modules at import time; over
//! `flowspace` it builds flow graphs.

pub mod arguments;
pub mod eval;
pub mod frame;
pub mod operation;
mod skipped_loop;
pub mod space;

pub use eval::eval;
pub use frame::{Frame, FrameState, Handler};
pub use operation::Op;
pub use space::{Branch, CallArgs, ConcreteSpace, Fork, IterNext, OpResult, Space, Unwind};
