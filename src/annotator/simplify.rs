//! Graph simplification before annotation (the reference's `transform_dead_op_vars`): a
//! Variable passed into a block that never uses it (and never passes it on to a block that
//! does) is dropped from the link and from the block's input arguments. Without this, a
//! local that is dead after a loop (`for k in d: ...` then `for k in other: ...`) would have
//! to have one type at every join point it flows through.

use crate::flowspace::{ExitSwitch, FunctionGraph, Hlvalue};

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
