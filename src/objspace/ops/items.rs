//! Items and slices of containers: takes a container and a key (index, slice object or dict
//! key) and gives `obj[key]`, `obj[key] = v`, `del obj[key]`, `item in obj` and set insertion,
//! with Python's index and slice clamping ([`slice_indices`]).

use super::arith::Num;
use crate::objspace::dict::DictOps;
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};
use std::rc::Rc;

/// Start, stop and step of a slice over a sequence of `len` items (Python semantics).
pub(crate) fn slice_indices(
    len: i64,
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
) -> (i64, i64, i64, usize) {
    let (lo_default, hi_default) = if step < 0 { (len - 1, -1) } else { (0, len) };
    let adjust = |v: Option<i64>, default: i64| -> i64 {
        match v {
            None => default,
            Some(mut x) => {
                if x < 0 {
                    x += len;
                    if x < 0 {
                        x = if step < 0 { -1 } else { 0 };
                    }
                } else if x >= len {
                    x = if step < 0 { len - 1 } else { len };
                }
                x
            }
        }
    };
    let start = adjust(start, lo_default);
    let stop = adjust(stop, hi_default);
    let count = if step > 0 {
        if stop > start {
            ((stop - start - 1) / step + 1) as usize
        } else {
            0
        }
    } else if start > stop {
        ((start - stop - 1).unsigned_abs() / step.unsigned_abs() + 1) as usize
    } else {
        0
    };
    (start, stop, step, count)
}

impl ObjSpace {
    fn index_of_value(&mut self, v: Value) -> R<Option<i64>> {
        match self.num(v) {
            Some(Num::I(i, _)) | Some(Num::R(_, i)) => match i64::try_from(i) {
                Ok(i) => Ok(Some(i)),
                Err(_) => Err(self.err(
                    "IndexError",
                    "cannot fit 'long' into an index-sized integer",
                )),
            },
            _ => Ok(None),
        }
    }

    fn slice_bounds(&mut self, s: ObjId) -> R<(Option<i64>, Option<i64>, i64)> {
        let Object::Slice(a, b, c) = self.heap.get(s) else {
            unreachable!()
        };
        let (a, b, c) = (*a, *b, *c);
        let conv = |sp: &mut ObjSpace, v: Value| -> R<Option<i64>> {
            if v == Value::None {
                return Ok(None);
            }
            match sp.index_of_value(v)? {
                Some(i) => Ok(Some(i)),
                None => sp.type_error(
                    "slice indices must be integers or None or have an __index__ method",
                ),
            }
        };
        let start = conv(self, a)?;
        let stop = conv(self, b)?;
        let step = conv(self, c)?.unwrap_or(1);
        if step == 0 {
            return self.value_error("slice step cannot be zero");
        }
        Ok((start, stop, step))
    }

    fn is_slice(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Slice(..)) => Some(id),
            _ => None,
        }
    }

    /// `obj[key]`.
    pub fn getitem(&mut self, obj: Value, key: Value) -> R {
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object has no attribute '__getitem__'"));
        };
        if let Some(sid) = self.is_slice(key) {
            if matches!(
                self.heap.get(id),
                Object::Str(_) | Object::Unicode(_) | Object::List(_) | Object::Tuple(_)
            ) {
                let (start, stop, step) = self.slice_bounds(sid)?;
                return self.slice_seq(id, start, stop, step);
            }
        }
        match self.heap.get(id) {
            Object::List(_) | Object::Tuple(_) | Object::Str(_) | Object::Unicode(_) => {
                let Some(i) = self.index_of_value(key)? else {
                    let tn = self.type_name(obj);
                    return self.type_error(format!(
                        "{tn} indices must be integers, not {}",
                        self.type_name(key)
                    ));
                };
                let (len, what) = match self.heap.get(id) {
                    Object::List(l) => (l.len(), "list"),
                    Object::Tuple(l) => (l.len(), "tuple"),
                    Object::Str(s) => (s.len(), "string"),
                    Object::Unicode(s) => (s.len(), "string"),
                    _ => unreachable!(),
                };
                let j = if i < 0 { i + len as i64 } else { i };
                if j < 0 || j >= len as i64 {
                    return Err(self.err("IndexError", format!("{what} index out of range")));
                }
                let j = j as usize;
                match self.heap.get(id) {
                    Object::List(l) | Object::Tuple(l) => Ok(l[j]),
                    Object::Str(s) => {
                        let c = s[j];
                        Ok(self.char_str(c))
                    }
                    Object::Unicode(s) => {
                        let c = s.codes()[j];
                        Ok(self.new_unicode_codes(vec![c]))
                    }
                    _ => unreachable!(),
                }
            }
            Object::Dict(_) => {
                let hk = self.find_key(id, key)?;
                let found = match self.heap.get(id) {
                    Object::Dict(d) => d.lookup(&hk),
                    _ => None,
                };
                match found {
                    Some(v) => Ok(v),
                    // What unmodelled generated code would have defined there is unknown.
                    None if self.unknown_dicts.contains(&id) => {
                        let n = self.name_of(key).unwrap_or_else(|| Rc::from("?"));
                        Ok(self.new_unknown(&n))
                    }
                    None => Err(self.err_value("KeyError", key)),
                }
            }
            Object::Instance(_) | Object::Class(_) => match self.user_special(obj, "__getitem__") {
                Some(m) => self.call_special(obj, m, vec![key]),
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object has no attribute '__getitem__'"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object has no attribute '__getitem__'"))
            }
        }
    }

    fn slice_seq(&mut self, id: ObjId, start: Option<i64>, stop: Option<i64>, step: i64) -> R {
        let len = match self.heap.get(id) {
            Object::List(l) | Object::Tuple(l) => l.len(),
            Object::Str(s) => s.len(),
            Object::Unicode(s) => s.len(),
            _ => 0,
        } as i64;
        let (start, _, step, count) = slice_indices(len, start, stop, step);
        let idx = (0..count).map(move |k| (start + k as i64 * step) as usize);
        match self.heap.get(id) {
            Object::List(l) => {
                let v: Vec<Value> = idx.map(|i| l[i]).collect();
                Ok(self.new_list(v))
            }
            Object::Tuple(l) => {
                if step == 1 && count == l.len() {
                    return Ok(Value::Obj(id));
                }
                let v: Vec<Value> = idx.map(|i| l[i]).collect();
                Ok(self.new_tuple(v))
            }
            Object::Str(s) => {
                if step == 1 && count == s.len() {
                    return Ok(Value::Obj(id));
                }
                let v: Vec<u8> = if step == 1 {
                    s[start as usize..start as usize + count].to_vec()
                } else {
                    idx.map(|i| s[i]).collect()
                };
                Ok(self.new_str_vec(v))
            }
            Object::Unicode(s) => {
                let codes = s.codes();
                let v: Vec<u32> = idx.map(|i| codes[i]).collect();
                Ok(self.new_unicode_codes(v))
            }
            _ => unreachable!(),
        }
    }

    /// `obj[key] = value`.
    pub fn setitem(&mut self, obj: Value, key: Value, value: Value) -> R<()> {
        if let Value::Obj(d) = obj {
            if let Some(&module) = self.globals_views.get(&d) {
                if let Some(name) = self.name_of(key) {
                    self.ns_set(module, &name, value)?;
                } else if self.unknown_name(key).is_some() {
                    // a name rpy-lsp does not know: a missing name of the module is unknown
                    self.unknown_globals.insert(module);
                }
            }
        }
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object does not support item assignment"));
        };
        match self.heap.get(id) {
            Object::List(l) => {
                let len = l.len() as i64;
                if let Some(sid) = self.is_slice(key) {
                    let (start, stop, step) = self.slice_bounds(sid)?;
                    let items = self.iterate(value)?;
                    let (start, stop, step, count) = slice_indices(len, start, stop, step);
                    if let Object::List(l) = self.heap.get_mut(id) {
                        if step == 1 {
                            let stop = stop.max(start);
                            l.splice(start as usize..stop as usize, items);
                            return Ok(());
                        }
                        if items.len() != count {
                            let n = items.len();
                            return self.value_error(format!(
                                "attempt to assign sequence of size {n} to extended slice of size {count}"
                            ));
                        }
                        for (k, v) in items.into_iter().enumerate() {
                            l[(start + k as i64 * step) as usize] = v;
                        }
                    }
                    return Ok(());
                }
                let Some(i) = self.index_of_value(key)? else {
                    return self.type_error(
                        "list indices must be integers, not ".to_string() + &self.type_name(key),
                    );
                };
                let j = if i < 0 { i + len } else { i };
                if j < 0 || j >= len {
                    return Err(self.err("IndexError", "list assignment index out of range"));
                }
                if let Object::List(l) = self.heap.get_mut(id) {
                    l[j as usize] = value;
                }
                Ok(())
            }
            Object::Dict(_) => {
                let hk = self.find_key(id, key)?;
                if let Object::Dict(d) = self.heap.get_mut(id) {
                    d.insert(hk, key, value);
                }
                // an unknown key may equal any key looked up later: a missing key is then
                // unknown, not a KeyError (`ERRNAMES[ENOENT] = ...` with a C constant)
                if self.unknown_name(key).is_some() {
                    self.unknown_dicts.insert(id);
                }
                Ok(())
            }
            Object::Instance(_) => match self.user_special(obj, "__setitem__") {
                Some(m) => {
                    self.call_special(obj, m, vec![key, value])?;
                    Ok(())
                }
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object does not support item assignment"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object does not support item assignment"))
            }
        }
    }

    /// `del obj[key]`.
    pub fn delitem(&mut self, obj: Value, key: Value) -> R<()> {
        let Value::Obj(id) = obj else {
            let tn = self.type_name(obj);
            return self.type_error(format!("'{tn}' object doesn't support item deletion"));
        };
        match self.heap.get(id) {
            Object::List(l) => {
                let len = l.len() as i64;
                if let Some(sid) = self.is_slice(key) {
                    let (start, stop, step) = self.slice_bounds(sid)?;
                    let (start, _, step, count) = slice_indices(len, start, stop, step);
                    let mut remove: Vec<usize> = (0..count)
                        .map(|k| (start + k as i64 * step) as usize)
                        .collect();
                    remove.sort_unstable();
                    if let Object::List(l) = self.heap.get_mut(id) {
                        for i in remove.into_iter().rev() {
                            l.remove(i);
                        }
                    }
                    return Ok(());
                }
                let Some(i) = self.index_of_value(key)? else {
                    return self.type_error("list indices must be integers");
                };
                let j = if i < 0 { i + len } else { i };
                if j < 0 || j >= len {
                    return Err(self.err("IndexError", "list assignment index out of range"));
                }
                if let Object::List(l) = self.heap.get_mut(id) {
                    l.remove(j as usize);
                }
                Ok(())
            }
            Object::Dict(_) => {
                let hk = self.find_key(id, key)?;
                let removed = match self.heap.get_mut(id) {
                    Object::Dict(d) => d.remove_key(&hk).is_some(),
                    _ => false,
                };
                if removed {
                    Ok(())
                } else {
                    Err(self.err_value("KeyError", key))
                }
            }
            Object::Instance(_) => match self.user_special(obj, "__delitem__") {
                Some(m) => {
                    self.call_special(obj, m, vec![key])?;
                    Ok(())
                }
                None => {
                    let tn = self.type_name(obj);
                    self.type_error(format!("'{tn}' object doesn't support item deletion"))
                }
            },
            _ => {
                let tn = self.type_name(obj);
                self.type_error(format!("'{tn}' object doesn't support item deletion"))
            }
        }
    }

    /// `needle in items` for a `str` needle or a tuple of ints and strs, the common cases
    /// of generated tables (a parser generator's `if a not in lookaheads`, `if (state,
    /// symbol) not in transitions`): each item is looked at once, with the needle at
    /// hand. `Ok` when the answer is known without user code; `Err(i)` when item `i`
    /// needs the general comparison (a unicode string, an instance, a float: from there on
    /// `contains` compares as usual).
    fn plain_in_items(&self, items: &[Value], needle: Value) -> Result<bool, usize> {
        let Value::Obj(nid) = needle else {
            return Err(0);
        };
        let heap = &self.heap;
        let tuple_needle = match heap.get(nid) {
            Object::Str(_) => None,
            Object::Tuple(n)
                if heap.tuple_class(nid).is_none()
                    && n.iter().all(|&v| plain_eq(heap, v, v).is_some()) =>
            {
                Some(n)
            }
            _ => return Err(0),
        };
        for (i, &x) in items.iter().enumerate() {
            let equal = match (x, tuple_needle) {
                (Value::Obj(y), _) if y == nid => return Ok(true),
                (Value::Obj(y), Some(n)) => match heap.get(y) {
                    Object::Tuple(m) if heap.tuple_class(y).is_none() => {
                        // Python 2: by length, then item by item up to the first unequal
                        n.len() == m.len() && {
                            let mut all = true;
                            for (&a, &b) in n.iter().zip(m.iter()) {
                                match plain_eq(heap, a, b) {
                                    Some(true) => {}
                                    Some(false) => {
                                        all = false;
                                        break;
                                    }
                                    None => return Err(i),
                                }
                            }
                            all
                        }
                    }
                    // a tuple never equals a str
                    Object::Str(_) => false,
                    _ => return Err(i),
                },
                (Value::Obj(y), None) => match (heap.get(nid), heap.get(y)) {
                    (Object::Str(s), Object::Str(t)) => bytes_eq(s, t),
                    // a tuple never equals a str
                    (_, Object::Tuple(_)) if heap.tuple_class(y).is_none() => false,
                    _ => return Err(i),
                },
                // a str or tuple never equals None, a bool or a number (no coercion)
                (Value::None | Value::Bool(_) | Value::Int(_) | Value::Float(_), _) => false,
            };
            if equal {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `item in container`.
    pub fn contains(&mut self, container: Value, item: Value) -> R<bool> {
        let Value::Obj(id) = container else {
            let tn = self.type_name(container);
            return self.type_error(format!("argument of type '{tn}' is not iterable"));
        };
        match self.heap.get(id) {
            Object::List(l) | Object::Tuple(l) => {
                // the items compared without user code first (no copy of a long list)
                let mut from = l.len();
                let start = match self.plain_in_items(l, item) {
                    Ok(found) => return Ok(found),
                    Err(i) => i,
                };
                for (i, &x) in l.iter().enumerate().skip(start) {
                    // CPython's `in` takes an identical object as equal before comparing
                    // (PyObject_RichCompareBool)
                    if matches!(x, Value::Obj(_)) && x == item {
                        return Ok(true);
                    }
                    match self.simple_eq(x, item) {
                        Some(true) => return Ok(true),
                        Some(false) => {}
                        None => {
                            from = i;
                            break;
                        }
                    }
                }
                let items = l[from..].to_vec();
                for x in items {
                    if (matches!(x, Value::Obj(_)) && x == item) || self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Object::Str(s) => match item {
                Value::Obj(i) => match self.heap.get(i) {
                    Object::Str(t) => Ok(find_bytes(s, t, 0).is_some()),
                    Object::Unicode(_) => {
                        let hay = self.unicode_of(container)?;
                        let needle = self.unicode_of(item)?;
                        Ok(hay.contains(&needle))
                    }
                    _ => self.type_error("'in <string>' requires string as left operand"),
                },
                _ => self.type_error("'in <string>' requires string as left operand"),
            },
            Object::Unicode(_) => {
                let hay = self.unicode_of(container)?;
                let needle = self.unicode_of(item)?;
                Ok(hay.contains(&needle))
            }
            Object::Dict(_) | Object::Set(_) => {
                let hk = self.find_key(id, item)?;
                Ok(match self.heap.get(id) {
                    Object::Dict(d) | Object::Set(d) => d.contains_key(&hk),
                    _ => false,
                })
            }
            Object::Instance(_) => {
                if let Some(m) = self.user_special(container, "__contains__") {
                    let r = self.call_special(container, m, vec![item])?;
                    return self.truth(r);
                }
                let items = self.iterate(container)?;
                for x in items {
                    if self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Object::Iterator(_) => {
                while let Some(x) = self.iter_next(container)? {
                    if self.eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => {
                let tn = self.type_name(container);
                self.type_error(format!("argument of type '{tn}' is not iterable"))
            }
        }
    }

    pub(crate) fn set_add(&mut self, set: Value, item: Value) -> R<()> {
        if let Value::Obj(id) = set {
            if !matches!(self.heap.get(id), Object::Set(_)) {
                return Ok(());
            }
            let hk = self.find_key(id, item)?;
            if let Object::Set(d) = self.heap.get_mut(id) {
                d.insert(hk, item, Value::None);
            }
        }
        Ok(())
    }
}

/// Two strings' bytes equal: the length and first byte compared inline before the call
/// to `memcmp` (most unequal names of a grammar's tables differ there).
#[inline]
fn bytes_eq(s: &[u8], t: &[u8]) -> bool {
    s.len() == t.len() && s.first() == t.first() && s == t
}

/// `a == b` when `a` is an int, bool, None or str and the answer needs no user code and
/// no numeric coercion (`None` otherwise: a float, a unicode string, an instance...).
fn plain_eq(heap: &crate::objspace::object::Heap, a: Value, b: Value) -> Option<bool> {
    let int_of = |v: Value| match v {
        Value::Int(i) => Some(i),
        Value::Bool(b) => Some(b as i64),
        _ => None,
    };
    let str_of = |v: Value| match v {
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => Some(s),
            _ => None,
        },
        _ => None,
    };
    match (a, b) {
        (Value::Float(_), _) | (_, Value::Float(_)) => None,
        (Value::None, Value::None) => Some(true),
        (Value::None, Value::Int(_) | Value::Bool(_))
        | (Value::Int(_) | Value::Bool(_), Value::None) => Some(false),
        (Value::Obj(x), Value::Obj(y)) if x == y => str_of(a).map(|_| true),
        _ => match (int_of(a), int_of(b), str_of(a), str_of(b)) {
            (Some(i), Some(j), _, _) => Some(i == j),
            (_, _, Some(s), Some(t)) => Some(bytes_eq(s, t)),
            // an int, bool or None never equals a str
            (Some(_), _, _, Some(_)) | (_, Some(_), Some(_), _) => Some(false),
            _ => match (a, b) {
                (Value::None, _) if str_of(b).is_some() => Some(false),
                (_, Value::None) if str_of(a).is_some() => Some(false),
                _ => None,
            },
        },
    }
}

/// Finds `needle` in `hay` from `start`.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8], start: usize) -> Option<usize> {
    if needle.is_empty() {
        return if start <= hay.len() {
            Some(start)
        } else {
            None
        };
    }
    if needle.len() > hay.len() {
        return None;
    }
    let first = needle[0];
    let last = hay.len() - needle.len();
    let mut i = start;
    while i <= last {
        match hay[i..=last].iter().position(|&b| b == first) {
            None => return None,
            Some(p) => {
                i += p;
                if &hay[i..i + needle.len()] == needle {
                    return Some(i);
                }
                i += 1;
            }
        }
    }
    None
}
