//! Annotations of low-level code (seed 000, "Implementing RPython types"; the reference's
//! `SomePtr`): the low-level helpers the RTyper annotates late (`annotate_helper`) and user
//! code written with `lltype`. Takes the operations whose receiver is a pointer, an interior
//! pointer or a low-level type and gives their annotations; turns objects of the bundled
//! `lltype` model into types of the bookkeeper's arena (`Bookkeeper::lltypes`).
//!
//! The annotations are `SomeValue::Ptr(P)` (P a `Ptr` type), `SomeValue::InteriorPtr` (an
//! inlined array of a GC structure, `s.chars`) and `SomeValue::LlType(T)` (a type as a
//! constant value), and `SomeValue::ArrayItem` (a structure inlined in a GC array,
//! `d.entries[i]`, whose fields are then read and written).

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId;
use crate::flowspace::SpaceOperation;
use crate::interpreter::{ConcreteSpace, Op};
use crate::lltypesystem::{LlType, LlTypes, TypeDef};
use crate::objspace::object::{Heap, IntKind, ObjId, Object, Value};
use std::rc::Rc;

use SomeValue as S;

/// The annotation of a value of low-level type `t` (a field, an array item, a result).
pub fn ll_to_annotation(types: &LlTypes, t: LlType) -> SomeValue {
    match t {
        LlType::SIGNED => SomeValue::int(),
        LlType::UNSIGNED => SomeValue::Integer {
            nonneg: true,
            kind: IntKind::Unsigned,
            konst: None,
        },
        LlType::SIGNEDLONGLONG => SomeValue::Integer {
            nonneg: false,
            kind: IntKind::LongLong,
            konst: None,
        },
        LlType::SIGNEDLONGLONGLONG => SomeValue::Integer {
            nonneg: false,
            kind: IntKind::LongLongLong,
            konst: None,
        },
        LlType::UNSIGNEDLONGLONG => SomeValue::Integer {
            nonneg: true,
            kind: IntKind::ULongLong,
            konst: None,
        },
        LlType::FLOAT => SomeValue::float(),
        LlType::SINGLEFLOAT => SomeValue::SingleFloat,
        _ if t.narrow_bits().is_some() => {
            let (bits, signed) = t.narrow_bits().unwrap_or((32, true));
            SomeValue::Integer {
                nonneg: !signed,
                kind: IntKind::Narrow { bits, signed },
                konst: None,
            }
        }
        LlType::CHAR => S::Char {
            no_nul: false,
            konst: None,
        },
        LlType::UNICHAR => S::UnicodeCodePoint {
            no_nul: false,
            konst: None,
        },
        LlType::BOOL => SomeValue::bool(),
        LlType::VOID => S::None,
        t if types.is_ptr(t) => S::Ptr(t),
        _ => S::Impossible,
    }
}

/// The annotation of field `name` (of type `ft`) of the structure `s`: an integer field
/// of a configured structure whose C type is unknown (`check`) reads as a plain int, so
/// that neither its narrowness nor its sign makes a false error.
fn field_annotation(types: &LlTypes, s: LlType, name: &str, ft: LlType) -> SomeValue {
    if types.is_c_unknown_int(s, name) {
        return SomeValue::int();
    }
    ll_to_annotation(types, ft)
}

/// `v` with any integer kind taken as a machine word (and a bool or a character as one
/// too: the C field may be `char` or `_Bool`): what an integer field of unknown C type
/// takes.
fn widened(v: &SomeValue) -> SomeValue {
    match v {
        S::Integer { .. } | S::Bool { .. } | S::Char { .. } => SomeValue::int(),
        other => other.clone(),
    }
}

/// Whether `id` is the `lltype` model's import-time null pointer (`_NullPtr`, what
/// `lltype.nullptr(T)` gives outside translated code).
pub fn is_null_ptr_obj(heap: &Heap, id: ObjId) -> bool {
    let Object::Instance(inst) = heap.get(id) else {
        return false;
    };
    heap.class(inst.class).is_some_and(|c| {
        &*c.name == "_NullPtr"
            && c.module.is_some_and(|m| {
                matches!(heap.get(m), Object::Module(m)
                    if m.bundled && &*m.name == "rpython.rtyper.lltypesystem.lltype")
            })
    })
}

/// The pointer type of an import-time null pointer (`lltype.nullptr(T)` at module level):
/// a pointer to `T`; `None` for any other object, or a `T` rpy-lsp does not model.
pub fn null_ptr_type(
    heap: &Heap,
    types: &mut LlTypes,
    cache: &mut crate::fasthash::HashMap<ObjId, LlType>,
    id: ObjId,
) -> Option<LlType> {
    if !is_null_ptr_obj(heap, id) {
        return None;
    }
    let Object::Instance(inst) = heap.get(id) else {
        return None;
    };
    let Some(Value::Obj(to)) = inst.dict.get("_T") else {
        return None;
    };
    let to = lltype_of_obj(heap, types, cache, to)?;
    (!to.is_primitive()).then(|| types.ptr(to))
}

/// The low-level type of an object of the bundled `lltype` model, built on first use
/// (structures by object identity, so that one `GcStruct` is one type).
pub fn lltype_of_obj(
    heap: &Heap,
    types: &mut LlTypes,
    cache: &mut crate::fasthash::HashMap<ObjId, LlType>,
    id: ObjId,
) -> Option<LlType> {
    if let Some(&t) = cache.get(&id) {
        return Some(t);
    }
    let Object::Instance(inst) = heap.get(id) else {
        return None;
    };
    let mro = &heap.class(inst.class)?.mro;
    let kinds: Vec<&str> = mro
        .iter()
        .filter_map(|&c| heap.class(c).map(|c| &*c.name))
        .collect();
    if !kinds.contains(&"LowLevelType") {
        return None;
    }
    let attr = |name: &str| -> Option<Value> {
        inst.dict.get(name).or_else(|| {
            mro.iter()
                .find_map(|&c| heap.class(c).and_then(|c| c.dict.get(name)))
        })
    };
    let gc = attr("_gckind").and_then(|v| heap.str_value(v)) == Some(b"gc");
    let sub = |v: Value, types: &mut LlTypes, cache: &mut _| match v {
        Value::Obj(o) => lltype_of_obj(heap, types, cache, o),
        _ => None,
    };
    if kinds.contains(&"ForwardReference") {
        // the type it became (`become`), which a `Ptr` made before may point to
        let t = sub(attr("_become")?, types, cache)?;
        cache.insert(id, t);
        return Some(t);
    }
    let t = if kinds.contains(&"Primitive") {
        let name = attr("_name").and_then(|v| heap.str_value(v))?;
        match name {
            b"Signed" => LlType::SIGNED,
            b"Unsigned" => LlType::UNSIGNED,
            b"SignedLongLong" => LlType::SIGNEDLONGLONG,
            b"UnsignedLongLong" => LlType::UNSIGNEDLONGLONG,
            b"SignedLongLongLong" => LlType::SIGNEDLONGLONGLONG,
            b"Float" => LlType::FLOAT,
            b"SingleFloat" => LlType::SINGLEFLOAT,
            b"Char" => LlType::CHAR,
            b"UniChar" => LlType::UNICHAR,
            b"Bool" => LlType::BOOL,
            b"INT" => LlType::INT,
            b"UINT" => LlType::UINT,
            b"SHORT" => LlType::SHORT,
            b"USHORT" => LlType::USHORT,
            b"SIGNEDCHAR" => LlType::SIGNEDCHAR,
            b"UCHAR" => LlType::UCHAR,
            _ => LlType::VOID,
        }
    } else if kinds.contains(&"Ptr") {
        let to = sub(attr("TO")?, types, cache)?;
        types.ptr(to)
    } else if kinds.contains(&"Array") {
        let item = sub(attr("OF")?, types, cache)?;
        if gc {
            types.gc_array(item)
        } else if attr("_render_as_const") == Some(Value::Bool(true)) {
            types.array_nolength_const(item)
        } else if attr("_render_as_void") == Some(Value::Bool(true)) {
            types.array_nolength_void(item)
        } else if attr("_nolength") == Some(Value::Bool(true)) {
            types.array_nolength(item)
        } else {
            types.array(item)
        }
    } else if kinds.contains(&"OpaqueType") {
        let name = attr("_name").and_then(|v| heap.str_value(v))?;
        let c_name = attr("_c_name").and_then(|v| heap.str_value(v));
        let c_name = c_name.map(|c| String::from_utf8_lossy(c).into_owned());
        types.opaque(&String::from_utf8_lossy(name), c_name.as_deref())
    } else if kinds.contains(&"FuncType") {
        let args = match attr("ARGS") {
            Some(Value::Obj(a)) => match heap.get(a) {
                Object::Tuple(items) => items.clone(),
                _ => return None,
            },
            _ => return None,
        };
        let args = args
            .into_iter()
            .map(|a| sub(a, types, cache))
            .collect::<Option<Vec<_>>>()?;
        let result = sub(attr("RESULT")?, types, cache)?;
        types.func(args, result)
    } else if kinds.contains(&"Struct") {
        let name = attr("_name").and_then(|v| heap.str_value(v))?;
        let name = String::from_utf8_lossy(name).into_owned();
        // nominal: registered before its fields, which may point back to it
        let s = types.new_struct(&name, gc, Vec::new());
        cache.insert(id, s);
        let Some(Value::Obj(fs)) = attr("_fields") else {
            return Some(s);
        };
        let Object::Tuple(pairs) = heap.get(fs) else {
            return Some(s);
        };
        let mut fields = Vec::new();
        for &p in pairs {
            let Value::Obj(p) = p else { continue };
            let Object::Tuple(pair) = heap.get(p) else {
                continue;
            };
            let (Some(&n), Some(&ft)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let fname = heap
                .str_value(n)
                .map(|b| String::from_utf8_lossy(b).into_owned())?;
            // a field of a type the model lacks (`FixedSizeArray`): the structure is not
            // modelled either, and must not stay cached without its fields
            let Some(ft) = sub(ft, types, cache) else {
                cache.remove(&id);
                return None;
            };
            fields.push((Rc::from(fname.as_str()), ft));
        }
        types.set_fields(s, fields);
        // `rffi_platform`'s structure laid out without the C compiler (`check`)
        if let Some(Value::Obj(u)) = attr("_rpy_c_unknown") {
            if let Object::Tuple(names) = heap.get(u) {
                let names = names
                    .iter()
                    .filter_map(|&n| heap.str_value(n))
                    .map(|b| Rc::from(String::from_utf8_lossy(b).as_ref()))
                    .collect();
                types.set_c_unknown(s, names);
            }
        }
        return Some(s);
    } else {
        return None;
    };
    cache.insert(id, t);
    Some(t)
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Whether `s` is an object of the bundled `lltype`/`rffi` models (a type built at
    /// import time) that has no type in the low-level type arena.
    pub(super) fn is_unmodelled_ll_type(&self, s: &SomeValue) -> bool {
        let heap = self.space.heap();
        let cls = match s {
            S::Instance { classdef, .. } => self
                .bk
                .class_desc(self.bk.classdef(*classdef).desc)
                .map(|c| c.cls),
            S::Pbc { descs, .. } if descs.len() == 1 => match self.bk.desc(descs[0]) {
                super::description::Desc::Frozen(f) => match heap.get(f.obj) {
                    Object::Instance(i) => Some(i.class),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(c) = cls.and_then(|c| heap.class(c)) else {
            return false;
        };
        // a type of the `lltype` model (`Array`, `Ptr`, `Struct`...), not rffi's narrow C
        // integer types, which `cast` takes as they are
        let is_type = c
            .mro
            .iter()
            .any(|&k| heap.class(k).is_some_and(|k| &*k.name == "LowLevelType"));
        let Some(module) = c.module else {
            return false;
        };
        is_type
            && matches!(heap.get(module), Object::Module(m)
            if m.bundled && m.name.starts_with("rpython.rtyper.lltypesystem."))
    }

    /// `lltype.Ptr(T)` called in translated code with a constant low-level type `T`: the
    /// reference folds the call to the constant pointer type; here the model's `Ptr` is
    /// built at translation time (as a memo function's result would be) and read as a type.
    /// `None` when `T` is not such a constant: the call is then an ordinary class call.
    pub(super) fn call_ll_ptr(
        &mut self,
        cdesc: super::model::DescId,
        args: &ArgsS,
    ) -> Option<SomeValue> {
        let ([S::LlType(t)], true) = (&args.positional[..], args.keywords.is_empty()) else {
            return None;
        };
        let obj = self.bk.lltype_obj_of(*t)?;
        let cls = self.bk.class_desc(cdesc)?.cls;
        C::restart_limits(self.space);
        let call = crate::interpreter::CallArgs::positional(vec![Value::Obj(obj)]);
        let v = crate::interpreter::Space::call(self.space, Value::Obj(cls), call).ok()?;
        self.ll_const_annotation(v)
    }

    /// `lltype.Array(...)`, `GcArray`, `Struct`, `GcStruct` called in translated code: the
    /// reference has no rule for them (only `Ptr` is folded) and annotates the class's
    /// `__init__`, whose `**kwds` its argument matching asserts against (AssertionError).
    pub(super) fn ll_type_call_refused(&self, cdesc: super::model::DescId) -> Option<AnnError> {
        let c = self.bk.class_desc(cdesc)?;
        let heap = self.space.heap();
        let module = heap.class(c.cls)?.module?;
        let in_lltype = matches!(heap.get(module), Object::Module(m)
            if m.bundled && &*m.name == "rpython.rtyper.lltypesystem.lltype");
        let refused = matches!(&*c.name, "Array" | "GcArray" | "Struct" | "GcStruct");
        (in_lltype && refused).then(|| {
            AnnError::new(
                "RPY210",
                format!(
                    "`lltype.{}()` called in translated code: low-level types are built at import time (of the lltype constructors only `lltype.Ptr(T)` is folded to a constant; the reference's annotator stops with AssertionError on this call)",
                    c.name
                ),
            )
        })
    }

    /// The annotation of a constant that is a type of the `lltype` model.
    pub(super) fn ll_const_annotation(&mut self, c: Value) -> Option<SomeValue> {
        let Value::Obj(id) = c else { return None };
        if !matches!(self.space.heap().get(id), Object::Instance(_)) {
            return None;
        }
        let bk = &mut self.bk;
        lltype_of_obj(self.space.heap(), &mut bk.lltypes, &mut bk.lltype_objs, id).map(S::LlType)
    }

    /// The annotation of `op` when its receiver is low-level; `None` for other operations.
    pub(super) fn consider_ll_op(
        &mut self,
        op: &SpaceOperation,
        a: &[SomeValue],
    ) -> Option<Result<SomeValue, AnnError>> {
        let recv = a.first()?;
        if !matches!(
            recv,
            S::Ptr(_) | S::InteriorPtr { .. } | S::ArrayItem { .. } | S::LlType(_)
        ) {
            return None;
        }
        // Building a tuple or a list has no receiver: a pointer first among the items
        // (gnitz's `(buf.ptr, 0, size)` regions) is an item like any other.
        if matches!(op.opname, Op::NewTuple | Op::NewList) {
            return None;
        }
        // a constant, or an argument a specialization made constant (`setintfield`'s
        // field name, `specialize:ll_and_arg(1)`)
        let name = || {
            op.args
                .get(1)
                .and_then(|c| c.constant())
                .or_else(|| a.get(1).and_then(|s| s.konst()))
                .and_then(|c| self.space.heap().str_value(c))
                .map(|b| String::from_utf8_lossy(b).into_owned())
        };
        Some(match op.opname {
            Op::GetAttr => match name() {
                Some(n) => self.ll_getattr(recv, &n),
                None => Err(AnnError::new(
                    "RPY205",
                    "a field of a low-level structure must be named by a constant".into(),
                )),
            },
            Op::SetAttr => match name() {
                Some(n) => self.ll_getattr(recv, &n).and_then(|_| {
                    match (self.ll_field_type(recv, &n), a.get(2)) {
                        // an integer of unknown C type takes any integer
                        (Some(_), Some(v)) if self.ll_is_c_unknown_int(recv, &n) => {
                            if self.ll_value_fits(LlType::SIGNED, &widened(v)) {
                                Ok(S::None)
                            } else {
                                Err(AnnError::new(
                                    "RPY205",
                                    format!(
                                        "cannot store {} into field `{n}`, a C integer (of the \
                                         C field's own type, which `rffi_platform` asks the C \
                                         compiler for)",
                                        self.bk.describe_type(self.space.heap(), v)
                                    ),
                                ))
                            }
                        }
                        (Some(t), Some(v)) => self.ll_check_store(t, v, &format!("field `{n}`")),
                        _ => Ok(S::None),
                    }
                }),
                None => Err(AnnError::new(
                    "RPY205",
                    "a field of a low-level structure must be named by a constant".into(),
                )),
            },
            // the reference has `getitem`/`setitem` of a pointer for an integer index only
            // (`pairtype(SomePtr, SomeInteger)`; any other is "index not an int")
            Op::GetItem | Op::SetItem
                if a.get(1).is_some_and(|i| {
                    !(i.is_int_like() || i.is_error() || matches!(i, S::Unknown(_)))
                }) =>
            {
                Err(AnnError::new(
                    "RPY205",
                    format!(
                        "the index of a low-level array must be an int, not {}",
                        self.bk
                            .describe_type(self.space.heap(), a.get(1).unwrap_or(&S::None))
                    ),
                ))
            }
            Op::GetItem => self.ll_array_item(recv),
            Op::SetItem => match self.ll_array_item(recv) {
                Ok(S::ArrayItem { .. }) => Err(AnnError::new(
                    "RPY205",
                    "an item of an array of structures is set field by field".into(),
                )),
                Ok(_) => match (self.ll_array_item_type(recv), a.get(2)) {
                    (Some(t), Some(v)) => self.ll_check_store(t, v, "an array item"),
                    _ => Ok(S::None),
                },
                Err(e) => Err(e),
            },
            Op::Len => match recv {
                // the reference's `_array.getlength` of a bare C array: a TypeError
                S::Ptr(p)
                    if self
                        .bk
                        .lltypes
                        .pointee(*p)
                        .is_some_and(|a| self.bk.lltypes.is_nolength_array(a)) =>
                {
                    Err(AnnError::new(
                        "RPY205",
                        "`len()` of a raw C array (`rffi.CArray`, hints={'nolength': True}): \
                         it has no length; keep the length beside the pointer"
                            .into(),
                    ))
                }
                _ => self.ll_array_item(recv).map(|_| SomeValue::nonneg_int()),
            },
            Op::Bool => Ok(SomeValue::bool()),
            // A low-level value is never an instance of a Python class (rffi's wrappers
            // test `isinstance(arg, str)` on what may be a `char *`).
            Op::IsInstance => Ok(SomeValue::const_bool(false)),
            // a call through a function pointer (an r_dict's `d.fnhash(key)`)
            Op::SimpleCall => match recv {
                S::Ptr(p) => match self
                    .bk
                    .lltypes
                    .pointee(*p)
                    .map(|f| self.bk.lltypes.def(f).clone())
                {
                    Some(TypeDef::Func { args, result }) if args.len() + 1 == a.len() => {
                        Ok(ll_to_annotation(&self.bk.lltypes, result))
                    }
                    _ => Err(AnnError::new(
                        "RPY205",
                        "a call of a low-level pointer that is not a function of these arguments"
                            .into(),
                    )),
                },
                _ => Err(AnnError::new(
                    "RPY205",
                    "a call of a low-level value that is not a function pointer".into(),
                )),
            },
            Op::Eq | Op::Ne | Op::Is => match (recv, a.get(1)) {
                // types are constants: `typeOf(s) == UNICODE_PTR` is decided here
                (S::LlType(x), Some(S::LlType(y))) => {
                    Ok(SomeValue::const_bool((x == y) != (op.opname == Op::Ne)))
                }
                // a low-level pointer is never None (a NULL one neither): the reference
                // folds `p is None` (its SomePtr cannot be None), so a branch on it is
                // dead (rffi's wrapper tests each `char *`/`void *` argument so)
                (S::Ptr(_), Some(S::None)) if op.opname == Op::Is => {
                    Ok(SomeValue::const_bool(false))
                }
                // A type compared with a constant that is not a low-level type (rffi's
                // `TYPE is INT`, INT being a C integer type of the model): never the same.
                (S::LlType(_), Some(other))
                    if matches!(
                        other,
                        S::Pbc { .. } | S::None | S::Instance { konst: Some(_), .. }
                    ) || other.is_immutable_constant() =>
                {
                    Ok(SomeValue::const_bool(op.opname == Op::Ne))
                }
                _ => Ok(SomeValue::bool()),
            },
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "`{}` is not an operation on {}",
                    op.opname.name(),
                    self.bk.describe(self.space.heap(), recv)
                ),
            )),
        })
    }

    /// `p.field` (or the field's type, on a structure type; `T.TO` and `A.OF` on types).
    fn ll_getattr(&mut self, recv: &SomeValue, name: &str) -> Result<SomeValue, AnnError> {
        let types = &mut self.bk.lltypes;
        let missing = |types: &LlTypes, t: LlType| {
            AnnError::new(
                "RPY205",
                format!("{} has no field `{}`", types.name(t), name),
            )
        };
        match *recv {
            S::Ptr(p) => {
                let s = types.pointee(p).unwrap_or(p);
                let Some(ft) = types.field_type(s, name) else {
                    return Err(missing(types, s));
                };
                match types.def(ft) {
                    TypeDef::Struct { .. } | TypeDef::Array { .. } => Ok(S::InteriorPtr {
                        base: p,
                        field: Rc::from(name),
                    }),
                    _ => Ok(field_annotation(types, s, name, ft)),
                }
            }
            S::LlType(t) => {
                let r = match (types.def(t).clone(), name) {
                    (TypeDef::Ptr(to), "TO") => Some(to),
                    (TypeDef::Array { item, .. }, "OF") => Some(item),
                    (TypeDef::Struct { .. }, _) => types.field_type(t, name),
                    _ => None,
                };
                r.map(S::LlType).ok_or_else(|| missing(types, t))
            }
            S::ArrayItem { array } => {
                let item = types
                    .pointee(array)
                    .and_then(|a| types.array_item(a))
                    .unwrap_or(LlType::VOID);
                match types.field_type(item, name) {
                    Some(ft) if types.is_ptr(ft) || ft.is_primitive() => {
                        Ok(field_annotation(types, item, name, ft))
                    }
                    Some(_) => Err(AnnError::new(
                        "RPY205",
                        format!(
                            "field `{}` of an array item is not a primitive or a pointer",
                            name
                        ),
                    )),
                    None => Err(missing(types, item)),
                }
            }
            // a field of a structure inlined in another (`p.c_it_value.c_tv_sec` of a
            // C `struct itimerval`)
            S::InteriorPtr { base, ref field } => {
                let inner = types
                    .pointee(base)
                    .and_then(|s| types.field_type(s, field))
                    .unwrap_or(LlType::VOID);
                if !matches!(types.def(inner), TypeDef::Struct { .. }) {
                    return Err(missing(types, inner));
                }
                let Some(ft) = types.field_type(inner, name) else {
                    return Err(missing(types, inner));
                };
                match types.def(ft) {
                    // deeper still: seen as a pointer to the inner structure
                    TypeDef::Struct { .. } | TypeDef::Array { .. } => Ok(S::InteriorPtr {
                        base: types.ptr(inner),
                        field: Rc::from(name),
                    }),
                    _ => Ok(field_annotation(types, inner, name, ft)),
                }
            }
            _ => Err(missing(types, LlType::VOID)),
        }
    }

    /// The type of field `name` of the structure `recv` points to (or of the structure
    /// inside a GC array that `recv` is an item of).
    fn ll_field_type(&self, recv: &SomeValue, name: &str) -> Option<LlType> {
        let s = self.ll_field_owner(recv)?;
        self.bk.lltypes.field_type(s, name)
    }

    /// The structure whose fields `recv`'s attributes are.
    fn ll_field_owner(&self, recv: &SomeValue) -> Option<LlType> {
        let types = &self.bk.lltypes;
        Some(match *recv {
            S::Ptr(p) => types.pointee(p).unwrap_or(p),
            S::ArrayItem { array } => types.pointee(array).and_then(|a| types.array_item(a))?,
            S::InteriorPtr { base, ref field } => types
                .pointee(base)
                .and_then(|s| types.field_type(s, field))?,
            _ => return None,
        })
    }

    /// Whether field `name` of what `recv` points to is an integer of unknown C type.
    fn ll_is_c_unknown_int(&self, recv: &SomeValue, name: &str) -> bool {
        self.ll_field_owner(recv)
            .is_some_and(|s| self.bk.lltypes.is_c_unknown_int(s, name))
    }

    /// Storing a value into a field or an array item of type `target`: as the toolchain's
    /// low-level types, the value's own low-level type must be that type (`Char` items
    /// take characters, not integers; `Signed` ones take ints, not bools).
    fn ll_check_store(
        &self,
        target: LlType,
        value: &SomeValue,
        what: &str,
    ) -> Result<SomeValue, AnnError> {
        if self.ll_value_fits(target, value) {
            return Ok(S::None);
        }
        Err(AnnError::new(
            "RPY205",
            format!(
                "cannot store {} into {} of low-level type {}",
                self.bk.describe_type(self.space.heap(), value),
                what,
                self.bk.lltypes.name(target)
            ),
        ))
    }

    /// Whether a value annotated `value` may go where the low-level type `target` is
    /// expected (a field, an array item, a C function's argument): its own low-level type
    /// must be `target`. Values whose low-level type is not decided here (None, unknowns)
    /// and targets that are not primitives or pointers are let through.
    pub(super) fn ll_value_fits(&self, target: LlType, value: &SomeValue) -> bool {
        let types = &self.bk.lltypes;
        if !(target.is_primitive() || types.is_ptr(target)) || target == LlType::VOID {
            return true;
        }
        let own = match value {
            S::Integer { kind, .. } => Some(LlType::of_int_kind(*kind)),
            S::Bool { .. } => Some(LlType::BOOL),
            S::Float { .. } => Some(LlType::FLOAT),
            S::SingleFloat => Some(LlType::SINGLEFLOAT),
            S::Char { .. } => Some(LlType::CHAR),
            S::UnicodeCodePoint { .. } => Some(LlType::UNICHAR),
            S::Ptr(p) => Some(*p),
            S::Str { .. }
            | S::Unicode { .. }
            | S::Instance { .. }
            | S::List { .. }
            | S::Dict { .. }
            | S::Tuple(_) => None,
            _ => return true,
        };
        if own.is_some_and(|o| o == target || types.same_on_64_bit(o, target)) {
            return true;
        }
        // A pointer to a structure whose first field is (transitively) the target's: the
        // helper stores a subclass instance where its base is expected (the values of a
        // dict of `Local`s copied into a list of `_Variable`s), and the RTyper inserts the
        // `cast_pointer`, as the reference's helpers recast such items.
        if let Some(own) = own.filter(|&o| types.is_ptr(o) && types.is_ptr(target)) {
            if let (Some(sub), Some(sup)) = (types.pointee(own), types.pointee(target)) {
                if types.is_first_field_descendant(sub, sup) {
                    return true;
                }
            }
        }
        false
    }

    /// The item type of the array `recv` points to (a GcArray, or an inlined array as
    /// `s.chars`); `None` when it is not an array.
    fn ll_array_item_type(&self, recv: &SomeValue) -> Option<LlType> {
        let types = &self.bk.lltypes;
        let arr = match recv {
            S::Ptr(p) => types.pointee(*p),
            S::InteriorPtr { base, field } => types
                .pointee(*base)
                .and_then(|s| types.field_type(s, field)),
            _ => None,
        };
        arr.and_then(|a| types.array_item(a))
    }

    /// `rgc.ll_arraycopy(src, dst, src_start, dst_start, n)`: two arrays of one item type
    /// and three integers; nothing is returned.
    fn ll_arraycopy(&self, p: &[SomeValue]) -> Result<SomeValue, AnnError> {
        let err = |m: &str| Err(AnnError::new("RPY205", format!("`ll_arraycopy()` {m}")));
        if p.len() != 5 {
            return err("takes 5 arguments (source, dest, source_start, dest_start, length)");
        }
        let (Some(a), Some(b)) = (
            self.ll_array_item_type(&p[0]),
            self.ll_array_item_type(&p[1]),
        ) else {
            return err("copies between low-level arrays");
        };
        if a != b {
            return err("copies between arrays of the same item type");
        }
        if !p[2..].iter().all(|s| s.is_int_like()) {
            return err("takes integer positions and length");
        }
        Ok(S::None)
    }

    /// The item annotation of an array reached through `recv`.
    fn ll_array_item(&mut self, recv: &SomeValue) -> Result<SomeValue, AnnError> {
        let types = &self.bk.lltypes;
        match self.ll_array_item_type(recv) {
            // a structure inside a GC array: an interior pointer to it
            Some(item) if matches!(types.def(item), TypeDef::Struct { .. }) => match recv {
                S::Ptr(p) => Ok(S::ArrayItem { array: *p }),
                _ => Err(AnnError::new(
                    "RPY205",
                    "a structure inside an inlined array is not supported".into(),
                )),
            },
            Some(item) => Ok(ll_to_annotation(types, item)),
            None => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} is not an array",
                    self.bk.describe(self.space.heap(), recv)
                ),
            )),
        }
    }

    /// What the reference's `ann_malloc` asserts of `malloc(T, n, flavor=...)`: the length
    /// an integer (a float fails its assertion), and without a flavor the example object it
    /// allocates with the default 'gc' flavor, which `lltype.malloc` refuses for a type
    /// outside the GC (a `Struct` or `Array` meant for `flavor='raw'`).
    fn check_malloc_args(&self, t: LlType, args: &ArgsS) -> Result<(), AnnError> {
        let n = args.positional.get(1).or_else(|| {
            args.keywords
                .iter()
                .find(|(k, _)| &**k == "n")
                .map(|(_, v)| v)
        });
        if let Some(n) = n {
            if !n.is_int_like() && !n.is_error() && !matches!(n, S::Unknown(_)) {
                return Err(AnnError::new(
                    "RPY205",
                    format!(
                        "`malloc()` needs an integer length, not {}",
                        self.bk.describe_type(self.space.heap(), n)
                    ),
                ));
            }
        }
        let flavor = args.positional.get(2).is_some()
            || args
                .keywords
                .iter()
                .any(|(k, _)| matches!(&**k, "flavor" | "immortal"));
        if !flavor && !self.bk.lltypes.is_gc(t) {
            return Err(AnnError::new(
                "RPY205",
                "`malloc()` of a type outside the GC (a `Struct` or `Array`, not `GcStruct`/`GcArray`) needs `flavor='raw'` (and a matching `free`)".into(),
            ));
        }
        Ok(())
    }

    /// The `lltype` primitives: `malloc(T[, n])`, `nullptr(T)`, `typeOf(x)`.
    pub(super) fn call_ll_builtin(
        &mut self,
        id: BuiltinId,
        args: &ArgsS,
    ) -> Option<Result<SomeValue, AnnError>> {
        use BuiltinId as B;
        let name = id.name();
        let p = &args.positional;
        if matches!(id, B::LltypeMalloc | B::LltypeNullptr)
            && p.first().is_some_and(|s| self.is_unmodelled_ll_type(s))
        {
            // `malloc(CArrayPtr(rffi.INT).TO, n)`: a type of the model with no low-level
            // type in rpy-lsp (narrow C integers): what comes from it is unknown.
            let what = UNMODELLED_LL_POINTER;
            let msg = format!("`{name}()` of {what}: what comes from it is unknown, and the code using it is not checked");
            let span = self.bk.span;
            self.report(AnnError::new("RPY007", msg), span);
            return Some(Ok(S::Unknown(Rc::from(what))));
        }
        let ty = |i: usize| match p.get(i) {
            Some(S::LlType(t)) => Ok(*t),
            _ => Err(AnnError::new(
                "RPY205",
                format!("`{}()` needs a low-level type as its first argument", name),
            )),
        };
        Some(match id {
            B::LltypeMalloc => ty(0).and_then(|t| {
                self.check_malloc_args(t, args)?;
                let types = &mut self.bk.lltypes;
                Ok(S::Ptr(types.ptr(t)))
            }),
            // a pointer points to a container (`Ptr(Signed)` is the reference's TypeError)
            B::LltypeNullptr => ty(0).and_then(|t| {
                if t.is_primitive() {
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "`nullptr({})`: a pointer can only point to a Struct, an Array or a function type",
                            self.bk.lltypes.name(t)
                        ),
                    ));
                }
                Ok(S::Ptr(self.bk.lltypes.ptr(t)))
            }),
            // raw memory at computed addresses: a pointer to raw memory, seen through
            // another pointer type or moved
            // The reference's `force_cast` is a C cast of whatever low-level value it is
            // given: to a pointer type, any pointer, integer (rpylean keeps tagged words in
            // pointers) or object (a string is its GC structure's pointer); a pointer to an
            // integer type.
            B::RffiCastPtr => {
                let to_ptr = |t| matches!(self.bk.lltypes.def(t), TypeDef::Ptr(_));
                match (ty(0), p.get(1)) {
                    (Ok(t), Some(S::Ptr(_))) if to_ptr(t) => Ok(S::Ptr(t)),
                    (Ok(t), Some(s)) if to_ptr(t) && s.is_int_like() => Ok(S::Ptr(t)),
                    (Ok(t), Some(s))
                        if to_ptr(t)
                            && matches!(
                                s,
                                S::Str { .. } | S::Unicode { .. } | S::Instance { .. }
                            ) =>
                    {
                        Ok(S::Ptr(t))
                    }
                    (Ok(t), Some(S::Ptr(_))) if t.is_integer() => {
                        Ok(ll_to_annotation(&self.bk.lltypes, t))
                    }
                    // a character to an integer type (its code), a string's address
                    (Ok(t), Some(s))
                        if t.is_integer()
                            && matches!(
                                s,
                                S::Char { .. }
                                    | S::UnicodeCodePoint { .. }
                                    | S::Str { .. }
                                    | S::Unicode { .. }
                            ) =>
                    {
                        Ok(ll_to_annotation(&self.bk.lltypes, t))
                    }
                    _ => Err(AnnError::new(
                        "RPY205",
                        "`rffi.cast()` of a pointer needs a pointer or integer type, and to a pointer type a pointer or an integer".into(),
                    )),
                }
            }
            B::RffiIsPtr => Ok(S::const_bool(matches!(p.first(), Some(S::Ptr(_))))),
            B::RffiPtradd => match (p.first(), p.get(1)) {
                (Some(S::Ptr(t)), Some(n)) if n.is_int_like() => Ok(S::Ptr(*t)),
                _ => Err(AnnError::new(
                    "RPY205",
                    "`rffi.ptradd()` needs a pointer and an integer".into(),
                )),
            },
            B::RgcLlArraycopy => self.ll_arraycopy(p),
            B::AnnlowlevelLlstr | B::AnnlowlevelLlunicode => {
                let (st, ut) = self.bk.string_types();
                let uni = id == B::AnnlowlevelLlunicode;
                match p.first() {
                    Some(s) if (!uni && s.is_str_like()) || (uni && s.is_unicode_like()) => {
                        Ok(S::Ptr(self.bk.lltypes.ptr(if uni { ut } else { st })))
                    }
                    _ => Err(AnnError::new(
                        "RPY205",
                        format!(
                            "`{}()` needs a {}",
                            &name[12..],
                            if uni { "unicode string" } else { "string" }
                        ),
                    )),
                }
            }
            B::AnnlowlevelHlstr | B::AnnlowlevelHlunicode => {
                let uni = id == B::AnnlowlevelHlunicode;
                Ok(if uni {
                    S::Unicode {
                        can_be_none: true,
                        no_nul: false,
                        konst: None,
                    }
                } else {
                    S::Str {
                        can_be_none: true,
                        no_nul: false,
                        konst: None,
                    }
                })
            }
            B::LltypeTypeOf => match p.first() {
                Some(S::Ptr(t)) => Ok(S::LlType(*t)),
                // a narrow C integer's own type (`rffi.cast(lltype.typeOf(p.c_x), n)`
                // stores into a field of that type)
                Some(S::Integer { kind, .. }) => Ok(S::LlType(LlType::of_int_kind(*kind))),
                Some(s) if s.is_int_like() => Ok(S::LlType(LlType::SIGNED)),
                Some(S::Char { .. }) => Ok(S::LlType(LlType::CHAR)),
                Some(S::UnicodeCodePoint { .. }) => Ok(S::LlType(LlType::UNICHAR)),
                Some(S::Float { .. }) => Ok(S::LlType(LlType::FLOAT)),
                Some(S::SingleFloat) => Ok(S::LlType(LlType::SINGLEFLOAT)),
                _ => Err(AnnError::new(
                    "RPY205",
                    "`typeOf()` of a value that has no low-level type here".into(),
                )),
            },
            _ => return None,
        })
    }
}

/// The unknown that `lltype.malloc()`/`nullptr()` of a low-level type rpy-lsp does not
/// model gives: its type is unknown, but it is a pointer.
const UNMODELLED_LL_POINTER: &str =
    "a low-level type rpy-lsp does not model (an array or structure of narrow C integers)";

/// Whether `s` is such a pointer (see [`UNMODELLED_LL_POINTER`]).
pub(super) fn is_unmodelled_ll_pointer(s: &SomeValue) -> bool {
    matches!(s, SomeValue::Unknown(what) if &**what == UNMODELLED_LL_POINTER)
}
