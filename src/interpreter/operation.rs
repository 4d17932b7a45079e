//! The high-level operations an object space implements: the vocabulary shared by the
//! interpreter, the flow model (`SpaceOperation.opname`) and the annotator. Names follow the
//! reference toolchain's flow space.

use crate::compiler::{BinOp, CmpOp, UnOp};
use crate::lltypesystem::LlOp;

macro_rules! ops {
    ($($variant:ident = $name:literal, $arity:expr;)*) => {
        /// An operation of a flow graph: a high-level one (what the flow space records and
        /// the annotator types), or, after RTyping, a low-level one of the
        /// `lltypesystem::lloperation` table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op { $($variant,)* Ll(LlOp) }

        impl Op {
            /// Every high-level operation.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];
            /// The operation's name as printed in graphs.
            pub fn name(self) -> &'static str {
                match self { $(Op::$variant => $name,)* Op::Ll(op) => op.name() }
            }
            /// Number of arguments, or `None` when variable.
            pub fn arity(self) -> Option<usize> {
                match self { $(Op::$variant => $arity,)* Op::Ll(op) => op.arity() }
            }
            pub fn from_name(name: &str) -> Option<Op> {
                match name { $($name => Some(Op::$variant),)* _ => LlOp::from_name(name).map(Op::Ll) }
            }
            pub fn is_low_level(self) -> bool {
                matches!(self, Op::Ll(_))
            }
        }
    };
}

ops! {
    Is = "is_", Some(2);
    Id = "id", Some(1);
    Type = "type", Some(1);
    IsSubtype = "issubtype", Some(2);
    IsInstance = "isinstance", Some(2);
    Repr = "repr", Some(1);
    Str = "str", Some(1);
    Len = "len", Some(1);
    Hash = "hash", Some(1);
    GetAttr = "getattr", Some(2);
    SetAttr = "setattr", Some(3);
    DelAttr = "delattr", Some(2);
    GetItem = "getitem", Some(2);
    SetItem = "setitem", Some(3);
    DelItem = "delitem", Some(2);
    GetSlice = "getslice", Some(3);
    SetSlice = "setslice", Some(4);
    DelSlice = "delslice", Some(3);
    Pos = "pos", Some(1);
    Neg = "neg", Some(1);
    Bool = "bool", Some(1);
    Invert = "invert", Some(1);
    Abs = "abs", Some(1);
    Hex = "hex", Some(1);
    Oct = "oct", Some(1);
    Ord = "ord", Some(1);
    Int = "int", Some(1);
    Float = "float", Some(1);
    Long = "long", Some(1);
    Divmod = "divmod", Some(2);
    Cmp = "cmp", Some(2);
    Add = "add", Some(2);
    Sub = "sub", Some(2);
    Mul = "mul", Some(2);
    TrueDiv = "truediv", Some(2);
    FloorDiv = "floordiv", Some(2);
    Div = "div", Some(2);
    Mod = "mod", Some(2);
    Pow = "pow", Some(2);
    LShift = "lshift", Some(2);
    RShift = "rshift", Some(2);
    And = "and_", Some(2);
    Or = "or_", Some(2);
    Xor = "xor", Some(2);
    InplaceAdd = "inplace_add", Some(2);
    InplaceSub = "inplace_sub", Some(2);
    InplaceMul = "inplace_mul", Some(2);
    InplaceTrueDiv = "inplace_truediv", Some(2);
    InplaceFloorDiv = "inplace_floordiv", Some(2);
    InplaceDiv = "inplace_div", Some(2);
    InplaceMod = "inplace_mod", Some(2);
    InplacePow = "inplace_pow", Some(2);
    InplaceLShift = "inplace_lshift", Some(2);
    InplaceRShift = "inplace_rshift", Some(2);
    InplaceAnd = "inplace_and", Some(2);
    InplaceOr = "inplace_or", Some(2);
    InplaceXor = "inplace_xor", Some(2);
    Lt = "lt", Some(2);
    Le = "le", Some(2);
    Eq = "eq", Some(2);
    Ne = "ne", Some(2);
    Gt = "gt", Some(2);
    Ge = "ge", Some(2);
    Contains = "contains", Some(2);
    Iter = "iter", Some(1);
    Next = "next", Some(1);
    NewTuple = "newtuple", None;
    NewList = "newlist", None;
    NewDict = "newdict", None;
    NewSet = "newset", None;
    NewSlice = "newslice", Some(3);
    SimpleCall = "simple_call", None;
    CallArgs = "call_args", None;
    YieldValue = "yield_", Some(1);
    Hint = "hint", None;
}

impl Op {
    pub fn binary(op: BinOp) -> Op {
        match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            BinOp::Div => Op::Div,
            BinOp::TrueDiv => Op::TrueDiv,
            BinOp::FloorDiv => Op::FloorDiv,
            BinOp::Mod => Op::Mod,
            BinOp::Pow => Op::Pow,
            BinOp::LShift => Op::LShift,
            BinOp::RShift => Op::RShift,
            BinOp::And => Op::And,
            BinOp::Or => Op::Or,
            BinOp::Xor => Op::Xor,
        }
    }
    pub fn inplace(op: BinOp) -> Op {
        match op {
            BinOp::Add => Op::InplaceAdd,
            BinOp::Sub => Op::InplaceSub,
            BinOp::Mul => Op::InplaceMul,
            BinOp::Div => Op::InplaceDiv,
            BinOp::TrueDiv => Op::InplaceTrueDiv,
            BinOp::FloorDiv => Op::InplaceFloorDiv,
            BinOp::Mod => Op::InplaceMod,
            BinOp::Pow => Op::InplacePow,
            BinOp::LShift => Op::InplaceLShift,
            BinOp::RShift => Op::InplaceRShift,
            BinOp::And => Op::InplaceAnd,
            BinOp::Or => Op::InplaceOr,
            BinOp::Xor => Op::InplaceXor,
        }
    }
    pub fn unary(op: UnOp) -> Op {
        match op {
            UnOp::Neg => Op::Neg,
            UnOp::Pos => Op::Pos,
            UnOp::Invert => Op::Invert,
        }
    }
    /// Comparison operations; `None` for the ones the interpreter builds from others
    /// (`not in`, `is not`, exception matching).
    pub fn compare(op: CmpOp) -> Option<Op> {
        Some(match op {
            CmpOp::Lt => Op::Lt,
            CmpOp::Le => Op::Le,
            CmpOp::Eq => Op::Eq,
            CmpOp::Ne => Op::Ne,
            CmpOp::Gt => Op::Gt,
            CmpOp::Ge => Op::Ge,
            CmpOp::Is => Op::Is,
            CmpOp::In => Op::Contains,
            CmpOp::NotIn | CmpOp::IsNot | CmpOp::ExcMatch => return None,
        })
    }

    /// The operations with an overflow-checking variant: those `ovfcheck()` may wrap
    /// directly (the typer turns `ovfcheck(x + y)` into `int_add_ovf`).
    pub fn has_ovf_variant(self) -> bool {
        use Op::*;
        matches!(
            self,
            Add | Sub | Mul | FloorDiv | Div | Mod | LShift | Neg | Abs
        )
    }

    /// Operations without side effects whose result depends only on their arguments: the
    /// flow space folds them when all arguments are constants. Not `Int`, `Float` and
    /// `Long`: they come from calls of the built-in types, which the reference's flow
    /// space leaves as calls (so `float(7) / 2` is computed, and printed, at run time).
    pub fn is_pure(self) -> bool {
        use Op::*;
        matches!(
            self,
            Is | Type
                | IsSubtype
                | IsInstance
                | Repr
                | Str
                | Len
                | GetItem
                | GetSlice
                | Pos
                | Neg
                | Bool
                | Invert
                | Abs
                | Hex
                | Oct
                | Ord
                | NewTuple
                | Divmod
                | Cmp
                | Add
                | Sub
                | Mul
                | TrueDiv
                | FloorDiv
                | Div
                | Mod
                | Pow
                | LShift
                | RShift
                | And
                | Or
                | Xor
                | Lt
                | Le
                | Eq
                | Ne
                | Gt
                | Ge
                | Contains
                | GetAttr
        )
    }

    /// Operations the reference's flow-graph simplification deletes when their result is
    /// never used (its `transform_dead_op_vars`, before annotation): the annotator never
    /// sees them, so `y = a.missing` or `z = n + "s"` with `y`, `z` unused is accepted.
    /// Unless it is the operation a `try` catches the exceptions of. Not `Type`, `Int`,
    /// `Float`, `Long`: the reference leaves those as calls of the built-in types.
    pub fn removable_when_dead(self) -> bool {
        use Op::*;
        // the foldable operations, less `type` and `getslice` (not in the reference's
        // list), and the containers and lookups it also deletes
        (self.is_pure() && !matches!(self, Type | GetSlice))
            || matches!(self, NewList | NewDict | Id | Hash | Iter)
    }

    /// Built-in exception classes (by name) this operation can raise implicitly, which an
    /// enclosing `try` can catch (seed 002, "Exception rules"). Calls can raise anything.
    pub fn canraise(self) -> &'static [&'static str] {
        use Op::*;
        match self {
            SimpleCall | CallArgs => &["Exception"],
            GetItem | SetItem | DelItem => &["IndexError", "KeyError", "Exception"],
            Contains => &["Exception"],
            Next => &["StopIteration", "RuntimeError"],
            Div | Mod | TrueDiv | Divmod | FloorDiv | InplaceDiv | InplaceMod | InplaceTrueDiv
            | InplaceFloorDiv => &["ZeroDivisionError"],
            Pow | InplacePow => &["ZeroDivisionError", "ValueError"],
            LShift | RShift | InplaceLShift | InplaceRShift => &["ValueError"],
            // int(x) and float(x): calls of the built-in types, which raise ValueError
            Int | Float => &["ValueError"],
            _ => &[],
        }
    }
}
