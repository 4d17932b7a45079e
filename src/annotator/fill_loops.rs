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

/// The family of each Variable (by index): its representative among the Variables a value
/// flows through over links (the reference's `DataFlowFamilyBuilder`).
fn variable_families(g: &FunctionGraph) -> Vec<u32> {
    let n = g.vars.len();
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
    (0..n as u32).map(|v| find(&mut parent, v)).collect()
}

/// Whether `v` is the string `s`, or a class named `s` (`StopIteration`), in `heap`.
pub fn names(heap: &crate::objspace::object::Heap, v: Value, s: &str) -> bool {
    use crate::objspace::object::Object;
    match v {
        Value::Obj(id) => match heap.get(id) {
            Object::Str(b) => &**b == s.as_bytes(),
            Object::Class(c) => &*c.name == s,
            _ => false,
        },
        _ => false,
    }
}

/// The (block, operation) positions of the `append` calls of loops filling a new list.
pub fn loop_fill_appends(
    g: &FunctionGraph,
    is_str: &dyn Fn(Value, &str) -> bool,
) -> Vec<(u32, u32)> {
    let fam = variable_families(g);
    let family = |v: VarId| fam[v.0 as usize];
    // families of lists made empty by `newlist()`
    let mut new_lists = Vec::new();
    for b in &g.blocks {
        for op in &b.operations {
            if op.opname == Op::NewList && op.args.is_empty() {
                new_lists.push(family(op.result));
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
                        .filter(|(_, a)| matches!(a, Hlvalue::Var(v) if family(*v) == list))
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
                    if family(v) == list {
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

/// A loop the reference's `detect_list_comprehension` accepts with an exact length: every
/// pass through the loop appends once to a list made empty before it, so the list is
/// preallocated with the iterable's length at the loop's `iter` (its `maxlength` hint) and,
/// at the loop's normal end, is the preallocated array itself (`ll_list2fixed_exact`).
#[derive(Clone, Debug)]
pub struct ExactFill {
    /// The block ending with the `iter` whose single exit enters the loop head.
    pub iter_block: BlockId,
    /// What the loop iterates over (the `iter` operation's argument).
    pub iterable: Hlvalue,
    /// Which argument of `iter_block`'s exit link is the list.
    pub iter_link_arg: usize,
    /// The (block, operation) of the `simple_call` that appends.
    pub append: (u32, u32),
    /// The head's exits leaving the loop when the iterator is exhausted, with the index of
    /// the list among each link's arguments.
    pub stop_links: Vec<(crate::flowspace::LinkId, usize)>,
}

/// The loops filling a new list that the reference preallocates (see `ExactFill`), found
/// by the reference's own conditions: the `iter` in the block just before the head, the
/// list made by `newlist()` before the loop and used in it only by one `getattr(l,
/// 'append')` called once (and `getitem`), no way from one `append` back to it without a
/// `next`, none after the iterator is exhausted, and none around the loop that skips it.
pub fn exact_fill_loops(g: &FunctionGraph, is_str: &dyn Fn(Value, &str) -> bool) -> Vec<ExactFill> {
    let nb = g.blocks.len();
    let fam = variable_families(g);
    let fam_of = |a: &Hlvalue| match a {
        Hlvalue::Var(v) => Some(fam[v.0 as usize]),
        _ => None,
    };
    let order = g.iterblocks();
    let mut heads = Vec::new();
    let mut newlist_v: Vec<(u32, BlockId)> = Vec::new();
    let mut iter_v: Vec<(u32, BlockId)> = Vec::new();
    let set =
        |m: &mut Vec<(u32, BlockId)>, k: u32, b: BlockId| match m.iter_mut().find(|e| e.0 == k) {
            Some(e) => e.1 = b,
            None => m.push((k, b)),
        };
    for &b in &order {
        let block = g.block(b);
        if block.operations.len() == 1
            && block.operations[0].opname == Op::Next
            && block.exitswitch == ExitSwitch::LastException
            && block.exits.len() >= 2
        {
            let cases: Vec<&ExitCase> = block.exits.iter().map(|&l| &g.link(l).exitcase).collect();
            if cases.iter().any(|c| matches!(c, ExitCase::None))
                && cases.iter().any(|c| matches!(c, ExitCase::Exception(c) if is_str(Value::Obj(*c), "StopIteration")))
            {
                heads.push((b, block.operations[0].args[0]));
                continue;
            }
        }
        for op in &block.operations {
            if op.opname == Op::NewList && op.args.is_empty() {
                set(&mut newlist_v, fam[op.result.0 as usize], b);
            }
            if op.opname == Op::Iter {
                set(&mut iter_v, fam[op.result.0 as usize], b);
            }
        }
    }
    let mut loops = Vec::new();
    for &(head, viter) in &heads {
        let Some(f) = fam_of(&viter) else { continue };
        if let Some(&(_, ib)) = iter_v.iter().find(|e| e.0 == f) {
            let iblock = g.block(ib);
            if iblock.exits.len() == 1
                && iblock.exitswitch == ExitSwitch::None
                && g.link(iblock.exits[0]).target == head
            {
                loops.push((head, ib, f));
            }
        }
    }
    if newlist_v.is_empty() || loops.is_empty() {
        return Vec::new();
    }
    // the `append` calls of new lists: (list family, method variable, block, call index)
    let mut appends = Vec::new();
    for &b in &order {
        let ops = &g.block(b).operations;
        for i in 0..ops.len().saturating_sub(1) {
            let op = &ops[i];
            let is_append = op.opname == Op::GetAttr
                && matches!(op.args.get(1), Some(Hlvalue::Const(c)) if is_str(*c, "append"));
            let Some(lf) = op.args.first().and_then(fam_of) else {
                continue;
            };
            if !is_append || !newlist_v.iter().any(|e| e.0 == lf) {
                continue;
            }
            if let Some(j) = (i + 1..ops.len()).find(|&j| {
                ops[j].opname == Op::SimpleCall
                    && ops[j].args.len() == 2
                    && ops[j].args[0] == Hlvalue::Var(op.result)
            }) {
                appends.push((lf, op.result, b, j as u32));
            }
        }
    }
    let preds = {
        let mut p: Vec<Vec<BlockId>> = vec![Vec::new(); nb];
        for (bi, b) in g.blocks.iter().enumerate() {
            for &l in &b.exits {
                p[g.link(l).target.0 as usize].push(BlockId(bi as u32));
            }
        }
        p
    };
    // a path of at least one link from `from` to `to` not through `avoid` (nor starting
    // at it), over blocks of `within` when given: the reference's `reachable`
    let reach = |from: BlockId, to: BlockId, avoid: BlockId, within: Option<&[bool]>| -> bool {
        if to == avoid || from == avoid {
            return false;
        }
        let mut found = vec![false; nb];
        found[avoid.0 as usize] = true;
        let mut stack = vec![from];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut found[b.0 as usize], true) {
                continue;
            }
            for &l in &g.block(b).exits {
                let t = g.link(l).target;
                if within.is_some_and(|w| !w[t.0 as usize]) {
                    continue;
                }
                if t == to {
                    return true;
                }
                stack.push(t);
            }
        }
        false
    };
    let mut out: Vec<ExactFill> = Vec::new();
    let mut done_families: Vec<u32> = Vec::new();
    'appends: for &(lf, vmeth, ab, call) in &appends {
        if done_families.contains(&lf) {
            continue;
        }
        let ablock = g.block(ab);
        let meth = Hlvalue::Var(vmeth);
        // the method object is only called
        for op in &ablock.operations {
            let called = op.opname == Op::SimpleCall && op.args[0] == meth;
            if !called && op.args.contains(&meth) {
                continue 'appends;
            }
        }
        if ablock.exits.iter().any(|&l| g.link(l).args.contains(&meth)) {
            continue;
        }
        let Some(&(_, newblock)) = newlist_v.iter().find(|e| e.0 == lf) else {
            continue;
        };
        let alive = |b: BlockId| {
            b == newblock || g.block(b).inputargs.iter().any(|v| fam[v.0 as usize] == lf)
        };
        let escapes = |b: BlockId| {
            if b == g.returnblock || b == g.exceptblock {
                return true;
            }
            g.block(b).operations.iter().any(|op| {
                op.result != vmeth
                    && op.opname != Op::GetItem
                    && op.args.iter().any(|a| fam_of(a) == Some(lf))
            })
        };
        for &(head, ib, _) in &loops {
            if !alive(head)
                || reach(newblock, ab, ib, None)
                || reach(head, ib, newblock, None)
                || reach(ab, ab, head, None)
            {
                continue;
            }
            let stop_blocks: Vec<BlockId> = g
                .block(head)
                .exits
                .iter()
                .filter(|&&l| !matches!(g.link(l).exitcase, ExitCase::None))
                .map(|&l| g.link(l).target)
                .collect();
            if stop_blocks.iter().any(|&s| reach(s, ab, newblock, None)) {
                continue;
            }
            // the loop body: blocks of the list from which `append` is reached without
            // passing the `iter` (found backwards from the append)
            let mut body = vec![false; nb];
            let mut stack: Vec<BlockId> = preds[ab.0 as usize].clone();
            while let Some(b) = stack.pop() {
                if b == ib || body[b.0 as usize] {
                    continue;
                }
                body[b.0 as usize] = true;
                stack.extend(preds[b.0 as usize].iter().copied());
            }
            for (bi, x) in body.iter_mut().enumerate() {
                *x = *x && alive(BlockId(bi as u32));
            }
            if !body[ab.0 as usize] {
                continue;
            }
            // the list must not escape before the loop nor in its body
            let mut header = Vec::new();
            let mut seen = vec![false; nb];
            seen[head.0 as usize] = true;
            let mut stack = vec![newblock];
            while let Some(b) = stack.pop() {
                if seen[b.0 as usize] || !alive(b) {
                    continue;
                }
                seen[b.0 as usize] = true;
                header.push(b);
                stack.extend(g.block(b).exits.iter().map(|&l| g.link(l).target));
            }
            let body_blocks = (0..nb).filter(|&b| body[b]).map(|b| BlockId(b as u32));
            if header.iter().copied().chain(body_blocks).any(escapes) {
                continue;
            }
            done_families.push(lf);
            // exact: no way around the loop that skips the append
            if reach(head, head, ab, Some(&body)) {
                continue 'appends;
            }
            let iblock = g.block(ib);
            let ilink = g.link(iblock.exits[0]);
            let Some(iter_link_arg) = ilink.args.iter().position(|a| fam_of(a) == Some(lf)) else {
                continue 'appends;
            };
            let Some(iter_op) = iblock.operations.iter().find(|op| {
                op.opname == Op::Iter
                    && fam[op.result.0 as usize]
                        == fam_of(&g.block(head).operations[0].args[0]).unwrap_or(u32::MAX)
            }) else {
                continue 'appends;
            };
            let stop_links = g
                .block(head)
                .exits
                .iter()
                .filter(|&&l| !matches!(g.link(l).exitcase, ExitCase::None))
                .filter_map(|&l| {
                    g.link(l)
                        .args
                        .iter()
                        .position(|a| fam_of(a) == Some(lf))
                        .map(|k| (l, k))
                })
                .collect();
            out.push(ExactFill {
                iter_block: ib,
                iterable: iter_op.args[0],
                iter_link_arg,
                append: (ab.0, call),
                stop_links,
            });
            continue 'appends;
        }
    }
    out
}
