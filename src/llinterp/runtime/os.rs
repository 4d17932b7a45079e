//! The `os` externals of `rtyper::rexternal` as the LLInterpreter runs them. Paths are
//! the real file system's; file descriptors are the interpreter's own table (`files`,
//! numbers from 3 up, as `os.open` hands them out), with 0–2 its standard streams. Each
//! raises OSError where the C function would fail.

use super::super::{LlInterpreter, Unwind};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlType, LlValue};
use crate::syntax::Span;
use std::io::IsTerminal;
use std::os::unix::fs::MetadataExt;

type R = Result<LlValue, Unwind>;

/// Added to the field number of `ll_os_stat_int`/`_float` for `os.lstat` (see `RuntimeFn`).
const STAT_NOFOLLOW: i64 = 16;

impl LlInterpreter<'_> {
    /// `fstat` of the program's descriptor `fd`: a file it opened, or one of the standard
    /// streams (those of this process, which the program's output goes to).
    fn fstat(&self, fd: i64) -> std::io::Result<std::fs::Metadata> {
        if let Some(f) = self.files.get(&fd) {
            return f.metadata();
        }
        if (0..=2).contains(&fd) {
            use std::os::unix::io::FromRawFd;
            // SAFETY: a standard descriptor of this process, borrowed (never closed: the
            // File is not dropped)
            let f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd as i32) });
            return f.metadata();
        }
        Err(std::io::Error::from_raw_os_error(libc::EBADF))
    }

    fn path_arg(&self, v: LlValue, span: Span) -> Result<std::path::PathBuf, Unwind> {
        use std::os::unix::ffi::OsStrExt;
        let b = self.s(v, span)?;
        Ok(std::path::PathBuf::from(std::ffi::OsStr::from_bytes(&b)))
    }

    /// The external `f` with arguments `a`; `rty` is the call's result type.
    pub(super) fn call_os(&mut self, f: RuntimeFn, a: &[LlValue], rty: LlType, span: Span) -> R {
        use RuntimeFn::*;
        let int = |i: usize| a[i].as_int();
        let ok_or_oserror = |me: &mut Self, r: std::io::Result<()>| match r {
            Ok(()) => Ok(LlValue::Void),
            Err(e) => Err(me.raise_oserror(e.raw_os_error().unwrap_or(0))),
        };
        // a Bool result, or 0/1 when the RTyper asked for an int
        let truth = |b: bool| {
            if rty == LlType::BOOL {
                LlValue::Bool(b)
            } else {
                LlValue::Int(b as i64)
            }
        };
        Ok(match f {
            OsUnlink => {
                let p = self.path_arg(a[0], span)?;
                return ok_or_oserror(self, std::fs::remove_file(p));
            }
            OsRmdir => {
                let p = self.path_arg(a[0], span)?;
                return ok_or_oserror(self, std::fs::remove_dir(p));
            }
            OsMkdir => {
                use std::os::unix::fs::DirBuilderExt;
                let p = self.path_arg(a[0], span)?;
                let mode = int(1) as u32;
                return ok_or_oserror(self, std::fs::DirBuilder::new().mode(mode).create(p));
            }
            OsRename => {
                let (p, q) = (self.path_arg(a[0], span)?, self.path_arg(a[1], span)?);
                return ok_or_oserror(self, std::fs::rename(p, q));
            }
            OsChdir => {
                let p = self.path_arg(a[0], span)?;
                return ok_or_oserror(self, std::env::set_current_dir(p));
            }
            OsGetpid => LlValue::Int(std::process::id() as i64),
            OsGetcwd => match std::env::current_dir() {
                Ok(p) => {
                    use std::os::unix::ffi::OsStrExt;
                    self.strv(p.as_os_str().as_bytes())
                }
                Err(e) => return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0))),
            },
            OsStrerror => {
                // the C library's text, without the " (os error N)" Rust appends
                let text = std::io::Error::from_raw_os_error(int(0) as i32).to_string();
                let text = match text.rfind(" (os error ") {
                    Some(i) => &text[..i],
                    None => &text,
                };
                self.strv(text.as_bytes())
            }
            OsIsatty => {
                let fd = int(0);
                let captured = matches!(self.out, super::super::Output::Capture { .. });
                truth(match fd {
                    0 => std::io::stdin().is_terminal(),
                    1 => !captured && std::io::stdout().is_terminal(),
                    2 => !captured && std::io::stderr().is_terminal(),
                    _ => self.files.get(&fd).is_some_and(|f| f.is_terminal()),
                })
            }
            OsDup => {
                let fd = int(0);
                let Some(copy) = self.files.get(&fd).and_then(|f| f.try_clone().ok()) else {
                    return Err(self.raise_oserror(libc::EBADF));
                };
                let new = (3..).find(|k| !self.files.contains_key(k)).unwrap_or(3);
                self.files.insert(new, copy);
                LlValue::Int(new)
            }
            OsPipeRaw => {
                let mut fds = [0i32; 2];
                // SAFETY: pipe() stores two descriptors into the array
                if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                    let e = std::io::Error::last_os_error();
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                // numbered as the program's own table hands them out (lowest free from 3)
                let mut ends = [0i64; 2];
                for (k, raw) in fds.into_iter().enumerate() {
                    use std::os::unix::io::FromRawFd;
                    let n = (3..).find(|x| !self.files.contains_key(x)).unwrap_or(3);
                    // SAFETY: a fresh descriptor, owned from now on by this File
                    self.files
                        .insert(n, unsafe { std::fs::File::from_raw_fd(raw) });
                    ends[k] = n;
                }
                LlValue::Int(ends[0] << 32 | ends[1])
            }
            OsFsync => {
                let fd = int(0);
                let r = match self.files.get(&fd) {
                    Some(f) => f.sync_all(),
                    None if (0..=2).contains(&fd) => Ok(()),
                    None => Err(std::io::ErrorKind::InvalidInput.into()),
                };
                return ok_or_oserror(self, r);
            }
            OsAccess => {
                use std::os::unix::ffi::OsStrExt;
                let p = self.path_arg(a[0], span)?;
                let c = std::ffi::CString::new(p.as_os_str().as_bytes()).ok();
                // SAFETY: `c` is a NUL-terminated string that lives across the call
                let ok = c.is_some_and(|c| unsafe { libc::access(c.as_ptr(), int(1) as i32) } == 0);
                truth(ok)
            }
            OsPathExists | OsPathIsdir | OsPathIsfile => {
                let p = self.path_arg(a[0], span)?;
                truth(match f {
                    OsPathIsdir => p.is_dir(),
                    OsPathIsfile => p.is_file(),
                    _ => p.exists(),
                })
            }
            OsStatInt | OsStatFloat | OsFstatInt | OsFstatFloat => {
                let m = if matches!(f, OsFstatInt | OsFstatFloat) {
                    self.fstat(int(0))
                } else {
                    let p = self.path_arg(a[0], span)?;
                    if int(1) & STAT_NOFOLLOW != 0 {
                        std::fs::symlink_metadata(p)
                    } else {
                        std::fs::metadata(p)
                    }
                };
                let m = match m {
                    Ok(m) => m,
                    Err(e) => return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0))),
                };
                let time = |s: i64, ns: i64| s as f64 + ns as f64 * 1e-9;
                match int(1) & !STAT_NOFOLLOW {
                    0 => LlValue::Int(m.mode() as i64),
                    1 => LlValue::Int(m.ino() as i64),
                    2 => LlValue::Int(m.dev() as i64),
                    3 => LlValue::Int(m.nlink() as i64),
                    4 => LlValue::Int(m.uid() as i64),
                    5 => LlValue::Int(m.gid() as i64),
                    6 => LlValue::Int(m.size() as i64),
                    7 => LlValue::Float(time(m.atime(), m.atime_nsec())),
                    8 => LlValue::Float(time(m.mtime(), m.mtime_nsec())),
                    _ => LlValue::Float(time(m.ctime(), m.ctime_nsec())),
                }
            }
            _ => return Err(self.fatal_at(span, format!("{} is not an os external", f.name()))),
        })
    }
}
