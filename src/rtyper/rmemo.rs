//! `specialize.memo` called with a class known only at run time. The annotator ran the
//! function at translation time for every class the argument can be; the reference
//! stores each result as an attribute of its class and reads it at run time. Here the
//! table is two prebuilt arrays, the classes and their results, and the call is a lookup
//! in them (`ll_class.ll_memo_lookup`): the same results, found another way.

use super::hop::{Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use super::LlConstant;
use crate::lltypesystem::{LlType, LlValue};
use crate::objspace::object::{ObjId, Value};

impl RTyper<'_> {
    /// The call of the memo function `func` with one argument, a class chosen at run
    /// time: its result and Repr; `None` for another call (not translated).
    pub(super) fn memo_by_class(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        func: ObjId,
    ) -> Result<Option<(Hlvalue, ReprId)>, TyperError> {
        let [_, SomeValue::Pbc {
            descs,
            can_be_none: false,
        }] = &hop.args_s[..]
        else {
            return Ok(None);
        };
        let r_arg = hop.args_r[1];
        let rr = hop.r_result;
        if !matches!(self.repr(r_arg), Repr::Class(_)) || self.lltype(rr) == LlType::VOID {
            return Ok(None);
        }
        let mut classes = Vec::new();
        let mut results = Vec::new();
        for &d in descs.iter() {
            let Some(cls) = self.ann.bookkeeper.desc_obj(d) else {
                return Ok(None);
            };
            let Some(key) = self.objheap.hash_key(Value::Obj(cls)) else {
                return Ok(None);
            };
            let Some(result) = self.ann.memo_result(func, &[key]) else {
                return Ok(None);
            };
            classes.push(self.const_value(Value::Obj(cls), r_arg)?.value);
            results.push(self.const_value(result, rr)?.value);
        }
        let keys = self.prebuilt_array(r_arg, classes);
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
