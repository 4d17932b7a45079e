//! Calls (`simple_call`): of functions (a `direct_call` of the graph the call table gives,
//! or an `indirect_call` through a function pointer), of classes (`rclasscall`), of
//! methods (direct when one graph is reachable, through the vtable otherwise), of C
//! functions (`rcfunc`), and of built-in functions and methods (low-level operations or
//! runtime functions).

use super::hop::{cbool, cfield, cint, ctype, cvoid, Hop, LlOps};
use super::rclass::{cls_field, ClassSlot};
use super::rmodel::{int_lltype, Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType, LlValue, Sym};
use crate::objspace::object::{IntKind, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    pub(super) fn rtype_call(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let callee = hop.op.args[0];
        let callee_repr = self.repr(hop.args_r[0]).clone();
        match callee_repr {
            Repr::Method { name, self_repr } => {
                // a bound method is represented by its `self`
                let (sv, _, _) = hop.r_s_popfirstarg();
                self.call_method(hop, llops, sv, self_repr, &name)
            }
            Repr::BuiltinMethod { id, self_repr } => {
                let (sv, _, ss) = hop.r_s_popfirstarg();
                self.call_builtin_method(hop, llops, sv, self_repr, &ss, id)
            }
            Repr::Class(Some(common)) => self.call_runtime_class(hop, llops, common),
            Repr::WeakRef => self.rtype_weakref_call(hop, llops),
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
                        let ss = self
                            .ann
                            .bookkeeper
                            .known_value(self.objheap, s)
                            .unwrap_or(SomeValue::Impossible);
                        let sr = self.getrepr(&ss)?;
                        let sv = Hlvalue::Ll(self.const_value(s, sr)?);
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
                        let memo = self.ann.bookkeeper.desc_of_obj.get(&id).is_some_and(|d| {
                            matches!(self.ann.bookkeeper.desc(*d),
                                crate::annotator::description::Desc::Function(f)
                                    if f.specializer == crate::annotator::description::Specializer::Memo)
                        });
                        if let (true, Some(k)) = (memo, hop.s_result.konst()) {
                            // a call computed at translation time (specialize:memo)
                            let rr = hop.r_result;
                            return Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr));
                        }
                        let Some(g) = self.first_call_target(hop) else {
                            return Err(TyperError::new("a call the annotator did not follow"));
                        };
                        let (_, _, s_callee) = hop.r_s_popfirstarg();
                        if let Object::BoundMethod { self_value, .. } = self.objheap.get(id) {
                            // a method bound to a prebuilt object, folded by the flow
                            // space (`consts.name()` of a frozen module stand-in)
                            let sv = *self_value;
                            let s_self = self
                                .ann
                                .bookkeeper
                                .known_value(self.objheap, sv)
                                .unwrap_or(SomeValue::Impossible);
                            let r_self = self.getrepr(&s_self)?;
                            let v_self = Hlvalue::Ll(self.const_value(sv, r_self)?);
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
            let tr = *params
                .get(named)
                .ok_or_else(|| TyperError::new("*args without a parameter"))?;
            let Repr::Tuple(items) = self.repr(tr).clone() else {
                return Err(TyperError::new("an *args parameter that is not a tuple"));
            };
            let first = named.saturating_sub(offset);
            let mut vals = Vec::new();
            for (k, ir) in items.iter().enumerate() {
                let hi = first + k;
                if hi >= hop.nargs() {
                    return Err(TyperError::new("*args of a different length"));
                }
                vals.push(
                    self.arg_for_param(
                        llops,
                        hop.op.args[hi],
                        hop.args_v[hi],
                        hop.args_r[hi],
                        *ir,
                    )?
                    .0,
                );
            }
            let t = self.build_tuple(llops, tr, vals);
            out.push((t, tr));
        }
        Ok(out)
    }

    /// Whether the list of this `range()` call is used once, by an `iter` in the same
    /// block that gives a range iterator (and goes nowhere else).
    fn range_only_iterated(&mut self, hop: &Hop) -> bool {
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

    fn indirect_call(&mut self, hop: &mut Hop, llops: &mut LlOps, fv: Hlvalue, g0: u32) -> R {
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
        hop.v_s_insertfirstarg(sv, sr, SomeValue::Impossible);
        self.indirect_call(hop, llops, fp, graphs[0])
    }

    fn instantiate(
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
            let d = self.new_dict(llops, rr)?;
            for (field, g) in [("fneq", eq), ("fnhash", hash)] {
                let fp = self.graph_funcptr(g);
                let ft = self.funcptr_type(g);
                let c = Hlvalue::Ll(LlConstant {
                    ty: ft,
                    value: LlValue::Ptr(fp),
                });
                llops.genop(LlOp::SetField, vec![d, cfield(field), c], LlType::VOID);
            }
            return Ok((d, rr));
        }
        if let Some(r) = self.new_builtin_exception(hop, llops, cls) {
            return r;
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

    fn call_builtin(&mut self, hop: &mut Hop, llops: &mut LlOps, id: B) -> R {
        let name = id.name();
        if let Some(r) = self.rtype_ll_builtin(hop, llops, id) {
            return r;
        }
        if let Some(r) = self.rtype_external(hop, llops, id) {
            return r;
        }
        if let Some(r) = self.rtype_weakref_builtin(hop, llops, id) {
            return r;
        }
        let void = self.intern_repr(Repr::Void);
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let rs = self.intern_repr(Repr::Str);
        let short = id.short_name();
        match id {
            B::RpythonPrintItem => {
                // a constant is printed as CPython's str() shows it (the reference's flow
                // space folds it at translation time)
                let s = match hop.op.args[0] {
                    Hlvalue::Const(c) => match self.const_str(c) {
                        Some(text) => self.str_constant(text.as_bytes()),
                        None => self.to_str(llops, hop.args_v[0], hop.args_r[0], false)?,
                    },
                    _ => self.to_str(llops, hop.args_v[0], hop.args_r[0], false)?,
                };
                self.rt_call(llops, RuntimeFn::PrintItem, vec![s], LlType::VOID);
                Ok((cvoid(), void))
            }
            // `Base.__init__(self)` reaching object's: nothing happens at run time
            B::ObjectDunderInit => Ok((cvoid(), void)),
            B::RpythonPrintNewline => {
                self.rt_call(llops, RuntimeFn::PrintNewline, vec![], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::OsWrite => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let s = self.inputarg(llops, hop, 1, rs)?;
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(llops, RuntimeFn::OsWrite, vec![fd, s], LlType::SIGNED),
                    si,
                ))
            }
            B::OsOpen => {
                let path = self.inputarg(llops, hop, 0, rs)?;
                let flags = self.inputarg(llops, hop, 1, si)?;
                let mode = if hop.nargs() > 2 {
                    self.inputarg(llops, hop, 2, si)?
                } else {
                    cint(0o777)
                };
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::OsOpen,
                        vec![path, flags, mode],
                        LlType::SIGNED,
                    ),
                    si,
                ))
            }
            B::OsClose => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                self.rt_call(llops, RuntimeFn::OsClose, vec![fd], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::OsListdir | B::OsGetloadavg | B::OsPipe | B::OsWaitpid => {
                // the helpers of ll_os.py build the result, of the result's type
                let raises = self.has_implicit_exception(hop, "OSError");
                let mut args = vec![ctype(tr)];
                if id == B::OsListdir {
                    args.push(self.inputarg(llops, hop, 0, rs)?);
                }
                if id == B::OsWaitpid {
                    args.push(self.inputarg(llops, hop, 0, si)?);
                    args.push(self.inputarg(llops, hop, 1, si)?);
                }
                let helper = match self.repr(rr) {
                    Repr::List { fixed: true, .. } => "ll_listdir_fixed",
                    Repr::List { .. } => "ll_listdir",
                    _ if id == B::OsPipe => "ll_pipe",
                    _ if id == B::OsWaitpid => "ll_waitpid",
                    _ => "ll_getloadavg",
                };
                if raises {
                    hop.exception_is_here(llops);
                }
                Ok((self.gendirectcall(llops, helper, args, tr)?, rr))
            }
            B::OsStatFields | B::OsLstatFields | B::OsFstatFields => {
                let (helper, ra) = match id {
                    B::OsLstatFields => ("ll_lstat_fields", rs),
                    B::OsFstatFields => ("ll_fstat_fields", si),
                    _ => ("ll_stat_fields", rs),
                };
                let p = self.inputarg(llops, hop, 0, ra)?;
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.gendirectcall(llops, helper, vec![ctype(tr), p], tr)?,
                    rr,
                ))
            }
            B::OsListdirRaw => {
                let p = self.inputarg(llops, hop, 0, rs)?;
                Ok((
                    self.rt_call(llops, RuntimeFn::OsListdirRaw, vec![p], tr),
                    rr,
                ))
            }
            B::OsLoadavgItem => {
                let i = self.inputarg(llops, hop, 0, si)?;
                Ok((
                    self.rt_call(llops, RuntimeFn::OsLoadavgItem, vec![i], tr),
                    rr,
                ))
            }
            B::OsLseek => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let pos = self.inputarg(llops, hop, 1, si)?;
                let how = self.inputarg(llops, hop, 2, si)?;
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::OsLseek,
                        vec![fd, pos, how],
                        LlType::SIGNED,
                    ),
                    si,
                ))
            }
            B::OsRead => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let n = self.inputarg(llops, hop, 1, si)?;
                if self.has_implicit_exception(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(llops, RuntimeFn::OsRead, vec![fd, n], self.str_ptr),
                    rs,
                ))
            }
            B::TimeTime | B::TimeClock => {
                let f = if id == B::TimeTime {
                    RuntimeFn::TimeTime
                } else {
                    RuntimeFn::TimeClock
                };
                Ok((self.rt_call(llops, f, vec![], LlType::FLOAT), rr))
            }
            B::TimeSleep => {
                let fr = self.intern_repr(Repr::Float);
                let secs = self.inputarg(llops, hop, 0, fr)?;
                self.rt_call(llops, RuntimeFn::TimeSleep, vec![secs], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::Range | B::Xrange => {
                let n = hop.nargs();
                let mut a = Vec::new();
                for i in 0..n {
                    a.push(self.inputarg(llops, hop, i, si)?);
                }
                let (start, stop, step) = match n {
                    1 => (cint(0), a[0], cint(1)),
                    2 => (a[0], a[1], cint(1)),
                    _ => (a[0], a[1], a[2]),
                };
                if self.range_only_iterated(hop) {
                    self.lazy_ranges
                        .insert((hop.g, hop.op.result), (start, stop, step));
                    return Ok((
                        Hlvalue::Ll(LlConstant {
                            ty: tr,
                            value: LlValue::Ptr(crate::lltypesystem::LlPtr::Null),
                        }),
                        rr,
                    ));
                }
                Ok((
                    self.new_list_call(llops, "ll_range", rr, vec![start, stop, step])?,
                    rr,
                ))
            }
            B::RarithmeticOvfcheck => {
                let Hlvalue::Var(v) = hop.op.args[0] else {
                    return Ok((hop.args_v[0], hop.args_r[0]));
                };
                match self.pending_ovf.remove(&(hop.g, v)) {
                    Some((o, args, ty)) => {
                        if hop.exc_handled {
                            hop.exception_is_here(llops);
                        }
                        Ok((llops.genop(o, args, ty), rr))
                    }
                    None => Ok((hop.args_v[0], hop.args_r[0])),
                }
            }
            B::RarithmeticIntmask => Ok((self.inputarg(llops, hop, 0, si)?, si)),
            B::RarithmeticWiden => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            B::RarithmeticLonglongmask => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            // hints for the JIT generator: nothing happens at run time without a JIT
            B::JitPromote
            | B::JitPromoteString
            | B::JitPromoteUnicode
            | B::JitHint
            | B::NonconstNonConstant => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            B::JitWeAreJitted | B::JitIsconstant | B::JitIsvirtual => {
                Ok((cbool(false), self.intern_repr(Repr::Bool)))
            }
            B::JitCurrentTraceLength => Ok((cint(-1), si)),
            B::JitRecordKnownClass
            | B::JitRecordExactClass
            | B::JitAssertGreen
            | B::JitSetParam
            | B::JitJitDebug => Ok((cvoid(), void)),
            // debug logging: a compiled program logs only when PYPYLOG is set (rpy-lsp's
            // runtime has no log), so these do nothing
            B::DebugDebugPrint | B::DebugDebugStart | B::DebugDebugStop | B::DebugDebugFlush => {
                Ok((cvoid(), void))
            }
            B::CollectionsOrderedDict if hop.nargs() == 0 => {
                // RPython's dicts keep insertion order: an OrderedDict is a dict
                Ok((self.new_dict(llops, rr)?, rr))
            }
            B::ObjectmodelInstantiate => self.rtype_objectmodel_instantiate(hop, llops),
            B::DebugHaveDebugPrints => Ok((cbool(false), self.intern_repr(Repr::Bool))),
            B::DebugDebugOffset => Ok((cint(-1), si)),
            B::RfloatFormatd => {
                let rf = self.intern_repr(Repr::Float);
                let rc = self.intern_repr(Repr::Char);
                let x = self.inputarg(llops, hop, 0, rf)?;
                let code = self.inputarg(llops, hop, 1, rc)?;
                let prec = self.inputarg(llops, hop, 2, si)?;
                let flags = if hop.nargs() > 3 {
                    self.inputarg(llops, hop, 3, si)?
                } else {
                    cint(0)
                };
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::FloatFormat,
                        vec![x, code, prec, flags],
                        self.str_ptr,
                    ),
                    rs,
                ))
            }
            B::ObjectmodelWeAreTranslated => Ok((cbool(true), self.intern_repr(Repr::Bool))),
            // hints about a list's allocation only: an empty list; nothing
            B::ObjectmodelNewlistHint => {
                let Repr::List { item, fixed } = self.repr(rr).clone() else {
                    return Err(TyperError::new("newlist_hint of a non-list"));
                };
                Ok((self.build_list(llops, rr, item, fixed, Vec::new()), rr))
            }
            // keepalive_until_here: the reference's `keepalive` operation, which its C backend
            // turns into no code; it only matters to code holding raw addresses of GC objects
            B::ObjectmodelResizelistHint | B::ObjectmodelKeepaliveUntilHere => {
                Ok((cvoid(), self.intern_repr(Repr::Void)))
            }
            B::ObjectmodelComputeHash => {
                let (x, r) = (hop.args_v[0], hop.args_r[0]);
                Ok((self.value_hash(llops, x, r)?, si))
            }
            B::ObjectmodelComputeIdentityHash | B::ObjectmodelComputeUniqueId => {
                let (x, r) = (hop.args_v[0], hop.args_r[0]);
                let h = if self.types.is_gc_ptr(self.lltype(r)) {
                    self.identity_hash(llops, x)
                } else {
                    self.value_hash(llops, x, r)?
                };
                Ok((h, si))
            }
            B::List => {
                // a new list with the items of a list or the characters of a string
                let Repr::List { item, fixed } = self.repr(rr).clone() else {
                    return Err(TyperError::new("list() of a non-list"));
                };
                if hop.nargs() == 0 {
                    return Ok((self.build_list(llops, rr, item, fixed, Vec::new()), rr));
                }
                let (v, r) = (hop.args_v[0], hop.args_r[0]);
                if matches!(self.repr(r), Repr::Str | Repr::Unicode) {
                    return Ok((
                        self.new_list_call(llops, "ll_list_of_chars", rr, vec![v])?,
                        rr,
                    ));
                }
                if matches!(self.repr(r), Repr::Dict { .. }) {
                    // list(d) of a dict: its keys, as d.keys()
                    return Ok((self.new_list_call(llops, "ll_dict_keys", rr, vec![v])?, rr));
                }
                if let Repr::Tuple(fields) = self.repr(r).clone() {
                    // list(t) of a tuple (`list(args)` of a *args tuple): its fields, in order
                    let mut vals = Vec::with_capacity(fields.len());
                    for (i, fr) in fields.iter().enumerate() {
                        let ft = self.lltype(*fr);
                        let f =
                            llops.genop(LlOp::GetField, vec![v, cfield(&format!("item{}", i))], ft);
                        vals.push(self.convertvar(llops, f, *fr, item)?);
                    }
                    return Ok((self.build_list(llops, rr, item, fixed, vals), rr));
                }
                let (items, n) = self.list_parts(llops, v, r);
                let args = vec![items, n, cint(0), n];
                Ok((self.new_list_call(llops, "ll_slice", rr, args)?, rr))
            }
            B::Enumerate | B::Reversed => {
                let st = self.types.pointee(tr).unwrap();
                let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                let Repr::Iter { container, .. } = self.repr(rr).clone() else {
                    return Err(TyperError::new("enumerate() of a non-list"));
                };
                let c = self.inputarg(llops, hop, 0, container)?;
                llops.genop(
                    LlOp::SetField,
                    vec![it, cfield("container"), c],
                    LlType::VOID,
                );
                Ok((it, rr))
            }
            B::Chr | B::Unichr => {
                let i = self.inputarg(llops, hop, 0, si)?;
                // out of range is undefined unless a handler catches the ValueError
                if self.has_implicit_exception(hop, "ValueError") {
                    hop.exception_is_here(llops);
                    let check = if id == B::Chr {
                        "ll_check_chr"
                    } else {
                        "ll_check_unichr"
                    };
                    self.gendirectcall(llops, check, vec![i], LlType::VOID)?;
                } else {
                    hop.exception_cannot_occur();
                }
                if id == B::Chr {
                    return Ok((llops.genop(LlOp::CastIntToChar, vec![i], LlType::CHAR), rr));
                }
                Ok((
                    llops.genop(LlOp::CastIntToUnichar, vec![i], LlType::UNICHAR),
                    rr,
                ))
            }
            B::Unicode if hop.nargs() == 1 => {
                // unicode(s): a str decoded as ASCII (UnicodeDecodeError otherwise); a
                // unicode string or character as itself
                if matches!(self.repr(hop.args_r[0]), Repr::Unicode | Repr::UniChar) {
                    return Ok((self.inputarg(llops, hop, 0, rr)?, rr));
                }
                let s = self.inputarg(llops, hop, 0, rs)?;
                if self.has_implicit_exception(hop, "UnicodeDecodeError")
                    || self.has_implicit_exception(hop, "UnicodeError")
                    || self.has_implicit_exception(hop, "ValueError")
                {
                    hop.exception_is_here(llops);
                }
                Ok((self.decode_ascii(llops, s)?, rr))
            }
            B::Bytearray if hop.nargs() == 1 => {
                // bytearray(s): a copy of the bytes of a str (a char is one) or of a
                // bytearray; the reference's RTyper has no other way to build one
                let arg = match self.repr(hop.args_r[0]) {
                    Repr::ByteArray => self.inputarg(llops, hop, 0, rr)?,
                    Repr::Str | Repr::Char => self.inputarg(llops, hop, 0, rs)?,
                    _ => {
                        return Err(TyperError::new(format!(
                            "bytearray() of {} is not supported by the RPython typer: only a str or a bytearray can be copied into a bytearray",
                            self.ann
                                .bookkeeper
                                .describe_type(self.objheap, &hop.args_s[0])
                        )))
                    }
                };
                Ok((
                    self.gendirectcall(llops, "ll_bytearray_from", vec![arg], tr)?,
                    rr,
                ))
            }
            B::Bool => {
                let v =
                    self.is_true(llops, hop.args_v[0], hop.args_r[0], &hop.args_s[0].clone())?;
                Ok((v, self.intern_repr(Repr::Bool)))
            }
            B::Min | B::Max if hop.nargs() == 2 => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let b = self.inputarg(llops, hop, 1, rr)?;
                let f = if id == B::Max { "ll_max" } else { "ll_min" };
                Ok((self.gendirectcall(llops, f, vec![a, b], tr)?, rr))
            }
            B::Abs => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let o = match self.repr(rr) {
                    Repr::Float => LlOp::FloatAbs,
                    _ => LlOp::IntAbs,
                };
                Ok((llops.genop(o, vec![a], tr), rr))
            }
            _ if id.int_kind().is_some() || matches!(id, B::RarithmeticRSinglefloat | B::Int | B::Float) => {
                // r_uint(x), r_longlong(x)…: a cast to the result's integer type
                if hop.nargs() == 0 {
                    let k = self
                        .convert_const_ll(LlValue::Int(0), LlType::SIGNED, tr)
                        .unwrap();
                    return Ok((Hlvalue::Ll(k), rr));
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Str | Repr::Char) {
                    let s = self.inputarg(llops, hop, 0, rs)?;
                    let base = if hop.nargs() > 1 {
                        self.inputarg(llops, hop, 1, si)?
                    } else {
                        cint(10)
                    };
                    if self.has_implicit_exception(hop, "ValueError") {
                        hop.exception_is_here(llops);
                    }
                    if id == B::Float {
                        let f = RuntimeFn::StrToFloat;
                        return Ok((self.rt_call(llops, f, vec![s, base], tr), rr));
                    }
                    let x =
                        self.gendirectcall(llops, "ll_str_to_int", vec![s, base], LlType::SIGNED)?;
                    return Ok((self.convertvar(llops, x, si, rr)?, rr));
                }
                // (an r_singlefloat is a float to rpy-lsp: no cast to an integer)
                if matches!(self.repr(hop.args_r[0]), Repr::Float)
                    && id.int_kind().is_some_and(|k| k.is_narrow())
                {
                    return Err(TyperError::new(format!(
                        "cannot convert between a float and a narrow C integer ({})",
                        crate::annotator::model::int_kind_name(id.int_kind().unwrap_or(IntKind::Signed))
                    )));
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Float)
                    && id != B::Float
                    && id != B::RarithmeticRSinglefloat
                {
                    // r_uint(x), r_ulonglong(x): C's conversion to the unsigned type itself
                    // (the reference's cast_float_to_uint), which keeps values from 2**63 on
                    if tr == LlType::UNSIGNED || tr == LlType::UNSIGNEDLONGLONG {
                        let u = llops.genop(LlOp::CastPrimitive, vec![hop.args_v[0]], tr);
                        return Ok((u, rr));
                    }
                    let i = llops.genop(LlOp::CastFloatToInt, vec![hop.args_v[0]], LlType::SIGNED);
                    return Ok((self.convertvar(llops, i, si, rr)?, rr));
                }
                let v = self.inputarg(llops, hop, 0, rr)?;
                if id == B::RarithmeticRSinglefloat && !matches!(v, Hlvalue::Ll(_)) {
                    // a C float: rounded to single precision (float() reads it back)
                    let f = self.gendirectcall(llops, "ll_round_to_float32", vec![v], LlType::FLOAT)?;
                    return Ok((f, rr));
                }
                Ok((v, rr))
            }
            _ if id.is_math() => {
                let rf = self.intern_repr(Repr::Float);
                let mut args = vec![Hlvalue::Ll(LlConstant {
                    ty: LlType::VOID,
                    value: LlValue::Name(Sym::new(short)),
                })];
                for i in 0..hop.nargs() {
                    args.push(self.inputarg(llops, hop, i, rf)?);
                }
                if self.has_implicit_exception(hop, "ValueError")
                    || self.has_implicit_exception(hop, "OverflowError")
                {
                    hop.exception_is_here(llops);
                }
                Ok((self.rt_call(llops, RuntimeFn::MathFn, args, tr), rr))
            }
            // answered during translation (on prebuilt objects): a constant
            B::Hasattr => match hop.s_result.konst() {
                Some(k) => Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr)),
                None => Err(TyperError::new(
                    "hasattr() whose answer is not known during translation is not supported by `run` yet".to_string(),
                )),
            },
            _ => Err(TyperError::new(format!(
                "the built-in `{}` is not supported by `run` yet",
                name
            ))),
        }
    }

    /// CPython 2's `str()` of a prebuilt immutable value.
    fn const_str(&self, v: Value) -> Option<String> {
        if let Value::Obj(id) = v {
            if let Object::Tuple(items) | Object::List(items) = self.objheap.get(id) {
                let is_tuple = matches!(self.objheap.get(id), Object::Tuple(_));
                let parts: Option<Vec<String>> =
                    items.iter().map(|x| self.const_repr(*x)).collect();
                let parts = parts?;
                return Some(if is_tuple {
                    if parts.len() == 1 {
                        format!("({},)", parts[0])
                    } else {
                        format!("({})", parts.join(", "))
                    }
                } else {
                    format!("[{}]", parts.join(", "))
                });
            }
        }
        Some(match v {
            Value::None => "None".into(),
            Value::Bool(b) => if b { "True" } else { "False" }.into(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => crate::objspace::format::float_str(f),
            Value::Obj(id) => match self.objheap.get(id) {
                Object::Str(s) => String::from_utf8_lossy(s).into_owned(),
                Object::RInt { value, .. } => value.to_string(),
                Object::Long(value) => value.to_string(),
                _ => return None,
            },
        })
    }

    /// CPython 2's `repr()` of a prebuilt immutable value.
    fn const_repr(&self, v: Value) -> Option<String> {
        match v {
            Value::Float(f) => Some(crate::objspace::format::float_repr(f)),
            Value::Obj(id) => match self.objheap.get(id) {
                Object::Str(s) => Some(
                    String::from_utf8_lossy(&crate::objspace::format::repr_bytes(s)).into_owned(),
                ),
                Object::Long(x) => Some(format!("{}L", x)),
                _ => self.const_str(v),
            },
            _ => self.const_str(v),
        }
    }

    fn call_builtin_method(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        sv: Hlvalue,
        sr: ReprId,
        ss: &SomeValue,
        id: B,
    ) -> R {
        // string methods are the same on str and unicode: the receiver's repr says which
        let id = id.str_method().unwrap_or(id);
        if id.owner() == Some("rweakdict") {
            return self.rtype_weakdict_method(hop, llops, sv, sr, ss, id);
        }
        let name = id.short_name();
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let rs = self.intern_repr(Repr::Str);
        let _ = ss;
        let raise_here = |rt: &Self, hop: &mut Hop, llops: &LlOps, exc: &str| {
            if rt.has_implicit_exception(hop, exc) {
                hop.exception_is_here(llops);
            }
        };
        match self.repr(sr).clone() {
            Repr::Generator(gg) if name == "next" => self.generator_next(hop, llops, gg, sv, sr),
            // `it.next()` of an iterator: the `next` operation of a loop, on the receiver
            Repr::Iter { .. } | Repr::RangeIter if name == "next" => {
                let s_it = match ss {
                    SomeValue::BuiltinMethod { s_self, .. } => (**s_self).clone(),
                    other => other.clone(),
                };
                hop.v_s_insertfirstarg(sv, sr, s_it);
                self.rtype_next(hop, llops)
            }
            Repr::List { item, .. } => {
                // low-level helpers (ll_list.py); `sv` is the list
                let it = self.lltype(item);
                let (helper, args, res): (&str, Vec<Hlvalue>, (LlType, ReprId)) = match id {
                    B::ListReverse => {
                        let (items, n) = self.list_parts(llops, sv, sr);
                        ("ll_reverse", vec![items, n], (LlType::VOID, void))
                    }
                    B::ListAppend => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        ("ll_append", vec![sv, x], (LlType::VOID, void))
                    }
                    B::ListPop => {
                        let i = if hop.nargs() > 0 {
                            self.inputarg(llops, hop, 0, si)?
                        } else {
                            cint(-1)
                        };
                        // without an IndexError handler an index out of range is undefined
                        let helper = if self.has_implicit_exception(hop, "IndexError") {
                            hop.exception_is_here(llops);
                            "ll_pop"
                        } else {
                            "ll_pop_unchecked"
                        };
                        (helper, vec![sv, i], (it, item))
                    }
                    B::ListInsert => {
                        let i = self.inputarg(llops, hop, 0, si)?;
                        let x = self.inputarg(llops, hop, 1, item)?;
                        ("ll_insert", vec![sv, i, x], (LlType::VOID, void))
                    }
                    B::ListExtend => {
                        let (o, ro) = (hop.args_v[0], hop.args_r[0]);
                        if matches!(self.repr(ro), Repr::Str | Repr::Unicode) {
                            ("ll_extend_chars", vec![sv, o], (LlType::VOID, void))
                        } else {
                            let (items, n) = self.list_parts(llops, o, ro);
                            ("ll_extend", vec![sv, items, n], (LlType::VOID, void))
                        }
                    }
                    B::ListRemove => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        let eq = self.item_eq(item)?;
                        raise_here(self, hop, llops, "ValueError");
                        self.gendirectcall_eq(llops, "ll_remove", vec![sv, x], eq, LlType::VOID)?;
                        return Ok((cvoid(), void));
                    }
                    B::ListIndex => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        let eq = self.item_eq(item)?;
                        let (items, n) = self.list_parts(llops, sv, sr);
                        raise_here(self, hop, llops, "ValueError");
                        let args = vec![items, n, x];
                        let i =
                            self.gendirectcall_eq(llops, "ll_index", args, eq, LlType::SIGNED)?;
                        return Ok((i, si));
                    }
                    _ => {
                        return Err(TyperError::new(format!(
                            "list.{}() is not supported by `run` yet",
                            name
                        )))
                    }
                };
                let out = self.gendirectcall(llops, helper, args, res.0)?;
                Ok((out, res.1))
            }
            Repr::Str | Repr::Unicode => {
                // the receiver's kind of string (str or unicode)
                let (rs, ts) = (sr, self.lltype(sr));
                if id == B::StrEncode || id == B::StrDecode {
                    let codec = hop.args_s[0]
                        .konst()
                        .and_then(|v| self.objheap.str_value(v))
                        .map(|b| String::from_utf8_lossy(b).to_ascii_lowercase());
                    let Some(codec) = codec else {
                        return Err(TyperError::new("the encoding must be a constant"));
                    };
                    let decode = id == B::StrDecode;
                    let (helper, mut args) = match (decode, codec.as_str()) {
                        (false, "utf-8" | "utf8") => ("ll_encode_utf8", vec![sv]),
                        (false, "latin-1" | "latin1" | "iso-8859-1") => {
                            ("ll_encode_latin1", vec![sv, cint(256)])
                        }
                        (false, "ascii") => ("ll_encode_latin1", vec![sv, cint(128)]),
                        (true, "utf-8" | "utf8") => ("ll_decode_utf8", vec![sv]),
                        (true, "latin-1" | "latin1" | "iso-8859-1") => {
                            ("ll_decode_latin1", vec![sv, cint(256)])
                        }
                        (true, "ascii") => ("ll_decode_latin1", vec![sv, cint(128)]),
                        _ => {
                            return Err(TyperError::new(format!(
                                "the encoding {} is not supported by `run` yet",
                                codec
                            )))
                        }
                    };
                    if decode {
                        args.insert(0, ctype(tr));
                    }
                    if self.has_implicit_exception(hop, "UnicodeError")
                        || self.has_implicit_exception(hop, "ValueError")
                    {
                        hop.exception_is_here(llops);
                    }
                    return Ok((self.gendirectcall(llops, helper, args, tr)?, rr));
                }
                let sarg = |rt: &mut Self, llops: &mut LlOps, hop: &Hop, i: usize| {
                    rt.inputarg(llops, hop, i, rs)
                };
                // the methods written as low-level helpers (ll_str.py)
                let helper = match id {
                    B::StrUpper
                    | B::StrLower
                    | B::StrIsdigit
                    | B::StrIsalpha
                    | B::StrIsspace
                    | B::StrIsalnum
                    | B::StrIsupper
                    | B::StrIslower
                    | B::StrStartswith
                    | B::StrEndswith => Some(format!("ll_{}", name)),
                    _ => None,
                };
                if let Some(helper) = helper {
                    let mut args = vec![sv];
                    for i in 0..hop.nargs() {
                        // The argument (a prefix or suffix: the only helpers here with
                        // arguments) keeps its own kind of string repr, as the reference's
                        // typer passes it: a str and a unicode string test each other's
                        // affixes, the helper comparing the characters of both kinds.
                        let own = match hop.args_s[i].is_unicode_like() {
                            true => self.intern_repr(Repr::Unicode),
                            false => self.intern_repr(Repr::Str),
                        };
                        args.push(self.inputarg(llops, hop, i, own)?);
                    }
                    let (ty, repr) = if id == B::StrUpper || id == B::StrLower {
                        (ts, rs)
                    } else {
                        (LlType::BOOL, self.intern_repr(Repr::Bool))
                    };
                    return Ok((self.gendirectcall(llops, &helper, args, ty)?, repr));
                }
                match id {
                    B::StrFind | B::StrRfind | B::StrCount | B::StrIndex | B::StrRindex => {
                        let sub = sarg(self, llops, hop, 0)?;
                        let start = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, si)?
                        } else {
                            cint(0)
                        };
                        let end = if hop.nargs() > 2 {
                            self.inputarg(llops, hop, 2, si)?
                        } else {
                            cint(i64::MAX)
                        };
                        let helper = match id {
                            B::StrFind | B::StrIndex => "ll_find",
                            B::StrCount => "ll_count",
                            _ => "ll_rfind",
                        };
                        let res = self.gendirectcall(
                            llops,
                            helper,
                            vec![sv, sub, start, end],
                            LlType::SIGNED,
                        )?;
                        Ok((res, si))
                    }
                    B::StrStrip | B::StrLstrip | B::StrRstrip => {
                        let chars = if hop.nargs() > 0 {
                            sarg(self, llops, hop, 0)?
                        } else {
                            Hlvalue::Ll(LlConstant {
                                ty: ts,
                                value: LlValue::Ptr(crate::lltypesystem::LlPtr::Null),
                            })
                        };
                        let which = match id {
                            B::StrStrip => 0,
                            B::StrLstrip => 1,
                            _ => 2,
                        };
                        let res = self.gendirectcall(
                            llops,
                            "ll_strip",
                            vec![sv, chars, cint(which)],
                            ts,
                        )?;
                        Ok((res, rs))
                    }
                    B::StrReplace => {
                        // single characters only (the check says so otherwise)
                        let rc = self.intern_repr(if self.repr(rs) == &Repr::Unicode {
                            Repr::UniChar
                        } else {
                            Repr::Char
                        });
                        let c1 = self.inputarg(llops, hop, 0, rc)?;
                        let c2 = self.inputarg(llops, hop, 1, rc)?;
                        let args = vec![sv, c1, c2];
                        let res = self.gendirectcall(llops, "ll_replace_chr_chr", args, ts)?;
                        Ok((res, rs))
                    }
                    B::StrSplit | B::StrRsplit => {
                        // a separator is required (the check says so otherwise)
                        let sep = sarg(self, llops, hop, 0)?;
                        let max = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, si)?
                        } else {
                            cint(-1)
                        };
                        // an empty separator is a ValueError
                        raise_here(self, hop, llops, "ValueError");
                        // the reference's rsplit of a str (not of a unicode string) misses
                        // adjacent separators (`_rsplit_str`)
                        let base = if id == B::StrSplit {
                            "ll_split"
                        } else if ts == self.unicode_ptr {
                            "ll_rsplit"
                        } else {
                            "ll_rsplit_str"
                        };
                        let res = self.new_list_call(llops, base, rr, vec![sv, sep, max])?;
                        Ok((res, rr))
                    }
                    B::StrJoin => {
                        let (l, rl) = (hop.args_v[0], hop.args_r[0]);
                        let (chars, void) = match self.repr(rl) {
                            &Repr::List { item, .. } => (
                                matches!(self.repr(item), Repr::Char | Repr::UniChar),
                                self.lltype(item) == LlType::VOID,
                            ),
                            _ => return Err(TyperError::new("str.join() of a non-list")),
                        };
                        if void {
                            // a list that is always empty (its items are impossible)
                            let empty = if ts == self.unicode_ptr {
                                Hlvalue::Ll(LlConstant {
                                    ty: ts,
                                    value: LlValue::Ptr(self.prebuilt_unicode(&[])),
                                })
                            } else {
                                self.str_constant(b"")
                            };
                            return Ok((empty, rs));
                        }
                        let (items, n) = self.list_parts(llops, l, rl);
                        // characters are joined with '' only (the check says so otherwise)
                        let res = if chars {
                            self.gendirectcall(
                                llops,
                                "ll_join_chars",
                                vec![ctype(ts), items, n],
                                ts,
                            )?
                        } else {
                            self.gendirectcall(llops, "ll_join", vec![sv, items, n], ts)?
                        };
                        Ok((res, rs))
                    }
                    B::StrSplitlines => {
                        let keep = if hop.nargs() > 0 {
                            let rb = self.intern_repr(Repr::Bool);
                            self.inputarg(llops, hop, 0, rb)?
                        } else {
                            cbool(false)
                        };
                        let res = self.new_list_call(llops, "ll_splitlines", rr, vec![sv, keep])?;
                        Ok((res, rr))
                    }
                    _ => Err(TyperError::new(format!(
                        "str.{}() is not supported by `run` yet",
                        name
                    ))),
                }
            }
            Repr::UniChar => {
                let ru = self.intern_repr(Repr::Unicode);
                let s = self.convertvar(llops, sv, sr, ru)?;
                self.call_builtin_method(hop, llops, s, ru, ss, id)
            }
            Repr::Char => {
                // methods of a one-character string: as a string (a char again when the
                // annotator says the result is one: `c.upper()`)
                let s = self.convertvar(llops, sv, sr, rs)?;
                let (v, r) = self.call_builtin_method(hop, llops, s, rs, ss, id)?;
                if matches!(self.repr(rr), Repr::Char) && r == rs {
                    let c = llops.genop(
                        LlOp::GetInteriorField,
                        vec![v, cfield("chars"), cint(0)],
                        LlType::CHAR,
                    );
                    return Ok((c, rr));
                }
                Ok((v, r))
            }
            Repr::Dict { key, value, .. } => {
                // low-level helpers (ll_dict.py); `sv` is the dict
                let tv = self.lltype(value);
                let (helper, args, res): (&str, Vec<Hlvalue>, (LlType, ReprId)) = match id {
                    B::DictGet => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        let d = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, value)?
                        } else {
                            Hlvalue::Ll(LlConstant {
                                ty: tv,
                                value: LlValue::zero(&self.types, tv),
                            })
                        };
                        ("ll_dict_get", vec![sv, k, d], (tv, value))
                    }
                    B::DictSetdefault => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        let d = self.inputarg(llops, hop, 1, value)?;
                        ("ll_dict_setdefault", vec![sv, k, d], (tv, value))
                    }
                    B::DictPop => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        if hop.nargs() > 1 {
                            let d = self.inputarg(llops, hop, 1, value)?;
                            ("ll_dict_pop_default", vec![sv, k, d], (tv, value))
                        } else {
                            raise_here(self, hop, llops, "KeyError");
                            ("ll_dict_pop", vec![sv, k], (tv, value))
                        }
                    }
                    B::DictClear => {
                        let v =
                            self.gendirectcall(llops, "ll_dict_clear", vec![sv], LlType::VOID)?;
                        return Ok((v, void));
                    }
                    B::DictPopitem => {
                        raise_here(self, hop, llops, "KeyError");
                        let args = vec![ctype(tr), sv];
                        return Ok((self.dict_call(llops, "ll_dict_popitem", sr, args, tr)?, rr));
                    }
                    B::DictCopy => ("ll_dict_copy", vec![sv], (tr, rr)),
                    B::DictUpdate => (
                        "ll_dict_update",
                        vec![sv, hop.args_v[0]],
                        (LlType::VOID, void),
                    ),
                    B::DictKeys | B::DictValues | B::DictItems => {
                        let base = match id {
                            B::DictKeys => "ll_dict_keys",
                            B::DictValues => "ll_dict_values",
                            _ => "ll_dict_items",
                        };
                        return Ok((self.new_list_call(llops, base, rr, vec![sv])?, rr));
                    }
                    B::DictIterkeys | B::DictItervalues | B::DictIteritems => {
                        let st = self.types.pointee(tr).unwrap();
                        let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                        llops.genop(
                            LlOp::SetField,
                            vec![it, cfield("container"), sv],
                            LlType::VOID,
                        );
                        return Ok((it, rr));
                    }
                    _ => {
                        return Err(TyperError::new(format!(
                            "dict.{}() is not supported by `run` yet",
                            name
                        )))
                    }
                };
                let (ty, repr) = res;
                Ok((self.dict_call(llops, helper, sr, args, ty)?, repr))
            }
            // the JitDriver's markers: nothing happens at run time without a JIT
            _ if matches!(
                id,
                B::JitJitDriverJitMergePoint
                    | B::JitJitDriverCanEnterJit
                    | B::JitJitDriverLoopHeader
            ) =>
            {
                Ok((cvoid(), void))
            }
            _ => Err(TyperError::new(format!(
                "the method `{}` of this value is not supported by `run` yet",
                name
            ))),
        }
    }
}

#[allow(dead_code)]
fn unused(_: IntKind) -> LlType {
    int_lltype(IntKind::Signed)
}
