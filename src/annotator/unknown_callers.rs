//! What code rpy-lsp does not model may call: when unknown code reads an attribute
//! `name`, every method of that name may be called from there with arguments the
//! annotator does not see. Such methods are re-flowed (or, if nothing reached them yet,
//! annotated speculatively) with unknown arguments, so what they store is seen and no
//! false error comes from arguments being narrower than unknown code passes.

use super::annrpython::{Annotator, BlockState, Incoming, UNKNOWN_CALLER, UNKNOWN_CALLER_ARGUMENT};
use super::model::*;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Object, Value};
use std::rc::Rc;

impl<'s, C: ConcreteSpace> Annotator<'s, C> {
    /// Unknown code reads attribute `name`: it may call any method of that name, with
    /// arguments the annotator does not see, so their arguments (after `self`) are unknown
    /// in the graphs of that name, now and when they are built.
    pub fn read_on_unknown(&mut self, name: Rc<str>) {
        if !self.names_read_on_unknown.insert(name.clone()) {
            return;
        }
        for g in 0..self.graphs.len() {
            let start = self.graphs[g].startblock.0;
            if self.graphs[g].name == name
                && self.info[g].state[start as usize] != BlockState::Unseen
            {
                let n = self.graphs[g].blocks[start as usize].inputargs.len();
                let inputs = (0..n).map(|_| SomeValue::Impossible).collect();
                self.addpendingblock(g as u32, start, inputs, Incoming::Entry);
            }
        }
        self.call_methods_unknown_code_may_call(&name);
    }

    /// The methods called `name` of the classes seen so far, which no known call reaches
    /// yet: unknown code may call them on any instance (naulang's frames get their
    /// enclosing frame through a method only unknown code calls), so each is annotated as
    /// called with unknown arguments, and what it stores is seen.
    fn call_methods_unknown_code_may_call(&mut self, name: &Rc<str>) {
        // Methods some known call already reached are re-flowed with unknown arguments
        // (`addpendingblock`); only those no graph exists for are called here.
        if name.starts_with("__") || self.graphs.iter().any(|g| g.name == *name) {
            return;
        }
        let what: Rc<str> = Rc::from(format!(
            "{UNKNOWN_CALLER_ARGUMENT} `{name}`, {UNKNOWN_CALLER}"
        ));
        for i in 0..self.bk.classdefs.len() {
            let cd = ClassDefId(i as u32);
            let defines = self
                .bk
                .class_desc(self.bk.classdef(cd).desc)
                .and_then(|c| self.space.heap().class(c.cls))
                .is_some_and(|c| {
                    matches!(c.dict.get(name), Some(Value::Obj(f)) if matches!(self.space.heap().get(f), Object::Function(_)))
                });
            if !defines {
                continue;
            }
            let Ok(s_meth) = self.bk.s_getattr(self.space.heap(), cd, name) else {
                continue;
            };
            let u = SomeValue::Unknown(what.clone());
            let args = super::call::ArgsS {
                positional: vec![u.clone()],
                keywords: Vec::new(),
                star_unknown: Some(u),
            };
            // What building such a graph reports is not reported: the reference reaches it
            // only if the unknown code really calls it (RPySOM has a broken strategy method
            // nothing calls); once a known call reaches it, its problems are reported.
            let before = self.diagnostics.len();
            let graphs_before = self.graphs.len() as u32;
            let _ = self.call_value(&s_meth, &args);
            self.speculative
                .extend(graphs_before..self.graphs.len() as u32);
            for d in self.diagnostics.split_off(before) {
                self.seen.remove(&(d.code, d.span, d.message.clone()));
            }
        }
    }
}
