//! The C compiler: writes the generated sources into a directory and compiles them into
//! an executable with the system compiler, found through the `cc` crate (which respects
//! `CC` and `CFLAGS`), with the program's `ExternalCompilationInfo` (include and library
//! directories, libraries, its own C files, the flags of `pkg-config`). A missing compiler
//! or a failed compilation is an error that says where the sources were kept.

use super::CSources;
use crate::platform::{compiler_command, from_cwd};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Which garbage collector the executable uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcKind {
    /// generational: a copying nursery and a mark-sweep old generation
    Gen,
    /// never frees (debugging)
    None,
}

pub struct CompileOptions {
    /// 0..=3 (`-O<n>`)
    pub opt: u32,
    pub gc: GcKind,
}

#[derive(Debug)]
pub enum CompileError {
    /// writing the sources failed
    Io(String),
    /// no C compiler could be run
    NoCompiler(String),
    /// the compiler failed: its output
    Failed { output: String, dir: PathBuf },
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Io(m) => write!(f, "{}", m),
            CompileError::NoCompiler(m) => write!(f, "no C compiler: {}", m),
            CompileError::Failed { output, dir } => write!(
                f,
                "the C compiler failed (the sources are kept in {}):\n{}",
                dir.display(),
                output
            ),
        }
    }
}

/// Writes the sources into `dir`.
pub fn write_sources(src: &CSources, dir: &Path) -> Result<(), CompileError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CompileError::Io(format!("cannot create {}: {}", dir.display(), e)))?;
    for (name, text) in &src.files {
        let p = dir.join(name);
        std::fs::write(&p, text)
            .map_err(|e| CompileError::Io(format!("cannot write {}: {}", p.display(), e)))?;
    }
    Ok(())
}

/// The compiler and linker flags the config tools give (`pkg-config NAME --cflags`,
/// `--libs`), asked when the program is compiled; a tool that fails is an error naming it.
fn config_tool_flags(
    tools: &[std::rc::Rc<str>],
) -> Result<(Vec<String>, Vec<String>), CompileError> {
    let mut flags = (Vec::new(), Vec::new());
    for tool in tools {
        let mut words = tool.split_whitespace();
        let Some(program) = words.next() else {
            continue;
        };
        let args: Vec<&str> = words.collect();
        for (which, into) in [("--cflags", &mut flags.0), ("--libs", &mut flags.1)] {
            let out = std::process::Command::new(program)
                .args(&args)
                .arg(which)
                .output()
                .map_err(|e| CompileError::Io(format!("cannot run `{} {}`: {}", tool, which, e)))?;
            if !out.status.success() {
                return Err(CompileError::Io(format!(
                    "`{} {}` failed: {}",
                    tool,
                    which,
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
            into.extend(
                String::from_utf8_lossy(&out.stdout)
                    .split_whitespace()
                    .map(String::from),
            );
        }
    }
    Ok(flags)
}

/// Compiles the sources written in `dir` into the executable `out`, with the compile and
/// link information of the C functions the program calls.
pub fn compile(
    src: &CSources,
    dir: &Path,
    out: &Path,
    opts: &CompileOptions,
) -> Result<(), CompileError> {
    write_sources(src, dir)?;
    let (mut cmd, compiler) = compiler_command(opts.opt).map_err(CompileError::NoCompiler)?;
    cmd.current_dir(dir);
    // what every translation unit is compiled with
    let mut flags: Vec<OsString> = vec!["-fwrapv".into(), "-fno-strict-aliasing".into()];
    if opts.gc == GcKind::None {
        flags.push("-DRPY_GC_NONE".into());
    }
    let eci = &src.eci;
    let (tool_cflags, tool_libs) = config_tool_flags(&eci.config_tools)?;
    flags.extend(tool_cflags.iter().map(OsString::from));
    for d in &eci.include_dirs {
        flags.push(format!("-I{}", from_cwd(d).display()).into());
    }
    flags.extend(eci.compile_extra.iter().map(|a| OsString::from(&**a)));
    let runtime = super::objcache::runtime_objects(&cmd, &flags);
    cmd.args(&flags);
    match &runtime {
        // the runtime compiled before: the program's own files and the kept objects
        Some(objects) => {
            let own = |f: &&str| !super::RUNTIME_FILES.iter().any(|(n, _)| n == f);
            cmd.args(src.c_files().filter(own));
            cmd.args(objects);
        }
        None => {
            cmd.args(src.c_files());
        }
    }
    for f in &eci.separate_module_files {
        cmd.arg(from_cwd(f));
    }
    let out_abs = if out.is_absolute() {
        out.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(out))
            .unwrap_or_else(|_| out.to_path_buf())
    };
    cmd.arg("-o").arg(&out_abs);
    // as the toolchain links: directories, object files, extra flags, then libraries
    for d in &eci.library_dirs {
        cmd.arg(format!("-L{}", from_cwd(d).display()));
    }
    for f in &eci.link_files {
        cmd.arg(from_cwd(f));
    }
    for a in &eci.link_extra {
        cmd.arg(&**a);
    }
    for l in &eci.libraries {
        cmd.arg(format!("-l{}", l));
    }
    cmd.args(&tool_libs);
    if eci.use_cpp_linker {
        cmd.arg("-lstdc++");
    }
    cmd.arg("-lm");
    let output = cmd
        .output()
        .map_err(|e| CompileError::NoCompiler(format!("{}: {}", compiler.display(), e)))?;
    if !output.status.success() {
        let mut text = String::from_utf8_lossy(&output.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stdout));
        return Err(CompileError::Failed {
            output: text,
            dir: dir.to_path_buf(),
        });
    }
    Ok(())
}
