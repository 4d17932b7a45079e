//! The fixpoint (seed 001, "The Annotation Pass"): a worklist of blocks whose input
//! annotations changed. Flowing a block annotates its operations in order, then follows its
//! exits: links carry annotations (narrowed by what the branch condition tells) to the
//! target blocks, which are re-scheduled when their inputs generalize. Reading a list item,
//! a dict entry, an attribute or a function's result registers the position, and the block
//! is re-flowed when that generalizes.

/// How an argument of a method that unknown code may call is named among the unknowns:
/// a consequence of some unmodelled name, which `AnnotatedProgram::unknowns_to_report`
/// lists only when no such name is known.
pub(crate) const UNKNOWN_CALLER_ARGUMENT: &str = "an argument of";
pub(crate) const UNKNOWN_CALLER: &str = "which code rpy-lsp does not model may call";

use super::bookkeeper::Bookkeeper;
use super::description::Desc;
use super::model::*;
use super::{AnnError, AnnotatedProgram};
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::flowspace::{
    BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, Link, LinkId, VarId,
};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{Heap, ObjId, Object, Value};
use crate::syntax::Span;
use std::collections::VecDeque;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BlockState {
    Unseen,
    Pending,
    Done,
    /// An operation can never succeed with the current annotations (its index).
    Blocked(u32),
}

/// Where a Variable got its value, resolved to a source span only for messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Origin {
    Span(Span),
    /// Argument `i` of a link.
    Link(LinkId, u32),
}

/// What sends values into a block.
#[derive(Clone, Copy, Debug)]
pub(super) enum Incoming {
    Link(LinkId),
    Call(Span),
    Entry,
}

impl Incoming {
    fn origin(self, i: usize) -> Option<Origin> {
        match self {
            Incoming::Link(l) => Some(Origin::Link(l, i as u32)),
            Incoming::Call(s) => Some(Origin::Span(s)),
            Incoming::Entry => None,
        }
    }
}

/// Annotation state of one graph.
pub(super) struct GraphInfo {
    pub bindings: Vec<Option<SomeValue>>,
    /// Where each Variable's value came from (for messages).
    pub origins: Vec<Option<Origin>>,
    pub state: Vec<BlockState>,
    /// For pending blocks: the first operation to annotate again (0 when the inputs
    /// changed; the earliest re-flowed position otherwise).
    pub restart: Vec<u32>,
    /// Call positions to re-flow when the return annotation generalizes.
    pub callers: super::callfamily::Callers,
    /// Each distinct return site: where, and what it returned.
    pub return_sources: Vec<(Option<Origin>, SomeValue)>,
    pub desc: Option<DescId>,
    /// Per link: whether the annotator followed it (a branch it knows is never taken, as
    /// `x is None` false for an `x` that is always None, is not).
    pub links_followed: Vec<bool>,
    /// Building the graph reported an error (a construct the reference's flow space
    /// refuses): the reference stops there, so what annotating it finds is not reported.
    pub flow_error: bool,
    /// The (block, operation) positions of the `append` calls of loops filling a new
    /// list (`fill_loops`).
    pub fill_appends: Vec<(u32, u32)>,
}

/// The flow graph of a function as first built, for its other specializations.
pub(super) enum Flowed<'s> {
    /// The engine's graph (read in place).
    Prebuilt(&'s FunctionGraph, &'s [Diagnostic]),
    /// Flowed by the annotator.
    Built(Box<FunctionGraph>, Vec<Diagnostic>),
}

pub(super) struct Annotator<'s, C: ConcreteSpace> {
    pub space: &'s mut C,
    pub bk: Bookkeeper,
    pub graphs: Vec<FunctionGraph>,
    pub info: Vec<GraphInfo>,
    pending: VecDeque<(u32, u32)>,
    pub graph_of_func: HashMap<ObjId, Vec<usize>>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) seen: HashSet<(&'static str, Span, String)>,
    /// Errors of the reference's RTyper stage (code, span), see `AnnError::typer`.
    pub(super) typer_stage: HashSet<(&'static str, Span)>,
    /// The errors (code, span) reported while annotating each operation: withdrawn when
    /// the operation is annotated again with a poisoned argument (`report::retract_at`).
    pub(super) reported_at: HashMap<Position, Vec<(&'static str, Span, usize)>>,
    /// Where each error was reported, in order (`None`: not while annotating an
    /// operation, e.g. a join): an index into it is the `usize` of `reported_at`.
    pub(super) report_log: Vec<(Option<Position>, &'static str)>,
    /// Whether an operation is being annotated (`reported_at` is kept for those only).
    pub(super) annotating_op: bool,
    /// The checks after the annotation look at the operations again: a constant whose
    /// annotation fails was reported where the annotation met it, not at whatever
    /// operation was processed last.
    checking_after: bool,
    pub entry_graph: Option<usize>,
    /// Functions whose graph could not be built (reported once).
    pub flow_failed: HashSet<ObjId>,
    /// Flow graphs built before annotation (by the engine) with their diagnostics, used
    /// instead of flowing the function again: copied when the annotator reaches them.
    pub prebuilt_graphs: HashMap<ObjId, (&'s FunctionGraph, &'s [Diagnostic])>,
    /// The graph (with its diagnostics) each function got when first flowed or taken from
    /// `prebuilt_graphs`, copied for the function's other specializations: flowing is a
    /// function of the code and of the heap, and only running import-time code (a
    /// `specialize.memo` call, which empties this) changes the heap during annotation.
    /// The low-level helpers are specialized per type: flowing them again and again was a
    /// tenth of a check.
    pub(super) flowed: HashMap<ObjId, Flowed<'s>>,
    /// Call operations whose callee was None when they were flowed.
    pub none_calls: Vec<Position>,
    /// Checks of lists made on the final annotations (`checks.rs`), with the place of
    /// the operation that needs them: whether the items are single characters then
    /// depends on every later append, so it cannot be decided when the operation is seen.
    pub list_checks: Vec<(ListDefId, Span, ListCheck)>,
    /// The graph of the last function `call_function` called (for messages).
    pub last_called_graph: Option<u32>,
    /// Results of `specialize.memo` functions, by function and argument values.
    pub memo_results: HashMap<(ObjId, Vec<crate::objspace::object::HashKey>), Value>,
    /// Source files of rpy-lsp's bundled models.
    pub(super) bundled_files: HashSet<crate::syntax::FileId>,
    /// Unpackings of a tuple into the wrong number of targets: each always raises, so its
    /// path stops there (position, span, explanation).
    pub raising_unpacks: Vec<(Position, Span, String)>,
    /// Attribute names read on unknown values: unknown code may call any method of these
    /// names, with arguments the annotator does not see.
    pub names_read_on_unknown: crate::fasthash::HashSet<Rc<str>>,
    /// Graphs annotated only because unknown code may call them (no known call reached
    /// them): what is wrong inside them is not reported, the reference may never reach them.
    pub speculative: crate::fasthash::HashSet<u32>,
    /// The shapes of the calls of each function family.
    pub call_shapes: super::callshapes::CallShapes,
    /// Call families and their cached results (`callfamily`).
    pub families: super::callfamily::CallFamilies,
    /// Classes whose `__init__` call was refused (and reported): the attributes it would
    /// have set are missing because of that error, so reading them is no new error.
    pub failed_inits: HashSet<ClassDefId>,
}

impl<'s, C: ConcreteSpace> Annotator<'s, C> {
    pub fn new(space: &'s mut C) -> Annotator<'s, C> {
        let mut bk = Bookkeeper::new(space.heap());
        bk.os_environ = space.os_environ();
        let heap = space.heap();
        let mut bundled_files: HashSet<crate::syntax::FileId> = (0..heap.len() as u32)
            .filter_map(|i| match heap.get(ObjId(i)) {
                Object::Module(m) if m.bundled => m.file,
                _ => None,
            })
            .collect();
        bundled_files.extend(space.bundled_file_ids());
        Annotator {
            space,
            bk,
            graphs: Vec::new(),
            info: Vec::new(),
            pending: VecDeque::new(),
            graph_of_func: HashMap::default(),
            diagnostics: Vec::new(),
            seen: HashSet::default(),
            typer_stage: HashSet::default(),
            reported_at: HashMap::default(),
            report_log: Vec::new(),
            annotating_op: false,
            checking_after: false,
            entry_graph: None,
            flow_failed: HashSet::default(),
            prebuilt_graphs: HashMap::default(),
            flowed: HashMap::default(),
            none_calls: Vec::new(),
            last_called_graph: None,
            list_checks: Vec::new(),
            memo_results: HashMap::default(),
            bundled_files,
            raising_unpacks: Vec::new(),
            families: Default::default(),
            names_read_on_unknown: Default::default(),
            speculative: Default::default(),
            call_shapes: Default::default(),
            failed_inits: HashSet::default(),
        }
    }

    pub fn heap(&self) -> &Heap {
        self.space.heap()
    }

    /// `argv` of a standalone entry point: a resizable list of strings without NULs.
    pub fn argv_annotation(&mut self) -> SomeValue {
        let def = self.bk.new_listdef(SomeValue::string0(true));
        let it = self.bk.list_item(def);
        self.bk.items[it.index()].resized = true;
        self.bk.items[it.index()].resized_outside_fill = true;
        self.bk.items[it.index()].mutated = true;
        SomeValue::List { def, konst: None }
    }

    // ----- graphs -----

    pub fn add_graph(&mut self, graph: FunctionGraph, desc: Option<DescId>) -> u32 {
        let nvars = graph.vars.len();
        let nblocks = graph.blocks.len();
        let nlinks = graph.links.len();
        let id = self.graphs.len() as u32;
        if let Some(f) = graph.func {
            self.graph_of_func.entry(f).or_default().push(id as usize);
        }
        let fill_appends = {
            let heap = self.space.heap();
            let is_str = |v: Value, s: &str| super::fill_loops::names(heap, v, s);
            super::fill_loops::loop_fill_appends(&graph, &is_str)
        };
        self.graphs.push(graph);
        self.info.push(GraphInfo {
            bindings: vec![None; nvars],
            origins: vec![None; nvars],
            state: vec![BlockState::Unseen; nblocks],
            restart: vec![0; nblocks],
            callers: Default::default(),
            return_sources: Vec::new(),
            desc,
            links_followed: vec![false; nlinks],
            flow_error: false,
            fill_appends,
        });
        id
    }

    pub fn annotate_entry(&mut self, entry: ObjId, args: Vec<SomeValue>, standalone: bool) {
        self.prepare_ext_registry();
        let span = match self.heap().get(entry) {
            Object::Function(f) => f.code.name_span,
            _ => Span::default(),
        };
        let desc = match self.bk.getdesc(self.space.heap(), entry) {
            Ok(d) => d,
            Err(e) => {
                self.report(e, span);
                return;
            }
        };
        let call = super::call::ArgsS::simple(args);
        match self.entry_call(desc, call) {
            Ok(g) => self.entry_graph = Some(g as usize),
            Err(e) => {
                // a flow error of the entry point itself is reported where it happened
                if !self.flow_failed.contains(&entry) {
                    self.report(e, span);
                }
                return;
            }
        }
        self.complete();
        self.checking_after = true;
        self.check_typer_limits();
        self.report_blocked();
        if standalone {
            self.check_standalone_return();
        }
        self.checking_after = false;
    }

    pub fn complete(&mut self) {
        while let Some((g, b)) = self.pending.pop_front() {
            if self.info[g as usize].state[b as usize] != BlockState::Pending {
                continue;
            }
            self.flowin(g, b);
            // As the reference, callers see a new result when the return block is
            // processed, not when a link reaches it: blocks scheduled before that (the
            // other path of an if/else returning) are flowed first.
            if self.graphs[g as usize].returnblock.0 == b {
                self.notify_callers(g);
            }
            self.drain_reflow();
        }
    }

    pub fn drain_reflow(&mut self) {
        while !self.bk.reflow.is_empty() {
            let reflow = std::mem::take(&mut self.bk.reflow);
            for p in reflow {
                self.reflow_block(p.graph, p.block, p.op);
            }
        }
    }

    /// Schedules a block again from operation `op`: what an operation read has changed.
    /// The operations before it read nothing that changed and keep their results.
    pub fn reflow_block(&mut self, g: u32, b: u32, op: u32) {
        let info = &mut self.info[g as usize];
        let st = &mut info.state[b as usize];
        match *st {
            BlockState::Unseen => {}
            BlockState::Pending => info.restart[b as usize] = info.restart[b as usize].min(op),
            BlockState::Done | BlockState::Blocked(_) => {
                *st = BlockState::Pending;
                info.restart[b as usize] = op;
                self.pending.push_back((g, b));
            }
        }
    }

    // ----- annotations of Variables and Constants -----

    pub fn binding(&self, g: u32, v: VarId) -> SomeValue {
        self.info[g as usize].bindings[v.0 as usize]
            .clone()
            .unwrap_or(SomeValue::Impossible)
    }

    /// The annotation of an operation argument or link argument.
    pub fn annotation(&mut self, g: u32, a: Hlvalue) -> SomeValue {
        match a {
            Hlvalue::Var(v) => self.binding(g, v),
            Hlvalue::Const(c) => self.const_annotation(c),
            Hlvalue::Ll(_) => SomeValue::Impossible,
        }
    }

    pub fn const_annotation(&mut self, c: Value) -> SomeValue {
        if let Some(s) = self.ll_const_annotation(c) {
            return s;
        }
        if let Value::Obj(id) = c {
            if let Some((items, _)) = self.heap().seq_iter_items(id) {
                // An iterator the flow space unrolled (unrolling_iterable): what it yields.
                let mut s = SomeValue::Impossible;
                for x in items {
                    if let Ok(sx) = self.bk.immutablevalue(self.space.heap(), x) {
                        s = self
                            .bk
                            .union(self.space.heap(), &s, &sx)
                            .unwrap_or(SomeValue::Error);
                    }
                }
                return SomeValue::Iterator {
                    container: Rc::new(SomeValue::tuple(vec![s])),
                    variant: IterVariant::Plain,
                };
            }
        }
        match self.bk.immutablevalue(self.space.heap(), c) {
            Ok(s) => {
                self.bk.mark_prebuilt(&s);
                s
            }
            Err(e) => {
                if !self.checking_after {
                    let span = self.bk.span;
                    self.report(e, span);
                }
                SomeValue::Error
            }
        }
    }

    pub fn set_binding(&mut self, g: u32, v: VarId, s: SomeValue, span: Span) {
        let gi = g as usize;
        let new = match self.info[gi].bindings[v.0 as usize].take() {
            Some(old) => match self.bk.union(self.space.heap(), &old, &s) {
                Ok(u) => u.with_analyser_of(&s),
                Err(e) => {
                    // The reference's setbinding requires the new annotation of a result
                    // to contain the old one: a result that was a possibly negative int
                    // and is now unsigned (a helper called with an int length, then with
                    // an r_uint: gnitz's checksum) is its UnionError. Only this integer
                    // case is reported; other mismatches are this annotator's own order.
                    let signedness = old.int_kind().is_some()
                        && s.int_kind().is_some()
                        && old.is_unsigned() != s.is_unsigned();
                    if signedness && !self.checking_after {
                        self.report(e, span);
                    }
                    s
                }
            },
            None => s,
        };
        self.info[gi].bindings[v.0 as usize] = Some(new);
        if self.info[gi].origins[v.0 as usize].is_none() {
            self.info[gi].origins[v.0 as usize] = Some(Origin::Span(span));
        }
    }

    // ----- flowing a block -----

    /// Annotates block `b` of graph `g` now, out of the order of pending blocks.
    pub(super) fn flowin_now(&mut self, g: u32, b: BlockId) {
        self.flowin(g, b.0);
    }

    fn flowin(&mut self, g: u32, b: u32) {
        let (gi, bi) = (g as usize, b as usize);
        self.info[gi].state[bi] = BlockState::Done;
        let from = std::mem::replace(&mut self.info[gi].restart[bi], u32::MAX) as usize;
        let nops = self.graphs[gi].blocks[bi].operations.len();
        let exitswitch = self.graphs[gi].blocks[bi].exitswitch;
        let mut blocked: Option<(usize, Op)> = None;
        for i in from.min(nops)..nops {
            let op = self.graphs[gi].blocks[bi].operations[i].clone();
            self.bk.position = Position {
                graph: g,
                block: b,
                op: i as u32,
            };
            self.bk.span = op.span;
            let mut args_s = Vec::with_capacity(op.args.len());
            let mut impossible = false;
            for &a in &op.args {
                let s = self.annotation(g, a);
                impossible |= s.is_impossible();
                args_s.push(s);
            }
            // As the reference: a prebuilt long that does not fit a signed word is an
            // error, also as the argument of a call (`r_longlonglong(0xFFFFFFFFFFFFFFFF)`,
            // `intmask(1 << 63)`), except of `r_uint` (on 64 bits also `r_ulonglong`),
            // whose call on a constant the reference's flow space folds
            // (`r_ulonglong(0x9E3779B97F4A7C15)`).
            let big_long = if matches!(op.opname, Op::SimpleCall | Op::CallArgs)
                && self.folded_unsigned_call(&op)
            {
                None
            } else {
                op.args.iter().find_map(|a| match a.constant() {
                    Some(Value::Obj(id)) => match self.space.heap().get(id) {
                        Object::Long(i) if i64::try_from(*i).is_err() => Some(*i),
                        _ => None,
                    },
                    _ => None,
                })
            };
            let result = if impossible {
                SomeValue::Impossible
            } else if let Some(big) = big_long {
                let e = AnnError::new(
                    "RPY217",
                    format!("a prebuilt long integer ({big:#x}) does not fit in a signed machine word: wrap it in r_uint(...) or r_ulonglong(...)"),
                );
                self.report(e, op.span);
                SomeValue::Error
            } else {
                if args_s.iter().any(SomeValue::is_error) {
                    self.retract_at(self.bk.position);
                }
                self.annotating_op = true;
                let r = self.consider_op(&op, &args_s);
                self.annotating_op = false;
                r
            };
            if result.is_impossible() {
                blocked = Some((i, op.opname));
                break;
            }
            if op.opname == Op::IsInstance {
                self.check_refolded_isinstance(g, op.result, &result, op.span);
            }
            self.set_binding(g, op.result, result, op.span);
        }
        let exits = self.graphs[gi].blocks[bi].exits.clone();
        if let Some((i, opname)) = blocked {
            if exitswitch == ExitSwitch::LastException && i + 1 == nops {
                // The protected operation always raises: only the handlers are reachable.
                for &l in exits.iter().skip(1) {
                    self.follow_exit(g, l, &[]);
                }
            } else if !matches!(opname, Op::SimpleCall | Op::CallArgs | Op::Next) {
                self.info[gi].state[bi] = BlockState::Blocked(i as u32);
            }
            return;
        }
        match exitswitch {
            ExitSwitch::None => {
                for &l in &exits {
                    self.follow_exit(g, l, &[]);
                }
            }
            ExitSwitch::LastException => self.follow_exception_exits(g, bi, &exits),
            ExitSwitch::Value(sw) => {
                let s = self.annotation(g, sw);
                // A switch on a value rpy-lsp does not model (a constant of an unmodelled
                // module passed as an argument) takes the true exit only, as the flow space
                // does for such a constant: the reference knows the constant and annotates
                // one branch, and two branches meeting would be a false UnionError.
                let konst = if s.is_unknown() {
                    Some(Value::Bool(true))
                } else if s.is_error() {
                    None
                } else {
                    s.konst()
                };
                if konst == Some(Value::Bool(true)) && self.is_unpack_check(g, bi) {
                    self.flow_unpack_known(g, &exits);
                    return;
                }
                let ktd = s.ktd().cloned();
                for &l in &exits {
                    let case = self.graphs[gi].links[l.0 as usize].exitcase;
                    let truth = match case {
                        ExitCase::Value(v) => {
                            if let Some(k) = konst {
                                if !same_case(k, v) {
                                    continue;
                                }
                            }
                            match v {
                                Value::Bool(t) => Some(t),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let constraints: Vec<(VarId, SomeValue)> = match (&ktd, truth) {
                        (Some(k), Some(t)) => k
                            .iter()
                            .filter(|(tt, _, _)| *tt == t)
                            .map(|(_, v, s)| (*v, s.clone()))
                            .collect(),
                        _ => Vec::new(),
                    };
                    self.follow_exit(g, l, &constraints);
                }
            }
        }
    }

    /// Whether the operation being annotated is its block's protected operation with an
    /// exit for exactly the built-in `IndexError` that a handler takes: the reference's flow
    /// simplification turns such a `getitem` into `getitem_idx`, which its typer knows for
    /// lists and strings but not for instances with `__getitem__`. An exit that only raises
    /// the IndexError on (no handler matched it: `except KeyError`) is not one: the
    /// reference drops those implicit-exception links (`remove_assertion_errors`). A bare
    /// `raise` as the whole handler gives the same link here, but the reference keeps that
    /// one: the flow space marked it (`is_reraise_of_caught`).
    pub(super) fn current_op_catches_index_error(&self) -> bool {
        let pos = self.bk.position;
        let block = &self.graphs[pos.graph as usize].blocks[pos.block as usize];
        if block.exitswitch != ExitSwitch::LastException
            || pos.op as usize + 1 != block.operations.len()
        {
            return false;
        }
        let heap = self.space.heap();
        let graph = &self.graphs[pos.graph as usize];
        block.exits.iter().any(|&l| {
            let link = &graph.links[l.0 as usize];
            let ExitCase::Exception(cls) = link.exitcase else {
                return false;
            };
            let reraised = !graph.is_reraise_of_caught(l)
                && link.target == graph.exceptblock
                && link.args.first().and_then(|a| a.constant()) == Some(Value::Obj(cls))
                && link
                    .args
                    .get(1)
                    .and_then(|a| a.var())
                    .is_some_and(|v| Some(v) == link.last_exc_value);
            !reraised
                && heap
                    .class(cls)
                    .is_some_and(|c| c.module.is_none() && &*c.name == "IndexError")
        })
    }

    pub(super) fn follow_exit(&mut self, g: u32, l: LinkId, constraints: &[(VarId, SomeValue)]) {
        let case = self.graphs[g as usize].links[l.0 as usize].exitcase;
        if let ExitCase::Exception(cls) = case {
            self.follow_raise_link(g, l, cls);
        } else {
            self.follow_link(g, l, constraints);
        }
    }

    /// Follows exception link `l` of graph `g`, passing an instance of class `cls`.
    pub(super) fn follow_raise_link(&mut self, g: u32, l: LinkId, cls: ObjId) {
        let link = self.graphs[g as usize].links[l.0 as usize].clone();
        let s_exc = match self.bk.getuniqueclassdef(self.space.heap(), cls) {
            Ok(cd) => SomeValue::instance(cd),
            Err(_) => SomeValue::Error,
        };
        let span = self.bk.span;
        if let Some(lv) = link.last_exc_value {
            self.set_binding(g, lv, s_exc, span);
            if let Some(le) = link.last_exception {
                self.set_binding(
                    g,
                    le,
                    SomeValue::Type {
                        konst: None,
                        of: Some(Rc::from(vec![lv])),
                    },
                    span,
                );
            }
        }
        self.follow_link(g, l, &[]);
    }

    fn follow_link(&mut self, g: u32, l: LinkId, constraints: &[(VarId, SomeValue)]) {
        let gi = g as usize;
        let link = self.graphs[gi].links[l.0 as usize].clone();
        let mut inputs = Vec::with_capacity(link.args.len());
        for (i, &a) in link.args.iter().enumerate() {
            // a constant the annotator cannot represent (`return 1j`) is reported where
            // the link passes it
            let saved_span = self.bk.span;
            if let Hlvalue::Const(_) = a {
                let graph = &self.graphs[gi];
                let at = Some(graph.arg_span(l, i))
                    .filter(|s| *s != Span::default())
                    .unwrap_or_else(|| graph.link_span(l));
                if at != Span::default() {
                    self.bk.span = at;
                }
            }
            let mut s = self.annotation(g, a);
            self.bk.span = saved_span;
            if let Hlvalue::Var(v) = a {
                if let Some((_, c)) = constraints.iter().find(|(cv, _)| *cv == v) {
                    s = self.bk.improve(self.space.heap(), &s, c);
                    if s.is_impossible() {
                        return;
                    }
                }
            }
            inputs.push(self.apply_renaming(s, &link, g));
        }
        if let Some(f) = self.info[gi].links_followed.get_mut(l.0 as usize) {
            *f = true;
        }
        self.addpendingblock(g, link.target.0, inputs, Incoming::Link(l));
    }

    /// Facts about Variables of the source block, re-expressed on the target's Variables.
    fn apply_renaming(&self, s: SomeValue, link: &Link, g: u32) -> SomeValue {
        let target_args = &self.graphs[g as usize].blocks[link.target.0 as usize].inputargs;
        let rename = |v: VarId| -> Vec<VarId> {
            link.args
                .iter()
                .zip(target_args.iter())
                .filter(|(a, _)| **a == Hlvalue::Var(v))
                .map(|(_, t)| *t)
                .collect()
        };
        match s {
            SomeValue::Bool {
                konst,
                ktd: Some(ktd),
            } => {
                let mut out = Vec::new();
                for (t, v, s2) in ktd.iter() {
                    for nv in rename(*v) {
                        out.push((*t, nv, s2.clone()));
                    }
                }
                SomeValue::Bool {
                    konst,
                    ktd: (!out.is_empty()).then(|| Rc::new(out)),
                }
            }
            SomeValue::Type {
                konst,
                of: Some(of),
            } => {
                let new: Vec<VarId> = of.iter().flat_map(|&v| rename(v)).collect();
                SomeValue::Type {
                    konst,
                    of: (!new.is_empty()).then(|| Rc::from(new)),
                }
            }
            s => s,
        }
    }

    pub fn addpendingblock(&mut self, g: u32, b: u32, inputs: Vec<SomeValue>, from: Incoming) {
        let mut inputs = inputs;
        if b == self.graphs[g as usize].startblock.0
            && self
                .names_read_on_unknown
                .contains(&self.graphs[g as usize].name)
        {
            let what: Rc<str> = Rc::from(format!(
                "{UNKNOWN_CALLER_ARGUMENT} `{}`, {UNKNOWN_CALLER}",
                self.graphs[g as usize].name
            ));
            for s in inputs.iter_mut().skip(1) {
                *s = SomeValue::Unknown(what.clone());
            }
        }
        let (gi, bi) = (g as usize, b as usize);
        let inputargs = self.graphs[gi].blocks[bi].inputargs.clone();
        if let Incoming::Call(span) = from {
            for (s, &v) in inputs.iter().zip(&inputargs) {
                if let SomeValue::Pbc { descs, .. } = s {
                    if descs
                        .first()
                        .is_some_and(|&d| matches!(self.bk.desc(d), Desc::Method(_)))
                    {
                        self.bk.method_args.insert((g, v, span), descs.clone());
                    }
                }
            }
        }
        let is_return = self.graphs[gi].returnblock.0 == b;
        let is_except = self.graphs[gi].exceptblock.0 == b;
        if is_return {
            let src = (from.origin(0), inputs[0].clone());
            let info = &mut self.info[gi];
            if !info.return_sources.iter().any(|(o, _)| *o == src.0) {
                info.return_sources.push(src);
            }
        }
        if self.info[gi].state[bi] == BlockState::Unseen {
            for (i, &v) in inputargs.iter().enumerate() {
                self.info[gi].bindings[v.0 as usize] = Some(inputs[i].clone());
                self.info[gi].origins[v.0 as usize] = from.origin(i);
            }
            self.info[gi].state[bi] = BlockState::Pending;
            self.info[gi].restart[bi] = 0;
            self.pending.push_back((g, b));
            return;
        }
        let mut changed = false;
        for (i, &v) in inputargs.iter().enumerate() {
            let old = self.binding(g, v);
            match self.bk.union(self.space.heap(), &old, &inputs[i]) {
                Ok(u) => {
                    if !self.bk.eq(self.space.heap(), &u, &old) {
                        self.info[gi].bindings[v.0 as usize] = Some(u);
                        if old.is_impossible() || self.info[gi].origins[v.0 as usize].is_none() {
                            self.info[gi].origins[v.0 as usize] = from.origin(i);
                        }
                        changed = true;
                    }
                }
                Err(e) => {
                    if !is_except {
                        let old_origin = self.origin_span(g, self.info[gi].origins[v.0 as usize]);
                        let new_origin = self.origin_span(g, from.origin(i));
                        self.report_merge_conflict(
                            g,
                            b,
                            v,
                            (&old, old_origin),
                            (&inputs[i], new_origin),
                            &e,
                        );
                    }
                    self.info[gi].bindings[v.0 as usize] = Some(SomeValue::Error);
                    changed = true;
                }
            }
        }
        if changed {
            self.info[gi].restart[bi] = 0;
            if self.info[gi].state[bi] != BlockState::Pending {
                self.info[gi].state[bi] = BlockState::Pending;
                self.pending.push_back((g, b));
            }
        }
    }

    fn notify_callers(&mut self, g: u32) {
        let callers = self.info[g as usize].callers.to_vec();
        for p in callers {
            self.reflow_block(p.graph, p.block, p.op);
        }
        self.notify_families(g);
    }

    /// An annotator that goes on from a finished annotation (the reference's
    /// MixLevelAnnotator): the graphs, bindings and bookkeeping of `ann` are taken back, so
    /// late helpers are annotated against everything already known and nothing already
    /// annotated is flowed again.
    pub fn resume(space: &'s mut C, mut ann: AnnotatedProgram) -> Annotator<'s, C> {
        let st = ann
            .resume
            .take()
            .expect("an annotated program is resumable once at a time");
        let mut me = Annotator::new(space);
        let ResumeState {
            mut info,
            seen,
            flow_failed,
            none_calls,
            list_checks,
            memo_results,
            raising_unpacks,
            families,
            names_read_on_unknown,
            speculative,
            call_shapes,
        } = *st;
        for (i, b) in info.iter_mut().zip(ann.bindings) {
            i.bindings = b;
        }
        me.bk = ann.bookkeeper;
        me.graphs = ann.graphs;
        me.info = info;
        me.graph_of_func = ann.graph_of_func;
        me.diagnostics = ann.diagnostics;
        me.typer_stage = ann.typer_stage;
        me.entry_graph = ann.entry_graph;
        me.seen = seen;
        me.flow_failed = flow_failed;
        me.none_calls = none_calls;
        me.list_checks = list_checks;
        me.memo_results = memo_results;
        me.raising_unpacks = raising_unpacks;
        me.families = families;
        me.names_read_on_unknown = names_read_on_unknown;
        me.speculative = speculative;
        me.call_shapes = call_shapes;
        me
    }

    /// Annotates a call of `func` (a low-level helper) with `args`, to the fixpoint; the
    /// graph of the specialization called.
    pub fn annotate_helper(&mut self, func: ObjId, args: Vec<SomeValue>) -> Result<u32, String> {
        let desc = self
            .bk
            .getdesc(self.space.heap(), func)
            .map_err(|e| e.msg)?;
        let g = self
            .entry_call(desc, super::call::ArgsS::simple(args))
            .map_err(|e| e.msg)?;
        self.complete();
        Ok(g)
    }

    pub fn finish(mut self) -> AnnotatedProgram {
        self.check_call_shapes();
        let own_defaults = self.own_defaults();
        let mut diagnostics = std::mem::take(&mut self.diagnostics);
        for w in std::mem::take(&mut self.bk.warnings) {
            if !diagnostics
                .iter()
                .any(|d| d.code == w.code && d.span == w.span && d.message == w.message)
            {
                diagnostics.push(w);
            }
        }
        // the reference stops at its first error: which one ours found first is kept, the
        // annotation's own before those of the reference's RTyper (which runs after it)
        let typer_stage = std::mem::take(&mut self.typer_stage);
        let first_error = diagnostics
            .iter()
            .filter(|d| d.is_error())
            .find(|d| !typer_stage.contains(&(d.code, d.span)))
            .or_else(|| diagnostics.iter().find(|d| d.is_error()))
            .cloned();
        diagnostics.sort_by_key(|d| (d.span.file, d.span.start, d.span.end));
        let graph_descs = self.info.iter().map(|i| i.desc).collect();
        let blocks_reached = self
            .info
            .iter()
            .map(|i| {
                i.state
                    .iter()
                    .map(|s| !matches!(s, BlockState::Unseen))
                    .collect()
            })
            .collect();
        let links_followed = self.info.iter().map(|i| i.links_followed.clone()).collect();
        let mut direct: HashMap<Position, Vec<u32>> = HashMap::default();
        for (g, info) in self.info.iter().enumerate() {
            for &pos in info.callers.iter() {
                direct.entry(pos).or_default().push(g as u32);
            }
        }
        let call_targets = self.call_table(direct);
        let bindings = self
            .info
            .iter_mut()
            .map(|i| std::mem::take(&mut i.bindings))
            .collect();
        let resume = Box::new(ResumeState {
            info: self.info,
            seen: self.seen,
            flow_failed: self.flow_failed,
            none_calls: self.none_calls,
            list_checks: self.list_checks,
            memo_results: self.memo_results,
            raising_unpacks: self.raising_unpacks,
            families: self.families,
            names_read_on_unknown: self.names_read_on_unknown,
            speculative: self.speculative,
            call_shapes: self.call_shapes,
        });
        AnnotatedProgram {
            graphs: self.graphs,
            graph_descs,
            bindings,
            graph_of_func: self.graph_of_func,
            diagnostics,
            first_error,
            typer_stage,
            bookkeeper: self.bk,
            entry_graph: self.entry_graph,
            call_targets,
            blocks_reached,
            links_followed,
            own_defaults,
            resume: Some(resume),
        }
    }
}

/// What the final annotation of a list must (not) be, for an operation the typer
/// translates only then (see `Annotator::list_checks`).
#[derive(Clone, Debug, PartialEq)]
pub enum ListCheck {
    /// made by `list(some_string)`: the items must stay single characters
    StaysChars,
    /// joined by a non-empty separator of this string type (`str`, `unicode`): the items
    /// must not be single characters only
    JoinedWithSeparator(&'static str),
}

/// What a finished annotation keeps so that it can be resumed (`Annotator::resume`): the
/// annotator's state beyond what `AnnotatedProgram` publishes.
pub struct ResumeState {
    pub(super) info: Vec<GraphInfo>,
    pub(super) seen: HashSet<(&'static str, Span, String)>,
    pub(super) flow_failed: HashSet<ObjId>,
    pub(super) none_calls: Vec<Position>,
    pub(super) list_checks: Vec<(ListDefId, Span, ListCheck)>,
    pub(super) memo_results: HashMap<(ObjId, Vec<crate::objspace::object::HashKey>), Value>,
    pub(super) raising_unpacks: Vec<(Position, Span, String)>,
    pub(super) families: super::callfamily::CallFamilies,
    pub(super) names_read_on_unknown: crate::fasthash::HashSet<Rc<str>>,
    pub(super) speculative: crate::fasthash::HashSet<u32>,
    pub(super) call_shapes: super::callshapes::CallShapes,
}

fn same_case(k: Value, case: Value) -> bool {
    match (k, case) {
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Int(a), Value::Bool(b)) => (a != 0) == b,
        (a, b) => a == b,
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Whether `op` calls `r_uint` or `r_ulonglong` (one class on 64 bits), which the
    /// reference's flow space computes on a constant argument before annotation.
    fn folded_unsigned_call(&self, op: &crate::flowspace::SpaceOperation) -> bool {
        use crate::builtins::BuiltinId as B;
        let unsigned =
            |b: Option<B>| matches!(b, Some(B::RarithmeticRUint | B::RarithmeticRUlonglong));
        match op.args.first().and_then(|a| a.constant()) {
            Some(Value::Obj(id)) => match self.space.heap().get(id) {
                Object::Class(c) => unsigned(c.constructor),
                Object::Builtin { id, .. } => unsigned(Some(*id)),
                _ => false,
            },
            _ => false,
        }
    }
}
