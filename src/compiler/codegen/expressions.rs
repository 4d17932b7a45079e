//! Expressions: the dispatch over expression kinds (operators, displays, lambdas, yields,
//! attributes…), conditional jumps on a test (`jump_if`, which short-circuits `and`/`or`/
//! `not` and chained comparisons without materializing booleans), comparisons and calls with
//! `*args`/`**kwargs`. Literal values are in `constants`, nested code objects in
//! `functions`.

use super::{str_const, Codegen, CompElt, Ctx, FnBody, Label};
use crate::compiler::bytecode::{BinOp, CmpOp, Const, Instr, UnOp};
use crate::compiler::symtable::{BlockNode, ScopeKind};
use crate::syntax::ast::{self, text_size::TextRange, Ranged};
use crate::syntax::Span;

pub(super) fn binop(op: ast::Operator, true_div: bool) -> Option<BinOp> {
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
    /// Jumps to `target` when the truth of `e` is `cond`, else falls through.
    pub(super) fn jump_if(&mut self, e: &'a ast::Expr, cond: bool, target: Label) {
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
                self.compare_chain(c, c.ops.len(), sp, Instr::PopJumpIfFalse(cleanup));
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

    pub(super) fn expr(&mut self, e: &'a ast::Expr) {
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
            Expr::BinOp(_) if self.fold(e).is_some() => {
                self.load_folded(e, sp);
            }
            Expr::BinOp(b) => {
                // Left-deep chains (`a + b + c + ...`) are compiled iteratively.
                let mut chain = vec![b];
                while let Expr::BinOp(inner) = &*chain[chain.len() - 1].left {
                    // a constant operand in the chain is folded like one on its own
                    if self.fold(&chain[chain.len() - 1].left).is_some() {
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
                // `-<literal>` (one constant in CPython's parser: `-9223372036854775808` is
                // an int) and what the optimizer folds
                ast::UnaryOp::USub | ast::UnaryOp::Invert if self.fold(e).is_some() => {
                    self.load_folded(e, sp);
                }
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
                // As in Python 2: an empty dict presized for the items (which decides the
                // order CPython iterates over it in), then one STORE_MAP per item, at the
                // item's position (so that a conflicting item is reported at its own line).
                self.emit(Instr::BuildMap(d.keys.len().min(0xffff) as u32), sp);
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

    /// The `n` comparisons of `a < b < c` after the leftmost operand: each middle operand
    /// is kept (DUP_TOP, ROT_THREE) for the next comparison, and a false result leaves
    /// the chain by `exit` (a jump to the cleanup); the last result stays on the stack.
    fn compare_chain(&mut self, c: &'a ast::ExprCompare, n: usize, sp: Span, exit: Instr) {
        for k in 0..n - 1 {
            self.expr(&c.comparators[k]);
            self.emit(Instr::DupTop, sp);
            self.emit(Instr::RotThree, sp);
            self.emit(Instr::Compare(cmpop(c.ops[k])), sp);
            self.emit(exit, sp);
        }
        self.comparand(&c.comparators[n - 1], c.ops[n - 1], sp);
        self.emit(Instr::Compare(cmpop(c.ops[n - 1])), sp);
    }

    /// The right operand of the comparison that ends a chain: a list display of constants
    /// right before `in`/`not in` is built as a tuple, which CPython 2.7's optimizer makes
    /// one constant (`x in [1, 2]` loads `(1, 2)`), so `'q' in ['p', 'q']` is folded.
    fn comparand(&mut self, e: &'a ast::Expr, op: ast::CmpOp, sp: Span) {
        match e {
            ast::Expr::List(l)
                if matches!(op, ast::CmpOp::In | ast::CmpOp::NotIn)
                    && self.in_list_folds(&l.elts) =>
            {
                if self.elts(&l.elts, sp) {
                    self.emit(Instr::BuildTuple(l.elts.len() as u32), sp);
                }
            }
            _ => self.expr(e),
        }
    }

    fn compare(&mut self, c: &'a ast::ExprCompare, sp: Span) {
        self.expr(&c.left);
        let n = c.ops.len().min(c.comparators.len());
        if n == 0 {
            return;
        }
        if n == 1 {
            self.comparand(&c.comparators[0], c.ops[0], sp);
            self.emit(Instr::Compare(cmpop(c.ops[0])), sp);
            return;
        }
        let cleanup = self.new_label();
        let end = self.new_label();
        self.compare_chain(c, n, sp, Instr::JumpIfFalseOrPop(cleanup));
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
}
