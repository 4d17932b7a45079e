//! The HighLevelOp interface (seed 000, "HighLevelOp interface"): one high-level operation
//! being translated, with its arguments' low-level values, Reprs and annotations, and the
//! `LlOps` list receiving the low-level operations that replace it.

use super::rmodel::ReprId;
use super::{RTyper, TyperError};
use crate::annotator::model::{Position, SomeValue};
use crate::flowspace::{FunctionGraph, Hlvalue, LlConstant, SpaceOperation};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlType, LlValue, Sym};
use crate::objspace::object::Value;
use crate::syntax::Span;

/// The low-level operations generated for the current block, and the graph their result
/// Variables are created in.
pub struct LlOps<'g> {
    pub graph: &'g mut FunctionGraph,
    pub ops: Vec<SpaceOperation>,
    /// The span of the high-level operation being translated (every generated operation
    /// points at the user's line).
    pub span: Span,
}

impl<'g> LlOps<'g> {
    pub fn new(graph: &'g mut FunctionGraph) -> LlOps<'g> {
        LlOps {
            graph,
            ops: Vec::new(),
            span: Span::default(),
        }
    }

    /// Appends `op(args) -> result_type`; returns the result Variable.
    pub fn genop(&mut self, op: LlOp, args: Vec<Hlvalue>, result_type: LlType) -> Hlvalue {
        // the reference's backend folds a 128-bit operation on constants, exactly (see
        // `lltypesystem::int128`)
        if crate::lltypesystem::int128::folds(op) {
            let c = |i: usize| match args.get(i) {
                Some(Hlvalue::Ll(c)) => Some(c.value),
                None => Some(LlValue::Void),
                _ => None,
            };
            if let (Some(x), Some(y)) = (c(0), c(1)) {
                if let Some(value) = crate::lltypesystem::int128::eval(op, x, y) {
                    return Hlvalue::Ll(LlConstant {
                        ty: result_type,
                        value,
                    });
                }
            }
        }
        let result = self.graph.new_typed_var(None, result_type);
        self.ops.push(SpaceOperation {
            opname: Op::Ll(op),
            args,
            result,
            span: self.span,
        });
        Hlvalue::Var(result)
    }
}

/// A Void constant naming a field.
pub fn cfield(name: &str) -> Hlvalue {
    Hlvalue::Ll(LlConstant {
        ty: LlType::VOID,
        value: LlValue::Name(Sym::new(name)),
    })
}
/// A Void constant naming a type (for `malloc`).
pub fn ctype(t: LlType) -> Hlvalue {
    Hlvalue::Ll(LlConstant {
        ty: LlType::VOID,
        value: LlValue::Type(t),
    })
}
pub fn cint(i: i64) -> Hlvalue {
    Hlvalue::Ll(LlConstant {
        ty: LlType::SIGNED,
        value: LlValue::Int(i),
    })
}
pub fn cbool(b: bool) -> Hlvalue {
    Hlvalue::Ll(LlConstant {
        ty: LlType::BOOL,
        value: LlValue::Bool(b),
    })
}
pub fn cvoid() -> Hlvalue {
    Hlvalue::Ll(LlConstant {
        ty: LlType::VOID,
        value: LlValue::Void,
    })
}

/// The item `x` of `l = [x]` when `op` is `mul(l, n)` and that `newlist` comes earlier in
/// the same block (see `Hop::literal_single_item`).
fn literal_single_item(
    rt: &RTyper,
    g: u32,
    op: &SpaceOperation,
    position: Position,
) -> Option<Hlvalue> {
    if op.opname != crate::interpreter::Op::Mul {
        return None;
    }
    let Hlvalue::Var(list) = *op.args.first()? else {
        return None;
    };
    let hl = &rt.ann.graphs[g as usize];
    let block = hl.block(crate::flowspace::BlockId(position.block));
    let newlist = block.operations[..position.op as usize]
        .iter()
        .find(|o| o.result == list && o.opname == crate::interpreter::Op::NewList)?;
    match newlist.args[..] {
        [x] => Some(x),
        _ => None,
    }
}

/// The constant a variable argument is read as: the reference's typing reads a variable
/// whose annotation is a constant of an immutable type as that constant, whatever computed
/// it (its `inputarg`). This is visible where the annotation is not the computed value:
/// `c.upper()` of a constant char is annotated as `c` itself; `n < 0` of an `n` annotated
/// non-negative is the constant False even after `n` overflowed to a negative number.
/// Lists, dicts and instances keep their variable (the reference's prebuilt lists and dicts
/// are not constant annotations, and an instance's pointer is the same either way). Only
/// in the program's own graphs: rpy-lsp's low-level helpers are its own code, and one
/// translated early may be generalized by a later helper's call (see `program_graphs`).
fn annotated_const(a: Hlvalue, s: &SomeValue) -> Option<Value> {
    match (a, s) {
        (
            Hlvalue::Var(_),
            SomeValue::Integer { .. }
            | SomeValue::Float { .. }
            | SomeValue::Bool { .. }
            | SomeValue::Char { .. }
            | SomeValue::Str { .. }
            | SomeValue::UnicodeCodePoint { .. }
            | SomeValue::Unicode { .. },
        ) => s.konst(),
        _ => None,
    }
}

/// One high-level operation being translated.
pub struct Hop {
    pub g: u32,
    pub op: SpaceOperation,
    pub position: Position,
    /// The operation is the last of a block that catches exceptions: the low-level
    /// operation that may raise must be marked with `exception_is_here`.
    pub exc_handled: bool,
    pub args_v: Vec<Hlvalue>,
    pub args_r: Vec<ReprId>,
    pub args_s: Vec<SomeValue>,
    pub s_result: SomeValue,
    pub r_result: ReprId,
    /// Index in `LlOps::ops` of the operation marked by `exception_is_here`.
    pub raising_index: Option<usize>,
    /// `exception_is_here` was called (the reference checks the declared exceptions then).
    pub exception_is_here_called: bool,
    /// For the operation of a block that catches exceptions: the classes of the exception
    /// links the reference's RTyper sees (`reference_exception_cases`); empty otherwise.
    pub exception_cases: std::rc::Rc<[super::rexcept::ExceptionCase]>,
    /// The exceptions the typing declared with `has_implicit_exception` (the reference's
    /// `implicit_exceptions_checked`): `None` until it asks, once there are exception cases.
    pub implicit_declared: std::cell::RefCell<Option<Vec<&'static str>>>,
    /// Keyword arguments of a `call_args` (name, value, Repr, the argument as written).
    pub keywords: Vec<(std::rc::Rc<str>, Hlvalue, ReprId, Hlvalue)>,
    /// For `l * n` where `l` is the result of a one-item list literal `[x]` earlier in the
    /// same block: `x` (value and Repr). The reference's `transform_allocate` turns such a
    /// `mul` into `alloc_and_set(n, x)`, whatever happened to `l` in between.
    pub literal_single_item: Option<(Hlvalue, ReprId)>,
}

impl Hop {
    pub fn new(
        rt: &mut RTyper,
        g: u32,
        op: &SpaceOperation,
        position: Position,
        exc_handled: bool,
        vmap: &super::VarMap,
        _llops: &mut LlOps,
    ) -> Result<Hop, TyperError> {
        let n = op.args.len();
        let (mut args_v, mut args_r, mut args_s) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let program_graph = (g as usize) < rt.program_graphs;
        for &a in &op.args {
            let s = rt.annotation(g, a);
            let (mut v, r) = rt.value_of(g, a, vmap)?;
            if let Some(c) = annotated_const(a, &s).filter(|_| program_graph) {
                v = Hlvalue::Ll(rt.const_value(c, r)?);
            }
            args_s.push(s);
            args_v.push(v);
            args_r.push(r);
        }
        let s_result = rt.annotation(g, Hlvalue::Var(op.result));
        let r_result = rt.var_repr(g, op.result)?;
        let literal_single_item = match literal_single_item(rt, g, op, position) {
            Some(x) => Some(rt.value_of(g, x, vmap)?),
            None => None,
        };
        Ok(Hop {
            g,
            op: op.clone(),
            position,
            exc_handled,
            args_v,
            args_r,
            args_s,
            s_result,
            r_result,
            raising_index: None,
            exception_is_here_called: false,
            exception_cases: std::rc::Rc::from([]),
            implicit_declared: std::cell::RefCell::new(None),
            keywords: Vec::new(),
            literal_single_item,
        })
    }

    pub fn nargs(&self) -> usize {
        self.args_v.len()
    }

    /// Drops the first argument (the callable of a call, the receiver of a method).
    pub fn r_s_popfirstarg(&mut self) -> (Hlvalue, ReprId, SomeValue) {
        let v = self.args_v.remove(0);
        let r = self.args_r.remove(0);
        let s = self.args_s.remove(0);
        self.op.args.remove(0);
        (v, r, s)
    }

    /// Inserts an argument in front (the `self` of a method call).
    pub fn v_s_insertfirstarg(&mut self, v: Hlvalue, r: ReprId, s: SomeValue) {
        self.args_v.insert(0, v);
        self.args_r.insert(0, r);
        self.args_s.insert(0, s);
        self.op.args.insert(0, v);
    }

    /// Marks the next generated operation as the one that may raise.
    pub fn exception_is_here(&mut self, llops: &LlOps) {
        self.raising_index = Some(llops.ops.len());
        self.exception_is_here_called = true;
    }

    /// Says no exception can occur (the last generated operation is not the raising one).
    pub fn exception_cannot_occur(&mut self) {
        self.raising_index = None;
    }
}

impl RTyper<'_> {
    /// Argument `i` of `hop`, converted to Repr `r`.
    pub fn inputarg(
        &mut self,
        llops: &mut LlOps,
        hop: &Hop,
        i: usize,
        r: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        if let Some(c) = self.static_value(hop.g, hop.op.args[i], hop.args_r[i]) {
            return Ok(Hlvalue::Ll(self.const_value(c, r)?));
        }
        self.convertvar(llops, hop.args_v[i], hop.args_r[i], r)
    }

    /// All arguments converted to the given Reprs.
    pub fn inputargs(
        &mut self,
        llops: &mut LlOps,
        hop: &Hop,
        rs: &[ReprId],
    ) -> Result<Vec<Hlvalue>, TyperError> {
        let mut out = Vec::new();
        for (i, &r) in rs.iter().enumerate() {
            out.push(self.inputarg(llops, hop, i, r)?);
        }
        Ok(out)
    }

    /// Whether the operation is in the scope of an `except` catching `name` (or a base
    /// class of it), declaring (as the reference's typing functions do) that the operation
    /// raises `name`: `check_implicit_exceptions` then refuses a handler for anything else.
    /// Only where the reference's typing declares it; elsewhere `catches`.
    pub fn has_implicit_exception(&self, hop: &Hop, name: &'static str) -> bool {
        if !hop.exception_cases.is_empty() {
            hop.implicit_declared
                .borrow_mut()
                .get_or_insert_with(Vec::new)
                .push(name);
        }
        self.catches(hop, name)
    }

    /// Whether the operation is in the scope of an `except` catching `name` (or a base
    /// class of it), without declaring anything.
    pub fn catches(&self, hop: &Hop, name: &str) -> bool {
        if !hop.exc_handled {
            return false;
        }
        let hl = &self.ann.graphs[hop.g as usize];
        let block = hl.block(crate::flowspace::BlockId(hop.position.block));
        block.exits.iter().skip(1).any(|&l| {
            if let crate::flowspace::ExitCase::Exception(cls) = hl.link(l).exitcase {
                self.builtin_name_derives(name, cls)
            } else {
                false
            }
        })
    }
}
