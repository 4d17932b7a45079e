//! ExtRegistryEntry `_type_`s (rply's `Rule`): the instances of such a class are annotated
//! by the entry's annotator-level code, which rpy-lsp runs in its object space as the
//! reference runs it, on the plain annotations of the bundled `rpython.annotator.model`.
//!
//! Before the annotation, every prebuilt instance of a `_type_` the bundled
//! `rpython.rtyper.extregistry` marked gets its annotation from
//! `entry(cls, instance).compute_annotation()` ([`SomeValue::External`]); two of them
//! have a union only where the library defines one (`pairtype(K, K).union`).
//! Then `getattr` on it runs the annotation's `method_<name>` lookup or its `getattr()`,
//! and calling one of its methods runs it with the arguments mapped to model annotations;
//! the result is mapped back, and the calls it asked for with `emulate_pbc_call` are
//! annotated. What cannot be mapped is unknown (never an error of the user's).
//!
//! A function an entry is `_about_` gets the same treatment: its annotation is the
//! bundled extregistry's `_SomeDescribed`, and calling it runs the entry's
//! `compute_result_annotation` on the arguments' model annotations.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use crate::interpreter::{CallArgs, ConcreteSpace, Op, Space};
use crate::objspace::object::{IntKind, ObjId, Object, Value};
use std::rc::Rc;

/// The modules of the bridge, found in the heap once imported.
struct Modules {
    model: ObjId,
    bookkeeper: ObjId,
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    fn find_module(&self, name: &str) -> Option<ObjId> {
        let heap = self.space.heap();
        (0..heap.len() as u32)
            .map(ObjId)
            .find(|&id| matches!(heap.get(id), Object::Module(m) if m.bundled && &*m.name == name))
    }

    /// The bridge's modules (found by `prepare_ext_registry`).
    fn ext_modules(&self) -> Option<Modules> {
        let (model, bookkeeper) = self.bk.ext_bridge?;
        Some(Modules { model, bookkeeper })
    }

    fn attr(&mut self, obj: Value, name: &str) -> Option<Value> {
        let n = self.space.name_const(&Rc::from(name));
        Space::op(self.space, Op::GetAttr, &[obj, n]).ok()
    }

    fn call_py(&mut self, f: Value, args: Vec<Value>) -> Option<Value> {
        // import-time code may change what any function's graph folds
        self.flowed.clear();
        Space::call(self.space, f, CallArgs::positional(args)).ok()
    }

    /// Runs `compute_annotation()` of every ExtRegistryEntry `_type_` (marked by the
    /// bundled extregistry) for the bookkeeper's `immutablevalue`.
    pub(super) fn prepare_ext_registry(&mut self) {
        if self.find_module("rpython.rtyper.extregistry").is_none() {
            return;
        }
        let (Some(model), Some(bookkeeper)) = (
            self.find_module("rpython.annotator.model"),
            self.find_module("rpython.annotator.bookkeeper"),
        ) else {
            return;
        };
        self.bk.ext_bridge = Some((model, bookkeeper));
        // the prebuilt instances of the marked classes, with their entry
        let heap = self.space.heap();
        let entry_of = |cls: ObjId| {
            heap.class(cls).and_then(|c| {
                c.mro.iter().find_map(|&k| match heap.get(k) {
                    Object::Class(k) => k.dict.get("__rpy_extregistry_type__"),
                    _ => None,
                })
            })
        };
        let marked: Vec<(ObjId, ObjId, Value)> = (0..heap.len() as u32)
            .map(ObjId)
            .filter_map(|id| match heap.get(id) {
                Object::Instance(i) => entry_of(i.class).map(|e| (id, i.class, e)),
                _ => None,
            })
            .collect();
        let pairtype = self
            .find_module("rpython.tool.pairtype")
            .and_then(|m| self.attr(Value::Obj(m), "pairtype"));
        // the functions an entry with a `compute_result_annotation` is `_about_`
        let heap = self.space.heap();
        let about: Vec<(ObjId, Value)> = (0..heap.len() as u32)
            .map(ObjId)
            .filter_map(|id| match heap.get(id) {
                Object::Function(f) => f.attrs.get("__rpy_extregistry_about__").map(|e| (id, e)),
                _ => None,
            })
            .collect();
        let described = self
            .find_module("rpython.rtyper.extregistry")
            .and_then(|m| self.attr(Value::Obj(m), "_SomeDescribed"));
        for (f, entry) in about {
            let Some(cls) = described else { break };
            if let Some(Value::Obj(s)) = self.call_py(cls, vec![entry, Value::Obj(f)]) {
                self.bk.ext_types.insert(f, s);
            }
        }
        for (inst, cls, entry) in marked {
            let Some(e) = self.call_py(entry, vec![Value::Obj(cls), Value::Obj(inst)]) else {
                continue;
            };
            let Some(compute) = self.attr(e, "compute_annotation") else {
                continue;
            };
            let Some(Value::Obj(s)) = self.call_py(compute, Vec::new()) else {
                continue;
            };
            let Object::Instance(k) = self.space.heap().get(s) else {
                continue;
            };
            let kind = k.class;
            self.bk.ext_types.insert(inst, s);
            // does the library define the union of two annotations of this kind?
            if let Some(pt) = pairtype {
                let pair = self.call_py(pt, vec![Value::Obj(kind), Value::Obj(kind)]);
                if pair.and_then(|p| self.attr(p, "union")).is_some() {
                    self.bk.ext_unions.insert(kind);
                }
            }
        }
    }

    /// An operation whose first argument is an ExtRegistryEntry's annotation (`getattr`).
    pub(super) fn ext_op(&mut self, op: Op, o: ObjId, args: &[SomeValue]) -> SomeValue {
        let unknown = || SomeValue::Unknown(Rc::from("an ExtRegistryEntry's annotation"));
        match op {
            Op::GetAttr => {
                let Some(name) = args.get(1).and_then(|a| self.const_str(a)) else {
                    return unknown();
                };
                if let Some(Value::Obj(m)) = self.attr(Value::Obj(o), &format!("method_{name}")) {
                    return SomeValue::External(m);
                }
                let Some(getattr) = self.attr(Value::Obj(o), "getattr") else {
                    return unknown();
                };
                let Some(s_attr) = self.model_of(&args[1]) else {
                    return unknown();
                };
                match self.call_py(getattr, vec![s_attr]) {
                    Some(r) => self.annotation_of_model(r),
                    None => unknown(),
                }
            }
            _ => unknown(),
        }
    }

    /// A call of a method of an ExtRegistryEntry's annotation (`rule.matches(s, pos)`).
    pub(super) fn ext_call(&mut self, o: ObjId, args: &ArgsS) -> SomeValue {
        let unknown = || SomeValue::Unknown(Rc::from("an ExtRegistryEntry's annotation"));
        if !args.keywords.is_empty() || args.star_unknown.is_some() {
            return unknown();
        }
        let mut margs = Vec::new();
        for a in &args.positional {
            match self.model_of(a) {
                Some(m) => margs.push(m),
                None => return unknown(),
            }
        }
        let r = self.call_py(Value::Obj(o), margs);
        self.emulated_calls();
        match r {
            Some(r) => self.annotation_of_model(r),
            None => unknown(),
        }
    }

    /// The text of a constant str or character.
    pub(super) fn const_str(&self, s: &SomeValue) -> Option<String> {
        match s {
            SomeValue::Str { konst: Some(v), .. } | SomeValue::Char { konst: Some(v), .. } => self
                .space
                .heap()
                .str_value(*v)
                .map(|b| String::from_utf8_lossy(b).into_owned()),
            _ => None,
        }
    }

    /// A model class of `rpython.annotator.model` (or of the bookkeeper's module).
    fn model_class(&mut self, module: ObjId, name: &str) -> Option<Value> {
        self.attr(Value::Obj(module), name)
    }

    /// Our annotation as the library's code sees it.
    fn model_of(&mut self, s: &SomeValue) -> Option<Value> {
        let m = self.ext_modules()?;
        let b = Value::Bool;
        Some(match s {
            SomeValue::External(o) => Value::Obj(*o),
            // a constant string is the library's string annotation with its `const`
            // (`SomeString().contains(s)` holds, as in the reference)
            SomeValue::Str {
                konst: Some(v),
                can_be_none,
                no_nul,
            } => {
                let c = self.model_class(m.model, "SomeString")?;
                let r = self.call_py(c, vec![b(*can_be_none), b(*no_nul)])?;
                self.set_const(r, *v)?
            }
            SomeValue::Char {
                konst: Some(v),
                no_nul,
            } => {
                let c = self.model_class(m.model, "SomeChar")?;
                let r = self.call_py(c, vec![b(*no_nul)])?;
                self.set_const(r, *v)?
            }
            SomeValue::Char { no_nul, .. } => {
                let c = self.model_class(m.model, "SomeChar")?;
                self.call_py(c, vec![b(*no_nul)])?
            }
            SomeValue::Str {
                can_be_none,
                no_nul,
                ..
            } => {
                let c = self.model_class(m.model, "SomeString")?;
                self.call_py(c, vec![b(*can_be_none), b(*no_nul)])?
            }
            SomeValue::Bool { .. } => {
                let c = self.model_class(m.model, "SomeBool")?;
                self.call_py(c, Vec::new())?
            }
            SomeValue::Integer { nonneg, .. } => {
                let c = self.model_class(m.model, "SomeInteger")?;
                self.call_py(c, vec![b(*nonneg)])?
            }
            _ => {
                let c = self.model_class(m.model, "SomeObject")?;
                self.call_py(c, Vec::new())?
            }
        })
    }

    /// `r` with its `const` attribute set to `v`.
    fn set_const(&mut self, r: Value, v: Value) -> Option<Value> {
        let n = self.space.name_const(&Rc::from("const"));
        Space::op(self.space, Op::SetAttr, &[r, n, v]).ok()?;
        Some(r)
    }

    /// Whether `v` is an instance of the class `name` of `module`.
    fn is_model(&mut self, v: Value, module: ObjId, name: &str) -> bool {
        let Some(Value::Obj(cls)) = self.model_class(module, name) else {
            return false;
        };
        let heap = self.space.heap();
        match v {
            Value::Obj(id) => match heap.get(id) {
                Object::Instance(i) => heap.class(i.class).is_some_and(|c| c.mro.contains(&cls)),
                _ => false,
            },
            _ => false,
        }
    }

    /// The library's annotation as ours.
    fn annotation_of_model(&mut self, v: Value) -> SomeValue {
        let unknown = || SomeValue::Unknown(Rc::from("an ExtRegistryEntry's annotation"));
        let Some(m) = self.ext_modules() else {
            return unknown();
        };
        let flag = |this: &mut Self, name: &str| {
            this.attr(v, name)
                .is_some_and(|f| matches!(f, Value::Bool(true)))
        };
        if self.is_model(v, m.bookkeeper, "_Const") {
            return match self.attr(v, "const") {
                Some(c) => self.const_annotation(c),
                None => unknown(),
            };
        }
        if self.is_model(v, m.model, "SomeChar") {
            return SomeValue::Char {
                no_nul: flag(self, "no_nul"),
                konst: None,
            };
        }
        if self.is_model(v, m.model, "SomeString") {
            return SomeValue::Str {
                can_be_none: flag(self, "can_be_None"),
                no_nul: flag(self, "no_nul"),
                konst: None,
            };
        }
        if self.is_model(v, m.model, "SomeBool") {
            return SomeValue::Bool {
                konst: None,
                ktd: None,
            };
        }
        if self.is_model(v, m.model, "SomeInteger") {
            return SomeValue::Integer {
                nonneg: flag(self, "nonneg"),
                kind: IntKind::Signed,
                konst: None,
            };
        }
        if self.is_model(v, m.model, "SomeNone") {
            return SomeValue::None;
        }
        if self.is_model(v, m.model, "SomeInstance") {
            let cls = self.attr(v, "classdef").and_then(|d| self.attr(d, "cls"));
            let Some(Value::Obj(cls)) = cls else {
                return unknown();
            };
            let heap = self.space.heap();
            let classdef = self
                .bk
                .getdesc(heap, cls)
                .and_then(|d| self.bk.classdef_of_desc(heap, d));
            return match classdef {
                Ok(classdef) => SomeValue::Instance {
                    classdef,
                    can_be_none: flag(self, "can_be_None"),
                    konst: None,
                },
                Err(_) => unknown(),
            };
        }
        if self.is_model(v, m.model, "SomeList") {
            let item = self
                .attr(v, "listdef")
                .and_then(|d| self.attr(d, "s_item"))
                .map(|s| self.annotation_of_model(s))
                .unwrap_or_else(unknown);
            return SomeValue::List {
                def: self.bk.new_listdef(item),
                konst: None,
            };
        }
        match v {
            // the library's own kind of annotation (`SomeRule`)
            Value::Obj(o) if self.is_model(v, m.model, "SomeObject") => SomeValue::External(o),
            _ => unknown(),
        }
    }

    /// Annotates the calls the library's code asked for (`bk.emulate_pbc_call`).
    fn emulated_calls(&mut self) {
        let Some(m) = self.ext_modules() else { return };
        let Some(Value::Obj(list)) = self.attr(Value::Obj(m.bookkeeper), "_emulated") else {
            return;
        };
        let calls = match self.space.heap_mut().get_mut(list) {
            Object::List(items) => std::mem::take(items),
            _ => return,
        };
        for call in calls {
            let Value::Obj(t) = call else { continue };
            let (pbc, args) = match self.space.heap().get(t) {
                Object::Tuple(items) if items.len() == 2 => (items[0], items[1]),
                _ => continue,
            };
            let arg_values = match args {
                Value::Obj(a) => match self.space.heap().get(a) {
                    Object::List(items) => items.clone(),
                    _ => continue,
                },
                _ => continue,
            };
            let s_func = self.annotation_of_model(pbc);
            let args_s: Vec<SomeValue> = arg_values
                .into_iter()
                .map(|a| self.annotation_of_model(a))
                .collect();
            if let Err(e) = self.call_value(&s_func, &ArgsS::simple(args_s)) {
                let span = self.bk.span;
                self.report(e, span);
            }
        }
    }
}

/// The one graph of the function `hlinvoke(repr, f, *args)` calls: the graph the
/// library's annotator-level code had annotated (`emulate_pbc_call`).
pub(crate) fn hlinvoke_graph(
    bk: &super::Bookkeeper,
    s_f: Option<&SomeValue>,
) -> Result<u32, String> {
    let Some(SomeValue::Pbc { descs, .. }) = s_f else {
        return Err("hlinvoke() needs a function as its second argument".into());
    };
    let [d] = descs[..] else {
        return Err("hlinvoke() needs one function as its second argument".into());
    };
    let graphs: Vec<u32> = match bk.desc(d) {
        super::description::Desc::Function(f) => f.graphs.values().copied().collect(),
        _ => return Err("hlinvoke() needs a function as its second argument".into()),
    };
    match graphs[..] {
        [g] => Ok(g),
        [] => Err("hlinvoke() of a function no annotated code calls".into()),
        _ => Err("cannot hlinvoke a function with several specializations".into()),
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `hlinvoke(repr, f, *args)` in a library's low-level helper (rply's `ll_matches`):
    /// a call of the high-level function `f` with arguments already in the low-level
    /// types of its one graph. The graph is not annotated again (the reference does not
    /// either): the result is what that graph returns.
    pub(super) fn hlinvoke_result(
        &mut self,
        p: &[SomeValue],
    ) -> Result<SomeValue, super::AnnError> {
        let g =
            hlinvoke_graph(&self.bk, p.get(1)).map_err(|m| super::AnnError::new("RPY218", m))?;
        let graph = &self.graphs[g as usize];
        let ret = graph.block(graph.returnblock).inputargs[0];
        Ok(self.binding(g, ret))
    }
}
