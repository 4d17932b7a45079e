//! Integer arithmetic beyond the 128-bit model: when an operand is a long beyond 128 bits
//! (`1 << 999`, folded by the compiler) or an int/long operation's result leaves i128,
//! the operation is computed on [`BigInt`]s as CPython does, and its result is back in the
//! model when it fits (`(1 << 999) >> 990` is `512L`). What is not computed (see
//! [`crate::biglong`]) stays an unknown, as before.

use crate::biglong::{self, BigInt, IntOp};
use crate::interpreter::Op;
use crate::objspace::object::{Object, Value};
use crate::objspace::ObjSpace;
use std::rc::Rc;

/// The long operation of an object-space operation, if it is one on integers.
fn int_op(op: Op) -> Option<IntOp> {
    Some(match op {
        Op::Add => IntOp::Add,
        Op::Sub => IntOp::Sub,
        Op::Mul => IntOp::Mul,
        // classic division of integers is floor division
        Op::FloorDiv | Op::Div => IntOp::FloorDiv,
        Op::Mod => IntOp::Mod,
        Op::Pow => IntOp::Pow,
        Op::LShift => IntOp::LShift,
        Op::RShift => IntOp::RShift,
        Op::And => IntOp::And,
        Op::Or => IntOp::Or,
        Op::Xor => IntOp::Xor,
        Op::Neg => IntOp::Neg,
        Op::Invert => IntOp::Invert,
        _ => return None,
    })
}

impl ObjSpace {
    /// The value of a Python int or long (one beyond 128 bits included).
    fn big_of(&self, v: Value) -> Option<BigInt> {
        match v {
            Value::Bool(b) => Some(BigInt::from(b as i128)),
            Value::Int(i) => Some(BigInt::from(i as i128)),
            Value::Obj(id) => match self.heap.get(id) {
                Object::Long(i) => Some(BigInt::from(*i)),
                _ => self.heap.big_long(id).map(|i| (**i).clone()),
            },
            _ => None,
        }
    }

    /// The value of a long beyond 128 bits, if `v` is one whose value is known.
    pub(crate) fn big_long_value(&self, v: Value) -> Option<Rc<BigInt>> {
        match v {
            Value::Obj(id) => self.heap.big_long(id).cloned(),
            _ => None,
        }
    }

    /// Whether `v` is a long beyond 128 bits whose value is known.
    pub(crate) fn is_big_long(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if self.heap.big_long(id).is_some())
    }

    /// A long result: in the model when it fits in 128 bits.
    pub(crate) fn new_long(&mut self, i: BigInt) -> Value {
        match biglong::to_i128(&i) {
            Some(small) => self.alloc(Object::Long(small)),
            None => Value::Obj(self.heap.alloc_big_long(Rc::new(i))),
        }
    }

    /// `op` on the integers `args` computed as longs, when one of them is a long beyond
    /// 128 bits or `always` (the operation's result left i128); `None` when the operands
    /// are not integers or the long arithmetic does not compute it.
    pub(super) fn long_op(&mut self, op: Op, args: &[Value], always: bool) -> Option<Value> {
        if !always && !args.iter().any(|&a| self.is_big_long(a)) {
            return None;
        }
        let op = int_op(op)?;
        let r = match args {
            [a] => biglong::unary(op, &self.big_of(*a)?)?,
            [a, b] => biglong::binary(op, &self.big_of(*a)?, &self.big_of(*b)?)?,
            _ => return None,
        };
        Some(self.new_long(r))
    }
}
