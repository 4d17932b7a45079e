//! Weak references (`weakref.ref(x)`, `rweakref.ref`): the Repr of a `SomeWeakRef` is a
//! pointer to `GcStruct weakref {referent: Ptr(object)}`, made by `weakref_create` and read
//! by `weakref_deref`. The structure's field is not a strong reference: the collector
//! (the LLInterpreter's `rgc.collect()`, GenC's GC) sets it to NULL when it frees the
//! object. `rgc.collect()` is the `gc__collect` operation.

use super::hop::{cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::builtins::BuiltinId as B;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlPtr, LlType};
use crate::objspace::object::Object;

type R = Result<(Hlvalue, ReprId), TyperError>;

/// The name of the weak reference structure (the field is `referent`).
pub const WEAKREF_STRUCT: &str = "weakref";

impl RTyper<'_> {
    /// The low-level type of Repr `WeakRef`: `Ptr(weakref)`.
    pub(super) fn make_weakref_lltype(&mut self) -> LlType {
        let object = self.types.ptr(self.classes.object);
        let s = self
            .types
            .new_struct(WEAKREF_STRUCT, true, vec![("referent".into(), object)]);
        self.types.ptr(s)
    }

    /// The weak reference structure, if the program has weak references.
    pub(super) fn weakref_struct(&self) -> Option<LlType> {
        let r = *self.repr_cache.get(&Repr::WeakRef)?;
        self.types.pointee(self.lltype(r))
    }

    /// The prebuilt weak reference `obj` (`rweakref.dead_ref`, the only one: its object
    /// is gone, the referent is NULL), made once.
    pub(super) fn prebuilt_dead_weakref(
        &mut self,
        obj: crate::objspace::object::ObjId,
        r: ReprId,
    ) -> Result<LlPtr, TyperError> {
        if !matches!(
            self.objheap.get(obj),
            Object::Builtin {
                id: B::RweakrefDeadRef,
                bound_self: None
            }
        ) {
            return Err(TyperError::new(
                "a prebuilt weak reference other than rweakref.dead_ref",
            ));
        }
        if let Some(&p) = self.prebuilt.get(&(obj, r)) {
            return Ok(p);
        }
        let st = self.types.pointee(self.lltype(r)).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.types, st, 0);
        self.prebuilt.insert((obj, r), p);
        Ok(p)
    }

    /// `weakref.ref(x)` and `rgc.collect()`; `None` for other built-ins.
    pub(super) fn rtype_weakref_builtin(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        id: B,
    ) -> Option<R> {
        match id {
            B::WeakrefRef => Some((|| {
                let rr = hop.r_result;
                let v = self.inputarg(llops, hop, 0, hop.args_r[0])?;
                let t = self.lltype(rr);
                Ok((llops.genop(LlOp::WeakrefCreate, vec![v], t), rr))
            })()),
            // calling the constant `rweakref.dead_ref`: None
            B::RweakrefDeadRef => {
                let void = self.intern_repr(Repr::Void);
                Some(Ok((cvoid(), void)))
            }
            B::RgcCollect => {
                llops.genop(LlOp::GcCollect, vec![], LlType::VOID);
                let void = self.intern_repr(Repr::Void);
                Some(Ok((cvoid(), void)))
            }
            _ => None,
        }
    }

    /// Calling a weak reference: its object (NULL once freed); None for a reference known
    /// to be dead.
    pub(super) fn rtype_weakref_call(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let t = self.lltype(rr);
        if t == LlType::VOID {
            return Ok((cvoid(), rr));
        }
        let v = hop.args_v[0];
        Ok((llops.genop(LlOp::WeakrefDeref, vec![v], t), rr))
    }
}
