//! Annotations in words: plain (`describe`, for messages) and in the reference annotator's
//! notation (`annotator_form`, for readers who know RPython's error messages).

use super::bookkeeper::Bookkeeper;
use super::description::Desc;
use super::model::*;
use crate::objspace::object::{Heap, Object, Value};

use SomeValue as S;

fn const_repr(heap: &Heap, v: Value) -> String {
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => if b { "True" } else { "False" }.into(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{:?}", f),
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => format!("{:?}", String::from_utf8_lossy(s)).replace('"', "'"),
            Object::Unicode(s) => format!("u{:?}", s).replace('"', "'"),
            Object::RInt { value, .. } => value.to_string(),
            Object::Long(i) => format!("{}L", i),
            Object::Function(f) => format!("<function {}>", f.name),
            Object::Class(c) => format!("<class {}>", c.name),
            Object::Module(m) => format!("<module {}>", m.name),
            Object::Builtin { id, .. } => format!("<built-in {}>", id.name()),
            Object::List(_) => "<prebuilt list>".into(),
            Object::Dict(_) => "<prebuilt dict>".into(),
            Object::Instance(i) => format!(
                "<{} object>",
                heap.class(i.class).map(|c| &*c.name).unwrap_or("?")
            ),
            _ => "<object>".into(),
        },
    }
}

impl Bookkeeper {
    /// A callable's name for messages: `f`, `Cls.meth` (the class that defines it).
    pub fn callable_name(&self, heap: &Heap, d: DescId) -> String {
        match self.desc(d) {
            Desc::Function(f) => format!("`{}`", f.name),
            Desc::Method(m) => format!("`{}.{}`", self.classdef(m.origin).name, m.name),
            _ => self.desc_name(heap, d),
        }
    }

    fn desc_name(&self, heap: &Heap, d: DescId) -> String {
        match self.desc(d) {
            Desc::Function(f) => format!("function `{}`", f.name),
            Desc::Class(c) => format!("class `{}`", c.name),
            Desc::Method(m) => {
                let cls = &self.classdef(m.selfclassdef.unwrap_or(m.origin)).name;
                format!("method `{}.{}`", cls, m.name)
            }
            Desc::Frozen(f) => match heap.get(f.obj) {
                Object::Module(m) => format!("module `{}`", m.name),
                Object::Instance(i) => format!(
                    "prebuilt `{}` object",
                    heap.class(i.class).map(|c| &*c.name).unwrap_or("?")
                ),
                _ => "prebuilt object".into(),
            },
            Desc::MethodOfFrozen { func, .. } => match self.desc(*func) {
                Desc::Function(f) => format!("method `{}` of a prebuilt object", f.name),
                _ => "method of a prebuilt object".into(),
            },
        }
    }

    /// Plain words: "int, non-negative", "list of str, resizable", "instance of Node or None".
    pub fn describe(&self, heap: &Heap, s: &SomeValue) -> String {
        self.describe_depth(heap, s, 0, true)
    }

    /// The type only, for messages about types ("int" whether or not it is known to be
    /// non-negative).
    pub fn describe_type(&self, heap: &Heap, s: &SomeValue) -> String {
        self.describe_depth(heap, s, 0, false)
    }

    fn describe_depth(
        &self,
        heap: &Heap,
        s: &SomeValue,
        depth: usize,
        nonneg_info: bool,
    ) -> String {
        if depth > 4 {
            return "...".into();
        }
        let inner = |x: &SomeValue| self.describe_depth(heap, x, depth + 1, nonneg_info);
        let or_none = |t: String, n: bool| if n { format!("{} or None", t) } else { t };
        match s {
            S::Object => "an arbitrary object (not RPython)".into(),
            S::Integer { nonneg, kind, .. } => {
                let name = int_kind_name(*kind);
                if *nonneg && !is_unsigned(*kind) && nonneg_info {
                    // Nested in a container or tuple, the comma would be ambiguous.
                    if depth == 0 {
                        format!("{}, non-negative", name)
                    } else {
                        format!("non-negative {}", name)
                    }
                } else {
                    name.into()
                }
            }
            S::Bool { .. } => "bool".into(),
            S::Float { .. } => "float".into(),
            S::SingleFloat => "single-precision float (r_singlefloat)".into(),
            S::Char { .. } => "str (one character)".into(),
            S::Str { can_be_none, .. } => or_none("str".into(), *can_be_none),
            S::UnicodeCodePoint { .. } => "unicode (one character)".into(),
            S::Unicode { can_be_none, .. } => or_none("unicode".into(), *can_be_none),
            S::ByteArray => "bytearray".into(),
            S::WeakRef { classdef: Some(c) } => {
                format!("weak reference to {}", self.classdef(*c).name)
            }
            S::WeakRef { classdef: None } => "dead weak reference".into(),
            S::VRef { s_instance } => format!("virtual reference to {}", inner(s_instance)),
            S::WeakValueDict { key, value } => format!(
                "RWeakValueDictionary of {} to {}",
                inner(key),
                self.classdef(*value).name
            ),
            S::WeakKeyDict { key, value } => format!(
                "RWeakKeyDictionary of {} to {}",
                self.classdef(*key).name,
                self.classdef(*value).name
            ),
            S::Tuple(items) => {
                let parts: Vec<String> = items.iter().map(inner).collect();
                if parts.len() == 1 {
                    format!("tuple ({},)", parts[0])
                } else {
                    format!("tuple ({})", parts.join(", "))
                }
            }
            S::List { def, .. } => {
                let it = self.item(self.list_item(*def));
                if it.s_value.is_impossible() {
                    return "empty list".into();
                }
                let mut t = format!("list of {}", inner(&it.s_value));
                if it.range_step.is_some() && !it.mutated {
                    t.push_str(", from range()");
                } else if it.resized {
                    t.push_str(", resizable");
                }
                t
            }
            S::Dict { def, .. } => {
                let (k, v) = self.dict_items(*def);
                let (sk, sv) = (&self.item(k).s_value, &self.item(v).s_value);
                if sk.is_impossible() {
                    return "empty dict".into();
                }
                format!("dict of {} to {}", inner(sk), inner(sv))
            }
            S::Instance {
                classdef,
                can_be_none,
                ..
            } => or_none(
                format!("instance of {}", self.classdef(*classdef).name),
                *can_be_none,
            ),
            S::Ptr(t) => self.lltypes.name(*t),
            S::InteriorPtr { base, field } => {
                format!(
                    "interior pointer to field {} of {}",
                    field,
                    self.lltypes.name(*base)
                )
            }
            S::ArrayItem { array } => {
                format!(
                    "interior pointer to an item of {}",
                    self.lltypes.name(*array)
                )
            }
            S::LlType(t) => format!("the low-level type {}", self.lltypes.name(*t)),
            S::Pbc { descs, can_be_none } => {
                let t = if descs.len() == 1 {
                    self.desc_name(heap, descs[0])
                } else {
                    let names: Vec<String> = descs
                        .iter()
                        .take(4)
                        .map(|&d| self.desc_name(heap, d))
                        .collect();
                    let more = if descs.len() > 4 {
                        format!(" and {} more", descs.len() - 4)
                    } else {
                        String::new()
                    };
                    format!("one of {}{}", names.join(", "), more)
                };
                or_none(t, *can_be_none)
            }
            S::None => "None".into(),
            S::Iterator { container, variant } => match variant {
                IterVariant::Plain => format!("iterator over {}", inner(container)),
                v => format!("{} iterator over {}", v.name(), inner(container)),
            },
            S::Generator { graph } => {
                match self.generators.get(graph).and_then(|g| g.name.as_ref()) {
                    Some(n) => format!("generator of `{}`", n),
                    None => "generator".into(),
                }
            }
            S::Builtin { id, .. } => format!("built-in function `{}`", id.name()),
            S::BuiltinMethod { id, s_self, .. } => {
                format!("method `{}` of {}", id.short_name(), inner(s_self))
            }
            S::Type { konst: Some(v), .. } => format!(
                "type `{}`",
                const_repr(heap, *v)
                    .trim_start_matches("<class ")
                    .trim_end_matches('>')
            ),
            S::Type { .. } => "type".into(),
            S::Impossible => "no value".into(),
            S::Error => "an erroneous value".into(),
            S::Unknown(what) => {
                format!("unknown (comes from `{what}`, which rpy-lsp does not model)")
            }
            S::External(o) => match heap.get(*o) {
                Object::Instance(i) => format!(
                    "an annotation of an ExtRegistryEntry ({})",
                    heap.class(i.class)
                        .map(|c| c.name.to_string())
                        .unwrap_or_default()
                ),
                _ => "a method of an ExtRegistryEntry's annotation".into(),
            },
        }
    }

    /// The reference annotator's notation: "SomeInteger(nonneg=True)",
    /// "SomeList(listdef=<[SomeString()]>)".
    pub fn annotator_form(&self, heap: &Heap, s: &SomeValue) -> String {
        self.form_depth(heap, s, 0)
    }

    fn form_depth(&self, heap: &Heap, s: &SomeValue, depth: usize) -> String {
        if depth > 6 {
            return "...".into();
        }
        let inner = |x: &SomeValue| self.form_depth(heap, x, depth + 1);
        let mut fields: Vec<String> = Vec::new();
        let konst = |fields: &mut Vec<String>, c: Option<Value>| {
            if let Some(c) = c {
                fields.push(format!("const={}", const_repr(heap, c)));
            }
        };
        match s {
            S::Integer {
                nonneg,
                kind,
                konst: c,
            } => {
                konst(&mut fields, *c);
                if *kind != crate::objspace::object::IntKind::Signed {
                    fields.push(format!("knowntype={}", int_kind_name(*kind)));
                }
                if *nonneg {
                    fields.push("nonneg=True".into());
                }
                if is_unsigned(*kind) {
                    fields.push("unsigned=True".into());
                }
            }
            S::Bool { konst: Some(b), .. } => {
                fields.push(format!("const={}", if *b { "True" } else { "False" }))
            }
            S::Float { konst: c } => konst(&mut fields, *c),
            S::Char { no_nul, konst: c } | S::UnicodeCodePoint { no_nul, konst: c } => {
                konst(&mut fields, *c);
                if *no_nul {
                    fields.push("no_nul=True".into());
                }
            }
            S::Str {
                can_be_none,
                no_nul,
                konst: c,
            }
            | S::Unicode {
                can_be_none,
                no_nul,
                konst: c,
            } => {
                if *can_be_none {
                    fields.push("can_be_None=True".into());
                }
                konst(&mut fields, *c);
                if *no_nul {
                    fields.push("no_nul=True".into());
                }
            }
            S::Tuple(items) => {
                let parts: Vec<String> = items.iter().map(inner).collect();
                let comma = if parts.len() == 1 { "," } else { "" };
                fields.push(format!("items=({}{})", parts.join(", "), comma));
            }
            S::List { def, konst: c } => {
                konst(&mut fields, *c);
                let it = self.item(self.list_item(*def));
                let flags = format!(
                    "{}{}",
                    if it.mutated { "m" } else { "" },
                    if it.resized { "r" } else { "" }
                );
                fields.push(format!("listdef=<[{}]{}>", inner(&it.s_value), flags));
            }
            S::Dict { def, konst: c } => {
                konst(&mut fields, *c);
                let (k, v) = self.dict_items(*def);
                fields.push(format!(
                    "dictdef=<{{{}: {}}}>",
                    inner(&self.item(k).s_value),
                    inner(&self.item(v).s_value)
                ));
            }
            S::Instance {
                classdef,
                can_be_none,
                konst: c,
            } => {
                if *can_be_none {
                    fields.push("can_be_None=True".into());
                }
                fields.push(format!("classdef={}", self.classdef(*classdef).name));
                konst(&mut fields, *c);
            }
            S::Pbc { descs, can_be_none } => {
                if *can_be_none {
                    fields.push("can_be_None=True".into());
                }
                match self.pbc_const(s) {
                    Some(c) => fields.push(format!("const={}", const_repr(heap, c))),
                    None => {
                        let names: Vec<String> =
                            descs.iter().map(|&d| self.desc_name(heap, d)).collect();
                        fields.push(format!("descriptions={{{}}}", names.join(", ")));
                    }
                }
            }
            S::Iterator { container, variant } => {
                fields.push(format!("s_container={}", inner(container)));
                if *variant != IterVariant::Plain {
                    fields.push(format!("variant=('{}',)", variant.name()));
                }
            }
            S::Builtin { id, .. } => fields.push(format!("methodname={}", id.name())),
            S::BuiltinMethod { id, s_self, .. } => {
                fields.push(format!("methodname={}", id.short_name()));
                fields.push(format!("s_self={}", inner(s_self)));
            }
            S::Type { konst: c, .. } => konst(&mut fields, *c),
            _ => {}
        }
        format!("{}({})", s.reference_name(), fields.join(", "))
    }
}
