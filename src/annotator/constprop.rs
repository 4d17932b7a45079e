//! Constant propagation through the built-in conversions `chr`, `unichr`, `float` and
//! `unicode`, as the reference's annotator does (its `constpropagate`): when the argument
//! is a prebuilt constant, the call is made at translation time and its result is the
//! constant the annotation carries (so `getattr(x, chr(120))` has a constant name, and a
//! test on `float(0)` decides its branch). A call that would raise (`chr(300)`,
//! `float("abc")`, `unicode("\xff")`) folds to nothing: the annotation stays a plain value
//! and the error is the translated program's, at run time.

use super::annrpython::Annotator;
use super::model::SomeValue;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Object, Value};
use std::rc::Rc;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// The constant annotation of `id(arg)` for a constant `arg`, or `result` unchanged.
    pub(super) fn constpropagate(
        &mut self,
        id: B,
        arg: &SomeValue,
        result: SomeValue,
    ) -> SomeValue {
        if !arg.is_immutable_constant() {
            return result;
        }
        let Some(k) = arg.konst() else { return result };
        let folded = match id {
            B::Chr => match k {
                Value::Int(i) if (0..256).contains(&i) => {
                    Some(Object::Str(Rc::from(vec![i as u8])))
                }
                _ => None,
            },
            // (a code point beyond the BMP depends on the host Python's build: left alone)
            B::Unichr => match k {
                Value::Int(i) if (0..0x10000).contains(&i) => {
                    Some(Object::Unicode(crate::compiler::UStr::from_codes(vec![
                        i as u32,
                    ])))
                }
                _ => None,
            },
            B::Float => {
                let f = match k {
                    Value::Int(i) => Some(i as f64),
                    Value::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
                    Value::Float(f) => Some(f),
                    Value::Obj(_) => self
                        .space
                        .heap()
                        .str_value(k)
                        .and_then(|b| std::str::from_utf8(b).ok())
                        .and_then(crate::objspace::builtins::numeric::parse_float),
                    Value::None => None,
                };
                return match f {
                    Some(f) => self
                        .bk
                        .immutablevalue(self.space.heap(), Value::Float(f))
                        .unwrap_or(result),
                    None => result,
                };
            }
            B::Int => {
                let i = match k {
                    Value::Int(i) => Some(i),
                    Value::Bool(b) => Some(b as i64),
                    Value::Float(f) if f.is_finite() && f.trunc().abs() < 9.2e18 => {
                        Some(f.trunc() as i64)
                    }
                    Value::Obj(_) => self
                        .space
                        .heap()
                        .str_value(k)
                        .and_then(|b| std::str::from_utf8(b).ok())
                        .and_then(decimal_int),
                    _ => None,
                };
                return match i {
                    Some(i) => self
                        .bk
                        .immutablevalue(self.space.heap(), Value::Int(i))
                        .unwrap_or(result),
                    None => result,
                };
            }
            // str -> unicode decodes as ASCII (the host's default encoding)
            B::Unicode => match k {
                Value::Obj(id) => match self.space.heap().get(id) {
                    Object::Str(b) if b.is_ascii() => Some(Object::Unicode(
                        crate::compiler::UStr::from_codes(b.iter().map(|&c| c as u32).collect()),
                    )),
                    Object::Unicode(u) => Some(Object::Unicode(u.clone())),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(obj) = folded else { return result };
        let v = Value::Obj(self.space.heap_mut().alloc(obj));
        self.bk
            .immutablevalue(self.space.heap(), v)
            .unwrap_or(result)
    }
}

/// `int(text)` of a decimal literal that fits a machine word (CPython's rules: blanks
/// around, one sign); anything else is not folded.
fn decimal_int(text: &str) -> Option<i64> {
    let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.strip_prefix('+').unwrap_or(t).parse::<i64>().ok()
}
