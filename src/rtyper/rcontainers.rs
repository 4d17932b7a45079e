//! `rtype_*` of the container operations: `len`, indexing, slicing, `in`, iteration,
//! and building lists and tuples.

use super::hop::{cfield, cint, ctype, cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::{LlOp, LlType};
use crate::objspace::object::{IntKind, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// A dict lookup by key (`d[k]`, `del d[k]`) raises KeyError where the program
    /// catches it: the exception is declared there. An r_dict's lookup calls the user's
    /// functions (`custom`): the reference declares nothing implicit then.
    fn dict_key_error_here(&self, llops: &mut LlOps, hop: &mut Hop, custom: bool) {
        let raises = if custom {
            self.catches(hop, "KeyError")
        } else {
            self.has_implicit_exception(hop, "KeyError")
        };
        if raises {
            hop.exception_is_here(llops);
        }
    }

    pub fn build_tuple(&mut self, llops: &mut LlOps, rr: ReprId, items: Vec<Hlvalue>) -> Hlvalue {
        let tr = self.lltype(rr);
        let st = self.types.pointee(tr).unwrap();
        let t = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
        for (i, v) in items.into_iter().enumerate() {
            llops.genop(
                LlOp::SetField,
                vec![t, cfield(&format!("item{}", i)), v],
                LlType::VOID,
            );
        }
        t
    }

    pub(super) fn rtype_len(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        match self.len_of(llops, hop.args_v[0], hop.args_r[0]) {
            Some(out) => Ok((out, si)),
            None => Err(TyperError::new(
                "len() of this value is not supported by `run` yet",
            )),
        }
    }

    /// The length of `v` (held in Repr `r`), when its Repr has one.
    pub(super) fn len_of(&mut self, llops: &mut LlOps, v: Hlvalue, r: ReprId) -> Option<Hlvalue> {
        Some(match self.repr(r).clone() {
            Repr::Str | Repr::Unicode | Repr::ByteArray => llops.genop(
                LlOp::GetInteriorArraySize,
                vec![v, cfield("chars")],
                LlType::SIGNED,
            ),
            Repr::Char | Repr::UniChar => cint(1),
            Repr::List { fixed: true, .. } => {
                llops.genop(LlOp::GetArraySize, vec![v], LlType::SIGNED)
            }
            Repr::List { fixed: false, .. } => {
                llops.genop(LlOp::GetField, vec![v, cfield("length")], LlType::SIGNED)
            }
            Repr::Tuple(items) => cint(items.len() as i64),
            Repr::Dict { .. } => {
                llops.genop(LlOp::GetField, vec![v, cfield("num_live")], LlType::SIGNED)
            }
            _ => return None,
        })
    }

    /// The GcArray holding a list's items: the list itself when fixed-size, its `items`
    /// field when resizable.
    fn list_items_array(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        ty: LlType,
        fixed: bool,
    ) -> Hlvalue {
        if fixed {
            return v;
        }
        let st = self.types.pointee(ty).unwrap_or(LlType::VOID);
        let at = self.types.field_type(st, "items").unwrap_or(LlType::VOID);
        llops.genop(LlOp::GetField, vec![v, cfield("items")], at)
    }

    /// The items array of a list and `i` made non-negative (`i + len` when `i < 0`),
    /// without a branch: `i + ((i >> 63) & len)`.
    fn wrapped_index(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        ty: LlType,
        fixed: bool,
        i: Hlvalue,
    ) -> (Hlvalue, Hlvalue) {
        let arr = self.list_items_array(llops, v, ty, fixed);
        if let Hlvalue::Ll(c) = i {
            if c.value.as_int() >= 0 {
                return (arr, i);
            }
        }
        let len = if fixed {
            llops.genop(LlOp::GetArraySize, vec![arr], LlType::SIGNED)
        } else {
            llops.genop(LlOp::GetField, vec![v, cfield("length")], LlType::SIGNED)
        };
        let sign = llops.genop(LlOp::IntRshift, vec![i, cint(63)], LlType::SIGNED);
        let adj = llops.genop(LlOp::IntAnd, vec![sign, len], LlType::SIGNED);
        let idx = llops.genop(LlOp::IntAdd, vec![i, adj], LlType::SIGNED);
        (arr, idx)
    }

    /// A one-character string used as a container (`c[0]`, `c[1:]`, `x in c`) is
    /// annotated as a character: it is converted to the string it is, as the reference's
    /// character Repr, a kind of string Repr, does.
    fn char_container_as_str(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
    ) -> Result<(), TyperError> {
        let r = hop.args_r[0];
        let wide = match self.repr(r) {
            Repr::Char => Repr::Str,
            Repr::UniChar => Repr::Unicode,
            _ => return Ok(()),
        };
        let rw = self.intern_repr(wide);
        hop.args_v[0] = self.convertvar(llops, hop.args_v[0], r, rw)?;
        hop.args_r[0] = rw;
        Ok(())
    }

    /// (The reference's typing of an item of a list, a string or a bytearray declares no
    /// exception: `catches`, not `has_implicit_exception`; a tuple's declares IndexError.)
    pub(super) fn rtype_getitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        if self.is_os_environ(&hop.args_s[0]) {
            return self.rtype_environ_getitem(hop, llops);
        }
        self.char_container_as_str(hop, llops)?;
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        match self.repr(r).clone() {
            Repr::List { item, fixed } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let handled = self.catches(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    let arr = self.list_items_array(llops, v, ty, fixed);
                    let it = self.lltype(item);
                    return Ok((llops.genop(LlOp::GetArrayItem, vec![arr, i], it), item));
                }
                if !handled {
                    // no IndexError handler: an index out of bounds is undefined, as in
                    // the reference; a negative index counts from the end (branch-free)
                    let (arr, idx) = self.wrapped_index(llops, v, ty, fixed, i);
                    let it = self.lltype(item);
                    return Ok((llops.genop(LlOp::GetArrayItem, vec![arr, idx], it), item));
                }
                let it = self.lltype(item);
                let (items, n) = self.list_parts(llops, v, r);
                hop.exception_is_here(llops);
                let x = self.gendirectcall(llops, "ll_getitem_checked", vec![items, n, i], it)?;
                Ok((x, item))
            }
            Repr::Str | Repr::Unicode => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let uni = matches!(self.repr(r), Repr::Unicode);
                let rc = self.intern_repr(if uni { Repr::UniChar } else { Repr::Char });
                let ct = self.lltype(rc);
                let handled = self.catches(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    return Ok((
                        llops.genop(LlOp::GetInteriorField, vec![v, cfield("chars"), i], ct),
                        rc,
                    ));
                }
                if handled {
                    hop.exception_is_here(llops);
                }
                let c = self.gendirectcall(llops, "ll_str_getitem_checked", vec![v, i], ct)?;
                Ok((c, rc))
            }
            Repr::ByteArray => {
                // an int: the byte (0..255)
                let i = self.inputarg(llops, hop, 1, si)?;
                let handled = self.catches(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    let c = llops.genop(
                        LlOp::GetInteriorField,
                        vec![v, cfield("chars"), i],
                        LlType::CHAR,
                    );
                    return Ok((
                        llops.genop(LlOp::CastCharToInt, vec![c], LlType::SIGNED),
                        si,
                    ));
                }
                let helper = if handled {
                    hop.exception_is_here(llops);
                    "ll_bytearray_getitem_checked"
                } else {
                    "ll_bytearray_getitem"
                };
                Ok((
                    self.gendirectcall(llops, helper, vec![v, i], LlType::SIGNED)?,
                    si,
                ))
            }
            Repr::Tuple(items) => {
                let Some(Value::Int(mut k)) = hop.args_s[1].konst() else {
                    return Err(TyperError::new("tuple index must be a constant"));
                };
                if k < 0 {
                    k += items.len() as i64;
                }
                let ir = items[k as usize];
                let it = self.lltype(ir);
                Ok((
                    llops.genop(LlOp::GetField, vec![v, cfield(&format!("item{}", k))], it),
                    ir,
                ))
            }
            Repr::Dict {
                key, value, custom, ..
            } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                self.dict_key_error_here(llops, hop, custom.is_some());
                let tv = self.lltype(value);
                Ok((
                    self.dict_call(llops, "ll_dict_getitem", r, vec![v, k], tv)?,
                    value,
                ))
            }
            _ => Err(TyperError::new(format!(
                "indexing {} is not supported by `run` yet",
                self.ann
                    .bookkeeper
                    .describe_type(self.objheap, &hop.args_s[0])
            ))),
        }
    }

    pub(super) fn rtype_setitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        if self.is_os_environ(&hop.args_s[0]) {
            return self.rtype_environ_setitem(hop, llops);
        }
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        let ty = self.lltype(r);
        match self.repr(r).clone() {
            Repr::List { item, fixed } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                let x = self.inputarg(llops, hop, 2, item)?;
                let handled = self.has_implicit_exception(hop, "IndexError");
                if !handled && hop.args_s[1].is_nonneg() {
                    let arr = self.list_items_array(llops, v, ty, fixed);
                    llops.genop(LlOp::SetArrayItem, vec![arr, i, x], LlType::VOID);
                    return Ok((cvoid(), void));
                }
                if !handled {
                    let (arr, idx) = self.wrapped_index(llops, v, ty, fixed, i);
                    llops.genop(LlOp::SetArrayItem, vec![arr, idx, x], LlType::VOID);
                    return Ok((cvoid(), void));
                }
                let (items, n) = self.list_parts(llops, v, r);
                hop.exception_is_here(llops);
                let args = vec![items, n, i, x];
                self.gendirectcall(llops, "ll_setitem_checked", args, LlType::VOID)?;
                Ok((cvoid(), void))
            }
            Repr::Dict { key, value, .. } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                let x = self.inputarg(llops, hop, 2, value)?;
                self.dict_call(llops, "ll_dict_setitem", r, vec![v, k, x], LlType::VOID)?;
                Ok((cvoid(), void))
            }
            Repr::ByteArray => {
                // never checked, even under an IndexError handler: the reference's typer
                // has no checking store into a bytearray, so its binaries write out of
                // bounds (undefined behaviour: `run` stops there)
                let i = self.inputarg(llops, hop, 1, si)?;
                let x = self.inputarg(llops, hop, 2, si)?;
                hop.exception_cannot_occur();
                let args = vec![v, i, x];
                self.gendirectcall(llops, "ll_bytearray_setitem", args, LlType::VOID)?;
                Ok((cvoid(), void))
            }
            _ => Err(TyperError::new(
                "item assignment of this value is not supported by `run` yet",
            )),
        }
    }

    pub(super) fn rtype_delitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        if self.is_os_environ(&hop.args_s[0]) {
            return self.rtype_environ_delitem(hop, llops);
        }
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        match self.repr(r).clone() {
            Repr::List { .. } => {
                let i = self.inputarg(llops, hop, 1, si)?;
                // without an IndexError handler an index out of range is undefined
                let helper = if self.has_implicit_exception(hop, "IndexError") {
                    hop.exception_is_here(llops);
                    "ll_delitem"
                } else {
                    "ll_delitem_unchecked"
                };
                self.gendirectcall(llops, helper, vec![v, i], LlType::VOID)?;
            }
            Repr::Dict { key, custom, .. } => {
                let k = self.inputarg(llops, hop, 1, key)?;
                self.dict_key_error_here(llops, hop, custom.is_some());
                self.dict_call(llops, "ll_dict_delitem", r, vec![v, k], LlType::VOID)?;
            }
            _ => {
                return Err(TyperError::new(
                    "del of an item of this value is not supported by `run` yet",
                ))
            }
        }
        Ok((cvoid(), void))
    }

    /// A slice bound: the value, or the default for None.
    pub(super) fn slice_bound(
        &mut self,
        llops: &mut LlOps,
        hop: &Hop,
        i: usize,
        default: i64,
    ) -> Result<Hlvalue, TyperError> {
        if matches!(hop.args_s[i], SomeValue::None) {
            return Ok(cint(default));
        }
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        self.inputarg(llops, hop, i, si)
    }

    pub(super) fn rtype_getslice(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        if let (Repr::Tuple(items), Repr::Tuple(out)) =
            (self.repr(hop.args_r[0]).clone(), self.repr(rr).clone())
        {
            // a slice of a tuple with constant bounds (the annotator requires them): a new
            // tuple of those items
            let n = items.len() as i64;
            let bound = |s: &SomeValue, default: i64| match s {
                SomeValue::None => Some(default),
                s => s.konst().and_then(|k| match k {
                    Value::Int(i) => Some(if i < 0 { (i + n).max(0) } else { i.min(n) }),
                    _ => None,
                }),
            };
            let (Some(a), Some(b)) = (bound(&hop.args_s[1], 0), bound(&hop.args_s[2], n)) else {
                return Err(TyperError::new(
                    "a tuple slice with bounds that are not constants",
                ));
            };
            let v = hop.args_v[0];
            let mut vals = Vec::new();
            for (k, i) in (a..b.max(a)).enumerate() {
                let ri = items[i as usize];
                let x = llops.genop(
                    LlOp::GetField,
                    vec![v, cfield(&format!("item{}", i))],
                    self.lltype(ri),
                );
                let Some(&ro) = out.get(k) else {
                    return Err(TyperError::new(
                        "a tuple slice of another length than annotated",
                    ));
                };
                vals.push(self.convertvar(llops, x, ri, ro)?);
            }
            return Ok((self.build_tuple(llops, rr, vals), rr));
        }
        self.char_container_as_str(hop, llops)?;
        let a = self.slice_bound(llops, hop, 1, 0)?;
        let b = self.slice_bound(llops, hop, 2, i64::MAX)?;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        match self.repr(r) {
            Repr::Str | Repr::Unicode => {
                let tr = self.lltype(rr);
                Ok((
                    self.gendirectcall(llops, "ll_str_slice", vec![v, a, b], tr)?,
                    rr,
                ))
            }
            Repr::List { .. } => {
                let (items, n) = self.list_parts(llops, v, r);
                let args = vec![items, n, a, b];
                Ok((self.new_list_call(llops, "ll_slice", rr, args)?, rr))
            }
            Repr::ByteArray => {
                let tr = self.lltype(rr);
                let args = vec![v, a, b];
                Ok((
                    self.gendirectcall(llops, "ll_bytearray_slice", args, tr)?,
                    rr,
                ))
            }
            _ => Err(TyperError::new(
                "slicing this value is not supported by `run` yet",
            )),
        }
    }

    /// The constant items of the list `x in l` tests, when `l` is the result of a `newlist`
    /// earlier in the same block whose items the annotator knows as immutable constants (the
    /// reference's `transform_list_contains`).
    fn newlist_constants(&self, hop: &Hop) -> Option<Vec<Value>> {
        let Hlvalue::Var(list) = hop.op.args[0] else {
            return None;
        };
        let hl = &self.ann.graphs[hop.g as usize];
        let block = hl.block(crate::flowspace::BlockId(hop.position.block));
        let newlist = block.operations[..hop.position.op as usize]
            .iter()
            .find(|op| op.result == list && op.opname == crate::interpreter::Op::NewList)?;
        newlist
            .args
            .iter()
            .map(|&a| self.immutable_constant(hop.g, a))
            .collect()
    }

    /// The value of `a` when the annotator knows it as an immutable constant (the reference's
    /// `is_immutable_constant`): a constant number, character, string, None or class, and a
    /// constant tuple or prebuilt-constant PBC (function, frozen object) whatever it holds;
    /// never a prebuilt list, dict, bytearray or (non-frozen) instance.
    fn immutable_constant(&self, g: u32, a: Hlvalue) -> Option<Value> {
        use crate::annotator::model::SomeValue as S;
        let s = self.annotation(g, a);
        match (&s, a) {
            (S::Tuple(_) | S::Pbc { .. } | S::Builtin { .. }, Hlvalue::Const(c)) => Some(c),
            (S::List { .. } | S::Dict { .. } | S::Instance { .. }, _) => None,
            _ => {
                let c = s.konst()?;
                let immutable = match c {
                    Value::Obj(id) => matches!(
                        self.objheap.get(id),
                        crate::objspace::object::Object::Str(_)
                            | crate::objspace::object::Object::Unicode(_)
                            | crate::objspace::object::Object::Class(_)
                    ),
                    _ => true,
                };
                immutable.then_some(c)
            }
        }
    }

    pub(super) fn rtype_contains(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rb = self.intern_repr(Repr::Bool);
        self.char_container_as_str(hop, llops)?;
        let (v, r) = (hop.args_v[0], hop.args_r[0]);
        match self.repr(r).clone() {
            Repr::List { item, .. } => {
                let x = self.inputarg(llops, hop, 1, item)?;
                if let Some(items) = self.newlist_constants(hop) {
                    // The reference rewrites `x in l`, where `l` was built from constants by a
                    // `newlist` earlier in the same block, into a test against those constants
                    // (it is meant for `x in [2, 3]`), even when the list was changed in
                    // between: its binaries answer as if it were not. So do we.
                    let mut eqs = Vec::new();
                    for c in items {
                        let c = Hlvalue::Ll(self.const_value(c, item)?);
                        eqs.push(self.value_eq(llops, c, x, item)?);
                    }
                    return Ok((any_of(llops, eqs), rb));
                }
                let eq = self.item_eq(item)?;
                let (items, n) = self.list_parts(llops, v, r);
                let args = vec![items, n, x];
                let res =
                    self.gendirectcall_eq(llops, "ll_list_contains", args, eq, LlType::BOOL)?;
                Ok((res, rb))
            }
            Repr::Dict { key, .. } => {
                let x = self.inputarg(llops, hop, 1, key)?;
                let res = self.dict_call(llops, "ll_dict_contains", r, vec![v, x], LlType::BOOL)?;
                Ok((res, rb))
            }
            Repr::Str | Repr::Unicode => {
                let x = self.inputarg(llops, hop, 1, r)?;
                Ok((
                    self.gendirectcall(llops, "ll_contains", vec![v, x], LlType::BOOL)?,
                    rb,
                ))
            }
            // a character in a bytearray (the annotator allows nothing else)
            Repr::ByteArray => {
                let rc = self.intern_repr(Repr::Char);
                let x = self.inputarg(llops, hop, 1, rc)?;
                let args = vec![v, x];
                Ok((
                    self.gendirectcall(llops, "ll_bytearray_contains_char", args, LlType::BOOL)?,
                    rb,
                ))
            }
            Repr::Tuple(_) if self.instance_in_constant_tuple(hop) => {
                // `v in (None, nil, false)` with `v` an instance: as the reference, `v` is
                // compared with each constant its annotation can hold (None, prebuilt
                // instances of its class or a subclass), by identity
                let (x, rx) = (hop.args_v[1], hop.args_r[1]);
                let (s_tup, s_x) = (hop.args_s[0].clone(), hop.args_s[1].clone());
                let (
                    SomeValue::Tuple(items),
                    SomeValue::Instance {
                        classdef,
                        can_be_none,
                        ..
                    },
                ) = (&s_tup, &s_x)
                else {
                    unreachable!("checked by instance_in_constant_tuple")
                };
                let mut eqs = Vec::new();
                for s in items.iter() {
                    let fits = match s {
                        SomeValue::None => *can_be_none,
                        SomeValue::Instance { classdef: c, .. } => {
                            self.ann.bookkeeper.issubclass_def(*c, *classdef)
                        }
                        _ => false,
                    };
                    if !fits {
                        continue;
                    }
                    let konst = s.konst().expect("checked by instance_in_constant_tuple");
                    let c = Hlvalue::Ll(self.const_value(konst, rx)?);
                    eqs.push(self.value_eq(llops, x, c, rx)?);
                }
                Ok((any_of(llops, eqs), rb))
            }
            Repr::Tuple(items) => {
                // `x in (a, b, c)`: x compared with each item of a comparable Repr (`tok in
                // ("+", "-")`: the characters as strings), any of the equalities
                let (x, rx) = (hop.args_v[1], hop.args_r[1]);
                let s_items = match &hop.args_s[0] {
                    SomeValue::Tuple(s) => Some(s.clone()),
                    _ => None,
                };
                let mut eqs = Vec::new();
                for (i, &ri) in items.iter().enumerate() {
                    let s_item = s_items.as_ref().and_then(|s| s.get(i));
                    if s_item.is_some_and(|s| !number_kind_contains(&hop.args_s[1], s)) {
                        continue;
                    }
                    let Some(rt) = self.common_repr(ri, rx) else {
                        continue;
                    };
                    let it = llops.genop(
                        LlOp::GetField,
                        vec![v, cfield(&format!("item{}", i))],
                        self.lltype(ri),
                    );
                    let it = self.convertvar(llops, it, ri, rt)?;
                    let xt = self.convertvar(llops, x, rx, rt)?;
                    eqs.push(self.value_eq(llops, it, xt, rt)?);
                }
                Ok((any_of(llops, eqs), rb))
            }
            _ => Err(TyperError::new(
                "`in` of this value is not supported by `run` yet",
            )),
        }
    }

    /// Whether `hop` is `x in t` with `t` a tuple of constants and `x` an instance.
    fn instance_in_constant_tuple(&self, hop: &Hop) -> bool {
        let SomeValue::Tuple(items) = &hop.args_s[0] else {
            return false;
        };
        matches!(hop.args_s[1], SomeValue::Instance { .. })
            && matches!(self.repr(hop.args_r[1]), Repr::Instance(_))
            && items.iter().all(|s| s.konst().is_some())
    }

    /// The Repr to compare values of Reprs `a` and `b` as, if they can be compared with
    /// `==`: the same Repr, the wider of two numbers, a string for a character and a string.
    fn common_repr(&self, a: ReprId, b: ReprId) -> Option<ReprId> {
        let rank = |r: &Repr| match r {
            Repr::Bool => Some((0, 0)),
            Repr::Int(_) => Some((0, 1)),
            Repr::Float => Some((0, 2)),
            Repr::Char => Some((1, 0)),
            Repr::Str => Some((1, 1)),
            Repr::UniChar => Some((2, 0)),
            Repr::Unicode => Some((2, 1)),
            _ => None,
        };
        if a == b {
            return Some(a);
        }
        match (rank(self.repr(a))?, rank(self.repr(b))?) {
            ((ka, x), (kb, y)) if ka == kb => Some(if x >= y { a } else { b }),
            _ => None,
        }
    }

    pub(super) fn rtype_iter(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        if matches!(
            self.repr(hop.args_r[0]),
            Repr::Iter { .. } | Repr::Generator(_)
        ) {
            // iter() of an iterator is itself
            return Ok((hop.args_v[0], hop.args_r[0]));
        }
        match self.repr(rr).clone() {
            Repr::RangeIter => {
                let st = self.types.pointee(tr).unwrap();
                let lazy = match hop.op.args[0] {
                    Hlvalue::Var(v) => self.lazy_ranges.get(&(hop.g, v)).copied(),
                    _ => None,
                };
                let (start, stop, step) = match lazy {
                    Some(x) => x,
                    None => {
                        // a range() list stored somewhere: its iterator from its items
                        let step = self.range_list_step(&hop.args_s[0]).unwrap_or(1);
                        let (items, n) = self.list_parts(llops, hop.args_v[0], hop.args_r[0]);
                        let args = vec![ctype(tr), items, n, cint(step)];
                        let it = self.gendirectcall(llops, "ll_rangeiter_of_list", args, tr)?;
                        return Ok((it, rr));
                    }
                };
                let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                for (f, x) in [("next", start), ("stop", stop), ("step", step)] {
                    llops.genop(LlOp::SetField, vec![it, cfield(f), x], LlType::VOID);
                }
                Ok((it, rr))
            }
            Repr::Iter { container, .. } => {
                let c = self.inputarg(llops, hop, 0, container)?;
                let st = self.types.pointee(tr).unwrap();
                let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                llops.genop(
                    LlOp::SetField,
                    vec![it, cfield("container"), c],
                    LlType::VOID,
                );
                Ok((it, rr))
            }
            _ => Err(TyperError::new(
                "iterating over this value is not supported by `run` yet",
            )),
        }
    }

    pub(super) fn rtype_newlist(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let Repr::List { item, fixed } = self.repr(rr).clone() else {
            return Err(TyperError::new("newlist of a non-list"));
        };
        let n = hop.nargs();
        let mut vals = Vec::new();
        for i in 0..n {
            vals.push(self.inputarg(llops, hop, i, item)?);
        }
        Ok((self.build_list(llops, rr, item, fixed, vals), rr))
    }

    pub fn build_list(
        &mut self,
        llops: &mut LlOps,
        rr: ReprId,
        item: ReprId,
        fixed: bool,
        vals: Vec<Hlvalue>,
    ) -> Hlvalue {
        let tr = self.lltype(rr);
        let it = self.lltype(item);
        let arr = self.types.gc_array(it);
        let arr_ptr = self.types.ptr(arr);
        let n = vals.len() as i64;
        let a = llops.genop(LlOp::MallocVarsize, vec![ctype(arr), cint(n)], arr_ptr);
        for (i, v) in vals.into_iter().enumerate() {
            llops.genop(LlOp::SetArrayItem, vec![a, cint(i as i64), v], LlType::VOID);
        }
        if fixed {
            return a;
        }
        let st = self.types.pointee(tr).unwrap();
        let l = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
        llops.genop(
            LlOp::SetField,
            vec![l, cfield("length"), cint(n)],
            LlType::VOID,
        );
        llops.genop(LlOp::SetField, vec![l, cfield("items"), a], LlType::VOID);
        l
    }
}

/// Whether any of the Bool values `eqs` is true (false for none): `x in` a set of candidates
/// compared one by one.
fn any_of(llops: &mut LlOps, eqs: Vec<Hlvalue>) -> Hlvalue {
    let mut acc = cint(0);
    for e in eqs {
        let ei = llops.genop(LlOp::CastBoolToInt, vec![e], LlType::SIGNED);
        acc = llops.genop(LlOp::IntOr, vec![acc, ei], LlType::SIGNED);
    }
    llops.genop(LlOp::IntNe, vec![acc, cint(0)], LlType::BOOL)
}

/// Whether the number annotation `x` contains the tuple item `item` (their union is `x`),
/// which decides whether the reference's `x in (constants)` compares `x` with that item at
/// all: an int with ints and bools but not floats, a float with every number, a bool only
/// with bools and only if it carries no knowntypedata (the union with a constant drops it:
/// `b in (True,)` is false for `b = n == 1`, and `n in (1.0, 5)` for `n == 1`). Other kinds
/// compare as before.
fn number_kind_contains(x: &SomeValue, item: &SomeValue) -> bool {
    !matches!(
        (x, item),
        (SomeValue::Bool { ktd: Some(_), .. }, _)
            | (
                SomeValue::Bool { .. },
                SomeValue::Integer { .. } | SomeValue::Float { .. }
            )
            | (SomeValue::Integer { .. }, SomeValue::Float { .. })
    )
}
