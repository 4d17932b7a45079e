//! Generated helpers of classes chosen at run time (`instantiate`, `__init__` through the
//! vtable).

use super::helpers::Helpers;
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::rtyper::LlFunction;
use std::fmt::Write;

impl Helpers<'_, '_> {
    /// `ll_instantiate(vtable)`: a new instance of the class, with its field defaults.
    pub(super) fn instantiate(&mut self, ret: LlType) -> Option<String> {
        let db = self.db();
        let prog = db.prog;
        let ob = db.struct_name(prog.object);
        let mut classes: Vec<(&LlPtr, &crate::rtyper::ClassInfo)> = prog.classes.iter().collect();
        classes.sort_by_key(|(p, _)| **p);
        let mut b = String::new();
        for (vt, info) in classes {
            let LlPtr::Obj { obj, .. } = vt else { continue };
            let _ = writeln!(
                b,
                "    if ((void *)a0 == (void *)&{}) {{\n        {} *p = rpy_gc_malloc_fixed({});\n        (({} *)p)->typeptr = (void *)a0;",
                super::database::Database::const_name(*obj),
                db.struct_name(info.inst),
                db.tid(info.inst),
                ob
            );
            let paths = db.flat_paths(info.inst);
            for (slot, v) in &info.defaults {
                if let Some((path, ft)) = paths.get(*slot) {
                    if *ft != LlType::VOID && !matches!(v, LlValue::Void) {
                        let _ = writeln!(b, "        p->{} = {};", path, db.value(*v, *ft));
                    }
                }
            }
            let _ = writeln!(b, "        return ({})p;\n    }}", db.ctype(ret));
        }
        b.push_str("    rpy_fatal(\"instantiating a class that has no vtable\");\n");
        Some(b)
    }

    /// `ll_call_init(instance, args…)`: `__init__` of the instance's class.
    pub(super) fn call_init(&mut self, args: &[LlType]) -> Option<String> {
        let db = self.db();
        let prog = db.prog;
        let ob = db.struct_name(prog.object);
        let mut classes: Vec<(&LlPtr, &crate::rtyper::ClassInfo)> = prog.classes.iter().collect();
        classes.sort_by_key(|(p, _)| **p);
        let mut b = format!("    void *vt = (void *)(({} *)a0)->typeptr;\n", ob);
        for (vt, info) in classes {
            let (LlPtr::Obj { obj, .. }, Some(init)) = (vt, info.init) else {
                continue;
            };
            let LlFunction::Graph { graph, .. } = &prog.functions[init as usize] else {
                continue;
            };
            let g = &prog.graphs[*graph as usize];
            let params: Vec<LlType> = g
                .block(g.startblock)
                .inputargs
                .iter()
                .map(|v| g.concretetype[v.0 as usize])
                .collect();
            if params.len() != args.len() {
                continue;
            }
            let call_args: Vec<String> = params
                .iter()
                .enumerate()
                .filter(|(_, t)| **t != LlType::VOID)
                .map(|(i, t)| format!("({})a{}", db.ctype(*t), i))
                .collect();
            // only classes whose __init__ takes these arguments: the ones the call sites
            // instantiate share a normalized signature; another class of the same arity
            // (a float parameter where the call passes a pointer) is never matched at run
            // time and could not even be compiled as a call here
            let types = &prog.types;
            if params.iter().zip(args).any(|(p, a)| {
                (*p == LlType::VOID) != (*a == LlType::VOID)
                    || (p != a && !(types.is_ptr(*p) && types.is_ptr(*a)))
            }) {
                continue;
            }
            let _ = writeln!(
                b,
                "    if (vt == (void *)&{}) {{ {}({}); return; }}",
                super::database::Database::const_name(*obj),
                db.func_names[init as usize],
                call_args.join(", ")
            );
        }
        Some(b)
    }
}
