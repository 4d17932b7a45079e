//! Symbol table: which scope every name of every code block lives in (Python 2.7's
//! `symtable.c`, adapted to the Python 3 AST of `rustpython-parser`).
//!
//! Blocks are the module, class bodies and functions (`def`, `lambda`, generator expressions,
//! set and dict comprehensions). Python 2 list comprehensions are not blocks: their loop
//! variables belong to the enclosing block.

use crate::fasthash::{HashMap, HashSet};
use crate::syntax::ast;

pub type ScopeId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    Module,
    Class,
    Function,
}

/// Where a name of a block lives (CPython's `LOCAL`, `GLOBAL_EXPLICIT`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameScope {
    Local,
    GlobalExplicit,
    GlobalImplicit,
    Free,
    Cell,
}

const DEF_LOCAL: u8 = 1;
const DEF_PARAM: u8 = 2;
const DEF_GLOBAL: u8 = 4;
const USE: u8 = 8;
/// A class-body name that is also free in a method (the class passes it through).
const DEF_FREE_CLASS: u8 = 16;
const DEF_BOUND: u8 = DEF_LOCAL | DEF_PARAM;

/// The kind of AST node that opens a block, part of the key that finds its scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockNode {
    Function,
    Class,
    Lambda,
    GeneratorExp,
    SetComp,
    DictComp,
}

#[derive(Debug)]
pub struct Scope {
    pub kind: ScopeKind,
    /// Class name used to mangle `__private` names in this block.
    pub private: Option<String>,
    pub parent: Option<ScopeId>,
    /// Nested inside a function (CPython's `ste_nested`).
    pub nested: bool,
    /// Contains `yield` (only meaningful for functions).
    pub generator: bool,
    /// A function containing a bare `exec code` (no `in`): the code may bind names the
    /// compiler cannot see, so implicit globals are read by name (CPython's LOAD_NAME).
    pub bare_exec: bool,
    /// Parameters in order (mangled).
    pub params: Vec<String>,
    pub children: Vec<ScopeId>,
    flags: HashMap<String, u8>,
    /// Insertion order of `flags` (for deterministic analysis).
    order: Vec<String>,
    scopes: HashMap<String, NameScope>,
    /// Sorted, as CPython's `dictbytype`.
    pub cellvars: Vec<String>,
    pub freevars: Vec<String>,
}

impl Scope {
    fn new(
        kind: ScopeKind,
        private: Option<String>,
        parent: Option<ScopeId>,
        nested: bool,
    ) -> Scope {
        Scope {
            kind,
            private,
            parent,
            nested,
            generator: false,
            bare_exec: false,
            params: Vec::new(),
            children: Vec::new(),
            flags: HashMap::default(),
            order: Vec::new(),
            scopes: HashMap::default(),
            cellvars: Vec::new(),
            freevars: Vec::new(),
        }
    }

    /// The scope of a (mangled) name of this block; `None` for names the block never
    /// mentions (hidden compiler names).
    pub fn lookup(&self, name: &str) -> Option<NameScope> {
        self.scopes.get(name).copied()
    }
}

#[derive(Debug)]
pub struct SymbolTable {
    pub scopes: Vec<Scope>,
    by_node: HashMap<(BlockNode, u32, u32), ScopeId>,
}

impl SymbolTable {
    /// Builds and analyses the symbol table of a module body.
    pub fn build(body: &[ast::Stmt]) -> SymbolTable {
        let mut b = Builder {
            table: SymbolTable {
                scopes: vec![Scope::new(ScopeKind::Module, None, None, false)],
                by_node: HashMap::default(),
            },
            current: 0,
        };
        for s in body {
            b.stmt(s);
        }
        let mut table = b.table;
        let mut free = HashSet::default();
        table.analyze_block(0, None, &HashSet::default(), &mut free);
        table
    }

    /// The block opened by the node of `kind` at `range`.
    pub fn block_of(&self, kind: BlockNode, range: ast::text_size::TextRange) -> Option<ScopeId> {
        self.by_node
            .get(&(kind, range.start().to_u32(), range.end().to_u32()))
            .copied()
    }

    /// CPython 2.7 `analyze_block`: resolves every name, computes cell and free variables.
    fn analyze_block(
        &mut self,
        id: ScopeId,
        bound: Option<&HashSet<String>>,
        global: &HashSet<String>,
        free_out: &mut HashSet<String>,
    ) {
        let kind = self.scopes[id].kind;
        let mut bound_local: Option<HashSet<String>> = bound.cloned();
        let mut global_local: HashSet<String> = global.clone();
        let mut local = HashSet::default();
        let mut newbound = HashSet::default();
        let mut newglobal = HashSet::default();
        let mut free_here = HashSet::default();
        if kind == ScopeKind::Class {
            newglobal.extend(global.iter().cloned());
            if let Some(b) = bound {
                newbound.extend(b.iter().cloned());
            }
        }
        let mut scopes = HashMap::default();
        let this = &self.scopes[id];
        for name in &this.order {
            let flags = this.flags[name];
            let sc = if flags & DEF_GLOBAL != 0 {
                global_local.insert(name.clone());
                if let Some(b) = bound_local.as_mut() {
                    b.remove(name);
                }
                NameScope::GlobalExplicit
            } else if flags & DEF_BOUND != 0 {
                local.insert(name.clone());
                global_local.remove(name);
                NameScope::Local
            } else if bound_local.as_ref().is_some_and(|b| b.contains(name)) {
                free_here.insert(name.clone());
                NameScope::Free
            } else {
                NameScope::GlobalImplicit
            };
            scopes.insert(name.clone(), sc);
        }
        if kind != ScopeKind::Class {
            if kind == ScopeKind::Function {
                newbound.extend(local.iter().cloned());
            }
            if let Some(b) = &bound_local {
                newbound.extend(b.iter().cloned());
            }
            newglobal.extend(global_local.iter().cloned());
        }
        let mut newfree = HashSet::default();
        for child in self.scopes[id].children.clone() {
            let mut child_free = HashSet::default();
            self.analyze_block(child, Some(&newbound), &newglobal, &mut child_free);
            newfree.extend(child_free);
        }
        // Locals captured by children become cells.
        if kind == ScopeKind::Function {
            for (name, sc) in scopes.iter_mut() {
                if *sc == NameScope::Local && newfree.remove(name) {
                    *sc = NameScope::Cell;
                }
            }
        }
        // update_symbols: record free variables of children that pass through this block.
        let mut free_class = Vec::new();
        let mut passthrough = Vec::new();
        for name in &newfree {
            if let Some(&flags) = self.scopes[id].flags.get(name) {
                if kind == ScopeKind::Class && flags & (DEF_BOUND | DEF_GLOBAL) != 0 {
                    free_class.push(name.clone());
                }
                continue;
            }
            if bound_local.as_ref().is_some_and(|b| b.contains(name)) {
                passthrough.push(name.clone());
            }
        }
        let scope = &mut self.scopes[id];
        for name in free_class {
            *scope.flags.get_mut(&name).unwrap() |= DEF_FREE_CLASS;
        }
        for name in passthrough {
            scope.flags.insert(name.clone(), 0);
            scope.order.push(name.clone());
            scopes.insert(name, NameScope::Free);
        }
        let mut cellvars: Vec<String> = scopes
            .iter()
            .filter(|(_, s)| **s == NameScope::Cell)
            .map(|(n, _)| n.clone())
            .collect();
        cellvars.sort();
        let mut freevars: Vec<String> = scopes
            .iter()
            .filter(|(n, s)| {
                **s == NameScope::Free
                    || scope.flags.get(*n).is_some_and(|f| f & DEF_FREE_CLASS != 0)
            })
            .map(|(n, _)| n.clone())
            .collect();
        freevars.sort();
        scope.cellvars = cellvars;
        scope.freevars = freevars;
        scope.scopes = scopes;
        free_out.extend(free_here);
        free_out.extend(newfree);
    }
}

/// Python's private name mangling (`__x` in class `A` → `_A__x`).
pub fn mangle(private: Option<&str>, name: &str) -> String {
    mangled(private, name).into_owned()
}

/// [`mangle`], borrowing `name` when it is not mangled (most names).
fn mangled<'n>(private: Option<&str>, name: &'n str) -> std::borrow::Cow<'n, str> {
    if let Some(p) = private {
        if name.starts_with("__") && !name.ends_with("__") && !name.contains('.') {
            let stripped = p.trim_start_matches('_');
            if !stripped.is_empty() {
                return format!("_{stripped}{name}").into();
            }
        }
    }
    name.into()
}

struct Builder {
    table: SymbolTable,
    current: ScopeId,
}

fn key(kind: BlockNode, range: ast::text_size::TextRange) -> (BlockNode, u32, u32) {
    (kind, range.start().to_u32(), range.end().to_u32())
}

impl Builder {
    fn scope(&mut self) -> &mut Scope {
        &mut self.table.scopes[self.current]
    }

    fn add(&mut self, name: &str, flag: u8) {
        let scope = &mut self.table.scopes[self.current];
        let name = mangled(scope.private.as_deref(), name);
        match scope.flags.get_mut(&*name) {
            Some(f) => *f |= flag,
            None => {
                scope.flags.insert(name.to_string(), flag);
                scope.order.push(name.to_string());
            }
        }
        if flag & DEF_PARAM != 0 {
            scope.params.push(name.into_owned());
        }
    }

    fn enter(&mut self, kind: ScopeKind, name: &str, node: (BlockNode, u32, u32)) {
        let parent = &self.table.scopes[self.current];
        let nested = parent.nested || parent.kind == ScopeKind::Function;
        let private = if kind == ScopeKind::Class {
            Some(name.to_string())
        } else {
            parent.private.clone()
        };
        let id = self.table.scopes.len();
        self.table
            .scopes
            .push(Scope::new(kind, private, Some(self.current), nested));
        self.table.scopes[self.current].children.push(id);
        self.table.by_node.entry(node).or_insert(id);
        self.current = id;
    }

    fn leave(&mut self) {
        self.current = self.table.scopes[self.current].parent.unwrap_or(0);
    }

    fn params(&mut self, args: &ast::Arguments) {
        for a in args.posonlyargs.iter().chain(&args.args) {
            self.add(&a.def.arg, DEF_PARAM);
        }
        if let Some(v) = &args.vararg {
            self.add(&v.arg, DEF_PARAM);
        }
        if let Some(k) = &args.kwarg {
            self.add(&k.arg, DEF_PARAM);
        }
    }

    fn defaults(&mut self, args: &ast::Arguments) {
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            if let Some(d) = &a.default {
                self.expr(d);
            }
        }
    }

    fn stmts(&mut self, body: &[ast::Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) {
        use ast::Stmt;
        match s {
            Stmt::FunctionDef(f) => {
                self.add(&f.name, DEF_LOCAL);
                self.defaults(&f.args);
                for d in &f.decorator_list {
                    self.expr(d);
                }
                self.enter(
                    ScopeKind::Function,
                    &f.name,
                    key(BlockNode::Function, f.range),
                );
                self.params(&f.args);
                self.stmts(&f.body);
                self.leave();
            }
            Stmt::ClassDef(c) => {
                self.add(&c.name, DEF_LOCAL);
                for b in &c.bases {
                    self.expr(b);
                }
                for d in &c.decorator_list {
                    self.expr(d);
                }
                self.enter(ScopeKind::Class, &c.name, key(BlockNode::Class, c.range));
                self.stmts(&c.body);
                self.leave();
            }
            Stmt::Return(r) => {
                if let Some(v) = &r.value {
                    self.expr(v);
                }
            }
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.expr(t);
                }
            }
            Stmt::Assign(a) => {
                self.expr(&a.value);
                for t in &a.targets {
                    self.expr(t);
                }
            }
            Stmt::AugAssign(a) => {
                if let ast::Expr::Name(n) = &*a.target {
                    self.add(&n.id, DEF_LOCAL | USE);
                } else {
                    self.expr(&a.target);
                }
                self.expr(&a.value);
            }
            Stmt::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    self.expr(v);
                    self.expr(&a.target);
                }
            }
            Stmt::For(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            Stmt::With(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr);
                    if let Some(v) = &item.optional_vars {
                        self.expr(v);
                    }
                }
                self.stmts(&w.body);
            }
            Stmt::Raise(r) => {
                if let Some(e) = &r.exc {
                    self.expr(e);
                }
            }
            Stmt::Try(t) => {
                self.stmts(&t.body);
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(ty) = &h.type_ {
                        self.expr(ty);
                    }
                    if let Some(n) = &h.name {
                        self.add(n, DEF_LOCAL);
                    }
                    self.stmts(&h.body);
                }
                self.stmts(&t.orelse);
                self.stmts(&t.finalbody);
            }
            Stmt::Assert(a) => {
                self.expr(&a.test);
                if let Some(m) = &a.msg {
                    self.expr(m);
                }
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    match &alias.asname {
                        Some(a) => self.add(a, DEF_LOCAL),
                        None => {
                            let first = alias.name.split('.').next().unwrap_or(&alias.name);
                            self.add(first, DEF_LOCAL);
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                for alias in &i.names {
                    if alias.name.as_str() == "*" {
                        continue;
                    }
                    self.add(alias.asname.as_ref().unwrap_or(&alias.name), DEF_LOCAL);
                }
            }
            Stmt::Global(g) => {
                for n in &g.names {
                    self.add(n, DEF_GLOBAL);
                }
            }
            Stmt::Expr(e) => self.expr(&e.value),
            // Unsupported constructs compile to a `raise SystemError`: their names are not
            // recorded.
            Stmt::Nonlocal(_)
            | Stmt::AsyncFunctionDef(_)
            | Stmt::AsyncFor(_)
            | Stmt::AsyncWith(_)
            | Stmt::Match(_)
            | Stmt::TryStar(_)
            | Stmt::TypeAlias(_)
            | Stmt::Pass(_)
            | Stmt::Break(_)
            | Stmt::Continue(_) => {}
        }
    }

    fn comprehension_scope(
        &mut self,
        kind: BlockNode,
        name: &str,
        range: ast::text_size::TextRange,
        generators: &[ast::Comprehension],
        elts: &[&ast::Expr],
    ) {
        let Some(first) = generators.first() else {
            return;
        };
        self.expr(&first.iter);
        self.enter(ScopeKind::Function, name, key(kind, range));
        if kind == BlockNode::GeneratorExp {
            self.scope().generator = true;
        }
        self.add(".0", DEF_PARAM);
        for (i, g) in generators.iter().enumerate() {
            self.expr(&g.target);
            if i > 0 {
                self.expr(&g.iter);
            }
            for c in &g.ifs {
                self.expr(c);
            }
        }
        for e in elts {
            self.expr(e);
        }
        self.leave();
    }

    fn expr(&mut self, e: &ast::Expr) {
        use ast::Expr;
        match e {
            Expr::BoolOp(b) => {
                for v in &b.values {
                    self.expr(v);
                }
            }
            Expr::BinOp(b) => {
                // Iterative over left-deep chains (`a + b + c + ...`).
                let mut cur = b;
                loop {
                    self.expr(&cur.right);
                    match &*cur.left {
                        Expr::BinOp(inner) => cur = inner,
                        left => {
                            self.expr(left);
                            break;
                        }
                    }
                }
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                self.defaults(&l.args);
                self.enter(
                    ScopeKind::Function,
                    "<lambda>",
                    key(BlockNode::Lambda, l.range),
                );
                self.params(&l.args);
                self.expr(&l.body);
                self.leave();
            }
            Expr::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                for (k, v) in d.keys.iter().zip(&d.values) {
                    if let Some(k) = k {
                        self.expr(k);
                    }
                    self.expr(v);
                }
            }
            Expr::Set(s) => {
                for v in &s.elts {
                    self.expr(v);
                }
            }
            Expr::ListComp(l) => {
                for g in &l.generators {
                    self.expr(&g.iter);
                    self.expr(&g.target);
                    for c in &g.ifs {
                        self.expr(c);
                    }
                }
                self.expr(&l.elt);
            }
            Expr::SetComp(s) => self.comprehension_scope(
                BlockNode::SetComp,
                "<setcomp>",
                s.range,
                &s.generators,
                &[&s.elt],
            ),
            Expr::DictComp(d) => self.comprehension_scope(
                BlockNode::DictComp,
                "<dictcomp>",
                d.range,
                &d.generators,
                &[&d.value, &d.key],
            ),
            Expr::GeneratorExp(g) => self.comprehension_scope(
                BlockNode::GeneratorExp,
                "<genexpr>",
                g.range,
                &g.generators,
                &[&g.elt],
            ),
            Expr::Yield(y) => {
                if let Some(v) = &y.value {
                    self.expr(v);
                }
                let scope = self.scope();
                if scope.kind == ScopeKind::Function {
                    scope.generator = true;
                }
            }
            Expr::Compare(c) => {
                self.expr(&c.left);
                for v in &c.comparators {
                    self.expr(v);
                }
            }
            Expr::Call(c) => {
                if let Expr::Name(n) = &*c.func {
                    let scope = self.scope();
                    if n.id.as_str() == crate::syntax::EXEC_FUNC
                        && c.args.len() == 1
                        && scope.kind == ScopeKind::Function
                    {
                        scope.bare_exec = true;
                    }
                }
                self.expr(&c.func);
                for a in &c.args {
                    self.expr(a);
                }
                for k in &c.keywords {
                    self.expr(&k.value);
                }
            }
            Expr::Attribute(a) => self.expr(&a.value),
            Expr::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            Expr::Starred(s) => self.expr(&s.value),
            Expr::Name(n) => {
                let flag = match n.ctx {
                    ast::ExprContext::Load => USE,
                    ast::ExprContext::Store | ast::ExprContext::Del => DEF_LOCAL,
                };
                self.add(&n.id, flag);
            }
            Expr::List(l) => {
                for v in &l.elts {
                    self.expr(v);
                }
            }
            Expr::Tuple(t) => {
                for v in &t.elts {
                    self.expr(v);
                }
            }
            Expr::Slice(s) => {
                for v in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    self.expr(v);
                }
            }
            Expr::Constant(_)
            | Expr::NamedExpr(_)
            | Expr::Await(_)
            | Expr::YieldFrom(_)
            | Expr::FormattedValue(_)
            | Expr::JoinedStr(_) => {}
        }
    }
}
