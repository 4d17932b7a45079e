//! The RTyper (seed 000, "The RPython Typer"): takes the annotated program and gives a
//! low-level program (`LlProgram`): a copy of every annotated graph in which each
//! high-level operation is replaced by low-level ones of the `lloperation` table, every
//! Variable and Constant has a concretetype, and prebuilt objects (strings, instances,
//! vtables, lists) are containers of the low-level heap. The annotated graphs themselves
//! are left untouched (editor queries keep reading them).
//!
//! Layout, following the reference's rtyper: `rmodel` (Reprs, `getrepr`, conversions),
//! `rclass` (instance and vtable layouts), `rpbc` (functions, calls, constants), `rops`
//! (the `rtype_*` of each high-level operation through the `Hop` interface), `translate`
//! (one annotated graph → one low-level graph), `rcall`
//! (calls of functions, classes and methods), `rbuiltin` and `rbuiltinmethod` (calls of
//! built-in functions and methods).

mod annlowlevel;
mod hop;
mod normalizecalls;
mod rbuiltin;
mod rbuiltinmethod;
mod rcall;
mod rcfunc;
mod rclass;
mod rclasscall;
mod rcontainers;
mod rdel;
mod rdict;
mod renviron;
mod rexcept;
mod rext;
mod rexternal;
mod rfill;
mod rforward;
mod rfrozen;
mod rgenerator;
mod rinline;
mod rinstance;
mod riter;
mod rlist;
mod rmemo;
pub mod rmodel;
mod rops;
mod rpbc;
mod rptr;
mod rrepr;
mod rspecrows;
mod rstr;
mod rvref;
mod rweakref;
mod translate;

pub use hop::{Hop, LlOps};

use crate::annotator::model::{ClassDefId, Position, SomeValue};
use crate::annotator::AnnotatedProgram;
use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::flowspace::{BlockId, FunctionGraph, Hlvalue, LinkId, LlConstant, VarId};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlHeap, LlPtr, LlType, LlTypes, LlValue};
use crate::objspace::object::{Heap, ObjId, Value};
use crate::objspace::ObjSpace;
use crate::syntax::Span;
use rclass::ClassLayouts;
use rmodel::{Repr, ReprId};
use std::rc::Rc;
use translate::placeholder;

/// A function of the low-level program (what an `LlPtr::Func` points to).
#[derive(Clone, Debug)]
pub enum LlFunction {
    /// A low-level graph, by index in `LlProgram::graphs`.
    Graph { graph: u32, name: Rc<str> },
    /// A function of the runtime (external functions and native helpers).
    Runtime(RuntimeFn),
    /// A C function the program declares (`rffi.llexternal`).
    C(Rc<crate::lltypesystem::libc::CDecl>),
}

/// The RTyper's result: what the LLInterpreter runs and GenC compiles.
pub struct LlProgram {
    pub types: LlTypes,
    /// Prebuilt constants (strings, vtables, instances, lists…).
    pub heap: LlHeap,
    /// Low-level graphs; graph `i` translates the annotator's graph `i` (graphs never
    /// reached have an empty placeholder and no function pointer).
    pub graphs: Vec<FunctionGraph>,
    pub functions: Vec<LlFunction>,
    /// The entry point's function index.
    pub entry: u32,
    /// What to call after the entry point returns normally (the C library's flush of
    /// buffered streams at exit: `rfile._flush_at_exit` when the program has files).
    pub at_exit: Option<u32>,
    /// `Ptr(STR)`, the type of strings.
    pub str_ptr: LlType,
    /// The instance header (`object`) and vtable root (`object_vtable`) structures.
    pub object: LlType,
    pub object_vtable: LlType,
    /// The vtable of each built-in exception class by name (`ZeroDivisionError`…), with the
    /// instance structure to allocate when an operation raises it.
    pub std_exceptions: HashMap<String, (LlPtr, LlType)>,
    /// The files of bundled code (models, low-level helpers): a stop in them is reported
    /// at the user's call.
    pub bundled_files: crate::fasthash::HashSet<crate::syntax::FileId>,
    /// The structure of weak references (`rweakref`), if the program has any: its
    /// `referent` field is cleared, not traced, by the collector.
    pub weakref: Option<LlType>,
}

/// A reason the RTyper cannot translate an operation.
#[derive(Clone, Debug)]
pub struct TyperError {
    pub msg: String,
    pub span: Option<Span>,
    /// The code of a rejection the reference's RTyper makes too (`check` reports it as an
    /// error); `None` for what only rpy-lsp's RTyper cannot translate (RPY301, a warning
    /// in `check`).
    pub rejection: Option<&'static str>,
    /// Other places of the user's code the error is about.
    pub labels: Vec<(Span, String)>,
}

impl TyperError {
    pub fn new(msg: impl Into<String>) -> TyperError {
        TyperError {
            msg: msg.into(),
            span: None,
            rejection: None,
            labels: Vec::new(),
        }
    }

    /// A program the reference's RTyper refuses too, reported with `code`.
    pub fn rejected(code: &'static str, msg: impl Into<String>) -> TyperError {
        TyperError {
            rejection: Some(code),
            ..TyperError::new(msg)
        }
    }
}

pub struct RTyper<'a> {
    pub ann: &'a AnnotatedProgram,
    pub objheap: &'a Heap,
    /// Everything else: the state that outlives one translation round (`rtype_rounds`).
    /// Read through `Deref` (`self.types`); code that borrows two of its fields at once,
    /// one mutably, names them through `st` (`self.st.heap.setfield(&self.st.types, …)`)
    /// so that the borrows are of disjoint fields.
    st: RtState,
}

impl std::ops::Deref for RTyper<'_> {
    type Target = RtState;
    fn deref(&self) -> &RtState {
        &self.st
    }
}

impl std::ops::DerefMut for RTyper<'_> {
    fn deref_mut(&mut self) -> &mut RtState {
        &mut self.st
    }
}

/// The RTyper's own state, kept while the annotator it borrows from is resumed.
pub struct RtState {
    pub types: LlTypes,
    pub heap: LlHeap,
    reprs: Vec<(Repr, LlType)>,
    repr_cache: HashMap<Repr, ReprId>,
    /// The Repr of each set of prebuilt objects, by the identity of the shared set (see
    /// `getrepr`).
    pbc_reprs: rpbc::PbcReprs,
    /// The list and dict definitions whose Reprs are being computed (`rforward`).
    forward: rforward::ForwardReprs,
    pub classes: ClassLayouts,
    pub str_ptr: LlType,
    pub unicode_ptr: LlType,
    /// `Ptr(BYTEARRAY)`: `GcStruct rpy_bytearray {chars: Array(Char)}`, as the reference
    /// lays a bytearray out (a string without its hash).
    pub bytearray_ptr: LlType,
    /// Whether the values `rffi_platform` asks the C compiler for are asked for (`run`,
    /// `build`); `check` only types the program, with any value in their place.
    ask_c_compiler: bool,
    /// The number of graphs of the program's own annotation: the graphs after them are
    /// low-level helpers, annotated between translation rounds, and a later round may
    /// generalize a helper graph already translated (`Hop::new` reads constant annotations
    /// only in the program's graphs, whose annotation is final before any is translated).
    pub(crate) program_graphs: usize,
    functions: Vec<LlFunction>,
    graph_func: HashMap<u32, u32>,
    runtime_func: HashMap<RuntimeFn, u32>,
    /// The function of each C function the program declares and calls (`rcfunc`).
    c_funcs: HashMap<crate::lltypesystem::libc::CDecl, u32>,
    str_consts: HashMap<Vec<u8>, LlPtr>,
    prebuilt: HashMap<(ObjId, ReprId), LlPtr>,
    /// Repr of every Variable of every graph, once computed.
    var_reprs: HashMap<(u32, VarId), ReprId>,
    /// Arithmetic whose result an `ovfcheck()` checks: generated at the `ovfcheck` call as
    /// the `_ovf` operation (so it is the block's raising operation).
    pending_ovf: HashMap<(u32, VarId), (crate::lltypesystem::LlOp, Vec<Hlvalue>, LlType)>,
    /// `range()` calls whose list is only iterated, in the same block (`for i in
    /// range(n)`): no list is built; the `iter` makes a range iterator of these
    /// (start, stop, step) values. Keyed by the high-level result Variable.
    lazy_ranges: HashMap<(u32, VarId), (Hlvalue, Hlvalue, Hlvalue)>,
    /// The loops of the graph being translated that fill a list preallocated with their
    /// iterable's length (`rfill`).
    fills: Vec<crate::annotator::fill_loops::ExactFill>,
    /// Items of arrays of structures read in low-level code (`d.entries[i]`, an
    /// `ArrayItem`): no value is made; the accesses to their fields, in the same block,
    /// become interior operations on the (array, index) kept here. Keyed by the
    /// high-level result Variable.
    array_items: HashMap<(u32, VarId), (Hlvalue, Hlvalue)>,
    /// Generators: the frame structure of each generator graph, the function index and
    /// graph slot of its `next`.
    gen_frames: HashMap<u32, LlType>,
    gen_next: HashMap<u32, u32>,
    gen_next_slot: HashMap<u32, u32>,
    /// The graphs the RTyper makes itself (generators' `next`, classes' `instantiate`),
    /// by slot (`EXTRA_SLOT_BASE + k`), once built; `extra_slots` slots are given out.
    extra_graphs: HashMap<u32, FunctionGraph>,
    extra_slots: u32,
    /// The common signature of the graphs of each call family (normalizecalls).
    family_sig: HashMap<u32, (Vec<ReprId>, ReprId)>,
    /// The low-level helpers called so far, and those still to annotate.
    helpers: annlowlevel::Helpers,
    /// The Reprs libraries define for their ExtRegistryEntry annotations (`rext`).
    ext: rext::ExtReprs,
}

impl<'a> RTyper<'a> {
    fn from_state(ann: &'a AnnotatedProgram, objheap: &'a Heap, st: RtState) -> RTyper<'a> {
        RTyper { ann, objheap, st }
    }

    fn into_state(self) -> RtState {
        self.st
    }
}

/// Translates an annotated program. Errors are diagnostics at the user's line.
///
/// The low-level helpers the translation calls (`annlowlevel`) are annotated late, in
/// rounds: translate the graphs not yet translated, annotate the helpers they asked for
/// (resuming the annotation of `ann`, whose graph list grows), translate those, until no
/// new helper is asked for. `space` is the program's object space (the helpers' module is
/// imported into it).
pub fn rtype(
    ann: &mut AnnotatedProgram,
    space: &mut ObjSpace,
) -> Result<LlProgram, Vec<Diagnostic>> {
    rtype_rounds(ann, space, true).map(|p| p.expect("a whole program when its helpers are"))
}

/// The RTyper's diagnostics on the program's own graphs, for `check`: one translation
/// round, without annotating and translating the low-level helpers it asks for. A helper
/// that does not annotate is rpy-lsp's bug, not the user's (`take_helper_graphs`), and a
/// helper's own operations are in the bundled helpers, so only `run` and `build`, which
/// need the helpers' graphs, pay for them (a tenth of a check of a large program).
pub fn check(ann: &mut AnnotatedProgram, space: &mut ObjSpace) -> Result<(), Vec<Diagnostic>> {
    rtype_rounds(ann, space, false).map(|_| ())
}

/// `rtype`, or with `with_helpers` false `check`: then no `LlProgram` is made.
fn rtype_rounds(
    ann: &mut AnnotatedProgram,
    space: &mut ObjSpace,
    with_helpers: bool,
) -> Result<Option<LlProgram>, Vec<Diagnostic>> {
    let Some(entry) = ann.entry_graph else {
        return Err(vec![Diagnostic::new(
            "RPY301",
            Span::default(),
            "the program has no entry point to translate",
        )]);
    };
    // A branch or loop of import-time code on an unknown value: what it computed (a table
    // filled by a loop over a file's lines) is not known, even where no unknown reaches the
    // annotations; the program would run on the wrong prebuilt data. Said first: the
    // unknowns the annotations hold may come from it, and this names the line.
    if let Some(at) = space.unknown_control {
        let what = match &space.unknown_control_name {
            Some(name) => format!(" ({name})"),
            None => String::new(),
        };
        return Err(vec![Diagnostic::new(
            "RPY301",
            at,
            format!("import-time code branched or looped here on a value rpy-lsp does not model{what}: what it computed is not known, so the program can be checked but not run"),
        )]);
    }
    // Import-time code stopped by rpy-lsp's budget: the tables it was filling are cut short,
    // and the program would run on them. Said before the unknowns, which may come from the
    // stop (what the module defines after it).
    if let Some(d) = space.budget_stop_error() {
        return Err(vec![d]);
    }
    // values of modules rpy-lsp does not model have no low-level representation
    let unknowns = ann.unknowns_to_report();
    if !unknowns.is_empty() {
        return Err(vec![Diagnostic::new(
            "RPY301",
            ann.graphs[entry].span,
            format!(
                "the program uses what rpy-lsp does not model ({}): it can be checked but not run",
                unknowns
                    .iter()
                    .map(|u| u.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )]);
    }
    let entry_span = ann.graphs[entry].span;
    let at_exit_graph = stdio_at_exit(ann, space);
    // the arena starts with the types the annotator made (`lltype` in user code, strings)
    let (str_struct, uni_struct) = ann.bookkeeper.string_types();
    let ext = rext::prepare(ann, space);
    let mut types = std::mem::take(&mut ann.bookkeeper.lltypes);
    let str_ptr = types.ptr(str_struct);
    let unicode_ptr = types.ptr(uni_struct);
    let bytearray_chars = types.array(LlType::CHAR);
    let bytearray_struct = types.new_struct(
        "rpy_bytearray",
        true,
        vec![("chars".into(), bytearray_chars)],
    );
    let bytearray_ptr = types.ptr(bytearray_struct);
    let classes = ClassLayouts::new(&mut types, str_ptr);
    let helpers = annlowlevel::Helpers::load(
        space,
        ann,
        &[str_struct, uni_struct, classes.object, bytearray_struct],
    );
    let mut st = RtState {
        types,
        heap: LlHeap::new(),
        reprs: Vec::new(),
        repr_cache: HashMap::default(),
        pbc_reprs: Default::default(),
        forward: Default::default(),
        classes,
        str_ptr,
        unicode_ptr,
        bytearray_ptr,
        functions: Vec::new(),
        graph_func: HashMap::default(),
        runtime_func: HashMap::default(),
        c_funcs: HashMap::default(),
        str_consts: HashMap::default(),
        prebuilt: HashMap::default(),
        var_reprs: HashMap::default(),
        pending_ovf: HashMap::default(),
        lazy_ranges: HashMap::default(),
        fills: Vec::new(),
        array_items: HashMap::default(),
        gen_frames: HashMap::default(),
        gen_next: HashMap::default(),
        gen_next_slot: HashMap::default(),
        extra_graphs: HashMap::default(),
        extra_slots: 0,
        family_sig: HashMap::default(),
        helpers,
        ext,
        ask_c_compiler: with_helpers,
        program_graphs: ann.graphs.len(),
    };
    let mut diags = Vec::new();
    let mut graphs: Vec<FunctionGraph> = Vec::with_capacity(ann.graphs.len());
    let mut entry_func = None;
    let mut at_exit_func = None;
    loop {
        let mut rt = RTyper::from_state(ann, &space.heap, st);
        if entry_func.is_none() {
            if let Err(e) = rt.setup_classes().and_then(|()| rt.check_del_graphs()) {
                // the class layouts are incomplete (no vtables): translating a graph
                // would look them up
                diags.push(e.into_diagnostic(entry_span));
                st = rt.into_state();
                break;
            }
            entry_func = Some(rt.graph_funcptr(entry as u32));
            at_exit_func = at_exit_graph.map(|g| rt.graph_funcptr(g));
        }
        for g in graphs.len()..ann.graphs.len() {
            graphs.push(rt.translate_reached(g as u32, &mut diags));
        }
        st = rt.into_state();
        let requests = st.helpers.take_requests();
        if requests.is_empty() || !diags.is_empty() || !with_helpers {
            break;
        }
        // the annotator reads and extends the same type arena
        ann.bookkeeper.lltypes = std::mem::take(&mut st.types);
        let bundled = bundled_files_of(&space.heap);
        let mut calls = Vec::new();
        for r in &requests {
            match st.helpers.annotations(r, ann, space) {
                Ok(args) => calls.push((r.func, args)),
                Err(e) => {
                    let msg = format!(
                        "internal error, the arguments of the low-level helper {}: {}",
                        r.name, e
                    );
                    diags.push(st.helpers.request_error(ann, &bundled, r, msg, entry_span));
                }
            }
        }
        if !diags.is_empty() {
            break;
        }
        let results = crate::annotator::annotate_helpers(space, ann, &calls);
        st.types = std::mem::take(&mut ann.bookkeeper.lltypes);
        st.take_helper_graphs(ann, &requests, results, &bundled, entry_span, &mut diags);
        if !diags.is_empty() {
            // (translating a helper that did not annotate would only repeat the error)
            break;
        }
    }
    // the graphs the RTyper made, after the annotator's graphs
    let extra_base = graphs.len() as u32;
    for k in 0..st.extra_slots {
        match st.extra_graphs.remove(&(EXTRA_SLOT_BASE + k)) {
            Some(lg) => {
                #[cfg(debug_assertions)]
                if let Err(e) = crate::flowspace::verify_low_level(&lg, &st.types) {
                    diags.push(
                        TyperError::new(format!("internal error, invalid low-level graph: {}", e))
                            .into_diagnostic(lg.span),
                    );
                }
                graphs.push(lg)
            }
            None => graphs.push(placeholder(&ann.graphs[0])),
        }
    }
    for f in st.functions.iter_mut() {
        if let LlFunction::Graph { graph, .. } = f {
            if *graph >= EXTRA_SLOT_BASE {
                *graph = extra_base + (*graph - EXTRA_SLOT_BASE);
            }
        }
    }
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.span.file, d.span.start));
        diags.dedup_by(|a, b| a.span == b.span && a.message == b.message);
        return Err(diags);
    }
    if !with_helpers {
        return Ok(None);
    }
    let mut rt = RTyper::from_state(ann, &space.heap, st);
    let std_exceptions = rt.std_exceptions();
    let mut bundled_files = rt.bundled_files();
    let weakref = rt.weakref_struct();
    // and the code bundled models generate (rffi's llexternal wrappers)
    bundled_files.extend(space.bundled_files.iter().copied());
    let mut st = rt.into_state();
    rcfunc::locate_c_declarations(space, &mut st.functions);
    let Some(LlPtr::Func(entry)) = entry_func else {
        unreachable!()
    };
    let at_exit = match at_exit_func {
        Some(LlPtr::Func(f)) => Some(f),
        _ => None,
    };
    Ok(Some(LlProgram {
        types: st.types,
        heap: st.heap,
        graphs,
        functions: st.functions,
        entry,
        at_exit,
        str_ptr,
        object: st.classes.object,
        object_vtable: st.classes.object_vtable,
        std_exceptions,
        bundled_files,
        weakref,
    }))
}

/// The graph of `rfile._flush_at_exit`, annotated as a helper, when the program has RPython
/// files (its `RFile` class has instances): the binary's C library flushes its streams
/// when `main` returns.
fn stdio_at_exit(ann: &mut AnnotatedProgram, space: &mut ObjSpace) -> Option<u32> {
    let module = *space.modules.get("rpython.rlib.rfile")?;
    let Some(Value::Obj(cls)) = space.module_attr(module, "RFile") else {
        return None;
    };
    let desc = *ann.bookkeeper.desc_of_obj.get(&cls)?;
    ann.bookkeeper.class_desc(desc)?.classdef?;
    let Some(Value::Obj(f)) = space.module_attr(module, "_flush_at_exit") else {
        return None;
    };
    let (g, made) = crate::annotator::annotate_helpers(space, ann, &[(f, Vec::new())]).pop()?;
    ann.diagnostics.extend(made);
    g.ok()
}

/// Graph slots of the graphs the RTyper makes (generators' `next`, classes'
/// `instantiate`) while translating: the graphs are placed after every annotated graph
/// (helpers included) once all are known.
pub(crate) const EXTRA_SLOT_BASE: u32 = 1 << 30;

impl RTyper<'_> {
    /// A graph slot for a graph the RTyper makes (kept in `extra_graphs` once built).
    pub(super) fn new_extra_graph_slot(&mut self) -> u32 {
        self.extra_slots += 1;
        EXTRA_SLOT_BASE + self.extra_slots - 1
    }
}

/// The files of the bundled modules of an object space.
fn bundled_files_of(heap: &Heap) -> crate::fasthash::HashSet<crate::syntax::FileId> {
    (0..heap.len() as u32)
        .filter_map(|i| match heap.get(ObjId(i)) {
            crate::objspace::object::Object::Module(m) if m.bundled => m.file,
            _ => None,
        })
        .collect()
}

impl RTyper<'_> {
    /// A diagnostic located inside rpy-lsp's bundled models (the `os` model, say) moved to
    /// the user's call that led there, with a label at the original place: the user's line
    /// is what they can change.
    /// The files of the bundled modules.
    fn bundled_files(&self) -> crate::fasthash::HashSet<crate::syntax::FileId> {
        bundled_files_of(self.objheap)
    }

    fn at_user_site(&self, g: u32, d: Diagnostic) -> Diagnostic {
        let bundled = self.bundled_files();
        if !bundled.contains(&d.span.file) {
            return d;
        }
        // callers of each graph, from the call table
        let mut callers: HashMap<u32, Vec<Position>> = HashMap::default();
        for (pos, targets) in &self.ann.call_targets {
            for &t in targets.iter() {
                callers.entry(t).or_default().push(*pos);
            }
        }
        let mut seen = crate::fasthash::HashSet::default();
        let mut queue = std::collections::VecDeque::from([g]);
        while let Some(h) = queue.pop_front() {
            if !seen.insert(h) {
                continue;
            }
            let mut sites = callers.get(&h).cloned().unwrap_or_default();
            sites.sort_by_key(|p| (p.graph, p.block, p.op));
            for p in sites {
                let span = self.ann.graphs[p.graph as usize].blocks[p.block as usize].operations
                    [p.op as usize]
                    .span;
                if !bundled.contains(&span.file) {
                    let label = d.span;
                    let mut moved = Diagnostic::new(d.code, span, d.message.clone());
                    moved.severity = d.severity;
                    return moved.with_label(label, crate::diagnostics::BUNDLED_MODEL_LABEL);
                }
                queue.push_back(p.graph);
            }
        }
        d
    }
}

impl TyperError {
    fn into_diagnostic(self, fallback: Span) -> Diagnostic {
        let span = self.span.unwrap_or(fallback);
        let mut d = match self.rejection {
            Some(code) => Diagnostic::new(code, span, self.msg),
            None => Diagnostic::new(
                "RPY301",
                span,
                format!("cannot be translated: {}", self.msg),
            ),
        };
        for (s, m) in self.labels {
            d = d.with_label(s, m);
        }
        d
    }
}

/// The low-level value and Repr of each Variable of the annotated graph being translated,
/// by `VarId` (a graph's Variables are numbered densely from 0: a table, not a map).
#[derive(Default)]
pub struct VarMap(Vec<Option<(Hlvalue, ReprId)>>);

impl VarMap {
    pub fn with_vars(n: usize) -> VarMap {
        VarMap(vec![None; n])
    }
    pub fn get(&self, v: &VarId) -> Option<&(Hlvalue, ReprId)> {
        self.0.get(v.0 as usize).and_then(Option::as_ref)
    }
    pub fn insert(&mut self, v: VarId, x: (Hlvalue, ReprId)) {
        let i = v.0 as usize;
        if i >= self.0.len() {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(x);
    }
}

impl std::ops::Index<&VarId> for VarMap {
    type Output = (Hlvalue, ReprId);
    fn index(&self, v: &VarId) -> &(Hlvalue, ReprId) {
        self.get(v).expect("a typed Variable")
    }
}

impl<'a> RTyper<'a> {
    /// The Repr of a Variable of annotated graph `g`.
    pub fn var_repr(&mut self, g: u32, v: VarId) -> Result<ReprId, TyperError> {
        if let Some(&r) = self.var_reprs.get(&(g, v)) {
            return Ok(r);
        }
        let s = self.ann.bindings[g as usize]
            .get(v.0 as usize)
            .cloned()
            .flatten()
            .unwrap_or(SomeValue::Impossible);
        let r = self.getrepr(&s)?;
        self.var_reprs.insert((g, v), r);
        Ok(r)
    }

    /// The annotation of an argument of annotated graph `g`.
    pub fn annotation(&self, g: u32, a: Hlvalue) -> SomeValue {
        match a {
            Hlvalue::Var(v) => self.ann.bindings[g as usize]
                .get(v.0 as usize)
                .cloned()
                .flatten()
                .unwrap_or(SomeValue::Impossible),
            Hlvalue::Const(c) => self
                .ann
                .bookkeeper
                .known_value(self.objheap, c)
                .unwrap_or(SomeValue::Impossible),
            Hlvalue::Ll(_) => SomeValue::Impossible,
        }
    }

    /// The prebuilt value an argument stands for, when it is known statically: a
    /// constant, or a Variable of Void Repr (a single function, class or None), or one
    /// annotated as one constant type (a class `specialize.arg` passed in, such as an
    /// `r_uint8` called to convert).
    pub fn static_value(&self, g: u32, a: Hlvalue, r: ReprId) -> Option<Value> {
        match a {
            Hlvalue::Const(c) => Some(c),
            Hlvalue::Var(_) if matches!(self.repr(r), Repr::Void | Repr::Prebuilt(_)) => {
                let s = self.annotation(g, a);
                s.konst().or_else(|| self.ann.bookkeeper.pbc_const(&s))
            }
            Hlvalue::Var(_) => match self.annotation(g, a) {
                SomeValue::Type { konst: Some(v), .. } => Some(v),
                _ => None,
            },
            _ => None,
        }
    }

    /// The low-level value and Repr of an argument of annotated graph `g`.
    pub fn value_of(
        &mut self,
        g: u32,
        a: Hlvalue,
        vmap: &VarMap,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        match a {
            Hlvalue::Var(v) => vmap.get(&v).copied().ok_or_else(|| {
                TyperError::new(format!("variable {} used before it is typed", v.0))
            }),
            Hlvalue::Const(c) => {
                let s = self.annotation(g, a);
                let r = self.getrepr(&s)?;
                Ok((Hlvalue::Ll(self.const_value(c, r)?), r))
            }
            Hlvalue::Ll(c) => {
                let r = self.intern_repr(Repr::Void);
                Ok((Hlvalue::Ll(c), r))
            }
        }
    }

    /// The function-table index of a runtime function, as a constant function pointer of
    /// the given signature.
    pub fn runtime(&mut self, f: RuntimeFn, args: &[LlType], result: LlType) -> Hlvalue {
        let idx = *self.st.runtime_func.entry(f).or_insert_with(|| {
            self.st.functions.push(LlFunction::Runtime(f));
            self.st.functions.len() as u32 - 1
        });
        let ft = self.types.func(args.to_vec(), result);
        let pt = self.types.ptr(ft);
        Hlvalue::Ll(LlConstant {
            ty: pt,
            value: LlValue::Ptr(LlPtr::Func(idx)),
        })
    }

    /// The vtable of an exception class caught by an `except` clause.
    fn exception_vtable(&mut self, cls: ObjId) -> LlPtr {
        if let Some(cd) = self.classdef_of_class(cls) {
            return self.classes.vtable_ptr[&cd];
        }
        let name = crate::annotator::Bookkeeper::class_name(self.objheap, cls);
        self.extra_vtable(&name)
    }

    /// The vtable of a built-in exception class that has no class definition; a class
    /// that is not even a built-in exception gets one with an empty id range.
    pub fn extra_vtable(&mut self, name: &str) -> LlPtr {
        if let Some(&p) = self.classes.extra_vtable.get(name) {
            return p;
        }
        let p = self.new_vtable(name, -1, -1);
        self.classes.extra_vtable.insert(Rc::from(name), p);
        p
    }

    /// A new vtable of the root type.
    pub fn new_vtable(&mut self, name: &str, min: i64, max: i64) -> LlPtr {
        let ov = self.classes.object_vtable;
        let p = self.st.heap.malloc(&self.st.types, ov, 0);
        let name_ptr = self.prebuilt_str(name.as_bytes());
        let _ = self.st.heap.setfield(
            &self.st.types,
            p,
            ov,
            "subclassrange_min",
            LlValue::Int(min),
        );
        let _ = self.st.heap.setfield(
            &self.st.types,
            p,
            ov,
            "subclassrange_max",
            LlValue::Int(max),
        );
        let _ = self
            .st
            .heap
            .setfield(&self.st.types, p, ov, "name", LlValue::Ptr(name_ptr));
        p
    }

    /// The id range of a class (by object): its class definition's or, for a built-in
    /// exception, its own.
    pub fn class_range(&mut self, cls: ObjId) -> (i64, i64) {
        if let Some(cd) = self.classdef_of_class(cls) {
            return self.classes.ranges[&cd];
        }
        let name = crate::annotator::Bookkeeper::class_name(self.objheap, cls);
        self.classes
            .extra_ranges
            .get(&*name)
            .copied()
            .unwrap_or((-1, -1))
    }

    pub fn classdef_of_class(&self, cls: ObjId) -> Option<ClassDefId> {
        let bk = &self.ann.bookkeeper;
        let d = *bk.desc_of_obj.get(&cls)?;
        let cd = bk.class_desc(d)?.classdef?;
        match self.classes.laid_out {
            Some(n) if cd.index() >= n => None,
            _ => Some(cd),
        }
    }

    /// The vtables of the built-in exceptions the low-level operations and runtime
    /// functions can raise.
    fn std_exceptions(&mut self) -> HashMap<String, (LlPtr, LlType)> {
        let mut out = HashMap::default();
        for &name in crate::lltypesystem::runtime::STD_EXCEPTIONS {
            let found = self
                .ann
                .bookkeeper
                .classdefs
                .iter()
                .enumerate()
                .find(|(_, c)| &*c.name == name)
                .map(|(i, _)| ClassDefId(i as u32))
                .filter(|cd| self.classes.vtable_ptr.contains_key(cd));
            // a built-in exception with no Python class (StackOverflow) has the instance
            // structure of its nearest base the program has
            let base_inst = crate::lltypesystem::runtime::BUILTIN_SUBCLASSES
                .iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, bases)| bases.iter().find_map(|b| self.builtin_classdef(b)))
                .and_then(|cd| self.classes.inst.get(&cd).copied());
            let entry = match found {
                Some(cd) => (self.classes.vtable_ptr[&cd], self.classes.inst[&cd]),
                None => (
                    self.extra_vtable(name),
                    base_inst.unwrap_or(self.classes.object),
                ),
            };
            out.insert(name.to_string(), entry);
        }
        out
    }
}

impl TyperError {
    pub fn at(mut self, span: Span) -> TyperError {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
}

/// The link ids of a block, for iteration while the graph changes.
pub fn exits_of(g: &FunctionGraph, b: BlockId) -> Vec<LinkId> {
    g.block(b).exits.clone()
}
