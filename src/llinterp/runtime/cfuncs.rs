//! The C library functions a program declares with `rffi.llexternal`, as the
//! LLInterpreter runs them (the registry is `lltypesystem::libc`): on raw `char`
//! buffers (arrays of chars, which the model's wrapper makes of strings), with C's
//! results. An access past a buffer's end is the program's undefined behaviour and
//! stops `run`; a declared function not in the registry stops it too, naming the
//! function (the user's line is the call).

use super::super::{LlInterpreter, Unwind};
use super::checksum;
use crate::lltypesystem::eci::Eci;
use crate::lltypesystem::libc::{CDecl, LibcFn};
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::syntax::Span;

type R = Result<LlValue, Unwind>;

impl<'p> LlInterpreter<'p> {
    /// Calls C function `decl` with `a`; `rty` is the call's result type.
    pub(crate) fn call_c(&mut self, decl: &CDecl, a: &[LlValue], rty: LlType, span: Span) -> R {
        use LibcFn::*;
        let Some(f) = decl.known else {
            let known: Vec<&str> = LibcFn::ALL.iter().map(|f| f.name()).collect();
            return Err(self.fatal_at(
                span,
                format!(
                    "the C function `{}` (declared with rffi.llexternal{}) cannot be called by `run`: it runs only the C library functions rpy-lsp models ({}); `rpy-lsp build` calls it{}",
                    decl.name,
                    decl.declared_at
                        .as_ref()
                        .map(|at| format!(" at {}", at))
                        .unwrap_or_default(),
                    known.join(", "),
                    how_build_links(&decl.eci)
                ),
            ));
        };
        let int = |i: usize| a.get(i).map(|v| v.as_int()).unwrap_or(0);
        let ptr = |i: usize| a.get(i).map(|v| v.as_ptr()).unwrap_or(LlPtr::Null);
        let n = |i: usize| a.get(i).map(|v| v.as_uint()).unwrap_or(0) as usize;
        let flt = |i: usize| a.get(i).map(|v| v.as_float()).unwrap_or(0.0);
        let v = match f {
            Strlen => self.c_string(ptr(0), f, span)?.len() as i64,
            Strcmp | Strncmp => {
                let x = self.c_string(ptr(0), f, span)?;
                let y = self.c_string(ptr(1), f, span)?;
                let limit = if f == Strncmp { n(2) } else { usize::MAX };
                // the terminating NULs take part
                let xs = x.iter().chain(std::iter::once(&0u8));
                let ys = y.iter().chain(std::iter::once(&0u8));
                let mut r = 0;
                for (k, (p, q)) in xs.zip(ys).enumerate() {
                    if k >= limit {
                        break;
                    }
                    if p != q || *p == 0 {
                        r = *p as i64 - *q as i64;
                        break;
                    }
                }
                r
            }
            Memcmp => {
                let len = n(2);
                let x = self.c_bytes(ptr(0), len, f, span)?;
                let y = self.c_bytes(ptr(1), len, f, span)?;
                x.iter()
                    .zip(&y)
                    .find(|(p, q)| p != q)
                    .map(|(p, q)| *p as i64 - *q as i64)
                    .unwrap_or(0)
            }
            Memchr => {
                let (p, c, len) = (ptr(0), int(1) as u8, n(2));
                let hay = self.c_bytes(p, len, f, span)?;
                let found = match hay.iter().position(|&b| b == c) {
                    Some(k) => self
                        .heap
                        .ptradd(p, k as i64, Some(1))
                        .map_err(|e| self.fatal_at(span, format!("memchr: {e}")))?,
                    None => LlPtr::Null,
                };
                return Ok(LlValue::Ptr(found));
            }
            Memset => {
                let (p, c, len) = (ptr(0), int(1) as u8, n(2));
                if let Some(words) = self.pointer_words(p, len, f, span)? {
                    // a pointer whose bytes are all `c`: NULL for 0, else no object's address
                    let word = u64::from_ne_bytes([c; 8]) as i64;
                    let v = LlValue::Ptr(if c == 0 {
                        LlPtr::Null
                    } else {
                        LlPtr::Addr(word)
                    });
                    if let Some(items) = self.heap.pointer_words_mut(&self.prog.types, p) {
                        items[..words].fill(v);
                    }
                    return Ok(LlValue::Ptr(p));
                }
                self.c_bytes(p, len, f, span)?;
                if let Ok(b) = self.heap.bytes_from_mut(p) {
                    b[..len].fill(c);
                }
                return Ok(LlValue::Ptr(p));
            }
            Memcpy | Memmove => {
                let (dst, len) = (ptr(0), n(2));
                if let Some(words) = self.pointer_words(dst, len, f, span)? {
                    let types = &self.prog.types;
                    let src = match self.heap.pointer_words_mut(types, ptr(1)) {
                        Some(items) if items.len() >= words => items[..words].to_vec(),
                        _ => return Err(self.c_words_source(ptr(1), len, f, span)),
                    };
                    if let Some(items) = self.heap.pointer_words_mut(&self.prog.types, dst) {
                        items[..words].copy_from_slice(&src);
                    }
                    return Ok(LlValue::Ptr(dst));
                }
                let src = self.c_bytes(ptr(1), len, f, span)?;
                self.c_bytes(dst, len, f, span)?;
                if let Ok(b) = self.heap.bytes_from_mut(dst) {
                    b[..len].copy_from_slice(&src);
                }
                return Ok(LlValue::Ptr(dst));
            }
            Strdup => {
                let mut s = self.c_string(ptr(0), f, span)?;
                s.push(0);
                let Some(arr) = self.prog.types.pointee(rty) else {
                    return Err(self.fatal_at(span, "strdup declared with a non-pointer result"));
                };
                let p = self.heap.malloc(&self.prog.types, arr, s.len());
                if let Ok(b) = self.heap.bytes_from_mut(p) {
                    b.copy_from_slice(&s);
                }
                return Ok(LlValue::Ptr(p));
            }
            // the model's raw memory is kept until the program exits (as lltype.free)
            Free => return Ok(LlValue::Void),
            Abs | Labs => {
                let x = int(0);
                if f == Abs {
                    (x as i32).wrapping_abs() as i64
                } else {
                    x.wrapping_abs()
                }
            }
            Toupper | Tolower => {
                let c = int(0) as i32;
                match u8::try_from(c) {
                    Ok(b) if f == Toupper => b.to_ascii_uppercase() as i64,
                    Ok(b) => b.to_ascii_lowercase() as i64,
                    Err(_) => c as i64,
                }
            }
            Write => {
                let len = n(2);
                let data = self.c_bytes(ptr(1), len, f, span)?;
                match self.write_fd(int(0), &data) {
                    Ok(k) => k as i64,
                    Err(_) => -1,
                }
            }
            Read => {
                let (fd, buf, len) = (int(0), ptr(1), n(2));
                self.c_bytes(buf, len, f, span)?;
                let mut tmp = vec![0u8; len];
                let got = self.read_fd(fd, &mut tmp);
                match got {
                    Ok(k) => {
                        if let Ok(b) = self.heap.bytes_from_mut(buf) {
                            b[..k].copy_from_slice(&tmp[..k]);
                        }
                        k as i64
                    }
                    Err(_) => -1,
                }
            }
            Getpid => std::process::id() as i64,
            Cbrt => return Ok(LlValue::Float(crate::libm::cbrt(flt(0)))),
            Hypot => return Ok(LlValue::Float(crate::libm::hypot(flt(0), flt(1)))),
            DeflateInit2 | Deflate | DeflateEnd => self.call_zlib(f, a, span)?,
            Crc32 | Adler32 => {
                // zlib's `uInt` length and `uLong` running value (32 bits of it)
                let data = self.c_bytes(ptr(1), n(2) as u32 as usize, f, span)?;
                let start = a.first().map(|v| v.as_uint()).unwrap_or(0) as u32;
                if f == Crc32 {
                    checksum::crc32(start, &data) as i64
                } else {
                    checksum::adler32(start, &data) as i64
                }
            }
            Time => {
                if ptr(0) != LlPtr::Null && a.first().is_some_and(|v| matches!(v, LlValue::Ptr(_)))
                {
                    return Err(self.fatal_at(
                        span,
                        "time() with a non-NULL argument is not supported by `run`",
                    ));
                }
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as i64)
                    .unwrap_or(0)
            }
        };
        Ok(self.c_int(rty, v))
    }

    /// A C integer result in the call's result type.
    fn c_int(&self, rty: LlType, v: i64) -> LlValue {
        match rty {
            LlType::VOID => LlValue::Void,
            LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG => LlValue::Uint(v as u64),
            _ if rty.narrow_bits().is_some() => LlValue::narrow(rty, v),
            LlType::BOOL => LlValue::Bool(v != 0),
            LlType::FLOAT => LlValue::Float(v as f64),
            _ => LlValue::Int(v),
        }
    }

    /// The NUL-terminated string at a raw `char` buffer (without its NUL).
    pub(super) fn c_string(&self, p: LlPtr, f: LibcFn, span: Span) -> Result<Vec<u8>, Unwind> {
        let b = self.c_buffer(p, f, span)?;
        match b.iter().position(|c| *c == 0) {
            Some(end) => Ok(b[..end].to_vec()),
            None => Err(self.undefined(
                span,
                format!(
                    "{}() read past the end of a buffer of {} chars without a NUL",
                    f.name(),
                    b.len()
                ),
            )),
        }
    }

    /// The first `len` bytes of a raw `char` buffer.
    pub(super) fn c_bytes(
        &self,
        p: LlPtr,
        len: usize,
        f: LibcFn,
        span: Span,
    ) -> Result<Vec<u8>, Unwind> {
        let b = self.c_buffer(p, f, span)?;
        if len > b.len() {
            return Err(self.undefined(
                span,
                format!(
                    "{}() of {} bytes on a buffer of {} chars",
                    f.name(),
                    len,
                    b.len()
                ),
            ));
        }
        Ok(b[..len].to_vec())
    }

    /// How many pointers `len` bytes at `p` cover when `p` is to a raw array of pointers
    /// (None when it is not): whole words within the array, else the program's undefined
    /// behaviour (past the end) or what `run` does not model (part of a pointer).
    fn pointer_words(
        &mut self,
        p: LlPtr,
        len: usize,
        f: LibcFn,
        span: Span,
    ) -> Result<Option<usize>, Unwind> {
        let Some(items) = self.heap.pointer_words_mut(&self.prog.types, p) else {
            return Ok(None);
        };
        let (have, size) = (items.len(), std::mem::size_of::<u64>());
        if len > have * size {
            return Err(self.undefined(
                span,
                format!(
                    "{}() of {} bytes on an array of {} pointers",
                    f.name(),
                    len,
                    have
                ),
            ));
        }
        if !len.is_multiple_of(size) {
            return Err(self.fatal_at(
                span,
                format!(
                    "{}() of {} bytes on an array of pointers (part of a pointer) is not modelled by `run`",
                    f.name(),
                    len
                ),
            ));
        }
        Ok(Some(len / size))
    }

    /// Why `memcpy` into an array of pointers cannot read its source `p`.
    fn c_words_source(&self, p: LlPtr, len: usize, f: LibcFn, span: Span) -> Unwind {
        if p == LlPtr::Null {
            return self.undefined(span, format!("{}() of a NULL pointer", f.name()));
        }
        self.fatal_at(
            span,
            format!(
                "{}() of {} bytes into an array of pointers from memory that is not an array of as many pointers is not modelled by `run`",
                f.name(),
                len
            ),
        )
    }

    pub(super) fn c_buffer(&self, p: LlPtr, f: LibcFn, span: Span) -> Result<&[u8], Unwind> {
        if p == LlPtr::Null {
            return Err(self.undefined(span, format!("{}() of a NULL pointer", f.name())));
        }
        self.heap.bytes_from(p).map_err(|_| {
            self.fatal_at(
                span,
                format!("{}() of a buffer that is not of chars", f.name()),
            )
        })
    }
}

/// What `build` compiles or links for a C function beyond the C library, as the end of
/// `run`'s refusal: the libraries and C sources of its `compilation_info`.
fn how_build_links(eci: &Eci) -> String {
    let mut parts = Vec::new();
    if !eci.libraries.is_empty() {
        let libs: Vec<String> = eci.libraries.iter().map(|l| format!("-l{}", l)).collect();
        parts.push(format!("linking {}", libs.join(" ")));
    }
    if !eci.separate_module_sources.is_empty() || !eci.separate_module_files.is_empty() {
        parts.push("compiling the program's own C code".to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}
