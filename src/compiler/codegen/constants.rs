//! Constants: the Python 2 value of literals (ints that become longs, `L` suffixes, string
//! literals decoded from the source text with their diagnostics, constant tuples) and the
//! constant folding CPython 2.7 does at compile time (negative literals, arithmetic on
//! constants), so
//! that the later stages see the same constants as the reference.

use super::seqfold::folds_to_sequence;
use super::Codegen;
use crate::biglong::{self, BigInt, IntOp};
use crate::compiler::bytecode::Const;
use crate::compiler::strings::{decode_literal, DecodeError, PyStr};
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::Span;
use std::rc::Rc;

/// A number computed at compile time.
#[derive(Clone)]
pub(super) enum FoldedNum {
    /// An integer, and whether Python 2 makes it a `long` (an `L` literal, a result out of
    /// a machine word, or anything computed from a long: `-2 ** 63` is a long in range).
    Int(i128, bool),
    Float(f64),
    /// A long beyond i128 (`1 << 999`): CPython folds it all the same, and further.
    BigLong(Rc<BigInt>),
}

/// Whether `i` leaves Python 2's `int` (a signed machine word).
fn out_of_word(i: i128) -> bool {
    i64::try_from(i).is_err()
}

/// The value of a constant arithmetic expression that CPython 2.7's peephole optimizer folds
/// into one constant (`2 ** 10`, `1 << 63`, `(1 << 63) >> 3`, `-2 ** 63`, `3 * 4.0`…), so
/// that the later stages see the constant the reference sees. The optimizer scans the
/// bytecode once and folds an operator whose operands are the constants loaded just before
/// it, so exactly these fold: a number literal; unary minus of a non-zero folded value and
/// `~` of one (not unary plus); a binary operator (not the classic `/`) whose left operand
/// folds and whose right operand is a single literal (`2 * (3 + 4)` is not folded: the
/// folded `3 + 4` is not next to the `2` any more). Python's semantics: integers of any
/// size (`1 << 63` is a long, not a wrapped int), `/` only as true division. None where
/// CPython would raise (a division by zero, a negative shift, 0 ** -1, a fractional power
/// of a negative number, a float overflow) or where the integer leaves i128.
pub(super) fn fold_constant(e: &ast::Expr, true_division: bool, text: &str) -> Option<FoldedNum> {
    use FoldedNum::*;
    let fold = |e| fold_constant(e, true_division, text);
    match e {
        ast::Expr::Constant(_) => literal(e, text),
        // `-<literal>` is one constant already in CPython's parser, whatever its value
        ast::Expr::UnaryOp(u)
            if u.op == ast::UnaryOp::USub && literal(&u.operand, text).is_some() =>
        {
            match literal(&u.operand, text)? {
                // a long only by its suffix or the negated value (not the unsigned digits)
                Int(i, _) => i
                    .checked_neg()
                    .map(|n| Int(n, long_suffix(text, u.operand.range()) || out_of_word(n))),
                Float(f) => Some(Float(-f)),
                BigLong(_) => None,
            }
        }
        ast::Expr::UnaryOp(u) => match (u.op, fold(&u.operand)?) {
            // the optimizer negates only a true constant (to keep the sign of -0.0)
            (ast::UnaryOp::USub, Int(i, long)) if i != 0 => {
                i.checked_neg().map(|n| Int(n, long || out_of_word(n)))
            }
            (ast::UnaryOp::USub, Float(f)) if f != 0.0 => Some(Float(-f)),
            (ast::UnaryOp::Invert, Int(i, long)) => Some(Int(!i, long)),
            (ast::UnaryOp::USub, BigLong(i)) => biglong::unary(IntOp::Neg, &i).map(long_of),
            (ast::UnaryOp::Invert, BigLong(i)) => biglong::unary(IntOp::Invert, &i).map(long_of),
            _ => None,
        },
        ast::Expr::BinOp(b) => {
            let x = fold(&b.left)?;
            let single = matches!(&*b.right, ast::Expr::Constant(_))
                || matches!(&*b.right, ast::Expr::UnaryOp(u)
                    if u.op == ast::UnaryOp::USub && literal(&u.operand, text).is_some());
            let y = fold(&b.right).filter(|_| single)?;
            match b.op {
                // `/` is folded only as true division (`from __future__ import division`):
                // the classic one depends on the interpreter's -Q flag
                ast::Operator::Div if !true_division => None,
                op => fold_binary(op, x, y),
            }
        }
        _ => None,
    }
}

/// Whether the literal at `range` of `text` ends with Python 2's `L` (a long whatever its
/// value).
fn long_suffix(text: &str, range: TextRange) -> bool {
    text.get(range.start().to_u32() as usize..range.end().to_u32() as usize)
        .unwrap_or("")
        .trim_end()
        .ends_with(['l', 'L'])
}

/// The value of a number literal (`text` is the module's source, for the `L` suffix).
fn literal(e: &ast::Expr, text: &str) -> Option<FoldedNum> {
    match e {
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Int(i) => {
                let i = i.to_string().parse::<i128>().ok()?;
                Some(FoldedNum::Int(
                    i,
                    long_suffix(text, c.range) || out_of_word(i),
                ))
            }
            ast::Constant::Float(f) => Some(FoldedNum::Float(*f)),
            _ => None,
        },
        _ => None,
    }
}

fn fold_binary(op: ast::Operator, a: FoldedNum, b: FoldedNum) -> Option<FoldedNum> {
    use ast::Operator as O;
    use FoldedNum::*;
    let as_f = |n: &FoldedNum| match n {
        Int(i, _) => *i as f64,
        Float(f) => *f,
        BigLong(_) => f64::NAN,
    };
    match (&a, &b) {
        (BigLong(_), Int(..) | BigLong(_)) | (Int(..), BigLong(_)) => return fold_big(op, &a, &b),
        (BigLong(_), _) | (_, BigLong(_)) => return None,
        _ => {}
    }
    let finite = |r: f64| r.is_finite().then_some(Float(r));
    if let (Int(x, lx), Int(y, ly)) = (&a, &b) {
        let (x, y, lx, ly) = (*x, *y, *lx, *ly);
        // an int result out of a word becomes a long, as anything computed from a long
        let int = |r: i128| Int(r, lx || ly || out_of_word(r));
        // a result beyond i128 is a long CPython still folds
        let big = |r: Option<i128>| match r {
            Some(r) => Some(int(r)),
            None => fold_big(op, &a, &b),
        };
        return match op {
            O::Add => big(x.checked_add(y)),
            O::Sub => big(x.checked_sub(y)),
            O::Mult => big(x.checked_mul(y)),
            O::FloorDiv | O::Mod if y == 0 => None,
            // i128::MIN // -1 is the one quotient beyond i128: a long
            O::FloorDiv => big(x.checked_div(y).map(|_| floor_div(x, y))),
            O::Mod => Some(int(py_mod(x, y))),
            O::LShift if y < 0 => None,
            O::LShift if x == 0 => Some(int(0)),
            O::LShift => {
                let shifted = u32::try_from(y)
                    .ok()
                    .filter(|&n| n < 127)
                    .and_then(|n| x.checked_shl(n).filter(|r| r >> n == x));
                big(shifted)
            }
            O::RShift if y < 0 => None,
            O::RShift => Some(int(x >> y.min(127))),
            O::BitAnd => Some(int(x & y)),
            O::BitOr => Some(int(x | y)),
            O::BitXor => Some(int(x ^ y)),
            O::Pow if y >= 0 => big(u32::try_from(y).ok().and_then(|n| x.checked_pow(n))),
            O::Pow | O::Div => fold_binary(op, Float(x as f64), Float(y as f64)),
            _ => None,
        };
    }
    let (x, y) = (as_f(&a), as_f(&b));
    match op {
        O::Add => finite(x + y),
        O::Sub => finite(x - y),
        O::Mult => finite(x * y),
        O::Div | O::FloorDiv | O::Mod if y == 0.0 => None,
        O::Div => finite(x / y),
        O::FloorDiv => finite((x / y).floor()),
        O::Mod => {
            // the sign of the divisor, as Python's float %
            let r = x % y;
            finite(if r != 0.0 && (r < 0.0) != (y < 0.0) {
                r + y
            } else {
                r
            })
        }
        O::Pow => {
            if (x == 0.0 && y < 0.0) || (x < 0.0 && y.fract() != 0.0) {
                return None;
            }
            finite(x.powf(y))
        }
        _ => None,
    }
}

/// The long CPython folds `a op b` into when an operand or the result leaves i128.
fn fold_big(op: ast::Operator, a: &FoldedNum, b: &FoldedNum) -> Option<FoldedNum> {
    use ast::Operator as O;
    let op = match op {
        O::Add => IntOp::Add,
        O::Sub => IntOp::Sub,
        O::Mult => IntOp::Mul,
        O::FloorDiv => IntOp::FloorDiv,
        O::Mod => IntOp::Mod,
        O::Pow => IntOp::Pow,
        O::LShift => IntOp::LShift,
        O::RShift => IntOp::RShift,
        O::BitAnd => IntOp::And,
        O::BitOr => IntOp::Or,
        O::BitXor => IntOp::Xor,
        _ => return None,
    };
    let big = |n: &FoldedNum| match n {
        FoldedNum::Int(i, _) => Some(BigInt::from(*i)),
        FoldedNum::BigLong(i) => Some((**i).clone()),
        FoldedNum::Float(_) => None,
    };
    biglong::binary(op, &big(a)?, &big(b)?).map(long_of)
}

/// A long computed beyond i128: back to an i128 long when it fits.
fn long_of(i: BigInt) -> FoldedNum {
    match biglong::to_i128(&i) {
        Some(small) => FoldedNum::Int(small, true),
        None => FoldedNum::BigLong(Rc::new(i)),
    }
}

/// Python's integer modulo, with the sign of `y` (`y` is not 0); never overflows.
fn py_mod(x: i128, y: i128) -> i128 {
    let r = x.checked_rem(y).unwrap_or(0);
    if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    }
}

/// Python's integer floor division (`y` is not 0, and not `-1` when `x` is `i128::MIN`).
fn floor_div(x: i128, y: i128) -> i128 {
    let q = x / y;
    if (x % y != 0) && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// How CPython 2.7's peephole pass sees an expression when it counts the constants loaded
/// just before a `BUILD_TUPLE`/`BUILD_LIST`: one `LOAD_CONST` of a literal, or a constant it
/// folded itself (arithmetic, a tuple of constants), after which its count restarts at 1.
#[derive(Clone, Copy, PartialEq)]
enum ConstUnit {
    Literal,
    Folded,
    NotConstant,
}

/// Whether the optimizer turns the display `elts` (of a tuple, or of a list that is the
/// right operand of `in`/`not in`) into one constant tuple: the `LOAD_CONST`s it counts
/// right before the `BUILD_*` must cover every item. A folded item restarts the count at 1
/// and anything else at 0, so `[2 * 3, 4]` and `[(1, 2), 5]` fold while `[4, 2 * 3]` and
/// `[(1, 2), (3, 4)]` do not (`True` is a global name in Python 2, not a constant).
pub(super) fn display_folds(elts: &[ast::Expr], true_division: bool, text: &str) -> bool {
    let mut run = 0usize;
    for e in elts {
        run = match const_unit(e, true_division, text) {
            ConstUnit::Literal => run + 1,
            ConstUnit::Folded => 1,
            ConstUnit::NotConstant => 0,
        };
    }
    run >= elts.len()
}

fn const_unit(e: &ast::Expr, true_division: bool, text: &str) -> ConstUnit {
    match e {
        ast::Expr::Constant(c) => match c.value {
            ast::Constant::Bool(_) => ConstUnit::NotConstant,
            _ => ConstUnit::Literal,
        },
        // `-<number>` is one literal in CPython's parser
        ast::Expr::UnaryOp(u)
            if u.op == ast::UnaryOp::USub && literal(&u.operand, text).is_some() =>
        {
            ConstUnit::Literal
        }
        ast::Expr::Tuple(t) if display_folds(&t.elts, true_division, text) => ConstUnit::Folded,
        _ if fold_constant(e, true_division, text).is_some() => ConstUnit::Folded,
        _ if folds_to_sequence(e, true_division, text) => ConstUnit::Folded,
        _ => ConstUnit::NotConstant,
    }
}

impl<'a> Codegen<'a> {
    /// `fold_constant` of `e` in this module.
    /// Whether `x in [a, b]` / `x not in [a, b]` gets the constant tuple `(a, b)` as its
    /// right operand in CPython 2.7 (its optimizer's only rewrite of a list display), which
    /// the flow space then folds like any constant tuple.
    pub(super) fn in_list_folds(&self, elts: &[ast::Expr]) -> bool {
        display_folds(elts, self.future_division, self.text)
    }

    pub(super) fn fold(&self, e: &ast::Expr) -> Option<FoldedNum> {
        fold_constant(e, self.future_division, self.text)
    }

    /// Loads the constant CPython's optimizer folds `e` into (`fold` is Some).
    pub(super) fn load_folded(&mut self, e: &ast::Expr, sp: Span) {
        let k = match self.fold(e) {
            Some(FoldedNum::Int(i, true)) => Const::Long(i),
            Some(FoldedNum::Int(i, false)) => Const::Int(i as i64),
            Some(FoldedNum::Float(f)) => Const::Float(f),
            Some(FoldedNum::BigLong(i)) => Const::BigLong(i),
            None => return,
        };
        self.load_const(k, sp);
    }

    fn int_const(&self, digits: &str, range: TextRange) -> Option<Const> {
        if !long_suffix(self.text, range) {
            if let Ok(i) = digits.parse::<i64>() {
                return Some(Const::Int(i));
            }
        }
        digits.parse::<i128>().ok().map(Const::Long)
    }

    pub(super) fn constant(&mut self, c: &'a ast::ExprConstant) -> Result<Const, String> {
        self.constant_value(&c.value, c.range, c.kind.as_deref(), Some(c))
    }

    fn constant_value(
        &mut self,
        v: &ast::Constant,
        range: TextRange,
        kind: Option<&str>,
        node: Option<&ast::ExprConstant>,
    ) -> Result<Const, String> {
        Ok(match v {
            ast::Constant::None => Const::None,
            ast::Constant::Bool(b) => Const::Bool(*b),
            ast::Constant::Str(_) | ast::Constant::Bytes(_) => match node {
                Some(n) => self.string_const(n),
                None => self.fallback_string(v, kind),
            },
            ast::Constant::Int(i) => match self.int_const(&i.to_string(), range) {
                Some(k) => k,
                None => return Err("integer literal too large (more than 128 bits)".into()),
            },
            ast::Constant::Float(f) => Const::Float(*f),
            ast::Constant::Complex { real, imag } => Const::Complex(*real, *imag),
            ast::Constant::Ellipsis => Const::Ellipsis,
            ast::Constant::Tuple(items) => {
                let mut out = Vec::new();
                for item in items {
                    out.push(self.constant_value(item, range, None, None)?);
                }
                Const::Tuple(out.into())
            }
        })
    }

    fn fallback_string(&self, v: &ast::Constant, kind: Option<&str>) -> Const {
        match v {
            ast::Constant::Str(s) if self.unicode_literals || kind == Some("u") => {
                Const::Unicode(crate::compiler::UStr::from(s.as_str()))
            }
            ast::Constant::Str(s) => Const::Str(Rc::from(s.as_bytes())),
            ast::Constant::Bytes(b) => Const::Str(Rc::from(b.as_slice())),
            _ => Const::None,
        }
    }

    /// A string literal's Python 2 value, decoded from the source text.
    pub(super) fn string_const(&mut self, c: &ast::ExprConstant) -> Const {
        let (start, end) = (
            c.range.start().to_u32() as usize,
            c.range.end().to_u32() as usize,
        );
        let decoded = self
            .text
            .get(start..end)
            .map(|src| decode_literal(src, self.unicode_literals));
        match decoded {
            Some(Ok(PyStr::Bytes(b))) => Const::Str(Rc::from(b.as_slice())),
            Some(Ok(PyStr::Unicode(s))) => Const::Unicode(s),
            Some(Err(DecodeError::Invalid(msg))) => {
                let sp = self.span(c.range);
                self.diag("RPY001", sp, msg);
                self.fallback_string(&c.value, c.kind.as_deref())
            }
            _ => self.fallback_string(&c.value, c.kind.as_deref()),
        }
    }
}
