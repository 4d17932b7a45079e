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

use super::model::*;
use crate::builtins::BuiltinId;
use crate::compiler::bytecode::flags;
use crate::compiler::{CodeObject, Const, Instr};
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::interpreter::{
    eval, Branch, CallArgs, ConcreteSpace, Fork, Frame, FrameState, IterNext, Op, OpResult, Space,
    Unwind,
};
use crate::objspace::object::{IterState, ObjId, Object, Value};
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
        joinpoints: HashMap::default(),
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
    jump_targets: Vec<bool>,
    pub(super) graph: FunctionGraph,
    pub(super) current: BlockId,
    /// How the current block was made.
    kind: Kind,
    instrs_in_block: usize,
    pub(super) span: Span,
    /// The join points noted so far (see `joins`), by bytecode position.
    pub(super) joinpoints: HashMap<u32, Vec<usize>>,
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
    snapshot: Option<State>,
    /// State at the start of the current instruction (the join point, when it records an
    /// operation).
    instr_state: State,
    /// The current bytecode went through its join check already.
    merge_checked: bool,
    /// Exceptions the last recorded operation can raise into an enclosing handler.
    raise_pending: Option<&'static [&'static str]>,
    /// The `bool` result the last undecided branch switched on.
    last_bool: Option<Hlvalue>,
    diagnostics: Vec<Diagnostic>,
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
    last_locals: Vec<Option<Hlvalue>>,
    /// Instructions run in the current graph since an operation was last recorded (a bound,
    /// see `MAX_STEPS_WITHOUT_OP`).
    steps_without_op: usize,
    /// Index of the instruction being executed.
    instr_pc: u32,
    /// The next step of each unrolled iterator: one object per step, so that the paths of
    /// one step of an unrolled loop merge (not one copy of the rest per path).
    unroll_next: HashMap<ObjId, ObjId>,
    /// The tuple of the other classes of each tuple `except` guard (see `exc_guard_split`).
    pub(super) exc_guard_rest: HashMap<ObjId, ObjId>,
    /// The first step of each unrolling_iterable's iterator.
    unroll_head: HashMap<ObjId, ObjId>,
}

/// Instructions a graph may run without recording an operation before jump targets become
/// join points too, so that a loop that records nothing (`while True: pass`) terminates.
const MAX_STEPS_WITHOUT_OP: usize = 100_000;

impl<C: ConcreteSpace> FlowContext<'_, C> {
    /// The bundled model `globals` star-imported (`from rpython.rlib.rarithmetic import *`).
    fn star_model_name(&self, globals: ObjId) -> Option<Rc<str>> {
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
                let target = self.graph.exceptblock;
                let link = self.close(target, vec![etype, evalue], ExitCase::None);
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
    fn link_to_state(
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
    fn record_local_ref(&mut self, frame: &Frame<Hlvalue>) {
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

    fn builtin_class(&mut self, name: &str) -> Option<ObjId> {
        match Space::load_global(self.objspace, self.globals, &Rc::from(name)) {
            Ok(Value::Obj(id)) => Some(id),
            _ => None,
        }
    }

    fn error(&self, code: &'static str, msg: impl Into<String>) -> Unwind<Hlvalue> {
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

    fn record(&mut self, opname: Op, args: Vec<Hlvalue>) -> OpResult<Hlvalue> {
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

    /// Whether a constant may be folded (immutable from the flow space's point of view).
    /// The names a bundled model module declares as all the reference translates
    /// (`_rpy_complete_ = ("time", ...)`), as text for a message; `None` for any other
    /// module, whose missing names are only unknown.
    fn complete_model_surface(&self, module: Value) -> Option<String> {
        let heap = self.objspace.heap();
        let Value::Obj(m) = module else { return None };
        let Object::Module(m) = heap.get(m) else {
            return None;
        };
        if !m.bundled {
            return None;
        }
        let Some(Value::Obj(t)) = m.dict.get("_rpy_complete_") else {
            return None;
        };
        let Object::Tuple(items) = heap.get(t) else {
            return None;
        };
        let names: Vec<String> = items
            .iter()
            .filter_map(|&v| heap.str_value(v))
            .map(|n| format!("{}.{}", m.name, String::from_utf8_lossy(n)))
            .collect();
        Some(names.join(", "))
    }

    /// Whether `v` is a number or a string (`print` folds its str()).
    fn is_scalar_const(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return true };
        matches!(
            self.objspace.heap().get(id),
            Object::Str(_)
                | Object::Unicode(_)
                | Object::Long(_)
                | Object::RInt { .. }
                | Object::Complex(..)
        )
    }

    /// Whether a bundled model module declares `name` absent from the reference's module
    /// (`_rpy_absent_ = ("disable", ...)` in `rgc`: names of newer rpythons that 0.2.1's
    /// module lacks, whose getattr the reference's flow space finds always raising).
    fn absent_from_reference(&self, module: Value, name: Value) -> bool {
        let heap = self.objspace.heap();
        let (Value::Obj(m), Some(name)) = (module, heap.str_value(name)) else {
            return false;
        };
        let Object::Module(m) = heap.get(m) else {
            return false;
        };
        let Some(Value::Obj(t)) = m.dict.get("_rpy_absent_") else {
            return false;
        };
        match heap.get(t) {
            Object::Tuple(items) => items.iter().any(|&v| heap.str_value(v) == Some(name)),
            _ => false,
        }
    }

    fn foldable(&self, v: Value) -> bool {
        match v {
            Value::Obj(id) => match self.objspace.heap().get(id) {
                Object::Instance(inst) => {
                    // Prebuilt instances are mutable unless frozen with `_freeze_`.
                    let heap = self.objspace.heap();
                    heap.class(inst.class).is_some_and(|c| {
                        c.mro
                            .iter()
                            .any(|&k| heap.class(k).is_some_and(|k| k.dict.contains("_freeze_")))
                    })
                }
                Object::BoundMethod { self_value, .. } => self.foldable(*self_value),
                // (a bytearray's every use is a copy of the prebuilt one, whose reads give
                // the import-time bytes anyway: left to the RTyper)
                Object::Iterator(_) | Object::Cell(_) | Object::ByteArray(_) => false,
                // an instance of a user class (deriving from a built-in type) stays an
                // instance for the annotator
                Object::Unknown {
                    instance_of: Some(_),
                    ..
                } => false,
                // `os.environ[k]` reads the environment of the running program
                Object::Dict(_) => !self.objspace.is_os_environ(id),
                _ => true,
            },
            _ => true,
        }
    }

    fn describe(&mut self, v: Value) -> String {
        match Space::op(self.objspace, Op::Repr, &[v]) {
            Ok(r) => self
                .objspace
                .heap()
                .str_value(r)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .unwrap_or_default(),
            Err(_) => "?".into(),
        }
    }

    /// Folds `op` on constant arguments with the concrete space, as the reference does.
    fn constfold(&mut self, op: Op, consts: &[Value]) -> Option<OpResult<Hlvalue>> {
        match Space::op(self.objspace, op, consts) {
            Ok(v) => {
                // `C.f` is the function itself in the graph (an unbound method only
                // matters to import-time code)
                let v = match v {
                    Value::Obj(id) => match self.objspace.heap().get(id) {
                        Object::UnboundMethod { func, .. } => *func,
                        _ => v,
                    },
                    _ => v,
                };
                if matches!(v, Value::Obj(id) if matches!(self.objspace.heap().get(id), Object::Long(_)))
                {
                    return None;
                }
                if op == Op::GetSlice
                    && matches!(v, Value::Obj(id) if matches!(self.objspace.heap().get(id), Object::List(_)))
                {
                    return None;
                }
                Some(Ok(Hlvalue::Const(v)))
            }
            // int()/float() are calls of the built-in types in the reference, folded only
            // when they succeed: a failing one stays an operation that raises at run time.
            Err(Unwind::Raise { .. }) if matches!(op, Op::Int | Op::Float) => None,
            Err(Unwind::Raise { etype, evalue }) => {
                let args: Vec<String> = consts.iter().map(|&c| self.describe(c)).collect();
                let ename = match etype {
                    Value::Obj(id) => self
                        .objspace
                        .heap()
                        .class(id)
                        .map(|c| c.name.to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let emsg = match Space::op(self.objspace, Op::Str, &[evalue]) {
                    Ok(s) => self
                        .objspace
                        .heap()
                        .str_value(s)
                        .map(|s| String::from_utf8_lossy(s).into_owned())
                        .unwrap_or_default(),
                    Err(_) => String::new(),
                };
                Some(Err(self.error(
                    "RPY108",
                    format!(
                        "{}({}) always raises {}: {}",
                        op.name(),
                        args.join(", "),
                        ename,
                        emsg
                    ),
                )))
            }
            Err(_) => None,
        }
    }

    fn is_unrolling(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return false };
        match self.objspace.heap().get(id) {
            Object::Instance(inst) => self
                .objspace
                .heap()
                .class(inst.class)
                .is_some_and(|c| &*c.name == "unrolling_iterable"),
            _ => false,
        }
    }

    /// A function of a library module (imported now if needed), for calls the flow space
    /// redirects.
    fn library_function(&mut self, module: &str, name: &str) -> OpResult<Hlvalue> {
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
    fn builtin_id(&self, v: Hlvalue) -> Option<BuiltinId> {
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
    /// for any other callable, whose calls may raise anything.
    fn builtin_call_raises(&self, v: Hlvalue) -> Option<&'static [&'static str]> {
        match v {
            Hlvalue::Const(Value::Obj(id)) => match self.objspace.heap().get(id) {
                Object::Builtin {
                    id,
                    bound_self: None,
                } if id.is_unqualified() => Some(id.call_raises()),
                Object::Class(c) => c.builtin.map(|b| b.call_raises()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The built-in helper a `print` statement calls in graphs.
    fn print_helper(&mut self, id: BuiltinId) -> Value {
        Value::Obj(self.objspace.heap_mut().alloc(Object::Builtin {
            id,
            bound_self: None,
        }))
    }

    /// `raise` of a value known to be an exception class.
    fn raise_class(&mut self, cls: Value, arg: Option<Hlvalue>) -> Unwind<Hlvalue> {
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

impl<C: ConcreteSpace> Space for FlowContext<'_, C> {
    type Value = Hlvalue;

    fn set_span(&mut self, span: Span) {
        self.prev_span = self.span;
        self.span = span;
    }

    fn before_instr(&mut self, frame: &Frame<Hlvalue>) -> OpResult<Hlvalue, ()> {
        let pc = frame.state.pc;
        self.instr_state.clone_from(&frame.state);
        self.merge_checked = false;
        self.steps_without_op += 1;
        if self.steps_without_op > MAX_STEPS_WITHOUT_OP
            && self.jump_targets[pc as usize]
            && self.instrs_in_block > 0
        {
            // A loop that records no operation (`while True: pass`): its jump target is a
            // join point too, so that flowing terminates.
            self.merge_checked = true;
            let state = frame.state.clone();
            if self.join_at(state) {
                return Err(Unwind::Stop);
            }
        }
        if let Some(crate::compiler::bytecode::Instr::StoreFast(j)) =
            frame.code.co_code.get(pc as usize)
        {
            if let Some(s) = self.store_spans.get_mut(*j as usize) {
                *s = self.span;
            }
        }
        if matches!(
            frame.code.co_code.get(pc as usize),
            Some(crate::compiler::bytecode::Instr::ReturnValue)
        ) {
            self.last_locals.clone_from(&frame.state.locals);
        }
        self.instrs_in_block += 1;
        self.instr_pc = pc;
        if let Some(crate::compiler::bytecode::Instr::MapAdd(_)) =
            frame.code.co_code.get(pc as usize)
        {
            // As in the reference flow space, which has no MAP_ADD. (`set_span` already
            // pointed `self.span` at this instruction.)
            return Err(self.error(
                "RPY109",
                "dict comprehensions are not RPython: build the dict with a loop",
            ));
        }
        self.snapshot = if frame.state.blocks.is_empty() {
            None
        } else {
            Some(frame.state.clone())
        };
        // An operation of the previous instruction may have left this pending when that
        // instruction ended without `after_instr` (it raised): it is not this one's.
        self.raise_pending = None;
        Ok(())
    }

    fn after_instr(&mut self, frame: &Frame<Hlvalue>) -> OpResult<Hlvalue, ()> {
        self.record_local_ref(frame);
        let Some(canraise) = self.raise_pending.take() else {
            return Ok(());
        };
        let snapshot = self
            .snapshot
            .take()
            .expect("snapshot while a handler is active");
        let cur = self.current;
        self.graph.block_mut(cur).exitswitch = ExitSwitch::LastException;
        self.link_to_state(frame.state.clone(), ExitCase::None, None);
        for name in canraise {
            let Some(cls) = self.builtin_class(name) else {
                continue;
            };
            let le = self.graph.new_var(Some("last_exception".into()));
            let lv = self.graph.new_var(Some("last_exc_value".into()));
            let mut state = snapshot.clone();
            let handler = state.blocks.pop().expect("active handler");
            state.stack.truncate(handler.depth as usize);
            let etype = if *name == "Exception" {
                Hlvalue::Var(le)
            } else {
                Hlvalue::Const(Value::Obj(cls))
            };
            state.stack.push(Hlvalue::Var(lv));
            state.stack.push(etype);
            state.pc = handler.target;
            self.link_to_state(state, ExitCase::Exception(cls), Some((le, lv)));
        }
        Err(Unwind::Stop)
    }

    fn constant(&mut self, c: &Const) -> Hlvalue {
        Hlvalue::Const(Space::constant(self.objspace, c))
    }
    fn wrap(&mut self, v: Value) -> Hlvalue {
        Hlvalue::Const(v)
    }
    fn name_const(&mut self, name: &Rc<str>) -> Hlvalue {
        Hlvalue::Const(Space::name_const(self.objspace, name))
    }
    fn const_str(&self, v: &Hlvalue) -> Option<Rc<str>> {
        match v {
            Hlvalue::Const(c) => Space::const_str(self.objspace, c),
            _ => None,
        }
    }

    fn op(&mut self, op: Op, args: &[Hlvalue]) -> OpResult<Hlvalue> {
        if op == Op::Pow || op == Op::InplacePow {
            return Err(self.error("RPY109", "a ** b is not RPython"));
        }
        if op == Op::DelAttr {
            return Err(self.error("RPY109", "deleting attributes is not RPython"));
        }
        if op == Op::NewSlice {
            return Err(self.error(
                "RPY107",
                "slicing with a step (extended slicing) is not RPython",
            ));
        }
        let consts: Option<Vec<Value>> = args.iter().map(|a| a.constant()).collect();
        if let Some(consts) = &consts {
            let first_obj = match consts.first() {
                Some(Value::Obj(id)) => Some(*id),
                _ => None,
            };
            if op == Op::Iter && self.is_unrolling(consts[0]) {
                // unrolling_iterable: iterate at flow time, producing one copy of the loop
                // body per item. One first step per iterable (as the reference's
                // `get_unroller`), so that paths entering the same loop merge.
                if let Some(&head) = first_obj.and_then(|o| self.unroll_head.get(&o)) {
                    return Ok(Hlvalue::Const(Value::Obj(head)));
                }
                let mut items = Vec::new();
                if let Ok(it) = Space::op(self.objspace, Op::Iter, consts) {
                    while let Ok(IterNext::Item(v)) = Space::next(self.objspace, &it) {
                        items.push(v);
                    }
                }
                let id = self
                    .objspace
                    .heap_mut()
                    .alloc(Object::Iterator(IterState::Seq { items, pos: 0 }));
                if let Some(o) = first_obj {
                    self.unroll_head.insert(o, id);
                }
                return Ok(Hlvalue::Const(Value::Obj(id)));
            }
            if op == Op::GetAttr && is_sys_module(self.objspace.heap(), first_obj) {
                // As in the reference: only a few attributes of sys are constants.
                let name = self
                    .objspace
                    .heap()
                    .str_value(consts[1])
                    .map(|s| s.to_vec());
                let known = name.is_some_and(|n| SYS_CONSTANTS.iter().any(|k| k.as_bytes() == n));
                if !known {
                    return self.record(op, args.to_vec());
                }
            }
            if op.is_pure() && consts.iter().all(|&c| self.foldable(c)) {
                let heap_before = self.objspace.heap().len();
                if let Some(r) = self.constfold(op, consts) {
                    if let Ok(Hlvalue::Const(v @ Value::Obj(id))) = r {
                        if let Object::Unknown { name, .. } = self.objspace.heap().get(id) {
                            // A name a bundled model lacks: one warning here, and the
                            // value is unknown.
                            let msg = format!("the name `{name}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked");
                            // (a getattr of a module, or one that made a new unknown: a
                            // name a model's object lacks, as `llop.debug_fatalerror`)
                            let of_model = op == Op::GetAttr
                                && (matches!(consts[0], Value::Obj(m) if matches!(self.objspace.heap().get(m), Object::Module(_)))
                                    || id.0 as usize >= heap_before);
                            if of_model && self.absent_from_reference(consts[0], consts[1]) {
                                // the reference's flow space folds the getattr and finds it
                                // always raising: a flow-stage error there too
                                self.diagnostics.push(Diagnostic::new(
                                    "RPY108",
                                    self.span,
                                    format!("`{name}` does not exist in the reference's rpython (0.2.1): reading it always raises AttributeError"),
                                ));
                            } else if of_model {
                                let diag = match self.complete_model_surface(consts[0]) {
                                    // A model that lists all the reference translates
                                    // (`_rpy_complete_`, as `time`): the name is missing
                                    // from the real thing too, in translated code.
                                    Some(provided) => Diagnostic::new(
                                        "RPY210",
                                        self.span,
                                        format!("`{name}` is not supported by RPython in translated code (it provides {provided})"),
                                    ),
                                    None => Diagnostic::new("RPY007", self.span, msg),
                                };
                                self.diagnostics.push(diag);
                            }
                            return Ok(Hlvalue::Const(v));
                        }
                    }
                    return r;
                }
            }
        }
        self.record(op, args.to_vec())
    }

    fn call(&mut self, func: Hlvalue, args: CallArgs<Hlvalue>) -> OpResult<Hlvalue> {
        if args.starstar.is_some() {
            return Err(self.error(
                "RPY109",
                "dict unpacking in a call (`f(**d)`) is not RPython",
            ));
        }
        // As in the reference flow space: open() becomes rlib.rfile.create_file().
        let func = match self.builtin_id(func) {
            Some(BuiltinId::Open) => self.library_function("rpython.rlib.rfile", "create_file")?,
            _ => func,
        };
        // A bundled model's function that the reference's flow space replaces by its
        // RPython version (os.path.join → rpath's two-argument join) names that version in
        // `_rpy_flow_redirect_`; import-time code keeps calling the CPython-like one.
        let func = match func {
            Hlvalue::Const(Value::Obj(id)) => match self.objspace.heap().get(id) {
                Object::Function(f) => f
                    .attrs
                    .get("_rpy_flow_redirect_")
                    .map_or(func, Hlvalue::Const),
                _ => func,
            },
            _ => func,
        };
        if let Some(id) = self.builtin_id(func) {
            use BuiltinId as B;
            let name = id.name();
            match id {
                B::ObjectmodelWeAreTranslated => return Ok(Hlvalue::Const(Value::Bool(true))),
                B::Getattr if args.positional.len() == 3 => {
                    return Err(
                        self.error("RPY109", "getattr() with three arguments is not supported")
                    )
                }
                B::Locals | B::Globals | B::Vars | B::Eval | B::Compile => {
                    return Err(self.error("RPY109", format!("{}() is not RPython", name)))
                }
                _ => {}
            }
            if let Some(op) = id.flow_op(args.positional.len()) {
                if !args.is_simple() {
                    return Err(self.error(
                        "RPY109",
                        format!("should not call {}() with keyword arguments", name),
                    ));
                }
                return self.op(op, &args.positional);
            }
        }
        if args.is_simple() {
            let mut all = vec![func];
            all.extend(args.positional);
            return self.record(Op::SimpleCall, all);
        }
        // The call shape constant: (number of positional args, keyword names, has *args).
        let names: Vec<Value> = args
            .keywords
            .iter()
            .map(|(n, _)| Space::name_const(self.objspace, n))
            .collect();
        let names = self.objspace.heap_mut().alloc(Object::Tuple(names));
        let shape = Value::Obj(self.objspace.heap_mut().alloc(Object::Tuple(vec![
            Value::Int(args.positional.len() as i64),
            Value::Obj(names),
            Value::Bool(args.star.is_some()),
        ])));
        let mut all = vec![func, Hlvalue::Const(shape)];
        all.extend(args.positional);
        all.extend(args.keywords.into_iter().map(|(_, v)| v));
        all.extend(args.star);
        self.record(Op::CallArgs, all)
    }

    fn branch(&mut self, cond: &Hlvalue) -> OpResult<Hlvalue, Branch> {
        let b = self.op(Op::Bool, &[*cond])?;
        match b {
            Hlvalue::Const(v) => match Space::branch(self.objspace, &v) {
                Ok(k) => Ok(k),
                Err(_) => Err(self.error("RPY108", "truth value of a constant cannot be computed")),
            },
            _ => {
                self.last_bool = Some(b);
                Ok(Branch::Unknown)
            }
        }
    }

    fn next(&mut self, iter: &Hlvalue) -> OpResult<Hlvalue, IterNext<Hlvalue>> {
        if let Hlvalue::Const(Value::Obj(id)) = *iter {
            if let Object::Iterator(IterState::Seq { items, pos }) =
                self.objspace.heap().get(id).clone()
            {
                let (items, pos) = (items.clone(), pos);
                if pos >= items.len() {
                    return Ok(IterNext::Done);
                }
                let next_iter = match self.unroll_next.get(&id) {
                    Some(&n) => n,
                    None => {
                        let n = self
                            .objspace
                            .heap_mut()
                            .alloc(Object::Iterator(IterState::Seq {
                                items: items.clone(),
                                pos: pos + 1,
                            }));
                        self.unroll_next.insert(id, n);
                        n
                    }
                };
                return Ok(IterNext::Unrolled {
                    item: Hlvalue::Const(items[pos]),
                    next_iter: Hlvalue::Const(Value::Obj(next_iter)),
                });
            }
        }
        let saved = self.snapshot.take();
        let item = self.record(Op::Next, vec![*iter]);
        let item = match item {
            Ok(i) => i,
            Err(e) => {
                self.snapshot = saved;
                return Err(e);
            }
        };
        self.snapshot = saved;
        Ok(IterNext::Unknown(item))
    }

    fn unpack(&mut self, seq: &Hlvalue, n: usize) -> OpResult<Hlvalue, Vec<Hlvalue>> {
        if let Hlvalue::Const(c) = *seq {
            if let Ok(items) = Space::unpack(self.objspace, &c, n) {
                return Ok(items.into_iter().map(Hlvalue::Const).collect());
            }
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(self.op(Op::GetItem, &[*seq, Hlvalue::Const(Value::Int(i as i64))])?);
        }
        Ok(out)
    }

    fn exc_guard_split(&mut self, cls: &Hlvalue) -> Option<(Hlvalue, Hlvalue)> {
        let Hlvalue::Const(Value::Obj(id)) = *cls else {
            return None;
        };
        let Object::Tuple(items) = self.objspace.heap().get(id) else {
            return None;
        };
        if items.len() < 2 {
            return None;
        }
        let (first, others) = (items[0], items[1..].to_vec());
        // one tuple of the others per guard, so that a block flowed again sees the same
        // constant
        let rest = match self.exc_guard_rest.get(&id) {
            Some(&r) => r,
            None => {
                let r = self.objspace.heap_mut().alloc(Object::Tuple(others));
                self.exc_guard_rest.insert(id, r);
                r
            }
        };
        Some((Hlvalue::Const(first), Hlvalue::Const(Value::Obj(rest))))
    }

    fn exc_match(&mut self, etype: &Hlvalue, cls: &Hlvalue) -> OpResult<Hlvalue> {
        let Hlvalue::Const(c) = *cls else {
            return Err(self.error("RPY109", "non-constant except guard"));
        };
        let classes: Vec<Value> = match c {
            Value::Obj(id) => match self.objspace.heap().get(id) {
                Object::Tuple(items) => items.clone(),
                _ => vec![c],
            },
            _ => vec![c],
        };
        for &k in &classes {
            if let Value::Obj(id) = k {
                if let Some(name) = self.objspace.heap().class(id).map(|c| c.name.clone()) {
                    if (&*name == "NotImplementedError" || &*name == "AssertionError")
                        && self
                            .objspace
                            .heap()
                            .class(id)
                            .is_some_and(|c| c.builtin.is_some())
                    {
                        return Err(self.error(
                            "RPY109",
                            format!("catching {} is not valid in RPython", name),
                        ));
                    }
                }
            }
        }
        let mut result = Hlvalue::Const(Value::Bool(false));
        for k in classes {
            let r = self.op(Op::IsSubtype, &[*etype, Hlvalue::Const(k)])?;
            match r {
                Hlvalue::Const(Value::Bool(true)) => return Ok(r),
                Hlvalue::Const(_) => {}
                _ => result = r,
            }
        }
        Ok(result)
    }

    fn raise(&mut self, exc: Hlvalue, arg: Option<Hlvalue>) -> Unwind<Hlvalue> {
        match exc {
            Hlvalue::Const(c @ Value::Obj(id)) if self.objspace.heap().class(id).is_some() => {
                self.raise_class(c, arg)
            }
            Hlvalue::Const(c @ Value::Obj(id))
                if matches!(self.objspace.heap().get(id), Object::Instance(_)) =>
            {
                let Object::Instance(inst) = self.objspace.heap().get(id) else {
                    unreachable!()
                };
                Unwind::Raise {
                    etype: Hlvalue::Const(Value::Obj(inst.class)),
                    evalue: Hlvalue::Const(c),
                }
            }
            Hlvalue::Var(_) => match self.op(Op::Type, &[exc]) {
                Ok(etype) => Unwind::Raise { etype, evalue: exc },
                Err(e) => e,
            },
            _ => self.error("RPY109", "exceptions must be classes or instances"),
        }
    }

    fn unbound_local(&mut self, name: &str) -> Unwind<Hlvalue> {
        self.error(
            "RPY110",
            format!("local variable `{}` referenced before assignment", name),
        )
    }

    fn load_global(&mut self, globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue> {
        match Space::load_global(self.objspace, globals, name) {
            Ok(v @ Value::Obj(id))
                if matches!(self.objspace.heap().get(id), Object::Unknown { .. }) =>
            {
                // A builtin rpy-lsp does not model (none today): one warning at each use.
                let own = matches!(self.objspace.heap().get(globals), Object::Module(m) if m.dict.get(name).is_some());
                if !own {
                    let msg = format!("the builtin `{name}` is not modelled by rpy-lsp: what comes from it is unknown, and the code using it is not checked");
                    self.diagnostics
                        .push(Diagnostic::new("RPY007", self.span, msg));
                }
                Ok(Hlvalue::Const(v))
            }
            Ok(v) => Ok(Hlvalue::Const(v)),
            Err(_) => match self.star_model_name(globals) {
                // `from <bundled model> import *`: the real module may define it
                Some(model) => {
                    let what = format!("{model}.{name}");
                    let msg = format!("the name `{what}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked");
                    self.diagnostics
                        .push(Diagnostic::new("RPY007", self.span, msg));
                    let u = self.objspace.heap_mut().alloc(Object::Unknown {
                        name: Rc::from(what.as_str()),
                        instance_of: None,
                    });
                    Ok(Hlvalue::Const(Value::Obj(u)))
                }
                None => Err(self.error("RPY110", format!("global name `{}` is not defined", name))),
            },
        }
    }

    fn store_global(
        &mut self,
        _globals: ObjId,
        name: &Rc<str>,
        _v: Hlvalue,
    ) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY102", format!("attempting to modify global variable `{}`: module globals are constants after import", name)))
    }
    fn delete_global(&mut self, _globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("deleting global variable `{}` is not RPython", name),
        ))
    }
    fn load_name(&mut self, _ns: ObjId, globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue> {
        self.load_global(globals, name)
    }
    fn store_name(&mut self, _ns: ObjId, name: &Rc<str>, _v: Hlvalue) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("modifying globals (`{}`) is not RPython", name),
        ))
    }
    fn delete_name(&mut self, _ns: ObjId, name: &Rc<str>) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("modifying globals (`{}`) is not RPython", name),
        ))
    }
    fn load_locals(&mut self, _ns: ObjId) -> OpResult<Hlvalue> {
        Err(self.error("RPY109", "locals() is not RPython"))
    }
    fn cell_get(&mut self, cell: &Hlvalue, name: &Rc<str>) -> OpResult<Hlvalue> {
        if let Hlvalue::Const(c) = *cell {
            if let Ok(v) = Space::cell_get(self.objspace, &c, name) {
                return Ok(Hlvalue::Const(v));
            }
        }
        Err(self.error("RPY110", format!("undefined closure variable `{}`", name)))
    }
    fn cell_set(&mut self, _cell: &Hlvalue, _v: Hlvalue) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY101", "RPython functions cannot create closures"))
    }

    fn make_function(
        &mut self,
        code: Rc<CodeObject>,
        defaults: Vec<Hlvalue>,
        closure: Option<Hlvalue>,
        globals: ObjId,
    ) -> OpResult<Hlvalue> {
        if code.co_flags & crate::compiler::bytecode::flags::CLASS_BODY != 0 {
            // Stop before the body runs, so that it is not flowed as a function too.
            return Err(self.error("RPY106", "defining classes inside functions is not RPython"));
        }
        if closure.is_some() {
            return Err(self.error(
                "RPY101",
                format!(
                    "RPython functions cannot create closures (`{}`)",
                    code.co_name
                ),
            ));
        }
        let Some(defaults) = defaults
            .iter()
            .map(|d| d.constant())
            .collect::<Option<Vec<_>>>()
        else {
            return Err(self.error(
                "RPY106",
                format!(
                    "dynamically created function `{}` must have constant default values",
                    code.co_name
                ),
            ));
        };
        match Space::make_function(self.objspace, code, defaults, None, globals) {
            Ok(f) => Ok(Hlvalue::Const(f)),
            Err(_) => Err(self.error("RPY106", "cannot create this function at run time")),
        }
    }
    fn build_class(
        &mut self,
        _n: Hlvalue,
        _b: Hlvalue,
        _ns: Hlvalue,
        _g: ObjId,
    ) -> OpResult<Hlvalue> {
        Err(self.error("RPY106", "defining classes inside functions is not RPython"))
    }

    /// As in the reference flow space: `__exit__(value, value, None)`, since annotations
    /// cannot mix exception classes with None.
    fn with_exit_exception_args(&mut self, _etype: Hlvalue, evalue: Hlvalue) -> (Hlvalue, Hlvalue) {
        (evalue, evalue)
    }

    fn import_name(
        &mut self,
        name: &Rc<str>,
        fromlist: Hlvalue,
        level: Hlvalue,
        globals: ObjId,
    ) -> OpResult<Hlvalue> {
        let (Hlvalue::Const(f), Hlvalue::Const(l)) = (fromlist, level) else {
            return Err(self.error("RPY109", "import with non-constant arguments"));
        };
        match Space::import_name(self.objspace, name, f, l, globals) {
            Ok(m) => Ok(Hlvalue::Const(m)),
            Err(Unwind::Raise { etype, evalue }) => Err(Unwind::Raise {
                etype: Hlvalue::Const(etype),
                evalue: Hlvalue::Const(evalue),
            }),
            Err(_) => Err(self.error("RPY002", format!("cannot import `{}`", name))),
        }
    }
    fn import_from(&mut self, module: &Hlvalue, name: &Rc<str>) -> OpResult<Hlvalue> {
        let Hlvalue::Const(m) = *module else {
            return Err(self.error("RPY109", "import from a non-constant"));
        };
        match Space::import_from(self.objspace, &m, name) {
            Ok(v) => Ok(Hlvalue::Const(v)),
            Err(_) => Err(self.error("RPY002", format!("cannot import name `{}`", name))),
        }
    }
    fn import_star(&mut self, _m: Hlvalue, _ns: ObjId) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY109", "import * is not RPython"))
    }

    fn print_item(&mut self, dest: Option<Hlvalue>, v: Hlvalue) -> OpResult<Hlvalue, ()> {
        if dest.is_some() {
            return Err(self.error(
                "RPY104",
                "`print >>f` is not RPython: only printing to stdout is supported",
            ));
        }
        // As the reference: print becomes a call of an internal helper with the item, whose
        // str() of a constant is folded (`print 1j` prints the constant string "1j").
        // (Numbers and strings only: containers and instances stay values the annotator
        // and RTyper print, and a value rpy-lsp does not model has no text.)
        let v = match v {
            Hlvalue::Const(c) if self.is_scalar_const(c) => match self.constfold(Op::Str, &[c]) {
                Some(Ok(s)) => s,
                Some(Err(e)) => return Err(e),
                None => Hlvalue::Const(c),
            },
            v => v,
        };
        let helper = self.print_helper(BuiltinId::RpythonPrintItem);
        self.record(Op::SimpleCall, vec![Hlvalue::Const(helper), v])?;
        Ok(())
    }
    fn print_newline(&mut self, dest: Option<Hlvalue>) -> OpResult<Hlvalue, ()> {
        if dest.is_some() {
            return Err(self.error(
                "RPY104",
                "`print >>f` is not RPython: only printing to stdout is supported",
            ));
        }
        let helper = self.print_helper(BuiltinId::RpythonPrintNewline);
        self.record(Op::SimpleCall, vec![Hlvalue::Const(helper)])?;
        Ok(())
    }
    fn exec(&mut self, _args: Vec<Hlvalue>) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY103", "the exec statement is not RPython"))
    }
    fn yield_value(&mut self, v: Hlvalue) -> OpResult<Hlvalue> {
        self.record(Op::YieldValue, vec![v])?;
        Ok(Hlvalue::Const(Value::None))
    }
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

/// Whether `id` is the `sys` module.
pub fn is_sys_module(heap: &crate::objspace::object::Heap, id: Option<ObjId>) -> bool {
    id.is_some_and(|id| matches!(heap.get(id), Object::Module(m) if &*m.name == "sys"))
}
