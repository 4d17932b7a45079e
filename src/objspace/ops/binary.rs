//! Operator dispatch of unary, binary and in-place operations: takes an [`Op`] and its
//! operand values, gives the result of the numeric arithmetic, of the special methods of
//! instances (`__add__`/`__radd__`/`__iadd__`…), or of sequence concatenation/repetition,
//! `str %` formatting and set algebra; `TypeError` for unsupported operands.

use super::arith::Num;
use crate::interpreter::Op;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};

fn binop_symbol(op: Op) -> &'static str {
    use Op::*;
    match op {
        Add | InplaceAdd => "+",
        Sub | InplaceSub => "-",
        Mul | InplaceMul => "*",
        Div | InplaceDiv | TrueDiv | InplaceTrueDiv => "/",
        FloorDiv | InplaceFloorDiv => "//",
        Mod | InplaceMod => "%",
        Pow | InplacePow => "** or pow()",
        LShift | InplaceLShift => "<<",
        RShift | InplaceRShift => ">>",
        And | InplaceAnd => "&",
        Or | InplaceOr => "|",
        Xor | InplaceXor => "^",
        _ => "?",
    }
}

/// Special method names of a binary operation: (normal, reflected).
fn special_names(op: Op) -> (&'static str, &'static str) {
    use Op::*;
    match op {
        Add => ("__add__", "__radd__"),
        Sub => ("__sub__", "__rsub__"),
        Mul => ("__mul__", "__rmul__"),
        Div => ("__div__", "__rdiv__"),
        TrueDiv => ("__truediv__", "__rtruediv__"),
        FloorDiv => ("__floordiv__", "__rfloordiv__"),
        Mod => ("__mod__", "__rmod__"),
        Pow => ("__pow__", "__rpow__"),
        LShift => ("__lshift__", "__rlshift__"),
        RShift => ("__rshift__", "__rrshift__"),
        And => ("__and__", "__rand__"),
        Or => ("__or__", "__ror__"),
        Xor => ("__xor__", "__rxor__"),
        _ => ("", ""),
    }
}

fn inplace_base(op: Op) -> Option<(Op, &'static str)> {
    use Op::*;
    Some(match op {
        InplaceAdd => (Add, "__iadd__"),
        InplaceSub => (Sub, "__isub__"),
        InplaceMul => (Mul, "__imul__"),
        InplaceDiv => (Div, "__idiv__"),
        InplaceTrueDiv => (TrueDiv, "__itruediv__"),
        InplaceFloorDiv => (FloorDiv, "__ifloordiv__"),
        InplaceMod => (Mod, "__imod__"),
        InplacePow => (Pow, "__ipow__"),
        InplaceLShift => (LShift, "__ilshift__"),
        InplaceRShift => (RShift, "__irshift__"),
        InplaceAnd => (And, "__iand__"),
        InplaceOr => (Or, "__ior__"),
        InplaceXor => (Xor, "__ixor__"),
        _ => return None,
    })
}

impl ObjSpace {
    fn unsupported_operands<T>(&mut self, op: Op, a: Value, b: Value) -> R<T> {
        let (ta, tb) = (self.type_name(a), self.type_name(b));
        if matches!(op, Op::Add | Op::InplaceAdd)
            && (ta.as_ref() == "str" || ta.as_ref() == "list" || ta.as_ref() == "tuple")
            && ta != tb
        {
            return self.type_error(format!("cannot concatenate '{ta}' and '{tb}' objects"));
        }
        self.type_error(format!(
            "unsupported operand type(s) for {}: '{ta}' and '{tb}'",
            binop_symbol(op)
        ))
    }

    pub(super) fn unary(&mut self, op: Op, a: Value) -> R {
        if let Some(r) = self.complex_unary(op, a) {
            return r;
        }
        if let Some(r) = self.long_op(op, &[a], false) {
            return Ok(r);
        }
        if let Some(n) = self.num(a) {
            let r = match (op, n) {
                (Op::Pos, Num::I(i, l)) => Num::I(i, l),
                (Op::Pos, n) => n,
                (Op::Neg, Num::I(i, l)) => match i.checked_neg() {
                    Some(r) => Num::I(r, l),
                    None => {
                        if let Some(r) = self.long_op(op, &[a], true) {
                            return Ok(r);
                        }
                        let _ = self.overflow::<()>();
                        return Ok(self.take_beyond_model().unwrap_or(Value::None));
                    }
                },
                (Op::Neg, Num::R(k, i)) => Num::R(k, i.wrapping_neg()),
                (Op::Neg, Num::F(f)) => Num::F(-f),
                (Op::Invert, Num::I(i, l)) => Num::I(!i, l),
                (Op::Invert, Num::R(k, i)) => Num::R(k, !i),
                _ => {
                    let tn = self.type_name(a);
                    return self.type_error(format!("bad operand type for unary ~: '{tn}'"));
                }
            };
            return Ok(self.num_value(r));
        }
        let name = match op {
            Op::Pos => "__pos__",
            Op::Neg => "__neg__",
            _ => "__invert__",
        };
        if let Some(m) = self.special_method(a, name) {
            return self.call_special(a, m, vec![]);
        }
        let tn = self.type_name(a);
        let sym = match op {
            Op::Pos => "+",
            Op::Neg => "-",
            _ => "~",
        };
        self.type_error(format!("bad operand type for unary {sym}: '{tn}'"))
    }

    pub(super) fn inplace(&mut self, op: Op, a: Value, b: Value) -> R {
        let (base, iname) = inplace_base(op).expect("inplace op");
        if let Value::Obj(id) = a {
            match self.heap.get(id) {
                Object::List(_) if base == Op::Add => {
                    let items = self.iterate(b)?;
                    if let Object::List(l) = self.heap.get_mut(id) {
                        l.extend(items);
                    }
                    return Ok(a);
                }
                Object::List(_) if base == Op::Mul => {
                    let Some(n) = self.int_of(b) else {
                        return self.unsupported_operands(op, a, b);
                    };
                    if let Object::List(l) = self.heap.get_mut(id) {
                        if n <= 0 {
                            l.clear();
                        } else {
                            let orig = l.clone();
                            for _ in 1..n {
                                l.extend_from_slice(&orig);
                            }
                        }
                    }
                    return Ok(a);
                }
                Object::Set(_) if matches!(b, Value::Obj(o) if matches!(self.heap.get(o), Object::Set(_))) => {
                    if let Some(r) = self.set_inplace(op, id, b)? {
                        return Ok(r);
                    }
                }
                Object::Instance(_) => {
                    if let Some(m) = self.special_method(a, iname) {
                        let r = self.call_special(a, m, vec![b])?;
                        if !matches!(r, Value::Obj(id) if matches!(self.heap.get(id), Object::NotImplemented))
                        {
                            return Ok(r);
                        }
                    }
                }
                _ => {}
            }
        }
        self.binary(base, a, b)
    }

    /// A binary arithmetic or bitwise operation.
    pub fn binary(&mut self, op: Op, a: Value, b: Value) -> R {
        if let (Value::Bool(p), Value::Bool(q)) = (a, b) {
            match op {
                Op::And => return Ok(Value::Bool(p & q)),
                Op::Or => return Ok(Value::Bool(p | q)),
                Op::Xor => return Ok(Value::Bool(p ^ q)),
                _ => {}
            }
        }
        if let Some(r) = self.long_op(op, &[a, b], false) {
            return Ok(r);
        }
        if let Some(r) = self.complex_binary(op, a, b) {
            return r;
        }
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            let r = self.arith(op, x, y);
            if self.beyond_model {
                if let Some(long) = self.long_op(op, &[a, b], true) {
                    self.beyond_model = false;
                    return Ok(long);
                }
            }
            if let Some(long) = self.take_beyond_model() {
                return Ok(long);
            }
            if let Some(r) = r? {
                return Ok(self.num_value(r));
            }
            return self.unsupported_operands(op, a, b);
        }
        // Instances with special methods.
        let (name, rname) = special_names(op);
        let a_inst =
            matches!(a, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)));
        let b_inst =
            matches!(b, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)));
        if a_inst {
            if let Some(m) = self.special_method(a, name) {
                let r = self.call_special(a, m, vec![b])?;
                if !self.is_not_implemented(r) {
                    return Ok(r);
                }
            }
        }
        if b_inst {
            if let Some(m) = self.special_method(b, rname) {
                let r = self.call_special(b, m, vec![a])?;
                if !self.is_not_implemented(r) {
                    return Ok(r);
                }
            }
        }
        match op {
            Op::Add => self.seq_add(a, b),
            Op::Mul => {
                if let Some(n) = self.int_of(b) {
                    if let Some(r) = self.seq_repeat(a, n)? {
                        return Ok(r);
                    }
                }
                if let Some(n) = self.int_of(a) {
                    if let Some(r) = self.seq_repeat(b, n)? {
                        return Ok(r);
                    }
                }
                self.unsupported_operands(op, a, b)
            }
            Op::Mod => {
                if let Value::Obj(id) = a {
                    match self.heap.get(id) {
                        Object::Str(_) | Object::Unicode(_) => return self.percent_format(a, b),
                        _ => {}
                    }
                }
                self.unsupported_operands(op, a, b)
            }
            Op::Sub | Op::And | Op::Or | Op::Xor => self.set_binary(op, a, b),
            _ => self.unsupported_operands(op, a, b),
        }
    }

    pub(crate) fn is_not_implemented(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(self.heap.get(id), Object::NotImplemented))
    }

    fn seq_add(&mut self, a: Value, b: Value) -> R {
        if let (Value::Obj(x), Value::Obj(y)) = (a, b) {
            let r = match (self.heap.get(x), self.heap.get(y)) {
                (Object::Str(s), Object::Str(t)) => {
                    let mut v = Vec::with_capacity(s.len() + t.len());
                    v.extend_from_slice(s);
                    v.extend_from_slice(t);
                    return Ok(self.new_str_vec(v));
                }
                (Object::Unicode(_) | Object::Str(_), Object::Unicode(_) | Object::Str(_)) => {
                    let s = self.unicode_of(a)?;
                    let t = self.unicode_of(b)?;
                    return Ok(self.alloc(Object::Unicode(s.concat(&t))));
                }
                (Object::List(l), Object::List(m)) => {
                    Object::List(l.iter().chain(m.iter()).copied().collect())
                }
                (Object::Tuple(l), Object::Tuple(m)) => {
                    Object::Tuple(l.iter().chain(m.iter()).copied().collect())
                }
                _ => return self.unsupported_operands(Op::Add, a, b),
            };
            return Ok(self.alloc(r));
        }
        self.unsupported_operands(Op::Add, a, b)
    }

    fn seq_repeat(&mut self, a: Value, n: i128) -> R<Option<Value>> {
        let n = n.max(0) as usize;
        let Value::Obj(id) = a else { return Ok(None) };
        let size = match self.heap.get(id) {
            Object::Str(s) => s.len(),
            Object::Unicode(s) => s.len(),
            Object::List(l) | Object::Tuple(l) => l.len(),
            _ => return Ok(None),
        };
        if size.saturating_mul(n) > crate::objspace::MAX_ITEMS {
            return Err(self.err(
                "MemoryError",
                "sequence repetition too large for the import-time model",
            ));
        }
        let r = match self.heap.get(id) {
            Object::Str(s) => {
                let v = s.repeat(n);
                return Ok(Some(self.new_str_vec(v)));
            }
            Object::Unicode(s) => {
                let v = s.repeat(n);
                return Ok(Some(self.alloc(Object::Unicode(v))));
            }
            Object::List(l) => Object::List(l.repeat(n)),
            Object::Tuple(l) => Object::Tuple(l.repeat(n)),
            _ => return Ok(None),
        };
        Ok(Some(self.alloc(r)))
    }

    fn set_binary(&mut self, op: Op, a: Value, b: Value) -> R {
        let (Value::Obj(x), Value::Obj(y)) = (a, b) else {
            return self.unsupported_operands(op, a, b);
        };
        if !matches!(
            (self.heap.get(x), self.heap.get(y)),
            (Object::Set(_), Object::Set(_))
        ) {
            return self.unsupported_operands(op, a, b);
        }
        // as CPython 2.7 builds each result (which decides its iteration order)
        let out = match op {
            Op::Or => {
                let out = self.copy_of(x)?;
                self.set_update_from(out, b)?;
                return Ok(out);
            }
            Op::And => self.set_intersection_of(x, b)?,
            Op::Sub => self.set_difference_of(x, b)?,
            _ => self.set_symmetric_difference_of(x, b)?,
        };
        Ok(self.alloc(Object::Set(out)))
    }
}
