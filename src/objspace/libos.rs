//! The `os` and `sys` primitives of the bundled models, as the object space runs them at
//! import time: file descriptors, environment, paths, `os.stat`, and the calls that only
//! the translated program may make (refused here with the reference's message). Takes
//! the call's arguments; gives the value, or the `OSError` CPython would raise.

use super::builtins::BArgs;
use super::object::{CProbe, Opaque, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;

// ----- os -----

const O_WRITE_FLAGS: i128 = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000;

pub(super) fn os_write(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let Some(fd) = sp.int_of(a.args[0]) else {
        return sp.type_error("an integer is required");
    };
    let Some(data) = sp.str_bytes(a.args[1]) else {
        let tn = sp.type_name(a.args[1]);
        return sp.type_error(format!(
            "write() argument 2 must be string or buffer, not {tn}"
        ));
    };
    match fd {
        1 | 2 => {
            sp.write_out(&data, fd == 2);
            Ok(Value::Int(data.len() as i64))
        }
        _ if sp.sink_fds.contains(&(fd as i64)) => Ok(Value::Int(data.len() as i64)),
        _ => Err(sp.os_error(9, "Bad file descriptor")),
    }
}

pub(super) fn os_read(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let fd = sp.int_of(a.args[0]).unwrap_or(-1) as i64;
    let n = sp.int_of(a.args[1]).unwrap_or(0).max(0) as usize;
    let Some((data, pos)) = sp.files.get_mut(&fd) else {
        return Err(sp.os_error(9, "Bad file descriptor"));
    };
    let end = (*pos + n).min(data.len());
    let chunk = data[*pos..end].to_vec();
    *pos = end;
    Ok(sp.new_str_vec(chunk))
}

pub(super) fn os_open(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    sp.world_read = true;
    let Some(path) = sp.text_of(a.args[0]) else {
        return sp.type_error("coercing to Unicode: need string or buffer");
    };
    let flags = sp.int_of(a.args[1]).unwrap_or(0);
    let p = host_path(sp, &path);
    if sp.config.policy.in_temp_dir(&p) {
        // a file of the temporary directory: none is there, and one written goes nowhere
        if flags & 0o100 == 0 {
            return Err(sp.os_error(2, "No such file or directory"));
        }
        let fd = sp.next_fd;
        sp.next_fd += 1;
        sp.sink_fds.insert(fd);
        return Ok(Value::Int(fd));
    }
    if flags & O_WRITE_FLAGS != 0 {
        return Err(sp.os_error(
            13,
            "Permission denied (rpy-lsp does not write files at import time)",
        ));
    }
    let data = match sp.config.overlays.get(&p) {
        Some(t) => t.clone().into_bytes(),
        None => match sp.config.policy.read_file(&p) {
            Ok(d) => d,
            Err(e) => {
                let (errno, msg) = e.errno();
                return Err(sp.os_error(errno, msg));
            }
        },
    };
    let fd = sp.next_fd;
    sp.next_fd += 1;
    sp.files.insert(fd, (data, 0));
    Ok(Value::Int(fd))
}

pub(super) fn os_close(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let fd = sp.int_of(a.args[0]).unwrap_or(-1) as i64;
    if sp.files.remove(&fd).is_none() && !sp.sink_fds.remove(&fd) && !(0..=2).contains(&fd) {
        return Err(sp.os_error(9, "Bad file descriptor"));
    }
    Ok(Value::None)
}

pub(super) fn os_lseek(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 3)?;
    let fd = sp.int_of(a.args[0]).unwrap_or(-1) as i64;
    let off = sp.int_of(a.args[1]).unwrap_or(0) as i64;
    let how = sp.int_of(a.args[2]).unwrap_or(0);
    let Some((data, pos)) = sp.files.get_mut(&fd) else {
        return Err(sp.os_error(9, "Bad file descriptor"));
    };
    let base = match how {
        0 => 0,
        1 => *pos as i64,
        _ => data.len() as i64,
    };
    let np = (base + off).max(0) as usize;
    *pos = np.min(data.len());
    Ok(Value::Int(np as i64))
}

pub(super) fn os_getenv(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let name = sp.text_of(a.args[0]).unwrap_or_default();
    match sp.config.policy.env_var(&name) {
        Some(s) => Ok(sp.new_str(s.as_bytes())),
        None => Ok(a.args.get(1).copied().unwrap_or(Value::None)),
    }
}

pub(super) fn os_environ_snapshot(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    let d = sp.new_dict();
    for (k, v) in sp.config.policy.environ() {
        let kv = sp.new_str(k.as_bytes());
        let vv = sp.new_str(v.as_bytes());
        sp.setitem(d, kv, vv)?;
    }
    if let Value::Obj(id) = d {
        sp.os_environ = Some(id);
    }
    Ok(d)
}

pub(super) fn os_getpid(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    Ok(Value::Int(sp.config.policy.pid()))
}

/// `os.getuid()`, `os.geteuid()`: the policy's (a fixed one in a sandbox).
pub(super) fn os_getuid(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    Ok(Value::Int(sp.config.policy.uid()))
}

/// `tempfile.gettempdir()`: the policy's temporary directory, which import-time code
/// sees empty (`Policy::in_temp_dir`).
pub(super) fn os_tempdir(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    use std::os::unix::ffi::OsStrExt;
    a.arity(sp, 0, 0)?;
    let d = sp.config.policy.temp_dir();
    Ok(sp.new_str(d.as_os_str().as_bytes()))
}

pub(super) fn sys_exit(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let code = a.args.first().copied().unwrap_or(Value::None);
    let cls = sp.exc_class("SystemExit");
    let inst = sp.new_exception(cls, vec![code]);
    Err(sp.raise_instance(inst))
}

/// `frame_globals(level)`: the globals (a dict that writes through to the module) of the
/// import-time frame at `level`, counted from the outermost; what
/// `sys._getframe(n).f_globals` reads (pydgin's `init_sim` defines `target` in its
/// caller's module this way, pixie's `defprotocol` its protocols).
pub(super) fn sys_frame_globals(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let module = match a.args[0] {
        Value::Int(n) if n >= 0 => sp.frames.get(n as usize).map(|f| f.0),
        _ => None,
    };
    match module {
        Some(g) => Ok(super::builtins::globals_view(sp, g)),
        None => sp.value_error("call stack is not deep enough"),
    }
}

pub(super) fn sys_frame_count(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    Ok(Value::Int(sp.frames.len() as i64))
}

pub(super) fn model_is_unknown(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Bool(sp.unknown_name(a.args[0]).is_some()))
}

pub(super) fn model_unknown(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let what = sp
        .heap
        .str_value(a.args[0])
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_else(|| "?".into());
    // a model names what it cannot compute: a value, or a call's result (`rffi.cast()`)
    let kind = if what.ends_with("()") {
        "the result of"
    } else {
        "the name"
    };
    sp.warn_unknown(&what, kind);
    Ok(sp.new_unknown(&what))
}

pub(super) fn model_opaque(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 5)?;
    let kind = sp.heap.str_value(a.args[0]).and_then(Opaque::from_name);
    let Some(kind) = kind else {
        return sp.value_error("model_opaque(): unknown kind");
    };
    let what = sp
        .heap
        .str_value(a.args[1])
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .unwrap_or_else(|| "?".into());
    // the C expression, the headers that define it and their directories (one per
    // line), for `run` and `build`
    let text = |i: usize| {
        a.args
            .get(i)
            .and_then(|&v| sp.heap.str_value(v))
            .map(|s| String::from_utf8_lossy(s).into_owned())
    };
    let probe = match (text(2), text(3)) {
        (Some(expr), Some(prelude)) => Some(CProbe {
            prelude,
            expr,
            include_dirs: text(4)
                .map(|dirs| dirs.lines().map(String::from).collect())
                .unwrap_or_default(),
        }),
        _ => None,
    };
    // `run` and `build` know the value as the toolchain does, from the C compiler, so
    // import-time code and the annotator see the constant (`EOF < 0` is folded)
    if let (true, Some(p)) = (sp.config.policy.c_compiler, &probe) {
        use crate::platform::probe;
        match kind {
            Opaque::Int => {
                if let Ok(n) = probe::integer_constant(&p.prelude, &p.expr, &p.include_dirs) {
                    return Ok(Value::Int(n));
                }
            }
            Opaque::Bool => {
                let text = p.bool_text();
                if let Ok(b) = probe::compiles(&text, &p.include_dirs) {
                    return Ok(Value::Bool(b));
                }
            }
            _ => {}
        }
    }
    // no warning: the value's type is known, so the code using it is checked
    Ok(Value::Obj(sp.heap.alloc_opaque(&what, kind, probe)))
}

/// `model_pkg_config_exists(name)`: whether the package is installed, as the reference's
/// `ExternalCompilationInfo.from_pkg_config` asks at import time (see
/// [`crate::sandbox::pkg_config_exists`]).
pub(super) fn model_pkg_config_exists(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let Some(name) = sp.heap.str_value(a.args[0]) else {
        return sp.type_error("model_pkg_config_exists() takes a str");
    };
    let name = String::from_utf8_lossy(name).into_owned();
    Ok(Value::Bool(crate::sandbox::pkg_config_exists(&name)))
}

/// A function of the process rpy-lsp does not evaluate at import time (`os.getuid()`…,
/// and the side effects on files and processes: `os.rename()`, `os.system()`…): its
/// result is unknown, with one warning (it is fine in translated code). The toolchain
/// does perform them; a cache a library writes while importing (rply's parser tables)
/// must not make the program an error.
pub(super) fn os_not_at_import(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let n = a.id.name();
    let what = format!("{n}()");
    sp.warn_unknown(&what, "the result of");
    Ok(sp.new_unknown(&what))
}

pub(super) fn os_refuse_write(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let n = a.id.name();
    Err(sp.unsupported(format!(
        "`{n}()` has side effects rpy-lsp does not perform at import time"
    )))
}

pub(super) fn os_isatty(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Bool(false))
}

/// A path import-time code names, on the host: a relative one is relative to the working
/// directory `os.getcwd()` reports (the project's root for `check`, where the reference's
/// translation runs; the real one for `run` and `build`), not to rpy-lsp's own.
pub(crate) fn host_path(sp: &ObjSpace, path: &str) -> std::path::PathBuf {
    let p = std::path::PathBuf::from(path);
    match &sp.config.policy.cwd {
        Some(cwd) if p.is_relative() => cwd.join(p),
        _ => p,
    }
}

pub(super) fn os_getcwd(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    let d = sp.config.policy.cwd();
    Ok(sp.new_str(d.as_bytes()))
}

/// `os.urandom(n)` at import time: `n` of the machine's random bytes when the policy
/// allows them (`run`/`build`: the reference's binary holds the bytes its translation
/// read, so only what does not depend on them can match); an unknown when checking, where
/// no value would be the reference's.
pub(super) fn os_urandom(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    use std::io::Read;
    a.arity(sp, 1, 1)?;
    if !sp.config.policy.random_bytes {
        return os_not_at_import(sp, a);
    }
    let n = match sp.int_of(a.args[0]) {
        Some(n) if n >= 0 => n as usize,
        _ => return sp.type_error("urandom() needs a non-negative integer"),
    };
    if n > sp.config.policy.max_file_bytes as usize {
        return os_not_at_import(sp, a);
    }
    let mut buf = vec![0u8; n];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut buf));
    match read {
        Ok(()) => Ok(sp.new_str(&buf)),
        Err(_) => os_not_at_import(sp, a),
    }
}

pub(super) fn os_strerror(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let code = sp.int_of(a.args[0]).unwrap_or(0);
    let msg = match code {
        2 => "No such file or directory".to_string(),
        9 => "Bad file descriptor".to_string(),
        13 => "Permission denied".to_string(),
        c => format!("Unknown error {c}"),
    };
    Ok(sp.new_str(msg.as_bytes()))
}

pub(super) fn os_listdir(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    sp.world_read = true;
    let path = sp.text_of(a.args[0]).unwrap_or_default();
    let path = host_path(sp, &path);
    if !sp.config.policy.may_read(&path) {
        return Err(sp.os_error(13, "Permission denied"));
    }
    let Ok(rd) = std::fs::read_dir(&path) else {
        return Err(sp.os_error(2, "No such file or directory"));
    };
    let mut names: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let vals: Vec<Value> = names.iter().map(|n| sp.new_str(n.as_bytes())).collect();
    Ok(sp.new_list(vals))
}

/// `os.stat(path)` (`os.lstat(path)`: of a symbolic link itself) as the tuple the bundled `stat_result` is built from: mode, ino, dev,
/// nlink, uid, gid, size (ints), then atime, mtime, ctime (floats).
pub(super) fn os_stat_fields(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    use std::os::unix::fs::MetadataExt;
    a.arity(sp, 1, 1)?;
    sp.world_read = true;
    let path = sp.text_of(a.args[0]).unwrap_or_default();
    let path = host_path(sp, &path);
    if !sp.config.policy.may_read(&path) {
        return Err(sp.os_error(13, "Permission denied"));
    }
    let m = match a.id {
        B::OsLstatFields => std::fs::symlink_metadata(&path),
        _ => std::fs::metadata(&path),
    };
    let Ok(m) = m else {
        return Err(sp.os_error(2, "No such file or directory"));
    };
    let ints = [
        m.mode() as i128,
        m.ino() as i128,
        m.dev() as i128,
        m.nlink() as i128,
        m.uid() as i128,
        m.gid() as i128,
        m.size() as i128,
    ];
    let mut items: Vec<Value> = ints.iter().map(|&i| sp.new_int(i)).collect();
    for t in [m.atime(), m.mtime(), m.ctime()] {
        items.push(Value::Float(t as f64));
    }
    Ok(sp.new_tuple(items))
}

/// `os.readlink(path)` at import time, for a link the sandbox may read: what it points to
/// (the bundled `os.path.realpath` resolves a module's own path with it, as an interpreter
/// finding its C sources beside `__file__` does). An unknown path gives an unknown.
pub(super) fn os_readlink(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    use std::os::unix::ffi::OsStrExt;
    a.arity(sp, 1, 1)?;
    let Some(name) = sp.text_of(a.args[0]) else {
        return os_not_at_import(sp, a);
    };
    sp.world_read = true;
    let path = host_path(sp, &name);
    if !sp.config.policy.may_read(&path) {
        return Err(sp.os_error(13, "Permission denied"));
    }
    match std::fs::read_link(&path) {
        Ok(to) => Ok(sp.new_str(to.as_os_str().as_bytes())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(sp.os_error(2, "No such file or directory"))
        }
        Err(_) => Err(sp.os_error(22, "Invalid argument")),
    }
}

pub(super) fn os_path_exists(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    sp.world_read = true;
    let path = sp.text_of(a.args[0]).unwrap_or_default();
    let path = host_path(sp, &path);
    let overlay = sp.config.overlays.contains_key(&path);
    if !overlay && (!sp.config.policy.may_read(&path) || sp.config.policy.in_temp_dir(&path)) {
        return Ok(Value::Bool(false));
    }
    let r = match a.id {
        B::OsPathIsdir => path.is_dir(),
        B::OsPathIsfile => overlay || path.is_file(),
        _ => overlay || path.exists(),
    };
    Ok(Value::Bool(r))
}

impl ObjSpace {
    fn os_error(&mut self, errno: i64, msg: &str) -> crate::interpreter::Unwind<Value> {
        let cls = self.exc_class("OSError");
        let m = self.new_str(msg.as_bytes());
        let inst = self.new_exception(cls, vec![Value::Int(errno), m]);
        self.raise_instance(inst)
    }

    pub(super) fn float_arg(&mut self, v: Value) -> R<f64> {
        match self.float_of(v) {
            Some(f) => Ok(f),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!("a float is required, not {tn}"))
            }
        }
    }
}
