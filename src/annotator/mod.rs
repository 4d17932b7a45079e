//! The annotator (seed 001, "The Annotation Pass"): whole-program type inference over the
//! flow graphs, from the entry point. Every Variable of every graph reached gets an
//! annotation (`model::SomeValue`); what cannot be typed becomes a diagnostic (codes
//! RPY2xx), with the value poisoned so that one mistake is reported once.
//!
//! Layout, following the reference toolchain's annotator:
//! - `model`: the annotations; `union`: their join; `describe`: annotations in words;
//! - `bookkeeper`: descriptions, class, list and dict definitions (`listdef`), prebuilt
//!   values (`immutablevalue`);
//! - `classdef`, `description`: classes and their attributes; functions, methods, frozen
//!   objects and specialization;
//! - `annrpython`: the fixpoint over blocks, and resuming it for late helpers;
//!   `provenance`: where annotations came from, for messages; `checks`: the checks on the
//!   final annotations; `call`: calls and argument binding; `specialize`: the graph of
//!   each specialization;
//! - `dispatch`: the rule of each operation; `unaryop`, `binaryop`, `itemop`, `builtin`,
//!   `builtinmethod`: what each operation, built-in function and method of a built-in type
//!   produces;
//!   `getattr`: attribute reads and writes; `isinstance`: `is`, `issubtype`, `isinstance`.

mod annrpython;
mod binaryop;
pub mod bookkeeper;
mod builtin;
mod builtin_argkinds;
mod builtin_checks;
mod builtin_os;
mod builtinmethod;
mod call;
mod calldefaults;
mod callfamily;
mod callshapes;
mod canonlythrow;
mod cfuncargs;
mod checks;
pub mod classdef;
mod classdesc;
mod constprop;
mod describe;
pub mod description;
mod dispatch;
mod extregistry;
pub mod fill_loops;
mod getattr;
mod immutable_hints;
mod immutablevalue;
pub(crate) use extregistry::hlinvoke_graph;
pub(crate) use immutablevalue::{is_bundled_r_dict, r_dict_entries};
mod isinstance;
mod itemop;
mod listdef;
pub mod llannotation;
mod llshape;
pub mod model;
mod pbcmemo;
mod positions;
mod provenance;
mod ptrcompare;
mod query;
mod rangelist;
mod report;
mod signature;
mod simplify;
mod specialize;
mod unaryop;
mod union;
mod unknown_callers;
mod weakdict;

pub use bookkeeper::Bookkeeper;
pub use model::*;
pub use unaryop::builtin_methods;

use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::flowspace::FunctionGraph;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Heap, ObjId, Value};
use crate::syntax::Span;

/// An annotation error on its way to becoming a diagnostic: its rule, message, and why
/// (labels). The primary span is the operation being annotated unless `span` says otherwise.
/// `typer`: the reference refuses this only in its RTyper, which runs after the whole
/// annotation, so any error of the annotation proper is reported before it.
#[derive(Clone, Debug)]
pub struct AnnError {
    pub code: &'static str,
    pub msg: String,
    pub labels: Vec<(Span, String)>,
    pub span: Option<Span>,
    pub typer: bool,
}

impl AnnError {
    pub fn new(code: &'static str, msg: String) -> AnnError {
        AnnError {
            code,
            msg,
            labels: Vec::new(),
            span: None,
            typer: false,
        }
    }
    /// The same error, of the reference's RTyper stage (see [`AnnError`]).
    pub fn at_typer(mut self) -> AnnError {
        self.typer = true;
        self
    }
    /// The same error, of the stage of `cause` when that is the RTyper's (a union refused
    /// only by the reference's typer makes the error reporting it one of the typer too).
    pub fn stage_of(mut self, cause: &AnnError) -> AnnError {
        self.typer |= cause.typer;
        self
    }
    pub fn label(mut self, span: Span, msg: impl Into<String>) -> AnnError {
        self.labels.push((span, msg.into()));
        self
    }
    pub fn at(mut self, span: Span) -> AnnError {
        self.span = Some(span);
        self
    }
    pub fn at_opt(mut self, span: Option<Span>) -> AnnError {
        if span.is_some() {
            self.span = span;
        }
        self
    }
    /// For union failures: the reason, to append to a message ("" when there is none).
    pub fn detail_suffix(&self) -> String {
        if self.msg.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.msg)
        }
    }
}

/// The result of annotating a program from its entry point.
pub struct AnnotatedProgram {
    /// Every graph annotated; a graph's id is its index.
    pub graphs: Vec<FunctionGraph>,
    /// Per graph, the annotation of each Variable (indexed by `VarId.0`); `None` for
    /// Variables never reached.
    pub bindings: Vec<Vec<Option<SomeValue>>>,
    /// Function object → its graphs (one per specialization).
    pub graph_of_func: HashMap<ObjId, Vec<usize>>,
    /// The description (`bookkeeper.descs`) of the function each graph was built for.
    pub graph_descs: Vec<Option<DescId>>,
    /// Flow-level and annotation diagnostics, deduplicated, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Of `diagnostics`, the error the annotation found first (in the order the
    /// reference's annotation would meet it: a call whose callee's result is not known yet
    /// waits for the callee).
    pub first_error: Option<Diagnostic>,
    /// Of `diagnostics`, the errors the reference reports only while RTyping (code and
    /// span): they come after every error of the annotation proper.
    pub typer_stage: crate::fasthash::HashSet<(&'static str, Span)>,
    /// Descriptions, class definitions, list and dict definitions the annotations refer to.
    pub bookkeeper: Bookkeeper,
    /// Graph of the entry point, when it could be built.
    pub entry_graph: Option<usize>,
    /// The call table: for each call operation, the graphs it can reach (in increasing
    /// order; one per specialization and per member of the family). Call sites of one
    /// family share one list: a program with thousands of call sites of a family of
    /// thousands of methods would otherwise hold their product.
    pub call_targets: HashMap<Position, std::rc::Rc<[u32]>>,
    /// Per graph, per block: whether the annotator reached it (a switch on a constant
    /// leaves the other branches unreached; the RTyper drops them).
    pub blocks_reached: Vec<Vec<bool>>,
    /// Per graph, per link: whether the annotator followed it (the RTyper drops the others,
    /// as the reference's `transform_dead_code`).
    pub links_followed: Vec<Vec<bool>>,
    /// Graphs of call families whose calls all leave the same trailing parameters out
    /// while the functions' defaults differ (`calldefaults`): per graph, how many
    /// parameters the callers pass, and the graph's own default values for the others.
    pub own_defaults: HashMap<u32, (usize, Vec<Value>)>,
    /// The annotator's state, for annotating late helpers (`annotate_helpers`).
    resume: Option<Box<annrpython::ResumeState>>,
}

impl AnnotatedProgram {
    /// What the `specialize.memo` function `func` returned at translation time for these
    /// arguments (their hash keys), if it was called with them.
    pub fn memo_result(
        &self,
        func: ObjId,
        args: &[crate::objspace::object::HashKey],
    ) -> Option<crate::objspace::object::Value> {
        self.resume
            .as_ref()?
            .memo_results
            .get(&(func, args.to_vec()))
            .copied()
    }

    /// Plain words: "int, non-negative", "list of str, resizable", "instance of Node or None".
    pub fn describe(&self, heap: &Heap, s: &SomeValue) -> String {
        self.bookkeeper.describe(heap, s)
    }

    /// The reference annotator's notation: "SomeInteger(nonneg=True)".
    pub fn annotator_form(&self, heap: &Heap, s: &SomeValue) -> String {
        self.bookkeeper.annotator_form(heap, s)
    }

    /// The annotation of the return value of a graph.
    pub fn return_annotation(&self, graph: usize) -> Option<&SomeValue> {
        let g = &self.graphs[graph];
        let v = g.block(g.returnblock).inputargs[0];
        self.bindings[graph][v.0 as usize].as_ref()
    }

    /// What rpy-lsp does not model and the program's annotations depend on (the names in
    /// `SomeValue::Unknown`), sorted: a program with any was not fully checked, and `build`
    /// or `run` must refuse it.
    pub fn unknowns(&self) -> Vec<std::rc::Rc<str>> {
        let mut out: Vec<std::rc::Rc<str>> = self
            .bindings
            .iter()
            .flatten()
            .filter_map(|b| match b {
                Some(SomeValue::Unknown(what)) => Some(what.clone()),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The unknowns that explain why the program cannot be translated: the unmodelled
    /// names it uses, without the arguments of methods unknown code may call (which
    /// follow from those names), unless there is nothing else to name.
    pub fn unknowns_to_report(&self) -> Vec<std::rc::Rc<str>> {
        let all = self.unknowns();
        let named: Vec<_> = all
            .iter()
            .filter(|u| !u.starts_with(annrpython::UNKNOWN_CALLER_ARGUMENT))
            .cloned()
            .collect();
        if named.is_empty() {
            all
        } else {
            named
        }
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Annotates late helpers (the RTyper's low-level helpers, seed 000 "Implementing RPython
/// types"): each request is a function and its argument annotations; gives the graph of
/// each (or why it could not be annotated) and the diagnostics its annotation made, which
/// are not added to `ann.diagnostics` (the caller decides where they belong). Graphs
/// already annotated are not flowed again; new graphs are appended to `ann.graphs`.
pub fn annotate_helpers<C: ConcreteSpace>(
    space: &mut C,
    ann: &mut AnnotatedProgram,
    requests: &[(ObjId, Vec<SomeValue>)],
) -> Vec<(Result<u32, String>, Vec<Diagnostic>)> {
    let taken = std::mem::replace(ann, AnnotatedProgram::empty());
    let mut a = annrpython::Annotator::resume(space, taken);
    let out = requests
        .iter()
        .map(|(f, args)| {
            let before = a.diagnostics.len();
            let g = a.annotate_helper(*f, args.clone());
            (g, a.diagnostics.split_off(before))
        })
        .collect();
    *ann = a.finish();
    out
}

impl AnnotatedProgram {
    /// A placeholder while an annotation is resumed.
    fn empty() -> AnnotatedProgram {
        AnnotatedProgram {
            graphs: Vec::new(),
            bindings: Vec::new(),
            graph_of_func: HashMap::default(),
            graph_descs: Vec::new(),
            diagnostics: Vec::new(),
            first_error: None,
            typer_stage: Default::default(),
            bookkeeper: Bookkeeper::new(&Heap::default()),
            entry_graph: None,
            call_targets: HashMap::default(),
            blocks_reached: Vec::new(),
            links_followed: Vec::new(),
            own_defaults: HashMap::default(),
            resume: None,
        }
    }
}

/// Annotates the program reachable from the function `entry` called with `args`.
pub fn annotate<C: ConcreteSpace>(
    space: &mut C,
    entry: ObjId,
    args: Vec<SomeValue>,
) -> AnnotatedProgram {
    let mut ann = annrpython::Annotator::new(space);
    ann.annotate_entry(entry, args, false);
    ann.finish()
}

/// Annotates a standalone target's `entry_point(argv)`: `argv` is a list of strings
/// without NUL characters, and the result must be an int.
pub fn annotate_standalone<C: ConcreteSpace>(space: &mut C, entry: ObjId) -> AnnotatedProgram {
    annotate_standalone_with(space, entry, HashMap::default())
}

/// Annotates an entry point whose `target()` gave its argument types (`return entry_point,
/// [int]`): not a standalone program, so neither `argv` nor an int result is imposed.
/// `None` among `types` (a type rpy-lsp cannot turn into an annotation) is unknown.
pub fn annotate_with_types<'s, C: ConcreteSpace>(
    space: &'s mut C,
    entry: ObjId,
    types: &[Option<&str>],
    prebuilt: HashMap<ObjId, (&'s FunctionGraph, &'s [Diagnostic])>,
) -> AnnotatedProgram {
    let mut ann = annrpython::Annotator::new(space);
    ann.prebuilt_graphs = prebuilt;
    let args = types
        .iter()
        .map(|t| match *t {
            Some("int") => SomeValue::int(),
            Some("float") => SomeValue::float(),
            Some("bool") => SomeValue::bool(),
            Some("str") => SomeValue::string(),
            Some("unicode") => SomeValue::unicode(false),
            _ => SomeValue::Unknown(std::rc::Rc::from("an argument type of target()")),
        })
        .collect();
    ann.annotate_entry(entry, args, false);
    ann.finish()
}

/// [`annotate_standalone`] reusing flow graphs already built for some functions, with the
/// flow space's diagnostics of each (by function object; a function flowed once per
/// specialization gets its other graphs built here).
pub fn annotate_standalone_with<'s, C: ConcreteSpace>(
    space: &'s mut C,
    entry: ObjId,
    prebuilt: HashMap<ObjId, (&'s FunctionGraph, &'s [Diagnostic])>,
) -> AnnotatedProgram {
    let mut ann = annrpython::Annotator::new(space);
    ann.prebuilt_graphs = prebuilt;
    let argv = ann.argv_annotation();
    ann.annotate_entry(entry, vec![argv], true);
    ann.finish()
}

#[cfg(test)]
mod tests;
