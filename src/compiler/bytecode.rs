//! Code objects: our compact bytecode (seed 003, "Code Class").
//!
//! A `CodeObject` is what the compiler gives and what the one frame interpreter runs, over the
//! concrete object space at import time and over the flow space to build flow graphs.
//! Instructions are a Rust enum with inline operands; jump targets are instruction indexes.
//!
//! Control flow is kept simple on purpose, so that frame states are easy to merge in the flow
//! space: the block stack only holds exception handlers (`SetupExcept`). Loops, `break` and
//! `continue` compile to plain jumps (with explicit `PopTop` of the loop iterator), and
//! `finally` bodies are duplicated by the compiler on every exit path (normal, `return`,
//! `break`, `continue`, and a catch-all handler that re-raises).

use crate::syntax::Span;
use std::rc::Rc;

/// Values that can appear in `co_consts`.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    None,
    Bool(bool),
    Int(i64),
    /// Integer literal that does not fit in 64 bits (Python 2 long).
    Long(i128),
    /// A long CPython's optimizer folds out of constants (`1 << 999`) beyond 128 bits, the
    /// limit of rpy-lsp's integers elsewhere (see [`crate::biglong`]).
    BigLong(Rc<crate::biglong::BigInt>),
    Float(f64),
    /// A complex literal's value (`1j`): (real, imaginary).
    Complex(f64, f64),
    /// Python 2 `str` (bytes).
    Str(Rc<[u8]>),
    Unicode(crate::compiler::UStr),
    Tuple(Rc<[Const]>),
    Code(Rc<CodeObject>),
    Ellipsis,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Python 2 `/` (classic division; `truediv` under `from __future__ import division`).
    Div,
    TrueDiv,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Pos,
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Le,
    Eq,
    Ne,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
    /// `except` clause test: is the exception type on the stack a subclass of the class(es)?
    ExcMatch,
}

/// Bytecode instructions. "TOS" is the top of the value stack; operands index into the code
/// object's tables (`co_consts`, `co_names`, `co_varnames`, `cellvars ++ freevars`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instr {
    Nop,
    PopTop,
    /// TOS, TOS1 = TOS1, TOS
    RotTwo,
    /// TOS, TOS1, TOS2 = TOS1, TOS2, TOS
    RotThree,
    DupTop,
    /// Duplicates the two top items, keeping their order.
    DupTopTwo,

    LoadConst(u32),
    LoadFast(u32),
    StoreFast(u32),
    DeleteFast(u32),
    /// Name lookups of module and class bodies: locals namespace, then globals, then builtins.
    LoadName(u32),
    StoreName(u32),
    DeleteName(u32),
    LoadGlobal(u32),
    StoreGlobal(u32),
    DeleteGlobal(u32),
    /// Index into `cellvars ++ freevars`.
    LoadDeref(u32),
    StoreDeref(u32),
    /// Pushes the cell itself (to build a closure tuple for `MakeFunction`).
    LoadClosure(u32),
    LoadAttr(u32),
    /// TOS.name = TOS1
    StoreAttr(u32),
    DeleteAttr(u32),

    Unary(UnOp),
    Binary(BinOp),
    Inplace(BinOp),
    Compare(CmpOp),
    /// TOS1[TOS]
    Subscr,
    /// TOS1[TOS] = TOS2
    StoreSubscr,
    DeleteSubscr,
    /// `obj[lower:upper]` (Python 2 simple slice, the `getslice` operation). Stack:
    /// obj, [lower], [upper] — a missing bound is not pushed.
    Slice {
        lower: bool,
        upper: bool,
    },
    /// `obj[lower:upper] = value`; stack: value, obj, [lower], [upper].
    StoreSlice {
        lower: bool,
        upper: bool,
    },
    DeleteSlice {
        lower: bool,
        upper: bool,
    },
    /// Builds a slice object from 2 or 3 items (extended slicing, `newslice`).
    BuildSlice(u32),

    BuildTuple(u32),
    BuildList(u32),
    BuildSet(u32),
    /// Pushes a new empty dict presized for `n` items (CPython 2.7's `BUILD_MAP n`: the
    /// size decides the order CPython iterates over the dict in).
    BuildMap(u32),
    /// Appends TOS to the list `n` items below it (after popping TOS); list comprehensions.
    ListAppend(u32),
    /// TOS1[TOS] = TOS2 on the dict `n` items below; dict comprehensions. Pops key and value.
    MapAdd(u32),
    /// TOS2[TOS] = TOS1, leaving the dict TOS2 on the stack: one item of a dict display
    /// (`{k: v}` evaluates `v`, then `k`, as in Python 2).
    StoreMap,
    /// The exception exit of a `with`: TOS is the manager's `__exit__`, below it the
    /// exception type and value; calls `__exit__` with the space's choice of arguments
    /// (`type, value, None` in Python, `value, value, None` in the flow space, as in the
    /// reference) and pushes its result.
    WithExitException,
    SetAdd(u32),
    /// Unpacks TOS into `n` values, pushed so that the first one is on top.
    UnpackSequence(u32),
    /// Pushes whether TOS (kept) has `n` items: `len(TOS) == n` in the flow space (the
    /// reference's flow space tests the length of a sequence before it reads the items of
    /// `a, b = seq`), always true in Python (`UnpackSequence` itself raises there).
    UnpackCheck(u32),
    /// Raises `ValueError` (the failed test of an `UnpackCheck`); TOS is the sequence.
    UnpackMismatch,

    /// Calls: stack is callable, `npos` positional args, then `nkw` (name const, value)
    /// pairs, then the `*args` value if `star`, then the `**kwargs` value if `starstar`.
    Call {
        npos: u32,
        nkw: u32,
        star: bool,
        starstar: bool,
    },
    /// Stack: defaults (`ndefaults` values), [closure tuple of cells if `closure`], code
    /// object. Pushes a function. Always directly preceded by the `LoadConst` of the code
    /// object, which is how the interpreter finds it.
    MakeFunction {
        ndefaults: u32,
        closure: bool,
    },
    /// Stack: name, bases tuple, namespace dict (returned by the class body function).
    BuildClass,
    /// Pushes the current locals namespace as a dict (end of a class body).
    LoadLocals,

    ReturnValue,
    YieldValue,

    Jump(u32),
    PopJumpIfFalse(u32),
    PopJumpIfTrue(u32),
    /// If TOS is false jump and keep it, else pop it (`and`).
    JumpIfFalseOrPop(u32),
    /// If TOS is true jump and keep it, else pop it (`or`).
    JumpIfTrueOrPop(u32),
    GetIter,
    /// TOS is an iterator: push its next item, or pop it and jump when it is exhausted.
    ForIter(u32),

    /// Pushes a handler: when an exception is raised before the matching `PopBlock`, the
    /// value stack is cut back to its depth at this point, the exception value and then its
    /// type are pushed (type on top), and control goes to the target.
    SetupExcept(u32),
    PopBlock,
    /// Stack: exc value, exc type (on top). Raises them again (end of an unmatched handler
    /// chain, end of a catch-all `finally` handler).
    Reraise,
    /// Stack: exc value, exc type (on top). A bare `raise` in an except clause: raises the
    /// exception the clause caught again, as the program asked (the flow space keeps it
    /// apart from the `Reraise` of an exception no clause matched).
    ReraiseCaught,
    /// `raise` with 0 (re-raise current, only valid where the compiler knows it), 1 (`raise
    /// E` / `raise inst`) or 2 (`raise E, arg`) stack items.
    Raise(u32),

    /// `import name`: stack: fromlist (tuple const or None), level (int const). Pushes module.
    ImportName(u32),
    /// TOS is a module: push its attribute `name` (TOS stays).
    ImportFrom(u32),
    /// `from m import *` into the current namespace; pops the module.
    ImportStar,

    /// `print` statement item: stack: [dest,] value (dest pushed only if `to`).
    PrintItem {
        to: bool,
    },
    /// End of a `print` statement without trailing comma: stack: [dest] if `to`.
    PrintNewline {
        to: bool,
    },
    /// `exec code [in g[, l]]`: pops `n` items (1..=3).
    Exec(u32),
}

/// `co_flags` bits (values as in CPython).
pub mod flags {
    pub const OPTIMIZED: u32 = 0x1;
    pub const NEWLOCALS: u32 = 0x2;
    pub const VARARGS: u32 = 0x4;
    pub const VARKEYWORDS: u32 = 0x8;
    pub const NESTED: u32 = 0x10;
    pub const GENERATOR: u32 = 0x20;
    /// Code object of a class body.
    pub const CLASS_BODY: u32 = 0x1000;
    /// Code object of a module body.
    pub const MODULE: u32 = 0x2000;
    /// `from __future__ import division` is in effect.
    pub const TRUE_DIVISION: u32 = 0x4000;
}

/// A compiled function, class body or module body (seed 003's code object fields).
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    pub co_name: Rc<str>,
    pub co_filename: Rc<str>,
    pub co_firstlineno: u32,
    /// Number of positional parameters (not counting `*args`/`**kwargs`).
    pub co_argcount: u32,
    pub co_flags: u32,
    pub co_code: Vec<Instr>,
    pub co_consts: Vec<Const>,
    pub co_names: Vec<Rc<str>>,
    /// Parameters first (positional, then `*args`, then `**kwargs`), then other locals.
    pub co_varnames: Vec<Rc<str>>,
    /// Locals of this code captured by nested functions.
    pub co_cellvars: Vec<Rc<str>>,
    /// Variables read from enclosing functions.
    pub co_freevars: Vec<Rc<str>>,
    /// Position table: `co_spans[i]` is the source span instruction `i` came from.
    pub co_spans: Vec<Span>,
    /// Span of the whole definition (the `def`/`class` statement or the module).
    pub span: Span,
    /// Span of the name in the definition (for go-to-definition and diagnostics).
    pub name_span: Span,
    /// Docstring, if any (`NOT_RPYTHON` docstrings exclude a function from translation).
    pub docstring: Option<Rc<str>>,
}

impl CodeObject {
    pub fn has_flag(&self, flag: u32) -> bool {
        self.co_flags & flag != 0
    }
    pub fn nlocals(&self) -> usize {
        self.co_varnames.len()
    }
    pub fn is_generator(&self) -> bool {
        self.has_flag(flags::GENERATOR)
    }
    /// Instruction indexes that some jump or handler can reach: the flow space merges frame
    /// states there.
    pub fn jump_targets(&self) -> Vec<bool> {
        let mut targets = vec![false; self.co_code.len() + 1];
        for instr in &self.co_code {
            if let Some(t) = instr.jump_target() {
                targets[t as usize] = true;
            }
        }
        targets
    }
}

impl Instr {
    /// A call with one positional argument (a decorator, the message of an assertion).
    pub const CALL_ONE: Instr = Instr::Call {
        npos: 1,
        nkw: 0,
        star: false,
        starstar: false,
    };

    /// The instruction index this instruction may jump to, if any.
    pub fn jump_target(&self) -> Option<u32> {
        match *self {
            Instr::Jump(t)
            | Instr::PopJumpIfFalse(t)
            | Instr::PopJumpIfTrue(t)
            | Instr::JumpIfFalseOrPop(t)
            | Instr::JumpIfTrueOrPop(t)
            | Instr::ForIter(t)
            | Instr::SetupExcept(t) => Some(t),
            _ => None,
        }
    }
}
