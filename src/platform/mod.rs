//! The host platform's C compiler, as every stage that needs it asks for it: `genc`
//! compiles the generated program with it, and the object space and the RTyper put
//! `rffi_platform`'s compile-only questions to it (`probe`) while a program is imported or
//! translated for `run`/`build`. It sits outside the pipeline's stages so that none of
//! them reaches into another for it (the toolchain's `translator/platform` plays this part).

pub mod probe;

use std::path::{Path, PathBuf};

/// The host's target triple, as the `cc` crate wants it.
fn host_triple() -> String {
    let arch = std::env::consts::ARCH;
    match std::env::consts::OS {
        "linux" => format!("{}-unknown-linux-gnu", arch),
        "macos" => format!("{}-apple-darwin", arch),
        other => format!("{}-unknown-{}", arch, other),
    }
}

/// The system C compiler as every use of it runs it (`build`, and the compile-only probes
/// of `probe`): found by the `cc` crate for the host (which respects `CC` and
/// `CFLAGS`), at optimisation level `opt`; the command and the compiler's path.
pub fn compiler_command(opt: u32) -> Result<(std::process::Command, PathBuf), String> {
    let triple = host_triple();
    let mut build = cc::Build::new();
    build
        .target(&triple)
        .host(&triple)
        .opt_level(opt)
        .debug(false)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .warnings(false)
        .pic(false);
    let tool = build.try_get_compiler().map_err(|e| e.to_string())?;
    Ok((tool.to_command(), tool.path().to_path_buf()))
}

/// A path the program gives relative to the current directory (where `build` runs, as
/// the toolchain reads it), for the compiler that runs in the sources' directory.
pub fn from_cwd(p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    std::env::current_dir()
        .map(|d| d.join(p))
        .unwrap_or_else(|_| p.to_path_buf())
}
