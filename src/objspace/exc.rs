//! Exceptions: creating instances of the built-in exception classes, raising them, and
//! describing an escaping exception for a diagnostic.

use super::object::{AttrMap, Instance, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::interpreter::Unwind;

impl ObjSpace {
    /// Sets `args`, `message` (and `errno`/`strerror` for EnvironmentError) on an exception
    /// instance, as `BaseException.__new__`/`__init__` do.
    pub(crate) fn init_exception_args(&mut self, inst: ObjId, args: Vec<Value>) {
        let message = if args.len() == 1 {
            args[0]
        } else {
            self.new_str(b"")
        };
        let env = self.types.exceptions["EnvironmentError"];
        let cls = match self.heap.get(inst) {
            Object::Instance(i) => i.class,
            _ => return,
        };
        let is_env = self.is_subclass(cls, env);
        let mut extra = Vec::new();
        if is_env {
            if (2..=3).contains(&args.len()) {
                extra.push(("errno", args[0]));
                extra.push(("strerror", args[1]));
                extra.push((
                    "filename",
                    if args.len() == 3 {
                        args[2]
                    } else {
                        Value::None
                    },
                ));
            } else {
                extra.push(("errno", Value::None));
                extra.push(("strerror", Value::None));
                extra.push(("filename", Value::None));
            }
        }
        let tuple = self.new_tuple(args);
        if let Object::Instance(i) = self.heap.get_mut(inst) {
            i.dict.set("args", tuple);
            i.dict.set("message", message);
            for (k, v) in extra {
                i.dict.set(k, v);
            }
        }
    }

    /// A new instance of a built-in exception class with the given args (no `__init__` run).
    pub fn new_exception(&mut self, cls: ObjId, args: Vec<Value>) -> Value {
        let id = self.heap.alloc(Object::Instance(Instance {
            class: cls,
            dict: AttrMap::default(),
        }));
        self.init_exception_args(id, args);
        Value::Obj(id)
    }

    /// Raises an instance: records where it was raised (innermost user code) first.
    pub(crate) fn raise_instance(&mut self, inst: Value) -> Unwind<Value> {
        let cls = self.type_of(inst);
        if let Value::Obj(id) = inst {
            let span = self.user_span();
            self.raise_spans.entry(id).or_insert(span);
        }
        Unwind::Raise {
            etype: Value::Obj(cls),
            evalue: inst,
        }
    }

    /// Raises the built-in exception `name` with a message.
    pub fn err(&mut self, name: &str, msg: impl AsRef<str>) -> Unwind<Value> {
        let cls = self.exc_class(name);
        let m = self.new_str(msg.as_ref().as_bytes());
        let inst = self.new_exception(cls, vec![m]);
        self.raise_instance(inst)
    }

    /// Raises the built-in exception `name` with an arbitrary argument (KeyError).
    pub fn err_value(&mut self, name: &str, arg: Value) -> Unwind<Value> {
        let cls = self.exc_class(name);
        let inst = self.new_exception(cls, vec![arg]);
        self.raise_instance(inst)
    }

    pub fn type_error<T>(&mut self, msg: impl AsRef<str>) -> R<T> {
        Err(self.err("TypeError", msg))
    }

    pub fn value_error<T>(&mut self, msg: impl AsRef<str>) -> R<T> {
        Err(self.err("ValueError", msg))
    }

    /// `raise exc` / `raise exc, arg`: normalizes to class and instance.
    pub(crate) fn do_raise(&mut self, exc: Value, arg: Option<Value>) -> Unwind<Value> {
        let arg = arg.filter(|a| *a != Value::None);
        if let Value::Obj(id) = exc {
            match self.heap.get(id) {
                Object::Class(_) if self.is_exception_class(id) => {
                    let args = match arg {
                        None => vec![],
                        Some(a) if self.isinstance(a, id) => return self.raise_instance(a),
                        Some(Value::Obj(t)) if matches!(self.heap.get(t), Object::Tuple(_)) => {
                            match self.heap.get(t) {
                                Object::Tuple(items) => items.clone(),
                                _ => unreachable!(),
                            }
                        }
                        Some(a) => vec![a],
                    };
                    return match self.call_value(exc, args, Vec::new()) {
                        Ok(inst) => self.raise_instance(inst),
                        Err(e) => e,
                    };
                }
                Object::Instance(i) if self.is_exception_class(i.class) => {
                    if arg.is_some() {
                        return self.err(
                            "TypeError",
                            "instance exception may not have a separate value",
                        );
                    }
                    return self.raise_instance(exc);
                }
                _ => {}
            }
        }
        let tn = self.type_name(exc);
        self.err(
            "TypeError",
            format!("exceptions must be old-style classes or derived from BaseException, not {tn}"),
        )
    }

    /// `str()` of an exception instance, lossy, without running user code that fails.
    pub fn exception_text(&mut self, evalue: Value) -> String {
        let cls = self.type_of(evalue);
        let cname = match self.heap.get(cls) {
            Object::Class(c) => c.name.to_string(),
            _ => "?".into(),
        };
        let text = match self.str_value(evalue) {
            Ok(s) => String::from_utf8_lossy(&s).into_owned(),
            Err(_) => String::new(),
        };
        if text.is_empty() {
            cname
        } else {
            format!("{cname}: {text}")
        }
    }

    /// The class name of an exception value.
    pub fn exception_class_name(&self, evalue: Value) -> String {
        let cls = self.type_of(evalue);
        match self.heap.get(cls) {
            Object::Class(c) => c.name.to_string(),
            _ => "?".into(),
        }
    }
}
