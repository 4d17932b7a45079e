//! The high-level operations ([`Op`]) on concrete values with Python 2.7 semantics:
//! arithmetic (ints overflowing into longs, machine ints wrapping, classic division),
//! comparisons, containers, items and slices, iteration, truth, hashing.
//!
//! This module holds the dispatch of one [`Op`] ([`ObjSpace::do_op`]), `isinstance` and
//! exception matching, and `str()`/unicode conversion; each idea of the operations lives in a
//! submodule.

mod arith;
mod binary;
mod compare;
mod complex;
mod hash;
mod items;
mod iter;
mod longs;
mod truth;

pub(crate) use arith::{frexp, narrow_overflow_message, wrap_rint, Num};
pub(crate) use hash::hash_of_key;

use crate::interpreter::Op;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    /// Executes one operation on concrete values.
    pub fn do_op(&mut self, op: Op, args: &[Value]) -> R {
        use Op::*;
        let a = args.first().copied().unwrap_or(Value::None);
        let b = args.get(1).copied().unwrap_or(Value::None);
        match op {
            Is => Ok(Value::Bool(self.is_same(a, b))),
            Id => Ok(Value::Int(self.id_of(a))),
            Type => Ok(Value::Obj(self.type_of(a))),
            IsSubtype => {
                let r = self.issubclass_value(a, b)?;
                Ok(Value::Bool(r))
            }
            IsInstance => {
                let t = Value::Obj(self.type_of(a));
                let r = self.issubclass_value(t, b)?;
                Ok(Value::Bool(r))
            }
            Repr => {
                let s = self.repr_value(a)?;
                Ok(self.new_str_vec(s))
            }
            Str => self.str_op(a),
            Len => {
                let n = self.len_of(a)?;
                Ok(Value::Int(n as i64))
            }
            Hash => {
                let h = self.hash_value(a)?;
                Ok(Value::Int(h))
            }
            GetAttr => {
                let Some(name) = self.name_of(b) else {
                    return self.type_error("attribute name must be string");
                };
                self.getattr(a, &name)
            }
            SetAttr => {
                let Some(name) = self.name_of(b) else {
                    return self.type_error("attribute name must be string");
                };
                self.setattr(a, &name, args[2])?;
                Ok(Value::None)
            }
            DelAttr => {
                let Some(name) = self.name_of(b) else {
                    return self.type_error("attribute name must be string");
                };
                self.delattr(a, &name)?;
                Ok(Value::None)
            }
            GetItem => self.getitem(a, b),
            SetItem => {
                self.setitem(a, b, args[2])?;
                Ok(Value::None)
            }
            DelItem => {
                self.delitem(a, b)?;
                Ok(Value::None)
            }
            GetSlice => {
                let s = self.alloc(Object::Slice(b, args[2], Value::None));
                self.getitem(a, s)
            }
            SetSlice => {
                let s = self.alloc(Object::Slice(b, args[2], Value::None));
                self.setitem(a, s, args[3])?;
                Ok(Value::None)
            }
            DelSlice => {
                let s = self.alloc(Object::Slice(b, args[2], Value::None));
                self.delitem(a, s)?;
                Ok(Value::None)
            }
            Pos | Neg | Invert => self.unary(op, a),
            Bool => {
                let t = self.truth(a)?;
                Ok(Value::Bool(t))
            }
            Add | Sub | Mul | TrueDiv | FloorDiv | Div | Mod | Pow | LShift | RShift | And | Or
            | Xor => self.binary(op, a, b),
            InplaceAdd | InplaceSub | InplaceMul | InplaceTrueDiv | InplaceFloorDiv
            | InplaceDiv | InplaceMod | InplacePow | InplaceLShift | InplaceRShift | InplaceAnd
            | InplaceOr | InplaceXor => self.inplace(op, a, b),
            Lt | Le | Eq | Ne | Gt | Ge => self.compare(op, a, b),
            Contains => {
                let r = self.contains(a, b)?;
                Ok(Value::Bool(r))
            }
            Iter => self.iter_value(a),
            Next => match self.iter_next(a)? {
                Some(v) => Ok(v),
                None => Err(self.err("StopIteration", "")),
            },
            NewTuple => Ok(self.new_tuple(args.to_vec())),
            NewList => Ok(self.new_list(args.to_vec())),
            NewDict => {
                let d = self.new_dict();
                for pair in args.chunks(2) {
                    if pair.len() == 2 {
                        self.setitem(d, pair[0], pair[1])?;
                    }
                }
                Ok(d)
            }
            NewSet => {
                let s = self.alloc(Object::Set(Default::default()));
                for &x in args {
                    self.set_add(s, x)?;
                }
                Ok(s)
            }
            NewSlice => Ok(self.alloc(Object::Slice(
                a,
                b,
                args.get(2).copied().unwrap_or(Value::None),
            ))),
            SimpleCall => {
                if args.is_empty() {
                    return self.type_error("simple_call without a callable");
                }
                self.call_value(args[0], args[1..].to_vec(), Vec::new())
            }
            CallArgs => Err(self.unsupported("call_args operation on concrete values")),
            YieldValue => self.do_yield(a),
            Hint => Ok(a),
            Ll(op) => self.type_error(format!("low-level operation {} at import time", op.name())),
            Abs | Hex | Oct | Ord | Int | Float | Long | Divmod | Cmp => {
                // the operation is a call of the built-in of the same name
                match crate::builtins::BuiltinId::for_flow_op(op) {
                    Some(b) => self.call_builtin(b, None, args.to_vec(), Vec::new()),
                    None => Err(self.unsupported(format!("{} at import time", op.name()))),
                }
            }
        }
    }

    /// `issubclass(a, b)` where `b` is a class or a (nested) tuple of classes.
    pub fn issubclass_value(&mut self, a: Value, b: Value) -> R<bool> {
        let Value::Obj(aid) = a else {
            return self.type_error("issubclass() arg 1 must be a class");
        };
        // CPython refuses a module, an instance or a str as arg 1 (scheme's import-time
        // registry loops over `dir(module)` and skips them by catching the TypeError).
        if !matches!(self.heap.get(aid), Object::Class(_)) && self.unknown_name(a).is_none() {
            return self.type_error("issubclass() arg 1 must be a class");
        }
        let Value::Obj(bid) = b else {
            return self.type_error("issubclass() arg 2 must be a class or tuple of classes");
        };
        match self.heap.get(bid) {
            Object::Class(_) => Ok(self.is_subclass(aid, bid)),
            Object::Tuple(items) => {
                let items = items.clone();
                for x in items {
                    if self.unknown_name(x).is_some() {
                        continue;
                    }
                    if self.issubclass_value(a, x)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => self.type_error("issubclass() arg 2 must be a class or tuple of classes"),
        }
    }

    /// `except` matching: class `etype` against a class or tuple.
    pub fn exception_matches(&mut self, etype: Value, cls: Value) -> R<bool> {
        match cls {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Class(_) | Object::Tuple(_)) => {
                self.issubclass_value(etype, cls)
            }
            _ => Ok(false),
        }
    }

    /// Python 2 `str()` of a value as a `str` object (unicode stays unicode for `Op::Str`?
    /// no: `str(u)` encodes to ASCII).
    pub(crate) fn str_op(&mut self, v: Value) -> R {
        if let Value::Obj(id) = v {
            if matches!(self.heap.get(id), Object::Str(_)) {
                return Ok(v);
            }
        }
        let s = self.str_value(v)?;
        Ok(self.new_str_vec(s))
    }

    /// The text of a `str` (ASCII-decoded) or `unicode` value.
    pub(crate) fn unicode_of(&mut self, v: Value) -> R<crate::compiler::UStr> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Unicode(u) => Ok(u.clone()),
                Object::Str(s) => match std::str::from_utf8(s) {
                    Ok(t) if s.is_ascii() => Ok(crate::compiler::UStr::from(t)),
                    _ => {
                        let pos = s.iter().position(|b| !b.is_ascii()).unwrap_or(0);
                        let byte = s[pos];
                        Err(self.err(
                            "UnicodeDecodeError",
                            format!("'ascii' codec can't decode byte 0x{byte:02x} in position {pos}: ordinal not in range(128)"),
                        ))
                    }
                },
                _ => {
                    let s = self.str_value(v)?;
                    Ok(crate::compiler::UStr::from(
                        String::from_utf8_lossy(&s).as_ref(),
                    ))
                }
            },
            _ => {
                let s = self.str_value(v)?;
                Ok(crate::compiler::UStr::from(
                    String::from_utf8_lossy(&s).as_ref(),
                ))
            }
        }
    }
}
