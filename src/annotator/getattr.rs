//! Attributes of a value: reading them (instances, classes, descriptions, modules,
//! unmodelled bases) and writing them (with the checks that belong to a store: immutable
//! fields, list items declared immutable). Takes the annotations of the object and the
//! attribute name; gives the attribute's annotation, or the error the reference reports.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::classdef::ClassDesc;
use super::classdef::{PROPERTY_GETTER, PROPERTY_SETTER};
use super::description::Desc;
use super::model::*;
use super::unaryop::{builtin_methods, lookup_class_attr, CHAR_METHODS, DICT_METHODS};
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::flowspace::SpaceOperation;
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{ObjId, Object, Value};
use std::rc::Rc;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `inst.attr` where the instance's class derives from a class rpy-lsp does not model
    /// and nothing rpy-lsp knows defines `attr`: unknown (it may come from that base).
    pub(super) fn attr_from_unknown_base(
        &mut self,
        cd: ClassDefId,
        op: &SpaceOperation,
    ) -> Option<SomeValue> {
        let heap = self.space.heap();
        let name = op.args.get(1)?.constant().and_then(|c| heap.str_value(c))?;
        let name = std::str::from_utf8(name).ok()?.to_string();
        let desc = self.bk.classdef(cd).desc;
        let cls = self.bk.class_desc(desc)?.cls;
        let mro = heap.class(cls)?.mro.clone();
        let marker = heap.unknown_base_of(cls)?;
        if mro
            .iter()
            .any(|&k| heap.class(k).is_some_and(|c| c.dict.contains(&name)))
        {
            return None;
        }
        // Attributes the program assigns on instances are known.
        let mut c = Some(cd);
        while let Some(d) = c {
            if self.bk.classdef(d).attrs.contains_key(name.as_str()) {
                return None;
            }
            c = self.bk.classdef(d).basedef;
        }
        match self.bk.immutablevalue(heap, marker) {
            Ok(SomeValue::Unknown(what)) => {
                Some(SomeValue::Unknown(format!("{what}.{name}").into()))
            }
            _ => None,
        }
    }

    /// `inst.attr` on an instance of a class of a bundled model (`rbigint`) where nothing in
    /// the model names `attr` (no class defines it, no method reads or assigns it) and the
    /// program never assigned it: the model may lack what the real library has, so the
    /// read is unknown, not an error. Gives the attribute's dotted name.
    pub(super) fn attr_missing_on_model_class(
        &mut self,
        cd: ClassDefId,
        op: &SpaceOperation,
    ) -> Option<String> {
        let heap = self.space.heap();
        let name = op.args.get(1)?.constant().and_then(|c| heap.str_value(c))?;
        let name = std::str::from_utf8(name).ok()?.to_string();
        let cls = self.bk.class_desc(self.bk.classdef(cd).desc)?.cls;
        let c = heap.class(cls)?;
        let module = c.module?;
        if !crate::objspace::is_bundled_model_module(heap, Value::Obj(module)) {
            return None;
        }
        // A model that declares the whole surface of its class (`_rpy_complete_`, e.g.
        // StringBuilder, whose methods the reference fixes) reports a missing attribute
        // as on a user class: the reference rejects it too.
        if c.mro
            .iter()
            .filter_map(|&k| heap.class(k))
            .any(|k| k.dict.contains("_rpy_complete_"))
        {
            return None;
        }
        let names_it = |k: &crate::objspace::object::Class| {
            k.dict.contains(&name)
                || k.dict.iter().any(|(_, v)| {
                    heap.function(v)
                        .is_some_and(|f| f.code.co_names.iter().any(|n| **n == *name))
                })
        };
        if c.mro.iter().filter_map(|&k| heap.class(k)).any(names_it) {
            return None;
        }
        // An attribute of another class of the model's family (one with a common base
        // in the same module), as `tree.Node.symbol` of `Symbol` and `Nonterminal`: the
        // value read may yet be generalized to the base, where RPython moves the
        // attribute, so it is known.
        let family: Vec<ObjId> = c
            .mro
            .iter()
            .copied()
            .filter(|&k| heap.class(k).is_some_and(|kc| kc.module == Some(module)))
            .collect();
        // A subclass the program derives from the model's class defines it (a method of
        // the program's own node classes, read through the model's base).
        let in_program_subclass = self.bk.getallsubdefs(cd).into_iter().any(|sub| {
            self.bk
                .class_desc(self.bk.classdef(sub).desc)
                .and_then(|d| heap.class(d.cls))
                .is_some_and(names_it)
        });
        if in_program_subclass {
            return None;
        }
        if let Object::Module(m) = heap.get(module) {
            let in_subclass = m.dict.iter().any(|(_, v)| match v {
                Value::Obj(k) => heap.class(k).is_some_and(|other| {
                    other.mro.iter().any(|b| family.contains(b)) && names_it(other)
                }),
                _ => false,
            });
            if in_subclass {
                return None;
            }
        }
        // Attributes the program assigns on instances are known.
        let mut d = Some(cd);
        while let Some(x) = d {
            if self.bk.classdef(x).attrs.contains_key(name.as_str()) {
                return None;
            }
            d = self.bk.classdef(x).basedef;
        }
        let Object::Module(m) = heap.get(module) else {
            return None;
        };
        Some(format!("{}.{}.{}", m.name, c.name, name))
    }

    pub fn attr_name(&self, s: &SomeValue, what: &str) -> Result<Rc<str>, AnnError> {
        match s.konst().and_then(|c| self.heap().str_value(c)) {
            Some(b) => Ok(Rc::from(String::from_utf8_lossy(b).as_ref())),
            None => Err(AnnError::new(
                "RPY211",
                format!("{}() needs a constant attribute name: the name must be known at translation time", what),
            )),
        }
    }

    /// `x.f.append(…)` (or another resizing method) where `f` is declared with immutable
    /// items (`f[*]` in `_immutable_fields_`): the reference gives reads of such a field a
    /// list that must never be resized. Only the direct form, the list read in the same
    /// block, is checked: a list grown before it is stored (a comprehension, a loop of
    /// appends) is a fresh list in the reference, and is fine.
    pub(super) fn check_immutable_list_resize(
        &mut self,
        op: &SpaceOperation,
        meth: &str,
    ) -> Result<(), AnnError> {
        const RESIZING: &[&str] = &["append", "extend", "insert", "pop", "remove"];
        if !RESIZING.contains(&meth) {
            return Ok(());
        }
        let Some(v_list) = op.args[0].var() else {
            return Ok(());
        };
        let pos = self.bk.position;
        let block = &self.graphs[pos.graph as usize].blocks[pos.block as usize];
        let Some(read) = block.operations[..pos.op as usize]
            .iter()
            .find(|o| o.result == v_list && o.opname == Op::GetAttr)
            .cloned()
        else {
            return Ok(());
        };
        let Some(field) = read.args[1]
            .constant()
            .and_then(|c| self.heap().str_value(c))
            .map(|b| String::from_utf8_lossy(b).into_owned())
        else {
            return Ok(());
        };
        let S::Instance { classdef, .. } = self.annotation(pos.graph, read.args[0]) else {
            return Ok(());
        };
        if !self
            .bk
            .is_immutable_list_field(self.space.heap(), classdef, &field)
        {
            return Ok(());
        }
        let cname = self.bk.classdef(classdef).name.clone();
        Err(AnnError::new(
            "RPY205",
            format!(
                "`{meth}` would resize `{cname}.{field}`, declared with immutable items (`{field}[*]` in `_immutable_fields_`): such a list must never be resized"
            ),
        ))
    }

    /// A list read from or stored in field `name` of an instance of `cd` declared with
    /// immutable items (`name[*]` in `_immutable_fields_`): it must never be resized.
    fn immutable_list_field(
        &mut self,
        cd: ClassDefId,
        name: &str,
        s: &SomeValue,
    ) -> Result<(), AnnError> {
        let S::List { def, .. } = s else {
            return Ok(());
        };
        if !self.bk.is_immutable_list_field(self.space.heap(), cd, name) {
            return Ok(());
        }
        let owner = self.bk.get_owner(cd, name).unwrap_or(cd);
        let field = format!("{}.{}", self.bk.classdef(owner).name, name);
        self.bk.never_resize_field(*def, &field)
    }

    /// Reading attribute `name` of a value.
    pub fn getattr_value(&mut self, obj: &SomeValue, name: &str) -> Result<SomeValue, AnnError> {
        let rname: Rc<str> = Rc::from(name);
        match obj {
            S::Instance { classdef, .. } => {
                let cd = *classdef;
                if name == "__class__" {
                    let subs = self.bk.getallsubdefs(cd);
                    let descs: Vec<DescId> =
                        subs.iter().map(|&s| self.bk.classdef(s).desc).collect();
                    return Ok(SomeValue::pbc(descs));
                }
                let getter = self
                    .bk
                    .property_method(self.space.heap(), cd, name, PROPERTY_GETTER);
                if let Some(meth) = getter {
                    // the reference's getattr transform: `obj.NAME__getter__()`, a method
                    // call dispatched on the instance's class
                    return self.call_instance_method(obj, &meth, &ArgsS::simple(Vec::new()));
                }
                if let Some((fget, _)) = self.bk.find_property(self.space.heap(), cd, name) {
                    if fget == Value::None {
                        return Err(AnnError::new(
                            "RPY204",
                            format!("property `{}` is unreadable", name),
                        ));
                    }
                    let s_get = self.bk.immutablevalue(self.space.heap(), fget)?;
                    return self.call_value(&s_get, &ArgsS::simple(vec![obj.clone()]));
                }
                let s = self.bk.s_getattr(self.space.heap(), cd, &rname)?;
                self.immutable_list_field(cd, name, &s)?;
                Ok(s)
            }
            S::Pbc { descs, .. } => {
                let descs = descs.clone();
                if descs.len() > 1 {
                    // an attribute read through a variable holding one of several classes is
                    // a slot of their vtables: each class needs its class definition
                    let classes: Vec<ObjId> = descs
                        .iter()
                        .filter_map(|d| match self.bk.desc(*d) {
                            Desc::Class(c) => Some(c.cls),
                            _ => None,
                        })
                        .collect();
                    if classes.len() == descs.len() {
                        for cls in classes {
                            self.bk.getuniqueclassdef(self.space.heap(), cls)?;
                        }
                    }
                }
                let mut result = SomeValue::Impossible;
                for &d in descs.iter() {
                    let s = self.desc_getattr(d, &rname)?;
                    result = self.bk.union(self.space.heap(), &result, &s)?;
                }
                Ok(result)
            }
            S::None => Ok(SomeValue::Impossible),
            S::Char { .. }
            | S::Str { .. }
            | S::UnicodeCodePoint { .. }
            | S::Unicode { .. }
            | S::List { .. }
            | S::Dict { .. } => {
                let method = |table: &[B]| table.iter().copied().find(|b| b.short_name() == name);
                let (tname, table): (&str, &[B]) = match obj {
                    S::Char { .. } if method(CHAR_METHODS).is_some() => ("str", CHAR_METHODS),
                    _ => builtin_methods(obj).unwrap_or(("dict", DICT_METHODS)),
                };
                if let Some(id) = method(table) {
                    Ok(SomeValue::builtin_method(id, obj.clone()))
                } else {
                    Err(self.no_method(tname, name))
                }
            }
            S::WeakValueDict { .. } | S::WeakKeyDict { .. } => self.weakdict_getattr(obj, name),
            // whether the JIT keeps its object virtual: never without a JIT
            S::VRef { .. } if name == "virtual" => Ok(SomeValue::bool()),
            S::Iterator { .. } | S::Generator { .. } if name == "next" => {
                Ok(SomeValue::builtin_method(B::IteratorNext, obj.clone()))
            }
            S::Type { konst: Some(_), .. } if name == "__name__" => Ok(SomeValue::string()),
            other => Err(AnnError::new(
                "RPY204",
                format!(
                    "{} has no attribute `{}` in RPython",
                    self.bk.describe_type(self.space.heap(), other),
                    name
                ),
            )),
        }
    }

    /// Attribute of a prebuilt object (class, module, frozen instance, function).
    fn desc_getattr(&mut self, d: DescId, name: &Rc<str>) -> Result<SomeValue, AnnError> {
        let desc = match self.bk.desc(d) {
            Desc::Class(_) => None,
            other => Some(other.clone()),
        };
        match desc {
            None => {
                if &**name == "__name__" {
                    return Ok(SomeValue::string());
                }
                match ClassDesc::lookup(&self.bk, d, name) {
                    Some(owner) => self
                        .bk
                        .class_attr_value(self.space.heap(), owner, None, name),
                    None => Ok(SomeValue::Impossible),
                }
            }
            Some(Desc::Frozen(f)) => {
                let heap = self.space.heap();
                // As Python's getattr: a function found on the instance's class is bound to
                // the instance (a method of the frozen object); one stored in the
                // instance's own dict is the plain function.
                let (v, from_class) = match heap.get(f.obj) {
                    Object::Module(m) => (m.dict.get(name), false),
                    Object::Instance(inst) => match inst.dict.get(name) {
                        Some(v) => (Some(v), false),
                        None => (lookup_class_attr(heap, inst.class, name), true),
                    },
                    _ => (None, false),
                };
                match v {
                    Some(v) => {
                        let v = match (heap.get(f.obj), v) {
                            (Object::Instance(_), Value::Obj(fid))
                                if from_class && matches!(heap.get(fid), Object::Function(_)) =>
                            {
                                let fdesc = self.bk.getdesc(heap, fid)?;
                                return Ok(SomeValue::pbc(vec![self
                                    .bk
                                    .getmethodoffrozen(fdesc, d)]));
                            }
                            (_, v) => v,
                        };
                        self.bk.immutablevalue(self.space.heap(), v)
                    }
                    None => Ok(SomeValue::Impossible),
                }
            }
            Some(Desc::Function(f)) => match self.heap().get(f.func) {
                Object::Function(func) => match func.attrs.get(name) {
                    Some(v) => self.bk.immutablevalue(self.space.heap(), v),
                    None if &**name == "__name__" || &**name == "func_name" => {
                        Ok(SomeValue::string())
                    }
                    None => Ok(SomeValue::Impossible),
                },
                _ => Ok(SomeValue::Impossible),
            },
            Some(Desc::Method(_) | Desc::MethodOfFrozen { .. } | Desc::Class(_)) => {
                Ok(SomeValue::Impossible)
            }
        }
    }

    pub(super) fn op_setattr(
        &mut self,
        obj: &SomeValue,
        s_name: &SomeValue,
        value: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        let name = self.attr_name(s_name, "setattr")?;
        match obj {
            S::Instance { classdef, .. } => {
                let cd = *classdef;
                let setter = self
                    .bk
                    .property_method(self.space.heap(), cd, &name, PROPERTY_SETTER);
                if let Some(meth) = setter {
                    // `obj.NAME__setter__(value)`, dispatched on the instance's class
                    let args = ArgsS::simple(vec![value.clone()]);
                    self.call_instance_method(obj, &meth, &args)?;
                    return Ok(S::None);
                }
                if let Some((_, fset)) = self.bk.find_property(self.space.heap(), cd, &name) {
                    if fset == Value::None {
                        return Err(AnnError::new(
                            "RPY205",
                            format!("property `{}` has no setter", name),
                        ));
                    }
                    let s_set = self.bk.immutablevalue(self.space.heap(), fset)?;
                    self.call_value(&s_set, &ArgsS::simple(vec![obj.clone(), value.clone()]))?;
                    return Ok(S::None);
                }
                self.bk
                    .setattr_instance(self.space.heap(), cd, &name, value)?;
                self.immutable_list_field(cd, &name, value)?;
                Ok(S::None)
            }
            S::Pbc { descs, .. } => {
                let heap = self.space.heap();
                let what = match self.bk.desc(descs[0]) {
                    Desc::Class(c) => format!("class `{}`: class attributes", c.name),
                    Desc::Frozen(f) => match heap.get(f.obj) {
                        Object::Module(m) => format!("module `{}`: module attributes", m.name),
                        _ => "a prebuilt constant: its attributes".to_string(),
                    },
                    _ => "a prebuilt constant: its attributes".to_string(),
                };
                Err(AnnError::new(
                    "RPY213",
                    format!("cannot change attribute `{}` of {} are constants after import (keep mutable state on a prebuilt instance)", name, what),
                ))
            }
            S::None => Ok(S::None),
            other => Err(AnnError::new(
                "RPY205",
                format!(
                    "cannot set attribute `{}` on {}",
                    name,
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )),
        }
    }
}
