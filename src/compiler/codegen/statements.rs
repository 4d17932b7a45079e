//! Statements: the dispatch over statement kinds, expression statements (including the
//! `print` and `exec` statements the parser rewrote into calls), imports, `if` and loops, with
//! the compile-time truth CPython uses to drop dead branches. Exits and exception handling
//! live in `control`, assignments in `targets`.

use super::{str_const, Codegen, Ctx, FBlock};
use crate::compiler::bytecode::{Const, Instr};
use crate::syntax::ast::{self, Ranged};
use crate::syntax::{Span, EXEC_FUNC, PRINT_FUNC, PRINT_TO_NONE};

/// The truth of a test CPython 2.7 folds at compile time (`if 0:`, `while 1:`, `if "x":`,
/// `if __debug__:`); `True`/`False` count too (they are constants for RPython).
fn const_truth(e: &ast::Expr) -> Option<bool> {
    match e {
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Bool(b) => Some(*b),
            ast::Constant::Int(i) => Some(i.to_string() != "0"),
            ast::Constant::Float(f) => Some(*f != 0.0),
            ast::Constant::Str(s) => Some(!s.is_empty()),
            ast::Constant::Bytes(b) => Some(!b.is_empty()),
            _ => None,
        },
        ast::Expr::Name(n) if n.id.as_str() == "__debug__" => Some(true),
        _ => None,
    }
}

impl<'a> Codegen<'a> {
    pub(super) fn stmts(&mut self, body: &'a [ast::Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &'a ast::Stmt) {
        use ast::Stmt;
        let sp = self.span(s.range());
        match s {
            Stmt::FunctionDef(f) => self.funcdef(f, sp),
            Stmt::ClassDef(c) => self.classdef(c, sp),
            Stmt::Return(r) => self.return_stmt(r.value.as_deref(), sp),
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.delete_target(t);
                }
            }
            Stmt::Assign(a) => {
                self.expr(&a.value);
                let n = a.targets.len();
                for (i, t) in a.targets.iter().enumerate() {
                    if i + 1 < n {
                        self.emit(Instr::DupTop, sp);
                    }
                    self.store_target(t);
                }
            }
            Stmt::AugAssign(a) => self.aug_assign(a, sp),
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.expr(v);
                    self.store_target(&a.target);
                }
            }
            Stmt::For(f) => self.for_stmt(f, sp),
            Stmt::While(w) => self.while_stmt(w, sp),
            Stmt::If(i) => {
                match const_truth(&i.test) {
                    Some(true) => return self.stmts(&i.body),
                    Some(false) => return self.stmts(&i.orelse),
                    None => {}
                }
                let else_l = self.new_label();
                let end = self.new_label();
                self.jump_if(&i.test, false, else_l);
                self.stmts(&i.body);
                if !i.orelse.is_empty() {
                    self.emit(Instr::Jump(end), sp);
                }
                self.bind(else_l);
                self.stmts(&i.orelse);
                self.bind(end);
            }
            Stmt::With(w) => self.with_stmt(&w.items, &w.body, sp),
            Stmt::Raise(r) => self.raise_stmt(r, sp),
            Stmt::Try(t) => {
                if t.finalbody.is_empty() {
                    self.try_except(t, sp);
                } else {
                    self.try_finally(t, sp);
                }
            }
            Stmt::Assert(a) => {
                let end = self.new_label();
                self.jump_if(&a.test, true, end);
                let i = self.name_index("AssertionError");
                self.emit(Instr::LoadGlobal(i), sp);
                if let Some(m) = &a.msg {
                    self.expr(m);
                    self.emit(Instr::CALL_ONE, sp);
                }
                self.emit(Instr::Raise(1), sp);
                self.bind(end);
            }
            Stmt::Import(i) => self.import(i),
            Stmt::ImportFrom(i) => self.import_from(i, sp),
            Stmt::Global(_) | Stmt::Pass(_) => {}
            Stmt::Expr(e) => self.expr_stmt(&e.value, sp),
            Stmt::Break(_) => self.break_continue(true, sp),
            Stmt::Continue(_) => self.break_continue(false, sp),
            Stmt::Nonlocal(_) => self.unsupported(sp, "`nonlocal` is Python 3 only"),
            Stmt::AsyncFunctionDef(_) => self.unsupported(sp, "`async def` is Python 3 only"),
            Stmt::AsyncFor(_) => self.unsupported(sp, "`async for` is Python 3 only"),
            Stmt::AsyncWith(_) => self.unsupported(sp, "`async with` is Python 3 only"),
            Stmt::Match(_) => self.unsupported(sp, "`match` is Python 3 only"),
            Stmt::TryStar(_) => self.unsupported(sp, "`except*` is Python 3 only"),
            Stmt::TypeAlias(_) => self.unsupported(sp, "`type` aliases are Python 3 only"),
        }
    }

    fn expr_stmt(&mut self, e: &'a ast::Expr, sp: Span) {
        if let ast::Expr::Call(c) = e {
            if let ast::Expr::Name(n) = &*c.func {
                if n.id.as_str() == PRINT_FUNC && self.print_stmt(c, sp) {
                    return;
                }
                if n.id.as_str() == EXEC_FUNC
                    && (1..=3).contains(&c.args.len())
                    && c.keywords.is_empty()
                {
                    for a in &c.args {
                        self.expr(a);
                    }
                    self.emit(Instr::Exec(c.args.len() as u32), sp);
                    return;
                }
            }
        }
        if matches!(e, ast::Expr::Constant(_)) {
            // A constant expression statement does nothing (CPython drops it).
            return;
        }
        self.expr(e);
        self.emit(Instr::PopTop, sp);
    }

    /// `__rpy_print__(DEST, NEWLINE, items...)`; false if the call does not have that shape.
    fn print_stmt(&mut self, c: &'a ast::ExprCall, sp: Span) -> bool {
        if c.args.len() < 2 || !c.keywords.is_empty() {
            return false;
        }
        let newline = match &c.args[1] {
            ast::Expr::Constant(k) => match k.value {
                ast::Constant::Bool(b) => b,
                _ => return false,
            },
            _ => return false,
        };
        if c.args.iter().any(|a| matches!(a, ast::Expr::Starred(_))) {
            return false;
        }
        let dest = match &c.args[0] {
            ast::Expr::Constant(k) if k.value == ast::Constant::None => None,
            d => Some(d),
        };
        let to = dest.is_some();
        match dest {
            // `print >>None, x`: an explicit None destination.
            Some(ast::Expr::Name(n)) if n.id.as_str() == PRINT_TO_NONE => {
                self.load_const(Const::None, sp)
            }
            Some(d) => self.expr(d),
            None => {}
        }
        for item in &c.args[2..] {
            if to {
                self.emit(Instr::DupTop, sp);
            }
            self.expr(item);
            let isp = self.span(item.range());
            self.emit(Instr::PrintItem { to }, isp);
        }
        if newline {
            self.emit(Instr::PrintNewline { to }, sp);
        } else if to {
            self.emit(Instr::PopTop, sp);
        }
        true
    }

    fn import(&mut self, i: &'a ast::StmtImport) {
        let level = if self.absolute_import { 0 } else { -1 };
        for alias in &i.names {
            let asp = self.span(alias.range);
            self.load_const(Const::Int(level), asp);
            self.load_const(Const::None, asp);
            let n = self.name_index(&alias.name);
            self.emit(Instr::ImportName(n), asp);
            match &alias.asname {
                Some(asname) => {
                    for comp in alias.name.split('.').skip(1) {
                        let n = self.name_index(comp);
                        self.emit(Instr::LoadAttr(n), asp);
                    }
                    self.name_op(asname, Ctx::Store, asp);
                }
                None => {
                    let first = alias.name.split('.').next().unwrap_or(&alias.name);
                    self.name_op(first, Ctx::Store, asp);
                }
            }
        }
    }

    fn import_from(&mut self, i: &'a ast::StmtImportFrom, sp: Span) {
        let explicit = i.level.map(|l| l.to_u32()).unwrap_or(0);
        let level = if explicit > 0 {
            explicit as i64
        } else if self.absolute_import {
            0
        } else {
            -1
        };
        let fromlist: Vec<Const> = i.names.iter().map(|a| str_const(&a.name)).collect();
        self.load_const(Const::Int(level), sp);
        self.load_const(Const::Tuple(fromlist.into()), sp);
        let module = i.module.as_deref().unwrap_or("");
        let n = self.name_index(module);
        self.emit(Instr::ImportName(n), sp);
        if i.names.len() == 1 && i.names[0].name.as_str() == "*" {
            self.emit(Instr::ImportStar, sp);
            return;
        }
        for alias in &i.names {
            let asp = self.span(alias.range);
            let n = self.name_index(&alias.name);
            self.emit(Instr::ImportFrom(n), asp);
            self.name_op(
                alias.asname.as_ref().unwrap_or(&alias.name),
                Ctx::Store,
                asp,
            );
        }
        self.emit(Instr::PopTop, sp);
    }

    fn while_stmt(&mut self, w: &'a ast::StmtWhile, sp: Span) {
        let truth = const_truth(&w.test);
        if truth == Some(false) {
            self.stmts(&w.orelse);
            return;
        }
        let top = self.new_label();
        let else_l = self.new_label();
        let end = self.new_label();
        self.bind(top);
        if truth.is_none() {
            self.jump_if(&w.test, false, else_l);
        }
        self.u().fblocks.push(FBlock::Loop {
            cont: top,
            brk: end,
            for_iter: false,
        });
        self.stmts(&w.body);
        self.u().fblocks.pop();
        self.emit(Instr::Jump(top), sp);
        self.bind(else_l);
        self.stmts(&w.orelse);
        self.bind(end);
    }

    fn for_stmt(&mut self, f: &'a ast::StmtFor, sp: Span) {
        let isp = self.span(f.iter.range());
        self.expr(&f.iter);
        self.emit(Instr::GetIter, isp);
        let top = self.new_label();
        let else_l = self.new_label();
        let end = self.new_label();
        self.bind(top);
        self.emit(Instr::ForIter(else_l), isp);
        self.store_target(&f.target);
        self.u().fblocks.push(FBlock::Loop {
            cont: top,
            brk: end,
            for_iter: true,
        });
        self.stmts(&f.body);
        self.u().fblocks.pop();
        self.emit(Instr::Jump(top), sp);
        self.bind(else_l);
        self.stmts(&f.orelse);
        self.bind(end);
    }
}
