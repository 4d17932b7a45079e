//! `next()` of the iterators of lists, strings, tuples, dicts and `range()` (not of
//! generators, see rgenerator.rs): a call of the low-level helper of `__rpy_ll__/ll_iter.py`
//! chosen by the container's layout and the iterator's variant, which raises StopIteration
//! at the end.
//! Takes the `next` operation's hop; gives the item.
//!
//! Range iteration is a loop's hot path: a `next` whose step has a known sign is inlined
//! into the loop (`inline_range_next`, after the graph is translated), as the reference's
//! backend inlines its `ll_rangenext_up`/`_down`; no call is left per iteration.

use super::annlowlevel::EqSpec;
use super::hop::{cfield, ctype, Hop, LlOps};
use super::rmodel::{IterVariantKey, Repr, ReprId};
use super::{LlFunction, RTyper, TyperError};
use crate::annotator::model::SomeValue;
use crate::fasthash::HashMap;
use crate::flowspace::{
    BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, Link, SpaceOperation, VarId,
};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};

type R = Result<(Hlvalue, ReprId), TyperError>;

impl RTyper<'_> {
    pub(super) fn rtype_next(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let rr = hop.r_result;
        let tr = self.lltype(rr);
        let it = hop.args_v[0];
        let (helper, tuple) = match self.repr(hop.args_r[0]).clone() {
            Repr::RangeIter => {
                let step = match &hop.args_s[0] {
                    SomeValue::Iterator { container, .. } => self.range_list_step(container),
                    _ => None,
                };
                match step {
                    Some(s) if s > 0 => ("ll_rangeiter_next_up", false),
                    Some(_) => ("ll_rangeiter_next_down", false),
                    None => ("ll_rangeiter_next", false),
                }
            }
            Repr::Iter {
                container,
                variant: IterVariantKey::Plain,
            } if matches!(self.repr(container), Repr::Tuple(_)) => {
                let Repr::Tuple(items) = self.repr(container) else {
                    unreachable!()
                };
                let spec = EqSpec::TupleIterNext(items.len());
                if self.has_implicit_exception(hop, "StopIteration") {
                    hop.exception_is_here(llops);
                }
                return Ok((
                    self.gendirectcall_eq(llops, "ll_call", vec![it], spec, tr)?,
                    rr,
                ));
            }
            Repr::Iter { container, variant } => {
                let layout = match self.repr(container) {
                    Repr::List { fixed: false, .. } => "list",
                    Repr::List { fixed: true, .. } => "array",
                    Repr::Str | Repr::Unicode => "str",
                    Repr::Dict { .. } => "dict",
                    _ => return Err(self.unsupported_iter()),
                };
                use IterVariantKey as V;
                match (layout, variant) {
                    ("list", V::Plain) => ("ll_listiter_next", false),
                    ("list", V::Reversed) => ("ll_listiter_next_reversed", false),
                    ("list", V::Enumerate) => ("ll_listiter_next_enumerate", true),
                    ("array", V::Plain) => ("ll_arrayiter_next", false),
                    ("array", V::Reversed) => ("ll_arrayiter_next_reversed", false),
                    ("array", V::Enumerate) => ("ll_arrayiter_next_enumerate", true),
                    ("str", V::Plain) => ("ll_striter_next", false),
                    ("str", V::Reversed) => ("ll_striter_next_reversed", false),
                    ("str", V::Enumerate) => ("ll_striter_next_enumerate", true),
                    ("dict", V::Plain | V::Keys) => ("ll_dictiter_next_keys", false),
                    ("dict", V::Values) => ("ll_dictiter_next_values", false),
                    ("dict", V::Items) => ("ll_dictiter_next_items", true),
                    _ => return Err(self.unsupported_iter()),
                }
            }
            _ => return Err(self.unsupported_iter()),
        };
        let mut args = vec![it];
        if tuple {
            args.insert(0, ctype(tr));
        }
        // a dict's iterator also raises RuntimeError (the dict changed size)
        let mut raises = self.has_implicit_exception(hop, "StopIteration");
        if helper.starts_with("ll_dictiter") {
            raises |= self.has_implicit_exception(hop, "RuntimeError");
        }
        if raises {
            hop.exception_is_here(llops);
        }
        Ok((self.gendirectcall(llops, helper, args, tr)?, rr))
    }

    fn unsupported_iter(&self) -> TyperError {
        TyperError::new("iterating over this value is not supported by `run` yet")
    }
}

impl RTyper<'_> {
    /// Replaces each call of `ll_rangeiter_next_up`/`_down` that ends a block whose
    /// exception exit is the loop's (any exception, nothing read from it) by the helper's
    /// operations: the bound test is the block's switch, the exhausted case takes the
    /// former exception exit, and a new block advances the iterator before the former
    /// normal exit.
    pub(super) fn inline_range_next(&self, lg: &mut FunctionGraph) {
        for b in 0..lg.blocks.len() {
            let b = BlockId(b as u32);
            let Some((up, it, r)) = self.range_next_call(lg, b) else {
                continue;
            };
            let (normal, stop_exit) = (lg.block(b).exits[0], lg.block(b).exits[1]);
            let span = lg
                .block(b)
                .operations
                .last()
                .map(|o| o.span)
                .unwrap_or_default();
            let op = |opname: LlOp, args: Vec<Hlvalue>, result: VarId| SpaceOperation {
                opname: Op::Ll(opname),
                args,
                result,
                span,
            };
            // the bound test, in place of the call
            let n = lg.new_typed_var(None, LlType::SIGNED);
            let stop = lg.new_typed_var(None, LlType::SIGNED);
            let ok = lg.new_typed_var(None, LlType::BOOL);
            let cmp = if up { LlOp::IntLt } else { LlOp::IntGt };
            let itv = Hlvalue::Var(it);
            let ops = &mut lg.block_mut(b).operations;
            ops.pop();
            ops.push(op(LlOp::GetField, vec![itv, cfield("next")], n));
            ops.push(op(LlOp::GetField, vec![itv, cfield("stop")], stop));
            ops.push(op(cmp, vec![Hlvalue::Var(n), Hlvalue::Var(stop)], ok));
            // the advance, in a new block receiving what the normal exit carries
            let mut carried: Vec<VarId> = vec![it, n];
            for a in &lg.link(normal).args {
                if let Some(v) = a.var() {
                    if v != r && !carried.contains(&v) {
                        carried.push(v);
                    }
                }
            }
            let mut map: HashMap<VarId, VarId> = HashMap::default();
            let mut inputs = Vec::new();
            for &v in &carried {
                let t = lg.concretetype[v.0 as usize];
                let c = lg.new_typed_var(None, t);
                map.insert(v, c);
                inputs.push(c);
            }
            let adv = lg.new_block(inputs);
            let (it_c, n_c) = (map[&it], map[&n]);
            let step = lg.new_typed_var(None, LlType::SIGNED);
            let next = lg.new_typed_var(None, LlType::SIGNED);
            let void = lg.new_typed_var(None, LlType::VOID);
            let itc = Hlvalue::Var(it_c);
            let adv_ops = vec![
                op(LlOp::GetField, vec![itc, cfield("step")], step),
                op(
                    LlOp::IntAdd,
                    vec![Hlvalue::Var(n_c), Hlvalue::Var(step)],
                    next,
                ),
                op(
                    LlOp::SetField,
                    vec![itc, cfield("next"), Hlvalue::Var(next)],
                    void,
                ),
            ];
            lg.block_mut(adv).operations = adv_ops;
            let old = lg.link(normal).clone();
            let args = old
                .args
                .iter()
                .map(|a| match a.var() {
                    Some(v) if v == r => Hlvalue::Var(n_c),
                    Some(v) => Hlvalue::Var(map[&v]),
                    None => *a,
                })
                .collect();
            let onward = lg.add_link(
                adv,
                Link {
                    prevblock: adv,
                    target: old.target,
                    args,
                    exitcase: ExitCase::None,
                    last_exception: None,
                    last_exc_value: None,
                },
            );
            lg.block_mut(adv).exits = vec![onward];
            // the block now switches on the test: False is the loop's exit, True advances
            *lg.link_mut(normal) = Link {
                prevblock: b,
                target: adv,
                args: carried.iter().map(|v| Hlvalue::Var(*v)).collect(),
                exitcase: ExitCase::Ll(LlValue::Bool(true)),
                last_exception: None,
                last_exc_value: None,
            };
            let l = lg.link_mut(stop_exit);
            l.exitcase = ExitCase::Ll(LlValue::Bool(false));
            let blk = lg.block_mut(b);
            blk.exitswitch = ExitSwitch::Value(Hlvalue::Var(ok));
            blk.exits = vec![stop_exit, normal];
        }
    }

    /// `(step > 0, iterator, result)` of a block ending in an inlinable range `next`.
    fn range_next_call(&self, lg: &FunctionGraph, b: BlockId) -> Option<(bool, VarId, VarId)> {
        let blk = lg.block(b);
        if !matches!(blk.exitswitch, ExitSwitch::LastException) || blk.exits.len() != 2 {
            return None;
        }
        let call = blk.operations.last()?;
        if call.opname != Op::Ll(LlOp::DirectCall) || call.args.len() != 2 {
            return None;
        }
        let f = match call.args[0].ll_constant()?.value {
            LlValue::Ptr(LlPtr::Func(f)) => f,
            _ => return None,
        };
        let up = match self.functions.get(f as usize)? {
            LlFunction::Graph { name, .. } if &**name == "ll_rangeiter_next_up" => true,
            LlFunction::Graph { name, .. } if &**name == "ll_rangeiter_next_down" => false,
            _ => return None,
        };
        let it = call.args[1].var()?;
        let exc = lg.link(blk.exits[1]);
        let reads_exception = exc.args.iter().any(|a| {
            a.var()
                .is_some_and(|v| Some(v) == exc.last_exception || Some(v) == exc.last_exc_value)
        });
        let any = matches!(exc.exitcase, ExitCase::Ll(LlValue::Ptr(LlPtr::Null)));
        (any && !reads_exception && lg.link(blk.exits[0]).exitcase == ExitCase::None).then_some((
            up,
            it,
            call.result,
        ))
    }
}
