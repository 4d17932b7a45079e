//! Compile-only questions to the C compiler about the platform (what the toolchain's
//! `rffi_platform` finds by compiling and running small C programs): the value of an
//! integer constant expression (`BUFSIZ`, `sizeof(struct stat)`) under a program's
//! headers. Nothing is run: each bit of the value is a static array whose size is negative
//! when the bit is clear, so one compilation (`-fsyntax-only`) gives all 64 bits from the
//! compiler's errors, as autoconf's cross-compiling checks do. The compiler is the one
//! `build` uses (`super::compiler_command`), with the configuration's include directories.
//! Answers are kept for the process, and asked only when `run` or `build` translates a
//! program that uses them.

use std::collections::HashMap;
use std::sync::Mutex;

/// A question: the C text (or prelude and expression) and the include directories.
type Key = (String, String, Vec<String>);
static CACHE: Mutex<Option<HashMap<Key, Result<i64, String>>>> = Mutex::new(None);
static COMPILES: Mutex<Option<HashMap<Key, Result<bool, String>>>> = Mutex::new(None);

/// Whether the C text compiles (`rffi_platform.Has`: `(void)(name);` in a function;
/// `Defined`: an `#ifndef` that stops with `#error`).
pub fn compiles(text: &str, include_dirs: &[String]) -> Result<bool, String> {
    let key = (text.to_string(), String::new(), include_dirs.to_vec());
    if let Some(r) = COMPILES
        .lock()
        .ok()
        .and_then(|c| c.as_ref().and_then(|m| m.get(&key).cloned()))
    {
        return r;
    }
    let r = compile(text, include_dirs).map(|(ok, _)| ok);
    if let Ok(mut c) = COMPILES.lock() {
        c.get_or_insert_with(HashMap::new).insert(key, r.clone());
    }
    r
}

/// The value of the integer constant expression `expr` after the C text `prelude` (the
/// program's `#include`s, looked for in `include_dirs`), as a 64-bit two's-complement word.
pub fn integer_constant(prelude: &str, expr: &str, include_dirs: &[String]) -> Result<i64, String> {
    let key = (prelude.to_string(), expr.to_string(), include_dirs.to_vec());
    if let Some(r) = CACHE
        .lock()
        .ok()
        .and_then(|c| c.as_ref().and_then(|m| m.get(&key).cloned()))
    {
        return r;
    }
    let r = ask(prelude, expr, include_dirs);
    if let Ok(mut c) = CACHE.lock() {
        c.get_or_insert_with(HashMap::new).insert(key, r.clone());
    }
    r
}

fn ask(prelude: &str, expr: &str, include_dirs: &[String]) -> Result<i64, String> {
    // first: is it an integer constant expression at all (a macro the headers define)?
    let valid = format!(
        "{prelude}\nstatic char rpy_probe_valid[((unsigned long long)({expr})) * 0 + 1];\n"
    );
    let (ok, out) = compile(&valid, include_dirs)?;
    if !ok {
        return Err(format!(
            "`{expr}` is not an integer constant of the program's C headers: {}",
            out.lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .trim()
        ));
    }
    let mut text = format!("{prelude}\n");
    for bit in 0..64 {
        text.push_str(&format!(
            "static char rpy_probe_b{bit}[(((unsigned long long)({expr})) >> {bit}) & 1 ? 1 : -1];\n"
        ));
    }
    let (_, out) = compile(&text, include_dirs)?;
    let mut value: u64 = u64::MAX;
    for line in out.lines().filter(|l| l.contains("negative")) {
        // gcc: "size of array 'rpy_probe_b3' is negative"; clang: "'rpy_probe_b3' declared
        // as an array with a negative size"
        if let Some(i) = line.find("rpy_probe_b") {
            let digits: String = line[i + 11..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if let Ok(bit) = digits.parse::<u32>() {
                if bit < 64 {
                    value &= !(1u64 << bit);
                }
            }
        }
    }
    Ok(value as i64)
}

/// Compiles `text` without producing anything: whether it compiled, and the compiler's
/// messages.
fn compile(text: &str, include_dirs: &[String]) -> Result<(bool, String), String> {
    // one directory per question: tests ask from several threads
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("rpy-probe-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join("probe.c");
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let (mut cmd, compiler) = super::compiler_command(0)?;
    cmd.arg("-fsyntax-only");
    for d in include_dirs {
        cmd.arg(format!("-I{}", super::from_cwd(d).display()));
    }
    let out = cmd
        .arg(&file)
        .output()
        .map_err(|e| format!("no C compiler ({}): {e}", compiler.display()))?;
    let mut messages = String::from_utf8_lossy(&out.stderr).into_owned();
    messages.push_str(&String::from_utf8_lossy(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
    Ok((out.status.success(), messages))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a missing compiler skips these tests: a probe that fails for another reason
    /// must fail them.
    fn have_c_compiler() -> bool {
        let found = super::super::compiler_command(0)
            .ok()
            .and_then(|(mut cmd, _)| cmd.arg("--version").output().ok())
            .is_some_and(|o| o.status.success());
        if !found {
            println!("no C compiler: skipped");
        }
        found
    }

    #[test]
    fn constants_of_the_headers_are_read_without_running_anything() {
        if !have_c_compiler() {
            return;
        }
        let n = integer_constant("#include <errno.h>", "EINTR", &[]).unwrap();
        assert_eq!(n, 4);
        assert_eq!(integer_constant("", "-5 * 3", &[]), Ok(-15));
        assert_eq!(integer_constant("", "sizeof(long long)", &[]), Ok(8));
        assert!(integer_constant("#include <errno.h>", "NO_SUCH_MACRO", &[]).is_err());
        assert_eq!(
            compiles("#include <stdio.h>\nvoid f(void) { (void)(printf); }", &[]),
            Ok(true)
        );
        assert_eq!(
            compiles("void f(void) { (void)(no_such_name); }", &[]),
            Ok(false)
        );
    }

    #[test]
    fn headers_are_found_in_the_configured_include_directories() {
        if !have_c_compiler() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("rpy-probe-inc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("rpy_probe_own.h"),
            "#define RPY_OWN_SIZE 4096\nint rpy_own(void);\n",
        )
        .unwrap();
        let dirs = [dir.display().to_string()];
        let prelude = "#include <rpy_probe_own.h>";
        let n = integer_constant(prelude, "RPY_OWN_SIZE", &dirs).unwrap();
        assert_eq!(n, 4096);
        let has = format!("{prelude}\nvoid f(void) {{ (void)(rpy_own); }}");
        assert_eq!(compiles(&has, &dirs), Ok(true));
        // without the directory the header is not found
        assert_eq!(compiles(&has, &[]), Ok(false));
        assert!(integer_constant(prelude, "RPY_OWN_SIZE", &[]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
