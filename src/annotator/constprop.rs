//! Constant propagation through the built-in conversions `int`, `float`, `chr`, `unichr`
//! and `unicode`, as the reference's annotator does (its `constpropagate`): when the
//! argument is a prebuilt constant, the call is made at translation time and its result is
//! the constant the annotation carries (so `getattr(x, chr(120))` has a constant name, and a
//! test on `float(0)` decides its branch). The call is the object space's own
//! implementation of the built-in (the registry of `objspace::builtins`), so a conversion
//! has one definition. A call that raises (`chr(300)`, `float("abc")`, `unicode("\xff")`)
//! folds to nothing: the annotation stays a plain value and the error is the translated
//! program's, at run time.

use super::annrpython::Annotator;
use super::model::SomeValue;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Object, Value};

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// The constant annotation of `id(arg)` for a constant `arg`, or `result` unchanged.
    pub(super) fn constpropagate(
        &mut self,
        id: B,
        arg: &SomeValue,
        result: SomeValue,
    ) -> SomeValue {
        self.constpropagate_args(id, std::slice::from_ref(arg), result)
    }

    /// [`Self::constpropagate`] of a call with several arguments (`int("7FC0", 16)`, PySNES's
    /// ROM header offset): folded when every argument is a constant.
    pub(super) fn constpropagate_args(
        &mut self,
        id: B,
        args: &[SomeValue],
        result: SomeValue,
    ) -> SomeValue {
        let mut ks = Vec::with_capacity(args.len());
        for arg in args {
            if !arg.is_immutable_constant() {
                return result;
            }
            let Some(k) = arg.konst() else { return result };
            ks.push(k);
        }
        let Some(v) = self.space.call_builtin_const(id, ks) else {
            return result;
        };
        // a long (`int(1e19)`) is refused before this (`int_of_constant`); one that
        // slipped through stays a plain integer rather than a constant of the wrong type
        if let Value::Obj(o) = v {
            if matches!(self.space.heap().get(o), Object::Long(_)) {
                return result;
            }
        }
        self.bk
            .immutablevalue(self.space.heap(), v)
            .unwrap_or(result)
    }
}
