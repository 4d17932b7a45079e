//! Exits and exceptions: `break`, `continue` and `return` unwind the enclosing fblocks
//! (running copies of `finally` bodies and `with` exits on the way), `raise` (including the
//! Python 2 re-raise of the last caught exception), `try/except`, `try/finally` and `with`.
//! Separate because these share the fblock stack and its unwinding rules, which nothing else
//! touches.

use super::{Codegen, Ctx, FBlock};
use crate::compiler::bytecode::{CmpOp, Const, Instr};
use crate::compiler::symtable::ScopeKind;
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::Span;
use std::rc::Rc;

/// Whether a body (not looking into nested functions and classes) has a bare `raise` inside
/// the body of an `except` clause.
pub(super) fn reraise_in_handler(body: &[ast::Stmt], in_handler: bool) -> bool {
    body.iter().any(|s| match s {
        ast::Stmt::Raise(r) => in_handler && r.exc.is_none(),
        ast::Stmt::If(i) => {
            reraise_in_handler(&i.body, in_handler) || reraise_in_handler(&i.orelse, in_handler)
        }
        ast::Stmt::For(f) => {
            reraise_in_handler(&f.body, in_handler) || reraise_in_handler(&f.orelse, in_handler)
        }
        ast::Stmt::While(w) => {
            reraise_in_handler(&w.body, in_handler) || reraise_in_handler(&w.orelse, in_handler)
        }
        ast::Stmt::With(w) => reraise_in_handler(&w.body, in_handler),
        ast::Stmt::Try(t) => {
            reraise_in_handler(&t.body, in_handler)
                || reraise_in_handler(&t.orelse, in_handler)
                || reraise_in_handler(&t.finalbody, in_handler)
                || t.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    reraise_in_handler(&h.body, true)
                })
        }
        _ => false,
    })
}

impl<'a> Codegen<'a> {
    /// Leaves the fblock at index `i` (an exit crossing it): pops its handler, runs its
    /// finally body or `__exit__`, drops its stack values. `keep_value`: a return value is
    /// on top of the stack and must survive.
    fn unwind_block(&mut self, i: usize, block: &FBlock<'a>, keep_value: bool, span: Span) {
        match block {
            FBlock::Except => self.emit(Instr::PopBlock, span),
            FBlock::TryFinally(body) => {
                self.emit(Instr::PopBlock, span);
                self.u().fblocks.truncate(i);
                if keep_value {
                    self.u().fblocks.push(FBlock::Stack(1));
                }
                self.u().fblocks.push(FBlock::FinallyBody);
                self.stmts(body);
            }
            FBlock::With { mgr, span: wsp } => {
                self.emit(Instr::PopBlock, span);
                self.u().fblocks.truncate(i);
                self.with_exit_normal(&mgr.clone(), *wsp);
            }
            FBlock::Stack(n) if !keep_value => {
                for _ in 0..*n {
                    self.emit(Instr::PopTop, span);
                }
            }
            _ => {}
        }
    }

    pub(super) fn break_continue(&mut self, is_break: bool, sp: Span) {
        let blocks = self.ur().fblocks.clone();
        let Some(li) = blocks
            .iter()
            .rposition(|b| matches!(b, FBlock::Loop { .. }))
        else {
            let msg = if is_break {
                "'break' outside loop"
            } else {
                "'continue' not properly in loop"
            };
            self.diag("RPY001", sp, msg);
            return;
        };
        if !is_break
            && blocks[li..]
                .iter()
                .any(|b| matches!(b, FBlock::FinallyBody))
        {
            self.diag(
                "RPY001",
                sp,
                "'continue' not supported inside 'finally' clause",
            );
        }
        for i in (li + 1..blocks.len()).rev() {
            self.unwind_block(i, &blocks[i], false, sp);
        }
        if let FBlock::Loop {
            cont,
            brk,
            for_iter,
        } = blocks[li]
        {
            if is_break {
                if for_iter {
                    self.emit(Instr::PopTop, sp);
                }
                self.emit(Instr::Jump(brk), sp);
            } else {
                self.emit(Instr::Jump(cont), sp);
            }
        }
        self.u().fblocks = blocks;
    }

    pub(super) fn return_stmt(&mut self, value: Option<&'a ast::Expr>, sp: Span) {
        if self.ur().kind != ScopeKind::Function {
            self.diag("RPY001", sp, "'return' outside function");
            return;
        }
        if self.ur().generator
            && value.is_some_and(
                |v| !matches!(v, ast::Expr::Constant(c) if c.value == ast::Constant::None),
            )
        {
            self.diag("RPY001", sp, "'return' with argument inside generator");
        }
        match value {
            Some(v) => self.expr(v),
            None => self.load_const(Const::None, sp),
        }
        let blocks = self.ur().fblocks.clone();
        if let Some(first) = blocks
            .iter()
            .position(|b| matches!(b, FBlock::TryFinally(_) | FBlock::With { .. }))
        {
            for i in (first..blocks.len()).rev() {
                self.unwind_block(i, &blocks[i], true, sp);
            }
            self.u().fblocks = blocks;
        }
        self.emit(Instr::ReturnValue, sp);
    }

    pub(super) fn raise_stmt(&mut self, r: &'a ast::StmtRaise, sp: Span) {
        if r.cause.is_some() {
            self.unsupported(sp, "`raise ... from ...` is Python 3 only");
            return;
        }
        match &r.exc {
            Some(e) => {
                self.expr(e);
                self.emit(Instr::Raise(1), sp);
            }
            None => {
                let in_handler = self
                    .ur()
                    .fblocks
                    .iter()
                    .any(|b| matches!(b, FBlock::Handler));
                if in_handler && self.ur().save_exc {
                    self.hidden_op(".exc_value", Ctx::Load, sp);
                    self.hidden_op(".exc_type", Ctx::Load, sp);
                    self.emit(Instr::ReraiseCaught, sp);
                } else {
                    self.emit(Instr::Raise(0), sp);
                }
            }
        }
    }

    pub(super) fn try_except(&mut self, t: &'a ast::StmtTry, sp: Span) {
        let handler = self.new_label();
        let else_l = self.new_label();
        let end = self.new_label();
        self.emit(Instr::SetupExcept(handler), sp);
        self.u().fblocks.push(FBlock::Except);
        self.stmts(&t.body);
        self.u().fblocks.pop();
        self.emit(Instr::PopBlock, sp);
        self.emit(Instr::Jump(else_l), sp);
        self.bind(handler);
        let n = t.handlers.len();
        let mut caught_all = false;
        for (k, h) in t.handlers.iter().enumerate() {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            let hsp = self.span(h.range);
            let next = self.new_label();
            match &h.type_ {
                Some(ty) => {
                    self.emit(Instr::DupTop, hsp);
                    self.expr(ty);
                    self.emit(Instr::Compare(CmpOp::ExcMatch), hsp);
                    self.emit(Instr::PopJumpIfFalse(next), hsp);
                }
                None => {
                    if k + 1 < n {
                        self.diag("RPY001", hsp, "default 'except:' must be last");
                    }
                    caught_all = true;
                }
            }
            let save = self.ur().save_exc;
            if save {
                self.hidden_op(".exc_type", Ctx::Store, hsp);
                self.emit(Instr::DupTop, hsp);
                self.hidden_op(".exc_value", Ctx::Store, hsp);
            } else {
                self.emit(Instr::PopTop, hsp);
            }
            match &h.name {
                Some(name) => {
                    let nsp = self.name_span_in(h.range, name);
                    self.name_op(name, Ctx::Store, nsp);
                }
                None => self.emit(Instr::PopTop, hsp),
            }
            self.u().handler_level += 1;
            self.u().fblocks.push(FBlock::Handler);
            self.stmts(&h.body);
            self.u().fblocks.pop();
            self.u().handler_level -= 1;
            if save && self.ur().handler_level == 0 {
                self.hidden_cleanup(&[".exc_type", ".exc_value"], hsp);
            }
            self.emit(Instr::Jump(end), hsp);
            self.bind(next);
            if caught_all {
                break;
            }
        }
        if !caught_all {
            self.emit(Instr::Reraise, sp);
        }
        self.bind(else_l);
        self.stmts(&t.orelse);
        self.bind(end);
    }

    /// Span of the `as` name of an except handler (the last occurrence in its header).
    fn name_span_in(&self, range: TextRange, name: &str) -> Span {
        let (start, end) = (
            range.start().to_u32() as usize,
            range.end().to_u32() as usize,
        );
        if let Some(seg) = self.text.get(start..end.min(self.text.len())) {
            let header = seg.split(':').next().unwrap_or(seg);
            if let Some(p) = header.rfind(name) {
                let s = (start + p) as u32;
                return Span::new(self.file, s, s + name.len() as u32);
            }
        }
        self.span(range)
    }

    pub(super) fn try_finally(&mut self, t: &'a ast::StmtTry, sp: Span) {
        let handler = self.new_label();
        let end = self.new_label();
        self.emit(Instr::SetupExcept(handler), sp);
        self.u().fblocks.push(FBlock::TryFinally(&t.finalbody));
        if t.handlers.is_empty() {
            self.stmts(&t.body);
            self.stmts(&t.orelse);
        } else {
            self.try_except(t, sp);
        }
        self.u().fblocks.pop();
        self.emit(Instr::PopBlock, sp);
        self.u().fblocks.push(FBlock::FinallyBody);
        self.stmts(&t.finalbody);
        self.u().fblocks.pop();
        self.emit(Instr::Jump(end), sp);
        self.bind(handler);
        self.u().fblocks.push(FBlock::Stack(2));
        self.u().fblocks.push(FBlock::FinallyBody);
        self.stmts(&t.finalbody);
        self.u().fblocks.pop();
        self.u().fblocks.pop();
        self.emit(Instr::Reraise, sp);
        self.bind(end);
    }

    fn with_exit_normal(&mut self, mgr: &str, sp: Span) {
        self.hidden_op(mgr, Ctx::Load, sp);
        let i = self.name_index("__exit__");
        self.emit(Instr::LoadAttr(i), sp);
        for _ in 0..3 {
            self.load_const(Const::None, sp);
        }
        self.emit(
            Instr::Call {
                npos: 3,
                nkw: 0,
                star: false,
                starstar: false,
            },
            sp,
        );
        self.emit(Instr::PopTop, sp);
    }

    pub(super) fn with_stmt(
        &mut self,
        items: &'a [ast::WithItem],
        body: &'a [ast::Stmt],
        sp: Span,
    ) {
        let Some(item) = items.first() else {
            self.stmts(body);
            return;
        };
        let level = self.ur().with_level;
        let mgr: Rc<str> = Rc::from(format!(".with{level}").as_str());
        let esp = self.span(item.context_expr.range());
        self.expr(&item.context_expr);
        self.hidden_op(&mgr, Ctx::Store, esp);
        self.hidden_op(&mgr, Ctx::Load, esp);
        let i = self.name_index("__enter__");
        self.emit(Instr::LoadAttr(i), esp);
        self.emit(
            Instr::Call {
                npos: 0,
                nkw: 0,
                star: false,
                starstar: false,
            },
            esp,
        );
        match &item.optional_vars {
            Some(v) => self.store_target(v),
            None => self.emit(Instr::PopTop, esp),
        }
        let handler = self.new_label();
        let end = self.new_label();
        self.emit(Instr::SetupExcept(handler), sp);
        self.u().with_level += 1;
        self.u().fblocks.push(FBlock::With {
            mgr: mgr.clone(),
            span: sp,
        });
        if items.len() > 1 {
            self.with_stmt(&items[1..], body, sp);
        } else {
            self.stmts(body);
        }
        self.u().fblocks.pop();
        self.u().with_level -= 1;
        self.emit(Instr::PopBlock, sp);
        self.with_exit_normal(&mgr, sp);
        self.hidden_cleanup(&[&mgr], sp);
        self.emit(Instr::Jump(end), sp);
        // Exception: [value, type] → mgr.__exit__(type, value, None), then re-raise.
        self.bind(handler);
        self.emit(Instr::DupTopTwo, sp);
        self.hidden_op(&mgr, Ctx::Load, sp);
        let i = self.name_index("__exit__");
        self.emit(Instr::LoadAttr(i), sp);
        self.emit(Instr::WithExitException, sp);
        self.emit(Instr::PopTop, sp);
        self.emit(Instr::Reraise, sp);
        self.bind(end);
    }
}
