//! Assignment targets: stores and deletes of names, attributes, subscripts and unpacked
//! tuples/lists, augmented assignment on each target kind, and Python 2's simple slices
//! (`a[i:j]`, compiled to the slice instructions) as against extended ones. Separate because
//! these follow their own stack shapes (`DupTop`/`Rot*` juggling) that loads never need.

use super::expressions::binop;
use super::{Codegen, Ctx};
use crate::compiler::bytecode::Instr;
use crate::compiler::symtable::ScopeKind;
use crate::syntax::ast::{self, Ranged};
use crate::syntax::Span;

impl<'a> Codegen<'a> {
    /// Whether a subscript is a Python 2 simple slice (`a[i:j]`, no second colon).
    fn simple_slice<'e>(&self, s: &'e ast::ExprSubscript) -> Option<&'e ast::ExprSlice> {
        match &*s.slice {
            ast::Expr::Slice(sl) if !self.slice_is_extended(sl) => Some(sl),
            _ => None,
        }
    }

    /// A slice with a step, or with an explicit second colon (`a[::]`, `a[1:2:]`).
    pub(super) fn slice_is_extended(&self, sl: &ast::ExprSlice) -> bool {
        if sl.step.is_some() {
            return true;
        }
        let b = self.text.as_bytes();
        let end = (sl.range.end().to_u32() as usize).min(b.len());
        let skip = |mut i: usize| {
            while i < end {
                match b[i] {
                    b' ' | b'\t' | b'\n' | b'\r' | b'\\' | b')' => i += 1,
                    b'#' => {
                        while i < end && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                    _ => break,
                }
            }
            i
        };
        let mut i = sl
            .lower
            .as_ref()
            .map_or(sl.range.start().to_u32() as usize, |l| {
                l.range().end().to_u32() as usize
            });
        i = skip(i);
        if i >= end || b[i] != b':' {
            return false;
        }
        i += 1;
        if let Some(u) = &sl.upper {
            i = i.max(u.range().end().to_u32() as usize);
        }
        i = skip(i);
        i < end && b[i] == b':'
    }

    /// Pushes the bounds of a simple slice; returns (lower, upper) presence.
    fn slice_bounds(&mut self, sl: &'a ast::ExprSlice) -> (bool, bool) {
        if let Some(l) = &sl.lower {
            self.expr(l);
        }
        if let Some(u) = &sl.upper {
            self.expr(u);
        }
        (sl.lower.is_some(), sl.upper.is_some())
    }

    pub(super) fn subscript(&mut self, s: &'a ast::ExprSubscript, ctx: Ctx, sp: Span) {
        self.expr(&s.value);
        if let Some(sl) = self.simple_slice(s) {
            let (lower, upper) = self.slice_bounds(sl);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::Slice { lower, upper },
                    Ctx::Store => Instr::StoreSlice { lower, upper },
                    Ctx::Del => Instr::DeleteSlice { lower, upper },
                },
                sp,
            );
        } else {
            self.expr(&s.slice);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::Subscr,
                    Ctx::Store => Instr::StoreSubscr,
                    Ctx::Del => Instr::DeleteSubscr,
                },
                sp,
            );
        }
    }

    pub(super) fn store_target(&mut self, t: &'a ast::Expr) {
        let sp = self.span(t.range());
        match t {
            ast::Expr::Name(n) => self.name_op(&n.id, Ctx::Store, sp),
            ast::Expr::Attribute(a) => {
                self.expr(&a.value);
                let n = self.attr_name(&a.attr);
                let i = self.name_index(&n);
                self.emit(Instr::StoreAttr(i), sp);
            }
            ast::Expr::Subscript(s) => self.subscript(s, Ctx::Store, sp),
            ast::Expr::Tuple(ast::ExprTuple { elts, .. })
            | ast::Expr::List(ast::ExprList { elts, .. }) => {
                if elts.iter().any(|e| matches!(e, ast::Expr::Starred(_))) {
                    self.emit(Instr::PopTop, sp);
                    self.unsupported(sp, "starred assignment targets are Python 3 only");
                    return;
                }
                self.unpack_sequence(elts.len() as u32, sp);
                for e in elts {
                    self.store_target(e);
                }
            }
            ast::Expr::Starred(_) => {
                self.emit(Instr::PopTop, sp);
                self.unsupported(sp, "starred assignment targets are Python 3 only");
            }
            _ => {
                self.diag("RPY001", sp, "can't assign to this expression");
                self.emit(Instr::PopTop, sp);
            }
        }
    }

    /// `a, b = seq` unpacks after a test of the length in a function: `UnpackCheck n`, a
    /// jump past the `UnpackMismatch` that raises `ValueError`, then `UnpackSequence n`.
    /// The reference's flow space records `len`, `==` and a switch there, so a list of the
    /// wrong length raises ValueError (which a handler may catch) instead of reading past
    /// its end; the test and the raise are instructions of their own so that each path of
    /// the switch has a place to start from. Module and class bodies only run in Python,
    /// where `UnpackSequence` raises itself.
    fn unpack_sequence(&mut self, n: u32, sp: Span) {
        if self.u().kind != ScopeKind::Function {
            self.emit(Instr::UnpackSequence(n), sp);
            return;
        }
        let ok = self.new_label();
        self.emit(Instr::UnpackCheck(n), sp);
        self.emit(Instr::PopJumpIfTrue(ok), sp);
        self.emit(Instr::UnpackMismatch, sp);
        self.bind(ok);
        self.emit(Instr::UnpackSequence(n), sp);
    }

    pub(super) fn delete_target(&mut self, t: &'a ast::Expr) {
        let sp = self.span(t.range());
        match t {
            ast::Expr::Name(n) => self.name_op(&n.id, Ctx::Del, sp),
            ast::Expr::Attribute(a) => {
                self.expr(&a.value);
                let n = self.attr_name(&a.attr);
                let i = self.name_index(&n);
                self.emit(Instr::DeleteAttr(i), sp);
            }
            ast::Expr::Subscript(s) => self.subscript(s, Ctx::Del, sp),
            ast::Expr::Tuple(ast::ExprTuple { elts, .. })
            | ast::Expr::List(ast::ExprList { elts, .. }) => {
                for e in elts {
                    self.delete_target(e);
                }
            }
            _ => self.diag("RPY001", sp, "can't delete this expression"),
        }
    }

    pub(super) fn aug_assign(&mut self, a: &'a ast::StmtAugAssign, sp: Span) {
        let Some(op) = binop(a.op, self.future_division) else {
            self.unsupported(sp, "the `@` operator is Python 3 only");
            return;
        };
        let op = Instr::Inplace(op);
        match &*a.target {
            ast::Expr::Name(n) => {
                let nsp = self.span(n.range);
                self.name_op(&n.id, Ctx::Load, nsp);
                self.expr(&a.value);
                self.emit(op, sp);
                self.name_op(&n.id, Ctx::Store, nsp);
            }
            ast::Expr::Attribute(at) => {
                let asp = self.span(at.range);
                self.expr(&at.value);
                self.emit(Instr::DupTop, asp);
                let n = self.attr_name(&at.attr);
                let i = self.name_index(&n);
                self.emit(Instr::LoadAttr(i), asp);
                self.expr(&a.value);
                self.emit(op, sp);
                self.emit(Instr::RotTwo, asp);
                self.emit(Instr::StoreAttr(i), asp);
            }
            ast::Expr::Subscript(s) => {
                let ssp = self.span(s.range);
                self.expr(&s.value);
                match self.simple_slice(s) {
                    Some(sl) => match (&sl.lower, &sl.upper) {
                        (None, None) => {
                            self.emit(Instr::DupTop, ssp);
                            self.emit(
                                Instr::Slice {
                                    lower: false,
                                    upper: false,
                                },
                                ssp,
                            );
                            self.expr(&a.value);
                            self.emit(op, sp);
                            self.emit(Instr::RotTwo, ssp);
                            self.emit(
                                Instr::StoreSlice {
                                    lower: false,
                                    upper: false,
                                },
                                ssp,
                            );
                        }
                        (Some(_), Some(_)) => {
                            let (lower, upper) = self.slice_bounds(sl);
                            let tmp = format!(".tmp{}", self.ur().tmp_level);
                            self.hidden_op(&tmp, Ctx::Store, ssp);
                            self.emit(Instr::DupTopTwo, ssp);
                            self.hidden_op(&tmp, Ctx::Load, ssp);
                            self.emit(Instr::Slice { lower, upper }, ssp);
                            self.u().tmp_level += 1;
                            self.expr(&a.value);
                            self.u().tmp_level -= 1;
                            self.emit(op, sp);
                            self.emit(Instr::RotThree, ssp);
                            self.hidden_op(&tmp, Ctx::Load, ssp);
                            self.emit(Instr::StoreSlice { lower, upper }, ssp);
                            self.hidden_cleanup(&[&tmp], ssp);
                        }
                        _ => {
                            let (lower, upper) = self.slice_bounds(sl);
                            self.emit(Instr::DupTopTwo, ssp);
                            self.emit(Instr::Slice { lower, upper }, ssp);
                            self.expr(&a.value);
                            self.emit(op, sp);
                            self.emit(Instr::RotThree, ssp);
                            self.emit(Instr::StoreSlice { lower, upper }, ssp);
                        }
                    },
                    None => {
                        self.expr(&s.slice);
                        self.emit(Instr::DupTopTwo, ssp);
                        self.emit(Instr::Subscr, ssp);
                        self.expr(&a.value);
                        self.emit(op, sp);
                        self.emit(Instr::RotThree, ssp);
                        self.emit(Instr::StoreSubscr, ssp);
                    }
                }
            }
            _ => self.diag("RPY001", sp, "illegal expression for augmented assignment"),
        }
    }
}
