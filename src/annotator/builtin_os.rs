//! The built-ins of the `os`, `math` and `time` models in translated code. The reference
//! replaces each of them by an RPython function or registers it as an external function,
//! with a fixed signature: the number of arguments comes from the registry
//! ([`BuiltinId::fixed_arity`]), the argument types are checked here.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::IntKind;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// The result of a call of an `os`, `math`, `time` (or `rfloat.formatd`) built-in;
    /// `None` for any other built-in.
    pub(super) fn call_os_time_math(
        &mut self,
        id: B,
        args: &ArgsS,
    ) -> Option<Result<SomeValue, AnnError>> {
        if let Some((min, max)) = id.fixed_arity() {
            if let Err(e) = self.arity(id.name(), args, min, max) {
                return Some(Err(e));
            }
        }
        let r = match id {
            B::OsWrite
            | B::OsRead
            | B::OsOpen
            | B::OsClose
            | B::OsLseek
            | B::OsGetenv
            | B::OsGetpid => self.call_os_io(id, args),
            B::OsSystem
            | B::OsIsatty
            | B::OsPathExists
            | B::OsPathIsdir
            | B::OsPathIsfile
            | B::OsGetcwd
            | B::OsStrerror
            | B::OsStatFields
            | B::OsLstatFields
            | B::OsFstatFields
            | B::OsListdirRaw
            | B::OsEnvironRaw
            | B::OsPipeRaw
            | B::OsWaitpidRaw
            | B::OsLoadavgItem
            | B::OsTimesItem
            | B::OsStatInt
            | B::OsFstatInt
            | B::OsStatFloat
            | B::OsFstatFloat
            | B::OsListdir
            | B::OsEnvironSnapshot
            | B::OsUnlink
            | B::OsRemove
            | B::OsRename
            | B::OsMkdir
            | B::OsRmdir
            | B::OsExecvRaw
            | B::OsExit => self.call_os_files(id, args),
            B::OsGetppid
            | B::OsGetpgrp
            | B::OsFork
            | B::OsSetsid
            | B::OsGetuid
            | B::OsGeteuid
            | B::OsGetgid
            | B::OsGetegid
            | B::OsDup
            | B::OsUmask
            | B::OsNice
            | B::OsKill
            | B::OsDup2
            | B::OsFtruncate
            | B::OsFsync
            | B::OsChdir
            | B::OsChmod
            | B::OsAccess
            | B::OsSymlink
            | B::OsLink
            | B::OsReadlink
            | B::OsGetlogin
            | B::OsTtyname
            | B::OsPipe
            | B::OsWaitpid
            | B::OsGetloadavg
            | B::OsTimes => self.call_os_process(id, args),
            B::RfloatFormatd | B::TimeTime | B::TimeClock | B::TimeSleep => {
                self.call_time_math(id, args)
            }
            _ if id.is_math() => self.call_time_math(id, args),
            _ => return None,
        };
        Some(r)
    }

    /// The file-descriptor primitives.
    fn call_os_io(&mut self, id: B, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        match id {
            B::OsWrite => {
                self.check_signed_int("os.write", "the file descriptor (argument 1)", &p[0])?;
                self.check_str("os.write", "the data (argument 2)", &p[1])?;
                Ok(SomeValue::nonneg_int())
            }
            B::OsRead => {
                self.check_signed_int("os.read", "the file descriptor", &p[0])?;
                self.check_signed_int("os.read", "the size", &p[1])?;
                Ok(SomeValue::string())
            }
            // the reference's replacement of os.open takes the mode too (a default of
            // CPython's only), so two arguments are a signature mismatch there
            B::OsOpen => {
                self.check_str("os.open", "the path", &p[0])?;
                // rposix.open is `@enforceargs(NOT_CONSTANT, int, int)`
                self.check_signed_int("os.open", "the flags", &p[1])?;
                if let Some(mode) = p.get(2) {
                    self.check_signed_int("os.open", "the mode", mode)?;
                }
                Ok(SomeValue::int())
            }
            B::OsClose => {
                self.check_signed_int("os.close", "the file descriptor", &p[0])?;
                Ok(S::None)
            }
            B::OsLseek => {
                // the file descriptor goes through rposix's validate_fd (enforceargs)
                for (i, s) in p.iter().enumerate() {
                    self.check_int("os.lseek", &format!("argument {}", i + 1), s)?;
                }
                if let Some(fd) = p.first() {
                    self.check_signed_int("os.lseek", "the file descriptor", fd)?;
                }
                Ok(SomeValue::int())
            }
            // CPython's os.getenv, which the reference analyses, calls
            // environ.get(key, default): two arguments, which RPython's dict.get of
            // os.environ does not take
            B::OsGetenv => Err(AnnError::new(
                "RPY210",
                "os.getenv() is not supported by RPython (it calls os.environ.get(key, default)): use os.environ.get(key), which gives None for a missing variable".to_string(),
            )),
            _ => Ok(SomeValue::int()), // getpid
        }
    }

    /// Paths, directories and the process as a whole.
    fn call_os_files(&mut self, id: B, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let name = id.name();
        match id {
            B::OsSystem => {
                self.check_str(name, "the command", &p[0])?;
                Ok(SomeValue::int())
            }
            B::OsExecvRaw => {
                // a byte string: the reference's execv has no unicode variant
                self.check_str(name, "the path", &p[0])?;
                self.check_str(name, "the arguments", &p[1])?;
                self.check_int(name, "the argument count", &p[2])?;
                self.check_str(name, "the environment", &p[3])?;
                self.check_int(name, "the environment count", &p[4])?;
                Ok(SomeValue::int())
            }
            B::OsIsatty => {
                self.check_int(name, "the file descriptor", &p[0])?;
                Ok(SomeValue::bool())
            }
            B::OsPathExists | B::OsPathIsdir | B::OsPathIsfile => {
                self.check_path(name, "the path", &p[0])?;
                Ok(SomeValue::bool())
            }
            B::OsGetcwd => Ok(SomeValue::string0(true)),
            B::OsStrerror => {
                self.check_int(name, "the error number", &p[0])?;
                Ok(SomeValue::string0(true))
            }
            B::OsStatFields | B::OsLstatFields | B::OsFstatFields => {
                let mut items = vec![SomeValue::int(); 7];
                items.extend([SomeValue::float(), SomeValue::float(), SomeValue::float()]);
                Ok(S::Tuple(items.into()))
            }
            // externals of rpy-lsp's low-level helpers (ll_os.py)
            B::OsListdirRaw | B::OsEnvironRaw => Ok(SomeValue::string0(false)),
            B::OsPipeRaw | B::OsWaitpidRaw => Ok(SomeValue::int()),
            B::OsLoadavgItem | B::OsTimesItem => Ok(SomeValue::float()),
            B::OsStatInt | B::OsFstatInt => Ok(SomeValue::int()),
            B::OsStatFloat | B::OsFstatFloat => Ok(SomeValue::float()),
            B::OsListdir => {
                self.check_path(name, "the path", &p[0])?;
                self.bk
                    .newlist(self.space.heap(), 0, &[SomeValue::string0(true)], None)
            }
            B::OsEnvironSnapshot => {
                let def = self.bk.dictdef_here(0);
                self.bk
                    .generalize_key(self.space.heap(), def, &SomeValue::string0(true))?;
                self.bk
                    .generalize_value(self.space.heap(), def, &SomeValue::string0(true))?;
                Ok(S::Dict { def, konst: None })
            }
            B::OsUnlink | B::OsRemove | B::OsRmdir => {
                self.check_path(name, "the path", &p[0])?;
                Ok(S::None)
            }
            B::OsMkdir => {
                self.check_path(name, "the path", &p[0])?;
                if let Some(mode) = p.get(1) {
                    self.check_int(name, "the mode", mode)?;
                }
                Ok(S::None)
            }
            B::OsRename => {
                self.check_path(name, "the source path", &p[0])?;
                self.check_path(name, "the destination path", &p[1])?;
                Ok(S::None)
            }
            _ => {
                // _exit
                self.check_int(name, "the exit status", &p[0])?;
                Ok(S::None)
            }
        }
    }

    /// A path argument: rposix's path functions are specialized on its type and take
    /// unicode too (encoded to the file system's encoding).
    fn check_path(&self, func: &str, what: &str, s: &SomeValue) -> Result<(), AnnError> {
        if s.is_unicode_like() {
            return Ok(());
        }
        self.check_str(func, what, s)
    }

    /// Process and file-descriptor functions of rposix: translated, not run at import time.
    fn call_os_process(&mut self, id: B, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let name = id.name();
        match id {
            B::OsGetppid | B::OsGetpgrp | B::OsFork | B::OsSetsid => Ok(SomeValue::int()),
            // uid_t and gid_t are unsigned: rposix widens them to r_uint
            B::OsGetuid | B::OsGeteuid | B::OsGetgid | B::OsGetegid => Ok(S::Integer {
                nonneg: true,
                kind: IntKind::Unsigned,
                konst: None,
            }),
            B::OsDup | B::OsUmask | B::OsNice => {
                self.check_int(name, "the argument", &p[0])?;
                if id == B::OsDup {
                    // the file descriptor goes through rposix's validate_fd (enforceargs)
                    self.check_signed_int(name, "the file descriptor", &p[0])?;
                }
                Ok(SomeValue::int())
            }
            B::OsKill | B::OsDup2 | B::OsFtruncate => {
                self.check_int(name, "argument 1", &p[0])?;
                if id != B::OsKill {
                    // the file descriptor goes through rposix's validate_fd (enforceargs)
                    self.check_signed_int(name, "the file descriptor", &p[0])?;
                }
                self.check_int(name, "argument 2", &p[1])?;
                // rposix's kill returns the C function's result (0)
                Ok(if id == B::OsKill {
                    SomeValue::nonneg_int()
                } else {
                    S::None
                })
            }
            B::OsFsync => {
                self.check_signed_int(name, "the file descriptor", &p[0])?;
                Ok(S::None)
            }
            B::OsChdir => {
                self.check_str(name, "the path", &p[0])?;
                Ok(S::None)
            }
            B::OsChmod | B::OsAccess => {
                self.check_str(name, "the path", &p[0])?;
                self.check_int(name, "the mode", &p[1])?;
                Ok(if id == B::OsAccess {
                    SomeValue::bool()
                } else {
                    S::None
                })
            }
            B::OsSymlink | B::OsLink => {
                self.check_str(name, "the source path", &p[0])?;
                self.check_str(name, "the destination path", &p[1])?;
                Ok(S::None)
            }
            B::OsReadlink => {
                self.check_str(name, "the path", &p[0])?;
                Ok(SomeValue::string0(true))
            }
            B::OsGetlogin => Ok(SomeValue::string0(true)),
            B::OsTtyname => {
                self.check_int(name, "the file descriptor", &p[0])?;
                Ok(SomeValue::string0(true))
            }
            B::OsPipe => Ok(SomeValue::tuple(vec![SomeValue::int(), SomeValue::int()])),
            B::OsWaitpid => {
                self.check_int(name, "the pid", &p[0])?;
                self.check_int(name, "the options", &p[1])?;
                Ok(SomeValue::tuple(vec![SomeValue::int(), SomeValue::int()]))
            }
            B::OsGetloadavg => Ok(SomeValue::tuple(vec![SomeValue::float(); 3])),
            _ => Ok(SomeValue::tuple(vec![SomeValue::float(); 5])), // times
        }
    }

    /// `math`, `time` and `rfloat.formatd`.
    fn call_time_math(&mut self, id: B, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let name = id.name();
        // The reference's external functions take floats (an int or a bool widens to
        // one), except the exponent of ldexp, an int; time.sleep takes a float too.
        if id.is_math() || id == B::TimeSleep {
            for (i, s) in p.iter().enumerate() {
                if id == B::MathLdexp && i == 1 {
                    self.check_int(name, "the exponent (argument 2)", s)?;
                } else if !s.is_number() && !s.is_error() {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                            "{}() needs numbers, not {}",
                            name,
                            self.bk.describe_type(self.space.heap(), s)
                        ),
                    ));
                }
            }
        }
        match id {
            B::MathIsnan | B::MathIsinf => Ok(SomeValue::bool()),
            B::RfloatFormatd => Ok(SomeValue::string0(true)),
            B::MathFrexp => Ok(SomeValue::tuple(vec![SomeValue::float(), SomeValue::int()])),
            B::MathModf => Ok(SomeValue::tuple(vec![
                SomeValue::float(),
                SomeValue::float(),
            ])),
            B::MathFactorial => Ok(SomeValue::int()),
            B::TimeTime | B::TimeClock => Ok(SomeValue::float()),
            // the other math functions, and time.sleep
            _ => Ok(if id == B::TimeSleep {
                S::None
            } else {
                SomeValue::float()
            }),
        }
    }
}
