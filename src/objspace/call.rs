//! Calls: user functions (argument binding, frames, closures, generators, class
//! bodies), bound methods, builtins, classes (instance creation) and callable instances.

use super::builtins::BArgs;
use super::object::{AttrMap, Instance, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId;
use crate::compiler::bytecode::flags;
use crate::interpreter::arguments::bind;
use crate::interpreter::{eval, CallArgs, Frame, Unwind};
use std::rc::Rc;

impl ObjSpace {
    /// Calls `func` with positional arguments (e.g. `target(driver, args)`).
    pub fn call(&mut self, func: Value, args: Vec<Value>) -> R {
        self.call_value(func, args, Vec::new())
    }

    /// Calls with `*args`/`**kwargs` values expanded.
    pub(crate) fn call_args(&mut self, func: Value, args: CallArgs<Value>) -> R {
        let CallArgs {
            mut positional,
            mut keywords,
            star,
            starstar,
        } = args;
        if let Some(s) = star {
            let items = self.iterate(s)?;
            positional.extend(items);
        }
        if let Some(d) = starstar {
            let entries = match d {
                Value::Obj(id) => match self.heap.get(id) {
                    Object::Dict(d) => Some(d.py_entries()),
                    _ => None,
                },
                _ => None,
            };
            let Some(entries) = entries else {
                let tn = self.type_name(d);
                return self.type_error(format!("argument after ** must be a mapping, not {tn}"));
            };
            for (k, v) in entries {
                let Some(name) = self.name_of(k) else {
                    return self.type_error("keywords must be strings");
                };
                keywords.push((name, v));
            }
        }
        self.call_value(func, positional, keywords)
    }

    /// Calls any callable value.
    pub fn call_value(
        &mut self,
        func: Value,
        mut args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        let Value::Obj(id) = func else {
            let tn = self.type_name(func);
            return self.type_error(format!("'{tn}' object is not callable"));
        };
        if let Some(what) = self.unknown_name(func) {
            let what = what.strip_suffix("()").unwrap_or(&what).to_string();
            return Ok(self.new_unknown(&format!("{what}()")));
        }
        match self.heap.get(id) {
            Object::Function(_) => self.call_function(id, args, kwargs),
            Object::BoundMethod { func, self_value } => {
                let (f, s) = (*func, *self_value);
                args.insert(0, s);
                self.call_value(f, args, kwargs)
            }
            Object::UnboundMethod { func, .. } => {
                let f = *func;
                self.call_value(f, args, kwargs)
            }
            Object::Builtin { id: b, bound_self } => {
                let (b, this) = (*b, *bound_self);
                let unknown = self.first_unknown(&args).or_else(|| {
                    let kw: Vec<Value> = kwargs.iter().map(|(_, v)| *v).collect();
                    self.first_unknown(&kw)
                });
                // A question about an unknown value has an unknown answer (not False:
                // `assert isinstance(name, str)` on an unknown name must not fail).
                if let Some(u) = unknown {
                    if matches!(
                        b,
                        BuiltinId::Isinstance
                            | BuiltinId::Issubclass
                            | BuiltinId::Callable
                            | BuiltinId::Hasattr
                    ) {
                        return Ok(u);
                    }
                }
                match self.call_builtin(b, this, args, kwargs) {
                    // A built-in that cannot work on an unknown gives an unknown.
                    Err(Unwind::Raise { .. }) if unknown.is_some() => Ok(unknown.unwrap()),
                    r => r,
                }
            }
            Object::Class(_) => {
                let unknown = self.first_unknown(&args).or_else(|| {
                    let kw: Vec<Value> = kwargs.iter().map(|(_, v)| *v).collect();
                    self.first_unknown(&kw)
                });
                match self.instantiate(id, args, kwargs) {
                    // `int(unknown, 16)`: a constructor that cannot take an unknown
                    // gives an unknown.
                    Err(Unwind::Raise { .. }) if unknown.is_some() => Ok(unknown.unwrap()),
                    r => r,
                }
            }
            Object::Instance(inst) => {
                let cls = inst.class;
                match self.lookup_class_attr(cls, "__call__") {
                    Some(m) => {
                        let bound = self.bind_attr(m, func, cls)?;
                        self.call_value(bound, args, kwargs)
                    }
                    None => {
                        let tn = self.type_name(func);
                        self.type_error(format!("'{tn}' object is not callable"))
                    }
                }
            }
            _ => {
                let tn = self.type_name(func);
                self.type_error(format!("'{tn}' object is not callable"))
            }
        }
    }

    pub(crate) fn call_builtin(
        &mut self,
        id: crate::builtins::BuiltinId,
        this: Option<Value>,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        let Some(f) = self.registry[id.index()] else {
            return Err(self.unsupported(format!("builtin `{id}` is not modelled at import time")));
        };
        let mut a = BArgs {
            id,
            this,
            args,
            kwargs,
        };
        f(self, &mut a)
    }

    pub(crate) fn enter(&mut self) -> R<()> {
        // The machine stack is the real limit: frames of the interpreter are large in debug
        // builds, so the space also bounds the bytes of stack used since the outermost call.
        let marker = 0u8;
        let here = std::hint::black_box(&marker) as *const u8 as usize;
        if self.depth == 0 {
            self.stack_base = here;
        }
        let used = self.stack_base.saturating_sub(here);
        if self.depth >= self.max_depth || used > self.max_stack_bytes {
            return Err(self.err("RuntimeError", "maximum recursion depth exceeded"));
        }
        self.depth += 1;
        self.span_stack.push(self.span);
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
        if let Some(s) = self.span_stack.pop() {
            self.span = s;
        }
    }

    /// Calls a user function: binds arguments, builds the frame and runs it.
    pub(crate) fn call_function(
        &mut self,
        fid: ObjId,
        args: Vec<Value>,
        mut kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        let (code, globals, defaults, closure, fname) = match self.heap.get(fid) {
            Object::Function(f) => (
                f.code.clone(),
                f.globals,
                f.defaults.clone(),
                f.closure.clone(),
                f.name.clone(),
            ),
            _ => unreachable!(),
        };
        let sig = self.signature(&code);
        let mut kwdict = None;
        if sig.kwargs.is_some() {
            let (known, extra): (Vec<_>, Vec<_>) = kwargs
                .into_iter()
                .partition(|(k, _)| sig.argnames.iter().any(|a| a == k));
            kwargs = known;
            let d = self.new_dict();
            for (k, v) in extra {
                let key = self.intern(&k);
                self.setitem(d, key, v)?;
            }
            kwdict = Some(d);
        }
        let (mut locals, extra) = match bind(&fname, &sig, &defaults, args, kwargs) {
            Ok(r) => r,
            Err(e) => return self.type_error(e.0),
        };
        if sig.varargs.is_some() {
            let t = self.new_tuple(extra);
            locals.push(t);
        }
        if let Some(d) = kwdict {
            locals.push(d);
        }
        let nparams = locals.len();
        let mut frame: Frame<Value> = Frame::new(
            code.clone(),
            globals,
            locals.into_iter().map(Some).collect(),
        );
        let mut cells = Vec::with_capacity(code.co_cellvars.len() + code.co_freevars.len());
        for name in &code.co_cellvars {
            let init = code.co_varnames[..nparams]
                .iter()
                .position(|v| v == name)
                .and_then(|i| frame.state.locals[i]);
            cells.push(self.alloc(Object::Cell(init)));
        }
        for c in closure {
            cells.push(Value::Obj(c));
        }
        frame.cells = cells;
        if code.is_generator() {
            return Ok(self.new_generator(frame));
        }
        self.enter()?;
        let class_body = code.has_flag(flags::CLASS_BODY);
        if class_body {
            let ns = self.heap.alloc(Object::Dict(Default::default()));
            self.class_body_spans
                .insert(ns, (code.span, code.name_span));
            frame.namespace = Some(ns);
            self.class_ns_stack.push(ns);
        }
        self.frames.push((globals, frame.namespace));
        let r = eval(self, &mut frame);
        self.frames.pop();
        self.leave();
        if class_body {
            self.class_ns_stack.pop();
        }
        r
    }

    /// Runs module-level code with `module` as globals and the dict `ns` as its local
    /// namespace (`exec code in globals, locals`).
    pub(crate) fn run_code_in_namespace(
        &mut self,
        code: Rc<crate::compiler::CodeObject>,
        module: ObjId,
        ns: ObjId,
    ) -> R {
        let mut frame: Frame<Value> = Frame::new(code, module, Vec::new());
        frame.namespace = Some(ns);
        self.enter()?;
        self.frames.push((module, Some(ns)));
        let r = eval(self, &mut frame);
        self.frames.pop();
        self.leave();
        r
    }

    /// Runs a module body in its module namespace.
    pub(crate) fn run_module_code(
        &mut self,
        code: Rc<crate::compiler::CodeObject>,
        module: ObjId,
    ) -> R {
        let mut frame: Frame<Value> = Frame::new(code, module, Vec::new());
        self.enter()?;
        self.frames.push((module, Some(module)));
        let r = eval(self, &mut frame);
        self.frames.pop();
        self.leave();
        r
    }

    /// Calls a class: built-in constructors, or a new instance whose `__init__` runs.
    pub fn instantiate(
        &mut self,
        cls: ObjId,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        if let Some(ctor) = self.heap.class(cls).and_then(|c| c.constructor) {
            return self.call_builtin(ctor, Some(Value::Obj(cls)), args, kwargs);
        }
        if self.is_metaclass(cls) && args.len() == 3 {
            return self.instantiate_metaclass(cls, args, kwargs);
        }
        let base = self.builtin_base(cls);
        let is_exc = self.is_exception_class(cls);
        if base == Some(self.types.tuple) {
            return self.instantiate_tuple_subclass(cls, args, kwargs);
        }
        if let Some(b) = base {
            if !is_exc && b != self.types.object {
                // A user subclass of a built-in type other than object.
                if let Some(ctor) = self.heap.class(b).and_then(|c| c.constructor) {
                    let bname = self
                        .heap
                        .class(b)
                        .map(|c| c.name.clone())
                        .unwrap_or_else(|| Rc::from("?"));
                    let _ = ctor;
                    // Not modelled: an unknown value with one warning, never an error (a
                    // program may build such objects at import time only, for its tables).
                    let cname = self
                        .heap
                        .class(cls)
                        .map(|c| c.name.clone())
                        .unwrap_or_else(|| Rc::from("?"));
                    let span = self.user_span();
                    let d = crate::diagnostics::Diagnostic::new(
                        "RPY007",
                        span,
                        format!(
                            "instances of `{cname}`, a subclass of the built-in type `{bname}`, are not modelled by rpy-lsp: what comes from them is unknown, and the code using it is not checked"
                        ),
                    );
                    if !self.diagnostics.contains(&d) {
                        self.diagnostics.push(d);
                    }
                    return Ok(self.alloc(Object::Unknown {
                        name: Rc::from(format!("{cname} instance")),
                        instance_of: Some(cls),
                    }));
                }
            }
        }
        let inst = self.heap.alloc(Object::Instance(Instance {
            class: cls,
            dict: AttrMap::default(),
        }));
        let v = Value::Obj(inst);
        if is_exc {
            self.init_exception_args(inst, args.clone());
        }
        match self.lookup_class_attr(cls, "__init__") {
            Some(init) => {
                if let Value::Obj(fid) = init {
                    if let Object::Builtin { id, .. } = self.heap.get(fid) {
                        if *id == crate::builtins::BuiltinId::ObjectDunderInit {
                            if !args.is_empty() || !kwargs.is_empty() {
                                return self.type_error("object() takes no parameters");
                            }
                            return Ok(v);
                        }
                    }
                }
                let bound = self.bind_attr(init, v, cls)?;
                let r = self.call_value(bound, args, kwargs)?;
                if r != Value::None {
                    let tn = self.type_name(r);
                    return self.type_error(format!("__init__() should return None, not '{tn}'"));
                }
            }
            None => {
                if (!args.is_empty() || !kwargs.is_empty()) && !is_exc {
                    return self.type_error("this constructor takes no arguments");
                }
            }
        }
        Ok(v)
    }

    /// Calls a user subclass of `tuple`, as `type.__call__` does: its `__new__` (a user
    /// one, an implicit static method called with the class first, or `tuple.__new__`),
    /// then a user `__init__` when the result is an instance of the class.
    fn instantiate_tuple_subclass(
        &mut self,
        cls: ObjId,
        args: Vec<Value>,
        kwargs: Vec<(Rc<str>, Value)>,
    ) -> R {
        let new = self.lookup_class_attr(cls, "__new__");
        let user_new = new.and_then(|f| match f {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Function(_) => Some(f),
                Object::StaticMethod(g) => Some(*g),
                _ => None,
            },
            _ => None,
        });
        let mut full = Vec::with_capacity(args.len() + 1);
        full.push(Value::Obj(cls));
        full.extend(args.iter().copied());
        let v = match user_new {
            Some(f) => self.call_value(f, full, kwargs.clone())?,
            None if kwargs.is_empty() => {
                let tnew = self.builtin(crate::builtins::BuiltinId::TupleDunderNew);
                self.call_value(tnew, full, Vec::new())?
            }
            None => return self.type_error("tuple() does not take keyword arguments"),
        };
        let is_instance = matches!(v, Value::Obj(id) if self.heap.tuple_class(id)
            .is_some_and(|c| self.is_subclass(c, cls)));
        if !is_instance {
            return Ok(v);
        }
        if let Some(init @ Value::Obj(fid)) = self.lookup_class_attr(cls, "__init__") {
            if matches!(self.heap.get(fid), Object::Function(_)) {
                let bound = self.bind_attr(init, v, cls)?;
                self.call_value(bound, args, kwargs)?;
            }
        }
        Ok(v)
    }

    /// Calls method `name` of `obj` (looked up like an attribute).
    pub fn call_method(&mut self, obj: Value, name: &str, args: Vec<Value>) -> R {
        let n: Rc<str> = Rc::from(name);
        let m = self.getattr(obj, &n)?;
        self.call_value(m, args, Vec::new())
    }

    /// The special method `name` of an instance of a user class, if it defines one.
    pub(crate) fn special_method(&self, v: Value, name: &str) -> Option<Value> {
        let Value::Obj(id) = v else { return None };
        let cls = match self.heap.get(id) {
            Object::Instance(inst) => inst.class,
            // a class built by a metaclass gets its special methods from it (typing's
            // `Generic[T]` is `GenericMeta.__getitem__`)
            Object::Class(_) => *self.metaclasses.get(&id)?,
            _ => return None,
        };
        let m = self.lookup_class_attr(cls, name)?;
        // Built-in methods of the exception classes (`__str__`…) count too.
        Some(m)
    }

    /// Calls a special method found by [`Self::special_method`].
    pub(crate) fn call_special(&mut self, v: Value, m: Value, args: Vec<Value>) -> R {
        let cls = self.type_of(v);
        let bound = self.bind_attr(m, v, cls)?;
        self.call_value(bound, args, Vec::new())
    }

    /// `yield`: suspends the running generator frame (see `generators.rs`).
    pub(crate) fn do_yield(&mut self, v: Value) -> R {
        if self.running_generators == 0 {
            return Err(self.unsupported("`yield` outside a generator function"));
        }
        self.yielded = Some(v);
        Err(crate::interpreter::Unwind::Stop)
    }
}
