//! Graph clean-ups after flowing: dropping the blocks that merging made unreachable.

use super::model::*;
use std::collections::HashMap;

/// Renumbers the graph so that its arenas hold only the blocks reachable from the start block
/// (plus the return and except blocks), and only their links.
pub fn remove_dead_blocks(graph: &mut FunctionGraph) {
    let mut order = graph.iterblocks();
    for b in [graph.returnblock, graph.exceptblock] {
        if !order.contains(&b) {
            order.push(b);
        }
    }
    let remap: HashMap<BlockId, BlockId> = order
        .iter()
        .enumerate()
        .map(|(i, &b)| (b, BlockId(i as u32)))
        .collect();
    let mut blocks = Vec::with_capacity(order.len());
    let mut links = Vec::new();
    for &old in &order {
        let mut block = graph.block(old).clone();
        let exits = std::mem::take(&mut block.exits);
        for l in exits {
            let mut link = graph.link(l).clone();
            link.prevblock = remap[&old];
            link.target = remap[&link.target];
            block.exits.push(LinkId(links.len() as u32));
            links.push(link);
        }
        blocks.push(block);
    }
    graph.startblock = remap[&graph.startblock];
    graph.returnblock = remap[&graph.returnblock];
    graph.exceptblock = remap[&graph.exceptblock];
    graph.blocks = blocks;
    graph.links = links;
    graph.local_refs.retain_mut(|r| match remap.get(&r.block) {
        Some(&b) => {
            r.block = b;
            true
        }
        None => false,
    });
}
