//! What an operation can raise, by its arguments' annotations: the reference's
//! `can_only_throw` attributes of its annotation functions (`getitem` of a list raises only
//! IndexError, of a dict only KeyError...). The reference's annotator follows an exception
//! link of the block's raising operation only when its class can catch one of these; with
//! no list (`None`: calls of functions, most methods) it may raise any Exception. The
//! RTyper's check of `has_implicit_exception` reads the links that survive this.

use super::model::SomeValue;
use super::Bookkeeper;
use crate::builtins::BuiltinId as B;
use crate::interpreter::Op;

/// Exceptions of no class: the operation cannot raise.
const NOTHING: &[&str] = &[];
const INDEX_ERROR: &[&str] = &["IndexError"];
const KEY_ERROR: &[&str] = &["KeyError"];

impl Bookkeeper {
    /// The built-in exceptions `op` on arguments `args_s` can raise, or `None` for any.
    pub fn can_only_throw(&self, op: Op, args_s: &[SomeValue]) -> Option<&'static [&'static str]> {
        // a dict with custom equality and hash (`r_dict`) calls user functions: anything
        let plain_dict = |s: &SomeValue| match s {
            SomeValue::Dict { def, .. } => self.r_dict_of(*def).is_none(),
            _ => false,
        };
        let first = args_s.first()?;
        let indexable = |s: &SomeValue| {
            matches!(
                s,
                SomeValue::List { .. }
                    | SomeValue::Str { .. }
                    | SomeValue::Char { .. }
                    | SomeValue::Unicode { .. }
                    | SomeValue::UnicodeCodePoint { .. }
                    | SomeValue::Tuple(_)
            )
        };
        let int_index = matches!(
            args_s.get(1),
            Some(SomeValue::Integer { .. } | SomeValue::Bool { .. })
        );
        match op {
            Op::GetItem if indexable(first) && int_index => Some(INDEX_ERROR),
            Op::SetItem | Op::DelItem if matches!(first, SomeValue::List { .. }) && int_index => {
                Some(INDEX_ERROR)
            }
            Op::GetItem | Op::DelItem if plain_dict(first) => Some(KEY_ERROR),
            Op::SetItem if plain_dict(first) => Some(NOTHING),
            Op::Contains if matches!(first, SomeValue::Dict { .. }) => {
                plain_dict(first).then_some(NOTHING)
            }
            Op::Contains | Op::Iter => Some(NOTHING),
            Op::Next => iterator_next(first),
            Op::SimpleCall | Op::CallArgs => match first {
                SomeValue::BuiltinMethod { id, s_self } => match id {
                    B::IteratorNext => iterator_next(s_self),
                    B::ListPop => Some(INDEX_ERROR),
                    B::StrEncode | B::UnicodeEncode => Some(&["UnicodeEncodeError"]),
                    B::StrDecode | B::UnicodeDecode => Some(&["UnicodeDecodeError"]),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// `next` of an iterator: the end of the iteration, and for a dict's the dict changing size.
fn iterator_next(s_it: &SomeValue) -> Option<&'static [&'static str]> {
    match s_it {
        SomeValue::Iterator { container, .. } => {
            Some(if matches!(**container, SomeValue::Dict { .. }) {
                &["StopIteration", "RuntimeError"]
            } else {
                &["StopIteration"]
            })
        }
        _ => None,
    }
}
