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

/// For each reachable block, the links entering it (from reachable blocks, in
/// `iterlinks` order), by block index: one table for the whole graph, where a map of
/// vectors cost an allocation per block on every pass.
struct Entries {
    /// `links[start[b]..start[b + 1]]` enter block `b`.
    start: Vec<u32>,
    links: Vec<LinkId>,
}

impl Entries {
    fn of(graph: &FunctionGraph) -> Entries {
        let all = graph.iterlinks();
        let n = graph.blocks.len();
        let mut start = vec![0u32; n + 1];
        for &l in &all {
            start[graph.link(l).target.0 as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut links = vec![LinkId(0); all.len()];
        let mut fill: Vec<u32> = start[..n].to_vec();
        for &l in &all {
            let t = graph.link(l).target.0 as usize;
            links[fill[t] as usize] = l;
            fill[t] += 1;
        }
        Entries { start, links }
    }

    fn get(&self, b: BlockId) -> &[LinkId] {
        let i = b.0 as usize;
        &self.links[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// How many links enter each block, by block index.
    fn counts(&self) -> Vec<u32> {
        self.start.windows(2).map(|w| w[1] - w[0]).collect()
    }
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
    let entries = Entries::of(graph).counts();
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
            let only_entry = entries[empty.0 as usize] == 1 && hops == 1;
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
        let entries = Entries::of(graph);
        let mut progress = false;
        for i in 0..graph.blocks.len() {
            let b = BlockId(i as u32);
            let links = entries.get(b);
            if links.is_empty()
                || b == graph.startblock
                || b == graph.returnblock
                || b == graph.exceptblock
            {
                continue;
            }
            let inputargs = &graph.block(b).inputargs;
            let mut subst: HashMap<VarId, Hlvalue> = HashMap::default();
            let mut keep = vec![true; inputargs.len()];
            let arg = |l: LinkId, k: usize| graph.link(l).args[k];
            for i in 0..inputargs.len() {
                let first = arg(links[0], i);
                if let Hlvalue::Const(c) = first {
                    if links.iter().all(|&l| arg(l, i) == Hlvalue::Const(c)) {
                        subst.insert(inputargs[i], first);
                        keep[i] = false;
                        continue;
                    }
                }
                let same =
                    (0..i).find(|&j| keep[j] && links.iter().all(|&l| arg(l, j) == arg(l, i)));
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
    let block = &mut graph.blocks[b.0 as usize];
    for op in &mut block.operations {
        op.args.iter_mut().for_each(|a| substitute(subst, a));
    }
    if let ExitSwitch::Value(v) = &mut block.exitswitch {
        substitute(subst, v);
    }
    for &l in &block.exits {
        graph.links[l.0 as usize]
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
    let mut entries = Entries::of(graph).counts();
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
                && entries[next.0 as usize] == 1;
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
            entries[next.0 as usize] = 0;
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
    // Each kept Variable is moved once to its new place (`remap` marks it taken).
    let mut old_vars = std::mem::take(&mut graph.vars);
    let mut vars = Vec::with_capacity(old_vars.len());
    let mut take = |v: VarId| {
        let slot = &mut remap[v.0 as usize];
        if *slot == NONE {
            *slot = vars.len() as u32;
            vars.push(Variable {
                name_hint: old_vars[v.0 as usize].name_hint.take(),
            });
        }
    };
    let mut order_all = graph.iterblocks();
    for b in [graph.returnblock, graph.exceptblock] {
        if !order_all.contains(&b) {
            order_all.push(b);
        }
    }
    for &b in &order_all {
        let block = graph.block(b);
        for v in &block.inputargs {
            take(*v);
        }
        for op in &block.operations {
            take(op.result);
        }
        for &l in &block.exits {
            let link = graph.link(l);
            for v in [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
            {
                take(v);
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
        let block = &mut graph.blocks[b.0 as usize];
        block.inputargs.iter_mut().for_each(map);
        for op in &mut block.operations {
            map(&mut op.result);
            op.args.iter_mut().for_each(map_h);
        }
        if let ExitSwitch::Value(v) = &mut block.exitswitch {
            map_h(v);
        }
        for &l in &block.exits {
            let link = &mut graph.links[l.0 as usize];
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
