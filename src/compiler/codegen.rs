//! Code generation: AST (with the symbol table) → `CodeObject`s.
//!
//! The rules follow CPython 2.7's `compile.c`, adapted to our instruction set (see
//! `bytecode.rs`): the block stack only holds exception handlers, loops are plain jumps, and
//! `finally` bodies (and `with` exits) are duplicated on every exit path.
//!
//! Hidden variables (names starting with `.`, which no user name can collide with):
//! - `.0`: the iterator argument of generator expressions and set/dict comprehensions;
//! - `.exc_type` / `.exc_value`: the exception most recently caught by an `except` clause of
//!   the code object, saved by every clause when some handler body of the code object contains
//!   a bare `raise` (which re-raises it: Python 2 semantics, where a nested handler that
//!   caught another exception changes what a later bare `raise` re-raises);
//! - `.with{n}`: the context manager of a `with` statement (`n` = `with` nesting depth);
//! - `.tmp{n}`: the upper bound of `a[i:j] op= v`.
//!
//! They are fast locals in functions and names in module and class bodies (there they are
//! deleted again on the normal exit path).

use super::bytecode::{flags, BinOp, CmpOp, CodeObject, Const, Instr, UnOp};
use super::strings::{decode_literal, DecodeError, PyStr};
use super::symtable::{mangle, BlockNode, NameScope, ScopeId, ScopeKind, SymbolTable};
use crate::diagnostics::Diagnostic;
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::{FileId, Span, EXEC_FUNC, PRINT_FUNC, PRINT_TO_NONE};
use std::collections::HashMap;
use std::rc::Rc;

type Label = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Load,
    Store,
    Del,
}

/// Compile-time record of what encloses the code being generated, used to unwind on
/// `break`, `continue`, `return` and to find the exception of a bare `raise`.
#[derive(Clone, Debug)]
enum FBlock<'a> {
    /// A loop; `for_iter` when its iterator is on the value stack.
    Loop {
        cont: Label,
        brk: Label,
        for_iter: bool,
    },
    /// The body of a `try/except` (a `SetupExcept` is active).
    Except,
    /// The body of a `try/finally` (a `SetupExcept` is active, the finally body must run).
    TryFinally(&'a [ast::Stmt]),
    /// The body of a `with` (a `SetupExcept` is active, `__exit__` must be called).
    With { mgr: Rc<str>, span: Span },
    /// The body of an `except` clause.
    Handler,
    /// `n` extra values on the value stack (the return value or the exception being
    /// propagated while a copy of a finally body runs).
    Stack(u32),
    /// Inside a finally body (`continue` is not allowed there in Python 2).
    FinallyBody,
}

#[derive(Hash, PartialEq, Eq)]
enum ConstKey {
    None,
    Bool(bool),
    Int(i64),
    Long(i128),
    Float(u64),
    Str(Rc<[u8]>),
    Unicode(Rc<str>),
    Tuple(Vec<ConstKey>),
    Code(usize),
    Ellipsis,
}

fn const_key(c: &Const) -> ConstKey {
    match c {
        Const::None => ConstKey::None,
        Const::Bool(b) => ConstKey::Bool(*b),
        Const::Int(i) => ConstKey::Int(*i),
        Const::Long(i) => ConstKey::Long(*i),
        Const::Float(f) => ConstKey::Float(f.to_bits()),
        Const::Str(s) => ConstKey::Str(s.clone()),
        Const::Unicode(s) => ConstKey::Unicode(s.clone()),
        Const::Tuple(t) => ConstKey::Tuple(t.iter().map(const_key).collect()),
        Const::Code(c) => ConstKey::Code(Rc::as_ptr(c) as usize),
        Const::Ellipsis => ConstKey::Ellipsis,
    }
}

fn str_const(s: &str) -> Const {
    Const::Str(Rc::from(s.as_bytes()))
}

/// One code object being generated.
struct Unit<'a> {
    scope: ScopeId,
    kind: ScopeKind,
    name: Rc<str>,
    private: Option<String>,
    generator: bool,
    code: Vec<Instr>,
    spans: Vec<Span>,
    consts: Vec<Const>,
    const_index: HashMap<ConstKey, u32>,
    names: Vec<Rc<str>>,
    name_index: HashMap<Rc<str>, u32>,
    varnames: Vec<Rc<str>>,
    varname_index: HashMap<Rc<str>, u32>,
    cellvars: Vec<Rc<str>>,
    freevars: Vec<Rc<str>>,
    labels: Vec<Option<u32>>,
    fblocks: Vec<FBlock<'a>>,
    handler_level: u32,
    with_level: u32,
    tmp_level: u32,
    /// Except clauses save the caught exception in `.exc_type`/`.exc_value`.
    save_exc: bool,
}

/// What the element of a comprehension is.
#[derive(Clone, Copy)]
enum CompElt<'a> {
    List(&'a ast::Expr),
    Set(&'a ast::Expr),
    Dict(&'a ast::Expr, &'a ast::Expr),
    Gen(&'a ast::Expr),
}

enum FnBody<'a> {
    Stmts(&'a [ast::Stmt]),
    Expr(&'a ast::Expr),
}

pub struct Codegen<'a> {
    file: FileId,
    filename: Rc<str>,
    text: &'a str,
    line_starts: Vec<u32>,
    table: SymbolTable,
    pub diagnostics: Vec<Diagnostic>,
    future_division: bool,
    absolute_import: bool,
    unicode_literals: bool,
    units: Vec<Unit<'a>>,
}

/// The docstring expression of a body, if its first statement is a string literal.
fn docstring_expr(body: &[ast::Stmt]) -> Option<&ast::ExprConstant> {
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

fn with_target(i: Instr, t: u32) -> Instr {
    match i {
        Instr::Jump(_) => Instr::Jump(t),
        Instr::PopJumpIfFalse(_) => Instr::PopJumpIfFalse(t),
        Instr::PopJumpIfTrue(_) => Instr::PopJumpIfTrue(t),
        Instr::JumpIfFalseOrPop(_) => Instr::JumpIfFalseOrPop(t),
        Instr::JumpIfTrueOrPop(_) => Instr::JumpIfTrueOrPop(t),
        Instr::ForIter(_) => Instr::ForIter(t),
        Instr::SetupExcept(_) => Instr::SetupExcept(t),
        other => other,
    }
}

/// Whether a body (not looking into nested functions and classes) has a bare `raise` inside
/// the body of an `except` clause.
fn reraise_in_handler(body: &[ast::Stmt], in_handler: bool) -> bool {
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

/// A number computed at compile time.
#[derive(Clone, Copy)]
enum FoldedNum {
    Int(i128),
    Float(f64),
}

/// The value of a constant power expression (`2 ** 10`, `-2 ** 0.5`…) that CPython 2.7's
/// peephole optimizer folds into a constant, so that no BINARY_POWER reaches the flow space.
/// Numbers, unary minus and plus of numbers, and `**` of those; None where CPython would
/// raise (0 ** -1, a fractional power of a negative number, overflow of floats).
fn fold_power(e: &ast::Expr) -> Option<FoldedNum> {
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

fn binop(op: ast::Operator, true_div: bool) -> Option<BinOp> {
    use ast::Operator as O;
    Some(match op {
        O::Add => BinOp::Add,
        O::Sub => BinOp::Sub,
        O::Mult => BinOp::Mul,
        O::Div if true_div => BinOp::TrueDiv,
        O::Div => BinOp::Div,
        O::Mod => BinOp::Mod,
        O::Pow => BinOp::Pow,
        O::LShift => BinOp::LShift,
        O::RShift => BinOp::RShift,
        O::BitOr => BinOp::Or,
        O::BitXor => BinOp::Xor,
        O::BitAnd => BinOp::And,
        O::FloorDiv => BinOp::FloorDiv,
        O::MatMult => return None,
    })
}

fn cmpop(op: ast::CmpOp) -> CmpOp {
    use ast::CmpOp as C;
    match op {
        C::Eq => CmpOp::Eq,
        C::NotEq => CmpOp::Ne,
        C::Lt => CmpOp::Lt,
        C::LtE => CmpOp::Le,
        C::Gt => CmpOp::Gt,
        C::GtE => CmpOp::Ge,
        C::Is => CmpOp::Is,
        C::IsNot => CmpOp::IsNot,
        C::In => CmpOp::In,
        C::NotIn => CmpOp::NotIn,
    }
}

impl<'a> Codegen<'a> {
    pub fn new(
        file: FileId,
        filename: &str,
        text: &'a str,
        body: &'a [ast::Stmt],
        unicode_literals: bool,
    ) -> Self {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let mut future_division = false;
        let mut absolute_import = false;
        for s in body {
            if let ast::Stmt::ImportFrom(i) = s {
                if i.module.as_deref() == Some("__future__") {
                    for a in &i.names {
                        match a.name.as_str() {
                            "division" => future_division = true,
                            "absolute_import" => absolute_import = true,
                            _ => {}
                        }
                    }
                }
            }
        }
        Codegen {
            file,
            filename: Rc::from(filename),
            text,
            line_starts,
            table: SymbolTable::build(body),
            diagnostics: Vec::new(),
            future_division,
            absolute_import,
            unicode_literals,
            units: Vec::new(),
        }
    }

    // ----- low-level helpers -------------------------------------------------------------

    fn u(&mut self) -> &mut Unit<'a> {
        self.units.last_mut().expect("no code unit")
    }

    fn ur(&self) -> &Unit<'a> {
        self.units.last().expect("no code unit")
    }

    fn span(&self, r: TextRange) -> Span {
        Span::new(self.file, r.start().to_u32(), r.end().to_u32())
    }

    fn line_of(&self, offset: u32) -> u32 {
        match self.line_starts.binary_search(&offset) {
            Ok(l) => l as u32 + 1,
            Err(l) => l as u32,
        }
    }

    /// Records a diagnostic once (finally bodies are compiled several times).
    fn diag(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        let d = Diagnostic::new(code, span, msg);
        if !self.diagnostics.contains(&d) {
            self.diagnostics.push(d);
        }
    }

    fn emit(&mut self, i: Instr, span: Span) {
        let u = self.u();
        u.code.push(i);
        u.spans.push(span);
    }

    fn new_label(&mut self) -> Label {
        let u = self.u();
        u.labels.push(None);
        (u.labels.len() - 1) as Label
    }

    fn bind(&mut self, l: Label) {
        let u = self.u();
        u.labels[l as usize] = Some(u.code.len() as u32);
    }

    fn const_index(&mut self, c: Const) -> u32 {
        let u = self.u();
        let key = const_key(&c);
        if let Some(&i) = u.const_index.get(&key) {
            return i;
        }
        let i = u.consts.len() as u32;
        u.consts.push(c);
        u.const_index.insert(key, i);
        i
    }

    fn load_const(&mut self, c: Const, span: Span) {
        let i = self.const_index(c);
        self.emit(Instr::LoadConst(i), span);
    }

    fn name_index(&mut self, name: &str) -> u32 {
        let u = self.u();
        if let Some(&i) = u.name_index.get(name) {
            return i;
        }
        let n: Rc<str> = Rc::from(name);
        let i = u.names.len() as u32;
        u.names.push(n.clone());
        u.name_index.insert(n, i);
        i
    }

    fn varname_index(&mut self, name: &str) -> u32 {
        let u = self.u();
        if let Some(&i) = u.varname_index.get(name) {
            return i;
        }
        let n: Rc<str> = Rc::from(name);
        let i = u.varnames.len() as u32;
        u.varnames.push(n.clone());
        u.varname_index.insert(n, i);
        i
    }

    /// Index of a cell or free variable in `cellvars ++ freevars`.
    fn deref_index(&self, name: &str) -> Option<u32> {
        let u = self.ur();
        if let Some(i) = u.cellvars.iter().position(|c| &**c == name) {
            return Some(i as u32);
        }
        u.freevars
            .iter()
            .position(|c| &**c == name)
            .map(|i| (i + u.cellvars.len()) as u32)
    }

    fn push_unit(&mut self, scope: ScopeId, name: &str) {
        let s = &self.table.scopes[scope];
        let unit = Unit {
            scope,
            kind: s.kind,
            name: Rc::from(name),
            private: s.private.clone(),
            generator: s.generator,
            code: Vec::new(),
            spans: Vec::new(),
            consts: Vec::new(),
            const_index: HashMap::new(),
            names: Vec::new(),
            name_index: HashMap::new(),
            varnames: Vec::new(),
            varname_index: HashMap::new(),
            cellvars: s.cellvars.iter().map(|n| Rc::from(n.as_str())).collect(),
            freevars: s.freevars.iter().map(|n| Rc::from(n.as_str())).collect(),
            labels: Vec::new(),
            fblocks: Vec::new(),
            handler_level: 0,
            with_level: 0,
            tmp_level: 0,
            save_exc: false,
        };
        self.units.push(unit);
    }

    fn pop_unit(
        &mut self,
        argcount: u32,
        mut co_flags: u32,
        span: Span,
        name_span: Span,
        firstlineno: u32,
        docstring: Option<Rc<str>>,
    ) -> Rc<CodeObject> {
        let u = self.units.pop().expect("no code unit");
        if self.future_division {
            co_flags |= flags::TRUE_DIVISION;
        }
        let end = u.code.len() as u32;
        let code = u
            .code
            .iter()
            .map(|&i| match i.jump_target() {
                Some(l) => with_target(i, u.labels[l as usize].unwrap_or(end)),
                None => i,
            })
            .collect();
        Rc::new(CodeObject {
            co_name: u.name,
            co_filename: self.filename.clone(),
            co_firstlineno: firstlineno,
            co_argcount: argcount,
            co_flags,
            co_code: code,
            co_consts: u.consts,
            co_names: u.names,
            co_varnames: u.varnames,
            co_cellvars: u.cellvars,
            co_freevars: u.freevars,
            co_spans: u.spans,
            span,
            name_span,
            docstring,
        })
    }

    /// Reports an unsupported construct and compiles `raise SystemError(msg)` in its place.
    fn unsupported(&mut self, span: Span, msg: &str) {
        self.diag("RPY004", span, msg);
        self.raise_system_error(span, msg);
    }

    fn raise_system_error(&mut self, span: Span, msg: &str) {
        let i = self.name_index("SystemError");
        self.emit(Instr::LoadGlobal(i), span);
        self.load_const(str_const(msg), span);
        self.emit(
            Instr::Call {
                npos: 1,
                nkw: 0,
                star: false,
                starstar: false,
            },
            span,
        );
        self.emit(Instr::Raise(1), span);
    }

    /// `unsupported` for an expression: also pushes a (never reached) value.
    fn unsupported_expr(&mut self, span: Span, msg: &str) {
        self.unsupported(span, msg);
        self.load_const(Const::None, span);
    }

    /// The span of `name` after `keyword` at the start of `range` (`def f`, `class C`).
    fn name_span_after(&self, range: TextRange, keyword: &str, name: &str) -> Span {
        let (start, end) = (
            range.start().to_u32() as usize,
            range.end().to_u32() as usize,
        );
        if let Some(seg) = self.text.get(start..end.min(self.text.len())) {
            if let Some(rest) = seg.strip_prefix(keyword) {
                let skipped =
                    rest.len() - rest.trim_start_matches([' ', '\t', '\\', '\r', '\n']).len();
                let at = keyword.len() + skipped;
                if seg[at..].starts_with(name) {
                    let s = (start + at) as u32;
                    return Span::new(self.file, s, s + name.len() as u32);
                }
            }
            if let Some(p) = seg.find(name) {
                let s = (start + p) as u32;
                return Span::new(self.file, s, s + name.len() as u32);
            }
        }
        self.span(range)
    }

    // ----- names -------------------------------------------------------------------------

    fn name_op(&mut self, name: &str, ctx: Ctx, span: Span) {
        let mangled = mangle(self.ur().private.as_deref(), name);
        let (scope_id, kind) = (self.ur().scope, self.ur().kind);
        let scope = self.table.scopes[scope_id].lookup(&mangled);
        let function = kind == ScopeKind::Function;
        match scope {
            Some(NameScope::Free | NameScope::Cell) => {
                let Some(i) = self.deref_index(&mangled) else {
                    self.diag(
                        "RPY004",
                        span,
                        format!("internal compiler error: no cell for '{name}'"),
                    );
                    return;
                };
                match ctx {
                    Ctx::Load => self.emit(Instr::LoadDeref(i), span),
                    Ctx::Store => self.emit(Instr::StoreDeref(i), span),
                    Ctx::Del => self.diag(
                        "RPY001",
                        span,
                        format!("can not delete variable '{name}' referenced in nested scope"),
                    ),
                }
            }
            Some(NameScope::Local) if function => {
                let i = self.varname_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadFast(i),
                        Ctx::Store => Instr::StoreFast(i),
                        Ctx::Del => Instr::DeleteFast(i),
                    },
                    span,
                );
            }
            Some(NameScope::GlobalExplicit) | Some(NameScope::GlobalImplicit)
                if function || scope == Some(NameScope::GlobalExplicit) =>
            {
                let i = self.name_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadGlobal(i),
                        Ctx::Store => Instr::StoreGlobal(i),
                        Ctx::Del => Instr::DeleteGlobal(i),
                    },
                    span,
                );
            }
            _ => {
                let i = self.name_index(&mangled);
                self.emit(
                    match ctx {
                        Ctx::Load => Instr::LoadName(i),
                        Ctx::Store => Instr::StoreName(i),
                        Ctx::Del => Instr::DeleteName(i),
                    },
                    span,
                );
            }
        }
    }

    /// Access to a hidden compiler variable (fast local in functions, name elsewhere).
    fn hidden_op(&mut self, name: &str, ctx: Ctx, span: Span) {
        if self.ur().kind == ScopeKind::Function {
            let i = self.varname_index(name);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::LoadFast(i),
                    Ctx::Store => Instr::StoreFast(i),
                    Ctx::Del => Instr::DeleteFast(i),
                },
                span,
            );
        } else {
            let i = self.name_index(name);
            self.emit(
                match ctx {
                    Ctx::Load => Instr::LoadName(i),
                    Ctx::Store => Instr::StoreName(i),
                    Ctx::Del => Instr::DeleteName(i),
                },
                span,
            );
        }
    }

    /// Deletes hidden variables at the end of their use, in module and class bodies only
    /// (so that they do not end up in the namespace).
    fn hidden_cleanup(&mut self, names: &[&str], span: Span) {
        if self.ur().kind != ScopeKind::Function {
            for n in names {
                self.hidden_op(n, Ctx::Del, span);
            }
        }
    }

    fn attr_name(&self, attr: &str) -> String {
        mangle(self.ur().private.as_deref(), attr)
    }

    // ----- code objects ------------------------------------------------------------------

    pub fn compile_module(&mut self, body: &'a [ast::Stmt]) -> Rc<CodeObject> {
        let whole = Span::new(self.file, 0, self.text.len() as u32);
        self.push_unit(0, "<module>");
        self.u().save_exc = reraise_in_handler(body, false);
        let mut rest = body;
        let mut docstring = None;
        if let Some(doc) = docstring_expr(body) {
            let c = self.string_const(doc);
            docstring = Some(const_text(&c));
            let sp = self.span(doc.range);
            self.load_const(c, sp);
            let i = self.name_index("__doc__");
            self.emit(Instr::StoreName(i), sp);
            rest = &body[1..];
        }
        self.stmts(rest);
        let end = Span::new(self.file, self.text.len() as u32, self.text.len() as u32);
        self.load_const(Const::None, end);
        self.emit(Instr::ReturnValue, end);
        // As CPython: the line of the first statement.
        let firstlineno = body.first().map_or(1, |s| self.line_of(stmt_start(s)));
        self.pop_unit(
            0,
            flags::MODULE,
            whole,
            Span::new(self.file, 0, 0),
            firstlineno,
            docstring,
        )
    }

    fn block_scope(&mut self, kind: BlockNode, range: TextRange, span: Span) -> Option<ScopeId> {
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
    fn function_code(
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
    fn make_closure(&mut self, code: Rc<CodeObject>, ndefaults: u32, span: Span) {
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
    fn defaults(&mut self, args: &'a ast::Arguments) -> u32 {
        let mut n = 0;
        for a in args.posonlyargs.iter().chain(&args.args) {
            if let Some(d) = &a.default {
                self.expr(d);
                n += 1;
            }
        }
        n
    }

    fn check_args(&mut self, args: &ast::Arguments, span: Span) -> bool {
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

    fn funcdef(&mut self, f: &'a ast::StmtFunctionDef, sp: Span) {
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
            self.emit(
                Instr::Call {
                    npos: 1,
                    nkw: 0,
                    star: false,
                    starstar: false,
                },
                sp,
            );
        }
    }

    fn classdef(&mut self, c: &'a ast::StmtClassDef, sp: Span) {
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

    // ----- statements --------------------------------------------------------------------

    fn stmts(&mut self, body: &'a [ast::Stmt]) {
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
                    self.emit(
                        Instr::Call {
                            npos: 1,
                            nkw: 0,
                            star: false,
                            starstar: false,
                        },
                        sp,
                    );
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

    fn break_continue(&mut self, is_break: bool, sp: Span) {
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

    fn return_stmt(&mut self, value: Option<&'a ast::Expr>, sp: Span) {
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

    fn raise_stmt(&mut self, r: &'a ast::StmtRaise, sp: Span) {
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
                    self.emit(Instr::Reraise, sp);
                } else {
                    self.emit(Instr::Raise(0), sp);
                }
            }
        }
    }

    fn try_except(&mut self, t: &'a ast::StmtTry, sp: Span) {
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

    fn try_finally(&mut self, t: &'a ast::StmtTry, sp: Span) {
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

    fn with_stmt(&mut self, items: &'a [ast::WithItem], body: &'a [ast::Stmt], sp: Span) {
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

    // ----- assignment targets ------------------------------------------------------------

    /// Whether a subscript is a Python 2 simple slice (`a[i:j]`, no second colon).
    fn simple_slice<'e>(&self, s: &'e ast::ExprSubscript) -> Option<&'e ast::ExprSlice> {
        match &*s.slice {
            ast::Expr::Slice(sl) if !self.slice_is_extended(sl) => Some(sl),
            _ => None,
        }
    }

    /// A slice with a step, or with an explicit second colon (`a[::]`, `a[1:2:]`).
    fn slice_is_extended(&self, sl: &ast::ExprSlice) -> bool {
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

    fn subscript(&mut self, s: &'a ast::ExprSubscript, ctx: Ctx, sp: Span) {
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

    fn store_target(&mut self, t: &'a ast::Expr) {
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
                self.emit(Instr::UnpackSequence(elts.len() as u32), sp);
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

    fn delete_target(&mut self, t: &'a ast::Expr) {
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

    fn aug_assign(&mut self, a: &'a ast::StmtAugAssign, sp: Span) {
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

    // ----- expressions -------------------------------------------------------------------

    /// Jumps to `target` when the truth of `e` is `cond`, else falls through.
    fn jump_if(&mut self, e: &'a ast::Expr, cond: bool, target: Label) {
        let sp = self.span(e.range());
        match e {
            ast::Expr::UnaryOp(u) if u.op == ast::UnaryOp::Not => {
                self.jump_if(&u.operand, !cond, target)
            }
            ast::Expr::BoolOp(b) if !b.values.is_empty() => {
                let is_or = b.op == ast::BoolOp::Or;
                let (last, init) = b.values.split_last().expect("non-empty");
                if cond == is_or {
                    for v in init {
                        self.jump_if(v, cond, target);
                    }
                    self.jump_if(last, cond, target);
                } else {
                    let skip = self.new_label();
                    for v in init {
                        self.jump_if(v, !cond, skip);
                    }
                    self.jump_if(last, cond, target);
                    self.bind(skip);
                }
            }
            ast::Expr::Compare(c) if c.ops.len() > 1 && c.ops.len() == c.comparators.len() => {
                let cleanup = self.new_label();
                let end = self.new_label();
                self.expr(&c.left);
                let n = c.ops.len();
                for k in 0..n - 1 {
                    self.expr(&c.comparators[k]);
                    self.emit(Instr::DupTop, sp);
                    self.emit(Instr::RotThree, sp);
                    self.emit(Instr::Compare(cmpop(c.ops[k])), sp);
                    self.emit(Instr::PopJumpIfFalse(cleanup), sp);
                }
                self.expr(&c.comparators[n - 1]);
                self.emit(Instr::Compare(cmpop(c.ops[n - 1])), sp);
                self.emit(
                    if cond {
                        Instr::PopJumpIfTrue(target)
                    } else {
                        Instr::PopJumpIfFalse(target)
                    },
                    sp,
                );
                self.emit(Instr::Jump(end), sp);
                self.bind(cleanup);
                self.emit(Instr::PopTop, sp);
                if !cond {
                    self.emit(Instr::Jump(target), sp);
                }
                self.bind(end);
            }
            ast::Expr::IfExp(i) => {
                let other = self.new_label();
                let end = self.new_label();
                self.jump_if(&i.test, false, other);
                self.jump_if(&i.body, cond, target);
                self.emit(Instr::Jump(end), sp);
                self.bind(other);
                self.jump_if(&i.orelse, cond, target);
                self.bind(end);
            }
            _ => {
                self.expr(e);
                self.emit(
                    if cond {
                        Instr::PopJumpIfTrue(target)
                    } else {
                        Instr::PopJumpIfFalse(target)
                    },
                    sp,
                );
            }
        }
    }

    fn expr(&mut self, e: &'a ast::Expr) {
        use ast::Expr;
        let sp = self.span(e.range());
        match e {
            Expr::BoolOp(b) => {
                let end = self.new_label();
                let Some((last, init)) = b.values.split_last() else {
                    self.load_const(Const::None, sp);
                    return;
                };
                for v in init {
                    self.expr(v);
                    self.emit(
                        if b.op == ast::BoolOp::And {
                            Instr::JumpIfFalseOrPop(end)
                        } else {
                            Instr::JumpIfTrueOrPop(end)
                        },
                        sp,
                    );
                }
                self.expr(last);
                self.bind(end);
            }
            Expr::NamedExpr(_) => {
                self.unsupported_expr(sp, "assignment expressions (`:=`) are Python 3 only")
            }
            Expr::BinOp(b) if b.op == ast::Operator::Pow && fold_power(e).is_some() => {
                let k = match fold_power(e) {
                    Some(FoldedNum::Int(i)) => {
                        i64::try_from(i).map(Const::Int).unwrap_or(Const::Long(i))
                    }
                    Some(FoldedNum::Float(f)) => Const::Float(f),
                    None => unreachable!(),
                };
                self.load_const(k, sp);
            }
            Expr::BinOp(b) => {
                // Left-deep chains (`a + b + c + ...`) are compiled iteratively.
                let mut chain = vec![b];
                while let Expr::BinOp(inner) = &*chain[chain.len() - 1].left {
                    // a constant power in the chain is folded like one on its own
                    if inner.op == ast::Operator::Pow
                        && fold_power(&chain[chain.len() - 1].left).is_some()
                    {
                        break;
                    }
                    chain.push(inner);
                }
                self.expr(&chain[chain.len() - 1].left);
                for b in chain.into_iter().rev() {
                    let bsp = self.span(b.range);
                    let Some(op) = binop(b.op, self.future_division) else {
                        self.unsupported_expr(bsp, "the `@` operator is Python 3 only");
                        return;
                    };
                    self.expr(&b.right);
                    self.emit(Instr::Binary(op), bsp);
                }
            }
            Expr::UnaryOp(u) => match u.op {
                ast::UnaryOp::Not => {
                    let is_true = self.new_label();
                    let end = self.new_label();
                    self.jump_if(&u.operand, true, is_true);
                    self.load_const(Const::Bool(true), sp);
                    self.emit(Instr::Jump(end), sp);
                    self.bind(is_true);
                    self.load_const(Const::Bool(false), sp);
                    self.bind(end);
                }
                ast::UnaryOp::USub if self.negative_literal(&u.operand, sp) => {}
                op => {
                    self.expr(&u.operand);
                    let op = match op {
                        ast::UnaryOp::Invert => UnOp::Invert,
                        ast::UnaryOp::UAdd => UnOp::Pos,
                        _ => UnOp::Neg,
                    };
                    self.emit(Instr::Unary(op), sp);
                }
            },
            Expr::Lambda(l) => {
                if !self.check_args(&l.args, sp) {
                    self.load_const(Const::None, sp);
                    return;
                }
                let ndefaults = self.defaults(&l.args);
                let Some(scope) = self.block_scope(BlockNode::Lambda, l.range, sp) else {
                    self.load_const(Const::None, sp);
                    return;
                };
                let start = l.range.start().to_u32();
                let name_span = if self
                    .text
                    .get(start as usize..)
                    .is_some_and(|t| t.starts_with("lambda"))
                {
                    Span::new(self.file, start, start + 6)
                } else {
                    sp
                };
                let line = self.line_of(start);
                let code = self.function_code(
                    scope,
                    "<lambda>",
                    &l.args,
                    FnBody::Expr(&l.body),
                    sp,
                    name_span,
                    line,
                );
                self.make_closure(code, ndefaults, sp);
            }
            Expr::IfExp(i) => {
                let other = self.new_label();
                let end = self.new_label();
                self.jump_if(&i.test, false, other);
                self.expr(&i.body);
                self.emit(Instr::Jump(end), sp);
                self.bind(other);
                self.expr(&i.orelse);
                self.bind(end);
            }
            Expr::Dict(d) => {
                if d.keys.iter().any(|k| k.is_none()) {
                    self.unsupported_expr(
                        sp,
                        "dict unpacking in displays (`{**d}`) is Python 3 only",
                    );
                    return;
                }
                // As in Python 2: an empty dict, then one STORE_MAP per item, at the item's
                // position (so that a conflicting item is reported at its own line).
                self.emit(Instr::BuildMap(0), sp);
                for (k, v) in d.keys.iter().zip(&d.values) {
                    let Some(k) = k else { continue };
                    self.expr(v);
                    self.expr(k);
                    let item = TextRange::new(k.range().start(), v.range().end());
                    self.emit(Instr::StoreMap, self.span(item));
                }
            }
            Expr::Set(s) => {
                if self.elts(&s.elts, sp) {
                    self.emit(Instr::BuildSet(s.elts.len() as u32), sp);
                }
            }
            Expr::List(l) => {
                if self.elts(&l.elts, sp) {
                    self.emit(Instr::BuildList(l.elts.len() as u32), sp);
                }
            }
            Expr::Tuple(t) => {
                if self.elts(&t.elts, sp) {
                    self.emit(Instr::BuildTuple(t.elts.len() as u32), sp);
                }
            }
            Expr::ListComp(l) => {
                if l.generators.iter().any(|g| g.is_async) {
                    self.unsupported_expr(sp, "asynchronous comprehensions are Python 3 only");
                    return;
                }
                self.emit(Instr::BuildList(0), sp);
                self.comp_loop(&l.generators, 0, CompElt::List(&l.elt), false, sp);
            }
            Expr::SetComp(s) => self.comprehension(
                BlockNode::SetComp,
                "<setcomp>",
                s.range,
                &s.generators,
                CompElt::Set(&s.elt),
                sp,
            ),
            Expr::DictComp(d) => self.comprehension(
                BlockNode::DictComp,
                "<dictcomp>",
                d.range,
                &d.generators,
                CompElt::Dict(&d.key, &d.value),
                sp,
            ),
            Expr::GeneratorExp(g) => self.comprehension(
                BlockNode::GeneratorExp,
                "<genexpr>",
                g.range,
                &g.generators,
                CompElt::Gen(&g.elt),
                sp,
            ),
            Expr::Await(_) => self.unsupported_expr(sp, "`await` is Python 3 only"),
            Expr::YieldFrom(_) => self.unsupported_expr(sp, "`yield from` is Python 3 only"),
            Expr::Yield(y) => {
                match &y.value {
                    Some(v) => self.expr(v),
                    None => self.load_const(Const::None, sp),
                }
                if self.ur().kind != ScopeKind::Function {
                    self.diag("RPY001", sp, "'yield' outside function");
                    return;
                }
                self.emit(Instr::YieldValue, sp);
            }
            Expr::Compare(c) => self.compare(c, sp),
            Expr::Call(c) => self.call(c, sp),
            Expr::FormattedValue(_) | Expr::JoinedStr(_) => {
                self.unsupported_expr(sp, "f-strings are Python 3 only")
            }
            Expr::Constant(c) => match self.constant(c) {
                Ok(k) => self.load_const(k, sp),
                Err(what) => self.unsupported_expr(sp, &what),
            },
            Expr::Attribute(a) => {
                self.expr(&a.value);
                let n = self.attr_name(&a.attr);
                let i = self.name_index(&n);
                self.emit(Instr::LoadAttr(i), sp);
            }
            Expr::Subscript(s) => self.subscript(s, Ctx::Load, sp),
            Expr::Starred(_) => self.unsupported_expr(
                sp,
                "starred expressions are only allowed as `*args` in calls",
            ),
            Expr::Name(n) if n.id.as_str() == "__debug__" => self.load_const(Const::Bool(true), sp),
            Expr::Name(n) => self.name_op(&n.id, Ctx::Load, sp),
            Expr::Slice(s) => {
                for bound in [&s.lower, &s.upper] {
                    match bound {
                        Some(b) => self.expr(b),
                        None => self.load_const(Const::None, sp),
                    }
                }
                if let Some(step) = &s.step {
                    self.expr(step);
                    self.emit(Instr::BuildSlice(3), sp);
                } else if self.slice_is_extended(s) {
                    self.load_const(Const::None, sp);
                    self.emit(Instr::BuildSlice(3), sp);
                } else {
                    self.emit(Instr::BuildSlice(2), sp);
                }
            }
        }
    }

    /// Compiles the elements of a display; false (after an unsupported raise) if one is starred.
    fn elts(&mut self, elts: &'a [ast::Expr], sp: Span) -> bool {
        if elts.iter().any(|e| matches!(e, ast::Expr::Starred(_))) {
            self.unsupported_expr(sp, "unpacking in displays (`[*a]`) is Python 3 only");
            return false;
        }
        for e in elts {
            self.expr(e);
        }
        true
    }

    /// `-<number literal>` folds into a negative constant (as CPython 2's parser does, so
    /// that `-9223372036854775808` is an int). Returns false if `operand` is not a number.
    fn negative_literal(&mut self, operand: &'a ast::Expr, sp: Span) -> bool {
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

    fn constant(&mut self, c: &'a ast::ExprConstant) -> Result<Const, String> {
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
    fn string_const(&mut self, c: &ast::ExprConstant) -> Const {
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

    fn compare(&mut self, c: &'a ast::ExprCompare, sp: Span) {
        self.expr(&c.left);
        let n = c.ops.len().min(c.comparators.len());
        if n == 0 {
            return;
        }
        if n == 1 {
            self.expr(&c.comparators[0]);
            self.emit(Instr::Compare(cmpop(c.ops[0])), sp);
            return;
        }
        let cleanup = self.new_label();
        let end = self.new_label();
        for k in 0..n - 1 {
            self.expr(&c.comparators[k]);
            self.emit(Instr::DupTop, sp);
            self.emit(Instr::RotThree, sp);
            self.emit(Instr::Compare(cmpop(c.ops[k])), sp);
            self.emit(Instr::JumpIfFalseOrPop(cleanup), sp);
        }
        self.expr(&c.comparators[n - 1]);
        self.emit(Instr::Compare(cmpop(c.ops[n - 1])), sp);
        self.emit(Instr::Jump(end), sp);
        self.bind(cleanup);
        self.emit(Instr::RotTwo, sp);
        self.emit(Instr::PopTop, sp);
        self.bind(end);
    }

    fn call(&mut self, c: &'a ast::ExprCall, sp: Span) {
        let nstar = c
            .args
            .iter()
            .filter(|a| matches!(a, ast::Expr::Starred(_)))
            .count();
        let star_ok =
            nstar == 0 || (nstar == 1 && matches!(c.args.last(), Some(ast::Expr::Starred(_))));
        let nkwstar = c.keywords.iter().filter(|k| k.arg.is_none()).count();
        let kwstar_ok =
            nkwstar == 0 || (nkwstar == 1 && c.keywords.last().is_some_and(|k| k.arg.is_none()));
        if !star_ok || !kwstar_ok {
            self.unsupported_expr(sp, "this form of argument unpacking is Python 3 only");
            return;
        }
        self.expr(&c.func);
        let mut npos = 0;
        let mut star = None;
        for a in &c.args {
            match a {
                ast::Expr::Starred(s) => star = Some(&*s.value),
                a => {
                    self.expr(a);
                    npos += 1;
                }
            }
        }
        let mut nkw = 0;
        let mut starstar = None;
        for k in &c.keywords {
            match &k.arg {
                Some(name) => {
                    let ksp = self.span(k.range);
                    self.load_const(str_const(name), ksp);
                    self.expr(&k.value);
                    nkw += 1;
                }
                None => starstar = Some(&k.value),
            }
        }
        if let Some(s) = star {
            self.expr(s);
        }
        if let Some(s) = starstar {
            self.expr(s);
        }
        self.emit(
            Instr::Call {
                npos,
                nkw,
                star: star.is_some(),
                starstar: starstar.is_some(),
            },
            sp,
        );
    }

    /// A generator expression, set or dict comprehension: a nested function called with
    /// the iterator of the first iterable.
    fn comprehension(
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
        self.emit(
            Instr::Call {
                npos: 1,
                nkw: 0,
                star: false,
                starstar: false,
            },
            sp,
        );
    }

    fn comp_loop(
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

/// Start offset of a statement, including the decorators of a `def` or `class`.
fn stmt_start(s: &ast::Stmt) -> u32 {
    let decorators = match s {
        ast::Stmt::FunctionDef(f) => &f.decorator_list,
        ast::Stmt::ClassDef(c) => &c.decorator_list,
        _ => return s.range().start().to_u32(),
    };
    decorators
        .first()
        .map_or(s.range().start(), |d| d.range().start())
        .to_u32()
}

/// The text of a string constant (docstrings).
fn const_text(c: &Const) -> Rc<str> {
    match c {
        Const::Str(b) => Rc::from(String::from_utf8_lossy(b).as_ref()),
        Const::Unicode(s) => s.clone(),
        _ => Rc::from(""),
    }
}
