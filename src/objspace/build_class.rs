//! Class creation at import time: a class statement (`make_class`, which applies the
//! metaclass: `__metaclass__` of the body or of a base, a `type` subclass or a function)
//! and `type(name, bases, namespace)` (`make_class_plain`), and the MRO (C3). Takes the
//! class body's namespace, gives the class object; attribute lookup on it is in `attrs`.

use super::attrs::UNKNOWN_BASE_ATTR;
use super::object::{AttrMap, BuiltinType, Class, ObjId, Object, Value};
use super::pydict_order::PyTable;
use super::{ObjSpace, R};
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use std::rc::Rc;

impl ObjSpace {
    /// C3 linearization; depth-first left-to-right when C3 fails.
    fn compute_mro(&self, cls: ObjId, bases: &[ObjId]) -> Vec<ObjId> {
        // Single inheritance (the usual case, and long class chains): C3 is the base's MRO.
        if let [base] = bases {
            let mut out = Vec::with_capacity(self.mro(*base).len() + 1);
            out.push(cls);
            out.extend_from_slice(self.mro(*base));
            return out;
        }
        let mut seqs: Vec<Vec<ObjId>> = bases.iter().map(|&b| self.mro(b).to_vec()).collect();
        seqs.push(bases.to_vec());
        // C3 merge in O(total length × number of sequences): each sequence is read from a
        // moving start, and `in_tails` counts the occurrences of a class past the starts.
        let mut starts = vec![0usize; seqs.len()];
        let mut in_tails: HashMap<ObjId, usize> = HashMap::default();
        for s in &seqs {
            for &k in s.iter().skip(1) {
                *in_tails.entry(k).or_default() += 1;
            }
        }
        let mut out = vec![cls];
        loop {
            let mut cand = None;
            let mut any = false;
            for (s, &st) in seqs.iter().zip(&starts) {
                if st < s.len() {
                    any = true;
                    let head = s[st];
                    if in_tails.get(&head).copied().unwrap_or(0) == 0 {
                        cand = Some(head);
                        break;
                    }
                }
            }
            if !any {
                return out;
            }
            let Some(c) = cand else {
                // Inconsistent hierarchy: fall back to depth-first, first occurrence wins.
                let mut dfs = vec![cls];
                let mut seen: HashSet<ObjId> = HashSet::from_iter([cls]);
                for &b in bases {
                    for &k in self.mro(b) {
                        if seen.insert(k) {
                            dfs.push(k);
                        }
                    }
                }
                return dfs;
            };
            out.push(c);
            for (s, st) in seqs.iter().zip(starts.iter_mut()) {
                if *st < s.len() && s[*st] == c {
                    *st += 1;
                    if let Some(&next) = s.get(*st) {
                        if let Some(n) = in_tails.get_mut(&next) {
                            *n -= 1;
                        }
                    }
                }
            }
        }
    }

    /// Creates a class from a name, a tuple of bases and a namespace (dict).
    pub fn make_class(
        &mut self,
        name: Value,
        bases: Value,
        namespace: Value,
        globals: Option<ObjId>,
    ) -> R {
        // The metaclass: `__metaclass__` of the body, else the one of the first base that
        // has one (as Python 2 does).
        let explicit = match namespace {
            Value::Obj(ns) => match self.heap.get(ns) {
                Object::Dict(_) => {
                    let key = self.intern("__metaclass__");
                    self.dict_get_value(namespace, key)
                }
                _ => None,
            },
            _ => None,
        };
        let meta = match explicit {
            Some(m) => Some(m),
            None => {
                let bases_ids: Vec<ObjId> = match bases {
                    Value::Obj(b) => match self.heap.get(b) {
                        Object::Tuple(items) => items
                            .iter()
                            .filter_map(|v| match v {
                                Value::Obj(i) => Some(*i),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                bases_ids
                    .iter()
                    .find_map(|b| self.metaclasses.get(b).copied())
                    .map(Value::Obj)
            }
        };
        let Some(meta) = meta else {
            let old_style = self.is_old_style_statement(bases, globals);
            return self.make_class_with(name, bases, namespace, globals, old_style);
        };
        let meta_cls = match meta {
            Value::Obj(m) if self.is_metaclass(m) => m,
            // `__metaclass__ = some_function`: the function builds the class.
            Value::Obj(m) if matches!(self.heap.get(m), Object::Function(_)) => {
                return self.call(meta, vec![name, bases, namespace]);
            }
            _ => return self.make_class_plain(name, bases, namespace, globals),
        };
        self.run_metaclass(meta_cls, vec![name, bases, namespace], Vec::new(), globals)
    }

    /// `Meta(name, bases, namespace, **kwargs)` for a subclass `Meta` of `type`, from a
    /// class statement or a call (typing's `GenericMeta.__getitem__` calls
    /// `self.__class__(...)`): its `__new__` builds the class (calling `type.__new__`),
    /// then its `__init__` runs on it, as `type.__call__` does.
    pub(crate) fn instantiate_metaclass(
        &mut self,
        meta_cls: ObjId,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        let globals = self.frames.last().map(|&(module, _)| module);
        self.run_metaclass(meta_cls, args, kwargs, globals)
    }

    fn run_metaclass(
        &mut self,
        meta_cls: ObjId,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
        globals: Option<ObjId>,
    ) -> R {
        let cls = match self.user_meta_attr(meta_cls, "__new__") {
            Some(new) => {
                let new = match new {
                    Value::Obj(n) => match self.heap.get(n) {
                        Object::StaticMethod(f) => *f,
                        _ => new,
                    },
                    _ => new,
                };
                let mut new_args = vec![Value::Obj(meta_cls)];
                new_args.extend(args.iter().copied());
                self.call_value(new, new_args, kwargs.clone())?
            }
            None => {
                if !kwargs.is_empty() {
                    return self.type_error("type() takes no keyword arguments");
                }
                let c = self.make_class_plain(args[0], args[1], args[2], globals)?;
                if let Value::Obj(cid) = c {
                    self.metaclasses.insert(cid, meta_cls);
                }
                c
            }
        };
        if let Some(init) = self.user_meta_attr(meta_cls, "__init__") {
            if matches!(cls, Value::Obj(c) if self.heap.class(c).is_some()) {
                let mut init_args = vec![cls];
                init_args.extend(args);
                self.call_value(init, init_args, kwargs)?;
            }
        }
        Ok(cls)
    }

    /// Whether `m` is a class deriving from `type` (a metaclass).
    pub(crate) fn is_metaclass(&self, m: ObjId) -> bool {
        self.heap.class(m).is_some()
            && m != self.types.type_
            && self.is_subclass(m, self.types.type_)
    }

    /// An attribute a metaclass defines in Python (not one `type` itself has).
    pub(crate) fn user_meta_attr(&self, meta: ObjId, name: &str) -> Option<Value> {
        let mro = self.heap.class(meta)?.mro.clone();
        for k in mro {
            let c = self.heap.class(k)?;
            if c.builtin.is_some() {
                return None;
            }
            if let Some(v) = c.dict.get(name) {
                return Some(v);
            }
        }
        None
    }

    /// `d[key]` of a dict object, without raising.
    fn dict_get_value(&mut self, d: Value, key: Value) -> Option<Value> {
        let k = self.heap.hash_key(key)?;
        match d {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Dict(dd) => dd.index.get(&k).map(|&i| dd.entries[i].1),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether a class statement with these bases and no `__metaclass__` in its body
    /// makes an old-style class (Python 2's `classobj`): no bases and no module-level
    /// `__metaclass__`, or an old-style first base.
    fn is_old_style_statement(&self, bases: Value, globals: Option<ObjId>) -> bool {
        let first = match bases {
            Value::Obj(b) => match self.heap.get(b) {
                Object::Tuple(items) => items.first().copied(),
                _ => return false,
            },
            _ => return false,
        };
        match first {
            None => globals.is_none_or(|g| self.module_attr(g, "__metaclass__").is_none()),
            Some(Value::Obj(b)) => self.old_style_classes.contains(&b),
            Some(_) => false,
        }
    }

    /// `type(name, bases, namespace)`: a class without metaclass processing.
    pub fn make_class_plain(
        &mut self,
        name: Value,
        bases: Value,
        namespace: Value,
        globals: Option<ObjId>,
    ) -> R {
        self.make_class_with(name, bases, namespace, globals, false)
    }

    /// `make_class_plain`, or with `old_style` Python 2's `classobj` (whose dict is the
    /// body's namespace itself, where `type` copies it).
    fn make_class_with(
        &mut self,
        name: Value,
        bases: Value,
        namespace: Value,
        globals: Option<ObjId>,
        old_style: bool,
    ) -> R {
        let Some(cname) = self.name_of(name) else {
            return self.type_error("class name must be a string");
        };
        let base_vals: Vec<Value> = match bases {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Tuple(items) => items.clone(),
                _ => return self.type_error("bases must be a tuple"),
            },
            _ => return self.type_error("bases must be a tuple"),
        };
        let mut base_ids = Vec::new();
        let mut unknown_base = None;
        for b in base_vals {
            if self.unknown_name(b).is_some() {
                unknown_base = unknown_base.or(Some(b));
                continue;
            }
            match b {
                Value::Obj(id) if matches!(self.heap.get(id), Object::Class(_)) => {
                    base_ids.push(id)
                }
                _ => {
                    let tn = self.type_name(b);
                    return self.type_error(format!(
                        "Error when calling the metaclass bases: cannot inherit from '{tn}'"
                    ));
                }
            }
        }
        let mut dict = AttrMap::default();
        let mut spans = (None, None);
        let mut attr_spans = Vec::new();
        let mut ns_table = PyTable::default();
        if let Value::Obj(ns) = namespace {
            let entries: Vec<(Value, Value)> = match self.heap.get(ns) {
                Object::Dict(d) => {
                    ns_table = d.table.clone();
                    d.entries.clone()
                }
                _ => return self.type_error("class namespace must be a dict"),
            };
            for (k, v) in entries {
                let Some(kn) = self.name_of(k) else { continue };
                dict.set(&kn, v);
            }
            if let Some(&(s, n)) = self.class_body_spans.get(&ns) {
                spans = (Some(s), Some(n));
            }
            attr_spans = self.class_attr_spans.remove(&ns).unwrap_or_default();
        }
        if dict
            .get("__metaclass__")
            .is_some_and(|m| matches!(m, Value::Obj(m) if self.is_metaclass(m) || matches!(self.heap.get(m), Object::Function(_))))
        {
            dict.remove("__metaclass__");
        }
        // A metaclass rpy-lsp does not model (warned at its import): a plain class, silently.
        if dict.get("__metaclass__").is_some_and(
            |m| matches!(m, Value::Obj(m) if matches!(self.heap.get(m), Object::Unknown { .. })),
        ) {
            dict.remove("__metaclass__");
        }
        if dict.contains("__metaclass__") {
            let span = spans.1.unwrap_or(self.span);
            self.diagnostics.push(Diagnostic::new(
                "RPY004",
                span,
                format!("`__metaclass__` of class `{cname}` is not supported; the class is built as a plain class"),
            ));
            dict.remove("__metaclass__");
        }
        // CPython's table of the class's dict, for the order import-time code iterates
        // over it in: `classobj` keeps the namespace and adds `__doc__`; `type` copies it,
        // adds `__module__`, then its `__dict__` and `__weakref__` descriptors, then
        // `__doc__` (`type_new`, `PyType_Ready`)
        if old_style {
            dict.set_table(ns_table);
            dict.add_table_only("__doc__");
        } else {
            dict.set_table(ns_table.copy());
        }
        if !dict.contains("__module__") {
            if let Some(g) = globals {
                if let Some(m) = self.module_attr(g, "__name__") {
                    dict.set("__module__", m);
                }
            }
        }
        if !old_style {
            let (add_dict, add_weak) = self.instance_slots_added(&base_ids, &dict);
            if add_dict {
                dict.add_table_only("__dict__");
            }
            if add_weak {
                dict.add_table_only("__weakref__");
            }
            dict.add_table_only("__doc__");
        }
        // The class belongs to the module its `__module__` names, as CPython's
        // `type.__new__` has it: a class a metaclass builds in another module (pairtype's
        // `extendabletype`) is still the user's.
        let module = dict
            .get("__module__")
            .and_then(|m| self.name_of(m))
            .and_then(|m| self.modules.get(&*m).copied())
            .or(globals);
        // For the analysis, though, a class a model's metaclass builds from the user's
        // classes (`type(cls)(name, (cls,), methods)` with pairtype's `extendabletype`)
        // is the user's, not the model's: it belongs to the module of its first user base.
        let module = match module {
            Some(m) if self.is_bundled_module(Value::Obj(m)) => base_ids
                .iter()
                .filter_map(|&b| self.heap.class(b).and_then(|c| c.module))
                .find(|&bm| !self.is_bundled_module(Value::Obj(bm)))
                .or(module),
            other => other,
        };
        let id = self.heap.alloc(Object::Class(Box::new(Class {
            name: cname,
            bases: base_ids.clone(),
            mro: Vec::new(),
            dict,
            module,
            span: spans.0,
            name_span: spans.1,
            builtin: None,
            constructor: None,
            attr_spans,
        })));
        let mro = self.compute_mro(id, &base_ids);
        if let Object::Class(c) = self.heap.get_mut(id) {
            c.mro = mro;
        }
        let inherits_unknown = base_ids
            .iter()
            .any(|b| self.unknown_base_classes.contains(b));
        if let Some(u) = unknown_base {
            // The annotator reads this marker: attributes the class does not define may
            // come from the unknown base.
            if let Object::Class(c) = self.heap.get_mut(id) {
                c.dict.set(UNKNOWN_BASE_ATTR, u);
            }
        }
        if unknown_base.is_some() || inherits_unknown {
            self.unknown_base_classes.insert(id);
        }
        if old_style {
            self.old_style_classes.insert(id);
        }
        Ok(Value::Obj(id))
    }

    /// Whether `type` gives a new class with these bases a `__dict__` and a `__weakref__`
    /// descriptor of its own: when its solid base (the first new-style base) has no
    /// instance dict, or no weak reference list, as CPython 2.7's built-in types and
    /// classes are laid out. A body with `__slots__` gets neither (its slots' member
    /// descriptors are not modelled).
    fn instance_slots_added(&self, bases: &[ObjId], dict: &AttrMap) -> (bool, bool) {
        if dict.contains("__slots__") {
            return (false, false);
        }
        let solid = bases
            .iter()
            .copied()
            .find(|b| !self.old_style_classes.contains(b));
        let Some(solid) = solid else {
            // only old-style bases (or none): `object` is the solid base
            return (true, true);
        };
        let Some(c) = self.heap.class(solid) else {
            return (false, false);
        };
        match c.builtin {
            // a class of the program: it has both already
            None => (false, false),
            Some(_) if self.is_exception_class(solid) => (false, true),
            Some(BuiltinType::Type) => (false, false),
            Some(BuiltinType::Long | BuiltinType::Str | BuiltinType::Tuple | BuiltinType::Set) => {
                (true, false)
            }
            Some(_) => (true, true),
        }
    }

    /// The class-body namespace being executed (innermost), for `import_from_mixin`.
    pub fn current_class_namespace(&self) -> Option<ObjId> {
        self.class_ns_stack.last().copied()
    }
}
