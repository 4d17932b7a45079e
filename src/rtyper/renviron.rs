//! `os.environ` after translation. At import time it is a dict (the bundled `os` model's
//! snapshot); in the translated program it is the running process's environment, as the
//! reference's controller of it (`rposix_environ`): `environ[k]`, `environ.get(k)`,
//! `environ[k] = v` and `del environ[k]` call the C library (`getenv`, `setenv`,
//! `unsetenv`) through runtime functions, so a compiled program sees the variables it is
//! started with, not those of the machine that translated it. `keys()` and `items()`
//! list the environment when they are called (in its order: a variable the program adds
//! comes last), through the helpers of `ll_os.py`.

use super::hop::{cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::flowspace::Hlvalue;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::LlType;
use crate::objspace::object::Value;

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    /// Whether `s` is the annotation of `os.environ` (the prebuilt dict the annotator
    /// knows as the environment), or of one of its bound methods.
    pub(super) fn is_os_environ(&self, s: &SomeValue) -> bool {
        match s {
            SomeValue::BuiltinMethod { s_self, .. } => self.is_os_environ(s_self),
            SomeValue::Dict {
                konst: Some(Value::Obj(d)),
                ..
            } => Some(*d) == self.ann.bookkeeper.os_environ,
            _ => false,
        }
    }

    /// `os.environ[k]`: the variable's value, KeyError when it is not set.
    pub(super) fn rtype_environ_getitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        self.environ_call(hop, llops, RuntimeFn::OsEnvironGetitem, &["KeyError"], true)
    }

    /// `os.environ.get(k)`: the value, or None (a null string) when it is not set.
    pub(super) fn rtype_environ_get(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        // the method's arguments start at 0 (the dict is the bound self)
        let rs = self.intern_repr(Repr::Str);
        let k = self.inputarg(llops, hop, 0, rs)?;
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        Ok((
            self.rt_call(llops, RuntimeFn::OsEnvironGet, vec![k], tr),
            rr,
        ))
    }

    /// `os.environ.keys()` and `items()`: lists of the environment as it is now.
    pub(super) fn rtype_environ_list(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        id: crate::builtins::BuiltinId,
    ) -> R {
        let base = if id == crate::builtins::BuiltinId::DictKeys {
            "ll_environ_keys"
        } else {
            "ll_environ_items"
        };
        let rr = hop.r_result;
        Ok((self.new_list_call(llops, base, rr, vec![])?, rr))
    }

    /// `os.environ[k] = v`: setenv (OSError when it fails).
    pub(super) fn rtype_environ_setitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        self.environ_call(hop, llops, RuntimeFn::OsEnvironSetitem, &["OSError"], false)
    }

    /// `del os.environ[k]`: unsetenv, then KeyError if it was not set.
    pub(super) fn rtype_environ_delitem(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let raises = ["KeyError", "OSError"];
        self.environ_call(hop, llops, RuntimeFn::OsEnvironDelitem, &raises, false)
    }

    /// The call of `f` with the item operation's key (and value) as strings.
    fn environ_call(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        f: RuntimeFn,
        raises: &[&'static str],
        returns: bool,
    ) -> R {
        let rs = self.intern_repr(Repr::Str);
        let mut args = Vec::new();
        for i in 1..hop.nargs() {
            args.push(self.inputarg(llops, hop, i, rs)?);
        }
        if raises.iter().any(|x| self.has_implicit_exception(hop, x)) {
            hop.exception_is_here(llops);
        }
        if returns {
            let tr = self.lltype(rs);
            return Ok((self.rt_call(llops, f, args, tr), rs));
        }
        self.rt_call(llops, f, args, LlType::VOID);
        let void = self.intern_repr(Repr::Void);
        Ok((cvoid(), void))
    }
}
