//! Low-level helpers written in low-level RPython (seed 000, "Implementing RPython types";
//! the reference's annlowlevel): the RTyper asks for a helper by name with the low-level
//! types of its arguments (`gendirectcall`) and gets a function pointer at once; the
//! helper's graph is annotated late (`annotator::annotate_helpers`, between translation
//! rounds, see `rtype`) and translated like the program's own graphs, so the LLInterpreter
//! runs it and GenC compiles it as any other graph.
//!
//! The helpers live in bundled modules (`__rpy_ll__/ll_*.py`), imported
//! into the program's object space when a translation starts.
//!
//! A helper is specialized (`@specialize.ll()`) on the low-level types of its arguments
//! and on its constant arguments, which are Void at run time:
//! - a type (`LlValue::Type`): the type of a result to allocate (`LIST`, `ARRAY`);
//! - an item equality (`EqSpec`, passed with `gendirectcall_eq`): how the operations that
//!   compare items (`in`, `index`, `remove`, `==`) compare them, as the reference passes
//!   `eqfn` to its list helpers. None compares with `==` (numbers, characters, instances
//!   by identity); otherwise a function: `ll_streq` for strings, and for tuples and lists
//!   a function made by `make_tuple_eq` / `make_list_eq` of ll_list.py (called in the
//!   object space between translation rounds, once per equality, from the equalities of
//!   the items: the same unrolled closure the reference generates per tuple type). The
//!   helper says `_eq(a, b, eq)`; the annotator keeps one branch of it, so each
//!   specialization calls its equality directly.

use super::hop::LlOps;
use super::{LlFunction, RTyper, TyperError};
use crate::annotator::{llannotation::ll_to_annotation, AnnotatedProgram, SomeValue};
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::ObjSpace;
use crate::syntax::{FileId, Span};
use std::collections::VecDeque;
use std::rc::Rc;

/// The bundled modules of helpers, and the structures they name that are the RTyper's own
/// (global name → which of the structures handed to `Helpers::load`).
const MODULES: &[&str] = &[
    "__rpy_ll__.ll_str",
    "__rpy_ll__.ll_os",
    "__rpy_ll__.ll_list",
    "__rpy_ll__.ll_dict",
    "__rpy_ll__.ll_num",
    "__rpy_ll__.ll_class",
    "__rpy_ll__.ll_iter",
    "__rpy_ll__.ll_repr",
    "__rpy_ll__.ll_codec",
    "__rpy_ll__.ll_bytearray",
    "__rpy_ll__.ll_weakref",
];
const BOUND_TYPES: &[&str] = &["STR", "UNICODE", "OBJECT", "BYTEARRAY"];

/// A helper to annotate: the function, its argument annotations, the function index the
/// RTyper already handed out for it. `eqs` are the arguments that are item equalities (by
/// position): their functions are made, and annotated, just before the helper is
/// (`Helpers::annotations`).
pub struct HelperRequest {
    pub func: ObjId,
    pub args: Vec<SomeValue>,
    eqs: Vec<(usize, EqSpec)>,
    /// The arguments that are constants of the program (a library helper's classes and
    /// functions, see `rext`), annotated as `immutablevalue` gives them.
    values: Vec<(usize, ObjId)>,
    pub function: u32,
    pub name: Rc<str>,
    /// What asked for it (see `Helpers::user_site`).
    site: Site,
}

/// Where a helper was asked for: the annotated graph being translated (None outside the
/// translation of a graph) and the span of the operation being translated.
#[derive(Clone, Copy, Debug)]
struct Site {
    graph: Option<u32>,
    span: Span,
}

/// How items are compared (see the module's documentation), or another function made per
/// item type the same way: the hash of tuples and the `str()` of lists and tuples
/// (`__rpy_ll__/ll_repr.py`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EqSpec {
    /// `==` of the low-level values.
    Prim,
    /// A bundled helper (`ll_streq`).
    Helper(&'static str),
    /// A tuple, item by item.
    Tuple(Vec<EqSpec>),
    /// A list (that may be None), item by item; `fixed` when it is an array.
    List { fixed: bool, item: Box<EqSpec> },
    /// The hash of tuples of this many items (each hashed as `compute_hash` of its type).
    TupleHash(usize),
    /// `next()` of the iterators over tuples of this many items (`ll_iter.py`).
    TupleIterNext(usize),
    /// The `str()` of tuples whose items' `str()` are these (`Helper`s or made).
    TupleStr(Vec<EqSpec>),
    /// The `str()` of lists (arrays when `fixed`) whose items' `str()` is `item`.
    ListStr { fixed: bool, item: Box<EqSpec> },
}

/// A constant argument of a helper (Void at run time): a type or an item equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum HelperConst {
    Type(LlType),
    Eq(EqSpec),
    Obj(ObjId),
}

/// A helper asked for: its name, its arguments' low-level types, and its constant
/// arguments (each specializes the helper).
type HelperKey = (Rc<str>, Vec<LlType>, Vec<Option<HelperConst>>);

#[derive(Default)]
pub struct Helpers {
    funcs: HashMap<Rc<str>, ObjId>,
    /// Function index of each helper already asked for, by name and argument types.
    called: HashMap<HelperKey, u32>,
    pending: Vec<HelperRequest>,
    /// Why the helper modules could not be loaded (an internal error).
    load_error: Option<String>,
    /// The function made for each item equality (None for `==`).
    eq_funcs: HashMap<EqSpec, Value>,
    /// The annotated graph the RTyper is translating (set by `translate_reached`).
    pub(super) translating: Option<u32>,
    /// The graph annotated for each request, with where it was asked for.
    roots: HashMap<u32, Site>,
}

impl Helpers {
    /// Imports the helper modules into `space` and binds their names of the RTyper's
    /// structures (`STR`, `UNICODE`, `OBJECT`, `BYTEARRAY`: `bound`, in that order) for the annotator.
    pub fn load(space: &mut ObjSpace, ann: &mut AnnotatedProgram, bound: &[LlType]) -> Helpers {
        let mut h = Helpers::default();
        space.restart_limits();
        for &m in MODULES {
            let module = match space.import_module(m, None, 0) {
                Ok(id) => id,
                Err(_) => {
                    h.load_error = Some(format!("the bundled module {} does not import", m));
                    continue;
                }
            };
            let Object::Module(md) = space.heap.get(module) else {
                continue;
            };
            for (name, v) in md.dict.iter() {
                let Value::Obj(id) = v else { continue };
                if let Some(i) = BOUND_TYPES.iter().position(|n| **n == **name) {
                    if let Some(&t) = bound.get(i) {
                        ann.bookkeeper.lltype_objs.insert(id, t);
                    }
                } else if matches!(space.heap.get(id), Object::Function(_)) {
                    h.funcs.insert(name.clone(), id);
                }
            }
        }
        h
    }

    /// The helpers asked for since the last call, to annotate.
    pub fn take_requests(&mut self) -> Vec<HelperRequest> {
        std::mem::take(&mut self.pending)
    }

    /// The arguments' annotations of a request, its item equalities made in `space`.
    pub fn annotations(
        &mut self,
        req: &HelperRequest,
        ann: &mut AnnotatedProgram,
        space: &mut ObjSpace,
    ) -> Result<Vec<SomeValue>, String> {
        let mut args = req.args.clone();
        for &(i, o) in &req.values {
            args[i] = ann
                .bookkeeper
                .immutablevalue(&space.heap, Value::Obj(o))
                .map_err(|e| e.msg)?;
        }
        for (i, spec) in &req.eqs {
            let f = self.eq_func(spec, space)?;
            args[*i] = ann
                .bookkeeper
                .immutablevalue(&space.heap, f)
                .map_err(|e| e.msg)?;
        }
        Ok(args)
    }

    /// The function (or None) of an item equality, made once.
    fn eq_func(&mut self, spec: &EqSpec, space: &mut ObjSpace) -> Result<Value, String> {
        if let Some(&f) = self.eq_funcs.get(spec) {
            return Ok(f);
        }
        let helper = |h: &Self, name: &str| {
            h.funcs
                .get(name)
                .map(|&f| Value::Obj(f))
                .ok_or_else(|| format!("no low-level helper {}", name))
        };
        let f = match spec {
            EqSpec::Prim => Value::None,
            EqSpec::Helper(name) => helper(self, name)?,
            EqSpec::Tuple(items) => {
                let mut eqs = Vec::new();
                for it in items {
                    eqs.push(self.eq_func(it, space)?);
                }
                let make = helper(self, "make_tuple_eq")?;
                let t = space.new_tuple(eqs);
                space
                    .call(make, vec![t])
                    .map_err(|_| "make_tuple_eq failed".to_string())?
            }
            EqSpec::List { fixed, item } | EqSpec::ListStr { fixed, item } => {
                let eq = self.eq_func(item, space)?;
                let maker = match spec {
                    EqSpec::List { .. } => "make_list_eq",
                    _ => "make_list_str",
                };
                let make = helper(self, maker)?;
                space
                    .call(make, vec![Value::Bool(*fixed), eq])
                    .map_err(|_| format!("{} failed", maker))?
            }
            EqSpec::TupleStr(items) => {
                let mut strs = Vec::new();
                for it in items {
                    strs.push(self.eq_func(it, space)?);
                }
                let make = helper(self, "make_tuple_str")?;
                let t = space.new_tuple(strs);
                space
                    .call(make, vec![t])
                    .map_err(|_| "make_tuple_str failed".to_string())?
            }
            EqSpec::TupleHash(n) | EqSpec::TupleIterNext(n) => {
                let maker = match spec {
                    EqSpec::TupleHash(_) => "make_tuple_hash",
                    _ => "make_tuple_iter_next",
                };
                let make = helper(self, maker)?;
                space
                    .call(make, vec![Value::Int(*n as i64)])
                    .map_err(|_| format!("{} failed", maker))?
            }
        };
        self.eq_funcs.insert(spec.clone(), f);
        Ok(f)
    }
}

impl RTyper<'_> {
    /// A call of the low-level helper `name` with `args` (`gendirectcall`): its function
    /// pointer is known now; its graph is annotated and translated in the next round.
    /// `result` is the helper's result type, as its caller expects it.
    pub fn gendirectcall(
        &mut self,
        llops: &mut LlOps,
        name: &str,
        args: Vec<Hlvalue>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        self.gendirectcall_with(llops, name, args, None, result)
    }

    /// `gendirectcall` with an item equality as the last argument.
    pub fn gendirectcall_eq(
        &mut self,
        llops: &mut LlOps,
        name: &str,
        args: Vec<Hlvalue>,
        eq: EqSpec,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        self.gendirectcall_with(llops, name, args, Some(eq), result)
    }

    fn gendirectcall_with(
        &mut self,
        llops: &mut LlOps,
        name: &str,
        mut args: Vec<Hlvalue>,
        eq: Option<EqSpec>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let mut consts: Vec<Option<HelperConst>> = args
            .iter()
            .map(|a| match a {
                Hlvalue::Ll(LlConstant {
                    value: LlValue::Type(k),
                    ..
                }) => Some(HelperConst::Type(*k)),
                _ => None,
            })
            .collect();
        if let Some(eq) = eq {
            args.push(super::hop::cvoid());
            consts.push(Some(HelperConst::Eq(eq)));
        }
        let func = match self.helpers.funcs.get(name) {
            Some(&f) => f,
            None => {
                return Err(TyperError::new(format!(
                    "internal error, no low-level helper {}{}",
                    name,
                    self.helpers
                        .load_error
                        .as_ref()
                        .map(|e| format!(" ({})", e))
                        .unwrap_or_default()
                )))
            }
        };
        self.request_helper(llops, func, Rc::from(name), args, consts, result)
    }

    /// A call of the program's own low-level helper `func` (a library Repr's
    /// `gendirectcall`, see `rext`): the arguments with an object are Void constants of
    /// that value (a class, a function), which specialize the helper.
    pub(super) fn gendirectcall_func(
        &mut self,
        llops: &mut LlOps,
        func: ObjId,
        args: Vec<(Hlvalue, Option<ObjId>)>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let name = match self.objheap.get(func) {
            Object::Function(f) => format!("{}_{}", f.name, func.0),
            _ => {
                return Err(TyperError::new(
                    "gendirectcall() of something other than a function",
                ))
            }
        };
        let consts = args.iter().map(|a| a.1.map(HelperConst::Obj)).collect();
        let args = args.into_iter().map(|a| a.0).collect();
        self.request_helper(llops, func, Rc::from(name), args, consts, result)
    }

    /// The function pointer of helper `func` for these arguments, asking for its
    /// annotation on first use.
    fn request_helper(
        &mut self,
        llops: &mut LlOps,
        func: ObjId,
        name: Rc<str>,
        args: Vec<Hlvalue>,
        consts: Vec<Option<HelperConst>>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let tys: Vec<LlType> = args
            .iter()
            .map(|a| llops.graph.concretetype_of(*a).unwrap_or(LlType::VOID))
            .collect();
        let key: HelperKey = (name, tys.clone(), consts.clone());
        let function = match self.helpers.called.get(&key) {
            Some(&f) => f,
            None => {
                // a Void constant naming a type (the result's type, say) is that type; an
                // equality's annotation is made with its function
                let s_args = consts
                    .iter()
                    .zip(&tys)
                    .map(|(k, &t)| match k {
                        Some(HelperConst::Type(k)) => SomeValue::LlType(*k),
                        Some(HelperConst::Eq(_)) | Some(HelperConst::Obj(_)) => SomeValue::None,
                        None => ll_to_annotation(&self.types, t),
                    })
                    .collect();
                let eqs = consts
                    .iter()
                    .enumerate()
                    .filter_map(|(i, k)| match k {
                        Some(HelperConst::Eq(e)) => Some((i, e.clone())),
                        _ => None,
                    })
                    .collect();
                let values = consts
                    .iter()
                    .enumerate()
                    .filter_map(|(i, k)| match k {
                        Some(HelperConst::Obj(o)) => Some((i, *o)),
                        _ => None,
                    })
                    .collect();
                // a graph id is known once annotated: until then the entry is a
                // placeholder `rtype` replaces
                self.functions.push(LlFunction::Graph {
                    graph: u32::MAX,
                    name: key.0.clone(),
                });
                let f = self.functions.len() as u32 - 1;
                self.helpers.called.insert(key.clone(), f);
                let site = Site {
                    graph: self.helpers.translating,
                    span: llops.span,
                };
                self.helpers.pending.push(HelperRequest {
                    func,
                    args: s_args,
                    eqs,
                    values,
                    function: f,
                    name: key.0,
                    site,
                });
                f
            }
        };
        let ft = self.types.func(tys, result);
        let pt = self.types.ptr(ft);
        let mut all = vec![Hlvalue::Ll(LlConstant {
            ty: pt,
            value: LlValue::Ptr(LlPtr::Func(function)),
        })];
        all.extend(args);
        Ok(llops.genop(LlOp::DirectCall, all, result))
    }
}

impl RTyper<'_> {
    /// Whether `f` is `ll_undefined` of the helpers: `ll_undefined("message {} {}", a, b)`
    /// in a helper says that what follows is undefined behaviour in a compiled program; it
    /// becomes the `debug_undefined` operation (the function itself is never called).
    pub(super) fn is_ll_undefined(&self, f: ObjId) -> bool {
        self.helpers.funcs.get("ll_undefined") == Some(&f)
    }

    pub(super) fn rtype_ll_undefined(
        &mut self,
        hop: &mut super::hop::Hop,
        llops: &mut LlOps,
    ) -> Result<(Hlvalue, super::rmodel::ReprId), TyperError> {
        let msg = match hop.op.args.get(1) {
            Some(Hlvalue::Const(v)) => self.objheap.str_value(*v).map(|b| b.to_vec()),
            _ => None,
        };
        let Some(msg) = msg else {
            return Err(TyperError::new(
                "internal error, ll_undefined without a constant message",
            ));
        };
        let mut args = vec![super::hop::cfield(&String::from_utf8_lossy(&msg))];
        let si = self.intern_repr(super::rmodel::Repr::Int(
            crate::objspace::object::IntKind::Signed,
        ));
        for i in 2..hop.nargs() {
            args.push(self.inputarg(llops, hop, i, si)?);
        }
        llops.genop(LlOp::DebugUndefined, args, LlType::VOID);
        hop.exception_cannot_occur();
        let void = self.intern_repr(super::rmodel::Repr::Void);
        Ok((super::hop::cvoid(), void))
    }
}

impl Helpers {
    /// The line of user code that needed the helper asked for at `site`: the site itself,
    /// or, when it is inside bundled code (a helper asking for another, a bundled model),
    /// the nearest user call that led there, through the requests of earlier rounds and the
    /// annotator's calls.
    fn user_site(
        &self,
        ann: &AnnotatedProgram,
        bundled: &HashSet<FileId>,
        site: Site,
    ) -> Option<Span> {
        if !bundled.contains(&site.span.file) {
            return Some(site.span);
        }
        let mut callers: HashMap<u32, Vec<crate::annotator::model::Position>> = HashMap::default();
        for (pos, targets) in &ann.call_targets {
            for &t in targets.iter() {
                callers.entry(t).or_default().push(*pos);
            }
        }
        let mut seen = HashSet::default();
        let mut queue: VecDeque<u32> = site.graph.into_iter().collect();
        while let Some(h) = queue.pop_front() {
            if !seen.insert(h) {
                continue;
            }
            if let Some(s) = self.roots.get(&h) {
                if !bundled.contains(&s.span.file) {
                    return Some(s.span);
                }
                queue.extend(s.graph);
            }
            let mut sites = callers.remove(&h).unwrap_or_default();
            sites.sort_by_key(|p| (p.graph, p.block, p.op));
            for p in sites {
                let span = ann.graphs[p.graph as usize].blocks[p.block as usize].operations
                    [p.op as usize]
                    .span;
                if !bundled.contains(&span.file) {
                    return Some(span);
                }
                queue.push_back(p.graph);
            }
        }
        None
    }

    /// The error of a request that could not be made: one RPY301 at the user's line that
    /// needed the helper (`fallback`, the entry point, when none is found).
    pub(super) fn request_error(
        &self,
        ann: &AnnotatedProgram,
        bundled: &HashSet<FileId>,
        req: &HelperRequest,
        msg: String,
        fallback: Span,
    ) -> Diagnostic {
        let at = self.user_site(ann, bundled, req.site).unwrap_or(fallback);
        TyperError::new(msg).into_diagnostic(at)
    }
}

impl super::RtState {
    /// Takes the annotation of a round's helper requests: each graph becomes its
    /// function. A helper that does not annotate is rpy-lsp's bug, never the program's:
    /// its own diagnostics (inside the bundled helpers) are replaced by one RPY301 at the
    /// user's line that needed it; diagnostics at user lines (a user function the helper
    /// calls, an r_dict's hash) stay the program's.
    pub(super) fn take_helper_graphs(
        &mut self,
        ann: &mut AnnotatedProgram,
        requests: &[HelperRequest],
        results: Vec<(Result<u32, String>, Vec<Diagnostic>)>,
        bundled: &HashSet<FileId>,
        fallback: Span,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut failures = Vec::new();
        for (req, (res, made)) in requests.iter().zip(results) {
            let (inside, at_user): (Vec<Diagnostic>, Vec<Diagnostic>) = made
                .into_iter()
                .partition(|d| bundled.contains(&d.span.file));
            ann.diagnostics.extend(at_user);
            match res {
                Ok(g) => {
                    self.functions[req.function as usize] = LlFunction::Graph {
                        graph: g,
                        name: req.name.clone(),
                    };
                    self.graph_func.entry(g).or_insert(req.function);
                    self.helpers.roots.entry(g).or_insert(req.site);
                    if let Some(d) = inside.into_iter().find(|d| d.is_error()) {
                        let msg = format!(
                            "internal error in the low-level helper {}: {}",
                            req.name, d.message
                        );
                        failures.push((req, msg));
                    }
                }
                Err(e) => failures.push((
                    req,
                    format!(
                        "internal error, the low-level helper {} could not be annotated: {}",
                        req.name, e
                    ),
                )),
            }
        }
        for (req, msg) in failures {
            let d = self.helpers.request_error(ann, bundled, req, msg, fallback);
            if !diags
                .iter()
                .any(|o| o.span == d.span && o.message == d.message)
            {
                diags.push(d);
            }
        }
    }
}
