//! Low-level graphs decoded for execution. Takes a low-level `FunctionGraph` of the
//! `LlProgram`; gives the same graph in the shape the interpreter loop wants: variables are
//! frame slots, constants are inline values, every block's exits are resolved, and what can
//! be looked up once is (a `getfield`'s flattened slot, a direct call's function). A graph
//! is decoded the first time it is called and kept for the run; the flow-graph model stays
//! the one every other stage reads, and the decoded form points back at its operations for
//! spans and types (error messages, casts, interior paths).

use crate::flowspace::{BlockId, ExitCase, ExitSwitch, FunctionGraph, Hlvalue, SpaceOperation};
use crate::interpreter::Op;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlTypes, LlValue, TypeDef};
use crate::syntax::Span;

/// Where an operation's argument comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Operand {
    Slot(u32),
    Const(LlValue),
}

impl Operand {
    fn of(v: Hlvalue) -> Operand {
        match v {
            Hlvalue::Var(v) => Operand::Slot(v.0),
            // a 128-bit constant is what its C literal gives (see `int128`)
            Hlvalue::Ll(c) if c.ty == LlType::SIGNEDLONGLONGLONG => {
                Operand::Const(crate::lltypesystem::int128::c_constant(c.value.as_i128()))
            }
            Hlvalue::Ll(c) => Operand::Const(c.value),
            // high-level constants never reach a low-level graph's run: Void, as before
            Hlvalue::Const(_) => Operand::Const(LlValue::Void),
        }
    }

    #[inline(always)]
    pub(super) fn get(self, frame: &[LlValue]) -> LlValue {
        match self {
            Operand::Slot(s) => frame[s as usize],
            Operand::Const(c) => c,
        }
    }
}

/// No slot or function resolved ahead of time: the operation resolves (or reports) at run
/// time.
pub(super) const UNRESOLVED: u32 = u32::MAX;

/// An interior access (`getinteriorfield`/`setinteriorfield`) resolved ahead of time from
/// its path's field names and the types: a flattened field of the object, or flattened
/// slot `off` of the item whose index is operand `index` (`s.chars[i]`, `entries[i].key`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Interior {
    Field(u32),
    Item { index: u8, off: u32 },
}

/// A resolved interior path, and whether the pointer's static type is an array (a pointer
/// into a structure's inlined array, from `getsubstruct`, is resolved at run time).
#[derive(Clone, Copy, Debug)]
pub(super) struct InteriorPath {
    pub place: Interior,
    pub on_array: bool,
}

pub(super) struct DecodedOp<'p> {
    /// `None` for a high-level operation left in a low-level graph (an error when reached).
    pub op: Option<LlOp>,
    pub result: u32,
    pub args: Box<[Operand]>,
    /// `getfield`/`setfield`: the field's flattened slot; a call of a constant function
    /// pointer: the function's index; otherwise `UNRESOLVED`.
    pub aux: u32,
    /// `getinteriorfield`/`setinteriorfield` whose path is resolved.
    pub interior: Option<InteriorPath>,
    /// Calls and collections, in programs with weak references: the slots of the GC
    /// pointers live after the operation (the frame's roots, see `gc`).
    pub live: Box<[u32]>,
    pub src: &'p SpaceOperation,
}

pub(super) struct DecodedLink {
    pub target: u32,
    pub args: Box<[Operand]>,
    /// No argument reads a slot of the target's inputargs: the arguments can be written
    /// straight into them (otherwise they are read first: a link may permute, `a, b = b, a`).
    pub direct: bool,
    /// The value of the switch (or the exception class) that selects this exit.
    pub case: Option<LlValue>,
    pub last_exception: Option<u32>,
    pub last_exc_value: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum BlockKind {
    Normal,
    Return,
    Except,
}

pub(super) enum Switch {
    None,
    Value(Operand),
    LastException,
}

pub(super) struct DecodedBlock<'p> {
    pub kind: BlockKind,
    pub inputargs: Box<[u32]>,
    pub ops: Box<[DecodedOp<'p>]>,
    pub switch: Switch,
    pub exits: Box<[DecodedLink]>,
    /// Where a missing switch exit is reported.
    pub span: Span,
}

pub(super) struct Code<'p> {
    pub nslots: usize,
    pub start: u32,
    pub blocks: Box<[DecodedBlock<'p>]>,
}

/// Decodes `graph`; `types` resolves field slots. Each call records the GC pointers live
/// after it (the roots of the collector, see `gc`).
pub(super) fn decode<'p>(graph: &'p FunctionGraph, types: &LlTypes) -> Code<'p> {
    let blocks = graph
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let id = BlockId(i as u32);
            let kind = if id == graph.returnblock {
                BlockKind::Return
            } else if id == graph.exceptblock {
                BlockKind::Except
            } else {
                BlockKind::Normal
            };
            let mut live = super::gc::live_gc_slots(graph, id, types);
            let ops = b
                .operations
                .iter()
                .enumerate()
                .map(|(k, op)| {
                    let mut d = decode_op(graph, op, types);
                    if let Some(l) = live.get_mut(k) {
                        d.live = std::mem::take(l);
                    }
                    d
                })
                .collect();
            let switch = match b.exitswitch {
                ExitSwitch::None => Switch::None,
                ExitSwitch::Value(v) => Switch::Value(Operand::of(v)),
                ExitSwitch::LastException => Switch::LastException,
            };
            let exits = b
                .exits
                .iter()
                .map(|&l| {
                    let link = graph.link(l);
                    let targets = &graph.block(link.target).inputargs;
                    let direct = !link
                        .args
                        .iter()
                        .any(|a| a.var().is_some_and(|v| targets.contains(&v)));
                    DecodedLink {
                        target: link.target.0,
                        args: link.args.iter().map(|a| Operand::of(*a)).collect(),
                        direct,
                        case: match link.exitcase {
                            ExitCase::Ll(c) => Some(c),
                            _ => None,
                        },
                        last_exception: link.last_exception.map(|v| v.0),
                        last_exc_value: link.last_exc_value.map(|v| v.0),
                    }
                })
                .collect();
            DecodedBlock {
                kind,
                inputargs: b.inputargs.iter().map(|v| v.0).collect(),
                ops,
                switch,
                exits,
                span: b.operations.last().map(|o| o.span).unwrap_or(graph.span),
            }
        })
        .collect();
    Code {
        nslots: graph.vars.len(),
        start: graph.startblock.0,
        blocks,
    }
}

fn decode_op<'p>(graph: &FunctionGraph, op: &'p SpaceOperation, types: &LlTypes) -> DecodedOp<'p> {
    let llop = match op.opname {
        Op::Ll(o) => Some(o),
        _ => None,
    };
    let args: Box<[Operand]> = op.args.iter().map(|a| Operand::of(*a)).collect();
    let aux = match llop {
        Some(LlOp::GetField | LlOp::SetField) => field_slot(graph, op, types),
        Some(LlOp::GetArrayItem | LlOp::SetArrayItem) => raw_item_type(graph, op, types),
        Some(LlOp::DirectPtradd) => ptradd_item_size(graph, op, types),
        Some(LlOp::DirectCall) => match args.first() {
            Some(Operand::Const(LlValue::Ptr(LlPtr::Func(f)))) => *f,
            _ => UNRESOLVED,
        },
        _ => UNRESOLVED,
    };
    let interior = match llop {
        Some(o @ (LlOp::GetInteriorField | LlOp::SetInteriorField)) => {
            let nargs = op.args.len() - usize::from(o == LlOp::SetInteriorField);
            interior_path(graph, &op.args[..nargs.max(1)], types)
        }
        _ => None,
    };
    DecodedOp {
        op: llop,
        result: op.result.0,
        args,
        aux,
        interior,
        live: Box::default(),
        src: op,
    }
}

/// `getarrayitem`/`setarrayitem` on a raw array whose items are numbers other than
/// characters: the item type's id, for `LlHeap::raw_load` (such a pointer may designate raw
/// `char` memory, `rffi.cast(rffi.SIGNEDP, buf)`); otherwise `UNRESOLVED`.
fn raw_item_type(graph: &FunctionGraph, op: &SpaceOperation, types: &LlTypes) -> u32 {
    let arr = op
        .args
        .first()
        .and_then(|&a| graph.concretetype_of(a))
        .and_then(|t| types.pointee(t));
    match arr.and_then(|a| Some((a, types.array_item(a)?))) {
        Some((a, item))
            if !types.is_gc(a)
                && item != LlType::CHAR
                && !matches!(types.def(item), TypeDef::Ptr(_) | TypeDef::Struct { .. }) =>
        {
            item.0
        }
        _ => UNRESOLVED,
    }
}

/// The size in bytes of an item of the array `direct_ptradd`'s pointer points to by its
/// static type (its count of items moves that many bytes in raw memory), or UNRESOLVED.
fn ptradd_item_size(graph: &FunctionGraph, op: &SpaceOperation, types: &LlTypes) -> u32 {
    op.args
        .first()
        .and_then(|&a| graph.concretetype_of(a))
        .and_then(|t| types.pointee(t))
        .and_then(|a| types.array_item(a))
        .and_then(crate::lltypesystem::heap::raw_item_size)
        .map_or(UNRESOLVED, |n| n as u32)
}

/// The place an interior path (`args`: the pointer, then field names and indices) names,
/// from the types alone, as `LlHeap::place` finds it at run time; None for paths with more
/// than one index or that do not end on a field or item.
fn interior_path(graph: &FunctionGraph, args: &[Hlvalue], types: &LlTypes) -> Option<InteriorPath> {
    let ct = graph.concretetype_of(args[0])?;
    let mut cur = types.pointee(ct)?;
    let on_array = matches!(types.def(cur), TypeDef::Array { .. });
    // flattened slot so far, within the object or (after the index) within the item
    let mut base = 0usize;
    let mut index: Option<u8> = None;
    for (i, a) in args.iter().enumerate().skip(1) {
        let name = match a {
            Hlvalue::Ll(c) => match c.value {
                LlValue::Name(f) => Some(f),
                _ => None,
            },
            _ => None,
        };
        match (name, types.def(cur)) {
            (Some(f), TypeDef::Struct { .. }) => {
                let (slot, ft) = types.field_slot(cur, f.as_str())?;
                match types.def(ft) {
                    // the object's own variable-sized part: its items follow
                    TypeDef::Array { .. } if index.is_none() => cur = ft,
                    TypeDef::Array { .. } => return None,
                    TypeDef::Struct { .. } => {
                        base += slot;
                        cur = ft;
                    }
                    _ => {
                        let place = match index {
                            Some(index) => Interior::Item {
                                index,
                                off: (base + slot) as u32,
                            },
                            None => Interior::Field((base + slot) as u32),
                        };
                        return (i + 1 == args.len()).then_some(InteriorPath { place, on_array });
                    }
                }
            }
            (None, TypeDef::Array { item, .. }) if index.is_none() && base == 0 => {
                index = Some(u8::try_from(i).ok()?);
                match types.def(*item) {
                    TypeDef::Struct { .. } => cur = *item,
                    _ => {
                        let place = Interior::Item {
                            index: i as u8,
                            off: 0,
                        };
                        return (i + 1 == args.len()).then_some(InteriorPath { place, on_array });
                    }
                }
            }
            _ => return None,
        }
    }
    None
}

/// The flattened slot of a `getfield`/`setfield`'s field in the structure its pointer
/// argument points to.
fn field_slot(graph: &FunctionGraph, op: &SpaceOperation, types: &LlTypes) -> u32 {
    let (Some(p), Some(Hlvalue::Ll(name))) = (op.args.first(), op.args.get(1)) else {
        return UNRESOLVED;
    };
    let LlValue::Name(f) = name.value else {
        return UNRESOLVED;
    };
    let ct = graph.concretetype_of(*p).unwrap_or(LlType::VOID);
    let s = types.pointee(ct).unwrap_or(LlType::VOID);
    match types.field_slot(s, f.as_str()) {
        Some((slot, _)) => slot as u32,
        None => UNRESOLVED,
    }
}
