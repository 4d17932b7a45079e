//! The `rtype_*` of each high-level operation: which low-level operations replace it,
//! chosen by the Reprs of its arguments and result (seed 000: "each Repr subclass provides
//! a set of methods called rtype_op_xxx()"). Operations on strings, lists and dicts that
//! need loops call runtime functions (`lltypesystem::runtime`).

use super::hop::{cbool, cfield, cint, cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::builtins::BuiltinId;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType, LlValue};
use crate::objspace::object::{IntKind, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

/// The prefix of the low-level operations on integers of `kind`; narrow C integers have
/// none: the reference refuses arithmetic, comparisons and truth tests on them.
pub fn int_prefix(kind: IntKind) -> Result<&'static str, TyperError> {
    Ok(match kind {
        IntKind::Signed => "int",
        IntKind::Unsigned => "uint",
        IntKind::LongLong => "llong",
        IntKind::ULongLong => "ullong",
        IntKind::LongLongLong => "lllong",
        IntKind::Narrow { .. } => {
            return Err(TyperError::new(
                crate::annotator::model::narrow_arith_message(kind).unwrap_or_default(),
            ))
        }
    })
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
        if let Some(r) = self.rtype_ll_operation(hop, llops) {
            return r;
        }
        // special methods of instances (`len(x)` calls `x.__len__()`…)
        if hop.nargs() > 0 && matches!(self.repr(hop.args_r[0]), Repr::Instance(_)) {
            let special = match op {
                Op::Len => Some("__len__"),
                Op::GetItem => Some("__getitem__"),
                Op::SetItem => Some("__setitem__"),
                Op::GetSlice => Some("__getslice__"),
                Op::SetSlice => Some("__setslice__"),
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
            Op::GetAttr => match self.repr(hop.args_r[0]).clone() {
                Repr::External(i) => {
                    let name = self.const_attr_name(hop)?;
                    let args = vec![(hop.args_v[0], hop.args_r[0])];
                    self.ext_replay(hop, llops, i, false, &name, args)
                }
                _ => self.rtype_getattr(hop, llops),
            },
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
                if op == Op::SetSlice {
                    let (items, n) = self.list_parts(llops, hop.args_v[3], hop.args_r[3]);
                    let args = vec![v, a, b, items, n];
                    self.gendirectcall(llops, "ll_setslice", args, LlType::VOID)?;
                } else {
                    self.gendirectcall(llops, "ll_delslice", vec![v, a, b], LlType::VOID)?;
                }
                Ok((cvoid(), void))
            }
            Op::Contains => self.rtype_contains(hop, llops),
            Op::Iter => self.rtype_iter(hop, llops),
            Op::Next if matches!(self.repr(hop.args_r[0]), Repr::Generator(_)) => {
                let Repr::Generator(gg) = self.repr(hop.args_r[0]).clone() else {
                    unreachable!()
                };
                let (g, gr) = (hop.args_v[0], hop.args_r[0]);
                self.generator_next(hop, llops, gg, g, gr)
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
            Op::Next => self.rtype_next(hop, llops),
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
                let d = self.new_dict(llops, rr)?;
                if let Repr::Dict { key, value, .. } = self.repr(rr).clone() {
                    for i in (0..hop.nargs()).step_by(2) {
                        let k = self.inputarg(llops, hop, i, key)?;
                        let v = self.inputarg(llops, hop, i + 1, value)?;
                        self.dict_call(llops, "ll_dict_setitem", rr, vec![d, k, v], LlType::VOID)?;
                    }
                }
                Ok((d, rr))
            }
            Op::SimpleCall => self.rtype_call(hop, llops),
            Op::Type => {
                let cr = self.intern_repr(Repr::Class(None));
                let t = if hop.args_s[0].can_be_none() {
                    // type(None) is a null class pointer, not a dereference of None.
                    let or = self.intern_repr(Repr::Object);
                    let o = self.convertvar(llops, hop.args_v[0], hop.args_r[0], or)?;
                    let ct = self.lltype(cr);
                    self.gendirectcall(llops, "ll_inst_type", vec![o], ct)?
                } else {
                    self.typeptr(llops, hop.args_v[0], hop.args_r[0])?
                };
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

    pub(super) fn rtype_binary(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let base = base_op(op);
        let rr = hop.r_result;
        match self.repr(rr).clone() {
            Repr::Int(kind) => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                // the count of a 128-bit shift is a Signed, as the reference converts it
                // (a count held in a 128-bit value keeps its low word)
                let shift = matches!(base, Op::LShift | Op::RShift);
                let b = if shift && kind == IntKind::LongLongLong {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    self.inputarg(llops, hop, 1, si)?
                } else {
                    self.inputarg(llops, hop, 1, rr)?
                };
                let signed = matches!(
                    kind,
                    IntKind::Signed | IntKind::LongLong | IntKind::LongLongLong
                );
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
                let prefix = int_prefix(kind)?;
                let ty = self.lltype(rr);
                if self.feeds_ovfcheck(hop) {
                    // The reference's RTyper has overflow-checked `+`, `-` and `*` only
                    // for plain ints (`int_add_ovf`...): on an r_uint, an r_longlong or a
                    // C integer type `ovfcheck` is a TyperError.
                    if kind != IntKind::Signed && matches!(suffix, "add" | "sub" | "mul") {
                        return Err(TyperError::rejected(
                            "RPY205",
                            format!(
                                "`ovfcheck()` of `{}` on {} integers: overflow is only checked on plain ints (the reference has no `{}_{}_ovf`); compute it on ints, or leave out the ovfcheck (unsigned arithmetic wraps around)",
                                op.name(),
                                crate::annotator::model::int_kind_name(kind),
                                prefix,
                                suffix
                            ),
                        ));
                    }
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
                } else if kind == IntKind::Signed
                    && matches!(suffix, "py_div" | "py_mod")
                    && hop.args_s.iter().all(|s| s.is_nonneg())
                {
                    // Both operands annotated non-negative: the reference divides as C
                    // does, without the correction towards -infinity, so a value that
                    // wrapped around to negative divides truncating (its binary's result).
                    let c = if suffix == "py_div" {
                        "floordiv"
                    } else {
                        "mod"
                    };
                    format!("{}_{}", prefix, c)
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
                // the reference's float typing declares nothing
                let handled = self.catches(hop, "ZeroDivisionError");
                let o = match base {
                    Op::Add => LlOp::FloatAdd,
                    Op::Sub => LlOp::FloatSub,
                    Op::Mul => LlOp::FloatMul,
                    // float division by zero gives inf or nan, as C does: RPython never
                    // raises ZeroDivisionError for it
                    Op::TrueDiv | Op::Div => LlOp::FloatTrueDiv,
                    Op::FloorDiv | Op::Mod | Op::Pow => {
                        let f = match base {
                            Op::FloorDiv => RuntimeFn::FloatFloorDiv,
                            Op::Mod => RuntimeFn::FloatMod,
                            _ => RuntimeFn::FloatPow,
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
                        Ok((
                            self.gendirectcall(llops, "ll_strconcat", vec![a, b], t)?,
                            rs,
                        ))
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
                        Ok((self.gendirectcall(llops, "ll_str_mul", vec![a, b], t)?, rs))
                    }
                    Op::Mod => self.rtype_format(hop, llops),
                    _ => Err(TyperError::new(format!("`{}` of strings", op.name()))),
                }
            }
            // a bytearray with a bytearray, a str or a char (as a str): a new bytearray
            Repr::ByteArray if base == Op::Add => {
                let mut args = Vec::new();
                for i in 0..2 {
                    let r = match self.repr(hop.args_r[i]) {
                        Repr::ByteArray => rr,
                        _ => self.intern_repr(Repr::Str),
                    };
                    args.push(self.inputarg(llops, hop, i, r)?);
                }
                let t = self.lltype(rr);
                Ok((
                    self.gendirectcall(llops, "ll_bytearray_concat", args, t)?,
                    rr,
                ))
            }
            Repr::List { .. } => match (op, base) {
                (Op::InplaceAdd, _) => {
                    let a = self.inputarg(llops, hop, 0, rr)?;
                    let (o, ro) = (hop.args_v[1], hop.args_r[1]);
                    if matches!(self.repr(ro), Repr::Str | Repr::Unicode) {
                        self.gendirectcall(llops, "ll_extend_chars", vec![a, o], LlType::VOID)?;
                    } else {
                        let (items, n) = self.list_parts(llops, o, ro);
                        let args = vec![a, items, n];
                        self.gendirectcall(llops, "ll_extend", args, LlType::VOID)?;
                    }
                    Ok((a, rr))
                }
                (_, Op::Add) => {
                    let (xa, na) = self.list_parts(llops, hop.args_v[0], hop.args_r[0]);
                    let (xb, nb) = self.list_parts(llops, hop.args_v[1], hop.args_r[1]);
                    let args = vec![xa, na, xb, nb];
                    Ok((self.new_list_call(llops, "ll_concat", rr, args)?, rr))
                }
                (_, Op::Mul) => {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    let (li, ni) = if matches!(self.repr(hop.args_r[0]), Repr::List { .. }) {
                        (0, 1)
                    } else {
                        (1, 0)
                    };
                    let times = self.inputarg(llops, hop, ni, si)?;
                    if let (Some((x, rx)), Repr::List { item, .. }) =
                        (hop.literal_single_item, self.repr(rr).clone())
                    {
                        // `[x] * n`: n copies of x, as the reference's `alloc_and_set`
                        let x = self.convertvar(llops, x, rx, item)?;
                        let args = vec![times, x];
                        return Ok((self.new_list_call(llops, "ll_alloc_and_set", rr, args)?, rr));
                    }
                    let (items, n) = self.list_parts(llops, hop.args_v[li], hop.args_r[li]);
                    let args = vec![items, n, times];
                    Ok((self.new_list_call(llops, "ll_mul", rr, args)?, rr))
                }
                _ => Err(TyperError::new(format!("`{}` of lists", op.name()))),
            },
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
                    && self.builtin_id(o.args[0]) == Some(BuiltinId::RarithmeticOvfcheck)
            })
    }

    /// The built-in a constant is.
    pub fn builtin_id(&self, v: Hlvalue) -> Option<BuiltinId> {
        match v {
            Hlvalue::Const(Value::Obj(id)) => match self.objheap.get(id) {
                Object::Builtin { id, .. } => Some(*id),
                _ => None,
            },
            _ => None,
        }
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
                let kind = |r: &Repr| match r {
                    Repr::Int(k) => *k,
                    _ => IntKind::Signed,
                };
                let (k0, k1) = (kind(&r0), kind(&r1));
                Repr::Int(
                    crate::annotator::model::compute_restype(k0, k1)
                        .unwrap_or(if k0 != IntKind::Signed { k0 } else { k1 }),
                )
            };
            let prefix = match &target {
                Repr::Float => "float",
                Repr::Int(k) => int_prefix(*k)?,
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
                let rc = hop.args_r[0];
                let a = self.inputarg(llops, hop, 0, rc)?;
                let b = self.inputarg(llops, hop, 1, rc)?;
                Ok((llops.genop(o, vec![a, b], LlType::BOOL), rb))
            }
            (Repr::Char, Repr::UniChar) | (Repr::UniChar, Repr::Char) => {
                // the str character becomes the code point of its byte value
                let ru = self.intern_repr(Repr::UniChar);
                let a = self.inputarg(llops, hop, 0, ru)?;
                let b = self.inputarg(llops, hop, 1, ru)?;
                let o = llop(&format!("unichar_{}", suffix))?;
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
                if matches!(op, Op::Is) {
                    return Ok((llops.genop(LlOp::PtrEq, vec![a, b], LlType::BOOL), rb));
                }
                if matches!(op, Op::Eq | Op::Ne) {
                    let e = self.gendirectcall(llops, "ll_streq", vec![a, b], LlType::BOOL)?;
                    if op == Op::Eq {
                        return Ok((e, rb));
                    }
                    let ei = llops.genop(LlOp::CastBoolToInt, vec![e], LlType::SIGNED);
                    return Ok((
                        llops.genop(LlOp::IntEq, vec![ei, cint(0)], LlType::BOOL),
                        rb,
                    ));
                }
                let c = self.gendirectcall(llops, "ll_strcmp", vec![a, b], LlType::SIGNED)?;
                let o = llop(&format!("int_{}", suffix))?;
                Ok((llops.genop(o, vec![c, cint(0)], LlType::BOOL), rb))
            }
            (Repr::ByteArray, Repr::ByteArray | Repr::Str | Repr::Char)
            | (Repr::Str | Repr::Char, Repr::ByteArray) => {
                // bytes compared one by one (a char as a one-character str); a bytearray
                // and a str are ordered by `ll_strcmp` too (it is specialized per layout)
                let mut args = Vec::new();
                for i in 0..2 {
                    let r = hop.args_r[i];
                    let r = match self.repr(r) {
                        Repr::Char => self.intern_repr(Repr::Str),
                        _ => r,
                    };
                    args.push(self.inputarg(llops, hop, i, r)?);
                }
                let same = r0 == r1;
                if matches!(op, Op::Is) {
                    if !same {
                        return Ok((cbool(false), rb));
                    }
                    return Ok((llops.genop(LlOp::PtrEq, args, LlType::BOOL), rb));
                }
                if matches!(op, Op::Eq | Op::Ne) {
                    // the annotator refuses `==` of a bytearray and a str, as the
                    // reference's typer does
                    if !same {
                        return Err(TyperError::new("`==` of a bytearray and a str"));
                    }
                    let e = self.gendirectcall(llops, "ll_streq", args, LlType::BOOL)?;
                    return self.negate_if(llops, e, op == Op::Ne, rb);
                }
                let c = self.gendirectcall(llops, "ll_strcmp", args, LlType::SIGNED)?;
                let o = llop(&format!("int_{}", suffix))?;
                Ok((llops.genop(o, vec![c, cint(0)], LlType::BOOL), rb))
            }
            (Repr::Void | Repr::Prebuilt(_), Repr::Void | Repr::Prebuilt(_)) => {
                let same = match (&r0, &r1) {
                    (Repr::Prebuilt(a), Repr::Prebuilt(b)) => a == b,
                    (Repr::Void, Repr::Void) => {
                        hop.op.args[0] == hop.op.args[1]
                            || (hop.args_s[0].konst().is_some()
                                && hop.args_s[0].konst() == hop.args_s[1].konst())
                    }
                    _ => false,
                };
                let r = if matches!(op, Op::Ne) { !same } else { same };
                Ok((cbool(r), rb))
            }
            (Repr::Void | Repr::Prebuilt(_), _) | (_, Repr::Void | Repr::Prebuilt(_)) => {
                let (v, r, s_void) = if matches!(r0, Repr::Void | Repr::Prebuilt(_)) {
                    (hop.args_v[1], hop.args_r[1], hop.args_s[0].clone())
                } else {
                    (hop.args_v[0], hop.args_r[0], hop.args_s[1].clone())
                };
                if !self.types.is_ptr(self.lltype(r)) {
                    return Ok((cbool(matches!(op, Op::Ne)), rb));
                }
                // a prebuilt object (`spec_class is Integer`, a class among several): its
                // pointer in the other side's Repr
                let prebuilt = match self.ann.bookkeeper.pbc_const(&s_void) {
                    Some(Value::None) | None => None,
                    Some(k) => Some(k),
                };
                if let Some(k) = prebuilt {
                    let Ok(c) = self.const_value(k, r) else {
                        // not one of the values the other side can hold
                        return Ok((cbool(matches!(op, Op::Ne)), rb));
                    };
                    let o = if matches!(op, Op::Ne) {
                        LlOp::PtrNe
                    } else {
                        LlOp::PtrEq
                    };
                    return Ok((llops.genop(o, vec![v, Hlvalue::Ll(c)], LlType::BOOL), rb));
                }
                // comparison with None
                let o = if matches!(op, Op::Ne) {
                    LlOp::PtrNonZero
                } else {
                    LlOp::PtrIsZero
                };
                Ok((llops.genop(o, vec![v], LlType::BOOL), rb))
            }
            (Repr::Tuple(_), Repr::Tuple(_)) if matches!(op, Op::Eq | Op::Ne) => {
                let e = self.tuple_eq(llops, hop)?;
                self.negate_if(llops, e, op == Op::Ne, rb)
            }
            (Repr::List { .. }, Repr::List { .. }) if matches!(op, Op::Eq | Op::Ne) => {
                let a = (hop.args_v[0], hop.args_r[0]);
                let b = (hop.args_v[1], hop.args_r[1]);
                let e = self.list_eq(llops, a, b)?;
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
                    let o = llop(&format!("{}_{}_ovf", int_prefix(kind)?, suffix))?;
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
                        let o = llop(&format!("{}_sub", int_prefix(kind)?))?;
                        return Ok((llops.genop(o, vec![z, a], ty), rr));
                    }
                    if op == Op::Abs {
                        return Ok((a, rr));
                    }
                }
                let o = llop(&format!("{}_{}", int_prefix(kind)?, suffix))?;
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
                llop(&format!("{}_is_true", int_prefix(k)?))?,
                vec![v],
                LlType::BOOL,
            ),
            Repr::Float => llops.genop(LlOp::FloatIsTrue, vec![v], LlType::BOOL),
            // a character is a string of length one, always true (even '\x00')
            Repr::Char | Repr::UniChar => cbool(true),
            Repr::Str | Repr::Unicode | Repr::ByteArray => {
                self.gendirectcall(llops, "ll_str_is_true", vec![v], LlType::BOOL)?
            }
            Repr::List { fixed, .. } => {
                let helper = if fixed {
                    "ll_array_is_true"
                } else {
                    "ll_list_is_true"
                };
                self.gendirectcall(llops, helper, vec![v], LlType::BOOL)?
            }
            Repr::Dict { .. } => {
                self.gendirectcall(llops, "ll_dict_is_true", vec![v], LlType::BOOL)?
            }
            Repr::Void | Repr::Prebuilt(_) => cbool(!matches!(s, SomeValue::None)),
            _ if self.types.is_ptr(ty) => llops.genop(LlOp::PtrNonZero, vec![v], LlType::BOOL),
            other => {
                return Err(TyperError::new(format!(
                    "truth value of {:?} is not supported by `run` yet",
                    other
                )))
            }
        })
    }

    fn rtype_convert(&mut self, hop: &mut Hop, llops: &mut LlOps, op: Op) -> R {
        let rr = hop.r_result;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let tr = self.lltype(rr);
        let src = self.repr(r).clone();
        if let (Op::Float, Repr::SingleFloat) = (op, &src) {
            return self.rtype_singlefloat_cast(hop, llops, true);
        }
        let out = match (op, &src) {
            (Op::Ord, Repr::Char) => llops.genop(LlOp::CastCharToInt, vec![v], LlType::SIGNED),
            (Op::Ord, Repr::UniChar) => {
                llops.genop(LlOp::CastUnicharToInt, vec![v], LlType::SIGNED)
            }
            (Op::Int, Repr::Float) => llops.genop(LlOp::CastFloatToInt, vec![v], LlType::SIGNED),
            (Op::Int, Repr::Unicode | Repr::UniChar) => {
                // parsed by the same helper as a str (specialized on the string type)
                let ru = self.intern_repr(Repr::Unicode);
                let u = self.convertvar(llops, v, r, ru)?;
                if self.has_implicit_exception(hop, "ValueError") {
                    hop.exception_is_here(llops);
                }
                let ten = super::hop::cint(10);
                let x = self.gendirectcall(llops, "ll_str_to_int", vec![u, ten], LlType::SIGNED)?;
                let si = self.intern_repr(Repr::Int(IntKind::Signed));
                self.convertvar(llops, x, si, rr)?
            }
            (Op::Int | Op::Float, Repr::Str | Repr::Char | Repr::ByteArray) => {
                let rs = self.intern_repr(Repr::Str);
                // a bytearray's bytes as a str, parsed as one (as the reference, whose
                // helpers are shared by the two layouts)
                let s = if src == Repr::ByteArray {
                    let t = self.str_ptr;
                    self.gendirectcall(llops, "ll_bytearray_str", vec![v], t)?
                } else {
                    self.convertvar(llops, v, r, rs)?
                };
                if self.has_implicit_exception(hop, "ValueError") {
                    hop.exception_is_here(llops);
                }
                let ten = super::hop::cint(10);
                if op == Op::Int {
                    let x =
                        self.gendirectcall(llops, "ll_str_to_int", vec![s, ten], LlType::SIGNED)?;
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    self.convertvar(llops, x, si, rr)?
                } else {
                    let fp =
                        self.runtime(RuntimeFn::StrToFloat, &[self.str_ptr, LlType::SIGNED], tr);
                    llops.genop(LlOp::DirectCall, vec![fp, s, ten], tr)
                }
            }
            (Op::Int | Op::Float, _) => self.convertvar(llops, v, r, rr)?,
            (Op::Hex | Op::Oct, _) => self.radix_str(llops, v, r, op == Op::Hex, true)?,
            _ => {
                return Err(TyperError::new(format!(
                    "`{}` of this value is not supported by `run` yet",
                    op.name()
                )))
            }
        };
        Ok((out, rr))
    }
}

impl RTyper<'_> {
    /// `next(g)` or `g.next()` of a generator: a direct call of the generator's `next`
    /// function (rgenerator.rs), which raises StopIteration when the generator is done.
    pub(super) fn generator_next(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        gg: u32,
        g: Hlvalue,
        gr: ReprId,
    ) -> R {
        let yr = self.yield_repr(gg)?;
        let yt = self.lltype(yr);
        let f = self.gen_next_func(gg);
        let ft = self.st.types.func(vec![self.lltype(gr)], yt);
        let fpt = self.types.ptr(ft);
        let fp = Hlvalue::Ll(LlConstant {
            ty: fpt,
            value: LlValue::Ptr(crate::lltypesystem::LlPtr::Func(f)),
        });
        // a generator's next() is a call: the reference declares nothing
        if self.catches(hop, "StopIteration") {
            hop.exception_is_here(llops);
        }
        Ok((llops.genop(LlOp::DirectCall, vec![fp, g], yt), yr))
    }
}
