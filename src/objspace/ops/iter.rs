//! Iteration: takes an iterable value and gives its iterator (`iter()`), the next item of an
//! iterator, all its items, or exactly `n` items for tuple unpacking.

use crate::interpreter::Unwind;
use crate::objspace::dict::DictOps;
use crate::objspace::object::{IterState, ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    /// `iter(v)`.
    pub fn iter_value(&mut self, v: Value) -> R {
        let not_iterable = |sp: &mut ObjSpace| {
            let tn = sp.type_name(v);
            sp.type_error(format!("'{tn}' object is not iterable"))
        };
        let Value::Obj(id) = v else {
            return not_iterable(self);
        };
        let items = match self.heap.get(id) {
            Object::List(_) | Object::Tuple(_) => {
                return Ok(self.alloc(Object::Iterator(IterState::Live { seq: id, pos: 0 })));
            }
            Object::Dict(d) | Object::Set(d) => d.keys(),
            Object::Str(s) => {
                let s = s.clone();
                s.iter().map(|&c| self.char_str(c)).collect()
            }
            Object::Unicode(s) => {
                let s = s.clone();
                let mut out = Vec::with_capacity(s.len());
                for &c in s.codes() {
                    out.push(self.new_unicode_codes(vec![c]));
                }
                out
            }
            Object::Iterator(_) => return Ok(v),
            Object::Instance(i) if i.class == self.types.generator => return Ok(v),
            Object::Instance(i) if i.class == self.types.xrange => {
                let (start, stop, step) = self.xrange_params(id);
                return Ok(self.alloc(Object::Iterator(IterState::Range {
                    next: start,
                    stop,
                    step,
                })));
            }
            Object::Instance(_) => {
                if let Some(m) = self.user_special(v, "__iter__") {
                    return self.call_special(v, m, vec![]);
                }
                if self.user_special(v, "__getitem__").is_some() {
                    // Old-style iteration protocol: obj[0], obj[1], … until IndexError.
                    let mut out = Vec::new();
                    let mut i = 0;
                    loop {
                        match self.getitem(v, Value::Int(i)) {
                            Ok(x) => out.push(x),
                            Err(Unwind::Raise {
                                etype: Value::Obj(e),
                                ..
                            }) if self.is_subclass(e, self.types.exceptions["IndexError"]) => break,
                            Err(e) => return Err(e),
                        }
                        i += 1;
                    }
                    out
                } else {
                    return not_iterable(self);
                }
            }
            _ => return not_iterable(self),
        };
        Ok(self.alloc(Object::Iterator(IterState::Seq { items, pos: 0 })))
    }

    /// The next item of a live iterator `id` over list or tuple `seq`, at `pos`.
    fn live_iter_next(&mut self, id: ObjId, seq: ObjId, pos: usize) -> Option<Value> {
        let item = match self.heap.get(seq) {
            Object::List(l) | Object::Tuple(l) => l.get(pos).copied(),
            _ => None,
        };
        if let Object::Iterator(IterState::Live { pos: p, .. }) = self.heap.get_mut(id) {
            *p = if item.is_some() { pos + 1 } else { usize::MAX };
        }
        item
    }

    /// One step of an iterator: `None` when exhausted.
    pub fn iter_next(&mut self, it: Value) -> R<Option<Value>> {
        // a list or tuple iterator first: a `for` loop's every step (a generator is an
        // instance, never an iterator object)
        if let Value::Obj(id) = it {
            if let Object::Iterator(IterState::Live { seq, pos }) = *self.heap.get(id) {
                return Ok(self.live_iter_next(id, seq, pos));
            }
        }
        if let Some(gid) = self.is_generator(it) {
            return self.generator_resume(gid, Value::None);
        }
        let Value::Obj(id) = it else {
            let tn = self.type_name(it);
            return self.type_error(format!("'{tn}' object is not an iterator"));
        };
        match self.heap.get_mut(id) {
            Object::Iterator(IterState::Seq { items, pos }) => {
                if *pos < items.len() {
                    let v = items[*pos];
                    *pos += 1;
                    Ok(Some(v))
                } else {
                    Ok(None)
                }
            }
            Object::Iterator(IterState::Range { next, stop, step }) => {
                let cur = *next;
                if (*step > 0 && cur < *stop) || (*step < 0 && cur > *stop) {
                    *next = cur + *step;
                    Ok(Some(Value::Int(cur)))
                } else {
                    Ok(None)
                }
            }
            Object::Instance(_) => {
                let m = self
                    .user_special(it, "next")
                    .or_else(|| self.user_special(it, "__next__"));
                let Some(m) = m else {
                    let tn = self.type_name(it);
                    return self.type_error(format!("'{tn}' object is not an iterator"));
                };
                match self.call_special(it, m, vec![]) {
                    Ok(v) => Ok(Some(v)),
                    Err(Unwind::Raise {
                        etype: Value::Obj(e),
                        ..
                    }) if self.is_subclass(e, self.types.exceptions["StopIteration"]) => Ok(None),
                    Err(e) => Err(e),
                }
            }
            _ => {
                let tn = self.type_name(it);
                self.type_error(format!("'{tn}' object is not an iterator"))
            }
        }
    }

    /// All items of an iterable.
    pub fn iterate(&mut self, v: Value) -> R<Vec<Value>> {
        if let Value::Obj(id) = v {
            match self.heap.get(id) {
                Object::List(l) | Object::Tuple(l) => return Ok(l.clone()),
                Object::Dict(d) | Object::Set(d) => return Ok(d.keys()),
                _ => {}
            }
        }
        let it = self.iter_value(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.iter_next(it)? {
            out.push(x);
            if out.len() % 4096 == 0 {
                self.check_memory()?;
            }
            if out.len() > crate::objspace::MAX_ITEMS {
                return Err(self.err(
                    "MemoryError",
                    "iteration too long for the import-time model",
                ));
            }
        }
        Ok(out)
    }

    /// Unpacks exactly `n` items.
    pub fn unpack_n(&mut self, seq: Value, n: usize) -> R<Vec<Value>> {
        let items = self.iterate(seq)?;
        if items.len() == n {
            return Ok(items);
        }
        if items.len() > n {
            self.value_error("too many values to unpack")
        } else {
            let k = items.len();
            self.value_error(format!(
                "need more than {k} value{} to unpack",
                if k == 1 { "" } else { "s" }
            ))
        }
    }
}
