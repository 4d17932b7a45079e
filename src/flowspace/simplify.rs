//! The simplifications the reference applies to each graph it builds, as far as they change
//! the shape of our graphs: blocks with no operation that only jump on are skipped
//! (`eliminate_empty_blocks`), an inputarg that every entering link gives the same constant
//! becomes that constant, or one other inputarg when they always receive the same values
//! (`remove_identical_vars_SSA`), and a block entered by one link only, from a block with no
//! other exit, is appended to that block (`join_blocks` / `remove_trivial_links`).
//!
//! Takes a graph straight from the flow space (no dead blocks); gives the same program with
//! fewer blocks. Variables stay local to their block, and `local_refs` follow the values
//! they name into the block they end up in.

use super::model::*;
use crate::fasthash::HashMap;

/// Applies every simplification, then drops the blocks left unreachable.
pub fn simplify_graph(graph: &mut FunctionGraph) {
    eliminate_empty_blocks(graph);
    remove_identical_inputargs(graph);
    join_blocks(graph);
    super::transform::remove_dead_blocks(graph);
}

/// For each reachable block, the links entering it.
fn entry_map(graph: &FunctionGraph) -> HashMap<BlockId, Vec<LinkId>> {
    let mut map: HashMap<BlockId, Vec<LinkId>> = HashMap::default();
    for l in graph.iterlinks() {
        map.entry(graph.link(l).target).or_default().push(l);
    }
    map
}

/// Replaces, in `v`, the Variables `subst` maps.
fn substitute(subst: &HashMap<VarId, Hlvalue>, v: &mut Hlvalue) {
    if let Hlvalue::Var(x) = v {
        if let Some(n) = subst.get(x) {
            *v = *n;
        }
    }
}

/// Whether `b` can be skipped: no operation, one unconditional exit to another block.
fn is_empty_jump(graph: &FunctionGraph, b: BlockId) -> bool {
    let block = graph.block(b);
    b != graph.startblock
        && b != graph.returnblock
        && b != graph.exceptblock
        && block.operations.is_empty()
        && block.exitswitch == ExitSwitch::None
        && block.exits.len() == 1
        && graph.link(block.exits[0]).target != b
}

/// Links entering a block with no operation that only jumps on go where it jumps, with its
/// link's arguments in terms of theirs. The names read in such a block (`local_refs`) move
/// to the block before it when it has one.
pub fn eliminate_empty_blocks(graph: &mut FunctionGraph) {
    let entries = entry_map(graph);
    for l in graph.iterlinks() {
        let mut hops = 0;
        while is_empty_jump(graph, graph.link(l).target) && hops < graph.blocks.len() {
            hops += 1;
            let empty = graph.link(l).target;
            let exit_id = graph.block(empty).exits[0];
            let exit = graph.link(exit_id).clone();
            let subst: HashMap<VarId, Hlvalue> = graph
                .block(empty)
                .inputargs
                .iter()
                .copied()
                .zip(graph.link(l).args.iter().copied())
                .collect();
            let only_entry = entries.get(&empty).is_some_and(|e| e.len() == 1) && hops == 1;
            if only_entry {
                let prev = graph.link(l).prevblock;
                for r in &mut graph.side.local_refs {
                    if r.block == empty {
                        r.block = prev;
                        substitute(&subst, &mut r.value);
                    }
                }
            }
            let mut args = exit.args.clone();
            args.iter_mut().for_each(|a| substitute(&subst, a));
            // An argument the empty block passes on unchanged keeps the assignment the
            // entering link knew for it.
            let inputargs = &graph.block(empty).inputargs;
            let spans: Vec<crate::syntax::Span> = exit
                .args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let own = graph.arg_span(exit_id, i);
                    match a {
                        Hlvalue::Var(v) if own == crate::syntax::Span::default() => inputargs
                            .iter()
                            .position(|x| x == v)
                            .map(|j| graph.arg_span(l, j))
                            .unwrap_or_default(),
                        _ => own,
                    }
                })
                .collect();
            let link = graph.link_mut(l);
            link.args = args;
            link.target = exit.target;
            graph.set_arg_spans(l, &spans);
            // The statement that ended the path (a `return`) says where its values come
            // from better than the branch that led there.
            let exit_span = graph.link_span(exit_id);
            if exit_span != crate::syntax::Span::default() {
                graph.set_link_span(l, exit_span);
            }
            if graph.is_reraise_of_caught(exit_id) {
                graph.set_reraise_of_caught(l);
            }
        }
    }
}

/// An inputarg every entering link gives the same constant is replaced by the constant; of
/// two inputargs that every link gives the same values, the second is replaced by the first.
pub fn remove_identical_inputargs(graph: &mut FunctionGraph) {
    loop {
        let entries = entry_map(graph);
        let mut progress = false;
        let mut blocks: Vec<BlockId> = entries.keys().copied().collect();
        blocks.sort();
        for b in blocks {
            if b == graph.startblock || b == graph.returnblock || b == graph.exceptblock {
                continue;
            }
            let links = &entries[&b];
            let inputargs = graph.block(b).inputargs.clone();
            let mut subst: HashMap<VarId, Hlvalue> = HashMap::default();
            let mut keep = vec![true; inputargs.len()];
            for i in 0..inputargs.len() {
                let column: Vec<Hlvalue> = links.iter().map(|&l| graph.link(l).args[i]).collect();
                if let Hlvalue::Const(c) = column[0] {
                    if column.iter().all(|a| *a == Hlvalue::Const(c)) {
                        subst.insert(inputargs[i], column[0]);
                        keep[i] = false;
                        continue;
                    }
                }
                let same = (0..i).find(|&j| {
                    keep[j]
                        && links.iter().all(|&l| {
                            let args = &graph.link(l).args;
                            args[j] == args[i]
                        })
                });
                if let Some(j) = same {
                    subst.insert(inputargs[i], Hlvalue::Var(inputargs[j]));
                    keep[i] = false;
                }
            }
            if subst.is_empty() {
                continue;
            }
            progress = true;
            rename_in_block(graph, b, &subst);
            let mut k = keep.iter();
            graph
                .block_mut(b)
                .inputargs
                .retain(|_| *k.next().expect("one flag per inputarg"));
            for &l in links {
                let link = graph.link_mut(l);
                let mut k = keep.iter();
                link.args.retain(|_| *k.next().expect("one flag per arg"));
            }
        }
        if !progress {
            return;
        }
    }
}

/// Applies `subst` to the uses of Variables in block `b`: its operations, switch, exits and
/// the names read in it.
fn rename_in_block(graph: &mut FunctionGraph, b: BlockId, subst: &HashMap<VarId, Hlvalue>) {
    let block = graph.block_mut(b);
    for op in &mut block.operations {
        op.args.iter_mut().for_each(|a| substitute(subst, a));
    }
    if let ExitSwitch::Value(v) = &mut block.exitswitch {
        substitute(subst, v);
    }
    let exits = block.exits.clone();
    for l in exits {
        graph
            .link_mut(l)
            .args
            .iter_mut()
            .for_each(|a| substitute(subst, a));
    }
    for r in &mut graph.side.local_refs {
        if r.block == b {
            substitute(subst, &mut r.value);
        }
    }
}

/// A block entered by one link only, from a block whose only exit that link is, is appended
/// to that block (its inputargs become the link's arguments).
pub fn join_blocks(graph: &mut FunctionGraph) {
    let mut entries = entry_map(graph);
    let mut stack = vec![graph.startblock];
    let mut seen = vec![false; graph.blocks.len()];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut seen[b.0 as usize], true) {
            continue;
        }
        loop {
            let block = graph.block(b);
            if block.exitswitch != ExitSwitch::None || block.exits.len() != 1 {
                break;
            }
            let l = block.exits[0];
            let next = graph.link(l).target;
            let joinable = next != b
                && next != graph.startblock
                && next != graph.returnblock
                && next != graph.exceptblock
                && entries.get(&next).is_some_and(|e| e.len() == 1);
            if !joinable {
                break;
            }
            let subst: HashMap<VarId, Hlvalue> = graph
                .block(next)
                .inputargs
                .iter()
                .copied()
                .zip(graph.link(l).args.iter().copied())
                .collect();
            rename_in_block(graph, next, &subst);
            for r in &mut graph.side.local_refs {
                if r.block == next {
                    r.block = b;
                }
            }
            let taken = std::mem::replace(
                graph.block_mut(next),
                Block {
                    inputargs: Vec::new(),
                    operations: Vec::new(),
                    exitswitch: ExitSwitch::None,
                    exits: Vec::new(),
                },
            );
            for &e in &taken.exits {
                graph.link_mut(e).prevblock = b;
            }
            entries.remove(&next);
            let block = graph.block_mut(b);
            block.operations.extend(taken.operations);
            block.exitswitch = taken.exitswitch;
            block.exits = taken.exits;
        }
        for &l in &graph.block(b).exits {
            stack.push(graph.link(l).target);
        }
    }
}

/// Renumbers the Variables of a graph in the order the blocks define them (inputargs, then
/// results) and drops the ones nothing uses any more, which merging and simplifying leave
/// behind: later stages size their tables by the number of Variables.
pub fn compact_vars(graph: &mut FunctionGraph) {
    const NONE: u32 = u32::MAX;
    let mut remap = vec![NONE; graph.vars.len()];
    let mut vars = Vec::new();
    let mut take = |v: VarId, vars: &mut Vec<Variable>, graph: &FunctionGraph| {
        let slot = &mut remap[v.0 as usize];
        if *slot == NONE {
            *slot = vars.len() as u32;
            vars.push(graph.vars[v.0 as usize].clone());
        }
        VarId(*slot)
    };
    let order = graph.iterblocks();
    let mut order_all = order.clone();
    for b in [graph.returnblock, graph.exceptblock] {
        if !order_all.contains(&b) {
            order_all.push(b);
        }
    }
    for &b in &order_all {
        let block = graph.block(b).clone();
        for v in &block.inputargs {
            take(*v, &mut vars, graph);
        }
        for op in &block.operations {
            take(op.result, &mut vars, graph);
        }
        for &l in &block.exits {
            let link = graph.link(l);
            for v in [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
            {
                take(v, &mut vars, graph);
            }
        }
    }
    let map = |v: &mut VarId| {
        let n = remap[v.0 as usize];
        debug_assert!(n != NONE, "a used Variable is defined");
        if n != NONE {
            *v = VarId(n);
        }
    };
    let map_h = |h: &mut Hlvalue| {
        if let Hlvalue::Var(v) = h {
            map(v);
        }
    };
    for &b in &order_all {
        let block = graph.block_mut(b);
        block.inputargs.iter_mut().for_each(map);
        for op in &mut block.operations {
            map(&mut op.result);
            op.args.iter_mut().for_each(map_h);
        }
        if let ExitSwitch::Value(v) = &mut block.exitswitch {
            map_h(v);
        }
        let exits = block.exits.clone();
        for l in exits {
            let link = graph.link_mut(l);
            link.args.iter_mut().for_each(map_h);
            link.last_exception.iter_mut().for_each(map);
            link.last_exc_value.iter_mut().for_each(map);
        }
    }
    // A name whose value no block defines any more is not shown.
    let map: Vec<Option<VarId>> = remap
        .iter()
        .map(|&n| (n != NONE).then_some(VarId(n)))
        .collect();
    graph.side.remap_vars(&map);
    graph.vars = vars;
}
