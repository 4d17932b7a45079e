//! The flow model (seed 001, "The Flow Model"): FunctionGraph, Block, Link, SpaceOperation,
//! Variable, Constant. A graph owns arenas of blocks, links and variables addressed by small
//! ids; every operation carries the span of the source it came from.

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
    /// The statement that took this exit (the `return`, the assignment before a join, the
    /// condition of a branch): where the values it carries come from, for messages.
    pub span: Span,
    /// For each arg, the assignment that gave it its value on the path that took this exit,
    /// when the flow space saw it (`Span::default()` otherwise): what messages point at.
    pub arg_spans: Vec<Span>,
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
    /// Every read and write of a named local in the blocks of the graph, in flowing order.
    pub local_refs: Vec<LocalRef>,
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
            local_refs: Vec::new(),
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

    /// Blocks reachable from the start block, in depth-first order (start first).
    pub fn iterblocks(&self) -> Vec<BlockId> {
        let mut seen = vec![false; self.blocks.len()];
        let mut order = Vec::new();
        let mut stack = vec![self.startblock];
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
        self.iterblocks()
            .into_iter()
            .flat_map(|b| self.block(b).exits.clone())
            .collect()
    }

    /// The name a variable is printed with: `v12`, or `name_12` when it holds a named local.
    pub fn var_name(&self, v: VarId) -> String {
        match &self.var(v).name_hint {
            Some(n) => format!("{}_{}", n, v.0),
            None => format!("v{}", v.0),
        }
    }
}
