//! Calls of built-in functions (`len`, `str`, `int`, `range`, `isinstance`, ...): low-level
//! operations or runtime functions. Calls of functions, classes and methods are in `rcall`;
//! methods of built-in types in `rbuiltinmethod`; C functions in `rcfunc`.

use super::hop::{cbool, cfield, cint, ctype, cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType, LlValue, Sym};
use crate::objspace::object::{IntKind, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    pub(super) fn call_builtin(&mut self, hop: &mut Hop, llops: &mut LlOps, id: B) -> R {
        let name = id.name();
        if let Some(r) = self.rtype_ll_builtin(hop, llops, id) {
            return r;
        }
        if let Some(r) = self.rtype_external(hop, llops, id) {
            return r;
        }
        if let Some(r) = self.rtype_weakref_builtin(hop, llops, id) {
            return r;
        }
        if let Some(r) = self.rtype_vref_builtin(hop, llops, id) {
            return r;
        }
        let void = self.intern_repr(Repr::Void);
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let rs = self.intern_repr(Repr::Str);
        let short = id.short_name();
        match id {
            B::RpythonPrintItem => {
                // a constant is printed as CPython's str() shows it (the reference's flow
                // space folds it at translation time)
                let s = match hop.op.args[0] {
                    Hlvalue::Const(c) => match self.const_str(c) {
                        Some(text) => self.str_constant(text.as_bytes()),
                        None => self.to_str(llops, hop.args_v[0], hop.args_r[0], false)?,
                    },
                    // the reference prints `str(v)` at run time, of v's constant annotation
                    // if it has one (`Hop::new`), so a constant float prints as `%.6f` and a
                    // constant bool as 0/1
                    _ => self.to_str(llops, hop.args_v[0], hop.args_r[0], false)?,
                };
                self.rt_call(llops, RuntimeFn::PrintItem, vec![s], LlType::VOID);
                Ok((cvoid(), void))
            }
            // `Base.__init__(self)` reaching object's: nothing happens at run time
            B::ObjectDunderInit => Ok((cvoid(), void)),
            B::RpythonPrintNewline => {
                self.rt_call(llops, RuntimeFn::PrintNewline, vec![], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::OsWrite => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let s = self.inputarg(llops, hop, 1, rs)?;
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(llops, RuntimeFn::OsWrite, vec![fd, s], LlType::SIGNED),
                    si,
                ))
            }
            B::OsOpen => {
                let path = self.inputarg(llops, hop, 0, rs)?;
                let flags = self.inputarg(llops, hop, 1, si)?;
                let mode = if hop.nargs() > 2 {
                    self.inputarg(llops, hop, 2, si)?
                } else {
                    cint(0o777)
                };
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::OsOpen,
                        vec![path, flags, mode],
                        LlType::SIGNED,
                    ),
                    si,
                ))
            }
            B::OsClose => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                self.rt_call(llops, RuntimeFn::OsClose, vec![fd], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::OsListdir | B::OsGetloadavg | B::OsTimes | B::OsPipe | B::OsWaitpid => {
                // the helpers of ll_os.py build the result, of the result's type
                let raises = self.catches(hop, "OSError");
                let mut args = vec![ctype(tr)];
                if id == B::OsListdir {
                    args.push(self.inputarg(llops, hop, 0, rs)?);
                }
                if id == B::OsWaitpid {
                    args.push(self.inputarg(llops, hop, 0, si)?);
                    args.push(self.inputarg(llops, hop, 1, si)?);
                }
                let helper = match self.repr(rr) {
                    Repr::List { fixed: true, .. } => "ll_listdir_fixed",
                    Repr::List { .. } => "ll_listdir",
                    _ if id == B::OsPipe => "ll_pipe",
                    _ if id == B::OsWaitpid => "ll_waitpid",
                    _ if id == B::OsTimes => "ll_times",
                    _ => "ll_getloadavg",
                };
                if raises {
                    hop.exception_is_here(llops);
                }
                Ok((self.gendirectcall(llops, helper, args, tr)?, rr))
            }
            B::OsStatFields | B::OsLstatFields | B::OsFstatFields => {
                let (helper, ra) = match id {
                    B::OsLstatFields => ("ll_lstat_fields", rs),
                    B::OsFstatFields => ("ll_fstat_fields", si),
                    _ => ("ll_stat_fields", rs),
                };
                let p = self.inputarg(llops, hop, 0, ra)?;
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.gendirectcall(llops, helper, vec![ctype(tr), p], tr)?,
                    rr,
                ))
            }
            B::OsListdirRaw => {
                let p = self.inputarg(llops, hop, 0, rs)?;
                Ok((
                    self.rt_call(llops, RuntimeFn::OsListdirRaw, vec![p], tr),
                    rr,
                ))
            }
            B::OsLoadavgItem => {
                let i = self.inputarg(llops, hop, 0, si)?;
                Ok((
                    self.rt_call(llops, RuntimeFn::OsLoadavgItem, vec![i], tr),
                    rr,
                ))
            }
            B::OsLseek => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let pos = self.inputarg(llops, hop, 1, si)?;
                let how = self.inputarg(llops, hop, 2, si)?;
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::OsLseek,
                        vec![fd, pos, how],
                        LlType::SIGNED,
                    ),
                    si,
                ))
            }
            B::OsRead => {
                let fd = self.inputarg(llops, hop, 0, si)?;
                let n = self.inputarg(llops, hop, 1, si)?;
                if self.catches(hop, "OSError") {
                    hop.exception_is_here(llops);
                }
                Ok((
                    self.rt_call(llops, RuntimeFn::OsRead, vec![fd, n], self.str_ptr),
                    rs,
                ))
            }
            B::TimeTime | B::TimeClock => {
                let f = if id == B::TimeTime {
                    RuntimeFn::TimeTime
                } else {
                    RuntimeFn::TimeClock
                };
                Ok((self.rt_call(llops, f, vec![], LlType::FLOAT), rr))
            }
            B::TimeSleep => {
                let fr = self.intern_repr(Repr::Float);
                let secs = self.inputarg(llops, hop, 0, fr)?;
                self.rt_call(llops, RuntimeFn::TimeSleep, vec![secs], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::Range | B::Xrange => {
                let n = hop.nargs();
                let mut a = Vec::new();
                for i in 0..n {
                    a.push(self.inputarg(llops, hop, i, si)?);
                }
                let (start, stop, step) = match n {
                    1 => (cint(0), a[0], cint(1)),
                    2 => (a[0], a[1], cint(1)),
                    _ => (a[0], a[1], a[2]),
                };
                if self.range_only_iterated(hop) {
                    self.lazy_ranges
                        .insert((hop.g, hop.op.result), (start, stop, step));
                    return Ok((
                        Hlvalue::Ll(LlConstant {
                            ty: tr,
                            value: LlValue::Ptr(crate::lltypesystem::LlPtr::Null),
                        }),
                        rr,
                    ));
                }
                Ok((
                    self.new_list_call(llops, "ll_range", rr, vec![start, stop, step])?,
                    rr,
                ))
            }
            B::RarithmeticOvfcheck => {
                let Hlvalue::Var(v) = hop.op.args[0] else {
                    return Ok((hop.args_v[0], hop.args_r[0]));
                };
                match self.pending_ovf.remove(&(hop.g, v)) {
                    Some((o, args, ty)) => {
                        if hop.exc_handled {
                            hop.exception_is_here(llops);
                        }
                        Ok((llops.genop(o, args, ty), rr))
                    }
                    None => Ok((hop.args_v[0], hop.args_r[0])),
                }
            }
            B::RarithmeticIntmask => Ok((self.inputarg(llops, hop, 0, si)?, si)),
            B::RarithmeticWiden => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            B::RarithmeticLonglongmask => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            B::Longlong2floatFloat2longlong => {
                // of a constant: folded during translation (the reference's backend folds
                // the operation), so a NaN has the sign it had then, not the machine's
                if let Some(Value::Float(f)) = hop.args_s[0].konst() {
                    return Ok((cint(f.to_bits() as i64), si));
                }
                let rf = self.intern_repr(Repr::Float);
                let f = self.inputarg(llops, hop, 0, rf)?;
                Ok((llops.genop(LlOp::ConvertFloatBytesToLonglong, vec![f], LlType::SIGNED), si))
            }
            B::Longlong2floatLonglong2float => {
                // r_longlong, r_uint and int arguments alike: the 64 bits as a Signed
                let i = self.inputarg(llops, hop, 0, si)?;
                Ok((llops.genop(LlOp::ConvertLonglongBytesToFloat, vec![i], tr), rr))
            }
            // hints for the JIT generator: nothing happens at run time without a JIT
            B::JitPromote
            | B::JitPromoteString
            | B::JitPromoteUnicode
            | B::JitHint
            | B::NonconstNonConstant
            | B::DebugMakeSureNotResized
            | B::DebugCheckNonneg
            | B::DebugCheckRegularInt => Ok((self.inputarg(llops, hop, 0, rr)?, rr)),
            // the JitDriver's markers called on a driver read from a variable
            B::JitJitDriverJitMergePoint
            | B::JitJitDriverCanEnterJit
            | B::JitJitDriverLoopHeader => {
                let void = self.intern_repr(Repr::Void);
                Ok((cvoid(), void))
            }
            B::JitWeAreJitted | B::JitIsconstant | B::JitIsvirtual => {
                Ok((cbool(false), self.intern_repr(Repr::Bool)))
            }
            B::JitCurrentTraceLength => Ok((cint(-1), si)),
            // The JIT's conditional call takes the function itself (the reference asks its
            // Repr for the one function's pointer): a bound method or a choice of functions
            // has none.
            B::JitConditionalCallFunction => {
                let bk = &self.ann.bookkeeper;
                let one_function = matches!(
                    &hop.args_s[0],
                    crate::annotator::model::SomeValue::Pbc { descs, can_be_none: false }
                        if descs.len() == 1
                            && matches!(bk.desc(descs[0]), crate::annotator::description::Desc::Function(_))
                );
                if !one_function {
                    return Err(TyperError::rejected(
                        "RPY205",
                        format!(
                        "jit.conditional_call() needs one function to call, not {}: the JIT calls it directly (write a function taking the object as its first argument)",
                        bk.describe_type(self.objheap, &hop.args_s[0])
                    ),
                    ));
                }
                Ok((cvoid(), void))
            }
            B::JitRecordKnownClass
            | B::JitRecordExactClass
            | B::JitAssertGreen
            | B::JitSetParam
            | B::JitJitDebug => Ok((cvoid(), void)),
            // debug logging as the reference's binaries do it, steered by PYPYLOG (the
            // runtimes keep the log: llinterp/debuglog.rs, genc/runtime/debuglog.c)
            B::DebugDebugPrint => self.rtype_debug_print(hop, llops),
            B::DebugDebugStart | B::DebugDebugStop => {
                let f = if id == B::DebugDebugStart {
                    RuntimeFn::DebugStart
                } else {
                    RuntimeFn::DebugStop
                };
                let category = self.inputarg(llops, hop, 0, rs)?;
                self.rt_call(llops, f, vec![category], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::DebugDebugFlush => {
                self.rt_call(llops, RuntimeFn::DebugFlush, vec![], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::CollectionsOrderedDict if hop.nargs() == 0 => {
                // RPython's dicts keep insertion order: an OrderedDict is a dict
                Ok((self.new_dict(llops, rr)?, rr))
            }
            B::ObjectmodelInstantiate => self.rtype_objectmodel_instantiate(hop, llops),
            B::ObjectmodelHlinvoke => self.rtype_hlinvoke(hop, llops),
            B::DebugFatalerror | B::DebugFatalerrorNotb => {
                let msg = self.inputarg(llops, hop, 0, rs)?;
                let tb = cint((id == B::DebugFatalerror) as i64);
                self.rt_call(llops, RuntimeFn::DebugFatalerror, vec![msg, tb], LlType::VOID);
                Ok((cvoid(), void))
            }
            B::DebugHaveDebugPrints => {
                let rb = self.intern_repr(Repr::Bool);
                let v = self.rt_call(llops, RuntimeFn::DebugHavePrints, vec![], LlType::BOOL);
                Ok((v, rb))
            }
            B::DebugDebugOffset => Ok((cint(-1), si)),
            B::RfloatFormatd => {
                let rf = self.intern_repr(Repr::Float);
                let rc = self.intern_repr(Repr::Char);
                let x = self.inputarg(llops, hop, 0, rf)?;
                let code = self.inputarg(llops, hop, 1, rc)?;
                let prec = self.inputarg(llops, hop, 2, si)?;
                let flags = if hop.nargs() > 3 {
                    self.inputarg(llops, hop, 3, si)?
                } else {
                    cint(0)
                };
                Ok((
                    self.rt_call(
                        llops,
                        RuntimeFn::FloatFormat,
                        vec![x, code, prec, flags],
                        self.str_ptr,
                    ),
                    rs,
                ))
            }
            B::ObjectmodelWeAreTranslated => Ok((cbool(true), self.intern_repr(Repr::Bool))),
            // hints about a list's allocation only: an empty list; nothing
            B::ObjectmodelNewlistHint => {
                let Repr::List { item, fixed } = self.repr(rr).clone() else {
                    return Err(TyperError::new("newlist_hint of a non-list"));
                };
                Ok((self.build_list(llops, rr, item, fixed, Vec::new()), rr))
            }
            // keepalive_until_here: the reference's `keepalive` operation, which its C backend
            // turns into no code; it only matters to code holding raw addresses of GC objects
            B::ObjectmodelResizelistHint | B::ObjectmodelKeepaliveUntilHere => {
                Ok((cvoid(), self.intern_repr(Repr::Void)))
            }
            B::ObjectmodelComputeHash => {
                let (x, r) = (hop.args_v[0], hop.args_r[0]);
                Ok((self.value_hash(llops, x, r)?, si))
            }
            B::ObjectmodelDictKeyhash => {
                // the dict's own hash of the key: its key_hash for an r_dict
                let (d, r) = (hop.args_v[0], hop.args_r[0]);
                let Repr::Dict { key, .. } = self.repr(r).clone() else {
                    return Err(TyperError::new("dict_keyhash of a non-dict"));
                };
                let k = self.inputarg(llops, hop, 1, key)?;
                Ok((self.dict_call(llops, "ll_dict_keyhash", r, vec![d, k], LlType::SIGNED)?, si))
            }
            B::ObjectmodelComputeIdentityHash | B::ObjectmodelComputeUniqueId => {
                let (x, r) = (hop.args_v[0], hop.args_r[0]);
                let h = if self.types.is_gc_ptr(self.lltype(r)) {
                    self.identity_hash(llops, x)
                } else {
                    self.value_hash(llops, x, r)?
                };
                Ok((h, si))
            }
            B::List => {
                // a new list with the items of a list or the characters of a string
                let Repr::List { item, fixed } = self.repr(rr).clone() else {
                    return Err(TyperError::new("list() of a non-list"));
                };
                if hop.nargs() == 0 {
                    return Ok((self.build_list(llops, rr, item, fixed, Vec::new()), rr));
                }
                let (v, r) = (hop.args_v[0], hop.args_r[0]);
                if matches!(self.repr(r), Repr::Str | Repr::Unicode) {
                    return Ok((
                        self.new_list_call(llops, "ll_list_of_chars", rr, vec![v])?,
                        rr,
                    ));
                }
                if matches!(self.repr(r), Repr::Dict { .. }) {
                    // list(d) of a dict: its keys, as d.keys()
                    return Ok((self.new_list_call(llops, "ll_dict_keys", rr, vec![v])?, rr));
                }
                if let Repr::Tuple(fields) = self.repr(r).clone() {
                    // list(t) of a tuple (`list(args)` of a *args tuple): its fields, in order
                    let mut vals = Vec::with_capacity(fields.len());
                    for (i, fr) in fields.iter().enumerate() {
                        let ft = self.lltype(*fr);
                        let f =
                            llops.genop(LlOp::GetField, vec![v, cfield(&format!("item{}", i))], ft);
                        vals.push(self.convertvar(llops, f, *fr, item)?);
                    }
                    return Ok((self.build_list(llops, rr, item, fixed, vals), rr));
                }
                let (items, n) = self.list_parts(llops, v, r);
                let args = vec![items, n, cint(0), n];
                Ok((self.new_list_call(llops, "ll_slice", rr, args)?, rr))
            }
            B::Enumerate | B::Reversed => {
                let st = self.types.pointee(tr).unwrap();
                let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                let Repr::Iter { container, .. } = self.repr(rr).clone() else {
                    return Err(TyperError::new("enumerate() of a non-list"));
                };
                let c = self.inputarg(llops, hop, 0, container)?;
                llops.genop(
                    LlOp::SetField,
                    vec![it, cfield("container"), c],
                    LlType::VOID,
                );
                if id == B::Reversed && matches!(self.repr(container), Repr::List { fixed: false, .. }) {
                    // a resizable list's reversed iterator starts at its length now, as
                    // the reference's ll_revlistiter (ll_listiter_next_reversed counts down)
                    let n = llops.genop(LlOp::GetField, vec![c, cfield("length")], LlType::SIGNED);
                    let last = llops.genop(LlOp::IntSub, vec![n, cint(1)], LlType::SIGNED);
                    llops.genop(LlOp::SetField, vec![it, cfield("index"), last], LlType::VOID);
                }
                Ok((it, rr))
            }
            B::Chr | B::Unichr => {
                let i = self.inputarg(llops, hop, 0, si)?;
                // out of range is undefined unless a handler catches the ValueError
                if self.has_implicit_exception(hop, "ValueError") {
                    hop.exception_is_here(llops);
                    let check = if id == B::Chr {
                        "ll_check_chr"
                    } else {
                        "ll_check_unichr"
                    };
                    self.gendirectcall(llops, check, vec![i], LlType::VOID)?;
                } else {
                    hop.exception_cannot_occur();
                }
                if id == B::Chr {
                    return Ok((llops.genop(LlOp::CastIntToChar, vec![i], LlType::CHAR), rr));
                }
                Ok((
                    llops.genop(LlOp::CastIntToUnichar, vec![i], LlType::UNICHAR),
                    rr,
                ))
            }
            B::Unicode if hop.nargs() == 1 => {
                // unicode(s): a str decoded as ASCII (UnicodeDecodeError otherwise); a
                // unicode string or character as itself
                if matches!(self.repr(hop.args_r[0]), Repr::Unicode | Repr::UniChar) {
                    return Ok((self.inputarg(llops, hop, 0, rr)?, rr));
                }
                let s = self.inputarg(llops, hop, 0, rs)?;
                if self.catches(hop, "UnicodeDecodeError")
                    || self.catches(hop, "UnicodeError")
                    || self.catches(hop, "ValueError")
                {
                    hop.exception_is_here(llops);
                }
                Ok((self.decode_ascii(llops, s)?, rr))
            }
            B::Bytearray if hop.nargs() == 1 => {
                // bytearray(s): a copy of the bytes of a str (a char is one) or of a
                // bytearray; the reference's RTyper has no other way to build one
                let arg = match self.repr(hop.args_r[0]) {
                    Repr::ByteArray => self.inputarg(llops, hop, 0, rr)?,
                    Repr::Str | Repr::Char => self.inputarg(llops, hop, 0, rs)?,
                    _ => {
                        return Err(TyperError::new(format!(
                            "bytearray() of {} is not supported by the RPython typer: only a str or a bytearray can be copied into a bytearray",
                            self.ann
                                .bookkeeper
                                .describe_type(self.objheap, &hop.args_s[0])
                        )))
                    }
                };
                Ok((
                    self.gendirectcall(llops, "ll_bytearray_from", vec![arg], tr)?,
                    rr,
                ))
            }
            B::Bool => {
                let v =
                    self.is_true(llops, hop.args_v[0], hop.args_r[0], &hop.args_s[0].clone())?;
                Ok((v, self.intern_repr(Repr::Bool)))
            }
            B::Min | B::Max if hop.nargs() == 2 => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let b = self.inputarg(llops, hop, 1, rr)?;
                let f = if id == B::Max { "ll_max" } else { "ll_min" };
                Ok((self.gendirectcall(llops, f, vec![a, b], tr)?, rr))
            }
            B::Abs => {
                let a = self.inputarg(llops, hop, 0, rr)?;
                let o = match self.repr(rr) {
                    Repr::Float => LlOp::FloatAbs,
                    _ => LlOp::IntAbs,
                };
                Ok((llops.genop(o, vec![a], tr), rr))
            }
            _ if id.int_kind().is_some() || matches!(id, B::RarithmeticRSinglefloat | B::Int | B::Float) => {
                // r_uint(x), r_longlong(x)…: a cast to the result's integer type
                if hop.nargs() == 0 {
                    let k = self
                        .convert_const_ll(LlValue::Int(0), LlType::SIGNED, tr)
                        .unwrap();
                    return Ok((Hlvalue::Ll(k), rr));
                }
                if id == B::RarithmeticRSinglefloat || matches!(self.repr(hop.args_r[0]), Repr::SingleFloat) {
                    return self.rtype_singlefloat_cast(hop, llops, id == B::Float);
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Str | Repr::Char) {
                    let s = self.inputarg(llops, hop, 0, rs)?;
                    let base = if hop.nargs() > 1 {
                        self.inputarg(llops, hop, 1, si)?
                    } else {
                        cint(10)
                    };
                    if self.has_implicit_exception(hop, "ValueError") {
                        hop.exception_is_here(llops);
                    }
                    if id == B::Float {
                        let f = RuntimeFn::StrToFloat;
                        return Ok((self.rt_call(llops, f, vec![s, base], tr), rr));
                    }
                    let x =
                        self.gendirectcall(llops, "ll_str_to_int", vec![s, base], LlType::SIGNED)?;
                    return Ok((self.convertvar(llops, x, si, rr)?, rr));
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Float)
                    && id.int_kind() == Some(IntKind::LongLongLong)
                {
                    return Err(TyperError::new(
                        "cannot convert a float to an r_longlonglong (the reference's RTyper has no conversion from Float to SignedLongLongLong)",
                    ));
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Float)
                    && id.int_kind().is_some_and(|k| k.is_narrow())
                {
                    return Err(TyperError::new(format!(
                        "cannot convert between a float and a narrow C integer ({})",
                        crate::annotator::model::int_kind_name(id.int_kind().unwrap_or(IntKind::Signed))
                    )));
                }
                if matches!(self.repr(hop.args_r[0]), Repr::Float)
                    && id != B::Float
                    && id != B::RarithmeticRSinglefloat
                {
                    // r_uint(x), r_ulonglong(x): C's conversion to the unsigned type itself
                    // (the reference's cast_float_to_uint), which keeps values from 2**63 on
                    if tr == LlType::UNSIGNED || tr == LlType::UNSIGNEDLONGLONG {
                        let u = llops.genop(LlOp::CastPrimitive, vec![hop.args_v[0]], tr);
                        return Ok((u, rr));
                    }
                    let i = llops.genop(LlOp::CastFloatToInt, vec![hop.args_v[0]], LlType::SIGNED);
                    return Ok((self.convertvar(llops, i, si, rr)?, rr));
                }
                let v = self.inputarg(llops, hop, 0, rr)?;
                Ok((v, rr))
            }
            B::MathCopysign if hop.args_s[1].konst().is_some_and(|y| matches!(y, Value::Float(f) if f.is_nan())) => {
                // `copysign(x, NAN)`: the reference's C passes a constant NaN as
                // `HUGE_VAL/HUGE_VAL` (negated for a negative one) straight to the C library's
                // copysign, which gcc folds to fabs(x) whatever the NaN's sign (checked with
                // gcc 12 at -O0 to -O3); the machine's division, elsewhere, gives its own sign
                let rf = self.intern_repr(Repr::Float);
                let x = self.inputarg(llops, hop, 0, rf)?;
                Ok((llops.genop(LlOp::FloatAbs, vec![x], LlType::FLOAT), rf))
            }
            _ if id.is_math() => {
                let rf = self.intern_repr(Repr::Float);
                let mut args = vec![Hlvalue::Ll(LlConstant {
                    ty: LlType::VOID,
                    value: LlValue::Name(Sym::new(short)),
                })];
                for i in 0..hop.nargs() {
                    args.push(self.inputarg(llops, hop, i, rf)?);
                }
                if self.catches(hop, "ValueError") || self.catches(hop, "OverflowError")
                {
                    hop.exception_is_here(llops);
                }
                Ok((self.rt_call(llops, RuntimeFn::MathFn, args, tr), rr))
            }
            // answered during translation (on prebuilt objects): a constant
            B::Hasattr => match hop.s_result.konst() {
                Some(k) => Ok((Hlvalue::Ll(self.const_value(k, rr)?), rr)),
                None => Err(TyperError::new(
                    "hasattr() whose answer is not known during translation is not supported by `run` yet".to_string(),
                )),
            },
            _ => Err(TyperError::new(format!(
                "the built-in `{}` is not supported by `run` yet",
                name
            ))),
        }
    }

    /// CPython 2's `str()` of a prebuilt immutable value.
    fn const_str(&self, v: Value) -> Option<String> {
        if let Value::Obj(id) = v {
            if let Object::Tuple(items) | Object::List(items) = self.objheap.get(id) {
                let is_tuple = matches!(self.objheap.get(id), Object::Tuple(_));
                let parts: Option<Vec<String>> =
                    items.iter().map(|x| self.const_repr(*x)).collect();
                let parts = parts?;
                return Some(if is_tuple {
                    if parts.len() == 1 {
                        format!("({},)", parts[0])
                    } else {
                        format!("({})", parts.join(", "))
                    }
                } else {
                    format!("[{}]", parts.join(", "))
                });
            }
        }
        Some(match v {
            Value::None => "None".into(),
            Value::Bool(b) => if b { "True" } else { "False" }.into(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => crate::objspace::format::float_str(f),
            Value::Obj(id) => match self.objheap.get(id) {
                Object::Str(s) => String::from_utf8_lossy(s).into_owned(),
                Object::RInt { value, .. } => value.to_string(),
                Object::Long(value) => value.to_string(),
                _ => return None,
            },
        })
    }

    /// CPython 2's `repr()` of a prebuilt immutable value.
    fn const_repr(&self, v: Value) -> Option<String> {
        match v {
            Value::Float(f) => Some(crate::objspace::format::float_repr(f)),
            Value::Obj(id) => match self.objheap.get(id) {
                Object::Str(s) => Some(
                    String::from_utf8_lossy(&crate::objspace::format::repr_bytes(s)).into_owned(),
                ),
                Object::Long(x) => Some(format!("{}L", x)),
                _ => self.const_str(v),
            },
            _ => self.const_str(v),
        }
    }
}

impl RTyper<'_> {
    /// `r_singlefloat(x)` (`to_float` false) and `float(sf)` (true): the reference's
    /// `cast_primitive` between Float and SingleFloat (C's `(float)x`, `(double)sf`). A
    /// constant argument is cast at run time too, so `r_singlefloat(1.1)` is
    /// 1.100000023841858, never 1.1.
    pub(super) fn rtype_singlefloat_cast(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        to_float: bool,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let rr = hop.r_result;
        let from = self.repr(hop.args_r[0]).clone();
        match (from, to_float) {
            (Repr::SingleFloat, true) => {
                hop.exception_cannot_occur();
                let v = hop.args_v[0];
                if let Hlvalue::Ll(LlConstant { value, .. }) = v {
                    return Ok((
                        Hlvalue::Ll(LlConstant {
                            ty: LlType::FLOAT,
                            value,
                        }),
                        rr,
                    ));
                }
                Ok((llops.genop(LlOp::CastPrimitive, vec![v], LlType::FLOAT), rr))
            }
            (Repr::SingleFloat, false) if matches!(self.repr(rr), Repr::SingleFloat) => {
                Ok((hop.args_v[0], rr))
            }
            (Repr::SingleFloat, _) => Err(TyperError::new(
                "a single-precision float (r_singlefloat) converts only to a float, with float()",
            )),
            _ => {
                let rf = self.intern_repr(Repr::Float);
                let v = self.inputarg(llops, hop, 0, rf)?;
                hop.exception_cannot_occur();
                if let Hlvalue::Ll(LlConstant {
                    value: LlValue::Float(x),
                    ..
                }) = v
                {
                    let value = LlValue::Float(x as f32 as f64);
                    return Ok((
                        Hlvalue::Ll(LlConstant {
                            ty: LlType::SINGLEFLOAT,
                            value,
                        }),
                        rr,
                    ));
                }
                Ok((
                    llops.genop(LlOp::CastPrimitive, vec![v], LlType::SINGLEFLOAT),
                    rr,
                ))
            }
        }
    }
}
