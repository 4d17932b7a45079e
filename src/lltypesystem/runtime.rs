//! The registry of runtime functions: the low-level functions a translated program calls
//! that are not graphs of the program: external functions (`os.write`, the clock, float
//! formatting). The
//! operations of str, list, dict, iterators, hashing and codecs are low-level RPython
//! helpers in the bundled `ll_*.py` modules (see `rtyper::annlowlevel`). The RTyper calls
//! these with `direct_call` through a function pointer; the LLInterpreter and GenC's C
//! runtime implement them. One entry per function: its name and what it can raise.

macro_rules! runtime_fns {
    ($($(#[$m:meta])* $variant:ident = $name:literal, $raises:expr, $alloc:expr;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuntimeFn { $($(#[$m])* $variant),* }

        impl RuntimeFn {
            pub const ALL: &'static [RuntimeFn] = &[$(RuntimeFn::$variant),*];
            pub fn name(self) -> &'static str {
                match self { $(RuntimeFn::$variant => $name),* }
            }
            /// The exception classes (by name) it can raise.
            pub fn raises(self) -> &'static [&'static str] {
                match self { $(RuntimeFn::$variant => $raises),* }
            }
            /// Whether it may allocate (so a compiled caller keeps its GC pointers on the
            /// shadow stack around it). Raising allocates nothing: the standard exception
            /// instances are prebuilt.
            pub fn allocates(self) -> bool {
                match self { $(RuntimeFn::$variant => $alloc),* }
            }
        }
    };
}

const NONE: &[&str] = &[];
const ALLOC: bool = true;
const NO_ALLOC: bool = false;

/// The built-in exceptions operations and runtime functions raise: the RTyper gives each
/// a vtable and an instance structure (`LlProgram::std_exceptions`). In the order of
/// `enum rpy_std_exc` of GenC's C runtime (`src/genc/runtime/rpy.h`).
pub const STD_EXCEPTIONS: &[&str] = &[
    "ZeroDivisionError",
    "OverflowError",
    "IndexError",
    "KeyError",
    "ValueError",
    "OSError",
    "StopIteration",
    "AssertionError",
    "MemoryError",
    "UnicodeEncodeError",
    "UnicodeDecodeError",
    "RuntimeError",
    "StackOverflow",
];

/// RPython's built-in exceptions that are no Python class, with their bases nearest first:
/// the stack check of compiled programs raises StackOverflow, a RuntimeError (the
/// reference's `rstackovf`).
pub const BUILTIN_SUBCLASSES: &[(&str, &[&str])] = &[(
    "StackOverflow",
    &[
        "RuntimeError",
        "StandardError",
        "Exception",
        "BaseException",
    ],
)];

runtime_fns! {
    /// `os.write(fd, str) -> Signed`
    OsWrite = "ll_os_write", &["OSError"], NO_ALLOC;
    /// `os.read(fd, Signed) -> str`
    OsRead = "ll_os_read", &["OSError"], ALLOC;
    /// `os.open(path, flags, mode) -> Signed`
    OsOpen = "ll_os_open", &["OSError"], ALLOC;
    /// `os.close(fd)`
    OsClose = "ll_os_close", &["OSError"], NO_ALLOC;
    /// `os.listdir(path)`: the names, each followed by a NUL (ll_os.py splits them)
    OsListdirRaw = "ll_os_listdir_raw", &["OSError"], ALLOC;
    /// one of the three load averages of `os.getloadavg()`
    OsLoadavgItem = "ll_os_loadavg_item", &["OSError"], NO_ALLOC;
    /// `os.pipe()` -> `read << 32 | write`
    OsPipeRaw = "ll_os_pipe_raw", &["OSError"], NO_ALLOC;
    /// `os.waitpid(pid, options)` -> `pid << 32 | status`
    OsWaitpidRaw = "ll_os_waitpid_raw", &["OSError"], NO_ALLOC;
    /// `os.fork() -> Signed`
    OsFork = "ll_os_fork", &["OSError"], NO_ALLOC;
    /// `os._exit(status)`: ends the process at once (no buffered stream is flushed)
    OsExit = "ll_os_exit", NONE, NO_ALLOC;
    /// `os.lseek(fd, pos, how) -> Signed`
    OsLseek = "ll_os_lseek", &["OSError"], NO_ALLOC;
    /// the other `os` functions (`rtyper::rexternal` lists their signatures)
    OsUnlink = "ll_os_unlink", &["OSError"], NO_ALLOC;
    OsRmdir = "ll_os_rmdir", &["OSError"], NO_ALLOC;
    OsMkdir = "ll_os_mkdir", &["OSError"], NO_ALLOC;
    OsRename = "ll_os_rename", &["OSError"], NO_ALLOC;
    /// `os.link(src, dst)`, `os.symlink(src, dst)`
    OsLink = "ll_os_link", &["OSError"], NO_ALLOC;
    OsSymlink = "ll_os_symlink", &["OSError"], NO_ALLOC;
    OsChdir = "ll_os_chdir", &["OSError"], NO_ALLOC;
    OsGetpid = "ll_os_getpid", NONE, NO_ALLOC;
    OsGetcwd = "ll_os_getcwd", &["OSError"], ALLOC;
    /// `os.environ.get(k)` of the translated program: the value or a null string
    OsEnvironGet = "ll_os_environ_get", NONE, ALLOC;
    /// the environment's `name=value` entries in its order, each followed by a NUL
    /// (`os.environ.keys()`/`items()`, ll_os.py)
    OsEnvironRaw = "ll_os_environ_raw", NONE, ALLOC;
    OsEnvironGetitem = "ll_os_environ_getitem", &["KeyError"], ALLOC;
    OsEnvironSetitem = "ll_os_environ_setitem", &["OSError"], NO_ALLOC;
    OsEnvironDelitem = "ll_os_environ_delitem", &["KeyError", "OSError"], NO_ALLOC;
    OsStrerror = "ll_os_strerror", NONE, ALLOC;
    OsIsatty = "ll_os_isatty", NONE, NO_ALLOC;
    OsDup = "ll_os_dup", &["OSError"], NO_ALLOC;
    /// `os.dup2(fd, newfd)`
    OsDup2 = "ll_os_dup2", &["OSError"], NO_ALLOC;
    /// `os.kill(pid, sig) -> Signed` (0: rposix returns the C function's result)
    OsKill = "ll_os_kill", &["OSError"], NO_ALLOC;
    OsFsync = "ll_os_fsync", &["OSError"], NO_ALLOC;
    OsAccess = "ll_os_access", NONE, NO_ALLOC;
    /// `os.umask(mask) -> Signed`: the previous mask
    OsUmask = "ll_os_umask", NONE, NO_ALLOC;
    /// field `i` of `os.times()` (user, system, children's user and system, elapsed), in
    /// seconds; ll_os.py builds the tuple
    OsTimesItem = "ll_os_times_item", &["OSError"], NO_ALLOC;
    OsChmod = "ll_os_chmod", &["OSError"], NO_ALLOC;
    OsReadlink = "ll_os_readlink", &["OSError"], ALLOC;
    OsFtruncate = "ll_os_ftruncate", &["OSError"], NO_ALLOC;
    OsExecvRaw = "ll_os_execv_raw", NONE, NO_ALLOC;
    OsTtyname = "ll_os_ttyname", &["OSError"], ALLOC;
    OsGetlogin = "ll_os_getlogin", &["OSError"], ALLOC;
    /// `os.system(command) -> Signed`: the wait status
    OsSystem = "ll_os_system", NONE, NO_ALLOC;
    OsNice = "ll_os_nice", &["OSError"], NO_ALLOC;
    OsGetppid = "ll_os_getppid", NONE, NO_ALLOC;
    OsGetpgrp = "ll_os_getpgrp", NONE, NO_ALLOC;
    OsSetsid = "ll_os_setsid", &["OSError"], NO_ALLOC;
    /// the user and group ids, unsigned (rposix widens `uid_t`/`gid_t` to r_uint)
    OsGetuid = "ll_os_getuid", NONE, NO_ALLOC;
    OsGeteuid = "ll_os_geteuid", NONE, NO_ALLOC;
    OsGetgid = "ll_os_getgid", NONE, NO_ALLOC;
    OsGetegid = "ll_os_getegid", NONE, NO_ALLOC;
    /// `os.path.exists`/`isdir`/`isfile`
    OsPathExists = "ll_os_path_exists", NONE, NO_ALLOC;
    OsPathIsdir = "ll_os_path_isdir", NONE, NO_ALLOC;
    OsPathIsfile = "ll_os_path_isfile", NONE, NO_ALLOC;
    /// field `i` of `os.stat(path)`: the integer fields (mode, ino, dev, nlink, uid, gid,
    /// size) and the times (atime, mtime, ctime, as floats); ll_os.py builds the tuple.
    /// `i + STAT_NOFOLLOW` (16) is the field of `os.lstat(path)`, of a symbolic link itself
    OsStatInt = "ll_os_stat_int", &["OSError"], NO_ALLOC;
    OsStatFloat = "ll_os_stat_float", &["OSError"], NO_ALLOC;
    /// field `i` of `os.fstat(fd)`, numbered as for `os.stat`
    OsFstatInt = "ll_os_fstat_int", &["OSError"], NO_ALLOC;
    OsFstatFloat = "ll_os_fstat_float", &["OSError"], NO_ALLOC;
    /// `rlib.debug.fatalerror(msg)` (traceback 1) and `fatalerror_notb(msg)` (0): writes
    /// `RPython traceback:` (with 1), then the message and a newline to stderr, and aborts
    DebugFatalerror = "ll_debug_fatalerror", NONE, NO_ALLOC;
    /// `debug_print(...)`'s line (its items already joined, with its newline unless a NUL
    /// of a constant item cut it): written to the log where prints are on, as the reference's binaries do (`PYPYLOG`; without
    /// it, top-level debug_prints go to stderr and nested ones nowhere)
    DebugPrintLine = "ll_debug_print_line", NONE, ALLOC;
    /// `debug_start(category)` / `debug_stop(category)`: one section level in or out,
    /// logged if `PYPYLOG` selects the category
    DebugStart = "ll_debug_start", NONE, NO_ALLOC;
    DebugStop = "ll_debug_stop", NONE, NO_ALLOC;
    /// `have_debug_prints()`: whether a debug_print here would be written
    DebugHavePrints = "ll_debug_have_prints", NONE, NO_ALLOC;
    /// `debug_flush()`: the log file's buffer is written
    DebugFlush = "ll_debug_flush", NONE, NO_ALLOC;
    /// `time.time() -> Float`, `time.clock() -> Float`
    TimeTime = "ll_time_time", NONE, NO_ALLOC;
    TimeClock = "ll_time_clock", NONE, NO_ALLOC;
    /// `time.sleep(Float seconds)`
    TimeSleep = "ll_time_sleep", NONE, NO_ALLOC;
    /// `print` of one item (already a str): written after a space if one is pending.
    PrintItem = "ll_print_item", NONE, ALLOC;
    /// end of a `print` statement: the line is written to fd 1 (with `os.write`, as the
    /// reference's `rpython_print_newline` does: its OSError, e.g. after `os.close(1)`,
    /// goes to the program; the line is dropped either way).
    PrintNewline = "ll_print_newline", &["OSError"], ALLOC;
    /// `str(Float)` and `repr(Float)`
    FloatToStr = "ll_float_str", NONE, ALLOC;
    FloatToRepr = "ll_float_repr", NONE, ALLOC;
    /// `'%.*f'` and friends: (value, code char, precision) -> str
    FloatFormat = "ll_float_format", NONE, ALLOC;
    /// `float(str)`
    StrToFloat = "ll_str_to_float", &["ValueError"], ALLOC;
    /// `math.*` of one or two floats
    MathFn = "ll_math", &["ValueError", "OverflowError"], ALLOC;
    /// `float ** float`, `math.floor` of a division
    FloatPow = "ll_float_pow", &["ValueError", "OverflowError"], NO_ALLOC;
    FloatFloorDiv = "ll_float_floordiv", &["ZeroDivisionError"], NO_ALLOC;
    FloatMod = "ll_float_mod", &["ZeroDivisionError"], NO_ALLOC;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut seen = crate::fasthash::HashSet::default();
        for f in RuntimeFn::ALL {
            assert!(seen.insert(f.name()));
        }
    }
}
