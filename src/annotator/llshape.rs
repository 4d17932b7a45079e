//! The shape of the low-level type the RPython typer gives a value, as far as the checks
//! must tell two such types apart: the typer's `is` compares two pointers of one low-level
//! type only, and two dicts have one type only when their keys, their values and the way
//! their entries mark a free slot agree. `None` where a shape is not modelled (functions,
//! methods, `r_dict`s, `range()` lists...): a check then stays silent rather than guess.

use super::bookkeeper::Bookkeeper;
use super::model::SomeValue;
use crate::objspace::object::IntKind;

/// How the entries of a dict tell a free slot from a used one (the reference's choice,
/// made when its dict type is built): a special key (a pointer key, or a non-negative
/// int key), else a special value, else an extra flag in every entry.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum FreeSlot {
    Key,
    Value,
    Flag,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) enum LlShape {
    Int(IntKind),
    Bool,
    Float,
    Char,
    UniChar,
    Void,
    Str,
    Unicode,
    /// An instance inside a container or a tuple: stored as a pointer to the root class,
    /// whatever its class.
    Object,
    List {
        resizable: bool,
        item: Box<LlShape>,
    },
    Dict {
        key: Box<LlShape>,
        value: Box<LlShape>,
        free: FreeSlot,
    },
    Tuple(Vec<LlShape>),
}

impl LlShape {
    fn is_pointer(&self) -> bool {
        matches!(
            self,
            LlShape::Str
                | LlShape::Unicode
                | LlShape::Object
                | LlShape::List { .. }
                | LlShape::Dict { .. }
                | LlShape::Tuple(_)
        )
    }
}

impl Bookkeeper {
    /// The low-level shape of `s` as an item of a container (instances are stored as the
    /// root class), `None` when not modelled.
    pub(super) fn ll_shape(&self, s: &SomeValue) -> Option<LlShape> {
        Some(match s {
            SomeValue::Integer { kind, .. } => LlShape::Int(*kind),
            SomeValue::Bool { .. } => LlShape::Bool,
            SomeValue::Float { .. } => LlShape::Float,
            SomeValue::Char { .. } => LlShape::Char,
            SomeValue::UnicodeCodePoint { .. } => LlShape::UniChar,
            SomeValue::None => LlShape::Void,
            SomeValue::Str { .. } => LlShape::Str,
            SomeValue::Unicode { .. } => LlShape::Unicode,
            SomeValue::Instance { .. } => LlShape::Object,
            SomeValue::Tuple(items) if !items.is_empty() => LlShape::Tuple(
                items
                    .iter()
                    .map(|i| self.ll_shape(i))
                    .collect::<Option<Vec<_>>>()?,
            ),
            SomeValue::List { def, .. } => {
                let it = self.item(self.list_item(*def));
                if it.range_step.is_some() && !it.mutated {
                    return None;
                }
                LlShape::List {
                    resizable: it.resized,
                    item: Box::new(self.ll_shape(&it.s_value)?),
                }
            }
            SomeValue::Dict { def, .. } => {
                if self.r_dict_of(*def).is_some() {
                    return None;
                }
                let (k, v) = self.dict_items(*def);
                let (sk, sv) = (&self.item(k).s_value, &self.item(v).s_value);
                let (key, value) = (self.ll_shape(sk)?, self.ll_shape(sv)?);
                let special = |shape: &LlShape, s: &SomeValue| {
                    shape.is_pointer()
                        || matches!(
                            s,
                            SomeValue::Integer {
                                nonneg: true,
                                kind: IntKind::Signed,
                                ..
                            }
                        )
                };
                let free = if special(&key, sk) {
                    FreeSlot::Key
                } else if special(&value, sv) {
                    FreeSlot::Value
                } else {
                    FreeSlot::Flag
                };
                LlShape::Dict {
                    key: Box::new(key),
                    value: Box::new(value),
                    free,
                }
            }
            _ => return None,
        })
    }
}
