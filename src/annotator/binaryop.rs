//! Operations on two (or more) values: arithmetic, comparisons and `%` string formatting.

use super::annrpython::Annotator;
use super::model::*;
use super::unaryop::type_word;
use super::AnnError;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{IntKind, Object, Value};
use std::rc::Rc;

use SomeValue as S;

fn op_symbol(op: Op) -> &'static str {
    use Op::*;
    match op {
        Add | InplaceAdd => "+",
        Sub | InplaceSub => "-",
        Mul | InplaceMul => "*",
        Div | InplaceDiv => "/",
        TrueDiv | InplaceTrueDiv => "/",
        FloorDiv | InplaceFloorDiv => "//",
        Mod | InplaceMod => "%",
        LShift | InplaceLShift => "<<",
        RShift | InplaceRShift => ">>",
        And | InplaceAnd => "&",
        Or | InplaceOr => "|",
        Xor | InplaceXor => "^",
        Lt => "<",
        Le => "<=",
        Eq => "==",
        Ne => "!=",
        Gt => ">",
        Ge => ">=",
        _ => "?",
    }
}

/// The non-inplace operation.
fn base_op(op: Op) -> Op {
    use Op::*;
    match op {
        InplaceAdd => Add,
        InplaceSub => Sub,
        InplaceMul => Mul,
        InplaceDiv => Div,
        InplaceTrueDiv => TrueDiv,
        InplaceFloorDiv => FloorDiv,
        InplaceMod => Mod,
        InplaceLShift => LShift,
        InplaceRShift => RShift,
        InplaceAnd => And,
        InplaceOr => Or,
        InplaceXor => Xor,
        o => o,
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    fn signedness_error(&self, op: Op, a: &SomeValue, b: &SomeValue, e: &AnnError) -> AnnError {
        let heap = self.space.heap();
        AnnError::new(
            "RPY220",
            format!(
                "`{}` between {} and {}: {}; convert explicitly with r_uint() or intmask()",
                op_symbol(op),
                self.bk.describe_type(heap, a),
                self.bk.describe_type(heap, b),
                if e.msg.is_empty() {
                    "these integer types cannot be mixed"
                } else {
                    &e.msg
                }
            ),
        )
    }

    /// Arithmetic and bitwise operators.
    pub fn binop(&mut self, op: Op, a: &SomeValue, b: &SomeValue) -> Result<SomeValue, AnnError> {
        let inplace = base_op(op) != op;
        let op = base_op(op);
        use Op::*;
        match (a, b) {
            (S::None, _) | (_, S::None) => Ok(S::Impossible),
            (S::Bool { konst: c1, .. }, S::Bool { konst: c2, .. }) if matches!(op, And | Or | Xor) => {
                let konst = match (op, c1, c2) {
                    (And, Some(false), _) | (And, _, Some(false)) => Some(false),
                    (And, Some(true), Some(true)) => Some(true),
                    (Or, Some(true), _) | (Or, _, Some(true)) => Some(true),
                    (Or, Some(false), Some(false)) => Some(false),
                    (Xor, Some(x), Some(y)) => Some(x ^ y),
                    _ => None,
                };
                Ok(S::Bool { konst, ktd: None })
            }
            (x, y) if x.is_int_like() && y.is_int_like() => {
                let (k1, k2) = (x.int_kind().expect("int"), y.int_kind().expect("int"));
                // no arithmetic in a narrow kind (a shift is in the kind of its left side)
                let kind = if matches!(op, LShift | RShift) { Some(k1) } else { compute_restype(k1, k2) };
                if op != TrueDiv {
                    self.narrow_refusal(kind)?;
                }
                let union = |this: &mut Self| -> Result<SomeValue, AnnError> {
                    let u = this.bk.union(this.space.heap(), &x.not_const(), &y.not_const()).map_err(|e| this.signedness_error(op, x, y, &e))?;
                    Ok(match u {
                        S::Bool { .. } => SomeValue::nonneg_int(),
                        u => u,
                    })
                };
                match op {
                    Add | Mul | Or | Xor | Div | FloorDiv | Mod => union(self),
                    TrueDiv => Ok(SomeValue::float()),
                    // `-` and `&` only combine the machine types (an int mixes with any
                    // of them): a possibly negative int with an r_uint is fine here.
                    Sub | And => {
                        let kind = compute_restype(k1, k2).ok_or_else(|| self.signedness_error(op, x, y, &AnnError::new("RPY220", String::new())))?;
                        let nonneg = op == And && (x.is_nonneg() || y.is_nonneg());
                        Ok(SomeValue::int_of_kind(kind, nonneg))
                    }
                    LShift => Ok(if matches!(x, S::Bool { .. }) { SomeValue::int() } else { SomeValue::int_of_kind(k1, false) }),
                    RShift => Ok(if matches!(x, S::Bool { .. }) { SomeValue::nonneg_int() } else { SomeValue::int_of_kind(k1, x.is_nonneg()) }),
                    _ => Err(self.unsupported(op_symbol(op), &[x, y])),
                }
            }
            (x, y) if x.is_number() && y.is_number() => match op {
                Add | Sub | Mul | Div | TrueDiv => Ok(SomeValue::float()),
                Mod => Err(AnnError::new(
                    "RPY205",
                    "`%` on floats is not supported by RPython: use math.fmod(a, b)".into(),
                )),
                _ => Err(self.unsupported(op_symbol(op), &[x, y])),
            },
            (x, y) if x.is_str_like() && y.is_str_like() && op == Add => {
                let heap = self.space.heap();
                if let (Some(c1), Some(c2)) = (x.konst(), y.konst()) {
                    if let (Some(s1), Some(s2)) = (heap.str_value(c1), heap.str_value(c2)) {
                        let mut joined = s1.to_vec();
                        joined.extend_from_slice(s2);
                        let no_nul = !joined.contains(&0);
                        let v = Value::Obj(self.space.heap_mut().alloc(Object::Str(Rc::from(joined))));
                        return Ok(S::Str { can_be_none: false, no_nul, konst: Some(v) });
                    }
                }
                Ok(SomeValue::string0(x.no_nul() && y.no_nul()))
            }
            (x, y) if x.is_unicode_like() && y.is_unicode_like() && op == Add => Ok(SomeValue::unicode(x.no_nul() && y.no_nul())),
            // a bytearray with a bytearray, a str or a char: a new bytearray
            (S::ByteArray, y) | (y, S::ByteArray)
                if op == Add && (y.is_str_like() || matches!(y, S::ByteArray)) =>
            {
                Ok(SomeValue::bytearray())
            }
            (x, y) if (x.is_str_like() && y.is_unicode_like()) || (x.is_unicode_like() && y.is_str_like()) => {
                if op == Mod {
                    return Err(AnnError::new("RPY208", "string formatting mixing str and unicode is not supported".into()));
                }
                Err(AnnError::new(
                    "RPY205",
                    format!("`{}` between str and unicode: RPython has no implicit conversion between them", op_symbol(op)),
                ))
            }
            (x, _) if (x.is_str_like() || x.is_unicode_like()) && op == Mod => self.string_format(x, b),
            (x, y) if x.is_str_like() && y.is_int_like() && op == Mul => Ok(SomeValue::string0(x.no_nul())),
            (x, y) if x.is_int_like() && y.is_str_like() && op == Mul => Ok(SomeValue::string0(y.no_nul())),
            (x, y) if x.is_unicode_like() && y.is_int_like() && op == Mul => Ok(SomeValue::unicode(x.no_nul())),
            (x, y) if x.is_int_like() && y.is_unicode_like() && op == Mul => Ok(SomeValue::unicode(y.no_nul())),
            (S::List { def: d1, .. }, S::List { def: d2, .. }) if op == Add => {
                if inplace {
                    self.bk.mutate_list(self.space.heap(), *d1, true)?;
                    self.bk.agree_lists(self.space.heap(), *d1, *d2)?;
                    return Ok(a.clone());
                }
                self.bk.offspring(self.space.heap(), &[*d1, *d2])
            }
            (S::List { def, .. }, y) if op == Add && inplace => {
                // lst += iterable: extend with its items
                let it = self.op_iter(y)?;
                let item = self.op_next(&it)?;
                self.bk.mutate_list(self.space.heap(), *def, true)?;
                if !item.is_impossible() {
                    self.bk.generalize_list(self.space.heap(), *def, &item)?;
                }
                Ok(a.clone())
            }
            (S::List { def, .. }, y) | (y, S::List { def, .. }) if op == Mul && y.is_int_like() => {
                if inplace {
                    self.bk.mutate_list(self.space.heap(), *def, true)?;
                    return Ok(a.clone());
                }
                self.bk.offspring(self.space.heap(), &[*def])
            }
            (S::Tuple(x), S::Tuple(y)) if op == Add => Ok(S::Tuple(x.iter().chain(y.iter()).cloned().collect::<Vec<_>>().into())),
            (S::Instance { classdef, .. }, _) | (_, S::Instance { classdef, .. }) => Err(AnnError::new(
                "RPY205",
                format!(
                    "`{}` on instances of `{}` is not supported: special methods such as {} are not honoured by RPython (call an ordinary method instead)",
                    op_symbol(op),
                    self.bk.classdef(*classdef).name,
                    dunder_of(op)
                ),
            )),
            _ => Err(self.unsupported(op_symbol(op), &[a, b])),
        }
    }

    /// `"..." % args`: a constant format with %s %d %x %o %f %r (instances) and %% only.
    fn string_format(&mut self, fmt: &SomeValue, args: &SomeValue) -> Result<SomeValue, AnnError> {
        let heap = self.space.heap();
        let is_unicode = fmt.is_unicode_like();
        let text: Option<String> = fmt.konst().and_then(|c| match c {
            Value::Obj(id) => match heap.get(id) {
                Object::Str(s) => Some(String::from_utf8_lossy(s).into_owned()),
                Object::Unicode(s) => Some(s.to_string()),
                _ => None,
            },
            _ => None,
        });
        let Some(text) = text else {
            return Err(AnnError::new(
                "RPY208",
                "the format string on the left of % must be a constant known at translation time"
                    .into(),
            ));
        };
        let items: Vec<SomeValue> = match args {
            S::Tuple(items) => items.to_vec(),
            s => vec![s.clone()],
        };
        let mut specs = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                continue;
            }
            match chars.next() {
                Some('%') => {}
                Some(f @ ('s' | 'd' | 'x' | 'o' | 'f' | 'r')) => specs.push(f),
                Some(f) => {
                    let mut spec = format!("%{}", f);
                    if !f.is_ascii_alphabetic() {
                        for c2 in chars.by_ref() {
                            spec.push(c2);
                            if c2.is_ascii_alphabetic() {
                                break;
                            }
                        }
                    }
                    return Err(AnnError::new(
                        "RPY208",
                        format!(
                            "unsupported format specifier `{}`: only %s, %d, %x, %o, %f, %r and %% are supported, without flags, width or precision",
                            spec
                        ),
                    ).at_typer());
                }
                None => {
                    return Err(AnnError::new(
                        "RPY208",
                        "incomplete format: `%` at the end of the format string".into(),
                    )
                    .at_typer())
                }
            }
        }
        // more values than specifiers is accepted: the reference's RTyper takes the values
        // it needs in order and ignores the rest; fewer stop it (StopIteration)
        if specs.len() > items.len() {
            return Err(AnnError::new(
                "RPY208",
                format!(
                    "the format string has {} specifier(s) but {} value(s) are given",
                    specs.len(),
                    items.len()
                ),
            )
            .at_typer());
        }
        let mut no_nul = fmt.no_nul();
        for (f, s) in specs.iter().zip(&items) {
            if s.is_error() {
                continue;
            }
            if s.konst().is_none() {
                self.narrow_refusal(s.int_kind())?;
            }
            if (is_unicode && s.is_str_like()) || (!is_unicode && s.is_unicode_like()) {
                return Err(AnnError::new(
                    "RPY208",
                    "string formatting mixing str and unicode is not supported".into(),
                ));
            }
            if *f == 's' && self.is_class_value(s) {
                if let Some(why) = self.class_str_refusal(s) {
                    return Err(AnnError::new("RPY208", format!("%s: {}", why)).at_typer());
                }
            }
            let ok = match f {
                'd' | 'x' | 'o' => s.is_int_like(),
                'f' => s.is_number(),
                'r' => matches!(s, S::Instance { .. }),
                _ => !matches!(
                    s,
                    S::Dict { .. }
                        | S::Iterator { .. }
                        | S::Generator { .. }
                        | S::Builtin { .. }
                        | S::BuiltinMethod { .. }
                ),
            };
            if !ok {
                let what = match f {
                    'r' => "%r is only supported for instances of user classes".to_string(),
                    's' => format!(
                        "%s cannot format {}",
                        self.bk.describe_type(self.space.heap(), s)
                    ),
                    _ => format!(
                        "%{} needs a number, not {}",
                        f,
                        self.bk.describe_type(self.space.heap(), s)
                    ),
                };
                return Err(AnnError::new("RPY208", what).at_typer());
            }
            if !(s.is_number() || ((s.is_str_like() || s.is_unicode_like()) && s.no_nul())) {
                no_nul = false;
            }
        }
        Ok(if is_unicode {
            SomeValue::unicode(no_nul)
        } else {
            SomeValue::string0(no_nul)
        })
    }

    pub fn op_compare(
        &mut self,
        op: &SpaceOperation,
        args: &[SomeValue],
    ) -> Result<SomeValue, AnnError> {
        let (a, b) = (&args[0], &args[1]);
        let opname = op.opname;
        let ordering = matches!(opname, Op::Lt | Op::Le | Op::Gt | Op::Ge);
        match (a, b) {
            (x, y) if x.is_int_like() && y.is_int_like() => {
                if let (Some(k1), Some(k2)) = (x.int_kind(), y.int_kind()) {
                    self.narrow_refusal(compute_restype(k1, k2))?;
                }
                if (x.is_unsigned() || y.is_unsigned()) && !(x.is_nonneg() && y.is_nonneg()) {
                    return Err(AnnError::new(
                        "RPY220",
                        format!(
                            "comparing a signed and an unsigned number ({} {} {}): convert one side with r_uint() or intmask()",
                            self.bk.describe_type(self.space.heap(), x),
                            op_symbol(opname),
                            self.bk.describe_type(self.space.heap(), y)
                        ),
                    ).at_typer());
                }
                let mut konst = None;
                if let (Some(Value::Int(p)), Some(Value::Int(q))) = (x.konst(), y.konst()) {
                    konst = Some(compare_consts(opname, &p, &q));
                }
                let mut ktd: KnownTypeData = Vec::new();
                let signed = |s: &SomeValue| !s.is_unsigned();
                if signed(x) && signed(y) {
                    if x.is_nonneg() {
                        if let Hlvalue::Var(v) = op.args[1] {
                            ktd.push((matches!(opname, Op::Lt | Op::Le | Op::Eq), v, SomeValue::nonneg_int()));
                        }
                    }
                    if y.is_nonneg() {
                        if let Hlvalue::Var(v) = op.args[0] {
                            ktd.push((matches!(opname, Op::Gt | Op::Ge | Op::Eq), v, SomeValue::nonneg_int()));
                        }
                    }
                    if op.args[1] == Hlvalue::Const(Value::Int(0)) && x.is_nonneg() {
                        match opname {
                            Op::Lt => konst = Some(false),
                            Op::Ge => konst = Some(true),
                            _ => {}
                        }
                    }
                }
                // Narrowing a variable already of type int only: keep the kind of the variable.
                let ktd: KnownTypeData = ktd
                    .into_iter()
                    .map(|(t, v, _)| {
                        let kind = if op.args[0] == Hlvalue::Var(v) { x.int_kind() } else { y.int_kind() };
                        (t, v, SomeValue::int_of_kind(kind.unwrap_or(IntKind::Signed), true))
                    })
                    .collect();
                Ok(S::Bool { konst, ktd: (!ktd.is_empty()).then(|| Rc::new(ktd)) })
            }
            (x, y) if x.is_number() && y.is_number() => {
                // two constants compare at translation time (the reference's default)
                let num = |v: Option<Value>| match v {
                    Some(Value::Float(f)) => Some(f),
                    Some(Value::Int(i)) => Some(i as f64),
                    Some(Value::Bool(b)) => Some(b as i64 as f64),
                    _ => None,
                };
                Ok(match (num(x.konst()), num(y.konst())) {
                    (Some(p), Some(q)) => SomeValue::const_bool(compare_consts(opname, &p, &q)),
                    _ => SomeValue::bool(),
                })
            }
            (x, y) if (x.is_str_like() && y.is_str_like()) || (x.is_unicode_like() && y.is_unicode_like()) => {
                if let (Some(c1), Some(c2)) = (x.konst(), y.konst()) {
                    let heap = self.space.heap();
                    let codes = |c: Value| match c {
                        Value::Obj(id) => match heap.get(id) {
                            Object::Unicode(u) => Some(u.codes().to_vec()),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let (Some(u1), Some(u2)) = (codes(c1), codes(c2)) {
                        let r = compare_consts(opname, &u1, &u2);
                        return Ok(SomeValue::const_bool(r));
                    }
                    if let (Some(s1), Some(s2)) = (heap.str_value(c1), heap.str_value(c2)) {
                        let r = compare_consts(opname, &s1, &s2);
                        return Ok(SomeValue::const_bool(r));
                    }
                }
                Ok(SomeValue::bool())
            }
            // a str character compares with a unicode one (as its code point)
            (S::Char { .. }, S::UnicodeCodePoint { .. }) | (S::UnicodeCodePoint { .. }, S::Char { .. }) => Ok(SomeValue::bool()),
            (x, y) if (x.is_str_like() && y.is_unicode_like()) || (x.is_unicode_like() && y.is_str_like()) => Err(AnnError::new(
                "RPY205",
                format!("comparing str with unicode (`{}`): RPython has no implicit conversion between them", op_symbol(opname)),
            ).at_typer()),
            // == and != compare tuples item by item (the typer unions the two tuples).
            (S::Tuple(_), S::Tuple(_)) if !ordering => {
                if !self.bk.compatible(self.space.heap(), a, b) {
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "comparing {} with {} (`{}`): tuples compared with == must have the same length and compatible items",
                            self.bk.describe_type(self.space.heap(), a),
                            self.bk.describe_type(self.space.heap(), b),
                            op_symbol(opname)
                        ),
                    ));
                }
                Ok(SomeValue::bool())
            }
            (S::Tuple(_), S::Tuple(_)) | (S::Dict { .. }, S::Dict { .. }) | (S::Pbc { .. }, S::Pbc { .. }) => {
                let what = match a {
                    S::Tuple(_) => "tuples",
                    S::Dict { .. } => "dicts",
                    _ => "functions, classes or prebuilt objects (use `is`)",
                };
                let e = AnnError::new(
                    "RPY205",
                    format!("comparing {} with `{}` is not supported by the RPython typer", what, op_symbol(opname)),
                );
                // the annotator refuses only the ordering of tuples; any other comparison
                // is a bool to it, refused by its typer
                Err(if matches!(a, S::Tuple(_)) { e } else { e.at_typer() })
            }
            // `x == None` with an `x` that can be something else: refused by the typer, but
            // judged on the final annotations (checks.rs), as `x` may still widen.
            (S::None, other) | (other, S::None) if !matches!(other, S::None) => Ok(SomeValue::bool()),
            (S::List { def: d1, .. }, S::List { def: d2, .. }) => {
                if ordering {
                    return Err(AnnError::new("RPY205", format!("ordering comparison of lists (`{}`) is not supported", op_symbol(opname))).at_typer());
                }
                self.bk.agree_lists(self.space.heap(), *d1, *d2)?;
                Ok(SomeValue::bool())
            }
            (S::Instance { classdef, .. }, _) | (_, S::Instance { classdef, .. }) if ordering => Err(AnnError::new(
                "RPY205",
                format!(
                    "ordering comparison (`{}`) of instances of `{}` is not supported: special methods such as __lt__ are not honoured by RPython",
                    op_symbol(opname),
                    self.bk.classdef(*classdef).name
                ),
            ).at_typer()),
            (S::Dict { .. }, _) | (_, S::Dict { .. }) if ordering => Err(self.unsupported(op_symbol(opname), &[a, b]).at_typer()),
            // the typer orders a bytearray and a str byte by byte, but has no `==` between
            // them (its equality helper compares the two pointers first)
            (S::ByteArray, y) | (y, S::ByteArray) if y.is_str_like() => {
                if ordering {
                    return Ok(SomeValue::bool());
                }
                Err(AnnError::new(
                    "RPY205",
                    format!(
                        "comparing a bytearray with a str (`{}`) is not supported by the RPython typer: compare str(b) with the string",
                        op_symbol(opname)
                    ),
                ).at_typer())
            }
            _ => {
                if a.is_immutable_constant() && b.is_immutable_constant() && matches!(opname, Op::Eq | Op::Ne) {
                    if let (Some(x), Some(y)) = (a.konst(), b.konst()) {
                        let same = super::union::same_const(self.space.heap(), Some(x), Some(y));
                        return Ok(SomeValue::const_bool(same == (opname == Op::Eq)));
                    }
                }
                let mixed_kinds = type_word(a) != type_word(b)
                    && !matches!(a, S::None | S::Pbc { .. })
                    && !matches!(b, S::None | S::Pbc { .. })
                    && type_word(a) != "object"
                    && type_word(b) != "object";
                if mixed_kinds {
                    // a bool to the reference's annotator (its default comparison)
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "comparing {} with {} (`{}`) is not supported",
                            self.bk.describe_type(self.space.heap(), a),
                            self.bk.describe_type(self.space.heap(), b),
                            op_symbol(opname)
                        ),
                    )
                    .at_typer());
                }
                Ok(SomeValue::bool())
            }
        }
    }
}

/// The special method Python would call for a binary operator, for messages.
fn dunder_of(op: Op) -> &'static str {
    use Op::*;
    match op {
        Add | InplaceAdd => "__add__",
        Sub | InplaceSub => "__sub__",
        Mul | InplaceMul => "__mul__",
        Div | InplaceDiv | TrueDiv | InplaceTrueDiv => "__div__",
        FloorDiv | InplaceFloorDiv => "__floordiv__",
        Mod | InplaceMod => "__mod__",
        LShift | InplaceLShift => "__lshift__",
        RShift | InplaceRShift => "__rshift__",
        And | InplaceAnd => "__and__",
        Or | InplaceOr => "__or__",
        Xor | InplaceXor => "__xor__",
        _ => "__add__",
    }
}

/// The result of the comparison `opname` (`lt`, `le`, `eq`, `ne`, `gt`, `ge`) between two
/// constants, which the annotator computes at translation time as the reference does.
fn compare_consts<T: PartialOrd + ?Sized>(opname: Op, a: &T, b: &T) -> bool {
    match opname {
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Gt => a > b,
        _ => a >= b,
    }
}
