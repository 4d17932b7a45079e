//! Graph simplification before annotation (the reference's `transform_dead_op_vars`): a
//! Variable passed into a block that never uses it (and never passes it on to a block that
//! does) is dropped from the link and from the block's input arguments. Without this, a
//! local that is dead after a loop (`for k in d: ...` then `for k in other: ...`) would have
//! to have one type at every join point it flows through.

use crate::flowspace::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, VarId};

/// Deletes the operations without side effects whose results are never used
/// (`Op::removable_when_dead`), as the reference's `transform_dead_op_vars` does before
/// annotation: a dead `a.missing` or `n + "s"` is never analysed there, so it is no error.
/// An operation is live when its result reaches a side-effecting operation, an exit
/// switch, or the return or except block, through operations and links. The operation
/// whose exceptions a `try` catches (the last one of a block switching on the exception)
/// always stays.
pub fn remove_dead_ops(graph: &mut FunctionGraph) {
    let nvars = graph.vars.len();
    let mut read = vec![false; nvars];
    // (v, d): the value of v is computed from d (by a removable operation, or passed into
    // v over a link); gathered in one vector, then grouped by v (`deps`)
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let unpacks: Vec<Vec<bool>> = graph.blocks.iter().map(unpacking_ops).collect();
    let removable = |g: &FunctionGraph, b: usize, i: usize| {
        let block = &g.blocks[b];
        let raising = matches!(block.exitswitch, ExitSwitch::LastException)
            && i + 1 == block.operations.len();
        block.operations[i].opname.removable_when_dead() && !raising && !unpacks[b][i]
    };
    let mark = |v: &Hlvalue, read: &mut Vec<bool>| {
        if let Hlvalue::Var(v) = v {
            read[v.0 as usize] = true;
        }
    };
    for (bi, block) in graph.blocks.iter().enumerate() {
        for (i, op) in block.operations.iter().enumerate() {
            if removable(graph, bi, i) {
                let r = op.result.0;
                for a in &op.args {
                    if let Hlvalue::Var(v) = a {
                        edges.push((r, v.0));
                    }
                }
            } else {
                for a in &op.args {
                    mark(a, &mut read);
                }
            }
        }
        if let ExitSwitch::Value(v) = &block.exitswitch {
            mark(v, &mut read);
        }
    }
    for l in &graph.links {
        let target = &graph.blocks[l.target.0 as usize];
        for (i, a) in l.args.iter().enumerate() {
            let Hlvalue::Var(v) = a else { continue };
            match target.inputargs.get(i) {
                Some(t) => edges.push((t.0, v.0)),
                None => read[v.0 as usize] = true,
            }
        }
    }
    for b in [graph.returnblock, graph.exceptblock] {
        for v in &graph.blocks[b.0 as usize].inputargs {
            read[v.0 as usize] = true;
        }
    }
    // deps[start[v]..start[v + 1]]: the variables v is computed from
    let mut start = vec![0u32; nvars + 1];
    for &(v, _) in &edges {
        start[v as usize + 1] += 1;
    }
    for i in 0..nvars {
        start[i + 1] += start[i];
    }
    let mut fill: Vec<u32> = start[..nvars].to_vec();
    let mut deps = vec![0u32; edges.len()];
    for &(v, d) in &edges {
        deps[fill[v as usize] as usize] = d;
        fill[v as usize] += 1;
    }
    let mut work: Vec<u32> = (0..nvars as u32).filter(|&v| read[v as usize]).collect();
    while let Some(v) = work.pop() {
        for &d in &deps[start[v as usize] as usize..start[v as usize + 1] as usize] {
            if !read[d as usize] {
                read[d as usize] = true;
                work.push(d);
            }
        }
    }
    for bi in 0..graph.blocks.len() {
        let ops = &graph.blocks[bi].operations;
        let dead = |i: usize| !read[ops[i].result.0 as usize] && removable(graph, bi, i);
        if !(0..ops.len()).any(dead) {
            continue;
        }
        let keep: Vec<bool> = (0..ops.len()).map(|i| !dead(i)).collect();
        let mut i = 0;
        graph.blocks[bi].operations.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }
}

/// The operations of `block` that unpack a sequence (`a, b = t`): the flow space gives
/// them as `getitem(t, 0)`, `getitem(t, 1)`, … at one statement, where the reference
/// checks the length first (`len`, `eq`, a switch: never removed), and the annotator
/// reads that check from the whole run (`check_unpack_length`), so none is removed.
fn unpacking_ops(block: &crate::flowspace::Block) -> Vec<bool> {
    let ops = &block.operations;
    let mut out = vec![false; ops.len()];
    let mut i = 0;
    while i < ops.len() {
        let n = unpack_run_len(ops, i).max(1);
        if n >= 2 {
            out[i..i + n].iter_mut().for_each(|x| *x = true);
        }
        i += n;
    }
    out
}

/// How many operations from `ops[i]` on unpack one sequence: `getitem(t, 0)`,
/// `getitem(t, 1)`, … of the same `t` at the same statement (0 when `ops[i]` is not
/// `getitem(t, 0)`).
pub(super) fn unpack_run_len(ops: &[crate::flowspace::SpaceOperation], i: usize) -> usize {
    use crate::interpreter::operation::Op;
    use crate::objspace::object::Value;
    let Some(first) = ops.get(i) else { return 0 };
    let nth = |o: &crate::flowspace::SpaceOperation, n: usize| {
        o.opname == Op::GetItem
            && o.args[0] == first.args[0]
            && o.span == first.span
            && o.args.get(1) == Some(&Hlvalue::Const(Value::Int(n as i64)))
    };
    let mut n = 0;
    while ops.get(i + n).is_some_and(|o| nth(o, n)) {
        n += 1;
    }
    n
}

pub fn remove_dead_inputargs(graph: &mut FunctionGraph) {
    // Each Variable belongs to one block: `live` (by Variable) says whether an input
    // argument is used, `owner` which block's input argument a Variable is.
    let nvars = graph.vars.len();
    let mut live = vec![false; nvars];
    let mut owner = vec![u32::MAX; nvars];
    let keep_all = [graph.returnblock, graph.exceptblock, graph.startblock];
    for (bi, b) in graph.blocks.iter().enumerate() {
        let all = keep_all.contains(&BlockId(bi as u32));
        for v in &b.inputargs {
            owner[v.0 as usize] = bi as u32;
            live[v.0 as usize] |= all;
        }
        // Variables used directly by operations and exit switches
        for op in &b.operations {
            for a in &op.args {
                if let Hlvalue::Var(v) = a {
                    live[v.0 as usize] = true;
                }
            }
        }
        if let ExitSwitch::Value(Hlvalue::Var(v)) = b.exitswitch {
            live[v.0 as usize] = true;
        }
    }
    let arg_live = |live: &[bool], target: &[VarId], i: usize| {
        target.get(i).is_none_or(|t| live[t.0 as usize])
    };
    // Propagate backwards along links until nothing changes.
    let mut changed = true;
    while changed {
        changed = false;
        for l in &graph.links {
            let src = l.prevblock.0;
            let target = &graph.blocks[l.target.0 as usize].inputargs;
            for (i, a) in l.args.iter().enumerate() {
                let Hlvalue::Var(v) = a else { continue };
                let v = v.0 as usize;
                if owner[v] == src && !live[v] && arg_live(&live, target, i) {
                    live[v] = true;
                    changed = true;
                }
            }
        }
    }
    for l in graph.links.iter_mut() {
        let target = &graph.blocks[l.target.0 as usize].inputargs;
        if target.iter().all(|t| live[t.0 as usize]) {
            continue;
        }
        let mut i = 0;
        l.args.retain(|_| {
            i += 1;
            arg_live(&live, target, i - 1)
        });
    }
    for b in graph.blocks.iter_mut() {
        b.inputargs.retain(|v| live[v.0 as usize]);
    }
}
