//! Calls of the external functions of the `os` model whose arguments and result are
//! plain values (ints, strings, floats): one table row per built-in gives the runtime
//! function it becomes and its argument kinds, so the RTyper, the LLInterpreter
//! (`llinterp::runtime::os`) and GenC (`runtime/os.c`) agree on one signature. Externals
//! that build containers go through the helpers of `ll_os.py` instead (`os.listdir`,
//! `os.getloadavg`, `os.stat`, `os.pipe`).

use super::hop::{cint, cvoid, Hop, LlOps};
use super::rmodel::Repr;
use super::rmodel::ReprId;
use super::{RTyper, TyperError};
use crate::builtins::BuiltinId as B;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::LlType;
use crate::objspace::object::IntKind;

type R = Result<(Hlvalue, ReprId), TyperError>;

/// The kind of an argument: the Repr it is converted to before the call.
#[derive(Clone, Copy)]
enum Arg {
    Int,
    Str,
    /// an int argument the caller may leave out, with its default
    IntOr(i64),
}

/// One external: the built-in, the runtime function, its arguments, and
/// whether its result is the call's value (`false`: the call returns None).
struct External {
    id: B,
    f: RuntimeFn,
    args: &'static [Arg],
    returns: bool,
}

const fn ext(id: B, f: RuntimeFn, args: &'static [Arg], returns: bool) -> External {
    External {
        id,
        f,
        args,
        returns,
    }
}

use Arg::{Int, IntOr, Str};
const EXTERNALS: &[External] = &[
    ext(B::OsUnlink, RuntimeFn::OsUnlink, &[Str], false),
    ext(B::OsRemove, RuntimeFn::OsUnlink, &[Str], false),
    ext(B::OsRmdir, RuntimeFn::OsRmdir, &[Str], false),
    ext(B::OsMkdir, RuntimeFn::OsMkdir, &[Str, IntOr(0o777)], false),
    ext(B::OsRename, RuntimeFn::OsRename, &[Str, Str], false),
    ext(B::OsLink, RuntimeFn::OsLink, &[Str, Str], false),
    ext(B::OsSymlink, RuntimeFn::OsSymlink, &[Str, Str], false),
    ext(B::OsChdir, RuntimeFn::OsChdir, &[Str], false),
    ext(B::OsGetpid, RuntimeFn::OsGetpid, &[], true),
    ext(B::OsGetcwd, RuntimeFn::OsGetcwd, &[], true),
    ext(B::OsEnvironRaw, RuntimeFn::OsEnvironRaw, &[], true),
    ext(B::OsStrerror, RuntimeFn::OsStrerror, &[Int], true),
    ext(B::OsIsatty, RuntimeFn::OsIsatty, &[Int], true),
    ext(B::OsDup, RuntimeFn::OsDup, &[Int], true),
    ext(B::OsDup2, RuntimeFn::OsDup2, &[Int, Int], false),
    ext(B::OsKill, RuntimeFn::OsKill, &[Int, Int], true),
    ext(B::OsFsync, RuntimeFn::OsFsync, &[Int], false),
    ext(B::OsPipeRaw, RuntimeFn::OsPipeRaw, &[], true),
    ext(B::OsWaitpidRaw, RuntimeFn::OsWaitpidRaw, &[Int, Int], true),
    ext(B::OsFork, RuntimeFn::OsFork, &[], true),
    ext(B::OsExit, RuntimeFn::OsExit, &[Int], false),
    ext(B::OsAccess, RuntimeFn::OsAccess, &[Str, Int], true),
    ext(B::OsUmask, RuntimeFn::OsUmask, &[Int], true),
    ext(B::OsTimesItem, RuntimeFn::OsTimesItem, &[Int], true),
    ext(B::OsChmod, RuntimeFn::OsChmod, &[Str, Int], false),
    ext(B::OsReadlink, RuntimeFn::OsReadlink, &[Str], true),
    ext(B::OsFtruncate, RuntimeFn::OsFtruncate, &[Int, Int], false),
    ext(
        B::OsExecvRaw,
        RuntimeFn::OsExecvRaw,
        &[Str, Str, Int, Str, Int],
        true,
    ),
    ext(B::OsTtyname, RuntimeFn::OsTtyname, &[Int], true),
    ext(B::OsGetlogin, RuntimeFn::OsGetlogin, &[], true),
    ext(B::OsSystem, RuntimeFn::OsSystem, &[Str], true),
    ext(B::OsNice, RuntimeFn::OsNice, &[Int], true),
    ext(B::OsGetppid, RuntimeFn::OsGetppid, &[], true),
    ext(B::OsGetpgrp, RuntimeFn::OsGetpgrp, &[], true),
    ext(B::OsSetsid, RuntimeFn::OsSetsid, &[], true),
    ext(B::OsGetuid, RuntimeFn::OsGetuid, &[], true),
    ext(B::OsGeteuid, RuntimeFn::OsGeteuid, &[], true),
    ext(B::OsGetgid, RuntimeFn::OsGetgid, &[], true),
    ext(B::OsGetegid, RuntimeFn::OsGetegid, &[], true),
    ext(B::OsPathExists, RuntimeFn::OsPathExists, &[Str], true),
    ext(B::OsPathIsdir, RuntimeFn::OsPathIsdir, &[Str], true),
    ext(B::OsPathIsfile, RuntimeFn::OsPathIsfile, &[Str], true),
    ext(B::OsStatInt, RuntimeFn::OsStatInt, &[Str, Int], true),
    ext(B::OsStatFloat, RuntimeFn::OsStatFloat, &[Str, Int], true),
    ext(B::OsFstatInt, RuntimeFn::OsFstatInt, &[Int, Int], true),
    ext(B::OsFstatFloat, RuntimeFn::OsFstatFloat, &[Int, Int], true),
];

impl RTyper<'_> {
    /// The call of built-in `id` when it is one of the table's externals; `None`
    /// otherwise.
    pub(super) fn rtype_external(&mut self, hop: &mut Hop, llops: &mut LlOps, id: B) -> Option<R> {
        let e = EXTERNALS.iter().find(|e| e.id == id)?;
        Some(self.call_external(hop, llops, e))
    }

    fn call_external(&mut self, hop: &mut Hop, llops: &mut LlOps, e: &External) -> R {
        let si = self.intern_repr(Repr::Int(IntKind::Signed));
        let rs = self.intern_repr(Repr::Str);
        let mut args = Vec::with_capacity(e.args.len());
        for (i, a) in e.args.iter().enumerate() {
            args.push(match a {
                Arg::Int => self.inputarg(llops, hop, i, si)?,
                Arg::Str => self.inputarg(llops, hop, i, rs)?,
                Arg::IntOr(d) if i >= hop.nargs() => cint(*d),
                Arg::IntOr(_) => self.inputarg(llops, hop, i, si)?,
            });
        }
        if e.f.raises().iter().any(|x| self.catches(hop, x)) {
            hop.exception_is_here(llops);
        }
        if e.returns {
            let rr = hop.r_result;
            let tr = self.lltype(rr);
            Ok((self.rt_call(llops, e.f, args, tr), rr))
        } else {
            self.rt_call(llops, e.f, args, LlType::VOID);
            let void = self.intern_repr(Repr::Void);
            Ok((cvoid(), void))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EXTERNALS;

    #[test]
    fn one_row_per_builtin() {
        let mut seen = crate::fasthash::HashSet::default();
        for e in EXTERNALS {
            assert!(seen.insert(e.id), "{} twice", e.id.name());
        }
    }
}
