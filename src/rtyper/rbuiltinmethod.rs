//! Calls of the methods of built-in types (`str`, `unicode`, `list`, `dict`, ...):
//! takes the method's receiver (with its Repr and annotation) and the call's arguments;
//! gives the low-level operations or runtime-function calls that implement the method.

use super::hop::{cbool, cfield, cint, ctype, cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::{LlOp, LlType, LlValue};
use crate::objspace::object::IntKind;

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    pub(super) fn call_builtin_method(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        sv: Hlvalue,
        sr: ReprId,
        ss: &SomeValue,
        id: B,
    ) -> R {
        // string methods are the same on str and unicode: the receiver's repr says which
        let id = id.str_method().unwrap_or(id);
        if id.owner() == Some("rweakdict") {
            return self.rtype_weakdict_method(hop, llops, sv, sr, ss, id);
        }
        if self.is_os_environ(ss) {
            match id {
                B::DictGet => return self.rtype_environ_get(hop, llops),
                B::DictKeys | B::DictItems => return self.rtype_environ_list(hop, llops, id),
                _ => {}
            }
        }
        let name = id.short_name();
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let void = self.intern_repr(Repr::Void);
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let rs = self.intern_repr(Repr::Str);
        let _ = ss;
        // where the reference's typing raises without declaring what (`exception_is_here`
        // alone)
        let raise_here = |rt: &Self, hop: &mut Hop, llops: &LlOps, exc: &str| {
            if rt.catches(hop, exc) {
                hop.exception_is_here(llops);
            }
        };
        match self.repr(sr).clone() {
            Repr::Generator(gg) if name == "next" => self.generator_next(hop, llops, gg, sv, sr),
            // `it.next()` of an iterator: the `next` operation of a loop, on the receiver
            Repr::Iter { .. } | Repr::RangeIter if name == "next" => {
                let s_it = match ss {
                    SomeValue::BuiltinMethod { s_self, .. } => (**s_self).clone(),
                    other => other.clone(),
                };
                hop.v_s_insertfirstarg(sv, sr, s_it);
                self.rtype_next(hop, llops)
            }
            Repr::List { item, .. } => {
                // low-level helpers (ll_list.py); `sv` is the list
                let it = self.lltype(item);
                let (helper, args, res): (&str, Vec<Hlvalue>, (LlType, ReprId)) = match id {
                    B::ListReverse => {
                        let (items, n) = self.list_parts(llops, sv, sr);
                        ("ll_reverse", vec![items, n], (LlType::VOID, void))
                    }
                    B::ListAppend => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        ("ll_append", vec![sv, x], (LlType::VOID, void))
                    }
                    B::ListPop => {
                        let i = if hop.nargs() > 0 {
                            self.inputarg(llops, hop, 0, si)?
                        } else {
                            cint(-1)
                        };
                        // without an IndexError handler an index out of range is undefined
                        let helper = if self.has_implicit_exception(hop, "IndexError") {
                            hop.exception_is_here(llops);
                            "ll_pop"
                        } else {
                            "ll_pop_unchecked"
                        };
                        (helper, vec![sv, i], (it, item))
                    }
                    B::ListInsert => {
                        let i = self.inputarg(llops, hop, 0, si)?;
                        let x = self.inputarg(llops, hop, 1, item)?;
                        ("ll_insert", vec![sv, i, x], (LlType::VOID, void))
                    }
                    B::ListExtend => {
                        let (o, ro) = (hop.args_v[0], hop.args_r[0]);
                        if matches!(self.repr(ro), Repr::Str | Repr::Unicode) {
                            ("ll_extend_chars", vec![sv, o], (LlType::VOID, void))
                        } else {
                            let (items, n) = self.list_parts(llops, o, ro);
                            ("ll_extend", vec![sv, items, n], (LlType::VOID, void))
                        }
                    }
                    B::ListRemove => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        let eq = self.item_eq(item)?;
                        if self.has_implicit_exception(hop, "ValueError") {
                            hop.exception_is_here(llops);
                        }
                        self.gendirectcall_eq(llops, "ll_remove", vec![sv, x], eq, LlType::VOID)?;
                        return Ok((cvoid(), void));
                    }
                    B::ListIndex => {
                        let x = self.inputarg(llops, hop, 0, item)?;
                        let eq = self.item_eq(item)?;
                        let (items, n) = self.list_parts(llops, sv, sr);
                        if self.has_implicit_exception(hop, "ValueError") {
                            hop.exception_is_here(llops);
                        }
                        let args = vec![items, n, x];
                        let i =
                            self.gendirectcall_eq(llops, "ll_index", args, eq, LlType::SIGNED)?;
                        return Ok((i, si));
                    }
                    _ => {
                        return Err(TyperError::new(format!(
                            "list.{}() is not supported by `run` yet",
                            name
                        )))
                    }
                };
                let out = self.gendirectcall(llops, helper, args, res.0)?;
                Ok((out, res.1))
            }
            Repr::Str | Repr::Unicode => {
                // the receiver's kind of string (str or unicode)
                let (rs, ts) = (sr, self.lltype(sr));
                if id == B::StrEncode || id == B::StrDecode {
                    let codec = hop.args_s[0]
                        .konst()
                        .and_then(|v| self.objheap.str_value(v))
                        .map(|b| String::from_utf8_lossy(b).to_ascii_lowercase());
                    let Some(codec) = codec else {
                        return Err(TyperError::new("the encoding must be a constant"));
                    };
                    let decode = id == B::StrDecode;
                    let (helper, mut args) = match (decode, codec.as_str()) {
                        (false, "utf-8" | "utf8") => ("ll_encode_utf8", vec![sv]),
                        (false, "latin-1" | "latin1" | "iso-8859-1") => {
                            ("ll_encode_latin1", vec![sv, cint(256)])
                        }
                        (false, "ascii") => ("ll_encode_latin1", vec![sv, cint(128)]),
                        (true, "utf-8" | "utf8") => ("ll_decode_utf8", vec![sv]),
                        (true, "latin-1" | "latin1" | "iso-8859-1") => {
                            ("ll_decode_latin1", vec![sv, cint(256)])
                        }
                        (true, "ascii") => ("ll_decode_latin1", vec![sv, cint(128)]),
                        _ => {
                            return Err(TyperError::new(format!(
                                "the encoding {} is not supported by `run` yet",
                                codec
                            )))
                        }
                    };
                    if decode {
                        args.insert(0, ctype(tr));
                    }
                    if self.catches(hop, "UnicodeError") || self.catches(hop, "ValueError") {
                        hop.exception_is_here(llops);
                    }
                    return Ok((self.gendirectcall(llops, helper, args, tr)?, rr));
                }
                let sarg = |rt: &mut Self, llops: &mut LlOps, hop: &Hop, i: usize| {
                    rt.inputarg(llops, hop, i, rs)
                };
                // the methods written as low-level helpers (ll_str.py)
                let helper = match id {
                    B::StrUpper
                    | B::StrLower
                    | B::StrIsdigit
                    | B::StrIsalpha
                    | B::StrIsspace
                    | B::StrIsalnum
                    | B::StrIsupper
                    | B::StrIslower
                    | B::StrStartswith
                    | B::StrEndswith => Some(format!("ll_{}", name)),
                    _ => None,
                };
                if let Some(helper) = helper {
                    let mut args = vec![sv];
                    for i in 0..hop.nargs() {
                        // The argument (a prefix or suffix: the only helpers here with
                        // arguments) keeps its own kind of string repr, as the reference's
                        // typer passes it: a str and a unicode string test each other's
                        // affixes, the helper comparing the characters of both kinds.
                        let own = match hop.args_s[i].is_unicode_like() {
                            true => self.intern_repr(Repr::Unicode),
                            false => self.intern_repr(Repr::Str),
                        };
                        args.push(self.inputarg(llops, hop, i, own)?);
                    }
                    let (ty, repr) = if id == B::StrUpper || id == B::StrLower {
                        (ts, rs)
                    } else {
                        (LlType::BOOL, self.intern_repr(Repr::Bool))
                    };
                    return Ok((self.gendirectcall(llops, &helper, args, ty)?, repr));
                }
                match id {
                    B::StrFind | B::StrRfind | B::StrCount | B::StrIndex | B::StrRindex => {
                        let sub = sarg(self, llops, hop, 0)?;
                        let start = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, si)?
                        } else {
                            cint(0)
                        };
                        let end = if hop.nargs() > 2 {
                            self.inputarg(llops, hop, 2, si)?
                        } else {
                            cint(i64::MAX)
                        };
                        let helper = match id {
                            B::StrFind | B::StrIndex => "ll_find",
                            B::StrCount => "ll_count",
                            _ => "ll_rfind",
                        };
                        let res = self.gendirectcall(
                            llops,
                            helper,
                            vec![sv, sub, start, end],
                            LlType::SIGNED,
                        )?;
                        Ok((res, si))
                    }
                    B::StrStrip | B::StrLstrip | B::StrRstrip => {
                        let chars = if hop.nargs() > 0 {
                            sarg(self, llops, hop, 0)?
                        } else {
                            Hlvalue::Ll(LlConstant {
                                ty: ts,
                                value: LlValue::Ptr(crate::lltypesystem::LlPtr::Null),
                            })
                        };
                        let which = match id {
                            B::StrStrip => 0,
                            B::StrLstrip => 1,
                            _ => 2,
                        };
                        let res = self.gendirectcall(
                            llops,
                            "ll_strip",
                            vec![sv, chars, cint(which)],
                            ts,
                        )?;
                        Ok((res, rs))
                    }
                    B::StrReplace => {
                        // single characters only (the check says so otherwise)
                        let rc = self.intern_repr(if self.repr(rs) == &Repr::Unicode {
                            Repr::UniChar
                        } else {
                            Repr::Char
                        });
                        let c1 = self.inputarg(llops, hop, 0, rc)?;
                        let c2 = self.inputarg(llops, hop, 1, rc)?;
                        let args = vec![sv, c1, c2];
                        let res = self.gendirectcall(llops, "ll_replace_chr_chr", args, ts)?;
                        Ok((res, rs))
                    }
                    B::StrSplit | B::StrRsplit => {
                        // a separator is required (the check says so otherwise)
                        let sep = sarg(self, llops, hop, 0)?;
                        let max = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, si)?
                        } else {
                            cint(-1)
                        };
                        // (an empty separator raises nothing: see `_split_empty`)
                        // the reference's rsplit of a str (not of a unicode string) misses
                        // adjacent separators (`_rsplit_str`)
                        let base = if id == B::StrSplit {
                            "ll_split"
                        } else if ts == self.unicode_ptr {
                            "ll_rsplit"
                        } else {
                            "ll_rsplit_str"
                        };
                        let res = self.new_list_call(llops, base, rr, vec![sv, sep, max])?;
                        Ok((res, rr))
                    }
                    B::StrJoin => {
                        let (l, rl) = (hop.args_v[0], hop.args_r[0]);
                        let (chars, void) = match self.repr(rl) {
                            &Repr::List { item, .. } => (
                                match self.repr(item) {
                                    Repr::Char => Some(false),
                                    Repr::UniChar => Some(true),
                                    _ => None,
                                },
                                self.lltype(item) == LlType::VOID,
                            ),
                            _ => return Err(TyperError::new("str.join() of a non-list")),
                        };
                        if void {
                            // a list that is always empty (its items are impossible)
                            let empty = if ts == self.unicode_ptr {
                                Hlvalue::Ll(LlConstant {
                                    ty: ts,
                                    value: LlValue::Ptr(self.prebuilt_unicode(&[])),
                                })
                            } else {
                                self.str_constant(b"")
                            };
                            return Ok((empty, rs));
                        }
                        let (items, n) = self.list_parts(llops, l, rl);
                        // characters are joined with '' only (the check says so otherwise)
                        let res = if let Some(wide_items) = chars {
                            // characters of the other kind are cast to the separator's
                            let helper = match (wide_items, ts == self.unicode_ptr) {
                                (true, false) => "ll_join_chars_narrow",
                                (false, true) => "ll_join_chars_widen",
                                _ => "ll_join_chars",
                            };
                            self.gendirectcall(llops, helper, vec![ctype(ts), items, n], ts)?
                        } else {
                            self.gendirectcall(llops, "ll_join", vec![sv, items, n], ts)?
                        };
                        Ok((res, rs))
                    }
                    B::StrSplitlines => {
                        let keep = if hop.nargs() > 0 {
                            let rb = self.intern_repr(Repr::Bool);
                            self.inputarg(llops, hop, 0, rb)?
                        } else {
                            cbool(false)
                        };
                        let res = self.new_list_call(llops, "ll_splitlines", rr, vec![sv, keep])?;
                        Ok((res, rr))
                    }
                    _ => Err(TyperError::new(format!(
                        "str.{}() is not supported by `run` yet",
                        name
                    ))),
                }
            }
            Repr::UniChar => {
                let ru = self.intern_repr(Repr::Unicode);
                let s = self.convertvar(llops, sv, sr, ru)?;
                self.call_builtin_method(hop, llops, s, ru, ss, id)
            }
            Repr::Char => {
                // methods of a one-character string: as a string (a char again when the
                // annotator says the result is one: `c.upper()`)
                let s = self.convertvar(llops, sv, sr, rs)?;
                let (v, r) = self.call_builtin_method(hop, llops, s, rs, ss, id)?;
                if matches!(self.repr(rr), Repr::Char) && r == rs {
                    let c = llops.genop(
                        LlOp::GetInteriorField,
                        vec![v, cfield("chars"), cint(0)],
                        LlType::CHAR,
                    );
                    return Ok((c, rr));
                }
                Ok((v, r))
            }
            Repr::Dict { key, value, .. } => {
                // low-level helpers (ll_dict.py); `sv` is the dict
                let tv = self.lltype(value);
                let (helper, args, res): (&str, Vec<Hlvalue>, (LlType, ReprId)) = match id {
                    B::DictGet => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        let d = if hop.nargs() > 1 {
                            self.inputarg(llops, hop, 1, value)?
                        } else {
                            Hlvalue::Ll(LlConstant {
                                ty: tv,
                                value: LlValue::zero(&self.types, tv),
                            })
                        };
                        ("ll_dict_get", vec![sv, k, d], (tv, value))
                    }
                    B::DictSetdefault => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        let d = self.inputarg(llops, hop, 1, value)?;
                        ("ll_dict_setdefault", vec![sv, k, d], (tv, value))
                    }
                    B::DictPop => {
                        let k = self.inputarg(llops, hop, 0, key)?;
                        if hop.nargs() > 1 {
                            let d = self.inputarg(llops, hop, 1, value)?;
                            ("ll_dict_pop_default", vec![sv, k, d], (tv, value))
                        } else {
                            raise_here(self, hop, llops, "KeyError");
                            ("ll_dict_pop", vec![sv, k], (tv, value))
                        }
                    }
                    B::DictClear => {
                        let v =
                            self.gendirectcall(llops, "ll_dict_clear", vec![sv], LlType::VOID)?;
                        return Ok((v, void));
                    }
                    B::DictPopitem => {
                        raise_here(self, hop, llops, "KeyError");
                        let args = vec![ctype(tr), sv];
                        return Ok((self.dict_call(llops, "ll_dict_popitem", sr, args, tr)?, rr));
                    }
                    B::DictCopy => ("ll_dict_copy", vec![sv], (tr, rr)),
                    B::DictUpdate => (
                        "ll_dict_update",
                        vec![sv, hop.args_v[0]],
                        (LlType::VOID, void),
                    ),
                    B::DictKeys | B::DictValues | B::DictItems => {
                        let base = match id {
                            B::DictKeys => "ll_dict_keys",
                            B::DictValues => "ll_dict_values",
                            _ => "ll_dict_items",
                        };
                        return Ok((self.new_list_call(llops, base, rr, vec![sv])?, rr));
                    }
                    B::DictIterkeys | B::DictItervalues | B::DictIteritems => {
                        let st = self.types.pointee(tr).unwrap();
                        let it = llops.genop(LlOp::Malloc, vec![ctype(st)], tr);
                        llops.genop(
                            LlOp::SetField,
                            vec![it, cfield("container"), sv],
                            LlType::VOID,
                        );
                        return Ok((it, rr));
                    }
                    _ => {
                        return Err(TyperError::new(format!(
                            "dict.{}() is not supported by `run` yet",
                            name
                        )))
                    }
                };
                let (ty, repr) = res;
                Ok((self.dict_call(llops, helper, sr, args, ty)?, repr))
            }
            // the JitDriver's markers: nothing happens at run time without a JIT
            _ if matches!(
                id,
                B::JitJitDriverJitMergePoint
                    | B::JitJitDriverCanEnterJit
                    | B::JitJitDriverLoopHeader
            ) =>
            {
                Ok((cvoid(), void))
            }
            _ => Err(TyperError::new(format!(
                "the method `{}` of this value is not supported by `run` yet",
                name
            ))),
        }
    }
}
