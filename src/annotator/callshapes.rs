//! Call shapes of function families: takes every call of Python functions and methods
//! (the functions one call site may reach form one family, as the reference's call
//! families) and gives the error the reference's typer reports when a family cannot get
//! one low-level signature: its functions differ in parameters or default values, it is
//! called with several shapes (numbers of arguments, keyword names), and some call leaves
//! a parameter to its default, which would have to be filled in differently per function.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::description::{Desc, Specializer};
use super::model::DescId;
use super::AnnError;
use crate::fasthash::HashMap;
use crate::interpreter::ConcreteSpace;
use crate::syntax::Span;
use std::rc::Rc;

/// A call's shape: positional arguments (with `self` for a method) and keyword names.
type Shape = (usize, Vec<Rc<str>>);

/// What a set of callables contributes to the families: its functions (the reference's
/// row of graphs for a call site) and whether its members are bound methods (`None`: not
/// a set of functions and methods).
type SetInfo = Option<(Rc<[DescId]>, bool)>;

/// The families seen so far (a union-find over function descriptions) and their shapes.
#[derive(Default, Debug)]
pub struct CallShapes {
    parent: HashMap<DescId, DescId>,
    /// Per family root: each shape with the first call that had it.
    pub(super) shapes: HashMap<DescId, Vec<(Shape, Span)>>,
    /// The sets of callables already merged into the families, by the address of their
    /// `Rc` (kept alive so the address stays theirs): a call site is re-flowed many times
    /// and a family can have thousands of members, so each set is merged once.
    merged: HashMap<usize, (Rc<[DescId]>, SetInfo)>,
    /// Every call's row: its shape, the functions that call may reach and the first call
    /// with them (the reference normalizes each row on its own: one call reaching only
    /// overrides with equal defaults is fine while another call of the family passes every
    /// argument to all of them). Keyed by the shape and the address of the functions.
    rows: Vec<(Shape, Rc<[DescId]>, Span)>,
    row_index: crate::fasthash::HashSet<(Shape, usize)>,
}

impl CallShapes {
    fn find(&mut self, d: DescId) -> DescId {
        let p = *self.parent.entry(d).or_insert(d);
        if p == d {
            return d;
        }
        let r = self.find(p);
        self.parent.insert(d, r);
        r
    }

    fn union(&mut self, a: DescId, b: DescId) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
            let moved = self.shapes.remove(&rb).unwrap_or_default();
            let into = self.shapes.entry(ra).or_default();
            for (s, sp) in moved {
                if !into.iter().any(|(t, _)| *t == s) {
                    into.push((s, sp));
                }
            }
        }
    }
}

impl CallShapes {
    /// Each family's root and its members.
    pub(super) fn families(&mut self) -> Vec<(DescId, Vec<DescId>)> {
        let mut members: Vec<DescId> = self.parent.keys().copied().collect();
        members.sort();
        let mut out: Vec<(DescId, Vec<DescId>)> = Vec::new();
        // each root's place in `out` (families in the order of their first member)
        let mut index: HashMap<DescId, usize> = HashMap::default();
        for d in members {
            let r = self.find(d);
            match index.get(&r) {
                Some(&i) => out[i].1.push(d),
                None => {
                    index.insert(r, out.len());
                    out.push((r, vec![d]));
                }
            }
        }
        out
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Records a call of the functions or methods `descs` with `args` at `span`.
    pub(super) fn record_call_shape(&mut self, descs: &Rc<[DescId]>, args: &ArgsS, span: Span) {
        let key = Rc::as_ptr(descs) as *const DescId as usize;
        let info = match self.call_shapes.merged.get(&key) {
            Some((_, info)) => info.clone(),
            None => {
                let info = self.merge_call_set(descs);
                self.call_shapes
                    .merged
                    .insert(key, (descs.clone(), info.clone()));
                info
            }
        };
        let Some((funcs, bound)) = info else {
            return;
        };
        let first = funcs[0];
        // `f(a, *unknown)` (also the call of a method unknown code may call) has no known
        // shape: how many arguments it passes is unknown.
        if args.star_unknown.is_some() {
            return;
        }
        let shape: Shape = (
            args.positional.len() + usize::from(bound),
            args.keywords.iter().map(|(k, _)| k.clone()).collect(),
        );
        let root = self.call_shapes.find(first);
        let list = self.call_shapes.shapes.entry(root).or_default();
        if !list.iter().any(|(s, _)| *s == shape) {
            list.push((shape.clone(), span));
        }
        let row_key = (shape.clone(), Rc::as_ptr(&funcs) as *const DescId as usize);
        if self.call_shapes.row_index.insert(row_key) {
            self.call_shapes.rows.push((shape, funcs, span));
        }
    }

    /// Merges the functions of a set of callables into one family.
    fn merge_call_set(&mut self, descs: &[DescId]) -> SetInfo {
        let mut funcs = Vec::new();
        let mut bound = false;
        for &d in descs {
            match self.bk.desc(d) {
                Desc::Function(_) => funcs.push(d),
                Desc::Method(m) => {
                    funcs.push(m.func);
                    bound = true;
                }
                Desc::MethodOfFrozen { func, .. } => {
                    funcs.push(*func);
                    bound = true;
                }
                // calling classes calls their `__init__`s, with the new instance first
                Desc::Class(_) => {
                    if let Some(f) = self.init_function_desc(d) {
                        funcs.push(f);
                    }
                    bound = true;
                }
                _ => return None,
            }
        }
        let &first = funcs.first()?;
        for &f in &funcs[1..] {
            self.call_shapes.union(first, f);
        }
        Some((Rc::from(funcs), bound))
    }

    /// The function description of the `__init__` that instances of class `d` run.
    fn init_function_desc(&mut self, d: DescId) -> Option<DescId> {
        let owner = super::classdef::ClassDesc::lookup(&self.bk, d, "__init__")?;
        match self.bk.class_desc(owner)?.classdict.get("__init__")? {
            super::classdef::ClassAttr::Desc(f) => Some(*f),
            super::classdef::ClassAttr::Const(crate::objspace::object::Value::Obj(o)) => {
                let o = *o;
                let f = self.bk.getdesc(self.space.heap(), o).ok()?;
                matches!(self.bk.desc(f), Desc::Function(_)).then_some(f)
            }
            _ => None,
        }
    }

    /// Reports each family called with several shapes whose functions cannot share one:
    /// as the reference's typer, row by row (the functions one call may reach), a row whose
    /// functions differ in parameters or defaults and that a call does not fill in order.
    pub(super) fn check_call_shapes(&mut self) {
        let rows = self.call_shapes.rows.clone();
        let mut reported: crate::fasthash::HashSet<DescId> = Default::default();
        let mut errors = Vec::new();
        for ((n, kws), row, span) in rows {
            let root = self.call_shapes.find(row[0]);
            let nshapes = self.call_shapes.shapes.get(&root).map_or(0, |v| v.len());
            if nshapes < 2 || reported.contains(&root) {
                continue;
            }
            let mut funcs: Vec<DescId> = row.to_vec();
            funcs.sort();
            funcs.dedup();
            if funcs.len() < 2 {
                continue;
            }
            let mut sigs = Vec::new();
            for &f in &funcs {
                let Desc::Function(fd) = self.bk.desc(f) else {
                    continue;
                };
                // Specialized functions and *args are normalized otherwise (or not at all).
                if fd.specializer != Specializer::Default || fd.sig.varargs.is_some() {
                    sigs.clear();
                    break;
                }
                sigs.push((fd.name.clone(), fd.sig.clone(), fd.defaults.clone()));
            }
            if sigs.len() < 2 {
                continue;
            }
            // Defaults compare by value, as the reference's tuples do (unhashable ones
            // leniently: two lists count as equal).
            let heap = self.space.heap();
            let same_default = |a: &crate::objspace::object::Value,
                                b: &crate::objspace::object::Value| {
                a == b || heap.hash_key(*a) == heap.hash_key(*b)
            };
            let all_same = sigs.iter().all(|(_, s, d)| {
                *s == sigs[0].1
                    && d.len() == sigs[0].2.len()
                    && d.iter()
                        .zip(sigs[0].2.iter())
                        .all(|(a, b)| same_default(a, b))
            });
            if all_same {
                continue;
            }
            // A call that does not pass every parameter in order needs each function's own
            // defaults filled in: impossible with several shapes.
            let needs_defaults = sigs.iter().any(|(_, sig, _)| {
                let in_order = kws
                    .iter()
                    .enumerate()
                    .all(|(i, k)| sig.argnames.get(n + i) == Some(k));
                n + kws.len() != sig.argnames.len() || !in_order
            });
            // A call passing more arguments than one of the functions takes (an override
            // with fewer parameters, called through the base class) says so plainly.
            let too_many = sigs
                .iter()
                .find(|(_, sig, _)| n + kws.len() > sig.argnames.len())
                .map(|(name, sig, _)| (name.clone(), sig.argnames.len(), n + kws.len()));
            if let Some((name, takes, given)) = too_many {
                reported.insert(root);
                errors.push((
                    AnnError::new(
                        "RPY206",
                        format!(
                            "signature mismatch: `{}` takes exactly {} argument{} ({} given) at this call, which may reach every function of its family (an override called through its base class): they must all accept the same arguments",
                            name,
                            takes,
                            if takes == 1 { "" } else { "s" },
                            given
                        ),
                    ),
                    span,
                ));
            } else if needs_defaults {
                reported.insert(root);
                let mut names: Vec<String> =
                    sigs.iter().map(|(n, _, _)| format!("`{n}`")).collect();
                names.sort();
                names.dedup();
                errors.push((
                    AnnError::new(
                        "RPY206",
                        format!(
                            "the {} functions {} that one call may reach differ in parameters or default values, and they are called with different numbers of arguments: RPython needs one call shape for them, and this call leaves a parameter to its default (pass every argument explicitly)",
                            sigs.len(),
                            names.join(" and ")
                        ),
                    ),
                    span,
                ));
            }
        }
        errors.sort_by_key(|(_, s)| (s.file, s.start));
        for (e, span) in errors {
            self.report(e, span);
        }
    }
}
