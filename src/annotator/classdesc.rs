//! Class descriptions (`ClassDesc`): a class object as the annotator first sees it — its
//! name, base, class-level attributes (with `_mixin_` bases copied in), the instance
//! attributes it allows (`_attrs_`, `__slots__`) and its `_immutable_fields_`. Takes
//! a class of the object space; gives its description. The class as the program uses it
//! is its `ClassDef` (`classdef`).

use super::bookkeeper::Bookkeeper;
use super::description::{Desc, FunctionDesc};
use super::model::*;
use super::AnnError;
use crate::fasthash::{HashMap, HashSet};
use crate::objspace::object::{BuiltinType, Heap, ObjId, Object, Value};
use crate::syntax::Span;
use std::rc::Rc;

/// A class-level attribute of a `ClassDesc`.
#[derive(Clone, Debug)]
pub enum ClassAttr {
    Const(Value),
    /// A function copied from a `_mixin_` base, or a property's getter or setter as a
    /// method (`NAME__getter__`): its own description for this class.
    Desc(DescId),
}

/// The suffixes of the methods a property's getter and setter become.
pub const PROPERTY_GETTER: &str = "__getter__";
pub const PROPERTY_SETTER: &str = "__setter__";

/// A class object as the annotator sees it.
#[derive(Clone, Debug)]
pub struct ClassDesc {
    pub cls: ObjId,
    pub name: Rc<str>,
    pub basedesc: Option<DescId>,
    pub classdict: HashMap<Rc<str>, ClassAttr>,
    pub classdef: Option<ClassDefId>,
    pub is_exception: bool,
    pub is_builtin_exception: bool,
    /// `_attrs_` / `__slots__`: the only instance attributes allowed.
    pub enforced_attrs: Option<HashSet<Rc<str>>>,
    pub name_span: Option<Span>,
    /// The regular base when it is a built-in type other than `object` and the exceptions
    /// (`class OpSpec(tuple)`): the class can be named, but it has no class definition, so
    /// neither calling it nor using a prebuilt instance of it is RPython.
    pub builtin_base: Option<ObjId>,
}

/// Special methods RPython honours on user classes.
const HONOURED: &[&str] = &[
    "__init__",
    "__del__",
    "__len__",
    "__getitem__",
    "__setitem__",
    "__getslice__",
    "__setslice__",
    "__iter__",
    "__enter__",
    "__exit__",
];

fn is_mixin(heap: &Heap, cls: ObjId) -> bool {
    heap.class(cls).is_some_and(|c| {
        matches!(
            c.dict.get("_mixin_"),
            Some(Value::Bool(true)) | Some(Value::Int(1))
        )
    })
}

fn is_object(heap: &Heap, cls: ObjId) -> bool {
    heap.class(cls)
        .is_some_and(|c| c.builtin == Some(BuiltinType::Object))
}

impl ClassDesc {
    pub fn new(bk: &mut Bookkeeper, heap: &Heap, cls: ObjId) -> Result<ClassDesc, AnnError> {
        let c = heap.class(cls).expect("class");
        let name = c.name.clone();
        let name_span = c.name_span.or(c.span);
        if is_mixin(heap, cls) {
            return Err(AnnError::new(
                "RPY219",
                format!("cannot use the class `{}` directly: it is a _mixin_", name),
            )
            .at_opt(name_span));
        }
        let is_exception = Bookkeeper::is_exception_class(heap, cls);
        let is_builtin_exception = is_exception && c.builtin.is_some();
        let mut bases: Vec<ObjId> = c.bases.clone();
        if is_builtin_exception && &*name == "Exception" {
            bases.clear();
        } else if bases.len() == 1
            && heap
                .class(bases[0])
                .is_some_and(|b| b.builtin == Some(BuiltinType::BaseException))
        {
            if let Some(&exc) = bk.builtin_classes.get("Exception") {
                bases = vec![exc];
            }
        }
        let mut mixins_before = Vec::new();
        let mut mixins_after = Vec::new();
        let mut base: Option<ObjId> = None;
        for &b in &bases {
            if is_object(heap, b) {
                continue;
            }
            if is_mixin(heap, b) {
                if base.is_none() {
                    mixins_before.push(b);
                } else {
                    mixins_after.push(b);
                }
            } else if let Some(first) = base {
                return Err(AnnError::new(
                    "RPY219",
                    format!(
                        "class `{}` inherits from both `{}` and `{}`: multiple inheritance is only supported when the extra bases are _mixin_ classes",
                        name,
                        Bookkeeper::class_name(heap, first),
                        Bookkeeper::class_name(heap, b)
                    ),
                )
                .at_opt(name_span));
            } else {
                base = Some(b);
            }
        }
        if !mixins_before.is_empty() && !mixins_after.is_empty() {
            return Err(AnnError::new(
                "RPY219",
                format!(
                    "class `{}` has mixin bases both before and after its regular base",
                    name
                ),
            )
            .at_opt(name_span));
        }
        let mut desc = ClassDesc {
            cls,
            name: name.clone(),
            basedesc: None,
            classdict: HashMap::default(),
            classdef: None,
            is_exception,
            is_builtin_exception,
            enforced_attrs: None,
            name_span,
            builtin_base: base.filter(|&b| Bookkeeper::is_builtin_type(heap, b)),
        };
        desc.add_mixins(bk, heap, &mixins_after, base);
        desc.add_mixins(bk, heap, &mixins_before, None);
        let own: Vec<(Rc<str>, Value)> = c.dict.iter().map(|(k, v)| (k.clone(), v)).collect();
        for (k, v) in own {
            if is_builtin_exception && &*k == "__init__" {
                continue;
            }
            desc.add_property_accessors(bk, heap, &k, v);
            desc.classdict.insert(k, ClassAttr::Const(v));
        }
        if let Some(b) = base {
            if !Bookkeeper::is_builtin_type(heap, b) {
                desc.basedesc = Some(bk.getdesc(heap, b)?);
            }
        }
        // `_attrs_` and `__slots__` restrict instance attributes.
        let mut enforced: Option<HashSet<Rc<str>>> = None;
        for decl in ["__slots__", "_attrs_"] {
            if let Some(v) = c.dict.get(decl) {
                let set = enforced.get_or_insert_with(HashSet::default);
                for n in names_of(heap, v) {
                    set.insert(n);
                }
            }
        }
        if let Some(set) = &mut enforced {
            if let Some(bd) = desc.basedesc {
                match bk.class_desc(bd).and_then(|b| b.enforced_attrs.clone()) {
                    Some(b) => set.extend(b),
                    None => enforced = None,
                }
            }
        }
        if is_builtin_exception && enforced.is_none() && &*name != "EnvironmentError" {
            // Built-in exceptions have no attributes (only EnvironmentError's errno…).
            enforced = Some(HashSet::default());
        }
        desc.enforced_attrs = enforced;
        if c.builtin.is_none() {
            desc.warn_special_methods(bk, heap);
        }
        Ok(desc)
    }

    /// A property defined in this class body: its getter and setter also become methods
    /// `NAME__getter__` and `NAME__setter__` of the class (copies of the functions, as the
    /// reference's `add_source_attribute` makes with `func_with_new_name`), so reading or
    /// writing the property through an instance calls the method of the instance's own
    /// class: a subclass that redefines the property overrides it.
    fn add_property_accessors(
        &mut self,
        bk: &mut Bookkeeper,
        heap: &Heap,
        name: &Rc<str>,
        v: Value,
    ) {
        let Value::Obj(p) = v else { return };
        let Object::Property { fget, fset } = heap.get(p) else {
            return;
        };
        for (f, suffix) in [(*fget, PROPERTY_GETTER), (*fset, PROPERTY_SETTER)] {
            let Value::Obj(f) = f else { continue };
            if !matches!(heap.get(f), Object::Function(_)) {
                continue;
            }
            let meth: Rc<str> = Rc::from(format!("{}{}", name, suffix));
            let key = (f, self.cls, meth.clone());
            let d = match bk.property_funcs.get(&key) {
                Some(&d) => d,
                None => {
                    let d = bk.add_desc(Desc::Function(FunctionDesc::new(heap, f)));
                    bk.property_funcs.insert(key, d);
                    d
                }
            };
            self.classdict.insert(meth, ClassAttr::Desc(d));
        }
    }

    fn add_mixins(
        &mut self,
        bk: &mut Bookkeeper,
        heap: &Heap,
        mixins: &[ObjId],
        check_not_in: Option<ObjId>,
    ) {
        if mixins.is_empty() {
            return;
        }
        let mut skip: HashSet<Rc<str>> = HashSet::default();
        if let Some(b) = check_not_in {
            for &k in &heap.class(b).expect("class").mro {
                if let Some(kc) = heap.class(k) {
                    skip.extend(kc.dict.iter().map(|(n, _)| n.clone()));
                }
            }
        }
        // Later mixins in the list override earlier ones, as in a class statement the first
        // base wins: walk them in reverse MRO order.
        let mut order: Vec<ObjId> = Vec::new();
        for &m in mixins {
            for &k in &heap.class(m).expect("class").mro {
                if !is_object(heap, k) && !order.contains(&k) {
                    order.push(k);
                }
            }
        }
        for &m in order.iter().rev() {
            let entries: Vec<(Rc<str>, Value)> = heap
                .class(m)
                .expect("class")
                .dict
                .iter()
                .map(|(k, v)| (k.clone(), v))
                .collect();
            for (name, value) in entries {
                if skip.contains(&name) {
                    continue;
                }
                let attr = match value {
                    Value::Obj(f) if matches!(heap.get(f), Object::Function(_)) => {
                        let key = (f, self.cls);
                        let d = match bk.mixin_funcs.get(&key) {
                            Some(&d) => d,
                            None => {
                                let d = bk.add_desc(Desc::Function(FunctionDesc::new(heap, f)));
                                bk.mixin_funcs.insert(key, d);
                                d
                            }
                        };
                        ClassAttr::Desc(d)
                    }
                    v => ClassAttr::Const(v),
                };
                self.classdict.insert(name, attr);
            }
        }
    }

    fn warn_special_methods(&self, bk: &mut Bookkeeper, heap: &Heap) {
        let mut names: Vec<(&Rc<str>, &ClassAttr)> = self.classdict.iter().collect();
        names.sort_by(|a, b| a.0.cmp(b.0));
        for (name, attr) in names {
            if !(name.starts_with("__") && name.ends_with("__") && name.len() > 4)
                || HONOURED.contains(&&**name)
            {
                continue;
            }
            let func = match attr {
                ClassAttr::Const(Value::Obj(f)) => match heap.get(*f) {
                    Object::Function(func) => Some(func.code.name_span),
                    _ => None,
                },
                _ => None,
            };
            let Some(span) = func else { continue };
            bk.warn(
                "RPY214",
                span,
                format!(
                    "`{}.{}` is not honoured by RPython: only __init__, __del__, __len__, __getitem__, __setitem__, __getslice__, __setslice__ and __iter__ are",
                    self.name, name
                ),
                Vec::new(),
            );
        }
    }

    /// The class (this one or a base) whose dict defines `name`.
    pub fn lookup(bk: &Bookkeeper, desc: DescId, name: &str) -> Option<DescId> {
        let mut d = Some(desc);
        while let Some(x) = d {
            let cd = bk.class_desc(x)?;
            if cd.classdict.contains_key(name) {
                return Some(x);
            }
            d = cd.basedesc;
        }
        None
    }
}

impl Bookkeeper {
    /// Whether instances of `cd` declare the list field `attr` with immutable items
    /// (`attr[*]` or `attr?[*]` in `_immutable_fields_` of their class or a base).
    pub fn is_immutable_list_field(&self, heap: &Heap, cd: ClassDefId, attr: &str) -> bool {
        let Some(cls) = self.class_desc(self.classdef(cd).desc).map(|c| c.cls) else {
            return false;
        };
        let Some(c) = heap.class(cls) else {
            return false;
        };
        let declares = |n: &str| {
            n.strip_suffix("[*]").is_some_and(|p| p == attr)
                || n.strip_suffix("?[*]").is_some_and(|p| p == attr)
        };
        c.mro.iter().any(|&k| {
            heap.class(k)
                .and_then(|kc| kc.dict.get("_immutable_fields_"))
                .is_some_and(|v| any_name(heap, v, &declares))
        })
    }
}

/// Whether one of the names of `v` (as [`names_of`] lists them) satisfies `f`, without
/// making the list (the typer asks this for every list field it reads).
fn any_name(heap: &Heap, v: Value, f: &impl Fn(&str) -> bool) -> bool {
    match v {
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => f(&String::from_utf8_lossy(s)),
            Object::Tuple(items) | Object::List(items) => {
                items.iter().any(|&x| any_name(heap, x, f))
            }
            _ => false,
        },
        _ => false,
    }
}

fn names_of(heap: &Heap, v: Value) -> Vec<Rc<str>> {
    match v {
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => vec![Rc::from(String::from_utf8_lossy(s).as_ref())],
            Object::Tuple(items) | Object::List(items) => {
                items.iter().flat_map(|&x| names_of(heap, x)).collect()
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}
