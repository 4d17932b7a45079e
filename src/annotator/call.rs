//! Calls: binding the arguments of a call site to the callee's parameters (with the
//! interpreter's `arguments::bind`, annotations as values), choosing the graph of the
//! specialization (`specialize`), scheduling it, and reading its result. Classes are instantiated (calling
//! `__init__`), methods get their `self`, generator functions return a generator.

use super::annrpython::Annotator;
use super::description::{Desc, Specializer};
use super::model::*;
use super::AnnError;
use crate::fasthash::HashMap;
use crate::flowspace::Hlvalue;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{ObjId, Object, Value};
use crate::syntax::Span;
use std::rc::Rc;

/// The arguments of a call, as annotations.
#[derive(Clone, Debug, Default)]
pub struct ArgsS {
    pub positional: Vec<SomeValue>,
    pub keywords: Vec<(Rc<str>, SomeValue)>,
    /// `f(a, *rest)` with `rest` unknown: how many arguments it holds is unknown, so the
    /// parameters the others leave unfilled get this unknown value (never an arity error).
    pub star_unknown: Option<SomeValue>,
}

impl ArgsS {
    pub fn simple(positional: Vec<SomeValue>) -> ArgsS {
        ArgsS {
            positional,
            keywords: Vec::new(),
            star_unknown: None,
        }
    }
    pub fn prepend(&self, s: SomeValue) -> ArgsS {
        let mut positional = Vec::with_capacity(self.positional.len() + 1);
        positional.push(s);
        positional.extend(self.positional.iter().cloned());
        ArgsS {
            positional,
            keywords: self.keywords.clone(),
            star_unknown: self.star_unknown.clone(),
        }
    }
    pub fn len(&self) -> usize {
        self.positional.len() + self.keywords.len()
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Arguments of a `simple_call` / `call_args` operation (after the callee).
    pub fn call_args_of(
        &mut self,
        op: crate::interpreter::Op,
        args: &[SomeValue],
        hl: &[Hlvalue],
    ) -> Result<ArgsS, AnnError> {
        if op == crate::interpreter::Op::SimpleCall {
            return Ok(ArgsS::simple(args[1..].to_vec()));
        }
        // call_args(f, shape, args...): shape = (npos, (names...), has_star)
        let shape = hl[1]
            .constant()
            .ok_or_else(|| AnnError::new("RPY206", "malformed call".into()))?;
        let heap = self.heap();
        let (npos, names, star) = match shape {
            Value::Obj(id) => match heap.get(id) {
                Object::Tuple(items) if items.len() == 3 => {
                    let npos = match items[0] {
                        Value::Int(n) => n as usize,
                        _ => 0,
                    };
                    let names: Vec<Rc<str>> = match items[1] {
                        Value::Obj(t) => match heap.get(t) {
                            Object::Tuple(ns) => ns
                                .iter()
                                .map(|&n| {
                                    heap.str_value(n)
                                        .map(|b| Rc::from(String::from_utf8_lossy(b).as_ref()))
                                        .unwrap_or_else(|| Rc::from("?"))
                                })
                                .collect(),
                            _ => Vec::new(),
                        },
                        _ => Vec::new(),
                    };
                    (npos, names, items[2] == Value::Bool(true))
                }
                _ => return Err(AnnError::new("RPY206", "malformed call".into())),
            },
            _ => return Err(AnnError::new("RPY206", "malformed call".into())),
        };
        let data = &args[2..];
        let mut positional: Vec<SomeValue> = data[..npos.min(data.len())].to_vec();
        let keywords: Vec<(Rc<str>, SomeValue)> = names
            .iter()
            .cloned()
            .zip(data[npos.min(data.len())..].iter().cloned())
            .collect();
        let mut star_unknown = None;
        if star {
            let s_star = data.last().cloned().unwrap_or(SomeValue::Impossible);
            match s_star {
                SomeValue::Tuple(items) => positional.extend(items.iter().cloned()),
                s @ SomeValue::Unknown(_) => {
                    // kept as one argument for built-in callees; functions pad with it
                    positional.push(s.clone());
                    star_unknown = Some(s);
                }
                s @ SomeValue::Error => positional.push(s),
                other => {
                    return Err(AnnError::new(
                        "RPY206",
                        format!(
                            "calls like f(*args) require `args` to be a tuple, not {}",
                            self.bk.describe_type(self.space.heap(), &other)
                        ),
                    ))
                }
            }
        }
        Ok(ArgsS {
            positional,
            keywords,
            star_unknown,
        })
    }

    /// Calls the entry point: builds its graph and schedules it with `args`.
    pub fn entry_call(&mut self, desc: DescId, args: ArgsS) -> Result<u32, AnnError> {
        let Some((g, inputs)) = self.function_graph_for_call(desc, &args, None)? else {
            return Err(AnnError::new(
                "RPY206",
                "the entry point cannot be analysed".into(),
            ));
        };
        let start = self.graphs[g as usize].startblock.0;
        self.addpendingblock(g, start, inputs, super::annrpython::Incoming::Entry);
        Ok(g)
    }

    /// Calls a function description with `args`: its result so far.
    fn call_function(
        &mut self,
        fdesc: DescId,
        args: &ArgsS,
        many: Option<Span>,
    ) -> Result<SomeValue, AnnError> {
        let (not_rpython, name, specializer, is_gen) = match self.bk.desc(fdesc) {
            Desc::Function(f) => (
                f.not_rpython,
                f.name.clone(),
                f.specializer.clone(),
                f.is_generator,
            ),
            _ => unreachable!(),
        };
        if not_rpython {
            // a function of a bundled model usable at import time only (`sys.exc_info`):
            // the reference has no model of it for translated code at all
            let heap = self.space.heap();
            let bundled_module = match self.bk.desc(fdesc) {
                Desc::Function(f) => match heap.get(f.func) {
                    Object::Function(func) => match heap.get(func.globals) {
                        Object::Module(m) if m.bundled => Some(m.name.clone()),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            return Err(AnnError::new(
                "RPY222",
                match bundled_module {
                    Some(m) => format!(
                        "`{}.{}()` is not RPython: it can only be called at import time",
                        m, name
                    ),
                    None => format!(
                        "`{}` is marked not_rpython (or NOT_RPYTHON) but is called from RPython code",
                        name
                    ),
                },
            ));
        }
        if specializer == Specializer::Memo {
            return self.call_memo(fdesc, args);
        }
        let Some((g, inputs)) = self.function_graph_for_call(fdesc, args, many)? else {
            return Ok(SomeValue::Error);
        };
        let span = self.bk.span;
        let start = self.graphs[g as usize].startblock.0;
        self.addpendingblock(g, start, inputs, super::annrpython::Incoming::Call(span));
        let pos = self.bk.position;
        self.info[g as usize].callers.insert(pos);
        // A call site calls the one specialization its latest (most general) arguments
        // select, as the reference's RTyper picks it from the final annotations: one
        // selected by earlier arguments (None before a str-or-None, with argtype) is no
        // longer its target.
        if let Desc::Function(f) = self.bk.desc(fdesc) {
            if f.graphs.len() > 1 {
                let stale: Vec<u32> = f.graphs.values().copied().filter(|&o| o != g).collect();
                for o in stale {
                    self.info[o as usize].callers.remove(pos);
                }
            }
        }
        if is_gen {
            let gen = self
                .bk
                .generators
                .entry(g)
                .or_insert_with(|| super::bookkeeper::GenInfo {
                    name: None,
                    s_yield: SomeValue::Impossible,
                    read_locations: Default::default(),
                    origin: None,
                });
            gen.name.get_or_insert(name);
            return Ok(SomeValue::Generator { graph: g });
        }
        self.last_called_graph = Some(g);
        let graph = &self.graphs[g as usize];
        let rv = graph.block(graph.returnblock).inputargs[0];
        let result = self.binding(g, rv);
        self.enforce_signature_return(fdesc, g, result)
    }

    /// Instantiates a class: an instance, with `__init__` called on it.
    fn call_class(&mut self, cdesc: DescId, args: &ArgsS) -> Result<SomeValue, AnnError> {
        if self.is_bundled_class(cdesc, "Ptr") {
            if let Some(s) = self.call_ll_ptr(cdesc, args) {
                return Ok(s);
            }
        }
        if let Some(err) = self.ll_type_call_refused(cdesc) {
            return Err(err);
        }
        if self.is_bundled_class(cdesc, "r_dict") || self.is_bundled_class(cdesc, "r_ordereddict") {
            return self.call_r_dict(args);
        }
        let cd = self.bk.classdef_of_desc(self.space.heap(), cdesc)?;
        let s_inst = SomeValue::instance(cd);
        let init: Rc<str> = Rc::from("__init__");
        let s_init = self
            .bk
            .s_read_class_attribute(self.space.heap(), cdesc, &init)?;
        match s_init {
            SomeValue::Impossible => {
                let c = self.bk.class_desc(cdesc).expect("class");
                // A class deriving from one rpy-lsp does not model may get its __init__
                // from that base: the arguments go to unknown code, not an error.
                let unknown_init = self.space.heap().unknown_base_of(c.cls).is_some();
                if !c.is_exception && !unknown_init && args.len() > 0 {
                    return Err(AnnError::new(
                        "RPY206",
                        format!(
                            "`{}()` takes no arguments: the class has no __init__",
                            c.name
                        ),
                    ));
                }
            }
            SomeValue::Builtin { .. } => {}
            s_init => {
                self.last_called_graph = None;
                let r = self
                    .call_value(&s_init, &args.prepend(s_inst.clone()))
                    .inspect_err(|_| {
                        self.failed_inits.insert(cd);
                    })?;
                let g = self.last_called_graph.take();
                let heap = self.space.heap();
                if !r.is_impossible() && !r.is_error() && !self.bk.compatible(heap, &r, &s_inst) {
                    // The reference unions what __init__ returns with the instance.
                    let name = self.bk.classdef(cd).name.clone();
                    let what = self.bk.describe_type(heap, &r);
                    let mut err = AnnError::new(
                        "RPY201",
                        format!(
                            "`{}.__init__` returns {}: __init__ must return None (or nothing)",
                            name, what
                        ),
                    );
                    if let Some(sp) = g.and_then(|g| self.return_site(g, &r, &SomeValue::None)) {
                        err = err
                            .at(sp)
                            .label(self.bk.span, format!("`{}` is instantiated here", name));
                    }
                    return Err(err);
                }
            }
        }
        Ok(s_inst)
    }

    /// Whether a class description is the class `name` of rpy-lsp's bundled models.
    fn is_bundled_class(&self, cdesc: DescId, name: &str) -> bool {
        let Some(c) = self.bk.class_desc(cdesc) else {
            return false;
        };
        let heap = self.heap();
        &*c.name == name
            && heap
                .class(c.cls)
                .and_then(|k| k.module)
                .is_some_and(|m| matches!(heap.get(m), Object::Module(m) if m.bundled))
    }

    /// `objectmodel.r_dict(key_eq, key_hash)`: a dict whose keys are compared and hashed by
    /// the given functions, which are called on the key annotation.
    fn call_r_dict(&mut self, args: &ArgsS) -> Result<SomeValue, AnnError> {
        if args.positional.len() < 2 {
            return Err(AnnError::new(
                "RPY206",
                "r_dict() takes the key equality and the key hash functions".into(),
            ));
        }
        let def = self.bk.dictdef_here(0);
        if !self.bk.r_dicts.iter().any(|(d, _, _)| *d == def) {
            let (eq, hash) = (args.positional[0].clone(), args.positional[1].clone());
            self.bk.r_dicts.push((def, eq, hash));
        }
        let key = self.bk.read_dict_key(def);
        let (eq, hash) = (args.positional[0].clone(), args.positional[1].clone());
        self.emulate_r_dict_functions(&eq, &hash, key)?;
        Ok(SomeValue::Dict { def, konst: None })
    }

    /// An r_dict's key equality and hash functions called on its key annotation, as its
    /// lookups call them (nothing while no key is known).
    pub(super) fn emulate_r_dict_functions(
        &mut self,
        eq: &SomeValue,
        hash: &SomeValue,
        key: SomeValue,
    ) -> Result<(), AnnError> {
        if key.is_impossible() {
            return Ok(());
        }
        let r = self.call_value(eq, &ArgsS::simple(vec![key.clone(), key.clone()]))?;
        if !r.is_int_like() && !r.is_impossible() && !r.is_error() {
            let e = AnnError::new(
                "RPY218",
                format!(
                    "the key equality function of an r_dict must return a bool, not {}",
                    self.bk.describe_type(self.space.heap(), &r)
                ),
            );
            return Err(self.label_functions(e, eq));
        }
        let h = self.call_value(hash, &ArgsS::simple(vec![key]))?;
        if !h.is_int_like() && !h.is_impossible() && !h.is_error() {
            let e = AnnError::new(
                "RPY218",
                format!(
                    "the key hash function of an r_dict must return an int, not {}",
                    self.bk.describe_type(self.space.heap(), &h)
                ),
            );
            return Err(self.label_functions(e, hash));
        }
        Ok(())
    }

    /// `e` with a label at the definition of each function `f` may be: the reference
    /// reports a wrong r_dict function in that function's graph, not where the dict is used.
    fn label_functions(&self, mut e: AnnError, f: &SomeValue) -> AnnError {
        if let SomeValue::Pbc { descs, .. } = f {
            for &d in descs.iter() {
                if let Desc::Function(fd) = self.bk.desc(d) {
                    e = e.label(fd.name_span, format!("`{}` is defined here", fd.name));
                }
            }
        }
        e
    }

    /// Calling one of several classes: either all of them get their `__init__` from the
    /// common base class, or none has one (the RPython typer needs one call shape).
    fn check_class_family_init(&mut self, descs: &[DescId]) -> Result<(), AnnError> {
        let init: Rc<str> = Rc::from("__init__");
        let has_init = |bk: &super::Bookkeeper, d: DescId| {
            super::classdef::ClassDesc::lookup(bk, d, &init).is_some()
        };
        // The common base: the first class of the first one's bases that all derive from.
        let mut base = Some(descs[0]);
        while let Some(b) = base {
            let all = descs.iter().all(|&d| {
                let mut x = Some(d);
                while let Some(y) = x {
                    if y == b {
                        return true;
                    }
                    x = self.bk.class_desc(y).and_then(|c| c.basedesc);
                }
                false
            });
            if all {
                break;
            }
            base = self.bk.class_desc(b).and_then(|c| c.basedesc);
        }
        let parent_has_init = base.is_some_and(|b| has_init(&self.bk, b));
        if !parent_has_init {
            if let Some(&d) = descs.iter().find(|&&d| has_init(&self.bk, d)) {
                let name = self
                    .bk
                    .class_desc(d)
                    .map(|c| c.name.clone())
                    .unwrap_or_else(|| Rc::from("?"));
                let mut err = AnnError::new(
                    "RPY219",
                    format!(
                        "one of the classes called here (`{}`) defines __init__() but their common base class does not: add an __init__ to the base class",
                        name
                    ),
                );
                if let Some(sp) = self.bk.class_desc(d).and_then(|c| c.name_span) {
                    err = err.label(sp, format!("`{}` is defined here", name));
                }
                return Err(err);
            }
        }
        Ok(())
    }

    /// Whether `d` is a plain function of one of rpy-lsp's bundled models.
    fn is_bundled_function(&self, d: DescId) -> bool {
        let Desc::Function(f) = self.bk.desc(d) else {
            return false;
        };
        let heap = self.heap();
        heap.function(Value::Obj(f.func))
            .is_some_and(|f| crate::objspace::is_bundled_model_module(heap, Value::Obj(f.globals)))
    }

    /// Calls a callable annotation.
    pub fn call_value(&mut self, s_func: &SomeValue, args: &ArgsS) -> Result<SomeValue, AnnError> {
        match s_func {
            SomeValue::Pbc { descs, .. } => {
                let descs = descs.clone();
                // A function of a bundled model given something rpy-lsp does not model
                // (`rffi.cast(T, unknown)`, or a type built from one: `lltype.Ptr(unknown)`):
                // its result is unknown too, and the model is not annotated with it (that
                // would report the model's branches, not the user's).
                let unmodelled = args
                    .positional
                    .iter()
                    .chain(args.keywords.iter().map(|(_, a)| a))
                    .find(|a| a.is_unknown() || self.is_unmodelled_ll_type(a))
                    .map(|a| match a {
                        SomeValue::Unknown(_) => a.clone(),
                        _ => SomeValue::Unknown(Rc::from(
                            "a low-level type built from what rpy-lsp does not model",
                        )),
                    });
                if let Some(u) = unmodelled {
                    if descs.iter().all(|&d| self.is_bundled_function(d)) {
                        return Ok(u);
                    }
                }
                self.record_call_shape(&descs, args, self.bk.span);
                if descs.len() > 1 {
                    if let Some(r) = self.call_family_cached(&descs, args) {
                        return Ok(r);
                    }
                }
                let many = (descs.len() > 1).then_some(self.bk.span);
                if descs.len() > 1 && matches!(self.bk.desc(descs[0]), Desc::Class(_)) {
                    self.check_class_family_init(&descs)?;
                }
                let mut result = SomeValue::Impossible;
                let mut results: Vec<(DescId, SomeValue, Option<u32>)> = Vec::new();
                for &d in descs.iter() {
                    self.last_called_graph = None;
                    let r = self.call_desc(d, args, many)?;
                    let g = self.last_called_graph;
                    match self.bk.union(self.space.heap(), &result, &r) {
                        Ok(u) => result = u,
                        Err(e) => return Err(self.call_family_conflict(&results, (d, r, g), &e)),
                    }
                    results.push((d, r, g));
                }
                if descs.len() > 1 {
                    self.remember_family(&descs, args, &results, &result);
                }
                Ok(result)
            }
            // A built-in given an erroneous value (already reported): no second message.
            SomeValue::Builtin { .. }
            | SomeValue::BuiltinMethod { .. }
            | SomeValue::Type { .. }
                if (args.positional.iter().any(|a| a.is_error())
                    || args.keywords.iter().any(|(_, a)| a.is_error()))
                    && !stores_unknown_or_erroneous_item(s_func, args) =>
            {
                Ok(args
                    .positional
                    .iter()
                    .chain(args.keywords.iter().map(|(_, a)| a))
                    .find(|a| a.is_unknown())
                    .cloned()
                    .unwrap_or(SomeValue::Error))
            }
            SomeValue::Builtin { id, s_self } => {
                let (id, s_self) = (*id, s_self.clone());
                self.call_builtin(id, s_self.as_deref(), args)
            }
            // calling a virtual reference: its object
            SomeValue::VRef { s_instance } => {
                if !args.positional.is_empty() || !args.keywords.is_empty() {
                    return Err(AnnError::new(
                        "RPY218",
                        "a virtual reference is called without arguments".into(),
                    ));
                }
                Ok((**s_instance).clone())
            }
            // calling a weak reference: its object, or None once freed
            SomeValue::WeakRef { classdef } => {
                if !args.positional.is_empty() || !args.keywords.is_empty() {
                    return Err(AnnError::new(
                        "RPY218",
                        "a weak reference is called without arguments".into(),
                    ));
                }
                Ok(match classdef {
                    Some(c) => SomeValue::Instance {
                        classdef: *c,
                        can_be_none: true,
                        konst: None,
                    },
                    None => SomeValue::None,
                })
            }
            SomeValue::BuiltinMethod {
                id,
                s_self,
                char_analyser,
            } => {
                let (id, s_self) = (*id, s_self.clone());
                if *char_analyser
                    && !matches!(
                        *s_self,
                        SomeValue::Char { .. } | SomeValue::UnicodeCodePoint { .. }
                    )
                {
                    return Err(char_method_merged_with_string(id));
                }
                self.call_method(id, &s_self, args)
            }
            SomeValue::Type {
                konst: Some(Value::Obj(cls)),
                ..
            } => {
                let cls = *cls;
                self.call_type(cls, args)
            }
            SomeValue::None => {
                // Reported at the end if the callee is still always None.
                let pos = self.bk.position;
                if !self.none_calls.contains(&pos) {
                    self.none_calls.push(pos);
                }
                Ok(SomeValue::Impossible)
            }
            SomeValue::Error | SomeValue::Unknown(_) => Ok(s_func.clone()),
            SomeValue::External(o) => {
                let o = *o;
                Ok(self.ext_call(o, args))
            }
            other => Err(AnnError::new(
                "RPY207",
                format!(
                    "this calls {}, which is not callable{}",
                    self.bk.describe_type(self.space.heap(), other),
                    if matches!(other, SomeValue::Instance { .. }) {
                        ": __call__ is not honoured by RPython (call an ordinary method instead)"
                    } else {
                        ""
                    }
                ),
            )),
        }
    }

    /// The callables of one call site return values that do not mix: names the two that
    /// disagree and points at their `return` statements.
    fn call_family_conflict(
        &mut self,
        earlier: &[(DescId, SomeValue, Option<u32>)],
        (d, r, g): (DescId, SomeValue, Option<u32>),
        e: &AnnError,
    ) -> AnnError {
        let heap = self.space.heap();
        let other = earlier
            .iter()
            .find(|(_, s, _)| !self.bk.compatible(heap, s, &r))
            .or(earlier.first());
        let Some((od, os, og)) = other else {
            return AnnError::new(
                "RPY201",
                format!(
                    "the functions called here return values of different types{}",
                    e.detail_suffix()
                ),
            )
            .stage_of(e);
        };
        let (r_desc, o_desc) = (
            self.bk.describe_type(heap, &r),
            self.bk.describe_type(heap, os),
        );
        let mut err = AnnError::new(
            "RPY201",
            format!(
                "the {} called here return values of different types: {} returns {} but {} returns {}; give them results of one type{}",
                if descs_are_methods(&self.bk, &[d, *od]) { "methods" } else { "functions" },
                self.bk.callable_name(heap, *od),
                o_desc,
                self.bk.callable_name(heap, d),
                r_desc,
                e.detail_suffix()
            ),
        ).stage_of(e);
        for (g, s, against, words) in [(og, os, &r, o_desc), (&g, &r, os, r_desc)] {
            if let Some(sp) = g.and_then(|g| self.return_site(g, s, against)) {
                err = err.label(sp, format!("returns {} here", words));
            }
        }
        err
    }

    /// Where graph `g` returns a value of the type of `s` that does not mix with `against`.
    fn return_site(&mut self, g: u32, s: &SomeValue, against: &SomeValue) -> Option<Span> {
        let heap = self.space.heap();
        let sources = &self.info[g as usize].return_sources;
        let bk = &mut self.bk;
        let pick = sources
            .iter()
            .find(|(_, v)| !v.is_impossible() && !bk.compatible(heap, v, against))
            .or_else(|| sources.iter().find(|(_, v)| bk.compatible(heap, v, s)))?
            .0;
        self.origin_span(g, pick)
    }

    fn call_desc(
        &mut self,
        d: DescId,
        args: &ArgsS,
        many: Option<Span>,
    ) -> Result<SomeValue, AnnError> {
        let desc = match self.bk.desc(d) {
            Desc::Function(_) => return self.call_function(d, args, many),
            Desc::Class(_) => return self.call_class(d, args),
            other => other.clone(),
        };
        match desc {
            Desc::Function(_) | Desc::Class(_) => unreachable!(),
            Desc::Method(m) => {
                let Some(selfcd) = m.selfclassdef else {
                    return Err(AnnError::new(
                        "RPY207",
                        format!("calling the unbound method `{}`", m.name),
                    ));
                };
                self.call_function(m.func, &args.prepend(SomeValue::instance(selfcd)), many)
            }
            Desc::MethodOfFrozen { func, frozen } => {
                self.call_function(func, &args.prepend(SomeValue::pbc(vec![frozen])), many)
            }
            Desc::Frozen(f) => {
                let what = match self.heap().get(f.obj) {
                    Object::Module(m) => format!("the module `{}`", m.name),
                    _ => "a prebuilt object".to_string(),
                };
                Err(AnnError::new(
                    "RPY207",
                    format!("this calls {}, which is not callable", what),
                ))
            }
        }
    }

    /// Calls a method of an instance by name (special methods, property getters).
    pub fn call_instance_method(
        &mut self,
        s_inst: &SomeValue,
        name: &str,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let s_meth = self.getattr_value(s_inst, name)?;
        if let (SomeValue::Impossible, SomeValue::Instance { classdef, .. }) = (&s_meth, s_inst) {
            // the operation (`x[i]`, `x[a:b]`...) needs a special method the class lacks
            return Err(AnnError::new(
                "RPY204",
                format!(
                    "instances of `{}` have no method `{}`, which this operation calls",
                    self.bk.classdef(*classdef).name,
                    name
                ),
            ));
        }
        self.call_value(&s_meth, args)
    }

    /// Calls a built-in type: conversions and constructors.
    fn call_type(&mut self, cls: ObjId, args: &ArgsS) -> Result<SomeValue, AnnError> {
        match self.heap().class(cls).and_then(|c| c.constructor) {
            Some(id) => self.call_builtin(id, None, args),
            None => {
                let name = super::Bookkeeper::class_name(self.heap(), cls);
                Err(AnnError::new(
                    "RPY210",
                    format!(
                        "the built-in `{}` is not supported by rpy-lsp's annotator",
                        name
                    ),
                ))
            }
        }
    }
}

fn descs_are_methods(bk: &super::Bookkeeper, descs: &[DescId]) -> bool {
    descs.iter().all(|&d| matches!(bk.desc(d), Desc::Method(_)))
}

/// Call families (`callfamily`): the cached path of `call_value` for a PBC of several
/// callables, and what the rest of the annotator needs to know about it.
impl<C: ConcreteSpace> Annotator<'_, C> {
    /// The result of calling the family `descs` with `args` when these arguments were
    /// already pushed into every member: the cached union of the members' results (folded
    /// again after a member's result changed). `None`: take the normal path.
    fn call_family_cached(&mut self, descs: &Rc<[DescId]>, args: &ArgsS) -> Option<SomeValue> {
        let f = self.families.lookup(descs)? as usize;
        let heap = self.space.heap();
        let fam = &self.families.families[f];
        if !fam
            .seen_args
            .iter()
            .any(|a| args_eq(&self.bk, heap, a, args))
        {
            return None;
        }
        let result = match &fam.result {
            Some(r) => r.clone(),
            None => {
                // In the order of the normal path, so that the union is the same value.
                let graphs = fam.graphs.clone();
                let mut result = SomeValue::Impossible;
                for &g in graphs.iter() {
                    let r = self.return_binding(g);
                    // A conflict: the normal path reports it with its provenance.
                    result = self.bk.union(self.space.heap(), &result, &r).ok()?;
                }
                self.families.families[f].result = Some(result.clone());
                result
            }
        };
        let fam = &mut self.families.families[f];
        fam.callers.insert(self.bk.position);
        self.last_called_graph = fam.graphs.last().copied();
        Some(result)
    }

    /// After the normal path called every member of `descs` with `args` without error:
    /// records the family, the arguments and the result, when the family can be cached
    /// (every member a plain function or method with one graph, whatever the arguments).
    fn remember_family(
        &mut self,
        descs: &Rc<[DescId]>,
        args: &ArgsS,
        results: &[(DescId, SomeValue, Option<u32>)],
        result: &SomeValue,
    ) {
        if self.families.is_uncacheable(descs) {
            return;
        }
        let f = match self.families.lookup(descs) {
            Some(f) => f,
            None => {
                let graphs: Option<Vec<u32>> = results.iter().map(|r| r.2).collect();
                match graphs {
                    Some(graphs) if descs.iter().all(|&d| self.plain_callable(d)) => {
                        self.families.family(descs, &graphs)
                    }
                    _ => {
                        self.families.mark_uncacheable(descs);
                        return;
                    }
                }
            }
        };
        self.families.add_seen(f, args);
        self.families.families[f as usize].result = Some(result.clone());
    }

    /// A function or bound method whose calls all go to one graph and have no effect
    /// besides pushing the arguments into it: unspecialized, no `*args`/`**kwargs`, not a
    /// generator, RPython.
    fn plain_callable(&self, d: DescId) -> bool {
        let func = match self.bk.desc(d) {
            Desc::Function(_) => d,
            Desc::Method(m) if m.selfclassdef.is_some() => m.func,
            Desc::MethodOfFrozen { func, .. } => *func,
            _ => return false,
        };
        match self.bk.desc(func) {
            Desc::Function(f) => {
                f.specializer == Specializer::Default
                    && f.sig.varargs.is_none()
                    && f.sig.kwargs.is_none()
                    && !f.is_generator
                    && !f.not_rpython
            }
            _ => false,
        }
    }

    /// The annotation of graph `g`'s result so far.
    fn return_binding(&self, g: u32) -> SomeValue {
        let graph = &self.graphs[g as usize];
        let rv = graph.block(graph.returnblock).inputargs[0];
        self.binding(g, rv)
    }

    /// Graph `g`'s result changed: the families it belongs to whose cached union that
    /// changes forget it and re-flow the call sites that used it.
    pub(super) fn notify_families(&mut self, g: u32) {
        let fams = self.families.of_graph(g);
        if fams.is_empty() {
            return;
        }
        let fams = fams.to_vec();
        let s = self.return_binding(g);
        for f in fams {
            let heap = self.space.heap();
            let fam = &mut self.families.families[f as usize];
            let Some(r) = &fam.result else { continue };
            let same = match self.bk.union(heap, r, &s) {
                Ok(u) => self.bk.eq(heap, &u, r),
                Err(_) => false,
            };
            if !same {
                fam.result = None;
                for p in fam.callers.to_vec() {
                    self.reflow_block(p.graph, p.block, p.op);
                }
            }
        }
    }

    /// The call positions that called graph `g`: directly, then through its families.
    pub(super) fn callers_of(&self, g: u32) -> impl Iterator<Item = &Position> + '_ {
        let fams = self.families.of_graph(g);
        self.info[g as usize].callers.iter().chain(
            fams.iter()
                .flat_map(|&f| self.families.families[f as usize].callers.iter()),
        )
    }

    /// The call table: the graphs each position called directly (`direct`, increasing) and
    /// through families. A position that called through one family only shares the
    /// family's sorted list.
    pub(super) fn call_table(
        &self,
        mut direct: HashMap<Position, Vec<u32>>,
    ) -> HashMap<Position, Rc<[u32]>> {
        let mut out: HashMap<Position, Rc<[u32]>> = HashMap::default();
        for fam in &self.families.families {
            if fam.callers.iter().next().is_none() {
                continue;
            }
            let mut sorted = fam.graphs.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            let sorted: Rc<[u32]> = sorted.into();
            for &pos in fam.callers.iter() {
                if let Some(v) = direct.get_mut(&pos) {
                    v.extend(sorted.iter());
                } else if let Some(shared) = out.remove(&pos) {
                    let mut v = shared.to_vec();
                    v.extend(sorted.iter());
                    direct.insert(pos, v);
                } else {
                    out.insert(pos, sorted.clone());
                }
            }
        }
        for (pos, mut v) in direct {
            v.sort_unstable();
            v.dedup();
            out.insert(pos, v.into());
        }
        out
    }
}

/// Same argument annotations (the structural equality of the annotator).
fn args_eq(
    bk: &super::Bookkeeper,
    heap: &crate::objspace::object::Heap,
    a: &ArgsS,
    b: &ArgsS,
) -> bool {
    a.positional.len() == b.positional.len()
        && a.keywords.len() == b.keywords.len()
        && a.positional
            .iter()
            .zip(&b.positional)
            .all(|(x, y)| bk.eq(heap, x, y))
        && a.keywords
            .iter()
            .zip(&b.keywords)
            .all(|((n, x), (m, y))| n == m && bk.eq(heap, x, y))
}

/// The call of a string method whose value where the paths join came first from a
/// one-character string and then from a longer one (`sep = " "` on one path, `sep = words[2]`
/// on the other, then `sep.join(...)`: the flow space folds `" ".join` to a constant, so the
/// paths join after the attribute is read, and the constant path is followed first whichever
/// assignment comes first in the source). The reference's union keeps the first method's
/// analyser, SomeChar's, and calling it on a SomeString crashes the annotator (TypeError:
/// must be called with SomeChar instance as first argument).
fn char_method_merged_with_string(id: crate::builtins::BuiltinId) -> AnnError {
    AnnError::new(
        "RPY201",
        format!(
            "`{0}` is called on a bound method that is a one-character string's `{0}` on one \
             path (folded to a constant before the paths join) and a longer string's on \
             another: the reference's annotator crashes here (TypeError: must be called with \
             SomeChar instance as first argument); call `{0}` separately on each path",
            id.short_name()
        ),
    )
}

/// `lst.append(x)`, `lst.insert(i, x)`, `d.setdefault(k, x)`… with `x` unknown or
/// erroneous (already reported): the container's items become unknown or erroneous, so the
/// call is made (a list filled from unmodelled code, or from a call already reported as an
/// error, is not "always empty": reading it must not be a second error).
fn stores_unknown_or_erroneous_item(s_func: &SomeValue, args: &ArgsS) -> bool {
    use crate::builtins::BuiltinId as B;
    let SomeValue::BuiltinMethod { id, s_self, .. } = s_func else {
        return false;
    };
    let container = matches!(
        s_self.as_ref(),
        SomeValue::List { .. } | SomeValue::Dict { .. }
    );
    let stores = matches!(id, B::ListAppend | B::ListInsert | B::DictSetdefault);
    container && stores && args.keywords.is_empty()
}
