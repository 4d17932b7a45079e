//! Constants: the Python 2 value of literals (ints that become longs, `L` suffixes, string
//! literals decoded from the source text with their diagnostics, constant tuples) and the
//! constant folding CPython 2.7 does at compile time (negative literals, constant powers), so
//! that the later stages see the same constants as the reference.

use super::Codegen;
use crate::compiler::bytecode::Const;
use crate::compiler::strings::{decode_literal, DecodeError, PyStr};
use crate::syntax::ast::{self, text_size::TextRange};
use crate::syntax::Span;
use std::rc::Rc;

/// A number computed at compile time.
#[derive(Clone, Copy)]
pub(super) enum FoldedNum {
    Int(i128),
    Float(f64),
}

/// The value of a constant power expression (`2 ** 10`, `-2 ** 0.5`…) that CPython 2.7's
/// peephole optimizer folds into a constant, so that no BINARY_POWER reaches the flow space.
/// Numbers, unary minus and plus of numbers, and `**` of those; None where CPython would
/// raise (0 ** -1, a fractional power of a negative number, overflow of floats).
pub(super) fn fold_power(e: &ast::Expr) -> Option<FoldedNum> {
    use FoldedNum::*;
    match e {
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Int(i) => i.to_string().parse::<i128>().ok().map(Int),
            ast::Constant::Float(f) => Some(Float(*f)),
            _ => None,
        },
        ast::Expr::UnaryOp(u) => match (u.op, fold_power(&u.operand)?) {
            (ast::UnaryOp::USub, Int(i)) => i.checked_neg().map(Int),
            (ast::UnaryOp::USub, Float(f)) => Some(Float(-f)),
            (ast::UnaryOp::UAdd, n) => Some(n),
            _ => None,
        },
        ast::Expr::BinOp(b) if b.op == ast::Operator::Pow => {
            let (base, exp) = (fold_power(&b.left)?, fold_power(&b.right)?);
            if let (Int(a), Int(n)) = (base, exp) {
                if n >= 0 {
                    return a.checked_pow(u32::try_from(n).ok()?).map(Int);
                }
            }
            let as_f = |n: FoldedNum| match n {
                Int(i) => i as f64,
                Float(f) => f,
            };
            let (x, y) = (as_f(base), as_f(exp));
            if (x == 0.0 && y < 0.0) || (x < 0.0 && y.fract() != 0.0) {
                return None;
            }
            let r = x.powf(y);
            r.is_finite().then_some(Float(r))
        }
        _ => None,
    }
}

impl<'a> Codegen<'a> {
    /// `-<number literal>` folds into a negative constant (as CPython 2's parser does, so
    /// that `-9223372036854775808` is an int). Returns false if `operand` is not a number.
    pub(super) fn negative_literal(&mut self, operand: &'a ast::Expr, sp: Span) -> bool {
        let ast::Expr::Constant(c) = operand else {
            return false;
        };
        let k = match &c.value {
            ast::Constant::Int(i) => match self.int_const(&i.to_string(), c.range, true) {
                Some(k) => k,
                None => return false,
            },
            ast::Constant::Float(f) => Const::Float(-f),
            _ => return false,
        };
        self.load_const(k, sp);
        true
    }

    fn int_const(&self, digits: &str, range: TextRange, negate: bool) -> Option<Const> {
        let src = self
            .text
            .get(range.start().to_u32() as usize..range.end().to_u32() as usize)
            .unwrap_or("");
        let long_suffix = src.trim_end().ends_with(['l', 'L']);
        let s = if negate {
            format!("-{digits}")
        } else {
            digits.to_string()
        };
        if !long_suffix {
            if let Ok(i) = s.parse::<i64>() {
                return Some(Const::Int(i));
            }
        }
        s.parse::<i128>().ok().map(Const::Long)
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
            ast::Constant::Int(i) => match self.int_const(&i.to_string(), range, false) {
                Some(k) => k,
                None => return Err("integer literal too large (more than 128 bits)".into()),
            },
            ast::Constant::Float(f) => Const::Float(*f),
            ast::Constant::Complex { .. } => return Err("complex numbers are not supported".into()),
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
                Const::Unicode(Rc::from(s.as_str()))
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
            Some(Ok(PyStr::Unicode(s))) => Const::Unicode(Rc::from(s.as_str())),
            Some(Err(DecodeError::Invalid(msg))) => {
                let sp = self.span(c.range);
                self.diag("RPY001", sp, msg);
                self.fallback_string(&c.value, c.kind.as_deref())
            }
            Some(Err(DecodeError::Unsupported(msg))) => {
                let sp = self.span(c.range);
                self.diag("RPY004", sp, msg);
                self.fallback_string(&c.value, c.kind.as_deref())
            }
            _ => self.fallback_string(&c.value, c.kind.as_deref()),
        }
    }
}
