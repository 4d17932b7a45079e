//! The `os` externals of `rtyper::rexternal` as the LLInterpreter runs them. Paths are
//! the real file system's; file descriptors are the interpreter's own table (`fds`,
//! numbered as POSIX hands them out), with 0–2 its standard streams at the start. Each
//! raises OSError where the C function would fail.

use super::super::fds::Fd;
use super::super::{LlInterpreter, Unwind};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::syntax::Span;
use std::io::IsTerminal;
use std::os::unix::fs::MetadataExt;

type R = Result<LlValue, Unwind>;

/// Added to the field number of `ll_os_stat_int`/`_float` for `os.lstat` (see `RuntimeFn`).
const STAT_NOFOLLOW: i64 = 16;

impl LlInterpreter<'_> {
    /// The value of an environment variable for the program.
    fn getenv(&self, key: &[u8]) -> Option<Vec<u8>> {
        use std::os::unix::ffi::OsStrExt;
        if let Some(env) = &self.environ {
            return env.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        }
        env_key(key)
            .and_then(std::env::var_os)
            .map(|v| v.as_bytes().to_vec())
    }

    /// The program's environment, copied from the process's at its first change.
    pub(crate) fn environ_mut(&mut self) -> &mut Vec<(Vec<u8>, Vec<u8>)> {
        use std::os::unix::ffi::OsStrExt;
        self.environ.get_or_insert_with(|| {
            std::env::vars_os()
                .map(|(k, v)| (k.as_bytes().to_vec(), v.as_bytes().to_vec()))
                .collect()
        })
    }

    /// `name=value` of each variable, each followed by a NUL (`ll_os_environ_raw`).
    fn environ_raw(&self) -> Vec<u8> {
        use std::os::unix::ffi::OsStrExt;
        let mut raw = Vec::new();
        let mut put = |k: &[u8], v: &[u8]| {
            raw.extend_from_slice(k);
            raw.push(b'=');
            raw.extend_from_slice(v);
            raw.push(0);
        };
        match &self.environ {
            Some(env) => env.iter().for_each(|(k, v)| put(k, v)),
            None => std::env::vars_os().for_each(|(k, v)| put(k.as_bytes(), v.as_bytes())),
        }
        raw
    }

    /// `fstat` of the program's descriptor `fd`: a file it opened, or one of the standard
    /// streams (those of this process, which the program's output goes to).
    fn fstat(&self, fd: i64) -> std::io::Result<std::fs::Metadata> {
        match self.fds.get(fd) {
            Some(Fd::File(f)) => f.metadata(),
            Some(Fd::Std(k)) => {
                use std::os::unix::io::FromRawFd;
                // SAFETY: a standard descriptor of this process, borrowed (never closed:
                // the File is not dropped)
                let f =
                    std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(*k as i32) });
                f.metadata()
            }
            None => Err(std::io::Error::from_raw_os_error(libc::EBADF)),
        }
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
            OsLink => {
                let (p, q) = (self.path_arg(a[0], span)?, self.path_arg(a[1], span)?);
                return ok_or_oserror(self, std::fs::hard_link(p, q));
            }
            OsSymlink => {
                let (p, q) = (self.path_arg(a[0], span)?, self.path_arg(a[1], span)?);
                return ok_or_oserror(self, std::os::unix::fs::symlink(p, q));
            }
            OsChdir => {
                let p = self.path_arg(a[0], span)?;
                return ok_or_oserror(self, std::env::set_current_dir(p));
            }
            OsEnvironGet | OsEnvironGetitem => {
                let key = self.s(a[0], span)?;
                match self.getenv(&key) {
                    Some(v) => self.strv(&v),
                    None if f == OsEnvironGet => LlValue::Ptr(LlPtr::Null),
                    None => return Err(self.raise_std("KeyError")),
                }
            }
            OsEnvironSetitem => {
                let (key, value) = (self.s(a[0], span)?, self.s(a[1], span)?);
                // setenv(3) refuses an empty name or one with '=' (EINVAL)
                if env_key(&key).is_none() {
                    return Err(self.raise_oserror(22));
                }
                let env = self.environ_mut();
                match env.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = value,
                    None => env.push((key, value)),
                }
                LlValue::Void
            }
            OsEnvironDelitem => {
                let key = self.s(a[0], span)?;
                if env_key(&key).is_none() {
                    return Err(self.raise_oserror(22));
                }
                let absent = self.getenv(&key).is_none();
                self.environ_mut().retain(|(k, _)| *k != key);
                if absent {
                    return Err(self.raise_std("KeyError"));
                }
                LlValue::Void
            }
            OsEnvironRaw => {
                let raw = self.environ_raw();
                self.strv(&raw)
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
                let captured = matches!(self.out, super::super::Output::Capture { .. });
                truth(match self.fds.get(int(0)) {
                    Some(Fd::Std(0)) => std::io::stdin().is_terminal(),
                    Some(Fd::Std(1)) => !captured && std::io::stdout().is_terminal(),
                    Some(Fd::Std(_)) => !captured && std::io::stderr().is_terminal(),
                    Some(Fd::File(f)) => f.is_terminal(),
                    None => false,
                })
            }
            OsDup => match self.fds.dup(int(0)) {
                Ok(new) => LlValue::Int(new),
                Err(e) => return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0))),
            },
            OsDup2 => {
                let r = self.fds.dup2(int(0), int(1));
                return ok_or_oserror(self, r);
            }
            OsExit if self.forked_child => {
                let _ = self.flush();
                // SAFETY: _exit ends the process at once, as the C function does
                unsafe { libc::_exit(int(0) as i32) }
            }
            OsExit => return Err(Unwind::Exit(int(0) as i32)),
            OsFork => {
                // the child goes on interpreting: the interpreter holds no lock and its
                // output is written unbuffered, so nothing is written twice
                let _ = self.flush();
                // SAFETY: fork() takes no arguments; the child only runs this thread
                let pid = unsafe { libc::fork() };
                if pid < 0 {
                    let e = std::io::Error::last_os_error();
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                if pid == 0 {
                    self.forked_child = true;
                }
                LlValue::Int(pid as i64)
            }
            OsWaitpidRaw => {
                let (pid, options) = (int(0), int(1));
                let mut status: libc::c_int = 0;
                // SAFETY: waitpid() stores the status into a local
                let r = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, options as i32) };
                if r < 0 {
                    let e = std::io::Error::last_os_error();
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                LlValue::Int((r as i64) << 32 | (status as u32 as i64))
            }
            OsKill => {
                let (pid, sig) = (int(0), int(1));
                let r = match (i32::try_from(pid), i32::try_from(sig)) {
                    // SAFETY: kill() takes plain integers
                    (Ok(p), Ok(s)) => unsafe { libc::kill(p, s) },
                    _ => {
                        return Err(self.raise_oserror(libc::EINVAL));
                    }
                };
                if r != 0 {
                    let e = std::io::Error::last_os_error();
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                LlValue::Int(0)
            }
            OsPipeRaw => {
                let mut fds = [0i32; 2];
                // SAFETY: pipe() stores two descriptors into the array
                if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                    let e = std::io::Error::last_os_error();
                    return Err(self.raise_oserror(e.raw_os_error().unwrap_or(0)));
                }
                // numbered as the program's own table hands them out (lowest free)
                let mut ends = [0i64; 2];
                for (k, raw) in fds.into_iter().enumerate() {
                    use std::os::unix::io::FromRawFd;
                    // SAFETY: a fresh descriptor, owned from now on by this File
                    let f = unsafe { std::fs::File::from_raw_fd(raw) };
                    ends[k] = self.fds.insert(Fd::File(f));
                }
                LlValue::Int(ends[0] << 32 | ends[1])
            }
            OsFsync => {
                let fd = int(0);
                let r = match self.fds.get(fd) {
                    Some(Fd::File(f)) => f.sync_all(),
                    // as when the expected outputs were recorded: into files
                    Some(Fd::Std(_)) => Ok(()),
                    None => Err(std::io::Error::from_raw_os_error(libc::EBADF)),
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
            _ => return self.call_os_process(f, a, span),
        })
    }
}

/// A variable name as the C library takes it: not empty, no '=' and no NUL (getenv of
/// such a name finds nothing; setenv and unsetenv refuse it).
fn env_key(key: &[u8]) -> Option<&std::ffi::OsStr> {
    use std::os::unix::ffi::OsStrExt;
    if key.is_empty() || key.contains(&b'=') || key.contains(&0) {
        return None;
    }
    Some(std::ffi::OsStr::from_bytes(key))
}

/// The value of a C call that sets errno when it returns -1, or OSError of that errno.
fn errno_or<T: PartialEq + From<i8>>(r: T) -> Result<T, i32> {
    if r == T::from(-1) {
        Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0))
    } else {
        Ok(r)
    }
}

/// A C string made by the C library (static storage), copied.
fn c_text(p: *const libc::c_char) -> Option<Vec<u8>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null result of getlogin/ttyname is a NUL-terminated string
    Some(unsafe { std::ffi::CStr::from_ptr(p) }.to_bytes().to_vec())
}

impl LlInterpreter<'_> {
    /// The process externals of rposix (ids, umask, times, nice, system) and the
    /// remaining file ones (chmod, readlink, ftruncate, lseek, ttyname): each calls the C
    /// library's function, as the compiled program does.
    fn call_os_process(&mut self, f: RuntimeFn, a: &[LlValue], span: Span) -> R {
        use RuntimeFn::*;
        let int = |i: usize| a[i].as_int();
        let cpath = |me: &Self, v: LlValue| -> Result<Option<std::ffi::CString>, Unwind> {
            use std::os::unix::ffi::OsStrExt;
            let p = me.path_arg(v, span)?;
            Ok(std::ffi::CString::new(p.as_os_str().as_bytes()).ok())
        };
        let r: Result<LlValue, i32> = match f {
            // SAFETY (each call below): plain integers in and out, or a NUL-terminated
            // string that lives across the call
            OsUmask => Ok(LlValue::Int(
                unsafe { libc::umask(int(0) as libc::mode_t) } as i64
            )),
            OsTimesItem => {
                let mut t: libc::tms = unsafe { std::mem::zeroed() };
                let r = unsafe { libc::times(&mut t) } as i64;
                let tck = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
                let ticks = match int(0) {
                    0 => t.tms_utime as i64,
                    1 => t.tms_stime as i64,
                    2 => t.tms_cutime as i64,
                    3 => t.tms_cstime as i64,
                    _ => r,
                };
                Ok(LlValue::Float(ticks as f64 / tck))
            }
            OsChmod => match cpath(self, a[0])? {
                Some(c) => errno_or(unsafe { libc::chmod(c.as_ptr(), int(1) as libc::mode_t) })
                    .map(|_| LlValue::Void),
                None => Err(libc::EINVAL),
            },
            OsReadlink => match cpath(self, a[0])? {
                Some(c) => {
                    let mut buf = vec![0u8; 4096];
                    let n = unsafe {
                        libc::readlink(c.as_ptr(), buf.as_mut_ptr() as *mut libc::c_char, buf.len())
                    };
                    match errno_or(n) {
                        Ok(n) => {
                            buf.truncate(n as usize);
                            Ok(self.strv(&buf))
                        }
                        Err(e) => Err(e),
                    }
                }
                None => Err(libc::EINVAL),
            },
            OsFtruncate => match self.fds.get(int(0)) {
                Some(Fd::File(_)) if int(1) < 0 => Err(libc::EINVAL),
                Some(Fd::File(file)) => match file.set_len(int(1) as u64) {
                    Ok(()) => Ok(LlValue::Void),
                    Err(e) => Err(e.raw_os_error().unwrap_or(0)),
                },
                Some(Fd::Std(k)) => {
                    errno_or(unsafe { libc::ftruncate(*k as i32, int(1)) }).map(|_| LlValue::Void)
                }
                None => Err(libc::EBADF),
            },
            OsLseek => {
                use std::io::{Seek, SeekFrom};
                let (pos, how) = (int(1), int(2));
                match self.fds.get_mut(int(0)) {
                    Some(Fd::File(file)) => {
                        let whence = match how {
                            0 if pos >= 0 => Some(SeekFrom::Start(pos as u64)),
                            1 => Some(SeekFrom::Current(pos)),
                            2 => Some(SeekFrom::End(pos)),
                            _ => None,
                        };
                        match whence.map(|w| file.seek(w)) {
                            Some(Ok(p)) => Ok(LlValue::Int(p as i64)),
                            Some(Err(e)) => Err(e.raw_os_error().unwrap_or(0)),
                            None => Err(libc::EINVAL),
                        }
                    }
                    // a standard stream is this process's own descriptor, as in the
                    // binary: /dev/null or a file seeks, a pipe or terminal is ESPIPE
                    Some(Fd::Std(k)) => {
                        errno_or(unsafe { libc::lseek(*k as i32, pos as libc::off_t, how as i32) })
                            .map(LlValue::Int)
                    }
                    None => Err(libc::EBADF),
                }
            }
            OsTtyname => {
                let raw = match self.fds.get(int(0)) {
                    Some(Fd::File(file)) => Some(std::os::unix::io::AsRawFd::as_raw_fd(file)),
                    Some(Fd::Std(k)) => Some(*k as i32),
                    None => None,
                };
                match raw.map(|fd| c_text(unsafe { libc::ttyname(fd) })) {
                    Some(Some(t)) => Ok(self.strv(&t)),
                    Some(None) => Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0)),
                    None => Err(libc::EBADF),
                }
            }
            OsGetlogin => match c_text(unsafe { libc::getlogin() }) {
                Some(t) => Ok(self.strv(&t)),
                None => Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0)),
            },
            OsSystem => {
                let _ = self.flush();
                let c = std::ffi::CString::new(self.s(a[0], span)?).ok();
                Ok(LlValue::Int(match c {
                    Some(c) => (unsafe { libc::system(c.as_ptr()) }) as i64,
                    None => -1,
                }))
            }
            OsExecvRaw => Ok(LlValue::Int(self.execv_raw(a, span)? as i64)),
            OsNice => {
                // -1 is also a valid niceness: errno tells an error apart
                unsafe { *libc::__errno_location() = 0 };
                let r = unsafe { libc::nice(int(0) as i32) };
                let e = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
                if r == -1 && e != 0 {
                    Err(e)
                } else {
                    Ok(LlValue::Int(r as i64))
                }
            }
            OsGetppid => Ok(LlValue::Int(unsafe { libc::getppid() } as i64)),
            OsGetpgrp => Ok(LlValue::Int(unsafe { libc::getpgrp() } as i64)),
            OsSetsid => errno_or(unsafe { libc::setsid() }).map(|r| LlValue::Int(r as i64)),
            OsGetuid => Ok(LlValue::Uint(unsafe { libc::getuid() } as u64)),
            OsGeteuid => Ok(LlValue::Uint(unsafe { libc::geteuid() } as u64)),
            OsGetgid => Ok(LlValue::Uint(unsafe { libc::getgid() } as u64)),
            OsGetegid => Ok(LlValue::Uint(unsafe { libc::getegid() } as u64)),
            _ => return Err(self.fatal_at(span, format!("{} is not an os external", f.name()))),
        };
        r.map_err(|e| self.raise_oserror(e))
    }

    /// `execv`/`execve` (see `BuiltinId::OsExecvRaw`): replaces this process, as the
    /// compiled program replaces itself; what is returned is the errno of a failure.
    fn execv_raw(&mut self, a: &[LlValue], span: Span) -> Result<i32, Unwind> {
        use std::ffi::CString;
        let _ = self.flush();
        // each entry ends in a NUL; the model cut every entry at its first NUL already
        let entries = |raw: &[u8], n: i64| -> Vec<CString> {
            raw.split(|&c| c == 0)
                .take(n.max(0) as usize)
                .filter_map(|e| CString::new(e).ok())
                .collect()
        };
        let Ok(path) = CString::new(self.s(a[0], span)?) else {
            return Ok(libc::EINVAL);
        };
        let args = entries(&self.s(a[1], span)?, a[2].as_int());
        let env = entries(&self.s(a[3], span)?, a[4].as_int());
        let mut argv: Vec<*const libc::c_char> = args.iter().map(|c| c.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut envp: Vec<*const libc::c_char> = env.iter().map(|c| c.as_ptr()).collect();
        envp.push(std::ptr::null());
        // SAFETY: NUL-terminated strings and NULL-terminated arrays that outlive the call,
        // which returns only on failure
        unsafe {
            if a[4].as_int() < 0 {
                libc::execv(path.as_ptr(), argv.as_ptr());
            } else {
                libc::execve(path.as_ptr(), argv.as_ptr(), envp.as_ptr());
            }
        }
        Ok(std::io::Error::last_os_error().raw_os_error().unwrap_or(0))
    }
}
