//! Graph simplification before annotation (the reference's `transform_dead_op_vars`): a
//! Variable passed into a block that never uses it (and never passes it on to a block that
//! does) is dropped from the link and from the block's input arguments. Without this, a
//! local that is dead after a loop (`for k in d: ...` then `for k in other: ...`) would have
//! to have one type at every join point it flows through.

use crate::flowspace::{ExitSwitch, FunctionGraph, Hlvalue};

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
    // deps[v]: the variables v's value is computed from (by a removable operation, or
    // passed into v over a link)
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); nvars];
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
                let r = op.result.0 as usize;
                for a in &op.args {
                    if let Hlvalue::Var(v) = a {
                        deps[r].push(v.0);
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
                Some(t) => deps[t.0 as usize].push(v.0),
                None => read[v.0 as usize] = true,
            }
        }
    }
    for b in [graph.returnblock, graph.exceptblock] {
        for v in &graph.blocks[b.0 as usize].inputargs {
            read[v.0 as usize] = true;
        }
    }
    let mut work: Vec<u32> = (0..nvars as u32).filter(|&v| read[v as usize]).collect();
    while let Some(v) = work.pop() {
        for &d in &deps[v as usize] {
            if !read[d as usize] {
                read[d as usize] = true;
                work.push(d);
            }
        }
    }
    for bi in 0..graph.blocks.len() {
        let n = graph.blocks[bi].operations.len();
        let keep: Vec<bool> = (0..n)
            .map(|i| {
                read[graph.blocks[bi].operations[i].result.0 as usize] || !removable(graph, bi, i)
            })
            .collect();
        if keep.iter().all(|&k| k) {
            continue;
        }
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
    // live[b][i]: input argument i of block b is used.
    let mut live: Vec<Vec<bool>> = graph
        .blocks
        .iter()
        .map(|b| vec![false; b.inputargs.len()])
        .collect();
    let keep_all = [
        graph.returnblock.0 as usize,
        graph.exceptblock.0 as usize,
        graph.startblock.0 as usize,
    ];
    // Variables used directly by operations and exit switches (each Variable belongs to
    // one block, so one table serves all blocks).
    let mut used = vec![false; graph.vars.len()];
    for b in &graph.blocks {
        for op in &b.operations {
            for a in &op.args {
                if let Hlvalue::Var(v) = a {
                    used[v.0 as usize] = true;
                }
            }
        }
        if let ExitSwitch::Value(Hlvalue::Var(v)) = b.exitswitch {
            used[v.0 as usize] = true;
        }
    }
    for (bi, b) in graph.blocks.iter().enumerate() {
        for (i, v) in b.inputargs.iter().enumerate() {
            if keep_all.contains(&bi) || used[v.0 as usize] {
                live[bi][i] = true;
            }
        }
    }
    // Propagate backwards along links until nothing changes.
    let mut changed = true;
    while changed {
        changed = false;
        for l in &graph.links {
            let src = l.prevblock.0 as usize;
            let dst = l.target.0 as usize;
            for (i, a) in l.args.iter().enumerate() {
                if !live[dst].get(i).copied().unwrap_or(true) {
                    continue;
                }
                let Hlvalue::Var(v) = a else { continue };
                if let Some(j) = graph.blocks[src].inputargs.iter().position(|x| x == v) {
                    if !live[src][j] {
                        live[src][j] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    for l in graph.links.iter_mut() {
        let dst = l.target.0 as usize;
        if live[dst].iter().all(|&x| x) {
            continue;
        }
        let keep = |i: usize| live[dst].get(i).copied().unwrap_or(true);
        let mut i = 0;
        l.args.retain(|_| {
            i += 1;
            keep(i - 1)
        });
    }
    for (bi, b) in graph.blocks.iter_mut().enumerate() {
        if live[bi].iter().all(|&x| x) {
            continue;
        }
        let mut i = 0;
        b.inputargs.retain(|_| {
            let keep = live[bi][i];
            i += 1;
            keep
        });
    }
}
