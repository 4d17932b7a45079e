//! Complex numbers (`1j`, `2 + 3j`) with Python 2.7 semantics, for import-time code and
//! the flow space's constant folding: the reference folds operations on complex
//! constants (`print 1j * 2`, `str(z)`, `z.imag`) and rejects only the complex values
//! that reach the annotator. `+ - * /`, unary `- +`, `==`/`!=`, truth, and the
//! `real`/`imag` attributes.

use crate::interpreter::Op;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    /// The complex number `v` is, if it is one.
    fn complex_value(&self, v: Value) -> Option<(f64, f64)> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Complex(re, im) => Some((*re, *im)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `v` as a complex operand: a complex, or a real number.
    fn as_complex(&self, v: Value) -> Option<(f64, f64)> {
        self.complex_value(v)
            .or_else(|| self.float_of(v).map(|f| (f, 0.0)))
    }

    /// A binary operation with a complex operand; `None` when neither operand is one.
    pub(super) fn complex_binary(&mut self, op: Op, a: Value, b: Value) -> Option<R> {
        if self.complex_value(a).is_none() && self.complex_value(b).is_none() {
            return None;
        }
        let ((ar, ai), (br, bi)) = (self.as_complex(a)?, self.as_complex(b)?);
        let (re, im) = match op {
            Op::Add | Op::InplaceAdd => (ar + br, ai + bi),
            Op::Sub | Op::InplaceSub => (ar - br, ai - bi),
            Op::Mul | Op::InplaceMul => (ar * br - ai * bi, ar * bi + ai * br),
            Op::Div | Op::TrueDiv | Op::InplaceDiv | Op::InplaceTrueDiv => {
                if br == 0.0 && bi == 0.0 {
                    return Some(Err(
                        self.err("ZeroDivisionError", "complex division by zero")
                    ));
                }
                complex_div((ar, ai), (br, bi))
            }
            _ => return None,
        };
        Some(Ok(self.alloc(Object::Complex(re, im))))
    }

    /// A unary operation on a complex; `None` for any other operand.
    pub(super) fn complex_unary(&mut self, op: Op, a: Value) -> Option<R> {
        let (re, im) = self.complex_value(a)?;
        match op {
            Op::Pos => Some(Ok(self.alloc(Object::Complex(re, im)))),
            Op::Neg => Some(Ok(self.alloc(Object::Complex(-re, -im)))),
            _ => None,
        }
    }

    /// `a == b` when one side is complex (`None` otherwise).
    pub(super) fn complex_eq(&self, a: Value, b: Value) -> Option<bool> {
        if self.complex_value(a).is_none() && self.complex_value(b).is_none() {
            return None;
        }
        match (self.as_complex(a), self.as_complex(b)) {
            (Some(x), Some(y)) => Some(x == y),
            _ => Some(false),
        }
    }

    /// `z.real`, `z.imag`.
    pub(crate) fn complex_attr(&self, v: Value, name: &str) -> Option<Value> {
        let (re, im) = self.complex_value(v)?;
        match name {
            "real" => Some(Value::Float(re)),
            "imag" => Some(Value::Float(im)),
            _ => None,
        }
    }
}

/// Complex division, scaled by the larger part of the divisor as CPython does (no
/// overflow for large divisors).
fn complex_div((ar, ai): (f64, f64), (br, bi): (f64, f64)) -> (f64, f64) {
    if br.abs() >= bi.abs() {
        let ratio = bi / br;
        let denom = br + bi * ratio;
        ((ar + ai * ratio) / denom, (ai - ar * ratio) / denom)
    } else {
        let ratio = br / bi;
        let denom = br * ratio + bi;
        ((ar * ratio + ai) / denom, (ai * ratio - ar) / denom)
    }
}
