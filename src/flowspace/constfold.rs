//! Constant folding in the flow space: which constants may be folded, folding a pure
//! operation on them (or the error it raises), and the model modules' names the reference
//! does not have. Takes the constant arguments of an operation; gives its folded result,
//! or `None` when the operation must be recorded.

use super::flowcontext::FlowContext;
use super::model::*;
use crate::interpreter::{ConcreteSpace, Op, OpResult, Space, Unwind};
use crate::objspace::object::{Object, Value};

impl<C: ConcreteSpace> FlowContext<'_, C> {
    /// Whether a constant may be folded (immutable from the flow space's point of view).
    /// The names a bundled model module declares as all the reference translates
    /// (`_rpy_complete_ = ("time", ...)`), as text for a message; `None` for any other
    /// module, whose missing names are only unknown.
    pub(super) fn complete_model_surface(&self, module: Value) -> Option<String> {
        let heap = self.objspace.heap();
        let Value::Obj(m) = module else { return None };
        let Object::Module(m) = heap.get(m) else {
            return None;
        };
        if !m.bundled {
            return None;
        }
        let Some(Value::Obj(t)) = m.dict.get("_rpy_complete_") else {
            return None;
        };
        let Object::Tuple(items) = heap.get(t) else {
            return None;
        };
        let names: Vec<String> = items
            .iter()
            .filter_map(|&v| heap.str_value(v))
            .map(|n| format!("{}.{}", m.name, String::from_utf8_lossy(n)))
            .collect();
        Some(names.join(", "))
    }

    /// Whether `v` is a number or a string (`print` folds its str()).
    pub(super) fn is_scalar_const(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return true };
        matches!(
            self.objspace.heap().get(id),
            Object::Str(_)
                | Object::Unicode(_)
                | Object::Long(_)
                | Object::RInt { .. }
                | Object::Complex(..)
        )
    }

    /// Whether a bundled model module declares `name` absent from the reference's module
    /// (`_rpy_absent_ = ("disable", ...)` in `rgc`: names of newer rpythons that 0.2.1's
    /// module lacks, whose getattr the reference's flow space finds always raising).
    pub(super) fn absent_from_reference(&self, module: Value, name: Value) -> bool {
        let heap = self.objspace.heap();
        let (Value::Obj(m), Some(name)) = (module, heap.str_value(name)) else {
            return false;
        };
        let Object::Module(m) = heap.get(m) else {
            return false;
        };
        let Some(Value::Obj(t)) = m.dict.get("_rpy_absent_") else {
            return false;
        };
        match heap.get(t) {
            Object::Tuple(items) => items.iter().any(|&v| heap.str_value(v) == Some(name)),
            _ => false,
        }
    }

    pub(super) fn foldable(&self, v: Value) -> bool {
        match v {
            Value::Obj(id) => match self.objspace.heap().get(id) {
                Object::Instance(inst) => {
                    // Prebuilt instances are mutable unless frozen with `_freeze_`; an
                    // instance of a built-in class (a bare `object()` sentinel) is folded
                    // as the reference folds any `__builtin__` object.
                    let heap = self.objspace.heap();
                    heap.class(inst.class).is_some_and(|c| {
                        c.builtin == Some(crate::objspace::object::BuiltinType::Object)
                            || c.mro.iter().any(|&k| {
                                heap.class(k).is_some_and(|k| k.dict.contains("_freeze_"))
                            })
                    })
                }
                Object::BoundMethod { self_value, .. } => self.foldable(*self_value),
                // (a bytearray's every use is a copy of the prebuilt one, whose reads give
                // the import-time bytes anyway: left to the RTyper)
                Object::Iterator(_) | Object::Cell(_) | Object::ByteArray(_) => false,
                // r_uint, r_longlong...: instances of a class of rarithmetic, not of
                // `__builtin__`, so the reference records their operations (`TOP + 1 < 0`
                // is computed by the program, a comparison prints as 1/0, not True)
                Object::RInt { .. } => false,
                // an instance of a user subclass of `tuple` is a user-created instance
                Object::Tuple(_) if self.objspace.heap().tuple_class(id).is_some() => false,
                // an instance of a user class (deriving from a built-in type) stays an
                // instance for the annotator
                Object::Unknown {
                    instance_of: Some(_),
                    ..
                } => false,
                // a C constant of unknown value (`rffi_platform`): the annotator computes on
                // its type
                Object::Unknown { .. } if self.objspace.heap().opaque(id).is_some() => false,
                // `os.environ[k]` reads the environment of the running program
                Object::Dict(_) => !self.objspace.is_os_environ(id),
                // a weak dictionary made at import time is filled by the running program
                Object::Builtin {
                    id:
                        crate::builtins::BuiltinId::WeakValueDictPrebuilt
                        | crate::builtins::BuiltinId::WeakKeyDictPrebuilt,
                    ..
                } => false,
                _ => true,
            },
            _ => true,
        }
    }

    pub(super) fn describe(&mut self, v: Value) -> String {
        match Space::op(self.objspace, Op::Repr, &[v]) {
            Ok(r) => self
                .objspace
                .heap()
                .str_value(r)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .unwrap_or_default(),
            Err(_) => "?".into(),
        }
    }

    /// Folds `op` on constant arguments with the concrete space, as the reference does.
    pub(super) fn constfold(&mut self, op: Op, consts: &[Value]) -> Option<OpResult<Hlvalue>> {
        // an operation that can overflow gives a long when an argument is one: the
        // reference leaves it an operation (nor does rpy-lsp compute one beyond 128 bits)
        let overflowing = matches!(
            op,
            Op::Add
                | Op::Sub
                | Op::Mul
                | Op::FloorDiv
                | Op::Div
                | Op::Mod
                | Op::LShift
                | Op::Neg
                | Op::Abs
        );
        if overflowing && consts.iter().any(|&c| self.is_long(c)) {
            return None;
        }
        match Space::op(self.objspace, op, consts) {
            Ok(v) => {
                // `C.f` is the function itself in the graph (an unbound method only
                // matters to import-time code)
                let v = match v {
                    Value::Obj(id) => match self.objspace.heap().get(id) {
                        Object::UnboundMethod { func, .. } => *func,
                        _ => v,
                    },
                    _ => v,
                };
                // As the reference: the long result of an operation that can overflow stays
                // an operation (it is probably meant for an intmask()); another operation's
                // long is a constant (`(1 << 999) >> 990` is 512L), unless rpy-lsp did not
                // compute its value.
                if (overflowing && self.is_long(v)) || self.is_uncomputed_long(v) {
                    return None;
                }
                if op == Op::GetSlice
                    && matches!(v, Value::Obj(id) if matches!(self.objspace.heap().get(id), Object::List(_)))
                {
                    return None;
                }
                Some(Ok(Hlvalue::Const(v)))
            }
            // int()/float() are calls of the built-in types in the reference, folded only
            // when they succeed: a failing one stays an operation that raises at run time.
            Err(Unwind::Raise { .. }) if matches!(op, Op::Int | Op::Float) => None,
            Err(Unwind::Raise { etype, evalue }) => {
                let args: Vec<String> = consts.iter().map(|&c| self.describe(c)).collect();
                let ename = match etype {
                    Value::Obj(id) => self
                        .objspace
                        .heap()
                        .class(id)
                        .map(|c| c.name.to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let emsg = match Space::op(self.objspace, Op::Str, &[evalue]) {
                    Ok(s) => self
                        .objspace
                        .heap()
                        .str_value(s)
                        .map(|s| String::from_utf8_lossy(s).into_owned())
                        .unwrap_or_default(),
                    Err(_) => String::new(),
                };
                Some(Err(self.error(
                    "RPY108",
                    format!(
                        "{}({}) always raises {}: {}",
                        op.name(),
                        args.join(", "),
                        ename,
                        emsg
                    ),
                )))
            }
            Err(_) => None,
        }
    }

    /// Whether `v` is a Python 2 long (one beyond rpy-lsp's 128-bit integers included).
    fn is_long(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return false };
        match self.objspace.heap().get(id) {
            Object::Long(_) => true,
            Object::Unknown { name, .. } => {
                matches!(
                    &**name,
                    crate::objspace::BIG_LONG | crate::objspace::LONG_RESULT
                )
            }
            _ => false,
        }
    }

    /// Whether `v` is a long whose value rpy-lsp did not compute (beyond its model).
    fn is_uncomputed_long(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return false };
        match self.objspace.heap().get(id) {
            Object::Unknown { name, .. } => {
                &**name == crate::objspace::LONG_RESULT
                    || (&**name == crate::objspace::BIG_LONG
                        && self.objspace.heap().big_long(id).is_none())
            }
            _ => false,
        }
    }

    pub(super) fn is_unrolling(&self, v: Value) -> bool {
        let Value::Obj(id) = v else { return false };
        match self.objspace.heap().get(id) {
            Object::Instance(inst) => self
                .objspace
                .heap()
                .class(inst.class)
                .is_some_and(|c| &*c.name == "unrolling_iterable"),
            _ => false,
        }
    }
}
