//! Strings and tuples that CPython 2.7's peephole pass folds into one constant
//! (`"ab" * 3`, `3 * "ab"`, `"a" + "b"`, `("a",) * 2`, `"abc"[1]`), for the count of
//! constants it makes before turning a list display right before `in` into a constant tuple
//! (`x in ["ab" * 3, "c"]` loads `('ababab', 'c')`, while `x in ["c", "ab" * 3]` stays a
//! list: a folded item restarts the count at 1, see `constants::display_folds`).
//!
//! The optimizer folds a binary operator or a subscript whose two operands are the two
//! constants loaded right before it (the right one a single literal), as numbers do, and
//! keeps the result only if it has no size or a size of at most 20 (`"x" * 30` stays an
//! operation). Only the kind and the length of a folded value matter here, not its text.

use super::constants::fold_constant;
use crate::compiler::strings::{decode_literal, PyStr};
use crate::syntax::ast;

/// Where the folding happens: the module's text and whether `/` is true division.
struct FoldCtx<'t> {
    true_division: bool,
    text: &'t str,
}

/// CPython 2.7 keeps a folded constant only up to this size (`fold_binops_on_constants`).
const MAX_FOLDED_SIZE: usize = 20;

/// What a folded constant is, as far as further folding and the size rule need.
#[derive(Clone, Copy)]
enum Folded {
    /// A number (an int's value when it is one, for repetition counts).
    Num(Option<i128>),
    /// A `str` of this length, and whether it is ASCII (it may then join a unicode string).
    Str(usize, bool),
    Unicode(usize),
    Tuple(usize),
    /// Folded, but nothing we follow further (an item of a constant tuple).
    Other,
}

/// Whether `e` is a string/tuple operation the optimizer folds into one constant (a bare
/// literal is not: it is counted as a literal by the caller).
pub(super) fn folds_to_sequence(e: &ast::Expr, true_division: bool, text: &str) -> bool {
    let cx = FoldCtx {
        true_division,
        text,
    };
    matches!(e, ast::Expr::BinOp(_) | ast::Expr::Subscript(_))
        && matches!(
            folded(e, &cx),
            Some(Folded::Str(..) | Folded::Unicode(_) | Folded::Tuple(_) | Folded::Other)
        )
}

/// A single `LOAD_CONST` in CPython 2.7's bytecode: a literal (with `-<number>`, which its
/// parser makes one constant). Only such an operand can be the right side of a fold.
fn single_literal(e: &ast::Expr) -> bool {
    match e {
        ast::Expr::Constant(c) => !matches!(c.value, ast::Constant::Bool(_)),
        ast::Expr::UnaryOp(u) => {
            u.op == ast::UnaryOp::USub
                && matches!(&*u.operand, ast::Expr::Constant(c)
                    if matches!(c.value, ast::Constant::Int(_) | ast::Constant::Float(_)))
        }
        _ => false,
    }
}

fn folded(e: &ast::Expr, cx: &FoldCtx) -> Option<Folded> {
    match e {
        ast::Expr::Constant(c) => literal(c, cx),
        ast::Expr::Tuple(t)
            if super::constants::display_folds(&t.elts, cx.true_division, cx.text) =>
        {
            Some(Folded::Tuple(t.elts.len()))
        }
        ast::Expr::BinOp(b) if single_literal(&b.right) => {
            let (x, y) = (folded(&b.left, cx)?, folded(&b.right, cx)?);
            let r = match (b.op, x, y) {
                (_, Folded::Num(_), Folded::Num(_)) => {
                    let n = fold_constant(e, cx.true_division, cx.text)?;
                    return Some(Folded::Num(match n {
                        super::constants::FoldedNum::Int(i, _) => Some(i),
                        _ => None,
                    }));
                }
                (ast::Operator::Mult, s, Folded::Num(Some(k)))
                | (ast::Operator::Mult, Folded::Num(Some(k)), s) => repeat(s, k)?,
                (ast::Operator::Add, a, b) => concat(a, b)?,
                _ => return None,
            };
            fits(r)
        }
        ast::Expr::Subscript(s) if single_literal(&s.slice) => {
            let len = |v: Folded| match v {
                Folded::Str(n, _) | Folded::Unicode(n) | Folded::Tuple(n) => Some(n),
                _ => None,
            };
            let v = folded(&s.value, cx)?;
            let n = len(v)? as i128;
            let i = match folded(&s.slice, cx)? {
                Folded::Num(Some(i)) => i,
                _ => return None,
            };
            // an index out of range raises IndexError: the optimizer leaves the operation
            if !(-n..n).contains(&i) {
                return None;
            }
            Some(match v {
                Folded::Str(_, ascii) => Folded::Str(1, ascii),
                Folded::Unicode(_) => Folded::Unicode(1),
                _ => Folded::Other,
            })
        }
        _ if single_literal(e) => match e {
            ast::Expr::UnaryOp(u) => match &*u.operand {
                ast::Expr::Constant(c) => match literal(c, cx)? {
                    Folded::Num(i) => Some(Folded::Num(i.and_then(i128::checked_neg))),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn literal(c: &ast::ExprConstant, cx: &FoldCtx) -> Option<Folded> {
    match &c.value {
        ast::Constant::Int(i) => Some(Folded::Num(i.to_string().parse::<i128>().ok())),
        ast::Constant::Float(_) => Some(Folded::Num(None)),
        ast::Constant::Str(_) | ast::Constant::Bytes(_) => {
            let src = cx
                .text
                .get(c.range.start().to_u32() as usize..c.range.end().to_u32() as usize)?;
            // (an unprefixed literal under `unicode_literals` is taken as a str: only its
            // length and whether it is ASCII matter, which are the same for ASCII text)
            match decode_literal(src, false).ok()? {
                PyStr::Bytes(b) => Some(Folded::Str(b.len(), b.is_ascii())),
                PyStr::Unicode(u) => Some(Folded::Unicode(u.codes().len())),
            }
        }
        _ => None,
    }
}

/// `s * k` (or `k * s`): a negative count gives the empty value.
fn repeat(s: Folded, k: i128) -> Option<Folded> {
    let times = |n: usize| usize::try_from(k.max(0)).ok()?.checked_mul(n);
    Some(match s {
        Folded::Str(n, ascii) => Folded::Str(times(n)?, ascii),
        Folded::Unicode(n) => Folded::Unicode(times(n)?),
        Folded::Tuple(n) => Folded::Tuple(times(n)?),
        _ => return None,
    })
}

/// `a + b`: strings (a `str` joins a unicode string only when it is ASCII: otherwise its
/// decoding raises and nothing is folded) and tuples.
fn concat(a: Folded, b: Folded) -> Option<Folded> {
    use Folded::*;
    Some(match (a, b) {
        (Str(m, x), Str(n, y)) => Str(m + n, x && y),
        (Unicode(m), Unicode(n)) => Unicode(m + n),
        (Str(m, true), Unicode(n)) | (Unicode(m), Str(n, true)) => Unicode(m + n),
        (Tuple(m), Tuple(n)) => Tuple(m + n),
        _ => return None,
    })
}

/// The optimizer throws a result away when its size passes the limit.
fn fits(r: Folded) -> Option<Folded> {
    match r {
        Folded::Str(n, _) | Folded::Unicode(n) | Folded::Tuple(n) if n > MAX_FOLDED_SIZE => None,
        _ => Some(r),
    }
}
