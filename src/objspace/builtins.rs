//! The builtin registry: every function implemented in Rust, by qualified name (`"len"`,
//! `"list.append"`, `"os.write"`, `"rarithmetic.intmask"`…). Later stages (flow space,
//! annotator) identify builtins by that name.
//!
//! Names without a dot are the `__builtin__` functions and the constructors of the built-in
//! classes; `type.method` names are methods of built-in classes (found through the class
//! dict, bound to the receiver); other dotted names are primitives of the bundled models,
//! reachable from bundled sources through the internal module `__rpy__` (`os.write` is
//! `__rpy__.os_write`).

use super::dict::DictOps;
use super::object::{Dict, IntKind, IterState, ObjId, Object, Value};
use super::ops::{wrap_rint, Num};
use super::strings::STR_METHODS;
use super::{ObjSpace, R};
use crate::interpreter::{Op, Unwind};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

/// Arguments of a builtin call.
#[derive(Debug)]
pub struct BArgs {
    /// Qualified name of the builtin being called.
    pub name: Rc<str>,
    /// The receiver of a bound method, or the class for constructors.
    pub this: Option<Value>,
    pub args: Vec<Value>,
    pub kwargs: Vec<(Rc<str>, Value)>,
}

impl BArgs {
    /// The receiver: the bound object, or the first positional argument of an unbound call.
    pub fn take_self(&mut self, sp: &mut ObjSpace) -> R {
        if let Some(t) = self.this {
            return Ok(t);
        }
        if self.args.is_empty() {
            let n = self.name.clone();
            return sp.type_error(format!("descriptor '{n}' needs an argument"));
        }
        Ok(self.args.remove(0))
    }

    /// Checks the number of arguments (positional plus keyword).
    pub fn arity(&self, sp: &mut ObjSpace, min: usize, max: usize) -> R<()> {
        let n = self.args.len() + self.kwargs.len();
        if n < min || self.args.len() > max || n > max {
            let short = self
                .name
                .rsplit('.')
                .next()
                .unwrap_or(&self.name)
                .to_string();
            let msg = if min == max {
                format!(
                    "{short}() takes exactly {min} argument{} ({n} given)",
                    if min == 1 { "" } else { "s" }
                )
            } else if n < min {
                format!(
                    "{short}() takes at least {min} argument{} ({n} given)",
                    if min == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "{short}() takes at most {max} argument{} ({n} given)",
                    if max == 1 { "" } else { "s" }
                )
            };
            return sp.type_error(msg);
        }
        Ok(())
    }

    /// Positional argument `i`, or keyword `name`.
    pub fn get(&self, i: usize, name: &str) -> Option<Value> {
        self.args.get(i).copied().or_else(|| self.kw(name))
    }

    pub fn kw(&self, name: &str) -> Option<Value> {
        self.kwargs
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| *v)
    }

    /// Rejects keyword arguments.
    pub fn no_kwargs(&self, sp: &mut ObjSpace) -> R<()> {
        if let Some((k, _)) = self.kwargs.first() {
            let short = self
                .name
                .rsplit('.')
                .next()
                .unwrap_or(&self.name)
                .to_string();
            return sp.type_error(format!(
                "{short}() got an unexpected keyword argument '{k}'"
            ));
        }
        Ok(())
    }
}

/// A builtin implemented in Rust.
pub type BuiltinFn = fn(&mut ObjSpace, &mut BArgs) -> R;

/// The static part of the registry.
const BUILTINS: &[(&str, BuiltinFn)] = &[
    // __builtin__ functions
    ("len", b_len),
    ("range", b_range),
    ("enumerate", b_enumerate),
    ("zip", b_zip),
    ("map", b_map),
    ("filter", b_filter),
    ("reduce", b_reduce),
    ("sorted", b_sorted),
    ("reversed", b_reversed),
    ("min", b_minmax),
    ("max", b_minmax),
    ("abs", b_abs),
    ("sum", b_sum),
    ("any", b_anyall),
    ("all", b_anyall),
    ("ord", b_ord),
    ("chr", b_chr),
    ("unichr", b_unichr),
    ("repr", b_repr),
    ("hash", b_hash),
    ("id", b_id),
    ("isinstance", b_isinstance),
    ("issubclass", b_issubclass),
    ("hasattr", b_hasattr),
    ("getattr", b_getattr),
    ("setattr", b_setattr),
    ("delattr", b_delattr),
    ("iter", b_iter),
    ("next", b_next),
    ("callable", b_callable),
    ("globals", b_globals),
    ("locals", b_locals),
    ("vars", b_vars),
    ("dir", b_dir),
    ("divmod", b_divmod),
    ("pow", b_pow),
    ("round", b_round),
    ("hex", b_hex),
    ("oct", b_oct),
    ("bin", b_bin),
    ("cmp", b_cmp),
    ("intern", b_intern),
    ("format", b_format),
    ("print", b_print),
    ("print_item", b_print_item),
    ("print_newline", b_print_newline),
    ("__import__", b_import),
    ("eval", b_unsupported),
    ("compile", b_unsupported),
    ("execfile", b_unsupported),
    ("input", b_unsupported),
    ("raw_input", b_unsupported),
    ("open", b_unsupported),
    ("file", b_unsupported),
    ("reload", b_unsupported),
    // constructors of built-in classes
    ("object", c_object),
    ("type", c_type),
    ("int", c_int),
    ("long", c_long),
    ("float", c_float),
    ("bool", c_bool),
    ("str", c_str),
    ("unicode", c_unicode),
    ("tuple", c_tuple),
    ("list", c_list),
    ("dict", c_dict),
    ("set", c_set),
    ("frozenset", c_set),
    ("staticmethod", c_staticmethod),
    ("classmethod", c_classmethod),
    ("property", c_property),
    ("super", c_super),
    ("xrange", c_xrange),
    ("slice", c_slice),
    // methods of built-in classes
    ("object.__init__", m_object_init),
    ("type.__new__", m_type_new),
    ("object.__setattr__", m_object_setattr),
    ("object.__getattribute__", m_object_getattribute),
    ("BaseException.__init__", m_exc_init),
    ("BaseException.__str__", m_exc_str),
    ("BaseException.__repr__", m_exc_repr),
    ("list.append", m_list),
    ("list.extend", m_list),
    ("list.pop", m_list),
    ("list.insert", m_list),
    ("list.remove", m_list),
    ("list.index", m_list),
    ("list.count", m_list),
    ("list.reverse", m_list),
    ("list.sort", m_list),
    ("list.__len__", m_list),
    ("list.__getitem__", m_list),
    ("list.__setitem__", m_list),
    ("list.__contains__", m_list),
    ("tuple.index", m_list),
    ("tuple.count", m_list),
    ("tuple.__len__", m_list),
    ("tuple.__getitem__", m_list),
    ("dict.get", m_dict),
    ("dict.__getitem__", m_slot_item),
    ("dict.__setitem__", m_slot_item),
    ("dict.__delitem__", m_slot_item),
    ("dict.__contains__", m_slot_item),
    ("list.__getitem__", m_slot_item),
    ("list.__setitem__", m_slot_item),
    ("list.__delitem__", m_slot_item),
    ("dict.keys", m_dict),
    ("dict.values", m_dict),
    ("dict.items", m_dict),
    ("dict.iterkeys", m_dict),
    ("dict.itervalues", m_dict),
    ("dict.iteritems", m_dict),
    ("dict.setdefault", m_dict),
    ("dict.update", m_dict),
    ("dict.pop", m_dict),
    ("dict.popitem", m_dict),
    ("dict.has_key", m_dict),
    ("dict.copy", m_dict),
    ("dict.clear", m_dict),
    ("dict.fromkeys", m_dict),
    ("dict.__len__", m_dict),
    ("dict.__getitem__", m_dict),
    ("dict.__setitem__", m_dict),
    ("dict.__contains__", m_dict),
    ("set.add", m_set),
    ("set.remove", m_set),
    ("set.discard", m_set),
    ("set.pop", m_set),
    ("set.update", m_set),
    ("set.union", m_set),
    ("set.intersection", m_set),
    ("set.difference", m_set),
    ("set.issubset", m_set),
    ("set.issuperset", m_set),
    ("set.copy", m_set),
    ("set.clear", m_set),
    ("set.__len__", m_set),
    ("set.__contains__", m_set),
    ("frozenset.union", m_set),
    ("frozenset.intersection", m_set),
    ("frozenset.difference", m_set),
    ("frozenset.issubset", m_set),
    ("frozenset.copy", m_set),
    ("property.setter", m_property),
    ("property.getter", m_property),
    ("property.deleter", m_property),
    ("property.__get__", m_property),
    ("iterator.next", m_iterator_next),
    ("iterator.__iter__", m_iterator_iter),
    ("iterator.__next__", m_iterator_next),
    ("int.__add__", m_number),
    ("int.__sub__", m_number),
    ("int.__mul__", m_number),
    ("int.__eq__", m_number),
    ("int.__lt__", m_number),
    ("int.__hash__", m_number),
    ("int.bit_length", m_number),
    ("long.bit_length", m_number),
    ("float.is_integer", m_number),
    ("function.__get__", m_function_get),
];

fn all_builtins() -> &'static HashMap<&'static str, BuiltinFn> {
    static REG: OnceLock<HashMap<&'static str, BuiltinFn>> = OnceLock::new();
    REG.get_or_init(|| {
        let mut m: HashMap<&'static str, BuiltinFn> = HashMap::new();
        for &(n, f) in BUILTINS {
            m.insert(n, f);
        }
        for &(n, f) in super::generators::GEN_BUILTINS {
            m.insert(n, f);
        }
        for &(n, f) in super::libs::LIB_BUILTINS {
            m.insert(n, f);
        }
        for meth in STR_METHODS {
            for ty in ["str", "unicode"] {
                let name: &'static str = Box::leak(format!("{ty}.{meth}").into_boxed_str());
                m.insert(name, m_string);
            }
        }
        m
    })
}

/// The registry: qualified name → implementation.
pub(crate) fn registry() -> &'static HashMap<&'static str, BuiltinFn> {
    all_builtins()
}

/// Every registered builtin's qualified name, sorted.
pub fn builtin_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = all_builtins().keys().copied().collect();
    v.sort_unstable();
    v
}

// ----- helpers -----

fn m_string(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    sp.string_method(a)
}

fn b_unsupported(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let n = a.name.clone();
    Err(sp.unsupported(format!(
        "`{n}()` cannot be evaluated at import time by rpy-lsp"
    )))
}

impl ObjSpace {
    fn int_arg(&mut self, v: Value, what: &str) -> R<i128> {
        match self.int_of(v) {
            Some(i) => Ok(i),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!("{what}: an integer is required, got {tn}"))
            }
        }
    }

    /// Sorts values with Python 2 `<` (stable merge sort), by key values if given.
    pub(crate) fn sort_values(
        &mut self,
        items: Vec<Value>,
        key: Option<Value>,
        cmp: Option<Value>,
        reverse: bool,
    ) -> R<Vec<Value>> {
        let keys: Vec<Value> = match key {
            Some(k) if k != Value::None => {
                let mut ks = Vec::with_capacity(items.len());
                for &x in &items {
                    ks.push(self.call_value(k, vec![x], Vec::new())?);
                }
                ks
            }
            _ => items.clone(),
        };
        let cmp = cmp.filter(|c| *c != Value::None);
        let mut idx: Vec<usize> = (0..items.len()).collect();
        // Merge sort on indexes with a fallible comparison.
        let mut buf = idx.clone();
        let n = idx.len();
        let mut width = 1;
        while width < n {
            let mut i = 0;
            while i < n {
                let mid = (i + width).min(n);
                let hi = (i + 2 * width).min(n);
                let (mut l, mut r, mut k) = (i, mid, i);
                while l < mid && r < hi {
                    // Take from the right only when right < left (stability).
                    let (x, y) = (keys[idx[r]], keys[idx[l]]);
                    let right_first = match cmp {
                        Some(c) => {
                            let (p, q) = if reverse { (y, x) } else { (x, y) };
                            let res = self.call_value(c, vec![p, q], Vec::new())?;
                            self.int_of(res).unwrap_or(0) < 0
                        }
                        None => {
                            let (p, q) = if reverse { (y, x) } else { (x, y) };
                            let lt = self.compare(Op::Lt, p, q)?;
                            self.truth(lt)?
                        }
                    };
                    if right_first {
                        buf[k] = idx[r];
                        r += 1;
                    } else {
                        buf[k] = idx[l];
                        l += 1;
                    }
                    k += 1;
                }
                while l < mid {
                    buf[k] = idx[l];
                    l += 1;
                    k += 1;
                }
                while r < hi {
                    buf[k] = idx[r];
                    r += 1;
                    k += 1;
                }
                i += 2 * width;
            }
            std::mem::swap(&mut idx, &mut buf);
            width *= 2;
        }
        Ok(idx.into_iter().map(|i| items[i]).collect())
    }

    /// Writes text to the import-time stdout (or stderr).
    pub(crate) fn write_out(&mut self, text: &[u8], to_stderr: bool) {
        let s = String::from_utf8_lossy(text);
        if to_stderr {
            self.stderr.push_str(&s);
        } else {
            self.stdout.push_str(&s);
        }
    }

    /// Writes to a print destination (`None`: stdout).
    fn print_write(&mut self, dest: Option<Value>, text: &[u8]) -> R<()> {
        match dest {
            None | Some(Value::None) => {
                self.write_out(text, false);
                Ok(())
            }
            Some(d) => {
                let s = self.new_str(text);
                self.call_method(d, "write", vec![s])?;
                Ok(())
            }
        }
    }

    /// `print x,` item.
    pub(crate) fn do_print_item(&mut self, dest: Option<Value>, v: Value) -> R<()> {
        let s = match v {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_)) => {
                self.text_of(v).unwrap_or_default().into_bytes()
            }
            _ => self.str_value(v)?,
        };
        if self.softspace {
            self.print_write(dest, b" ")?;
        }
        self.print_write(dest, &s)?;
        self.softspace = !matches!(s.last(), Some(&c) if c.is_ascii_whitespace() && c != b' ');
        Ok(())
    }

    /// End of a `print` statement.
    pub(crate) fn do_print_newline(&mut self, dest: Option<Value>) -> R<()> {
        self.print_write(dest, b"\n")?;
        self.softspace = false;
        Ok(())
    }

    fn callable(&self, v: Value) -> bool {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Function(_)
                | Object::Builtin { .. }
                | Object::Class(_)
                | Object::BoundMethod { .. } => true,
                Object::Instance(i) => self.lookup_class_attr(i.class, "__call__").is_some(),
                _ => false,
            },
            _ => false,
        }
    }

    /// The items of a `dict` value (KeyError-free snapshot).
    fn dict_entries(&self, v: Value) -> Option<Vec<(Value, Value)>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Dict(d) => Some(d.entries.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    pub(crate) fn new_iter(&mut self, items: Vec<Value>) -> Value {
        self.alloc(Object::Iterator(IterState::Seq { items, pos: 0 }))
    }
}

// ----- __builtin__ functions -----

fn b_len(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let n = sp.len_of(a.args[0])?;
    Ok(Value::Int(n as i64))
}

fn range_args(sp: &mut ObjSpace, a: &BArgs) -> R<(i64, i64, i64)> {
    a.arity(sp, 1, 3)?;
    let mut v = Vec::new();
    for &x in &a.args {
        match sp.num(x) {
            Some(Num::I(i, _)) | Some(Num::R(_, i)) => match i64::try_from(i) {
                Ok(i) => v.push(i),
                Err(_) => return Err(sp.err("OverflowError", "range() result has too many items")),
            },
            _ => {
                let tn = sp.type_name(x);
                return sp.type_error(format!("range() integer end argument expected, got {tn}."));
            }
        }
    }
    let (start, stop, step) = match v.len() {
        1 => (0, v[0], 1),
        2 => (v[0], v[1], 1),
        _ => (v[0], v[1], v[2]),
    };
    if step == 0 {
        return sp.value_error("range() step argument must not be zero");
    }
    Ok((start, stop, step))
}

fn b_range(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let (start, stop, step) = range_args(sp, a)?;
    let count = if step > 0 && stop > start {
        ((stop as i128 - start as i128 - 1) / step as i128 + 1) as u64
    } else if step < 0 && start > stop {
        ((start as i128 - stop as i128 - 1) / (-(step as i128)) + 1) as u64
    } else {
        0
    };
    if count > super::MAX_ITEMS as u64 {
        return Err(sp.err("MemoryError", "range() too large for the import-time model"));
    }
    let mut v = Vec::with_capacity(count as usize);
    let mut x = start;
    for _ in 0..count {
        v.push(Value::Int(x));
        x = x.wrapping_add(step);
    }
    Ok(sp.new_list(v))
}

fn c_xrange(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let (start, stop, step) = range_args(sp, a)?;
    let cls = sp.types.xrange;
    let inst = sp.heap.alloc(Object::Instance(super::object::Instance {
        class: cls,
        dict: Default::default(),
    }));
    if let Object::Instance(i) = sp.heap.get_mut(inst) {
        i.dict.set("_start", Value::Int(start));
        i.dict.set("_stop", Value::Int(stop));
        i.dict.set("_step", Value::Int(step));
    }
    Ok(Value::Obj(inst))
}

fn b_enumerate(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let items = sp.iterate(a.args[0])?;
    let start = match a.get(1, "start") {
        Some(v) => sp.int_arg(v, "enumerate")? as i64,
        None => 0,
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.into_iter().enumerate() {
        out.push(sp.new_tuple(vec![Value::Int(start + i as i64), x]));
    }
    Ok(sp.new_iter(out))
}

fn b_zip(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.no_kwargs(sp)?;
    let mut seqs = Vec::new();
    for &x in &a.args.clone() {
        seqs.push(sp.iterate(x)?);
    }
    let n = seqs.iter().map(|s| s.len()).min().unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t: Vec<Value> = seqs.iter().map(|s| s[i]).collect();
        out.push(sp.new_tuple(t));
    }
    Ok(sp.new_list(out))
}

fn b_map(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.len() < 2 {
        return sp.type_error("map() requires at least two args");
    }
    let f = a.args[0];
    let mut seqs = Vec::new();
    for &x in &a.args[1..].to_vec() {
        seqs.push(sp.iterate(x)?);
    }
    let n = seqs.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let args: Vec<Value> = seqs
            .iter()
            .map(|s| s.get(i).copied().unwrap_or(Value::None))
            .collect();
        if f == Value::None {
            if args.len() == 1 {
                out.push(args[0]);
            } else {
                out.push(sp.new_tuple(args));
            }
        } else {
            out.push(sp.call_value(f, args, Vec::new())?);
        }
    }
    Ok(sp.new_list(out))
}

fn b_filter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let f = a.args[0];
    let seq = a.args[1];
    let items = sp.iterate(seq)?;
    let mut out = Vec::new();
    for x in items {
        let keep = if f == Value::None {
            sp.truth(x)?
        } else {
            let r = sp.call_value(f, vec![x], Vec::new())?;
            sp.truth(r)?
        };
        if keep {
            out.push(x);
        }
    }
    match seq {
        Value::Obj(id) => match sp.heap.get(id) {
            Object::Tuple(_) => Ok(sp.new_tuple(out)),
            Object::Str(_) => {
                let mut b = Vec::new();
                for x in out {
                    if let Some(s) = sp.str_bytes(x) {
                        b.extend_from_slice(&s);
                    }
                }
                Ok(sp.new_str_vec(b))
            }
            _ => Ok(sp.new_list(out)),
        },
        _ => Ok(sp.new_list(out)),
    }
}

fn b_reduce(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    let f = a.args[0];
    let items = sp.iterate(a.args[1])?;
    let mut it = items.into_iter();
    let mut acc = match a.args.get(2) {
        Some(&v) => v,
        None => match it.next() {
            Some(v) => v,
            None => return sp.type_error("reduce() of empty sequence with no initial value"),
        },
    };
    for x in it {
        acc = sp.call_value(f, vec![acc, x], Vec::new())?;
    }
    Ok(acc)
}

fn b_sorted(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.is_empty() {
        return sp.type_error("sorted() takes at least 1 argument (0 given)");
    }
    let items = sp.iterate(a.args[0])?;
    let key = a.get(2, "key");
    let cmp = a.get(1, "cmp");
    let reverse = match a.get(3, "reverse") {
        Some(v) => sp.truth(v)?,
        None => false,
    };
    let sorted = sp.sort_values(items, key, cmp, reverse)?;
    Ok(sp.new_list(sorted))
}

fn b_reversed(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    if let Some(m) = sp.special_method(v, "__reversed__") {
        return sp.call_special(v, m, vec![]);
    }
    let mut items = sp.iterate(v)?;
    items.reverse();
    Ok(sp.new_iter(items))
}

fn b_minmax(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let is_max = &*a.name == "max";
    let key = a.kw("key");
    let default = a.kw("default");
    let items = if a.args.len() == 1 {
        sp.iterate(a.args[0])?
    } else if a.args.is_empty() {
        let n = a.name.clone();
        return sp.type_error(format!("{n} expected 1 arguments, got 0"));
    } else {
        a.args.clone()
    };
    if items.is_empty() {
        if let Some(d) = default {
            return Ok(d);
        }
        let n = a.name.clone();
        return sp.value_error(format!("{n}() arg is an empty sequence"));
    }
    let mut best = items[0];
    let mut best_key = match key {
        Some(k) => sp.call_value(k, vec![best], Vec::new())?,
        None => best,
    };
    for &x in &items[1..] {
        let kx = match key {
            Some(k) => sp.call_value(k, vec![x], Vec::new())?,
            None => x,
        };
        let better = if is_max {
            sp.compare(Op::Gt, kx, best_key)?
        } else {
            sp.compare(Op::Lt, kx, best_key)?
        };
        if sp.truth(better)? {
            best = x;
            best_key = kx;
        }
    }
    Ok(best)
}

fn b_abs(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    match sp.num(v) {
        Some(Num::I(i, l)) => match i.checked_abs() {
            Some(r) => Ok(sp.num_value(Num::I(r, l))),
            None => Err(sp.err("OverflowError", "integer overflow")),
        },
        Some(Num::R(k, i)) => Ok(sp.num_value(Num::R(k, i.abs()))),
        Some(Num::F(f)) => Ok(Value::Float(f.abs())),
        None => match sp.special_method(v, "__abs__") {
            Some(m) => sp.call_special(v, m, vec![]),
            None => {
                let tn = sp.type_name(v);
                sp.type_error(format!("bad operand type for abs(): '{tn}'"))
            }
        },
    }
}

fn b_sum(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let items = sp.iterate(a.args[0])?;
    let mut acc = a.get(1, "start").unwrap_or(Value::Int(0));
    if sp.str_bytes(acc).is_some() {
        return sp.type_error("sum() can't sum strings [use ''.join(seq) instead]");
    }
    for x in items {
        acc = sp.binary(Op::Add, acc, x)?;
    }
    Ok(acc)
}

fn b_anyall(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let want = &*a.name == "any";
    let items = sp.iterate(a.args[0])?;
    for x in items {
        if sp.truth(x)? == want {
            return Ok(Value::Bool(want));
        }
    }
    Ok(Value::Bool(!want))
}

fn b_ord(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    if let Value::Obj(id) = v {
        match sp.heap.get(id) {
            Object::Str(s) if s.len() == 1 => return Ok(Value::Int(s[0] as i64)),
            Object::Unicode(u) if u.chars().count() == 1 => {
                return Ok(Value::Int(u.chars().next().unwrap_or('\0') as i64))
            }
            Object::Str(s) => {
                let n = s.len();
                return sp.type_error(format!(
                    "ord() expected a character, but string of length {n} found"
                ));
            }
            Object::Unicode(u) => {
                let n = u.chars().count();
                return sp.type_error(format!(
                    "ord() expected a character, but string of length {n} found"
                ));
            }
            _ => {}
        }
    }
    let tn = sp.type_name(v);
    sp.type_error(format!("ord() expected string of length 1, but {tn} found"))
}

fn b_chr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let i = sp.int_arg(a.args[0], "chr()")?;
    if !(0..256).contains(&i) {
        return sp.value_error("chr() arg not in range(256)");
    }
    Ok(sp.char_str(i as u8))
}

fn b_unichr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let i = sp.int_arg(a.args[0], "unichr()")?;
    match u32::try_from(i).ok().and_then(char::from_u32) {
        Some(c) => {
            let mut buf = [0u8; 4];
            Ok(sp.new_unicode(c.encode_utf8(&mut buf)))
        }
        None => sp.value_error("unichr() arg not in range(0x110000)"),
    }
}

fn b_repr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let s = sp.repr_value(a.args[0])?;
    Ok(sp.new_str_vec(s))
}

fn b_hash(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let h = sp.hash_value(a.args[0])?;
    Ok(Value::Int(h))
}

fn b_id(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Int(sp.id_of(a.args[0])))
}

fn b_isinstance(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let t = Value::Obj(sp.type_of(a.args[0]));
    match sp.issubclass_value(t, a.args[1]) {
        Ok(r) => Ok(Value::Bool(r)),
        Err(_) => {
            sp.type_error("isinstance() arg 2 must be a class, type, or tuple of classes and types")
        }
    }
}

fn b_issubclass(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let r = sp.issubclass_value(a.args[0], a.args[1])?;
    Ok(Value::Bool(r))
}

fn attr_name_arg(sp: &mut ObjSpace, v: Value, f: &str) -> R<Rc<str>> {
    match sp.name_of(v) {
        Some(n) => Ok(n),
        None => sp.type_error(format!("{f}(): attribute name must be string")),
    }
}

fn b_hasattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[1], "hasattr")?;
    match sp.getattr_opt(a.args[0], &n) {
        Ok(r) => Ok(Value::Bool(r.is_some())),
        Err(Unwind::Raise { .. }) => Ok(Value::Bool(false)),
        Err(e) => Err(e),
    }
}

fn b_getattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    let n = attr_name_arg(sp, a.args[1], "getattr")?;
    match a.args.get(2) {
        None => sp.getattr(a.args[0], &n),
        Some(&d) => match sp.getattr_opt(a.args[0], &n) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Ok(d),
            Err(Unwind::Raise {
                etype: Value::Obj(e),
                ..
            }) if sp.is_subclass(e, sp.types.exceptions["AttributeError"]) => Ok(d),
            Err(e) => Err(e),
        },
    }
}

fn b_setattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 3)?;
    let n = attr_name_arg(sp, a.args[1], "setattr")?;
    sp.setattr(a.args[0], &n, a.args[2])?;
    Ok(Value::None)
}

fn b_delattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[1], "delattr")?;
    sp.delattr(a.args[0], &n)?;
    Ok(Value::None)
}

fn b_iter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    if a.args.len() == 2 {
        // iter(callable, sentinel)
        let (f, sentinel) = (a.args[0], a.args[1]);
        let mut out = Vec::new();
        loop {
            let v = sp.call_value(f, vec![], Vec::new())?;
            if sp.eq(v, sentinel)? {
                break;
            }
            out.push(v);
            if out.len() > super::MAX_ITEMS {
                return Err(sp.err(
                    "MemoryError",
                    "iteration too long for the import-time model",
                ));
            }
        }
        return Ok(sp.new_iter(out));
    }
    sp.iter_value(a.args[0])
}

fn b_next(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    match sp.iter_next(a.args[0])? {
        Some(v) => Ok(v),
        None => match a.args.get(1) {
            Some(&d) => Ok(d),
            None => Err(sp.err("StopIteration", "")),
        },
    }
}

fn b_callable(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(Value::Bool(sp.callable(a.args[0])))
}

fn b_globals(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    let g = sp.frames.last().map(|f| f.0);
    match g {
        Some(g) => match sp.heap.get(g) {
            Object::Module(m) => {
                let attrs = m.dict.clone();
                let d = sp.dict_of_attrs(&attrs);
                // `globals()[name] = value` at import time defines a global.
                if let Value::Obj(did) = d {
                    sp.globals_views.insert(did, g);
                }
                Ok(d)
            }
            _ => Ok(sp.new_dict()),
        },
        None => Ok(sp.new_dict()),
    }
}

fn b_locals(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    match sp.frames.last().copied() {
        Some((_, Some(ns))) => match sp.heap.get(ns) {
            Object::Dict(_) => Ok(Value::Obj(ns)),
            Object::Module(m) => {
                let attrs = m.dict.clone();
                Ok(sp.dict_of_attrs(&attrs))
            }
            _ => Ok(sp.new_dict()),
        },
        Some((g, None)) if sp.frames.len() == 1 => match sp.heap.get(g) {
            Object::Module(m) => {
                let attrs = m.dict.clone();
                Ok(sp.dict_of_attrs(&attrs))
            }
            _ => Ok(sp.new_dict()),
        },
        _ => Err(sp.unsupported("`locals()` inside a function is not modelled at import time")),
    }
}

fn b_vars(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        None => b_locals(sp, a),
        Some(&v) => {
            let n: Rc<str> = Rc::from("__dict__");
            sp.getattr(v, &n)
        }
    }
}

fn b_dir(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let mut names: Vec<Rc<str>> = Vec::new();
    match a.args.first() {
        None => {
            return b_locals(sp, a)
                .and_then(|d| sp.iterate(d))
                .map(|v| sp.new_list(v))
        }
        Some(&Value::Obj(id)) => match sp.heap.get(id) {
            Object::Module(m) => names.extend(m.dict.iter().map(|(k, _)| k.clone())),
            Object::Class(c) => {
                for &k in &c.mro {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
            Object::Instance(i) => {
                names.extend(i.dict.iter().map(|(k, _)| k.clone()));
                for &k in sp.mro(i.class) {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
            _ => {
                let t = sp.type_of(Value::Obj(id));
                for &k in sp.mro(t) {
                    if let Object::Class(kc) = sp.heap.get(k) {
                        names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                    }
                }
            }
        },
        Some(&v) => {
            let t = sp.type_of(v);
            for &k in sp.mro(t) {
                if let Object::Class(kc) = sp.heap.get(k) {
                    names.extend(kc.dict.iter().map(|(k, _)| k.clone()));
                }
            }
        }
    }
    names.sort();
    names.dedup();
    let vals: Vec<Value> = names.iter().map(|n| sp.intern(n)).collect();
    Ok(sp.new_list(vals))
}

fn b_divmod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let q = sp.binary(Op::FloorDiv, a.args[0], a.args[1])?;
    let r = sp.binary(Op::Mod, a.args[0], a.args[1])?;
    Ok(sp.new_tuple(vec![q, r]))
}

fn b_pow(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 3)?;
    match a.args.get(2) {
        None | Some(Value::None) => sp.binary(Op::Pow, a.args[0], a.args[1]),
        Some(&m) => {
            let (Some(x), Some(e), Some(m)) =
                (sp.int_of(a.args[0]), sp.int_of(a.args[1]), sp.int_of(m))
            else {
                return sp.type_error(
                    "pow() 3rd argument not allowed unless all arguments are integers",
                );
            };
            if m == 0 {
                return sp.value_error("pow() 3rd argument cannot be 0");
            }
            if e < 0 {
                return sp.type_error(
                    "pow() 2nd argument cannot be negative when 3rd argument specified",
                );
            }
            let mut result: i128 = 1;
            let mut base = x.rem_euclid(m);
            let mut e = e;
            while e > 0 {
                if e & 1 == 1 {
                    result = (result * base).rem_euclid(m);
                }
                base = (base * base).rem_euclid(m);
                e >>= 1;
            }
            if m < 0 && result > 0 {
                result += m;
            }
            Ok(sp.new_int(result))
        }
    }
}

fn b_round(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let Some(x) = sp.float_of(a.args[0]) else {
        return sp.type_error("a float is required");
    };
    let n = match a.get(1, "ndigits") {
        Some(v) => sp.int_arg(v, "round()")? as i32,
        None => 0,
    };
    if !x.is_finite() {
        return Ok(Value::Float(x));
    }
    let r = if n == 0 {
        x.round()
    } else if n > 0 {
        // Round half away from zero on the exact decimal value (Python 2.7).
        let n = (n as usize).min(300);
        let exact = format!("{:.*}", n + 40, x.abs());
        let dot = exact.find('.').unwrap_or(exact.len());
        let tail = exact.get(dot + 1 + n..).unwrap_or("");
        let half = tail.starts_with('5') && tail[1..].bytes().all(|b| b == b'0');
        let mag: f64 = if half {
            // Increment the truncated decimal digits by one unit in the last place.
            let mut digits: Vec<u8> = exact[..dot + 1 + n].bytes().collect();
            let mut i = digits.len();
            loop {
                if i == 0 {
                    digits.insert(0, b'1');
                    break;
                }
                i -= 1;
                match digits[i] {
                    b'.' => continue,
                    b'9' => digits[i] = b'0',
                    d => {
                        digits[i] = d + 1;
                        break;
                    }
                }
            }
            String::from_utf8_lossy(&digits).parse().unwrap_or(x.abs())
        } else {
            format!("{:.*}", n, x.abs()).parse().unwrap_or(x.abs())
        };
        mag.copysign(x)
    } else {
        let p = 10f64.powi(-n);
        (x / p).round() * p
    };
    Ok(Value::Float(r))
}

fn radix_repr(sp: &mut ObjSpace, a: &BArgs, radix: u32) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    let Some(i) = sp.int_of(v) else {
        return sp.type_error("hex()/oct() argument can't be converted to hex/oct");
    };
    let long = matches!(sp.num(v), Some(Num::I(_, true)) | Some(Num::R(..)));
    let neg = if i < 0 { "-" } else { "" };
    let m = i.unsigned_abs();
    let body = match radix {
        16 => format!("0x{m:x}"),
        2 => format!("0b{m:b}"),
        _ => {
            if m == 0 {
                "0".to_string()
            } else {
                format!("0{m:o}")
            }
        }
    };
    let s = format!("{neg}{body}{}", if long && radix != 2 { "L" } else { "" });
    Ok(sp.new_str(s.as_bytes()))
}

fn b_hex(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 16)
}

fn b_oct(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 8)
}

fn b_bin(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    radix_repr(sp, a, 2)
}

fn b_cmp(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    if sp.eq(a.args[0], a.args[1])? {
        return Ok(Value::Int(0));
    }
    let o = sp.cmp_values(a.args[0], a.args[1])?;
    Ok(Value::Int(match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }))
}

fn b_intern(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    if sp.str_bytes(a.args[0]).is_none() {
        return sp.type_error("intern() argument 1 must be string");
    }
    Ok(a.args[0])
}

fn b_format(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let spec = match a.args.get(1) {
        Some(&s) => sp.text_of(s).unwrap_or_default(),
        None => String::new(),
    };
    let s = sp.format_spec(a.args[0], &spec)?;
    Ok(sp.new_str(s.as_bytes()))
}

fn b_print(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let sep = match a.kw("sep") {
        Some(v) if v != Value::None => sp.str_value(v)?,
        _ => b" ".to_vec(),
    };
    let end = match a.kw("end") {
        Some(v) if v != Value::None => sp.str_value(v)?,
        _ => b"\n".to_vec(),
    };
    let dest = a.kw("file").filter(|v| *v != Value::None);
    let mut out = Vec::new();
    for (i, &x) in a.args.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(&sep);
        }
        match x {
            Value::Obj(id) if matches!(sp.heap.get(id), Object::Unicode(_)) => {
                out.extend(sp.text_of(x).unwrap_or_default().into_bytes())
            }
            _ => out.extend(sp.str_value(x)?),
        }
    }
    out.extend_from_slice(&end);
    sp.print_write(dest, &out)?;
    Ok(Value::None)
}

fn b_print_item(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    sp.do_print_item(None, a.args[0])?;
    Ok(Value::None)
}

fn b_print_newline(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 0)?;
    sp.do_print_newline(None)?;
    Ok(Value::None)
}

fn b_import(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.is_empty() {
        return sp.type_error("__import__() takes at least 1 argument (0 given)");
    }
    let Some(name) = sp.name_of(a.args[0]) else {
        return sp.type_error("__import__() argument 1 must be string");
    };
    let fromlist = a.get(3, "fromlist").unwrap_or(Value::None);
    let level = a.get(4, "level").unwrap_or(Value::Int(-1));
    let globals = sp.frames.last().map(|f| f.0).unwrap_or(sp.builtins_module);
    crate::interpreter::Space::import_name(sp, &name, fromlist, level, globals)
}

// ----- constructors -----

fn c_object(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let cls = match a.this {
        Some(Value::Obj(c)) => c,
        _ => sp.types.object,
    };
    let inst = sp.heap.alloc(Object::Instance(super::object::Instance {
        class: cls,
        dict: Default::default(),
    }));
    Ok(Value::Obj(inst))
}

fn c_type(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    match a.args.len() {
        1 => Ok(Value::Obj(sp.type_of(a.args[0]))),
        3 => {
            let globals = sp.frames.last().map(|f| f.0);
            sp.make_class_plain(a.args[0], a.args[1], a.args[2], globals)
        }
        _ => sp.type_error("type() takes 1 or 3 arguments"),
    }
}

/// Parses a Python integer literal in `base` (0: autodetect).
fn parse_int(text: &str, base: u32) -> Option<i128> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(t).trim_start()),
    };
    let t = t.strip_suffix(['l', 'L']).unwrap_or(t);
    let lower = t.to_ascii_lowercase();
    let (base, digits) = match base {
        0 => {
            if let Some(r) = lower.strip_prefix("0x") {
                (16, r.to_string())
            } else if let Some(r) = lower.strip_prefix("0o") {
                (8, r.to_string())
            } else if let Some(r) = lower.strip_prefix("0b") {
                (2, r.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower)
            }
        }
        16 => (16, lower.strip_prefix("0x").unwrap_or(&lower).to_string()),
        8 => (8, lower.strip_prefix("0o").unwrap_or(&lower).to_string()),
        2 => (2, lower.strip_prefix("0b").unwrap_or(&lower).to_string()),
        b => (b, lower),
    };
    if digits.is_empty() || digits.contains(['+', '-', ' ']) {
        return None;
    }
    let v = i128::from_str_radix(&digits.replace('_', "x"), base).ok()?;
    Some(if neg { -v } else { v })
}

fn int_from(sp: &mut ObjSpace, a: &mut BArgs, long: bool) -> R<i128> {
    a.arity(sp, 0, 2)?;
    let Some(v) = a.get(0, "x") else { return Ok(0) };
    if let Some(b) = a.get(1, "base") {
        let base = sp.int_arg(b, "int()")?;
        if base != 0 && !(2..=36).contains(&base) {
            return sp.value_error("int() base must be >= 2 and <= 36");
        }
        let base = base as u32;
        let Some(text) = sp.text_of(v) else {
            return sp.type_error("int() can't convert non-string with explicit base");
        };
        return match parse_int(&text, base) {
            Some(i) => Ok(i),
            None => sp.value_error(format!(
                "invalid literal for int() with base {base}: '{text}'"
            )),
        };
    }
    match sp.num(v) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => return Ok(i),
        Some(Num::F(f)) => {
            if f.is_nan() {
                return sp.value_error("cannot convert float NaN to integer");
            }
            if f.is_infinite() || f.abs() >= 1.7e38 {
                return Err(sp.err("OverflowError", "cannot convert float infinity to integer"));
            }
            return Ok(f.trunc() as i128);
        }
        None => {}
    }
    if let Some(text) = sp.text_of(v) {
        if matches!(v, Value::Obj(id) if matches!(sp.heap.get(id), Object::Str(_) | Object::Unicode(_)))
        {
            return match parse_int(&text, 10) {
                Some(i) => Ok(i),
                None => {
                    let r = String::from_utf8_lossy(&sp.repr_value(v)?).into_owned();
                    let what = if long { "long" } else { "int" };
                    sp.value_error(format!("invalid literal for {what}() with base 10: {r}"))
                }
            };
        }
    }
    let special = if long { "__long__" } else { "__int__" };
    if let Some(m) = sp
        .special_method(v, special)
        .or_else(|| sp.special_method(v, "__int__"))
    {
        let r = sp.call_special(v, m, vec![])?;
        if let Some(i) = sp.int_of(r) {
            return Ok(i);
        }
    }
    let tn = sp.type_name(v);
    sp.type_error(format!(
        "int() argument must be a string or a number, not '{tn}'"
    ))
}

fn c_int(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let i = int_from(sp, a, false)?;
    Ok(sp.new_int(i))
}

fn c_long(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let i = int_from(sp, a, true)?;
    Ok(sp.alloc(Object::Long(i)))
}

/// Parses a Python float literal.
pub(crate) fn parse_float(text: &str) -> Option<f64> {
    let t = text.trim();
    let l = t.to_ascii_lowercase();
    match l.as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Some(f64::INFINITY),
        "-inf" | "-infinity" => return Some(f64::NEG_INFINITY),
        "nan" | "+nan" | "-nan" => return Some(f64::NAN),
        _ => {}
    }
    if l.is_empty()
        || !l
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-'))
    {
        return None;
    }
    l.parse().ok()
}

fn c_float(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let Some(v) = a.args.first().copied() else {
        return Ok(Value::Float(0.0));
    };
    if let Some(f) = sp.float_of(v) {
        return Ok(Value::Float(f));
    }
    if let Some(text) = sp.text_of(v) {
        return match parse_float(&text) {
            Some(f) => Ok(Value::Float(f)),
            None => {
                let r = String::from_utf8_lossy(&sp.repr_value(v)?).into_owned();
                sp.value_error(format!("could not convert string to float: {r}"))
            }
        };
    }
    if let Some(m) = sp.special_method(v, "__float__") {
        return sp.call_special(v, m, vec![]);
    }
    let tn = sp.type_name(v);
    sp.type_error(format!(
        "float() argument must be a string or a number, not '{tn}'"
    ))
}

fn c_bool(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => Ok(Value::Bool(sp.truth(v)?)),
        None => Ok(Value::Bool(false)),
    }
}

fn c_str(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.get(0, "object") {
        Some(v) => sp.str_op(v),
        None => Ok(sp.new_str(b"")),
    }
}

fn c_unicode(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 3)?;
    let Some(v) = a.get(0, "string") else {
        return Ok(sp.new_unicode(""));
    };
    if let Some(enc) = a.get(1, "encoding") {
        let enc = sp
            .text_of(enc)
            .unwrap_or_default()
            .to_ascii_lowercase()
            .replace('_', "-");
        let errors = match a.get(2, "errors") {
            Some(e) => sp.text_of(e).unwrap_or_default(),
            None => "strict".into(),
        };
        let Some(b) = sp.str_bytes(v) else {
            return sp.type_error("decoding Unicode is not supported");
        };
        let t = sp.decode_bytes(&b, &enc, &errors)?;
        return Ok(sp.new_unicode(&t));
    }
    match v {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Unicode(_)) => Ok(v),
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Str(_)) => {
            let u = sp.unicode_of(v)?;
            Ok(sp.new_unicode(&u))
        }
        _ => {
            if let Some(m) = sp.special_method(v, "__unicode__") {
                return sp.call_special(v, m, vec![]);
            }
            let s = sp.str_value(v)?;
            let t = sp.decode_bytes(&s, "ascii", "strict")?;
            Ok(sp.new_unicode(&t))
        }
    }
}

fn c_tuple(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => {
            if matches!(v, Value::Obj(id) if matches!(sp.heap.get(id), Object::Tuple(_))) {
                return Ok(v);
            }
            let items = sp.iterate(v)?;
            Ok(sp.new_tuple(items))
        }
        None => Ok(sp.new_tuple(vec![])),
    }
}

fn c_list(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.args.first() {
        Some(&v) => {
            let items = sp.iterate(v)?;
            Ok(sp.new_list(items))
        }
        None => Ok(sp.new_list(vec![])),
    }
}

impl ObjSpace {
    /// `d.update(other)` with a mapping or an iterable of pairs.
    pub(crate) fn dict_update(&mut self, d: Value, other: Value) -> R<()> {
        if let Some(entries) = self.dict_entries(other) {
            for (k, v) in entries {
                self.setitem(d, k, v)?;
            }
            return Ok(());
        }
        if matches!(other, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)))
            && self.special_method(other, "keys").is_some()
        {
            let keys = self.call_method(other, "keys", vec![])?;
            for k in self.iterate(keys)? {
                let v = self.getitem(other, k)?;
                self.setitem(d, k, v)?;
            }
            return Ok(());
        }
        for item in self.iterate(other)? {
            let kv = self.iterate(item)?;
            if kv.len() != 2 {
                let n = kv.len();
                return self.value_error(format!(
                    "dictionary update sequence element has length {n}; 2 is required"
                ));
            }
            self.setitem(d, kv[0], kv[1])?;
        }
        Ok(())
    }
}

fn c_dict(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1 + a.kwargs.len())?;
    let d = sp.new_dict();
    if let Some(&src) = a.args.first() {
        sp.dict_update(d, src)?;
    }
    for (k, v) in a.kwargs.clone() {
        let key = sp.intern(&k);
        sp.setitem(d, key, v)?;
    }
    Ok(d)
}

fn c_set(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let s = sp.alloc(Object::Set(Dict::default()));
    if let Some(&src) = a.args.first() {
        for x in sp.iterate(src)? {
            sp.set_add(s, x)?;
        }
    }
    Ok(s)
}

fn c_staticmethod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(sp.alloc(Object::StaticMethod(a.args[0])))
}

fn c_classmethod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(sp.alloc(Object::ClassMethod(a.args[0])))
}

fn c_property(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 4)?;
    let fget = a.get(0, "fget").unwrap_or(Value::None);
    let fset = a.get(1, "fset").unwrap_or(Value::None);
    Ok(sp.alloc(Object::Property { fget, fset }))
}

fn c_super(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.len() != 2 {
        return Err(
            sp.unsupported("super() needs two arguments (`super(Class, self)`) in Python 2")
        );
    }
    let (cls, obj) = (a.args[0], a.args[1]);
    if !matches!(cls, Value::Obj(id) if matches!(sp.heap.get(id), Object::Class(_))) {
        return sp.type_error("super() argument 1 must be type");
    }
    let inst = sp.heap.alloc(Object::Instance(super::object::Instance {
        class: sp.types.super_,
        dict: Default::default(),
    }));
    if let Object::Instance(i) = sp.heap.get_mut(inst) {
        i.dict.set("__thisclass__", cls);
        i.dict.set("__self__", obj);
    }
    Ok(Value::Obj(inst))
}

fn c_slice(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 3)?;
    let (x, y, z) = match a.args.len() {
        1 => (Value::None, a.args[0], Value::None),
        2 => (a.args[0], a.args[1], Value::None),
        _ => (a.args[0], a.args[1], a.args[2]),
    };
    Ok(sp.alloc(Object::Slice(x, y, z)))
}

// ----- methods of built-in classes -----

/// `type.__new__(mcs, name, bases, namespace)` from a metaclass's `__new__`.
fn m_type_new(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.len() != 4 {
        return sp.type_error("type.__new__() takes exactly 4 arguments");
    }
    let globals = sp.frames.last().map(|f| f.0);
    let c = sp.make_class_plain(a.args[1], a.args[2], a.args[3], globals)?;
    if let (Value::Obj(cid), Value::Obj(mcs)) = (c, a.args[0]) {
        if sp.is_metaclass(mcs) {
            sp.metaclasses.insert(cid, mcs);
        }
    }
    Ok(c)
}

fn m_object_init(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.take_self(sp)?;
    Ok(Value::None)
}

fn m_object_setattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[0], "__setattr__")?;
    if let Value::Obj(id) = this {
        if let Object::Instance(i) = sp.heap.get_mut(id) {
            i.dict.set(&n, a.args[1]);
            return Ok(Value::None);
        }
    }
    sp.setattr(this, &n, a.args[1])?;
    Ok(Value::None)
}

fn m_object_getattribute(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 1, 1)?;
    let n = attr_name_arg(sp, a.args[0], "__getattribute__")?;
    sp.getattr(this, &n)
}

fn m_exc_init(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    if let Value::Obj(id) = this {
        if matches!(sp.heap.get(id), Object::Instance(_)) {
            sp.init_exception_args(id, a.args.clone());
        }
    }
    Ok(Value::None)
}

fn m_exc_str(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    let s = sp.exception_str(this)?;
    Ok(sp.new_str_vec(s))
}

fn m_exc_repr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    let s = sp.repr_value(this)?;
    Ok(sp.new_str_vec(s))
}

fn list_of(sp: &ObjSpace, v: Value) -> Option<ObjId> {
    match v {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::List(_) | Object::Tuple(_)) => Some(id),
        _ => None,
    }
}

fn m_list(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    let this = a.take_self(sp)?;
    let Some(id) = list_of(sp, this) else {
        let tn = sp.type_name(this);
        return sp.type_error(format!(
            "descriptor '{meth}' requires a 'list' object but received a '{tn}'"
        ));
    };
    let items_len = match sp.heap.get(id) {
        Object::List(l) | Object::Tuple(l) => l.len(),
        _ => 0,
    };
    macro_rules! list_mut {
        () => {
            match sp.heap.get_mut(id) {
                Object::List(l) => l,
                _ => unreachable!(),
            }
        };
    }
    match meth.as_str() {
        "append" => {
            a.arity(sp, 1, 1)?;
            list_mut!().push(a.args[0]);
            Ok(Value::None)
        }
        "extend" => {
            a.arity(sp, 1, 1)?;
            let items = sp.iterate(a.args[0])?;
            list_mut!().extend(items);
            Ok(Value::None)
        }
        "pop" => {
            a.arity(sp, 0, 1)?;
            if items_len == 0 {
                return Err(sp.err("IndexError", "pop from empty list"));
            }
            let i = match a.args.first() {
                Some(&v) => sp.int_arg(v, "pop()")? as i64,
                None => -1,
            };
            let j = if i < 0 { i + items_len as i64 } else { i };
            if j < 0 || j >= items_len as i64 {
                return Err(sp.err("IndexError", "pop index out of range"));
            }
            Ok(list_mut!().remove(j as usize))
        }
        "insert" => {
            a.arity(sp, 2, 2)?;
            let i = sp.int_arg(a.args[0], "insert()")? as i64;
            let n = items_len as i64;
            let j = if i < 0 { (i + n).max(0) } else { i.min(n) };
            list_mut!().insert(j as usize, a.args[1]);
            Ok(Value::None)
        }
        "remove" | "index" | "count" | "__contains__" => {
            a.arity(sp, 1, 3)?;
            let items = match sp.heap.get(id) {
                Object::List(l) | Object::Tuple(l) => l.clone(),
                _ => vec![],
            };
            let x = a.args[0];
            let (start, end) = if meth == "index" {
                let s = match a.args.get(1) {
                    Some(&v) => sp.int_arg(v, "index()")? as i64,
                    None => 0,
                };
                let e = match a.args.get(2) {
                    Some(&v) => sp.int_arg(v, "index()")? as i64,
                    None => items.len() as i64,
                };
                let n = items.len() as i64;
                let fix = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) } as usize;
                (fix(s), fix(e))
            } else {
                (0, items.len())
            };
            let mut count = 0;
            for (i, &y) in items.iter().enumerate().take(end).skip(start) {
                if sp.eq(y, x)? {
                    match meth.as_str() {
                        "remove" => {
                            list_mut!().remove(i);
                            return Ok(Value::None);
                        }
                        "index" => return Ok(Value::Int(i as i64)),
                        "__contains__" => return Ok(Value::Bool(true)),
                        _ => count += 1,
                    }
                }
            }
            match meth.as_str() {
                "count" => Ok(Value::Int(count)),
                "__contains__" => Ok(Value::Bool(false)),
                "remove" => sp.value_error("list.remove(x): x not in list"),
                _ => {
                    let r = String::from_utf8_lossy(&sp.repr_value(x)?).into_owned();
                    sp.value_error(format!("{r} is not in list"))
                }
            }
        }
        "reverse" => {
            a.arity(sp, 0, 0)?;
            list_mut!().reverse();
            Ok(Value::None)
        }
        "sort" => {
            a.arity(sp, 0, 3)?;
            let items = match sp.heap.get(id) {
                Object::List(l) => l.clone(),
                _ => vec![],
            };
            let cmp = a.get(0, "cmp");
            let key = a.get(1, "key");
            let reverse = match a.get(2, "reverse") {
                Some(v) => sp.truth(v)?,
                None => false,
            };
            let sorted = sp.sort_values(items, key, cmp, reverse)?;
            *list_mut!() = sorted;
            Ok(Value::None)
        }
        "__len__" => Ok(Value::Int(items_len as i64)),
        "__getitem__" => {
            a.arity(sp, 1, 1)?;
            sp.getitem(this, a.args[0])
        }
        "__setitem__" => {
            a.arity(sp, 2, 2)?;
            sp.setitem(this, a.args[0], a.args[1])?;
            Ok(Value::None)
        }
        _ => Err(sp.unsupported(format!("list.{meth} is not modelled"))),
    }
}

/// Unbound slot methods of dicts and lists (`dict.__delitem__(d, k)`), as Python's.
fn m_slot_item(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    let this = a.take_self(sp)?;
    let n = if meth == "__setitem__" { 2 } else { 1 };
    a.arity(sp, n, n)?;
    match meth.as_str() {
        "__getitem__" => sp.getitem(this, a.args[0]),
        "__setitem__" => sp.setitem(this, a.args[0], a.args[1]).map(|_| Value::None),
        "__delitem__" => sp.delitem(this, a.args[0]).map(|_| Value::None),
        _ => sp.contains(this, a.args[0]).map(Value::Bool),
    }
}

fn m_dict(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    if meth == "fromkeys" {
        // Class method: dict.fromkeys(seq[, value]).
        if matches!(a.this, Some(Value::Obj(id)) if matches!(sp.heap.get(id), Object::Dict(_))) {
            a.this = None;
        }
        let seq = a.args.first().copied().unwrap_or(Value::None);
        let v = a.args.get(1).copied().unwrap_or(Value::None);
        let d = sp.new_dict();
        for (i, k) in sp.iterate(seq)?.into_iter().enumerate() {
            if i % 4096 == 0 {
                sp.check_memory()?;
            }
            sp.setitem(d, k, v)?;
        }
        return Ok(d);
    }
    let this = a.take_self(sp)?;
    let id = match this {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Dict(_)) => id,
        _ => {
            let tn = sp.type_name(this);
            return sp.type_error(format!(
                "descriptor '{meth}' requires a 'dict' object but received a '{tn}'"
            ));
        }
    };
    let entries = |sp: &ObjSpace| match sp.heap.get(id) {
        Object::Dict(d) => d.entries.clone(),
        _ => vec![],
    };
    match meth.as_str() {
        "get" | "__getitem__" => {
            a.arity(sp, 1, 2)?;
            let hk = sp.key_of(a.args[0])?;
            let found = match sp.heap.get(id) {
                Object::Dict(d) => d.lookup(&hk),
                _ => None,
            };
            match found {
                Some(v) => Ok(v),
                None if meth == "get" => Ok(a.args.get(1).copied().unwrap_or(Value::None)),
                None => Err(sp.err_value("KeyError", a.args[0])),
            }
        }
        "has_key" | "__contains__" => {
            a.arity(sp, 1, 1)?;
            let hk = sp.key_of(a.args[0])?;
            Ok(Value::Bool(
                matches!(sp.heap.get(id), Object::Dict(d) if d.contains_key(&hk)),
            ))
        }
        "__setitem__" => {
            a.arity(sp, 2, 2)?;
            sp.setitem(this, a.args[0], a.args[1])?;
            Ok(Value::None)
        }
        "__len__" => Ok(Value::Int(entries(sp).len() as i64)),
        "keys" | "values" | "items" | "iterkeys" | "itervalues" | "iteritems" => {
            a.arity(sp, 0, 0)?;
            let es = entries(sp);
            let items: Vec<Value> = match meth.trim_start_matches("iter") {
                "keys" => es.iter().map(|e| e.0).collect(),
                "values" => es.iter().map(|e| e.1).collect(),
                _ => es.iter().map(|&(k, v)| sp.new_tuple(vec![k, v])).collect(),
            };
            if meth.starts_with("iter") {
                Ok(sp.new_iter(items))
            } else {
                Ok(sp.new_list(items))
            }
        }
        "setdefault" => {
            a.arity(sp, 1, 2)?;
            let hk = sp.key_of(a.args[0])?;
            let found = match sp.heap.get(id) {
                Object::Dict(d) => d.lookup(&hk),
                _ => None,
            };
            match found {
                Some(v) => Ok(v),
                None => {
                    let v = a.args.get(1).copied().unwrap_or(Value::None);
                    if let Object::Dict(d) = sp.heap.get_mut(id) {
                        d.insert(hk, a.args[0], v);
                    }
                    Ok(v)
                }
            }
        }
        "update" => {
            a.arity(sp, 0, 1 + a.kwargs.len())?;
            if let Some(&o) = a.args.first() {
                sp.dict_update(this, o)?;
            }
            for (k, v) in a.kwargs.clone() {
                let key = sp.intern(&k);
                sp.setitem(this, key, v)?;
            }
            Ok(Value::None)
        }
        "pop" => {
            a.arity(sp, 1, 2)?;
            let hk = sp.key_of(a.args[0])?;
            let removed = match sp.heap.get_mut(id) {
                Object::Dict(d) => d.remove_key(&hk),
                _ => None,
            };
            match removed {
                Some((_, v)) => Ok(v),
                None => match a.args.get(1) {
                    Some(&d) => Ok(d),
                    None => Err(sp.err_value("KeyError", a.args[0])),
                },
            }
        }
        "popitem" => {
            a.arity(sp, 0, 0)?;
            let last = match sp.heap.get(id) {
                Object::Dict(d) => d.entries.last().copied(),
                _ => None,
            };
            let Some((k, v)) = last else {
                return Err(sp.err("KeyError", "popitem(): dictionary is empty"));
            };
            let hk = sp.key_of(k)?;
            if let Object::Dict(d) = sp.heap.get_mut(id) {
                d.remove_key(&hk);
            }
            Ok(sp.new_tuple(vec![k, v]))
        }
        "copy" => {
            a.arity(sp, 0, 0)?;
            let d = match sp.heap.get(id) {
                Object::Dict(d) => d.clone(),
                _ => Dict::default(),
            };
            Ok(sp.alloc(Object::Dict(d)))
        }
        "clear" => {
            a.arity(sp, 0, 0)?;
            if let Object::Dict(d) = sp.heap.get_mut(id) {
                d.clear();
            }
            Ok(Value::None)
        }
        _ => Err(sp.unsupported(format!("dict.{meth} is not modelled"))),
    }
}

fn m_set(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    let this = a.take_self(sp)?;
    let id = match this {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Set(_)) => id,
        _ => {
            let tn = sp.type_name(this);
            return sp.type_error(format!(
                "descriptor '{meth}' requires a 'set' object but received a '{tn}'"
            ));
        }
    };
    let keys = |sp: &ObjSpace| match sp.heap.get(id) {
        Object::Set(d) => d.keys(),
        _ => vec![],
    };
    match meth.as_str() {
        "add" => {
            a.arity(sp, 1, 1)?;
            sp.set_add(this, a.args[0])?;
            Ok(Value::None)
        }
        "remove" | "discard" => {
            a.arity(sp, 1, 1)?;
            let hk = sp.key_of(a.args[0])?;
            let removed = match sp.heap.get_mut(id) {
                Object::Set(d) => d.remove_key(&hk).is_some(),
                _ => false,
            };
            if !removed && meth == "remove" {
                return Err(sp.err_value("KeyError", a.args[0]));
            }
            Ok(Value::None)
        }
        "pop" => {
            let first = keys(sp).first().copied();
            let Some(k) = first else {
                return Err(sp.err("KeyError", "pop from an empty set"));
            };
            let hk = sp.key_of(k)?;
            if let Object::Set(d) = sp.heap.get_mut(id) {
                d.remove_key(&hk);
            }
            Ok(k)
        }
        "update" => {
            for &o in &a.args.clone() {
                for x in sp.iterate(o)? {
                    sp.set_add(this, x)?;
                }
            }
            Ok(Value::None)
        }
        "union" | "intersection" | "difference" => {
            let mut result = match sp.heap.get(id) {
                Object::Set(d) => d.clone(),
                _ => Dict::default(),
            };
            for &o in &a.args.clone() {
                let other = sp.iterate(o)?;
                let mut other_keys = Vec::with_capacity(other.len());
                for &x in &other {
                    other_keys.push(sp.key_of(x)?);
                }
                match meth.as_str() {
                    "union" => {
                        for (x, hk) in other.into_iter().zip(other_keys) {
                            result.insert(hk, x, Value::None);
                        }
                    }
                    "intersection" => {
                        let keep: std::collections::HashSet<_> = other_keys.into_iter().collect();
                        let mut r = Dict::default();
                        for (k, v) in result.entries.clone() {
                            let hk = sp.key_of(k)?;
                            if keep.contains(&hk) {
                                r.insert(hk, k, v);
                            }
                        }
                        result = r;
                    }
                    _ => {
                        for hk in other_keys {
                            result.remove_key(&hk);
                        }
                    }
                }
            }
            Ok(sp.alloc(Object::Set(result)))
        }
        "issubset" | "issuperset" => {
            a.arity(sp, 1, 1)?;
            let other = sp.iterate(a.args[0])?;
            let mut other_keys = std::collections::HashSet::new();
            for x in other {
                other_keys.insert(sp.key_of(x)?);
            }
            let mine: Vec<_> = match sp.heap.get(id) {
                Object::Set(d) => d.index.keys().cloned().collect(),
                _ => vec![],
            };
            let r = if meth == "issubset" {
                mine.iter().all(|k| other_keys.contains(k))
            } else {
                other_keys.iter().all(|k| mine.contains(k))
            };
            Ok(Value::Bool(r))
        }
        "copy" => {
            let d = match sp.heap.get(id) {
                Object::Set(d) => d.clone(),
                _ => Dict::default(),
            };
            Ok(sp.alloc(Object::Set(d)))
        }
        "clear" => {
            if let Object::Set(d) = sp.heap.get_mut(id) {
                d.clear();
            }
            Ok(Value::None)
        }
        "__len__" => Ok(Value::Int(keys(sp).len() as i64)),
        "__contains__" => {
            a.arity(sp, 1, 1)?;
            let r = sp.contains(this, a.args[0])?;
            Ok(Value::Bool(r))
        }
        _ => Err(sp.unsupported(format!("set.{meth} is not modelled"))),
    }
}

fn m_property(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    let this = a.take_self(sp)?;
    let (fget, fset) = match this {
        Value::Obj(id) => match sp.heap.get(id) {
            Object::Property { fget, fset } => (*fget, *fset),
            _ => return sp.type_error("descriptor requires a 'property' object"),
        },
        _ => return sp.type_error("descriptor requires a 'property' object"),
    };
    a.arity(sp, 1, 2)?;
    let f = a.args[0];
    match meth.as_str() {
        "setter" => Ok(sp.alloc(Object::Property { fget, fset: f })),
        "getter" => Ok(sp.alloc(Object::Property { fget: f, fset })),
        "deleter" => Ok(sp.alloc(Object::Property { fget, fset })),
        _ => {
            // __get__(obj, type)
            if f == Value::None {
                return Ok(this);
            }
            sp.call_value(fget, vec![f], Vec::new())
        }
    }
}

fn m_iterator_next(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    match sp.iter_next(this)? {
        Some(v) => Ok(v),
        None => Err(sp.err("StopIteration", "")),
    }
}

fn m_iterator_iter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.take_self(sp)
}

fn m_number(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let meth = a.name.rsplit('.').next().unwrap_or("").to_string();
    let this = a.take_self(sp)?;
    let other = a.args.first().copied().unwrap_or(Value::None);
    match meth.as_str() {
        "__add__" => sp.binary(Op::Add, this, other),
        "__sub__" => sp.binary(Op::Sub, this, other),
        "__mul__" => sp.binary(Op::Mul, this, other),
        "__eq__" => sp.compare(Op::Eq, this, other),
        "__lt__" => sp.compare(Op::Lt, this, other),
        "__hash__" => Ok(Value::Int(sp.hash_value(this)?)),
        "bit_length" => {
            let i = sp.int_of(this).unwrap_or(0);
            Ok(Value::Int(128 - i.unsigned_abs().leading_zeros() as i64))
        }
        "is_integer" => Ok(Value::Bool(
            sp.float_of(this).is_some_and(|f| f.fract() == 0.0),
        )),
        _ => Err(sp.unsupported(format!("{} is not modelled", a.name))),
    }
}

fn m_function_get(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    match a.args.first() {
        Some(&obj) if obj != Value::None => Ok(sp.alloc(Object::BoundMethod {
            func: this,
            self_value: obj,
        })),
        _ => Ok(this),
    }
}

/// Machine integer constructors (`r_uint(x)` …): shared by the `rarithmetic` classes.
pub(crate) fn make_rint(sp: &mut ObjSpace, kind: IntKind, a: &BArgs) -> R {
    a.arity(sp, 0, 1)?;
    let v = a.args.first().copied().unwrap_or(Value::Int(0));
    let i = match sp.num(v) {
        Some(Num::I(i, _)) | Some(Num::R(_, i)) => i,
        Some(Num::F(f)) => {
            if !f.is_finite() {
                return Err(sp.err("OverflowError", "cannot convert float to integer"));
            }
            f.trunc() as i128
        }
        None => {
            let tn = sp.type_name(v);
            return sp.type_error(format!("expected an integer, got {tn}"));
        }
    };
    Ok(sp.alloc(Object::RInt {
        kind,
        value: wrap_rint(kind, i),
    }))
}
