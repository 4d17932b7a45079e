//! The 128-bit integer (`SignedLongLongLong`, `r_longlonglong`, C's `__int128_t`): its
//! operations that compute a value from their arguments, defined once for the
//! LLInterpreter and for the folding of operations whose arguments are all constants, and
//! the value a constant of this type has in the reference's binary.
//!
//! The reference's backend folds every foldable low-level operation whose arguments are
//! constants (`lllong_lshift(1, 100)` becomes the constant `2**100`) and then writes each
//! constant of this type as a decimal C literal, which gcc cuts to 64 bits. For the other
//! integer types folding changes nothing; for this one it decides which values are cut,
//! so the RTyper folds these operations as the reference does and the consumers of
//! constants (LLInterpreter, genc) apply the literal's cut.

use super::{LlOp, LlValue};

/// Whether the RTyper folds `op` when all its arguments are constants: every 128-bit
/// operation (the reference's divisions are helper functions, which its backend inlines
/// and folds too: `(r_longlonglong(1) << 100) // 7` is `2**100 // 7` cut to 64 bits).
pub fn folds(op: LlOp) -> bool {
    use LlOp::*;
    matches!(
        op,
        LllongIsTrue
            | LllongNeg
            | LllongAbs
            | LllongInvert
            | LllongAdd
            | LllongSub
            | LllongMul
            | LllongLt
            | LllongLe
            | LllongEq
            | LllongNe
            | LllongGt
            | LllongGe
            | LllongAnd
            | LllongOr
            | LllongXor
            | LllongLshift
            | LllongRshift
            | LllongPyDiv
            | LllongPyMod
            | LllongPyDivZer
            | LllongPyModZer
    )
}

/// The result of a 128-bit operation (see `folds`) on `x` and `y` (`y` unused by the
/// unary ones; a shift's count is a word): C's wrapping arithmetic, a shift count taken
/// modulo 128 as gcc's code for a shift by a variable count does, Python's division
/// rounding towards -infinity. `None` for any other operation, and for a division that
/// raises or traps (by zero, or of the most negative value by -1).
#[inline]
pub fn eval(op: LlOp, x: LlValue, y: LlValue) -> Option<LlValue> {
    use LlOp::*;
    let a = x.as_i128();
    let b = || y.as_i128();
    let i = LlValue::int128;
    Some(match op {
        LllongIsTrue => LlValue::Bool(a != 0),
        LllongNeg => i(a.wrapping_neg()),
        LllongAbs => i(a.wrapping_abs()),
        LllongInvert => i(!a),
        LllongAdd => i(a.wrapping_add(b())),
        LllongSub => i(a.wrapping_sub(b())),
        LllongMul => i(a.wrapping_mul(b())),
        LllongLt => LlValue::Bool(a < b()),
        LllongLe => LlValue::Bool(a <= b()),
        LllongEq => LlValue::Bool(a == b()),
        LllongNe => LlValue::Bool(a != b()),
        LllongGt => LlValue::Bool(a > b()),
        LllongGe => LlValue::Bool(a >= b()),
        LllongAnd => i(a & b()),
        LllongOr => i(a | b()),
        LllongXor => i(a ^ b()),
        LllongLshift => i(a.wrapping_shl(y.as_int() as u32)),
        LllongRshift => i(a.wrapping_shr(y.as_int() as u32)),
        LllongPyDiv | LllongPyDivZer | LllongPyMod | LllongPyModZer => {
            let b = b();
            if b == 0 || (a == i128::MIN && b == -1) {
                return None;
            }
            let (q, r) = (a / b, a % b);
            let below = r != 0 && ((r < 0) != (b < 0));
            i(match (matches!(op, LllongPyDiv | LllongPyDivZer), below) {
                (true, true) => q - 1,
                (true, false) => q,
                (false, true) => r + b,
                (false, false) => r,
            })
        }
        _ => return None,
    })
}

/// The value a constant `v` of this type has in the reference's binary: its C writes the
/// constant as the decimal literal `((__int128_t) <v>LL)`, and gcc keeps only the low 64
/// bits of a literal's magnitude past 64 bits ("integer constant is too large for its
/// type"), the sign applying after: `2**100` is 0, `-(2**65 - 1)` is `-(2**64 - 1)`.
pub fn c_constant(v: i128) -> LlValue {
    let m = v.unsigned_abs();
    let kept = if m >> 64 != 0 {
        m as u64 as i128
    } else {
        m as i128
    };
    LlValue::int128(if v < 0 { kept.wrapping_neg() } else { kept })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What gcc 12 made of `((__int128_t) <v>LL)` for these literals (high word as a
    /// signed long long, low word as an unsigned one), probed on this machine.
    #[test]
    fn constants_as_gcc_reads_their_literals() {
        let words = |v: i128| {
            let c = c_constant(v).as_i128();
            ((c >> 64) as i64, c as u64)
        };
        assert_eq!(words(1 << 100), (0, 0));
        assert_eq!(words((1 << 64) - 1), (0, u64::MAX));
        assert_eq!(words(1 << 63), (0, 1 << 63));
        assert_eq!(words(-(1 << 63)), (-1, 1 << 63));
        assert_eq!(words((1 << 65) - 1), (0, u64::MAX));
        assert_eq!(words(-((1 << 65) - 1)), (-1, 1));
        assert_eq!(words(i128::MAX), (0, u64::MAX));
        assert_eq!(words(-5), (-1, (-5i64) as u64));
    }

    #[test]
    fn folding_is_exact_before_the_cut() {
        let one = LlValue::int128(1);
        let big = eval(LlOp::LllongLshift, one, LlValue::Int(100)).unwrap();
        let shifted = eval(LlOp::LllongRshift, big, LlValue::Int(64)).unwrap();
        assert_eq!(shifted.as_i128(), 1 << 36);
        assert_eq!(c_constant(big.as_i128()).as_i128(), 0);
    }
}
