//! The weak dictionaries of `rpython.rlib.rweakref` (the reference's `SomeWeakValueDict`
//! and `SomeWeakKeyDict`): their construction from the key and value classes, and their
//! methods `get`, `set` and (for the key dictionary) `length`.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::description::Desc;
use super::model::*;
use super::{AnnError, Bookkeeper};
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Heap;
use crate::objspace::object::Value;
use std::rc::Rc;

use SomeValue as S;

fn bad(msg: String) -> AnnError {
    AnnError::new("RPY218", msg)
}

impl Bookkeeper {
    /// The class definition of a class given as a constant (`Node`), if it is one.
    fn const_classdef(
        &mut self,
        heap: &Heap,
        s: &SomeValue,
    ) -> Result<Option<ClassDefId>, AnnError> {
        match s {
            S::Pbc { descs, .. }
                if descs.len() == 1 && matches!(self.desc(descs[0]), Desc::Class(_)) =>
            {
                Ok(Some(self.classdef_of_desc(heap, descs[0])?))
            }
            _ => Ok(None),
        }
    }

    /// `RWeakValueDictionary(keyclass, valueclass)`, `RWeakKeyDictionary(keyclass,
    /// valueclass)`, called in translated code or at import time (a prebuilt one).
    pub(super) fn weakdict_of(
        &mut self,
        heap: &Heap,
        id: B,
        p: &[SomeValue],
    ) -> Result<SomeValue, AnnError> {
        let name = id.short_name();
        if p.len() != 2 {
            return Err(bad(format!("{name}() takes a key class and a value class")));
        }
        let Some(value) = self.const_classdef(heap, &p[1])? else {
            return Err(bad(format!(
                "the value class of {name}() must be an RPython class"
            )));
        };
        let key = self.const_classdef(heap, &p[0])?;
        if id == B::RweakrefRWeakKeyDictionary {
            let Some(key) = key else {
                return Err(bad(format!(
                    "the key class of {name}() must be an RPython class"
                )));
            };
            return Ok(S::WeakKeyDict { key, value });
        }
        let s_key = match (key, &p[0]) {
            (Some(cd), _) => SomeValue::instance(cd),
            (
                None,
                S::Type {
                    konst: Some(Value::Obj(cls)),
                    ..
                },
            ) => match &*Bookkeeper::class_name(heap, *cls) {
                "str" => SomeValue::string(),
                "int" => SomeValue::int(),
                "unicode" => SomeValue::unicode(false),
                other => {
                    return Err(bad(format!(
                        "{name}() with keys of type `{other}` is not supported by rpy-lsp"
                    )))
                }
            },
            _ => {
                return Err(bad(format!(
                    "the key class of {name}() must be a class or a type"
                )))
            }
        };
        Ok(S::WeakValueDict {
            key: Rc::new(s_key),
            value,
        })
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `RWeakValueDictionary(keyclass, valueclass)`, `RWeakKeyDictionary(keyclass,
    /// valueclass)`.
    pub(super) fn weakdict_new(&mut self, id: B, p: &[SomeValue]) -> Result<SomeValue, AnnError> {
        self.bk.weakdict_of(self.space.heap(), id, p)
    }

    /// `get`, `set` and `length` of a weak dictionary.
    pub(super) fn weakdict_getattr(
        &self,
        obj: &SomeValue,
        name: &str,
    ) -> Result<SomeValue, AnnError> {
        let id = match name {
            "get" => B::WeakDictGet,
            "set" => B::WeakDictSet,
            "length" if matches!(obj, S::WeakKeyDict { .. }) => B::WeakDictLength,
            _ => {
                return Err(AnnError::new(
                    "RPY204",
                    format!(
                        "{} has no attribute `{}` in RPython",
                        obj.reference_name(),
                        name
                    ),
                ))
            }
        };
        Ok(SomeValue::builtin_method(id, obj.clone()))
    }

    /// A call of a weak dictionary's method.
    pub(super) fn weakdict_method(
        &mut self,
        id: B,
        s_self: &SomeValue,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let value = match s_self {
            S::WeakValueDict { value, .. } | S::WeakKeyDict { value, .. } => *value,
            _ => return Ok(S::Impossible),
        };
        let (nargs, short) = match id {
            B::WeakDictGet => (1, "get"),
            B::WeakDictSet => (2, "set"),
            _ => (0, "length"),
        };
        if p.len() != nargs || !args.keywords.is_empty() {
            return Err(bad(format!(
                "{short}() of a weak dictionary takes {nargs} argument(s)"
            )));
        }
        if let S::WeakKeyDict { key, .. } = s_self {
            if let Some(S::Instance { classdef, .. }) = p.first() {
                if !self.bk.issubclass_def(*classdef, *key) {
                    return Err(bad(format!(
                        "a key of this RWeakKeyDictionary must be an instance of {}",
                        self.bk.classdef(*key).name
                    )));
                }
            }
        }
        match id {
            B::WeakDictGet => Ok(S::Instance {
                classdef: value,
                can_be_none: true,
                konst: None,
            }),
            B::WeakDictSet => {
                let ok = match &p[1] {
                    S::None | S::Impossible => true,
                    S::Instance { classdef, .. } => self.bk.issubclass_def(*classdef, value),
                    s => s.is_error(),
                };
                if !ok {
                    return Err(bad(format!(
                        "a value of this weak dictionary must be an instance of {} or None",
                        self.bk.classdef(value).name
                    )));
                }
                Ok(S::None)
            }
            _ => Ok(SomeValue::nonneg_int()),
        }
    }
}
