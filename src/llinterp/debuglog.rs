//! `rlib.debug`'s log as the reference's binaries keep it, steered by the `PYPYLOG`
//! environment variable (read at the first `debug_start`, `debug_print` or
//! `have_debug_prints` that needs it, as the C runtime does):
//!
//! - unset or empty: no sections are logged; a `debug_print` outside any section goes to
//!   stderr, one inside a section nowhere;
//! - `prefix1,prefix2:FILE`: the sections whose category starts with one of the prefixes
//!   are logged (`[timestamp] {category` … `[timestamp] category}`) with the
//!   `debug_print`s directly inside them, wherever they are nested; the other sections
//!   and the prints directly inside them are not; `:FILE` logs every section;
//! - `FILE` or `+FILE` (profiling): every section's start and stop, no `debug_print`
//!   inside a section (the reference's binaries also log their GC's own sections there,
//!   `gc-minor`…, which rpy-lsp's runtimes do not have).
//!
//! `debug_print`s outside any section go to the log in every mode. `FILE` `-` is stderr;
//! `%d` in it is the process id. A file is written through a buffer that a section's
//! stop, `debug_flush()` and a normal exit empty (an abort loses it, as the C library's
//! `abort()` does). Timestamps are the processor's cycle counter in hex: they differ
//! between runs, as the binaries' do.

use super::LlInterpreter;
use std::io::Write;

/// Bytes a log file keeps before writing them (the C library's buffer of a file).
const FILE_BUFFER: usize = 4096;

/// Where the log goes.
enum Target {
    Stderr,
    File { file: std::fs::File, buf: Vec<u8> },
}

/// The log's state.
pub(crate) struct DebugLog {
    /// One bit per open section, the innermost lowest: whether `debug_print`s are written
    /// there (all ones outside any section).
    active: i64,
    /// Set once `PYPYLOG` was read.
    target: Option<Target>,
    /// Every section is logged, without the prints inside them.
    profile: bool,
    /// The prefixes of `prefix1,prefix2:FILE`, as written.
    prefixes: Option<Vec<u8>>,
    /// Colours of the section lines, when the log is stderr and stderr is a terminal.
    colors: (&'static str, &'static str, &'static str),
}

impl DebugLog {
    pub(crate) fn new() -> DebugLog {
        DebugLog {
            active: -1,
            target: None,
            profile: false,
            prefixes: None,
            colors: ("", "", ""),
        }
    }
}

/// Whether `category` starts with one of the comma-separated `prefixes`.
fn starts_with_one_of(category: &[u8], prefixes: &[u8]) -> bool {
    prefixes
        .split(|c| *c == b',')
        .any(|p| category.starts_with(p))
}

/// The processor's cycle counter (x86-64), else a monotonic nanosecond clock.
fn timestamp() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc has no preconditions on x86-64
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_nanos() as u64
    }
}

impl LlInterpreter<'_> {
    /// Reads `PYPYLOG` and opens the log, the first time.
    fn debug_open(&mut self) {
        if self.debug_log.target.is_some() {
            return;
        }
        let log = &mut self.debug_log;
        let mut target = Target::Stderr;
        let value = std::env::var_os("PYPYLOG").map(|v| {
            use std::os::unix::ffi::OsStrExt;
            v.as_bytes().to_vec()
        });
        if let Some(value) = value.filter(|v| !v.is_empty()) {
            let mut name: &[u8] = &value;
            let colon = name.iter().position(|c| *c == b':');
            match (name.first(), colon) {
                (Some(b'+'), _) => {
                    name = &name[1..];
                    log.profile = true;
                }
                (_, None) => log.profile = true,
                (_, Some(i)) => {
                    log.prefixes = Some(name[..i].to_vec());
                    name = &name[i + 1..];
                }
            }
            let mut path = name.to_vec();
            if let Some(i) = name.windows(2).position(|w| w == b"%d") {
                path = name[..i].to_vec();
                path.extend(std::process::id().to_string().bytes());
                path.extend(&name[i + 2..]);
            }
            if !name.windows(2).any(|w| w == b"%d") {
                // as the binary's unsetenv: the program no longer sees the variable
                self.environ_mut().retain(|(k, _)| k != b"PYPYLOG");
            }
            if path != b"-" {
                use std::os::unix::ffi::OsStrExt;
                let p = std::path::Path::new(std::ffi::OsStr::from_bytes(&path));
                if let Ok(file) = std::fs::File::create(p) {
                    target = Target::File {
                        file,
                        buf: Vec::new(),
                    };
                }
            }
        }
        if matches!(target, Target::Stderr)
            && matches!(self.out, super::Output::Inherit)
            // SAFETY: isatty only inspects the descriptor
            && unsafe { libc::isatty(2) } == 1
        {
            self.debug_log.colors = ("\x1b[1m\x1b[31m", "\x1b[31m", "\x1b[0m");
        }
        self.debug_log.target = Some(target);
    }

    /// Writes to the log.
    fn debug_write(&mut self, data: &[u8]) {
        match &mut self.debug_log.target {
            Some(Target::File { file, buf }) => {
                buf.extend_from_slice(data);
                if buf.len() >= FILE_BUFFER {
                    let _ = file.write_all(buf);
                    buf.clear();
                }
            }
            _ => {
                let _ = self.write_fd(2, data);
            }
        }
    }

    /// `debug_flush()`, a section's stop and a normal exit: the buffered log is written.
    pub(crate) fn debug_flush(&mut self) {
        if let Some(Target::File { file, buf }) = &mut self.debug_log.target {
            let _ = file.write_all(buf);
            buf.clear();
        }
    }

    /// A section's start or stop line.
    fn debug_section_line(&mut self, category: &[u8], start: bool) {
        let (c1, c2, stop) = self.debug_log.colors;
        let mut line = format!("{}[{:x}] ", if start { c1 } else { c2 }, timestamp()).into_bytes();
        if start {
            line.push(b'{');
        }
        line.extend_from_slice(category);
        if !start {
            line.push(b'}');
        }
        line.push(b'\n');
        line.extend_from_slice(stop.as_bytes());
        self.debug_write(&line);
    }

    /// `debug_start(category)`.
    pub(crate) fn debug_start(&mut self, category: &[u8]) {
        self.debug_open();
        self.debug_log.active <<= 1;
        if !self.debug_log.profile {
            let logged = self
                .debug_log
                .prefixes
                .as_deref()
                .is_some_and(|p| starts_with_one_of(category, p));
            if !logged {
                return;
            }
            self.debug_log.active |= 1;
        }
        self.debug_section_line(category, true);
    }

    /// `debug_stop(category)`.
    pub(crate) fn debug_stop(&mut self, category: &[u8]) {
        if self.debug_log.profile || self.debug_log.active & 1 != 0 {
            self.debug_section_line(category, false);
            self.debug_flush();
        }
        self.debug_log.active >>= 1;
    }

    /// `have_debug_prints()`: whether a `debug_print` here is written.
    pub(crate) fn debug_have_prints(&mut self) -> bool {
        self.debug_log.active & 1 != 0
    }

    /// A `debug_print`'s line (its items joined, with its newline), written if prints are on.
    pub(crate) fn debug_print_line(&mut self, text: &[u8]) {
        if self.debug_log.active & 1 == 0 {
            return;
        }
        self.debug_open();
        self.debug_write(text);
    }
}

#[cfg(test)]
mod tests {
    use super::starts_with_one_of;

    #[test]
    fn prefixes_are_comma_separated() {
        assert!(starts_with_one_of(b"gc-minor", b"jit,gc"));
        assert!(starts_with_one_of(b"jit-log", b"jit,gc"));
        assert!(!starts_with_one_of(b"app", b"jit,gc"));
        // an empty prefix (`:FILE`) matches every category
        assert!(starts_with_one_of(b"app", b""));
    }
}
