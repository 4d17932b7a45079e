//! `specialize.memo` called with arguments known only at run time: classes, frozen
//! objects, bools. The annotator ran the function at translation time for every
//! combination of the values the arguments can be; the reference builds a chain of helpers,
//! one per argument, that stores each (partial) result as an attribute of its class or
//! frozen object (or branches on a bool) and reads it at run time. Here the table is
//! prebuilt arrays: for each run-time argument the values it can be, and the results of
//! every combination in one flat array. The call finds each argument's position in its
//! array (`ll_class.ll_memo_index`, accumulating a row-major index) and reads the result
//! there (`ll_memo_result`): the same results, found another way. An argument that is a
//! constant at the call (a single class, a literal, a default left out) takes no part in
//! the lookup. Keyword arguments are refused, as the reference's helpers (parameters `a0`,
//! `a1`...) refuse them.

use super::hop::{cint, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::LlConstant;
use super::{RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use crate::interpreter::arguments::bind;
use crate::lltypesystem::{LlType, LlValue};
use crate::objspace::object::{HashKey, ObjId, Value};

/// Where a parameter of a memo call gets its value (the call bound to the function's
/// signature as the annotator bound it).
#[derive(Clone, Copy)]
enum Source {
    /// positional argument `i` of the hop
    Arg(usize),
    /// the function's default value
    Default(Value),
}

/// One parameter of a memo call: the values it can be at run time, and for one looked up
/// (more than one value) the hop's argument it is and its Repr.
struct MemoArg {
    values: Vec<Value>,
    lookup: Option<(usize, ReprId)>,
}

impl RTyper<'_> {
    /// The values an argument of a memo call can take (what the annotator called the
    /// function with); `None` when it is not a class, frozen object, bool or constant.
    fn memo_arg_values(&self, s: &SomeValue) -> Option<Vec<Value>> {
        match s {
            SomeValue::Pbc {
                descs,
                can_be_none: false,
            } => descs
                .iter()
                .map(|&d| self.ann.bookkeeper.desc_obj(d).map(Value::Obj))
                .collect(),
            SomeValue::Bool { konst: None, .. } => {
                Some(vec![Value::Bool(false), Value::Bool(true)])
            }
            s => s.konst().map(|k| vec![k]),
        }
    }

    /// The parameters of the memo function `func` called by `hop`, bound as the annotator
    /// bound them (`call_memo`); `None` when they are not all classes, frozen objects,
    /// bools or constants.
    fn memo_args(&self, hop: &Hop, func: ObjId) -> Option<Vec<MemoArg>> {
        let desc = *self.ann.bookkeeper.desc_of_obj.get(&func)?;
        let Desc::Function(f) = self.ann.bookkeeper.desc(desc) else {
            return None;
        };
        let positional = (1..hop.args_s.len()).map(Source::Arg).collect();
        let defaults: Vec<Source> = f.defaults.iter().map(|&d| Source::Default(d)).collect();
        let (mut sources, extra) = bind(&f.name, &f.sig, &defaults, positional, vec![]).ok()?;
        sources.extend(extra);
        let mut args = Vec::with_capacity(sources.len());
        for src in sources {
            let i = match src {
                Source::Arg(i) => i,
                Source::Default(d) => {
                    args.push(MemoArg {
                        values: vec![d],
                        lookup: None,
                    });
                    continue;
                }
            };
            let values = self.memo_arg_values(&hop.args_s[i])?;
            let lookup = if values.len() > 1 {
                let r = hop.args_r[i];
                if !matches!(self.repr(r), Repr::Class(_) | Repr::Frozen(_) | Repr::Bool) {
                    return None;
                }
                Some((i, r))
            } else {
                None
            };
            args.push(MemoArg { values, lookup });
        }
        Some(args)
    }

    /// A memo call whose result is always the same prebuilt object of no run-time
    /// representation (the class `lltype.scoped_alloc`'s memo makes for a type, a
    /// function): a constant, called or read by the operations after it.
    pub(super) fn memo_single_object(
        &mut self,
        hop: &Hop,
    ) -> Result<Option<(Hlvalue, ReprId)>, TyperError> {
        let rr = hop.r_result;
        if self.lltype(rr) != LlType::VOID {
            return Ok(None);
        }
        let SomeValue::Pbc {
            descs,
            can_be_none: false,
        } = &hop.s_result
        else {
            return Ok(None);
        };
        let [d] = descs[..] else {
            return Ok(None);
        };
        let Some(obj) = self.ann.bookkeeper.desc_obj(d) else {
            return Ok(None);
        };
        Ok(Some((
            Hlvalue::Ll(self.const_value(Value::Obj(obj), rr)?),
            rr,
        )))
    }

    /// The call of the memo function `func` with arguments chosen at run time: its result
    /// and Repr; `None` for another call (not translated).
    pub(super) fn memo_by_value(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        func: ObjId,
    ) -> Result<Option<(Hlvalue, ReprId)>, TyperError> {
        let rr = hop.r_result;
        if self.lltype(rr) == LlType::VOID {
            return Ok(None);
        }
        if let Some(k) = hop.keywords.first() {
            // the reference's lookup is a helper of parameters a0, a1...: its RTyper finds
            // no parameter for the keyword ("signature mismatch")
            let name = match self.ann.bookkeeper.desc_of_obj.get(&func) {
                Some(&d) => match self.ann.bookkeeper.desc(d) {
                    Desc::Function(f) => f.name.to_string(),
                    _ => "the function".into(),
                },
                None => "the function".into(),
            };
            return Err(TyperError::rejected(
                "RPY206",
                format!(
                    "`{}` is specialize.memo with arguments known only at run time: it takes them by position only, not `{}=` (the translated lookup has no parameter of that name)",
                    name, k.0
                ),
            ));
        }
        let Some(args) = self.memo_args(hop, func) else {
            return Ok(None);
        };
        // every combination, the first argument varying slowest (row-major)
        let mut keys: Vec<Vec<HashKey>> = vec![Vec::new()];
        for a in &args {
            let mut next = Vec::with_capacity(keys.len() * a.values.len());
            for prefix in &keys {
                for &v in &a.values {
                    let Some(k) = self.objheap.hash_key(v) else {
                        return Ok(None);
                    };
                    let mut key = prefix.clone();
                    key.push(k);
                    next.push(key);
                }
            }
            keys = next;
        }
        let mut results = Vec::with_capacity(keys.len());
        for key in &keys {
            let Some(result) = self.ann.memo_result(func, key) else {
                return Ok(None);
            };
            results.push(self.const_value(result, rr)?.value);
        }
        let table = self.prebuilt_array(rr, results);
        let mut v_index = cint(0);
        let mut stride = keys.len();
        for a in &args {
            stride /= a.values.len();
            let Some((i, r_arg)) = a.lookup else {
                continue;
            };
            let mut arg_keys = Vec::with_capacity(a.values.len());
            for &v in &a.values {
                arg_keys.push(self.const_value(v, r_arg)?.value);
            }
            let arg_keys = self.prebuilt_array(r_arg, arg_keys);
            let v_arg = self.inputarg(llops, hop, i, r_arg)?;
            v_index = self.gendirectcall(
                llops,
                "ll_memo_index",
                vec![arg_keys, v_arg, cint(stride as i64), v_index],
                LlType::SIGNED,
            )?;
        }
        let t = self.lltype(rr);
        let v = self.gendirectcall(llops, "ll_memo_result", vec![table, v_index], t)?;
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
