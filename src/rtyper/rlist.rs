//! Lists through their low-level helpers (`__rpy_ll__/ll_list.py`, called with
//! `gendirectcall`): takes a list value and its Repr, gives the pieces the helpers take
//! (the items array and the length), the helper of a new list of a given Repr, and the
//! item equality the comparing helpers are specialized on.

use super::annlowlevel::EqSpec;
use super::hop::{cbool, cfield, cint, ctype, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlType};

impl RTyper<'_> {
    /// A list's items array and its length: the array itself and its size when the list
    /// is never resized, the `items` and `length` fields otherwise.
    pub(super) fn list_parts(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
    ) -> (Hlvalue, Hlvalue) {
        let tl = self.lltype(r);
        if matches!(self.repr(r), Repr::List { fixed: true, .. }) {
            let n = llops.genop(LlOp::GetArraySize, vec![v], LlType::SIGNED);
            return (v, n);
        }
        let st = self.types.pointee(tl).unwrap_or(tl);
        let ta = self.types.field_type(st, "items").unwrap_or(LlType::VOID);
        (
            llops.genop(LlOp::GetField, vec![v, cfield("items")], ta),
            llops.genop(LlOp::GetField, vec![v, cfield("length")], LlType::SIGNED),
        )
    }

    /// A call of the helper `base` that makes a new list of Repr `rr` (`base_fixed` when
    /// that list is never resized), with the list's type as the first argument.
    pub(super) fn new_list_call(
        &mut self,
        llops: &mut LlOps,
        base: &str,
        rr: ReprId,
        args: Vec<Hlvalue>,
    ) -> Result<Hlvalue, TyperError> {
        let tr = self.lltype(rr);
        let name = match self.repr(rr) {
            Repr::List { fixed: true, .. } => format!("{}_fixed", base),
            Repr::List { .. } => base.to_string(),
            _ => return Err(TyperError::new("a new list of a non-list type")),
        };
        let mut all = vec![ctype(tr)];
        all.extend(args);
        self.gendirectcall(llops, &name, all, tr)
    }

    /// The equality of values of Repr `r` (see `EqSpec`): `==` of the low-level values for
    /// numbers, characters and instances (by identity), by content for strings, item by
    /// item for tuples and lists.
    pub(super) fn item_eq(&self, r: ReprId) -> Result<EqSpec, TyperError> {
        Ok(match self.repr(r) {
            Repr::Str | Repr::Unicode => EqSpec::Helper("ll_streq"),
            Repr::Int(k) if k.is_narrow() => EqSpec::Helper("ll_eq_shortint"),
            Repr::Tuple(items) => {
                let mut eqs = Vec::new();
                for &it in items {
                    eqs.push(self.item_eq(it)?);
                }
                EqSpec::Tuple(eqs)
            }
            &Repr::List { item, fixed } => EqSpec::List {
                fixed,
                item: Box::new(self.item_eq(item)?),
            },
            Repr::Dict { .. } => {
                return Err(TyperError::new(
                    "comparing dicts with == is not supported by `run` yet",
                ))
            }
            _ => EqSpec::Prim,
        })
    }

    /// `a == b` of two values of Repr `r` (tuples, say), through the helper `ll_eq`.
    pub(super) fn value_eq(
        &mut self,
        llops: &mut LlOps,
        a: Hlvalue,
        b: Hlvalue,
        r: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        let eq = self.item_eq(r)?;
        self.gendirectcall_eq(llops, "ll_eq", vec![a, b], eq, LlType::BOOL)
    }

    /// `t1 == t2` of two tuples: through the tuple's equality when both have the same
    /// Repr, item by item otherwise (each pair as the first one's item Repr).
    pub(super) fn tuple_eq(&mut self, llops: &mut LlOps, hop: &Hop) -> Result<Hlvalue, TyperError> {
        let (ra, rb) = (hop.args_r[0], hop.args_r[1]);
        let (a, b) = (hop.args_v[0], hop.args_v[1]);
        if ra == rb {
            return self.value_eq(llops, a, b, ra);
        }
        let (Repr::Tuple(xa), Repr::Tuple(xb)) = (self.repr(ra).clone(), self.repr(rb).clone())
        else {
            return Err(TyperError::new("== of a non-tuple"));
        };
        if xa.len() != xb.len() {
            return Ok(cbool(false));
        }
        let mut acc = cint(1);
        for (i, (&ia, &ib)) in xa.iter().zip(&xb).enumerate() {
            let f = cfield(&format!("item{}", i));
            let x = llops.genop(LlOp::GetField, vec![a, f], self.lltype(ia));
            let f = cfield(&format!("item{}", i));
            let y = llops.genop(LlOp::GetField, vec![b, f], self.lltype(ib));
            let y = self.convertvar(llops, y, ib, ia)?;
            let e = self.value_eq(llops, x, y, ia)?;
            let ei = llops.genop(LlOp::CastBoolToInt, vec![e], LlType::SIGNED);
            acc = llops.genop(LlOp::IntAnd, vec![acc, ei], LlType::SIGNED);
        }
        Ok(llops.genop(LlOp::IntNe, vec![acc, cint(0)], LlType::BOOL))
    }

    /// `l1 == l2` of two lists (either fixed-size or resizable), item by item.
    pub(super) fn list_eq(
        &mut self,
        llops: &mut LlOps,
        (a, ra): (Hlvalue, ReprId),
        (b, rb): (Hlvalue, ReprId),
    ) -> Result<Hlvalue, TyperError> {
        let Repr::List { item, .. } = self.repr(ra).clone() else {
            return Err(TyperError::new("== of a non-list"));
        };
        let eq = self.item_eq(item)?;
        let (xa, na) = self.list_parts(llops, a, ra);
        let (xb, nb) = self.list_parts(llops, b, rb);
        self.gendirectcall_eq(llops, "ll_list_eq", vec![xa, na, xb, nb], eq, LlType::BOOL)
    }
}
