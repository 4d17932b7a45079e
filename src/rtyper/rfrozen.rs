//! Variables holding one of several prebuilt frozen objects (`_freeze_` instances,
//! modules): the reference's MultipleFrozenPBCRepr. Takes the annotations of the program,
//! gives Repr `Frozen(family)`: a pointer to an immutable prebuilt structure per object
//! with one field per attribute read through such a variable.
//!
//! Objects that meet in one variable belong to one family (a union-find over the sets
//! the annotator gives variables, like the reference's attribute families of frozen
//! descriptions); the family's structure holds every attribute read on any of its sets,
//! its type the annotation of the read (the first read on the largest set). A method of
//! the objects' class read through the variable (`op.describe()`) is represented by the
//! object itself (`Repr::FrozenMethod`) and called with it as `self`.

use super::hop::{cfield, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::{DescId, SomeValue};
use crate::fasthash::HashMap;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::objspace::object::{ObjId, Object, Value};
use std::collections::BTreeMap;
use std::rc::Rc;

/// The families of frozen objects, computed on first use.
#[derive(Default)]
pub(super) struct FrozenFamilies {
    family_of: HashMap<DescId, u32>,
    /// Per family: the attributes read, sorted by name, with the annotation of the read.
    attrs: Vec<Vec<(Rc<str>, SomeValue)>>,
    /// Per family: the structure of its objects, once made.
    structs: Vec<Option<LlType>>,
}

/// The field of attribute `attr` in a family's structure.
fn pbc_field(attr: &str) -> String {
    format!("pbc_{}", attr)
}

impl RTyper<'_> {
    /// Whether a description is a frozen object.
    fn is_frozen(&self, d: DescId) -> bool {
        matches!(self.ann.bookkeeper.desc(d), Desc::Frozen(_))
    }

    /// The family of frozen object `d`, computing the families on first use.
    pub(super) fn frozen_family(&mut self, d: DescId) -> Option<u32> {
        if self.pbc_reprs.frozen.is_none() {
            let f = self.frozen_families();
            self.pbc_reprs.frozen = Some(f);
        }
        self.pbc_reprs.frozen.as_ref()?.family_of.get(&d).copied()
    }

    fn frozen_families(&self) -> FrozenFamilies {
        let bk = &self.ann.bookkeeper;
        // the frozen objects a value can be: of a set of frozen objects or of methods of
        // frozen objects
        let frozen_of = |s: &SomeValue| -> Vec<DescId> {
            let SomeValue::Pbc { descs, .. } = s else {
                return Vec::new();
            };
            let out: Vec<DescId> = descs
                .iter()
                .filter_map(|d| match bk.desc(*d) {
                    Desc::Frozen(_) => Some(*d),
                    Desc::MethodOfFrozen { frozen, .. } => Some(*frozen),
                    _ => None,
                })
                .collect();
            if out.len() == descs.len() {
                out
            } else {
                Vec::new()
            }
        };
        let mut parent: HashMap<DescId, DescId> = HashMap::default();
        fn find(parent: &mut HashMap<DescId, DescId>, d: DescId) -> DescId {
            let p = *parent.entry(d).or_insert(d);
            if p == d {
                return d;
            }
            let r = find(parent, p);
            parent.insert(d, r);
            r
        }
        for binding in &self.ann.bindings {
            for s in binding.iter().flatten() {
                let ds = frozen_of(s);
                if let Some((&first, rest)) = ds.split_first() {
                    let a = find(&mut parent, first);
                    for &d in rest {
                        let b = find(&mut parent, d);
                        if a != b {
                            // the smaller id is the root: deterministic
                            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                            parent.insert(hi, lo);
                        }
                    }
                }
            }
        }
        // number the families by their smallest member
        let mut members: Vec<DescId> = parent.keys().copied().collect();
        members.sort();
        let mut family_of = HashMap::default();
        let mut root_family: BTreeMap<DescId, u32> = BTreeMap::new();
        for d in members {
            let r = find(&mut parent, d);
            let n = root_family.len() as u32;
            let f = *root_family.entry(r).or_insert(n);
            family_of.insert(d, f);
        }
        let n = root_family.len();
        // the attributes read through a variable of several of them: (family, attr) →
        // (size of the set read on, annotation)
        let mut reads: BTreeMap<(u32, Rc<str>), (usize, SomeValue)> = BTreeMap::new();
        for (g, graph) in self.ann.graphs.iter().enumerate() {
            for block in &graph.blocks {
                for op in &block.operations {
                    if op.opname != Op::GetAttr {
                        continue;
                    }
                    let s_obj = self.annotation(g as u32, op.args[0]);
                    let SomeValue::Pbc { descs, can_be_none } = &s_obj else {
                        continue;
                    };
                    if (descs.len() < 2 && !can_be_none)
                        || !descs.iter().all(|d| self.is_frozen(*d))
                    {
                        continue;
                    }
                    let s = self.annotation(g as u32, Hlvalue::Var(op.result));
                    let is_method = matches!(&s, SomeValue::Pbc { descs, .. }
                        if descs.iter().all(|d| matches!(bk.desc(*d), Desc::MethodOfFrozen { .. })));
                    if s.konst().is_some() || s.is_impossible() || is_method {
                        continue;
                    }
                    let Some(name) = op.args[1]
                        .constant()
                        .and_then(|c| self.objheap.str_value(c))
                        .map(|b| Rc::<str>::from(String::from_utf8_lossy(b).as_ref()))
                    else {
                        continue;
                    };
                    let Some(&f) = family_of.get(&descs[0]) else {
                        continue;
                    };
                    let e = reads.entry((f, name)).or_insert((0, SomeValue::Impossible));
                    if descs.len() > e.0 {
                        *e = (descs.len(), s);
                    }
                }
            }
        }
        let mut attrs = vec![Vec::new(); n];
        for ((f, name), (_, s)) in reads {
            attrs[f as usize].push((name, s));
        }
        FrozenFamilies {
            family_of,
            attrs,
            structs: vec![None; n],
        }
    }

    /// The structure of family `f`'s objects: `pbc {pbc_<attr>…}` (immortal, immutable).
    pub(super) fn frozen_struct(&mut self, f: u32) -> LlType {
        let fam = self.pbc_reprs.frozen.as_ref().expect("families computed");
        if let Some(Some(t)) = fam.structs.get(f as usize) {
            return *t;
        }
        let attrs = fam.attrs[f as usize].clone();
        let st = self.types.new_struct("pbc", false, Vec::new());
        self.pbc_reprs.frozen.as_mut().unwrap().structs[f as usize] = Some(st);
        let mut fields = Vec::new();
        for (name, s) in attrs {
            // an attribute of no low-level type has no field: reading it reports why
            if let Ok(r) = self.getrepr(&s) {
                fields.push((pbc_field(&name).into(), self.lltype(r)));
            }
        }
        self.types.set_fields(st, fields);
        st
    }

    /// The Repr of a set of frozen objects (several, or one that may be None), or of
    /// methods of them (all the same function); None for other sets.
    pub(super) fn frozen_pbc_repr(
        &mut self,
        descs: &[DescId],
    ) -> Option<Result<ReprId, TyperError>> {
        let bk = &self.ann.bookkeeper;
        if descs.iter().all(|d| self.is_frozen(*d)) {
            let f = self.frozen_family(descs[0])?;
            return Some(Ok(self.intern_repr(Repr::Frozen(f))));
        }
        let mut func = None;
        let mut frozen = Vec::new();
        for d in descs {
            let Desc::MethodOfFrozen {
                func: fd,
                frozen: fz,
            } = bk.desc(*d)
            else {
                return None;
            };
            if func.is_some_and(|f| f != *fd) {
                return Some(Err(TyperError::new(
                    "internal error, methods of different functions of prebuilt objects (the annotator refuses them)",
                )));
            }
            func = Some(*fd);
            frozen.push(*fz);
        }
        let func = func?;
        let f = self.frozen_family(frozen[0])?;
        let self_repr = self.intern_repr(Repr::Frozen(f));
        Some(Ok(self.intern_repr(Repr::FrozenMethod { self_repr, func })))
    }

    /// The prebuilt structure of frozen object `obj` in Repr `r` (`Frozen(f)`).
    pub(super) fn prebuilt_frozen(&mut self, obj: ObjId, r: ReprId) -> Result<LlPtr, TyperError> {
        if let Some(&p) = self.prebuilt.get(&(obj, r)) {
            return Ok(p);
        }
        let Repr::Frozen(f) = *self.repr(r) else {
            return Err(TyperError::new("internal error, not a frozen object Repr"));
        };
        let st = self.frozen_struct(f);
        let p = self.st.heap.malloc(&self.st.types, st, 0);
        self.prebuilt.insert((obj, r), p);
        let attrs = self.pbc_reprs.frozen.as_ref().unwrap().attrs[f as usize].clone();
        for (name, s) in attrs {
            // an object lacking the attribute keeps a zero field, as the reference's
            let Some(v) = self.frozen_attr(obj, &name) else {
                continue;
            };
            let fr = self.getrepr(&s)?;
            let k = self.const_value(v, fr)?;
            self.st
                .heap
                .setfield(&self.st.types, p, st, &pbc_field(&name), k.value)
                .map_err(|e| TyperError::new(e.to_string()))?;
        }
        Ok(p)
    }

    /// Attribute `name` of a frozen object: a module's global, an instance's own
    /// attribute, or its class's.
    fn frozen_attr(&self, obj: ObjId, name: &str) -> Option<Value> {
        match self.objheap.get(obj) {
            Object::Module(m) => m.dict.get(name),
            Object::Instance(inst) => inst.dict.get(name).or_else(|| {
                let c = self.objheap.class(inst.class)?;
                c.mro
                    .iter()
                    .find_map(|k| self.objheap.class(*k)?.dict.get(name))
            }),
            _ => None,
        }
    }

    /// `getattr` of an attribute read through a variable holding one of several frozen
    /// objects (`v` in Repr `Frozen(f)`): its field, converted to the result's Repr.
    pub(super) fn frozen_getattr(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        f: u32,
        name: &str,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let rr = hop.r_result;
        let attrs = &self.pbc_reprs.frozen.as_ref().unwrap().attrs[f as usize];
        let Some(s) = attrs
            .iter()
            .find(|(n, _)| **n == *name)
            .map(|(_, s)| s.clone())
        else {
            return Err(TyperError::new(format!(
                "attribute `{}` of a prebuilt object has no storage",
                name
            )));
        };
        let fr = self.getrepr(&s)?;
        let t = self.lltype(fr);
        let out = llops.genop(
            LlOp::GetField,
            vec![hop.args_v[0], cfield(&pbc_field(name))],
            t,
        );
        Ok((self.convertvar(llops, out, fr, rr)?, rr))
    }

    /// A call of a method of one of several frozen objects: its graph, with the object
    /// (`sv`, held in `self_repr`) as `self`.
    pub(super) fn call_frozen_method(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        sv: Hlvalue,
        self_repr: ReprId,
        func: DescId,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let Some(g) = self.single_graph_of(func) else {
            return Err(TyperError::new(
                "a method of a prebuilt object that was never annotated",
            ));
        };
        let mut args = vec![(sv, self_repr)];
        args.extend(self.call_args_for(hop, llops, g, 1)?);
        let r = self.call_graph(llops, g, args)?;
        if hop.exc_handled {
            hop.raising_index = Some(llops.ops.len() - 1);
        }
        Ok(r)
    }

    /// The low-level constant of a frozen object in Repr `Frozen(f)`.
    pub(super) fn frozen_const(&mut self, obj: ObjId, r: ReprId) -> Result<LlConstant, TyperError> {
        let p = self.prebuilt_frozen(obj, r)?;
        Ok(LlConstant {
            ty: self.lltype(r),
            value: LlValue::Ptr(p),
        })
    }
}
