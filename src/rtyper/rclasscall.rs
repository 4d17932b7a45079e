//! Calls of classes (seed 000; the reference's rclass `new_instance` and rpbc's calls of
//! class sets). Takes a call of a class, gives the low-level operations that instantiate it:
//!
//! - a class known statically: `malloc` of its instance structure, its vtable in
//!   `typeptr`, the class-level defaults of its fields, and a direct call of its `__init__`;
//! - a class chosen at run time (a variable holding one of several classes, `obj.__class__`,
//!   `objectmodel.instantiate(cls)`): an `indirect_call` of the vtable's `instantiate`, a
//!   low-level graph made here per class (the same allocation, returning the header), then
//!   `__init__`: a direct call when every class the call can instantiate runs the same
//!   one, otherwise an `indirect_call` through a vtable slot of the classes' common base,
//!   which holds each member class's own `__init__` (the members' `__init__`s are one call
//!   family, normalized to one signature).

use super::hop::{cfield, ctype, Hop, LlOps};
use super::rclass::{cls_field, inst_field, instantiate_fn_type, ClassSlot};
use super::rmodel::{Repr, ReprId};
use super::{LlFunction, RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::{ClassDefId, SomeValue};
use crate::fasthash::HashMap;
use crate::flowspace::{ExitCase, FunctionGraph, Hlvalue, Link, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::syntax::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// A new instance of class `cd` (in Repr `Instance(cd)`): allocated, its vtable set,
    /// the class-level defaults of its fields stored.
    pub(super) fn new_instance(
        &mut self,
        llops: &mut LlOps,
        cd: ClassDefId,
    ) -> Result<Hlvalue, TyperError> {
        let ri = self.intern_repr(Repr::Instance(cd));
        let ti = self.lltype(ri);
        let Some(&st) = self.classes.inst.get(&cd) else {
            return Err(TyperError::new(
                "internal error, a class first seen in a low-level helper",
            ));
        };
        let p = llops.genop(LlOp::Malloc, vec![ctype(st)], ti);
        let or = self.intern_repr(Repr::Object);
        let o = self.convertvar(llops, p, ri, or)?;
        let Some(&vt) = self.classes.vtable_ptr.get(&cd) else {
            return Err(TyperError::new(format!(
                "internal error, class {} first seen after the classes were laid out",
                self.ann.bookkeeper.classdefs[cd.index()].name
            )));
        };
        let cr = self.intern_repr(Repr::Class(None));
        let vtc = Hlvalue::Ll(LlConstant {
            ty: self.lltype(cr),
            value: LlValue::Ptr(vt),
        });
        llops.genop(
            LlOp::SetField,
            vec![o, cfield("typeptr"), vtc],
            LlType::VOID,
        );
        let mut c = Some(cd);
        while let Some(owner) = c {
            let fields = self.classes.fields.get(&owner).cloned().unwrap_or_default();
            for (attr, fr) in fields {
                if let Some(v) = self.class_default(cd, &attr) {
                    let k = self.const_value(v, fr)?;
                    let orr = self.intern_repr(Repr::Instance(owner));
                    let ov = self.convertvar(llops, p, ri, orr)?;
                    llops.genop(
                        LlOp::SetField,
                        vec![ov, cfield(&inst_field(&attr)), Hlvalue::Ll(k)],
                        LlType::VOID,
                    );
                }
            }
            c = self.ann.bookkeeper.classdefs[owner.index()].basedef;
        }
        Ok(p)
    }

    /// A call of class `cd`, known statically: a new instance, then its `__init__` (the
    /// graph the call table gives).
    pub(super) fn instantiate_class(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        cd: ClassDefId,
    ) -> R {
        let ri = self.intern_repr(Repr::Instance(cd));
        let p = self.new_instance(llops, cd)?;
        if let Some(g) = self.first_call_target(hop) {
            let mut args = vec![(p, ri)];
            args.extend(self.call_args_for(hop, llops, g, 1)?);
            self.call_graph(llops, g, args)?;
            if hop.exc_handled {
                hop.raising_index = Some(llops.ops.len() - 1);
            }
        } else {
            self.environment_error_init(hop, llops, cd, p)?;
        }
        Ok((p, ri))
    }

    /// `EnvironmentError.__init__` (the one `IOError(...)`, `OSError(...)` and subclasses
    /// without an `__init__` of their own run): `(errno, strerror[, filename])` stored in
    /// the fields of the same names, one argument only in `strerror`, errno 0 otherwise.
    fn environment_error_init(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        cd: ClassDefId,
        p: Hlvalue,
    ) -> Result<(), TyperError> {
        let Some(env) = self.builtin_classdef("EnvironmentError") else {
            return Ok(());
        };
        if hop.op.opname != Op::SimpleCall
            || !self.ann.bookkeeper.issubclass_def(cd, env)
            || self.classes.fields.get(&env).is_none_or(|f| f.is_empty())
        {
            return Ok(());
        }
        let ri = self.intern_repr(Repr::Instance(cd));
        let er = self.intern_repr(Repr::Instance(env));
        let o = self.convertvar(llops, p, ri, er)?;
        let int = self.intern_repr(Repr::Int(crate::objspace::object::IntKind::Signed));
        // (the class is no longer among the hop's arguments: they are the constructor's)
        let nargs = hop.args_v.len();
        let (errno, rest) = if nargs <= 1 {
            (
                Hlvalue::Ll(self.const_value(crate::objspace::object::Value::Int(0), int)?),
                0,
            )
        } else {
            (self.inputarg(llops, hop, 0, int)?, 1)
        };
        let mut stores = vec![("errno", errno)];
        let named = [(rest, "strerror"), (rest + 1, "filename")];
        for (i, field) in named {
            if i < nargs && (field == "strerror" || nargs >= 3) {
                let fr = self.classes.fields[&env]
                    .iter()
                    .find(|(n, _)| &**n == field)
                    .map(|(_, r)| *r);
                if let Some(fr) = fr {
                    stores.push((field, self.inputarg(llops, hop, i, fr)?));
                }
            }
        }
        for (field, v) in stores {
            llops.genop(
                LlOp::SetField,
                vec![o, cfield(&inst_field(field)), v],
                LlType::VOID,
            );
        }
        Ok(())
    }

    /// The function allocating an instance of `cd` (its vtable's `instantiate`): a graph
    /// made on first use, which the vtable then points to. `span` is the call that needs
    /// it (where the graph's operations point).
    fn instantiate_fn(&mut self, cd: ClassDefId, span: Span) -> Result<LlPtr, TyperError> {
        if let Some(&f) = self.classes.instantiate.get(&cd) {
            return Ok(f);
        }
        let name: Rc<str> = format!(
            "{}.instantiate",
            self.ann.bookkeeper.classdefs[cd.index()].name
        )
        .into();
        let slot = self.new_extra_graph_slot();
        self.functions.push(LlFunction::Graph {
            graph: slot,
            name: name.clone(),
        });
        let f = LlPtr::Func(self.functions.len() as u32 - 1);
        // recorded before the graph is built: its allocation may need other classes
        self.classes.instantiate.insert(cd, f);
        let object = self.classes.object;
        let object_ptr = self.types.ptr(object);
        let vtable_ptr = self.st.types.ptr(self.st.classes.object_vtable);
        let mut lg = FunctionGraph::new(name, None, span, &[]);
        let mut types = vec![LlType::VOID; lg.vars.len()];
        let (rb, eb) = (lg.returnblock, lg.exceptblock);
        types[lg.block(rb).inputargs[0].0 as usize] = object_ptr;
        types[lg.block(eb).inputargs[0].0 as usize] = vtable_ptr;
        types[lg.block(eb).inputargs[1].0 as usize] = object_ptr;
        lg.concretetype = types;
        let mut llops = LlOps::new(&mut lg);
        llops.span = span;
        let p = self.new_instance(&mut llops, cd)?;
        let ri = self.intern_repr(Repr::Instance(cd));
        let or = self.intern_repr(Repr::Object);
        let o = self.convertvar(&mut llops, p, ri, or)?;
        let ops = llops.ops;
        let start = lg.startblock;
        lg.block_mut(start).operations = ops;
        let l = lg.add_link(
            start,
            Link {
                prevblock: start,
                target: rb,
                args: vec![o],
                exitcase: ExitCase::None,
                last_exception: None,
                last_exc_value: None,
            },
        );
        lg.set_link_span(l, span);
        self.extra_graphs.insert(slot, lg);
        let vt = self.classes.vtable_ptr[&cd];
        self.st
            .heap
            .setfield(
                &self.st.types,
                vt,
                self.st.classes.object_vtable,
                "instantiate",
                LlValue::Ptr(f),
            )
            .map_err(|e| TyperError::new(e.to_string()))?;
        Ok(f)
    }

    /// A new instance of the class whose vtable is `vt` (one of `classes`), in Repr
    /// `Instance(common)`: an `indirect_call` of the vtable's `instantiate`.
    fn instantiate_runtime_class(
        &mut self,
        llops: &mut LlOps,
        vt: Hlvalue,
        classes: &[ClassDefId],
        common: ClassDefId,
    ) -> Result<Hlvalue, TyperError> {
        for &cd in classes {
            self.instantiate_fn(cd, llops.span)?;
        }
        let object = self.classes.object;
        let ft = instantiate_fn_type(&mut self.types, object);
        let fp = llops.genop(LlOp::GetField, vec![vt, cfield("instantiate")], ft);
        let or = self.intern_repr(Repr::Object);
        let o = llops.genop(LlOp::IndirectCall, vec![fp], self.lltype(or));
        let ri = self.intern_repr(Repr::Instance(common));
        self.convertvar(llops, o, or, ri)
    }

    /// A call of a class chosen at run time (Repr `Class(Some(common))`, the class's
    /// vtable first among `hop`'s arguments): a new instance, then its `__init__`.
    pub(super) fn call_runtime_class(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        common: ClassDefId,
    ) -> R {
        let (vt, vr, s_cls) = hop.r_s_popfirstarg();
        let cr = self.intern_repr(Repr::Class(None));
        let vt = self.convertvar(llops, vt, vr, cr)?;
        let classes = self.classes_of(&s_cls, common);
        let inst = self.instantiate_runtime_class(llops, vt, &classes, common)?;
        let ri = self.intern_repr(Repr::Instance(common));
        let mut inits: Vec<u32> = classes
            .iter()
            .filter_map(|cd| self.method_graph(*cd, "__init__"))
            .collect();
        inits.sort();
        inits.dedup();
        let all_have_init = classes
            .iter()
            .all(|cd| self.method_graph(*cd, "__init__").is_some());
        let Some(&first) = inits.first() else {
            // no __init__: only the allocation (which raises nothing the program catches)
            return Ok((inst, ri));
        };
        if inits.len() == 1 && all_have_init {
            // every class runs the same __init__
            let mut args = vec![(inst, ri)];
            args.extend(self.call_args_for(hop, llops, first, 1)?);
            self.call_graph(llops, first, args)?;
        } else {
            let Some((owner, name)) = classes
                .iter()
                .find_map(|cd| self.classes.init_slot.get(cd).cloned())
            else {
                return Err(TyperError::new(
                    "internal error, the `__init__`s of the classes called here have no vtable slot",
                ));
            };
            let Some(slot) = self.classes.slots[&owner]
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, s)| s.repr())
            else {
                return Err(TyperError::new("internal error, a missing `__init__` slot"));
            };
            let Repr::FuncPtr(graphs) = self.repr(slot).clone() else {
                return Err(TyperError::new(
                    "internal error, an `__init__` slot of no function",
                ));
            };
            let vtp = self.st.types.ptr(self.st.classes.vtable[&owner]);
            let vv = llops.genop(LlOp::CastPointer, vec![vt], vtp);
            let ft = self.lltype(slot);
            let fp = llops.genop(LlOp::GetField, vec![vv, cfield(&cls_field(&name))], ft);
            let g0 = graphs[0];
            let (params, result) = self.graph_signature(g0);
            let mut args = vec![(inst, ri)];
            args.extend(self.call_args_for(hop, llops, g0, 1)?);
            let mut vals = vec![fp];
            for ((v, r), p) in args.into_iter().zip(params) {
                vals.push(self.convertvar(llops, v, r, p)?);
            }
            let rt = self.lltype(result);
            llops.genop(LlOp::IndirectCall, vals, rt);
        }
        if hop.exc_handled {
            hop.raising_index = Some(llops.ops.len() - 1);
        }
        Ok((inst, ri))
    }

    /// `objectmodel.instantiate(cls)`: a new instance without `__init__`, of the one class
    /// given or through the vtable of a class chosen at run time.
    pub(super) fn rtype_objectmodel_instantiate(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        if let Some(crate::objspace::object::Value::Obj(id)) =
            self.static_value(hop.g, hop.op.args[0], hop.args_r[0])
        {
            if let Some(cd) = self.classdef_of_class(id) {
                let p = self.new_instance(llops, cd)?;
                let ri = self.intern_repr(Repr::Instance(cd));
                return Ok((self.convertvar(llops, p, ri, rr)?, rr));
            }
        }
        let common = match self.repr(hop.args_r[0]).clone() {
            Repr::Class(Some(cd)) => Some(cd),
            _ => match self.repr(rr).clone() {
                Repr::Instance(cd) => Some(cd),
                _ => None,
            },
        };
        let Some(common) = common else {
            return Err(TyperError::new(
                "`instantiate` of a class not known to the program is not supported by `run` yet",
            ));
        };
        let cr = self.intern_repr(Repr::Class(None));
        let vt = self.inputarg(llops, hop, 0, cr)?;
        let classes = self.classes_of(&hop.args_s[0].clone(), common);
        let inst = self.instantiate_runtime_class(llops, vt, &classes, common)?;
        let ri = self.intern_repr(Repr::Instance(common));
        Ok((self.convertvar(llops, inst, ri, rr)?, rr))
    }

    /// The classes a value of annotation `s` (classes under `common`) can be.
    fn classes_of(&self, s: &SomeValue, common: ClassDefId) -> Vec<ClassDefId> {
        let bk = &self.ann.bookkeeper;
        let mut out: Vec<ClassDefId> = match s {
            SomeValue::Pbc { descs, .. } => descs
                .iter()
                .filter_map(|d| bk.class_desc(*d)?.classdef)
                .collect(),
            _ => bk.getallsubdefs(common),
        };
        out.sort();
        out.dedup();
        out
    }

    /// The sets of classes instantiated by calls of a variable holding one of them, sets
    /// that share a class merged (their `__init__`s are one call family), each sorted;
    /// in a deterministic order.
    /// The common base of a set of classes instantiated at run time and the distinct
    /// `__init__` graphs they run (sorted by graph id).
    pub(super) fn init_family(&self, set: &[ClassDefId]) -> Option<(ClassDefId, Vec<u32>)> {
        let bk = &self.ann.bookkeeper;
        let common = set
            .iter()
            .copied()
            .reduce(|a, b| bk.commonbase(a, b).unwrap_or(a))?;
        let mut graphs: Vec<u32> = set
            .iter()
            .filter_map(|cd| self.method_graph(*cd, "__init__"))
            .collect();
        graphs.sort();
        graphs.dedup();
        Some((common, graphs))
    }

    pub(super) fn runtime_class_sets(&self) -> Vec<Vec<ClassDefId>> {
        let bk = &self.ann.bookkeeper;
        let mut sets: Vec<BTreeSet<ClassDefId>> = Vec::new();
        for (g, graph) in self.ann.graphs.iter().enumerate() {
            for block in &graph.blocks {
                for op in &block.operations {
                    if !matches!(op.opname, Op::SimpleCall | Op::CallArgs) {
                        continue;
                    }
                    let Hlvalue::Var(v) = op.args[0] else {
                        continue;
                    };
                    let Some(Some(SomeValue::Pbc { descs, can_be_none })) =
                        self.ann.bindings[g].get(v.0 as usize)
                    else {
                        continue;
                    };
                    if !(descs.len() > 1 || *can_be_none)
                        || !descs.iter().all(|d| matches!(bk.desc(*d), Desc::Class(_)))
                    {
                        continue;
                    }
                    let mut set: BTreeSet<ClassDefId> = descs
                        .iter()
                        .filter_map(|d| bk.class_desc(*d).and_then(|c| c.classdef))
                        .collect();
                    // merge with every set sharing a class
                    let mut k = 0;
                    while k < sets.len() {
                        if sets[k].intersection(&set).next().is_some() {
                            set.extend(sets.swap_remove(k));
                        } else {
                            k += 1;
                        }
                    }
                    sets.push(set);
                }
            }
        }
        let mut out: Vec<Vec<ClassDefId>> =
            sets.into_iter().map(|s| s.into_iter().collect()).collect();
        out.sort();
        out
    }

    /// The vtable slots of the `__init__`s of classes instantiated at run time, by the
    /// class owning them (the common base of a set of classes), for the sets whose
    /// classes do not all run the same `__init__`; records `classes.init_slot`.
    pub(super) fn init_slots(&mut self) -> HashMap<ClassDefId, Vec<(Rc<str>, ClassSlot)>> {
        let mut out: HashMap<ClassDefId, Vec<(Rc<str>, ClassSlot)>> = HashMap::default();
        for set in self.runtime_class_sets() {
            let Some((common, mut graphs)) = self.init_family(&set) else {
                continue;
            };
            let all_have_init = set
                .iter()
                .all(|cd| self.method_graph(*cd, "__init__").is_some());
            if graphs.is_empty() || (graphs.len() == 1 && all_have_init) {
                continue;
            }
            self.sort_family(&mut graphs);
            let repr = self.intern_repr(Repr::FuncPtr(graphs));
            let slots = out.entry(common).or_default();
            // one slot per set: several sets under one base are separate families
            let name: Rc<str> = match slots.len() {
                0 => "__init__".into(),
                n => format!("__init__{}", n).into(),
            };
            for &cd in &set {
                self.classes.init_slot.insert(cd, (common, name.clone()));
            }
            slots.push((
                name,
                ClassSlot::Init {
                    repr,
                    members: set.into(),
                },
            ));
        }
        out
    }
}
