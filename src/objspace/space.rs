//! `impl Space for ObjSpace`: the frame interpreter's view of the concrete object space.

use super::dict::DictOps;
use super::object::{Function, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::compiler::{CodeObject, Const};
use crate::diagnostics::Diagnostic;
use crate::interpreter::{Branch, CallArgs, Frame, IterNext, Op, OpResult, Space, Unwind};
use crate::syntax::Span;
use std::rc::Rc;

impl ObjSpace {
    fn name_error(&mut self, name: &str, global: bool) -> Unwind<Value> {
        let msg = if global {
            format!("global name '{name}' is not defined")
        } else {
            format!("name '{name}' is not defined")
        };
        self.err("NameError", msg)
    }

    /// A name that is not a local: in the module `globals` (when `search_module`: not
    /// when it is the namespace already searched), then among the built-ins; unknown in a
    /// module whose namespace got unknown contents, else a NameError (`global name` for
    /// the global lookup of a function).
    fn load_past_locals(
        &mut self,
        globals: ObjId,
        name: &Rc<str>,
        search_module: bool,
        global_lookup: bool,
    ) -> R {
        if search_module {
            if let Some(v) = self.module_attr(globals, name) {
                return Ok(v);
            }
        }
        if let Some(v) = self.builtin_lookup(name) {
            return Ok(v);
        }
        if let Some(v) = self.site_builtin(name) {
            return Ok(v);
        }
        if self.unknown_globals.contains(&globals) {
            return Ok(self.unknown_global(name));
        }
        Err(self.name_error(name, global_lookup))
    }

    /// A built-in CPython's `site` adds (`exit`, `quit`, `help`…), from the bundled
    /// `__rpy_site__` model, imported the first time one is used (most programs never
    /// do) and then kept among the built-ins.
    fn site_builtin(&mut self, name: &str) -> Option<Value> {
        const SITE_NAMES: [&str; 6] = ["exit", "quit", "copyright", "credits", "license", "help"];
        if !SITE_NAMES.contains(&name) {
            return None;
        }
        let model = self.import_absolute("__rpy_site__").ok()?;
        let v = self.module_attr(model, name)?;
        if let Object::Module(m) = self.heap.get_mut(self.builtins_module) {
            m.dict.set(name, v);
        }
        Some(v)
    }

    /// A global missing from a module whose namespace got unknown contents.
    fn unknown_global(&mut self, name: &str) -> Value {
        self.warn_unknown(name, "the global");
        self.new_unknown(name)
    }

    fn builtin_lookup(&self, name: &str) -> Option<Value> {
        self.module_attr(self.builtins_module, name)
    }

    pub(crate) fn const_value(&mut self, c: &Const) -> Value {
        match c {
            Const::None => Value::None,
            Const::Bool(b) => Value::Bool(*b),
            Const::Int(i) => Value::Int(*i),
            Const::Long(i) => self.alloc(Object::Long(*i)),
            Const::BigLong(i) => Value::Obj(self.heap.alloc_big_long(i.clone())),
            Const::Float(f) => Value::Float(*f),
            Const::Complex(re, im) => self.alloc(Object::Complex(*re, *im)),
            Const::Str(s) => self.str_const(s),
            Const::Unicode(u) => self.alloc(Object::Unicode(u.clone())),
            Const::Tuple(items) => {
                let v: Vec<Value> = items.iter().map(|c| self.const_value(c)).collect();
                self.new_tuple(v)
            }
            Const::Code(code) => self.alloc(Object::Code(code.clone())),
            Const::Ellipsis => self.builtin_lookup("Ellipsis").unwrap_or(Value::None),
        }
    }
}

impl ObjSpace {
    /// Import-time code branched on or iterated over an unknown value (the flow space
    /// judges such code itself: only with frames, at import time).
    /// `what` is the unknown value, which `run` and `build` name when they refuse the program.
    fn note_unknown_control(&mut self, what: Value) {
        if self.unknown_control.is_none() && !self.frames.is_empty() {
            self.unknown_control = Some(self.user_span());
            self.unknown_control_name = self.unknown_name(what);
        }
    }
}

impl ObjSpace {
    /// The error that stops import-time evaluation past its memory budget. Not a Python
    /// `MemoryError`: user code must not be able to catch it and go on.
    pub(crate) fn out_of_memory(&self) -> Unwind<Value> {
        Unwind::Error(Box::new(Diagnostic::new(
            "RPY004",
            self.user_span(),
            format!(
                "import-time evaluation stopped: it allocated more than {} MiB",
                self.max_memory / (1024 * 1024)
            ),
        )))
    }
}

impl ObjSpace {
    /// Fails once import-time evaluation is past its memory budget (for loops inside
    /// built-ins, which run no instructions).
    pub(crate) fn check_memory(&self) -> Result<(), Unwind<Value>> {
        if crate::sandbox::thread_bytes() - self.memory_base > self.max_memory {
            return Err(self.out_of_memory());
        }
        Ok(())
    }

    /// The MemoryError of a string result longer than the model builds.
    pub(crate) fn check_text_len(&mut self, len: usize) -> Result<(), Unwind<Value>> {
        if len > super::MAX_ITEMS {
            return Err(self.err("MemoryError", "string too long for the import-time model"));
        }
        Ok(())
    }
}

impl Space for ObjSpace {
    type Value = Value;

    fn set_span(&mut self, span: Span) {
        self.span = span;
    }

    fn before_instr(&mut self, frame: &Frame<Value>) -> OpResult<Value, ()> {
        self.steps += 1;
        if self.depth == 1 && self.main_import.is_some() {
            self.at_top_level(frame);
        }
        if crate::sandbox::thread_bytes() - self.memory_base > self.max_memory {
            return Err(self.out_of_memory());
        }
        if self.steps.is_multiple_of(4096) && self.started.elapsed() > self.max_time {
            return Err(Unwind::Error(Box::new(Diagnostic::new(
                "RPY004",
                self.user_span(),
                format!(
                    "import-time evaluation stopped after {} seconds of CPU time (endless loop at import time? `--import-budget SECONDS` of check, run and build allows more)",
                    self.max_time.as_secs_f64()
                ),
            ))));
        }
        if self.steps > self.max_steps {
            return Err(Unwind::Error(Box::new(Diagnostic::new(
                "RPY004",
                self.user_span(),
                format!(
                    "import-time evaluation stopped after {} steps (endless loop at import time?)",
                    self.max_steps
                ),
            ))));
        }
        Ok(())
    }

    fn constant(&mut self, c: &Const) -> Value {
        self.const_value(c)
    }

    fn wrap(&mut self, v: Value) -> Value {
        v
    }

    fn name_const(&mut self, name: &Rc<str>) -> Value {
        self.intern(name)
    }

    fn const_str(&self, v: &Value) -> Option<Rc<str>> {
        let Value::Obj(id) = *v else { return None };
        if let Some(n) = self.interned_rev.get(&id) {
            return Some(n.clone());
        }
        match self.heap.get(id) {
            Object::Str(b) => std::str::from_utf8(b).ok().map(Rc::from),
            Object::Unicode(u) => u.to_str().map(|s| Rc::from(s.as_str())),
            _ => None,
        }
    }

    fn presize_dict(&mut self, d: &Value, n: usize) {
        // `_PyDict_NewPresized`: only a display of more than five items
        if n > 5 {
            if let Value::Obj(id) = *d {
                if let Object::Dict(dict) = self.heap.get_mut(id) {
                    dict.presize(n);
                }
            }
        }
    }

    fn op(&mut self, op: Op, args: &[Value]) -> R {
        let model_object = op == Op::GetAttr
            && !self.is_bundled_module(args[0])
            && self.is_bundled_model_object(args[0]);
        if op == Op::GetAttr && (model_object || self.is_bundled_module(args[0])) {
            let attr = args.get(1).and_then(|a| self.const_str(a));
            let r = match self.do_op(op, args) {
                Ok(r) => r,
                // A name the bundled model lacks (`py.path`, `llop.debug_fatalerror`):
                // unknown, with one warning (at import time here, in the flow space at its
                // operation).
                Err(Unwind::Raise { .. })
                    if attr.as_ref().is_some_and(|a| !a.starts_with("__"))
                        && (model_object || !self.frames.is_empty()) =>
                {
                    let owner = match model_object {
                        true => self.bundled_model_object_name(args[0]),
                        false => self.module_name_of(args[0]),
                    };
                    let full = format!("{}.{}", owner, attr.unwrap_or_else(|| Rc::from("?")));
                    if !self.frames.is_empty() {
                        self.warn_unknown(&full, "the name");
                    }
                    return Ok(self.new_unknown(&full));
                }
                Err(e) => return Err(e),
            };
            // At import time only (the flow space warns at its own operations).
            // (not a C constant of unknown value: its type is known)
            let opaque = matches!(r, Value::Obj(id) if self.heap.opaque(id).is_some());
            if let (Some(what), false, false) =
                (self.unknown_name(r), self.frames.is_empty(), opaque)
            {
                self.warn_unknown(&what, "the name");
            }
            return Ok(r);
        }
        if op == Op::SetAttr && !self.frames.is_empty() {
            self.note_rtyper_patch(args[0]);
        }
        // An ordering of an unknown value (an `rffi_platform` constant `< 32767`) is not
        // known either: Python 2's fallback order of unrelated types would decide it.
        if matches!(op, Op::Lt | Op::Le | Op::Gt | Op::Ge) {
            if let Some(u) = self.first_unknown(args) {
                return Ok(u);
            }
        }
        match self.do_op(op, args) {
            // An operation that cannot work on an unknown value gives an unknown.
            Err(Unwind::Raise { .. }) if self.unknown_name_in(args) => {
                Ok(self.first_unknown(args).unwrap_or(Value::None))
            }
            r => r,
        }
    }

    fn call(&mut self, func: Value, args: CallArgs<Value>) -> R {
        self.call_args(func, args)
    }

    fn branch(&mut self, cond: &Value) -> OpResult<Value, Branch> {
        if self.unknown_name(*cond).is_some() {
            self.note_unknown_control(*cond);
            self.unknown_branches += 1;
            if self.unknown_branches > super::MAX_UNKNOWN_BRANCHES {
                return Err(Unwind::Error(Box::new(Diagnostic::new(
                    "RPY004",
                    self.user_span(),
                    format!(
                        "import-time evaluation stopped after {} branches on values rpy-lsp does not model (endless loop at import time?)",
                        super::MAX_UNKNOWN_BRANCHES
                    ),
                ))));
            }
        }
        Ok(Branch::Known(self.truth(*cond)?))
    }

    fn assert_branch(&mut self, cond: &Value) -> OpResult<Value, Branch> {
        if self.unknown_name(*cond).is_some() {
            // An import-time assertion on a value rpy-lsp does not model (SQPyte's
            // `assert CConfig.SQLITE_MAX_VARIABLE_NUMBER < 32767` on a C constant) is taken
            // to hold: the program was written for it to hold, and failing it would stop the
            // check of everything after it.
            self.note_unknown_control(*cond);
            return Ok(Branch::Known(true));
        }
        self.branch(cond)
    }

    fn next(&mut self, iter: &Value) -> OpResult<Value, IterNext<Value>> {
        if self.unknown_name(*iter).is_some() {
            self.note_unknown_control(*iter);
            // Iterating over an unknown value at import time: nothing is known to come
            // out, and what the loop would have changed is not known either.
            return Ok(IterNext::Skipped);
        }
        Ok(match self.iter_next(*iter)? {
            Some(v) => IterNext::Item(v),
            None => IterNext::Done,
        })
    }

    fn after_skipped_loop(
        &mut self,
        iter: &Value,
        old: Option<&Value>,
        in_place: bool,
    ) -> Option<Value> {
        // a name changed in place keeps its value unless that is a container: a class or
        // module whose method happens to be called `update` stays what it is
        if in_place {
            let Some(Value::Obj(id)) = old else {
                return None;
            };
            if !matches!(
                self.heap.get(*id),
                Object::List(_) | Object::Dict(_) | Object::Set(_)
            ) {
                return None;
            }
        }
        Some(self.derived_unknown(*iter))
    }

    fn after_skipped_namespace_store(&mut self, globals: ObjId) {
        self.unknown_globals.insert(globals);
    }

    fn unpack(&mut self, seq: &Value, n: usize) -> OpResult<Value, Vec<Value>> {
        if self.unknown_name(*seq).is_some() {
            let item = self.derived_unknown(*seq);
            return Ok(vec![item; n]);
        }
        self.unpack_n(*seq, n)
    }

    fn unpack_mismatch(&mut self) -> Unwind<Value> {
        // never reached: `unpack_check` is always true here, `unpack` raises instead
        self.err("ValueError", "wrong number of values to unpack")
    }

    fn exc_match(&mut self, etype: &Value, cls: &Value) -> R {
        Ok(Value::Bool(self.exception_matches(*etype, *cls)?))
    }

    fn raise(&mut self, exc: Value, arg: Option<Value>) -> Unwind<Value> {
        self.do_raise(exc, arg)
    }

    fn unbound_local(&mut self, name: &str) -> Unwind<Value> {
        self.err(
            "UnboundLocalError",
            format!("local variable '{name}' referenced before assignment"),
        )
    }

    fn load_global(&mut self, globals: ObjId, name: &Rc<str>) -> R {
        self.load_past_locals(globals, name, true, true)
    }

    fn store_global(&mut self, globals: ObjId, name: &Rc<str>, v: Value) -> OpResult<Value, ()> {
        self.ns_set(globals, name, v)
    }

    fn delete_global(&mut self, globals: ObjId, name: &Rc<str>) -> OpResult<Value, ()> {
        if self.ns_del(globals, name) {
            Ok(())
        } else {
            Err(self.name_error(name, true))
        }
    }

    fn load_name(&mut self, namespace: ObjId, globals: ObjId, name: &Rc<str>) -> R {
        if let Some(v) = self.ns_get(namespace, name) {
            return Ok(v);
        }
        self.load_past_locals(globals, name, namespace != globals, false)
    }

    fn store_name(&mut self, namespace: ObjId, name: &Rc<str>, v: Value) -> OpResult<Value, ()> {
        self.ns_set(namespace, name, v)
    }

    fn delete_name(&mut self, namespace: ObjId, name: &Rc<str>) -> OpResult<Value, ()> {
        if self.ns_del(namespace, name) {
            Ok(())
        } else {
            Err(self.name_error(name, false))
        }
    }

    fn load_locals(&mut self, namespace: ObjId) -> R {
        match self.heap.get(namespace) {
            Object::Module(m) => {
                let attrs = m.dict.clone();
                Ok(self.dict_of_attrs(&attrs))
            }
            _ => Ok(Value::Obj(namespace)),
        }
    }

    fn cell_get(&mut self, cell: &Value, name: &Rc<str>) -> R {
        if let Value::Obj(id) = *cell {
            if let Object::Cell(c) = self.heap.get(id) {
                return match c {
                    Some(v) => Ok(*v),
                    None => Err(self.err(
                        "NameError",
                        format!("free variable '{name}' referenced before assignment in enclosing scope"),
                    )),
                };
            }
        }
        Err(self.unsupported("closure cell is not a cell"))
    }

    fn cell_set(&mut self, cell: &Value, v: Value) -> OpResult<Value, ()> {
        if let Value::Obj(id) = *cell {
            if let Object::Cell(c) = self.heap.get_mut(id) {
                *c = Some(v);
                return Ok(());
            }
        }
        Err(self.unsupported("closure cell is not a cell"))
    }

    fn make_function(
        &mut self,
        code: Rc<CodeObject>,
        defaults: Vec<Value>,
        closure: Option<Value>,
        globals: ObjId,
    ) -> R {
        let closure: Vec<ObjId> = match closure {
            None => Vec::new(),
            Some(Value::Obj(t)) => match self.heap.get(t) {
                Object::Tuple(items) => items
                    .iter()
                    .filter_map(|v| {
                        if let Value::Obj(c) = v {
                            Some(*c)
                        } else {
                            None
                        }
                    })
                    .collect(),
                _ => return Err(self.unsupported("closure is not a tuple of cells")),
            },
            Some(_) => return Err(self.unsupported("closure is not a tuple of cells")),
        };
        let f = Function {
            name: code.co_name.clone(),
            code,
            globals,
            defaults,
            closure,
            attrs: Default::default(),
        };
        Ok(self.alloc(Object::Function(Box::new(f))))
    }

    fn build_class(&mut self, name: Value, bases: Value, namespace: Value, globals: ObjId) -> R {
        self.make_class(name, bases, namespace, Some(globals))
    }

    fn import_name(&mut self, name: &Rc<str>, fromlist: Value, level: Value, globals: ObjId) -> R {
        let level = match level {
            Value::Int(l) => l,
            Value::None => -1,
            _ => self.int_of(level).unwrap_or(-1) as i64,
        };
        let fromlist = match fromlist {
            Value::None => Vec::new(),
            v => {
                let items = self.iterate(v)?;
                items.into_iter().filter_map(|x| self.name_of(x)).collect()
            }
        };
        self.import_statement(name, &fromlist, level, globals)
    }

    fn import_from(&mut self, module: &Value, name: &Rc<str>) -> R {
        // A name rpython 0.2.1's module lacks, imported by the program: the reference's
        // ImportError, whatever the model (which may give unknowns for the names it lacks)
        // would give. The models import their own helpers from each other.
        if self.is_bundled_module(*module)
            && !self.bundled_files.contains(&self.span.file)
            && super::real_names::lacks(&self.module_name_of(*module), name) == Some(true)
        {
            return Err(self.err("ImportError", format!("cannot import name {name}")));
        }
        match self.getattr_opt(*module, name)? {
            Some(v) => {
                if self.is_bundled_module(*module) && self.unknown_name(v).is_some() {
                    let full = format!("{}.{}", self.module_name_of(*module), name);
                    self.warn_unknown(&full, "the name");
                }
                Ok(v)
            }
            None if self.is_bundled_module(*module) => {
                // A name the bundled model lacks: unknown, with one warning.
                let full = format!("{}.{}", self.module_name_of(*module), name);
                self.warn_unknown(&full, "the name");
                Ok(self.new_unknown(&full))
            }
            None => {
                // A submodule not imported yet (`from pkg import sub`).
                if let Value::Obj(m) = *module {
                    if let Some(v) = self.try_import_submodule(m, name)? {
                        return Ok(v);
                    }
                }
                Err(self.err("ImportError", format!("cannot import name {name}")))
            }
        }
    }

    fn import_star(&mut self, module: Value, namespace: ObjId) -> OpResult<Value, ()> {
        let Value::Obj(m) = module else { return Ok(()) };
        if self.is_bundled_module(module) {
            // A bundled model may lack names of the real module: a global the importing
            // module then lacks is unknown, not undefined (see `STAR_FROM_MODEL_ATTR`).
            self.ns_set(namespace, &Rc::from(super::STAR_FROM_MODEL_ATTR), module)?;
        }
        let (all, entries) = match self.heap.get(m) {
            Object::Module(md) => (
                md.dict.get("__all__"),
                md.dict
                    .iter()
                    .map(|(k, v)| (k.clone(), v))
                    .collect::<Vec<_>>(),
            ),
            _ => return Ok(()),
        };
        match all {
            Some(all) => {
                for n in self.iterate(all)? {
                    let Some(name) = self.name_of(n) else {
                        continue;
                    };
                    let v = self.getattr(module, &name)?;
                    self.ns_set(namespace, &name, v)?;
                }
            }
            None => {
                for (k, v) in entries {
                    if !k.starts_with('_') {
                        self.ns_set(namespace, &k, v)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn print_item(&mut self, dest: Option<Value>, v: Value) -> OpResult<Value, ()> {
        self.do_print_item(dest, v)
    }

    fn print_newline(&mut self, dest: Option<Value>) -> OpResult<Value, ()> {
        self.do_print_newline(dest)
    }

    fn exec(&mut self, args: Vec<Value>) -> OpResult<Value, ()> {
        self.exec_statement(args)
    }

    fn is_builtin_eval(&self, v: &Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(
            self.heap.get(*id),
            Object::Builtin { id: crate::builtins::BuiltinId::Eval, bound_self: None }
        ))
    }

    fn is_builtin_locals(&self, v: &Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(
            self.heap.get(*id),
            Object::Builtin { id: crate::builtins::BuiltinId::Locals, bound_self: None }
        ))
    }

    fn eval_in_frame(
        &mut self,
        text: Value,
        globals: ObjId,
        namespace: Option<ObjId>,
        locals: Vec<(Rc<str>, Value)>,
    ) -> OpResult<Value> {
        self.eval_text(text, globals, namespace, locals)
    }

    fn exec_in_function(
        &mut self,
        code: Value,
        globals: ObjId,
        namespace: Option<ObjId>,
        locals: Vec<(Rc<str>, Value)>,
    ) -> OpResult<Value, crate::interpreter::space::ExecOutcome<Value>> {
        self.exec_with_locals(code, globals, namespace, locals)
    }

    fn yield_value(&mut self, v: Value, _used: bool) -> R {
        self.do_yield(v)
    }
}

impl ObjSpace {
    /// `x.name = v` at import time where `x` comes from an unmodelled module of the
    /// RTyper (`rpython.rtyper.rint`): the program changes the RTyper, so rpy-lsp cannot
    /// tell what the reference's RTyper accepts (one warning, at the first such store).
    fn note_rtyper_patch(&mut self, target: Value) {
        let Some(name) = self.unknown_name(target) else {
            return;
        };
        // (`rpython.rtyper.lltypesystem` holds the low-level types, not the RTyper.)
        if self.rtyper_patched.is_some()
            || !name.starts_with("rpython.rtyper.")
            || name.starts_with("rpython.rtyper.lltypesystem.")
        {
            return;
        }
        let span = self.user_span();
        self.rtyper_patched = Some(span);
        self.diagnostics.push(Diagnostic::new(
            "RPY007",
            span,
            format!(
                "this changes the reference's RTyper (`{name}`), which rpy-lsp does not model: the checks of the RTyper stage are not reported"
            ),
        ));
    }
}

impl crate::interpreter::ConcreteSpace for ObjSpace {
    fn rtyper_patched(&self) -> bool {
        self.rtyper_patched.is_some()
    }
    fn restart_limits(&mut self) {
        ObjSpace::restart_limits(self)
    }
    fn heap(&self) -> &super::object::Heap {
        &self.heap
    }
    fn heap_mut(&mut self) -> &mut super::object::Heap {
        &mut self.heap
    }
    fn os_environ(&self) -> Option<ObjId> {
        self.os_environ
    }
    fn exception_text(&mut self, evalue: Value) -> String {
        ObjSpace::exception_text(self, evalue)
    }
    fn bundled_file_ids(&self) -> Vec<crate::syntax::FileId> {
        self.bundled_files.iter().copied().collect()
    }
    fn loaded_module_globals(&self, name: &str) -> Vec<Value> {
        match self.modules.get(name).map(|&m| self.heap.get(m)) {
            Some(super::object::Object::Module(m)) => m.dict.iter().map(|(_, v)| v).collect(),
            _ => Vec::new(),
        }
    }
    fn call_builtin_const(
        &mut self,
        id: crate::builtins::BuiltinId,
        args: Vec<Value>,
    ) -> Option<Value> {
        self.call_builtin(id, None, args, Vec::new()).ok()
    }
}
