//! zlib's compression (`deflateInit2_`, `deflate`, `deflateEnd`), as `run` executes the
//! calls `rpython.rlib.rzlib`'s model makes: by the system's zlib (`libz.so.1`, loaded on
//! the first call), the library the reference's binaries are linked with. Its output is
//! zlib's own algorithm, which only zlib gives byte for byte; decompression and the
//! checksums are the model's (RPython, and `checksum`).
//!
//! The program's `z_stream` is a raw structure of the model's heap with the fields the
//! model declares (`next_in`, `avail_in`, `next_out`, `avail_out`, `msg`); each such
//! stream has a real `z_stream` here, at a fixed address (zlib's state points back to
//! it). A call copies the input the program's stream designates into zlib's stream, and
//! the output and the new positions back.

use super::super::{LlInterpreter, Unwind};
use crate::lltypesystem::libc::LibcFn;
use crate::lltypesystem::{LlPtr, LlType, LlValue, TypeDef};
use crate::syntax::Span;
use std::ffi::{c_char, c_int, c_ulong, c_void, CStr};
use std::sync::OnceLock;

/// zlib's `z_stream` (zlib.h; the same layout in every zlib 1.2 and 1.3).
#[repr(C)]
pub struct ZStream {
    next_in: *const u8,
    avail_in: u32,
    total_in: c_ulong,
    next_out: *mut u8,
    avail_out: u32,
    total_out: c_ulong,
    msg: *const c_char,
    state: *mut c_void,
    zalloc: *mut c_void,
    zfree: *mut c_void,
    opaque: *mut c_void,
    data_type: c_int,
    adler: c_ulong,
    reserved: c_ulong,
}

impl ZStream {
    fn zeroed() -> Box<ZStream> {
        Box::new(ZStream {
            next_in: std::ptr::null(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null(),
            state: std::ptr::null_mut(),
            zalloc: std::ptr::null_mut(),
            zfree: std::ptr::null_mut(),
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        })
    }
}

type DeflateInit2Fn = unsafe extern "C" fn(
    *mut ZStream,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    *const c_char,
    c_int,
) -> c_int;
type DeflateFn = unsafe extern "C" fn(*mut ZStream, c_int) -> c_int;
type DeflateEndFn = unsafe extern "C" fn(*mut ZStream) -> c_int;

/// The entry points of the system's zlib.
pub struct ZLib {
    deflate_init2: DeflateInit2Fn,
    deflate: DeflateFn,
    deflate_end: DeflateEndFn,
}

/// The system's zlib, loaded once; why not when it cannot be.
pub fn zlib() -> Result<&'static ZLib, String> {
    static LIB: OnceLock<Result<ZLib, String>> = OnceLock::new();
    LIB.get_or_init(load).as_ref().map_err(|e| e.clone())
}

fn load() -> Result<ZLib, String> {
    const NAME: &CStr = c"libz.so.1";
    // SAFETY: dlopen of a system library by name; the handle is kept for the process's
    // life (never dlclosed), so the symbols stay valid.
    let handle = unsafe { libc::dlopen(NAME.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err("the system's zlib (libz.so.1) cannot be loaded: `run` calls it for zlib's compression (install zlib, e.g. Debian's zlib1g)".into());
    }
    let sym = |name: &CStr| {
        // SAFETY: a symbol looked up in the handle opened above
        let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
        if p.is_null() {
            Err(format!(
                "the system's zlib (libz.so.1) has no `{}`",
                name.to_string_lossy()
            ))
        } else {
            Ok(p)
        }
    };
    let (i, d, e) = (
        sym(c"deflateInit2_")?,
        sym(c"deflate")?,
        sym(c"deflateEnd")?,
    );
    // SAFETY: zlib's functions of these C signatures (zlib.h)
    unsafe {
        Ok(ZLib {
            deflate_init2: std::mem::transmute::<*mut c_void, DeflateInit2Fn>(i),
            deflate: std::mem::transmute::<*mut c_void, DeflateFn>(d),
            deflate_end: std::mem::transmute::<*mut c_void, DeflateEndFn>(e),
        })
    }
}

/// zlib's error code and message, when deflateInit2_ refuses its parameters.
pub type InitError = (i32, Option<Vec<u8>>);

/// A real zlib stream, freed with zlib's `deflateEnd` when dropped.
pub struct Deflater {
    z: Box<ZStream>,
    lib: &'static ZLib,
}

impl Deflater {
    /// `deflateInit2_` with these parameters and the caller's zlib version: the stream,
    /// or zlib's error code and message.
    pub fn new(
        level: i32,
        method: i32,
        wbits: i32,
        memlevel: i32,
        strategy: i32,
        version: &CStr,
    ) -> Result<Result<Deflater, InitError>, String> {
        let lib = zlib()?;
        let mut z = ZStream::zeroed();
        let size = std::mem::size_of::<ZStream>() as c_int;
        // SAFETY: a zeroed z_stream (zalloc/zfree NULL: zlib's own allocator) at a fixed
        // address, a NUL-terminated version string
        let err = unsafe {
            (lib.deflate_init2)(
                &mut *z,
                level,
                method,
                wbits,
                memlevel,
                strategy,
                version.as_ptr(),
                size,
            )
        };
        if err != 0 {
            return Ok(Err((err, msg_of(&z))));
        }
        Ok(Ok(Deflater { z, lib }))
    }

    /// One `deflate(strm, flush)` on `input` with `out_space` bytes of output: zlib's
    /// result, how much input it consumed, the output it wrote, and its message.
    pub fn deflate(
        &mut self,
        input: &[u8],
        out_space: usize,
        flush: i32,
    ) -> (i32, usize, Vec<u8>, Option<Vec<u8>>) {
        let mut out = vec![0u8; out_space];
        let z = &mut *self.z;
        z.next_in = input.as_ptr();
        z.avail_in = input.len() as u32;
        z.next_out = out.as_mut_ptr();
        z.avail_out = out_space as u32;
        // SAFETY: the stream was initialised by deflateInit2_ and stays at its address;
        // the buffers outlive the call and are as long as their counts say
        let err = unsafe { (self.lib.deflate)(z, flush) };
        let used = input.len() - z.avail_in as usize;
        out.truncate(out_space - z.avail_out as usize);
        z.next_in = std::ptr::null();
        z.next_out = std::ptr::null_mut();
        (err, used, out, msg_of(z))
    }
}

impl Drop for Deflater {
    fn drop(&mut self) {
        // SAFETY: the stream was initialised by deflateInit2_ and is ended once
        unsafe {
            (self.lib.deflate_end)(&mut *self.z);
        }
    }
}

fn msg_of(z: &ZStream) -> Option<Vec<u8>> {
    if z.msg.is_null() {
        return None;
    }
    // SAFETY: zlib's messages are static NUL-terminated strings
    Some(unsafe { CStr::from_ptr(z.msg) }.to_bytes().to_vec())
}

type R = Result<i64, Unwind>;

impl<'p> LlInterpreter<'p> {
    /// The zlib compression functions of `LibcFn` on the program's arguments.
    pub(super) fn call_zlib(&mut self, f: LibcFn, a: &[LlValue], span: Span) -> R {
        let int = |i: usize| a.get(i).map(|v| v.as_int()).unwrap_or(0) as i32;
        let strm = a.first().map(|v| v.as_ptr()).unwrap_or(LlPtr::Null);
        if strm == LlPtr::Null {
            return Err(self.undefined(span, format!("{}() of a NULL stream", f.name())));
        }
        match f {
            LibcFn::DeflateInit2 => {
                let version = a.get(6).map(|v| v.as_ptr()).unwrap_or(LlPtr::Null);
                let mut version = self.c_string(version, f, span)?;
                version.push(0);
                let version = CStr::from_bytes_with_nul(&version).unwrap_or(c"");
                let made = Deflater::new(int(1), int(2), int(3), int(4), int(5), version)
                    .map_err(|e| self.fatal_at(span, e))?;
                self.zstreams.remove(&strm);
                match made {
                    Ok(d) => {
                        self.zstreams.insert(strm, d);
                        self.set_zmsg(strm, None, span)?;
                        Ok(0)
                    }
                    Err((err, msg)) => {
                        self.set_zmsg(strm, msg, span)?;
                        Ok(err as i64)
                    }
                }
            }
            LibcFn::Deflate => {
                let next_in = self.zfield(strm, "c_next_in", span)?.as_ptr();
                let avail_in = self.zfield(strm, "c_avail_in", span)?.as_uint() as u32 as usize;
                let next_out = self.zfield(strm, "c_next_out", span)?.as_ptr();
                let avail_out = self.zfield(strm, "c_avail_out", span)?.as_uint() as u32 as usize;
                let input = if avail_in == 0 {
                    Vec::new()
                } else {
                    self.c_bytes(next_in, avail_in, f, span)?
                };
                if avail_out > 0 && self.c_buffer(next_out, f, span)?.len() < avail_out {
                    return Err(self.undefined(
                        span,
                        format!("deflate() with avail_out {avail_out} past its output buffer"),
                    ));
                }
                let Some(d) = self.zstreams.get_mut(&strm) else {
                    // zlib's check of a stream deflateInit2_ did not set up
                    return Ok(-2);
                };
                let (err, used, out, msg) = d.deflate(&input, avail_out, int(1));
                if let Ok(b) = self.heap.bytes_from_mut(next_out) {
                    b[..out.len()].copy_from_slice(&out);
                }
                let moved = |heap: &crate::lltypesystem::LlHeap, p: LlPtr, n: usize| {
                    if n == 0 {
                        Ok(p)
                    } else {
                        heap.ptradd(p, n as i64, Some(1))
                    }
                };
                let new_in = moved(&self.heap, next_in, used)
                    .map_err(|e| self.fatal_at(span, format!("deflate: {e}")))?;
                let new_out = moved(&self.heap, next_out, out.len())
                    .map_err(|e| self.fatal_at(span, format!("deflate: {e}")))?;
                let uint = |n: usize| LlValue::narrow(LlType::UINT, n as i64);
                self.set_zfield(strm, "c_next_in", LlValue::Ptr(new_in), span)?;
                self.set_zfield(strm, "c_avail_in", uint(avail_in - used), span)?;
                self.set_zfield(strm, "c_next_out", LlValue::Ptr(new_out), span)?;
                self.set_zfield(strm, "c_avail_out", uint(avail_out - out.len()), span)?;
                self.set_zmsg(strm, msg, span)?;
                Ok(err as i64)
            }
            _ => {
                // deflateEnd: Z_STREAM_ERROR for a stream that is not one
                Ok(match self.zstreams.remove(&strm) {
                    Some(_) => 0,
                    None => -2,
                })
            }
        }
    }

    fn zfield(&self, strm: LlPtr, name: &str, span: Span) -> Result<LlValue, Unwind> {
        let ty = self.zstream_type(strm, span)?;
        self.heap
            .getfield(&self.prog.types, strm, ty, name)
            .map_err(|e| self.fatal_at(span, format!("z_stream: {e}")))
    }

    fn set_zfield(
        &mut self,
        strm: LlPtr,
        name: &str,
        v: LlValue,
        span: Span,
    ) -> Result<(), Unwind> {
        let ty = self.zstream_type(strm, span)?;
        self.heap
            .setfield(&self.prog.types, strm, ty, name, v)
            .map_err(|e| self.fatal_at(span, format!("z_stream: {e}")))
    }

    fn zstream_type(&self, strm: LlPtr, span: Span) -> Result<LlType, Unwind> {
        self.heap
            .container(strm)
            .map(|c| c.ty)
            .map_err(|e| self.fatal_at(span, format!("z_stream: {e}")))
    }

    /// Sets the stream's `msg` to zlib's message (a new raw `char` buffer), or NULL.
    fn set_zmsg(&mut self, strm: LlPtr, msg: Option<Vec<u8>>, span: Span) -> Result<(), Unwind> {
        let p = match msg {
            None => LlPtr::Null,
            Some(mut text) => {
                let types = &self.prog.types;
                let chars = types.all().find(|&t| {
                    matches!(types.def(t), TypeDef::Array { .. })
                        && !types.is_gc(t)
                        && types.array_item(t) == Some(LlType::CHAR)
                });
                let Some(chars) = chars else {
                    return Ok(());
                };
                text.push(0);
                let p = self.heap.malloc(types, chars, text.len());
                if let Ok(b) = self.heap.bytes_from_mut(p) {
                    b.copy_from_slice(&text);
                }
                p
            }
        };
        self.set_zfield(strm, "c_msg", LlValue::Ptr(p), span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes this machine's zlib 1.2.13 gives (as CPython's zlib module, linked with
    /// it, gives them), which the reference's binaries print
    /// (fixtures `rlib_digest_zlib_suite_blind19b`, `rlib_rzlib_deflate_options`): a
    /// different deflate implementation would give other bytes.
    #[test]
    fn system_zlib_output() {
        let mut d = Deflater::new(6, 8, 15, 8, 0, c"1.2.13").unwrap().unwrap();
        let (err, used, out, msg) = d.deflate(b"hello hello hello hello", 64, 4);
        assert_eq!((err, used, msg), (1, 23, None));
        assert_eq!(
            out,
            [
                0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x27, 0x01, 0x68, 0x03,
                0x08, 0xb1
            ]
        );
        // raw deflate at level 9, filtered: no header, no checksum
        let mut d = Deflater::new(9, 8, -15, 9, 1, c"1.2.13").unwrap().unwrap();
        let (err, _, out, _) = d.deflate(b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 64, 4);
        assert_eq!(err, 1);
        assert_eq!(out, [0x4b, 0x4c, 0xc4, 0x07, 0x00]);
        // an invalid level: zlib's Z_STREAM_ERROR
        assert!(matches!(
            Deflater::new(12, 8, 15, 8, 0, c"1.2.13").unwrap(),
            Err((-2, _))
        ));
    }
}
