//! Primitives of the bundled models: `math`, `time`, and the `rpython.rlib` helpers that
//! cannot be written in RPython (`rarithmetic`, `objectmodel`, `jit`, `debug`); the `os`
//! and `sys` ones are in `libos`. Bundled sources reach them through `__rpy__` (`os.write`
//! is `__rpy__.os_write`); `LIB_BUILTINS` is their registry.

use super::builtins::{make_rint, BArgs, BuiltinFn};
use super::libos::{
    model_is_unknown, model_opaque, model_pkg_config_exists, model_unknown, os_close,
    os_environ_snapshot, os_getcwd, os_getenv, os_getpid, os_getuid, os_isatty, os_listdir,
    os_lseek, os_not_at_import, os_open, os_path_exists, os_read, os_readlink, os_refuse_write,
    os_stat_fields, os_strerror, os_tempdir, os_urandom, os_write, sys_exit, sys_frame_count,
    sys_frame_globals,
};
use super::object::{AttrMap, Function, HashKey, Instance, IntKind, ObjId, Object, Value};
use super::ops::{frexp, Num};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;
use std::rc::Rc;

pub(crate) const LIB_BUILTINS: &[(B, BuiltinFn)] = &[
    // os
    (B::OsWrite, os_write),
    (B::OsRead, os_read),
    (B::OsOpen, os_open),
    (B::OsClose, os_close),
    (B::OsLseek, os_lseek),
    (B::OsGetenv, os_getenv),
    (B::OsEnvironSnapshot, os_environ_snapshot),
    (B::OsGetpid, os_getpid),
    (B::OsTempdir, os_tempdir),
    (B::OsUnlink, os_not_at_import),
    (B::OsRemove, os_not_at_import),
    (B::OsRename, os_not_at_import),
    (B::OsMkdir, os_not_at_import),
    (B::OsRmdir, os_not_at_import),
    (B::OsSystem, os_not_at_import),
    (B::OsExit, os_refuse_write),
    (B::OsIsatty, os_isatty),
    (B::OsGetcwd, os_getcwd),
    (B::OsUrandom, os_urandom),
    (B::OsStrerror, os_strerror),
    (B::OsListdir, os_listdir),
    (B::OsStatFields, os_stat_fields),
    (B::OsLstatFields, os_stat_fields),
    (B::OsFstatFields, os_not_at_import),
    (B::OsPathExists, os_path_exists),
    (B::OsPathIsdir, os_path_exists),
    (B::OsPathIsfile, os_path_exists),
    // process and file-descriptor functions of rposix: translated, not run at import time
    (B::OsGetppid, os_not_at_import),
    // lltype: pointers exist only in translated code
    (B::LltypeMalloc, lltype_malloc_host),
    (B::LltypeNullptr, lltype_nullptr_host),
    (B::LltypeTypeOf, os_not_at_import),
    (B::RffiCastPtr, os_not_at_import),
    (B::RffiIsPtr, om_false),
    (B::RffiPtradd, os_not_at_import),
    (B::AnnlowlevelLlstr, llstr_host),
    (B::OsListdirRaw, os_not_at_import),
    (B::OsEnvironRaw, os_not_at_import),
    (B::OsLoadavgItem, os_not_at_import),
    (B::OsTimesItem, os_not_at_import),
    (B::OsPipeRaw, os_not_at_import),
    (B::OsWaitpidRaw, os_not_at_import),
    (B::OsStatInt, os_not_at_import),
    (B::OsStatFloat, os_not_at_import),
    (B::OsFstatInt, os_not_at_import),
    (B::OsFstatFloat, os_not_at_import),
    (B::AnnlowlevelHlstr, os_not_at_import),
    (B::AnnlowlevelLlunicode, os_not_at_import),
    (B::AnnlowlevelHlunicode, os_not_at_import),
    (B::RgcLlArraycopy, os_not_at_import),
    (B::OsGetuid, os_getuid),
    (B::OsGeteuid, os_getuid),
    (B::OsGetgid, os_not_at_import),
    (B::OsGetegid, os_not_at_import),
    (B::OsGetpgrp, os_not_at_import),
    (B::OsFork, os_not_at_import),
    (B::OsSetsid, os_not_at_import),
    (B::OsGetloadavg, os_not_at_import),
    (B::OsGetlogin, os_not_at_import),
    (B::OsKill, os_not_at_import),
    (B::OsDup, os_not_at_import),
    (B::OsDup2, os_not_at_import),
    (B::OsFsync, os_not_at_import),
    (B::OsPipe, os_not_at_import),
    (B::OsChdir, os_not_at_import),
    (B::OsChmod, os_not_at_import),
    (B::OsAccess, os_not_at_import),
    (B::OsUmask, os_not_at_import),
    (B::OsTimes, os_not_at_import),
    (B::OsWaitpid, os_not_at_import),
    (B::OsTtyname, os_not_at_import),
    (B::OsReadlink, os_readlink),
    (B::OsFdopen, os_not_at_import),
    (B::OsSymlink, os_not_at_import),
    (B::OsLink, os_not_at_import),
    (B::OsFtruncate, os_not_at_import),
    (B::OsExecvRaw, os_not_at_import),
    (B::OsNice, os_not_at_import),
    // sys
    (B::SysExit, sys_exit),
    (B::SysFrameGlobals, sys_frame_globals),
    (B::SysFrameCount, sys_frame_count),
    (B::ModelUnknown, model_unknown),
    (B::ModelIsUnknown, model_is_unknown),
    (B::ModelOpaque, model_opaque),
    (B::ModelPkgConfigExists, model_pkg_config_exists),
    // math
    (B::RfloatFormatd, rfloat_formatd),
    (B::MathSqrt, math_fn),
    (B::MathFloor, math_fn),
    (B::MathCeil, math_fn),
    (B::MathFabs, math_fn),
    (B::MathExp, math_fn),
    (B::MathLog10, math_fn),
    (B::MathLog1p, math_fn),
    (B::MathSin, math_fn),
    (B::MathCos, math_fn),
    (B::MathTan, math_fn),
    (B::MathAsin, math_fn),
    (B::MathAcos, math_fn),
    (B::MathAtan, math_fn),
    (B::MathSinh, math_fn),
    (B::MathCosh, math_fn),
    (B::MathTanh, math_fn),
    (B::MathAsinh, math_fn),
    (B::MathAcosh, math_fn),
    (B::MathAtanh, math_fn),
    (B::MathExpm1, math_fn),
    (B::MathDegrees, math_fn),
    (B::MathRadians, math_fn),
    (B::MathTrunc, math_fn),
    (B::MathIsnan, math_fn),
    (B::MathIsinf, math_fn),
    (B::MathLog, math_log),
    (B::MathFmod, math_fn2),
    (B::MathPow, math_fn2),
    (B::MathAtan2, math_fn2),
    (B::MathHypot, math_fn2),
    (B::MathCopysign, math_fn2),
    (B::MathLdexp, math_ldexp),
    (B::MathFrexp, math_frexp),
    (B::MathModf, math_modf),
    (B::MathFactorial, math_factorial),
    // time
    (B::TimeTime, time_time),
    (B::TimeClock, time_clock),
    (B::TimeSleep, time_sleep),
    // rarithmetic
    (B::RarithmeticIntmask, ra_intmask),
    (B::RarithmeticOvfcheck, ra_ovfcheck),
    (B::RarithmeticWiden, ra_widen),
    (B::RarithmeticIsValidInt, ra_is_valid_int),
    (B::RarithmeticLonglongmask, ra_longlongmask),
    (B::RarithmeticRUint, ra_r_uint),
    (B::RarithmeticRLonglong, ra_r_longlong),
    (B::RarithmeticRUlonglong, ra_r_ulonglong),
    (B::RarithmeticRLonglonglong, ra_r_longlonglong),
    (B::RarithmeticRInt, ra_r_int),
    (B::RarithmeticRSinglefloat, ra_r_singlefloat),
    (B::Longlong2floatFloat2longlong, ll2f_float2longlong),
    (B::Longlong2floatLonglong2float, ll2f_longlong2float),
    (B::RarithmeticRInt32, ra_r_narrow::<32, true>),
    (B::RarithmeticRUint32, ra_r_narrow::<32, false>),
    (B::RarithmeticRInt16, ra_r_narrow::<16, true>),
    (B::RarithmeticRUint16, ra_r_narrow::<16, false>),
    (B::RarithmeticRInt8, ra_r_narrow::<8, true>),
    (B::RarithmeticRUint8, ra_r_narrow::<8, false>),
    // objectmodel
    (B::ObjectmodelWeAreTranslated, om_false),
    (B::ObjectmodelComputeHash, om_compute_hash),
    (B::ObjectmodelComputeIdentityHash, om_identity),
    (B::ObjectmodelComputeUniqueId, om_identity),
    (B::ObjectmodelCurrentObjectAddrAsInt, om_identity),
    (B::ObjectmodelInstantiate, om_instantiate),
    (B::ObjectmodelHlinvoke, os_not_at_import),
    (
        B::ObjectmodelImportFromMixin,
        super::mixin::om_import_from_mixin,
    ),
    (B::ObjectmodelNewlistHint, om_newlist_hint),
    (B::WeakrefRef, weakref_ref),
    (B::WeakrefPrebuilt, weakref_deref),
    (B::RgcCollect, om_none),
    (B::RweakrefDeadRef, om_none),
    (B::RweakrefRWeakValueDictionary, weakdict_new),
    (B::RweakrefRWeakKeyDictionary, weakdict_new),
    (B::WeakValueDictPrebuilt, weakdict_call),
    (B::WeakKeyDictPrebuilt, weakdict_call),
    (B::JitVirtualRef, jit_vref),
    (B::JitNonVirtualRef, jit_vref),
    (B::JitVrefPrebuilt, weakref_deref),
    (B::JitVirtualRefFinish, om_none),
    (B::WeakDictGet, super::weakdicts::get),
    (B::WeakDictSet, super::weakdicts::set),
    (B::WeakDictLength, super::weakdicts::length),
    (B::CollectionsOrderedDict, collections_ordered_dict),
    (B::ModuleDunderInit, module_init),
    (B::ObjectmodelKeepaliveUntilHere, om_none),
    (B::ObjectmodelResizelistHint, om_none),
    (B::ObjectmodelFuncWithNewName, om_func_with_new_name),
    (B::ObjectmodelRDictStore, om_r_dict_store),
    (B::ObjectmodelRDictDelete, om_r_dict_delete),
    (B::ObjectmodelRDictFind, om_r_dict_find),
    (B::ObjectmodelDictKeyhash, om_compute_hash_of_key),
    // jit
    (B::JitPromote, jit_identity),
    (B::JitPromoteString, jit_identity),
    (B::JitPromoteUnicode, jit_identity),
    (B::JitHint, jit_identity),
    (B::NonconstNonConstant, jit_identity),
    (B::JitWeAreJitted, om_false),
    (B::JitIsconstant, om_false),
    (B::JitIsvirtual, om_false),
    (B::JitAssertGreen, om_none),
    (B::JitSetParam, om_none),
    (B::JitRecordKnownClass, om_none),
    (B::JitRecordExactClass, om_none),
    (B::JitJitDebug, om_none),
    (B::JitCurrentTraceLength, jit_trace_length),
    (B::JitConditionalCallFunction, om_none),
    (B::JitJitDriverJitMergePoint, om_none),
    (B::JitJitDriverCanEnterJit, om_none),
    (B::JitJitDriverLoopHeader, om_none),
    // debug
    (B::DebugDebugPrint, debug_print),
    (B::DebugDebugStart, om_none),
    (B::DebugDebugStop, om_none),
    (B::DebugDebugFlush, om_none),
    (B::DebugHaveDebugPrints, om_false),
    (B::DebugDebugOffset, jit_trace_length),
    (B::DebugMakeSureNotResized, jit_identity),
    (B::DebugCheckNonneg, debug_check_nonneg),
    (B::DebugCheckRegularInt, debug_check_regular_int),
    (B::DebugFatalerror, debug_fatalerror),
    (B::DebugFatalerrorNotb, debug_fatalerror),
    (B::RerasedRequiresTaggedpointers, om_none),
];

// ----- math -----

fn math_fn(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let x = sp.float_arg(a.args[0])?;
    let name = a.id.short_name();
    let domain = |sp: &mut ObjSpace| Err(sp.err("ValueError", "math domain error"));
    let r = match a.id {
        B::MathSqrt => {
            if x < 0.0 {
                return domain(sp);
            }
            x.sqrt()
        }
        B::MathFloor => x.floor(),
        B::MathCeil => x.ceil(),
        B::MathFabs => x.abs(),
        B::MathExp => {
            let r = x.exp();
            if r.is_infinite() && x.is_finite() {
                return Err(sp.err("OverflowError", "math range error"));
            }
            r
        }
        B::MathLog10 => {
            if x <= 0.0 {
                return domain(sp);
            }
            x.log10()
        }
        B::MathLog1p => {
            if x <= -1.0 {
                return domain(sp);
            }
            x.ln_1p()
        }
        B::MathSin => x.sin(),
        B::MathCos => x.cos(),
        B::MathTan => x.tan(),
        B::MathAsin => {
            if !(-1.0..=1.0).contains(&x) {
                return domain(sp);
            }
            x.asin()
        }
        B::MathAcos => {
            if !(-1.0..=1.0).contains(&x) {
                return domain(sp);
            }
            x.acos()
        }
        B::MathAtan => x.atan(),
        B::MathSinh => x.sinh(),
        B::MathCosh => x.cosh(),
        B::MathTanh => x.tanh(),
        B::MathAsinh => crate::libm::asinh(x),
        B::MathAcosh => {
            if x < 1.0 {
                return domain(sp);
            }
            crate::libm::acosh(x)
        }
        B::MathAtanh => {
            if x <= -1.0 || x >= 1.0 {
                return domain(sp);
            }
            crate::libm::atanh(x)
        }
        B::MathExpm1 => {
            let r = x.exp_m1();
            if r.is_infinite() && x.is_finite() {
                return Err(sp.err("OverflowError", "math range error"));
            }
            r
        }
        B::MathDegrees => x.to_degrees(),
        B::MathRadians => x.to_radians(),
        B::MathTrunc => {
            if !x.is_finite() {
                return Err(sp.err("OverflowError", "cannot convert float infinity to integer"));
            }
            return Ok(sp.new_int(x.trunc() as i128));
        }
        B::MathIsnan => return Ok(Value::Bool(x.is_nan())),
        B::MathIsinf => return Ok(Value::Bool(x.is_infinite())),
        _ => return Err(sp.unsupported(format!("math.{name} is not modelled"))),
    };
    Ok(Value::Float(r))
}

fn math_log(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let x = match sp.num(a.args[0]) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => i as f64,
        Some(Num::F(f)) => f,
        None => return sp.type_error("a float is required"),
    };
    if x <= 0.0 {
        return Err(sp.err("ValueError", "math domain error"));
    }
    let mut r = x.ln();
    if let Some(&b) = a.args.get(1) {
        let b = sp.float_arg(b)?;
        if b <= 0.0 || b == 1.0 {
            return Err(sp.err(
                if b == 1.0 {
                    "ZeroDivisionError"
                } else {
                    "ValueError"
                },
                "math domain error",
            ));
        }
        r /= b.ln();
    }
    Ok(Value::Float(r))
}

fn math_fn2(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let x = sp.float_arg(a.args[0])?;
    let y = sp.float_arg(a.args[1])?;
    let r = match a.id {
        B::MathFmod => {
            if y == 0.0 {
                return Err(sp.err("ValueError", "math domain error"));
            }
            x % y
        }
        B::MathPow => {
            if x < 0.0 && y.fract() != 0.0 {
                return Err(sp.err("ValueError", "math domain error"));
            }
            x.powf(y)
        }
        B::MathAtan2 => x.atan2(y),
        B::MathHypot => x.hypot(y),
        _ => x.copysign(y),
    };
    Ok(Value::Float(r))
}

fn math_ldexp(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let x = sp.float_arg(a.args[0])?;
    let e = sp.int_of(a.args[1]).unwrap_or(0).clamp(-10000, 10000) as i32;
    Ok(Value::Float(x * 2f64.powi(e)))
}

fn rfloat_formatd(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 4)?;
    let x = sp.float_arg(a.args[0])?;
    let code = sp
        .heap
        .str_value(a.args[1])
        .and_then(|c| c.first().copied())
        .unwrap_or(b'r');
    let prec = sp.int_of(a.args[2]).unwrap_or(0).clamp(0, 400) as usize;
    let flags = a.args.get(3).and_then(|f| sp.int_of(*f)).unwrap_or(0) as i64;
    let s = super::format::formatd(x, code, prec, flags);
    Ok(sp.new_str(s.as_bytes()))
}

fn math_frexp(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let x = sp.float_arg(a.args[0])?;
    let (m, e) = frexp(x);
    Ok(sp.new_tuple(vec![Value::Float(m), Value::Int(e as i64)]))
}

fn math_modf(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let x = sp.float_arg(a.args[0])?;
    let (f, i) = if x.is_infinite() {
        (0.0f64.copysign(x), x)
    } else {
        (x.fract(), x.trunc())
    };
    Ok(sp.new_tuple(vec![Value::Float(f), Value::Float(i)]))
}

fn math_factorial(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let Some(n) = sp.int_of(a.args[0]) else {
        return sp.value_error("factorial() only accepts integral values");
    };
    if n < 0 {
        return sp.value_error("factorial() not defined for negative values");
    }
    let mut r: i128 = 1;
    for k in 2..=n {
        r = match r.checked_mul(k) {
            Some(x) => x,
            None => {
                return Err(sp.err(
                    "OverflowError",
                    "factorial too large for the import-time model",
                ))
            }
        };
    }
    Ok(sp.new_int(r))
}

// ----- time -----

fn time_time(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    sp.world_read |= sp.config.policy.clock.is_none();
    Ok(Value::Float(sp.config.policy.time()))
}

fn time_clock(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    if sp.config.policy.clock.is_some() {
        // A sandbox's clock is fixed; `clock()` counts the work done instead of real time.
        return Ok(Value::Float(sp.steps as f64 * 1e-8));
    }
    sp.world_read = true;
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = START.get_or_init(std::time::Instant::now);
    Ok(Value::Float(start.elapsed().as_secs_f64()))
}

fn time_sleep(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    // Never sleeps at import time.
    Ok(Value::None)
}

// ----- rarithmetic -----

fn ra_intmask(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    match sp.num(a.args[0]) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => Ok(Value::Int(i as i64)),
        Some(Num::F(f)) => Ok(Value::Int(f as i128 as i64)),
        None => {
            let tn = sp.type_name(a.args[0]);
            sp.type_error(format!("intmask() of {tn}"))
        }
    }
}

fn ra_ovfcheck(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    match sp.num(v) {
        Some(Num::I(i, _)) => {
            if i64::try_from(i).is_err() {
                return Err(sp.err("OverflowError", "signed integer expression did overflow"));
            }
            Ok(v)
        }
        Some(Num::R(..)) => Err(sp.err(
            "AssertionError",
            "ovfcheck() on a machine integer of rarithmetic",
        )),
        _ => Ok(v),
    }
}

fn ra_widen(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    match sp.num(a.args[0]) {
        Some(Num::R(IntKind::Signed | IntKind::Narrow { .. }, i)) => Ok(Value::Int(i as i64)),
        _ => Ok(a.args[0]),
    }
}

fn ra_is_valid_int(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    // untranslated: any integer (bools and machine integers too) in a word's range
    let r = match (a.args[0], sp.num(a.args[0])) {
        (Value::Bool(_), _) => true,
        (_, Some(Num::I(i, _) | Num::R(_, i))) => i64::try_from(i).is_ok(),
        _ => false,
    };
    Ok(Value::Bool(r))
}

fn ra_longlongmask(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::LongLong, a)
}

fn ra_r_uint(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::Unsigned, a)
}

fn ra_r_longlong(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::LongLong, a)
}

fn ra_r_ulonglong(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::ULongLong, a)
}

fn ra_r_longlonglong(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::LongLongLong, a)
}

fn ra_r_int(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(sp, IntKind::Signed, a)
}

fn ra_r_narrow<const BITS: u8, const SIGNED: bool>(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    make_rint(
        sp,
        IntKind::Narrow {
            bits: BITS,
            signed: SIGNED,
        },
        a,
    )
}

fn ra_r_singlefloat(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let f = sp.float_arg(a.args[0])?;
    Ok(Value::Float(f as f32 as f64))
}

// ----- longlong2float -----

fn ll2f_float2longlong(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let f = sp.float_arg(a.args[0])?;
    Ok(Value::Int(f.to_bits() as i64))
}

fn ll2f_longlong2float(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    // an int, or a machine integer of 64 bits (r_longlong, r_uint): its bit pattern
    let bits = match sp.num(a.args[0]) {
        Some(Num::I(i, _) | Num::R(_, i)) => i as u64,
        _ => return sp.type_error("longlong2float() needs an integer"),
    };
    Ok(Value::Float(f64::from_bits(bits)))
}

// ----- objectmodel -----

fn om_false(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let _ = sp;
    let _ = a;
    Ok(Value::Bool(false))
}

/// `weakref.ref(x)` at import time: a weak reference to the instance (prebuilt once
/// translated; import-time objects are never freed, so it stays alive).
fn weakref_ref(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let x = a.args[0];
    match x {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Instance(_)) => {
            Ok(sp.alloc(Object::Builtin {
                id: B::WeakrefPrebuilt,
                bound_self: Some(x),
            }))
        }
        _ => os_not_at_import(sp, a),
    }
}

/// A weak dictionary made at import time, remembering its key and value classes for the
/// annotator; a value dictionary also its entries (`weakdicts`: its `get` and `set` work
/// at import time), a key dictionary none (calling its methods is not modelled).
fn weakdict_new(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let id = if a.id == B::RweakrefRWeakKeyDictionary {
        B::WeakKeyDictPrebuilt
    } else {
        B::WeakValueDictPrebuilt
    };
    let entries = sp.new_dict();
    let classes = vec![a.args[0], a.args[1], entries];
    let classes = sp.new_tuple(classes);
    Ok(sp.alloc(Object::Builtin {
        id,
        bound_self: Some(classes),
    }))
}

/// Calling a weak dictionary made at import time: not callable.
fn weakdict_call(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let class = if a.id == B::WeakKeyDictPrebuilt {
        "RWeakKeyDictionary"
    } else {
        "RWeakValueDictionary"
    };
    Err(sp.err("TypeError", format!("'{class}' object is not callable")))
}

/// `jit.virtual_ref(x)` or `jit.non_virtual_ref(x)` at import time: a prebuilt virtual
/// reference to `x` (`vref_None` is one to None).
fn jit_vref(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(sp.alloc(Object::Builtin {
        id: B::JitVrefPrebuilt,
        bound_self: Some(a.args[0]),
    }))
}

/// Calling a weak reference made at import time: its object.
fn weakref_deref(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    Ok(a.this.unwrap_or(Value::None))
}

fn om_none(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let _ = sp;
    let _ = a;
    Ok(Value::None)
}

fn om_compute_hash(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let h = sp.hash_value(a.args[0])?;
    Ok(Value::Int(h))
}

/// `dict_keyhash(d, key)` at import time, where `d` is a plain dict (the bundled r_dict
/// class asks its own `key_hash`): the key's `compute_hash`.
fn om_compute_hash_of_key(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let h = sp.hash_value(a.args[1])?;
    Ok(Value::Int(h))
}

/// The dict and the entry number of an `r_dict_store` / `r_dict_delete` call, and the
/// CPython hash of what the r_dict's hash function returned (an `_r_dictkey`'s `__hash__`:
/// -1 is -2, a long hashes as a long; `None` for anything else).
fn r_dict_slot(sp: &mut ObjSpace, a: &BArgs) -> R<(ObjId, HashKey, Option<i64>)> {
    let (Value::Obj(d), Value::Int(n)) = (a.args[0], a.args[1]) else {
        return Err(sp.err(
            "TypeError",
            "r_dict_store() takes a dict and an entry number",
        ));
    };
    if !matches!(sp.heap.get(d), Object::Dict(_)) {
        return Err(sp.err(
            "TypeError",
            "r_dict_store() takes a dict and an entry number",
        ));
    }
    let hash = r_dict_hash(sp, a.args[2]);
    Ok((d, HashKey::Int(n as i128), hash))
}

/// The CPython hash of what an r_dict's hash function returned (an `_r_dictkey`'s
/// `__hash__`: -1 is -2, a long hashes as a long; `None` for anything else).
fn r_dict_hash(sp: &ObjSpace, h: Value) -> Option<i64> {
    sp.heap
        .hash_key(h)
        .filter(|k| matches!(k, HashKey::Int(_)))
        .and_then(|k| super::pydict_order::py_hash(&k))
}

/// `r_dict_store(d, n, h, entry)`: `d[n] = entry` where `n` numbers an r_dict's entry and
/// `h` is its key's hash by the r_dict's function (the table orders by `h`).
fn om_r_dict_store(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 4, 4)?;
    let (d, hk, hash) = r_dict_slot(sp, a)?;
    let (n, entry) = (a.args[1], a.args[3]);
    if let Object::Dict(dict) = sp.heap.get_mut(d) {
        dict.insert_with_hash(hash, hk, n, entry);
    }
    Ok(Value::None)
}

/// `r_dict_delete(d, n, h)`: `del d[n]` of an entry stored by `r_dict_store`.
fn om_r_dict_delete(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 3)?;
    let (d, hk, hash) = r_dict_slot(sp, a)?;
    if let Object::Dict(dict) = sp.heap.get_mut(d) {
        dict.remove_with_hash(hash, &hk);
    }
    Ok(Value::None)
}

/// `r_dict_find(d, h, key, key_eq)`: the number of the entry equal to `key` (-1 when
/// none), walking CPython's table of the entries; -2 when that table's order is unknown
/// (the caller then compares the entries of hash `h` itself).
fn om_r_dict_find(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 4, 4)?;
    let (Value::Obj(d), Some(h)) = (a.args[0], r_dict_hash(sp, a.args[1])) else {
        return Ok(Value::Int(-2));
    };
    let (key, key_eq) = (a.args[2], a.args[3]);
    Ok(Value::Int(sp.r_dict_find(d, h, key, key_eq)?.unwrap_or(-2)))
}

fn om_identity(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Int(sp.id_of(a.args[0])))
}

/// `lltype.malloc(T, n)` outside translated code: only while the RTyper runs a library's
/// Repr (`convert_const`), where it is the bundled lltype's host structure or array.
fn lltype_malloc_host(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if !sp.host_lltype {
        return os_not_at_import(sp, a);
    }
    let m = sp.import_module("rpython.rtyper.lltypesystem.lltype", None, 0)?;
    let f = sp.getattr(Value::Obj(m), &Rc::from("_host_malloc"))?;
    let args = a.args.iter().take(2).copied().collect();
    sp.call(f, args)
}

/// `nullptr(T)` at import time: the model's `_NullPtr(T)`, a null pointer the annotator
/// reads as a constant.
fn lltype_nullptr_host(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let m = sp.import_module("rpython.rtyper.lltypesystem.lltype", None, 0)?;
    let cls = sp.getattr(Value::Obj(m), &Rc::from("_NullPtr"))?;
    sp.call(cls, vec![a.args[0]])
}

/// `llstr(s)` outside translated code: while the RTyper runs a library's Repr, the str
/// itself (a host structure's string field holds it until it is copied).
fn llstr_host(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if !sp.host_lltype {
        return os_not_at_import(sp, a);
    }
    a.arity(sp, 1, 1)?;
    Ok(a.args[0])
}

fn om_instantiate(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let cls = match a.args[0] {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Class(_)) => id,
        _ => return sp.type_error("instantiate() argument must be a class"),
    };
    let inst = sp.heap.alloc(Object::Instance(Instance {
        class: cls,
        dict: AttrMap::default(),
    }));
    if sp.is_exception_class(cls) {
        sp.init_exception_args(inst, vec![]);
    }
    Ok(Value::Obj(inst))
}

/// `ModuleType.__init__(self, name, doc=None)`: what a subclass of the module type built
/// through the inherited constructor gets (`__name__`, `__doc__`).
fn module_init(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 1, 2)?;
    let name = a.args[0];
    let doc = a.args.get(1).copied().unwrap_or(Value::None);
    if let Value::Obj(id) = this {
        match sp.heap.get_mut(id) {
            Object::Instance(inst) => {
                inst.dict.set("__name__", name);
                inst.dict.set("__doc__", doc);
            }
            Object::Module(m) => {
                m.dict.set("__name__", name);
                m.dict.set("__doc__", doc);
            }
            _ => {}
        }
    }
    Ok(Value::None)
}

/// `OrderedDict(...)`: every dict keeps its insertion order here, so it is a dict.
fn collections_ordered_dict(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1 + a.kwargs.len())?;
    let d = sp.new_dict();
    if let Value::Obj(id) = d {
        if let Object::Dict(dict) = sp.heap.get_mut(id) {
            dict.keep_insertion_order();
        }
    }
    if let Some(&src) = a.args.first() {
        sp.dict_update(d, src)?;
    }
    // `OrderedDict(a=1, b=2)`: keyword items, in the order written
    for (k, v) in a.kwargs.clone() {
        let key = sp.intern(&k);
        sp.setitem(d, key, v)?;
    }
    Ok(d)
}

fn om_newlist_hint(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    Ok(sp.new_list(vec![]))
}

impl ObjSpace {
    /// A copy of a function object sharing its code (`func_with_new_name`).
    pub(crate) fn copy_function(&mut self, f: Value, name: Option<Rc<str>>) -> R {
        let Some(func) = self.heap.function(f).cloned() else {
            return self.type_error("expected a function");
        };
        let mut func: Function = func;
        if let Some(n) = name {
            func.name = n;
        }
        Ok(self.alloc(Object::Function(Box::new(func))))
    }
}

fn om_func_with_new_name(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let name = sp.name_of(a.args[1]);
    sp.copy_function(a.args[0], name)
}

// ----- jit -----

fn jit_identity(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.is_empty() {
        let n = a.id.name();
        return sp.type_error(format!("{n}() takes at least 1 argument (0 given)"));
    }
    Ok(a.args[0])
}

/// `debug.check_nonneg(x)` run at import time: the model's asserts, an unsigned kind
/// (whose `-1` is not negative) or a negative value fail.
fn debug_check_nonneg(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let failed = match sp.num(a.args[0]) {
        Some(Num::I(i, _)) => i < 0,
        Some(Num::R(IntKind::Unsigned | IntKind::ULongLong, _)) => true,
        Some(Num::R(IntKind::Narrow { signed: false, .. }, _)) => true,
        Some(Num::R(_, i)) => i < 0,
        Some(Num::F(f)) => f < 0.0 || f.is_nan(),
        None => false,
    };
    if failed {
        return Err(sp.err("AssertionError", ""));
    }
    Ok(a.args[0])
}

/// `debug.check_regular_int(x)` run at import time: an int, long, bool or machine integer
/// within a signed word; anything else fails the model's assert.
fn debug_check_regular_int(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let ok = match sp.num(a.args[0]) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => i64::try_from(i).is_ok(),
        Some(Num::F(_)) => false,
        None => true,
    };
    if !ok {
        return Err(sp.err("AssertionError", ""));
    }
    Ok(a.args[0])
}

fn jit_trace_length(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let _ = sp;
    let _ = a;
    Ok(Value::Int(-1))
}

// ----- debug -----

fn debug_print(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let mut out = Vec::new();
    for (i, &x) in a.args.clone().iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        out.extend(sp.str_value(x)?);
    }
    out.push(b'\n');
    sp.write_out(&out, true);
    Ok(Value::None)
}

fn debug_fatalerror(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let msg = match a.args.first() {
        Some(&m) => sp.text_of(m).unwrap_or_default(),
        None => String::new(),
    };
    Err(sp.err("RuntimeError", format!("fatalerror: {msg}")))
}
