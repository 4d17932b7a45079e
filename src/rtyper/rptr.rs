//! Low-level pointers in the program being translated (the reference's rptr): the
//! operations of low-level helpers and of user code written with `lltype` become the
//! low-level operations themselves. A pointer (`Repr::Ptr`) is its own representation;
//! an interior pointer (`s.chars`, `Repr::InteriorPtr`) is represented by the pointer to
//! its structure, and its item accesses become interior operations on that. A structure
//! inside a GC array (`d.entries[i]`, `Repr::ArrayItem`) has no value: the array and the
//! index it was read with are kept (`RTyper::array_items`) and its field accesses become
//! `getinteriorfield(array, index, field)` and `setinteriorfield`.

use super::hop::{cfield, ctype, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue, TypeDef};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// The translation of `hop` when its receiver is a pointer; `None` for others.
    pub(super) fn rtype_ll_operation(&mut self, hop: &mut Hop, llops: &mut LlOps) -> Option<R> {
        let r0 = *hop.args_r.first()?;
        // A tuple or list whose first item is a pointer is built like any other.
        if matches!(hop.op.opname, Op::NewTuple | Op::NewList) {
            return None;
        }
        if let Some(SomeValue::LlType(_)) = hop.args_s.first() {
            // `T.TO`, `A.OF`, `typeOf(s) == T`: types are constants, and so are these
            return Some(Ok(match hop.s_result {
                SomeValue::Bool { konst: Some(b), .. } => {
                    (super::hop::cbool(b), self.intern_repr(Repr::Bool))
                }
                _ => (super::hop::cvoid(), self.intern_repr(Repr::Void)),
            }));
        }
        let (p, field) = match self.repr(r0) {
            Repr::ArrayItem { .. } => return Some(self.rtype_array_item_op(hop, llops)),
            Repr::Ptr(p) => (*p, None),
            Repr::InteriorPtr { base, field } => (*base, Some(field.clone())),
            _ => return None,
        };
        if let (Op::IsInstance, SomeValue::Bool { konst: Some(b), .. }) =
            (hop.op.opname, &hop.s_result)
        {
            // a pointer is never an instance of a Python type (`isinstance(p, str)` in
            // rffi's wrappers, which take a string or a buffer)
            return Some(Ok((super::hop::cbool(*b), self.intern_repr(Repr::Bool))));
        }
        let v = hop.args_v[0];
        Some(match (hop.op.opname, field) {
            (Op::GetAttr, None) => self.ll_getattr(hop, llops, v, p),
            (Op::SetAttr, None) => self.ll_setattr(hop, llops, v, p),
            (Op::GetItem, None) if matches!(self.repr(hop.r_result), Repr::ArrayItem { .. }) => {
                self.array_items
                    .insert((hop.g, hop.op.result), (v, hop.args_v[1]));
                Ok((super::hop::cvoid(), hop.r_result))
            }
            (Op::GetItem, f) => {
                let item = self.ll_item_type(p, f.as_deref());
                let i = hop.args_v[1];
                let (op, args) = match f {
                    Some(f) => (LlOp::GetInteriorField, vec![v, cfield(&f), i]),
                    None => (LlOp::GetArrayItem, vec![v, i]),
                };
                let res = llops.genop(op, args, item);
                self.ll_result(llops, res, item, hop.r_result)
            }
            (Op::SetItem, f) => {
                let item = self.ll_item_type(p, f.as_deref());
                let val = match self.ll_cast(llops, hop.args_v[2], hop.args_r[2], item) {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let (op, args) = match f {
                    Some(f) => (
                        LlOp::SetInteriorField,
                        vec![v, cfield(&f), hop.args_v[1], val],
                    ),
                    None => (LlOp::SetArrayItem, vec![v, hop.args_v[1], val]),
                };
                llops.genop(op, args, LlType::VOID);
                Ok((super::hop::cvoid(), self.intern_repr(Repr::Void)))
            }
            (Op::Len, f) => {
                let res = match f {
                    Some(f) => llops.genop(
                        LlOp::GetInteriorArraySize,
                        vec![v, cfield(&f)],
                        LlType::SIGNED,
                    ),
                    None => llops.genop(LlOp::GetArraySize, vec![v], LlType::SIGNED),
                };
                self.ll_result(llops, res, LlType::SIGNED, hop.r_result)
            }
            (Op::SimpleCall, None) => self.ll_indirect_call(hop, llops, v, p),
            (Op::Bool, None) => {
                let res = llops.genop(LlOp::PtrNonZero, vec![v], LlType::BOOL);
                Ok((res, self.intern_repr(Repr::Bool)))
            }
            (Op::Eq | Op::Is | Op::Ne, None) => {
                let op = if hop.op.opname == Op::Ne {
                    LlOp::PtrNe
                } else {
                    LlOp::PtrEq
                };
                let res = llops.genop(op, vec![v, hop.args_v[1]], LlType::BOOL);
                Ok((res, self.intern_repr(Repr::Bool)))
            }
            // `p.c_inner.c_x` of a structure inlined in another (a configured struct's
            // field of struct type): an interior field, two names deep
            (op @ (Op::GetAttr | Op::SetAttr), Some(f)) => {
                self.ll_inner_field(hop, llops, v, p, &f, op)
            }
            (op, _) => Err(TyperError::new(format!(
                "`{}` of a low-level pointer",
                op.name()
            ))),
        })
    }

    /// `p.inner.x` and `p.inner.x = v` where `inner` is a structure inlined in `*p`: the
    /// reference's `getinteriorfield`/`setinteriorfield` with the path `inner`, `x`. A
    /// structure deeper still is refused by name.
    fn ll_inner_field(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        v: Hlvalue,
        p: LlType,
        inner: &str,
        op: Op,
    ) -> R {
        let name = self.ll_field_name(hop)?;
        let outer = self.types.pointee(p).unwrap_or(p);
        let it = self.types.field_type(outer, inner).unwrap_or(LlType::VOID);
        let ft = self.types.field_type(it, &name).ok_or_else(|| {
            TyperError::new(format!("no field {} in {}", name, self.types.name(it)))
        })?;
        self.refuse_padding_field(&name, ft)?;
        if !(ft.is_primitive() || self.types.is_ptr(ft)) {
            return Err(TyperError::new(format!(
                "`{}` of the structure `{name}` inside `{inner}`, itself inside a structure: rpy-lsp translates fields one structure deep",
                op.name()
            )));
        }
        let path = vec![v, cfield(inner), cfield(&name)];
        if op == Op::GetAttr {
            let res = llops.genop(LlOp::GetInteriorField, path, ft);
            return self.ll_result(llops, res, ft, hop.r_result);
        }
        let val = self.ll_cast(llops, hop.args_v[2], hop.args_r[2], ft)?;
        let mut args = path;
        args.push(val);
        llops.genop(LlOp::SetInteriorField, args, LlType::VOID);
        Ok((super::hop::cvoid(), self.intern_repr(Repr::Void)))
    }

    /// `item.field` and `item.field = x` of a structure inside a GC array, through the
    /// array and index the item was read with, in the same block.
    fn rtype_array_item_op(&mut self, hop: &Hop, llops: &mut LlOps) -> R {
        let Repr::ArrayItem { array } = *self.repr(hop.args_r[0]) else {
            return Err(TyperError::new("not an array item"));
        };
        let place = match hop.op.args[0] {
            Hlvalue::Var(v) => self.array_items.get(&(hop.g, v)).copied(),
            _ => None,
        };
        let Some((arr, index)) = place else {
            return Err(TyperError::new(
                "an item of an array of structures is used in another block than where it \
                 is read: write `a[i].field` where the field is used",
            ));
        };
        let name = self.ll_field_name(hop)?;
        let item = self.ll_item_type(array, None);
        let ft = self.types.field_type(item, &name).ok_or_else(|| {
            TyperError::new(format!("no field {} in {}", name, self.types.name(item)))
        })?;
        match hop.op.opname {
            Op::GetAttr => {
                let res = llops.genop(LlOp::GetInteriorField, vec![arr, index, cfield(&name)], ft);
                self.ll_result(llops, res, ft, hop.r_result)
            }
            Op::SetAttr => {
                let val = self.ll_cast(llops, hop.args_v[2], hop.args_r[2], ft)?;
                llops.genop(
                    LlOp::SetInteriorField,
                    vec![arr, index, cfield(&name), val],
                    LlType::VOID,
                );
                Ok((super::hop::cvoid(), self.intern_repr(Repr::Void)))
            }
            op => Err(TyperError::new(format!(
                "`{}` of an item of an array of structures",
                op.name()
            ))),
        }
    }

    /// `f(args…)` of a function pointer: an `indirect_call`, each argument as the
    /// function's parameter type.
    fn ll_indirect_call(&mut self, hop: &mut Hop, llops: &mut LlOps, f: Hlvalue, p: LlType) -> R {
        let ft = self.types.pointee(p).unwrap_or(p);
        let TypeDef::Func { args, result } = self.types.def(ft).clone() else {
            return Err(TyperError::new(
                "a call of a pointer that is not a function",
            ));
        };
        let mut vals = vec![f];
        for (i, &t) in args.iter().enumerate() {
            vals.push(self.ll_cast(llops, hop.args_v[i + 1], hop.args_r[i + 1], t)?);
        }
        let res = llops.genop(LlOp::IndirectCall, vals, result);
        if hop.exc_handled {
            hop.raising_index = Some(llops.ops.len() - 1);
        }
        self.ll_result(llops, res, result, hop.r_result)
    }

    /// `p.field`: the field's value, or the pointer itself for an inlined structure or
    /// array (an interior pointer).
    fn ll_getattr(&mut self, hop: &Hop, llops: &mut LlOps, v: Hlvalue, p: LlType) -> R {
        let name = self.ll_field_name(hop)?;
        let s = self.types.pointee(p).unwrap_or(p);
        let ft = self.types.field_type(s, &name).ok_or_else(|| {
            TyperError::new(format!("no field {} in {}", name, self.types.name(s)))
        })?;
        self.refuse_padding_field(&name, ft)?;
        if matches!(
            self.types.def(ft),
            TypeDef::Struct { .. } | TypeDef::Array { .. }
        ) {
            return Ok((v, hop.r_result));
        }
        let res = llops.genop(LlOp::GetField, vec![v, cfield(&name)], ft);
        self.ll_result(llops, res, ft, hop.r_result)
    }

    fn ll_setattr(&mut self, hop: &Hop, llops: &mut LlOps, v: Hlvalue, p: LlType) -> R {
        let name = self.ll_field_name(hop)?;
        let s = self.types.pointee(p).unwrap_or(p);
        let ft = self.types.field_type(s, &name).ok_or_else(|| {
            TyperError::new(format!("no field {} in {}", name, self.types.name(s)))
        })?;
        self.refuse_padding_field(&name, ft)?;
        let val = self.ll_cast(llops, hop.args_v[2], hop.args_r[2], ft)?;
        llops.genop(LlOp::SetField, vec![v, cfield(&name), val], LlType::VOID);
        Ok((super::hop::cvoid(), self.intern_repr(Repr::Void)))
    }

    /// A padding field the toolchain adds to a configured C structure (`c__pad0`, an
    /// unsigned char where the program names no field, `rffi_platform`'s `_c_layout`):
    /// the reference RTypes its use, but its C code drops the padding fields from the
    /// structure, so its build stops in the C compiler. `run` and `build` refuse it here.
    fn refuse_padding_field(&self, name: &str, ft: LlType) -> Result<(), TyperError> {
        let padding = name
            .strip_prefix("c__pad")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if padding && ft == LlType::UCHAR {
            return Err(TyperError::new(format!(
                "`{name}` is a padding field of a configured C structure: the reference's C code drops it from the structure, so its build stops in the C compiler (CompilationError: no member named '{name}')"
            )));
        }
        Ok(())
    }

    fn ll_field_name(&self, hop: &Hop) -> Result<String, TyperError> {
        // a constant, or a variable the annotator knows is one (an argument of a function
        // specialized by it, as rffi.setintfield is by its field name)
        hop.op
            .args
            .get(1)
            .and_then(|&a| a.constant().or_else(|| self.annotation(hop.g, a).konst()))
            .and_then(|c| self.objheap.str_value(c))
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .ok_or_else(|| TyperError::new("a field name that is not a constant"))
    }

    /// The item type of the array `p` points to (or of its inlined array `field`).
    fn ll_item_type(&self, p: LlType, field: Option<&str>) -> LlType {
        let s = self.types.pointee(p).unwrap_or(p);
        let arr = match field {
            Some(f) => self.types.field_type(s, f).unwrap_or(s),
            None => s,
        };
        self.types.array_item(arr).unwrap_or(LlType::VOID)
    }

    /// A value of low-level type `have` as the operation's result Repr.
    fn ll_result(&mut self, llops: &mut LlOps, v: Hlvalue, have: LlType, r: ReprId) -> R {
        let want = self.lltype(r);
        if want == have {
            return Ok((v, r));
        }
        Ok((self.prim_cast(llops, v, have, want)?, r))
    }

    /// Argument `v` (in Repr `r`) as low-level type `want` (a char stored into a unicode
    /// string's characters, a bool into a Signed field).
    fn ll_cast(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
        want: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let have = self.lltype(r);
        if have == want {
            return Ok(v);
        }
        if let Hlvalue::Ll(c) = v {
            if let Some(k) = self.convert_const_ll(c.value, c.ty, want) {
                return Ok(Hlvalue::Ll(k));
            }
        }
        self.prim_cast(llops, v, have, want)
    }

    /// A primitive conversion (through Signed for characters), or a pointer cast.
    fn prim_cast(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        have: LlType,
        want: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let to_int = match have {
            LlType::CHAR => Some(LlOp::CastCharToInt),
            LlType::UNICHAR => Some(LlOp::CastUnicharToInt),
            LlType::BOOL => Some(LlOp::CastBoolToInt),
            _ => None,
        };
        let v = match to_int {
            Some(op) => llops.genop(op, vec![v], LlType::SIGNED),
            None => v,
        };
        let have = if to_int.is_some() {
            LlType::SIGNED
        } else {
            have
        };
        if have == want {
            return Ok(v);
        }
        let op = match want {
            LlType::CHAR => LlOp::CastIntToChar,
            LlType::UNICHAR => LlOp::CastIntToUnichar,
            _ if self.types.is_ptr(have) && self.types.is_ptr(want) => LlOp::CastPointer,
            _ if have.is_primitive() && want.is_primitive() => LlOp::CastPrimitive,
            _ => {
                return Err(TyperError::new(format!(
                    "cannot convert {} to {}",
                    self.types.name(have),
                    self.types.name(want)
                )))
            }
        };
        Ok(llops.genop(op, vec![v], want))
    }

    /// The `lltype` primitives called in translated code; `None` for other built-ins.
    pub(super) fn rtype_ll_builtin(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        id: crate::builtins::BuiltinId,
    ) -> Option<R> {
        use crate::builtins::BuiltinId as B;
        let name = id.name();
        let ty = |i: usize| match hop.args_s.get(i) {
            Some(SomeValue::LlType(t)) => Ok(*t),
            _ => Err(TyperError::new(format!(
                "{}() of a value that is not a type",
                name
            ))),
        };
        Some(match id {
            B::LltypeMalloc => ty(0).and_then(|t| {
                let pt = self.lltype(hop.r_result);
                let res = if hop.nargs() > 1 {
                    let si = self.intern_repr(Repr::Int(crate::objspace::object::IntKind::Signed));
                    let n = self.inputarg(llops, hop, 1, si)?;
                    llops.genop(LlOp::MallocVarsize, vec![ctype(t), n], pt)
                } else {
                    llops.genop(LlOp::Malloc, vec![ctype(t)], pt)
                };
                Ok((res, hop.r_result))
            }),
            B::LltypeNullptr => {
                let pt = self.lltype(hop.r_result);
                Ok((
                    Hlvalue::Ll(LlConstant {
                        ty: pt,
                        value: LlValue::Ptr(LlPtr::Null),
                    }),
                    hop.r_result,
                ))
            }
            B::LltypeTypeOf => Ok((super::hop::cvoid(), self.intern_repr(Repr::Void))),
            B::RffiCastPtr => (|| {
                let pt = self.lltype(hop.r_result);
                let have = self.lltype(hop.args_r[1]);
                let v = if self.types.is_ptr(have) && self.types.is_ptr(pt) {
                    llops.genop(LlOp::CastPointer, vec![hop.args_v[1]], pt)
                } else if self.types.is_ptr(pt) {
                    // an integer kept in a pointer: through Signed, as the reference's cast
                    let si = self.intern_repr(Repr::Int(crate::objspace::object::IntKind::Signed));
                    let n = self.inputarg(llops, hop, 1, si)?;
                    llops.genop(LlOp::CastIntToPtr, vec![n], pt)
                } else {
                    // a character is its code; a pointer (a string's too) its address
                    let to_int = match have {
                        LlType::CHAR => LlOp::CastCharToInt,
                        LlType::UNICHAR => LlOp::CastUnicharToInt,
                        _ => LlOp::CastPtrToInt,
                    };
                    let n = llops.genop(to_int, vec![hop.args_v[1]], LlType::SIGNED);
                    self.prim_cast(llops, n, LlType::SIGNED, pt)?
                };
                Ok((v, hop.r_result))
            })(),
            B::RffiIsPtr => {
                let is_ptr = matches!(
                    hop.args_s.first(),
                    Some(crate::annotator::model::SomeValue::Ptr(_))
                );
                Ok((super::hop::cbool(is_ptr), self.intern_repr(Repr::Bool)))
            }
            B::RffiPtradd => (|| {
                let pt = self.lltype(hop.r_result);
                let si = self.intern_repr(Repr::Int(crate::objspace::object::IntKind::Signed));
                let n = self.inputarg(llops, hop, 1, si)?;
                Ok((
                    llops.genop(LlOp::DirectPtradd, vec![hop.args_v[0], n], pt),
                    hop.r_result,
                ))
            })(),
            B::RgcLlArraycopy => (|| {
                // an interior pointer (`s.chars`) is its structure's pointer: the operation
                // finds the variable-sized array of the structure it is given
                let si = self.intern_repr(Repr::Int(crate::objspace::object::IntKind::Signed));
                let mut args = vec![hop.args_v[0], hop.args_v[1]];
                for i in 2..5 {
                    args.push(self.inputarg(llops, hop, i, si)?);
                }
                llops.genop(LlOp::ArrayCopy, args, LlType::VOID);
                Ok((super::hop::cvoid(), self.intern_repr(Repr::Void)))
            })(),
            // the same pointer, seen as a high-level string or as a low-level pointer
            B::AnnlowlevelLlstr
            | B::AnnlowlevelHlstr
            | B::AnnlowlevelLlunicode
            | B::AnnlowlevelHlunicode => Ok((hop.args_v[0], hop.r_result)),
            _ => return None,
        })
    }
}
