//! `verify()`: the invariants of the flow model (seed 001), checked in the tests after every
//! graph is built.

use super::model::*;
use std::collections::HashSet;

/// Checks every invariant of `graph`; returns the first violation found.
pub fn verify(graph: &FunctionGraph) -> Result<(), String> {
    let name = &graph.name;
    let err = |b: BlockId, msg: String| Err(format!("{}: block {}: {}", name, b.0, msg));
    let mut defined_anywhere: HashSet<VarId> = HashSet::new();
    for (id, special, nargs) in [
        (graph.returnblock, "return", 1),
        (graph.exceptblock, "except", 2),
    ] {
        let b = graph.block(id);
        if b.inputargs.len() != nargs || !b.operations.is_empty() || !b.exits.is_empty() {
            return err(
                id,
                format!(
                    "the {} block must have {} inputargs, no operations and no exits",
                    special, nargs
                ),
            );
        }
    }
    for bid in graph.iterblocks() {
        let block = graph.block(bid);
        let mut defined: HashSet<VarId> = HashSet::new();
        for &v in &block.inputargs {
            if !defined.insert(v) || !defined_anywhere.insert(v) {
                return err(
                    bid,
                    format!("variable {} is defined twice", graph.var_name(v)),
                );
            }
        }
        for (i, op) in block.operations.iter().enumerate() {
            for arg in &op.args {
                if let Hlvalue::Var(v) = arg {
                    if !defined.contains(v) {
                        return err(
                            bid,
                            format!(
                                "operation {} ({}) uses {} before it is defined",
                                i,
                                op.opname.name(),
                                graph.var_name(*v)
                            ),
                        );
                    }
                }
            }
            if !defined.insert(op.result) || !defined_anywhere.insert(op.result) {
                return err(
                    bid,
                    format!("result {} is defined twice", graph.var_name(op.result)),
                );
            }
            if let Some(n) = op.opname.arity() {
                if op.args.len() != n {
                    return err(
                        bid,
                        format!(
                            "operation {} takes {} args, has {}",
                            op.opname.name(),
                            n,
                            op.args.len()
                        ),
                    );
                }
            }
        }
        let is_final = bid == graph.returnblock || bid == graph.exceptblock;
        match block.exitswitch {
            ExitSwitch::None => {
                if !is_final && block.exits.len() != 1 {
                    return err(
                        bid,
                        format!(
                            "an unconditional block must have exactly one exit, has {}",
                            block.exits.len()
                        ),
                    );
                }
            }
            ExitSwitch::Value(v) => {
                if let Hlvalue::Var(v) = v {
                    if !defined.contains(&v) {
                        return err(bid, "the exitswitch is not a variable of the block".into());
                    }
                }
                if block.exits.len() < 2 {
                    return err(bid, "a conditional block needs at least two exits".into());
                }
                let mut cases = Vec::new();
                for &l in &block.exits {
                    match graph.link(l).exitcase {
                        ExitCase::Value(c) if !cases.contains(&c) => cases.push(c),
                        _ => return err(bid, "switch exits need distinct value exit cases".into()),
                    }
                }
            }
            ExitSwitch::LastException => {
                if block.operations.is_empty() {
                    return err(
                        bid,
                        "an exception-catching block must end with an operation".into(),
                    );
                }
                for (i, &l) in block.exits.iter().enumerate() {
                    let link = graph.link(l);
                    match (i, link.exitcase) {
                        (0, ExitCase::None) => {}
                        (0, _) => {
                            return err(
                                bid,
                                "the first exit of exception catching is the normal path".into(),
                            )
                        }
                        (_, ExitCase::Exception(_)) => {}
                        _ => {
                            return err(
                                bid,
                                "exception exits need an exception class exit case".into(),
                            )
                        }
                    }
                }
            }
        }
        for &l in &block.exits {
            let link = graph.link(l);
            if link.prevblock != bid {
                return err(bid, "a link's prevblock is not its block".into());
            }
            let target = graph.block(link.target);
            if link.args.len() != target.inputargs.len() {
                return err(
                    bid,
                    format!(
                        "link to block {} passes {} args for {} inputargs",
                        link.target.0,
                        link.args.len(),
                        target.inputargs.len()
                    ),
                );
            }
            let extra: Vec<VarId> = [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
                .collect();
            if !extra.is_empty() && link.exitcase == ExitCase::None {
                return err(
                    bid,
                    "only exception links have last_exception/last_exc_value".into(),
                );
            }
            for arg in &link.args {
                if let Hlvalue::Var(v) = arg {
                    if !defined.contains(v) && !extra.contains(v) {
                        return err(
                            bid,
                            format!(
                                "link passes {} which is not defined in the block",
                                graph.var_name(*v)
                            ),
                        );
                    }
                }
            }
        }
    }
    Ok(())
}
