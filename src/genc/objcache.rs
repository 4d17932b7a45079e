//! The compiled C runtime, kept between builds. The runtime's C files (`RUNTIME_FILES`:
//! the GC, text, math, os…) are the same for every program, and compiling them is most of
//! a small program's C compilation, so `build` compiles them once per compiler, flags and
//! runtime text into object files under the cache directory (`crate::cachedir`,
//! `runtime-<key hash>/`) and links those. Each translation unit is compiled by the same
//! command with the same flags as when everything is compiled at once, so the executable
//! is the same. A damaged entry (a missing object, a recorded key that differs) is made
//! again; anything else unusual (no cache directory, a failed compilation) gives `None`,
//! and the caller compiles the runtime with the program as before.

use super::RUNTIME_FILES;
use std::ffi::OsString;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The runtime's object files for the compiler `base` (the command of
/// `platform::compiler_command`, its arguments and environment) and the further `flags` every
/// translation unit gets; compiled into the cache the first time.
pub fn runtime_objects(base: &Command, flags: &[OsString]) -> Option<Vec<PathBuf>> {
    let key = cache_key(base, flags);
    let mut h = crate::fasthash::FxHasher::default();
    h.write(key.as_bytes());
    let root = crate::cachedir::base().join(env!("CARGO_PKG_VERSION"));
    let dir = root.join(format!("runtime-{:016x}", h.finish()));
    let objects: Vec<PathBuf> = c_files().map(|n| dir.join(object_name(n))).collect();
    let complete = || {
        std::fs::read_to_string(dir.join("key")).ok().as_deref() == Some(key.as_str())
            && objects.iter().all(|o| o.is_file())
    };
    if complete() {
        return Some(objects);
    }
    // a damaged entry (a missing object, another key under the same hash) is made again
    if dir.exists() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    // compiled in a directory of this process, then moved into place in one rename, so
    // builds running at the same time never see half a cache
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = root.join(format!("tmp-{}-{n}", std::process::id()));
    let made = compile_into(&tmp, base, flags, &key);
    if made.is_some() {
        // fails when another build was first: its objects are the same
        let _ = std::fs::rename(&tmp, &dir);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    complete().then_some(objects)
}

fn c_files() -> impl Iterator<Item = &'static str> {
    RUNTIME_FILES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.ends_with(".c"))
}

fn object_name(c_file: &str) -> String {
    format!("{}.o", c_file.trim_end_matches(".c"))
}

/// Everything the objects depend on: the compiler, its arguments and environment, the
/// flags, and the text of every runtime file (headers included).
fn cache_key(base: &Command, flags: &[OsString]) -> String {
    let mut key = String::new();
    key.push_str(&format!("compiler {:?}\n", base.get_program()));
    key.push_str(&format!("version {}\n", compiler_version(base)));
    for a in base.get_args() {
        key.push_str(&format!("arg {:?}\n", a));
    }
    for (k, v) in base.get_envs() {
        key.push_str(&format!("env {:?}={:?}\n", k, v));
    }
    for f in flags {
        key.push_str(&format!("flag {:?}\n", f));
    }
    for (name, text) in RUNTIME_FILES {
        let mut h = crate::fasthash::FxHasher::default();
        h.write(text.as_bytes());
        key.push_str(&format!(
            "file {} {} {:016x}\n",
            name,
            text.len(),
            h.finish()
        ));
    }
    key
}

/// The compiler's own account of its version (`--version`'s first line), so that a new
/// compiler behind the same name does not reuse the old one's objects.
fn compiler_version(base: &Command) -> String {
    Command::new(base.get_program())
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .map(str::to_string)
        })
        .unwrap_or_default()
}

/// Writes the runtime into `dir` and compiles its C files there (`-c`), then records the
/// key; `None` if anything fails.
fn compile_into(dir: &Path, base: &Command, flags: &[OsString], key: &str) -> Option<()> {
    std::fs::create_dir_all(dir).ok()?;
    for (name, text) in RUNTIME_FILES {
        std::fs::write(dir.join(name), text).ok()?;
    }
    let mut cmd = Command::new(base.get_program());
    cmd.args(base.get_args());
    for (k, v) in base.get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.current_dir(dir).args(flags).arg("-c").args(c_files());
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    // only the objects are kept
    for (name, _) in RUNTIME_FILES {
        let _ = std::fs::remove_file(dir.join(name));
    }
    std::fs::write(dir.join("key"), key).ok()
}
