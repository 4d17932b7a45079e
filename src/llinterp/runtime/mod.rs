//! The runtime functions of `lltypesystem::runtime`, as the LLInterpreter runs them: the
//! external functions (`os.write` to the real file descriptor, the clock, `math`, float
//! formatting and parsing). Each takes
//! its result type from the call's function pointer type (a tuple result is built in it).

mod cfuncs;
mod checksum;
mod containers;
mod math;
mod os;
mod text;
mod zlib;

use super::{LlInterpreter, Unwind};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlType, LlValue};
use crate::syntax::Span;
use text::format_f;
pub(crate) use zlib::Deflater;

type R = Result<LlValue, Unwind>;

impl<'p> LlInterpreter<'p> {
    pub(super) fn fatal_at(&self, span: Span, msg: impl Into<String>) -> Unwind {
        Unwind::Fatal {
            msg: msg.into(),
            span,
        }
    }

    /// A stop for an operation whose behaviour is undefined in the compiled program.
    /// The exception a math function's error raises.
    fn raise_math(&mut self, e: math::MathError) -> Unwind {
        self.raise_std(match e {
            math::MathError::Value => "ValueError",
            math::MathError::Overflow => "OverflowError",
        })
    }

    pub(super) fn undefined(&self, span: Span, what: impl std::fmt::Display) -> Unwind {
        Unwind::Fatal {
            msg: format!("{}{}", super::UNDEFINED, what),
            span,
        }
    }

    pub(super) fn call_runtime(
        &mut self,
        f: RuntimeFn,
        a: &[LlValue],
        rty: LlType,
        span: Span,
    ) -> R {
        use RuntimeFn::*;
        let int = |i: usize| a[i].as_int();
        Ok(match f {
            OsUnlink | OsRmdir | OsMkdir | OsRename | OsLink | OsSymlink | OsChdir | OsGetpid
            | OsGetcwd | OsStrerror | OsIsatty | OsDup | OsDup2 | OsKill | OsWaitpidRaw
            | OsFork | OsExit | OsPipeRaw | OsFsync | OsAccess | OsPathExists | OsPathIsdir
            | OsPathIsfile | OsStatInt | OsStatFloat | OsFstatInt | OsFstatFloat | OsEnvironGet
            | OsEnvironGetitem | OsEnvironSetitem | OsEnvironDelitem | OsEnvironRaw | OsUmask
            | OsTimesItem | OsChmod | OsReadlink | OsFtruncate | OsLseek | OsTtyname
            | OsGetlogin | OsSystem | OsNice | OsGetppid | OsGetpgrp | OsSetsid | OsGetuid
            | OsGeteuid | OsGetgid | OsGetegid | OsExecvRaw => {
                return self.call_os(f, a, rty, span)
            }
            OsWrite => {
                let data = self.s(a[1], span)?;
                match self.write_fd(int(0), &data) {
                    Ok(n) => LlValue::Int(n as i64),
                    Err(e) => return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0))),
                }
            }
            OsRead => {
                let (fd, n) = (int(0), int(1).max(0) as usize);
                let mut buf = vec![0u8; n];
                let got = self.read_fd(fd, &mut buf);
                let got = got.map_err(|e| self.raise_oserror(e.raw_os_error().unwrap_or(0)))?;
                buf.truncate(got);
                self.strv(&buf)
            }
            OsOpen => {
                // open(2) itself, with the program's flags and mode as the reference's
                // binary passes them: std's OpenOptions refuses combinations the system
                // accepts (O_RDONLY | O_CREAT, O_RDONLY | O_TRUNC) and drops the others
                // (O_NONBLOCK...); the kernel applies the umask to a created file
                let path = self.s(a[0], span)?;
                // the C string ends at the first NUL, as rffi's str2charp passes it
                let end = path.iter().position(|&b| b == 0).unwrap_or(path.len());
                let Ok(cpath) = std::ffi::CString::new(&path[..end]) else {
                    return Err(self.raise_oserror(libc::EINVAL));
                };
                let (flags, mode) = (int(1) as libc::c_int, int(2) as libc::c_uint);
                // SAFETY: cpath is a valid NUL-terminated string that outlives the call
                let fd = unsafe { libc::open(cpath.as_ptr(), flags, mode) };
                if fd < 0 {
                    let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
                    return Err(self.raise_oserror(errno));
                }
                // SAFETY: fd was just opened by us and nothing else owns it
                let f = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
                LlValue::Int(self.fds.insert(super::fds::Fd::File(f)))
            }
            DebugPrintLine => {
                if self.debug_have_prints() {
                    let text = self.s(a[0], span)?;
                    self.debug_print_line(&text);
                }
                LlValue::Void
            }
            DebugStart | DebugStop => {
                let category = self.s(a[0], span)?;
                if f == DebugStart {
                    self.debug_start(&category);
                } else {
                    self.debug_stop(&category);
                }
                LlValue::Void
            }
            DebugHavePrints => LlValue::Bool(self.debug_have_prints()),
            DebugFlush => {
                self.debug_flush();
                LlValue::Void
            }
            DebugFatalerror => {
                // the binary's abort(): the output written so far stays, status 134
                let mut text = if int(1) != 0 {
                    b"RPython traceback:\n".to_vec()
                } else {
                    Vec::new()
                };
                text.extend(self.s(a[0], span)?);
                text.push(b'\n');
                let _ = self.write_fd(2, &text);
                return Err(super::Unwind::Exit(134));
            }
            OsClose => {
                let fd = int(0);
                if let Err(e) = self.fds.close(fd) {
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                LlValue::Void
            }
            OsListdirRaw => {
                let path = String::from_utf8_lossy(&self.s(a[0], span)?).into_owned();
                let entries = match std::fs::read_dir(&path) {
                    Ok(entries) => entries,
                    Err(e) => return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0))),
                };
                let mut raw = Vec::new();
                for e in entries.flatten() {
                    use std::os::unix::ffi::OsStrExt;
                    raw.extend_from_slice(e.file_name().as_bytes());
                    raw.push(0);
                }
                self.strv(&raw)
            }
            OsLoadavgItem => {
                // Linux's /proc/loadavg (what getloadavg() reads)
                let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
                let v = text
                    .split_whitespace()
                    .nth(int(0).clamp(0, 2) as usize)
                    .and_then(|x| x.parse::<f64>().ok());
                match v {
                    Some(v) => LlValue::Float(v),
                    None => return Err(self.raise_std("OSError")),
                }
            }
            TimeTime => LlValue::Float(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or(0.0),
            ),
            TimeClock => LlValue::Float(self.start.elapsed().as_secs_f64()),
            TimeSleep => {
                if let LlValue::Float(s) = a[0] {
                    if s > 0.0 && s.is_finite() {
                        std::thread::sleep(std::time::Duration::from_secs_f64(s));
                    }
                }
                LlValue::Void
            }
            PrintItem => {
                let s = self.sbytes(a[0]).unwrap_or_else(|| b"None".to_vec());
                self.print_buf.extend_from_slice(&s);
                self.print_buf.push(b' ');
                LlValue::Void
            }
            PrintNewline => {
                let mut line = std::mem::take(&mut self.print_buf);
                match line.last_mut() {
                    Some(c) => *c = b'\n',
                    None => line.push(b'\n'),
                }
                if let Err(e) = self.write_fd(1, &line) {
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                LlValue::Void
            }
            FloatToStr => {
                let s = format_f(a[0].as_float(), 6);
                self.strv(s.as_bytes())
            }
            FloatToRepr => {
                let s = crate::objspace::format::float_repr(a[0].as_float());
                self.strv(s.as_bytes())
            }
            FloatFormat => {
                let (x, code, prec) = (
                    a[0].as_float(),
                    a[1].as_int() as u8,
                    int(2).clamp(0, 400) as usize,
                );
                let flags = a.get(3).map(|f| f.as_int()).unwrap_or(0);
                let s = crate::objspace::format::formatd(x, code, prec, flags);
                self.strv(s.as_bytes())
            }
            StrToFloat => {
                // RPython's float(str): spaces around (only ' '), a decimal number; no
                // inf/nan spellings (its strtod-based parser rejects them)
                let s = self.s(a[0], span)?;
                let t = String::from_utf8_lossy(&s).trim_matches(' ').to_string();
                let numeric = !t.is_empty()
                    && t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
                    && t.chars().any(|c| c.is_ascii_digit());
                match t.parse::<f64>() {
                    Ok(v) if numeric => LlValue::Float(v),
                    _ => return Err(self.raise_std("ValueError")),
                }
            }
            MathFn => {
                let LlValue::Name(name) = a[0] else {
                    return Err(self.fatal_at(span, "math function without a name"));
                };
                let x = a.get(1).map(|v| v.as_float()).unwrap_or(0.0);
                let y = a.get(2).map(|v| v.as_float()).unwrap_or(0.0);
                match name.as_str() {
                    "isinf" => return Ok(LlValue::Bool(x.is_infinite())),
                    "isnan" => return Ok(LlValue::Bool(x.is_nan())),
                    "isfinite" => return Ok(LlValue::Bool(x.is_finite())),
                    "modf" | "frexp" => {
                        let (p, q) = if name.as_str() == "modf" {
                            // an infinity is all integral part: the fraction is a zero
                            // of its sign (inf - inf would be nan)
                            let ip = x.trunc();
                            let frac = if x.is_infinite() { 0.0 } else { x - ip };
                            (LlValue::Float(frac.copysign(x)), LlValue::Float(ip))
                        } else {
                            let (m, e) = crate::libm::frexp(x);
                            (LlValue::Float(m), LlValue::Int(e as i64))
                        };
                        return Ok(self.new_tuple(rty, &[p, q]));
                    }
                    _ => {}
                }
                // `math.log(x, base)` arrives with two arguments
                let which = if name.as_str() == "log" && a.len() > 2 {
                    "log_2"
                } else {
                    name.as_str()
                };
                match math::call(which, x, y) {
                    Some(Ok(r)) => LlValue::Float(r),
                    Some(Err(e)) => return Err(self.raise_math(e)),
                    None => {
                        return Err(self.fatal_at(
                            span,
                            format!("math.{} is not supported by `run` yet", name.as_str()),
                        ))
                    }
                }
            }
            FloatPow => match math::pow(a[0].as_float(), a[1].as_float()) {
                Ok(r) => LlValue::Float(r),
                Err(e) => return Err(self.raise_math(e)),
            },
            FloatFloorDiv | FloatMod => {
                let (x, y) = (a[0].as_float(), a[1].as_float());
                if y == 0.0 {
                    return Err(self.raise_std("ZeroDivisionError"));
                }
                LlValue::Float(match f {
                    FloatFloorDiv => (x / y).floor(),
                    _ => {
                        let m = x % y;
                        if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                            m + y
                        } else {
                            m
                        }
                    }
                })
            }
        })
    }
}
