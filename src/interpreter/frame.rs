//! Frames (seed 003, "Frame classes"): the state of one running code object.

use crate::compiler::CodeObject;
use crate::objspace::object::ObjId;
use std::rc::Rc;

/// An entry of the block stack: an exception handler (see `Instr::SetupExcept`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handler {
    pub target: u32,
    /// Value stack depth to cut back to when the handler is entered.
    pub depth: u32,
}

/// The part of a frame that changes while it runs: what the flow space records at block
/// boundaries and merges at join points.
#[derive(Debug, PartialEq)]
pub struct FrameState<V> {
    /// Fast locals, indexed like `co_varnames`; `None` when unbound.
    pub locals: Vec<Option<V>>,
    pub stack: Vec<V>,
    pub blocks: Vec<Handler>,
    /// Index of the next instruction.
    pub pc: u32,
}

/// `clone_from` reuses the vectors' buffers (the derived one would not): the flow space
/// copies the state at the start of every instruction.
impl<V: Clone> Clone for FrameState<V> {
    fn clone(&self) -> Self {
        FrameState {
            locals: self.locals.clone(),
            stack: self.stack.clone(),
            blocks: self.blocks.clone(),
            pc: self.pc,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.locals.clone_from(&source.locals);
        self.stack.clone_from(&source.stack);
        self.blocks.clone_from(&source.blocks);
        self.pc = source.pc;
    }
}

/// One activation of a code object.
#[derive(Clone, Debug)]
pub struct Frame<V> {
    pub code: Rc<CodeObject>,
    /// The module whose namespace is the globals.
    pub globals: ObjId,
    /// Namespace of `LoadName`/`StoreName` (module or class-body dict); `None` in functions.
    pub namespace: Option<ObjId>,
    /// Cell objects for `cellvars ++ freevars`.
    pub cells: Vec<V>,
    pub state: FrameState<V>,
}

impl<V: Clone> Frame<V> {
    pub fn new(code: Rc<CodeObject>, globals: ObjId, locals: Vec<Option<V>>) -> Frame<V> {
        let mut locals = locals;
        locals.resize(code.nlocals(), None);
        Frame {
            code,
            globals,
            namespace: None,
            cells: Vec::new(),
            state: FrameState {
                locals,
                stack: Vec::new(),
                blocks: Vec::new(),
                pc: 0,
            },
        }
    }

    pub fn push(&mut self, v: V) {
        self.state.stack.push(v);
    }
    pub fn pop(&mut self) -> V {
        self.state
            .stack
            .pop()
            .expect("value stack underflow (compiler bug)")
    }
    pub fn top(&self) -> &V {
        self.state
            .stack
            .last()
            .expect("value stack underflow (compiler bug)")
    }
    pub fn popn(&mut self, n: usize) -> Vec<V> {
        let at = self.state.stack.len() - n;
        self.state.stack.split_off(at)
    }
    /// A copy of the state with `pc` set (successor states of forks).
    pub fn state_at(&self, pc: u32) -> FrameState<V> {
        let mut s = self.state.clone();
        s.pc = pc;
        s
    }
}
