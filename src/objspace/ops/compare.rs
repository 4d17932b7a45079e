//! Comparisons with Python 2 semantics: takes two values and gives rich comparison results
//! (user `__eq__`/`__lt__`… first), structural equality of containers, and the three-way
//! ordering (`cmp()`) including Python 2's ordering of unrelated types.

use super::arith::Num;
use crate::interpreter::Op;
use crate::objspace::dict::DictOps;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};
use std::cmp::Ordering;

/// How many tuples deep [`ObjSpace::simple_eq`] looks before leaving the comparison to the
/// general one (which bounds its recursion like calls).
const SIMPLE_EQ_DEPTH: u32 = 4;

/// Python 2 `str` ordering of type names for comparisons between unrelated types.
fn type_rank_name(name: &str) -> &str {
    name
}

impl ObjSpace {
    /// A rich comparison.
    pub fn compare(&mut self, op: Op, a: Value, b: Value) -> R {
        let (name, rname) = match op {
            Op::Lt => ("__lt__", "__gt__"),
            Op::Le => ("__le__", "__ge__"),
            Op::Eq => ("__eq__", "__eq__"),
            Op::Ne => ("__ne__", "__ne__"),
            Op::Gt => ("__gt__", "__lt__"),
            _ => ("__ge__", "__le__"),
        };
        if let Some(m) = self.user_special(a, name) {
            let r = self.call_special(a, m, vec![b])?;
            if !self.is_not_implemented(r) {
                return Ok(r);
            }
        }
        if let Some(m) = self.user_special(b, rname) {
            let r = self.call_special(b, m, vec![a])?;
            if !self.is_not_implemented(r) {
                return Ok(r);
            }
        }
        if matches!(op, Op::Eq | Op::Ne) {
            if let Some(eq) = self.complex_eq(a, b) {
                return Ok(Value::Bool(eq == (op == Op::Eq)));
            }
        }
        let r = match op {
            Op::Eq => self.values_eq(a, b)?,
            Op::Ne => !self.values_eq(a, b)?,
            _ if self.set_inclusion(a, b).is_some() => {
                // Sets order by inclusion (`<=` is issubset), not by cmp().
                let (a_in_b, b_in_a, la, lb) = self.set_inclusion(a, b).unwrap();
                match op {
                    Op::Lt => a_in_b && la < lb,
                    Op::Le => a_in_b,
                    Op::Gt => b_in_a && la > lb,
                    _ => b_in_a,
                }
            }
            _ => {
                // NaN compares false.
                if let (Some(x), Some(y)) = (self.float_of(a), self.float_of(b)) {
                    if x.is_nan() || y.is_nan() {
                        return Ok(Value::Bool(false));
                    }
                }
                let ord = self.cmp_values(a, b)?;
                match op {
                    Op::Lt => ord == Ordering::Less,
                    Op::Le => ord != Ordering::Greater,
                    Op::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                }
            }
        };
        Ok(Value::Bool(r))
    }

    /// For two sets (or frozensets): whether each includes the other, and their sizes.
    fn set_inclusion(&self, a: Value, b: Value) -> Option<(bool, bool, usize, usize)> {
        let (Value::Obj(x), Value::Obj(y)) = (a, b) else {
            return None;
        };
        match (self.heap.get(x), self.heap.get(y)) {
            (Object::Set(d), Object::Set(e)) => Some((
                d.index.keys().all(|k| e.index.contains_key(k)),
                e.index.keys().all(|k| d.index.contains_key(k)),
                d.len(),
                e.len(),
            )),
            _ => None,
        }
    }

    /// A special method defined by a user class (not the built-in ones of exceptions).
    pub(super) fn user_special(&self, v: Value, name: &str) -> Option<Value> {
        let m = self
            .special_method(v, name)
            .or_else(|| self.tuple_subclass_special(v, name))?;
        match m {
            Value::Obj(id) if matches!(self.heap.get(id), Object::Builtin { .. }) => None,
            _ => Some(m),
        }
    }

    /// A special method of the class of an instance of a user subclass of tuple (kept as
    /// a tuple with its class beside it), as CPython calls it: `__eq__`, `__hash__`...
    pub(super) fn tuple_subclass_special(&self, v: Value, name: &str) -> Option<Value> {
        let Value::Obj(id) = v else { return None };
        if !matches!(self.heap.get(id), Object::Tuple(_)) {
            return None;
        }
        let cls = self.heap.tuple_class(id)?;
        self.lookup_class_attr(cls, name)
    }

    /// `a == b`, including `__eq__` of instances.
    pub fn eq(&mut self, a: Value, b: Value) -> R<bool> {
        if let Some(r) = self.simple_eq(a, b) {
            return Ok(r);
        }
        if self.is_same(a, b)
            && !matches!(a, Value::Float(f) if f.is_nan())
            && !matches!(a, Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(_)))
        {
            return Ok(true);
        }
        let r = self.compare(Op::Eq, a, b)?;
        self.truth(r)
    }

    /// `a == b` when both are values no user code compares (None, bools, ints, floats,
    /// strs, and tuples of those), decided without the general rich comparison; `None`
    /// otherwise. The parser generators programs run at import time (rply's LALR tables)
    /// compare symbol names and test membership in lists of them, and of `(state,
    /// symbol)` pairs, millions of times.
    pub(crate) fn simple_eq(&self, a: Value, b: Value) -> Option<bool> {
        self.simple_eq_nested(a, b, SIMPLE_EQ_DEPTH)
    }

    /// [`Self::simple_eq`] looking at most `depth` tuples deep.
    fn simple_eq_nested(&self, a: Value, b: Value, depth: u32) -> Option<bool> {
        let int_of = |v: Value| match v {
            Value::Int(i) => Some(i),
            Value::Bool(b) => Some(b as i64),
            _ => None,
        };
        Some(match (a, b) {
            (Value::None, Value::None) => true,
            (Value::Float(x), Value::Float(y)) => x == y,
            (Value::Obj(x), Value::Obj(y)) => match (self.heap.get(x), self.heap.get(y)) {
                (Object::Str(s), Object::Str(t)) => x == y || s == t,
                // an instance of a user subclass of tuple may compare by its own `__eq__`
                (Object::Tuple(_), _) | (_, Object::Tuple(_))
                    if self.heap.tuple_class(x).is_some() || self.heap.tuple_class(y).is_some() =>
                {
                    return None
                }
                // Python 2 compares tuples for equality by length, then item by item up
                // to the first unequal pair (an item is its own equal): decided here
                // only while no item needs the general comparison
                (Object::Tuple(l), Object::Tuple(m)) if depth > 0 => {
                    if x == y {
                        return None;
                    }
                    if l.len() != m.len() {
                        return Some(false);
                    }
                    for (&p, &q) in l.iter().zip(m.iter()) {
                        if !self.simple_eq_nested(p, q, depth - 1)? {
                            return Some(false);
                        }
                    }
                    true
                }
                // a tuple never equals a str (no user code on either side)
                (Object::Tuple(_), Object::Str(_)) | (Object::Str(_), Object::Tuple(_)) => false,
                _ => return None,
            },
            (Value::Obj(x), v) | (v, Value::Obj(x)) => match (self.heap.get(x), v) {
                // a str never equals None, a bool or an int (no coercion in Python 2)
                (Object::Str(_), Value::None | Value::Bool(_) | Value::Int(_)) => false,
                _ => return None,
            },
            (Value::None, v) | (v, Value::None) => match v {
                Value::Bool(_) | Value::Int(_) | Value::Float(_) => false,
                _ => return None,
            },
            _ => match (int_of(a), int_of(b)) {
                (Some(i), Some(j)) => i == j,
                _ => return None,
            },
        })
    }

    /// `tuple.__eq__` of two tuples: item by item, whatever their classes define.
    pub(crate) fn tuple_items_eq(&mut self, a: Value, b: Value) -> R<bool> {
        self.values_eq(a, b)
    }

    /// Structural equality (no special methods of `a`/`b` themselves).
    fn values_eq(&mut self, a: Value, b: Value) -> R<bool> {
        // Comparing nested containers recurses: bounded like calls (RuntimeError when deeper).
        if self.is_container(a) && self.is_container(b) {
            self.enter()?;
            let r = self.values_eq_inner(a, b);
            self.leave();
            return r;
        }
        self.values_eq_inner(a, b)
    }

    /// Lists, tuples and dicts (whose comparison recurses into their items).
    fn is_container(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(self.heap.get(id), Object::List(_) | Object::Tuple(_) | Object::Dict(_)))
    }

    fn values_eq_inner(&mut self, a: Value, b: Value) -> R<bool> {
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            return Ok(match (x, y) {
                (Num::F(f), n) | (n, Num::F(f)) => {
                    let g = match n {
                        Num::F(g) => g,
                        Num::I(i, _) | Num::R(_, i) => i as f64,
                    };
                    f == g
                }
                (Num::I(i, _) | Num::R(_, i), Num::I(j, _) | Num::R(_, j)) => i == j,
            });
        }
        let (Value::Obj(x), Value::Obj(y)) = (a, b) else {
            return Ok(a == b);
        };
        if x == y {
            return Ok(true);
        }
        match (self.heap.get(x), self.heap.get(y)) {
            (Object::Str(s), Object::Str(t)) => Ok(s == t),
            (Object::Unicode(s), Object::Unicode(t)) => Ok(s == t),
            (Object::Str(s), Object::Unicode(u)) | (Object::Unicode(u), Object::Str(s)) => {
                Ok(s.is_ascii() && s.as_ref() == u.ascii_bytes().as_slice())
            }
            (Object::Tuple(l), Object::Tuple(m)) | (Object::List(l), Object::List(m)) => {
                if l.len() != m.len() {
                    return Ok(false);
                }
                let (l, m) = (l.clone(), m.clone());
                for (p, q) in l.into_iter().zip(m) {
                    if !self.eq(p, q)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Object::Dict(d), Object::Dict(e)) => {
                if d.len() != e.len() {
                    return Ok(false);
                }
                let entries = d.entries.clone();
                for (k, v) in entries {
                    let hk = self.find_key(y, k)?;
                    let other = match self.heap.get(y) {
                        Object::Dict(e) => e.lookup(&hk),
                        _ => None,
                    };
                    match other {
                        Some(w) => {
                            if !self.eq(v, w)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            (Object::Set(d), Object::Set(e)) => {
                Ok(d.len() == e.len() && d.index.keys().all(|k| e.index.contains_key(k)))
            }
            (Object::Slice(a1, b1, c1), Object::Slice(a2, b2, c2)) => {
                let (a1, b1, c1, a2, b2, c2) = (*a1, *b1, *c1, *a2, *b2, *c2);
                Ok(self.eq(a1, a2)? && self.eq(b1, b2)? && self.eq(c1, c2)?)
            }
            (
                Object::BoundMethod {
                    func: f1,
                    self_value: s1,
                },
                Object::BoundMethod {
                    func: f2,
                    self_value: s2,
                },
            ) => Ok(f1 == f2 && s1 == s2),
            (
                Object::UnboundMethod {
                    func: f1,
                    class: c1,
                },
                Object::UnboundMethod {
                    func: f2,
                    class: c2,
                },
            ) => Ok(f1 == f2 && c1 == c2),
            _ => Ok(false),
        }
    }

    /// Python 2 three-way comparison for ordering.
    pub fn cmp_values(&mut self, a: Value, b: Value) -> R<Ordering> {
        if self.is_container(a) && self.is_container(b) {
            self.enter()?;
            let r = self.cmp_values_inner(a, b);
            self.leave();
            return r;
        }
        self.cmp_values_inner(a, b)
    }

    fn cmp_values_inner(&mut self, a: Value, b: Value) -> R<Ordering> {
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            return Ok(match (x, y) {
                (Num::I(i, _) | Num::R(_, i), Num::I(j, _) | Num::R(_, j)) => i.cmp(&j),
                _ => {
                    let f = self.float_of(a).unwrap_or(0.0);
                    let g = self.float_of(b).unwrap_or(0.0);
                    f.partial_cmp(&g).unwrap_or(Ordering::Equal)
                }
            });
        }
        if let (Value::Obj(x), Value::Obj(y)) = (a, b) {
            match (self.heap.get(x), self.heap.get(y)) {
                (Object::Str(s), Object::Str(t)) => return Ok(s.cmp(t)),
                (Object::Unicode(s), Object::Unicode(t)) => return Ok(s.cmp(t)),
                (Object::Str(_), Object::Unicode(_)) | (Object::Unicode(_), Object::Str(_)) => {
                    let s = self.unicode_of(a)?;
                    let t = self.unicode_of(b)?;
                    return Ok(s.cmp(&t));
                }
                (Object::Tuple(l), Object::Tuple(m)) | (Object::List(l), Object::List(m)) => {
                    let (l, m) = (l.clone(), m.clone());
                    for (p, q) in l.iter().zip(m.iter()) {
                        if !self.eq(*p, *q)? {
                            let lt = self.compare(Op::Lt, *p, *q)?;
                            return Ok(if self.truth(lt)? {
                                Ordering::Less
                            } else {
                                Ordering::Greater
                            });
                        }
                    }
                    return Ok(l.len().cmp(&m.len()));
                }
                (Object::Set(_), Object::Set(_)) => {
                    return self.type_error("cannot compare sets using cmp()");
                }
                _ => {}
            }
            if let Some(m) = self.user_special(a, "__cmp__") {
                let r = self.call_special(a, m, vec![b])?;
                let i = self.int_of(r).unwrap_or(0);
                return Ok(i.cmp(&0));
            }
        }
        if a == b {
            return Ok(Ordering::Equal);
        }
        // Unrelated types: None first, numbers next, then by type name, then by id.
        let rank = |s: &ObjSpace, v: Value| -> u8 {
            match v {
                Value::None => 0,
                _ if s.num(v).is_some() => 1,
                _ => 2,
            }
        };
        let (ra, rb) = (rank(self, a), rank(self, b));
        if ra != rb {
            return Ok(ra.cmp(&rb));
        }
        let (ta, tb) = (self.type_name(a), self.type_name(b));
        let c = type_rank_name(&ta).cmp(type_rank_name(&tb));
        if c != Ordering::Equal {
            return Ok(c);
        }
        Ok(self.id_of(a).cmp(&self.id_of(b)))
    }
}
