//! What an operation can raise, by its arguments' annotations: the reference's
//! `can_only_throw` attributes of its annotation functions (`getitem` of a list raises only
//! IndexError, of a dict only KeyError...). The reference's annotator follows an exception
//! link of the block's raising operation only when its class can catch one of these; with
//! no list (`None`: calls of functions, most methods) it may raise any Exception. The
//! RTyper's check of `has_implicit_exception` reads the links that survive this.

use super::annrpython::Annotator;
use super::model::SomeValue;
use super::Bookkeeper;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{BlockId, ExitCase, ExitSwitch, Hlvalue, LinkId};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::builtin_exception_derives;
use crate::objspace::object::Value;
use crate::objspace::object::{Heap, ObjId};

/// Exceptions of no class: the operation cannot raise.
const NOTHING: &[&str] = &[];
const INDEX_ERROR: &[&str] = &["IndexError"];
const KEY_ERROR: &[&str] = &["KeyError"];

impl Bookkeeper {
    /// The built-in exceptions `op` on arguments `args_s` can raise, or `None` for any.
    pub fn can_only_throw(&self, op: Op, args_s: &[SomeValue]) -> Option<&'static [&'static str]> {
        // a dict with custom equality and hash (`r_dict`) calls user functions: anything
        let plain_dict = |s: &SomeValue| match s {
            SomeValue::Dict { def, .. } => self.r_dict_of(*def).is_none(),
            _ => false,
        };
        let first = args_s.first()?;
        let indexable = |s: &SomeValue| {
            matches!(
                s,
                SomeValue::List { .. }
                    | SomeValue::Str { .. }
                    | SomeValue::Char { .. }
                    | SomeValue::Unicode { .. }
                    | SomeValue::UnicodeCodePoint { .. }
                    | SomeValue::Tuple(_)
            )
        };
        let int_index = matches!(
            args_s.get(1),
            Some(SomeValue::Integer { .. } | SomeValue::Bool { .. })
        );
        match op {
            Op::GetItem if indexable(first) && int_index => Some(INDEX_ERROR),
            Op::SetItem | Op::DelItem if matches!(first, SomeValue::List { .. }) && int_index => {
                Some(INDEX_ERROR)
            }
            Op::GetItem | Op::DelItem if plain_dict(first) => Some(KEY_ERROR),
            Op::SetItem if plain_dict(first) => Some(NOTHING),
            Op::Contains if matches!(first, SomeValue::Dict { .. }) => {
                plain_dict(first).then_some(NOTHING)
            }
            Op::Contains | Op::Iter => Some(NOTHING),
            Op::Next => iterator_next(first),
            Op::SimpleCall | Op::CallArgs => match first {
                SomeValue::BuiltinMethod { id, s_self, .. } => match id {
                    B::IteratorNext => iterator_next(s_self),
                    B::ListPop => Some(INDEX_ERROR),
                    B::StrEncode | B::UnicodeEncode => Some(&["UnicodeEncodeError"]),
                    B::StrDecode | B::UnicodeDecode => Some(&["UnicodeDecodeError"]),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
}

/// `next` of an iterator: the end of the iteration, and for a dict's the dict changing size.
fn iterator_next(s_it: &SomeValue) -> Option<&'static [&'static str]> {
    match s_it {
        SomeValue::Iterator { container, .. } => {
            Some(if matches!(**container, SomeValue::Dict { .. }) {
                &["StopIteration", "RuntimeError"]
            } else {
                &["StopIteration"]
            })
        }
        _ => None,
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Whether block `b` of graph `g` ends with the length test of an unpacking
    /// (`len`, `eq` with the count, `bool`, switched on: `UnpackCheck`).
    pub(super) fn is_unpack_check(&self, g: u32, b: usize) -> bool {
        let block = &self.graphs[g as usize].blocks[b];
        let ops = &block.operations;
        let [.., len, eq, truth] = &ops[..] else {
            return false;
        };
        block.exitswitch == ExitSwitch::Value(Hlvalue::Var(truth.result))
            && len.opname == Op::Len
            && eq.opname == Op::Eq
            && truth.opname == Op::Bool
            && eq.args.first() == Some(&Hlvalue::Var(len.result))
            && matches!(eq.args.get(1), Some(Hlvalue::Const(Value::Int(_))))
            && truth.args.first() == Some(&Hlvalue::Var(eq.result))
            && len.span == eq.span
            && eq.span == truth.span
    }

    /// An unpacking whose length test is known to pass (of a tuple): the items are read
    /// right away, as part of the block that tested, rather than after the blocks already
    /// pending. The reference's order of pending blocks is that of a dict; ours is first
    /// come, first served, and this keeps the order it had when unpacking took no block of
    /// its own, which agrees with the reference on where a union error shows.
    pub(super) fn flow_unpack_known(&mut self, g: u32, exits: &[LinkId]) {
        let gi = g as usize;
        for &l in exits {
            let link = &self.graphs[gi].links[l.0 as usize];
            if link.exitcase != ExitCase::Value(Value::Bool(true)) {
                continue;
            }
            let target = link.target;
            self.follow_exit(g, l, &[]);
            if self.info[gi].state[target.0 as usize] == super::annrpython::BlockState::Pending
                && target != self.graphs[gi].returnblock
            {
                self.flowin_now(g, BlockId(target.0));
            }
        }
    }
    /// Follows the exits of block `b` of graph `g`, whose last operation may raise, as the
    /// reference's annotator does: the normal exit, then each exception link whose class
    /// can catch something the operation can still raise (`can_only_throw`), what a link
    /// catches being gone for the links after it. An operation that can raise anything
    /// keeps every link. So the `Exception` link into the `except` clauses' tests, after an
    /// `IndexError` link, is dead for a `getitem` of a list or tuple: a handler of other
    /// exceptions around it is never annotated.
    pub(super) fn follow_exception_exits(&mut self, g: u32, b: usize, exits: &[LinkId]) {
        let gi = g as usize;
        let can = match self.graphs[gi].blocks[b].operations.last().cloned() {
            Some(op) => {
                let args_s: Vec<SomeValue> =
                    op.args.iter().map(|&a| self.annotation(g, a)).collect();
                self.bk.can_only_throw(op.opname, &args_s)
            }
            None => None,
        };
        let Some(names) = can else {
            for &l in exits {
                self.follow_exit(g, l, &[]);
            }
            return;
        };
        let mut left: Vec<&'static str> = names.to_vec();
        for &l in exits {
            let ExitCase::Exception(cls) = self.graphs[gi].links[l.0 as usize].exitcase else {
                self.follow_exit(g, l, &[]);
                continue;
            };
            if left.is_empty() {
                break;
            }
            let heap = self.space.heap();
            let caught: Vec<&'static str> = left
                .iter()
                .copied()
                .filter(|n| builtin_derives(heap, n, cls))
                .collect();
            // a link for a subclass of what is left catches that subclass
            let narrower = left.iter().any(|n| derives_from_builtin(heap, cls, n));
            if let [one] = caught[..] {
                let c = builtin_class_id(heap, one).unwrap_or(cls);
                self.follow_raise_link(g, l, c);
            } else if !caught.is_empty() || narrower {
                self.follow_raise_link(g, l, cls);
            }
            let heap = self.space.heap();
            left.retain(|n| !builtin_derives(heap, n, cls));
        }
    }
}

/// Whether the built-in exception `name` is class `c` or derives from it.
fn builtin_derives(heap: &Heap, name: &str, c: ObjId) -> bool {
    match heap.class(c) {
        Some(k) if k.module.is_none() => builtin_exception_derives(name, &k.name),
        _ => false,
    }
}

/// Whether class `c` derives from the built-in exception `name`.
fn derives_from_builtin(heap: &Heap, c: ObjId, name: &str) -> bool {
    heap.class(c).is_some_and(|k| {
        k.mro.iter().any(|&m| {
            heap.class(m)
                .is_some_and(|b| b.module.is_none() && &*b.name == name)
        })
    })
}

/// The built-in class `name` (made with the builtins, before any module's objects).
fn builtin_class_id(heap: &Heap, name: &str) -> Option<ObjId> {
    (0..heap.len() as u32).map(ObjId).find(|&id| {
        heap.class(id)
            .is_some_and(|k| k.module.is_none() && &*k.name == name)
    })
}
