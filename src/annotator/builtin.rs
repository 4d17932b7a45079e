//! Built-in functions (`len`, `os.write`, `rarithmetic.intmask`…), by their entry in the
//! registry of built-ins: what a call gives. What the reference refuses in their
//! arguments (arity, types, hints, JitDriver calls) is in `builtin_checks`; the methods of
//! built-in types are in `builtinmethod`.

use super::annrpython::{Annotator, ListCheck};
use super::call::ArgsS;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{IntKind, Object, Value};
use std::rc::Rc;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `hasattr(pbc, name)` when the answer is known during translation: one class,
    /// function or frozen object, or several frozen objects that agree (the reference asks
    /// the live objects). `None` when rpy-lsp cannot tell: a base it does not model, or a
    /// special attribute of the object's type (`__name__`, `func_code`, ...).
    fn pbc_hasattr(&self, descs: &[DescId], name: &str) -> Option<bool> {
        let heap = self.space.heap();
        let special = name.starts_with("__") || name.starts_with("func_");
        let one = |d: DescId| -> Option<bool> {
            let id = match self.bk.desc(d) {
                Desc::Class(c) => c.cls,
                Desc::Function(f) => f.func,
                Desc::Frozen(f) => f.obj,
                _ => return None,
            };
            let found = match heap.get(id) {
                Object::Class(c) => {
                    let mut found = false;
                    for &k in &c.mro {
                        let kc = heap.class(k)?;
                        if kc.dict.get(crate::objspace::UNKNOWN_BASE_ATTR).is_some() {
                            return None;
                        }
                        found |= kc.dict.get(name).is_some();
                    }
                    found
                }
                Object::Function(f) => f.attrs.get(name).is_some(),
                Object::Module(m) => m.dict.get(name).is_some(),
                Object::Instance(i) => {
                    let cls = heap.class(i.class)?;
                    let mut found = i.dict.get(name).is_some();
                    for &k in &cls.mro {
                        let kc = heap.class(k)?;
                        if kc.dict.get(crate::objspace::UNKNOWN_BASE_ATTR).is_some() {
                            return None;
                        }
                        found |= kc.dict.get(name).is_some();
                    }
                    found
                }
                _ => return None,
            };
            // A special attribute may exist without being in a dict.
            if !found && special {
                return None;
            }
            Some(found)
        };
        let first = one(*descs.first()?)?;
        if descs.len() > 1 {
            for &d in &descs[1..] {
                if !matches!(self.bk.desc(d), Desc::Frozen(_)) || one(d)? != first {
                    return None;
                }
            }
            if !matches!(self.bk.desc(descs[0]), Desc::Frozen(_)) {
                return None;
            }
        }
        Some(first)
    }

    /// Calls a built-in function (or the constructor of a built-in type) by name.
    pub fn call_builtin(
        &mut self,
        id: B,
        s_self: Option<&SomeValue>,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let name = id.name();
        if let Some((_, hint)) = super::builtin_checks::NOT_RPYTHON
            .iter()
            .find(|(n, _)| *n == id)
        {
            let short = id.short_name();
            let hint = if hint.is_empty() {
                String::new()
            } else {
                format!(": {}", hint)
            };
            let e = AnnError::new(
                "RPY210",
                format!("`{}()` is not supported by RPython{}", short, hint),
            );
            // the reference's annotator types zip() of two lists; only its typer lacks it
            let typed = id == B::Zip && args.positional.len() == 2 && args.keywords.is_empty();
            return Err(if typed { e.at_typer() } else { e });
        }
        self.check_declared_args(id, args)?;
        if let Some(r) = self.call_ll_builtin(id, args) {
            return r;
        }
        if let Some(r) = self.call_os_time_math(id, args) {
            return r;
        }
        let p = &args.positional;
        let arg = |i: usize| p.get(i).cloned().unwrap_or(S::Impossible);
        match id {
            B::Len => {
                self.arity(name, args, 1, 1)?;
                self.op_len(&p[0])
            }
            B::Range | B::Xrange => self.builtin_range(args),
            B::Enumerate => {
                self.arity(name, args, 1, 1)?;
                self.op_iter(&p[0])?;
                // the reference's typer numbers only the items of lists and strings (their
                // iterators keep an index); a dict, a tuple or a generator has none
                let unnumbered = match &p[0] {
                    S::Dict { .. } | S::Tuple(_) | S::Generator { .. } => true,
                    S::Iterator { container, .. } => matches!(**container, S::Dict { .. }),
                    _ => false,
                };
                if unnumbered {
                    let e = AnnError::new(
                        "RPY210",
                        format!(
                            "enumerate() of {} is not supported by RPython (only lists and strings): count with a variable",
                            self.bk.describe_type(self.space.heap(), &p[0])
                        ),
                    );
                    // the reference's annotator enumerates a dict's keys; its typer refuses
                    let of_dict = match &p[0] {
                        S::Dict { .. } => true,
                        S::Iterator { container, .. } => matches!(**container, S::Dict { .. }),
                        _ => false,
                    };
                    return Err(if of_dict { e.at_typer() } else { e });
                }
                Ok(S::Iterator { container: Rc::new(p[0].clone()), variant: IterVariant::Enumerate })
            }
            B::Reversed => {
                self.arity(name, args, 1, 1)?;
                if !matches!(p[0], S::List { .. }) {
                    return Err(AnnError::new("RPY218", format!("reversed() needs a list, not {}", self.bk.describe_type(self.space.heap(), &p[0]))).at_typer());
                }
                Ok(S::Iterator { container: Rc::new(p[0].clone()), variant: IterVariant::Reversed })
            }
            B::Min | B::Max => {
                if p.is_empty() || !args.keywords.is_empty() {
                    return Err(AnnError::new("RPY206", format!("{}() takes positional arguments only", name)));
                }
                if p.len() == 1 {
                    let e = AnnError::new(
                        "RPY210",
                        format!("{}() of a single iterable is not supported by the RPython typer: compare the items in a loop", name),
                    );
                    // of a number, the reference's annotator refuses it (it is not iterable)
                    return Err(if p[0].is_number() { e } else { e.at_typer() });
                }
                if p.len() > 2 {
                    return Err(AnnError::new(
                        "RPY210",
                        format!("{}() takes exactly two arguments in RPython: nest the calls, {}(a, {}(b, c))", name, name, name),
                    ));
                }
                let mut u = S::Impossible;
                for s in p {
                    u = self.bk.union(self.space.heap(), &u, &s.not_const()).map_err(|e| {
                        AnnError::new("RPY218", format!("{}() of values of different types{}", name, e.detail_suffix())).stage_of(&e)
                    })?;
                }
                // the comparison is made in the type of the result
                self.narrow_refusal(u.int_kind())?;
                if !u.is_number() && !matches!(u, S::Char { .. } | S::UnicodeCodePoint { .. } | S::Error | S::Impossible) {
                    return Err(AnnError::new(
                        "RPY210",
                        format!(
                            "{}() of {} is not supported by the RPython typer (it only compares numbers and single characters): write the comparison, `a if a {} b else b`",
                            name,
                            self.bk.describe_type(self.space.heap(), &u),
                            if id == B::Min { "<" } else { ">" }
                        ),
                    ).at_typer());
                }
                if id == B::Max {
                    if let S::Integer { nonneg: false, kind, .. } = u {
                        if p.iter().any(|s| s.is_nonneg()) {
                            u = SomeValue::int_of_kind(kind, true);
                        }
                    }
                }
                Ok(u)
            }
            B::Abs => {
                self.arity(name, args, 1, 1)?;
                self.dispatch_unary(Op::Abs, &p[0])
            }
            B::Ord => {
                self.arity(name, args, 1, 1)?;
                self.dispatch_unary(Op::Ord, &p[0])
            }
            B::Chr => {
                self.arity(name, args, 1, 1)?;
                self.check_int("chr", "the argument", &p[0])
                    .map_err(|e| typer_unless_const(e, &p[0]))?;
                Ok(self.constpropagate(id, &p[0], SomeValue::char(false)))
            }
            B::Unichr => {
                self.arity(name, args, 1, 1)?;
                self.check_int("unichr", "the argument", &p[0])
                    .map_err(|e| typer_unless_const(e, &p[0]))?;
                Ok(self.constpropagate(id, &p[0], SomeValue::unichar(false)))
            }
            B::Repr | B::Str => {
                if id == B::Str && p.is_empty() {
                    return Ok(SomeValue::string0(true));
                }
                self.arity(name, args, 1, 1)?;
                self.dispatch_unary(if id == B::Repr { Op::Repr } else { Op::Str }, &p[0])
            }
            B::Hash => Err(AnnError::new("RPY210", "hash() is not RPython: use objectmodel.compute_hash()".into())),
            B::Id => Err(AnnError::new("RPY210", "id() is not RPython: use objectmodel.compute_unique_id()".into())),
            B::Isinstance => {
                self.arity(name, args, 2, 2)?;
                self.s_isinstance(&p[0], &p[1], &[])
            }
            B::Issubclass => Ok(SomeValue::bool()),
            B::Hasattr => {
                self.arity(name, args, 2, 2)?;
                // a bool to the reference's annotator; its typer needs the name constant
                let attr = self
                    .attr_name(&p[1], "hasattr")
                    .map_err(AnnError::at_typer)?;
                // Only answers known during translation (prebuilt objects) can be typed.
                if p[0].is_immutable_constant() || matches!(p[0], S::Pbc { .. }) {
                    // On prebuilt objects the answer is a constant, as in the reference:
                    // `if not hasattr(C, "X"): C.X = ...` is dead code once import-time
                    // code has set `C.X`.
                    let konst = match &p[0] {
                        S::Pbc { descs, .. } => self.pbc_hasattr(descs, &attr),
                        _ => None,
                    };
                    Ok(match konst {
                        Some(b) => SomeValue::const_bool(b),
                        None => SomeValue::bool(),
                    })
                } else {
                    Err(AnnError::new(
                        "RPY210",
                        format!(
                            "hasattr() on {} is not supported by the RPython typer (only on prebuilt objects, where the answer is known during translation): use isinstance(), or give every class the attribute",
                            self.bk.describe_type(self.space.heap(), &p[0])
                        ),
                    ).at_typer())
                }
            }
            B::Getattr => {
                self.arity(name, args, 2, 2)?;
                let n = self.attr_name(&p[1], "getattr")?;
                self.getattr_value(&p[0], &n)
            }
            B::Setattr => {
                self.arity(name, args, 3, 3)?;
                self.dispatch_binary_like(Op::SetAttr, p)
            }
            B::Iter => {
                self.arity(name, args, 1, 1)?;
                self.op_iter(&p[0])
            }
            B::Next => {
                self.arity(name, args, 1, 1)?;
                self.op_next(&p[0])
            }
            B::Hex | B::Oct => {
                self.arity(name, args, 1, 1)?;
                // a str to the reference's annotator (any object's hex()), refused by its typer
                self.check_int(name, "the argument", &p[0])
                    .map_err(AnnError::at_typer)?;
                if p[0].konst().is_none() {
                    self.narrow_refusal(p[0].int_kind())?;
                }
                Ok(SomeValue::string0(true))
            }
            B::Cmp => Ok(SomeValue::int()),
            B::Print => Err(AnnError::new(
                "RPY210",
                "the print() function is not supported by RPython: use the print statement (without `from __future__ import print_function`) or os.write()".into(),
            )),
            B::PrintItem | B::RpythonPrintItem => {
                if let Some(s) = p.first() {
                    self.check_printable(s)?;
                    if s.konst().is_none() {
                        self.narrow_refusal(s.int_kind())?;
                    }
                }
                Ok(S::None)
            }
            B::PrintNewline | B::RpythonPrintNewline => Ok(S::None),
            // constructors of built-in types
            B::Int => {
                // `int(s, base=16)`: the reference's annotator takes the base by keyword,
                // its typer does not
                if let ([s], [(k, base)]) = (&p[..], &args.keywords[..]) {
                    if &**k == "base" {
                        self.builtin_int(s, Some(base))?;
                        return Err(AnnError::new(
                            "RPY206",
                            "int() with the base as a keyword argument is not supported by the RPython typer: pass it by position, int(s, 16)".into(),
                        )
                        .at_typer());
                    }
                }
                self.arity(name, args, 1, 2)?;
                let s = self.builtin_int(&p[0], p.get(1))?;
                Ok(self.constpropagate_args(id, p, s))
            }
            B::Float => {
                if p.is_empty() {
                    return Ok(SomeValue::float());
                }
                self.arity(name, args, 1, 1)?;
                let s = self.builtin_float(&p[0])?;
                Ok(self.constpropagate(id, &p[0], s))
            }
            B::Bool => {
                if p.is_empty() {
                    return Ok(SomeValue::const_bool(false));
                }
                self.arity(name, args, 1, 1)?;
                self.dispatch_unary(Op::Bool, &p[0])
            }
            B::Unicode => {
                if p.is_empty() {
                    return Ok(SomeValue::unicode(true));
                }
                match &p[0] {
                    s if s.is_str_like() || s.is_unicode_like() => {
                        Ok(self.constpropagate(id, s, SomeValue::unicode(false)))
                    }
                    s => Err(AnnError::new("RPY218", format!("unicode() of {} is not supported", self.bk.describe_type(self.space.heap(), s))).at_typer()),
                }
            }
            // the reference's annotator takes any one argument, but its RTyper builds a
            // bytearray only from a str (a char is one) or a bytearray
            B::Bytearray => {
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    s if s.is_str_like() || s.is_error() || s.is_impossible() => {}
                    S::ByteArray => {}
                    s => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "bytearray() of {} is not supported: RPython builds a bytearray only by copying a str or a bytearray (for n zero bytes: bytearray('\\0' * n))",
                                self.bk.describe_type(self.space.heap(), s)
                            ),
                        )
                        .at_typer())
                    }
                }
                Ok(SomeValue::bytearray())
            }
            B::Tuple => {
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    S::Tuple(_) => Ok(p[0].clone()),
                    s => Err(AnnError::new(
                        "RPY210",
                        format!(
                            "tuple() of {} is not supported: the length of a tuple must be known statically (write (l[0], l[1], ...))",
                            self.bk.describe_type(self.space.heap(), s)
                        ),
                    )),
                }
            }
            B::List => {
                if p.is_empty() {
                    return self.bk.newlist(self.space.heap(), 0, &[], None);
                }
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    S::List { def, .. } => self.bk.offspring(self.space.heap(), &[*def]),
                    // The typer builds the list from the tuple's fields (`list(args)` of a
                    // `*args` tuple), unlike a loop over the tuple: its items must agree.
                    S::Tuple(items) => {
                        let mut item = SomeValue::Impossible;
                        for s in items.iter() {
                            item = self.bk.union(self.space.heap(), &item, &s.not_const()).map_err(|e| {
                                AnnError::new(
                                    "RPY202",
                                    format!("list() of a tuple whose items have different types{}", e.detail_suffix()),
                                ).stage_of(&e)
                            })?;
                        }
                        let init: Vec<SomeValue> = if item.is_impossible() { Vec::new() } else { vec![item] };
                        self.bk.newlist(self.space.heap(), 0, &init, None)
                    }
                    S::Generator { .. } => Err(AnnError::new(
                        "RPY210",
                        "list() of a generator is not supported by the RPython typer: use a list comprehension, or append the items in a loop".into(),
                    ).at_typer()),
                    // A list of single characters; the typer checks at the end that it stays one.
                    s if s.is_str_like() || s.is_unicode_like() => {
                        let it = self.op_iter(s)?;
                        let item = self.op_next(&it)?;
                        let l = self.bk.newlist(self.space.heap(), 0, &[item.not_const()], None)?;
                        if let S::List { def, .. } = l {
                            let check = (def, self.bk.span, ListCheck::StaysChars);
                            if !self.list_checks.iter().any(|(d, _, c)| *d == def && *c == check.2) {
                                self.list_checks.push(check);
                            }
                        }
                        Ok(l)
                    }
                    s => {
                        let it = self.op_iter(s)?;
                        let item = self.op_next(&it)?;
                        self.bk.newlist(self.space.heap(), 0, &[item.not_const()], None)
                    }
                }
            }
            // The reference annotator has no model of calling the dict type (it crashes).
            B::Dict => Err(AnnError::new(
                "RPY210",
                "dict() is not supported by RPython: write `{}` and add the items one by one".into(),
            )),
            // The reference annotates OrderedDict() as an empty (ordered) dict.
            B::CollectionsOrderedDict => {
                self.arity(name, args, 0, 0)?;
                let def = self.bk.dictdef_here(0);
                Ok(S::Dict { def, konst: None })
            }
            B::Set | B::Frozenset => Err(AnnError::new("RPY217", format!("{}() is not RPython: use a dict with None values", name))),
            B::Type => {
                self.arity(name, args, 1, 1)?;
                Ok(S::Type { konst: None, of: None })
            }
            // rarithmetic
            _ if id.int_kind().is_some() => {
                self.machine_int(name, args, id.int_kind().unwrap_or(IntKind::Signed))
            }
            B::RarithmeticRSinglefloat => Ok(SomeValue::SingleFloat),
            B::RarithmeticIntmask => {
                self.arity(name, args, 1, 1)?;
                if !p[0].is_number() && !p[0].is_error() {
                    return Err(AnnError::new(
                        "RPY218",
                        format!("intmask() needs a number, not {}", self.bk.describe_type(self.space.heap(), &p[0])),
                    ).at_typer());
                }
                Ok(SomeValue::int())
            }
            B::RarithmeticLonglongmask => Ok(SomeValue::int_of_kind(IntKind::LongLong, false)),
            // (an r_int64 is an int on the 64-bit machines the toolchain targets)
            B::Longlong2floatFloat2longlong => {
                self.arity(name, args, 1, 1)?;
                Ok(SomeValue::int())
            }
            B::Longlong2floatLonglong2float => {
                self.arity(name, args, 1, 1)?;
                self.check_int("longlong2float", "the argument", &p[0])?;
                Ok(SomeValue::float())
            }
            B::RarithmeticWiden => {
                self.arity(name, args, 1, 1)?;
                self.check_int("widen", "the argument", &p[0])?;
                // word-sized unsigned values stay what they are; the others become ints
                if matches!(&p[0], S::Integer { kind: IntKind::Unsigned | IntKind::ULongLong, .. }) {
                    return Ok(p[0].not_const());
                }
                Ok(SomeValue::int_of_kind(IntKind::Signed, p[0].is_nonneg() && !p[0].is_unsigned()))
            }
            B::RarithmeticIsValidInt => Ok(SomeValue::bool()),
            B::RarithmeticOvfcheck => {
                self.arity(name, args, 1, 1)?;
                if !p[0].is_int_like() && !p[0].is_error() {
                    return Err(AnnError::new("RPY218", "ovfcheck() must be applied to an integer operation, e.g. ovfcheck(x + y)".into()));
                }
                Ok(p[0].not_const())
            }
            // objectmodel
            B::ObjectmodelWeAreTranslated => Ok(SomeValue::const_bool(true)),
            B::ObjectmodelComputeHash | B::ObjectmodelComputeIdentityHash | B::ObjectmodelComputeUniqueId | B::ObjectmodelCurrentObjectAddrAsInt => {
                self.arity(name, args, 1, 1)?;
                if matches!(p[0], S::List { .. } | S::Dict { .. }) && id == B::ObjectmodelComputeHash {
                    return Err(AnnError::new("RPY218", "compute_hash() of a list or dict is not supported".into()).at_typer());
                }
                Ok(SomeValue::int())
            }
            B::ObjectmodelDictKeyhash => {
                self.arity(name, args, 2, 2)?;
                if !matches!(p[0], S::Dict { .. }) {
                    return Err(AnnError::new("RPY218", "dict_keyhash() needs a dict".into()));
                }
                Ok(SomeValue::int())
            }
            B::ObjectmodelInstantiate => {
                let S::Pbc { descs, .. } = arg(0) else {
                    return Err(AnnError::new("RPY218", "instantiate() needs a class".into()));
                };
                let mut result = S::Impossible;
                for &d in descs.iter() {
                    if !matches!(self.bk.desc(d), Desc::Class(_)) {
                        return Err(AnnError::new("RPY218", "instantiate() needs a class".into()));
                    }
                    let cd = self.bk.classdef_of_desc(self.space.heap(), d)?;
                    result = self.bk.union(self.space.heap(), &result, &SomeValue::instance(cd))?;
                }
                Ok(result)
            }
            B::ObjectmodelHlinvoke => self.hlinvoke_result(p),
            B::ObjectmodelNewlistHint => {
                let s = self.bk.newlist(self.space.heap(), 0, &[], None)?;
                if let S::List { def, .. } = s {
                    self.bk.mutate_list(self.space.heap(), def, true)?;
                }
                Ok(s)
            }
            B::ObjectmodelKeepaliveUntilHere | B::ObjectmodelResizelistHint => Ok(S::None),
            B::DebugMakeSureNotResized => {
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    S::List { def, .. } => self.bk.never_resize(*def)?,
                    S::None | S::Impossible => {}
                    other => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "make_sure_not_resized() needs a list, not {}",
                                self.bk.describe_type(self.space.heap(), other)
                            ),
                        ))
                    }
                }
                Ok(arg(0))
            }
            B::DebugCheckNonneg | B::DebugCheckRegularInt => {
                self.arity(name, args, 1, 1)?;
                self.check_int_hint(id, &p[0])?;
                Ok(arg(0))
            }
            B::RweakrefRWeakValueDictionary | B::RweakrefRWeakKeyDictionary => self.weakdict_new(id, p),
            B::RgcCollect => {
                self.arity(name, args, 0, 1)?;
                Ok(S::None)
            }
            B::JitVirtualRef | B::JitNonVirtualRef => {
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    S::Instance { .. } => {}
                    S::None if id == B::JitNonVirtualRef => {}
                    other => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "{}() needs an instance, not {}",
                                id.short_name(),
                                self.bk.describe_type(self.space.heap(), other)
                            ),
                        ))
                    }
                }
                Ok(S::VRef {
                    s_instance: Rc::new(p[0].clone()),
                })
            }
            B::JitVirtualRefFinish => {
                self.arity(name, args, 2, 2)?;
                Ok(S::None)
            }
            B::WeakrefRef => {
                self.arity(name, args, 1, 1)?;
                match &p[0] {
                    S::Instance { can_be_none: true, .. } => Err(AnnError::new(
                        "RPY218",
                        "weakref.ref() of an instance that may be None: assert that it is not None first".into(),
                    )),
                    S::Instance { classdef, .. } => Ok(S::WeakRef { classdef: Some(*classdef) }),
                    other => Err(AnnError::new(
                        "RPY218",
                        format!("weakref.ref() needs an instance, not {}", self.bk.describe_type(self.space.heap(), other)),
                    )),
                }
            }
            // rerased: the reference's erase_int asserts the taggedpointers option, off in the
            // default configuration `check` assumes.
            B::RerasedRequiresTaggedpointers => Err(AnnError::new(
                "RPY210",
                "erase_int() needs tagged pointers, and the translation option `taggedpointers` is off by default"
                    .into(),
            )),
            // jit hints
            B::JitPromote | B::JitPromoteString | B::JitPromoteUnicode | B::JitHint => Ok(arg(0)),
            // the value itself, which the annotator may not fold (both arms of a test on it
            // are translated)
            B::NonconstNonConstant => Ok(arg(0).not_const()),
            B::JitWeAreJitted | B::JitIsconstant | B::JitIsvirtual => Ok(SomeValue::bool()),
            B::JitCurrentTraceLength => Ok(SomeValue::int()),
            B::JitConditionalCallFunction => Ok(S::None),
            B::JitSetParam => {
                self.arity(name, args, 3, 3)?;
                self.check_set_param(&p[1], &p[2])?;
                Ok(S::None)
            }
            B::JitAssertGreen | B::JitRecordKnownClass | B::JitRecordExactClass
            | B::JitJitDebug => Ok(S::None),
            B::JitJitDriverJitMergePoint | B::JitJitDriverCanEnterJit | B::JitJitDriverLoopHeader => {
                self.check_jit_driver_call(name, s_self, args)?;
                if !matches!(id, B::JitJitDriverLoopHeader) {
                    self.bk.jit_marker_graphs.insert(self.bk.position.graph);
                }
                Ok(S::None)
            }
            // debug
            B::DebugDebugPrint | B::DebugDebugStart | B::DebugDebugStop | B::DebugDebugFlush | B::DebugFatalerror | B::DebugFatalerrorNotb => Ok(S::None),
            B::DebugHaveDebugPrints => Ok(SomeValue::bool()),
            B::DebugDebugOffset => Ok(SomeValue::int()),
            // `Base.__init__(self)` of a base without its own __init__: nothing to do (the
            // reference ignores it: "mostly used for abstract classes initialization")
            B::ObjectDunderInit => Ok(S::None),
            // modelled at import time only; what the reference does with a translated call
            // is not known here: unknown, never a false error
            B::OsUrandom => Ok(S::Unknown(Rc::from("os.urandom() in translated code"))),
            _ => Err(AnnError::new("RPY210", format!("the built-in `{}` is not supported by rpy-lsp's annotator", name))),
        }
    }

    fn dispatch_unary(&mut self, op: Op, s: &SomeValue) -> Result<SomeValue, AnnError> {
        let fake = crate::flowspace::SpaceOperation {
            opname: op,
            args: vec![crate::flowspace::Hlvalue::Const(Value::None)],
            result: crate::flowspace::VarId(u32::MAX),
            span: self.bk.span,
        };
        self.consider_op_inner(&fake, std::slice::from_ref(s))
    }

    fn dispatch_binary_like(&mut self, op: Op, args: &[SomeValue]) -> Result<SomeValue, AnnError> {
        let fake = crate::flowspace::SpaceOperation {
            opname: op,
            args: args
                .iter()
                .map(|_| crate::flowspace::Hlvalue::Const(Value::None))
                .collect(),
            result: crate::flowspace::VarId(u32::MAX),
            span: self.bk.span,
        };
        self.consider_op_inner(&fake, args)
    }

    fn machine_int(
        &mut self,
        name: &str,
        args: &ArgsS,
        kind: IntKind,
    ) -> Result<SomeValue, AnnError> {
        if args.len() == 0 {
            return Ok(SomeValue::int_of_kind(kind, true));
        }
        self.arity(name, args, 1, 1)?;
        let s = &args.positional[0];
        if !s.is_number() && !s.is_error() {
            return Err(AnnError::new(
                "RPY218",
                format!(
                    "{}() needs a number, not {}",
                    name.rsplit('.').next().unwrap_or(name),
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ));
        }
        Ok(SomeValue::int_of_kind(
            kind,
            s.is_nonneg() && kind == IntKind::Signed,
        ))
    }

    fn builtin_range(&mut self, args: &ArgsS) -> Result<SomeValue, AnnError> {
        self.arity("range", args, 1, 3)?;
        let p = &args.positional;
        for s in p {
            // The typer converts float arguments to ints (truncating).
            if !s.is_number() {
                self.check_int("range", "the arguments", s)?;
            }
        }
        let zero = SomeValue::const_len(0);
        let (start, stop, step) = match p.len() {
            1 => (zero, p[0].clone(), Some(1)),
            2 => (p[0].clone(), p[1].clone(), Some(1)),
            _ => (
                p[0].clone(),
                p[1].clone(),
                match p[2].konst() {
                    Some(Value::Int(s)) => Some(s),
                    Some(Value::Bool(b)) => Some(b as i64),
                    _ => None,
                },
            ),
        };
        if step == Some(0) {
            return Err(AnnError::new(
                "RPY218",
                "range() with a step of zero".into(),
            ));
        }
        let empty = match (start.konst(), stop.konst(), step) {
            (Some(Value::Int(a)), Some(Value::Int(b)), Some(s)) => {
                (s > 0 && a >= b) || (s < 0 && a <= b)
            }
            _ => false,
        };
        let item = if empty {
            S::Impossible
        } else {
            let nonneg = match step {
                Some(s) if s > 0 => start.is_nonneg(),
                Some(_) => {
                    stop.is_nonneg() || matches!(stop.konst(), Some(Value::Int(x)) if x >= -1)
                }
                None => p[2].is_nonneg() && start.is_nonneg(),
            };
            SomeValue::int_of_kind(IntKind::Signed, nonneg)
        };
        self.bk
            .newlist(self.space.heap(), 0, &[item], Some(step.unwrap_or(0)))
    }
}

/// The refusal of a built-in call the reference's annotator folds when its argument is a
/// constant (failing there, as CPython's own function does) and otherwise types without
/// looking: only its typer refuses a variable.
fn typer_unless_const(e: AnnError, arg: &SomeValue) -> AnnError {
    if arg.konst().is_some() {
        e
    } else {
        e.at_typer()
    }
}
