//! Number arithmetic with Python 2.7 semantics: takes two operands already seen as numbers
//! ([`Num`]: int/long, machine integer of `rarithmetic`, float) and gives the result (ints
//! overflowing into longs, machine ints wrapping, classic and floor division, Python modulo),
//! plus the conversions between [`Value`]s and [`Num`]s and `math.frexp`.

use crate::interpreter::Op;
use crate::objspace::object::{IntKind, Object, Value};
use crate::objspace::{ObjSpace, R};

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
    kind.wrap(v)
}

/// The OverflowError of a value that does not fit a narrow signed class.
pub(crate) fn narrow_overflow_message(kind: IntKind, v: i128) -> String {
    let bits = match kind {
        IntKind::Narrow { bits, .. } => bits,
        _ => 64,
    };
    format!("{v} does not fit in signed {bits}-bit integer")
}

fn is_unsigned(k: IntKind) -> bool {
    crate::annotator::model::is_unsigned(k)
}

fn combine_kinds(a: IntKind, b: IntKind) -> IntKind {
    if a == b {
        return a;
    }
    // narrow kinds: CPython's rarithmetic (the same sign widens to the larger size)
    if a.is_narrow() || b.is_narrow() {
        if let Some(k) = crate::annotator::model::compute_restype(a, b) {
            return k;
        }
    }
    // the 128-bit kind absorbs every other (the reference refuses an unsigned one with
    // it; the annotator says so)
    if a == IntKind::LongLongLong || b == IntKind::LongLongLong {
        return IntKind::LongLongLong;
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

/// `math.frexp`: the C library's.
pub(crate) fn frexp(f: f64) -> (f64, i32) {
    crate::libm::frexp(f)
}

impl ObjSpace {
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

    /// An integer result outside the 128-bit model: CPython's would be a long, which
    /// rpy-lsp does not model, so the operation's caller turns this into an unknown value
    /// (`take_beyond_model`), not a Python error.
    pub(super) fn overflow<T>(&mut self) -> R<T> {
        self.beyond_model = true;
        Err(self.err(
            "OverflowError",
            "integer result too large for rpy-lsp's import-time model (128 bits)",
        ))
    }

    /// After an integer operation: an unknown long when its result left the model.
    pub(super) fn take_beyond_model(&mut self) -> Option<Value> {
        if !std::mem::take(&mut self.beyond_model) {
            return None;
        }
        self.warn_unknown(super::super::LONG_RESULT, "the value of");
        Some(self.new_unknown(super::super::LONG_RESULT))
    }

    /// The ZeroDivisionError of an integer `/`, `//`, `%` or true division by `b` = 0.
    fn int_divisor(&mut self, op: Op, b: i128) -> R<()> {
        if b != 0 {
            return Ok(());
        }
        let msg = match op {
            Op::TrueDiv => "division by zero",
            _ => "integer division or modulo by zero",
        };
        Err(self.err("ZeroDivisionError", msg))
    }

    pub(super) fn arith(&mut self, op: Op, x: Num, y: Num) -> R<Option<Num>> {
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
                        self.int_divisor(op, b)?;
                        floordiv_i(a, b)
                    }
                    TrueDiv => {
                        self.int_divisor(op, b)?;
                        return Ok(Some(Num::F(a as f64 / b as f64)));
                    }
                    Mod => {
                        self.int_divisor(op, b)?;
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
                // a narrow signed class does not wrap: CPython's rarithmetic raises
                // OverflowError when a result does not fit it
                let checked = matches!(kind, IntKind::Narrow { signed: true, .. });
                let (a, b) = if checked {
                    (ix(x), ix(y))
                } else {
                    (wrap_rint(kind, ix(x)), wrap_rint(kind, ix(y)))
                };
                let r = match op {
                    Add => a.wrapping_add(b),
                    Sub => a.wrapping_sub(b),
                    Mul => a.wrapping_mul(b),
                    Div | FloorDiv => {
                        self.int_divisor(op, b)?;
                        floordiv_i(a, b).unwrap_or(0)
                    }
                    TrueDiv => {
                        self.int_divisor(op, b)?;
                        return Ok(Some(Num::F(a as f64 / b as f64)));
                    }
                    Mod => {
                        self.int_divisor(op, b)?;
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
                        let width = if kind == IntKind::LongLongLong {
                            128
                        } else {
                            64
                        };
                        if b >= width {
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
                if checked && wrap_rint(kind, r) != r {
                    return Err(self.err("OverflowError", narrow_overflow_message(kind, r)));
                }
                Ok(Some(Num::R(kind, wrap_rint(kind, r))))
            }
        }
    }
}
