//! The hash (`compute_hash`, `compute_identity_hash`) and the `str()` of lists and tuples:
//! low-level operations for numbers, characters and instances, calls of the helpers of
//! `__rpy_ll__/ll_repr.py` (and `ll_strhash`) for the others. Takes a value and its Repr;
//! gives a Signed hash or a `Ptr(STR)`.

use super::annlowlevel::EqSpec;
use super::hop::{cfield, cint, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlType};
use crate::objspace::object::IntKind;

impl RTyper<'_> {
    /// RPython's `compute_hash` of `v` (see ll_repr.py for the hash of each type).
    pub(super) fn value_hash(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        let si = LlType::SIGNED;
        // in a helper, strings and tuples are low-level pointers (`Repr::Ptr`)
        let t = self.lltype(r);
        if t == self.str_ptr || t == self.unicode_ptr {
            return self.gendirectcall(llops, "ll_strhash", vec![v], si);
        }
        if let Some(n) = self.tuple_len(t) {
            let spec = EqSpec::TupleHash(n);
            return self.gendirectcall_eq(llops, "ll_call", vec![v], spec, si);
        }
        Ok(match self.repr(r).clone() {
            Repr::Int(IntKind::Signed) => v,
            Repr::Int(_) => {
                let rs = self.intern_repr(Repr::Int(IntKind::Signed));
                self.convertvar(llops, v, r, rs)?
            }
            Repr::Bool => llops.genop(LlOp::CastBoolToInt, vec![v], si),
            Repr::Char => llops.genop(LlOp::CastCharToInt, vec![v], si),
            Repr::UniChar => llops.genop(LlOp::CastUnicharToInt, vec![v], si),
            Repr::Float => self.gendirectcall(llops, "ll_hash_float", vec![v], si)?,
            Repr::Void => cint(0),
            _ if self.types.is_gc_ptr(self.lltype(r)) => self.identity_hash(llops, v),
            // a class (its vtable, static): its number in the class hierarchy, which no
            // other class has (the reference hashes the vtable's address)
            // (in a helper, a `Repr::Ptr` to a vtable)
            _ if self.is_vtable_ptr(t) => {
                let cr = self.intern_repr(Repr::Class(None));
                let root = self.lltype(cr);
                let c = if t == root {
                    v
                } else {
                    llops.genop(LlOp::CastPointer, vec![v], root)
                };
                llops.genop(LlOp::GetField, vec![c, cfield("subclassrange_min")], si)
            }
            _ => {
                return Err(TyperError::new(format!(
                    "compute_hash() of {} is not supported by `run` yet",
                    self.types.name(self.lltype(r))
                )))
            }
        })
    }

    /// Whether `t` points to a class's vtable.
    fn is_vtable_ptr(&self, t: LlType) -> bool {
        !self.types.is_gc_ptr(t)
            && self
                .types
                .pointee(t)
                .and_then(|st| self.types.struct_name(st))
                .is_some_and(|n| n.starts_with("vtable"))
    }

    /// The number of items of a tuple type (a pointer to a `tuple…` structure).
    fn tuple_len(&self, t: LlType) -> Option<usize> {
        let st = self.types.pointee(t)?;
        let tuple = self.types.struct_name(st)?.starts_with("tuple");
        tuple.then(|| self.types.fields(st).len())
    }

    /// `compute_identity_hash` and `compute_unique_id` of an object (0 for None).
    pub(super) fn identity_hash(&mut self, llops: &mut LlOps, v: Hlvalue) -> Hlvalue {
        llops.genop(LlOp::GcIdentityHash, vec![v], LlType::SIGNED)
    }

    /// `str()` of a list or a tuple.
    pub(super) fn container_str(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        let spec = self.item_str(r)?;
        let t = self.str_ptr;
        self.gendirectcall_eq(llops, "ll_call", vec![v], spec, t)
    }

    /// The function that makes the `str()` of the items of Repr `r` in a list or a tuple.
    fn item_str(&self, r: ReprId) -> Result<EqSpec, TyperError> {
        Ok(match self.repr(r) {
            Repr::Str => EqSpec::Helper("ll_str_or_none"),
            Repr::Tuple(items) => {
                let mut strs = Vec::new();
                for &it in items {
                    strs.push(self.item_str(it)?);
                }
                EqSpec::TupleStr(strs)
            }
            &Repr::List { item, fixed } => EqSpec::ListStr {
                fixed,
                item: Box::new(self.item_str(item)?),
            },
            Repr::Int(_) | Repr::Bool | Repr::Float | Repr::Char | Repr::Void => {
                EqSpec::Helper("ll_item_str")
            }
            // as `str()` of the item itself: `<Name object at 0x…>` (NULL for None)
            Repr::Instance(_) | Repr::Object => EqSpec::Helper("ll_item_instance_str"),
            Repr::Unicode => EqSpec::Helper("ll_unicode_str"),
            // its bytes, as a str
            Repr::ByteArray => EqSpec::Helper("ll_bytearray_str"),
            // the reference's RTyper fails on these (its str() of a unicode character is
            // not low-level: "ValueError: should return a low-level type")
            Repr::UniChar => {
                return Err(TyperError::rejected(
                    "RPY205",
                    "str() of a list or tuple of unicode characters is not supported by the \
                     RPython typer (it fails on the items' str()): make them unicode strings",
                ))
            }
            // a class: the name its vtable carries
            Repr::Class(_) => EqSpec::Helper("ll_item_class_str"),
            _ => {
                return Err(TyperError::new(format!(
                    "str() of a list or tuple of {} is not supported by `run` yet",
                    self.types.name(self.lltype(r))
                )))
            }
        })
    }
}
