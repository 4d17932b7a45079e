//! `specialize.memo` called with an argument known only at run time: a class, a frozen
//! object or a bool. The annotator ran the function at translation time for every value
//! the argument can be; the reference stores each result as an attribute of its class or
//! frozen object (or branches on the bool) and reads it at run time. Here the table is two
//! prebuilt arrays, the values and their results, and the call is a lookup in them
//! (`ll_class.ll_memo_lookup`): the same results, found another way. A memo function of
//! several arguments known only at run time is not translated yet.

use super::hop::{Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::LlConstant;
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlType, LlValue};
use crate::objspace::object::{ObjId, Value};

impl RTyper<'_> {
    /// The call of the memo function `func` with one argument chosen at run time: its
    /// result and Repr; `None` for another call (not translated).
    pub(super) fn memo_by_value(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        func: ObjId,
    ) -> Result<Option<(Hlvalue, ReprId)>, TyperError> {
        let r_arg = hop.args_r.get(1).copied();
        let values: Vec<Value> = match &hop.args_s[..] {
            [_, SomeValue::Pbc {
                descs,
                can_be_none: false,
            }] => {
                let objs: Option<Vec<ObjId>> = descs
                    .iter()
                    .map(|&d| self.ann.bookkeeper.desc_obj(d))
                    .collect();
                match objs {
                    Some(objs) => objs.into_iter().map(Value::Obj).collect(),
                    None => return Ok(None),
                }
            }
            [_, SomeValue::Bool { konst: None, .. }] => vec![Value::Bool(false), Value::Bool(true)],
            _ => return Ok(None),
        };
        let Some(r_arg) = r_arg else {
            return Ok(None);
        };
        let rr = hop.r_result;
        if !matches!(
            self.repr(r_arg),
            Repr::Class(_) | Repr::Frozen(_) | Repr::Bool
        ) || self.lltype(rr) == LlType::VOID
        {
            return Ok(None);
        }
        let mut keys = Vec::new();
        let mut results = Vec::new();
        for v in values {
            let Some(key) = self.objheap.hash_key(v) else {
                return Ok(None);
            };
            let Some(result) = self.ann.memo_result(func, &[key]) else {
                return Ok(None);
            };
            keys.push(self.const_value(v, r_arg)?.value);
            results.push(self.const_value(result, rr)?.value);
        }
        let keys = self.prebuilt_array(r_arg, keys);
        let values = self.prebuilt_array(rr, results);
        let v_arg = self.inputarg(llops, hop, 1, r_arg)?;
        let t = self.lltype(rr);
        let v = self.gendirectcall(llops, "ll_memo_lookup", vec![keys, values, v_arg], t)?;
        Ok(Some((v, rr)))
    }

    /// A prebuilt fixed-size list (a GC array) of low-level values of Repr `item`.
    fn prebuilt_array(&mut self, item: ReprId, values: Vec<LlValue>) -> Hlvalue {
        let list = self.intern_repr(Repr::List { item, fixed: true });
        let ty = self.lltype(list);
        let arr = self.types.pointee(ty).expect("a list is a pointer");
        let a = self.st.heap.malloc(&self.st.types, arr, values.len());
        for (i, v) in values.into_iter().enumerate() {
            let _ = self.heap.setitem(a, i as i64, v);
        }
        Hlvalue::Ll(LlConstant {
            ty,
            value: LlValue::Ptr(a),
        })
    }
}
