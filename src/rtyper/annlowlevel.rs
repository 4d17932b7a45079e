//! Low-level helpers written in low-level RPython (seed 000, "Implementing RPython types";
//! the reference's annlowlevel): the RTyper asks for a helper by name with the low-level
//! types of its arguments (`gendirectcall`) and gets a function pointer at once; the
//! helper's graph is annotated late (`annotator::annotate_helpers`, between translation
//! rounds, see `rtype`) and translated like the program's own graphs, so the LLInterpreter
//! runs it and GenC compiles it as any other graph.
//!
//! The helpers live in bundled modules (`__rpy_ll__/ll_*.py`), imported
//! into the program's object space when a translation starts.

use super::hop::LlOps;
use super::{LlFunction, RTyper, TyperError};
use crate::annotator::{llannotation::ll_to_annotation, AnnotatedProgram, SomeValue};
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::ObjSpace;
use std::collections::HashMap;
use std::rc::Rc;

/// The bundled modules of helpers, and the structures they name that are the RTyper's own
/// (global name → which of the structures handed to `Helpers::load`).
const MODULES: &[&str] = &[
    "__rpy_ll__.ll_str",
    "__rpy_ll__.ll_os",
    "__rpy_ll__.ll_list",
];
const BOUND_TYPES: &[&str] = &["STR", "UNICODE", "OBJECT"];

/// A helper to annotate: the function, its argument annotations, the function index the
/// RTyper already handed out for it.
pub struct HelperRequest {
    pub func: ObjId,
    pub args: Vec<SomeValue>,
    pub function: u32,
    pub name: Rc<str>,
}

/// A helper asked for: its name, its arguments' low-level types, and the types passed as
/// constants (a Void argument naming a type specializes the helper).
type HelperKey = (Rc<str>, Vec<LlType>, Vec<Option<LlType>>);

#[derive(Default)]
pub struct Helpers {
    funcs: HashMap<Rc<str>, ObjId>,
    /// Function index of each helper already asked for, by name and argument types.
    called: HashMap<HelperKey, u32>,
    pending: Vec<HelperRequest>,
    /// Why the helper modules could not be loaded (an internal error).
    load_error: Option<String>,
}

impl Helpers {
    /// Imports the helper modules into `space` and binds their names of the RTyper's
    /// structures (`STR`, `UNICODE`, `OBJECT`: `bound`, in that order) for the annotator.
    pub fn load(space: &mut ObjSpace, ann: &mut AnnotatedProgram, bound: &[LlType]) -> Helpers {
        let mut h = Helpers::default();
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
        let tys: Vec<LlType> = args
            .iter()
            .map(|a| llops.graph.concretetype_of(*a).unwrap_or(LlType::VOID))
            .collect();
        let type_args: Vec<Option<LlType>> = args
            .iter()
            .map(|a| match a {
                Hlvalue::Ll(LlConstant {
                    value: LlValue::Type(k),
                    ..
                }) => Some(*k),
                _ => None,
            })
            .collect();
        let key: HelperKey = (Rc::from(name), tys.clone(), type_args.clone());
        let function = match self.helpers.called.get(&key) {
            Some(&f) => f,
            None => {
                let Some(&func) = self.helpers.funcs.get(name) else {
                    return Err(TyperError::new(format!(
                        "internal error, no low-level helper {}{}",
                        name,
                        self.helpers
                            .load_error
                            .as_ref()
                            .map(|e| format!(" ({})", e))
                            .unwrap_or_default()
                    )));
                };
                // a Void constant naming a type (the result's type, say) is that type
                let s_args = type_args
                    .iter()
                    .zip(&tys)
                    .map(|(k, &t)| match k {
                        Some(k) => SomeValue::LlType(*k),
                        None => ll_to_annotation(&self.types, t),
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
                self.helpers.pending.push(HelperRequest {
                    func,
                    args: s_args,
                    function: f,
                    name: key.0,
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
