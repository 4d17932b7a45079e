//! Own defaults for call families with one call shape (the reference's
//! `normalize_calltable_row_signature`): when every call of a family leaves the same
//! trailing parameters out, each function of the family receives there its own default
//! values, even where they differ in value or in type (`Tri.__init__(self, name, size=3)`
//! called through a variable that may also hold `Shape`, whose `__init__` has `size=1`; a
//! method whose default is `False` overridden by one whose default is `""`). The reference
//! gives such graphs a new start block taking only the parameters the calls pass, whose
//! link to the old start block carries the own defaults as constants; here the annotator
//! records, per graph, that arity and those values, and the RTyper builds that entry
//! (`RTyper::translate_graph`), so the omitted parameters never meet in the family's
//! signature. (Several shapes with differing defaults are an error, reported by
//! `check_call_shapes`.)

use super::annrpython::Annotator;
use super::description::{Desc, Specializer};
use super::model::DescId;
use crate::fasthash::HashMap;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Value;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Per graph of such a family: the number of parameters its callers pass and its own
    /// default values for the remaining ones.
    pub(super) fn own_defaults(&mut self) -> HashMap<u32, (usize, Vec<Value>)> {
        let mut out = HashMap::default();
        for (root, funcs) in self.call_shapes.families() {
            let shapes = match self.call_shapes.shapes.get(&root) {
                Some(s) if s.len() == 1 => s[0].0.clone(),
                _ => continue,
            };
            let (npos, kws) = shapes;
            if funcs.len() < 2 || !kws.is_empty() {
                continue;
            }
            let mut sigs: Vec<(DescId, usize, Vec<Value>)> = Vec::new();
            for &f in &funcs {
                let Desc::Function(fd) = self.bk.desc(f) else {
                    continue;
                };
                if fd.specializer != Specializer::Default
                    || fd.sig.varargs.is_some()
                    || fd.sig.kwargs.is_some()
                {
                    sigs.clear();
                    break;
                }
                sigs.push((f, fd.sig.argnames.len(), fd.defaults.to_vec()));
            }
            if sigs.len() < 2 || sigs.iter().all(|s| s.1 == sigs[0].1 && s.2 == sigs[0].2) {
                continue;
            }
            for (f, nparams, defaults) in sigs {
                if npos >= nparams || nparams - npos > defaults.len() {
                    continue;
                }
                let own: Vec<Value> = defaults[defaults.len() - (nparams - npos)..].to_vec();
                for g in 0..self.graphs.len() {
                    let start = self.graphs[g].startblock;
                    if self.info[g].desc == Some(f)
                        && self.graphs[g].block(start).inputargs.len() == nparams
                    {
                        out.insert(g as u32, (npos, own.clone()));
                    }
                }
            }
        }
        out
    }
}
