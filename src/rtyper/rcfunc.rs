//! Calls of C functions a program declares with `rffi.llexternal`. Takes a call of the
//! bundled model's `_c_<name>` (the function standing for the C function, marked with
//! `_rpy_c_function`: the C name and the C spellings of the declared types), gives a
//! `direct_call` of an `LlFunction::C` pointer with the arguments in the Reprs the model's
//! wrapper converted them to, and the result in the Repr of `_c_<name>`'s result. The
//! LLInterpreter runs the C library functions of `lltypesystem::libc`'s registry; GenC
//! calls the C function.

use super::hop::{Hop, LlOps};
use super::rmodel::ReprId;
use super::{LlFunction, RTyper, TyperError};
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::eci::Eci;
use crate::lltypesystem::libc::{CDecl, LibcFn};
use crate::lltypesystem::{LlOp, LlPtr, LlValue};
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::ObjSpace;
use std::rc::Rc;

impl RTyper<'_> {
    /// The C function function object `f` stands for, if it is one (`_c_<name>`).
    pub(super) fn c_function(&self, f: ObjId) -> Option<CDecl> {
        let Object::Function(func) = self.objheap.get(f) else {
            return None;
        };
        let Value::Obj(t) = func.attrs.get("_rpy_c_function")? else {
            return None;
        };
        let Object::Tuple(items) = self.objheap.get(t) else {
            return None;
        };
        let text = |v: Value| -> Option<Rc<str>> {
            Some(String::from_utf8_lossy(self.objheap.str_value(v)?).into())
        };
        let [name, args, result] = items[..] else {
            return None;
        };
        let Value::Obj(args) = args else {
            return None;
        };
        let Object::Tuple(args) = self.objheap.get(args) else {
            return None;
        };
        let name = text(name)?;
        let eci = func
            .attrs
            .get("_rpy_c_eci")
            .map(|v| self.c_eci(v))
            .unwrap_or_default();
        Some(CDecl {
            eci: Rc::new(eci),
            known: LibcFn::lookup(&name),
            args: args.iter().map(|a| text(*a)).collect::<Option<_>>()?,
            result: text(result)?,
            name,
            declared_at: None,
        })
    }

    /// The compile and link information the model recorded (`_rpy_c_eci`: (name, items)
    /// pairs of strings); what is not such a tuple (an unknown) adds nothing.
    fn c_eci(&self, v: Value) -> Eci {
        let mut eci = Eci::default();
        let tuple = |v: Value| match v {
            Value::Obj(t) => match self.objheap.get(t) {
                Object::Tuple(items) => Some(items.clone()),
                _ => None,
            },
            _ => None,
        };
        let text = |v: &Value| -> Option<Rc<str>> {
            Some(String::from_utf8_lossy(self.objheap.str_value(*v)?).into())
        };
        for pair in tuple(v).unwrap_or_default() {
            let Some(pair) = tuple(pair) else { continue };
            let [name, items] = &pair[..] else { continue };
            let (Some(name), Some(items)) = (text(name), tuple(*items)) else {
                continue;
            };
            eci.set(&name, items.iter().filter_map(text).collect());
        }
        eci
    }

    /// A call of C function `decl` (`hop` without its callee): its arguments as the call
    /// table's graph of `_c_<name>` takes them, its result in that graph's result Repr.
    pub(super) fn call_c_function(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        decl: CDecl,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let Some(g) = self.first_call_target(hop) else {
            return Err(TyperError::new("a call the annotator did not follow"));
        };
        let (params, result) = self.graph_signature(g);
        if params.len() != hop.nargs() {
            return Err(TyperError::new(format!(
                "the C function `{}` called with {} arguments, declared with {}",
                decl.name,
                hop.nargs(),
                params.len()
            )));
        }
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            vals.push(self.inputarg(llops, hop, i, p)?);
            tys.push(self.lltype(p));
        }
        let rt = self.lltype(result);
        let idx = match self.c_funcs.get(&decl) {
            Some(&i) => i,
            None => {
                self.functions.push(LlFunction::C(Rc::new(decl.clone())));
                let i = self.functions.len() as u32 - 1;
                self.c_funcs.insert(decl, i);
                i
            }
        };
        let ft = self.types.func(tys, rt);
        let fp = Hlvalue::Ll(LlConstant {
            ty: self.types.ptr(ft),
            value: LlValue::Ptr(LlPtr::Func(idx)),
        });
        vals.insert(0, fp);
        let v = llops.genop(LlOp::DirectCall, vals, rt);
        // C functions raise nothing
        hop.exception_cannot_occur();
        Ok((v, result))
    }
}

/// Finds where each C function of `functions` is declared: a global of a user module
/// holding the wrapper `rffi.llexternal` made (a function of the C function's name, in
/// code the model generated), at the first line assigning that global.
pub(super) fn locate_c_declarations(space: &ObjSpace, functions: &mut [LlFunction]) {
    for f in functions.iter_mut() {
        let LlFunction::C(decl) = f else { continue };
        let mut found = None;
        let mut modules: Vec<(&String, &ObjId)> = space.modules.iter().collect();
        modules.sort();
        'modules: for (_, &m) in modules {
            let Object::Module(module) = space.heap.get(m) else {
                continue;
            };
            let Some(file) = module.file.filter(|_| !module.bundled) else {
                continue;
            };
            for (global, v) in module.dict.iter() {
                let Value::Obj(id) = v else { continue };
                let Object::Function(func) = space.heap.get(id) else {
                    continue;
                };
                if *func.name != *decl.name || !space.bundled_files.contains(&func.code.span.file) {
                    continue;
                }
                let source = space.sources.get(file);
                let line = source.text.lines().position(|l| {
                    l.trim_start()
                        .strip_prefix(&**global)
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                });
                if let Some(line) = line {
                    found = Some(format!("{}:{}", source.path.display(), line + 1));
                    break 'modules;
                }
            }
        }
        if let Some(at) = found {
            Rc::make_mut(decl).declared_at = Some(at.into());
        }
    }
}
