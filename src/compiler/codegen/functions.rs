//! Nested code objects: `def`, `class`, lambda bodies and the generator expressions and
//! set/dict comprehensions that Python 2 compiles as nested functions. Holds the making of a
//! function's code object (flags, parameters, docstring), closures (`LoadClosure` +
//! `MakeFunction`), defaults and decorators, and the comprehension loops (list
//! comprehensions share `comp_loop` but stay inline). Separate because it is the only part
//! that pushes and pops code units.

use super::control::reraise_in_handler;
use super::{const_text, str_const, Codegen, CompElt, Ctx, FnBody};
use crate::compiler::bytecode::{flags, CodeObject, Const, Instr};
use crate::compiler::symtable::{BlockNode, ScopeId};
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::Span;
use std::rc::Rc;

/// The docstring expression of a body, if its first statement is a string literal.
pub(super) fn docstring_expr(body: &[ast::Stmt]) -> Option<&ast::ExprConstant> {
    match body.first()? {
        ast::Stmt::Expr(e) => match &*e.value {
            ast::Expr::Constant(c)
                if matches!(c.value, ast::Constant::Str(_) | ast::Constant::Bytes(_)) =>
            {
                Some(c)
            }
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Codegen<'a> {
    pub(super) fn block_scope(
        &mut self,
        kind: BlockNode,
        range: TextRange,
        span: Span,
    ) -> Option<ScopeId> {
        let s = self.table.block_of(kind, range);
        if s.is_none() {
            self.diag(
                "RPY004",
                span,
                "internal compiler error: no symbol table for this block",
            );
        }
        s
    }

    fn function_flags(&self, scope: ScopeId) -> u32 {
        let s = &self.table.scopes[scope];
        let mut f = flags::OPTIMIZED | flags::NEWLOCALS;
        if s.nested {
            f |= flags::NESTED;
        }
        if s.generator {
            f |= flags::GENERATOR;
        }
        f
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn function_code(
        &mut self,
        scope: ScopeId,
        name: &str,
        args: &'a ast::Arguments,
        body: FnBody<'a>,
        span: Span,
        name_span: Span,
        firstlineno: u32,
    ) -> Rc<CodeObject> {
        self.push_unit(scope, name);
        for p in self.table.scopes[scope].params.clone() {
            self.varname_index(&p);
        }
        let argcount = (args.posonlyargs.len() + args.args.len()) as u32;
        let mut co_flags = self.function_flags(scope);
        if args.vararg.is_some() {
            co_flags |= flags::VARARGS;
        }
        if args.kwarg.is_some() {
            co_flags |= flags::VARKEYWORDS;
        }
        let mut docstring = None;
        match body {
            FnBody::Stmts(stmts) => {
                self.u().save_exc = reraise_in_handler(stmts, false);
                let mut rest = stmts;
                if let Some(doc) = docstring_expr(stmts) {
                    let c = self.string_const(doc);
                    docstring = Some(const_text(&c));
                    rest = &stmts[1..];
                }
                self.stmts(rest);
                self.load_const(Const::None, span);
                self.emit(Instr::ReturnValue, span);
            }
            FnBody::Expr(e) => {
                self.expr(e);
                let sp = self.span(e.range());
                self.emit(Instr::ReturnValue, sp);
            }
        }
        self.pop_unit(argcount, co_flags, span, name_span, firstlineno, docstring)
    }

    /// Pushes the function made of `code` (closure tuple, code constant, `MakeFunction`);
    /// the `ndefaults` defaults are already on the stack.
    pub(super) fn make_closure(&mut self, code: Rc<CodeObject>, ndefaults: u32, span: Span) {
        let closure = !code.co_freevars.is_empty();
        if closure {
            for name in code.co_freevars.iter() {
                match self.deref_index(name) {
                    Some(i) => self.emit(Instr::LoadClosure(i), span),
                    None => {
                        self.diag(
                            "RPY004",
                            span,
                            format!("internal compiler error: no cell for '{name}'"),
                        );
                        self.load_const(Const::None, span);
                    }
                }
            }
            self.emit(Instr::BuildTuple(code.co_freevars.len() as u32), span);
        }
        self.load_const(Const::Code(code), span);
        self.emit(Instr::MakeFunction { ndefaults, closure }, span);
    }

    /// Compiles the defaults of positional parameters; returns how many.
    pub(super) fn defaults(&mut self, args: &'a ast::Arguments) -> u32 {
        let mut n = 0;
        for a in args.posonlyargs.iter().chain(&args.args) {
            if let Some(d) = &a.default {
                self.expr(d);
                n += 1;
            }
        }
        n
    }

    pub(super) fn check_args(&mut self, args: &ast::Arguments, span: Span) -> bool {
        if !args.kwonlyargs.is_empty() {
            self.unsupported(span, "keyword-only parameters are Python 3 only");
            return false;
        }
        if !args.posonlyargs.is_empty() {
            self.unsupported(span, "positional-only parameters are Python 3 only");
            return false;
        }
        true
    }

    pub(super) fn funcdef(&mut self, f: &'a ast::StmtFunctionDef, sp: Span) {
        if !self.check_args(&f.args, sp) {
            return;
        }
        for d in &f.decorator_list {
            self.expr(d);
        }
        let ndefaults = self.defaults(&f.args);
        let Some(scope) = self.block_scope(BlockNode::Function, f.range, sp) else {
            return;
        };
        let name_span = self.name_span_after(f.range, "def", &f.name);
        let first = f
            .decorator_list
            .first()
            .map(|d| d.range().start())
            .unwrap_or(f.range.start());
        let firstlineno = self.line_of(first.to_u32());
        let code = self.function_code(
            scope,
            &f.name,
            &f.args,
            FnBody::Stmts(&f.body),
            sp,
            name_span,
            firstlineno,
        );
        self.make_closure(code, ndefaults, sp);
        self.apply_decorators(&f.decorator_list);
        self.name_op(&f.name, Ctx::Store, name_span);
    }

    fn apply_decorators(&mut self, decorators: &[ast::Expr]) {
        for d in decorators.iter().rev() {
            let sp = self.span(d.range());
            self.emit(Instr::CALL_ONE, sp);
        }
    }

    pub(super) fn classdef(&mut self, c: &'a ast::StmtClassDef, sp: Span) {
        if !c.keywords.is_empty() {
            self.unsupported(
                sp,
                "class keyword arguments (`metaclass=`) are Python 3 only",
            );
            return;
        }
        if c.bases.iter().any(|b| matches!(b, ast::Expr::Starred(_))) {
            self.unsupported(sp, "starred base classes are Python 3 only");
            return;
        }
        for d in &c.decorator_list {
            self.expr(d);
        }
        let name_span = self.name_span_after(c.range, "class", &c.name);
        self.load_const(str_const(&c.name), name_span);
        for b in &c.bases {
            self.expr(b);
        }
        self.emit(Instr::BuildTuple(c.bases.len() as u32), sp);
        let Some(scope) = self.block_scope(BlockNode::Class, c.range, sp) else {
            return;
        };
        let first = c
            .decorator_list
            .first()
            .map(|d| d.range().start())
            .unwrap_or(c.range.start());
        let firstlineno = self.line_of(first.to_u32());

        self.push_unit(scope, &c.name);
        self.u().save_exc = reraise_in_handler(&c.body, false);
        let i = self.name_index("__name__");
        self.emit(Instr::LoadName(i), name_span);
        let i = self.name_index("__module__");
        self.emit(Instr::StoreName(i), name_span);
        let mut rest: &'a [ast::Stmt] = &c.body;
        let mut docstring = None;
        if let Some(doc) = docstring_expr(&c.body) {
            let k = self.string_const(doc);
            docstring = Some(const_text(&k));
            let dsp = self.span(doc.range);
            self.load_const(k, dsp);
            let i = self.name_index("__doc__");
            self.emit(Instr::StoreName(i), dsp);
            rest = &c.body[1..];
        }
        self.stmts(rest);
        self.emit(Instr::LoadLocals, sp);
        self.emit(Instr::ReturnValue, sp);
        // As CPython: a class body gets a new locals namespace, and is never NESTED.
        let code = self.pop_unit(
            0,
            flags::CLASS_BODY | flags::NEWLOCALS,
            sp,
            name_span,
            firstlineno,
            docstring,
        );

        self.make_closure(code, 0, sp);
        self.emit(
            Instr::Call {
                npos: 0,
                nkw: 0,
                star: false,
                starstar: false,
            },
            sp,
        );
        self.emit(Instr::BuildClass, sp);
        self.apply_decorators(&c.decorator_list);
        self.name_op(&c.name, Ctx::Store, name_span);
    }

    /// A generator expression, set or dict comprehension: a nested function called with
    /// the iterator of the first iterable.
    pub(super) fn comprehension(
        &mut self,
        kind: BlockNode,
        name: &str,
        range: TextRange,
        generators: &'a [ast::Comprehension],
        elt: CompElt<'a>,
        sp: Span,
    ) {
        if generators.is_empty() || generators.iter().any(|g| g.is_async) {
            self.unsupported_expr(sp, "asynchronous comprehensions are Python 3 only");
            return;
        }
        let Some(scope) = self.block_scope(kind, range, sp) else {
            self.load_const(Const::None, sp);
            return;
        };
        self.push_unit(scope, name);
        self.varname_index(".0");
        match elt {
            CompElt::Set(_) => self.emit(Instr::BuildSet(0), sp),
            CompElt::Dict(..) => self.emit(Instr::BuildMap(0), sp),
            _ => {}
        }
        self.comp_loop(generators, 0, elt, true, sp);
        if let CompElt::Gen(_) = elt {
            self.load_const(Const::None, sp);
        }
        self.emit(Instr::ReturnValue, sp);
        let co_flags = self.function_flags(scope);
        let line = self.line_of(range.start().to_u32());
        let code = self.pop_unit(1, co_flags, sp, sp, line, None);
        self.make_closure(code, 0, sp);
        let first = &generators[0].iter;
        let isp = self.span(first.range());
        self.expr(first);
        self.emit(Instr::GetIter, isp);
        self.emit(Instr::CALL_ONE, sp);
    }

    pub(super) fn comp_loop(
        &mut self,
        gens: &'a [ast::Comprehension],
        i: usize,
        elt: CompElt<'a>,
        nested: bool,
        sp: Span,
    ) {
        let Some(g) = gens.get(i) else { return };
        let isp = self.span(g.iter.range());
        let start = self.new_label();
        let anchor = self.new_label();
        if i == 0 && nested {
            let k = self.varname_index(".0");
            self.emit(Instr::LoadFast(k), isp);
        } else {
            self.expr(&g.iter);
            self.emit(Instr::GetIter, isp);
        }
        self.bind(start);
        self.emit(Instr::ForIter(anchor), isp);
        self.store_target(&g.target);
        for cond in &g.ifs {
            self.jump_if(cond, false, start);
        }
        if i + 1 < gens.len() {
            self.comp_loop(gens, i + 1, elt, nested, sp);
        } else {
            let depth = i as u32 + 2;
            match elt {
                CompElt::List(e) => {
                    self.expr(e);
                    self.emit(Instr::ListAppend(depth), sp);
                }
                CompElt::Set(e) => {
                    self.expr(e);
                    self.emit(Instr::SetAdd(depth), sp);
                }
                CompElt::Dict(k, v) => {
                    self.expr(v);
                    self.expr(k);
                    self.emit(Instr::MapAdd(depth), sp);
                }
                CompElt::Gen(e) => {
                    let esp = self.span(e.range());
                    self.expr(e);
                    self.emit(Instr::YieldValue, esp);
                    self.emit(Instr::PopTop, esp);
                }
            }
        }
        self.emit(Instr::Jump(start), sp);
        self.bind(anchor);
    }
}
