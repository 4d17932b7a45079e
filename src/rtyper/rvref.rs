//! Virtual references (`jit.virtual_ref(x)`, `jit.non_virtual_ref(x)`, `jit.vref_None`):
//! without a JIT a virtual reference is its object itself, a `Ptr(object)` (the
//! reference's `VRefRepr`, whose `jit_force_virtual` is the identity once compiled).
//! Calling it casts the pointer back to its object's Repr; its `virtual` is false;
//! `virtual_ref_finish` does nothing.

use super::hop::{cbool, cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::{LlPtr, LlValue};
use crate::objspace::object::{Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// `virtual_ref(x)`, `non_virtual_ref(x)` and `virtual_ref_finish(vref, x)`; `None`
    /// for other built-ins.
    pub(super) fn rtype_vref_builtin(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        id: B,
    ) -> Option<R> {
        match id {
            B::JitVirtualRef | B::JitNonVirtualRef => Some((|| {
                let rr = hop.r_result;
                let (v, r) = (hop.args_v[0], hop.args_r[0]);
                if !matches!(self.repr(r), Repr::Instance(_) | Repr::Object) {
                    // non_virtual_ref(None): a reference to nothing
                    return Ok((self.null_vref(rr), rr));
                }
                let or = self.intern_repr(Repr::Object);
                let o = self.convertvar(llops, v, r, or)?;
                Ok((o, rr))
            })()),
            B::JitVirtualRefFinish => Some(Ok((cvoid(), self.intern_repr(Repr::Void)))),
            _ => None,
        }
    }

    /// The NULL virtual reference (of Repr `r`).
    fn null_vref(&mut self, r: ReprId) -> Hlvalue {
        Hlvalue::Ll(LlConstant {
            ty: self.lltype(r),
            value: LlValue::Ptr(LlPtr::Null),
        })
    }

    /// Calling a virtual reference: its object, in the Repr of the call's result.
    pub(super) fn rtype_vref_call(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        if !matches!(self.repr(rr), Repr::Instance(_) | Repr::Object) {
            // a reference to None only (`vref_None()`)
            return Ok((cvoid(), rr));
        }
        let or = self.intern_repr(Repr::Object);
        let v = self.convertvar(llops, hop.args_v[0], or, rr)?;
        Ok((v, rr))
    }

    /// `vref.virtual`: whether the JIT keeps the object virtual, false without a JIT.
    pub(super) fn rtype_vref_getattr(&mut self, name: &str) -> R {
        if name != "virtual" {
            return Err(TyperError::new(format!(
                "a virtual reference has no attribute `{name}`"
            )));
        }
        Ok((cbool(false), self.intern_repr(Repr::Bool)))
    }

    /// A virtual reference made at import time: only `vref_None` (a reference to None) is
    /// supported, as the reference's `VRefRepr.convert_const` supports only it.
    pub(super) fn prebuilt_vref(&mut self, v: Value, r: ReprId) -> Result<LlValue, TyperError> {
        match v {
            Value::Obj(id)
                if matches!(
                    self.objheap.get(id),
                    Object::Builtin {
                        id: B::JitVrefPrebuilt,
                        bound_self: Some(Value::None),
                    }
                ) =>
            {
                let _ = r;
                Ok(LlValue::Ptr(LlPtr::Null))
            }
            _ => Err(TyperError::new(
                "only vref_None is supported as a prebuilt virtual reference",
            )),
        }
    }
}
