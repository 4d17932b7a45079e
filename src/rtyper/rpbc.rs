//! Prebuilt constants and calls: the Repr of a set of prebuilt callables (a single one is
//! Void: it is known statically; several of one call family are a function pointer), the
//! low-level constant of every prebuilt value (strings, tuples, lists, instances, classes,
//! functions become containers of the low-level heap or function pointers), and the calls
//! of graphs (`direct_call` with the arguments converted to the callee's Reprs, defaults
//! filled in).

use super::hop::LlOps;
use super::rmodel::{Repr, ReprId};
use super::{LlFunction, RTyper, TyperError};
use crate::annotator::description::Desc;
use crate::annotator::model::DescId;
use crate::builtins::BuiltinId as B;
use crate::fasthash::HashMap;
use crate::flowspace::{Hlvalue, LlConstant, VarId};
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue, Offset};
use crate::objspace::object::{Object, Opaque, Value};
use std::rc::Rc;

/// The Repr of each set of prebuilt objects already seen, keyed by the address of the shared
/// set. The set is kept alive here, so that address cannot be reused by another set. And
/// the families of frozen objects (`rfrozen`), once computed.
#[derive(Default)]
pub(super) struct PbcReprs {
    by_set: HashMap<PbcKey, (Rc<[DescId]>, ReprId)>,
    pub frozen: Option<super::rfrozen::FrozenFamilies>,
}

/// The address of a shared set of descriptions, and whether the value may also be None.
type PbcKey = (*const DescId, bool);

impl PbcReprs {
    pub(super) fn get(&self, descs: &Rc<[DescId]>, can_be_none: bool) -> Option<ReprId> {
        self.by_set
            .get(&(descs.as_ptr(), can_be_none))
            .map(|(_, id)| *id)
    }

    pub(super) fn insert(&mut self, descs: &Rc<[DescId]>, can_be_none: bool, id: ReprId) {
        self.by_set
            .insert((descs.as_ptr(), can_be_none), (descs.clone(), id));
    }
}

impl RTyper<'_> {
    pub(super) fn pbc_repr(
        &mut self,
        descs: &[DescId],
        can_be_none: bool,
    ) -> Result<ReprId, TyperError> {
        let bk = &self.ann.bookkeeper;
        let all = |f: &dyn Fn(&Desc) -> bool| descs.iter().all(|d| f(bk.desc(*d)));
        if all(&|d| matches!(d, Desc::Method(_))) {
            // bound methods: represented by their `self`
            let mut selfdef = None;
            let mut name = None;
            for d in descs {
                if let Desc::Method(m) = bk.desc(*d) {
                    let cd = m.selfclassdef.unwrap_or(m.origin);
                    selfdef = Some(match selfdef {
                        None => cd,
                        Some(p) => bk.commonbase(p, cd).unwrap_or(p),
                    });
                    name = Some(m.name.clone());
                }
            }
            let self_repr = self.intern_repr(Repr::Instance(selfdef.unwrap()));
            return Ok(self.intern_repr(Repr::Method {
                self_repr,
                name: name.unwrap(),
            }));
        }
        if descs.len() == 1 && !can_be_none {
            return Ok(self.intern_repr(Repr::Prebuilt(descs[0])));
        }
        if all(&|d| matches!(d, Desc::Function(_))) {
            let mut graphs = self.function_graphs(descs);
            if graphs.is_empty() {
                return Ok(self.intern_repr(Repr::Void));
            }
            self.sort_family(&mut graphs);
            return Ok(self.intern_repr(Repr::FuncPtr(graphs)));
        }
        if all(&|d| matches!(d, Desc::Class(_))) {
            let mut common = None;
            for d in descs {
                if let Some(cd) = self.ann.bookkeeper.class_desc(*d).and_then(|c| c.classdef) {
                    common = Some(match common {
                        None => cd,
                        Some(p) => self.ann.bookkeeper.commonbase(p, cd).unwrap_or(p),
                    });
                }
            }
            return Ok(self.intern_repr(Repr::Class(common)));
        }
        if let Some(r) = self.frozen_pbc_repr(descs) {
            return r;
        }
        if descs.len() == 1 {
            return Ok(self.intern_repr(Repr::Prebuilt(descs[0])));
        }
        Err(TyperError::new(
            "a variable holding one of several prebuilt objects is not supported by `run` yet",
        ))
    }

    /// The graphs of a set of function descriptions, sorted, without duplicates.
    pub fn function_graphs(&self, descs: &[DescId]) -> Vec<u32> {
        let mut graphs: Vec<u32> = descs
            .iter()
            .filter_map(|d| self.single_graph_of(*d))
            .collect();
        graphs.sort();
        graphs.dedup();
        graphs
    }

    /// The pointer type of the function of graph `g`: its arguments' and result's types.
    pub fn funcptr_type(&mut self, g: u32) -> LlType {
        let (args, result) = self.graph_signature(g);
        let args: Vec<LlType> = args.iter().map(|r| self.lltype(*r)).collect();
        let result = self.lltype(result);
        let ft = self.types.func(args, result);
        self.types.ptr(ft)
    }

    /// The parameters of annotated graph `g` its callers pass: all of them, but those a
    /// call family leaves out for each function's own defaults (`own_defaults`).
    pub fn entry_params(&self, g: u32) -> Vec<VarId> {
        let hl = &self.ann.graphs[g as usize];
        let mut params = hl.block(hl.startblock).inputargs.clone();
        if let Some((arity, _)) = self.ann.own_defaults.get(&g) {
            params.truncate(*arity);
        }
        params
    }

    /// The Reprs of the parameters and of the result of annotated graph `g`.
    pub fn graph_signature(&mut self, g: u32) -> (Vec<ReprId>, ReprId) {
        if let Some(sig) = self.family_sig.get(&g) {
            return sig.clone();
        }
        let params = self.entry_params(g);
        let hl = &self.ann.graphs[g as usize];
        let ret = hl.block(hl.returnblock).inputargs[0];
        let void = self.intern_repr(Repr::Void);
        let args = params
            .iter()
            .map(|v| self.var_repr(g, *v).unwrap_or(void))
            .collect();
        let result = if self.is_generator_graph(g) {
            // calling a generator function creates its frame
            self.intern_repr(Repr::Generator(g))
        } else {
            self.var_repr(g, ret).unwrap_or(void)
        };
        (args, result)
    }

    /// The function pointer of graph `g`.
    pub fn graph_funcptr(&mut self, g: u32) -> LlPtr {
        if let Some(&i) = self.graph_func.get(&g) {
            return LlPtr::Func(i);
        }
        self.st.functions.push(LlFunction::Graph {
            graph: g,
            name: self.ann.graphs[g as usize].name.clone(),
        });
        let i = self.functions.len() as u32 - 1;
        self.graph_func.insert(g, i);
        LlPtr::Func(i)
    }

    /// A call of graph `g` with `args` (values held in Reprs `arg_reprs`), the defaults of
    /// the function filling missing parameters. Returns the result and its Repr.
    pub fn call_graph(
        &mut self,
        llops: &mut LlOps,
        g: u32,
        args: Vec<(Hlvalue, ReprId)>,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let (params, result) = self.graph_signature(g);
        let mut vals = Vec::new();
        let fp = self.graph_funcptr(g);
        let fty = self.funcptr_type(g);
        vals.push(Hlvalue::Ll(LlConstant {
            ty: fty,
            value: LlValue::Ptr(fp),
        }));
        if args.len() > params.len() {
            return Err(TyperError::new(format!(
                "`{}` called with {} arguments, takes {}",
                self.ann.graphs[g as usize].name,
                args.len(),
                params.len()
            )));
        }
        for (i, (v, r)) in args.iter().enumerate() {
            vals.push(self.convertvar(llops, *v, *r, params[i])?);
        }
        if args.len() < params.len() {
            let defaults = self.defaults_of(g);
            let missing = params.len() - args.len();
            if defaults.len() < missing {
                return Err(TyperError::new(format!(
                    "`{}` called with too few arguments",
                    self.ann.graphs[g as usize].name
                )));
            }
            for (k, &d) in defaults[defaults.len() - missing..].iter().enumerate() {
                let r = params[args.len() + k];
                vals.push(Hlvalue::Ll(self.const_value(d, r)?));
            }
        }
        let rt = self.lltype(result);
        Ok((llops.genop(LlOp::DirectCall, vals, rt), result))
    }

    fn defaults_of(&self, g: u32) -> Vec<Value> {
        let Some(d) = self.ann.graph_descs.get(g as usize).copied().flatten() else {
            return Vec::new();
        };
        match self.ann.bookkeeper.desc(d) {
            Desc::Function(f) => f.defaults.to_vec(),
            _ => Vec::new(),
        }
    }

    /// A prebuilt `rpy_string` holding `bytes` (one container per distinct string).
    pub fn prebuilt_str(&mut self, bytes: &[u8]) -> LlPtr {
        if let Some(&p) = self.str_consts.get(bytes) {
            return p;
        }
        let st = self.types.pointee(self.str_ptr).unwrap();
        let p = self.st.heap.malloc(&self.st.types, st, bytes.len());
        if let Ok(b) = self.heap.bytes_mut(p) {
            b.copy_from_slice(bytes);
        }
        self.str_consts.insert(bytes.to_vec(), p);
        p
    }

    /// A prebuilt `rpy_string` as a constant operand.
    pub fn str_constant(&mut self, bytes: &[u8]) -> Hlvalue {
        let p = self.prebuilt_str(bytes);
        Hlvalue::Ll(LlConstant {
            ty: self.str_ptr,
            value: LlValue::Ptr(p),
        })
    }

    /// A prebuilt `rpy_unicode` holding the code points `chars`.
    pub fn prebuilt_unicode(&mut self, chars: &[u32]) -> LlPtr {
        let st = self.types.pointee(self.unicode_ptr).unwrap();
        let p = self.st.heap.malloc(&self.st.types, st, chars.len());
        if let Ok(vals) = self.heap.values_mut(p) {
            for (i, &c) in chars.iter().enumerate() {
                vals[i] = LlValue::UniChar(c);
            }
        }
        p
    }

    /// The low-level constant of the prebuilt value `v` in Repr `r`.
    pub fn const_value(&mut self, v: Value, r: ReprId) -> Result<LlConstant, TyperError> {
        let ty = self.lltype(r);
        let k = |value| Ok(LlConstant { ty, value });
        let repr = self.repr(r).clone();
        match (&repr, v) {
            (Repr::Void | Repr::Prebuilt(_), _) => k(LlValue::Void),
            (Repr::External(i), _) => {
                let value = self.ext_const(*i, v, r)?;
                k(value)
            }
            (_, Value::None) if self.types.is_ptr(ty) => k(LlValue::Ptr(LlPtr::Null)),
            // a module-level `lltype.nullptr(T)`
            (Repr::Ptr(_), Value::Obj(id))
                if crate::annotator::llannotation::is_null_ptr_obj(self.objheap, id) =>
            {
                k(LlValue::Ptr(LlPtr::Null))
            }
            (Repr::Bool, Value::Bool(b)) => k(LlValue::Bool(b)),
            (Repr::Bool, Value::Int(i)) => k(LlValue::Bool(i != 0)),
            // `rffi_platform.Has`/`Defined`: whether the C text compiles
            (Repr::Bool, Value::Obj(id)) if self.objheap.opaque(id) == Some(Opaque::Bool) => {
                match (self.ask_c_compiler, self.objheap.opaque_probe(id)) {
                    (false, _) => k(LlValue::Bool(false)),
                    (true, Some(p)) => {
                        let text = p.bool_text();
                        match crate::platform::probe::compiles(&text, &p.include_dirs) {
                            Ok(b) => k(LlValue::Bool(b)),
                            Err(e) => Err(TyperError::new(format!(
                                "the C compiler could not be asked about rffi_platform's answer: {e}"
                            ))),
                        }
                    }
                    (true, None) => Err(self.bad_const(v, r)),
                }
            }
            (Repr::Int(_) | Repr::Float, Value::Bool(b)) => Ok(self
                .convert_const_ll(LlValue::Int(b as i64), LlType::SIGNED, ty)
                .unwrap()),
            (Repr::Int(_) | Repr::Float, Value::Int(i)) => {
                // The reference converts a constant to a signed narrow type by building
                // the r_int32/r_int16/r_int8 value, which refuses what does not fit
                // (`r_int32(0xFFFFFFFF)` stops the translation); unsigned ones wrap.
                if let Some((bits, true)) = ty.narrow_bits() {
                    let half = 1i64 << (bits - 1);
                    if i >= half || i < -half {
                        return Err(TyperError::rejected(
                            "RPY217",
                            format!("{i} does not fit in a signed {bits}-bit integer: the reference's typer stops with OverflowError when it converts this constant"),
                        ));
                    }
                }
                Ok(self
                    .convert_const_ll(LlValue::Int(i), LlType::SIGNED, ty)
                    .unwrap())
            }
            (Repr::Float, Value::Float(f)) => k(LlValue::Float(binary_float_const(f))),
            (Repr::Int(_) | Repr::Float, Value::Obj(id)) => match self.objheap.get(id) {
                Object::RInt { value, .. } => {
                    let value = *value;
                    if ty == LlType::SIGNEDLONGLONGLONG {
                        k(crate::lltypesystem::int128::c_constant(value))
                    } else if matches!(ty, LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG) {
                        k(LlValue::Uint(value as u64))
                    } else if ty == LlType::FLOAT {
                        k(LlValue::Float(value as f64))
                    } else {
                        k(LlValue::Int(value as i64))
                    }
                }
                Object::Long(value) => {
                    let value = *value;
                    if ty == LlType::SIGNEDLONGLONGLONG {
                        k(crate::lltypesystem::int128::c_constant(value))
                    } else if matches!(ty, LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG) {
                        k(LlValue::Uint(value as u64))
                    } else {
                        k(LlValue::Int(value as i64))
                    }
                }
                // a C constant `rffi_platform` asks for: the C compiler's answer when
                // translating for `run` and `build`, any value when only checking
                Object::Unknown { .. } if self.objheap.opaque(id) == Some(Opaque::Int) => {
                    let n = match (self.ask_c_compiler, self.objheap.opaque_probe(id)) {
                        (false, _) => 0,
                        (true, Some(p)) => crate::platform::probe::integer_constant(&p.prelude, &p.expr, &p.include_dirs)
                            .map_err(|e| {
                                let name = match self.objheap.get(id) {
                                    Object::Unknown { name, .. } => name.to_string(),
                                    _ => String::new(),
                                };
                                TyperError::new(format!(
                                    "the value of {name} (from rffi_platform) could not be had from the C compiler: {e}"
                                ))
                            })?,
                        (true, None) => return Err(self.bad_const(v, r)),
                    };
                    Ok(self
                        .convert_const_ll(LlValue::Int(n), LlType::SIGNED, ty)
                        .unwrap())
                }
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::Char, Value::Obj(id)) => match self.objheap.get(id) {
                Object::Str(s) if s.len() == 1 => k(LlValue::Char(s[0])),
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::UniChar, Value::Obj(id)) => match self.objheap.get(id) {
                Object::Unicode(s) if s.len() == 1 => k(LlValue::UniChar(s.codes()[0])),
                Object::Str(s) if s.len() == 1 => k(LlValue::UniChar(s[0] as u32)),
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::Str, Value::Obj(id)) => match self.objheap.get(id) {
                Object::Str(s) => {
                    let s = s.clone();
                    k(LlValue::Ptr(self.prebuilt_str(&s)))
                }
                // a unicode character constant where a str is expected (`u"-" in s`): the
                // reference converts characters by their code
                Object::Unicode(u) if u.codes().iter().all(|&c| c < 256) => {
                    let bytes: Vec<u8> = u.codes().iter().map(|&c| c as u8).collect();
                    k(LlValue::Ptr(self.prebuilt_str(&bytes)))
                }
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::VRef, _) => Ok(LlConstant {
                ty,
                value: self.prebuilt_vref(v, r)?,
            }),
            (Repr::WeakRef, Value::Obj(id)) => Ok(LlConstant {
                ty,
                value: LlValue::Ptr(self.prebuilt_weakref(id, r)?),
            }),
            (Repr::ByteArray, Value::Obj(id)) => match self.objheap.get(id) {
                Object::ByteArray(b) => {
                    // a new copy at each conversion, as the reference converts a prebuilt
                    // bytearray (its binary gives each use of the constant its own bytes)
                    let b = b.clone();
                    let st = self.types.pointee(self.bytearray_ptr).unwrap();
                    let p = self.st.heap.malloc(&self.st.types, st, b.len());
                    if let Ok(dst) = self.heap.bytes_mut(p) {
                        dst.copy_from_slice(&b);
                    }
                    k(LlValue::Ptr(p))
                }
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::Unicode, Value::Obj(id)) => match self.objheap.get(id) {
                Object::Unicode(_) | Object::Str(_) => {
                    let chars: Vec<u32> = match self.objheap.get(id) {
                        Object::Unicode(u) => u.codes().to_vec(),
                        Object::Str(b) => b.iter().map(|&c| c as u32).collect(),
                        _ => Vec::new(),
                    };
                    k(LlValue::Ptr(self.prebuilt_unicode(&chars)))
                }
                _ => Err(self.bad_const(v, r)),
            },
            (Repr::Tuple(items), Value::Obj(id)) => {
                if let Some(&p) = self.prebuilt.get(&(id, r)) {
                    return k(LlValue::Ptr(p));
                }
                let Object::Tuple(vals) = self.objheap.get(id) else {
                    return Err(self.bad_const(v, r));
                };
                let vals = vals.clone();
                let st = self.types.pointee(ty).unwrap();
                let p = self.st.heap.malloc(&self.st.types, st, 0);
                self.prebuilt.insert((id, r), p);
                for (i, (iv, ir)) in vals.into_iter().zip(items.clone()).enumerate() {
                    let c = self.const_value(iv, ir)?;
                    let _ = self.st.heap.setfield(
                        &self.st.types,
                        p,
                        st,
                        &format!("item{}", i),
                        c.value,
                    );
                }
                k(LlValue::Ptr(p))
            }
            (Repr::List { item, fixed }, Value::Obj(id)) => {
                if let Some(&p) = self.prebuilt.get(&(id, r)) {
                    return k(LlValue::Ptr(p));
                }
                let Object::List(vals) = self.objheap.get(id) else {
                    return Err(self.bad_const(v, r));
                };
                let vals = vals.clone();
                let (item, fixed) = (*item, *fixed);
                let item_ty = self.lltype(item);
                let arr = self.types.gc_array(item_ty);
                let a = self.st.heap.malloc(&self.st.types, arr, vals.len());
                let p = if fixed {
                    a
                } else {
                    let st = self.types.pointee(ty).unwrap();
                    let p = self.st.heap.malloc(&self.st.types, st, 0);
                    let _ = self.st.heap.setfield(
                        &self.st.types,
                        p,
                        st,
                        "length",
                        LlValue::Int(vals.len() as i64),
                    );
                    let _ = self
                        .st
                        .heap
                        .setfield(&self.st.types, p, st, "items", LlValue::Ptr(a));
                    p
                };
                self.prebuilt.insert((id, r), p);
                for (i, iv) in vals.into_iter().enumerate() {
                    let c = self.const_value(iv, item)?;
                    let _ = self.heap.setitem(a, i as i64, c.value);
                }
                k(LlValue::Ptr(p))
            }
            (Repr::Instance(_) | Repr::Object, Value::Obj(id)) => {
                let p = self.prebuilt_instance(id)?;
                k(LlValue::Ptr(p))
            }
            (Repr::Frozen(_), Value::Obj(id)) => self.frozen_const(id, r),
            (Repr::Class(_), Value::Obj(id)) => match self.classdef_of_class(id) {
                Some(cd) => k(LlValue::Ptr(self.classes.vtable_ptr[&cd])),
                None => {
                    let name = crate::annotator::Bookkeeper::class_name(self.objheap, id);
                    k(LlValue::Ptr(self.extra_vtable(&name)))
                }
            },
            (Repr::FuncPtr(_), Value::Obj(id)) => {
                // the function's graph: through its description, or the graphs built for it
                let by_desc = self
                    .ann
                    .bookkeeper
                    .desc_of_obj
                    .get(&id)
                    .and_then(|d| self.single_graph_of(*d));
                let g = by_desc.or_else(|| {
                    self.ann
                        .graph_of_func
                        .get(&id)
                        .and_then(|gs| gs.first())
                        .map(|g| *g as u32)
                });
                match g {
                    Some(g) => k(LlValue::Ptr(self.graph_funcptr(g))),
                    None => Err(TyperError::new(format!(
                        "function `{}` is never called: it has no graph to point to",
                        match self.objheap.get(id) {
                            Object::Function(f) => f.name.to_string(),
                            other => format!("{:?}", std::mem::discriminant(other)),
                        }
                    ))),
                }
            }
            (
                Repr::Method { self_repr, .. }
                | Repr::BuiltinMethod { self_repr, .. }
                | Repr::FrozenMethod { self_repr, .. },
                _,
            ) => {
                // the constant's `self` (a method bound to a prebuilt value)
                let sr = *self_repr;
                let v = match v {
                    Value::Obj(id) => match self.objheap.get(id) {
                        Object::Builtin {
                            bound_self: Some(s),
                            ..
                        } => *s,
                        Object::BoundMethod { self_value, .. } => *self_value,
                        _ => v,
                    },
                    _ => v,
                };
                let c = self.const_value(v, sr)?;
                k(c.value)
            }
            (Repr::Dict { key, value, custom }, Value::Obj(id)) => {
                if let Some(&p) = self.prebuilt.get(&(id, r)) {
                    return k(LlValue::Ptr(p));
                }
                let mut weak = false;
                let entries = match self.objheap.get(id) {
                    // in the order CPython iterates over it (the reference converts
                    // `dictobj.items()`), when that order is reproducible
                    Object::Dict(d) => d.py_entries(),
                    // an r_dict made at import time: in the order CPython iterates over
                    // the untranslated r_dict's own dict (keys hashed by its function),
                    // which the object space keeps
                    Object::Instance(inst)
                        if crate::annotator::is_bundled_r_dict(self.objheap, inst.class) =>
                    {
                        crate::annotator::r_dict_entries(self.objheap, id)
                    }
                    // a weak value dictionary made at import time: its live entries
                    Object::Builtin {
                        id: B::WeakValueDictPrebuilt,
                        ..
                    } => {
                        weak = true;
                        self.prebuilt_weakdict_entries(id)
                    }
                    // a weak key dictionary made at import time: empty, as the reference's
                    // RTyper requires (an entry whose key is alive is refused)
                    Object::Builtin {
                        id: B::WeakKeyDictPrebuilt,
                        ..
                    } => {
                        let live = crate::objspace::weakdicts::live_key_entries(self.objheap, id);
                        if !live.is_empty() {
                            return Err(TyperError::rejected(
                                "RPY217",
                                "got a non-empty prebuilt RWeakKeyDictionary: an \
                                 RWeakKeyDictionary made at import time must have no entry \
                                 whose key is still alive when the program is translated",
                            ));
                        }
                        Vec::new()
                    }
                    _ => return Err(self.bad_const(v, r)),
                };
                let (key, value, custom) = (*key, *value, *custom);
                let st = self.types.pointee(ty).unwrap();
                let ept = self.types.field_type(st, "entries").unwrap();
                let arr = self.types.pointee(ept).unwrap();
                let p = self.st.heap.malloc(&self.st.types, st, 0);
                let e = self.st.heap.malloc(&self.st.types, arr, entries.len());
                self.prebuilt.insert((id, r), p);
                let n = entries.len() as i64;
                let _ = self
                    .st
                    .heap
                    .setfield(&self.st.types, p, st, "entries", LlValue::Ptr(e));
                let _ = self
                    .st
                    .heap
                    .setfield(&self.st.types, p, st, "num_live", LlValue::Int(n));
                let _ = self
                    .st
                    .heap
                    .setfield(&self.st.types, p, st, "num_used", LlValue::Int(n));
                // an r_dict holds its key equality and hash functions
                if let Some((eq, hash)) = custom {
                    self.set_prebuilt_r_dict_functions(p, st, id, eq, hash)?;
                }
                for (i, (kv, vv)) in entries.into_iter().enumerate() {
                    let kc = self.const_value(kv, key)?;
                    let vc = match (weak, vv) {
                        (true, Value::Obj(inst)) => {
                            LlValue::Ptr(self.prebuilt_weakref_to(inst, value)?)
                        }
                        _ => self.const_value(vv, value)?.value,
                    };
                    for (f, x) in [
                        ("key", kc.value),
                        ("value", vc),
                        ("live", LlValue::Bool(true)),
                    ] {
                        let path = [Offset::Index(i as i64), Offset::Field(f.into())];
                        let _ = self.st.heap.setinterior(&self.st.types, e, arr, &path, x);
                    }
                }
                k(LlValue::Ptr(p))
            }
            _ => Err(self.bad_const(v, r)),
        }
    }

    fn bad_const(&self, v: Value, r: ReprId) -> TyperError {
        if let Value::Obj(id) = v {
            if let (Some(_), Object::Unknown { name, .. }) =
                (self.objheap.opaque(id), self.objheap.get(id))
            {
                // `rffi_platform`'s answers: the toolchain runs C programs for them
                return TyperError::new(format!(
                    "{name} (from rffi_platform) is a value rpy-lsp does not compute: it asks the C compiler only for integer constants, sizes and whether names exist, and runs no C program"
                ));
            }
        }
        TyperError::new(format!(
            "the constant {:?} cannot be represented as {}",
            v,
            self.types.name(self.lltype(r))
        ))
    }

    /// A prebuilt instance: its class's structure, with the fields its class definition
    /// knows, filled from the import-time object.
    pub(super) fn prebuilt_instance(
        &mut self,
        id: crate::objspace::object::ObjId,
    ) -> Result<LlPtr, TyperError> {
        let obj_repr = self.intern_repr(Repr::Object);
        if let Some(&p) = self.prebuilt.get(&(id, obj_repr)) {
            return Ok(p);
        }
        let Object::Instance(inst) = self.objheap.get(id) else {
            return Err(TyperError::new("a prebuilt object that is not an instance"));
        };
        let (cls, dict) = (inst.class, inst.dict.clone());
        let Some(cd) = self.classdef_of_class(cls) else {
            return Err(TyperError::new("a prebuilt instance of an unknown class"));
        };
        let st = self.classes.inst[&cd];
        let p = self.st.heap.malloc(&self.st.types, st, 0);
        self.prebuilt.insert((id, obj_repr), p);
        let vt = self.classes.vtable_ptr[&cd];
        let object = self.classes.object;
        let _ = self
            .st
            .heap
            .setfield(&self.st.types, p, object, "typeptr", LlValue::Ptr(vt));
        let mut c = Some(cd);
        while let Some(owner) = c {
            let fields = self.classes.fields.get(&owner).cloned().unwrap_or_default();
            let ost = self.classes.inst[&owner];
            for (attr, r) in fields {
                let value = dict.get(&attr).or_else(|| self.class_default(cd, &attr));
                if let Some(value) = value {
                    let c = self.const_value(value, r)?;
                    let _ = self.st.heap.setfield(
                        &self.st.types,
                        p,
                        ost,
                        &super::rclass::inst_field(&attr),
                        c.value,
                    );
                }
            }
            c = self.ann.bookkeeper.classdefs[owner.index()].basedef;
        }
        Ok(p)
    }

    /// The class-level default of an instance attribute (a constant in a class body).
    pub fn class_default(
        &self,
        cd: crate::annotator::model::ClassDefId,
        attr: &str,
    ) -> Option<Value> {
        match self.lookup_class_attr(cd, attr)? {
            crate::annotator::classdef::ClassAttr::Const(v) => Some(v),
            _ => None,
        }
    }

    /// Reads the bytes of a prebuilt string container (for tests and constant folding).
    pub fn str_bytes(&self, p: LlPtr) -> Option<Vec<u8>> {
        let st = self.types.pointee(self.str_ptr)?;
        let n = self.heap.len(p).ok()?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let c = self
                .heap
                .getinterior(
                    &self.types,
                    p,
                    st,
                    &[Offset::Field("chars".into()), Offset::Index(i as i64)],
                )
                .ok()?;
            out.push(c.as_int() as u8);
        }
        Some(out)
    }
}

/// A float constant as the reference's compiled program holds it. Its C source writes a
/// NaN constant as `HUGE_VAL/HUGE_VAL` (negated when the NaN has its sign bit), which the
/// C compiler does not fold (the division raises the invalid-operation flag), so the
/// binary's NaN has the sign of the machine's default NaN, flipped for a negative
/// constant: on x86-64, whose default NaN is negative, the opposite of the constant's.
/// IEEE 754 leaves the sign of a NaN an operation makes unspecified, so a program that
/// looks at it (`copysign`, `float2longlong`) depends on this accident.
pub(crate) fn binary_float_const(f: f64) -> f64 {
    if !f.is_nan() {
        return f;
    }
    // the machine's default NaN: an invalid operation it computes (not folded)
    let default = std::hint::black_box(f64::INFINITY) / std::hint::black_box(f64::INFINITY);
    if f.is_sign_negative() {
        -default
    } else {
        default
    }
}
