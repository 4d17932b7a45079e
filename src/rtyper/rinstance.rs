//! `rtype_*` of the operations on instances and classes: attribute reads and writes
//! (instance fields, vtable slots, bound methods), `type()`, `isinstance`.

use super::hop::{cbool, cfield, cint, cvoid, Hop, LlOps};
use super::rclass::{cls_field, inst_field};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::classdef::{PROPERTY_GETTER, PROPERTY_SETTER};
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlType};
use crate::objspace::object::{Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// The first graph the annotator found a call at this operation reaches (a call's
    /// family shares one signature, so any member tells the arguments' layout).
    pub(super) fn first_call_target(&self, hop: &Hop) -> Option<u32> {
        self.ann.call_targets.get(&hop.position)?.first().copied()
    }

    /// The getter or setter graph (`kind` names which, plural) the annotator called for
    /// the property `name` at this operation: one, or the RTyper does not translate it.
    fn property_accessor(&self, hop: &Hop, name: &str, kind: &str) -> Result<u32, TyperError> {
        match self.ann.call_targets.get(&hop.position).map(|t| &t[..]) {
            Some(&[g]) => Ok(g),
            _ => Err(TyperError::new(format!(
                "property `{}` with several {} is not supported by `run` yet",
                name, kind
            ))),
        }
    }

    /// `IndexError()` and the like raised by a low-level helper, when the program itself
    /// never made the class (its class definition came after the classes were laid out):
    /// a bare instance header with the built-in's own vtable, as the operations that raise
    /// it make. None for any other class.
    pub(super) fn new_builtin_exception(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        cls: crate::objspace::object::ObjId,
    ) -> Option<R> {
        if self.classdef_of_class(cls).is_some()
            || !crate::annotator::Bookkeeper::is_exception_class(self.objheap, cls)
        {
            return None;
        }
        let name = crate::annotator::Bookkeeper::class_name(self.objheap, cls);
        let &vt = self.classes.extra_vtable.get(&*name)?;
        let or = self.intern_repr(Repr::Object);
        let to = self.lltype(or);
        let p = llops.genop(
            LlOp::Malloc,
            vec![super::hop::ctype(self.classes.object)],
            to,
        );
        let cr = self.intern_repr(Repr::Class(None));
        let vtc = Hlvalue::Ll(crate::flowspace::LlConstant {
            ty: self.lltype(cr),
            value: crate::lltypesystem::LlValue::Ptr(vt),
        });
        llops.genop(
            LlOp::SetField,
            vec![p, cfield("typeptr"), vtc],
            LlType::VOID,
        );
        let rr = hop.r_result;
        Some(self.convertvar(llops, p, or, rr).map(|v| (v, rr)))
    }

    /// The vtable pointer of an instance.
    pub fn typeptr(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        let or = self.intern_repr(Repr::Object);
        let o = self.convertvar(llops, v, r, or)?;
        let cr = self.intern_repr(Repr::Class(None));
        let ct = self.lltype(cr);
        Ok(llops.genop(LlOp::GetField, vec![o, cfield("typeptr")], ct))
    }

    pub(super) fn rtype_getattr(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        // a name the annotator knows constant (`getattr(self, "x_" + name)` in a graph
        // specialized on `name`) is as good as a constant of the flow graph
        let Some(name) = attr_name_const(hop) else {
            return Err(TyperError::new("getattr with a non-constant name"));
        };
        let name = self
            .objheap
            .str_value(name)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let rr = hop.r_result;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        match self.repr(rr).clone() {
            Repr::Method { self_repr, .. }
            | Repr::BuiltinMethod { self_repr, .. }
            | Repr::FrozenMethod { self_repr, .. } => {
                let s = self.convertvar(llops, v, r, self_repr)?;
                return Ok((s, rr));
            }
            // the method of the one prebuilt frozen object a variable holds (pyrolog's
            // `self.engine.call`): the annotation says it all, the value carries nothing
            Repr::Prebuilt(d)
                if matches!(
                    self.ann.bookkeeper.desc(d),
                    crate::annotator::description::Desc::MethodOfFrozen { .. }
                ) =>
            {
                return Ok((cvoid(), rr));
            }
            _ => {}
        }
        match self.repr(r).clone() {
            Repr::VRef => self.rtype_vref_getattr(&name),
            Repr::Instance(_) | Repr::Object if name == "__class__" => {
                if matches!(self.repr(rr), Repr::Prebuilt(_)) {
                    // a leaf class: the one class is a constant of the annotation
                    return Ok((cvoid(), rr));
                }
                let cr = self.intern_repr(Repr::Class(None));
                let t = self.typeptr(llops, v, r)?;
                // the annotation is the set of classes the instance can have: its Repr
                // (a vtable of their common base) is what a call of it instantiates
                if matches!(self.repr(rr), Repr::Class(_)) {
                    return Ok((self.convertvar(llops, t, cr, rr)?, rr));
                }
                Ok((t, cr))
            }
            Repr::Prebuilt(d)
                if name == "__name__" && self.ann.bookkeeper.class_desc(d).is_some() =>
            {
                // the one class of a leaf's `obj.__class__`: its name, as its vtable has it
                let cd = self.ann.bookkeeper.class_desc(d).and_then(|c| c.classdef);
                let cname = match cd {
                    Some(cd) => self.ann.bookkeeper.classdefs[cd.index()].name.clone(),
                    None => self
                        .ann
                        .bookkeeper
                        .class_desc(d)
                        .map(|c| c.name.clone())
                        .unwrap_or_default(),
                };
                let rs = self.intern_repr(Repr::Str);
                Ok((self.str_constant(cname.as_bytes()), rs))
            }
            Repr::Class(_) if name == "__name__" => {
                let cr = self.intern_repr(Repr::Class(None));
                let c = self.convertvar(llops, v, r, cr)?;
                let rs = self.intern_repr(Repr::Str);
                Ok((
                    llops.genop(LlOp::GetField, vec![c, cfield("name")], self.str_ptr),
                    rs,
                ))
            }
            Repr::Instance(cd) => {
                let getter =
                    self.ann
                        .bookkeeper
                        .property_method(self.objheap, cd, &name, PROPERTY_GETTER);
                if let Some(meth) = getter {
                    // the annotator called `obj.NAME__getter__()` here: the method call,
                    // dispatched on the instance's class
                    hop.r_s_popfirstarg();
                    hop.r_s_popfirstarg();
                    let (res, resr) = self.call_method(hop, llops, v, r, &meth)?;
                    return Ok((self.convertvar(llops, res, resr, rr)?, rr));
                }
                if self
                    .ann
                    .bookkeeper
                    .find_property(self.objheap, cd, &name)
                    .is_some()
                {
                    // a property: the annotator called its getter here
                    let g = self.property_accessor(hop, &name, "getters")?;
                    let (res, resr) = self.call_graph(llops, g, vec![(v, r)])?;
                    return Ok((self.convertvar(llops, res, resr, rr)?, rr));
                }
                let Some(owner) = self.ann.bookkeeper.get_owner(cd, &name) else {
                    return Err(TyperError::new(format!("no attribute `{}`", name)));
                };
                if let Some((_, fr)) = self.classes.fields[&owner]
                    .iter()
                    .find(|(n, _)| **n == *name)
                    .cloned()
                {
                    let orr = self.intern_repr(Repr::Instance(owner));
                    let o = self.convertvar(llops, v, r, orr)?;
                    let t = self.lltype(fr);
                    let out = llops.genop(LlOp::GetField, vec![o, cfield(&inst_field(&name))], t);
                    return Ok((out, fr));
                }
                if let Some((_, slot)) = self.classes.slots[&owner]
                    .iter()
                    .find(|(n, _)| **n == *name)
                    .cloned()
                {
                    let sr = slot.repr();
                    let tp = self.typeptr(llops, v, r)?;
                    let vt = self.classes.vtable[&owner];
                    let vtp = self.types.ptr(vt);
                    let vv = llops.genop(LlOp::CastPointer, vec![tp], vtp);
                    let t = self.lltype(sr);
                    let out = llops.genop(LlOp::GetField, vec![vv, cfield(&cls_field(&name))], t);
                    return Ok((out, sr));
                }
                // a constant class attribute the same for every class
                if let Some(k) = hop.s_result.konst() {
                    return Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr));
                }
                Err(TyperError::new(format!(
                    "attribute `{}` has no storage",
                    name
                )))
            }
            _ => {
                if let Some(k) = hop.s_result.konst() {
                    return Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr));
                }
                if let Repr::Frozen(f) = *self.repr(r) {
                    return self.frozen_getattr(hop, llops, f, &name);
                }
                if matches!(self.repr(rr), Repr::Void) {
                    // a value with nothing to carry (a JitDriver's `jit_merge_point` read
                    // from a variable holding the prebuilt driver): the annotation says it
                    return Ok((cvoid(), rr));
                }
                if let Repr::Class(Some(cd)) = self.repr(r).clone() {
                    // one of several classes: the slot of the common base (or an ancestor)
                    let mut c = Some(cd);
                    while let Some(owner) = c {
                        let slot = self.classes.slots[&owner]
                            .iter()
                            .find(|(n, _)| **n == *name)
                            .map(|(_, s)| s.clone());
                        if let Some(sr) = slot.map(|s| s.repr()) {
                            let vtp = self.st.types.ptr(self.st.classes.vtable[&owner]);
                            let vv = llops.genop(LlOp::CastPointer, vec![v], vtp);
                            let t = self.lltype(sr);
                            let out =
                                llops.genop(LlOp::GetField, vec![vv, cfield(&cls_field(&name))], t);
                            return Ok((self.convertvar(llops, out, sr, rr)?, rr));
                        }
                        c = self.ann.bookkeeper.classdefs[owner.index()].basedef;
                    }
                }
                Err(TyperError::new(format!(
                    "attribute `{}` of {} is not supported by `run` yet",
                    name,
                    self.ann
                        .bookkeeper
                        .describe_type(self.objheap, &hop.args_s[0])
                )))
            }
        }
    }

    pub(super) fn rtype_setattr(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let Some(name) = attr_name_const(hop) else {
            return Err(TyperError::new("setattr with a non-constant name"));
        };
        let name = self
            .objheap
            .str_value(name)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let void = self.intern_repr(Repr::Void);
        let Repr::Instance(cd) = self.repr(hop.args_r[0]).clone() else {
            return Err(TyperError::new("setting an attribute of a non-instance"));
        };
        let setter = self
            .ann
            .bookkeeper
            .property_method(self.objheap, cd, &name, PROPERTY_SETTER);
        if let Some(meth) = setter {
            // the annotator called `obj.NAME__setter__(value)` here
            let (v, r, _) = hop.r_s_popfirstarg();
            hop.r_s_popfirstarg();
            self.call_method(hop, llops, v, r, &meth)?;
            return Ok((cvoid(), void));
        }
        if self
            .ann
            .bookkeeper
            .find_property(self.objheap, cd, &name)
            .is_some()
        {
            // a property: the annotator called its setter here
            let g = self.property_accessor(hop, &name, "setters")?;
            let args = vec![
                (hop.args_v[0], hop.args_r[0]),
                (hop.args_v[2], hop.args_r[2]),
            ];
            self.call_graph(llops, g, args)?;
            return Ok((cvoid(), void));
        }
        let Some(owner) = self.ann.bookkeeper.get_owner(cd, &name) else {
            return Err(TyperError::new(format!("no attribute `{}`", name)));
        };
        let Some((_, fr)) = self.classes.fields[&owner]
            .iter()
            .find(|(n, _)| **n == *name)
            .cloned()
        else {
            return Err(TyperError::new(format!(
                "attribute `{}` is not an instance field",
                name
            )));
        };
        let orr = self.intern_repr(Repr::Instance(owner));
        let o = self.inputarg(llops, hop, 0, orr)?;
        let val = self.inputarg(llops, hop, 2, fr)?;
        llops.genop(
            LlOp::SetField,
            vec![o, cfield(&inst_field(&name)), val],
            LlType::VOID,
        );
        Ok((cvoid(), void))
    }

    pub(super) fn rtype_isinstance(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rb = self.intern_repr(Repr::Bool);
        // a constant, or a variable holding one class (`isinstance(x, self.__class__)` in a
        // leaf class)
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let (cv, cr) = (hop.args_v[1], hop.args_r[1]);
        if matches!(self.repr(cr), Repr::Class(_))
            && matches!(self.repr(r), Repr::Instance(_) | Repr::Object)
        {
            // a class chosen at run time (`isinstance(tok, expected_type)`): its id range,
            // read from its vtable
            let root = self.intern_repr(Repr::Class(None));
            let c = self.convertvar(llops, cv, cr, root)?;
            let min = llops.genop(
                LlOp::GetField,
                vec![c, cfield("subclassrange_min")],
                LlType::SIGNED,
            );
            let max = llops.genop(
                LlOp::GetField,
                vec![c, cfield("subclassrange_max")],
                LlType::SIGNED,
            );
            let or = self.intern_repr(Repr::Object);
            let o = self.convertvar(llops, v, r, or)?;
            let b = self.gendirectcall(llops, "ll_isinstance", vec![o, min, max], LlType::BOOL)?;
            return Ok((b, rb));
        }
        let Some(Value::Obj(cls)) = self.static_value(hop.g, hop.op.args[1], hop.args_r[1]) else {
            return Err(TyperError::new(
                "isinstance() with a class that is not a constant",
            ));
        };
        if let Some(k) = hop.s_result.konst() {
            return Ok((Hlvalue::Ll(self.const_value(k, rb)?), rb));
        }
        if !matches!(self.repr(r), Repr::Instance(_) | Repr::Object)
            && self.types.is_ptr(self.lltype(r))
        {
            // a string, list or dict the annotator knows is of the type unless None
            let res = llops.genop(LlOp::PtrNonZero, vec![v], LlType::BOOL);
            return Ok((res, rb));
        }
        if !matches!(self.repr(r), Repr::Instance(_) | Repr::Object) {
            // a number or a character: its type is known statically (`assert
            // isinstance(value, int)` on an int), as the typer folds it
            let builtin = |c: crate::objspace::object::ObjId| match self.objheap.get(c) {
                Object::Class(k) if k.builtin.is_some() => Some(k.name.clone()),
                _ => None,
            };
            let names: Vec<Option<std::rc::Rc<str>>> = match self.objheap.get(cls) {
                Object::Tuple(items) => items
                    .iter()
                    .map(|c| match c {
                        Value::Obj(id) => builtin(*id),
                        _ => None,
                    })
                    .collect(),
                _ => vec![builtin(cls)],
            };
            let is = |n: &str| match self.repr(r) {
                Repr::Int(crate::objspace::object::IntKind::Signed) => {
                    matches!(n, "int" | "object")
                }
                Repr::Int(_) => n == "object",
                Repr::Bool => matches!(n, "bool" | "int" | "object"),
                Repr::Float => matches!(n, "float" | "object"),
                _ => false,
            };
            if matches!(self.repr(r), Repr::Int(_) | Repr::Bool | Repr::Float)
                && names.iter().all(|n| n.is_some())
            {
                let yes = names.iter().flatten().any(|n| is(n));
                return Ok((cbool(yes), rb));
            }
            return Err(TyperError::new(
                "isinstance() of a non-instance is not supported by `run` yet",
            ));
        }
        // one class, or a tuple of classes (any of them)
        let classes: Vec<crate::objspace::object::ObjId> = match self.objheap.get(cls) {
            Object::Tuple(items) => items
                .iter()
                .filter_map(|c| match c {
                    Value::Obj(id) => Some(*id),
                    _ => None,
                })
                .collect(),
            _ => vec![cls],
        };
        let or = self.intern_repr(Repr::Object);
        let o = self.convertvar(llops, v, r, or)?;
        let mut acc: Option<Hlvalue> = None;
        for c in classes {
            let (min, max) = self.class_range(c);
            let args = vec![o, cint(min), cint(max)];
            let b = self.gendirectcall(llops, "ll_isinstance", args, LlType::BOOL)?;
            acc = Some(match acc {
                None => b,
                Some(prev) => {
                    let x = llops.genop(LlOp::CastBoolToInt, vec![prev], LlType::SIGNED);
                    let y = llops.genop(LlOp::CastBoolToInt, vec![b], LlType::SIGNED);
                    let z = llops.genop(LlOp::IntOr, vec![x, y], LlType::SIGNED);
                    llops.genop(LlOp::IntIsTrue, vec![z], LlType::BOOL)
                }
            });
        }
        Ok((acc.unwrap_or_else(|| cbool(false)), rb))
    }
}

/// The attribute name of a `getattr`/`setattr`: a constant of the flow graph, or a variable
/// the annotator knows constant.
pub(super) fn attr_name_const(hop: &Hop) -> Option<Value> {
    match hop.op.args[1] {
        Hlvalue::Const(name) => Some(name),
        _ => hop.args_s.get(1)?.konst(),
    }
}
