//! `rtype_*` of string conversions: `str()`/`repr()` of every Repr and `%` formatting
//! with a constant format (parsed at translation time, as the reference does).

use super::hop::{cbool, cfield, cint, ctype, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::flowspace::{Hlvalue, LlConstant};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlType, LlValue};
use crate::objspace::object::{IntKind, Object, Value};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// `hex(v)`/`oct(v)` (`prefix`) and `'%x' % v`/`'%o' % v`: the digits of an unsigned
    /// value as it is, of others (bools as ints) with their sign, as the reference's helper
    /// specialized by the argument's type gives them.
    pub(super) fn radix_str(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
        hex: bool,
        prefix: bool,
    ) -> Result<Hlvalue, TyperError> {
        if let Repr::Int(k) = self.repr(r) {
            if let Some(m) = crate::annotator::model::narrow_arith_message(*k) {
                return Err(TyperError::new(m));
            }
        }
        let unsigned = matches!(
            self.repr(r),
            Repr::Int(IntKind::Unsigned | IntKind::ULongLong)
        );
        let rk = self.intern_repr(Repr::Int(if unsigned {
            IntKind::Unsigned
        } else {
            IntKind::Signed
        }));
        // a 128-bit integer goes to the helper as it is: its sign is the 128-bit value's,
        // its digits those of the magnitude's low word (the reference's helpers take
        // `r_uint(-x)`)
        let lllong = matches!(self.repr(r), Repr::Int(IntKind::LongLongLong));
        let x = if lllong {
            v
        } else {
            self.convertvar(llops, v, r, rk)?
        };
        let f = match (hex, unsigned) {
            (false, _) if lllong => "ll_lllong_oct",
            (true, false) => "ll_int_hex",
            (true, true) => "ll_uint_hex",
            (false, false) => "ll_int_oct",
            (false, true) => "ll_uint_oct",
        };
        let t = self.str_ptr;
        self.gendirectcall(llops, f, vec![x, cbool(prefix)], t)
    }

    /// `str(v)` (or `repr(v)`) as a string.
    pub fn to_str(
        &mut self,
        llops: &mut LlOps,
        v: Hlvalue,
        r: ReprId,
        repr: bool,
    ) -> Result<Hlvalue, TyperError> {
        if let Repr::Int(k) = self.repr(r) {
            if let Some(m) = crate::annotator::model::narrow_arith_message(*k) {
                return Err(TyperError::new(m));
            }
        }
        let t = self.str_ptr;
        let ty = self.lltype(r);
        let call =
            |rt: &mut Self, llops: &mut LlOps, f: RuntimeFn, args: Vec<Hlvalue>, tys: &[LlType]| {
                let fp = rt.runtime(f, tys, t);
                let mut a = vec![fp];
                a.extend(args);
                llops.genop(LlOp::DirectCall, a, t)
            };
        Ok(match self.repr(r).clone() {
            // repr() of strings is not RPython (the annotator says so); a string that may
            // be None gives "None" (the reference's StringRepr.ll_str)
            Repr::Str if !repr => self.gendirectcall(llops, "ll_str_or_none", vec![v], t)?,
            Repr::Char if !repr => {
                self.gendirectcall(llops, "ll_char_str", vec![ctype(t), v], t)?
            }
            // integers as words (a long long is one on the 64-bit machines we target)
            Repr::Int(k @ (IntKind::Signed | IntKind::LongLong | IntKind::LongLongLong)) => {
                // (a 128-bit integer as it is: see `radix_str`)
                let si = self.intern_repr(Repr::Int(IntKind::Signed));
                let x = if k != IntKind::LongLong {
                    v
                } else {
                    self.convertvar(llops, v, r, si)?
                };
                self.gendirectcall(llops, "ll_int_str", vec![x], t)?
            }
            Repr::Int(k) => {
                let ru = self.intern_repr(Repr::Int(IntKind::Unsigned));
                let x = if k == IntKind::Unsigned {
                    v
                } else {
                    self.convertvar(llops, v, r, ru)?
                };
                self.gendirectcall(llops, "ll_uint_str", vec![x], t)?
            }
            // a bool computed at run time is an int to the RTyper's str()
            Repr::Bool => {
                let x = llops.genop(LlOp::CastBoolToInt, vec![v], LlType::SIGNED);
                self.gendirectcall(llops, "ll_int_str", vec![x], t)?
            }
            Repr::Float if repr => call(
                self,
                llops,
                RuntimeFn::FloatToRepr,
                vec![v],
                &[LlType::FLOAT],
            ),
            Repr::Float => call(
                self,
                llops,
                RuntimeFn::FloatToStr,
                vec![v],
                &[LlType::FLOAT],
            ),
            Repr::List { .. } | Repr::Tuple(_) => self.container_str(llops, v, r)?,
            Repr::Instance(_) | Repr::Object => {
                let ro = self.intern_repr(Repr::Object);
                let obj = self.convertvar(llops, v, r, ro)?;
                self.gendirectcall(llops, "ll_instance_str", vec![obj], t)?
            }
            Repr::Unicode if !repr => self.gendirectcall(llops, "ll_unicode_str", vec![v], t)?,
            // the reference's `str(unicode(ch))`: ASCII or UnicodeEncodeError
            Repr::UniChar if !repr => {
                let tu = self.unicode_ptr;
                let u = self.gendirectcall(llops, "ll_char_str", vec![ctype(tu), v], tu)?;
                self.gendirectcall(llops, "ll_unicode_str", vec![u], t)?
            }
            Repr::ByteArray if !repr => {
                self.gendirectcall(llops, "ll_bytearray_str", vec![v], t)?
            }
            Repr::Void => self.str_constant(b"None"),
            // a class: the name its vtable carries (the class's own name, unqualified)
            Repr::Class(_) if !repr => {
                let cr = self.intern_repr(Repr::Class(None));
                let c = self.convertvar(llops, v, r, cr)?;
                llops.genop(LlOp::GetField, vec![c, cfield("name")], t)
            }
            _ => {
                return Err(TyperError::new(format!(
                    "{}() of {} is not supported by `run` yet",
                    if repr { "repr" } else { "str" },
                    self.types.name(ty)
                )))
            }
        })
    }

    /// `'fmt' % args`: the format is parsed now; each directive becomes a conversion of its
    /// argument to a string, and the pieces are concatenated.
    ///
    /// A unicode format gives a unicode string: its literal parts are unicode constants,
    /// `%s` of a unicode argument is the argument, and every other piece is converted from
    /// ASCII (as the reference's formatting of unicode does).
    pub(super) fn rtype_format(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        // the format's characters, by code
        let (fmt, uni): (Vec<u32>, bool) = match hop.args_s[0].konst() {
            Some(Value::Obj(id)) => match self.objheap.get(id) {
                Object::Str(b) => (b.iter().map(|&c| c as u32).collect(), false),
                Object::Unicode(u) => (u.codes().to_vec(), true),
                _ => return Err(TyperError::new("`%` with a format that is not a string")),
            },
            _ => return Err(TyperError::new("`%` with a format that is not a constant")),
        };
        let rs = self.intern_repr(if uni { Repr::Unicode } else { Repr::Str });
        // the arguments: a tuple's items, or a single value
        let mut args: Vec<(Hlvalue, ReprId)> = Vec::new();
        match self.repr(hop.args_r[1]).clone() {
            Repr::Tuple(items) => {
                for (k, r) in items.iter().enumerate() {
                    let t = self.lltype(*r);
                    let v = llops.genop(
                        LlOp::GetField,
                        vec![hop.args_v[1], cfield(&format!("item{}", k))],
                        t,
                    );
                    args.push((v, *r));
                }
            }
            _ => args.push((hop.args_v[1], hop.args_r[1])),
        }
        let t = self.str_ptr;
        let tu = self.lltype(rs);
        let mut pieces: Vec<Hlvalue> = Vec::new();
        let mut lit: Vec<u32> = Vec::new();
        let mut i = 0;
        let mut argi = 0;
        let flag = |c: u32| c < 128 && b"-.+ #0123456789".contains(&(c as u8));
        while i < fmt.len() {
            if fmt[i] != '%' as u32 {
                lit.push(fmt[i]);
                i += 1;
                continue;
            }
            i += 1;
            let start = i;
            while i < fmt.len() && flag(fmt[i]) {
                i += 1;
            }
            let spec: String = fmt[start..i]
                .iter()
                .map(|&c| char::from_u32(c).unwrap_or('?'))
                .collect();
            let Some(&code) = fmt.get(i) else {
                return Err(TyperError::new("incomplete format"));
            };
            let code = if code < 128 { code as u8 } else { b'?' };
            i += 1;
            if code == b'%' {
                lit.push('%' as u32);
                continue;
            }
            if !lit.is_empty() {
                pieces.push(self.format_literal(&lit, uni));
                lit.clear();
            }
            let Some(&(v, r)) = args.get(argi) else {
                return Err(TyperError::new("not enough arguments for the format"));
            };
            argi += 1;
            if uni
                && code == b's'
                && spec.is_empty()
                && matches!(self.repr(r), Repr::Unicode | Repr::UniChar)
            {
                pieces.push(self.convertvar(llops, v, r, rs)?);
                continue;
            }
            let piece = match code {
                b's' if spec.is_empty() => self.to_str(llops, v, r, false)?,
                b'r' if spec.is_empty() => self.to_str(llops, v, r, true)?,
                b'd' | b'i' if spec.is_empty() => {
                    let si = self.intern_repr(Repr::Int(IntKind::Signed));
                    let rr = match self.repr(r) {
                        Repr::Int(_) => r,
                        _ => si,
                    };
                    let x = self.convertvar(llops, v, r, rr)?;
                    self.to_str(llops, x, rr, false)?
                }
                b'x' | b'o' if spec.is_empty() => {
                    // %x and %o: no 0x or 0 prefix, the sign before the digits
                    self.radix_str(llops, v, r, code == b'x', false)?
                }
                b'c' => {
                    let rc = self.intern_repr(Repr::Char);
                    let x = self.convertvar(llops, v, r, rc)?;
                    self.to_str(llops, x, rc, false)?
                }
                // the reference's %f is the argument's own str(): an int's digits
                b'f' if spec.is_empty() && matches!(self.repr(r), Repr::Int(_) | Repr::Bool) => {
                    self.to_str(llops, v, r, false)?
                }
                b'f' | b'e' | b'g' | b'F' | b'E' | b'G' => {
                    let rf = self.intern_repr(Repr::Float);
                    let x = self.convertvar(llops, v, r, rf)?;
                    let prec: i64 = spec
                        .strip_prefix('.')
                        .and_then(|p| p.parse().ok())
                        .unwrap_or(if spec.is_empty() { 6 } else { -1 });
                    if prec < 0 {
                        return Err(TyperError::new(format!(
                            "the format %{}{} is not supported by `run` yet",
                            spec, code as char
                        )));
                    }
                    let fp = self.runtime(
                        RuntimeFn::FloatFormat,
                        &[LlType::FLOAT, LlType::CHAR, LlType::SIGNED],
                        t,
                    );
                    let c = Hlvalue::Ll(LlConstant {
                        ty: LlType::CHAR,
                        value: LlValue::Char(code),
                    });
                    llops.genop(LlOp::DirectCall, vec![fp, x, c, cint(prec)], t)
                }
                _ => {
                    return Err(TyperError::new(format!(
                        "the format %{}{} is not supported by `run` yet",
                        spec, code as char
                    )))
                }
            };
            // an ASCII piece of a unicode result
            let piece = if uni {
                self.decode_ascii(llops, piece)?
            } else {
                piece
            };
            pieces.push(piece);
        }
        if !lit.is_empty() || pieces.is_empty() {
            pieces.push(self.format_literal(&lit, uni));
        }
        let mut acc = pieces[0];
        for p in pieces.into_iter().skip(1) {
            acc = self.gendirectcall(llops, "ll_strconcat", vec![acc, p], tu)?;
        }
        Ok((acc, rs))
    }

    /// A literal part of a format, as a prebuilt str or unicode string.
    fn format_literal(&mut self, codes: &[u32], uni: bool) -> Hlvalue {
        if uni {
            let p = self.prebuilt_unicode(codes);
            return Hlvalue::Ll(LlConstant {
                ty: self.unicode_ptr,
                value: LlValue::Ptr(p),
            });
        }
        let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
        self.str_constant(&bytes)
    }

    /// A str as unicode, decoded as ASCII (UnicodeDecodeError otherwise): `unicode(s)`
    /// and the pieces of a unicode format.
    pub(super) fn decode_ascii(
        &mut self,
        llops: &mut LlOps,
        s: Hlvalue,
    ) -> Result<Hlvalue, TyperError> {
        let tu = self.unicode_ptr;
        let args = vec![ctype(tu), s, super::hop::cint(128)];
        self.gendirectcall(llops, "ll_decode_latin1", args, tu)
    }

    /// `debug_print(a, b, ...)`: the items as the reference's C formats them (strings as
    /// they are, numbers as `str()` gives them at run time — `%ld`, `%f` —, bools as words),
    /// joined by spaces, for the runtime's debug line.
    pub(super) fn rtype_debug_print(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
    ) -> Result<(Hlvalue, ReprId), TyperError> {
        let t = self.str_ptr;
        let mut line: Option<Hlvalue> = None;
        // the reference's C prints the items with one printf format that ends in a newline,
        // its constant strings and characters written into the format: a NUL in one ends
        // the format there, so the rest of the line and its newline are not printed
        let mut cut = false;
        for i in 0..hop.nargs() {
            let r = hop.args_r[i];
            let constant = self.debug_print_constant(hop, i, r);
            let s = match constant {
                Some(bytes) => match bytes.iter().position(|&b| b == 0) {
                    Some(k) => {
                        cut = true;
                        self.str_constant(&bytes[..k])
                    }
                    None => self.str_constant(&bytes),
                },
                None => {
                    let v = self.inputarg(llops, hop, i, r)?;
                    match self.repr(r) {
                        Repr::Bool => self.gendirectcall(llops, "ll_debug_bool", vec![v], t)?,
                        // the reference prints a string variable with %s, which stops at a
                        // NUL
                        Repr::Str => {
                            let s = self.to_str(llops, v, r, false)?;
                            self.gendirectcall(llops, "ll_debug_str", vec![s], t)?
                        }
                        Repr::Char | Repr::Int(_) | Repr::Float => {
                            self.to_str(llops, v, r, false)?
                        }
                        _ if self.types.is_ptr(self.lltype(r)) => {
                            self.gendirectcall(llops, "ll_debug_ptr", vec![v], t)?
                        }
                        _ => {
                            return Err(TyperError::new(
                                "debug_print of this value is not supported by `run` yet",
                            ))
                        }
                    }
                }
            };
            line = Some(match line {
                None => s,
                Some(acc) => {
                    let sp = self.str_constant(b" ");
                    let acc = self.gendirectcall(llops, "ll_strconcat", vec![acc, sp], t)?;
                    self.gendirectcall(llops, "ll_strconcat", vec![acc, s], t)?
                }
            });
            if cut {
                break;
            }
        }
        let line = match line {
            Some(l) => l,
            None => self.str_constant(b""),
        };
        let line = if cut {
            line
        } else {
            let nl = self.str_constant(b"\n");
            self.gendirectcall(llops, "ll_strconcat", vec![line, nl], t)?
        };
        self.rt_call(llops, RuntimeFn::DebugPrintLine, vec![line], LlType::VOID);
        let void = self.intern_repr(Repr::Void);
        Ok((super::hop::cvoid(), void))
    }

    /// The bytes of argument `i` of a `debug_print` when it is a constant string or
    /// character (part of the reference's format string).
    fn debug_print_constant(&self, hop: &Hop, i: usize, r: ReprId) -> Option<Vec<u8>> {
        if !matches!(self.repr(r), Repr::Str | Repr::Char) {
            return None;
        }
        // a variable annotated as a constant is a constant of the low-level operation too
        // (the reference's `inputarg`)
        let c = match hop.op.args[i] {
            Hlvalue::Const(c) => c,
            _ => hop.args_s[i].konst()?,
        };
        match c {
            Value::Obj(id) => match self.objheap.get(id) {
                Object::Str(b) => Some(b.to_vec()),
                _ => None,
            },
            _ => None,
        }
    }
}
