//! Translating one graph (the reference's `specialize_block`): takes an annotated graph;
//! gives a new low-level graph in which every operation is replaced by the low-level
//! operations its `rtype_*` produces, every link converts its arguments to the target's
//! Reprs, and an operation that cannot be translated stops its block with a diagnostic.
//! Graphs the annotator never reached get an empty placeholder.

use super::rmodel::{Repr, ReprId};
use super::{hop, Hop, LlOps, RTyper, TyperError, VarMap};
use crate::annotator::model::Position;
use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::flowspace::{
    Block, BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, LlConstant, VarId,
};
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::objspace::object::Value;
use crate::syntax::Span;

/// Ends block `b` (that nothing follows) with a fatal error and a link to the except
/// block: where control never arrives (after an operation that always raises).
fn fatal_stop(lg: &mut FunctionGraph, b: BlockId, span: Span) {
    let res = lg.new_typed_var(None, LlType::VOID);
    lg.block_mut(b)
        .operations
        .push(crate::flowspace::SpaceOperation {
            opname: crate::interpreter::Op::Ll(crate::lltypesystem::LlOp::DebugFatalError),
            args: vec![hop::cvoid()],
            result: res,
            span,
        });
    let eb = lg.exceptblock;
    let nul = |t| {
        Hlvalue::Ll(LlConstant {
            ty: t,
            value: LlValue::Ptr(LlPtr::Null),
        })
    };
    let (t0, t1) = (
        lg.concretetype[lg.block(eb).inputargs[0].0 as usize],
        lg.concretetype[lg.block(eb).inputargs[1].0 as usize],
    );
    let l = lg.add_link(
        b,
        crate::flowspace::Link {
            prevblock: b,
            target: eb,
            args: vec![nul(t0), nul(t1)],
            exitcase: ExitCase::None,
            last_exception: None,
            last_exc_value: None,
        },
    );
    lg.set_link_span(l, span);
}

pub(super) fn placeholder(g: &FunctionGraph) -> FunctionGraph {
    let mut lg = FunctionGraph::new(g.name.clone(), g.func, g.span, &[]);
    lg.concretetype = vec![LlType::VOID; lg.vars.len()];
    lg
}

impl RTyper<'_> {
    /// The low-level graph of annotated graph `g`: its translation, or an empty placeholder
    /// when the annotator never reached it or it could not be translated (`diags` says why).
    pub(super) fn translate_reached(
        &mut self,
        g: u32,
        diags: &mut Vec<Diagnostic>,
    ) -> FunctionGraph {
        self.helpers.translating = Some(g);
        let ann = self.ann;
        let hl = &ann.graphs[g as usize];
        let start = hl.block(hl.startblock);
        let reached = start.inputargs.is_empty()
            || ann.bindings[g as usize]
                .get(start.inputargs[0].0 as usize)
                .is_some_and(|b| b.is_some());
        if !reached {
            return placeholder(hl);
        }
        let translated = self.translate_graph(g).and_then(|lg| {
            if self.is_generator_graph(g) {
                self.make_generator(g, lg).map_err(|e| vec![e])
            } else {
                Ok(lg)
            }
        });
        match translated {
            Ok(mut lg) => {
                self.inline_range_next(&mut lg);
                // the low-level invariants, checked after RTyping in debug builds (tests)
                #[cfg(debug_assertions)]
                if let Err(e) = crate::flowspace::verify_low_level(&lg, &self.types) {
                    diags.push(
                        TyperError::new(format!("internal error, invalid low-level graph: {}", e))
                            .into_diagnostic(hl.span),
                    );
                }
                lg
            }
            Err(errs) => {
                for e in errs {
                    let d = e.into_diagnostic(hl.span);
                    diags.push(self.at_user_site(g, d));
                }
                placeholder(hl)
            }
        }
    }

    /// Translates annotated graph `g` into a new low-level graph.
    pub(super) fn translate_graph(&mut self, g: u32) -> Result<FunctionGraph, Vec<TyperError>> {
        let hl = &self.ann.graphs[g as usize];
        let mut lg = FunctionGraph::new(hl.name.clone(), hl.func, hl.span, &[]);
        lg.blocks.clear();
        lg.vars.clear();
        let mut errors = Vec::new();
        // blocks, in the annotated graph's order; every Variable gets its Repr's type
        let mut vmap = VarMap::with_vars(hl.vars.len());
        let reached = &self.ann.blocks_reached[g as usize];
        let order: Vec<BlockId> = hl
            .iterblocks()
            .into_iter()
            .filter(|b| reached.get(b.0 as usize).copied().unwrap_or(true))
            .collect();
        let mut bmap: HashMap<BlockId, BlockId> = HashMap::default();
        let object_repr = self.intern_repr(Repr::Object);
        let class_repr = self.intern_repr(Repr::Class(None));
        for &b in order.iter().chain([hl.returnblock, hl.exceptblock].iter()) {
            if bmap.contains_key(&b) {
                continue;
            }
            let mut inputargs = Vec::new();
            for (i, &v) in hl.block(b).inputargs.iter().enumerate() {
                let r = if b == hl.exceptblock {
                    if i == 0 {
                        class_repr
                    } else {
                        object_repr
                    }
                } else {
                    match self.var_repr(g, v) {
                        Ok(r) => r,
                        Err(mut e) => {
                            e.span = e.span.or(Some(hl.span));
                            errors.push(e);
                            self.intern_repr(Repr::Void)
                        }
                    }
                };
                let lv = lg.new_typed_var(hl.var(v).name_hint.clone(), self.lltype(r));
                vmap.insert(v, (Hlvalue::Var(lv), r));
                inputargs.push(lv);
            }
            bmap.insert(b, lg.new_block(inputargs));
        }
        lg.startblock = bmap[&hl.startblock];
        lg.returnblock = bmap[&hl.returnblock];
        lg.exceptblock = bmap[&hl.exceptblock];
        // a member of a call family is entered with the family's parameter Reprs; the
        // parameters its callers leave out receive its own defaults (`own_defaults`)
        let own: Vec<ReprId> = hl
            .block(hl.startblock)
            .inputargs
            .iter()
            .map(|v| vmap[v].1)
            .collect();
        let own_defaults = self.ann.own_defaults.get(&g).cloned();
        let params = match self.family_sig.get(&g) {
            Some((params, _)) => params.clone(),
            None => own[..own_defaults.as_ref().map_or(own.len(), |d| d.0)].to_vec(),
        };
        if own != params {
            let mut entry_args = Vec::new();
            let mut conv = LlOps::new(&mut lg);
            conv.span = hl.span;
            let mut link_args = Vec::new();
            for (&p, &o) in params.iter().zip(&own) {
                let t = self.lltype(p);
                let v = conv.graph.new_typed_var(None, t);
                entry_args.push(v);
                match self.convertvar(&mut conv, Hlvalue::Var(v), p, o) {
                    Ok(x) => link_args.push(x),
                    Err(e) => errors.push(e.at(hl.span)),
                }
            }
            if let Some((_, defaults)) = own_defaults {
                for (&d, &o) in defaults.iter().zip(&own[params.len()..]) {
                    match self.const_value(d, o) {
                        Ok(c) => link_args.push(Hlvalue::Ll(c)),
                        Err(e) => errors.push(e.at(hl.span)),
                    }
                }
            }
            let ops = std::mem::take(&mut conv.ops);
            let entry = lg.new_block(entry_args);
            lg.block_mut(entry).operations = ops;
            let old = lg.startblock;
            let l = lg.add_link(
                entry,
                crate::flowspace::Link {
                    prevblock: entry,
                    target: old,
                    args: link_args,
                    exitcase: ExitCase::None,
                    last_exception: None,
                    last_exc_value: None,
                },
            );
            lg.set_link_span(l, hl.span);
            lg.startblock = entry;
        }
        self.plan_fills(g);
        for &b in &order {
            if b == hl.returnblock || b == hl.exceptblock {
                continue;
            }
            if let Err(e) = self.translate_block(g, b, &mut lg, &mut vmap, &bmap) {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(lg)
        } else {
            Err(errors)
        }
    }

    /// Ends a low-level block after an operation that never returns: a fatal error
    /// (never reached: the operation raises first) and a link to the except block.
    fn stop_block_after(
        &mut self,
        mut llops: LlOps,
        lb: BlockId,
        span: Span,
    ) -> Result<(), TyperError> {
        let ops = std::mem::take(&mut llops.ops);
        let lg = llops.graph;
        lg.block_mut(lb).operations = ops;
        lg.block_mut(lb).exitswitch = ExitSwitch::None;
        fatal_stop(lg, lb, span);
        Ok(())
    }

    fn translate_block(
        &mut self,
        g: u32,
        b: BlockId,
        lg: &mut FunctionGraph,
        vmap: &mut VarMap,
        bmap: &HashMap<BlockId, BlockId>,
    ) -> Result<(), TyperError> {
        let hl = &self.ann.graphs[g as usize];
        let block: &Block = hl.block(b);
        let catching = block.exitswitch == ExitSwitch::LastException;
        let nops = block.operations.len();
        let mut llops = LlOps::new(lg);
        let mut raising_index = None;
        for (i, op) in block.operations.iter().enumerate() {
            llops.span = op.span;
            let position = Position {
                graph: g,
                block: b.0,
                op: i as u32,
            };
            let exc_handled = catching && i + 1 == nops;
            let mut hop = Hop::new(self, g, op, position, exc_handled, vmap, &mut llops)
                .map_err(|e| e.at(op.span))?;
            if exc_handled {
                hop.exception_cases = self.reference_exception_cases(g, b, op, &hop.args_s).into();
                self.check_guarded_always_inline(position)
                    .map_err(|e| e.at(op.span))?;
            }
            let (v, r) = self
                .rtype_operation(&mut hop, &mut llops)
                .map_err(|e| e.at(op.span))?;
            self.check_implicit_exceptions(&hop)
                .map_err(|e| e.at(op.span))?;
            if exc_handled {
                // the marked operation, or else a call (calls can raise anything); with
                // neither, no exception can occur here and the except links are dropped
                raising_index = hop.raising_index.or_else(|| {
                    llops.ops.iter().rposition(|o| {
                        matches!(
                            o.opname,
                            crate::interpreter::Op::Ll(
                                crate::lltypesystem::LlOp::DirectCall
                                    | crate::lltypesystem::LlOp::IndirectCall
                            )
                        )
                    })
                });
            }
            // a call through a method family gives the family's result, here the instance
            // of a base class: the operation's own result is the class it was annotated
            // with (the reference casts down to it)
            let (v, r) = match (self.repr(r), self.repr(hop.r_result)) {
                (Repr::Instance(_), Repr::Instance(_)) if r != hop.r_result => {
                    let rr = hop.r_result;
                    let cv = self
                        .convertvar(&mut llops, v, r, rr)
                        .map_err(|e| e.at(op.span))?;
                    (cv, rr)
                }
                _ => (v, r),
            };
            vmap.insert(op.result, (v, r));
            if !exc_handled && self.annotation(g, Hlvalue::Var(op.result)).is_impossible() {
                // the operation never gives a value (a call of a function that always
                // raises): the annotator stopped the block here, so must we; what follows
                // is unreachable
                return self.stop_block_after(llops, bmap[&b], op.span);
            }
        }
        if !self.fills.is_empty() {
            self.fill_prealloc(g, b, &mut llops, vmap)
                .map_err(|e| e.at(block.operations.last().map(|o| o.span).unwrap_or_default()))?;
        }
        let cannot_raise = catching && raising_index.is_none();
        // exits into blocks the annotator never reached (a switch it knew the value of)
        let reached = &self.ann.blocks_reached[g as usize];
        let followed = self.ann.links_followed.get(g as usize);
        let live_exits: Vec<crate::flowspace::LinkId> = block
            .exits
            .iter()
            .copied()
            .enumerate()
            .filter(|&(i, l)| {
                // the normal path of an operation that always raises stays (to a stop)
                (catching && i == 0)
                    || (reached
                        .get(hl.link(l).target.0 as usize)
                        .copied()
                        .unwrap_or(true)
                        && followed
                            .and_then(|f| f.get(l.0 as usize))
                            .copied()
                            .unwrap_or(true))
            })
            .map(|(_, l)| l)
            .collect();
        let exitswitch = match block.exitswitch {
            ExitSwitch::None => ExitSwitch::None,
            ExitSwitch::Value(_) if live_exits.len() == 1 => ExitSwitch::None,
            ExitSwitch::LastException if cannot_raise => ExitSwitch::None,
            ExitSwitch::LastException => ExitSwitch::LastException,
            ExitSwitch::Value(v) => {
                let (lv, _) = self.value_of(g, v, vmap)?;
                ExitSwitch::Value(lv)
            }
        };
        // operations after the one that may raise belong to the normal path
        let mut trailing = Vec::new();
        if let Some(ri) = raising_index {
            if ri + 1 < llops.ops.len() {
                trailing = llops.ops.split_off(ri + 1);
            }
        }
        let span_end = block.operations.last().map(|o| o.span).unwrap_or_default();
        let ops = std::mem::take(&mut llops.ops);
        let lb = bmap[&b];
        lg.block_mut(lb).operations = ops;
        lg.block_mut(lb).exitswitch = exitswitch;
        let nexits = if cannot_raise { 1 } else { live_exits.len() };
        let single = exitswitch == ExitSwitch::None;
        // the normal exit of a protected operation that always raises (a call of a
        // function that never returns), which the annotator never followed: its
        // arguments have no value to convert (the operation's result is impossible), so
        // it stops even when its target is reached another way (the reference cuts it
        // off the same way: an always-raising block's normal link goes nowhere)
        let normal_never_followed = catching
            && !cannot_raise
            && live_exits.first().is_some_and(|l| {
                self.ann
                    .links_followed
                    .get(g as usize)
                    .and_then(|f| f.get(l.0 as usize))
                    .copied()
                    == Some(false)
            });
        for (k, &l) in live_exits.iter().take(nexits).enumerate() {
            let link = hl.link(l);
            let link_span = hl.link_span(l);
            let mut ll_exc = None;
            let mut ll_val = None;
            if let (Some(et), Some(ev)) = (link.last_exception, link.last_exc_value) {
                let cr = self.intern_repr(Repr::Class(None));
                let or = self.intern_repr(Repr::Object);
                let t = lg.new_typed_var(None, self.lltype(cr));
                let v = lg.new_typed_var(None, self.lltype(or));
                vmap.insert(et, (Hlvalue::Var(t), cr));
                vmap.insert(ev, (Hlvalue::Var(v), or));
                ll_exc = Some(t);
                ll_val = Some(v);
            }
            let exitcase = match link.exitcase {
                _ if single => ExitCase::None,
                ExitCase::None => ExitCase::None,
                ExitCase::Value(Value::Bool(x)) => ExitCase::Ll(LlValue::Bool(x)),
                ExitCase::Value(Value::Int(x)) => ExitCase::Ll(LlValue::Int(x)),
                ExitCase::Value(other) => {
                    return Err(
                        TyperError::new(format!("switch on the constant {:?}", other)).at(span_end),
                    )
                }
                // the StopIteration exit of a loop's `next` is taken for whatever the
                // iterator raises (the reference's binaries leave the loop silently)
                ExitCase::Exception(_)
                    if k == 1
                        && block
                            .operations
                            .last()
                            .is_some_and(|o| o.opname == crate::interpreter::Op::Next) =>
                {
                    ExitCase::Ll(LlValue::Ptr(LlPtr::Null))
                }
                ExitCase::Exception(cls) => {
                    let vt = self.exception_vtable(cls);
                    ExitCase::Ll(LlValue::Ptr(vt))
                }
                ExitCase::Ll(v) => ExitCase::Ll(v),
            };
            let target = if k == 0 && normal_never_followed {
                None
            } else {
                bmap.get(&link.target).copied()
            };
            let Some(target) = target else {
                // an operation the annotator knows always raises: its normal path stops
                let stop = lg.new_block(Vec::new());
                fatal_stop(lg, stop, link_span);
                let stop_link = lg.add_link(
                    lb,
                    crate::flowspace::Link {
                        prevblock: lb,
                        target: stop,
                        args: Vec::new(),
                        exitcase,
                        last_exception: ll_exc,
                        last_exc_value: ll_val,
                    },
                );
                lg.set_link_span(stop_link, link_span);
                continue;
            };
            let target_args = hl.block(link.target).inputargs.clone();
            // the link's arguments, converted to the target's Reprs (in a new block when
            // conversions need operations, or when operations follow the raising one)
            let mut conv = LlOps::new(lg);
            conv.span = link_span;
            if k == 0 && !trailing.is_empty() {
                conv.ops = std::mem::take(&mut trailing);
            }
            if !self.fills.is_empty() {
                self.fill_exact_on_link(g, l, &mut conv, vmap)
                    .map_err(|e| e.at(link_span))?;
            }
            let mut args = Vec::new();
            for (j, a) in link.args.iter().enumerate() {
                let (lv, from) = self.value_of(g, *a, vmap).map_err(|e| e.at(link_span))?;
                let to = if link.target == hl.exceptblock {
                    if j == 0 {
                        self.intern_repr(Repr::Class(None))
                    } else {
                        self.intern_repr(Repr::Object)
                    }
                } else {
                    self.var_repr(g, target_args[j])?
                };
                let lv = if let Some(c) = self.static_value(g, *a, from) {
                    // constants (and Void-represented values known statically) are built
                    // directly in the target's Repr
                    Hlvalue::Ll(self.const_value(c, to).map_err(|e| e.at(link_span))?)
                } else {
                    self.convertvar(&mut conv, lv, from, to)
                        .map_err(|e| e.at(link_span))?
                };
                args.push(lv);
            }
            let conv_ops = std::mem::take(&mut conv.ops);
            drop(conv);
            let new_link =
                |prev: BlockId, target: BlockId, args: Vec<Hlvalue>| crate::flowspace::Link {
                    prevblock: prev,
                    target,
                    args,
                    exitcase,
                    last_exception: ll_exc,
                    last_exc_value: ll_val,
                };
            if conv_ops.is_empty() {
                let l = lg.add_link(lb, new_link(lb, target, args));
                lg.set_link_span(l, link_span);
            } else {
                // a block between: it receives every Variable the conversions and the
                // link use, and ends with the link
                let mut used: Vec<VarId> = Vec::new();
                let defined: crate::fasthash::HashSet<VarId> =
                    conv_ops.iter().map(|o| o.result).collect();
                for o in &conv_ops {
                    for a in &o.args {
                        if let Hlvalue::Var(v) = a {
                            if !defined.contains(v) && !used.contains(v) {
                                used.push(*v);
                            }
                        }
                    }
                }
                for a in &args {
                    if let Hlvalue::Var(v) = a {
                        if !defined.contains(v) && !used.contains(v) {
                            used.push(*v);
                        }
                    }
                }
                let mut rename: HashMap<VarId, VarId> = HashMap::default();
                let mut inputs = Vec::new();
                for v in &used {
                    let t = lg.concretetype[v.0 as usize];
                    let nv = lg.new_typed_var(lg.var(*v).name_hint.clone(), t);
                    rename.insert(*v, nv);
                    inputs.push(nv);
                }
                let ren = |a: Hlvalue| match a {
                    Hlvalue::Var(v) => Hlvalue::Var(*rename.get(&v).unwrap_or(&v)),
                    other => other,
                };
                let mut ops = conv_ops;
                for o in &mut ops {
                    for a in &mut o.args {
                        *a = ren(*a);
                    }
                }
                let args: Vec<Hlvalue> = args.into_iter().map(ren).collect();
                let mid = lg.new_block(inputs);
                lg.block_mut(mid).operations = ops;
                let mut out = new_link(mid, target, args);
                out.exitcase = ExitCase::None;
                out.last_exception = None;
                out.last_exc_value = None;
                let out = lg.add_link(mid, out);
                lg.set_link_span(out, link_span);
                let into_args: Vec<Hlvalue> = used.iter().map(|v| Hlvalue::Var(*v)).collect();
                let l = lg.add_link(lb, new_link(lb, mid, into_args));
                lg.set_link_span(l, link_span);
            }
        }
        Ok(())
    }
}
