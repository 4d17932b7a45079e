//! Join points of the flow space: where the paths of one function meet.
//!
//! As in the reference flow space, every bytecode that records an operation is a join
//! point: a path about to record the first operation of such a bytecode either merges into a
//! block already flowed from that position (when their states have a union), or is noted
//! there as a new candidate and goes on. The reference closes its block at each of those
//! bytecodes and starts a new one; we keep flowing in the same block and note the position
//! (block, number of operations, state) instead, and cut the block there only when another
//! path does merge at that point (`split`). So the graph has a block boundary exactly where
//! two paths meet, as the reference's graph has once its simplification joined the chains.
//! While other blocks are pending, the path pauses at the noted position and goes on after
//! them (`Kind::Resume`), so that blocks are flowed in the reference's order.
//!
//! Takes the state of the current path from `FlowContext`; gives links and blocks in its
//! graph, and the blocks still to flow in `pending`.

use super::flowcontext::{FlowContext, Kind, State};
use super::model::*;
use crate::fasthash::HashMap;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{ObjId, Object, Value};
use crate::syntax::Span;

/// A position a path passed while flowing: the start of an operation-recording bytecode.
pub(super) struct JoinEntry {
    /// The block holding the operations that follow the position.
    pub block: BlockId,
    /// How many operations of `block` come before the position.
    pub op_index: usize,
    /// The frame state at the position, in terms of `block`'s Variables.
    pub state: State,
    /// Whether `block` starts exactly here (its inputargs are the Variables of `state`).
    pub starts_block: bool,
    /// The statement before the position, for the link that enters it.
    pub span: Span,
    /// Where each local was last stored on the path, for that link's argument spans.
    pub store_spans: Vec<Span>,
    /// `local_refs.len()` at the position: later references of `block` come after it.
    pub refs_len: usize,
}

impl<C: ConcreteSpace> FlowContext<'_, C> {
    /// The join check of the current path at the start of the bytecode whose state is
    /// `state`: merges the path into a block flowed from here (true: the path stops), or
    /// notes the position as a candidate for later paths (false: the path goes on).
    pub(super) fn join_at(&mut self, state: State) -> bool {
        let pc = state.pc;
        // The most recent candidate first, as the reference's list of join blocks. Nothing
        // changes the candidates until the path stops (every change below returns), so they
        // are read in place, and an entry's state is copied only when a block is made for
        // it (a join point is passed thousands of times per program).
        let candidates = self.joinpoints.get(pc as usize).map_or(0, Vec::len);
        for k in (0..candidates).rev() {
            let e = self.joinpoints[pc as usize][k];
            let entry_state = &self.entries[e].state;
            if !same_shape(entry_state, &state) {
                continue;
            }
            let Some(union) = self.union_state(entry_state, &state) else {
                continue;
            };
            let mut state = state;
            if self.matches(&union, entry_state) && same_sharing(entry_state, &state) {
                let target = self.block_at(e, &mut state);
                let entry_state = self.entries[e].state.clone();
                let args = link_args(&entry_state, &state);
                let spans = self.arg_spans_now(&entry_state);
                self.add_exit(target, args, spans);
                return true;
            }
            // The new state is more general: a new block for the union; the block of the
            // candidate now only jumps to it.
            let entry_state = self.entries[e].state.clone();
            let (newblock, newstate) = self.new_block_for(&union, &[&entry_state, &state]);
            let old = self.block_at(e, &mut state);
            let list = &self.block_entries[&old];
            let pos = list
                .iter()
                .position(|&x| x == e)
                .expect("entry of its block");
            let next = list.get(pos + 1).copied();
            if let Some(next) = next {
                // Only the part of the old block up to the next join point is replaced: the
                // rest stays a candidate for later paths, as in the reference.
                self.split(next, &mut state);
            }
            let entry_state = self.entries[e].state.clone();
            let old_args = link_args(&newstate, &entry_state);
            let entry_span = self.entries[e].span;
            if old == self.current {
                self.current_reclosed = true;
            }
            self.dead.insert(old);
            let oldb = self.graph.block_mut(old);
            oldb.operations.clear();
            oldb.exitswitch = ExitSwitch::None;
            oldb.exits.clear();
            let id = self.graph.add_link(
                old,
                Link {
                    prevblock: old,
                    target: newblock,
                    args: old_args,
                    exitcase: ExitCase::None,
                    last_exception: None,
                    last_exc_value: None,
                },
            );
            // The values the old block passes on came from its own entry.
            self.graph.set_link_span(id, entry_span);
            let list = self.joinpoints.get_mut(pc as usize).expect("joinpoint");
            list.retain(|&x| x != e);
            if let Some(l) = self.block_entries.get_mut(&old) {
                l.retain(|&x| x != e);
            }
            let span = self.prev_span;
            self.add_entry(newblock, 0, newstate.clone(), true, span);
            self.pending
                .push_back((newblock, newstate.clone(), Kind::Spam));
            if !self.current_reclosed {
                let args = link_args(&newstate, &state);
                let spans = self.arg_spans_now(&newstate);
                self.add_exit(newblock, args, spans);
            }
            return true;
        }
        let (block, ops) = (
            self.current,
            self.graph.block(self.current).operations.len(),
        );
        let span = self.prev_span;
        self.add_entry(block, ops, state, false, span);
        false
    }

    /// Notes a join point.
    pub(super) fn add_entry(
        &mut self,
        block: BlockId,
        op_index: usize,
        state: State,
        starts_block: bool,
        span: Span,
    ) {
        let e = self.entries.len();
        let pc = state.pc;
        self.entries.push(JoinEntry {
            block,
            op_index,
            state,
            starts_block,
            span,
            store_spans: self.store_spans.clone(),
            refs_len: self.graph.side.local_refs.len(),
        });
        let i = pc as usize;
        if i >= self.joinpoints.len() {
            self.joinpoints.resize(i + 1, Vec::new());
        }
        self.joinpoints[i].push(e);
        self.block_entries.entry(block).or_default().push(e);
    }

    /// The block that starts at join point `e`, cutting the block holding it there when it
    /// starts earlier. `state` (of the current path) is renamed if its block was cut.
    fn block_at(&mut self, e: usize, state: &mut State) -> BlockId {
        if !self.entries[e].starts_block {
            self.split(e, state);
        }
        self.entries[e].block
    }

    /// Cuts the block of join point `e` in two at its position: the operations and exits
    /// after it move to a new block whose inputargs are fresh Variables for the entry
    /// state's, and the first part jumps there. Later join points of the block move with
    /// the operations; so does the current path, when it is in that block.
    fn split(&mut self, e: usize, state: &mut State) {
        let (b, k) = (self.entries[e].block, self.entries[e].op_index);
        let entry_state = self.entries[e].state.clone();
        let nlocals = entry_state.locals.len();
        let mut map: HashMap<VarId, VarId> = HashMap::default();
        let mut inputargs = Vec::new();
        let mut args = Vec::new();
        for (i, slot) in flat_iter(&entry_state).enumerate() {
            let Some(Hlvalue::Var(v)) = slot else {
                continue;
            };
            if map.contains_key(&v) {
                continue;
            }
            let name = if i < nlocals {
                Some(self.code.co_varnames[i].clone())
            } else {
                self.graph.var(v).name_hint.clone()
            };
            let fresh = self.graph.new_var(name);
            map.insert(v, fresh);
            inputargs.push(fresh);
            args.push(Hlvalue::Var(v));
        }
        let rename = |h: &mut Hlvalue| {
            if let Hlvalue::Var(v) = h {
                if let Some(&n) = map.get(v) {
                    *h = Hlvalue::Var(n);
                }
            }
        };
        let rename_state = |st: &mut State| {
            st.locals.iter_mut().flatten().for_each(rename);
            st.stack.iter_mut().for_each(rename);
        };
        let b2 = self.graph.new_block(inputargs);
        let block = self.graph.block_mut(b);
        let mut ops = block.operations.split_off(k);
        let mut exitswitch = std::mem::replace(&mut block.exitswitch, ExitSwitch::None);
        let exits = std::mem::take(&mut block.exits);
        for op in &mut ops {
            op.args.iter_mut().for_each(rename);
        }
        if let ExitSwitch::Value(v) = &mut exitswitch {
            rename(v);
        }
        for &l in &exits {
            let link = self.graph.link_mut(l);
            link.prevblock = b2;
            link.args.iter_mut().for_each(rename);
        }
        let nb = self.graph.block_mut(b2);
        nb.operations = ops;
        nb.exitswitch = exitswitch;
        nb.exits = exits;
        let arg_spans = arg_spans(&entry_state, &self.entries[e].store_spans);
        let span = self.entries[e].span;
        let id = self.graph.add_link(
            b,
            Link {
                prevblock: b,
                target: b2,
                args,
                exitcase: ExitCase::None,
                last_exception: None,
                last_exc_value: None,
            },
        );
        self.graph.set_link_span(id, span);
        self.graph.set_arg_spans(id, &arg_spans);
        // The join points from `e` on belong to the new block.
        let list = self.block_entries.remove(&b).unwrap_or_default();
        let pos = list
            .iter()
            .position(|&x| x == e)
            .expect("entry of its block");
        let (before, after) = list.split_at(pos);
        self.block_entries.insert(b, before.to_vec());
        for &x in after {
            let entry = &mut self.entries[x];
            entry.block = b2;
            entry.op_index -= k;
            rename_state(&mut entry.state);
        }
        self.entries[e].starts_block = true;
        self.block_entries.insert(b2, after.to_vec());
        let refs_len = self.entries[e].refs_len;
        for r in &mut self.graph.side.local_refs[refs_len..] {
            if r.block == b {
                r.block = b2;
                rename(&mut r.value);
            }
        }
        if self.current == b {
            self.current = b2;
            rename_state(state);
        }
    }

    /// Ends the current block with one link to `target`, with the span of the statement
    /// before the join point.
    fn add_exit(&mut self, target: BlockId, args: Vec<Hlvalue>, arg_spans: Vec<Span>) {
        let cur = self.current;
        let id = self.graph.add_link(
            cur,
            Link {
                prevblock: cur,
                target,
                args,
                exitcase: ExitCase::None,
                last_exception: None,
                last_exc_value: None,
            },
        );
        self.graph.set_link_span(id, self.prev_span);
        self.graph.set_arg_spans(id, &arg_spans);
    }

    /// For each inputarg of a block entered with `entry`, the assignment the current path
    /// gave it its value at.
    pub(super) fn arg_spans_now(&self, entry: &State) -> Vec<Span> {
        arg_spans(entry, &self.store_spans)
    }

    /// A fresh block whose inputargs are fresh Variables for every Variable of `state`.
    /// Slots that hold the same value in each of `incoming` (the states being merged: a local
    /// and its copy on the stack) get the same fresh Variable, named after the local.
    pub(super) fn new_block_for(&mut self, state: &State, incoming: &[&State]) -> (BlockId, State) {
        // the slots of `state`, each replaced by its fresh Variable in turn (slot `i` still
        // holds `state`'s value when it is reached); the incoming states are read in place
        let mut fresh: Vec<Option<Hlvalue>> = flat(state);
        let nlocals = state.locals.len();
        let mut inputargs = Vec::new();
        for i in 0..fresh.len() {
            let Some(Hlvalue::Var(_)) = fresh[i] else {
                continue;
            };
            let shared = (0..i).find(|&k| {
                matches!(fresh[k], Some(Hlvalue::Var(_)))
                    && incoming.iter().all(|st| {
                        let x = slot(st, k);
                        x.is_some() && x == slot(st, i)
                    })
            });
            if let Some(k) = shared {
                fresh[i] = fresh[k];
                continue;
            }
            let name = if i < nlocals {
                Some(self.code.co_varnames[i].clone())
            } else {
                // A stack value that is a local on every path is named after it.
                (0..nlocals)
                    .find(|&j| {
                        incoming.iter().all(|st| {
                            matches!((slot(st, j), slot(st, i)), (Some(Hlvalue::Var(a)), Some(Hlvalue::Var(b))) if a == b)
                        })
                    })
                    .map(|j| self.code.co_varnames[j].clone())
            };
            let v = self.graph.new_var(name);
            inputargs.push(v);
            fresh[i] = Some(Hlvalue::Var(v));
        }
        let mut out = state.clone();
        for (j, slot) in out.locals.iter_mut().enumerate() {
            *slot = fresh[j];
        }
        for (j, slot) in out.stack.iter_mut().enumerate() {
            *slot = fresh[nlocals + j].expect("stack slot");
        }
        (self.graph.new_block(inputargs), out)
    }

    /// The union of two states of the same shape: equal constants stay, anything else
    /// becomes a Variable. `None` when they cannot be merged (a local defined on one side
    /// only is dropped, as Python would fail to read it).
    fn union_state(&self, a: &State, b: &State) -> Option<State> {
        let mut out = a.clone();
        for (i, slot) in out.locals.iter_mut().enumerate() {
            *slot = match (&a.locals[i], &b.locals[i]) {
                (Some(x), Some(y)) => Some(self.union_value(*x, *y)?),
                _ => None,
            };
        }
        for (i, slot) in out.stack.iter_mut().enumerate() {
            *slot = self.union_value(a.stack[i], b.stack[i])?;
        }
        Some(out)
    }

    fn union_value(&self, a: Hlvalue, b: Hlvalue) -> Option<Hlvalue> {
        match (a, b) {
            (Hlvalue::Const(x), Hlvalue::Const(y)) if self.same_constant(x, y) => Some(a),
            // Each step of an unrolled loop is its own block: its iterator never merges.
            (Hlvalue::Const(x), _) | (_, Hlvalue::Const(x)) if self.is_unroller(x) => None,
            // nor does the rest of a tuple `except` guard (it must stay a constant)
            (Hlvalue::Const(Value::Obj(x)), _) | (_, Hlvalue::Const(Value::Obj(x)))
                if self.is_exc_guard_rest(x) =>
            {
                None
            }
            _ => Some(Hlvalue::Var(VarId(u32::MAX))),
        }
    }

    fn is_exc_guard_rest(&self, id: ObjId) -> bool {
        self.exc_guard_rest.values().any(|&r| r == id)
    }

    fn is_unroller(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if matches!(self.objspace.heap().get(id), Object::Iterator(_)))
    }

    /// Whether `union` is no more general than `entry` (then `entry`'s block can be reused).
    fn matches(&self, union: &State, entry: &State) -> bool {
        let slot_ok = |u: &Option<Hlvalue>, e: &Option<Hlvalue>| match (u, e) {
            (None, None) => true,
            (Some(Hlvalue::Var(_)), Some(Hlvalue::Var(_))) => true,
            (Some(Hlvalue::Const(x)), Some(Hlvalue::Const(y))) => self.same_constant(*x, *y),
            _ => false,
        };
        union
            .locals
            .iter()
            .zip(&entry.locals)
            .all(|(u, e)| slot_ok(u, e))
            && union
                .stack
                .iter()
                .zip(&entry.stack)
                .all(|(u, e)| slot_ok(&Some(*u), &Some(*e)))
    }

    fn same_constant(&self, x: Value, y: Value) -> bool {
        match (x, y) {
            (Value::Obj(a), Value::Obj(b)) if a == b => true,
            (Value::Obj(a), Value::Obj(b)) => {
                match (self.objspace.heap().get(a), self.objspace.heap().get(b)) {
                    (Object::Str(s), Object::Str(t)) => s == t,
                    (Object::Unicode(s), Object::Unicode(t)) => s == t,
                    // Folding builds a new tuple on each path (`except (A, B):`); Python's
                    // equality of constants compares their items.
                    (Object::Tuple(s), Object::Tuple(t)) => {
                        s.len() == t.len()
                            && s.iter().zip(t).all(|(x, y)| self.same_constant(*x, *y))
                    }
                    // Reading a name of an unknown makes a new unknown each time, so each
                    // path has its own (`except unknown_module.Error:` after two paths
                    // join): the same name is the same value.
                    (
                        Object::Unknown {
                            name: s,
                            instance_of: None,
                        },
                        Object::Unknown {
                            name: t,
                            instance_of: None,
                        },
                    ) => s == t,
                    _ => false,
                }
            }
            // Python's `1 == True`, but they are different constants for the annotator.
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            _ => x == y,
        }
    }
}

/// For each inputarg of a block with entry state `entry` (its distinct Variables, in slot
/// order), the span of the latest store among the slots that hold it (`store_spans`, by
/// slot; none: the default span). Computed in one pass: every join asks for it.
fn arg_spans(entry: &State, store_spans: &[Span]) -> Vec<Span> {
    let n = entry.locals.len() + entry.stack.len();
    let mut seen: Vec<VarId> = Vec::with_capacity(n);
    let mut spans: Vec<Option<Span>> = Vec::with_capacity(n);
    for (k, e) in flat_iter(entry).enumerate() {
        let Some(Hlvalue::Var(v)) = e else { continue };
        let i = match seen.iter().position(|s| *s == v) {
            Some(i) => i,
            None => {
                seen.push(v);
                spans.push(None);
                spans.len() - 1
            }
        };
        let Some(s) = store_spans.get(k).copied() else {
            continue;
        };
        // the latest start wins, the last slot among equals (as `max_by_key`)
        if s != Span::default() && spans[i].is_none_or(|c| s.start >= c.start) {
            spans[i] = Some(s);
        }
    }
    spans.into_iter().map(Option::unwrap_or_default).collect()
}

/// Whether two states at one position can be merged. A local defined on one path only
/// merges into an undefined local, as in the reference flow space (reading it afterwards
/// is "referenced before assignment").
fn same_shape(a: &State, b: &State) -> bool {
    a.stack.len() == b.stack.len() && a.blocks == b.blocks && a.locals.len() == b.locals.len()
}

/// The link arguments that send `state` into a block with entry state `entry`: the values of
/// `state` at the positions where `entry` has Variables, in order.
pub(super) fn link_args(entry: &State, state: &State) -> Vec<Hlvalue> {
    let n = entry.locals.len() + entry.stack.len();
    let mut args = Vec::with_capacity(n);
    let mut seen: Vec<VarId> = Vec::with_capacity(n);
    for (e, s) in flat_iter(entry).zip(flat_iter(state)) {
        if let (Some(Hlvalue::Var(v)), Some(x)) = (e, s) {
            if !seen.contains(&v) {
                seen.push(v);
                args.push(x);
            }
        }
    }
    args
}

/// The locals then the stack of a state, as one row of slots.
fn flat(state: &State) -> Vec<Option<Hlvalue>> {
    flat_iter(state).collect()
}

/// [`flat`] without the vector (every join walks a state or two this way).
fn flat_iter(state: &State) -> impl Iterator<Item = Option<Hlvalue>> + '_ {
    state
        .locals
        .iter()
        .copied()
        .chain(state.stack.iter().map(|v| Some(*v)))
}

/// Whether `state` can enter a block with entry state `entry`: where `entry` holds one
/// Variable in several slots, `state` holds one value there too.
fn same_sharing(entry: &State, state: &State) -> bool {
    let n = entry.locals.len() + entry.stack.len();
    for i in 0..n {
        if let Some(Hlvalue::Var(v)) = slot(entry, i) {
            if let Some(k) = (0..i).find(|&k| slot(entry, k) == Some(Hlvalue::Var(v))) {
                if slot(state, k) != slot(state, i) {
                    return false;
                }
            }
        }
    }
    true
}

/// Slot `i` of [`flat`] without the vector.
fn slot(state: &State, i: usize) -> Option<Hlvalue> {
    match state.locals.get(i) {
        Some(v) => *v,
        None => state.stack.get(i - state.locals.len()).copied(),
    }
}
