//! Graph clean-ups after flowing: an `ovfcheck()` joined to the operation it checks, and
//! dropping the blocks that merging made unreachable.

use super::model::*;
use crate::fasthash::HashMap;

/// Renumbers the graph so that its arenas hold only the blocks reachable from the start block
/// (plus the return and except blocks), and only their links.
pub fn remove_dead_blocks(graph: &mut FunctionGraph) {
    let mut order = graph.iterblocks();
    for b in [graph.returnblock, graph.exceptblock] {
        if !order.contains(&b) {
            order.push(b);
        }
    }
    if is_in_order(graph, &order) {
        // Nothing to drop or renumber (the usual case after the first pass).
        return;
    }
    // Old id → new id, by index (every graph passes here two or three times: no hashing,
    // and the kept blocks and links are moved, not copied).
    let mut remap: Vec<Option<BlockId>> = vec![None; graph.blocks.len()];
    for (i, &b) in order.iter().enumerate() {
        remap[b.0 as usize] = Some(BlockId(i as u32));
    }
    let new_id = |b: BlockId| remap[b.0 as usize].expect("a reachable block");
    let mut old_blocks: Vec<Option<Block>> = std::mem::take(&mut graph.blocks)
        .into_iter()
        .map(Some)
        .collect();
    let mut old_links: Vec<Option<Link>> = std::mem::take(&mut graph.links)
        .into_iter()
        .map(Some)
        .collect();
    let mut blocks = Vec::with_capacity(order.len());
    let mut links: Vec<Link> = Vec::with_capacity(old_links.len());
    // old link id → new id, by index as `remap`
    let mut link_map: Vec<Option<LinkId>> = vec![None; old_links.len()];
    for &old in &order {
        let mut block = old_blocks[old.0 as usize].take().expect("each block once");
        let exits = std::mem::take(&mut block.exits);
        for l in exits {
            let mut link = match old_links[l.0 as usize].take() {
                Some(mut link) => {
                    link.target = new_id(link.target);
                    link
                }
                // a link listed twice: a copy of the one already moved (and renumbered)
                None => links[link_map[l.0 as usize].expect("moved").0 as usize].clone(),
            };
            link.prevblock = new_id(old);
            link_map[l.0 as usize] = Some(LinkId(links.len() as u32));
            block.exits.push(LinkId(links.len() as u32));
            links.push(link);
        }
        blocks.push(block);
    }
    graph.startblock = new_id(graph.startblock);
    graph.returnblock = new_id(graph.returnblock);
    graph.exceptblock = new_id(graph.exceptblock);
    graph.blocks = blocks;
    graph.links = links;
    graph.side.remap_links(&link_map);
    graph
        .side
        .local_refs
        .retain_mut(|r| match remap.get(r.block.0 as usize).copied().flatten() {
            Some(b) => {
                r.block = b;
                true
            }
            None => false,
        });
}

/// Whether renumbering after `order` would change nothing: every block is in `order`, at
/// its own index, and their exits, in that order, are every link once, in order.
fn is_in_order(graph: &FunctionGraph, order: &[BlockId]) -> bool {
    if order.len() != graph.blocks.len() || order.iter().enumerate().any(|(i, b)| b.0 as usize != i)
    {
        return false;
    }
    let mut next = 0u32;
    for block in &graph.blocks {
        for l in &block.exits {
            if l.0 != next {
                return false;
            }
            next += 1;
        }
    }
    next as usize == graph.links.len()
}

/// `ovfcheck(x << y)`, `ovfcheck(x // y)`…: an operation that can raise (ValueError,
/// ZeroDivisionError) ends its block, so the `ovfcheck()` call that must follow it directly
/// opens the next one. As the reference's simplification does, the operation's own
/// exception exits are dropped (the handlers around the `ovfcheck()` call cover them) and
/// the two blocks become one, so the typer sees the operation and its check side by side.
/// `is_ovfcheck` tells the `ovfcheck` function constant.
pub fn join_ovfcheck(graph: &mut FunctionGraph, is_ovfcheck: impl Fn(&Hlvalue) -> bool) {
    let opens_a_block = |b: &Block| {
        b.operations.first().is_some_and(|op| {
            op.opname == crate::interpreter::Op::SimpleCall && is_ovfcheck(&op.args[0])
        })
    };
    if !graph.blocks.iter().any(opens_a_block) {
        // the usual case: no `ovfcheck()` call starts a block
        return;
    }
    loop {
        let mut incoming: HashMap<BlockId, Vec<LinkId>> = HashMap::default();
        for b in graph.iterblocks() {
            for &l in &graph.block(b).exits {
                incoming.entry(graph.link(l).target).or_default().push(l);
            }
        }
        let found = graph.iterblocks().into_iter().find_map(|b| {
            let first = graph.block(b).operations.first()?;
            if first.opname != crate::interpreter::Op::SimpleCall || !is_ovfcheck(&first.args[0]) {
                return None;
            }
            let [l] = incoming.get(&b)?.as_slice() else {
                return None;
            };
            let prev = graph.link(*l).prevblock;
            let pb = graph.block(prev);
            let joinable = matches!(pb.exitswitch, ExitSwitch::LastException)
                && pb.exits.first() == Some(l)
                && !pb.operations.is_empty()
                && prev != b;
            joinable.then_some((prev, b, *l))
        });
        let Some((prev, b, l)) = found else {
            return;
        };
        // the block's input variables are the link's values
        let subst: HashMap<VarId, Hlvalue> = graph
            .block(b)
            .inputargs
            .iter()
            .copied()
            .zip(graph.link(l).args.iter().copied())
            .collect();
        let sub = |v: &mut Hlvalue| {
            if let Hlvalue::Var(x) = v {
                if let Some(n) = subst.get(x) {
                    *v = *n;
                }
            }
        };
        let mut block = std::mem::replace(
            graph.block_mut(b),
            Block {
                inputargs: Vec::new(),
                operations: Vec::new(),
                exitswitch: ExitSwitch::None,
                exits: Vec::new(),
            },
        );
        for op in &mut block.operations {
            op.args.iter_mut().for_each(sub);
        }
        if let ExitSwitch::Value(v) = &mut block.exitswitch {
            sub(v);
        }
        for &e in &block.exits {
            let link = graph.link_mut(e);
            link.prevblock = prev;
            link.args.iter_mut().for_each(sub);
        }
        for r in &mut graph.side.local_refs {
            if r.block == b {
                r.block = prev;
                sub(&mut r.value);
            }
        }
        let pb = graph.block_mut(prev);
        pb.operations.extend(block.operations);
        pb.exitswitch = block.exitswitch;
        pb.exits = block.exits;
    }
}

/// The `ovfcheck()` calls that do not directly check an operation that can overflow (the
/// typer turns `x + y` into `int_add_ovf` only when `ovfcheck` takes its result at once):
/// the span of each, and what its argument is instead. Run after `join_ovfcheck`.
pub fn misplaced_ovfchecks(
    graph: &FunctionGraph,
    is_ovfcheck: impl Fn(&Hlvalue) -> bool,
) -> Vec<(crate::syntax::Span, String)> {
    use crate::interpreter::Op;
    let mut out = Vec::new();
    for b in graph.iterblocks() {
        let ops = &graph.block(b).operations;
        for (i, op) in ops.iter().enumerate() {
            if op.opname != Op::SimpleCall || !is_ovfcheck(&op.args[0]) || op.args.len() != 2 {
                continue;
            }
            let prev = i.checked_sub(1).map(|j| &ops[j]);
            let checked = prev.is_some_and(|p| {
                Hlvalue::Var(p.result) == op.args[1] && p.opname.has_ovf_variant()
            });
            if checked {
                continue;
            }
            let what = match (op.args[1], prev) {
                (Hlvalue::Const(_), _) => {
                    "a constant (the operation was computed when the program was analysed)"
                        .to_string()
                }
                (Hlvalue::Var(v), Some(p)) if p.result == v => {
                    format!("the result of `{}`", p.opname.name())
                }
                _ => "a value computed earlier".to_string(),
            };
            out.push((op.span, what));
        }
    }
    out
}
