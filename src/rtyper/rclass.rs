//! Instances and classes (seed 000; the reference's rclass): every instance starts with the
//! `object` header, a pointer to its class's vtable; a subclass's instance structure embeds
//! its base class's as first field, and so do vtables. A vtable holds the class's id range
//! (`isinstance` is a range check: classes are numbered in preorder), its name (for
//! `Fatal RPython error: Name`), `instantiate` (a function allocating an instance of the
//! class, for classes chosen at run time: see `rclasscall`), class attributes that differ
//! between classes, and function pointers for methods called on instances of several
//! classes.
//!
//! Layouts are computed once, before any graph is translated, in a deterministic order
//! (class definitions by id, attributes by name).

use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::classdef::ClassAttr;
use crate::annotator::description::Desc;
use crate::annotator::model::{ClassDefId, DescId, SomeValue};
use crate::fasthash::HashMap;
use crate::lltypesystem::{LlPtr, LlType, LlTypes, LlValue};
use std::rc::Rc;

/// What a class-level attribute slot of a vtable holds.
#[derive(Clone, Debug)]
pub enum ClassSlot {
    /// A method: each class's slot points to the graph its MRO finds.
    Method { repr: ReprId },
    /// A constant class attribute, of this Repr.
    Constant { repr: ReprId },
    /// The `__init__` of classes instantiated through a variable holding one of them:
    /// each member's slot points to its `__init__` (one call family), the other classes'
    /// are null (as the reference's vtables have it).
    Init {
        repr: ReprId,
        members: Rc<[ClassDefId]>,
    },
}

impl ClassSlot {
    /// The Repr of what the slot holds.
    pub fn repr(&self) -> ReprId {
        match self {
            ClassSlot::Method { repr }
            | ClassSlot::Constant { repr }
            | ClassSlot::Init { repr, .. } => *repr,
        }
    }
}

#[derive(Default)]
pub struct ClassLayouts {
    pub object: LlType,
    pub object_vtable: LlType,
    pub inst: HashMap<ClassDefId, LlType>,
    pub vtable: HashMap<ClassDefId, LlType>,
    /// Instance fields each class definition owns: attribute name → (Repr).
    pub fields: HashMap<ClassDefId, Vec<(Rc<str>, ReprId)>>,
    /// Class-level slots each class definition owns.
    pub slots: HashMap<ClassDefId, Vec<(Rc<str>, ClassSlot)>>,
    pub ranges: HashMap<ClassDefId, (i64, i64)>,
    /// The prebuilt vtable of each class.
    pub vtable_ptr: HashMap<ClassDefId, LlPtr>,
    /// Built-in exception classes no value of the program is an instance of (raised by
    /// operations: IndexError, ZeroDivisionError…), numbered as leaves under their nearest
    /// ancestor that has a class definition, with a vtable of the root type.
    pub extra_children: HashMap<ClassDefId, Vec<Rc<str>>>,
    pub extra_ranges: HashMap<Rc<str>, (i64, i64)>,
    /// Built-in exceptions with no Python class (`runtime::BUILTIN_SUBCLASSES`) numbered
    /// under another such exception: by base name.
    pub extra_nested: HashMap<Rc<str>, Vec<Rc<str>>>,
    pub extra_vtable: HashMap<Rc<str>, LlPtr>,
    /// The function (`instantiate` in the vtables) allocating an instance of each class
    /// instantiated at run time, made when a call site needs it.
    pub instantiate: HashMap<ClassDefId, LlPtr>,
    /// For each class instantiated through a variable holding one of several classes
    /// with different `__init__`s: the class owning the vtable slot of its `__init__` and
    /// the slot's name.
    pub init_slot: HashMap<ClassDefId, (ClassDefId, Rc<str>)>,
    /// The row slots of specialized methods (`rspecrows`): (owner, slot) → (method name,
    /// specialization key).
    pub rows: HashMap<(ClassDefId, Rc<str>), (Rc<str>, crate::annotator::description::SpecKey)>,
    /// How many class definitions were laid out: those the annotator makes later, for a
    /// built-in exception a low-level helper raises, have no layout (the built-in's own
    /// vtable serves, see `classdef_of_class`).
    pub laid_out: Option<usize>,
}

impl ClassLayouts {
    pub fn new(types: &mut LlTypes, str_ptr: LlType) -> ClassLayouts {
        let object_vtable = types.new_struct(
            "object_vtable",
            false,
            vec![
                ("subclassrange_min".into(), LlType::SIGNED),
                ("subclassrange_max".into(), LlType::SIGNED),
                ("name".into(), str_ptr),
            ],
        );
        let vptr = types.ptr(object_vtable);
        let object = types.new_struct("object", true, vec![("typeptr".into(), vptr)]);
        types.set_rtti(object);
        let mut f = types.fields(object_vtable).to_vec();
        let instantiate = instantiate_fn_type(types, object);
        f.push(("instantiate".into(), instantiate));
        types.set_fields(object_vtable, f);
        ClassLayouts {
            object,
            object_vtable,
            ..Default::default()
        }
    }
    pub fn instance_struct(&self, cd: ClassDefId) -> LlType {
        self.inst.get(&cd).copied().unwrap_or(self.object)
    }
    pub fn vtable_struct(&self, cd: ClassDefId) -> LlType {
        self.vtable.get(&cd).copied().unwrap_or(self.object_vtable)
    }
}

/// The type of a vtable's `instantiate`: a function of no argument returning a new
/// instance as a pointer to its header.
pub fn instantiate_fn_type(types: &mut LlTypes, object: LlType) -> LlType {
    let op = types.ptr(object);
    let ft = types.func(vec![], op);
    types.ptr(ft)
}

/// Field names in structures: instance attributes and class attributes are prefixed so they
/// never clash with the header's fields.
pub fn inst_field(attr: &str) -> String {
    format!("inst_{}", attr)
}
pub fn cls_field(attr: &str) -> String {
    format!("cls_{}", attr)
}

impl RTyper<'_> {
    /// Creates the structures of every class definition, then their fields, numbers the
    /// classes and builds the prebuilt vtables.
    /// An attribute of class `cd` that cannot be typed: the error names the class and the
    /// attribute, at the class's name if it has no place of its own (a value from a library
    /// is found here first, not at the entry point).
    fn attr_error(&self, mut e: TyperError, cd: ClassDefId, attr: &str) -> TyperError {
        let def = &self.ann.bookkeeper.classdefs[cd.index()];
        e.msg = format!("attribute `{}` of class {}: {}", attr, def.name, e.msg);
        if e.span.is_none() {
            e.span = self
                .ann
                .bookkeeper
                .class_desc(def.desc)
                .and_then(|c| c.name_span);
        }
        e
    }

    pub(super) fn setup_classes(&mut self) -> Result<(), TyperError> {
        let bk = &self.ann.bookkeeper;
        let n = bk.classdefs.len();
        // structures first (fields may point to any class)
        for i in 0..n {
            let cd = ClassDefId(i as u32);
            self.class_structs(cd);
        }
        self.normalize_call_families();
        let mut pbc_reads = self.class_pbc_reads();
        let mut init_slots = self.init_slots();
        // fields, in a deterministic order
        for i in 0..n {
            let cd = ClassDefId(i as u32);
            let mut attrs: Vec<(Rc<str>, SomeValue, bool)> = self.ann.bookkeeper.classdefs[i]
                .attrs
                .iter()
                .map(|(k, a)| (k.clone(), a.s_value.clone(), a.readonly))
                .collect();
            attrs.sort_by(|a, b| a.0.cmp(&b.0));
            let mut fields = Vec::new();
            let mut slots = Vec::new();
            for (name, s, readonly) in attrs {
                if s.is_impossible() {
                    continue;
                }
                let is_method = matches!(&s, SomeValue::Pbc { descs, .. }
                    if descs.iter().all(|d| matches!(self.ann.bookkeeper.desc(*d), Desc::Method(_))));
                if readonly && is_method {
                    let repr = self.method_family_repr(cd, &name)?;
                    if let Some(repr) = repr {
                        slots.push((name.clone(), ClassSlot::Method { repr }));
                    }
                    for (i, (key, mut graphs)) in
                        self.method_rows(cd, &name).into_iter().enumerate()
                    {
                        self.sort_family(&mut graphs);
                        let repr = self.intern_repr(Repr::FuncPtr(graphs));
                        let slot = super::rspecrows::row_slot_name(&name, i);
                        self.classes
                            .rows
                            .insert((cd, slot.clone()), (name.clone(), key));
                        slots.push((slot, ClassSlot::Method { repr }));
                    }
                } else if readonly && !self.has_instance_source(cd, &name) {
                    let repr = self
                        .getrepr(&s)
                        .map_err(|e| self.attr_error(e, cd, &name))?;
                    slots.push((name, ClassSlot::Constant { repr }));
                } else {
                    let repr = self
                        .getrepr(&s)
                        .map_err(|e| self.attr_error(e, cd, &name))?;
                    fields.push((name, repr));
                }
            }
            // attributes read through a variable holding one of several classes: a slot of
            // the classes' common base, each class's vtable holding its own value (also for
            // an attribute instances have a field of: the reference's `extra_access_sets`
            // give the class-level value a vtable field of its own)
            for (name, s) in pbc_reads.remove(&cd).unwrap_or_default() {
                if slots.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                let repr = self.getrepr(&s)?;
                slots.push((name, ClassSlot::Constant { repr }));
            }
            slots.extend(init_slots.remove(&cd).unwrap_or_default());
            let inst = self.classes.inst[&cd];
            let mut f: Vec<(Rc<str>, LlType)> = self.types.fields(inst).to_vec();
            for (name, r) in &fields {
                f.push((inst_field(name).into(), self.lltype(*r)));
            }
            self.types.set_fields(inst, f);
            let vt = self.classes.vtable[&cd];
            let mut f: Vec<(Rc<str>, LlType)> = self.types.fields(vt).to_vec();
            for (name, slot) in &slots {
                f.push((cls_field(name).into(), self.lltype(slot.repr())));
            }
            self.types.set_fields(vt, f);
            self.classes.fields.insert(cd, fields);
            self.classes.slots.insert(cd, slots);
        }
        // built-in exception classes without a class definition
        let mut builtins: Vec<(Rc<str>, crate::objspace::object::ObjId)> = self
            .ann
            .bookkeeper
            .builtin_classes
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        builtins.sort();
        let mut orphans = Vec::new();
        for (name, cls) in builtins {
            if !crate::annotator::Bookkeeper::is_exception_class(self.objheap, cls)
                || self.classdef_of_class(cls).is_some()
            {
                continue;
            }
            let mro = self
                .objheap
                .class(cls)
                .map(|c| c.mro.clone())
                .unwrap_or_default();
            match mro.iter().skip(1).find_map(|b| self.classdef_of_class(*b)) {
                Some(cd) => self
                    .classes
                    .extra_children
                    .entry(cd)
                    .or_default()
                    .push(name),
                None => orphans.push(name),
            }
        }
        // StackOverflow: under its nearest base the program has, else where that is
        for (name, bases) in crate::lltypesystem::runtime::BUILTIN_SUBCLASSES {
            let name: Rc<str> = (*name).into();
            let placed_extra = |c: &ClassLayouts, b: &str| {
                orphans.iter().any(|o| &**o == b)
                    || c.extra_children.values().flatten().any(|o| &**o == b)
            };
            match bases.iter().find_map(|b| {
                self.builtin_classdef(b)
                    .map(Ok)
                    .or_else(|| placed_extra(&self.classes, b).then(|| Err(Rc::from(*b))))
            }) {
                Some(Ok(cd)) => self
                    .classes
                    .extra_children
                    .entry(cd)
                    .or_default()
                    .push(name),
                Some(Err(base)) => self
                    .classes
                    .extra_nested
                    .entry(base)
                    .or_default()
                    .push(name),
                None => orphans.push(name),
            }
        }
        // class ids in preorder
        let mut counter = 0i64;
        let roots: Vec<ClassDefId> = (0..n)
            .map(|i| ClassDefId(i as u32))
            .filter(|cd| self.ann.bookkeeper.classdefs[cd.index()].basedef.is_none())
            .collect();
        for r in roots {
            self.number_classes(r, &mut counter);
        }
        for name in orphans {
            self.number_extra(name, &mut counter);
        }
        let mut extras: Vec<(Rc<str>, (i64, i64))> = self
            .classes
            .extra_ranges
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        // in class-id order: the prebuilt vtables are made in the same order every time
        // (GenC writes the same C for the same program)
        extras.sort_by_key(|(_, r)| *r);
        for (name, (min, max)) in extras {
            let p = self.new_vtable(&name, min, max);
            self.classes.extra_vtable.insert(name, p);
        }
        for i in 0..n {
            let cd = ClassDefId(i as u32);
            let vt = self.classes.vtable[&cd];
            let p = self.st.heap.malloc(&self.st.types, vt, 0);
            self.classes.vtable_ptr.insert(cd, p);
        }
        for i in 0..n {
            self.fill_vtable(ClassDefId(i as u32))?;
        }
        self.classes.laid_out = Some(n);
        Ok(())
    }

    fn class_structs(&mut self, cd: ClassDefId) {
        if self.classes.inst.contains_key(&cd) {
            return;
        }
        let def = &self.ann.bookkeeper.classdefs[cd.index()];
        let (name, base) = (def.name.clone(), def.basedef);
        let (inst_first, vt_first) = match base {
            Some(b) => {
                self.class_structs(b);
                (
                    ("super".into(), self.classes.inst[&b]),
                    ("super".into(), self.classes.vtable[&b]),
                )
            }
            None => (
                ("super".into(), self.classes.object),
                ("super".into(), self.classes.object_vtable),
            ),
        };
        let inst = self.types.new_struct(&name, true, vec![inst_first]);
        let vt = self
            .types
            .new_struct(&format!("vtable_{}", name), false, vec![vt_first]);
        self.classes.inst.insert(cd, inst);
        self.classes.vtable.insert(cd, vt);
    }

    fn number_classes(&mut self, cd: ClassDefId, counter: &mut i64) {
        let min = *counter;
        *counter += 1;
        let mut subs = self.ann.bookkeeper.classdefs[cd.index()].subdefs.clone();
        subs.sort();
        for s in subs {
            self.number_classes(s, counter);
        }
        for name in self
            .classes
            .extra_children
            .get(&cd)
            .cloned()
            .unwrap_or_default()
        {
            self.number_extra(name, counter);
        }
        self.classes.ranges.insert(cd, (min, *counter));
    }

    /// Numbers a built-in exception without a class definition, and those nested under it.
    fn number_extra(&mut self, name: Rc<str>, counter: &mut i64) {
        let min = *counter;
        *counter += 1;
        for sub in self
            .classes
            .extra_nested
            .get(&name)
            .cloned()
            .unwrap_or_default()
        {
            self.number_extra(sub, counter);
        }
        self.classes.extra_ranges.insert(name, (min, *counter));
    }

    /// The class definition of the built-in class `name`, if the program has one.
    pub fn builtin_classdef(&self, name: &str) -> Option<ClassDefId> {
        let &cls = self.ann.bookkeeper.builtin_classes.get(name)?;
        self.classdef_of_class(cls)
    }

    /// The attributes read (`getattr` with a non-constant result) through a variable that
    /// holds one of several classes, by the classes' common base, sorted by name, with the
    /// annotation of what is read.
    fn class_pbc_reads(&self) -> HashMap<ClassDefId, Vec<(Rc<str>, SomeValue)>> {
        let bk = &self.ann.bookkeeper;
        let mut out: HashMap<ClassDefId, Vec<(Rc<str>, SomeValue)>> = HashMap::default();
        for (g, graph) in self.ann.graphs.iter().enumerate() {
            for block in &graph.blocks {
                for op in &block.operations {
                    if op.opname != crate::interpreter::Op::GetAttr {
                        continue;
                    }
                    let SomeValue::Pbc { descs, .. } = self.annotation(g as u32, op.args[0]) else {
                        continue;
                    };
                    if descs.len() < 2
                        || !descs.iter().all(|d| matches!(bk.desc(*d), Desc::Class(_)))
                    {
                        continue;
                    }
                    let s = self.annotation(g as u32, crate::flowspace::Hlvalue::Var(op.result));
                    if s.konst().is_some() || s.is_impossible() {
                        continue;
                    }
                    let Some(name) = op.args[1]
                        .constant()
                        .and_then(|c| self.objheap.str_value(c))
                        .map(|b| Rc::<str>::from(String::from_utf8_lossy(b).as_ref()))
                    else {
                        continue;
                    };
                    let mut common = None;
                    for d in descs.iter() {
                        if let Some(cd) = bk.class_desc(*d).and_then(|c| c.classdef) {
                            common = Some(match common {
                                None => cd,
                                Some(p) => bk.commonbase(p, cd).unwrap_or(p),
                            });
                        }
                    }
                    let Some(cd) = common else { continue };
                    let reads = out.entry(cd).or_default();
                    // one slot per name: later reads convert from the first one's Repr
                    if !reads.iter().any(|(n, _)| *n == name) {
                        reads.push((name, s));
                    }
                }
            }
        }
        for reads in out.values_mut() {
            reads.sort_by(|a, b| a.0.cmp(&b.0));
        }
        out
    }

    /// Whether some prebuilt instance or instance write gives the attribute per instance.
    fn has_instance_source(&self, cd: ClassDefId, name: &str) -> bool {
        self.ann.bookkeeper.classdefs[cd.index()]
            .attr_sources
            .get(name)
            .is_some_and(|srcs| {
                srcs.iter()
                    .any(|s| matches!(s, crate::annotator::classdef::AttrSource::Instance(_)))
            })
    }

    /// The class description defining `name` for class `cd` (following the MRO) and what
    /// it defines.
    pub fn lookup_class_attr(&self, cd: ClassDefId, name: &str) -> Option<ClassAttr> {
        let bk = &self.ann.bookkeeper;
        let desc = bk.classdefs[cd.index()].desc;
        let owner = crate::annotator::classdef::ClassDesc::lookup(bk, desc, name)?;
        bk.class_desc(owner)?.classdict.get(name).cloned()
    }

    /// The graph a method of class `cd` runs (the one its MRO finds).
    pub fn method_graph(&self, cd: ClassDefId, name: &str) -> Option<u32> {
        match self.lookup_class_attr(cd, name)? {
            ClassAttr::Desc(d) => self.single_graph_of(d),
            ClassAttr::Const(crate::objspace::object::Value::Obj(f)) => {
                let graphs = self.ann.graph_of_func.get(&f)?;
                graphs.first().map(|g| *g as u32)
            }
            _ => None,
        }
    }

    /// The graph of a function description that was annotated once (no specialization).
    pub fn single_graph_of(&self, d: DescId) -> Option<u32> {
        match self.ann.bookkeeper.desc(d) {
            Desc::Function(f) => {
                let mut gs: Vec<u32> = f.graphs.values().copied().collect();
                gs.sort();
                gs.first().copied()
            }
            Desc::Method(m) => self.single_graph_of(m.func),
            _ => None,
        }
    }

    /// The function-pointer Repr of the implementations of method `name` in the classes
    /// under `cd`; `None` when none of them has a graph (never called).
    fn method_family_repr(
        &mut self,
        cd: ClassDefId,
        name: &str,
    ) -> Result<Option<ReprId>, TyperError> {
        let mut graphs = self.method_family_graphs(cd, name);
        if graphs.is_empty() {
            return Ok(None);
        }
        self.sort_family(&mut graphs);
        Ok(Some(self.intern_repr(Repr::FuncPtr(graphs))))
    }

    /// Orders the graphs of a call family so that the first, whose signature the family's
    /// function pointer type takes, is one that returns (a method that only raises, like
    /// `raise NotImplementedError` in a base class, returns nothing).
    pub fn sort_family(&mut self, graphs: &mut [u32]) {
        let mut keyed: Vec<(bool, u32)> = graphs
            .iter()
            .map(|&g| {
                let (_, r) = self.graph_signature(g);
                (self.lltype(r) == LlType::VOID, g)
            })
            .collect();
        keyed.sort();
        for (slot, (_, g)) in graphs.iter_mut().zip(keyed) {
            *slot = g;
        }
    }

    fn fill_vtable(&mut self, cd: ClassDefId) -> Result<(), TyperError> {
        let p = self.classes.vtable_ptr[&cd];
        let (min, max) = self.classes.ranges[&cd];
        let ov = self.classes.object_vtable;
        let name = self.ann.bookkeeper.classdefs[cd.index()].name.clone();
        let name_ptr = self.prebuilt_str(name.as_bytes());
        let heap_err = |e: crate::lltypesystem::heap::HeapError| TyperError::new(e.to_string());
        self.st
            .heap
            .setfield(
                &self.st.types,
                p,
                ov,
                "subclassrange_min",
                LlValue::Int(min),
            )
            .map_err(heap_err)?;
        self.st
            .heap
            .setfield(
                &self.st.types,
                p,
                ov,
                "subclassrange_max",
                LlValue::Int(max),
            )
            .map_err(heap_err)?;
        self.st
            .heap
            .setfield(&self.st.types, p, ov, "name", LlValue::Ptr(name_ptr))
            .map_err(heap_err)?;
        // every slot of every ancestor, with this class's value
        let mut c = Some(cd);
        while let Some(owner) = c {
            let slots = self.classes.slots.get(&owner).cloned().unwrap_or_default();
            let vt_owner = self.classes.vtable[&owner];
            for (attr, slot) in slots {
                let value = match slot {
                    ClassSlot::Method { repr } => {
                        let _ = repr;
                        let row = self.classes.rows.get(&(owner, attr.clone())).cloned();
                        let g = match row {
                            Some((mname, key)) => self.method_graph_in_row(cd, &mname, &key),
                            None => self.method_graph(cd, &attr),
                        };
                        match g {
                            Some(g) => LlValue::Ptr(self.graph_funcptr(g)),
                            None => LlValue::Ptr(LlPtr::Null),
                        }
                    }
                    ClassSlot::Init { members, .. } => match members.contains(&cd) {
                        true => match self.method_graph(cd, "__init__") {
                            Some(g) => LlValue::Ptr(self.graph_funcptr(g)),
                            None => LlValue::Ptr(LlPtr::Null),
                        },
                        false => LlValue::Ptr(LlPtr::Null),
                    },
                    ClassSlot::Constant { repr } => match self.lookup_class_attr(cd, &attr) {
                        Some(ClassAttr::Const(v)) => {
                            // a staticmethod read through the class is its function
                            let v = match v {
                                crate::objspace::object::Value::Obj(id) => {
                                    match self.objheap.get(id) {
                                        crate::objspace::object::Object::StaticMethod(f) => *f,
                                        _ => v,
                                    }
                                }
                                _ => v,
                            };
                            let k = self.const_value(v, repr)?;
                            k.value
                        }
                        Some(ClassAttr::Desc(d)) if matches!(self.repr(repr), Repr::FuncPtr(_)) => {
                            match self.single_graph_of(d) {
                                Some(g) => LlValue::Ptr(self.graph_funcptr(g)),
                                None => LlValue::Ptr(LlPtr::Null),
                            }
                        }
                        _ => LlValue::zero(&self.types, self.lltype(repr)),
                    },
                };
                self.st
                    .heap
                    .setfield(&self.st.types, p, vt_owner, &cls_field(&attr), value)
                    .map_err(heap_err)?;
            }
            c = self.ann.bookkeeper.classdefs[owner.index()].basedef;
        }
        Ok(())
    }
}
