//! `verify()`: the invariants of the flow model (seed 001), checked in the tests after every
//! graph is built.

use super::model::*;
use crate::fasthash::HashSet;

/// Checks every invariant of `graph`; returns the first violation found.
pub fn verify(graph: &FunctionGraph) -> Result<(), String> {
    let name = &graph.name;
    let err = |b: BlockId, msg: String| Err(format!("{}: block {}: {}", name, b.0, msg));
    let mut defined_anywhere: HashSet<VarId> = HashSet::default();
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
        let mut defined: HashSet<VarId> = HashSet::default();
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
                        c @ (ExitCase::Value(_) | ExitCase::Ll(_)) if !cases.contains(&c) => {
                            cases.push(c)
                        }
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
                        (_, ExitCase::Exception(_))
                        | (_, ExitCase::Ll(crate::lltypesystem::LlValue::Ptr(_))) => {}
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
        // A name read or written in this block holds one of its values (or the exception an
        // exit of the block catches: `except E as e:` in a handler that had no operation).
        let caught: Vec<VarId> = block
            .exits
            .iter()
            .flat_map(|&l| [graph.link(l).last_exception, graph.link(l).last_exc_value])
            .flatten()
            .collect();
        for r in graph.side.local_refs.iter().filter(|r| r.block == bid) {
            if let Hlvalue::Var(v) = r.value {
                if !defined.contains(&v) && !caught.contains(&v) {
                    return err(
                        bid,
                        format!(
                            "a name reference holds {} which is not defined in the block",
                            graph.var_name(v)
                        ),
                    );
                }
            }
        }
    }
    graph
        .verify_side_tables()
        .map_err(|e| format!("{}: {}", name, e))
}

/// `verify()` plus the invariants of a low-level graph (after RTyping): only low-level
/// operations, every Variable typed, operation results of the type the operation table
/// says, link arguments of their target's types, boolean switches on Bool.
pub fn verify_low_level(
    graph: &FunctionGraph,
    types: &crate::lltypesystem::LlTypes,
) -> Result<(), String> {
    use crate::interpreter::Op;
    use crate::lltypesystem::{LlOp, LlType, LlValue, ResultRule};
    verify(graph)?;
    let name = &graph.name;
    if graph.concretetype.len() != graph.vars.len() {
        return Err(format!("{}: not every variable has a concretetype", name));
    }
    let ty = |v: Hlvalue| graph.concretetype_of(v);
    for bid in graph.iterblocks() {
        let block = graph.block(bid);
        let err = |msg: String| Err(format!("{}: block {}: {}", name, bid.0, msg));
        for op in &block.operations {
            let Op::Ll(o) = op.opname else {
                return err(format!(
                    "high-level operation {} after RTyping",
                    op.opname.name()
                ));
            };
            if op.args.iter().any(|a| matches!(a, Hlvalue::Const(_))) {
                return err(format!("{} has a high-level constant argument", o.name()));
            }
            let rt = graph.concretetype[op.result.0 as usize];
            match o.result_rule() {
                ResultRule::Fixed(t) if rt != LlType(t) => {
                    return err(format!(
                        "{} returns {}, its result is typed {}",
                        o.name(),
                        types.name(LlType(t)),
                        types.name(rt)
                    ))
                }
                ResultRule::SameAsArg0 if ty(op.args[0]) != Some(rt) => {
                    return err(format!("{}: result and argument types differ", o.name()))
                }
                _ => {}
            }
            match o {
                LlOp::GetField | LlOp::SetField => {
                    let s = ty(op.args[0]).and_then(|t| types.pointee(t));
                    let f = match op.args.get(1) {
                        Some(Hlvalue::Ll(c)) => match c.value {
                            LlValue::Name(n) => Some(n),
                            _ => None,
                        },
                        _ => None,
                    };
                    let (Some(s), Some(f)) = (s, f) else {
                        return err(format!("{} needs a pointer and a field name", o.name()));
                    };
                    let Some(ft) = types.field_type(s, f.as_str()) else {
                        return err(format!(
                            "{} of a missing field `{}` of {}",
                            o.name(),
                            f,
                            types.name(s)
                        ));
                    };
                    let vt = if o == LlOp::GetField {
                        Some(rt)
                    } else {
                        ty(op.args[2])
                    };
                    if vt != Some(ft) {
                        return err(format!(
                            "{} of `{}`: the value's type is not the field's",
                            o.name(),
                            f
                        ));
                    }
                }
                LlOp::DirectCall => {
                    let fty = ty(op.args[0]).and_then(|t| types.pointee(t));
                    if let Some(crate::lltypesystem::TypeDef::Func { args, result }) =
                        fty.map(|t| types.def(t))
                    {
                        if args.len() != op.args.len() - 1 || *result != rt {
                            return err("direct_call does not match its function type".to_string());
                        }
                        for (a, t) in op.args[1..].iter().zip(args) {
                            if ty(*a) != Some(*t) {
                                return err(format!(
                                    "direct_call passes {} for {}",
                                    ty(*a).map(|t| types.name(t)).unwrap_or_default(),
                                    types.name(*t)
                                ));
                            }
                        }
                    } else {
                        return err("direct_call of a non-function".into());
                    }
                }
                _ => {}
            }
        }
        if let ExitSwitch::Value(v) = block.exitswitch {
            let bool_switch = block
                .exits
                .iter()
                .all(|&l| matches!(graph.link(l).exitcase, ExitCase::Ll(LlValue::Bool(_))));
            if bool_switch && ty(v) != Some(LlType::BOOL) {
                return err("a boolean switch on a non-Bool".into());
            }
        }
        for &l in &block.exits {
            let link = graph.link(l);
            let target = graph.block(link.target);
            for (a, &p) in link.args.iter().zip(&target.inputargs) {
                let want = graph.concretetype[p.0 as usize];
                if ty(*a) != Some(want) {
                    return err(format!(
                        "link to block {} passes {} for {}",
                        link.target.0,
                        ty(*a)
                            .map(|t| types.name(t))
                            .unwrap_or_else(|| "an untyped value".into()),
                        types.name(want)
                    ));
                }
            }
        }
    }
    Ok(())
}
