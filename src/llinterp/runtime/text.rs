//! Strings and unicode in the runtime: reading and building `rpy_string` and
//! `rpy_unicode` containers, the codecs, and `%f` as the runtime functions use them.

use super::super::{LlInterpreter, Unwind};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::syntax::Span;

impl<'p> LlInterpreter<'p> {
    pub(crate) fn mkstr(&mut self, bytes: &[u8]) -> LlPtr {
        let st = self.prog.types.pointee(self.prog.str_ptr).unwrap();
        let p = self.heap.malloc(&self.prog.types, st, bytes.len());
        if let Ok(b) = self.heap.bytes_mut(p) {
            b.copy_from_slice(bytes);
        }
        p
    }
    pub(super) fn sbytes(&self, v: LlValue) -> Option<Vec<u8>> {
        match v.as_ptr() {
            LlPtr::Null => None,
            p => self.heap.bytes(p).ok().map(|b| b.to_vec()),
        }
    }
    pub(super) fn s(&self, v: LlValue, span: Span) -> Result<Vec<u8>, Unwind> {
        self.sbytes(v)
            .ok_or_else(|| self.fatal_at(span, "dereference of None (a null string)"))
    }
    pub(super) fn strv(&mut self, bytes: &[u8]) -> LlValue {
        LlValue::Ptr(self.mkstr(bytes))
    }

    pub(super) fn is_unicode(&self, ty: LlType) -> bool {
        let types = &self.prog.types;
        types
            .pointee(ty)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "rpy_unicode")
    }

    /// The characters of a str or unicode value, as code points.
    pub(super) fn text(&self, v: LlValue, ty: LlType, span: Span) -> Result<Vec<u32>, Unwind> {
        let p = v.as_ptr();
        if p == LlPtr::Null {
            return Err(self.fatal_at(span, "dereference of None (a null string)"));
        }
        if ty == self.prog.str_ptr {
            return Ok(self
                .heap
                .bytes(p)
                .unwrap_or(&[])
                .iter()
                .map(|&b| b as u32)
                .collect());
        }
        let n = self.heap.len(p).unwrap_or(0);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(
                self.heap
                    .getitem(p, i as i64)
                    .map(|c| c.as_int() as u32)
                    .unwrap_or(0),
            );
        }
        Ok(out)
    }

    /// A new str or unicode value (per `ty`) of these characters.
    pub(super) fn mktext(&mut self, t: &[u32], ty: LlType) -> LlValue {
        if ty == self.prog.str_ptr {
            let b: Vec<u8> = t.iter().map(|&c| c as u8).collect();
            return self.strv(&b);
        }
        let st = self.prog.types.pointee(ty).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.prog.types, st, t.len());
        for (i, &c) in t.iter().enumerate() {
            let _ = self.heap.setitem(p, i as i64, LlValue::UniChar(c));
        }
        LlValue::Ptr(p)
    }

    /// The codecs (`encode`/`decode`); `None` for the other functions.
    pub(super) fn call_unicode(
        &mut self,
        f: RuntimeFn,
        a: &[LlValue],
        argtys: &[LlType],
        rty: LlType,
        span: Span,
    ) -> Result<Option<LlValue>, Unwind> {
        use RuntimeFn::*;
        let ty = |i: usize| argtys.get(i).copied().unwrap_or(LlType::VOID);
        Ok(Some(match f {
            UniEncode => {
                let t = self.text(a[0], ty(0), span)?;
                let codec = self.s(a[1], span)?.to_ascii_lowercase();
                let mut out = Vec::new();
                match codec.as_slice() {
                    b"utf-8" | b"utf8" => {
                        for c in t {
                            let ch = char::from_u32(c).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                    b"latin-1" | b"latin1" | b"iso-8859-1" | b"ascii" => {
                        let limit = if codec.as_slice() == b"ascii" {
                            128
                        } else {
                            256
                        };
                        for c in t {
                            if c >= limit {
                                return Err(self.raise_std("UnicodeEncodeError"));
                            }
                            out.push(c as u8);
                        }
                    }
                    _ => {
                        return Err(self.fatal_at(
                            span,
                            format!(
                                "the codec {} is not supported",
                                String::from_utf8_lossy(&codec)
                            ),
                        ))
                    }
                }
                self.strv(&out)
            }
            StrDecode => {
                let s = self.s(a[0], span)?;
                let codec = self.s(a[1], span)?.to_ascii_lowercase();
                let t: Vec<u32> = match codec.as_slice() {
                    b"utf-8" | b"utf8" => match std::str::from_utf8(&s) {
                        Ok(x) => x.chars().map(|c| c as u32).collect(),
                        Err(_) => return Err(self.raise_std("UnicodeDecodeError")),
                    },
                    b"ascii" if s.iter().any(|&b| b >= 128) => {
                        return Err(self.raise_std("UnicodeDecodeError"))
                    }
                    _ => s.iter().map(|&b| b as u32).collect(),
                };
                self.mktext(&t, rty)
            }
            _ => return Ok(None),
        }))
    }
}

/// `%.<prec>f` as C prints it (inf, -inf and nan spelled as RPython's formatd does).
pub fn format_f(x: f64, prec: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{:.*}", prec, x)
}
