//! Dicts through their low-level helpers (`__rpy_ll__/ll_dict.py`, called with
//! `gendirectcall`): takes a dict value and its Repr, gives the helper calls with the
//! constants the helpers are specialized on (whether the dict is an r_dict with its own
//! key functions, and otherwise the key equality, as `rlist` gives the item equality).
//! An r_dict's structure holds its key functions, and the instance of each that is a
//! bound method (`KeyFn`).

use super::annlowlevel::EqSpec;
use super::hop::{cfield, ctype, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::{DictDefId, SomeValue};
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::lltype::Field;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::objspace::object::{ObjId, Object, Value};

impl RTyper<'_> {
    /// A call of the dict helper `name` on `args` (the dict first) of a dict of Repr `r`,
    /// with the dict's key constants appended (`custom`, `eq`: see ll_dict.py).
    pub(super) fn dict_call(
        &mut self,
        llops: &mut LlOps,
        name: &str,
        r: ReprId,
        mut args: Vec<Hlvalue>,
        result: LlType,
    ) -> Result<Hlvalue, TyperError> {
        let Repr::Dict { key, custom, .. } = self.repr(r).clone() else {
            return Err(TyperError::new("a dict operation on a non-dict"));
        };
        let (custom, eq) = match custom {
            // the r_dict's functions are in the dict: the key equality is not used
            Some((eq, hash)) => (custom_marker(eq, hash), EqSpec::Prim),
            None => (LlType::VOID, self.item_eq(key)?),
        };
        args.push(ctype(custom));
        self.gendirectcall_eq(llops, name, args, eq, result)
    }

    /// A new empty dict of Repr `r` (its r_dict functions not yet set).
    pub(super) fn new_dict(&mut self, llops: &mut LlOps, r: ReprId) -> Result<Hlvalue, TyperError> {
        let t = self.lltype(r);
        self.gendirectcall(llops, "ll_newdict", vec![ctype(t)], t)
    }
}

/// One key function of an `r_dict` (the reference's `r_rdict_eqfn`/`r_rdict_hashfn`): its
/// graph and, for a method bound to an instance (`r_dict(self.key_eq, self.hash)`), the
/// Repr of the graph's `self`, which the dict keeps in a field of its own beside the
/// function pointer and passes first, as the reference's dict keeps the bound method's
/// instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyFn {
    pub graph: u32,
    pub bound: Option<ReprId>,
}

/// The dict's fields of its key equality and hash, in the order of `dict_struct`.
const KEY_FN_FIELDS: [(&str, &str); 2] = [("fneq", "fneqself"), ("fnhash", "fnhashself")];

/// The constant `custom` of the helpers of an r_dict (see ll_dict.py): which of its two
/// functions are bound methods (called with the `self` the dict keeps).
fn custom_marker(eq: KeyFn, hash: KeyFn) -> LlType {
    match (eq.bound.is_some(), hash.bound.is_some()) {
        (false, false) => LlType::BOOL,
        (true, false) => LlType::CHAR,
        (false, true) => LlType::UNICHAR,
        (true, true) => LlType::SIGNED,
    }
}

impl RTyper<'_> {
    /// The key equality and hash of an `r_dict` (dicts that meet share them): `None` for a
    /// plain dict, or while a function has no graph (never called: the dict has no key).
    pub(super) fn r_dict_functions(
        &mut self,
        def: DictDefId,
    ) -> Result<Option<(KeyFn, KeyFn)>, TyperError> {
        let Some((_, eq, hash)) = self.ann.bookkeeper.r_dict_of(def).cloned() else {
            return Ok(None);
        };
        let (Some(eq), Some(hash)) = (self.key_fn(&eq)?, self.key_fn(&hash)?) else {
            return Ok(None);
        };
        Ok(Some((eq, hash)))
    }

    /// A key function given as a function or as a method bound to an instance: its one
    /// graph (several bound methods of one function, bound to instances of different
    /// classes, share it).
    fn key_fn(&mut self, s: &SomeValue) -> Result<Option<KeyFn>, TyperError> {
        let SomeValue::Pbc { descs, .. } = s else {
            return Ok(None);
        };
        let mut graphs: Vec<Option<u32>> = descs.iter().map(|d| self.single_graph_of(*d)).collect();
        graphs.dedup();
        let [Some(graph)] = graphs[..] else {
            if graphs.len() > 1 {
                return Err(TyperError::new(
                    "an r_dict whose key equality or hash is one of several functions is not supported by `run` yet",
                ));
            }
            return Ok(None);
        };
        let bk = &self.ann.bookkeeper;
        let methods = descs
            .iter()
            .filter(|d| matches!(bk.desc(**d), Desc::Method(_)))
            .count();
        let bound = match methods {
            0 => None,
            n if n == descs.len() => Some(self.graph_signature(graph).0[0]),
            _ => {
                return Err(TyperError::new(
                    "an r_dict whose key function is a function or a method is not supported by `run` yet",
                ))
            }
        };
        Ok(Some(KeyFn { graph, bound }))
    }

    /// The fields of an r_dict's structure holding its key functions (and their `self`).
    pub(super) fn r_dict_fields(&mut self, eq: KeyFn, hash: KeyFn) -> Vec<Field> {
        let mut fields = Vec::new();
        for ((fn_field, self_field), f) in KEY_FN_FIELDS.into_iter().zip([eq, hash]) {
            fields.push((fn_field.into(), self.funcptr_type(f.graph)));
            if let Some(r) = f.bound {
                fields.push((self_field.into(), self.lltype(r)));
            }
        }
        fields
    }

    /// `r_dict(eq, hash)` (a call of `hop`, the class popped): a new dict of Repr `r`
    /// holding its two functions, and the `self` of each that is a bound method.
    pub(super) fn new_r_dict(
        &mut self,
        hop: &Hop,
        llops: &mut LlOps,
        r: ReprId,
        eq: KeyFn,
        hash: KeyFn,
    ) -> Result<Hlvalue, TyperError> {
        let d = self.new_dict(llops, r)?;
        for (i, ((fn_field, self_field), f)) in
            KEY_FN_FIELDS.into_iter().zip([eq, hash]).enumerate()
        {
            let c = Hlvalue::Ll(LlConstant {
                ty: self.funcptr_type(f.graph),
                value: LlValue::Ptr(self.graph_funcptr(f.graph)),
            });
            llops.genop(LlOp::SetField, vec![d, cfield(fn_field), c], LlType::VOID);
            if let Some(bound) = f.bound {
                let v = self.bound_self_arg(llops, hop, i, bound)?;
                llops.genop(LlOp::SetField, vec![d, cfield(self_field), v], LlType::VOID);
            }
        }
        Ok(d)
    }

    /// The instance argument `i` of `hop` (a bound method) is bound to, as Repr `bound`.
    fn bound_self_arg(
        &mut self,
        llops: &mut LlOps,
        hop: &Hop,
        i: usize,
        bound: ReprId,
    ) -> Result<Hlvalue, TyperError> {
        let r = *hop.args_r.get(i).ok_or_else(|| {
            TyperError::new("r_dict() takes the key equality and the key hash functions")
        })?;
        let Repr::Method { self_repr, .. } = *self.repr(r) else {
            return Err(TyperError::new(
                "an r_dict's key function is a method of no instance",
            ));
        };
        let v = match self.static_value(hop.g, hop.op.args[i], r) {
            Some(c) => Hlvalue::Ll(self.const_value(c, r)?),
            None => hop.args_v[i],
        };
        self.convertvar(llops, v, self_repr, bound)
    }

    /// Sets the key functions (and their `self`) of the prebuilt dict `p` (structure
    /// `st`) made from the import-time r_dict `id`.
    pub(super) fn set_prebuilt_r_dict_functions(
        &mut self,
        p: LlPtr,
        st: LlType,
        id: ObjId,
        eq: KeyFn,
        hash: KeyFn,
    ) -> Result<(), TyperError> {
        for ((fn_field, self_field), f) in KEY_FN_FIELDS.into_iter().zip([eq, hash]) {
            let fp = self.graph_funcptr(f.graph);
            let _ = self
                .st
                .heap
                .setfield(&self.st.types, p, st, fn_field, LlValue::Ptr(fp));
            let Some(bound) = f.bound else { continue };
            // the r_dict's own attribute (`key_eq`, `key_hash`) is the bound method
            let attr = if fn_field == "fneq" {
                "key_eq"
            } else {
                "key_hash"
            };
            let bm = match self.objheap.get(id) {
                Object::Instance(inst) => inst.dict.get(attr),
                _ => None,
            };
            let Some(Value::Obj(bm)) = bm else {
                return Err(TyperError::new(
                    "a prebuilt r_dict without its key functions",
                ));
            };
            let Object::BoundMethod { self_value, .. } = *self.objheap.get(bm) else {
                return Err(TyperError::new(
                    "a prebuilt r_dict's key function is not a bound method",
                ));
            };
            let c = self.const_value(self_value, bound)?;
            let _ = self
                .st
                .heap
                .setfield(&self.st.types, p, st, self_field, c.value);
        }
        Ok(())
    }
}
