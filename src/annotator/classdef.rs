//! User classes (seed 001, "User-defined Classes and Instances"): a `ClassDesc` per class
//! object (its class-level attributes, its base; in `classdesc`), and a `ClassDef` per class as the program
//! uses it: the attributes read and written on its instances, each with one annotation and
//! the positions that read it.
//!
//! An attribute lives on the most general class it is used through: reading `x.a` where `x`
//! is an instance of `Base` forces `a` onto `Base`, merging what the subclasses had. Class
//! attributes (and attributes of prebuilt instances) are sources of initial values.

use super::bookkeeper::Bookkeeper;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::fasthash::{HashMap, HashSet};
use crate::objspace::object::{Heap, ObjId, Object, Value};
use crate::syntax::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

// Re-exported: the rest of the crate names class descriptions through this module.
pub use super::classdesc::{ClassAttr, ClassDesc, PROPERTY_GETTER, PROPERTY_SETTER};

/// An instance attribute of a class definition.
#[derive(Clone, Debug)]
pub struct AttrDef {
    pub s_value: SomeValue,
    /// No instance writes it (a constant class attribute, typically a method).
    pub readonly: bool,
    pub read_locations: BTreeSet<Position>,
    /// Where its type was first established.
    pub origin: Option<Span>,
}

impl AttrDef {
    fn new() -> AttrDef {
        AttrDef {
            s_value: SomeValue::Impossible,
            readonly: true,
            read_locations: BTreeSet::new(),
            origin: None,
        }
    }
}

/// Where a class-level initial value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrSource {
    /// The class dict of a ClassDesc (or its mixins).
    Class(DescId),
    /// A prebuilt instance's own attribute.
    Instance(ObjId),
}

impl AttrSource {
    fn instance_level(self) -> bool {
        matches!(self, AttrSource::Instance(_))
    }
}

#[derive(Clone, Debug)]
pub struct ClassDef {
    pub desc: DescId,
    pub name: Rc<str>,
    pub basedef: Option<ClassDefId>,
    pub subdefs: Vec<ClassDefId>,
    pub attrs: HashMap<Rc<str>, AttrDef>,
    pub attr_sources: HashMap<Rc<str>, Vec<AttrSource>>,
    pub instances_seen: HashSet<ObjId>,
}

impl Bookkeeper {
    pub fn classdef_of_desc(&mut self, heap: &Heap, d: DescId) -> Result<ClassDefId, AnnError> {
        let (existing, basedesc, name) = match self.desc(d) {
            Desc::Class(c) => (c.classdef, c.basedesc, c.name.clone()),
            _ => return Err(AnnError::new("RPY217", "not a class".to_string())),
        };
        if let Some(cd) = existing {
            return Ok(cd);
        }
        if let Some((b, span)) = self
            .class_desc(d)
            .and_then(|c| Some((c.builtin_base?, c.name_span)))
        {
            let e = AnnError::new(
                "RPY219",
                format!(
                    "class `{}` derives from the built-in type `{}`: RPython code cannot create or use its instances (a class may derive only from object, an exception class or another RPython class)",
                    name,
                    Bookkeeper::class_name(heap, b)
                ),
            );
            return Err(match span {
                Some(sp) => e.label(sp, format!("`{}` is defined here", name)),
                None => e,
            });
        }
        let basedef = match basedesc {
            Some(b) => Some(self.classdef_of_desc(heap, b)?),
            None => None,
        };
        let id = ClassDefId(self.classdefs.len() as u32);
        self.classdefs.push(ClassDef {
            desc: d,
            name,
            basedef,
            subdefs: Vec::new(),
            attrs: HashMap::default(),
            attr_sources: HashMap::default(),
            instances_seen: HashSet::default(),
        });
        if let Desc::Class(c) = self.desc_mut(d) {
            c.classdef = Some(id);
        }
        if let Some(b) = basedef {
            self.classdefs[b.index()].subdefs.push(id);
        }
        // Attributes that built-in exception classes always have.
        let cls = self.class_desc(d).expect("class").cls;
        let cname = Bookkeeper::class_name(heap, cls);
        if self.class_desc(d).is_some_and(|c| c.is_builtin_exception)
            && &*cname == "EnvironmentError"
        {
            for (attr, s) in [
                ("errno", SomeValue::int()),
                (
                    "strerror",
                    SomeValue::Str {
                        can_be_none: true,
                        no_nul: false,
                        konst: None,
                    },
                ),
                (
                    "filename",
                    SomeValue::Str {
                        can_be_none: true,
                        no_nul: false,
                        konst: None,
                    },
                ),
            ] {
                self.generalize_attr(heap, id, &Rc::from(attr), Some(s))?;
                if let Some(a) = self.classdefs[id.index()].attrs.get_mut(attr) {
                    a.readonly = false;
                }
            }
        }
        if self
            .class_desc(d)
            .is_some_and(|c| c.classdict.contains_key("__del__"))
        {
            self.pending_del.push(id);
        }
        let mut names: Vec<Rc<str>> = self
            .class_desc(d)
            .expect("class")
            .classdict
            .keys()
            .cloned()
            .collect();
        names.sort();
        for n in names {
            self.add_source_for_attribute(heap, id, &n, AttrSource::Class(d))?;
        }
        Ok(id)
    }

    /// The class definition and its bases, most derived first.
    pub fn mro_defs(&self, cd: ClassDefId) -> Vec<ClassDefId> {
        self.mro_iter(cd).collect()
    }

    /// [`Bookkeeper::mro_defs`] without the vector (attribute lookups walk it often).
    pub fn mro_iter(&self, cd: ClassDefId) -> impl Iterator<Item = ClassDefId> + '_ {
        std::iter::successors(Some(cd), move |c| self.classdefs[c.index()].basedef)
    }

    pub fn issubclass_def(&self, a: ClassDefId, b: ClassDefId) -> bool {
        let mut c = Some(a);
        while let Some(x) = c {
            if x == b {
                return true;
            }
            c = self.classdefs[x.index()].basedef;
        }
        false
    }

    /// The most precise common base class definition.
    pub fn commonbase(&self, a: ClassDefId, b: ClassDefId) -> Option<ClassDefId> {
        let mut other = Some(b);
        while let Some(o) = other {
            if self.issubclass_def(a, o) {
                return Some(o);
            }
            other = self.classdefs[o.index()].basedef;
        }
        None
    }

    pub fn getallsubdefs(&self, cd: ClassDefId) -> Vec<ClassDefId> {
        let mut out = vec![cd];
        // A set beside the list: a base with thousands of subclasses is common in VMs.
        let mut seen: crate::fasthash::HashSet<ClassDefId> = out.iter().copied().collect();
        let mut i = 0;
        while i < out.len() {
            for &s in &self.classdefs[out[i].index()].subdefs {
                if seen.insert(s) {
                    out.push(s);
                }
            }
            i += 1;
        }
        out
    }

    pub fn get_owner(&self, cd: ClassDefId, attr: &str) -> Option<ClassDefId> {
        self.mro_iter(cd)
            .find(|c| self.classdefs[c.index()].attrs.contains_key(attr))
    }

    pub fn locate_attribute(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
    ) -> Result<ClassDefId, AnnError> {
        if let Some(owner) = self.get_owner(cd, attr) {
            return Ok(owner);
        }
        self.generalize_attr_at(heap, cd, attr, None)?;
        Ok(cd)
    }

    /// Makes sure the attribute exists for instances of `cd`; returns its owner.
    pub fn find_attribute(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
    ) -> Result<ClassDefId, AnnError> {
        self.locate_attribute(heap, cd, attr)
    }

    /// A union failure of attribute `attr` of `cd`: `old` (established at `origin`) and
    /// `new` do not mix.
    fn attr_error(
        &self,
        heap: &Heap,
        (cd, attr): (ClassDefId, &str),
        (old, new): (&SomeValue, &SomeValue),
        origin: Option<Span>,
        e: &AnnError,
    ) -> AnnError {
        let mut err = AnnError::new(
            "RPY203",
            format!(
                "attribute `{}` of `{}` instances cannot be both {} and {}{}",
                attr,
                self.classdefs[cd.index()].name,
                self.describe_type(heap, old),
                self.describe_type(heap, new),
                e.detail_suffix()
            ),
        )
        .stage_of(e);
        if let Some(o) = origin {
            err = err.label(
                o,
                format!(
                    "`{}` is {} because of this",
                    attr,
                    self.describe_type(heap, old)
                ),
            );
        }
        err
    }

    /// Creates (or re-creates, more general) the attribute on `cd`, absorbing the ones of
    /// its subclasses and the constant sources above and below.
    fn generalize_attr_at(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
        s_value: Option<SomeValue>,
    ) -> Result<(), AnnError> {
        let mut newattr = AttrDef::new();
        if let Some(s) = s_value {
            if !s.is_impossible() {
                newattr.origin = Some(self.span);
            }
            newattr.s_value = s;
        }
        let mut constant_sources: Vec<(ClassDefId, AttrSource)> = Vec::new();
        for sub in self.getallsubdefs(cd) {
            if let Some(subattr) = self.classdefs[sub.index()].attrs.remove(attr) {
                let merged = match self.union(heap, &newattr.s_value, &subattr.s_value) {
                    Ok(u) => u,
                    Err(e) => {
                        // The attribute is poisoned: what reads it later is a consequence
                        // of this error, not another one (the reference stops here).
                        let err = self.attr_error(
                            heap,
                            (cd, attr),
                            (&subattr.s_value, &newattr.s_value),
                            subattr.origin,
                            &e,
                        );
                        let mut subattr = subattr;
                        subattr.s_value = SomeValue::Error;
                        self.classdefs[sub.index()]
                            .attrs
                            .insert(attr.clone(), subattr);
                        self.update_attr(sub, attr);
                        return Err(err);
                    }
                };
                if newattr.s_value.is_impossible() || newattr.origin.is_none() {
                    newattr.origin = subattr.origin.or(newattr.origin);
                } else if subattr.origin.is_some() && !subattr.s_value.is_impossible() {
                    newattr.origin = subattr.origin;
                }
                newattr.s_value = merged;
                newattr.readonly &= subattr.readonly;
                newattr.read_locations.extend(subattr.read_locations);
            }
            if let Some(lst) = self.classdefs[sub.index()].attr_sources.get_mut(attr) {
                for src in std::mem::take(lst) {
                    constant_sources.push((sub, src));
                }
            }
        }
        for sup in self.mro_iter(cd) {
            if let Some(lst) = self.classdefs[sup.index()].attr_sources.get(attr) {
                for &src in lst {
                    if !src.instance_level() {
                        constant_sources.push((sup, src));
                    }
                }
            }
        }
        let written = !newattr.readonly;
        self.classdefs[cd.index()]
            .attrs
            .insert(attr.clone(), newattr);
        self.add_constant_sources(heap, cd, attr, constant_sources)?;
        self.update_attr(cd, attr);
        let allowed = self.check_attr_allowed(cd, attr, written);
        if allowed.is_err() {
            self.attrs_forbidden_by_read.insert((cd, attr.clone()));
        }
        allowed
    }

    /// An attribute some code writes, moved up to class `cd` whose instances may not have
    /// it (`_attrs_`, `__slots__`, a built-in exception): as the reference, an error (the
    /// attribute read through a variable of that class, e.g. an exception caught where
    /// several classes meet). Writes check the declaration themselves first.
    fn check_attr_allowed(
        &self,
        cd: ClassDefId,
        attr: &Rc<str>,
        written: bool,
    ) -> Result<(), AnnError> {
        let Some(c) = self.class_desc(self.classdefs[cd.index()].desc) else {
            return Ok(());
        };
        match &c.enforced_attrs {
            Some(allowed) if written && !allowed.contains(attr) => {
                let why = if c.is_builtin_exception {
                    format!(
                        "instances of the built-in exception `{}` cannot have attributes",
                        c.name
                    )
                } else {
                    format!(
                        "it is not listed in the `_attrs_` / `__slots__` of `{}`",
                        c.name
                    )
                };
                Err(AnnError::new(
                    "RPY204",
                    format!(
                        "attribute `{attr}` is read on an instance known only as `{}` here (several classes meet), but {why}: read it where the value is known to be of the class that has it",
                        c.name
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Generalizes the attribute (on its owner, or on `cd` when new) to contain `s`.
    pub fn generalize_attr(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
        s: Option<SomeValue>,
    ) -> Result<(), AnnError> {
        let owner = self.get_owner(cd, attr).unwrap_or(cd);
        self.generalize_attr_at(heap, owner, attr, s)
    }

    fn update_attr(&mut self, cd: ClassDefId, attr: &str) {
        if let Some(a) = self.classdefs[cd.index()].attrs.get(attr) {
            self.reflow.extend(a.read_locations.iter().copied());
        }
    }

    /// The annotation a source gives to `attr`, bound for instances of `origin`.
    fn source_value(
        &mut self,
        heap: &Heap,
        origin: ClassDefId,
        attr: &Rc<str>,
        src: AttrSource,
    ) -> Result<SomeValue, AnnError> {
        match src {
            AttrSource::Class(d) => self.class_attr_value(heap, d, Some(origin), attr),
            AttrSource::Instance(obj) => {
                let v = match heap.get(obj) {
                    Object::Instance(inst) => inst.dict.get(attr),
                    _ => None,
                };
                match v {
                    Some(v) => self.immutablevalue(heap, v),
                    None => Ok(SomeValue::Impossible),
                }
            }
        }
    }

    /// Value of a class attribute of `desc` (looked up in its dict only); bound as a method
    /// for instances of `bind_to` when it is a function.
    pub fn class_attr_value(
        &mut self,
        heap: &Heap,
        desc: DescId,
        bind_to: Option<ClassDefId>,
        attr: &Rc<str>,
    ) -> Result<SomeValue, AnnError> {
        let Some(a) = self
            .class_desc(desc)
            .and_then(|c| c.classdict.get(attr))
            .cloned()
        else {
            return Ok(SomeValue::Impossible);
        };
        match a {
            ClassAttr::Const(v) => {
                let (v, bind_to) = match v {
                    Value::Obj(id) => match heap.get(id) {
                        Object::StaticMethod(f) => (*f, None),
                        Object::ClassMethod(_) => {
                            return Err(AnnError::new(
                                "RPY217",
                                format!(
                                    "`{}` is a classmethod: classmethods are not supported",
                                    attr
                                ),
                            ))
                        }
                        Object::Property { .. } => return Ok(SomeValue::Impossible),
                        _ => (v, bind_to),
                    },
                    _ => (v, bind_to),
                };
                let s = self.immutablevalue(heap, v)?;
                Ok(match bind_to {
                    Some(cd) => self.bind_callables_under(&s, cd, attr),
                    None => s,
                })
            }
            ClassAttr::Desc(d) => {
                let s = SomeValue::pbc(vec![d]);
                Ok(match bind_to {
                    Some(cd) => self.bind_callables_under(&s, cd, attr),
                    None => s,
                })
            }
        }
    }

    /// Functions found as class attributes become methods of `cd` (not yet bound to a
    /// particular `self` class).
    pub fn bind_callables_under(
        &mut self,
        s: &SomeValue,
        cd: ClassDefId,
        name: &Rc<str>,
    ) -> SomeValue {
        let SomeValue::Pbc { descs, can_be_none } = s else {
            return s.clone();
        };
        let mut out = Vec::with_capacity(descs.len());
        for &d in descs.iter() {
            out.push(match self.desc(d) {
                Desc::Function(_) => self.getmethoddesc(d, cd, None, name),
                Desc::Method(m) => {
                    let f = m.func;
                    self.getmethoddesc(f, cd, None, name)
                }
                _ => d,
            });
        }
        let mut r = SomeValue::pbc(out);
        if let SomeValue::Pbc { can_be_none: c, .. } = &mut r {
            *c = *can_be_none;
        }
        r
    }

    fn add_constant_source(
        &mut self,
        heap: &Heap,
        owner: ClassDefId,
        origin: ClassDefId,
        attr: &Rc<str>,
        src: AttrSource,
    ) -> Result<bool, AnnError> {
        let s = self.source_value(heap, origin, attr, src)?;
        self.add_constant_value(heap, owner, origin, attr, src, s)
    }

    /// The class-body statement that gives `attr` its value in source `src`.
    fn source_span(
        &self,
        heap: &Heap,
        attr: &Rc<str>,
        src: AttrSource,
    ) -> Option<crate::syntax::Span> {
        match src {
            AttrSource::Class(d) => self
                .class_desc(d)
                .and_then(|c| heap.class(c.cls))
                .and_then(|k| k.attr_span(attr)),
            AttrSource::Instance(_) => None,
        }
    }

    /// Adds the constant sources of `attr` (found when the attribute was created on
    /// `owner`), in order. A run of sources that are all prebuilt callables of one kind
    /// (a method and its overrides in every subclass) is merged in one union: the same
    /// result as one union per source, without a pass over the growing set for each.
    fn add_constant_sources(
        &mut self,
        heap: &Heap,
        owner: ClassDefId,
        attr: &Rc<str>,
        sources: Vec<(ClassDefId, AttrSource)>,
    ) -> Result<(), AnnError> {
        if sources.len() < 8 {
            for (origin, src) in sources {
                self.add_constant_source(heap, owner, origin, attr, src)?;
            }
            return Ok(());
        }
        let mut batch: Vec<(ClassDefId, AttrSource, SomeValue)> = Vec::new();
        for (origin, src) in sources {
            let s = match self.source_value(heap, origin, attr, src) {
                Ok(s) => s,
                Err(e) => {
                    self.commit_pbc_batch(heap, owner, attr, &mut batch);
                    return Err(e);
                }
            };
            let current = &self.classdefs[owner.index()].attrs[attr].s_value;
            if self.pbc_batchable(current, batch.first().map(|b| &b.2), &s) {
                batch.push((origin, src, s));
                continue;
            }
            self.commit_pbc_batch(heap, owner, attr, &mut batch);
            self.add_constant_value(heap, owner, origin, attr, src, s)?;
        }
        self.commit_pbc_batch(heap, owner, attr, &mut batch);
        Ok(())
    }

    /// Merges a batch of `add_constant_sources` into the attribute.
    fn commit_pbc_batch(
        &mut self,
        heap: &Heap,
        owner: ClassDefId,
        attr: &Rc<str>,
        batch: &mut Vec<(ClassDefId, AttrSource, SomeValue)>,
    ) {
        if batch.is_empty() {
            return;
        }
        let batch = std::mem::take(batch);
        let current = self.classdefs[owner.index()].attrs[attr].s_value.clone();
        let values: Vec<SomeValue> = batch.iter().map(|b| b.2.clone()).collect();
        let merged = self.union_pbc_run(heap, &current, &values);
        let mut origin = self.classdefs[owner.index()].attrs[attr].origin;
        let mut instance_level = false;
        for (o, src, s) in &batch {
            instance_level |= src.instance_level();
            if origin.is_none() && !s.is_impossible() {
                let span = self.span;
                origin = self
                    .source_span(heap, attr, *src)
                    .or_else(|| {
                        self.class_desc(self.classdefs[o.index()].desc)
                            .and_then(|c| c.name_span)
                    })
                    .or(Some(span));
            }
        }
        let at = self.classdefs[owner.index()]
            .attrs
            .get_mut(attr)
            .expect("attribute");
        if instance_level {
            at.readonly = false;
        }
        at.origin = origin;
        at.s_value = merged;
    }

    fn add_constant_value(
        &mut self,
        heap: &Heap,
        owner: ClassDefId,
        origin: ClassDefId,
        attr: &Rc<str>,
        src: AttrSource,
        s: SomeValue,
    ) -> Result<bool, AnnError> {
        let a = self.classdefs[owner.index()]
            .attrs
            .get(attr)
            .expect("attribute")
            .clone();
        // The class-body statement that gives this value.
        let src_span = match src {
            AttrSource::Class(d) => self
                .class_desc(d)
                .and_then(|c| heap.class(c.cls))
                .and_then(|k| k.attr_span(attr)),
            AttrSource::Instance(_) => None,
        };
        let merged = match self.union(heap, &a.s_value, &s) {
            Ok(u) => u,
            Err(e) => {
                let mut err = self.attr_error(heap, (owner, attr), (&a.s_value, &s), a.origin, &e);
                if let Some(sp) = src_span.filter(|sp| Some(*sp) != a.origin) {
                    let what = self.describe_type(heap, &s);
                    err = err.label(sp, format!("`{}` is {} here", attr, what));
                }
                return Err(err);
            }
        };
        let changed = !self.eq(heap, &merged, &a.s_value);
        let span = self.span;
        let cdesc_span = src_span.or_else(|| {
            self.class_desc(self.classdefs[origin.index()].desc)
                .and_then(|c| c.name_span)
        });
        let at = self.classdefs[owner.index()]
            .attrs
            .get_mut(attr)
            .expect("attribute");
        if src.instance_level() {
            at.readonly = false;
        }
        if at.origin.is_none() && !s.is_impossible() {
            at.origin = cdesc_span.or(Some(span));
        }
        at.s_value = merged;
        Ok(changed)
    }

    pub fn add_source_for_attribute(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
        src: AttrSource,
    ) -> Result<(), AnnError> {
        for c in self.mro_defs(cd) {
            if self.classdefs[c.index()].attrs.contains_key(attr) {
                if self.add_constant_source(heap, c, cd, attr, src)? {
                    self.update_attr(c, attr);
                }
                return Ok(());
            }
        }
        self.classdefs[cd.index()]
            .attr_sources
            .entry(attr.clone())
            .or_default()
            .push(src);
        if !src.instance_level() {
            for sub in self.getallsubdefs(cd) {
                if self.classdefs[sub.index()].attrs.contains_key(attr)
                    && self.add_constant_source(heap, sub, cd, attr, src)?
                {
                    self.update_attr(sub, attr);
                }
            }
        }
        Ok(())
    }

    /// A prebuilt instance of `cd` was found: its own attributes are sources.
    pub fn see_instance(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        obj: ObjId,
    ) -> Result<(), AnnError> {
        if !self.classdefs[cd.index()].instances_seen.insert(obj) {
            return Ok(());
        }
        let names: Vec<Rc<str>> = match heap.get(obj) {
            Object::Instance(inst) => inst.dict.iter().map(|(k, _)| k.clone()).collect(),
            _ => Vec::new(),
        };
        for n in names {
            self.add_source_for_attribute(heap, cd, &n, AttrSource::Instance(obj))?;
        }
        Ok(())
    }

    /// Reads `attr` on an instance of `cd` at the current position.
    pub fn s_getattr(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
    ) -> Result<SomeValue, AnnError> {
        let owner = self.find_attribute(heap, cd, attr)?;
        let pos = self.position;
        let a = self.classdefs[owner.index()]
            .attrs
            .get_mut(attr)
            .expect("attribute");
        a.read_locations.insert(pos);
        let s = a.s_value.clone();
        Ok(match s {
            SomeValue::Pbc { .. } => self.lookup_filter(cd, &s),
            s => s,
        })
    }

    /// `inst.attr = s` on an instance of `cd`.
    pub fn setattr_instance(
        &mut self,
        heap: &Heap,
        cd: ClassDefId,
        attr: &Rc<str>,
        s: &SomeValue,
    ) -> Result<(), AnnError> {
        let owner = self.locate_attribute(heap, cd, attr)?;
        self.note_known_write(cd, attr, s);
        let odesc = self.classdefs[owner.index()].desc;
        if let Some(c) = self.class_desc(odesc) {
            if let Some(allowed) = &c.enforced_attrs {
                if !allowed.contains(attr) {
                    let msg = if c.is_builtin_exception {
                        format!(
                            "instances of the built-in exception `{}` cannot have attributes in RPython (`{}`): define a subclass with the attributes",
                            c.name, attr
                        )
                    } else {
                        format!(
                            "attribute `{}` cannot be set on instances of `{}`: it is not listed in the class's `_attrs_` / `__slots__`",
                            attr, c.name
                        )
                    };
                    // Poison the attribute so that reading it does not report again
                    // (once: generalizing again would reflow its readers forever when
                    // the writer is one of them).
                    let poisoned = self.classdefs[owner.index()]
                        .attrs
                        .get(attr)
                        .is_some_and(|a| matches!(a.s_value, SomeValue::Error));
                    // a write on a subclass, to an attribute a read through `owner`
                    // moved there: the read is the mistake, reported where it is (as
                    // the reference, which stops there)
                    let moved_by_read = owner != cd
                        && self
                            .attrs_forbidden_by_read
                            .contains(&(owner, attr.clone()));
                    if !poisoned {
                        let r = self.generalize_attr_at(heap, owner, attr, Some(SomeValue::Error));
                        if !moved_by_read {
                            r?;
                        }
                    }
                    if moved_by_read {
                        return Ok(());
                    }
                    return Err(AnnError::new("RPY204", msg));
                }
            }
        }
        let a = self.classdefs[owner.index()]
            .attrs
            .get_mut(attr)
            .expect("attribute");
        a.readonly = false;
        let old = a.s_value.clone();
        if self.contains(heap, &old, s) {
            return Ok(());
        }
        self.generalize_attr_at(heap, owner, attr, Some(s.clone()))
    }

    /// Remembers `s` written to `attr` of instances of `cd` when it is not a list (the
    /// first such value: no union, which would merge list and dict definitions).
    fn note_known_write(&mut self, cd: ClassDefId, attr: &Rc<str>, s: &SomeValue) {
        if super::checks::not_a_list(s) {
            self.known_attr_writes
                .entry((cd, attr.clone()))
                .or_insert_with(|| s.clone());
        }
    }

    /// Keeps the methods of a PBC that can be seen on an instance of `cd`, bound to their
    /// most precise `self` class.
    pub fn lookup_filter(&mut self, cd: ClassDefId, pbc: &SomeValue) -> SomeValue {
        let SomeValue::Pbc { descs, can_be_none } = pbc else {
            return pbc.clone();
        };
        if let Some(r) = self.pbc_memo.filter(cd, descs, *can_be_none) {
            return r;
        }
        let r = if descs.len() >= super::pbcmemo::MIN_LEN {
            self.lookup_filter_indexed(cd, descs, *can_be_none)
        } else {
            self.lookup_filter_uncached(cd, descs, *can_be_none)
        };
        self.pbc_memo.set_filter(cd, descs, *can_be_none, &r);
        r
    }

    /// `lookup_filter` on a large set through its index by origin class: visits only the
    /// subclasses and the bases of `cd`, not every method of the family (the same result,
    /// new method descriptions created in the same order).
    fn lookup_filter_indexed(
        &mut self,
        cd: ClassDefId,
        descs: &Rc<[DescId]>,
        can_be_none: bool,
    ) -> SomeValue {
        if self.pbc_memo.origin_index(descs).is_none() {
            let mut index = super::pbcmemo::OriginIndex::default();
            for (i, &d) in descs.iter().enumerate() {
                match self.desc(d) {
                    Desc::Method(m) if m.selfclassdef.is_none() => {
                        index.by_origin.entry(m.origin).or_default().push(i)
                    }
                    _ => index.others.push(i),
                }
            }
            self.pbc_memo.set_origin_index(descs, index);
        }
        let index = self.pbc_memo.origin_index(descs).expect("index");
        let mut positions = index.others.clone();
        for sub in self.getallsubdefs(cd).into_iter().skip(1) {
            if let Some(p) = index.by_origin.get(&sub) {
                positions.extend(p.iter().copied());
            }
        }
        // The most precise class above `cd` (itself included) defining the method; the last
        // description for it, as the scan in description order keeps.
        let uplookup = self
            .mro_iter(cd)
            .find_map(|c| index.by_origin.get(&c).and_then(|p| p.last().copied()));
        positions.sort_unstable();
        let mut out = Vec::with_capacity(positions.len() + 1);
        for i in positions {
            out.push(self.bound_method(descs[i], None));
        }
        self.filtered_pbc(cd, out, uplookup.map(|i| descs[i]), can_be_none)
    }

    /// `d` itself, or for an unbound method description the one bound to `to` (by
    /// default to the class that defines the method).
    fn bound_method(&mut self, d: DescId, to: Option<ClassDefId>) -> DescId {
        match self.desc(d) {
            Desc::Method(m) if m.selfclassdef.is_none() => {
                let (func, origin, name) = (m.func, m.origin, m.name.clone());
                self.getmethoddesc(func, origin, Some(to.unwrap_or(origin)), &name)
            }
            _ => d,
        }
    }

    /// The result of `lookup_filter`: the descriptions kept (`out`), then the method
    /// found in `cd` or above it (`uplookup`) bound to `cd`.
    fn filtered_pbc(
        &mut self,
        cd: ClassDefId,
        mut out: Vec<DescId>,
        uplookup: Option<DescId>,
        can_be_none: bool,
    ) -> SomeValue {
        if let Some(d) = uplookup {
            out.push(self.bound_method(d, Some(cd)));
        }
        if !out.is_empty() {
            let mut r = SomeValue::pbc(out);
            if let SomeValue::Pbc { can_be_none: c, .. } = &mut r {
                *c = can_be_none;
            }
            r
        } else if can_be_none {
            SomeValue::None
        } else {
            SomeValue::Impossible
        }
    }

    fn lookup_filter_uncached(
        &mut self,
        cd: ClassDefId,
        descs: &[DescId],
        can_be_none: bool,
    ) -> SomeValue {
        let mut out = Vec::new();
        let mut uplookup: Option<(ClassDefId, DescId)> = None;
        for &d in descs.iter() {
            match self.desc(d) {
                Desc::Method(m) if m.selfclassdef.is_none() => {
                    let methcd = m.origin;
                    if methcd != cd && self.issubclass_def(methcd, cd) {
                        out.push(self.bound_method(d, None));
                    } else if self.issubclass_def(cd, methcd)
                        && uplookup.is_none_or(|(u, _)| self.issubclass_def(methcd, u))
                    {
                        uplookup = Some((methcd, d));
                    }
                }
                _ => out.push(d),
            }
        }
        self.filtered_pbc(cd, out, uplookup.map(|(_, d)| d), can_be_none)
    }

    /// `__init__` (or another attribute) looked up in the class dicts, unbound.
    pub fn s_read_class_attribute(
        &mut self,
        heap: &Heap,
        desc: DescId,
        name: &Rc<str>,
    ) -> Result<SomeValue, AnnError> {
        match ClassDesc::lookup(self, desc, name) {
            Some(d) => self.class_attr_value(heap, d, None, name),
            None => Ok(SomeValue::Impossible),
        }
    }

    /// The method that reads (`suffix` PROPERTY_GETTER) or writes (PROPERTY_SETTER) the
    /// property `name` of instances of `cd`, when the class defining the property has it
    /// (`ClassDesc::add_property_accessors`).
    pub fn property_method(
        &self,
        heap: &Heap,
        cd: ClassDefId,
        name: &str,
        suffix: &str,
    ) -> Option<Rc<str>> {
        self.find_property(heap, cd, name)?;
        let desc = self.classdefs[cd.index()].desc;
        let owner = ClassDesc::lookup(self, desc, name)?;
        let meth = format!("{}{}", name, suffix);
        let cdesc = self.class_desc(owner)?;
        let (k, _) = cdesc.classdict.get_key_value(meth.as_str())?;
        Some(k.clone())
    }

    /// A property defined for instances of `cd` under `name` (its getter and setter).
    pub fn find_property(&self, heap: &Heap, cd: ClassDefId, name: &str) -> Option<(Value, Value)> {
        let desc = self.classdefs[cd.index()].desc;
        let d = ClassDesc::lookup(self, desc, name)?;
        match self.class_desc(d)?.classdict.get(name)? {
            ClassAttr::Const(Value::Obj(p)) => match heap.get(*p) {
                Object::Property { fget, fset } => Some((*fget, *fset)),
                _ => None,
            },
            _ => None,
        }
    }
}
