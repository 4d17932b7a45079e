//! `str()` and `repr()` of every object. Float formatting is in `floats`, `%` formatting
//! and `str.format` in `templates`.

mod floats;
mod templates;

pub use floats::{complex_format, float_repr, float_str, format_e, format_f, format_g, formatd};

use super::object::{Object, Value};
use super::{ObjSpace, R};

/// Python 2's `repr` of a byte string (the compiler's, which `graph` and `dis` print too).
pub fn repr_bytes(s: &[u8]) -> Vec<u8> {
    let mut out = String::with_capacity(s.len() + 2);
    crate::compiler::disasm::repr_bytes(s, &mut out);
    out.into_bytes()
}

fn repr_unicode(s: &crate::compiler::UStr) -> Vec<u8> {
    let mut out = String::with_capacity(s.len() + 3);
    crate::compiler::disasm::repr_unicode(s, &mut out);
    out.into_bytes()
}

impl ObjSpace {
    /// Python 2 `str(v)` as bytes.
    pub fn str_value(&mut self, v: Value) -> R<Vec<u8>> {
        match v {
            Value::None => Ok(b"None".to_vec()),
            Value::Bool(b) => Ok(if b {
                b"True".to_vec()
            } else {
                b"False".to_vec()
            }),
            Value::Int(i) => Ok(i.to_string().into_bytes()),
            Value::Float(f) => Ok(float_str(f).into_bytes()),
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => Ok(s.to_vec()),
                Object::Unicode(u) => {
                    if u.is_ascii() {
                        Ok(u.codes().iter().map(|&c| c as u8).collect())
                    } else {
                        let (pos, c) = u
                            .codes()
                            .iter()
                            .copied()
                            .enumerate()
                            .find(|&(_, c)| c >= 128)
                            .unwrap_or((0, u32::from('?')));
                        Err(self.err(
                            "UnicodeEncodeError",
                            format!(
                                "'ascii' codec can't encode character u'\\x{:x}' in position {pos}: ordinal not in range(128)",
                                c
                            ),
                        ))
                    }
                }
                Object::Long(i) => Ok(i.to_string().into_bytes()),
                Object::Complex(re, im) => Ok(complex_format(*re, *im, false).into_bytes()),
                Object::RInt { value, .. } => Ok(value.to_string().into_bytes()),
                Object::Instance(inst) => {
                    let cls = inst.class;
                    if let Some(m) = self.lookup_class_attr(cls, "__str__") {
                        let is_builtin = matches!(m, Value::Obj(mid) if matches!(self.heap.get(mid), Object::Builtin { .. }));
                        if !is_builtin {
                            let r = self.call_special(v, m, vec![])?;
                            return match r {
                                Value::Obj(rid)
                                    if matches!(
                                        self.heap.get(rid),
                                        Object::Str(_) | Object::Unicode(_)
                                    ) =>
                                {
                                    self.str_value(r)
                                }
                                _ => {
                                    let tn = self.type_name(r);
                                    self.type_error(format!(
                                        "__str__ returned non-string (type {tn})"
                                    ))
                                }
                            };
                        }
                    }
                    if self.is_exception_class(cls) {
                        return self.exception_str(v);
                    }
                    self.repr_value(v)
                }
                _ => self.repr_value(v),
            },
        }
    }

    /// `BaseException.__str__`.
    pub(crate) fn exception_str(&mut self, v: Value) -> R<Vec<u8>> {
        let Value::Obj(id) = v else {
            return Ok(Vec::new());
        };
        let (cls, args) = match self.heap.get(id) {
            Object::Instance(i) => (i.class, i.dict.get("args")),
            _ => return Ok(Vec::new()),
        };
        let items = match args {
            Some(Value::Obj(t)) => match self.heap.get(t) {
                Object::Tuple(items) => items.clone(),
                _ => vec![],
            },
            _ => vec![],
        };
        let key_error = self.types.exceptions["KeyError"];
        match items.len() {
            0 => Ok(Vec::new()),
            1 if self.is_subclass(cls, key_error) => self.repr_value(items[0]),
            1 => self.str_value(items[0]),
            _ => {
                let t = args.unwrap_or(Value::None);
                self.repr_value(t)
            }
        }
    }

    /// Python 2 `repr(v)` as bytes.
    pub fn repr_value(&mut self, v: Value) -> R<Vec<u8>> {
        self.repr_depth(v, 0)
    }

    fn repr_seq(&mut self, items: &[Value], open: &str, close: &str, depth: usize) -> R<Vec<u8>> {
        let mut out = open.as_bytes().to_vec();
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend(self.repr_depth(x, depth + 1)?);
        }
        out.extend_from_slice(close.as_bytes());
        Ok(out)
    }

    fn qualified_class_name(&self, cls: super::object::ObjId) -> String {
        match self.heap.get(cls) {
            Object::Class(c) => {
                let module = c.dict.get("__module__").and_then(|m| self.text_of(m));
                match module {
                    Some(m) if c.builtin.is_none() => format!("{m}.{}", c.name),
                    _ => c.name.to_string(),
                }
            }
            _ => "?".into(),
        }
    }

    fn repr_depth(&mut self, v: Value, depth: usize) -> R<Vec<u8>> {
        if depth > 100 {
            return Ok(b"...".to_vec());
        }
        let Value::Obj(id) = v else {
            return match v {
                Value::Float(f) => Ok(float_repr(f).into_bytes()),
                _ => self.str_value(v),
            };
        };
        let addr = self.id_of(v);
        let out: String = match self.heap.get(id) {
            Object::Str(s) => return Ok(repr_bytes(s)),
            Object::Unicode(u) => return Ok(repr_unicode(u)),
            Object::ByteArray(b) => {
                let mut r = b"bytearray(b".to_vec();
                r.extend(repr_bytes(b));
                r.push(b')');
                return Ok(r);
            }
            Object::Long(i) => format!("{i}L"),
            Object::Complex(re, im) => complex_format(*re, *im, true),
            Object::Unknown { name, .. } => format!("<unknown {name}>"),
            Object::RInt { kind, value } => match kind {
                super::object::IntKind::Signed => value.to_string(),
                _ => format!("{value}L"),
            },
            Object::Tuple(items) => {
                let items = items.clone();
                if items.len() == 1 {
                    let mut r = b"(".to_vec();
                    r.extend(self.repr_depth(items[0], depth + 1)?);
                    r.extend_from_slice(b",)");
                    return Ok(r);
                }
                return self.repr_seq(&items, "(", ")", depth);
            }
            Object::List(items) => {
                let items = items.clone();
                return self.repr_seq(&items, "[", "]", depth);
            }
            Object::Dict(d) => {
                let entries = d.py_entries();
                let mut out = b"{".to_vec();
                for (i, (k, x)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    out.extend(self.repr_depth(k, depth + 1)?);
                    out.extend_from_slice(b": ");
                    out.extend(self.repr_depth(x, depth + 1)?);
                }
                out.push(b'}');
                return Ok(out);
            }
            Object::Set(d) => {
                let keys: Vec<Value> = d.py_entries().into_iter().map(|e| e.0).collect();
                return self.repr_seq(&keys, "set([", "])", depth);
            }
            Object::Function(f) => format!("<function {} at 0x{:x}>", f.name, addr),
            Object::Builtin {
                id,
                bound_self: None,
            } => format!("<built-in function {}>", id.short_name()),
            Object::Builtin {
                id,
                bound_self: Some(s),
            } => {
                let s = *s;
                let short = id.short_name();
                format!(
                    "<built-in method {short} of {} object at 0x{:x}>",
                    self.type_name(s),
                    self.id_of(s)
                )
            }
            Object::Class(c) => {
                if c.builtin.is_some() {
                    if self.is_exception_class(id) {
                        format!("<type 'exceptions.{}'>", c.name)
                    } else {
                        format!("<type '{}'>", c.name)
                    }
                } else {
                    format!("<class '{}'>", self.qualified_class_name(id))
                }
            }
            Object::Instance(inst) => {
                let cls = inst.class;
                if let Some(m) = self.lookup_class_attr(cls, "__repr__") {
                    let is_builtin = matches!(m, Value::Obj(mid) if matches!(self.heap.get(mid), Object::Builtin { .. }));
                    if !is_builtin {
                        let r = self.call_special(v, m, vec![])?;
                        return self.str_value(r);
                    }
                }
                if self.is_exception_class(cls) {
                    let args = match self.heap.get(id) {
                        Object::Instance(i) => i.dict.get("args"),
                        _ => None,
                    };
                    let cname = self
                        .heap
                        .class(cls)
                        .map(|c| c.name.to_string())
                        .unwrap_or_default();
                    let mut out = cname.into_bytes();
                    match args {
                        Some(t) => {
                            let items = match t {
                                Value::Obj(tid) => match self.heap.get(tid) {
                                    Object::Tuple(items) => items.clone(),
                                    _ => vec![],
                                },
                                _ => vec![],
                            };
                            if items.len() == 1 {
                                out.push(b'(');
                                out.extend(self.repr_depth(items[0], depth + 1)?);
                                out.extend_from_slice(b",)");
                            } else {
                                out.extend(self.repr_depth(t, depth + 1)?);
                            }
                        }
                        None => out.extend_from_slice(b"()"),
                    }
                    return Ok(out);
                }
                format!(
                    "<{} object at 0x{:x}>",
                    self.qualified_class_name(cls),
                    addr
                )
            }
            Object::Module(m) => {
                let name = m.name.clone();
                let path = self.module_info.get(&id).and_then(|i| i.path.clone());
                match path {
                    Some(p) => format!("<module '{}' from '{}'>", name, p.display()),
                    None => format!("<module '{name}' (built-in)>"),
                }
            }
            Object::UnboundMethod { func, class } => {
                let fname = self.heap.function(*func).map(|f| f.name.to_string());
                let cname = self.heap.class(*class).map(|c| c.name.to_string());
                format!(
                    "<unbound method {}.{}>",
                    cname.unwrap_or_default(),
                    fname.unwrap_or_else(|| "?".into())
                )
            }
            Object::BoundMethod { func, self_value } => {
                let (f, s) = (*func, *self_value);
                let fname = match self.heap.function(f) {
                    Some(func) => func.name.to_string(),
                    None => "?".into(),
                };
                let cls = self.type_of(s);
                let cname = self
                    .heap
                    .class(cls)
                    .map(|c| c.name.to_string())
                    .unwrap_or_default();
                let srepr = self.repr_depth(s, depth + 1)?;
                format!(
                    "<bound method {cname}.{fname} of {}>",
                    String::from_utf8_lossy(&srepr)
                )
            }
            Object::StaticMethod(_) => format!("<staticmethod object at 0x{addr:x}>"),
            Object::ClassMethod(_) => format!("<classmethod object at 0x{addr:x}>"),
            Object::Property { .. } => format!("<property object at 0x{addr:x}>"),
            Object::Cell(_) => format!("<cell at 0x{addr:x}>"),
            Object::Code(c) => format!(
                "<code object {} at 0x{addr:x}, file \"{}\">",
                c.co_name, c.co_filename
            ),
            Object::Iterator(_) => format!("<iterator object at 0x{addr:x}>"),
            Object::Slice(a, b, c) => {
                let (a, b, c) = (*a, *b, *c);
                let mut out = b"slice(".to_vec();
                out.extend(self.repr_depth(a, depth + 1)?);
                out.extend_from_slice(b", ");
                out.extend(self.repr_depth(b, depth + 1)?);
                out.extend_from_slice(b", ");
                out.extend(self.repr_depth(c, depth + 1)?);
                out.push(b')');
                return Ok(out);
            }
            Object::Ellipsis => "Ellipsis".into(),
            Object::NotImplemented => "NotImplemented".into(),
        };
        Ok(out.into_bytes())
    }
}
