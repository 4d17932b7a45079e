//! Builtins over sequences and iteration: `len`, `range`/`xrange`, `enumerate`, `zip`, `map`,
//! `filter`, `reduce`, `sorted`, `reversed`, `min`/`max`, `sum`, `any`/`all`, `iter`/`next`
//! and the methods of built-in iterators, with the space's stable sort (shared with
//! `list.sort`). Separate because they all consume iterables through `ObjSpace::iterate`
//! and share its limits (`MAX_ITEMS`).

use super::BArgs;
use crate::interpreter::Op;
use crate::objspace::object::{Instance, IterState, Object, Value};
use crate::objspace::ops::Num;
use crate::objspace::{ObjSpace, MAX_ITEMS, R};

impl ObjSpace {
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

    pub(crate) fn new_iter(&mut self, items: Vec<Value>) -> Value {
        self.alloc(Object::Iterator(IterState::Seq { items, pos: 0 }))
    }
}

pub(super) fn b_len(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_range(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let (start, stop, step) = range_args(sp, a)?;
    let count = if step > 0 && stop > start {
        ((stop as i128 - start as i128 - 1) / step as i128 + 1) as u64
    } else if step < 0 && start > stop {
        ((start as i128 - stop as i128 - 1) / (-(step as i128)) + 1) as u64
    } else {
        0
    };
    if count > MAX_ITEMS as u64 {
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

pub(super) fn c_xrange(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let (start, stop, step) = range_args(sp, a)?;
    let cls = sp.types.xrange;
    let inst = sp.heap.alloc(Object::Instance(Instance {
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

pub(super) fn b_enumerate(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_zip(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_map(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_filter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_reduce(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_sorted(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_reversed(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    if let Some(m) = sp.special_method(v, "__reversed__") {
        return sp.call_special(v, m, vec![]);
    }
    let mut items = sp.iterate(v)?;
    items.reverse();
    Ok(sp.new_iter(items))
}

pub(super) fn b_minmax(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let is_max = a.id == crate::builtins::BuiltinId::Max;
    let key = a.kw("key");
    let default = a.kw("default");
    let items = if a.args.len() == 1 {
        sp.iterate(a.args[0])?
    } else if a.args.is_empty() {
        let n = a.id.name();
        return sp.type_error(format!("{n} expected 1 arguments, got 0"));
    } else {
        a.args.clone()
    };
    if items.is_empty() {
        if let Some(d) = default {
            return Ok(d);
        }
        let n = a.id.name();
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

pub(super) fn b_sum(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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

pub(super) fn b_anyall(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let want = a.id == crate::builtins::BuiltinId::Any;
    let items = sp.iterate(a.args[0])?;
    for x in items {
        if sp.truth(x)? == want {
            return Ok(Value::Bool(want));
        }
    }
    Ok(Value::Bool(!want))
}

pub(super) fn b_iter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
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
            if out.len() > MAX_ITEMS {
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

pub(super) fn b_next(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    match sp.iter_next(a.args[0])? {
        Some(v) => Ok(v),
        None => match a.args.get(1) {
            Some(&d) => Ok(d),
            None => Err(sp.err("StopIteration", "")),
        },
    }
}

pub(super) fn m_iterator_next(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    match sp.iter_next(this)? {
        Some(v) => Ok(v),
        None => Err(sp.err("StopIteration", "")),
    }
}

pub(super) fn m_iterator_iter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.take_self(sp)
}
