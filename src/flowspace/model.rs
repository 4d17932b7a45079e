//! The flow model (seed 001, "The Flow Model"): FunctionGraph, Block, Link, SpaceOperation,
//! Variable, Constant. A graph owns arenas of blocks, links and variables addressed by small
//! ids; every operation carries the span of the source it came from.

use crate::fasthash::{HashMap, HashSet};
use crate::interpreter::Op;
use crate::lltypesystem::{LlType, LlValue};
use crate::objspace::object::{ObjId, Value};
use crate::syntax::Span;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);
/// A Variable: a placeholder for a run-time value, unique within its graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Debugging information of a Variable.
#[derive(Clone, Debug, Default)]
pub struct Variable {
    /// The source-level name it holds, when it comes from a named local.
    pub name_hint: Option<Rc<str>>,
}

/// A graph's id in the list of graphs of its program (the annotator's, or the RTyper's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GraphId(pub u32);

impl GraphId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A Constant of a low-level graph: a value of the low-level model with its concretetype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LlConstant {
    pub ty: LlType,
    pub value: LlValue,
}

/// An argument of an operation or a link: a Variable or a Constant. A high-level Constant
/// is a concrete value of the import-time heap (a mutable one is a static, read-only,
/// prebuilt object); a low-level one (after RTyping) carries its concretetype.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hlvalue {
    Var(VarId),
    Const(Value),
    Ll(LlConstant),
}

impl Hlvalue {
    pub fn var(self) -> Option<VarId> {
        match self {
            Hlvalue::Var(v) => Some(v),
            _ => None,
        }
    }
    pub fn constant(self) -> Option<Value> {
        match self {
            Hlvalue::Const(c) => Some(c),
            _ => None,
        }
    }
    pub fn ll_constant(self) -> Option<LlConstant> {
        match self {
            Hlvalue::Ll(c) => Some(c),
            _ => None,
        }
    }
}

/// A read (`LoadFast`) or write (`StoreFast`) of a named local, recorded while flowing: where
/// the name is in the source and the value it held there. Position queries (hover, inlay
/// hints, go-to-definition) find the Variable behind a name through these.
#[derive(Clone, Copy, Debug)]
pub struct LocalRef {
    /// Span of the name (the instruction's span).
    pub span: Span,
    /// Index of the local in the code object's `co_varnames`.
    pub local: u32,
    pub value: Hlvalue,
    pub store: bool,
    /// The block being flowed when the name was executed.
    pub block: BlockId,
}

#[derive(Clone, Debug)]
pub struct SpaceOperation {
    pub opname: Op,
    pub args: Vec<Hlvalue>,
    pub result: VarId,
    pub span: Span,
}

/// How a block ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExitSwitch {
    /// Unconditional jump (one exit), or the return/except block (no exit).
    None,
    /// Conditional jump on a Variable of the block: exits carry the exit cases.
    Value(Hlvalue),
    /// Exception catching: `Constant(last_exception)`; the first exit is the normal path,
    /// the others are taken when the last operation raises a matching exception.
    LastException,
}

/// A link's exit case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExitCase {
    /// No exit case (unconditional link, or the normal path of exception catching).
    None,
    /// A concrete value the switch is compared with (`True`/`False` for branches).
    Value(Value),
    /// An exception class (by object) for exception-catching links.
    Exception(ObjId),
    /// In low-level graphs: the switch's value (a Bool, an integer, a Char), or for
    /// exception-catching links the class's vtable pointer (NULL: any exception, as the
    /// StopIteration exit of a loop's `next` is taken for whatever the iterator raises).
    Ll(LlValue),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub inputargs: Vec<VarId>,
    pub operations: Vec<SpaceOperation>,
    pub exitswitch: ExitSwitch,
    pub exits: Vec<LinkId>,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub prevblock: BlockId,
    pub target: BlockId,
    pub args: Vec<Hlvalue>,
    pub exitcase: ExitCase,
    pub last_exception: Option<VarId>,
    pub last_exc_value: Option<VarId>,
}

/// What a graph knows about where its parts come from in the source, and what editors ask
/// about its Variables. Kept beside the IR, keyed by ids, so that the passes rewriting
/// blocks and links carry nothing for them: a link a pass makes has no span, one it drops
/// leaves entries nobody asks for, an inputarg it removes takes its entries with it.
#[derive(Clone, Debug, Default)]
pub struct SideTables {
    /// The statement that took each link (by `LinkId`; the `return`, the assignment before
    /// a join, the condition of a branch): where the values it carries come from.
    link_spans: Vec<Span>,
    /// The assignment that gave a link's argument its value on the path that took the
    /// link, when the flow space saw it: by link and by the target's inputarg receiving it.
    arg_spans: HashMap<(LinkId, VarId), Span>,
    /// Every read and write of a named local in the blocks of the graph, in flowing order.
    pub local_refs: Vec<LocalRef>,
    /// Links to the except block taken by a bare `raise` in an except clause: the program
    /// raises the caught exception again itself. The reference keeps such a link where it
    /// drops the re-raise of an implicit exception (an operation's IndexError) that no
    /// clause matched, and the two look the same in the graph.
    reraised_caught: HashSet<LinkId>,
}

impl SideTables {
    /// The tables after the links were renumbered (`map[old]`: the new id, or `None` for a
    /// link that is gone).
    pub fn remap_links(&mut self, map: &[Option<LinkId>]) {
        let new_id = |l: &LinkId| map.get(l.0 as usize).copied().flatten();
        let mut spans = Vec::new();
        for (old, new) in map.iter().enumerate() {
            let Some(new) = *new else { continue };
            if let Some(&s) = self.link_spans.get(old) {
                if spans.len() <= new.0 as usize {
                    spans.resize(new.0 as usize + 1, Span::default());
                }
                spans[new.0 as usize] = s;
            }
        }
        self.link_spans = spans;
        self.reraised_caught = self.reraised_caught.iter().filter_map(new_id).collect();
        self.arg_spans = std::mem::take(&mut self.arg_spans)
            .into_iter()
            .filter_map(|((l, v), s)| new_id(&l).map(|n| ((n, v), s)))
            .collect();
    }

    /// The tables after the Variables were renumbered (`map[old]`: the new id, or `None`
    /// for a Variable that is gone).
    pub fn remap_vars(&mut self, map: &[Option<VarId>]) {
        self.arg_spans = std::mem::take(&mut self.arg_spans)
            .into_iter()
            .filter_map(|((l, v), s)| {
                map.get(v.0 as usize)
                    .copied()
                    .flatten()
                    .map(|n| ((l, n), s))
            })
            .collect();
        self.local_refs.retain_mut(|r| match r.value {
            Hlvalue::Var(v) => match map.get(v.0 as usize).copied().flatten() {
                Some(n) => {
                    r.value = Hlvalue::Var(n);
                    true
                }
                None => false,
            },
            _ => true,
        });
    }
}

/// The flow graph of one function.
#[derive(Clone, Debug)]
pub struct FunctionGraph {
    pub name: Rc<str>,
    /// The function object it was built from.
    pub func: Option<ObjId>,
    pub startblock: BlockId,
    pub returnblock: BlockId,
    pub exceptblock: BlockId,
    pub blocks: Vec<Block>,
    pub links: Vec<Link>,
    pub vars: Vec<Variable>,
    /// Span of the function's definition.
    pub span: Span,
    /// Source spans of links and the names read and written (see `SideTables`).
    pub side: SideTables,
    /// After RTyping, the low-level type of each Variable (indexed by `VarId`); empty in
    /// high-level graphs.
    pub concretetype: Vec<LlType>,
}

impl FunctionGraph {
    /// A graph with a start block taking `nargs` arguments, and the return and except blocks.
    pub fn new(
        name: Rc<str>,
        func: Option<ObjId>,
        span: Span,
        argnames: &[Rc<str>],
    ) -> FunctionGraph {
        let mut g = FunctionGraph {
            name,
            func,
            startblock: BlockId(0),
            returnblock: BlockId(0),
            exceptblock: BlockId(0),
            blocks: Vec::new(),
            links: Vec::new(),
            vars: Vec::new(),
            span,
            side: SideTables::default(),
            concretetype: Vec::new(),
        };
        let start_args = argnames
            .iter()
            .map(|n| g.new_var(Some(n.clone())))
            .collect();
        g.startblock = g.new_block(start_args);
        let r = g.new_var(None);
        g.returnblock = g.new_block(vec![r]);
        let (t, v) = (g.new_var(None), g.new_var(None));
        g.exceptblock = g.new_block(vec![t, v]);
        g
    }

    pub fn new_var(&mut self, name_hint: Option<Rc<str>>) -> VarId {
        self.vars.push(Variable { name_hint });
        VarId(self.vars.len() as u32 - 1)
    }
    /// A new Variable of a low-level graph, with its concretetype.
    pub fn new_typed_var(&mut self, name_hint: Option<Rc<str>>, ty: LlType) -> VarId {
        let v = self.new_var(name_hint);
        self.concretetype.resize(self.vars.len(), LlType::VOID);
        self.concretetype[v.0 as usize] = ty;
        v
    }
    /// The concretetype of a Variable or Constant of a low-level graph.
    pub fn concretetype_of(&self, v: Hlvalue) -> Option<LlType> {
        match v {
            Hlvalue::Var(v) => self.concretetype.get(v.0 as usize).copied(),
            Hlvalue::Ll(c) => Some(c.ty),
            Hlvalue::Const(_) => None,
        }
    }
    pub fn is_low_level(&self) -> bool {
        !self.concretetype.is_empty()
    }

    pub fn new_block(&mut self, inputargs: Vec<VarId>) -> BlockId {
        self.blocks.push(Block {
            inputargs,
            operations: Vec::new(),
            exitswitch: ExitSwitch::None,
            exits: Vec::new(),
        });
        BlockId(self.blocks.len() as u32 - 1)
    }
    /// Adds a link as the next exit of `from`.
    pub fn add_link(&mut self, from: BlockId, link: Link) -> LinkId {
        let id = LinkId(self.links.len() as u32);
        debug_assert_eq!(link.prevblock, from);
        self.links.push(link);
        self.blocks[from.0 as usize].exits.push(id);
        id
    }
    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }
    pub fn block_mut(&mut self, id: BlockId) -> &mut Block {
        &mut self.blocks[id.0 as usize]
    }
    pub fn link(&self, id: LinkId) -> &Link {
        &self.links[id.0 as usize]
    }
    pub fn link_mut(&mut self, id: LinkId) -> &mut Link {
        &mut self.links[id.0 as usize]
    }
    pub fn var(&self, id: VarId) -> &Variable {
        &self.vars[id.0 as usize]
    }

    /// The statement that took link `l` (`Span::default()` when not known).
    pub fn link_span(&self, l: LinkId) -> Span {
        self.side
            .link_spans
            .get(l.0 as usize)
            .copied()
            .unwrap_or_default()
    }
    pub fn set_link_span(&mut self, l: LinkId, span: Span) {
        let spans = &mut self.side.link_spans;
        if spans.len() <= l.0 as usize {
            spans.resize(l.0 as usize + 1, Span::default());
        }
        spans[l.0 as usize] = span;
    }
    /// Whether link `l` is a bare `raise` of the exception an except clause caught.
    pub fn is_reraise_of_caught(&self, l: LinkId) -> bool {
        self.side.reraised_caught.contains(&l)
    }
    /// Notes that link `l` is a bare `raise` of the exception an except clause caught.
    pub fn set_reraise_of_caught(&mut self, l: LinkId) {
        self.side.reraised_caught.insert(l);
    }
    /// Where the `i`-th argument of link `l` was assigned on the path that took it
    /// (`Span::default()` when not known).
    pub fn arg_span(&self, l: LinkId, i: usize) -> Span {
        let target = self.link(l).target;
        self.block(target)
            .inputargs
            .get(i)
            .and_then(|v| self.side.arg_spans.get(&(l, *v)))
            .copied()
            .unwrap_or_default()
    }
    /// Notes where each argument of link `l` was assigned (`Span::default()`: not known),
    /// for the inputargs its target has now.
    pub fn set_arg_spans(&mut self, l: LinkId, spans: &[Span]) {
        let target = self.link(l).target;
        for (i, &s) in spans.iter().enumerate() {
            let Some(&v) = self.blocks[target.0 as usize].inputargs.get(i) else {
                break;
            };
            if s == Span::default() {
                self.side.arg_spans.remove(&(l, v));
            } else {
                self.side.arg_spans.insert((l, v), s);
            }
        }
    }
    /// Checks that the side tables name only links and Variables of the graph.
    pub fn verify_side_tables(&self) -> Result<(), String> {
        if self.side.link_spans.len() > self.links.len()
            || self
                .side
                .reraised_caught
                .iter()
                .any(|l| l.0 as usize >= self.links.len())
        {
            return Err("a link span names a link the graph does not have".into());
        }
        for &(l, v) in self.side.arg_spans.keys() {
            if l.0 as usize >= self.links.len() || v.0 as usize >= self.vars.len() {
                return Err(
                    "an argument span names a link or Variable the graph does not have".into(),
                );
            }
        }
        for r in &self.side.local_refs {
            if r.block.0 as usize >= self.blocks.len() {
                return Err("a name reference is in a block the graph does not have".into());
            }
            if matches!(r.value, Hlvalue::Var(v) if v.0 as usize >= self.vars.len()) {
                return Err("a name reference holds a Variable the graph does not have".into());
            }
        }
        Ok(())
    }

    /// Blocks reachable from the start block, in depth-first order (start first).
    pub fn iterblocks(&self) -> Vec<BlockId> {
        let mut seen = vec![false; self.blocks.len()];
        let mut order = Vec::with_capacity(self.blocks.len());
        let mut stack = Vec::with_capacity(self.blocks.len().max(4));
        stack.push(self.startblock);
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut seen[b.0 as usize], true) {
                continue;
            }
            order.push(b);
            for &l in self.block(b).exits.iter().rev() {
                stack.push(self.link(l).target);
            }
        }
        order
    }

    /// Links of reachable blocks.
    pub fn iterlinks(&self) -> Vec<LinkId> {
        let mut links = Vec::with_capacity(self.links.len());
        for b in self.iterblocks() {
            links.extend_from_slice(&self.block(b).exits);
        }
        links
    }

    /// For each operation of block `b`: the variables read after it (by later operations,
    /// the exit switch or the exits; an exit's exception variables are set by the exit
    /// itself). What a collector must keep across the operation: GenC's shadow stack,
    /// the LLInterpreter's roots.
    pub fn live_after_ops(&self, b: BlockId) -> Vec<std::collections::BTreeSet<VarId>> {
        let blk = self.block(b);
        let mut live = std::collections::BTreeSet::new();
        for &l in &blk.exits {
            let link = self.link(l);
            for a in &link.args {
                if let Hlvalue::Var(v) = a {
                    if Some(*v) != link.last_exception && Some(*v) != link.last_exc_value {
                        live.insert(*v);
                    }
                }
            }
        }
        if let ExitSwitch::Value(Hlvalue::Var(v)) = blk.exitswitch {
            live.insert(v);
        }
        let mut out = vec![std::collections::BTreeSet::new(); blk.operations.len()];
        for (i, op) in blk.operations.iter().enumerate().rev() {
            out[i] = live.clone();
            live.remove(&op.result);
            for a in &op.args {
                if let Hlvalue::Var(v) = a {
                    live.insert(*v);
                }
            }
        }
        out
    }

    /// The name a variable is printed with: `v12`, or `name_12` when it holds a named local.
    pub fn var_name(&self, v: VarId) -> String {
        match &self.var(v).name_hint {
            Some(n) => format!("{}_{}", n, v.0),
            None => format!("v{}", v.0),
        }
    }
}
