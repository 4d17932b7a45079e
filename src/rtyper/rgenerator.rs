//! Generators: the low-level graph of a generator function becomes two functions, as
//! compiled generators have to be state machines (seed 001: there is no frame to suspend
//! in C). The *creator* (what calling the generator function runs) allocates a frame
//! structure `gen_<name> {state, saved variables…}`, stores its arguments and returns it;
//! `next` dispatches on the frame's state to the function's start or to the point after
//! the `yield` it stopped at, with every variable live across that `yield` saved in the
//! frame. Falling off the end raises StopIteration (state -1).

use super::hop::{cfield, cint, ctype, cvoid};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::fasthash::HashMap;
use crate::flowspace::{
    BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, Link, LinkId, LlConstant,
    SpaceOperation, VarId,
};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::syntax::Span;
use std::collections::BTreeSet;
use std::rc::Rc;

fn llop(op: LlOp, args: Vec<Hlvalue>, result: VarId, span: Span) -> SpaceOperation {
    SpaceOperation {
        opname: Op::Ll(op),
        args,
        result,
        span,
    }
}

/// Adds a link from `prev` with the span of the statement it stands for.
fn add_link(
    lg: &mut FunctionGraph,
    prev: BlockId,
    target: BlockId,
    args: Vec<Hlvalue>,
    exitcase: ExitCase,
    span: Span,
) -> LinkId {
    let l = lg.add_link(
        prev,
        Link {
            prevblock: prev,
            target,
            args,
            exitcase,
            last_exception: None,
            last_exc_value: None,
        },
    );
    lg.set_link_span(l, span);
    l
}

fn field_of(v: VarId) -> String {
    format!("v{}", v.0)
}

impl RTyper<'_> {
    /// Whether annotated graph `g` is a generator function's.
    pub fn is_generator_graph(&self, g: u32) -> bool {
        self.ann.bookkeeper.generators.contains_key(&g)
    }

    /// The frame structure of generator graph `g` (its fields are set when the graph is
    /// translated).
    pub fn gen_frame(&mut self, g: u32) -> LlType {
        if let Some(&s) = self.gen_frames.get(&g) {
            return s;
        }
        let name = format!("gen_{}", self.ann.graphs[g as usize].name);
        let s = self
            .types
            .new_struct(&name, true, vec![("state".into(), LlType::SIGNED)]);
        self.gen_frames.insert(g, s);
        s
    }

    /// The Repr of what generator graph `g` yields.
    pub fn yield_repr(&mut self, g: u32) -> Result<ReprId, TyperError> {
        let s = self
            .ann
            .bookkeeper
            .generators
            .get(&g)
            .map(|i| i.s_yield.clone())
            .unwrap_or(SomeValue::Impossible);
        self.getrepr(&s)
    }

    /// The function index of the `next` of generator graph `g` (its graph is placed
    /// after the annotator's graphs).
    pub fn gen_next_func(&mut self, g: u32) -> u32 {
        if let Some(&f) = self.gen_next.get(&g) {
            return f;
        }
        let slot = self.new_extra_graph_slot();
        self.st.functions.push(super::LlFunction::Graph {
            graph: slot,
            name: format!("{}.next", self.ann.graphs[g as usize].name).into(),
        });
        let f = self.functions.len() as u32 - 1;
        self.gen_next.insert(g, f);
        self.gen_next_slot.insert(g, slot);
        f
    }

    /// Splits the translated graph of generator `g` (with `yield_` markers) into the
    /// creator (returned) and `next` (kept in `extra_graphs`).
    pub(super) fn make_generator(
        &mut self,
        g: u32,
        mut lg: FunctionGraph,
    ) -> Result<FunctionGraph, TyperError> {
        let frame = self.gen_frame(g);
        let fptr = self.types.ptr(frame);
        let yr = self.yield_repr(g)?;
        let yty = self.lltype(yr);
        let span = lg.span;
        let original_start = lg.startblock;
        let start_params: Vec<VarId> = lg.block(original_start).inputargs.clone();
        let (rb, eb) = (lg.returnblock, lg.exceptblock);
        // 1. every block receives the frame
        let blocks: Vec<BlockId> = lg
            .iterblocks()
            .into_iter()
            .filter(|b| *b != rb && *b != eb)
            .collect();
        let mut fvar: HashMap<BlockId, VarId> = HashMap::default();
        for &b in &blocks {
            let v = lg.new_typed_var(Some("frame".into()), fptr);
            lg.block_mut(b).inputargs.push(v);
            fvar.insert(b, v);
        }
        // falling off the end: a stop block (state -1, StopIteration)
        let stop_frame = lg.new_typed_var(Some("frame".into()), fptr);
        let stop = lg.new_block(vec![stop_frame]);
        let links: Vec<crate::flowspace::LinkId> = blocks
            .iter()
            .flat_map(|b| lg.block(*b).exits.clone())
            .collect();
        for l in links {
            let prev = lg.link(l).prevblock;
            let target = lg.link(l).target;
            let f = Hlvalue::Var(fvar[&prev]);
            if target == rb {
                let lk = lg.link_mut(l);
                lk.target = stop;
                lk.args = vec![f];
            } else if target != eb {
                let lk = lg.link_mut(l);
                lk.args.push(f);
            }
        }
        {
            let (vt, st) = self.stop_iteration();
            let r = lg.new_typed_var(None, LlType::VOID);
            let o = self.classes.object;
            let optr = self.types.ptr(o);
            let ovt = self.st.types.ptr(self.st.classes.object_vtable);
            let inst_ptr = self.types.ptr(st);
            let e = lg.new_typed_var(None, inst_ptr);
            let eo = lg.new_typed_var(None, optr);
            let r2 = lg.new_typed_var(None, LlType::VOID);
            let vtc = Hlvalue::Ll(LlConstant {
                ty: ovt,
                value: LlValue::Ptr(vt),
            });
            let ops = vec![
                llop(
                    LlOp::SetField,
                    vec![Hlvalue::Var(stop_frame), cfield("state"), cint(-1)],
                    r,
                    span,
                ),
                llop(LlOp::Malloc, vec![ctype(st)], e, span),
                llop(LlOp::CastPointer, vec![Hlvalue::Var(e)], eo, span),
                llop(
                    LlOp::SetField,
                    vec![Hlvalue::Var(eo), cfield("typeptr"), vtc],
                    r2,
                    span,
                ),
            ];
            lg.block_mut(stop).operations = ops;
            add_link(
                &mut lg,
                stop,
                eb,
                vec![vtc, Hlvalue::Var(eo)],
                ExitCase::None,
                span,
            );
        }
        // the return block now returns what is yielded
        let rv = lg.block(rb).inputargs[0];
        lg.concretetype[rv.0 as usize] = yty;
        // 2. split every block at its yields
        let mut fields: Vec<(Rc<str>, LlType)> = vec![("state".into(), LlType::SIGNED)];
        let add_field = |lg: &FunctionGraph, v: VarId, fields: &mut Vec<(Rc<str>, LlType)>| {
            let name = field_of(v);
            if !fields.iter().any(|(n, _)| **n == *name) {
                fields.push((name.into(), lg.concretetype[v.0 as usize]));
            }
        };
        for &p in &start_params {
            add_field(&lg, p, &mut fields);
        }
        let mut resumes: Vec<(BlockId, Vec<VarId>)> = Vec::new();
        let mut work: Vec<BlockId> = blocks.clone();
        while let Some(b) = work.pop() {
            let Some(i) = lg
                .block(b)
                .operations
                .iter()
                .position(|o| o.opname == Op::YieldValue)
            else {
                continue;
            };
            let mut ops = std::mem::take(&mut lg.block_mut(b).operations);
            let rest: Vec<SpaceOperation> = ops.split_off(i + 1);
            let yop = ops.pop().unwrap();
            let exits = std::mem::take(&mut lg.block_mut(b).exits);
            let exitswitch = std::mem::replace(&mut lg.block_mut(b).exitswitch, ExitSwitch::None);
            let frame_v = *lg.block(b).inputargs.last().unwrap();
            // variables defined before the yield and used after it
            let mut defined_before: BTreeSet<VarId> =
                lg.block(b).inputargs.iter().copied().collect();
            defined_before.extend(ops.iter().map(|o| o.result));
            let mut used: BTreeSet<VarId> = BTreeSet::new();
            let mut note = |a: &Hlvalue| {
                if let Hlvalue::Var(v) = a {
                    used.insert(*v);
                }
            };
            for o in &rest {
                o.args.iter().for_each(&mut note);
            }
            for &l in &exits {
                lg.link(l).args.iter().for_each(&mut note);
            }
            if let ExitSwitch::Value(v) = exitswitch {
                note(&v);
            }
            let live: Vec<VarId> = used
                .into_iter()
                .filter(|v| defined_before.contains(v) && *v != frame_v)
                .collect();
            // the resume block
            let mut rename: HashMap<VarId, Hlvalue> = HashMap::default();
            let mut inputs = Vec::new();
            for &v in &live {
                let t = lg.concretetype[v.0 as usize];
                let nv = lg.new_typed_var(lg.var(v).name_hint.clone(), t);
                rename.insert(v, Hlvalue::Var(nv));
                inputs.push(nv);
                add_field(&lg, v, &mut fields);
            }
            let nf = lg.new_typed_var(Some("frame".into()), fptr);
            rename.insert(frame_v, Hlvalue::Var(nf));
            inputs.push(nf);
            rename.insert(yop.result, cvoid());
            let ren = |a: Hlvalue| match a {
                Hlvalue::Var(v) => rename.get(&v).copied().unwrap_or(a),
                other => other,
            };
            let resume = lg.new_block(inputs);
            let mut rest = rest;
            for o in &mut rest {
                for a in &mut o.args {
                    *a = ren(*a);
                }
            }
            lg.block_mut(resume).operations = rest;
            lg.block_mut(resume).exitswitch = match exitswitch {
                ExitSwitch::Value(v) => ExitSwitch::Value(ren(v)),
                other => other,
            };
            for &l in &exits {
                let lk = lg.link_mut(l);
                lk.prevblock = resume;
                lk.args = lk.args.iter().map(|a| ren(*a)).collect();
            }
            lg.block_mut(resume).exits = exits;
            // before the yield: save the live variables and the state, return the value
            let k = resumes.len() as i64 + 1;
            for &v in &live {
                let r = lg.new_typed_var(None, LlType::VOID);
                ops.push(llop(
                    LlOp::SetField,
                    vec![Hlvalue::Var(frame_v), cfield(&field_of(v)), Hlvalue::Var(v)],
                    r,
                    yop.span,
                ));
            }
            let r = lg.new_typed_var(None, LlType::VOID);
            ops.push(llop(
                LlOp::SetField,
                vec![Hlvalue::Var(frame_v), cfield("state"), cint(k)],
                r,
                yop.span,
            ));
            lg.block_mut(b).operations = ops;
            let yv = yop.args.first().copied().unwrap_or_else(cvoid);
            add_link(&mut lg, b, rb, vec![yv], ExitCase::None, yop.span);
            resumes.push((resume, live));
            work.push(resume);
        }
        // 3. the dispatch on the state
        let f0 = lg.new_typed_var(Some("frame".into()), fptr);
        let dispatch = lg.new_block(vec![f0]);
        let state = lg.new_typed_var(Some("state".into()), LlType::SIGNED);
        lg.block_mut(dispatch).operations = vec![llop(
            LlOp::GetField,
            vec![Hlvalue::Var(f0), cfield("state")],
            state,
            span,
        )];
        lg.block_mut(dispatch).exitswitch = ExitSwitch::Value(Hlvalue::Var(state));
        let mut targets: Vec<(i64, BlockId, Vec<VarId>)> =
            vec![(0, original_start, start_params.clone())];
        for (k, (b, live)) in resumes.iter().enumerate() {
            targets.push((k as i64 + 1, *b, live.clone()));
        }
        for (k, target, saved) in targets {
            let fk = lg.new_typed_var(Some("frame".into()), fptr);
            let load = lg.new_block(vec![fk]);
            let mut args = Vec::new();
            let mut ops = Vec::new();
            for v in saved {
                let t = lg.concretetype[v.0 as usize];
                let nv = lg.new_typed_var(lg.var(v).name_hint.clone(), t);
                ops.push(llop(
                    LlOp::GetField,
                    vec![Hlvalue::Var(fk), cfield(&field_of(v))],
                    nv,
                    span,
                ));
                args.push(Hlvalue::Var(nv));
            }
            args.push(Hlvalue::Var(fk));
            lg.block_mut(load).operations = ops;
            add_link(&mut lg, load, target, args, ExitCase::None, span);
            add_link(
                &mut lg,
                dispatch,
                load,
                vec![Hlvalue::Var(f0)],
                ExitCase::Ll(LlValue::Int(k)),
                span,
            );
        }
        add_link(
            &mut lg,
            dispatch,
            stop,
            vec![Hlvalue::Var(f0)],
            ExitCase::Ll(LlValue::Int(-1)),
            span,
        );
        lg.startblock = dispatch;
        self.types.set_fields(frame, fields);
        // 4. the creator: a frame holding the arguments
        let mut creator = FunctionGraph::new(lg.name.clone(), lg.func, span, &[]);
        creator.blocks.clear();
        creator.vars.clear();
        let mut params = Vec::new();
        for &p in &start_params {
            let t = lg.concretetype[p.0 as usize];
            params.push((p, creator.new_typed_var(lg.var(p).name_hint.clone(), t)));
        }
        let start = creator.new_block(params.iter().map(|p| p.1).collect());
        let ret = creator.new_typed_var(None, fptr);
        let rblock = creator.new_block(vec![ret]);
        let (cr, or) = (
            self.intern_repr(Repr::Class(None)),
            self.intern_repr(Repr::Object),
        );
        let (et, ev) = (
            creator.new_typed_var(None, self.lltype(cr)),
            creator.new_typed_var(None, self.lltype(or)),
        );
        let eblock = creator.new_block(vec![et, ev]);
        creator.startblock = start;
        creator.returnblock = rblock;
        creator.exceptblock = eblock;
        let fv = creator.new_typed_var(Some("frame".into()), fptr);
        let mut ops = vec![llop(LlOp::Malloc, vec![ctype(frame)], fv, span)];
        for (orig, v) in &params {
            let r = creator.new_typed_var(None, LlType::VOID);
            ops.push(llop(
                LlOp::SetField,
                vec![Hlvalue::Var(fv), cfield(&field_of(*orig)), Hlvalue::Var(*v)],
                r,
                span,
            ));
        }
        creator.block_mut(start).operations = ops;
        add_link(
            &mut creator,
            start,
            rblock,
            vec![Hlvalue::Var(fv)],
            ExitCase::None,
            span,
        );
        let slot = {
            self.gen_next_func(g);
            self.gen_next_slot[&g]
        };
        self.extra_graphs.insert(slot, lg);
        Ok(creator)
    }

    /// The vtable and instance structure of StopIteration.
    fn stop_iteration(&mut self) -> (LlPtr, LlType) {
        let found = self
            .ann
            .bookkeeper
            .classdefs
            .iter()
            .position(|c| &*c.name == "StopIteration")
            .map(|i| crate::annotator::model::ClassDefId(i as u32));
        match found {
            Some(cd) => (self.classes.vtable_ptr[&cd], self.classes.inst[&cd]),
            None => (self.extra_vtable("StopIteration"), self.classes.object),
        }
    }
}
