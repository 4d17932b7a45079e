//! Identity and hashing: takes a value and gives its `is` identity, its `id()`, its Python 2
//! `hash()` (user `__hash__` included) and its dict key ([`HashKey`]), raising `TypeError`
//! when unhashable.

use super::arith::{frexp, Num};
use crate::objspace::object::{HashKey, Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
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
        let m = self
            .special_method(v, "__hash__")
            .or_else(|| self.tuple_subclass_special(v, "__hash__"));
        if let Some(m) = m {
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

    /// The hash key of a dict key, raising TypeError when unhashable. An object whose
    /// class defines `__hash__` is hashed by it, as CPython does ([`HashKey::Hashed`]).
    pub(crate) fn key_of(&mut self, v: Value) -> R<HashKey> {
        if let Value::Obj(id) = v {
            if matches!(self.heap.get(id), Object::Instance(_) | Object::Tuple(_)) {
                if let Some(m) = self.user_special(v, "__hash__") {
                    if m == Value::None {
                        let tn = self.type_name(v);
                        return self.type_error(format!("unhashable type: '{tn}'"));
                    }
                    let r = self.call_special(v, m, vec![])?;
                    let h = match self.num(r) {
                        Some(Num::I(i, _)) => i as i64,
                        _ => match self.heap.hash_key(r) {
                            // a long: hashed as CPython hashes it
                            Some(k @ HashKey::Int(_)) => {
                                crate::objspace::pydict_order::py_hash(&k).unwrap_or(0)
                            }
                            _ => return self.type_error("an integer is required"),
                        },
                    };
                    return Ok(HashKey::Hashed(if h == -1 { -2 } else { h }, id));
                }
            }
        }
        match self.heap.hash_key(v) {
            Some(k) => Ok(k),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!("unhashable type: '{tn}'"))
            }
        }
    }
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
                str_hash(&u.ascii_bytes())
            } else {
                let mut x: i64 = 0;
                for &c in u.codes() {
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
        HashKey::Hashed(h, _) => *h,
    }
}
