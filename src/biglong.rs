//! Python 2 longs beyond rpy-lsp's 128-bit integers (`1 << 999`): the integer arithmetic
//! CPython applies to them, shared by the compiler's constant folding and the import-time
//! object space. rpy-lsp's integers are i128 everywhere else; a value is kept as a
//! [`BigInt`] only while it does not fit, so that `(1 << 999) >> 990` is the long `512L`
//! the reference sees (not an unknown, nor a prebuilt long that does not fit a word).
//!
//! `None` means "not computed here": an operation CPython would raise on (division by zero,
//! a negative shift count), a float result (a negative power), or a result so large that
//! computing it would only waste memory. Callers then keep their own behaviour.

pub use rustpython_parser::ast::bigint::BigInt;

/// Results above this many bits are not computed (CPython would, slowly; no RPython
/// program needs them, and the value is unknown to rpy-lsp instead).
const MAX_BITS: u64 = 1 << 16;

/// The integer operations computed on longs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    FloorDiv,
    Mod,
    Pow,
    LShift,
    RShift,
    And,
    Or,
    Xor,
    Neg,
    Invert,
    Abs,
}

/// `i` as an i128, if it fits.
pub fn to_i128(i: &BigInt) -> Option<i128> {
    i128::try_from(i).ok()
}

fn is_negative(i: &BigInt) -> bool {
    *i < BigInt::from(0)
}

/// Python's floor division and modulo (`b` is not 0).
fn divmod_floor(a: &BigInt, b: &BigInt) -> (BigInt, BigInt) {
    let (q, r) = (a / b, a % b);
    if r != BigInt::from(0) && is_negative(&r) != is_negative(b) {
        (q - BigInt::from(1), r + b)
    } else {
        (q, r)
    }
}

/// A shift count or exponent as a usize, if it is a non-negative one.
fn small_count(b: &BigInt) -> Option<usize> {
    usize::try_from(to_i128(b)?).ok()
}

/// The binary operation `op` on two Python integers (ints or longs).
pub fn binary(op: IntOp, a: &BigInt, b: &BigInt) -> Option<BigInt> {
    let zero = BigInt::from(0);
    let r = match op {
        IntOp::Add => a + b,
        IntOp::Sub => a - b,
        IntOp::Mul => {
            if a.bits() + b.bits() > MAX_BITS {
                return None;
            }
            a * b
        }
        IntOp::FloorDiv | IntOp::Mod if *b == zero => return None,
        IntOp::FloorDiv => divmod_floor(a, b).0,
        IntOp::Mod => divmod_floor(a, b).1,
        IntOp::Pow => {
            let n = small_count(b)?;
            if a.bits().saturating_mul(n as u64) > MAX_BITS {
                return None;
            }
            a.pow(u32::try_from(n).ok()?)
        }
        IntOp::LShift => {
            let n = small_count(b)?;
            if a.bits() + n as u64 > MAX_BITS {
                return None;
            }
            a << n
        }
        IntOp::RShift => {
            if is_negative(b) {
                return None;
            }
            // beyond the width of `a` only its sign is left
            match small_count(b) {
                Some(n) if (n as u64) <= a.bits() => a >> n,
                _ if is_negative(a) => BigInt::from(-1),
                _ => zero,
            }
        }
        IntOp::And => a & b,
        IntOp::Or => a | b,
        IntOp::Xor => a ^ b,
        IntOp::Neg | IntOp::Invert | IntOp::Abs => return None,
    };
    Some(r)
}

/// The unary operation `op` (`-`, `~`, `abs`) on a Python integer.
pub fn unary(op: IntOp, a: &BigInt) -> Option<BigInt> {
    match op {
        IntOp::Neg => Some(-a),
        IntOp::Invert => Some(!a),
        IntOp::Abs if is_negative(a) => Some(-a),
        IntOp::Abs => Some(a.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(i: i128) -> BigInt {
        BigInt::from(i)
    }

    #[test]
    fn shifts_beyond_128_bits_come_back() {
        let x = binary(IntOp::LShift, &big(1), &big(999)).unwrap();
        assert_eq!(x.bits(), 1000);
        assert_eq!(
            to_i128(&binary(IntOp::RShift, &x, &big(990)).unwrap()),
            Some(512)
        );
        let neg = unary(IntOp::Neg, &x).unwrap();
        assert_eq!(
            to_i128(&binary(IntOp::RShift, &neg, &big(2000)).unwrap()),
            Some(-1)
        );
        assert_eq!(
            to_i128(&binary(IntOp::Xor, &binary(IntOp::Or, &x, &big(1)).unwrap(), &x).unwrap()),
            Some(1)
        );
    }

    #[test]
    fn floor_division_and_modulo_follow_python() {
        let x = binary(IntOp::LShift, &big(1), &big(200)).unwrap();
        let m = binary(IntOp::Mod, &unary(IntOp::Neg, &x).unwrap(), &big(7)).unwrap();
        // -(2**200) % 7 == 3 in Python
        assert_eq!(to_i128(&m), Some(3));
        let q = binary(IntOp::FloorDiv, &unary(IntOp::Neg, &x).unwrap(), &x).unwrap();
        assert_eq!(to_i128(&q), Some(-1));
        assert!(binary(IntOp::Mod, &x, &big(0)).is_none());
        assert!(binary(IntOp::LShift, &x, &big(-1)).is_none());
    }
}
