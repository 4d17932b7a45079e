//! Own defaults for call families with one call shape (the reference's
//! `normalize_calltable_row_signature`): when every call of a family leaves the same
//! trailing parameters out, each function of the family receives there its own default
//! values, even where they differ (`Tri.__init__(self, name, size=3)` called through a
//! variable that may also hold `Shape`, whose `__init__` has `size=1`). The RTyper passes
//! one set of defaults to every function of a family, so here each graph's start block
//! reads its own defaults in place of those parameters. (Several shapes with differing
//! defaults are an error, reported by `check_call_shapes`.)

use super::annrpython::Annotator;
use super::description::{Desc, Specializer};
use super::model::DescId;
use crate::fasthash::HashMap;
use crate::flowspace::{ExitSwitch, Hlvalue, VarId};
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Value;

impl<C: ConcreteSpace> Annotator<'_, C> {
    pub(super) fn apply_own_defaults(&mut self) {
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
                let own: HashMap<usize, Value> = (npos..nparams)
                    .map(|i| (i, defaults[defaults.len() - (nparams - i)]))
                    .collect();
                let graphs: Vec<usize> = (0..self.graphs.len())
                    .filter(|&g| self.info[g].desc == Some(f))
                    .collect();
                for g in graphs {
                    self.read_own_defaults(g, &own);
                }
            }
        }
    }

    /// In graph `g`'s start block, the parameters `own` maps become those constants.
    fn read_own_defaults(&mut self, g: usize, own: &HashMap<usize, Value>) {
        let graph = &mut self.graphs[g];
        let start = graph.startblock;
        if graph.links.iter().any(|l| l.target == start) {
            return;
        }
        let params = graph.block(start).inputargs.clone();
        let subst: HashMap<VarId, Value> = own
            .iter()
            .filter_map(|(&i, &v)| params.get(i).map(|&p| (p, v)))
            .collect();
        let fix = |h: &mut Hlvalue| {
            if let Hlvalue::Var(v) = *h {
                if let Some(&c) = subst.get(&v) {
                    *h = Hlvalue::Const(c);
                }
            }
        };
        let block = graph.block_mut(start);
        for op in &mut block.operations {
            op.args.iter_mut().for_each(fix);
        }
        if let ExitSwitch::Value(h) = &mut block.exitswitch {
            fix(h);
        }
        let exits = block.exits.clone();
        for l in exits {
            graph.link_mut(l).args.iter_mut().for_each(fix);
        }
    }
}
