//! What an analysed program may see of the machine. A linter runs on untrusted code (pull
//! requests in CI, workspaces opened in an editor): import-time code must not read the
//! machine's files, environment or clock into diagnostics, and the file system must not
//! make the analysis block, loop or load without bound.
//!
//! - [`Policy`]: what import-time code sees (readable directories, environment variables,
//!   clock, cwd, pid). The default is sandboxed; `build`/`run` may use
//!   [`Policy::unrestricted`].
//! - [`read_regular`]: reads a regular file with a size limit (never a FIFO or a device).
//! - [`walk_python_files`]: the `.py` files under a directory, `.gitignore` respected, no
//!   symlink loops, bounded in number.
//! - [`decode_source`]: source bytes as text (UTF-8, else Latin-1), the same on every route.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest file read as a module source or by import-time code.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Most `.py` files a workspace scan considers.
pub const MAX_WORKSPACE_FILES: usize = 20_000;
/// Most files no target reaches that get their own checks (each is a program in memory).
pub const MAX_STANDALONE_FILES: usize = 2_000;
/// Most directory entries a workspace scan looks at (a workspace rooted at `/`).
pub const MAX_WALK_ENTRIES: usize = 200_000;
/// Deepest directory a workspace scan enters.
pub const MAX_WALK_DEPTH: usize = 64;
/// What `time.time()` returns in a sandbox (2020-01-01T00:00:00Z).
pub const FIXED_TIME: f64 = 1_577_836_800.0;
/// What `os.getpid()` returns in a sandbox.
pub const FIXED_PID: i64 = 4242;
/// What `os.getuid()` and `os.geteuid()` return in a sandbox.
pub const FIXED_UID: i64 = 1000;

/// Most bytes import-time evaluation may allocate (approximately: every allocation of the
/// analysing thread while it runs counts).
pub const MAX_IMPORT_TIME_BYTES: i64 = 512 * 1024 * 1024;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread (see [`CountingAlloc`]).
    static THREAD_BYTES: Cell<i64> = const { Cell::new(0) };
}

/// The allocator, counting each thread's live bytes so that import-time evaluation can have
/// a memory budget ([`thread_bytes`]). Underneath is mimalloc, not the system allocator: the
/// analysis allocates and frees many small objects (annotations, graphs, heap objects), the
/// server again on every edit, and glibc's malloc spent a quarter of a large check and more
/// of an edit in the server (consolidating fragmented free lists).
pub struct CountingAlloc;

static INNER: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    // mimalloc's unaligned entry points (exported by the libmimalloc-sys that the mimalloc
    // crate links).
    fn mi_malloc(size: usize) -> *mut u8;
    fn mi_zalloc(size: usize) -> *mut u8;
    fn mi_realloc(p: *mut u8, newsize: usize) -> *mut u8;
}

/// Whether mimalloc's plain `mi_malloc(size)` already gives `align`: every block is
/// word-aligned, and blocks of 16 bytes or more are 16-aligned (`MI_MAX_ALIGN_SIZE`). The
/// mimalloc crate asks for every allocation through `mi_malloc_aligned`, whose fast path
/// only takes a free block that happens to be aligned and otherwise over-allocates (every
/// block above 1 KiB whose size is not a power of two): a tenth of a check's instructions.
fn plain_is_aligned(size: usize, align: usize) -> bool {
    align <= 8 || (align <= 16 && size >= 16)
}

fn count(delta: i64) {
    let _ = THREAD_BYTES.try_with(|b| b.set(b.get().wrapping_add(delta)));
}

// SAFETY: every call is forwarded to mimalloc unchanged, to its unaligned entry points only
// where those give the layout's alignment (`plain_is_aligned`); the counter is a plain
// thread-local without destructor (no allocation, no re-entrance). `mi_free` (the
// mimalloc crate's dealloc) frees blocks of either kind.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        match plain_is_aligned(layout.size(), layout.align()) {
            true => mi_malloc(layout.size()),
            false => INNER.alloc(layout),
        }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        match plain_is_aligned(layout.size(), layout.align()) {
            true => mi_zalloc(layout.size()),
            false => INNER.alloc_zeroed(layout),
        }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as i64));
        INNER.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        match plain_is_aligned(new_size, layout.align()) {
            true => mi_realloc(ptr, new_size),
            false => INNER.realloc(ptr, layout, new_size),
        }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A stopwatch of the CPU time the current thread used (wall-clock time where the system
/// has no per-thread clock). Limits of import-time evaluation are in CPU time: in wall
/// time, a 200,000-line program checked on a loaded machine ran out of its seconds while
/// parsing and got a false "endless loop" error; the same program must get the same
/// diagnostics whatever else the machine runs.
#[derive(Clone, Copy, Debug)]
pub struct CpuClock {
    start: std::time::Duration,
}

impl CpuClock {
    pub fn start() -> CpuClock {
        CpuClock {
            start: thread_cpu_time(),
        }
    }

    /// A stopwatch that has already counted `elapsed` (import-time evaluation resumed from
    /// a checkpoint goes on counting its limit).
    pub fn started_ago(elapsed: std::time::Duration) -> CpuClock {
        CpuClock {
            start: thread_cpu_time().saturating_sub(elapsed),
        }
    }

    /// CPU time the thread used since `start` (meaningful on the thread that started it).
    pub fn elapsed(&self) -> std::time::Duration {
        thread_cpu_time().saturating_sub(self.start)
    }
}

#[cfg(unix)]
fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
        std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    } else {
        wall_since_first_use()
    }
}

#[cfg(not(unix))]
fn thread_cpu_time() -> std::time::Duration {
    wall_since_first_use()
}

fn wall_since_first_use() -> std::time::Duration {
    static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(std::time::Instant::now).elapsed()
}

/// Has the allocator keep the pages freed memory occupied for the process's next
/// allocations instead of giving them back to the system after a few milliseconds (its
/// default). For the language server: every edit frees one analysis and builds the next,
/// about as large; given back, the pages are faulted in and zeroed again by the kernel,
/// which cost a sixth of an edit's CPU time at 50,000 lines. The price is that the
/// process keeps its peak size (two analyses) while it runs.
pub fn keep_freed_memory() {
    extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // `mi_option_purge_delay` of the `mi_option_t` enumeration in the mimalloc v3 header
    // that libmimalloc-sys 0.1.49 (Cargo.lock) builds; -1 means never purge.
    const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
    // SAFETY: a documented mimalloc entry point, callable at any time from any thread; it
    // only stores the option's value.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

/// Live bytes allocated by the current thread (allocations minus frees; memory allocated on
/// one thread and freed on another skews it, which the budget tolerates).
pub fn thread_bytes() -> i64 {
    THREAD_BYTES.try_with(|b| b.get()).unwrap_or(0)
}

/// Whether `pkg-config NAME --exists` succeeds: the one tool import-time code may have
/// rpy-lsp run, since the reference's `from_pkg_config` asks it at import time and raises
/// ImportError when the package is missing (a program may catch it and fall back). The name
/// is one argument (no shell); one that looks like an option is a missing package. Each
/// name is asked once per process (a few milliseconds; the language server checks again
/// on every edit), and a machine without pkg-config has no package, as for the reference.
pub fn pkg_config_exists(name: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static ASKED: OnceLock<Mutex<HashMap<String, bool>>> = OnceLock::new();
    if name.is_empty() || name.starts_with('-') {
        return false;
    }
    let asked = ASKED.get_or_init(Mutex::default);
    if let Some(&known) = asked
        .lock()
        .ok()
        .and_then(|m| m.get(name).copied())
        .as_ref()
    {
        return known;
    }
    let exists = std::process::Command::new("pkg-config")
        .arg(name)
        .arg("--exists")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if let Ok(mut m) = asked.lock() {
        m.insert(name.to_string(), exists);
    }
    exists
}

/// What import-time code may see of the machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// Directories whose files (and listings, stats) import-time code may read; `None`: any.
    pub readable: Option<Vec<PathBuf>>,
    /// The environment import-time code sees; `None`: the real one.
    pub environment: Option<Vec<(String, String)>>,
    /// `time.time()`; `None`: the real clock.
    pub clock: Option<f64>,
    /// `os.getcwd()`; `None`: the real one.
    pub cwd: Option<PathBuf>,
    /// `os.getpid()`; `None`: the real one.
    pub pid: Option<i64>,
    /// `os.getuid()`, `os.geteuid()`; `None`: the real ones.
    pub uid: Option<i64>,
    /// Largest file read.
    pub max_file_bytes: u64,
    /// Whether import-time code may ask the C compiler compile-only questions
    /// (`rffi_platform`'s constants, as the toolchain asks them while importing); never
    /// when only checking, which stays fast and runs no tool.
    pub c_compiler: bool,
    /// Whether the machine's modules are only those the reference's Python has (CPython
    /// 2.7's standard library and the toolchain's own packages): a top-level module found
    /// nowhere else is an ImportError, so `run`/`build` take the `except ImportError:` path
    /// the binary takes. When only checking it is an unknown: an editor's search path may
    /// lack what the user has installed.
    pub closed_site: bool,
    /// Whether `os.urandom()` at import time reads the machine's random bytes (`run`/
    /// `build`); when only checking it is an unknown, as no value is the reference's.
    pub random_bytes: bool,
}

impl Default for Policy {
    /// Sandboxed, nothing readable, empty environment.
    fn default() -> Policy {
        Policy::sandboxed(Vec::new(), &[], None)
    }
}

impl Policy {
    /// The `check`/`serve` policy: files under `roots` only, the named environment variables
    /// only (with their real values), a fixed clock, cwd (`cwd`, else `/`) and pid.
    pub fn sandboxed(roots: Vec<PathBuf>, env_names: &[String], cwd: Option<PathBuf>) -> Policy {
        let mut environment: Vec<(String, String)> = env_names
            .iter()
            .filter_map(|n| {
                std::env::var_os(n).map(|v| (n.clone(), v.to_string_lossy().into_owned()))
            })
            .collect();
        environment.sort();
        environment.dedup();
        let roots = roots
            .into_iter()
            .map(|r| r.canonicalize().unwrap_or(r))
            .collect();
        Policy {
            readable: Some(roots),
            environment: Some(environment),
            clock: Some(FIXED_TIME),
            cwd: Some(cwd.unwrap_or_else(|| PathBuf::from("/"))),
            pid: Some(FIXED_PID),
            uid: Some(FIXED_UID),
            max_file_bytes: MAX_FILE_BYTES,
            c_compiler: false,
            closed_site: false,
            random_bytes: false,
        }
    }

    /// The real machine (for commands that run the user's program on purpose).
    pub fn unrestricted() -> Policy {
        Policy {
            readable: None,
            environment: None,
            clock: None,
            cwd: None,
            pid: None,
            uid: None,
            max_file_bytes: MAX_FILE_BYTES,
            c_compiler: true,
            closed_site: true,
            random_bytes: true,
        }
    }

    /// Whether import-time code may look at `path` (symlinks and `..` resolved first).
    pub fn may_read(&self, path: &Path) -> bool {
        let Some(roots) = &self.readable else {
            return true;
        };
        let Ok(real) = path.canonicalize() else {
            return false;
        };
        roots.iter().any(|r| real.starts_with(r))
    }

    /// Reads a regular file import-time code asked for.
    pub fn read_file(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        if !path.exists() {
            return Err(ReadError::NotFound);
        }
        if !self.may_read(path) {
            return Err(ReadError::Denied);
        }
        read_regular(path, self.max_file_bytes)
    }

    pub fn env_var(&self, name: &str) -> Option<String> {
        match &self.environment {
            Some(vars) => vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            None => std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()),
        }
    }

    /// Every environment variable import-time code sees, sorted.
    pub fn environ(&self) -> Vec<(String, String)> {
        match &self.environment {
            Some(vars) => vars.clone(),
            None => {
                let mut vars: Vec<(String, String)> = std::env::vars_os()
                    .map(|(k, v)| {
                        (
                            k.to_string_lossy().into_owned(),
                            v.to_string_lossy().into_owned(),
                        )
                    })
                    .collect();
                vars.sort();
                vars
            }
        }
    }

    pub fn time(&self) -> f64 {
        self.clock.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs_f64())
                .unwrap_or(0.0)
        })
    }

    pub fn cwd(&self) -> String {
        match &self.cwd {
            Some(c) => c.display().to_string(),
            None => std::env::current_dir()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "/".into()),
        }
    }

    pub fn pid(&self) -> i64 {
        self.pid.unwrap_or_else(|| std::process::id() as i64)
    }

    /// `os.getuid()` (and `geteuid()`).
    pub fn uid(&self) -> i64 {
        // SAFETY: getuid has no preconditions and cannot fail
        self.uid.unwrap_or_else(|| unsafe { libc::getuid() } as i64)
    }

    /// The temporary directory, as `tempfile.gettempdir()` finds it: `TMPDIR`, `TEMP` or
    /// `TMP` of the environment import-time code sees, else `/tmp`.
    pub fn temp_dir(&self) -> PathBuf {
        ["TMPDIR", "TEMP", "TMP"]
            .iter()
            .filter_map(|n| self.env_var(n))
            .find(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/tmp"))
    }

    /// Whether `path` names a file directly in the temporary directory. Import-time code
    /// sees none there and its writes there go nowhere: what a library caches in it
    /// (rply's parser tables, named after the user and a hash of the grammar) was written
    /// by an earlier run, and must not change what the program translates to.
    pub fn in_temp_dir(&self, path: &Path) -> bool {
        path.parent()
            .is_some_and(|dir| dir == self.temp_dir() && path.file_name().is_some())
    }
}

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    NotFound,
    /// Outside what the policy lets import-time code read.
    Denied,
    /// A directory, FIFO, socket or device.
    NotRegular,
    TooLarge(u64),
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotFound => write!(f, "no such file"),
            ReadError::Denied => write!(
                f,
                "outside the workspace and its search paths (rpy-lsp does not let import-time code read it)"
            ),
            ReadError::NotRegular => write!(f, "not a regular file"),
            ReadError::TooLarge(max) => write!(f, "larger than {max} bytes"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl ReadError {
    /// The `errno` import-time code sees.
    pub fn errno(&self) -> (i64, &'static str) {
        match self {
            ReadError::NotFound => (2, "No such file or directory"),
            ReadError::Denied => (13, "Permission denied"),
            ReadError::NotRegular => (21, "Is a directory or not a regular file"),
            ReadError::TooLarge(_) => (27, "File too large"),
            ReadError::Io(_) => (5, "Input/output error"),
        }
    }
}

/// Reads `path` if it is a regular file (after following symlinks) of at most `max` bytes.
/// FIFOs, sockets and devices are refused without being opened.
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::NotFound),
        Err(e) => return Err(ReadError::Io(e.to_string())),
    };
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > max {
        return Err(ReadError::TooLarge(max));
    }
    let file = std::fs::File::open(path).map_err(|e| ReadError::Io(e.to_string()))?;
    // The file may have been replaced between the two looks.
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        _ => return Err(ReadError::NotRegular),
    }
    let mut out = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    if out.len() as u64 > max {
        return Err(ReadError::TooLarge(max));
    }
    Ok(out)
}

/// Source bytes as text: UTF-8, else Latin-1 (Python 2 sources may be either). Every route
/// (a target checked directly, a directory scan, the language server) decodes the same way.
pub fn decode_source(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}

/// Reads a source file: a regular file of at most [`MAX_FILE_BYTES`], decoded.
pub fn read_source(path: &Path) -> Result<String, ReadError> {
    read_regular(path, MAX_FILE_BYTES).map(decode_source)
}

/// The `.py` files under `root` (or `root` itself when it is a file), sorted: hidden
/// directories, virtualenvs, build output and what `.gitignore` files exclude are skipped;
/// symlinks are followed with loop detection; at most [`MAX_WORKSPACE_FILES`] files,
/// [`MAX_WALK_ENTRIES`] entries and [`MAX_WALK_DEPTH`] levels. The flag says whether the limit cut the list short.
pub fn walk_python_files(root: &Path) -> (Vec<PathBuf>, bool) {
    if root.is_file() {
        return (vec![root.to_path_buf()], false);
    }
    let mut out = Vec::new();
    let mut truncated = false;
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .git_exclude(false)
        .git_global(false)
        .require_git(false)
        .ignore(false)
        .parents(false)
        .follow_links(true)
        .max_depth(Some(MAX_WALK_DEPTH))
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            !(e.file_type().is_some_and(|t| t.is_dir())
                && matches!(
                    &*name,
                    "node_modules" | "target" | "venv" | "__pycache__" | "build" | "dist"
                ))
        })
        .build();
    for (seen, entry) in walker.enumerate() {
        if seen >= MAX_WALK_ENTRIES {
            truncated = true;
            break;
        }
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if entry.path().extension().is_some_and(|e| e == "py") {
            if out.len() >= MAX_WORKSPACE_FILES {
                truncated = true;
                break;
            }
            out.push(entry.into_path());
        }
    }
    out.sort();
    out.dedup();
    (out, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_cpu_clock_does_not_count_time_the_thread_waits() {
        let clock = CpuClock::start();
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(clock.elapsed() < std::time::Duration::from_millis(150));
        let wall = std::time::Instant::now();
        let mut x = 0u64;
        while wall.elapsed() < std::time::Duration::from_millis(100) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        assert!(clock.elapsed() > std::time::Duration::ZERO);
    }

    #[test]
    fn the_temporary_directory_is_seen_empty_and_the_uid_is_fixed() {
        // a sandbox sees no TMPDIR unless it is named, so its temporary directory is /tmp
        let p = Policy::sandboxed(Vec::new(), &[], None);
        assert_eq!(p.temp_dir(), PathBuf::from("/tmp"));
        assert!(p.in_temp_dir(Path::new("/tmp/rply-1-0-abc.json")));
        assert!(!p.in_temp_dir(Path::new("/tmp/project/data.txt")));
        assert!(!p.in_temp_dir(Path::new("/tmp")));
        assert!(!p.in_temp_dir(Path::new("/etc/passwd")));
        assert_eq!(p.uid(), FIXED_UID);
    }

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        assert_eq!(
            read_regular(Path::new("/dev/null"), 10),
            Err(ReadError::NotRegular)
        );
        assert_eq!(
            read_regular(Path::new("/dev/zero"), 10),
            Err(ReadError::NotRegular)
        );
        assert_eq!(read_regular(Path::new("/"), 10), Err(ReadError::NotRegular));
        assert_eq!(
            read_regular(Path::new("/surely/not/here"), 10),
            Err(ReadError::NotFound)
        );
    }

    #[test]
    fn sandbox_sees_only_named_variables_and_fixed_clock() {
        let p = Policy::sandboxed(vec![], &["PATH".to_string()], None);
        assert_eq!(p.env_var("HOME"), None);
        assert_eq!(
            p.environ().len(),
            usize::from(std::env::var_os("PATH").is_some())
        );
        assert_eq!(p.time(), FIXED_TIME);
        assert_eq!(p.pid(), FIXED_PID);
        assert_eq!(p.cwd(), "/");
        assert!(!p.may_read(Path::new("/etc/passwd")));
        assert_eq!(
            p.read_file(Path::new("/etc/passwd")).err(),
            Some(ReadError::Denied).filter(|_| Path::new("/etc/passwd").exists())
        );
    }

    #[test]
    fn latin1_decodes() {
        assert_eq!(decode_source(vec![b'a', 0xe9]), "a\u{e9}");
    }
}
