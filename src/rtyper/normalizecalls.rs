//! Call-family normalization (the reference's normalizecalls): the graphs that one call
//! site can reach through a function pointer or a vtable slot must share one low-level
//! signature. Each graph keeps its own Reprs inside; its entry converts from the family's
//! parameter Reprs (a subclass's method receives `self` as the base class the slot belongs
//! to) and its return block receives the family's result Repr (a method returning the
//! constant `'L'`, a char, where the others return strings).

use super::rmodel::{Repr, ReprId};
use super::RTyper;
use crate::annotator::description::Desc;
use crate::annotator::model::{ClassDefId, SomeValue};
use crate::objspace::object::IntKind;

impl RTyper<'_> {
    /// The graphs implementing method `name` for the classes under `cd` (what a vtable
    /// slot of `cd` can point to), sorted.
    pub fn method_family_graphs(&self, cd: ClassDefId, name: &str) -> Vec<u32> {
        let mut graphs: Vec<u32> = self
            .ann
            .bookkeeper
            .getallsubdefs(cd)
            .into_iter()
            .filter_map(|sub| self.method_graph(sub, name))
            .collect();
        graphs.sort();
        graphs.dedup();
        graphs
    }

    /// Finds every call family (method slots, variables holding one of several functions)
    /// and gives its graphs a common signature. Runs before any function-pointer type is
    /// built.
    pub(super) fn normalize_call_families(&mut self) {
        let bk = &self.ann.bookkeeper;
        let mut families: Vec<(Vec<u32>, Option<ClassDefId>)> = Vec::new();
        for (i, cdef) in bk.classdefs.iter().enumerate() {
            let cd = ClassDefId(i as u32);
            let mut names: Vec<&std::rc::Rc<str>> = cdef
                .attrs
                .iter()
                .filter(|(_, a)| {
                    a.readonly
                        && matches!(&a.s_value, SomeValue::Pbc { descs, .. }
                            if descs.iter().all(|d| matches!(bk.desc(*d), Desc::Method(_))))
                })
                .map(|(k, _)| k)
                .collect();
            names.sort();
            for name in names {
                let graphs = self.method_family_graphs(cd, name);
                if graphs.len() > 1 {
                    families.push((graphs, Some(cd)));
                }
                // each row of a specialized method is a call family of its own
                for (_, graphs) in self.method_rows(cd, name) {
                    if graphs.len() > 1 && !families.iter().any(|(f, _)| *f == graphs) {
                        families.push((graphs, Some(cd)));
                    }
                }
            }
        }
        // the __init__ of classes instantiated through a variable holding one of them (only
        // called ones: a list of classes whose attributes are read is no instantiation)
        for set in self.runtime_class_sets() {
            let Some((common, graphs)) = self.init_family(&set) else {
                continue;
            };
            if graphs.len() > 1 && !families.iter().any(|(f, _)| *f == graphs) {
                families.push((graphs, Some(common)));
            }
        }
        for binding in &self.ann.bindings {
            for s in binding.iter().flatten() {
                if let SomeValue::Pbc { descs, can_be_none } = s {
                    if (descs.len() > 1 || *can_be_none)
                        && descs
                            .iter()
                            .all(|d| matches!(bk.desc(*d), Desc::Function(_)))
                    {
                        let graphs = self.function_graphs(descs);
                        if graphs.len() > 1 && !families.iter().any(|(f, _)| *f == graphs) {
                            families.push((graphs, None));
                        }
                    }
                }
            }
        }
        for (graphs, owner) in families {
            self.add_family(&graphs, owner);
        }
    }

    fn own_signature(&mut self, g: u32) -> Option<(Vec<ReprId>, ReprId)> {
        let params = self.entry_params(g);
        let hl = &self.ann.graphs[g as usize];
        let ret = hl.block(hl.returnblock).inputargs[0];
        let mut args = Vec::new();
        for v in params {
            args.push(self.var_repr(g, v).ok()?);
        }
        let result = self.var_repr(g, ret).ok()?;
        Some((args, result))
    }

    fn add_family(&mut self, graphs: &[u32], owner: Option<ClassDefId>) {
        let mut sigs = Vec::new();
        for &g in graphs {
            if self.is_generator_graph(g) {
                return;
            }
            match self
                .family_sig
                .get(&g)
                .cloned()
                .or_else(|| self.own_signature(g))
            {
                Some(s) => sigs.push(s),
                None => return,
            }
        }
        let n = sigs[0].0.len();
        if sigs.iter().any(|s| s.0.len() != n) {
            return;
        }
        let mut params: Vec<ReprId> = sigs[0].0.clone();
        let mut result = sigs[0].1;
        for (p, r) in &sigs[1..] {
            for i in 0..n {
                params[i] = self.merge_reprs(params[i], p[i]);
            }
            result = self.merge_reprs(result, *r);
        }
        if let (Some(cd), true) = (owner, n > 0) {
            params[0] = self.intern_repr(Repr::Instance(cd));
        }
        for &g in graphs {
            self.family_sig.insert(g, (params.clone(), result));
            let hl = &self.ann.graphs[g as usize];
            let ret = hl.block(hl.returnblock).inputargs[0];
            self.var_reprs.insert((g, ret), result);
        }
    }

    /// The Repr that holds the values of both (the union at the level of Reprs).
    fn merge_reprs(&mut self, a: ReprId, b: ReprId) -> ReprId {
        if a == b {
            return a;
        }
        match (self.repr(a).clone(), self.repr(b).clone()) {
            (Repr::Void | Repr::Prebuilt(_), _) => b,
            (_, Repr::Void | Repr::Prebuilt(_)) => a,
            (Repr::Char, Repr::Str) | (Repr::UniChar, Repr::Unicode) => b,
            (Repr::Str, Repr::Char) | (Repr::Unicode, Repr::UniChar) => a,
            (Repr::Bool, Repr::Int(_)) => b,
            (Repr::Int(_), Repr::Bool) => a,
            (Repr::Int(IntKind::Signed), Repr::Int(_)) => b,
            (Repr::Instance(x), Repr::Instance(y)) => {
                let c = self.ann.bookkeeper.commonbase(x, y).unwrap_or(x);
                self.intern_repr(Repr::Instance(c))
            }
            (Repr::Instance(_), Repr::Object) => b,
            _ => a,
        }
    }
}
