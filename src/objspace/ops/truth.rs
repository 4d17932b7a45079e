//! Truth value and length: takes a value and gives its `bool()` (`__nonzero__`/`__len__` of
//! instances included) and its `len()` (xrange objects included).

use crate::objspace::dict::DictOps;
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};

impl ObjSpace {
    /// Truth value (`__nonzero__` / `__len__` of instances included).
    pub fn truth(&mut self, v: Value) -> R<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => b,
            Value::Int(i) => i != 0,
            Value::Float(f) => f != 0.0,
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => !s.is_empty(),
                Object::Unicode(s) => !s.is_empty(),
                Object::Long(i) => *i != 0,
                Object::Complex(re, im) => *re != 0.0 || *im != 0.0,
                Object::RInt { value, .. } => *value != 0,
                Object::Tuple(l) | Object::List(l) => !l.is_empty(),
                Object::Dict(d) | Object::Set(d) => !d.is_empty(),
                Object::Instance(inst) => {
                    let (cls, epoch) = (inst.class, self.heap.class_epoch());
                    if self.plain_truth_classes.get(&cls) == Some(&epoch) {
                        return Ok(true);
                    }
                    if let Some(m) = self.user_special(v, "__nonzero__") {
                        let r = self.call_special(v, m, vec![])?;
                        return self.truth(r);
                    }
                    if let Some(m) = self.user_special(v, "__len__") {
                        let r = self.call_special(v, m, vec![])?;
                        return self.truth(r);
                    }
                    self.plain_truth_classes.insert(cls, epoch);
                    true
                }
                _ => true,
            },
        })
    }

    pub fn len_of(&mut self, v: Value) -> R<usize> {
        if let Value::Obj(id) = v {
            match self.heap.get(id) {
                Object::Str(s) => return Ok(s.len()),
                Object::Unicode(s) => return Ok(s.len()),
                Object::Tuple(l) | Object::List(l) => return Ok(l.len()),
                Object::Dict(d) | Object::Set(d) => return Ok(d.entries.len()),
                Object::Instance(i) if i.class == self.types.xrange => {
                    let (start, stop, step) = self.xrange_params(id);
                    return Ok(slice_indices_range(start, stop, step));
                }
                Object::Instance(_) => {
                    if let Some(m) = self.user_special(v, "__len__") {
                        let r = self.call_special(v, m, vec![])?;
                        return match self.int_of(r) {
                            Some(n) if n >= 0 => Ok(n as usize),
                            _ => self.value_error("__len__() should return >= 0"),
                        };
                    }
                }
                _ => {}
            }
        }
        let tn = self.type_name(v);
        self.type_error(format!("object of type '{tn}' has no len()"))
    }

    pub(crate) fn xrange_params(&self, id: ObjId) -> (i64, i64, i64) {
        match self.heap.get(id) {
            Object::Instance(i) => {
                let g = |n: &str| match i.dict.get(n) {
                    Some(Value::Int(x)) => x,
                    _ => 0,
                };
                let step = g("_step");
                (g("_start"), g("_stop"), if step == 0 { 1 } else { step })
            }
            _ => (0, 0, 1),
        }
    }
}

fn slice_indices_range(start: i64, stop: i64, step: i64) -> usize {
    if step > 0 && stop > start {
        ((stop - start - 1) / step + 1) as usize
    } else if step < 0 && start > stop {
        ((start - stop - 1) / (-step) + 1) as usize
    } else {
        0
    }
}
