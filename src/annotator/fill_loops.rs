//! Loops filling a new list (a list comprehension, or `l = []` then a `for` loop whose
//! only use of `l` is one `l.append(x)`): the reference's flow-graph simplification
//! (`detect_list_comprehension`) marks them, and the list leaving the loop is a fresh copy
//! for its annotator (its `fence` hint), never resized. What this module gives is the
//! positions of those `append` calls: the annotator counts the resizing they do apart, so
//! `make_sure_not_resized()` of the filled list is accepted, as there, while a list
//! resized otherwise is refused.

use crate::flowspace::{BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, VarId};
use crate::interpreter::Op;
use crate::objspace::object::Value;

/// The (block, operation) positions of the `append` calls of loops filling a new list.
pub fn loop_fill_appends(
    g: &FunctionGraph,
    is_str: &dyn Fn(Value, &str) -> bool,
) -> Vec<(u32, u32)> {
    let n = g.vars.len();
    // variable families: the variables a value flows through over links
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(p: &mut [u32], mut v: u32) -> u32 {
        while p[v as usize] != v {
            p[v as usize] = p[p[v as usize] as usize];
            v = p[v as usize];
        }
        v
    }
    for link in &g.links {
        let target = &g.blocks[link.target.0 as usize];
        for (a, &t) in link.args.iter().zip(target.inputargs.iter()) {
            if let Hlvalue::Var(v) = a {
                let (x, y) = (find(&mut parent, v.0), find(&mut parent, t.0));
                if x != y {
                    parent[x as usize] = y;
                }
            }
        }
    }
    let family = |p: &mut Vec<u32>, v: VarId| find(p, v.0);
    // families of lists made empty by `newlist()`
    let mut new_lists = Vec::new();
    for b in &g.blocks {
        for op in &b.operations {
            if op.opname == Op::NewList && op.args.is_empty() {
                new_lists.push(family(&mut parent, op.result));
            }
        }
    }
    if new_lists.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (hi, head) in g.blocks.iter().enumerate() {
        // a loop head: one `next` whose StopIteration exit leaves the loop
        let is_head = head.operations.len() == 1
            && head.operations[0].opname == Op::Next
            && head.exitswitch == ExitSwitch::LastException
            && head.exits.len() >= 2
            && head.exits.iter().any(|&l| {
                matches!(g.link(l).exitcase, ExitCase::Exception(c) if is_str(Value::Obj(c), "StopIteration"))
            });
        if !is_head {
            continue;
        }
        let body = loop_body(g, BlockId(hi as u32));
        for &list in &new_lists {
            // in the body, the list's only use is `m = getattr(list, 'append')` and one
            // `simple_call(m, x)`
            let mut appends = Vec::new();
            let mut other_use = false;
            for &b in &body {
                let block = &g.blocks[b.0 as usize];
                for (i, op) in block.operations.iter().enumerate() {
                    let uses: Vec<usize> = op
                        .args
                        .iter()
                        .enumerate()
                        .filter(|(_, a)| matches!(a, Hlvalue::Var(v) if family(&mut parent, *v) == list))
                        .map(|(k, _)| k)
                        .collect();
                    if uses.is_empty() {
                        continue;
                    }
                    let getattr_append = op.opname == Op::GetAttr
                        && uses == [0]
                        && matches!(op.args.get(1), Some(Hlvalue::Const(c)) if is_str(*c, "append"));
                    if !getattr_append {
                        other_use = true;
                        continue;
                    }
                    let method = op.result;
                    let call = block.operations[i + 1..].iter().position(|o| {
                        o.opname == Op::SimpleCall && o.args.first() == Some(&Hlvalue::Var(method))
                    });
                    match call {
                        Some(k) => appends.push((b.0, (i + 1 + k) as u32)),
                        None => other_use = true,
                    }
                }
                if let ExitSwitch::Value(Hlvalue::Var(v)) = block.exitswitch {
                    if family(&mut parent, v) == list {
                        other_use = true;
                    }
                }
            }
            if !other_use && appends.len() == 1 {
                out.push(appends[0]);
            }
        }
    }
    out
}

/// The blocks of the loop whose head is `head`: those reached from its normal exit that
/// lead back to it.
fn loop_body(g: &FunctionGraph, head: BlockId) -> Vec<BlockId> {
    let nb = g.blocks.len();
    let hb = &g.blocks[head.0 as usize];
    let Some(&first) = hb.exits.first() else {
        return Vec::new();
    };
    // forward from the normal exit, not through the head
    let mut fwd = vec![false; nb];
    let mut stack = vec![g.link(first).target];
    while let Some(b) = stack.pop() {
        if b == head || fwd[b.0 as usize] {
            continue;
        }
        fwd[b.0 as usize] = true;
        for &l in &g.blocks[b.0 as usize].exits {
            stack.push(g.link(l).target);
        }
    }
    // backward from the head, among those
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nb];
    for (bi, b) in g.blocks.iter().enumerate() {
        for &l in &b.exits {
            preds[g.link(l).target.0 as usize].push(bi as u32);
        }
    }
    let mut back = vec![false; nb];
    let mut stack: Vec<u32> = preds[head.0 as usize].clone();
    while let Some(b) = stack.pop() {
        if !fwd[b as usize] || back[b as usize] {
            continue;
        }
        back[b as usize] = true;
        stack.extend(preds[b as usize].iter().copied());
    }
    (0..nb)
        .filter(|&b| back[b])
        .map(|b| BlockId(b as u32))
        .collect()
}
