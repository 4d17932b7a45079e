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
//!
//! The generator is one `Codegen` value; its methods are spread over the submodules below
//! by what they compile. This file holds its data model (code units, fblocks, the constant
//! and name tables), the low-level emit/label helpers and the module entry point:
//! - `names`: loads, stores and deletes of names, by the scope the symbol table gives them;
//! - `functions`: nested code objects (functions, lambda bodies, classes, comprehensions);
//! - `statements`: statement dispatch, expression statements, `print`, imports and loops;
//! - `control`: exits and exceptions (unwinding on break/continue/return, raise, try, with);
//! - `targets`: assignment and deletion targets, subscripts and slices, augmented assignment;
//! - `expressions`: expressions, conditional jumps, comparisons and calls;
//! - `constants`: literal values and the numbers CPython folds at compile time;
//! - `seqfold`: the strings and tuples it folds, for its count of constants before `in`.

mod constants;
mod control;
mod expressions;
mod functions;
mod names;
mod seqfold;
mod statements;
mod targets;

use super::bytecode::{flags, CodeObject, Const, Instr};
use super::symtable::{ScopeId, ScopeKind, SymbolTable};
use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::{FileId, Span};
use control::reraise_in_handler;
use functions::docstring_expr;
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
    BigLong(Rc<crate::biglong::BigInt>),
    Float(u64),
    Complex(u64, u64),
    Str(Rc<[u8]>),
    Unicode(crate::compiler::UStr),
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
        Const::BigLong(i) => ConstKey::BigLong(i.clone()),
        Const::Float(f) => ConstKey::Float(f.to_bits()),
        Const::Str(s) => ConstKey::Str(s.clone()),
        Const::Unicode(s) => ConstKey::Unicode(s.clone()),
        Const::Tuple(t) => ConstKey::Tuple(t.iter().map(const_key).collect()),
        Const::Code(c) => ConstKey::Code(Rc::as_ptr(c) as usize),
        Const::Ellipsis => ConstKey::Ellipsis,
        Const::Complex(re, im) => ConstKey::Complex(re.to_bits(), im.to_bits()),
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

/// Whether a conditional jump is taken when its value is true.
fn jumps_on_true(i: Instr) -> Option<bool> {
    match i {
        Instr::PopJumpIfTrue(_) | Instr::JumpIfTrueOrPop(_) => Some(true),
        Instr::PopJumpIfFalse(_) | Instr::JumpIfFalseOrPop(_) => Some(false),
        _ => None,
    }
}

/// CPython 2.7's peephole step for `a and b or c`: a JUMP_IF_FALSE_OR_POP (or
/// JUMP_IF_TRUE_OR_POP) whose target is another conditional jump is threaded through it,
/// since its outcome is then known. The falsy `a` never reaches the `or` (so a str `a`
/// and an int `c` never merge), which the reference's flow space sees in the bytecode.
fn thread_conditional_jumps(code: &mut [Instr]) {
    for i in 0..code.len() {
        // each rewrite moves the target strictly forward, so this ends
        for _ in 0..code.len() {
            let (own, t) = match code[i] {
                Instr::JumpIfFalseOrPop(t) => (false, t),
                Instr::JumpIfTrueOrPop(t) => (true, t),
                _ => break,
            };
            let Some(&next) = code.get(t as usize) else {
                break;
            };
            let Some(theirs) = jumps_on_true(next) else {
                break;
            };
            let Some(tt) = next.jump_target() else { break };
            if tt <= t {
                break;
            }
            code[i] = if theirs == own {
                // the second jump is taken exactly when the first is
                with_target(next, tt)
            } else if own {
                // the second is not taken: jump past it, popping the value
                Instr::PopJumpIfTrue(t + 1)
            } else {
                Instr::PopJumpIfFalse(t + 1)
            };
        }
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
            const_index: HashMap::default(),
            names: Vec::new(),
            name_index: HashMap::default(),
            varnames: Vec::new(),
            varname_index: HashMap::default(),
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
        let mut code: Vec<Instr> = u
            .code
            .iter()
            .map(|&i| match i.jump_target() {
                Some(l) => with_target(i, u.labels[l as usize].unwrap_or(end)),
                None => i,
            })
            .collect();
        thread_conditional_jumps(&mut code);
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
        self.emit(Instr::CALL_ONE, span);
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
        Const::Unicode(s) => Rc::from(s.to_string_lossy().as_str()),
        _ => Rc::from(""),
    }
}
