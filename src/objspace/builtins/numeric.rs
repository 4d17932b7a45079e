//! Numeric builtins: `abs`, `divmod`, `pow` (with the modular form), `round` (Python 2.7's
//! half-away-from-zero on the exact decimal value), `hex`/`oct`/`bin`, the `int`, `long`,
//! `float` and `bool` constructors with Python 2's literal parsing, the modelled methods of
//! numbers and the machine-integer constructors of `rarithmetic`. Separate because they
//! share the numeric view of values (`Num`) and its overflow rules.

use super::BArgs;
use crate::builtins::BuiltinId as B;
use crate::interpreter::Op;
use crate::objspace::object::{IntKind, Object, Value};
use crate::objspace::ops::{wrap_rint, Num};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    pub(super) fn int_arg(&mut self, v: Value, what: &str) -> R<i128> {
        match self.int_of(v) {
            Some(i) => Ok(i),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!("{what}: an integer is required, got {tn}"))
            }
        }
    }
}

pub(super) fn b_abs(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    match sp.num(v) {
        Some(Num::I(i, l)) => match i.checked_abs() {
            Some(r) => Ok(sp.num_value(Num::I(r, l))),
            None => Err(sp.err("OverflowError", "integer overflow")),
        },
        Some(Num::R(k, i)) => Ok(sp.num_value(Num::R(k, i.abs()))),
        Some(Num::F(f)) => Ok(Value::Float(f.abs())),
        None => match sp.special_method(v, "__abs__") {
            Some(m) => sp.call_special(v, m, vec![]),
            None => {
                let tn = sp.type_name(v);
                sp.type_error(format!("bad operand type for abs(): '{tn}'"))
            }
        },
    }
}

pub(super) fn b_divmod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let q = sp.binary(Op::FloorDiv, a.args[0], a.args[1])?;
    let r = sp.binary(Op::Mod, a.args[0], a.args[1])?;
    Ok(sp.new_tuple(vec![q, r]))
}

pub(super) fn b_pow(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    match a.args.get(2) {
        None | Some(Value::None) => sp.binary(Op::Pow, a.args[0], a.args[1]),
        Some(&m) => {
            let (Some(x), Some(e), Some(m)) =
                (sp.int_of(a.args[0]), sp.int_of(a.args[1]), sp.int_of(m))
            else {
                return sp.type_error(
                    "pow() 3rd argument not allowed unless all arguments are integers",
                );
            };
            if m == 0 {
                return sp.value_error("pow() 3rd argument cannot be 0");
            }
            if e < 0 {
                return sp.type_error(
                    "pow() 2nd argument cannot be negative when 3rd argument specified",
                );
            }
            let mut result: i128 = 1;
            let mut base = x.rem_euclid(m);
            let mut e = e;
            while e > 0 {
                if e & 1 == 1 {
                    result = (result * base).rem_euclid(m);
                }
                base = (base * base).rem_euclid(m);
                e >>= 1;
            }
            if m < 0 && result > 0 {
                result += m;
            }
            Ok(sp.new_int(result))
        }
    }
}

pub(super) fn b_round(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let Some(x) = sp.float_of(a.args[0]) else {
        return sp.type_error("a float is required");
    };
    let n = match a.get(1, "ndigits") {
        Some(v) => sp.int_arg(v, "round()")? as i32,
        None => 0,
    };
    if !x.is_finite() {
        return Ok(Value::Float(x));
    }
    let r = if n == 0 {
        x.round()
    } else if n > 0 {
        // Round half away from zero on the exact decimal value (Python 2.7).
        let n = (n as usize).min(300);
        let exact = format!("{:.*}", n + 40, x.abs());
        let dot = exact.find('.').unwrap_or(exact.len());
        let tail = exact.get(dot + 1 + n..).unwrap_or("");
        let half = tail.starts_with('5') && tail[1..].bytes().all(|b| b == b'0');
        let mag: f64 = if half {
            // Increment the truncated decimal digits by one unit in the last place.
            let mut digits: Vec<u8> = exact[..dot + 1 + n].bytes().collect();
            let mut i = digits.len();
            loop {
                if i == 0 {
                    digits.insert(0, b'1');
                    break;
                }
                i -= 1;
                match digits[i] {
                    b'.' => continue,
                    b'9' => digits[i] = b'0',
                    d => {
                        digits[i] = d + 1;
                        break;
                    }
                }
            }
            String::from_utf8_lossy(&digits).parse().unwrap_or(x.abs())
        } else {
            format!("{:.*}", n, x.abs()).parse().unwrap_or(x.abs())
        };
        mag.copysign(x)
    } else {
        let p = 10f64.powi(-n);
        (x / p).round() * p
    };
    Ok(Value::Float(r))
}

fn radix_repr(sp: &mut ObjSpace, a: &BArgs, radix: u32) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    if let Some(big) = sp.big_long_value(v) {
        // a long beyond 128 bits: its digits, as Python 2 writes a long's
        let neg = big.as_ref() < &crate::biglong::BigInt::from(0);
        let m = if neg {
            -big.as_ref().clone()
        } else {
            big.as_ref().clone()
        };
        let body = match radix {
            16 => format!("0x{m:x}L"),
            2 => format!("0b{m:b}"),
            _ => format!("0{m:o}L"),
        };
        let s = format!("{}{body}", if neg { "-" } else { "" });
        return Ok(sp.new_str(s.as_bytes()));
    }
    let Some(i) = sp.int_of(v) else {
        return sp.type_error("hex()/oct() argument can't be converted to hex/oct");
    };
    let long = matches!(sp.num(v), Some(Num::I(_, true)) | Some(Num::R(..)));
    let neg = if i < 0 { "-" } else { "" };
    let m = i.unsigned_abs();
    let body = match radix {
        16 => format!("0x{m:x}"),
        2 => format!("0b{m:b}"),
        _ => {
            if m == 0 {
                "0".to_string()
            } else {
                format!("0{m:o}")
            }
        }
    };
    let s = format!("{neg}{body}{}", if long && radix != 2 { "L" } else { "" });
    Ok(sp.new_str(s.as_bytes()))
}

pub(super) fn b_hex(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 16)
}

pub(super) fn b_oct(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 8)
}

pub(super) fn b_bin(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 2)
}

/// Parses a Python integer literal in `base` (0: autodetect), as Python 2's `int()` does
/// (`long()` when `long`: only it takes an `L` suffix). Blanks may surround the number
/// and follow its sign.
fn parse_int(text: &str, base: u32, long: bool) -> Option<i128> {
    let t = text.trim_matches(is_py_space);
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start_matches(is_py_space)),
        None => (
            false,
            t.strip_prefix('+')
                .unwrap_or(t)
                .trim_start_matches(is_py_space),
        ),
    };
    let t = if long {
        t.strip_suffix(['l', 'L']).unwrap_or(t)
    } else {
        t
    };
    let lower = t.to_ascii_lowercase();
    let (base, digits) = match base {
        0 => {
            if let Some(r) = lower.strip_prefix("0x") {
                (16, r.to_string())
            } else if let Some(r) = lower.strip_prefix("0o") {
                (8, r.to_string())
            } else if let Some(r) = lower.strip_prefix("0b") {
                (2, r.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower)
            }
        }
        16 => (16, lower.strip_prefix("0x").unwrap_or(&lower).to_string()),
        8 => (8, lower.strip_prefix("0o").unwrap_or(&lower).to_string()),
        2 => (2, lower.strip_prefix("0b").unwrap_or(&lower).to_string()),
        b => (b, lower),
    };
    if digits.is_empty() || digits.contains(['+', '-', ' ']) {
        return None;
    }
    let v = i128::from_str_radix(&digits.replace('_', "x"), base).ok()?;
    Some(if neg { -v } else { v })
}

/// The blanks Python 2's `str.isspace()` knows (vertical tab included).
fn is_py_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

fn int_from(sp: &mut ObjSpace, a: &mut BArgs, long: bool) -> R<i128> {
    a.arity(sp, 0, 2)?;
    let Some(v) = a.get(0, "x") else { return Ok(0) };
    if let Some(b) = a.get(1, "base") {
        let base = sp.int_arg(b, "int()")?;
        if base != 0 && !(2..=36).contains(&base) {
            return sp.value_error("int() base must be >= 2 and <= 36");
        }
        let base = base as u32;
        let Some(text) = sp.text_of(v) else {
            return sp.type_error("int() can't convert non-string with explicit base");
        };
        return match parse_int(&text, base, long) {
            Some(i) => Ok(i),
            None => sp.value_error(format!(
                "invalid literal for int() with base {base}: '{text}'"
            )),
        };
    }
    match sp.num(v) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => return Ok(i),
        Some(Num::F(f)) => {
            if f.is_nan() {
                return sp.value_error("cannot convert float NaN to integer");
            }
            if f.is_infinite() || f.abs() >= 1.7e38 {
                return Err(sp.err("OverflowError", "cannot convert float infinity to integer"));
            }
            return Ok(f.trunc() as i128);
        }
        None => {}
    }
    if let Some(text) = sp.text_of(v) {
        if matches!(v, Value::Obj(id) if matches!(sp.heap.get(id), Object::Str(_) | Object::Unicode(_)))
        {
            return match parse_int(&text, 10, long) {
                Some(i) => Ok(i),
                None => {
                    let r = String::from_utf8_lossy(&sp.repr_value(v)?).into_owned();
                    let what = if long { "long" } else { "int" };
                    sp.value_error(format!("invalid literal for {what}() with base 10: {r}"))
                }
            };
        }
    }
    let special = if long { "__long__" } else { "__int__" };
    if let Some(m) = sp
        .special_method(v, special)
        .or_else(|| sp.special_method(v, "__int__"))
    {
        let r = sp.call_special(v, m, vec![])?;
        if let Some(i) = sp.int_of(r) {
            return Ok(i);
        }
    }
    let tn = sp.type_name(v);
    sp.type_error(format!(
        "int() argument must be a string or a number, not '{tn}'"
    ))
}

pub(super) fn c_int(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let i = int_from(sp, a, false)?;
    Ok(sp.new_int(i))
}

pub(super) fn c_long(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let i = int_from(sp, a, true)?;
    Ok(sp.alloc(Object::Long(i)))
}

/// Parses a Python float literal.
pub(crate) fn parse_float(text: &str) -> Option<f64> {
    let t = text.trim();
    let l = t.to_ascii_lowercase();
    match l.as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(f64::INFINITY),
        "-inf" | "-infinity" => return Some(f64::NEG_INFINITY),
        "nan" | "+nan" | "-nan" => return Some(f64::NAN),
        _ => {}
    }
    if l.is_empty()
        || !l
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-'))
    {
        return None;
    }
    l.parse().ok()
}

pub(super) fn c_float(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let Some(v) = a.args.first().copied() else {
        return Ok(Value::Float(0.0));
    };
    if let Some(f) = sp.float_of(v) {
        return Ok(Value::Float(f));
    }
    if let Some(text) = sp.text_of(v) {
        return match parse_float(&text) {
            Some(f) => Ok(Value::Float(f)),
            None => {
                let r = String::from_utf8_lossy(&sp.repr_value(v)?).into_owned();
                sp.value_error(format!("could not convert string to float: {r}"))
            }
        };
    }
    if let Some(m) = sp.special_method(v, "__float__") {
        return sp.call_special(v, m, vec![]);
    }
    let tn = sp.type_name(v);
    sp.type_error(format!(
        "float() argument must be a string or a number, not '{tn}'"
    ))
}

pub(super) fn c_bool(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => Ok(Value::Bool(sp.truth(v)?)),
        None => Ok(Value::Bool(false)),
    }
}

pub(super) fn m_number(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = a.id;
    let this = a.take_self(sp)?;
    let other = a.args.first().copied().unwrap_or(Value::None);
    match id {
        B::IntDunderAdd => sp.binary(Op::Add, this, other),
        B::IntDunderSub => sp.binary(Op::Sub, this, other),
        B::IntDunderMul => sp.binary(Op::Mul, this, other),
        B::IntDunderEq => sp.compare(Op::Eq, this, other),
        B::IntDunderLt => sp.compare(Op::Lt, this, other),
        B::IntDunderHash => Ok(Value::Int(sp.hash_value(this)?)),
        B::IntBitLength | B::LongBitLength => {
            let i = sp.int_of(this).unwrap_or(0);
            Ok(Value::Int(128 - i.unsigned_abs().leading_zeros() as i64))
        }
        B::FloatIsInteger => Ok(Value::Bool(
            sp.float_of(this).is_some_and(|f| f.fract() == 0.0),
        )),
        _ => Err(sp.unsupported(format!("{} is not modelled", a.id.name()))),
    }
}

/// Machine integer constructors (`r_uint(x)` …): shared by the `rarithmetic` classes.
pub(crate) fn make_rint(sp: &mut ObjSpace, kind: IntKind, a: &BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let v = a.args.first().copied().unwrap_or(Value::Int(0));
    let i = match sp.num(v) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => i,
        Some(Num::F(f)) => {
            if !f.is_finite() {
                return Err(sp.err("OverflowError", "cannot convert float to integer"));
            }
            f.trunc() as i128
        }
        None => {
            let tn = sp.type_name(v);
            return sp.type_error(format!("expected an integer, got {tn}"));
        }
    };
    if matches!(kind, IntKind::Narrow { signed: true, .. }) && wrap_rint(kind, i) != i {
        let m = crate::objspace::ops::narrow_overflow_message(kind, i);
        return Err(sp.err("OverflowError", m));
    }
    Ok(sp.alloc(Object::RInt {
        kind,
        value: wrap_rint(kind, i),
    }))
}
