//! Generators: calling a generator function makes a generator object holding the suspended
//! frame; each `next()` resumes the frame until its next `yield` (the space answers
//! `yield_value` with `Unwind::Stop`, which leaves the frame state intact) or its end.

use super::builtins::{BArgs, BuiltinFn};
use super::object::{AttrMap, Instance, ObjId, Object, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;
use crate::interpreter::{eval, Frame, Unwind};

/// A generator's frame and progress.
#[derive(Clone, Debug)]
pub(crate) struct GenState {
    frame: Frame<Value>,
    started: bool,
    finished: bool,
}

pub(crate) const GEN_BUILTINS: &[(B, BuiltinFn)] = &[
    (B::GeneratorNext, gen_next),
    (B::GeneratorDunderNext, gen_next),
    (B::GeneratorSend, gen_send),
    (B::GeneratorClose, gen_close),
    (B::GeneratorDunderIter, gen_iter),
];

impl ObjSpace {
    /// A generator object for a frame that has not started.
    pub(crate) fn new_generator(&mut self, frame: Frame<Value>) -> Value {
        let id = self.heap.alloc(Object::Instance(Instance {
            class: self.types.generator,
            dict: AttrMap::default(),
        }));
        self.generators.insert(
            id,
            GenState {
                frame,
                started: false,
                finished: false,
            },
        );
        Value::Obj(id)
    }

    /// Is this value a generator object?
    pub fn is_generator(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if self.generators.contains_key(&id) => Some(id),
            Value::Obj(id) if matches!(self.heap.get(id), Object::Instance(i) if i.class == self.types.generator) => {
                Some(id)
            }
            _ => None,
        }
    }

    /// Resumes a generator: `Some(item)`, or `None` when it is exhausted.
    pub(crate) fn generator_resume(&mut self, id: ObjId, sent: Value) -> R<Option<Value>> {
        let Some(mut st) = self.generators.remove(&id) else {
            // Running (re-entered from its own body) or never registered.
            return Err(self.err("ValueError", "generator already executing"));
        };
        if st.finished {
            self.generators.insert(id, st);
            return Ok(None);
        }
        if st.started {
            st.frame.push(sent);
        } else if sent != Value::None {
            self.generators.insert(id, st);
            return self.type_error("can't send non-None value to a just-started generator");
        }
        st.started = true;
        if let Err(e) = self.enter() {
            self.generators.insert(id, st);
            return Err(e);
        }
        self.frames.push((st.frame.globals, None));
        self.running_generators += 1;
        let r = eval(self, &mut st.frame);
        self.running_generators -= 1;
        self.frames.pop();
        self.leave();
        let out = match r {
            Err(Unwind::Stop) => match self.yielded.take() {
                Some(v) => Ok(Some(v)),
                None => {
                    st.finished = true;
                    Err(self.unsupported("a generator frame stopped without yielding"))
                }
            },
            Ok(_) => {
                st.finished = true;
                Ok(None)
            }
            Err(Unwind::Raise {
                etype: Value::Obj(e),
                ..
            }) if self.is_subclass(e, self.types.exceptions["StopIteration"]) => {
                st.finished = true;
                Ok(None)
            }
            Err(e) => {
                st.finished = true;
                Err(e)
            }
        };
        self.generators.insert(id, st);
        out
    }
}

fn this_generator(sp: &mut ObjSpace, a: &mut BArgs) -> R<ObjId> {
    let this = a.take_self(sp)?;
    match sp.is_generator(this) {
        Some(id) => Ok(id),
        None => {
            let tn = sp.type_name(this);
            sp.type_error(format!(
                "descriptor requires a 'generator' object but received a '{tn}'"
            ))
        }
    }
}

fn gen_next(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = this_generator(sp, a)?;
    match sp.generator_resume(id, Value::None)? {
        Some(v) => Ok(v),
        None => Err(sp.err("StopIteration", "")),
    }
}

fn gen_send(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = this_generator(sp, a)?;
    a.arity(sp, 1, 1)?;
    match sp.generator_resume(id, a.args[0])? {
        Some(v) => Ok(v),
        None => Err(sp.err("StopIteration", "")),
    }
}

fn gen_close(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = this_generator(sp, a)?;
    if let Some(st) = sp.generators.get_mut(&id) {
        st.finished = true;
    }
    Ok(Value::None)
}

fn gen_iter(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = this_generator(sp, a)?;
    Ok(Value::Obj(id))
}
