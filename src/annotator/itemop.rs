//! Operations on containers: `in`, the keys a dict takes, item and slice access (get, set,
//! delete). Arithmetic, comparisons and `%` formatting are in `binaryop`.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use super::unaryop::type_word;
use super::AnnError;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Value;
use std::rc::Rc;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    pub fn op_contains(
        &mut self,
        op: &SpaceOperation,
        container: &SomeValue,
        item: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        match container {
            S::List { def, .. } => {
                self.bk.generalize_list(self.space.heap(), *def, item)?;
                Ok(SomeValue::bool())
            }
            S::Dict { def, .. } => {
                self.dict_key(*def, item)?;
                // As the reference: a dict that nothing ever stores into contains nothing,
                // so `k in d` is the constant False and the branch it guards is never
                // annotated (reading key and value here re-flows this test once the dict
                // gets an item).
                let key = self.bk.read_dict_key(*def);
                let value = self.bk.read_dict_value(*def);
                if key.is_impossible() || value.is_impossible() {
                    return Ok(SomeValue::const_bool(false));
                }
                Ok(SomeValue::bool())
            }
            S::Str { .. } | S::Char { .. } => {
                // str and unicode mix here (the typer searches one in the other).
                if !item.is_str_like() && !item.is_unicode_like() {
                    return Err(AnnError::new(
                        "RPY205",
                        format!("`in` a string needs a string on the left, not {}", self.bk.describe_type(self.space.heap(), item)),
                    ).at_typer());
                }
                let ktd = match (op.args[0], item.konst().and_then(|c| self.heap().str_value(c)).map(|s| s == b"\0")) {
                    (Hlvalue::Var(v), Some(true)) => Some(Rc::new(vec![(false, v, SomeValue::string0(true))])),
                    _ => None,
                };
                Ok(S::Bool { konst: None, ktd })
            }
            // a byte is looked for as a one-character string: the RPython typer has no
            // test of an int in a bytearray
            S::ByteArray => {
                if matches!(item, S::Char { .. }) || item.is_error() || item.is_impossible() {
                    return Ok(SomeValue::bool());
                }
                Err(AnnError::new(
                    "RPY205",
                    format!(
                        "`in` a bytearray needs a one-character string on the left, not {} (the RPython typer has no other test)",
                        self.bk.describe_type(self.space.heap(), item)
                    ),
                ).at_typer())
            }
            S::Unicode { .. } | S::UnicodeCodePoint { .. } => {
                if !item.is_unicode_like() && !item.is_str_like() {
                    return Err(AnnError::new(
                        "RPY205",
                        format!("`in` a unicode string needs a string on the left, not {}", self.bk.describe_type(self.space.heap(), item)),
                    ));
                }
                Ok(SomeValue::bool())
            }
            S::Tuple(items) => {
                // As the reference: a tuple of constants (prebuilt instances too) is a
                // constant, whose items the typer compares one by one.
                let constant = items
                    .iter()
                    .all(|s| s.is_immutable_constant() || s.konst().is_some() || self.bk.pbc_const(s).is_some());
                if constant {
                    Ok(SomeValue::bool())
                } else {
                    Err(AnnError::new("RPY205", "`in` a tuple that is not a constant is not supported".into()))
                }
            }
            S::None => Ok(SomeValue::const_bool(false)),
            S::Instance { classdef, .. } => Err(AnnError::new(
                "RPY205",
                format!("`in` on instances of `{}` is not supported: __contains__ is not honoured by RPython", self.bk.classdef(*classdef).name),
            )
            .at_typer()),
            other => Err(AnnError::new("RPY205", format!("`in` {}: it is not a container", self.bk.describe_type(self.space.heap(), other)))),
        }
    }

    /// Generalizes a dict's keys to `key`, which must be hashable (unless the dict is an
    /// r_dict, which hashes with its own function).
    pub fn dict_key(&mut self, def: DictDefId, key: &SomeValue) -> Result<(), AnnError> {
        // Lists and dicts have no hash function, nor tuples containing them.
        fn unhashable(s: &SomeValue) -> bool {
            match s {
                S::List { .. } | S::Dict { .. } | S::ByteArray => true,
                S::Tuple(items) => items.iter().any(unhashable),
                _ => false,
            }
        }
        // an r_dict hashes its keys with its own function: a list key is fine there
        if unhashable(key) && self.bk.r_dict_of(def).is_none() {
            return Err(AnnError::new(
                "RPY205",
                format!(
                    "{} cannot be a dict key: it is not hashable (lists, dicts and bytearrays have no hash in RPython; use a tuple of their items, or a string)",
                    self.bk.describe_type(self.space.heap(), key)
                ),
            ).at_typer());
        }
        // keys keep their constness, as in the reference's dictdef (a dict whose only key
        // is one constant reads that constant back)
        self.bk.generalize_key(self.space.heap(), def, key)?;
        Ok(())
    }

    // ----- items -----

    pub fn op_getitem(&mut self, obj: &SomeValue, idx: &SomeValue) -> Result<SomeValue, AnnError> {
        match (obj, idx) {
            (S::List { def, .. }, i) if i.is_int_like() => Ok(self.bk.read_list_item(*def)),
            (S::Dict { def, .. }, k) => {
                self.dict_key(*def, k)?;
                Ok(self.bk.read_dict_value(*def))
            }
            (S::Str { no_nul, .. } | S::Char { no_nul, .. }, i) if i.is_int_like() => {
                Ok(SomeValue::char(*no_nul))
            }
            (S::Unicode { no_nul, .. } | S::UnicodeCodePoint { no_nul, .. }, i)
                if i.is_int_like() =>
            {
                Ok(SomeValue::unichar(*no_nul))
            }
            // a bytearray's items are ints (bytes), not characters
            (S::ByteArray, i) if i.is_int_like() => Ok(SomeValue::int()),
            (S::Tuple(items), i) if i.is_int_like() => match i.konst() {
                Some(Value::Int(n)) => {
                    let len = items.len() as i64;
                    let k = if n < 0 { n + len } else { n };
                    Ok(if (0..len).contains(&k) {
                        items[k as usize].clone()
                    } else {
                        SomeValue::Impossible
                    })
                }
                Some(Value::Bool(b)) => Ok(items
                    .get(b as usize)
                    .cloned()
                    .unwrap_or(SomeValue::Impossible)),
                _ => {
                    let e = AnnError::new(
                        "RPY205",
                        "indexing a tuple needs a constant index: each position of a tuple has its own type".into(),
                    );
                    // the reference's annotator takes the union of the items (a union error
                    // when they do not mix); only its typer refuses the variable index
                    Err(if self.bk.compatible_all(self.space.heap(), items) {
                        e.at_typer()
                    } else {
                        e
                    })
                }
            },
            (S::Instance { .. }, _) => {
                self.call_instance_method(obj, "__getitem__", &ArgsS::simple(vec![idx.clone()]))
            }
            (S::None, _) => Ok(SomeValue::Impossible),
            (
                S::List { .. }
                | S::Str { .. }
                | S::Char { .. }
                | S::Unicode { .. }
                | S::ByteArray
                | S::Tuple(_),
                i,
            ) => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} indices must be integers, not {}",
                    type_word(obj),
                    self.bk.describe_type(self.space.heap(), i)
                ),
            )),
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} cannot be indexed",
                    self.bk.describe_type(self.space.heap(), obj)
                ),
            )),
        }
    }

    pub fn op_setitem(
        &mut self,
        obj: &SomeValue,
        idx: &SomeValue,
        value: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        match (obj, idx) {
            (S::List { def, .. }, i) if i.is_int_like() => {
                self.bk.mutate_list(self.space.heap(), *def, false)?;
                self.bk.generalize_list(self.space.heap(), *def, value)?;
                Ok(S::None)
            }
            (S::Dict { def, .. }, k) => {
                self.bk.mutate_dict(self.space.heap(), *def);
                self.dict_key(*def, k)?;
                // values keep their constness, as in the reference's dictdef
                self.bk.generalize_value(self.space.heap(), *def, value)?;
                Ok(S::None)
            }
            (S::ByteArray, i) if i.is_int_like() => {
                // only ints are stored (the low byte of each); not even a char
                if value.is_int_like() || value.is_error() || value.is_impossible() {
                    return Ok(S::None);
                }
                Err(AnnError::new(
                    "RPY205",
                    format!(
                        "a bytearray item must be an int (a byte), not {}: use ord()",
                        self.bk.describe_type(self.space.heap(), value)
                    ),
                ))
            }
            (S::Instance { .. }, _) => {
                self.call_instance_method(
                    obj,
                    "__setitem__",
                    &ArgsS::simple(vec![idx.clone(), value.clone()]),
                )?;
                Ok(S::None)
            }
            (
                S::Str { .. } | S::Char { .. } | S::Unicode { .. } | S::UnicodeCodePoint { .. },
                _,
            ) => Err(AnnError::new(
                "RPY205",
                "strings are immutable: item assignment is not possible".into(),
            )),
            (S::Tuple(_), _) => Err(AnnError::new(
                "RPY205",
                "tuples are immutable: item assignment is not possible".into(),
            )),
            (S::None, _) => Ok(S::None),
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "item assignment on {} is not supported",
                    self.bk.describe_type(self.space.heap(), obj)
                ),
            )),
        }
    }

    pub fn op_delitem(&mut self, obj: &SomeValue, idx: &SomeValue) -> Result<SomeValue, AnnError> {
        match obj {
            S::List { def, .. } if idx.is_int_like() => {
                self.bk.mutate_list(self.space.heap(), *def, true)?;
                Ok(S::None)
            }
            S::Dict { def, .. } => {
                self.bk.mutate_dict(self.space.heap(), *def);
                self.dict_key(*def, idx)?;
                Ok(S::None)
            }
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "`del x[i]` on {} is not supported",
                    self.bk.describe_type(self.space.heap(), obj)
                ),
            )),
        }
    }

    // ----- slices -----

    fn check_slice(&self, start: &SomeValue, stop: &SomeValue, what: &str) -> Result<(), AnnError> {
        let heap = self.space.heap();
        let shown = |s: &SomeValue| match s.konst() {
            Some(Value::Int(i)) => format!("it is {}", i),
            _ => format!("it may be negative: {}", self.bk.describe(heap, s)),
        };
        if start.is_int_like() && !start.is_nonneg() {
            return Err(AnnError::new(
                "RPY209",
                format!(
                    "{}: the start index is not proven non-negative ({}); RPython needs a constant >= 0 or a value known to be non-negative (check it with `if i >= 0:` or `assert i >= 0` first)",
                    what,
                    shown(start)
                ),
            ));
        }
        // A float bound passes: the reference's annotator only checks integers, and its
        // RTyper converts a float to a machine int (SwiftOrtho's `hits[:v * 1.1]`).
        let bound_ok = |s: &SomeValue| {
            s.is_int_like() || matches!(s, S::None | S::Float { .. }) || s.is_error()
        };
        // A constant float bound is the RTyper's error: it makes the constant a machine int
        // without converting it (`not an integer: 1.0`).
        for s in [start, stop] {
            if let S::Float { konst: Some(_) } = s {
                return Err(AnnError::new(
                    "RPY205",
                    format!("{what}: a constant float slice index is not an integer"),
                )
                .at_typer());
            }
        }
        if !bound_ok(start) {
            return Err(AnnError::new(
                "RPY205",
                format!("{}: slice indices must be integers", what),
            ));
        }
        if stop.is_int_like() && !stop.is_nonneg() && stop.konst() != Some(Value::Int(-1)) {
            return Err(AnnError::new(
                "RPY209",
                format!(
                    "{}: the stop index is not proven non-negative ({}); only a non-negative value or the constant -1 is allowed (check it with `assert stop >= 0` first)",
                    what,
                    shown(stop)
                ),
            ));
        }
        if !bound_ok(stop) {
            return Err(AnnError::new(
                "RPY205",
                format!("{}: slice indices must be integers", what),
            ));
        }
        // The typer has `x[:-1]` (from the start), not `x[i:-1]`.
        let from_start = matches!(start, S::None) || start.konst() == Some(Value::Int(0));
        if stop.konst() == Some(Value::Int(-1)) && !stop.is_nonneg() && !from_start {
            return Err(AnnError::new(
                "RPY209",
                format!(
                    "{}: a stop of -1 is only supported from the start of the sequence (`x[:-1]`); with a start index, compute the stop (`stop = len(x) - 1`, then `assert stop >= 0`)",
                    what
                ),
            ).at_typer());
        }
        Ok(())
    }

    pub fn op_getslice(
        &mut self,
        obj: &SomeValue,
        start: &SomeValue,
        stop: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        match obj {
            S::List { def, .. } => {
                self.check_slice(start, stop, "slicing")?;
                self.bk.offspring(self.space.heap(), &[*def])
            }
            S::Str { no_nul, .. } | S::Char { no_nul, .. } => {
                self.check_slice(start, stop, "slicing")?;
                Ok(SomeValue::string0(*no_nul))
            }
            S::Unicode { no_nul, .. } | S::UnicodeCodePoint { no_nul, .. } => {
                self.check_slice(start, stop, "slicing")?;
                Ok(SomeValue::unicode(*no_nul))
            }
            S::ByteArray => {
                self.check_slice(start, stop, "slicing")?;
                Ok(SomeValue::bytearray())
            }
            S::Tuple(items) => {
                let bound = |s: &SomeValue, dflt: i64| -> Option<i64> {
                    match s {
                        S::None => Some(dflt),
                        s => match s.konst() {
                            Some(Value::Int(i)) => Some(i),
                            _ => None,
                        },
                    }
                };
                let len = items.len() as i64;
                let (Some(a), Some(b)) = (bound(start, 0), bound(stop, len)) else {
                    return Err(AnnError::new(
                        "RPY205",
                        "slicing a tuple needs constant bounds".into(),
                    ));
                };
                let norm = |i: i64| (if i < 0 { i + len } else { i }).clamp(0, len) as usize;
                let (a, b) = (norm(a), norm(b));
                Ok(SomeValue::tuple(if a < b {
                    items[a..b].to_vec()
                } else {
                    Vec::new()
                }))
            }
            S::Instance { .. } => self.call_instance_method(
                obj,
                "__getslice__",
                &ArgsS::simple(vec![start.clone(), stop.clone()]),
            ),
            S::None => Ok(SomeValue::Impossible),
            other => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} cannot be sliced",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )),
        }
    }

    pub fn op_setslice(
        &mut self,
        obj: &SomeValue,
        start: &SomeValue,
        stop: &SomeValue,
        value: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        match obj {
            S::List { def, .. } => {
                self.check_slice(start, stop, "slice assignment")?;
                if matches!(stop, S::None) || stop.konst() == Some(Value::Int(-1)) {
                    return Err(AnnError::new(
                        "RPY205",
                        "slice assignment needs an explicit non-negative stop (`lst[a:b] = ...`): the RPython typer does not support `lst[a:] = ...`, `lst[:] = ...` or `lst[:-1] = ...`".into(),
                    ).at_typer());
                }
                let S::List { def: d2, .. } = value else {
                    return Err(AnnError::new(
                        "RPY205",
                        "lst[start:stop] = x: x must be a list".into(),
                    ));
                };
                self.bk.mutate_list(self.space.heap(), *def, true)?;
                self.bk.agree_lists(self.space.heap(), *def, *d2)?;
                Ok(S::None)
            }
            S::Instance { .. } => {
                self.call_instance_method(
                    obj,
                    "__setslice__",
                    &ArgsS::simple(vec![start.clone(), stop.clone(), value.clone()]),
                )?;
                Ok(S::None)
            }
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "slice assignment on {} is not supported",
                    self.bk.describe_type(self.space.heap(), obj)
                ),
            )),
        }
    }

    pub fn op_delslice(
        &mut self,
        obj: &SomeValue,
        start: &SomeValue,
        stop: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        match obj {
            S::List { def, .. } => {
                self.check_slice(start, stop, "slice deletion")?;
                self.bk.mutate_list(self.space.heap(), *def, true)?;
                Ok(S::None)
            }
            _ => Err(AnnError::new(
                "RPY205",
                format!(
                    "slice deletion on {} is not supported",
                    self.bk.describe_type(self.space.heap(), obj)
                ),
            )),
        }
    }
}
