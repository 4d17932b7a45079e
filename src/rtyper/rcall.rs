//! Calls of functions, classes and methods (`simple_call`, `call_args`): the arguments
//! matched to the callee's parameters (defaults, `*args`), then a `direct_call` of the
//! graph the call table gives, an `indirect_call` through a function pointer, a method call
//! (direct when one graph is reachable, through the vtable otherwise) or an instantiation.
//! Built-in callees go on to `rbuiltin` and `rbuiltinmethod`.

use super::hop::{cfield, cvoid, Hop, LlOps};
use super::rclass::{cls_field, ClassSlot};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType};
use crate::objspace::object::{Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// The `self` of a method bound to the prebuilt value `v`: its constant, Repr and
    /// annotation (as the annotator saw the value).
    fn prebuilt_self(&mut self, v: Value) -> Result<(Hlvalue, ReprId, SomeValue), TyperError> {
        let s = self
            .ann
            .bookkeeper
            .known_value(self.objheap, v)
            .unwrap_or(SomeValue::Impossible);
        let r = self.getrepr(&s)?;
        Ok((Hlvalue::Ll(self.const_value(v, r)?), r, s))
    }

    pub(super) fn rtype_call(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let callee = hop.op.args[0];
        if let SomeValue::External(o) = hop.args_s[0] {
            if let Some(r) = self.ext_about_call(hop, llops, o) {
                return r;
            }
        }
        let callee_repr = self.repr(hop.args_r[0]).clone();
        match callee_repr {
            Repr::Method { name, self_repr } => {
                // a bound method is represented by its `self`
                let (sv, _, _) = hop.r_s_popfirstarg();
                self.call_method(hop, llops, sv, self_repr, &name)
            }
            Repr::ExtMethod { self_repr, name } => {
                let Repr::External(i) = *self.repr(self_repr) else {
                    return Err(TyperError::new(
                        "internal error, a library method of no library Repr",
                    ));
                };
                let args = (0..hop.nargs())
                    .map(|k| (hop.args_v[k], hop.args_r[k]))
                    .collect();
                self.ext_replay(hop, llops, i, true, &name, args)
            }
            Repr::BuiltinMethod { id, self_repr } => {
                let (sv, _, ss) = hop.r_s_popfirstarg();
                self.call_builtin_method(hop, llops, sv, self_repr, &ss, id)
            }
            Repr::Class(Some(common)) => self.call_runtime_class(hop, llops, common),
            Repr::WeakRef => self.rtype_weakref_call(hop, llops),
            Repr::VRef => self.rtype_vref_call(hop, llops),
            Repr::FrozenMethod { self_repr, func } => {
                let (sv, _, _) = hop.r_s_popfirstarg();
                self.call_frozen_method(hop, llops, sv, self_repr, func)
            }
            Repr::Prebuilt(d)
                if matches!(
                    self.ann.bookkeeper.desc(d),
                    crate::annotator::description::Desc::MethodOfFrozen { .. }
                ) =>
            {
                // the method of the one prebuilt frozen object: `self` is that object,
                // a constant of its own (void) Repr
                let crate::annotator::description::Desc::MethodOfFrozen { func, frozen } =
                    *self.ann.bookkeeper.desc(d)
                else {
                    unreachable!()
                };
                hop.r_s_popfirstarg();
                let self_repr = self.intern_repr(Repr::Prebuilt(frozen));
                self.call_frozen_method(hop, llops, cvoid(), self_repr, func)
            }
            Repr::FuncPtr(graphs) => {
                let (fv, _, _) = hop.r_s_popfirstarg();
                funcset_check(llops, fv, graphs.len());
                self.indirect_call(hop, llops, fv, graphs[0])
            }
            _ => {
                // a constant callee, or a variable holding a single prebuilt callable (a
                // function passed as an argument, a static method read from an instance)
                let Some(Value::Obj(id)) = self.static_value(hop.g, callee, hop.args_r[0]) else {
                    // a built-in function read from an attribute (`self.read = os.read`):
                    // the annotation names it, the value carries nothing (Void)
                    if let SomeValue::Builtin {
                        id: bid,
                        s_self: None,
                    } = self.annotation(hop.g, callee)
                    {
                        hop.r_s_popfirstarg();
                        return self.call_builtin(hop, llops, bid);
                    }
                    return Err(TyperError::new(
                        "calling this value is not supported by `run` yet",
                    ));
                };
                if self.is_ll_undefined(id) {
                    return self.rtype_ll_undefined(hop, llops);
                }
                if let Some(decl) = self.c_function(id) {
                    hop.r_s_popfirstarg();
                    return self.call_c_function(hop, llops, decl);
                }
                match self.objheap.get(id) {
                    Object::Builtin {
                        id: bid,
                        bound_self: Some(s),
                    } => {
                        // a method bound to a prebuilt value (`", ".join`)
                        let (bid, s) = (*bid, *s);
                        hop.r_s_popfirstarg();
                        let (sv, sr, ss) = self.prebuilt_self(s)?;
                        self.call_builtin_method(hop, llops, sv, sr, &ss, bid)
                    }
                    Object::Builtin { id: bid, .. } => {
                        let bid = *bid;
                        hop.r_s_popfirstarg();
                        self.call_builtin(hop, llops, bid)
                    }
                    Object::Class(_) => {
                        hop.r_s_popfirstarg();
                        self.instantiate(hop, llops, id)
                    }
                    _ => {
                        // a memo method of a frozen object (`CACHE.getorbuild`, folded
                        // with its prebuilt `self`) is computed at translation time too
                        let fid = match self.objheap.get(id) {
                            Object::BoundMethod {
                                func: Value::Obj(f),
                                ..
                            } => *f,
                            _ => id,
                        };
                        let memo = self.ann.bookkeeper.desc_of_obj.get(&fid).is_some_and(|d| {
                            matches!(self.ann.bookkeeper.desc(*d),
                                crate::annotator::description::Desc::Function(f)
                                    if f.specializer == crate::annotator::description::Specializer::Memo)
                        });
                        if let (true, crate::annotator::model::SomeValue::LlType(t)) =
                            (memo, &hop.s_result)
                        {
                            // a low-level type computed at translation time
                            // (`rffi.CArray(T)`): the annotation is what later uses read
                            let c = super::hop::ctype(*t);
                            return Ok((c, hop.r_result));
                        }
                        if let (true, Some(k)) = (memo, hop.s_result.konst()) {
                            // a call computed at translation time (specialize:memo)
                            let rr = hop.r_result;
                            return Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr));
                        }
                        if memo {
                            if let Some(r) = self.memo_single_object(hop)? {
                                return Ok(r);
                            }
                            if let Some(r) = self.memo_by_value(hop, llops, id)? {
                                return Ok(r);
                            }
                        }
                        let Some(g) = self.first_call_target(hop) else {
                            if let Some(&s) = self.ann.bookkeeper.ext_types.get(&id) {
                                if let Some(r) = self.ext_about_call(hop, llops, s) {
                                    return r;
                                }
                            }
                            if matches!(self.objheap.get(id), Object::Function(f) if f.attrs.get("__rpy_extregistry_about__").is_some())
                            {
                                // its result came from the entry's compute_result_annotation
                                return Err(TyperError::new(
                                    "a call of a function an ExtRegistryEntry is `_about_`, whose specialize_call rpy-lsp does not run",
                                ));
                            }
                            return Err(TyperError::new("a call the annotator did not follow"));
                        };
                        let (_, _, s_callee) = hop.r_s_popfirstarg();
                        if let Object::BoundMethod { self_value, .. } = self.objheap.get(id) {
                            // a method bound to a prebuilt object, folded by the flow
                            // space (`consts.name()` of a frozen module stand-in)
                            let sv = *self_value;
                            let (v_self, r_self, s_self) = self.prebuilt_self(sv)?;
                            hop.v_s_insertfirstarg(v_self, r_self, s_self);
                        } else if let SomeValue::Pbc { descs, .. } = &s_callee {
                            if let [d] = descs[..] {
                                if let crate::annotator::description::Desc::MethodOfFrozen {
                                    frozen,
                                    ..
                                } = self.ann.bookkeeper.desc(d)
                                {
                                    // a method of a frozen object: the object is `self`
                                    // (a constant, nothing at run time)
                                    let s_self = SomeValue::pbc(vec![*frozen]);
                                    let void = self.intern_repr(Repr::Void);
                                    hop.v_s_insertfirstarg(cvoid(), void, s_self);
                                }
                            }
                        }
                        let args = self.call_args_for(hop, llops, g, 0)?;
                        let r = self.call_graph(llops, g, args)?;
                        if hop.exc_handled {
                            hop.raising_index = Some(llops.ops.len() - 1);
                        }
                        Ok(r)
                    }
                }
            }
        }
    }

    /// Turns a `call_args(f, shape, args…)` into a call with positional arguments (the
    /// `*args` tuple's items appended) and `hop.keywords`.
    pub(super) fn normalize_call_args(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
    ) -> Result<(), TyperError> {
        let Hlvalue::Const(Value::Obj(shape)) = hop.op.args[1] else {
            return Err(TyperError::new("a call whose shape is not a constant"));
        };
        let Object::Tuple(items) = self.objheap.get(shape) else {
            return Err(TyperError::new("a call whose shape is not a tuple"));
        };
        let npos = match items[0] {
            Value::Int(n) => n as usize,
            _ => 0,
        };
        let names: Vec<std::rc::Rc<str>> = match items[1] {
            Value::Obj(t) => match self.objheap.get(t) {
                Object::Tuple(ns) => ns
                    .iter()
                    .map(|n| {
                        String::from_utf8_lossy(self.objheap.str_value(*n).unwrap_or(b"?")).into()
                    })
                    .collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let star = items[2] == Value::Bool(true);
        // the callee, then the data
        let take = |hop: &Hop, i: usize| {
            (
                hop.args_v[i],
                hop.args_r[i],
                hop.args_s[i].clone(),
                hop.op.args[i],
            )
        };
        let mut pos = vec![take(hop, 0)];
        for i in 0..npos {
            pos.push(take(hop, 2 + i));
        }
        let mut kws = Vec::new();
        for (k, name) in names.iter().enumerate() {
            let (v, r, _, a) = take(hop, 2 + npos + k);
            kws.push((name.clone(), v, r, a));
        }
        if star {
            let (v, r, s, _) = take(hop, 2 + npos + names.len());
            let Repr::Tuple(its) = self.repr(r).clone() else {
                return Err(TyperError::new("f(*args) where args is not a tuple"));
            };
            let s_items: Vec<SomeValue> = match &s {
                SomeValue::Tuple(x) => x.to_vec(),
                _ => vec![SomeValue::Impossible; its.len()],
            };
            for (k, ir) in its.iter().enumerate() {
                let t = self.lltype(*ir);
                let x = llops.genop(LlOp::GetField, vec![v, cfield(&format!("item{}", k))], t);
                pos.push((
                    x,
                    *ir,
                    s_items.get(k).cloned().unwrap_or(SomeValue::Impossible),
                    x,
                ));
            }
        }
        hop.args_v = pos.iter().map(|p| p.0).collect();
        hop.args_r = pos.iter().map(|p| p.1).collect();
        hop.args_s = pos.iter().map(|p| p.2.clone()).collect();
        hop.op.args = pos.iter().map(|p| p.3).collect();
        hop.keywords = kws;
        Ok(())
    }

    /// An argument of the call as the parameter of Repr `p` receives it: a constant is
    /// built directly in that Repr (a function passed where a function pointer is expected).
    fn arg_for_param(
        &mut self,
        llops: &mut LlOps,
        a: Hlvalue,
        v: Hlvalue,
        r: ReprId,
        p: ReprId,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        match a {
            Hlvalue::Const(c) => Ok((Hlvalue::Ll(self.const_value(c, p)?), p)),
            _ => Ok((self.convertvar(llops, v, r, p)?, p)),
        }
    }

    /// The arguments of a call of graph `g`, one per parameter: the call's positional
    /// arguments (`offset` parameters, `self`, come before them), then keywords by name,
    /// then the function's defaults; extra positional arguments become the `*args` tuple.
    pub(super) fn call_args_for(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        g: u32,
        offset: usize,
    ) -> Result<Vec<(Hlvalue, ReprId)>, TyperError> {
        let (params, _) = self.graph_signature(g);
        let desc = self.ann.graph_descs.get(g as usize).copied().flatten();
        let (argnames, varargs, defaults) = match desc.map(|d| self.ann.bookkeeper.desc(d)) {
            Some(crate::annotator::description::Desc::Function(f)) => (
                f.sig.argnames.clone(),
                f.sig.varargs.is_some(),
                f.defaults.to_vec(),
            ),
            _ => (
                (0..params.len())
                    .map(|i| std::rc::Rc::from(format!("arg{}", i)))
                    .collect(),
                false,
                Vec::new(),
            ),
        };
        let named = argnames.len().min(params.len());
        let mut out = Vec::new();
        for pi in offset..named {
            let p = params[pi];
            let hi = pi - offset;
            if hi < hop.nargs() {
                out.push(self.arg_for_param(
                    llops,
                    hop.op.args[hi],
                    hop.args_v[hi],
                    hop.args_r[hi],
                    p,
                )?);
            } else if let Some((_, v, r, a)) =
                hop.keywords.iter().find(|k| *k.0 == *argnames[pi]).cloned()
            {
                out.push(self.arg_for_param(llops, a, v, r, p)?);
            } else if named - pi <= defaults.len() {
                let d = defaults[defaults.len() - (named - pi)];
                out.push((Hlvalue::Ll(self.const_value(d, p)?), p));
            } else {
                return Err(TyperError::new(format!(
                    "missing argument `{}`",
                    argnames[pi]
                )));
            }
        }
        if varargs {
            // the graph takes the extra arguments one by one (`flatten_star_args`)
            let first = named.saturating_sub(offset);
            for (k, &p) in params.iter().enumerate().skip(named) {
                let hi = first + (k - named);
                if hi >= hop.nargs() {
                    return Err(TyperError::new("*args of a different length"));
                }
                out.push(self.arg_for_param(
                    llops,
                    hop.op.args[hi],
                    hop.args_v[hi],
                    hop.args_r[hi],
                    p,
                )?);
            }
        }
        Ok(out)
    }

    /// Whether the list of this `range()` call is used once, by an `iter` in the same
    /// block that gives a range iterator (and goes nowhere else).
    pub(super) fn range_only_iterated(&mut self, hop: &Hop) -> bool {
        if self.range_list_step(&hop.s_result).is_none() {
            return false;
        }
        let g = &self.ann.graphs[hop.g as usize];
        let block = g.block(crate::flowspace::BlockId(hop.position.block));
        let v = Hlvalue::Var(hop.op.result);
        let mut uses = 0;
        let mut by_iter = false;
        for op in &block.operations[hop.position.op as usize + 1..] {
            for a in &op.args {
                if *a == v {
                    uses += 1;
                    by_iter = op.opname == crate::interpreter::Op::Iter && op.args.len() == 1;
                }
            }
        }
        let escapes = block.exits.iter().any(|&l| g.link(l).args.contains(&v))
            || block.exitswitch == crate::flowspace::ExitSwitch::Value(v);
        uses == 1 && by_iter && !escapes
    }

    pub(super) fn indirect_call(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        fv: Hlvalue,
        g0: u32,
    ) -> R {
        let (params, result) = self.graph_signature(g0);
        let mut vals = vec![fv];
        // a family of functions taking `*args` (specialized on the number passed) gets
        // its trailing arguments packed as the graphs take them
        let varargs = matches!(
            self.ann.graph_descs.get(g0 as usize).copied().flatten().map(|d| self.ann.bookkeeper.desc(d)),
            Some(crate::annotator::description::Desc::Function(f)) if f.sig.varargs.is_some()
        );
        if hop.nargs() < params.len() || !hop.keywords.is_empty() || varargs {
            // missing arguments take the defaults of the family's functions (the annotator
            // checked that the functions called here agree on them)
            for ((v, r), &p) in self
                .call_args_for(hop, llops, g0, 0)?
                .into_iter()
                .zip(&params)
            {
                vals.push(self.convertvar(llops, v, r, p)?);
            }
        } else {
            for (i, &p) in params.iter().enumerate() {
                vals.push(self.inputarg(llops, hop, i, p)?);
            }
        }
        let rt = self.lltype(result);
        let v = llops.genop(LlOp::IndirectCall, vals, rt);
        if hop.exc_handled {
            hop.raising_index = Some(llops.ops.len() - 1);
        }
        Ok((v, result))
    }

    pub(super) fn call_method(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        sv: Hlvalue,
        sr: ReprId,
        name: &str,
    ) -> R {
        let mut targets = self
            .ann
            .call_targets
            .get(&hop.position)
            .map(|t| t.to_vec())
            .unwrap_or_default();
        if targets.is_empty() {
            // a special method the annotator called implicitly: what the class's MRO finds
            if let Repr::Instance(cd) = self.repr(sr).clone() {
                let mut gs: Vec<u32> = self
                    .ann
                    .bookkeeper
                    .getallsubdefs(cd)
                    .into_iter()
                    .filter_map(|c| self.method_graph(c, name))
                    .collect();
                gs.sort();
                gs.dedup();
                targets = gs;
            }
        }
        if targets.len() == 1 {
            let mut args = vec![(sv, sr)];
            args.extend(self.call_args_for(hop, llops, targets[0], 1)?);
            let r = self.call_graph(llops, targets[0], args)?;
            if hop.exc_handled {
                hop.raising_index = Some(llops.ops.len() - 1);
            }
            return Ok(r);
        }
        let Repr::Instance(cd) = self.repr(sr).clone() else {
            return Err(TyperError::new("a method of a non-instance"));
        };
        let owner = self
            .ann
            .bookkeeper
            .get_owner(cd, name)
            .ok_or_else(|| TyperError::new(format!("no method `{}`", name)))?;
        // a specialized method: the slot of the row of this call's graphs
        let slot_name: std::rc::Rc<str> = self
            .row_slot_of(owner, name, targets[0])
            .unwrap_or_else(|| std::rc::Rc::from(name));
        let Some((_, ClassSlot::Method { repr })) = self.classes.slots[&owner]
            .iter()
            .find(|(n, _)| **n == *slot_name)
            .cloned()
        else {
            return Err(TyperError::new(format!(
                "method `{}` has no vtable entry",
                name
            )));
        };
        let Repr::FuncPtr(graphs) = self.repr(repr).clone() else {
            unreachable!()
        };
        let tp = self.typeptr(llops, sv, sr)?;
        let vt = self.classes.vtable[&owner];
        let vtp = self.types.ptr(vt);
        let vv = llops.genop(LlOp::CastPointer, vec![tp], vtp);
        let ft = self.lltype(repr);
        let fp = llops.genop(LlOp::GetField, vec![vv, cfield(&cls_field(&slot_name))], ft);
        funcset_check(llops, fp, graphs.len());
        hop.v_s_insertfirstarg(sv, sr, SomeValue::Impossible);
        self.indirect_call(hop, llops, fp, graphs[0])
    }

    pub(super) fn instantiate(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        cls: crate::objspace::object::ObjId,
    ) -> R {
        if let Repr::Dict {
            custom: Some((eq, hash)),
            ..
        } = self.repr(hop.r_result).clone()
        {
            // r_dict(eq, hash): a dict holding its two functions
            let rr = hop.r_result;
            let d = self.new_r_dict(hop, llops, rr, eq, hash)?;
            return Ok((d, rr));
        }
        if let Some(r) = self.new_builtin_exception(hop, llops, cls) {
            return r;
        }
        if let SomeValue::LlType(_) = hop.s_result {
            // `lltype.Ptr(T)`: a constant type, folded by the annotator (nothing to run)
            return Ok((super::hop::cvoid(), hop.r_result));
        }
        let Some(cd) = self.classdef_of_class(cls) else {
            // a built-in type called as a function (`r_uint(x)`, `str(x)`…)
            return match self.objheap.class(cls).and_then(|c| c.constructor) {
                Some(id) => self.call_builtin(hop, llops, id),
                None => {
                    let name = crate::annotator::Bookkeeper::class_name(self.objheap, cls);
                    Err(TyperError::new(format!(
                        "the built-in `{}` is not supported by `run` yet",
                        name
                    )))
                }
            };
        };
        self.instantiate_class(hop, llops, cd)
    }

    pub(super) fn rt_call(
        &mut self,
        llops: &mut LlOps,
        f: RuntimeFn,
        args: Vec<Hlvalue>,
        result: LlType,
    ) -> Hlvalue {
        let tys: Vec<LlType> = args
            .iter()
            .map(|a| llops.graph.concretetype_of(*a).unwrap_or(LlType::VOID))
            .collect();
        let fp = self.runtime(f, &tys, result);
        let mut all = vec![fp];
        all.extend(args);
        llops.genop(LlOp::DirectCall, all, result)
    }
}

/// Before a call through a function pointer of a family of `n` functions: the reference's
/// `-O2` keeps a set of 2 to 4 as an index and its dispatcher aborts on anything else
/// (`LlOp::FuncsetCheck`); a bigger set is a pointer, called as it is.
fn funcset_check(llops: &mut LlOps, fp: Hlvalue, n: usize) {
    if (2..5).contains(&n) {
        llops.genop(LlOp::FuncsetCheck, vec![fp], LlType::VOID);
    }
}
