//! The flow space: the frame interpreter run over Variables and Constants, recording the
//! operations of one function into a `FunctionGraph` (seed 001, step 2).
//!
//! Each pending block is flowed from its entry `FrameState` until the interpreter stops:
//! at a return or an uncaught raise (links to the return and except blocks), at a fork on a
//! Variable (a conditional exit), after an operation that can raise into an enclosing handler
//! (an exception-catching exit), or where it merges into a block already flowed: every
//! bytecode that records an operation is a join point, as in the reference (`joins`), so
//! paths that differ only by code folded on one of them meet again at the next operation.
//! Constants that differ at a join point become Variables, so loops converge. The graph is
//! then simplified as the reference's is (`simplify`).
//!
//! This file holds the driver (pending blocks, joins, links); what the interpreter asks of
//! the flow space is in `space`, constant folding in `constfold`.

use super::model::*;
use crate::builtins::{BuiltinId, GRAPH_ONLY};
use crate::compiler::bytecode::flags;
use crate::compiler::{CodeObject, Instr};
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::interpreter::{
    eval, CallArgs, ConcreteSpace, Fork, Frame, FrameState, Op, OpResult, Space, Unwind,
};
use crate::objspace::object::{ObjId, Object, Value};
use crate::syntax::Span;
use std::collections::VecDeque;
use std::rc::Rc;

pub(super) type State = FrameState<Hlvalue>;

/// Builds the flow graph of the function object `func`. Flow-level violations are returned
/// as diagnostics; the graph is still complete (a block that hit an error links to the
/// except block).
pub fn build_flow<C: ConcreteSpace>(
    objspace: &mut C,
    func: ObjId,
) -> Result<(FunctionGraph, Vec<Diagnostic>), Diagnostic> {
    let (code, globals, closure) = match objspace.heap().get(func) {
        Object::Function(f) => (f.code.clone(), f.globals, f.closure.clone()),
        _ => {
            return Err(Diagnostic::new(
                "RPY109",
                Span::default(),
                "not a Python function",
            ))
        }
    };
    check_rpythonic(&code)?;
    let mut argnames: Vec<Rc<str>> = code.co_varnames[..code.co_argcount as usize].to_vec();
    if code.has_flag(flags::VARARGS) {
        argnames.push(code.co_varnames[code.co_argcount as usize].clone());
    }
    let graph = FunctionGraph::new(code.co_name.clone(), Some(func), code.span, &argnames);
    let mut ctx = FlowContext {
        objspace,
        jump_targets: code.jump_targets(),
        code: code.clone(),
        globals,
        graph,
        current: BlockId(0),
        kind: Kind::Start,
        instrs_in_block: 0,
        span: code.span,
        joinpoints: vec![Vec::new(); code.co_code.len() + 1],
        entries: Vec::new(),
        block_entries: HashMap::default(),
        pending: VecDeque::new(),
        dead: HashSet::default(),
        egg_links: HashMap::default(),
        in_egg: false,
        snapshot: None,
        raise_pending: None,
        last_bool: None,
        diagnostics: Vec::new(),
        path_errors: Vec::new(),
        current_reclosed: false,
        prev_span: code.span,
        instr_state: State {
            locals: Vec::new(),
            stack: Vec::new(),
            blocks: Vec::new(),
            pc: 0,
        },
        merge_checked: false,
        steps_without_op: 0,
        store_spans: vec![Span::default(); code.nlocals()],
        last_locals: Vec::new(),
        instr_pc: 0,
        unroll_next: HashMap::default(),
        exc_guard_rest: HashMap::default(),
        unroll_head: HashMap::default(),
    };
    let start = ctx.graph.startblock;
    let mut locals = vec![None; code.nlocals()];
    for (i, &v) in ctx.graph.block(start).inputargs.iter().enumerate() {
        locals[i] = Some(Hlvalue::Var(v));
    }
    let state = State {
        locals,
        stack: Vec::new(),
        blocks: Vec::new(),
        pc: 0,
    };
    ctx.pending.push_back((start, state, Kind::Start));
    let cells: Vec<Hlvalue> = closure
        .iter()
        .map(|&c| Hlvalue::Const(Value::Obj(c)))
        .collect();
    while let Some((block, state, kind)) = ctx.pending.pop_front() {
        // A path paused at a join point goes on from there, in the block that now holds
        // that point (a merge may have cut the block there meanwhile).
        let (block, state) = match kind {
            Kind::Resume(e) => (ctx.entries[e].block, ctx.entries[e].state.clone()),
            _ => (block, state),
        };
        // A block generalized by a merge before its turn only jumps to the general block;
        // an exit of a fork whose block was generalized so is never flowed either.
        if ctx.dead.contains(&block) || (kind == Kind::Egg && ctx.fork_is_dead(block)) {
            continue;
        }
        ctx.flow_block(block, state, kind, &cells);
    }
    let FlowContext {
        graph,
        diagnostics,
        path_errors,
        dead,
        ..
    } = ctx;
    let mut graph = graph;
    let mut diagnostics = diagnostics;
    // An error ends its path. Blocks are flowed in the reference's order, so a path flowed
    // here is one the reference flows too, even when a merge generalized its start later
    // (the exit of a loop's first pass, with the constants from before the loop): the
    // reference stops at the first such error.
    diagnostics.extend(path_errors.into_iter().map(|(diag, _)| diag));
    // What blocks turned into jumps held was flowed again in the blocks they jump to.
    graph.side.local_refs.retain(|r| !dead.contains(&r.block));
    let is_ovfcheck = |v: &Hlvalue| {
        matches!(v, Hlvalue::Const(Value::Obj(id)) if matches!(
            objspace.heap().get(*id),
            Object::Builtin { id: crate::builtins::BuiltinId::RarithmeticOvfcheck, bound_self: None }
        ))
    };
    super::transform::remove_dead_blocks(&mut graph);
    super::simplify::simplify_graph(&mut graph);
    super::transform::join_ovfcheck(&mut graph, is_ovfcheck);
    super::transform::remove_dead_blocks(&mut graph);
    super::simplify::compact_vars(&mut graph);
    for (span, what) in super::transform::misplaced_ovfchecks(&graph, is_ovfcheck) {
        diagnostics.push(Diagnostic::new(
            "RPY218",
            span,
            format!("ovfcheck() must directly take the result of an arithmetic operation that can overflow (+, -, *, //, %, <<, unary -, abs), as in ovfcheck(x + y); here it takes {}", what),
        ));
    }
    Ok((graph, diagnostics))
}

/// Reasons a function cannot be flowed at all (before looking at its bytecode).
fn check_rpythonic(code: &CodeObject) -> Result<(), Diagnostic> {
    if let Some(cell) = code.co_cellvars.first() {
        // Point at the nested function that reads the cell: that is the line to change.
        let reader = code.co_consts.iter().find_map(|c| match c {
            crate::compiler::bytecode::Const::Code(inner)
                if inner.co_freevars.iter().any(|f| f == cell) =>
            {
                Some(inner.clone())
            }
            _ => None,
        });
        let message = format!(
            "RPython functions cannot create closures: `{}` is read by a nested function, lambda or generator expression",
            cell
        );
        return Err(match reader {
            Some(inner) => Diagnostic::new("RPY101", inner.name_span, message).with_label(
                code.name_span,
                format!("`{}` is a local variable of `{}`", cell, code.co_name),
            ),
            None => Diagnostic::new("RPY101", code.name_span, message),
        });
    }
    if let Some(kwargs) = crate::interpreter::arguments::Signature::from_code(code).kwargs {
        return Err(Diagnostic::new(
            "RPY105",
            code.name_span,
            format!(
                "`**{}` in the definition of `{}` is not RPython",
                kwargs, code.co_name
            ),
        ));
    }
    Ok(())
}

/// How a block to flow was made, which decides whether its first bytecode is a join point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    /// The start block: its first bytecode is no join point (nothing can jump before it).
    Start,
    /// A block made at a join point, noted there already.
    Spam,
    /// A block made for one exit of a fork (a branch, an exception): it continues the
    /// bytecode that forked, so its first operation-recording bytecode is a join point.
    Egg,
    /// A path paused at join point `entries[i]` (noted there already), going on from it.
    Resume(usize),
}

pub(super) struct FlowContext<'a, C: ConcreteSpace> {
    pub(super) objspace: &'a mut C,
    pub(super) code: Rc<CodeObject>,
    globals: ObjId,
    pub(super) jump_targets: Vec<bool>,
    pub(super) graph: FunctionGraph,
    pub(super) current: BlockId,
    /// How the current block was made.
    kind: Kind,
    pub(super) instrs_in_block: usize,
    pub(super) span: Span,
    /// The join points noted so far (see `joins`), by bytecode position (one list per
    /// instruction: a table, where a map hashed every step that records an operation).
    pub(super) joinpoints: Vec<Vec<usize>>,
    pub(super) entries: Vec<super::joins::JoinEntry>,
    /// The join points inside each block, in flowing order.
    pub(super) block_entries: HashMap<BlockId, Vec<usize>>,
    pub(super) pending: VecDeque<(BlockId, State, Kind)>,
    /// Blocks turned into a jump by a merge: never flowed (again).
    pub(super) dead: HashSet<BlockId>,
    /// The link that enters each block made for an exit of a fork, and whether the fork
    /// happened in an exit of a fork before its first join point (the reference's egg of
    /// an egg, which dies with the same block).
    egg_links: HashMap<BlockId, (LinkId, bool)>,
    /// The current path is an exit of a fork that has not reached a join point yet.
    in_egg: bool,
    /// State at the start of the current instruction, kept while a handler is active.
    pub(super) snapshot: Option<State>,
    /// State at the start of the current instruction (the join point, when it records an
    /// operation).
    pub(super) instr_state: State,
    /// The current bytecode went through its join check already.
    pub(super) merge_checked: bool,
    /// Exceptions the last recorded operation can raise into an enclosing handler.
    pub(super) raise_pending: Option<&'static [&'static str]>,
    /// The `bool` result the last undecided branch switched on.
    pub(super) last_bool: Option<Hlvalue>,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// Errors that ended a path, with the link that path took to the except block: kept
    /// at the end only when that link is still reachable.
    path_errors: Vec<(Diagnostic, LinkId)>,
    /// The block being flowed was turned into a jump by a merge.
    pub(super) current_reclosed: bool,
    /// The span of the instruction executed before the current one.
    pub(super) prev_span: Span,
    /// Where each local was last stored in the current block (default: before the block).
    pub(super) store_spans: Vec<Span>,
    /// The locals at the start of the current instruction.
    pub(super) last_locals: Vec<Option<Hlvalue>>,
    /// Instructions run in the current graph since an operation was last recorded (a bound,
    /// see `MAX_STEPS_WITHOUT_OP`).
    pub(super) steps_without_op: usize,
    /// Index of the instruction being executed.
    pub(super) instr_pc: u32,
    /// The next step of each unrolled iterator: one object per step, so that the paths of
    /// one step of an unrolled loop merge (not one copy of the rest per path).
    pub(super) unroll_next: HashMap<ObjId, ObjId>,
    /// The tuple of the other classes of each tuple `except` guard (see `exc_guard_split`).
    pub(super) exc_guard_rest: HashMap<ObjId, ObjId>,
    /// The first step of each unrolling_iterable's iterator.
    pub(super) unroll_head: HashMap<ObjId, ObjId>,
}

/// Instructions a graph may run without recording an operation before jump targets become
/// join points too, so that a loop that records nothing (`while True: pass`) terminates.
pub(super) const MAX_STEPS_WITHOUT_OP: usize = 100_000;

impl<C: ConcreteSpace> FlowContext<'_, C> {
    /// The bundled model `globals` star-imported (`from rpython.rlib.rarithmetic import *`).
    pub(super) fn star_model_name(&self, globals: ObjId) -> Option<Rc<str>> {
        let heap = self.objspace.heap();
        let Object::Module(m) = heap.get(globals) else {
            return None;
        };
        match m.dict.get(crate::objspace::STAR_FROM_MODEL_ATTR)? {
            Value::Obj(model) => match heap.get(model) {
                Object::Module(mm) => Some(mm.name.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    fn flow_block(&mut self, block: BlockId, state: State, kind: Kind, cells: &[Hlvalue]) {
        self.current = block;
        self.kind = kind;
        self.in_egg = kind == Kind::Egg;
        self.current_reclosed = false;
        match kind {
            Kind::Resume(e) => {
                self.store_spans.clone_from(&self.entries[e].store_spans);
                self.prev_span = self.entries[e].span;
            }
            _ => self
                .store_spans
                .iter_mut()
                .for_each(|s| *s = Span::default()),
        }
        self.last_locals.clear();
        self.instrs_in_block = 0;
        self.snapshot = None;
        self.raise_pending = None;
        let mut frame = Frame {
            code: self.code.clone(),
            globals: self.globals,
            namespace: None,
            cells: cells.to_vec(),
            state,
        };
        match eval(self, &mut frame) {
            Ok(v) => {
                let target = self.graph.returnblock;
                self.close(target, vec![v], ExitCase::None);
            }
            Err(Unwind::Raise { etype, evalue }) => {
                // The reference's flow space refuses an ImportError that leaves a function
                // (an import in translated code that always fails, or `raise ImportError`).
                let import_error = matches!(etype, Hlvalue::Const(Value::Obj(c))
                    if self.builtin_class("ImportError") == Some(c));
                let target = self.graph.exceptblock;
                let link = self.close(target, vec![etype, evalue], ExitCase::None);
                if let (Some(link), true) = (link, import_error) {
                    let d = Diagnostic::new(
                        "RPY108",
                        self.span,
                        "ImportError is raised in RPython: this always raises ImportError, and RPython refuses a function that lets it out (catch it, or import at module level)",
                    );
                    self.path_errors.push((d, link));
                }
                // (the raising instruction is the last one run: `eval` moved past it)
                let pc = frame.state.pc as usize;
                let caught =
                    pc > 0 && frame.code.co_code.get(pc - 1) == Some(&Instr::ReraiseCaught);
                if let (Some(link), true) = (link, caught) {
                    self.graph.set_reraise_of_caught(link);
                }
            }
            Err(Unwind::Fork(fork)) => match *fork {
                Fork::Branch {
                    cond,
                    if_true,
                    if_false,
                } => {
                    let switch = self.last_bool.take().unwrap_or(cond);
                    self.graph.block_mut(self.current).exitswitch = ExitSwitch::Value(switch);
                    self.link_to_state(if_false, ExitCase::Value(Value::Bool(false)), None);
                    self.link_to_state(if_true, ExitCase::Value(Value::Bool(true)), None);
                }
                Fork::Iter { item, done } => {
                    self.graph.block_mut(self.current).exitswitch = ExitSwitch::LastException;
                    self.link_to_state(item, ExitCase::None, None);
                    let stop = self.builtin_class("StopIteration");
                    let (le, lv) = (self.graph.new_var(None), self.graph.new_var(None));
                    self.link_to_state(
                        done,
                        stop.map_or(ExitCase::None, ExitCase::Exception),
                        Some((le, lv)),
                    );
                }
            },
            Err(Unwind::Stop) => {}
            Err(Unwind::Error(diag)) => {
                // Keep the graph well-formed: the failing path raises.
                let etype = self
                    .builtin_class("RuntimeError")
                    .map_or(Value::None, Value::Obj);
                let target = self.graph.exceptblock;
                match self.close(
                    target,
                    vec![Hlvalue::Const(etype), Hlvalue::Const(Value::None)],
                    ExitCase::None,
                ) {
                    // Reported only if this path is still part of the graph at the end.
                    Some(link) => self.path_errors.push((*diag, link)),
                    None => self.diagnostics.push(*diag),
                }
            }
        }
    }

    /// Whether `block`, an exit of a fork, comes from a block a merge generalized before
    /// `block`'s turn (directly, or through the forks it continues): the reference drops
    /// such an exit with the block it came from.
    fn fork_is_dead(&self, block: BlockId) -> bool {
        let mut b = block;
        while let Some(&(l, chained)) = self.egg_links.get(&b) {
            let from = self.graph.link(l).prevblock;
            if self.dead.contains(&from) {
                return true;
            }
            if !chained {
                return false;
            }
            b = from;
        }
        false
    }

    /// Ends the current block with one link to `target` (none when a merge already
    /// closed it).
    fn close(&mut self, target: BlockId, args: Vec<Hlvalue>, exitcase: ExitCase) -> Option<LinkId> {
        if self.current_reclosed {
            return None;
        }
        let cur = self.current;
        // `return x`: the value is the local stored last on this path.
        let arg_spans: Vec<Span> = args
            .iter()
            .map(|a| {
                self.last_locals
                    .iter()
                    .zip(&self.store_spans)
                    .filter(|(l, s)| **l == Some(*a) && **s != Span::default())
                    .map(|(_, s)| *s)
                    .next()
                    .unwrap_or_default()
            })
            .collect();
        let id = self.graph.add_link(
            cur,
            Link {
                prevblock: cur,
                target,
                args,
                exitcase,
                last_exception: None,
                last_exc_value: None,
            },
        );
        self.graph.set_link_span(id, self.span);
        self.graph.set_arg_spans(id, &arg_spans);
        Some(id)
    }

    /// Adds an exit of the current block towards `state` (the state after the bytecode that
    /// forked): a new block, flowed later, which meets the other paths at its first
    /// operation-recording bytecode.
    pub(super) fn link_to_state(
        &mut self,
        state: State,
        exitcase: ExitCase,
        extravars: Option<(VarId, VarId)>,
    ) {
        if self.current_reclosed {
            return;
        }
        let (target, entry) = self.new_block_for(&state, &[&state]);
        let args = super::joins::link_args(&entry, &state);
        let arg_spans = self.arg_spans_now(&entry);
        self.pending.push_back((target, entry, Kind::Egg));
        let cur = self.current;
        let (last_exception, last_exc_value) = match extravars {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        let id = self.graph.add_link(
            cur,
            Link {
                prevblock: cur,
                target,
                args,
                exitcase,
                last_exception,
                last_exc_value,
            },
        );
        self.egg_links.insert(target, (id, self.in_egg));
        self.graph.set_link_span(id, self.span);
        self.graph.set_arg_spans(id, &arg_spans);
    }

    /// Notes the value a `LoadFast`/`StoreFast` just read or wrote, for position queries.
    pub(super) fn record_local_ref(&mut self, frame: &Frame<Hlvalue>) {
        use crate::compiler::bytecode::Instr;
        let pc = self.instr_pc as usize;
        let (local, store) = match frame.code.co_code.get(pc) {
            Some(Instr::LoadFast(i)) => (*i, false),
            Some(Instr::StoreFast(i)) => (*i, true),
            _ => return,
        };
        let value = if store {
            frame.state.locals.get(local as usize).copied().flatten()
        } else {
            frame.state.stack.last().copied()
        };
        let (Some(value), Some(&span)) = (value, frame.code.co_spans.get(pc)) else {
            return;
        };
        let block = self.current;
        self.graph.side.local_refs.push(LocalRef {
            span,
            local,
            value,
            store,
            block,
        });
    }

    pub(super) fn builtin_class(&mut self, name: &str) -> Option<ObjId> {
        match Space::load_global(self.objspace, self.globals, &Rc::from(name)) {
            Ok(Value::Obj(id)) => Some(id),
            _ => None,
        }
    }

    pub(super) fn error(&self, code: &'static str, msg: impl Into<String>) -> Unwind<Hlvalue> {
        Unwind::Error(Box::new(Diagnostic::new(code, self.span, msg)))
    }

    /// The join check of the first operation of a bytecode (the reference's `maybe_merge`):
    /// the path either merges into a block already flowed from the start of this bytecode
    /// and stops, or notes the position for the paths to come.
    fn maybe_merge(&mut self) -> OpResult<Hlvalue, ()> {
        if std::mem::replace(&mut self.merge_checked, true) || self.current_reclosed {
            return Ok(());
        }
        if self.instrs_in_block <= 1 && self.kind != Kind::Egg {
            // The first bytecode of the start block, or of a block made at this join point.
            return Ok(());
        }
        let state = self.instr_state.clone();
        self.in_egg = false;
        if self.join_at(state) {
            return Err(Unwind::Stop);
        }
        if !self.pending.is_empty() {
            // The reference starts a new block at each join point and flows it after the
            // blocks already pending: pausing here keeps its order, which decides what is
            // generalized before it is flowed (the exit of a loop's first pass, with the
            // constants from before the loop, is flowed before the loop body comes back).
            let e = self.entries.len() - 1;
            self.pending
                .push_back((self.current, self.instr_state.clone(), Kind::Resume(e)));
            return Err(Unwind::Stop);
        }
        Ok(())
    }

    pub(super) fn record(&mut self, opname: Op, args: Vec<Hlvalue>) -> OpResult<Hlvalue> {
        self.maybe_merge()?;
        self.steps_without_op = 0;
        let result = self.graph.new_var(None);
        let span = self.span;
        let cur = self.current;
        self.graph.block_mut(cur).operations.push(SpaceOperation {
            opname,
            args,
            result,
            span,
        });
        if self.snapshot.is_some() {
            let canraise = match opname {
                Op::SimpleCall | Op::CallArgs => {
                    const_builtin_call_raises(self, cur).unwrap_or(opname.canraise())
                }
                _ => opname.canraise(),
            };
            if !canraise.is_empty() {
                self.raise_pending = Some(canraise);
            }
        }
        Ok(Hlvalue::Var(result))
    }

    /// A function of a library module (imported now if needed), for calls the flow space
    /// redirects.
    pub(super) fn library_function(&mut self, module: &str, name: &str) -> OpResult<Hlvalue> {
        let path: Rc<str> = Rc::from(module);
        let mut m = Space::import_name(
            self.objspace,
            &path,
            Value::None,
            Value::Int(0),
            self.globals,
        )
        .map_err(|_| self.error("RPY002", format!("cannot import `{}`", module)))?;
        for part in module.split('.').skip(1).chain(std::iter::once(name)) {
            m = Space::import_from(self.objspace, &m, &Rc::from(part)).map_err(|_| {
                self.error("RPY002", format!("cannot import `{}.{}`", module, name))
            })?;
        }
        Ok(Hlvalue::Const(m))
    }

    /// The built-in a constant callee is: an unbound built-in function, or the constructor
    /// of a built-in class.
    pub(super) fn builtin_id(&self, v: Hlvalue) -> Option<BuiltinId> {
        match v {
            Hlvalue::Const(Value::Obj(id)) => match self.objspace.heap().get(id) {
                Object::Builtin {
                    id,
                    bound_self: None,
                } => Some(*id),
                Object::Class(c) if c.builtin.is_some() => c.constructor,
                _ => None,
            },
            _ => None,
        }
    }

    /// For a constant `__builtin__` function or built-in class: the exceptions a call of it
    /// can raise (the reference's table: `int`, `float`, `chr`, `unichr`, `unicode`); `None`
    /// for any other callable, whose calls may raise anything. The helpers of `print` are
    /// such other callables: the reference's are RPython functions, so a `print` inside a
    /// `try` has an exception exit (the OSError of writing the line to a closed fd 1).
    fn builtin_call_raises(&self, v: Hlvalue) -> Option<&'static [&'static str]> {
        match v {
            Hlvalue::Const(Value::Obj(id)) => match self.objspace.heap().get(id) {
                Object::Builtin {
                    id,
                    bound_self: None,
                } if id.is_unqualified() && !GRAPH_ONLY.contains(id) => Some(id.call_raises()),
                Object::Class(c) => c.builtin.map(|b| b.call_raises()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The built-in helper a `print` statement calls in graphs.
    pub(super) fn print_helper(&mut self, id: BuiltinId) -> Value {
        Value::Obj(self.objspace.heap_mut().alloc(Object::Builtin {
            id,
            bound_self: None,
        }))
    }

    /// `raise` of a value known to be an exception class.
    pub(super) fn raise_class(&mut self, cls: Value, arg: Option<Hlvalue>) -> Unwind<Hlvalue> {
        let args = match arg {
            Some(a) => CallArgs::positional(vec![a]),
            None => CallArgs::positional(vec![]),
        };
        match self.call(Hlvalue::Const(cls), args) {
            Ok(evalue) => Unwind::Raise {
                etype: Hlvalue::Const(cls),
                evalue,
            },
            Err(e) => e,
        }
    }
}

/// For a last operation of `block` that calls a constant built-in function or class: the
/// exceptions it can raise.
fn const_builtin_call_raises<C: ConcreteSpace>(
    ctx: &FlowContext<C>,
    block: BlockId,
) -> Option<&'static [&'static str]> {
    let op = ctx
        .graph
        .block(block)
        .operations
        .last()
        .expect("just recorded");
    ctx.builtin_call_raises(*op.args.first()?)
}

/// The attributes of `sys` the flow space folds into constants (the reference's
/// NOT_REALLY_CONST exceptions); any other `sys.x` stays an operation the annotator rejects.
pub const SYS_CONSTANTS: &[&str] = &[
    "maxint",
    "maxunicode",
    "api_version",
    "exit",
    "exc_info",
    "getrefcount",
    "getdefaultencoding",
];

/// The attributes CPython 2.7's None has (`dir(None)`): reading one of them on the
/// constant None does not raise, so the reference's flow space folds it without an error.
pub const NONE_TYPE_ATTRS: &[&str] = &[
    "__class__",
    "__delattr__",
    "__doc__",
    "__format__",
    "__getattribute__",
    "__hash__",
    "__init__",
    "__new__",
    "__reduce__",
    "__reduce_ex__",
    "__repr__",
    "__setattr__",
    "__sizeof__",
    "__str__",
    "__subclasshook__",
];

/// Whether `id` is the `sys` module.
pub fn is_sys_module(heap: &crate::objspace::object::Heap, id: Option<ObjId>) -> bool {
    id.is_some_and(|id| matches!(heap.get(id), Object::Module(m) if &*m.name == "sys"))
}
