//! Weak references (`weakref.ref(x)`, `rweakref.ref`): the Repr of a `SomeWeakRef` is a
//! pointer to `GcStruct weakref {referent: Ptr(object)}`, made by `weakref_create` and read
//! by `weakref_deref`. The structure's field is not a strong reference: the collector
//! (the LLInterpreter's `rgc.collect()`, GenC's GC) sets it to NULL when it frees the
//! object. `rgc.collect()` is the `gc__collect` operation. The weak dictionaries are
//! dicts of weak references (see `weakdict_repr`).

use super::hop::{cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::objspace::object::{IntKind, ObjId, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

/// The name of the weak reference structure (the field is `referent`).
pub const WEAKREF_STRUCT: &str = "weakref";

impl RTyper<'_> {
    /// The low-level type of Repr `WeakRef`: `Ptr(weakref)`.
    pub(super) fn make_weakref_lltype(&mut self) -> LlType {
        let object = self.st.types.ptr(self.st.classes.object);
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

    /// The prebuilt weak reference `obj`, made once: `rweakref.dead_ref` (its object is
    /// gone, the referent is NULL) or one made at import time (`weakref.ref(x)`), whose
    /// referent is the prebuilt instance (never freed, so the reference stays alive).
    pub(super) fn prebuilt_weakref(&mut self, obj: ObjId, r: ReprId) -> Result<LlPtr, TyperError> {
        let referent = match self.objheap.get(obj) {
            Object::Builtin {
                id: B::RweakrefDeadRef,
                bound_self: None,
            } => None,
            Object::Builtin {
                id: B::WeakrefPrebuilt,
                bound_self: Some(crate::objspace::object::Value::Obj(x)),
            } => Some(*x),
            _ => {
                return Err(TyperError::new(
                    "a prebuilt weak reference to something else than an instance",
                ))
            }
        };
        if let Some(&p) = self.prebuilt.get(&(obj, r)) {
            return Ok(p);
        }
        let p = self.new_prebuilt_weakref(referent, r)?;
        self.prebuilt.insert((obj, r), p);
        Ok(p)
    }

    /// A prebuilt weak reference (of Repr `r`) to the prebuilt instance `referent`, or a
    /// dead one.
    fn new_prebuilt_weakref(
        &mut self,
        referent: Option<ObjId>,
        r: ReprId,
    ) -> Result<LlPtr, TyperError> {
        let st = self.types.pointee(self.lltype(r)).unwrap_or(LlType::VOID);
        let p = self.st.heap.malloc(&self.st.types, st, 0);
        if let Some(x) = referent {
            let x = self.prebuilt_instance(x)?;
            let _ = self
                .st
                .heap
                .setfield(&self.st.types, p, st, "referent", LlValue::Ptr(x));
        }
        Ok(p)
    }

    /// The weak reference (of Repr `r`) that a weak value dictionary made at import time
    /// holds to its value `inst`, one per instance.
    pub(super) fn prebuilt_weakref_to(
        &mut self,
        inst: ObjId,
        r: ReprId,
    ) -> Result<LlPtr, TyperError> {
        if let Some(&p) = self.prebuilt.get(&(inst, r)) {
            return Ok(p);
        }
        let p = self.new_prebuilt_weakref(Some(inst), r)?;
        self.prebuilt.insert((inst, r), p);
        Ok(p)
    }

    /// The entries of the weak value dictionary `d` made at import time that the
    /// reference's prebuilt copy keeps: those whose value is still alive when translation
    /// starts (`objspace::reach`), an instance of a class the program uses.
    pub(super) fn prebuilt_weakdict_entries(&mut self, d: ObjId) -> Vec<(Value, Value)> {
        crate::objspace::weakdicts::live_entries(self.objheap, d)
            .into_iter()
            .filter(|(_, v)| match v {
                Value::Obj(o) => matches!(self.objheap.get(*o), Object::Instance(inst)
                        if self.classdef_of_class(inst.class).is_some()),
                _ => false,
            })
            .collect()
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
            B::RweakrefRWeakValueDictionary | B::RweakrefRWeakKeyDictionary => {
                Some(self.rtype_weakdict_new(hop, llops))
            }
            B::RgcCollect => {
                // the reference's typing converts a generation argument to Signed (which
                // refuses a string, say) and then collects everything anyway
                if !hop.args_r.is_empty() {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    if let Err(mut e) = self.inputarg(llops, hop, 0, si) {
                        // None or a constant string is no Signed either: the reference's
                        // inputconst refuses it
                        use crate::annotator::model::SomeValue as S;
                        if e.rejection.is_none()
                            && matches!(
                                hop.args_s[0],
                                S::None | S::Str { .. } | S::Char { .. } | S::Unicode { .. }
                            )
                        {
                            e.rejection = Some("RPY205");
                            e.msg = if matches!(hop.args_s[0], S::None) {
                                format!("`rgc.collect()` of None: the generation is converted to Signed ({})", e.msg)
                            } else {
                                "`rgc.collect()` of a string: the generation is converted to Signed, which a string cannot be".into()
                            };
                        }
                        return Some(Err(e));
                    }
                }
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

impl RTyper<'_> {
    /// The Repr of a weak dictionary: an `RWeakValueDictionary` is a dict of its keys to
    /// weak references (a reference to nothing for a key set to None: `get` answers None
    /// for it as for a missing key); an `RWeakKeyDictionary` a dict of the identity hash
    /// of each key to a tuple (weak reference to the key, value). An identity hash is only
    /// reused once the object it was taken from is freed, and then that entry's reference
    /// is NULL, so an entry is the key's when its reference points to the key.
    pub(super) fn weakdict_repr(&mut self, s: &SomeValue) -> Result<Repr, TyperError> {
        let wref = self.intern_repr(Repr::WeakRef);
        Ok(match s {
            SomeValue::WeakValueDict { key, .. } => Repr::Dict {
                key: self.getrepr(key)?,
                value: wref,
                custom: None,
            },
            SomeValue::WeakKeyDict { value, .. } => {
                let v = self.intern_repr(Repr::Instance(*value));
                Repr::Dict {
                    key: self.intern_repr(Repr::Int(IntKind::Signed)),
                    value: self.intern_repr(Repr::Tuple(vec![wref, v])),
                    custom: None,
                }
            }
            _ => return Err(TyperError::new("not a weak dictionary")),
        })
    }

    /// `RWeakValueDictionary(k, v)`, `RWeakKeyDictionary(k, v)`: a new empty dict.
    pub(super) fn rtype_weakdict_new(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        Ok((self.new_dict(llops, rr)?, rr))
    }

    /// `get`, `set` and `length` of a weak dictionary `d` (of Repr `rd`; `sd` the
    /// annotation of the bound method);
    /// the method's arguments are those of `hop`.
    pub(super) fn rtype_weakdict_method(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        d: Hlvalue,
        rd: ReprId,
        sd: &SomeValue,
        id: B,
    ) -> R {
        let rr = hop.r_result;
        let void = self.intern_repr(Repr::Void);
        let Repr::Dict { key, value, .. } = self.repr(rd).clone() else {
            return Err(TyperError::new("a weak dictionary method on a non-dict"));
        };
        let tv = self.lltype(value);
        // the annotation of the bound method holds the dictionary's
        let sd = match sd {
            SomeValue::BuiltinMethod { s_self, .. } => &**s_self,
            s => s,
        };
        let null = |t: LlType| {
            Hlvalue::Ll(LlConstant {
                ty: t,
                value: LlValue::Ptr(LlPtr::Null),
            })
        };
        match (sd, id) {
            (SomeValue::WeakValueDict { .. }, B::WeakDictGet) => {
                let k = self.inputarg(llops, hop, 0, key)?;
                let w = self.dict_call(llops, "ll_dict_get", rd, vec![d, k, null(tv)], tv)?;
                let t = self.lltype(rr);
                Ok((llops.genop(LlOp::WeakrefDeref, vec![w], t), rr))
            }
            (SomeValue::WeakValueDict { value: cd, .. }, B::WeakDictSet) => {
                let k = self.inputarg(llops, hop, 0, key)?;
                let ri = self.intern_repr(Repr::Instance(*cd));
                let v = self.inputarg(llops, hop, 1, ri)?;
                let w = llops.genop(LlOp::WeakrefCreate, vec![v], tv);
                self.dict_call(llops, "ll_dict_setitem", rd, vec![d, k, w], LlType::VOID)?;
                Ok((cvoid(), void))
            }
            (SomeValue::WeakKeyDict { key: kd, .. }, B::WeakDictGet | B::WeakDictSet) => {
                let rk = self.intern_repr(Repr::Instance(*kd));
                let k = self.inputarg(llops, hop, 0, rk)?;
                let h = self.identity_hash(llops, k);
                let Repr::Tuple(items) = self.repr(value).clone() else {
                    return Err(TyperError::new("a weak key dictionary of non-tuples"));
                };
                if id == B::WeakDictSet {
                    let v = self.inputarg(llops, hop, 1, items[1])?;
                    let w = llops.genop(LlOp::WeakrefCreate, vec![k], self.lltype(items[0]));
                    let t = self.build_tuple(llops, value, vec![w, v]);
                    self.dict_call(llops, "ll_dict_setitem", rd, vec![d, h, t], LlType::VOID)?;
                    return Ok((cvoid(), void));
                }
                let t = self.dict_call(llops, "ll_dict_get", rd, vec![d, h, null(tv)], tv)?;
                let obj = self.st.types.ptr(self.st.classes.object);
                let ko = llops.genop(LlOp::CastPointer, vec![k], obj);
                let tr = self.lltype(rr);
                let v = self.gendirectcall(llops, "ll_weakkey_value", vec![t, ko], tr)?;
                Ok((v, rr))
            }
            (SomeValue::WeakKeyDict { .. }, B::WeakDictLength) => {
                let si = self.intern_repr(Repr::Int(IntKind::Signed));
                let n = self.gendirectcall(llops, "ll_weakkey_length", vec![d], LlType::SIGNED)?;
                Ok((n, si))
            }
            _ => Err(TyperError::new(format!(
                "`{}` of a weak dictionary is not supported",
                id.short_name()
            ))),
        }
    }
}
