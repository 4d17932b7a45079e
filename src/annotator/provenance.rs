//! Message provenance: where an annotation came from, for the labels of error messages
//! (the assignment that made a variable an int, the `return` that gave a function its
//! result, the constant a code object compares with). Takes the annotator's per-variable
//! origins and the flow graphs' link spans; gives source spans. Separate from the fixpoint
//! (annrpython.rs): nothing here changes an annotation.

use super::annrpython::*;
use super::model::*;
use super::AnnError;
use crate::compiler::{Const, Instr};
use crate::flowspace::{FunctionGraph, Hlvalue, Link, LinkId, VarId};
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Heap, Object, Value};
use crate::syntax::Span;

impl<C: ConcreteSpace> Annotator<'_, C> {
    pub(super) fn report_merge_conflict(
        &mut self,
        g: u32,
        b: u32,
        v: VarId,
        old: (&SomeValue, Option<Span>),
        new: (&SomeValue, Option<Span>),
        e: &AnnError,
    ) {
        let heap = self.space.heap();
        let graph = &self.graphs[g as usize];
        let is_return = graph.returnblock.0 == b;
        // The culprit: the None side when None is involved, else the later line.
        let new_first = if matches!(new.0, SomeValue::None) {
            true
        } else if matches!(old.0, SomeValue::None) {
            false
        } else {
            match (new.1, old.1) {
                (Some(n), Some(o)) => n.file != o.file || n.start >= o.start,
                (None, Some(_)) => false,
                _ => true,
            }
        };
        let (primary, other) = if new_first { (new, old) } else { (old, new) };
        let (p_desc, o_desc) = (
            self.bk.describe_type(heap, primary.0),
            self.bk.describe_type(heap, other.0),
        );
        let msg = if is_return {
            format!(
                "`{}` returns {} here but {} elsewhere: a function's results must have one type{}",
                graph.name,
                p_desc,
                o_desc,
                e.detail_suffix()
            )
        } else if graph.startblock.0 == b {
            let name = graph.var(v).name_hint.as_deref().unwrap_or("?");
            format!(
                "`{}` is called with {} for its argument `{}` here but with {} elsewhere: an argument must have one type over all calls{}",
                graph.name,
                p_desc,
                name,
                o_desc,
                e.detail_suffix()
            )
        } else {
            let name = graph
                .var(v)
                .name_hint
                .as_ref()
                .map(|n| format!("`{}`", n))
                .unwrap_or_else(|| "a value".to_string());
            format!(
                "{} is {} here but {} on another path: a variable must have a single type where paths join{}",
                name,
                p_desc,
                o_desc,
                e.detail_suffix()
            )
        };
        let fallback = graph.blocks[b as usize]
            .operations
            .first()
            .map(|op| op.span)
            .unwrap_or(graph.span);
        let mut err = AnnError::new("RPY201", msg)
            .stage_of(e)
            .at(primary.1.unwrap_or(fallback));
        if let Some(o) = other.1 {
            err = err.label(o, format!("{} here", o_desc));
        }
        self.report(err, fallback);
    }

    pub(super) fn origin_span(&self, g: u32, o: Option<Origin>) -> Option<Span> {
        self.origin_span_at(g, o, 0)
    }

    fn origin_span_at(&self, g: u32, o: Option<Origin>, depth: u32) -> Option<Span> {
        match o? {
            Origin::Span(s) => Some(s),
            Origin::Link(l, i) => self.link_arg_span(g, l, i as usize, depth),
        }
    }

    /// Where a link's `i`-th argument was given its value, for messages: the operation of
    /// the source block that computed it, or the assignment / `return` statement found in
    /// the function's code.
    fn link_arg_span(&self, g: u32, l: LinkId, i: usize, depth: u32) -> Option<Span> {
        let graph = &self.graphs[g as usize];
        let link = graph.link(l);
        let link_span = graph.link_span(l);
        let arg = link.args[i];
        let prev = graph.block(link.prevblock);
        if let Hlvalue::Var(v) = arg {
            if let Some(op) = prev.operations.iter().rev().find(|op| op.result == v) {
                return Some(op.span);
            }
        }
        let s = graph.arg_span(l, i);
        if s != Span::default() {
            return Some(s);
        }
        if let Hlvalue::Var(v) = arg {
            // Passed through from the previous block's entry: where that value came from.
            if depth < 8 && prev.inputargs.contains(&v) {
                // (Not into a parameter: the call site says less than the statement here.)
                let o = self.info[g as usize].origins[v.0 as usize]
                    .filter(|o| matches!(o, Origin::Link(..)));
                if let Some(s) = self.origin_span_at(g, o, depth + 1) {
                    return Some(s);
                }
            }
        }
        if depth > 0 {
            // Only precise origins through earlier links; the guesses below are for the link
            // the question is about.
            return None;
        }
        let mut target_is_return = link.target == graph.returnblock;
        let target_var = graph.block(link.target).inputargs.get(i).copied();
        let mut target_name = target_var.and_then(|t| graph.var(t).name_hint.clone());
        if target_is_return && matches!(arg, Hlvalue::Const(_)) {
            // `return x` with `x` a constant on this path: where `x` was assigned.
            if let Some(name) = self.returned_local(graph, link_span) {
                target_is_return = false;
                target_name = Some(name);
            }
        }
        let last_op = last_op_span(graph, link.prevblock);
        let found = self.code_span_for(graph, arg, target_is_return, target_name.as_deref());
        if !matches!(found, Some((_, false))) {
            // A value passed through from the block's entry: where it was assigned on a
            // path that gave it this type.
            if let Hlvalue::Var(v) = arg {
                if let Some(j) = prev.inputargs.iter().position(|&x| x == v) {
                    let want = self.bk.describe_type(self.heap(), &self.binding(g, v));
                    let mut seen = vec![link.prevblock];
                    if let Some(s) = self.trace_source(g, link.prevblock, j, &want, &mut seen) {
                        return Some(s);
                    }
                }
            }
        }
        match found {
            // The implicit `return None` at the end of a function: the last statement
            // executed on this path says more than the `def` line.
            Some((s, true)) => last_op.or(Some(s)),
            Some((s, false)) => Some(s),
            // A constant built by the flow space (a folded tuple): the statement that took
            // the link.
            None if matches!(arg, Hlvalue::Const(_)) && link_span != Span::default() => {
                Some(link_span)
            }
            None => last_op,
        }
    }

    /// The local read by the `return` statement at `span` (`return x`), if that is what it
    /// returns.
    fn returned_local(&self, graph: &FunctionGraph, span: Span) -> Option<std::rc::Rc<str>> {
        let code = match self.heap().get(graph.func?) {
            Object::Function(f) => f.code.clone(),
            _ => return None,
        };
        let k = (1..code.co_code.len()).find(|&k| {
            matches!(code.co_code[k], Instr::ReturnValue) && code.co_spans.get(k) == Some(&span)
        })?;
        match code.co_code[k - 1] {
            Instr::LoadFast(j) => code.co_varnames.get(j as usize).cloned(),
            _ => None,
        }
    }

    /// Where the `j`-th input of `block` got a value of type `want` (in words): the operation
    /// or assignment on an incoming path, following values passed through unchanged.
    fn trace_source(
        &self,
        g: u32,
        block: crate::flowspace::BlockId,
        j: usize,
        want: &str,
        seen: &mut Vec<crate::flowspace::BlockId>,
    ) -> Option<Span> {
        let graph = &self.graphs[g as usize];
        let name = graph
            .block(block)
            .inputargs
            .get(j)
            .and_then(|&t| graph.var(t).name_hint.clone());
        let incoming: Vec<&Link> = graph
            .blocks
            .iter()
            .flat_map(|b| b.exits.iter())
            .map(|l| &graph.links[l.0 as usize])
            .filter(|l| l.target == block)
            .collect();
        for l in incoming {
            let a = l.args.get(j).copied()?;
            let kind = match a {
                Hlvalue::Var(v) => self.bk.describe_type(self.heap(), &self.binding(g, v)),
                Hlvalue::Const(Value::None) => "None".to_string(),
                _ => want.to_string(),
            };
            if kind != want {
                continue;
            }
            let prev = graph.block(l.prevblock);
            if let Hlvalue::Var(v) = a {
                if let Some(op) = prev.operations.iter().rev().find(|op| op.result == v) {
                    return Some(op.span);
                }
            }
            if let Some((s, false)) = self.code_span_for(graph, a, false, name.as_deref()) {
                return Some(s);
            }
            if let Hlvalue::Var(v) = a {
                if let Some(k) = prev.inputargs.iter().position(|&x| x == v) {
                    if !seen.contains(&l.prevblock) {
                        seen.push(l.prevblock);
                        if let Some(s) = self.trace_source(g, l.prevblock, k, want, seen) {
                            return Some(s);
                        }
                    }
                }
            }
        }
        None
    }

    /// The span of the instruction pair loading `arg` and storing it into `target_name` (or
    /// returning it), and whether it is the implicit `return None` of the function's end.
    fn code_span_for(
        &self,
        graph: &FunctionGraph,
        arg: Hlvalue,
        to_return: bool,
        target_name: Option<&str>,
    ) -> Option<(Span, bool)> {
        let heap = self.heap();
        let code = match heap.get(graph.func?) {
            Object::Function(f) => f.code.clone(),
            _ => return None,
        };
        let loads = |ins: &Instr| -> bool {
            match (ins, arg) {
                (Instr::LoadConst(j), Hlvalue::Const(c)) => code
                    .co_consts
                    .get(*j as usize)
                    .is_some_and(|k| const_matches(heap, k, c)),
                (Instr::LoadFast(j), Hlvalue::Var(v)) => {
                    graph.var(v).name_hint.as_deref().is_some_and(|n| {
                        code.co_varnames.get(*j as usize).is_some_and(|x| &**x == n)
                    })
                }
                _ => false,
            }
        };
        let mut found: Option<(Span, bool)> = None;
        for k in 0..code.co_code.len().saturating_sub(1) {
            if !loads(&code.co_code[k]) {
                continue;
            }
            let ok = match code.co_code[k + 1] {
                Instr::ReturnValue => to_return,
                Instr::YieldValue => false,
                Instr::StoreFast(j) => {
                    !to_return
                        && target_name.is_some_and(|n| {
                            code.co_varnames.get(j as usize).is_some_and(|x| &**x == n)
                        })
                }
                _ => false,
            };
            if ok {
                if let Some(&s) = code.co_spans.get(k) {
                    let implicit = s.start <= code.name_span.start;
                    // The implicit `return None`: the last statement before it says more.
                    let s = if implicit {
                        code.co_spans[..k]
                            .iter()
                            .rev()
                            .find(|p| p.start > code.name_span.start)
                            .copied()
                            .unwrap_or(s)
                    } else {
                        s
                    };
                    if found.is_none_or(|(_, was_implicit)| was_implicit || !implicit) {
                        found = Some((s, implicit));
                    }
                }
            }
        }
        found
    }
}

/// The span of the last operation executed before leaving `block`: its own last one, or,
/// for an empty block with a single predecessor, the predecessor's.
fn last_op_span(graph: &FunctionGraph, block: crate::flowspace::BlockId) -> Option<Span> {
    let mut b = block;
    for _ in 0..16 {
        if let Some(op) = graph.block(b).operations.last() {
            return Some(op.span);
        }
        let mut preds = graph.links.iter().filter(|l| l.target == b);
        let (Some(first), None) = (preds.next(), preds.next()) else {
            return None;
        };
        b = first.prevblock;
    }
    None
}

/// Whether a code-object constant is the same value as a heap constant.
fn const_matches(heap: &Heap, k: &Const, v: Value) -> bool {
    match (k, v) {
        (Const::None, Value::None) => true,
        (Const::Bool(a), Value::Bool(b)) => *a == b,
        (Const::Int(a), Value::Int(b)) => *a == b,
        (Const::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
        (Const::Str(s), Value::Obj(id)) => matches!(heap.get(id), Object::Str(t) if **t == **s),
        (Const::Unicode(s), Value::Obj(id)) => {
            matches!(heap.get(id), Object::Unicode(t) if t == s)
        }
        _ => false,
    }
}
