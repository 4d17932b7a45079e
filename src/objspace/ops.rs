//! The high-level operations ([`Op`]) on concrete values with Python 2.7 semantics:
//! arithmetic (ints overflowing into longs, machine ints wrapping, classic division),
//! comparisons, containers, items and slices, iteration, truth, hashing.

use super::dict::DictOps;
use super::object::{HashKey, IntKind, IterState, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::interpreter::{Op, Unwind};
use std::cmp::Ordering;
use std::rc::Rc;

/// A number as the arithmetic sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    /// Python int or long (`true` when a long).
    I(i128, bool),
    /// Machine integer of `rarithmetic`.
    R(IntKind, i128),
    F(f64),
}

/// Wraps a value to the range of a machine integer kind.
pub(crate) fn wrap_rint(kind: IntKind, v: i128) -> i128 {
    match kind {
        IntKind::Unsigned | IntKind::ULongLong => (v as u64) as i128,
        IntKind::Signed | IntKind::LongLong => (v as i64) as i128,
    }
}

fn is_unsigned(k: IntKind) -> bool {
    matches!(k, IntKind::Unsigned | IntKind::ULongLong)
}

fn combine_kinds(a: IntKind, b: IntKind) -> IntKind {
    if a == b {
        return a;
    }
    let unsigned = is_unsigned(a) || is_unsigned(b);
    let ll = matches!(a, IntKind::LongLong | IntKind::ULongLong)
        || matches!(b, IntKind::LongLong | IntKind::ULongLong);
    match (unsigned, ll) {
        (true, true) => IntKind::ULongLong,
        (true, false) => IntKind::Unsigned,
        (false, true) => IntKind::LongLong,
        (false, false) => IntKind::Signed,
    }
}

fn floordiv_i(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

fn mod_i(a: i128, b: i128) -> Option<i128> {
    let r = a.checked_rem(b)?;
    if r != 0 && ((r < 0) != (b < 0)) {
        Some(r + b)
    } else {
        Some(r)
    }
}

pub(crate) fn mod_f(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else if r == 0.0 {
        0.0f64.copysign(b)
    } else {
        r
    }
}

/// Python 2 `str` ordering of type names for comparisons between unrelated types.
fn type_rank_name(name: &str) -> &str {
    name
}

/// Start, stop and step of a slice over a sequence of `len` items (Python semantics).
pub(crate) fn slice_indices(
    len: i64,
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
) -> (i64, i64, i64, usize) {
    let (lo_default, hi_default) = if step < 0 { (len - 1, -1) } else { (0, len) };
    let adjust = |v: Option<i64>, default: i64| -> i64 {
        match v {
            None => default,
            Some(mut x) => {
                if x < 0 {
                    x += len;
                    if x < 0 {
                        x = if step < 0 { -1 } else { 0 };
                    }
                } else if x >= len {
                    x = if step < 0 { len - 1 } else { len };
                }
                x
            }
        }
    };
    let start = adjust(start, lo_default);
    let stop = adjust(stop, hi_default);
    let count = if step > 0 {
        if stop > start {
            ((stop - start - 1) / step + 1) as usize
        } else {
            0
        }
    } else if start > stop {
        ((start - stop - 1).unsigned_abs() / step.unsigned_abs() + 1) as usize
    } else {
        0
    };
    (start, stop, step, count)
}

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

    // ----- identity, hashing -----

    pub(crate) fn is_same(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
            _ => a == b,
        }
    }

    pub(crate) fn id_of(&self, v: Value) -> i64 {
        match v {
            Value::Obj(id) => 0x1000_0000 + (id.0 as i64) * 16,
            Value::None => 0x100,
            Value::Bool(b) => 0x200 + b as i64 * 16,
            Value::Int(i) => 0x7000_0000_0000 ^ i.wrapping_mul(16),
            Value::Float(f) => (f.to_bits() >> 4) as i64,
        }
    }

    /// Python 2 `hash()`.
    pub fn hash_value(&mut self, v: Value) -> R<i64> {
        if let Some(m) = self.special_method(v, "__hash__") {
            if !matches!(m, Value::Obj(id) if matches!(self.heap.get(id), Object::Builtin { .. })) {
                let r = self.call_special(v, m, vec![])?;
                return match self.num(r) {
                    Some(Num::I(i, _)) => Ok(i as i64),
                    _ => self.type_error("an integer is required"),
                };
            }
        }
        let Some(hk) = self.heap.hash_key(v) else {
            let tn = self.type_name(v);
            return self.type_error(format!("unhashable type: '{tn}'"));
        };
        Ok(hash_of_key(&hk))
    }

    /// The hash key of a dict key, raising TypeError when unhashable.
    pub(crate) fn key_of(&mut self, v: Value) -> R<HashKey> {
        match self.heap.hash_key(v) {
            Some(k) => Ok(k),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!("unhashable type: '{tn}'"))
            }
        }
    }

    // ----- numbers -----

    pub(crate) fn num(&self, v: Value) -> Option<Num> {
        match v {
            Value::Bool(b) => Some(Num::I(b as i128, false)),
            Value::Int(i) => Some(Num::I(i as i128, false)),
            Value::Float(f) => Some(Num::F(f)),
            Value::Obj(id) => match self.heap.get(id) {
                Object::Long(i) => Some(Num::I(*i, true)),
                Object::RInt { kind, value } => Some(Num::R(*kind, *value)),
                _ => None,
            },
            Value::None => None,
        }
    }

    pub(crate) fn num_value(&mut self, n: Num) -> Value {
        match n {
            Num::I(i, long) => {
                if !long {
                    if let Ok(s) = i64::try_from(i) {
                        return Value::Int(s);
                    }
                }
                self.alloc(Object::Long(i))
            }
            Num::R(kind, v) => self.alloc(Object::RInt {
                kind,
                value: wrap_rint(kind, v),
            }),
            Num::F(f) => Value::Float(f),
        }
    }

    /// An integer argument (int, long, bool or machine int) as i128.
    pub fn int_of(&self, v: Value) -> Option<i128> {
        match self.num(v)? {
            Num::I(i, _) | Num::R(_, i) => Some(i),
            Num::F(_) => None,
        }
    }

    pub fn float_of(&self, v: Value) -> Option<f64> {
        match self.num(v)? {
            Num::I(i, _) | Num::R(_, i) => Some(i as f64),
            Num::F(f) => Some(f),
        }
    }

    fn overflow<T>(&mut self) -> R<T> {
        Err(self.err(
            "OverflowError",
            "integer result too large for rpy-lsp's import-time model (128 bits)",
        ))
    }

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

    fn arith(&mut self, op: Op, x: Num, y: Num) -> R<Option<Num>> {
        use Op::*;
        enum Dom {
            I(bool),
            R(IntKind),
            F,
        }
        let dom = match (x, y) {
            (Num::F(_), _) | (_, Num::F(_)) => Dom::F,
            (Num::R(k1, _), Num::R(k2, _)) => Dom::R(combine_kinds(k1, k2)),
            (Num::R(k, _), _) | (_, Num::R(k, _)) => Dom::R(k),
            (Num::I(_, l1), Num::I(_, l2)) => Dom::I(l1 || l2),
        };
        let fx = |n: Num| match n {
            Num::I(i, _) | Num::R(_, i) => i as f64,
            Num::F(f) => f,
        };
        let ix = |n: Num| match n {
            Num::I(i, _) | Num::R(_, i) => i,
            Num::F(f) => f as i128,
        };
        match dom {
            Dom::F => {
                let (a, b) = (fx(x), fx(y));
                let r = match op {
                    Add => a + b,
                    Sub => a - b,
                    Mul => a * b,
                    Div | TrueDiv => {
                        if b == 0.0 {
                            return Err(self.err("ZeroDivisionError", "float division by zero"));
                        }
                        a / b
                    }
                    FloorDiv => {
                        if b == 0.0 {
                            return Err(self.err("ZeroDivisionError", "float divmod()"));
                        }
                        ((a - mod_f(a, b)) / b).round()
                    }
                    Mod => {
                        if b == 0.0 {
                            return Err(self.err("ZeroDivisionError", "float modulo"));
                        }
                        mod_f(a, b)
                    }
                    Pow => {
                        if a == 0.0 && b < 0.0 {
                            return Err(self.err(
                                "ZeroDivisionError",
                                "0.0 cannot be raised to a negative power",
                            ));
                        }
                        if a < 0.0 && b.fract() != 0.0 {
                            return Err(self.err(
                                "ValueError",
                                "negative number cannot be raised to a fractional power",
                            ));
                        }
                        a.powf(b)
                    }
                    _ => return Ok(None),
                };
                Ok(Some(Num::F(r)))
            }
            Dom::I(long) => {
                let (a, b) = (ix(x), ix(y));
                let r = match op {
                    Add => a.checked_add(b),
                    Sub => a.checked_sub(b),
                    Mul => a.checked_mul(b),
                    Div | FloorDiv => {
                        if b == 0 {
                            return Err(
                                self.err("ZeroDivisionError", "integer division or modulo by zero")
                            );
                        }
                        floordiv_i(a, b)
                    }
                    TrueDiv => {
                        if b == 0 {
                            return Err(self.err("ZeroDivisionError", "division by zero"));
                        }
                        return Ok(Some(Num::F(a as f64 / b as f64)));
                    }
                    Mod => {
                        if b == 0 {
                            return Err(
                                self.err("ZeroDivisionError", "integer division or modulo by zero")
                            );
                        }
                        mod_i(a, b)
                    }
                    Pow => {
                        if b < 0 {
                            if a == 0 {
                                return Err(self.err(
                                    "ZeroDivisionError",
                                    "0.0 cannot be raised to a negative power",
                                ));
                            }
                            return Ok(Some(Num::F((a as f64).powf(b as f64))));
                        }
                        match u32::try_from(b) {
                            Ok(e) => a.checked_pow(e),
                            Err(_) if a == 0 || a == 1 => Some(a),
                            Err(_) if a == -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
                            Err(_) => None,
                        }
                    }
                    LShift => {
                        if b < 0 {
                            return Err(self.err("ValueError", "negative shift count"));
                        }
                        if a == 0 {
                            Some(0)
                        } else if b >= 127 {
                            None
                        } else {
                            let r = a << b;
                            if r >> b == a {
                                Some(r)
                            } else {
                                None
                            }
                        }
                    }
                    RShift => {
                        if b < 0 {
                            return Err(self.err("ValueError", "negative shift count"));
                        }
                        Some(if b >= 127 {
                            if a < 0 {
                                -1
                            } else {
                                0
                            }
                        } else {
                            a >> b
                        })
                    }
                    And => Some(a & b),
                    Or => Some(a | b),
                    Xor => Some(a ^ b),
                    _ => return Ok(None),
                };
                match r {
                    Some(r) => Ok(Some(Num::I(r, long))),
                    None => self.overflow(),
                }
            }
            Dom::R(kind) => {
                let (a, b) = (wrap_rint(kind, ix(x)), wrap_rint(kind, ix(y)));
                let r = match op {
                    Add => a.wrapping_add(b),
                    Sub => a.wrapping_sub(b),
                    Mul => a.wrapping_mul(b),
                    Div | FloorDiv => {
                        if b == 0 {
                            return Err(
                                self.err("ZeroDivisionError", "integer division or modulo by zero")
                            );
                        }
                        floordiv_i(a, b).unwrap_or(0)
                    }
                    TrueDiv => {
                        if b == 0 {
                            return Err(self.err("ZeroDivisionError", "division by zero"));
                        }
                        return Ok(Some(Num::F(a as f64 / b as f64)));
                    }
                    Mod => {
                        if b == 0 {
                            return Err(
                                self.err("ZeroDivisionError", "integer division or modulo by zero")
                            );
                        }
                        mod_i(a, b).unwrap_or(0)
                    }
                    Pow => {
                        if b < 0 {
                            return Ok(Some(Num::F((a as f64).powf(b as f64))));
                        }
                        let mut r: i128 = 1;
                        let mut base = a;
                        let mut e = b;
                        while e > 0 {
                            if e & 1 == 1 {
                                r = wrap_rint(kind, r.wrapping_mul(base));
                            }
                            base = wrap_rint(kind, base.wrapping_mul(base));
                            e >>= 1;
                        }
                        r
                    }
                    LShift => {
                        if b < 0 {
                            return Err(self.err("ValueError", "negative shift count"));
                        }
                        if b >= 64 {
                            0
                        } else {
                            a << b
                        }
                    }
                    RShift => {
                        if b < 0 {
                            return Err(self.err("ValueError", "negative shift count"));
                        }
                        if b >= 127 {
                            if a < 0 {
                                -1
                            } else {
                                0
                            }
                        } else {
                            a >> b
                        }
                    }
                    And => a & b,
                    Or => a | b,
                    Xor => a ^ b,
                    _ => return Ok(None),
                };
                Ok(Some(Num::R(kind, wrap_rint(kind, r))))
            }
        }
    }

    fn unary(&mut self, op: Op, a: Value) -> R {
        if let Some(n) = self.num(a) {
            let r = match (op, n) {
                (Op::Pos, Num::I(i, l)) => Num::I(i, l),
                (Op::Pos, n) => n,
                (Op::Neg, Num::I(i, l)) => match i.checked_neg() {
                    Some(r) => Num::I(r, l),
                    None => return self.overflow(),
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

    fn inplace(&mut self, op: Op, a: Value, b: Value) -> R {
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
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            if let Some(r) = self.arith(op, x, y)? {
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
                    let mut u = String::with_capacity(s.len() + t.len());
                    u.push_str(&s);
                    u.push_str(&t);
                    return Ok(self.new_unicode(&u));
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
        if size.saturating_mul(n) > super::MAX_ITEMS {
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
                return Ok(Some(self.new_unicode(&v)));
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
        let (Object::Set(s), Object::Set(t)) = (self.heap.get(x), self.heap.get(y)) else {
            return self.unsupported_operands(op, a, b);
        };
        let mut out = super::object::Dict::default();
        let entries_s = s.entries.clone();
        let entries_t = t.entries.clone();
        for &(k, v) in &entries_s {
            let hk = self.key_of(k)?;
            let in_t = match self.heap.get(y) {
                Object::Set(t) => t.contains_key(&hk),
                _ => false,
            };
            let keep = match op {
                Op::Sub => !in_t,
                Op::And => in_t,
                Op::Or => true,
                _ => !in_t,
            };
            if keep {
                out.insert(hk, k, v);
            }
        }
        if matches!(op, Op::Or | Op::Xor) {
            for &(k, v) in &entries_t {
                let hk = self.key_of(k)?;
                let in_s = match self.heap.get(x) {
                    Object::Set(s) => s.contains_key(&hk),
                    _ => false,
                };
                if !in_s {
                    out.insert(hk, k, v);
                }
            }
        }
        Ok(self.alloc(Object::Set(out)))
    }

    // ----- comparisons -----

    /// A rich comparison.
    pub fn compare(&mut self, op: Op, a: Value, b: Value) -> R {
        let (name, rname) = match op {
            Op::Lt => ("__lt__", "__gt__"),
            Op::Le => ("__le__", "__ge__"),
            Op::Eq => ("__eq__", "__eq__"),
            Op::Ne => ("__ne__", "__ne__"),
            Op::Gt => ("__gt__", "__lt__"),
            _ => ("__ge__", "__le__"),
        };
        if let Some(m) = self.user_special(a, name) {
            let r = self.call_special(a, m, vec![b])?;
            if !self.is_not_implemented(r) {
                return Ok(r);
            }
        }
        if let Some(m) = self.user_special(b, rname) {
            let r = self.call_special(b, m, vec![a])?;
            if !self.is_not_implemented(r) {
                return Ok(r);
            }
        }
        let r = match op {
            Op::Eq => self.values_eq(a, b)?,
            Op::Ne => !self.values_eq(a, b)?,
            _ => {
                // NaN compares false.
                if let (Some(x), Some(y)) = (self.float_of(a), self.float_of(b)) {
                    if x.is_nan() || y.is_nan() {
                        return Ok(Value::Bool(false));
                    }
                }
                let ord = self.cmp_values(a, b)?;
                match op {
                    Op::Lt => ord == Ordering::Less,
                    Op::Le => ord != Ordering::Greater,
                    Op::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                }
            }
        };
        Ok(Value::Bool(r))
    }

    /// A special method defined by a user class (not the built-in ones of exceptions).
    fn user_special(&self, v: Value, name: &str) -> Option<Value> {
        let m = self.special_method(v, name)?;
        match m {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Builtin { .. }) => None,
            _ => Some(m),
        }
    }

    /// `a == b`, including `__eq__` of instances.
    pub fn eq(&mut self, a: Value, b: Value) -> R<bool> {
        if self.is_same(a, b)
            && !matches!(a, Value::Float(f) if f.is_nan())
            && !matches!(a, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)))
        {
            return Ok(true);
        }
        let r = self.compare(Op::Eq, a, b)?;
        self.truth(r)
    }

    /// Structural equality (no special methods of `a`/`b` themselves).
    fn values_eq(&mut self, a: Value, b: Value) -> R<bool> {
        // Comparing nested containers recurses: bounded like calls (RuntimeError when deeper).
        if self.is_container(a) && self.is_container(b) {
            self.enter()?;
            let r = self.values_eq_inner(a, b);
            self.leave();
            return r;
        }
        self.values_eq_inner(a, b)
    }

    /// Lists, tuples and dicts (whose comparison recurses into their items).
    fn is_container(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(self.heap.get(id), Object::List(_) | Object::Tuple(_) | Object::Dict(_)))
    }

    fn values_eq_inner(&mut self, a: Value, b: Value) -> R<bool> {
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            return Ok(match (x, y) {
                (Num::F(f), n) | (n, Num::F(f)) => {
                    let g = match n {
                        Num::F(g) => g,
                        Num::I(i, _) | Num::R(_, i) => i as f64,
                    };
                    f == g
                }
                (Num::I(i, _) | Num::R(_, i), Num::I(j, _) | Num::R(_, j)) => i == j,
            });
        }
        let (Value::Obj(x), Value::Obj(y)) = (a, b) else {
            return Ok(a == b);
        };
        if x == y {
            return Ok(true);
        }
        match (self.heap.get(x), self.heap.get(y)) {
            (Object::Str(s), Object::Str(t)) => Ok(s == t),
            (Object::Unicode(s), Object::Unicode(t)) => Ok(s == t),
            (Object::Str(s), Object::Unicode(u)) | (Object::Unicode(u), Object::Str(s)) => {
                Ok(s.is_ascii() && s.as_ref() == u.as_bytes())
            }
            (Object::Tuple(l), Object::Tuple(m)) | (Object::List(l), Object::List(m)) => {
                if l.len() != m.len() {
                    return Ok(false);
                }
                let (l, m) = (l.clone(), m.clone());
                for (p, q) in l.into_iter().zip(m) {
                    if !self.eq(p, q)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Object::Dict(d), Object::Dict(e)) => {
                if d.len() != e.len() {
                    return Ok(false);
                }
                let entries = d.entries.clone();
                for (k, v) in entries {
                    let hk = self.key_of(k)?;
                    let other = match self.heap.get(y) {
                        Object::Dict(e) => e.lookup(&hk),
                        _ => None,
                    };
                    match other {
                        Some(w) => {
                            if !self.eq(v, w)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            (Object::Set(d), Object::Set(e)) => {
                Ok(d.len() == e.len() && d.index.keys().all(|k| e.index.contains_key(k)))
            }
            (Object::Slice(a1, b1, c1), Object::Slice(a2, b2, c2)) => {
                let (a1, b1, c1, a2, b2, c2) = (*a1, *b1, *c1, *a2, *b2, *c2);
                Ok(self.eq(a1, a2)? && self.eq(b1, b2)? && self.eq(c1, c2)?)
            }
            (
                Object::BoundMethod {
                    func: f1,
                    self_value: s1,
                },
                Object::BoundMethod {
                    func: f2,
                    self_value: s2,
                },
            ) => Ok(f1 == f2 && s1 == s2),
            _ => Ok(false),
        }
    }

    /// Python 2 three-way comparison for ordering.
    pub fn cmp_values(&mut self, a: Value, b: Value) -> R<Ordering> {
        if self.is_container(a) && self.is_container(b) {
            self.enter()?;
            let r = self.cmp_values_inner(a, b);
            self.leave();
            return r;
        }
        self.cmp_values_inner(a, b)
    }

    fn cmp_values_inner(&mut self, a: Value, b: Value) -> R<Ordering> {
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            return Ok(match (x, y) {
                (Num::I(i, _) | Num::R(_, i), Num::I(j, _) | Num::R(_, j)) => i.cmp(&j),
                _ => {
                    let f = self.float_of(a).unwrap_or(0.0);
                    let g = self.float_of(b).unwrap_or(0.0);
                    f.partial_cmp(&g).unwrap_or(Ordering::Equal)
                }
            });
        }
        if let (Value::Obj(x), Value::Obj(y)) = (a, b) {
            match (self.heap.get(x), self.heap.get(y)) {
                (Object::Str(s), Object::Str(t)) => return Ok(s.cmp(t)),
                (Object::Unicode(s), Object::Unicode(t)) => return Ok(s.cmp(t)),
                (Object::Str(_), Object::Unicode(_)) | (Object::Unicode(_), Object::Str(_)) => {
                    let s = self.unicode_of(a)?;
                    let t = self.unicode_of(b)?;
                    return Ok(s.cmp(&t));
                }
                (Object::Tuple(l), Object::Tuple(m)) | (Object::List(l), Object::List(m)) => {
                    let (l, m) = (l.clone(), m.clone());
                    for (p, q) in l.iter().zip(m.iter()) {
                        if !self.eq(*p, *q)? {
                            let lt = self.compare(Op::Lt, *p, *q)?;
                            return Ok(if self.truth(lt)? {
                                Ordering::Less
                            } else {
                                Ordering::Greater
                            });
                        }
                    }
                    return Ok(l.len().cmp(&m.len()));
                }
                (Object::Set(_), Object::Set(_)) => {
                    return self.type_error("cannot compare sets using cmp()");
                }
                _ => {}
            }
            if let Some(m) = self.user_special(a, "__cmp__") {
                let r = self.call_special(a, m, vec![b])?;
                let i = self.int_of(r).unwrap_or(0);
                return Ok(i.cmp(&0));
            }
        }
        if a == b {
            return Ok(Ordering::Equal);
        }
        // Unrelated types: None first, numbers next, then by type name, then by id.
        let rank = |s: &ObjSpace, v: Value| -> u8 {
            match v {
                Value::None => 0,
                _ if s.num(v).is_some() => 1,
                _ => 2,
            }
        };
        let (ra, rb) = (rank(self, a), rank(self, b));
        if ra != rb {
            return Ok(ra.cmp(&rb));
        }
        let (ta, tb) = (self.type_name(a), self.type_name(b));
        let c = type_rank_name(&ta).cmp(type_rank_name(&tb));
        if c != Ordering::Equal {
            return Ok(c);
        }
        Ok(self.id_of(a).cmp(&self.id_of(b)))
    }

    // ----- truth, length -----

    /// Truth value (`__nonzero__` / `__len__` of instances included).
    pub fn truth(&mut self, v: Value) -> R<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => b,
            Value::Int(i) => i != 0,
            Value::Float(f) => f != 0.0,
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => !s.is_empty(),
                Object::Unicode(s) => !s.is_empty(),
                Object::Long(i) => *i != 0,
                Object::RInt { value, .. } => *value != 0,
                Object::Tuple(l) | Object::List(l) => !l.is_empty(),
                Object::Dict(d) | Object::Set(d) => !d.is_empty(),
                Object::Instance(_) => {
                    if let Some(m) = self.user_special(v, "__nonzero__") {
                        let r = self.call_special(v, m, vec![])?;
                        return self.truth(r);
                    }
                    if let Some(m) = self.user_special(v, "__len__") {
                        let r = self.call_special(v, m, vec![])?;
                        return self.truth(r);
                    }
                    true
                }
                _ => true,
            },
        })
    }

    pub fn len_of(&mut self, v: Value) -> R<usize> {
        if let Value::Obj(id) = v {
            match self.heap.get(id) {
                Object::Str(s) => return Ok(s.len()),
                Object::Unicode(s) => return Ok(s.chars().count()),
                Object::Tuple(l) | Object::List(l) => return Ok(l.len()),
                Object::Dict(d) | Object::Set(d) => return Ok(d.entries.len()),
                Object::Instance(i) if i.class == self.types.xrange => {
                    let (start, stop, step) = self.xrange_params(id);
                    return Ok(slice_indices_range(start, stop, step));
                }
                Object::Instance(_) => {
                    if let Some(m) = self.user_special(v, "__len__") {
                        let r = self.call_special(v, m, vec![])?;
                        return match self.int_of(r) {
                            Some(n) if n >= 0 => Ok(n as usize),
                            _ => self.value_error("__len__() should return >= 0"),
                        };
                    }
                }
                _ => {}
            }
        }
        let tn = self.type_name(v);
        self.type_error(format!("object of type '{tn}' has no len()"))
    }

    pub(crate) fn xrange_params(&self, id: ObjId) -> (i64, i64, i64) {
        match self.heap.get(id) {
            Object::Instance(i) => {
                let g = |n: &str| match i.dict.get(n) {
                    Some(Value::Int(x)) => x,
                    _ => 0,
                };
                let step = g("_step");
                (g("_start"), g("_stop"), if step == 0 { 1 } else { step })
            }
            _ => (0, 0, 1),
        }
    }

    // ----- items -----

    fn index_of_value(&mut self, v: Value) -> R<Option<i64>> {
        match self.num(v) {
            Some(Num::I(i, _)) | Some(Num::R(_, i)) => match i64::try_from(i) {
                Ok(i) => Ok(Some(i)),
                Err(_) => Err(self.err(
                    "IndexError",
                    "cannot fit 'long' into an index-sized integer",
                )),
            },
            _ => Ok(None),
        }
    }

    fn slice_bounds(&mut self, s: ObjId) -> R<(Option<i64>, Option<i64>, i64)> {
        let Object::Slice(a, b, c) = self.heap.get(s) else {
            unreachable!()
        };
        let (a, b, c) = (*a, *b, *c);
        let conv = |sp: &mut ObjSpace, v: Value| -> R<Option<i64>> {
            if v == Value::None {
                return Ok(None);
            }
            match sp.index_of_value(v)? {
                Some(i) => Ok(Some(i)),
                None => sp.type_error(
                    "slice indices must be integers or None or have an __index__ method",
                ),
            }
        };
        let start = conv(self, a)?;
        let stop = conv(self, b)?;
        let step = conv(self, c)?.unwrap_or(1);
        if step == 0 {
            return self.value_error("slice step cannot be zero");
        }
        Ok((start, stop, step))
    }

    fn is_slice(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Slice(..)) => Some(id),
            _ => None,
        }
    }

    /// `obj[key]`.
    pub fn getitem(&mut self, obj: Value, key: Value) -> R {
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object has no attribute '__getitem__'"));
        };
        if let Some(sid) = self.is_slice(key) {
            if matches!(
                self.heap.get(id),
                Object::Str(_) | Object::Unicode(_) | Object::List(_) | Object::Tuple(_)
            ) {
                let (start, stop, step) = self.slice_bounds(sid)?;
                return self.slice_seq(id, start, stop, step);
            }
        }
        match self.heap.get(id) {
            Object::List(_) | Object::Tuple(_) | Object::Str(_) | Object::Unicode(_) => {
                let Some(i) = self.index_of_value(key)? else {
                    let tn = self.type_name(obj);
                    return self.type_error(format!(
                        "{tn} indices must be integers, not {}",
                        self.type_name(key)
                    ));
                };
                let (len, what) = match self.heap.get(id) {
                    Object::List(l) => (l.len(), "list"),
                    Object::Tuple(l) => (l.len(), "tuple"),
                    Object::Str(s) => (s.len(), "string"),
                    Object::Unicode(s) => (s.chars().count(), "string"),
                    _ => unreachable!(),
                };
                let j = if i < 0 { i + len as i64 } else { i };
                if j < 0 || j >= len as i64 {
                    return Err(self.err("IndexError", format!("{what} index out of range")));
                }
                let j = j as usize;
                match self.heap.get(id) {
                    Object::List(l) | Object::Tuple(l) => Ok(l[j]),
                    Object::Str(s) => {
                        let c = s[j];
                        Ok(self.char_str(c))
                    }
                    Object::Unicode(s) => {
                        let c = s.chars().nth(j).unwrap_or('\0');
                        let mut buf = [0u8; 4];
                        let t = c.encode_utf8(&mut buf).to_string();
                        Ok(self.new_unicode(&t))
                    }
                    _ => unreachable!(),
                }
            }
            Object::Dict(d) => {
                let hk = match self.heap.hash_key(key) {
                    Some(k) => k,
                    None => {
                        let tn = self.type_name(key);
                        return self.type_error(format!("unhashable type: '{tn}'"));
                    }
                };
                match d.lookup(&hk) {
                    Some(v) => Ok(v),
                    // What unmodelled generated code would have defined there is unknown.
                    None if self.unknown_dicts.contains(&id) => {
                        let n = self.name_of(key).unwrap_or_else(|| Rc::from("?"));
                        Ok(self.new_unknown(&n))
                    }
                    None => Err(self.err_value("KeyError", key)),
                }
            }
            Object::Instance(_) => match self.user_special(obj, "__getitem__") {
                Some(m) => self.call_special(obj, m, vec![key]),
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object has no attribute '__getitem__'"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object has no attribute '__getitem__'"))
            }
        }
    }

    fn slice_seq(&mut self, id: ObjId, start: Option<i64>, stop: Option<i64>, step: i64) -> R {
        let len = match self.heap.get(id) {
            Object::List(l) | Object::Tuple(l) => l.len(),
            Object::Str(s) => s.len(),
            Object::Unicode(s) => s.chars().count(),
            _ => 0,
        } as i64;
        let (start, _, step, count) = slice_indices(len, start, stop, step);
        let idx = (0..count).map(move |k| (start + k as i64 * step) as usize);
        match self.heap.get(id) {
            Object::List(l) => {
                let v: Vec<Value> = idx.map(|i| l[i]).collect();
                Ok(self.new_list(v))
            }
            Object::Tuple(l) => {
                if step == 1 && count == l.len() {
                    return Ok(Value::Obj(id));
                }
                let v: Vec<Value> = idx.map(|i| l[i]).collect();
                Ok(self.new_tuple(v))
            }
            Object::Str(s) => {
                if step == 1 && count == s.len() {
                    return Ok(Value::Obj(id));
                }
                let v: Vec<u8> = if step == 1 {
                    s[start as usize..start as usize + count].to_vec()
                } else {
                    idx.map(|i| s[i]).collect()
                };
                Ok(self.new_str_vec(v))
            }
            Object::Unicode(s) => {
                let chars: Vec<char> = s.chars().collect();
                let v: String = idx.map(|i| chars[i]).collect();
                Ok(self.new_unicode(&v))
            }
            _ => unreachable!(),
        }
    }

    /// `obj[key] = value`.
    pub fn setitem(&mut self, obj: Value, key: Value, value: Value) -> R<()> {
        if let Value::Obj(d) = obj {
            if let Some(&module) = self.globals_views.get(&d) {
                if let Some(name) = self.name_of(key) {
                    self.ns_set(module, &name, value)?;
                }
            }
        }
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object does not support item assignment"));
        };
        match self.heap.get(id) {
            Object::List(l) => {
                let len = l.len() as i64;
                if let Some(sid) = self.is_slice(key) {
                    let (start, stop, step) = self.slice_bounds(sid)?;
                    let items = self.iterate(value)?;
                    let (start, stop, step, count) = slice_indices(len, start, stop, step);
                    if let Object::List(l) = self.heap.get_mut(id) {
                        if step == 1 {
                            let stop = stop.max(start);
                            l.splice(start as usize..stop as usize, items);
                            return Ok(());
                        }
                        if items.len() != count {
                            let n = items.len();
                            return self.value_error(format!(
                                "attempt to assign sequence of size {n} to extended slice of size {count}"
                            ));
                        }
                        for (k, v) in items.into_iter().enumerate() {
                            l[(start + k as i64 * step) as usize] = v;
                        }
                    }
                    return Ok(());
                }
                let Some(i) = self.index_of_value(key)? else {
                    return self.type_error(
                        "list indices must be integers, not ".to_string() + &self.type_name(key),
                    );
                };
                let j = if i < 0 { i + len } else { i };
                if j < 0 || j >= len {
                    return Err(self.err("IndexError", "list assignment index out of range"));
                }
                if let Object::List(l) = self.heap.get_mut(id) {
                    l[j as usize] = value;
                }
                Ok(())
            }
            Object::Dict(_) => {
                let hk = self.key_of(key)?;
                if let Object::Dict(d) = self.heap.get_mut(id) {
                    d.insert(hk, key, value);
                }
                Ok(())
            }
            Object::Instance(_) => match self.user_special(obj, "__setitem__") {
                Some(m) => {
                    self.call_special(obj, m, vec![key, value])?;
                    Ok(())
                }
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object does not support item assignment"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object does not support item assignment"))
            }
        }
    }

    /// `del obj[key]`.
    pub fn delitem(&mut self, obj: Value, key: Value) -> R<()> {
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object doesn't support item deletion"));
        };
        match self.heap.get(id) {
            Object::List(l) => {
                let len = l.len() as i64;
                if let Some(sid) = self.is_slice(key) {
                    let (start, stop, step) = self.slice_bounds(sid)?;
                    let (start, _, step, count) = slice_indices(len, start, stop, step);
                    let mut remove: Vec<usize> = (0..count)
                        .map(|k| (start + k as i64 * step) as usize)
                        .collect();
                    remove.sort_unstable();
                    if let Object::List(l) = self.heap.get_mut(id) {
                        for i in remove.into_iter().rev() {
                            l.remove(i);
                        }
                    }
                    return Ok(());
                }
                let Some(i) = self.index_of_value(key)? else {
                    return self.type_error("list indices must be integers");
                };
                let j = if i < 0 { i + len } else { i };
                if j < 0 || j >= len {
                    return Err(self.err("IndexError", "list assignment index out of range"));
                }
                if let Object::List(l) = self.heap.get_mut(id) {
                    l.remove(j as usize);
                }
                Ok(())
            }
            Object::Dict(_) => {
                let hk = self.key_of(key)?;
                let removed = match self.heap.get_mut(id) {
                    Object::Dict(d) => d.remove_key(&hk).is_some(),
                    _ => false,
                };
                if removed {
                    Ok(())
                } else {
                    Err(self.err_value("KeyError", key))
                }
            }
            Object::Instance(_) => match self.user_special(obj, "__delitem__") {
                Some(m) => {
                    self.call_special(obj, m, vec![key])?;
                    Ok(())
                }
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object doesn't support item deletion"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object doesn't support item deletion"))
            }
        }
    }

    /// `item in container`.
    pub fn contains(&mut self, container: Value, item: Value) -> R<bool> {
        let Value::Obj(id) = container else {
            let tn = self.type_name(container);
            return self.type_error(format!("argument of type '{tn}' is not iterable"));
        };
        match self.heap.get(id) {
            Object::List(l) | Object::Tuple(l) => {
                let items = l.clone();
                for x in items {
                    if self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Object::Str(s) => match item {
                Value::Obj(i) => match self.heap.get(i) {
                    Object::Str(t) => Ok(find_bytes(s, t, 0).is_some()),
                    Object::Unicode(_) => {
                        let hay = self.unicode_of(container)?;
                        let needle = self.unicode_of(item)?;
                        Ok(hay.contains(&*needle))
                    }
                    _ => self.type_error("'in <string>' requires string as left operand"),
                },
                _ => self.type_error("'in <string>' requires string as left operand"),
            },
            Object::Unicode(_) => {
                let hay = self.unicode_of(container)?;
                let needle = self.unicode_of(item)?;
                Ok(hay.contains(&*needle))
            }
            Object::Dict(d) | Object::Set(d) => {
                let _ = d;
                let hk = self.key_of(item)?;
                Ok(match self.heap.get(id) {
                    Object::Dict(d) | Object::Set(d) => d.contains_key(&hk),
                    _ => false,
                })
            }
            Object::Instance(_) => {
                if let Some(m) = self.user_special(container, "__contains__") {
                    let r = self.call_special(container, m, vec![item])?;
                    return self.truth(r);
                }
                let items = self.iterate(container)?;
                for x in items {
                    if self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Object::Iterator(_) => {
                while let Some(x) = self.iter_next(container)? {
                    if self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => {
                let tn = self.type_name(container);
                self.type_error(format!("argument of type '{tn}' is not iterable"))
            }
        }
    }

    // ----- iteration -----

    /// `iter(v)`.
    pub fn iter_value(&mut self, v: Value) -> R {
        let not_iterable = |sp: &mut ObjSpace| {
            let tn = sp.type_name(v);
            sp.type_error(format!("'{tn}' object is not iterable"))
        };
        let Value::Obj(id) = v else {
            return not_iterable(self);
        };
        let items = match self.heap.get(id) {
            Object::List(l) | Object::Tuple(l) => l.clone(),
            Object::Dict(d) | Object::Set(d) => d.keys(),
            Object::Str(s) => {
                let s = s.clone();
                s.iter().map(|&c| self.char_str(c)).collect()
            }
            Object::Unicode(s) => {
                let s = s.clone();
                let mut out = Vec::with_capacity(s.len());
                for c in s.chars() {
                    let mut buf = [0u8; 4];
                    out.push(self.new_unicode(c.encode_utf8(&mut buf)));
                }
                out
            }
            Object::Iterator(_) => return Ok(v),
            Object::Instance(i) if i.class == self.types.generator => return Ok(v),
            Object::Instance(i) if i.class == self.types.xrange => {
                let (start, stop, step) = self.xrange_params(id);
                return Ok(self.alloc(Object::Iterator(IterState::Range {
                    next: start,
                    stop,
                    step,
                })));
            }
            Object::Instance(_) => {
                if let Some(m) = self.user_special(v, "__iter__") {
                    return self.call_special(v, m, vec![]);
                }
                if self.user_special(v, "__getitem__").is_some() {
                    // Old-style iteration protocol: obj[0], obj[1], … until IndexError.
                    let mut out = Vec::new();
                    let mut i = 0;
                    loop {
                        match self.getitem(v, Value::Int(i)) {
                            Ok(x) => out.push(x),
                            Err(Unwind::Raise {
                                etype: Value::Obj(e),
                                ..
                            }) if self.is_subclass(e, self.types.exceptions["IndexError"]) => break,
                            Err(e) => return Err(e),
                        }
                        i += 1;
                    }
                    out
                } else {
                    return not_iterable(self);
                }
            }
            _ => return not_iterable(self),
        };
        Ok(self.alloc(Object::Iterator(IterState::Seq { items, pos: 0 })))
    }

    /// One step of an iterator: `None` when exhausted.
    pub fn iter_next(&mut self, it: Value) -> R<Option<Value>> {
        if let Some(gid) = self.is_generator(it) {
            return self.generator_resume(gid, Value::None);
        }
        let Value::Obj(id) = it else {
            let tn = self.type_name(it);
            return self.type_error(format!("'{tn}' object is not an iterator"));
        };
        match self.heap.get_mut(id) {
            Object::Iterator(IterState::Seq { items, pos }) => {
                if *pos < items.len() {
                    let v = items[*pos];
                    *pos += 1;
                    Ok(Some(v))
                } else {
                    Ok(None)
                }
            }
            Object::Iterator(IterState::Range { next, stop, step }) => {
                let cur = *next;
                if (*step > 0 && cur < *stop) || (*step < 0 && cur > *stop) {
                    *next = cur + *step;
                    Ok(Some(Value::Int(cur)))
                } else {
                    Ok(None)
                }
            }
            Object::Instance(_) => {
                let m = self
                    .user_special(it, "next")
                    .or_else(|| self.user_special(it, "__next__"));
                let Some(m) = m else {
                    let tn = self.type_name(it);
                    return self.type_error(format!("'{tn}' object is not an iterator"));
                };
                match self.call_special(it, m, vec![]) {
                    Ok(v) => Ok(Some(v)),
                    Err(Unwind::Raise {
                        etype: Value::Obj(e),
                        ..
                    }) if self.is_subclass(e, self.types.exceptions["StopIteration"]) => Ok(None),
                    Err(e) => Err(e),
                }
            }
            _ => {
                let tn = self.type_name(it);
                self.type_error(format!("'{tn}' object is not an iterator"))
            }
        }
    }

    /// All items of an iterable.
    pub fn iterate(&mut self, v: Value) -> R<Vec<Value>> {
        if let Value::Obj(id) = v {
            match self.heap.get(id) {
                Object::List(l) | Object::Tuple(l) => return Ok(l.clone()),
                Object::Dict(d) | Object::Set(d) => return Ok(d.keys()),
                _ => {}
            }
        }
        let it = self.iter_value(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.iter_next(it)? {
            out.push(x);
            if out.len() % 4096 == 0 {
                self.check_memory()?;
            }
            if out.len() > super::MAX_ITEMS {
                return Err(self.err(
                    "MemoryError",
                    "iteration too long for the import-time model",
                ));
            }
        }
        Ok(out)
    }

    /// Unpacks exactly `n` items.
    pub fn unpack_n(&mut self, seq: Value, n: usize) -> R<Vec<Value>> {
        let items = self.iterate(seq)?;
        if items.len() == n {
            return Ok(items);
        }
        if items.len() > n {
            self.value_error("too many values to unpack")
        } else {
            let k = items.len();
            self.value_error(format!(
                "need more than {k} value{} to unpack",
                if k == 1 { "" } else { "s" }
            ))
        }
    }

    // ----- sets -----

    pub(crate) fn set_add(&mut self, set: Value, item: Value) -> R<()> {
        let hk = self.key_of(item)?;
        if let Value::Obj(id) = set {
            if let Object::Set(d) = self.heap.get_mut(id) {
                d.insert(hk, item, Value::None);
            }
        }
        Ok(())
    }

    // ----- isinstance -----

    /// `issubclass(a, b)` where `b` is a class or a (nested) tuple of classes.
    pub fn issubclass_value(&mut self, a: Value, b: Value) -> R<bool> {
        let Value::Obj(aid) = a else {
            return self.type_error("issubclass() arg 1 must be a class");
        };
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
    pub(crate) fn unicode_of(&mut self, v: Value) -> R<Rc<str>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Unicode(u) => Ok(u.clone()),
                Object::Str(s) => match std::str::from_utf8(s) {
                    Ok(t) if s.is_ascii() => Ok(Rc::from(t)),
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
                    Ok(Rc::from(String::from_utf8_lossy(&s).as_ref()))
                }
            },
            _ => {
                let s = self.str_value(v)?;
                Ok(Rc::from(String::from_utf8_lossy(&s).as_ref()))
            }
        }
    }
}

fn slice_indices_range(start: i64, stop: i64, step: i64) -> usize {
    if step > 0 && stop > start {
        ((stop - start - 1) / step + 1) as usize
    } else if step < 0 && start > stop {
        ((start - stop - 1) / (-step) + 1) as usize
    } else {
        0
    }
}

/// Finds `needle` in `hay` from `start`.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8], start: usize) -> Option<usize> {
    if needle.is_empty() {
        return if start <= hay.len() {
            Some(start)
        } else {
            None
        };
    }
    if needle.len() > hay.len() {
        return None;
    }
    let first = needle[0];
    let last = hay.len() - needle.len();
    let mut i = start;
    while i <= last {
        match hay[i..=last].iter().position(|&b| b == first) {
            None => return None,
            Some(p) => {
                i += p;
                if &hay[i..i + needle.len()] == needle {
                    return Some(i);
                }
                i += 1;
            }
        }
    }
    None
}

/// Python 2's 64-bit string hash.
pub(crate) fn str_hash(s: &[u8]) -> i64 {
    if s.is_empty() {
        return 0;
    }
    let mut x: i64 = (s[0] as i64) << 7;
    for &c in s {
        x = x.wrapping_mul(1_000_003) ^ c as i64;
    }
    x ^= s.len() as i64;
    if x == -1 {
        -2
    } else {
        x
    }
}

/// `hash()` of a hash key (Python 2 algorithms for ints, strings and tuples).
pub(crate) fn hash_of_key(k: &HashKey) -> i64 {
    match k {
        HashKey::None => 0x7a5f_0000,
        HashKey::Int(i) => {
            let h = if let Ok(s) = i64::try_from(*i) {
                s
            } else {
                (*i % ((1i128 << 61) - 1)) as i64
            };
            if h == -1 {
                -2
            } else {
                h
            }
        }
        HashKey::Float(bits) => {
            let f = f64::from_bits(*bits);
            let (m, e) = frexp(f);
            let h = (m * 2147483648.0) as i64 ^ ((e as i64) << 15);
            if h == -1 {
                -2
            } else {
                h
            }
        }
        HashKey::Str(s) => str_hash(s),
        HashKey::Unicode(u) => {
            if u.is_ascii() {
                str_hash(u.as_bytes())
            } else {
                let mut x: i64 = 0;
                for c in u.chars() {
                    x = x.wrapping_mul(1_000_003) ^ c as i64;
                }
                x
            }
        }
        HashKey::Tuple(items) => {
            let mut x: i64 = 0x345678;
            let mut mult: i64 = 1_000_003;
            let n = items.len() as i64;
            for (i, it) in items.iter().enumerate() {
                let y = hash_of_key(it);
                x = (x ^ y).wrapping_mul(mult);
                mult = mult.wrapping_add(82520 + 2 * (n - i as i64 - 1));
            }
            x = x.wrapping_add(97531);
            if x == -1 {
                -2
            } else {
                x
            }
        }
        HashKey::Identity(id) => (id.0 as i64) * 16 + 0x1000_0000,
    }
}

/// `math.frexp`.
pub(crate) fn frexp(f: f64) -> (f64, i32) {
    if f == 0.0 || f.is_nan() || f.is_infinite() {
        return (f, 0);
    }
    let bits = f.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale up first.
        let (m, e) = frexp(f * (1u64 << 54) as f64);
        return (m, e - 54);
    }
    let e = exp - 1022;
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, e)
}
