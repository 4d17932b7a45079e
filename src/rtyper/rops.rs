//! The `rtype_*` of each high-level operation: which low-level operations replace it,
//! chosen by the Reprs of its arguments and result (seed 000: "each Repr subclass provides
//! a set of methods called rtype_op_xxx()"). Operations on strings, lists and dicts that
//! need loops call runtime functions (`lltypesystem::runtime`).

use super::hop::{cbool, cfield, cint, ctype, cvoid, Hop, LlOps};
use super::rclass::{cls_field, inst_field, ClassSlot};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType, LlValue};
use crate::objspace::object::{IntKind, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

pub fn int_prefix(kind: IntKind) -> &'static str {
    match kind {
        IntKind::Signed => "int",
        IntKind::Unsigned => "uint",
        IntKind::LongLong => "llong",
        IntKind::ULongLong => "ullong",
    }
}

fn llop(name: &str) -> Result<LlOp, TyperError> {
    LlOp::from_name(name).ok_or_else(|| TyperError::new(format!("no low-level operation {}", name)))
}

/// The binary arithmetic operation of an in-place one.
fn base_op(op: Op) -> Op {
    match op {
        Op::InplaceAdd => Op::Add,
        Op::InplaceSub => Op::Sub,
        Op::InplaceMul => Op::Mul,
        Op::InplaceTrueDiv => Op::TrueDiv,
        Op::InplaceFloorDiv => Op::FloorDiv,
        Op::InplaceDiv => Op::Div,
        Op::InplaceMod => Op::Mod,
        Op::InplacePow => Op::Pow,
        Op::InplaceLShift => Op::LShift,
        Op::InplaceRShift => Op::RShift,
        Op::InplaceAnd => Op::And,
        Op::InplaceOr => Op::Or,
        Op::InplaceXor => Op::Xor,
        other => other,
    }
}

impl RTyper<'_> {
    pub(super) fn rtype_operation(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let op = hop.op.opname;
        // special methods of instances (`len(x)` calls `x.__len__()`…)
        if hop.nargs() > 0 && matches!(self.repr(hop.args_r[0]), Repr::Instance(_)) {
            let special = match op {
                Op::Len => Some("__len__"),
                Op::GetItem => Some("__getitem__"),
                Op::SetItem => Some("__setitem__"),
                Op::Iter => Some("__iter__"),
                Op::Contains => Some("__contains__"),
                Op::Next => Some("next"),
                _ => None,
            };
            if let Some(name) = special {
                let (sv, sr, _) = hop.r_s_popfirstarg();
                return self.call_method(hop, llops, sv, sr, name);
            }
        }
        match op {
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::TrueDiv
            | Op::FloorDiv
            | Op::Div
            | Op::Mod
            | Op::Pow
            | Op::LShift
            | Op::RShift
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::InplaceAdd
            | Op::InplaceSub
            | Op::InplaceMul
            | Op::InplaceTrueDiv
            | Op::InplaceFloorDiv
            | Op::InplaceDiv
            | Op::InplaceMod
            | Op::InplacePow
            | Op::InplaceLShift
            | Op::InplaceRShift
            | Op::InplaceAnd
            | Op::InplaceOr
            | Op::InplaceXor => self.rtype_binary(hop, llops, op),
            Op::Lt | Op::Le | Op::Eq | Op::Ne | Op::Gt | Op::Ge | Op::Is => {
                self.rtype_compare(hop, llops, op)
            }
            Op::Neg | Op::Pos | Op::Invert | Op::Abs => self.rtype_unary(hop, llops, op),
            Op::Bool => {
                let v = self.is_true(llops, hop.args_v[0], hop.args_r[0], &hop.args_s[0])?;
                Ok((v, self.intern_repr(Repr::Bool)))
            }
            Op::Len => self.rtype_len(hop, llops),
            Op::Str | Op::Repr => {
                let v = self.to_str(llops, hop.args_v[0], hop.args_r[0], op == Op::Repr)?;
                Ok((v, self.intern_repr(Repr::Str)))
            }
            Op::Int | Op::Float | Op::Ord | Op::Hex | Op::Oct => self.rtype_convert(hop, llops, op),
            Op::GetAttr => self.rtype_getattr(hop, llops),
            Op::SetAttr => self.rtype_setattr(hop, llops),
            Op::GetItem => self.rtype_getitem(hop, llops),
            Op::SetItem => self.rtype_setitem(hop, llops),
            Op::DelItem => self.rtype_delitem(hop, llops),
            Op::GetSlice => self.rtype_getslice(hop, llops),
            Op::SetSlice | Op::DelSlice => {
                let void = self.intern_repr(Repr::Void);
                let (v, r) = (hop.args_v[0], hop.args_r[0]);
                if !matches!(self.repr(r), Repr::List { .. }) {
                    return Err(TyperError::new("slice assignment of a non-list"));
                }
                let a = self.slice_bound(llops, hop, 1, 0)?;
                let b = self.slice_bound(llops, hop, 2, i64::MAX)?;
                let ty = self.lltype(r);
                if op == Op::SetSlice {
                    let tv = self.lltype(hop.args_r[3]);
                    let f = self.runtime(
                        RuntimeFn::ListSetSlice,
                        &[ty, LlType::SIGNED, LlType::SIGNED, tv],
                        LlType::VOID,
                    );
                    llops.genop(
                        LlOp::DirectCall,
                        vec![f, v, a, b, hop.args_v[3]],
                        LlType::VOID,
                    );
                } else {
                    let f = self.runtime(
                        RuntimeFn::ListDelSlice,
                        &[ty, LlType::SIGNED, LlType::SIGNED],
                        LlType::VOID,
                    );
                    llops.genop(LlOp::DirectCall, vec![f, v, a, b], LlType::VOID);
                }
                Ok((cvoid(), void))
            }
            Op::Contains => self.rtype_contains(hop, llops),
            Op::Iter => self.rtype_iter(hop, llops),
            Op::Next if matches!(self.repr(hop.args_r[0]), Repr::Generator(_)) => {
                let Repr::Generator(gg) = self.repr(hop.args_r[0]).clone() else {
                    unreachable!()
                };
                let yr = self.yield_repr(gg)?;
                let yt = self.lltype(yr);
                let f = self.gen_next_func(gg);
                let ft = self.types.func(vec![self.lltype(hop.args_r[0])], yt);
                let fpt = self.types.ptr(ft);
                let fp = Hlvalue::Ll(LlConstant {
                    ty: fpt,
                    value: LlValue::Ptr(crate::lltypesystem::LlPtr::Func(f)),
                });
                if self.has_implicit_exception(hop, "StopIteration") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    llops.genop(LlOp::DirectCall, vec![fp, hop.args_v[0]], yt),
                    yr,
                ))
            }
            Op::YieldValue => {
                let yr = self.yield_repr(hop.g)?;
                let v = self.inputarg(llops, hop, 0, yr)?;
                // a marker the generator transform replaces (rgenerator.rs)
                let result = llops.graph.new_typed_var(None, LlType::VOID);
                llops.ops.push(crate::flowspace::SpaceOperation {
                    opname: Op::YieldValue,
                    args: vec![v],
                    result,
                    span: llops.span,
                });
                Ok((cvoid(), self.intern_repr(Repr::Void)))
            }
            Op::Next => {
                let rr = hop.r_result;
                let tr = self.lltype(rr);
                let ti = self.lltype(hop.args_r[0]);
                let f = self.runtime(RuntimeFn::IterNext, &[ti], tr);
                if self.has_implicit_exception(hop, "StopIteration") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    llops.genop(LlOp::DirectCall, vec![f, hop.args_v[0]], tr),
                    rr,
                ))
            }
            Op::NewList => self.rtype_newlist(hop, llops),
            Op::NewTuple => {
                let rr = hop.r_result;
                let Repr::Tuple(items) = self.repr(rr).clone() else {
                    return Err(TyperError::new("newtuple of a non-tuple"));
                };
                let v = self.inputargs(llops, hop, &items)?;
                Ok((self.build_tuple(llops, rr, v), rr))
            }
            Op::NewDict => {
                let rr = hop.r_result;
                let tr = self.lltype(rr);
                let f = self.runtime(RuntimeFn::DictNew, &[], tr);
                let d = llops.genop(LlOp::DirectCall, vec![f], tr);
                if let Repr::Dict { key, value, .. } = self.repr(rr).clone() {
                    for i in (0..hop.nargs()).step_by(2) {
                        let k = self.inputarg(llops, hop, i, key)?;
                        let v = self.inputarg(llops, hop, i + 1, value)?;
                        let (tk, tv) = (self.lltype(key), self.lltype(value));
                        let f = self.runtime(RuntimeFn::DictSetItem, &[tr, tk, tv], LlType::VOID);
                        llops.genop(LlOp::DirectCall, vec![f, d, k, v], LlType::VOID);
                    }
                }
                Ok((d, rr))
            }
            Op::SimpleCall => self.rtype_call(hop, llops),
            Op::Type => {
                let cr = self.intern_repr(Repr::Class(None));
                let t = self.typeptr(llops, hop.args_v[0], hop.args_r[0])?;
                Ok((t, cr))
            }
            Op::IsInstance => self.rtype_isinstance(hop, llops),
            Op::IsSubtype => {
                let Hlvalue::Const(Value::Obj(cls)) = hop.op.args[1] else {
                    return Err(TyperError::new(
                        "issubclass() with a class that is not a constant",
                    ));
                };
                let (min, max) = self.class_range(cls);
                let cr = self.intern_repr(Repr::Class(None));
                let t = self.inputarg(llops, hop, 0, cr)?;
                let mn = llops.genop(
                    LlOp::GetField,
                    vec![t, cfield("subclassrange_min")],
                    LlType::SIGNED,
                );
                let b = llops.genop(
                    LlOp::IntBetween,
                    vec![cint(min), mn, cint(max)],
                    LlType::BOOL,
                );
                Ok((b, self.intern_repr(Repr::Bool)))
            }
            Op::Hint => Ok((hop.args_v[0], hop.args_r[0])),
            Op::CallArgs => {
                self.normalize_call_args(hop, llops)?;
                self.rtype_call(hop, llops)
            }
            other => Err(TyperError::new(format!(
                "the operation `{}` is not supported by `run` yet",
                other.name()
            ))),
        }
    }

    fn rtype_binary(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let base = base_op(op);
        let rr = hop.r_result;
        match self.repr(rr).clone() {
            Repr::Int(kind) => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let b = self.inputarg(llops, hop, 1, rr)?;
                let signed = matches!(kind, IntKind::Signed | IntKind::LongLong);
                let suffix = match base {
                    Op::Add => "add",
                    Op::Sub => "sub",
                    Op::Mul => "mul",
                    Op::FloorDiv | Op::Div if signed => "py_div",
                    Op::Mod if signed => "py_mod",
                    Op::FloorDiv | Op::Div => "floordiv",
                    Op::Mod => "mod",
                    Op::And => "and",
                    Op::Or => "or",
                    Op::Xor => "xor",
                    Op::LShift => "lshift",
                    Op::RShift => "rshift",
                    _ => {
                        return Err(TyperError::new(format!(
                            "`{}` of integers is not supported",
                            op.name()
                        )))
                    }
                };
                let prefix = int_prefix(kind);
                let ty = self.lltype(rr);
                if self.feeds_ovfcheck(hop) {
                    let name = match suffix {
                        "py_div" | "py_mod" => format!("{}_{}_ovf_zer", prefix, suffix),
                        _ => format!("{}_{}_ovf", prefix, suffix),
                    };
                    let o = llop(&name)?;
                    self.pending_ovf
                        .insert((hop.g, hop.op.result), (o, vec![a, b], ty));
                    return Ok((cvoid(), rr));
                }
                let divlike = matches!(base, Op::FloorDiv | Op::Div | Op::Mod);
                let name = if divlike && self.has_implicit_exception(hop, "ZeroDivisionError") {
                    hop.exception_is_here(llops);
                    format!("{}_{}_zer", prefix, suffix)
                } else {
                    format!("{}_{}", prefix, suffix)
                };
                Ok((llops.genop(llop(&name)?, vec![a, b], ty), rr))
            }
            Repr::Bool => {
                let si = self.intern_repr(Repr::Int(IntKind::Signed));
                let a = self.inputarg(llops, hop, 0, si)?;
                let b = self.inputarg(llops, hop, 1, si)?;
                let o = match base {
                    Op::And => LlOp::IntAnd,
                    Op::Or => LlOp::IntOr,
                    Op::Xor => LlOp::IntXor,
                    _ => return Err(TyperError::new("boolean arithmetic")),
                };
                let r = llops.genop(o, vec![a, b], LlType::SIGNED);
                Ok((llops.genop(LlOp::IntIsTrue, vec![r], LlType::BOOL), rr))
            }
            Repr::Float => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let b = self.inputarg(llops, hop, 1, rr)?;
                let handled = self.has_implicit_exception(hop, "ZeroDivisionError");
                let o = match base {
                    Op::Add => LlOp::FloatAdd,
                    Op::Sub => LlOp::FloatSub,
                    Op::Mul => LlOp::FloatMul,
                    Op::TrueDiv | Op::Div if !handled => LlOp::FloatTrueDiv,
                    Op::TrueDiv | Op::Div | Op::FloorDiv | Op::Mod | Op::Pow => {
                        let f = match base {
                            Op::FloorDiv => RuntimeFn::FloatFloorDiv,
                            Op::Mod => RuntimeFn::FloatMod,
                            Op::Pow => RuntimeFn::FloatPow,
                            _ => RuntimeFn::FloatTrueDivZer,
                        };
                        let fp = self.runtime(f, &[LlType::FLOAT, LlType::FLOAT], LlType::FLOAT);
                        if handled {
                            hop.exception_is_here(llops);
                        }
                        return Ok((
                            llops.genop(LlOp::DirectCall, vec![fp, a, b], LlType::FLOAT),
                            rr,
                        ));
                    }
                    _ => return Err(TyperError::new(format!("`{}` of floats", op.name()))),
                };
                Ok((llops.genop(o, vec![a, b], LlType::FLOAT), rr))
            }
            Repr::Str | Repr::Unicode => {
                let rs = rr;
                let t = self.lltype(rs);
                match base {
                    Op::Add => {
                        let a = self.inputarg(llops, hop, 0, rs)?;
                        let b = self.inputarg(llops, hop, 1, rs)?;
                        let f = self.runtime(RuntimeFn::StrConcat, &[t, t], t);
                        Ok((llops.genop(LlOp::DirectCall, vec![f, a, b], t), rs))
                    }
                    Op::Mul => {
                        let si = self.intern_repr(Repr::Int(IntKind::Signed));
                        let (a, b) = if matches!(
                            self.repr(hop.args_r[0]),
                            Repr::Str | Repr::Char | Repr::Unicode | Repr::UniChar
                        ) {
                            (
                                self.inputarg(llops, hop, 0, rs)?,
                                self.inputarg(llops, hop, 1, si)?,
                            )
                        } else {
                            (
                                self.inputarg(llops, hop, 1, rs)?,
                                self.inputarg(llops, hop, 0, si)?,
                            )
                        };
                        let f = self.runtime(RuntimeFn::StrMul, &[t, LlType::SIGNED], t);
                        Ok((llops.genop(LlOp::DirectCall, vec![f, a, b], t), rs))
                    }
                    Op::Mod if self.repr(rs) == &Repr::Str => self.rtype_format(hop, llops),
                    _ => Err(TyperError::new(format!("`{}` of strings", op.name()))),
                }
            }
            Repr::List { .. } => {
                let tl = self.lltype(rr);
                match (op, base) {
                    (Op::InplaceAdd, _) => {
                        let a = self.inputarg(llops, hop, 0, rr)?;
                        let tb = self.lltype(hop.args_r[1]);
                        let f = self.runtime(RuntimeFn::ListExtend, &[tl, tb], LlType::VOID);
                        llops.genop(LlOp::DirectCall, vec![f, a, hop.args_v[1]], LlType::VOID);
                        Ok((a, rr))
                    }
                    (_, Op::Add) => {
                        let (ta, tb) = (self.lltype(hop.args_r[0]), self.lltype(hop.args_r[1]));
                        let f = self.runtime(RuntimeFn::ListConcat, &[ta, tb], tl);
                        Ok((
                            llops.genop(
                                LlOp::DirectCall,
                                vec![f, hop.args_v[0], hop.args_v[1]],
                                tl,
                            ),
                            rr,
                        ))
                    }
                    (_, Op::Mul) => {
                        let si = self.intern_repr(Repr::Int(IntKind::Signed));
                        let (li, ni) = if matches!(self.repr(hop.args_r[0]), Repr::List { .. }) {
                            (0, 1)
                        } else {
                            (1, 0)
                        };
                        let n = self.inputarg(llops, hop, ni, si)?;
                        let tlist = self.lltype(hop.args_r[li]);
                        let f = self.runtime(RuntimeFn::ListMul, &[tlist, LlType::SIGNED], tl);
                        Ok((
                            llops.genop(LlOp::DirectCall, vec![f, hop.args_v[li], n], tl),
                            rr,
                        ))
                    }
                    _ => Err(TyperError::new(format!("`{}` of lists", op.name()))),
                }
            }
            Repr::Tuple(items) if base == Op::Add => {
                let mut vals = Vec::new();
                for i in 0..2 {
                    let Repr::Tuple(its) = self.repr(hop.args_r[i]).clone() else {
                        return Err(TyperError::new("adding a tuple to a non-tuple"));
                    };
                    let st = self.types.pointee(self.lltype(hop.args_r[i])).unwrap();
                    let _ = st;
                    for (k, r) in its.iter().enumerate() {
                        let t = self.lltype(*r);
                        let v = llops.genop(
                            LlOp::GetField,
                            vec![hop.args_v[i], cfield(&format!("item{}", k))],
                            t,
                        );
                        vals.push((v, *r));
                    }
                }
                let mut conv = Vec::new();
                for ((v, r), to) in vals.into_iter().zip(items) {
                    conv.push(self.convertvar(llops, v, r, to)?);
                }
                Ok((self.build_tuple(llops, rr, conv), rr))
            }
            _ => Err(TyperError::new(format!(
                "`{}` of {} is not supported by `run` yet",
                op.name(),
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.s_result)
            ))),
        }
    }

    /// Whether the result of this operation is checked by the next `ovfcheck()` call.
    fn feeds_ovfcheck(&self, hop: &Hop) -> bool {
        let hl = &self.ann.graphs[hop.g as usize];
        let block = hl.block(crate::flowspace::BlockId(hop.position.block));
        block.operations[hop.position.op as usize + 1..]
            .iter()
            .any(|o| {
                o.opname == Op::SimpleCall
                    && o.args.get(1) == Some(&Hlvalue::Var(hop.op.result))
                    && self.builtin_name(o.args[0]).as_deref() == Some("rarithmetic.ovfcheck")
            })
    }

    /// The name of a built-in function constant.
    pub fn builtin_name(&self, v: Hlvalue) -> Option<std::rc::Rc<str>> {
        match v {
            Hlvalue::Const(Value::Obj(id)) => match self.objheap.get(id) {
                Object::Builtin { name, .. } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn build_tuple(&mut self, llops: &mut LlOps, rr: ReprId, items: Vec<Hlvalue>) -> Hlvalue {
        let tr = self.lltype(rr);
        let st = self.types.pointee(tr).unwrap();
        let t = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
        for (i, v) in items.into_iter().enumerate() {
            llops.genop(
                LlOp::SetField,
                vec![t, cfield(&format!("item{}", i)), v],
                LlType::VOID,
            );
        }
        t
    }

    fn rtype_compare(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let rb = self.intern_repr(Repr::Bool);
        let (r0, r1) = (
            self.repr(hop.args_r[0]).clone(),
            self.repr(hop.args_r[1]).clone(),
        );
        let suffix = match op {
            Op::Lt => "lt",
            Op::Le => "le",
            Op::Eq | Op::Is => "eq",
            Op::Ne => "ne",
            Op::Gt => "gt",
            _ => "ge",
        };
        let is_num = |r: &Repr| matches!(r, Repr::Int(_) | Repr::Bool | Repr::Float);
        if is_num(&r0) && is_num(&r1) {
            let target = if matches!(r0, Repr::Float) || matches!(r1, Repr::Float) {
                Repr::Float
            } else {
                match (&r0, &r1) {
                    (Repr::Int(k), _) if *k != IntKind::Signed => Repr::Int(*k),
                    (_, Repr::Int(k)) if *k != IntKind::Signed => Repr::Int(*k),
                    _ => Repr::Int(IntKind::Signed),
                }
            };
            let prefix = match &target {
                Repr::Float => "float",
                Repr::Int(k) => int_prefix(*k),
                _ => unreachable!(),
            };
            let rt = self.intern_repr(target);
            let a = self.inputarg(llops, hop, 0, rt)?;
            let b = self.inputarg(llops, hop, 1, rt)?;
            let o = llop(&format!("{}_{}", prefix, suffix))?;
            return Ok((llops.genop(o, vec![a, b], LlType::BOOL), rb));
        }
        match (&r0, &r1) {
            (Repr::Char, Repr::Char) | (Repr::UniChar, Repr::UniChar) => {
                let prefix = if r0 == Repr::Char { "char" } else { "unichar" };
                let o = llop(&format!("{}_{}", prefix, suffix))?;
                let (a, b) = (hop.args_v[0], hop.args_v[1]);
                Ok((llops.genop(o, vec![a, b], LlType::BOOL), rb))
            }
            (Repr::Str | Repr::Char, Repr::Str | Repr::Char)
            | (Repr::Unicode | Repr::UniChar, Repr::Unicode | Repr::UniChar) => {
                let rs = if matches!(r0, Repr::Str | Repr::Char) {
                    self.intern_repr(Repr::Str)
                } else {
                    self.intern_repr(Repr::Unicode)
                };
                let a = self.inputarg(llops, hop, 0, rs)?;
                let b = self.inputarg(llops, hop, 1, rs)?;
                let t = self.lltype(rs);
                if matches!(op, Op::Is) {
                    return Ok((llops.genop(LlOp::PtrEq, vec![a, b], LlType::BOOL), rb));
                }
                if matches!(op, Op::Eq | Op::Ne) {
                    let f = self.runtime(RuntimeFn::StrEq, &[t, t], LlType::BOOL);
                    let e = llops.genop(LlOp::DirectCall, vec![f, a, b], LlType::BOOL);
                    if op == Op::Eq {
                        return Ok((e, rb));
                    }
                    let ei = llops.genop(LlOp::CastBoolToInt, vec![e], LlType::SIGNED);
                    return Ok((
                        llops.genop(LlOp::IntEq, vec![ei, cint(0)], LlType::BOOL),
                        rb,
                    ));
                }
                let f = self.runtime(RuntimeFn::StrCmp, &[t, t], LlType::SIGNED);
                let c = llops.genop(LlOp::DirectCall, vec![f, a, b], LlType::SIGNED);
                let o = llop(&format!("int_{}", suffix))?;
                Ok((llops.genop(o, vec![c, cint(0)], LlType::BOOL), rb))
            }
            (Repr::Void, Repr::Void) => {
                let same = hop.op.args[0] == hop.op.args[1]
                    || (hop.args_s[0].konst().is_some()
                        && hop.args_s[0].konst() == hop.args_s[1].konst());
                let r = if matches!(op, Op::Ne) { !same } else { same };
                Ok((cbool(r), rb))
            }
            (Repr::Void, _) | (_, Repr::Void) => {
                // comparison with None
                let (v, r) = if r0 == Repr::Void {
                    (hop.args_v[1], hop.args_r[1])
                } else {
                    (hop.args_v[0], hop.args_r[0])
                };
                if !self.types.is_ptr(self.lltype(r)) {
                    return Ok((cbool(matches!(op, Op::Ne)), rb));
                }
                let o = if matches!(op, Op::Ne) {
                    LlOp::PtrNonZero
                } else {
                    LlOp::PtrIsZero
                };
                Ok((llops.genop(o, vec![v], LlType::BOOL), rb))
            }
            (Repr::Tuple(_), Repr::Tuple(_)) if matches!(op, Op::Eq | Op::Ne) => {
                let (ta, tb) = (self.lltype(hop.args_r[0]), self.lltype(hop.args_r[1]));
                let f = self.runtime(RuntimeFn::TupleEq, &[ta, tb], LlType::BOOL);
                let e = llops.genop(
                    LlOp::DirectCall,
                    vec![f, hop.args_v[0], hop.args_v[1]],
                    LlType::BOOL,
                );
                self.negate_if(llops, e, op == Op::Ne, rb)
            }
            (Repr::List { .. }, Repr::List { .. }) if matches!(op, Op::Eq | Op::Ne) => {
                let (ta, tb) = (self.lltype(hop.args_r[0]), self.lltype(hop.args_r[1]));
                let f = self.runtime(RuntimeFn::ListEq, &[ta, tb], LlType::BOOL);
                let e = llops.genop(
                    LlOp::DirectCall,
                    vec![f, hop.args_v[0], hop.args_v[1]],
                    LlType::BOOL,
                );
                self.negate_if(llops, e, op == Op::Ne, rb)
            }
            _ if self.types.is_ptr(self.lltype(hop.args_r[0]))
                && self.types.is_ptr(self.lltype(hop.args_r[1]))
                && matches!(op, Op::Eq | Op::Ne | Op::Is) =>
            {
                let o = if op == Op::Ne {
                    LlOp::PtrNe
                } else {
                    LlOp::PtrEq
                };
                Ok((
                    llops.genop(o, vec![hop.args_v[0], hop.args_v[1]], LlType::BOOL),
                    rb,
                ))
            }
            _ => Err(TyperError::new(format!(
                "comparing {} with {} is not supported by `run` yet",
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.args_s[0]),
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.args_s[1])
            ))),
        }
    }

    fn negate_if(&mut self, llops: &mut LlOps, b: Hlvalue, neg: bool, rb: ReprId) -> R {
        if !neg {
            return Ok((b, rb));
        }
        let i = llops.genop(LlOp::CastBoolToInt, vec![b], LlType::SIGNED);
        Ok((llops.genop(LlOp::IntEq, vec![i, cint(0)], LlType::BOOL), rb))
    }

    fn rtype_unary(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let rr = hop.r_result;
        match self.repr(rr).clone() {
            Repr::Int(kind) => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let ty = self.lltype(rr);
                if op == Op::Pos {
                    return Ok((a, rr));
                }
                let suffix = match op {
                    Op::Neg => "neg",
                    Op::Invert => "invert",
                    _ => "abs",
                };
                if self.feeds_ovfcheck(hop) {
                    let o = llop(&format!("{}_{}_ovf", int_prefix(kind), suffix))?;
                    self.pending_ovf
                        .insert((hop.g, hop.op.result), (o, vec![a], ty));
                    return Ok((cvoid(), rr));
                }
                if kind == IntKind::Unsigned || kind == IntKind::ULongLong {
                    if op == Op::Neg {
                        let z = Hlvalue::Ll(LlConstant {
                            ty,
                            value: LlValue::Uint(0),
                        });
                        let o = llop(&format!("{}_sub", int_prefix(kind)))?;
                        return Ok((llops.genop(o, vec![z, a], ty), rr));
                    }
                    if op == Op::Abs {
                        return Ok((a, rr));
                    }
                }
                let o = llop(&format!("{}_{}", int_prefix(kind), suffix))?;
                Ok((llops.genop(o, vec![a], ty), rr))
            }
            Repr::Float => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let o = match op {
                    Op::Neg => LlOp::FloatNeg,
                    Op::Abs => LlOp::FloatAbs,
                    Op::Pos => return Ok((a, rr)),
                    _ => return Err(TyperError::new("~ of a float")),
                };
                Ok((llops.genop(o, vec![a], LlType::FLOAT), rr))
            }
            _ => Err(TyperError::new(format!(
                "`{}` of {} is not supported by `run` yet",
                op.name(),
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.args_s[0])
            ))),
        }
    }

    /// The truth value of `v` (held in Repr `r`).
    pub fn is_true(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
        s: &SomeValue,
    ) -> Result<Hlvalue, TyperError> {
        if let Some(k) = s.konst() {
            if let Some(b) = match k {
                Value::Bool(b) => Some(b),
                Value::Int(i) => Some(i != 0),
                Value::None => Some(false),
                _ => None,
            } {
                return Ok(cbool(b));
            }
        }
        let ty = self.lltype(r);
        Ok(match self.repr(r).clone() {
            Repr::Bool => v,
            Repr::Int(k) => llops.genop(
                llop(&format!("{}_is_true", int_prefix(k)))?,
                vec![v],
                LlType::BOOL,
            ),
            Repr::Float => llops.genop(LlOp::FloatIsTrue, vec![v], LlType::BOOL),
            Repr::Char => {
                let z = Hlvalue::Ll(LlConstant {
                    ty: LlType::CHAR,
                    value: LlValue::Char(0),
                });
                llops.genop(LlOp::CharNe, vec![v, z], LlType::BOOL)
            }
            Repr::Str | Repr::Unicode => {
                let f = self.runtime(RuntimeFn::StrIsTrue, &[ty], LlType::BOOL);
                llops.genop(LlOp::DirectCall, vec![f, v], LlType::BOOL)
            }
            Repr::List { .. } | Repr::Dict { .. } => {
                let f = self.runtime(RuntimeFn::ListIsTrue, &[ty], LlType::BOOL);
                llops.genop(LlOp::DirectCall, vec![f, v], LlType::BOOL)
            }
            Repr::Void => cbool(!matches!(s, SomeValue::None)),
            _ if self.types.is_ptr(ty) => llops.genop(LlOp::PtrNonZero, vec![v], LlType::BOOL),
            other => {
                return Err(TyperError::new(format!(
                    "truth value of {:?} is not supported by `run` yet",
                    other
                )))
            }
        })
    }

    fn rtype_len(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        let out = match self.repr(r).clone() {
            Repr::Str | Repr::Unicode => llops.genop(
                LlOp::GetInteriorArraySize,
                vec![v, cfield("chars")],
                LlType::SIGNED,
            ),
            Repr::Char | Repr::UniChar => cint(1),
            Repr::List { fixed: true, .. } => {
                llops.genop(LlOp::GetArraySize, vec![v], LlType::SIGNED)
            }
            Repr::List { fixed: false, .. } => {
                llops.genop(LlOp::GetField, vec![v, cfield("length")], LlType::SIGNED)
            }
            Repr::Tuple(items) => cint(items.len() as i64),
            Repr::Dict { .. } => {
                let f = self.runtime(RuntimeFn::DictLen, &[ty], LlType::SIGNED);
                llops.genop(LlOp::DirectCall, vec![f, v], LlType::SIGNED)
            }
            _ => {
                return Err(TyperError::new(
                    "len() of this value is not supported by `run` yet",
                ))
            }
        };
        Ok((out, si))
    }

    /// `str(v)` (or `repr(v)`) as a string.
    pub fn to_str(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
        repr: bool,
    ) -> Result<Hlvalue, TyperError> {
        let t = self.str_ptr;
        let ty = self.lltype(r);
        let call =
            |rt: &mut Self, llops: &mut LlOps, f: RuntimeFn, args: Vec<Hlvalue>, tys: &[LlType]| {
                let fp = rt.runtime(f, tys, t);
                let mut a = vec![fp];
                a.extend(args);
                llops.genop(LlOp::DirectCall, a, t)
            };
        Ok(match self.repr(r).clone() {
            Repr::Str if !repr => v,
            Repr::Str => call(self, llops, RuntimeFn::StrRepr, vec![v], &[t]),
            Repr::Char => {
                let s = call(self, llops, RuntimeFn::CharToStr, vec![v], &[LlType::CHAR]);
                if repr {
                    call(self, llops, RuntimeFn::StrRepr, vec![s], &[t])
                } else {
                    s
                }
            }
            Repr::Int(IntKind::Signed | IntKind::LongLong) => {
                call(self, llops, RuntimeFn::IntToStr, vec![v], &[ty])
            }
            Repr::Int(_) => call(self, llops, RuntimeFn::UintToStr, vec![v], &[ty]),
            Repr::Bool => call(self, llops, RuntimeFn::BoolToStr, vec![v], &[LlType::BOOL]),
            Repr::Float if repr => call(
                self,
                llops,
                RuntimeFn::FloatToRepr,
                vec![v],
                &[LlType::FLOAT],
            ),
            Repr::Float => call(
                self,
                llops,
                RuntimeFn::FloatToStr,
                vec![v],
                &[LlType::FLOAT],
            ),
            Repr::List { .. } | Repr::Tuple(_) => {
                call(self, llops, RuntimeFn::ListStr, vec![v], &[ty])
            }
            Repr::Void => {
                let p = self.prebuilt_str(b"None");
                Hlvalue::Ll(LlConstant {
                    ty: t,
                    value: LlValue::Ptr(p),
                })
            }
            _ => {
                return Err(TyperError::new(format!(
                    "str() of {} is not supported by `run` yet",
                    self.types.name(ty)
                )))
            }
        })
    }

    fn rtype_convert(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let rr = hop.r_result;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let tr = self.lltype(rr);
        let src = self.repr(r).clone();
        let out = match (op, &src) {
            (Op::Ord, Repr::Char) => llops.genop(LlOp::CastCharToInt, vec![v], LlType::SIGNED),
            (Op::Ord, Repr::UniChar) => {
                llops.genop(LlOp::CastUnicharToInt, vec![v], LlType::SIGNED)
            }
            (Op::Int, Repr::Float) => llops.genop(LlOp::CastFloatToInt, vec![v], LlType::SIGNED),
            (Op::Int | Op::Float, Repr::Str | Repr::Char) => {
                let rs = self.intern_repr(Repr::Str);
                let s = self.convertvar(llops, v, r, rs)?;
                let f = if op == Op::Int {
                    RuntimeFn::StrToInt
                } else {
                    RuntimeFn::StrToFloat
                };
                let fp = self.runtime(f, &[self.str_ptr, LlType::SIGNED], tr);
                if self.has_implicit_exception(hop, "ValueError") {
                    hop.exception_is_here(llops);
                }
                llops.genop(LlOp::DirectCall, vec![fp, s, super::hop::cint(10)], tr)
            }
            (Op::Int | Op::Float, _) => self.convertvar(llops, v, r, rr)?,
            (Op::Hex | Op::Oct, _) => {
                let si = self.intern_repr(Repr::Int(IntKind::Signed));
                let i = self.convertvar(llops, v, r, si)?;
                let f = if op == Op::Hex {
                    RuntimeFn::IntToHex
                } else {
                    RuntimeFn::IntToOct
                };
                let fp = self.runtime(f, &[LlType::SIGNED], self.str_ptr);
                llops.genop(LlOp::DirectCall, vec![fp, i], self.str_ptr)
            }
            _ => {
                return Err(TyperError::new(format!(
                    "`{}` of this value is not supported by `run` yet",
                    op.name()
                )))
            }
        };
        Ok((out, rr))
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

    fn rtype_getattr(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let Hlvalue::Const(name) = hop.op.args[1] else {
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
            Repr::Method { self_repr, .. } | Repr::BuiltinMethod { self_repr, .. } => {
                let s = self.convertvar(llops, v, r, self_repr)?;
                return Ok((s, rr));
            }
            _ => {}
        }
        match self.repr(r).clone() {
            Repr::Instance(_) | Repr::Object if name == "__class__" => {
                let cr = self.intern_repr(Repr::Class(None));
                let t = self.typeptr(llops, v, r)?;
                Ok((t, cr))
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
                    let sr = match slot {
                        ClassSlot::Method { repr } | ClassSlot::Constant { repr } => repr,
                    };
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

    fn rtype_setattr(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let Hlvalue::Const(name) = hop.op.args[1] else {
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

    fn rtype_getitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        let tr = self.lltype(rr);
        match self.repr(r).clone() {
            Repr::List { item, fixed } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let handled = self.has_implicit_exception(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    let arr = if fixed {
                        v
                    } else {
                        let at = self
                            .types
                            .field_type(self.types.pointee(ty).unwrap(), "items")
                            .unwrap();
                        llops.genop(LlOp::GetField, vec![v, cfield("items")], at)
                    };
                    let it = self.lltype(item);
                    return Ok((llops.genop(LlOp::GetArrayItem, vec![arr, i], it), item));
                }
                let it = self.lltype(item);
                let f = self.runtime(RuntimeFn::ListGetItem, &[ty, LlType::SIGNED], it);
                if handled {
                    hop.exception_is_here(llops);
                }
                Ok((llops.genop(LlOp::DirectCall, vec![f, v, i], it), item))
            }
            Repr::Str | Repr::Unicode => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let uni = matches!(self.repr(r), Repr::Unicode);
                let rc = self.intern_repr(if uni { Repr::UniChar } else { Repr::Char });
                let ct = self.lltype(rc);
                let handled = self.has_implicit_exception(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    return Ok((
                        llops.genop(LlOp::GetInteriorField, vec![v, cfield("chars"), i], ct),
                        rc,
                    ));
                }
                let f = self.runtime(RuntimeFn::StrGetItem, &[ty, LlType::SIGNED], ct);
                if handled {
                    hop.exception_is_here(llops);
                }
                Ok((llops.genop(LlOp::DirectCall, vec![f, v, i], ct), rc))
            }
            Repr::Tuple(items) => {
                let Some(Value::Int(mut k)) = hop.args_s[1].konst() else {
                    return Err(TyperError::new("tuple index must be a constant"));
                };
                if k < 0 {
                    k += items.len() as i64;
                }
                let ir = items[k as usize];
                let it = self.lltype(ir);
                Ok((
                    llops.genop(LlOp::GetField, vec![v, cfield(&format!("item{}", k))], it),
                    ir,
                ))
            }
            Repr::Dict { key, value, .. } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                let tk = self.lltype(key);
                let f = self.runtime(RuntimeFn::DictGetItem, &[ty, tk], self.lltype(value));
                if self.has_implicit_exception(hop, "KeyError") {
                    hop.exception_is_here(llops);
                }
                let _ = tr;
                Ok((
                    llops.genop(LlOp::DirectCall, vec![f, v, k], self.lltype(value)),
                    value,
                ))
            }
            _ => Err(TyperError::new(format!(
                "indexing {} is not supported by `run` yet",
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.args_s[0])
            ))),
        }
    }

    fn rtype_setitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        match self.repr(r).clone() {
            Repr::List { item, fixed } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let x = self.inputarg(llops, hop, 2, item)?;
                let handled = self.has_implicit_exception(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    let arr = if fixed {
                        v
                    } else {
                        let at = self
                            .types
                            .field_type(self.types.pointee(ty).unwrap(), "items")
                            .unwrap();
                        llops.genop(LlOp::GetField, vec![v, cfield("items")], at)
                    };
                    llops.genop(LlOp::SetArrayItem, vec![arr, i, x], LlType::VOID);
                    return Ok((cvoid(), void));
                }
                let it = self.lltype(item);
                let f = self.runtime(
                    RuntimeFn::ListSetItem,
                    &[ty, LlType::SIGNED, it],
                    LlType::VOID,
                );
                if handled {
                    hop.exception_is_here(llops);
                }
                llops.genop(LlOp::DirectCall, vec![f, v, i, x], LlType::VOID);
                Ok((cvoid(), void))
            }
            Repr::Dict { key, value, .. } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                let x = self.inputarg(llops, hop, 2, value)?;
                let (tk, tv) = (self.lltype(key), self.lltype(value));
                let f = self.runtime(RuntimeFn::DictSetItem, &[ty, tk, tv], LlType::VOID);
                llops.genop(LlOp::DirectCall, vec![f, v, k, x], LlType::VOID);
                Ok((cvoid(), void))
            }
            _ => Err(TyperError::new(
                "item assignment of this value is not supported by `run` yet",
            )),
        }
    }

    fn rtype_delitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        let (f, k) = match self.repr(r).clone() {
            Repr::List { .. } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                (
                    self.runtime(RuntimeFn::ListDelItem, &[ty, LlType::SIGNED], LlType::VOID),
                    i,
                )
            }
            Repr::Dict { key, .. } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                let tk = self.lltype(key);
                (
                    self.runtime(RuntimeFn::DictDelItem, &[ty, tk], LlType::VOID),
                    k,
                )
            }
            _ => {
                return Err(TyperError::new(
                    "del of an item of this value is not supported by `run` yet",
                ))
            }
        };
        if self.has_implicit_exception(hop, "IndexError")
            || self.has_implicit_exception(hop, "KeyError")
        {
            hop.exception_is_here(llops);
        }
        llops.genop(LlOp::DirectCall, vec![f, v, k], LlType::VOID);
        Ok((cvoid(), void))
    }

    /// A slice bound: the value, or the default for None.
    fn slice_bound(
        &mut self,
        llops: &mut LlOps,
        hop: &Hop,
        i: usize,
        default: i64,
    ) -> Result<Hlvalue, TyperError> {
        if matches!(hop.args_s[i], SomeValue::None) {
            return Ok(cint(default));
        }
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        self.inputarg(llops, hop, i, si)
    }

    fn rtype_getslice(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let a = self.slice_bound(llops, hop, 1, 0)?;
        let b = self.slice_bound(llops, hop, 2, i64::MAX)?;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        let tr = self.lltype(rr);
        let f = match self.repr(r) {
            Repr::Str | Repr::Unicode => RuntimeFn::StrSlice,
            Repr::List { .. } => RuntimeFn::ListSlice,
            _ => {
                return Err(TyperError::new(
                    "slicing this value is not supported by `run` yet",
                ))
            }
        };
        let fp = self.runtime(f, &[ty, LlType::SIGNED, LlType::SIGNED], tr);
        Ok((llops.genop(LlOp::DirectCall, vec![fp, v, a, b], tr), rr))
    }

    fn rtype_contains(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rb = self.intern_repr(Repr::Bool);
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        let (f, x, tx) = match self.repr(r).clone() {
            Repr::List { item, .. } => {
                let x = self.inputarg(llops, hop, 1, item)?;
                (RuntimeFn::ListContains, x, self.lltype(item))
            }
            Repr::Dict { key, .. } => {
                let x = self.inputarg(llops, hop, 1, key)?;
                (RuntimeFn::DictContains, x, self.lltype(key))
            }
            Repr::Str | Repr::Unicode => {
                let x = self.inputarg(llops, hop, 1, r)?;
                (RuntimeFn::StrContains, x, ty)
            }
            Repr::Tuple(items) => {
                // `x in (a, b, c)`: compare with each item
                let _ = items;
                return Err(TyperError::new(
                    "`in` of a tuple is not supported by `run` yet",
                ));
            }
            _ => {
                return Err(TyperError::new(
                    "`in` of this value is not supported by `run` yet",
                ))
            }
        };
        let fp = self.runtime(f, &[ty, tx], LlType::BOOL);
        Ok((
            llops.genop(LlOp::DirectCall, vec![fp, v, x], LlType::BOOL),
            rb,
        ))
    }

    fn rtype_iter(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        if matches!(
            self.repr(hop.args_r[0]),
            Repr::Iter { .. } | Repr::Generator(_)
        ) {
            // iter() of an iterator is itself
            return Ok((hop.args_v[0], hop.args_r[0]));
        }
        match self.repr(rr).clone() {
            Repr::Iter { container, .. } => {
                let c = self.inputarg(llops, hop, 0, container)?;
                let st = self.types.pointee(tr).unwrap();
                let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                llops.genop(
                    LlOp::SetField,
                    vec![it, cfield("container"), c],
                    LlType::VOID,
                );
                Ok((it, rr))
            }
            _ => Err(TyperError::new(
                "iterating over this value is not supported by `run` yet",
            )),
        }
    }

    fn rtype_newlist(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let Repr::List { item, fixed } = self.repr(rr).clone() else {
            return Err(TyperError::new("newlist of a non-list"));
        };
        let n = hop.nargs();
        let mut vals = Vec::new();
        for i in 0..n {
            vals.push(self.inputarg(llops, hop, i, item)?);
        }
        Ok((self.build_list(llops, rr, item, fixed, vals), rr))
    }

    pub fn build_list(
        &mut self,
        llops: &mut LlOps,
        rr: ReprId,
        item: ReprId,
        fixed: bool,
        vals: Vec<Hlvalue>,
    ) -> Hlvalue {
        let tr = self.lltype(rr);
        let it = self.lltype(item);
        let arr = self.types.gc_array(it);
        let arr_ptr = self.types.ptr(arr);
        let n = vals.len() as i64;
        let a = llops.genop(LlOp::MallocVarsize, vec![ctype(arr), cint(n)], arr_ptr);
        for (i, v) in vals.into_iter().enumerate() {
            llops.genop(LlOp::SetArrayItem, vec![a, cint(i as i64), v], LlType::VOID);
        }
        if fixed {
            return a;
        }
        let st = self.types.pointee(tr).unwrap();
        let l = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
        llops.genop(
            LlOp::SetField,
            vec![l, cfield("length"), cint(n)],
            LlType::VOID,
        );
        llops.genop(LlOp::SetField, vec![l, cfield("items"), a], LlType::VOID);
        l
    }

    fn rtype_isinstance(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rb = self.intern_repr(Repr::Bool);
        let Hlvalue::Const(Value::Obj(cls)) = hop.op.args[1] else {
            return Err(TyperError::new(
                "isinstance() with a class that is not a constant",
            ));
        };
        if let Some(k) = hop.s_result.konst() {
            return Ok((Hlvalue::Ll(self.const_value(k, rb)?), rb));
        }
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        if !matches!(self.repr(r), Repr::Instance(_) | Repr::Object) {
            return Err(TyperError::new(
                "isinstance() of a non-instance is not supported by `run` yet",
            ));
        }
        let (min, max) = self.class_range(cls);
        let or = self.intern_repr(Repr::Object);
        let o = self.convertvar(llops, v, r, or)?;
        let to = self.lltype(or);
        let f = self.runtime(
            RuntimeFn::IsInstance,
            &[to, LlType::SIGNED, LlType::SIGNED],
            LlType::BOOL,
        );
        Ok((
            llops.genop(
                LlOp::DirectCall,
                vec![f, o, cint(min), cint(max)],
                LlType::BOOL,
            ),
            rb,
        ))
    }

    /// `'fmt' % args`: the format is parsed now; each directive becomes a conversion of its
    /// argument to a string, and the pieces are concatenated.
    fn rtype_format(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rs = self.intern_repr(Repr::Str);
        let Some(fmt) = hop.args_s[0]
            .konst()
            .and_then(|k| self.objheap.str_value(k).map(|b| b.to_vec()))
        else {
            return Err(TyperError::new("`%` with a format that is not a constant"));
        };
        // the arguments: a tuple's items, or a single value
        let mut args: Vec<(Hlvalue, ReprId)> = Vec::new();
        match self.repr(hop.args_r[1]).clone() {
            Repr::Tuple(items) => {
                for (k, r) in items.iter().enumerate() {
                    let t = self.lltype(*r);
                    let v = llops.genop(
                        LlOp::GetField,
                        vec![hop.args_v[1], cfield(&format!("item{}", k))],
                        t,
                    );
                    args.push((v, *r));
                }
            }
            _ => args.push((hop.args_v[1], hop.args_r[1])),
        }
        let t = self.str_ptr;
        let mut pieces: Vec<Hlvalue> = Vec::new();
        let mut lit = Vec::new();
        let mut i = 0;
        let mut argi = 0;
        while i < fmt.len() {
            if fmt[i] != b'%' {
                lit.push(fmt[i]);
                i += 1;
                continue;
            }
            i += 1;
            let start = i;
            while i < fmt.len()
                && (fmt[i] == b'-'
                    || fmt[i] == b'.'
                    || fmt[i].is_ascii_digit()
                    || fmt[i] == b'+'
                    || fmt[i] == b' '
                    || fmt[i] == b'#')
            {
                i += 1;
            }
            let spec = String::from_utf8_lossy(&fmt[start..i]).into_owned();
            let Some(&code) = fmt.get(i) else {
                return Err(TyperError::new("incomplete format"));
            };
            i += 1;
            if code == b'%' {
                lit.push(b'%');
                continue;
            }
            if !lit.is_empty() {
                let p = self.prebuilt_str(&lit);
                pieces.push(Hlvalue::Ll(LlConstant {
                    ty: t,
                    value: LlValue::Ptr(p),
                }));
                lit.clear();
            }
            let Some(&(v, r)) = args.get(argi) else {
                return Err(TyperError::new("not enough arguments for the format"));
            };
            argi += 1;
            let piece = match code {
                b's' if spec.is_empty() => self.to_str(llops, v, r, false)?,
                b'r' if spec.is_empty() => self.to_str(llops, v, r, true)?,
                b'd' | b'i' if spec.is_empty() => {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    let rr = match self.repr(r) {
                        Repr::Int(_) => r,
                        _ => si,
                    };
                    let x = self.convertvar(llops, v, r, rr)?;
                    self.to_str(llops, x, rr, false)?
                }
                b'x' | b'o' if spec.is_empty() => {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    let x = self.convertvar(llops, v, r, si)?;
                    let f = if code == b'x' {
                        RuntimeFn::IntToHex
                    } else {
                        RuntimeFn::IntToOct
                    };
                    // %x and %o: no 0x or 0 prefix, the sign before the digits
                    let fp = self.runtime(f, &[LlType::SIGNED, LlType::BOOL], t);
                    llops.genop(LlOp::DirectCall, vec![fp, x, cbool(false)], t)
                }
                b'c' => {
                    let rc = self.intern_repr(Repr::Char);
                    let x = self.convertvar(llops, v, r, rc)?;
                    self.to_str(llops, x, rc, false)?
                }
                b'f' | b'e' | b'g' | b'F' | b'E' | b'G' => {
                    let rf = self.intern_repr(Repr::Float);
                    let x = self.convertvar(llops, v, r, rf)?;
                    let prec: i64 = spec
                        .strip_prefix('.')
                        .and_then(|p| p.parse().ok())
                        .unwrap_or(if spec.is_empty() { 6 } else { -1 });
                    if prec < 0 {
                        return Err(TyperError::new(format!(
                            "the format %{}{} is not supported by `run` yet",
                            spec, code as char
                        )));
                    }
                    let fp = self.runtime(
                        RuntimeFn::FloatFormat,
                        &[LlType::FLOAT, LlType::CHAR, LlType::SIGNED],
                        t,
                    );
                    let c = Hlvalue::Ll(LlConstant {
                        ty: LlType::CHAR,
                        value: LlValue::Char(code),
                    });
                    llops.genop(LlOp::DirectCall, vec![fp, x, c, cint(prec)], t)
                }
                _ => {
                    return Err(TyperError::new(format!(
                        "the format %{}{} is not supported by `run` yet",
                        spec, code as char
                    )))
                }
            };
            pieces.push(piece);
        }
        if !lit.is_empty() {
            let p = self.prebuilt_str(&lit);
            pieces.push(Hlvalue::Ll(LlConstant {
                ty: t,
                value: LlValue::Ptr(p),
            }));
        }
        let mut acc = match pieces.first() {
            Some(p) => *p,
            None => {
                let p = self.prebuilt_str(b"");
                Hlvalue::Ll(LlConstant {
                    ty: t,
                    value: LlValue::Ptr(p),
                })
            }
        };
        let f = self.runtime(RuntimeFn::StrConcat, &[t, t], t);
        for p in pieces.into_iter().skip(1) {
            acc = llops.genop(LlOp::DirectCall, vec![f, acc, p], t);
        }
        Ok((acc, rs))
    }
}
