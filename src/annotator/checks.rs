//! The checks made once the fixpoint is reached, on the final annotations: limits of the
//! RPython typer the annotator accepts but the reference's RTyper refuses, blocks that
//! could never be annotated (and why), and the standalone entry point's int result.
//! Separate from the fixpoint (annrpython.rs), which they only read.

use super::annrpython::*;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{ObjId, Object, Value};
use crate::syntax::Span;
use std::rc::Rc;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Uses the annotator accepts but the RPython typer cannot translate, which depend on
    /// the final annotations (a list stays a `range()` list only if nothing mutates it).
    pub(super) fn check_typer_limits(&mut self) {
        self.check_range_lists();
        self.check_pointer_comparisons();
        self.check_none_equality();
        self.check_is_of_primitives();
        self.check_type_of_non_instance();
        self.check_method_set_joins();
        self.check_immutable_list_fields();
        self.check_immutable_hints();
        self.check_utf8_codec_of_chars();
        for (def, span, check) in std::mem::take(&mut self.list_checks) {
            let s = self.bk.item(self.bk.list_item(def)).s_value.clone();
            if let ListCheck::JoinedWithSeparator(tname) = check {
                if matches!(
                    s,
                    SomeValue::Char { .. } | SomeValue::UnicodeCodePoint { .. }
                ) {
                    // characters of the separator's own kind reach the RTyper; of the
                    // other kind, the reference's annotator refuses the join already
                    let own_kind = matches!(
                        (&s, tname),
                        (SomeValue::Char { .. }, "str")
                            | (SomeValue::UnicodeCodePoint { .. }, "unicode")
                    );
                    let e = AnnError::new(
                            "RPY210",
                            format!(
                                "{}.join() with a separator of a list that only ever holds single characters is not supported by the RPython typer: join it with '' (which takes characters), or join a list of strings",
                                tname
                            ),
                        );
                    self.report(if own_kind { e.at_typer() } else { e }, span);
                }
                continue;
            }
            if matches!(s, SomeValue::Str { .. } | SomeValue::Unicode { .. }) {
                let what = self.bk.describe_type(self.heap(), &s);
                self.report(
                    AnnError::new(
                        "RPY210",
                        format!(
                            "list() of a string makes a list of single characters, but this list also receives {}: build the list with a comprehension or a loop instead",
                            what
                        ),
                    ).at_typer(),
                    span,
                );
            }
        }
    }

    /// `s.decode('utf-8')` of a constant string, which the typer cannot translate;
    /// `c.encode('utf-8')` of one unicode character or of a constant unicode string (or
    /// `c.decode('utf-8')` of one byte character). The annotator annotates the UTF-8 codec
    /// function for the union of the receivers it sees; the typer later calls that
    /// function with any string, which may not widen an annotation once annotation is
    /// over. So the reference accepts these calls only when that union is a string that
    /// is not constant: not when all receivers are characters, or all the same constant.
    fn check_utf8_codec_of_chars(&mut self) {
        use crate::builtins::BuiltinId as B;
        // (decode?, receiver is one character, span)
        let mut ops = Vec::new();
        for g in 0..self.graphs.len() {
            for block in &self.graphs[g].blocks {
                for op in &block.operations {
                    if op.opname == Op::SimpleCall
                        && op.args.len() == 2
                        && self.info[g].bindings[op.result.0 as usize].is_some()
                    {
                        ops.push((g as u32, op.clone()));
                    }
                }
            }
        }
        // (decode?, the receiver when it is a character (`Some(None)`) or a constant
        // unicode string (`Some(Some(u))`), span)
        type Fixed = Option<Option<crate::compiler::UStr>>;
        let mut calls: Vec<(bool, Fixed, Span)> = Vec::new();
        for (g, op) in ops {
            let SomeValue::BuiltinMethod { id, s_self, .. } = self.annotation(g, op.args[0]) else {
                continue;
            };
            let decode = match id {
                B::UnicodeEncode => false,
                B::StrDecode => true,
                _ => continue,
            };
            let utf8 = match op.args[1] {
                Hlvalue::Const(ref c) => self.heap().str_value(*c).is_some_and(|b| b == b"utf-8"),
                _ => false,
            };
            if !utf8 {
                continue;
            }
            // Judged on the final annotation: a string that starts as a constant (`data =
            // ""` before a loop appends to it) is one no longer.
            if decode && s_self.konst().is_some() {
                self.report(
                    AnnError::new(
                        "RPY210",
                        "decode('utf-8') of a constant string is not supported by the RPython annotator: write the unicode literal (u\"...\") instead".into(),
                    ).at_typer(),
                    op.span,
                );
                continue;
            }
            let fixed: Fixed = match &*s_self {
                SomeValue::Char { .. } | SomeValue::UnicodeCodePoint { .. } => Some(None),
                s if !decode => match s.konst() {
                    Some(Value::Obj(id)) => match self.heap().get(id) {
                        Object::Unicode(u) => Some(Some(u.clone())),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            calls.push((decode, fixed, op.span));
        }
        for decode in [false, true] {
            if self.codec_called_with_any_string(decode) {
                continue;
            }
            let receivers: Vec<&Fixed> = calls
                .iter()
                .filter(|c| c.0 == decode)
                .map(|c| &c.1)
                .collect();
            let Some(&Some(first)) = receivers.first() else {
                continue;
            };
            if receivers.iter().any(|r| r.as_ref() != Some(first)) {
                continue;
            }
            let char = first.is_none();
            for (_, _, span) in calls.iter().filter(|c| c.0 == decode) {
                let span = *span;
                let msg = if decode {
                    "decode('utf-8') of a single character is not supported by the RPython typer unless the program also decodes a whole string: decode the string, or slice it (`s[i:i + 1]`)"
                } else if char {
                    "encode('utf-8') of a single unicode character is not supported by the RPython typer unless the program also encodes a whole unicode string: encode the string, or slice it (`u[i:i + 1]`)"
                } else {
                    "encode('utf-8') of a constant unicode string is not supported by the RPython typer unless the program also encodes another unicode string: write the byte string literal instead"
                };
                self.report(AnnError::new("RPY210", msg.into()).at_typer(), span);
            }
        }
    }

    /// Whether the program itself calls runicode's UTF-8 codec function
    /// (`unicode_encode_utf_8` when `!decode`, `str_decode_utf_8` when `decode`) with a
    /// string that is neither constant nor one character. The method's receivers and these
    /// calls meet in the one function's annotation, which is then general enough for the
    /// typer's own call.
    fn codec_called_with_any_string(&mut self, decode: bool) -> bool {
        let name = if decode {
            "str_decode_utf_8"
        } else {
            "unicode_encode_utf_8"
        };
        for g in 0..self.graphs.len() {
            let graph = &self.graphs[g];
            if &*graph.name != name {
                continue;
            }
            let in_runicode = graph.func.is_some_and(|f| match self.heap().get(f) {
                Object::Function(func) => matches!(self.heap().get(func.globals),
                    Object::Module(m) if m.bundled && &*m.name == "rpython.rlib.runicode"),
                _ => false,
            });
            let Some(&first) = graph.blocks[graph.startblock.0 as usize].inputargs.first() else {
                continue;
            };
            if !in_runicode {
                continue;
            }
            let s = self.binding(g as u32, first);
            let general = matches!(s, SomeValue::Str { .. } | SomeValue::Unicode { .. })
                && s.konst().is_none();
            if general {
                return true;
            }
        }
        false
    }

    /// `_immutable_fields_ = ['f[*]']` declares `f` a list with immutable items: the typer
    /// refuses the class when `f` holds something else (a unicode string, an int, a
    /// low-level pointer...). An attribute that is unknown as a whole (unknown code may
    /// write it too) is judged on what known code writes to it: RPython gives it one
    /// type, so if that is not a list, the whole is not either.
    fn check_immutable_list_fields(&mut self) {
        // (class, attribute, its annotation, where): the fields declared `f[*]`
        let mut declared = Vec::new();
        for (i, cd) in self.bk.classdefs.iter().enumerate() {
            for (attr, a) in &cd.attrs {
                let cdid = ClassDefId(i as u32);
                if self
                    .bk
                    .is_immutable_list_field(self.space.heap(), cdid, attr)
                {
                    let span = self
                        .bk
                        .class_desc(cd.desc)
                        .and_then(|c| c.name_span)
                        .or(a.origin);
                    declared.push((cdid, attr.clone(), a.s_value.clone(), span));
                }
            }
        }
        let mut found = Vec::new();
        for (cdid, attr, s_value, span) in declared {
            let s_value = match s_value {
                s if s.is_unknown() => self.known_write_below(cdid, &attr),
                s => Some(s),
            };
            let Some(s_value) = s_value.filter(not_a_list) else {
                continue;
            };
            let what = match super::llannotation::is_unmodelled_ll_pointer(&s_value) {
                true => "a pointer to a low-level type rpy-lsp does not model".into(),
                false => self.bk.describe_type(self.space.heap(), &s_value),
            };
            let cname = self.bk.classdef(cdid).name.clone();
            found.push((span, cname, attr, what));
        }
        for (span, cname, attr, what) in found {
            let Some(span) = span else { continue };
            self.report(
                AnnError::new(
                    "RPY203",
                    format!(
                        "`{attr}[*]` in the `_immutable_fields_` of `{cname}` declares a list with immutable items, but `{cname}.{attr}` is {what}, not a list"
                    ),
                )
                // the reference's annotator looks at the hint only for lists
                .at_typer(),
                span,
            );
        }
    }

    /// A value known code writes to `attr` of instances of `cd` or its subclasses that is
    /// not a list, if any.
    fn known_write_below(&self, cd: ClassDefId, attr: &Rc<str>) -> Option<SomeValue> {
        self.bk
            .getallsubdefs(cd)
            .into_iter()
            .find_map(|sub| self.bk.known_attr_writes.get(&(sub, attr.clone())).cloned())
    }

    /// `x == None` / `x != None` where `x` can be something else: the typer has no such
    /// comparison. Judged on the final annotations: while the fixpoint runs, one side may
    /// still be None only because the values that reach it later were not seen yet (an
    /// attribute read before its setattr is generalized).
    fn check_none_equality(&mut self) {
        let mut found = Vec::new();
        for g in 0..self.graphs.len() {
            for block in &self.graphs[g].blocks {
                for op in &block.operations {
                    if !matches!(op.opname, Op::Eq | Op::Ne)
                        || self.info[g].bindings[op.result.0 as usize].is_none()
                    {
                        continue;
                    }
                    found.push((g as u32, op.clone()));
                }
            }
        }
        for (g, op) in found {
            let a = self.annotation(g, op.args[0]);
            let b = self.annotation(g, op.args[1]);
            let other = match (&a, &b) {
                (SomeValue::None, o) | (o, SomeValue::None) => o,
                _ => continue,
            };
            // an erroneous value was reported where it was made
            if matches!(other, SomeValue::None) || other.is_impossible() || other.is_error() {
                continue;
            }
            let msg = format!(
                "comparing {} with None using `{}` is not supported by the RPython typer: use `is None` / `is not None`",
                self.bk.describe_type(self.heap(), other),
                if op.opname == Op::Eq { "==" } else { "!=" }
            );
            self.report(AnnError::new("RPY205", msg).at_typer(), op.span);
        }
    }

    /// `x is y` whose result is not known statically, where the typer has no comparison
    /// for it: a number and anything but a number (two numbers compare with `==`), a
    /// character (its `is` of non-pointers is a TyperError), two tuples, two values of
    /// different pointer kinds (a str and a list...) or two dicts of different low-level types. Judged on the final annotations, as a
    /// character may still widen to a string.
    fn check_is_of_primitives(&mut self) {
        /// The kind of value, as far as `is` cares (`None`: not decided here).
        #[derive(PartialEq)]
        enum Kind {
            Number,
            Char,
            Tuple,
            Ptr(&'static str),
        }
        let kind = |s: &SomeValue| match s {
            SomeValue::Integer { .. } | SomeValue::Bool { .. } | SomeValue::Float { .. } => {
                Some(Kind::Number)
            }
            SomeValue::Char { .. } | SomeValue::UnicodeCodePoint { .. } => Some(Kind::Char),
            SomeValue::Tuple(_) => Some(Kind::Tuple),
            SomeValue::Str { .. } => Some(Kind::Ptr("str")),
            SomeValue::Unicode { .. } => Some(Kind::Ptr("unicode")),
            SomeValue::List { .. } => Some(Kind::Ptr("list")),
            SomeValue::Dict { .. } => Some(Kind::Ptr("dict")),
            SomeValue::Instance { .. } => Some(Kind::Ptr("instance")),
            _ => None,
        };
        let refused = |bk: &super::bookkeeper::Bookkeeper, a: &SomeValue, b: &SomeValue| match (
            kind(a),
            kind(b),
        ) {
            (Some(Kind::Number), Some(Kind::Number)) => false,
            (Some(Kind::Char | Kind::Tuple), _) | (_, Some(Kind::Char | Kind::Tuple)) => true,
            // Two dicts: one pointer type only if keys, values and free-slot marks agree
            // (lists of different types pass: the typer compares them as both None).
            (Some(Kind::Ptr("dict")), Some(Kind::Ptr("dict"))) => {
                match (bk.ll_shape(a), bk.ll_shape(b)) {
                    (Some(x), Some(y)) => x != y,
                    _ => false,
                }
            }
            (Some(x), Some(y)) => x != y,
            _ => false,
        };
        let mut found = Vec::new();
        for g in 0..self.graphs.len() {
            for block in &self.graphs[g].blocks {
                for op in &block.operations {
                    if op.opname != Op::Is {
                        continue;
                    }
                    match &self.info[g].bindings[op.result.0 as usize] {
                        Some(SomeValue::Bool { konst: None, .. }) => {
                            found.push((g as u32, op.clone()))
                        }
                        _ => continue,
                    }
                }
            }
        }
        for (g, op) in found {
            let a = self.annotation(g, op.args[0]);
            let b = self.annotation(g, op.args[1]);
            if a.is_impossible() || b.is_impossible() || !refused(&self.bk, &a, &b) {
                continue;
            }
            let msg = format!(
                "`is` between {} and {} is not supported by the RPython typer: it compares two numbers, or two pointers of one kind (two instances, two lists, two strings...); compare characters and tuples with `==`",
                self.bk.describe_type(self.heap(), &a),
                self.bk.describe_type(self.heap(), &b),
            );
            self.report(AnnError::new("RPY205", msg).at_typer(), op.span);
        }
    }

    /// `type(x)` of a number, a string, a character, a list, a dict or a tuple: the RPython
    /// typer has the operation for instances only (their class pointer), whatever the
    /// annotator knows. `raise x` of such a value takes its type the same way (the flow
    /// graph carries the type and the value to the exception exit), so it is refused too.
    fn check_type_of_non_instance(&mut self) {
        let mut found = Vec::new();
        for g in 0..self.graphs.len() {
            let graph = &self.graphs[g];
            for block in &graph.blocks {
                for op in &block.operations {
                    if op.opname != Op::Type
                        || self.info[g].bindings[op.result.0 as usize].is_none()
                    {
                        continue;
                    }
                    let pair = [Hlvalue::Var(op.result), op.args[0]];
                    let raised = block.exits.iter().any(|&l| {
                        let link = graph.link(l);
                        link.target == graph.exceptblock && link.args.windows(2).any(|w| w == pair)
                    });
                    found.push((g as u32, op.args[0], op.span, raised));
                }
            }
        }
        for (g, arg, span, raised) in found {
            let s = self.annotation(g, arg);
            if !matches!(
                s,
                SomeValue::Integer { .. }
                    | SomeValue::Bool { .. }
                    | SomeValue::Float { .. }
                    | SomeValue::Char { .. }
                    | SomeValue::UnicodeCodePoint { .. }
                    | SomeValue::Str { .. }
                    | SomeValue::Unicode { .. }
                    | SomeValue::List { .. }
                    | SomeValue::Dict { .. }
                    | SomeValue::Tuple(_)
            ) {
                continue;
            }
            let what = self.bk.describe_type(self.heap(), &s);
            let msg = if raised {
                format!("`raise` of {what}: only exception instances and classes can be raised (the RPython typer cannot take the type of {what})")
            } else {
                format!("type() of {what} is not supported by the RPython typer: it has type() of instances only; use isinstance()")
            };
            self.report(AnnError::new("RPY205", msg).at_typer(), span);
        }
    }

    /// Bound methods reaching a join with a different set of methods than the join's: the
    /// RPython typer represents a set of methods by the set itself (MethodsPBCRepr) and has
    /// no conversion between two sets, so `m = a.step` (`a` of a base class with overrides:
    /// the base's and the overrides' methods bound to the base) joined with `m = d.step`
    /// (`d` of a subclass: one method) is refused, although each alone is fine. Judged on
    /// the final annotations, link by link, as the typer converts link arguments.
    fn check_method_set_joins(&mut self) {
        let mut edges = Vec::new();
        for g in 0..self.graphs.len() {
            let graph = &self.graphs[g];
            for block in &graph.blocks {
                for &l in &block.exits {
                    // a branch the annotator knows is never taken is dropped by the typer
                    let followed = self.info[g].links_followed.get(l.0 as usize);
                    if followed == Some(&false) {
                        continue;
                    }
                    let link = graph.link(l);
                    let target = graph.block(link.target);
                    for (i, (&arg, &tv)) in link.args.iter().zip(&target.inputargs).enumerate() {
                        let Some(SomeValue::Pbc { descs, .. }) =
                            &self.info[g].bindings[tv.0 as usize]
                        else {
                            continue;
                        };
                        if descs
                            .first()
                            .is_some_and(|&d| matches!(self.bk.desc(d), Desc::Method(_)))
                        {
                            let span = match graph.arg_span(l, i) {
                                s if s == Span::default() => graph.link_span(l),
                                s => s,
                            };
                            edges.push((g as u32, arg, descs.clone(), span));
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        for (g, arg, to, span) in edges {
            let SomeValue::Pbc { descs: from, .. } = self.annotation(g, arg) else {
                continue;
            };
            if !same_set(&from, &to) {
                found.push((
                    span,
                    self.describe_methods(&to),
                    self.describe_methods(&from),
                ));
            }
        }
        let mut args: Vec<_> = std::mem::take(&mut self.bk.method_args)
            .into_iter()
            .collect();
        args.sort_by_key(|((g, v, span), _)| (span.file.0, span.start, span.end, *g, *v));
        for ((g, v, span), passed) in args {
            let Some(SomeValue::Pbc { descs, .. }) = &self.info[g as usize].bindings[v.0 as usize]
            else {
                continue;
            };
            if !same_set(&passed, descs) {
                found.push((
                    span,
                    self.describe_methods(&descs.clone()),
                    self.describe_methods(&passed),
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        let mut stores: Vec<_> = std::mem::take(&mut self.bk.method_stores)
            .into_iter()
            .collect();
        stores.sort_by_key(|((_, _, span), _)| (span.file.0, span.start, span.end));
        for ((item, role, span), stored) in stores {
            let fin = self.bk.item(self.bk.find(item)).s_value.clone();
            let SomeValue::Pbc { descs, .. } = &fin else {
                continue;
            };
            if !same_set(&stored, descs) && seen.insert(span) {
                let msg = format!(
                    "{} cannot hold bound methods of different sets ({} stored here, but {} in all): the RPython typer cannot convert between two sets of methods",
                    role.what(),
                    self.describe_methods(&stored),
                    self.describe_methods(descs),
                );
                self.report(AnnError::new("RPY205", msg).at_typer(), span);
            }
        }
        for (span, to, from) in found {
            let msg = format!(
                "bound methods passed or joined here are {}, but {} where they go (the other calls or paths): the RPython typer cannot convert between two sets of methods (read the method from a variable of the base class every time)",
                from, to,
            );
            self.report(AnnError::new("RPY201", msg).at_typer(), span);
        }
    }

    /// A set of bound methods for a message: its functions and the classes of the instances
    /// they are bound to (`Acc.step, Doubler.step bound to an Acc`).
    fn describe_methods(&self, descs: &[DescId]) -> String {
        let (mut funcs, mut selves) = (Vec::new(), Vec::new());
        for &d in descs {
            if let Desc::Method(m) = self.bk.desc(d) {
                let origin = self.bk.classdef(m.origin).name.clone();
                funcs.push(format!("{}.{}", origin, m.name));
                if let Some(c) = m.selfclassdef {
                    selves.push(self.bk.classdef(c).name.clone());
                }
            }
        }
        funcs.sort();
        funcs.dedup();
        selves.sort();
        selves.dedup();
        let selves: Vec<String> = selves.iter().map(|s| format!("`{}`", s)).collect();
        format!(
            "`{}` bound to {}",
            funcs.join("`, `"),
            if selves.is_empty() {
                "an instance".to_string()
            } else {
                format!("an instance of {}", selves.join(" or "))
            }
        )
    }

    /// Operations that can never succeed with the final annotations.
    pub(super) fn report_blocked(&mut self) {
        for p in std::mem::take(&mut self.none_calls) {
            let op = self.graphs[p.graph as usize].blocks[p.block as usize].operations
                [p.op as usize]
                .clone();
            if let SomeValue::None = self.annotation(p.graph, op.args[0]) {
                let what = match op.args[0] {
                    Hlvalue::Var(v) => self.graphs[p.graph as usize]
                        .var(v)
                        .name_hint
                        .as_ref()
                        .map(|n| format!("`{}`", n)),
                    _ => None,
                };
                let msg = match what {
                    Some(w) => format!("this calls {}, which is always None here", w),
                    None => "this calls None: the called value is always None here".to_string(),
                };
                self.report(AnnError::new("RPY207", msg), op.span);
            }
        }
        for g in 0..self.graphs.len() {
            for b in 0..self.graphs[g].blocks.len() {
                if let BlockState::Blocked(i) = self.info[g].state[b] {
                    let here = Position {
                        graph: g as u32,
                        block: b as u32,
                        op: i,
                    };
                    if self.raising_unpacks.iter().any(|(p, _, _)| *p == here) {
                        // An unpacking that always raises: the path ends by design.
                        continue;
                    }

                    let op = self.graphs[g].blocks[b].operations[i as usize].clone();
                    if self.read_of_unmodelled_instances(g as u32, &op)
                        || self.read_after_failed_init(g as u32, &op)
                    {
                        continue;
                    }
                    self.bk.position = Position {
                        graph: g as u32,
                        block: b as u32,
                        op: i,
                    };
                    self.bk.span = op.span;
                    let e = self.explain_blocked(g as u32, &op);
                    // "always empty", "always None": not provable when values come from
                    // what rpy-lsp does not model (a list filled by an unmodelled parser)
                    let of_tuple = matches!(
                        op.args.first().map(|&a| self.annotation(g as u32, a)),
                        Some(SomeValue::Tuple(_))
                    );
                    if e.code == "RPY216" && !of_tuple && self.uses_unknowns() {
                        continue;
                    }
                    self.report(e, op.span);
                }
            }
        }
    }

    /// `x.attr` blocked because no analysed code ever gave `attr` a value, where the
    /// class's own methods do name it (assign it, as analysed code never did) and the
    /// program calls code rpy-lsp does not model:
    /// the instances come from there (a parser built by an unmodelled module raising the
    /// exception caught here), so the read is unknown, not an error.
    fn read_of_unmodelled_instances(&mut self, g: u32, op: &SpaceOperation) -> bool {
        if op.opname != Op::GetAttr {
            return false;
        }
        let Some(SomeValue::Instance { classdef, .. }) =
            op.args.first().map(|&a| self.annotation(g, a))
        else {
            return false;
        };
        let heap = self.space.heap();
        let Some(name) = op
            .args
            .get(1)
            .and_then(|a| a.constant())
            .and_then(|c| heap.str_value(c))
        else {
            return false;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let Some(cls) = self
            .bk
            .class_desc(self.bk.classdef(classdef).desc)
            .map(|c| c.cls)
        else {
            return false;
        };
        let Some(c) = heap.class(cls) else {
            return false;
        };
        let names_it = |k: &crate::objspace::object::Class| {
            k.dict.contains(&name)
                || k.dict.iter().any(|(_, v)| {
                    heap.function(v)
                        .is_some_and(|f| f.code.co_names.iter().any(|n| **n == *name))
                })
        };
        let assigns = c.mro.iter().filter_map(|&k| heap.class(k)).any(|k| {
            k.dict.iter().any(|(_, v)| {
                heap.function(v)
                    .is_some_and(|f| f.code.co_names.iter().any(|n| **n == *name))
            })
        });
        // Or a class sharing a user base with this one has it: with what rpy-lsp does not
        // model, the analysed code may have seen only some of the classes whose instances
        // reach this read (`applicative, args = ls` of a list of any Kernel value).
        let user_bases: Vec<ObjId> = c
            .mro
            .iter()
            .copied()
            .filter(|&k| heap.class(k).is_some_and(|k| k.builtin.is_none()))
            .collect();
        let relative_has_it = || {
            (0..heap.len() as u32).map(ObjId).any(|k| {
                heap.class(k)
                    .is_some_and(|kc| kc.mro.iter().any(|b| user_bases.contains(b)) && names_it(kc))
            })
        };
        (assigns || relative_has_it()) && self.uses_unknowns()
    }

    /// `x.attr` blocked on instances of a class whose `__init__` call was refused: the
    /// attribute is missing because that reported error kept `__init__` from being
    /// analysed (`raise LexError("msg")` with a missing argument, then `e.pos` in the
    /// handler), so it is not reported again.
    fn read_after_failed_init(&mut self, g: u32, op: &SpaceOperation) -> bool {
        if op.opname != Op::GetAttr {
            return false;
        }
        let Some(SomeValue::Instance { classdef, .. }) =
            op.args.first().map(|&a| self.annotation(g, a))
        else {
            return false;
        };
        self.failed_inits
            .iter()
            .any(|&f| self.bk.issubclass_def(f, classdef))
    }

    /// Whether any analysed value is unknown (comes from what rpy-lsp does not model).
    fn uses_unknowns(&self) -> bool {
        self.info.iter().any(|i| {
            i.bindings
                .iter()
                .any(|b| matches!(b, Some(SomeValue::Unknown(_))))
        })
    }

    fn explain_blocked(&mut self, g: u32, op: &SpaceOperation) -> AnnError {
        let args: Vec<SomeValue> = op.args.iter().map(|&a| self.annotation(g, a)).collect();
        if let Some(i) = args.iter().position(|s| s.is_impossible()) {
            let what = match op.args[i] {
                Hlvalue::Var(v) => self.graphs[g as usize]
                    .var(v)
                    .name_hint
                    .as_ref()
                    .map(|n| format!("`{}`", n)),
                _ => None,
            };
            return AnnError::new(
                "RPY216",
                format!(
                    "this `{}` operation can never run: {} has no possible value here",
                    op.opname.name().trim_end_matches('_'),
                    what.unwrap_or_else(|| "one of its operands".to_string())
                ),
            );
        }
        // An operand that is always None (a value that is never anything else).
        if let Some(i) = args.iter().position(|s| matches!(s, SomeValue::None)) {
            let what = match op.args[i] {
                Hlvalue::Var(v) => self.graphs[g as usize]
                    .var(v)
                    .name_hint
                    .as_ref()
                    .map(|n| format!("`{}`", n)),
                _ => None,
            };
            let doing = match op.opname {
                Op::GetAttr => "reading an attribute of it".to_string(),
                Op::SetAttr => "setting an attribute on it".to_string(),
                Op::GetItem | Op::SetItem => "indexing it".to_string(),
                other => format!("this `{}`", other.name().trim_end_matches('_')),
            };
            let position = match (op.opname, i) {
                (Op::GetAttr | Op::SetAttr | Op::GetItem | Op::SetItem, 0) => "the object",
                (_, 0) if op.args.len() == 2 => "the left operand",
                (_, 1) if op.args.len() == 2 => "the right operand",
                _ => "an operand",
            };
            return AnnError::new(
                "RPY216",
                format!(
                    "{} is always None here, so {} can never succeed: check where the value comes from (a function that only returns None?)",
                    what.unwrap_or_else(|| position.to_string()),
                    doing
                ),
            );
        }
        let heap = self.space.heap();
        match (op.opname, args.first()) {
            (Op::GetAttr, Some(SomeValue::Instance { classdef, .. })) => {
                let name = op
                    .args
                    .get(1)
                    .and_then(|a| a.constant())
                    .and_then(|c| heap.str_value(c))
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .unwrap_or_default();
                let cname = self.bk.classdef(*classdef).name.clone();
                let mut e = AnnError::new(
                    "RPY204",
                    if name == "__enter__" || name == "__exit__" {
                        format!("`with` needs `{}` to define __enter__ and __exit__", cname)
                    } else {
                        format!(
                            "instances of `{}` have no attribute `{}`: it is never assigned on `{}` or on a class it is read through",
                            cname, name, cname
                        )
                    },
                );
                // A subclass that does define it explains the usual mistake.
                let cls = self
                    .bk
                    .class_desc(self.bk.classdef(*classdef).desc)
                    .map(|c| c.cls);
                let sub = cls.and_then(|cls| {
                    (0..heap.len() as u32).map(ObjId).find(|&k| {
                        k != cls
                            && heap
                                .class(k)
                                .is_some_and(|c| c.mro.contains(&cls) && c.dict.contains(&name))
                    })
                });
                if let Some(k) = sub {
                    let c = heap.class(k).expect("class");
                    e.msg = format!(
                        "`{}` is only defined on the subclass `{}`, but it is read on an instance of `{}`",
                        name, c.name, cname
                    );
                    if let Some(sp) = c.name_span {
                        e = e.label(sp, format!("`{}` defines `{}`", c.name, name));
                    }
                } else if cls
                    .and_then(|k| heap.class(k))
                    .is_some_and(|c| c.builtin.is_some())
                {
                    e.msg = format!(
                        "instances of the built-in exception `{}` have no attribute `{}` in RPython: raise an exception class of your own that stores what you need in `__init__`",
                        cname, name
                    );
                }
                e
            }
            (Op::GetItem, Some(SomeValue::List { .. })) => AnnError::new(
                "RPY216",
                "this list is always empty, so reading an item from it can never succeed"
                    .to_string(),
            ),
            (Op::GetItem, Some(SomeValue::Dict { .. })) => AnnError::new(
                "RPY216",
                "this dict is always empty, so reading an item from it can never succeed"
                    .to_string(),
            ),
            (Op::GetItem, Some(SomeValue::Tuple(_))) => {
                AnnError::new("RPY216", "tuple index out of range".to_string())
            }
            _ => AnnError::new(
                "RPY216",
                format!(
                    "this `{}` operation can never succeed with these operands",
                    op.opname.name().trim_end_matches('_')
                ),
            ),
        }
    }

    pub(super) fn check_standalone_return(&mut self) {
        let Some(g) = self.entry_graph else { return };
        let graph = &self.graphs[g];
        let rv = graph.block(graph.returnblock).inputargs[0];
        let s = self.binding(g as u32, rv);
        if s.is_impossible() {
            if !self.diagnostics.iter().any(|d| d.is_error()) {
                let span = match self.heap().get(graph.func.expect("entry function")) {
                    Object::Function(f) => f.code.name_span,
                    _ => graph.span,
                };
                let msg = format!(
                    "`{}` never returns an int: every path raises an exception or never returns",
                    graph.name
                );
                let mut e = AnnError::new("RPY215", msg);
                for (_, at, why) in self.raising_unpacks.clone() {
                    e = e.label(at, why);
                }
                self.report(e, span);
            }
            return;
        }
        if s.is_int_like() || s.is_error() {
            return;
        }
        // Point at the first return that does not give an int.
        let mut bad: Vec<(Option<Span>, SomeValue)> = self.info[g]
            .return_sources
            .iter()
            .filter(|(_, s)| !s.is_int_like() && !s.is_impossible())
            .map(|(o, s)| (self.origin_span(g as u32, *o), s.clone()))
            .collect();
        bad.sort_by_key(|(o, _)| o.map(|s| (s.file, s.start)));
        let (span, s_bad) = bad.into_iter().next().unwrap_or((None, s.clone()));
        let msg = format!(
            "`{}` must return an int (the exit status), but it returns {}",
            graph.name,
            self.bk.describe_type(self.space.heap(), &s_bad)
        );
        let fallback = graph.span;
        self.report(
            AnnError::new("RPY215", msg).at(span.unwrap_or(fallback)),
            fallback,
        );
    }
}

/// Whether a value of annotation `s` is certainly not a list (the typer refuses it in a
/// field declared `f[*]`); an unknown is not, except a pointer to a low-level type rpy-lsp
/// does not model.
pub(super) fn not_a_list(s: &SomeValue) -> bool {
    super::llannotation::is_unmodelled_ll_pointer(s)
        || matches!(
            s,
            SomeValue::Str { .. }
                | SomeValue::Char { .. }
                | SomeValue::Unicode { .. }
                | SomeValue::UnicodeCodePoint { .. }
                | SomeValue::Integer { .. }
                | SomeValue::Float { .. }
                | SomeValue::Bool { .. }
                | SomeValue::Dict { .. }
                | SomeValue::Tuple(_)
                | SomeValue::Instance { .. }
                | SomeValue::Ptr(_)
        )
}

/// Whether two lists of descriptions hold the same set (a Repr of bound methods is keyed
/// by its set, whatever the order the annotator met them in).
fn same_set(a: &[DescId], b: &[DescId]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}
