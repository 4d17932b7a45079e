//! Evaluation of one low-level operation: integer, float, char and pointer operations,
//! casts, memory access and calls.

use super::code::{DecodedOp, Interior, Operand, UNRESOLVED};
use super::{LlInterpreter, Unwind};
use crate::flowspace::{FunctionGraph, SpaceOperation};
use crate::lltypesystem::heap::HeapError;
use crate::lltypesystem::{LlHeap, LlOp, LlPtr, LlType, LlValue, Offset};
use crate::rtyper::LlFunction;

type R = Result<LlValue, Unwind>;

fn floordiv(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}
fn floormod(a: i64, b: i64) -> i64 {
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

impl<'p> LlInterpreter<'p> {
    fn fatal(&self, op: &SpaceOperation, msg: impl Into<String>) -> Unwind {
        Unwind::Fatal {
            msg: msg.into(),
            span: op.span,
        }
    }

    /// The most negative integer divided by -1: the quotient does not fit, and the C
    /// division traps; only `ovfcheck()` makes it an OverflowError.
    fn division_overflow(&self, op: &SpaceOperation) -> Unwind {
        self.fatal(
            op,
            format!("{}integer overflow: the most negative int divided by -1 without ovfcheck() (SIGFPE)", super::TRAP),
        )
    }

    /// An integer division by zero where no ZeroDivisionError handler is: the C division
    /// traps.
    fn division_by_zero(&self, op: &SpaceOperation) -> Unwind {
        self.fatal(
            op,
            format!(
                "{}division by zero without a ZeroDivisionError handler in this function (SIGFPE)",
                super::TRAP
            ),
        )
    }

    /// A failed memory access: an index out of bounds is the program's undefined
    /// behaviour (the RTyper emits unchecked accesses where no IndexError handler is);
    /// anything else is named with the operation.
    /// The item type to read raw memory as for an array access through `p` (see
    /// `LlHeap::raw_load`): a pointer into raw `char` memory (`ptradd`), or one whose static
    /// type says numbers other than characters (`dop.aux`) to a raw `char` array (a
    /// `cast` of a buffer); `None` for an ordinary array access.
    fn raw_view(&self, p: LlPtr, dop: &DecodedOp) -> Option<LlType> {
        let item = (dop.aux != UNRESOLVED).then_some(LlType(dop.aux));
        match p {
            LlPtr::Raw { .. } => Some(item.unwrap_or(LlType::CHAR)),
            LlPtr::Obj { .. } if item.is_some() && self.heap.is_bytes(p) => item,
            _ => None,
        }
    }

    fn heap_err(&self, op: &SpaceOperation, e: HeapError) -> Unwind {
        if let HeapError::IndexOutOfBounds { index, length } = e {
            let what = match op.opname {
                crate::interpreter::Op::Ll(LlOp::GetArrayItem | LlOp::SetArrayItem) => "list",
                _ => "string",
            };
            return self.undefined(
                op.span,
                format!(
                    "{} index {} out of range (length {}) without an IndexError handler",
                    what, index, length
                ),
            );
        }
        if let HeapError::NullDereference = e {
            return self.fatal(
                op,
                format!("{}{} (in `{}`)", super::SEGV, e, op.opname.name()),
            );
        }
        self.fatal(op, format!("{} (in `{}`)", e, op.opname.name()))
    }

    pub(super) fn eval_op(
        &mut self,
        graph: &'p FunctionGraph,
        frame: &[LlValue],
        dop: &DecodedOp<'p>,
    ) -> R {
        let op = dop.src;
        let Some(o) = dop.op else {
            return Err(self.fatal(
                op,
                format!(
                    "high-level operation `{}` in a low-level graph",
                    op.opname.name()
                ),
            ));
        };
        let args = &dop.args;
        // a macro, not a closure: in a function this large the closure is not inlined
        macro_rules! a {
            ($i:expr) => {
                args[$i].get(frame)
            };
        }
        if let Some(v) = pure_op(o, args, frame) {
            return Ok(v);
        }
        use LlOp::*;
        Ok(match o {
            IntFloorDiv | IntMod | IntPyDiv | IntPyMod | LlongPyDiv | LlongPyMod => {
                let (x, y) = (a!(0).as_int(), a!(1).as_int());
                if y == 0 {
                    return Err(self.division_by_zero(op));
                }
                if x == i64::MIN && y == -1 {
                    return Err(self.division_overflow(op));
                }
                LlValue::Int(match o {
                    IntFloorDiv => x.wrapping_div(y),
                    IntMod => x.wrapping_rem(y),
                    IntPyDiv | LlongPyDiv => floordiv(x, y),
                    _ => floormod(x, y),
                })
            }
            IntPyDivZer | IntPyModZer | LlongPyDivZer | LlongPyModZer | IntPyDivOvfZer
            | IntPyModOvfZer => {
                let (x, y) = (a!(0).as_int(), a!(1).as_int());
                if y == 0 {
                    return Err(self.raise_std("ZeroDivisionError"));
                }
                if x == i64::MIN && y == -1 {
                    if matches!(o, IntPyDivOvfZer | IntPyModOvfZer) {
                        return Err(self.raise_std("OverflowError"));
                    }
                    return Err(self.division_overflow(op));
                }
                LlValue::Int(
                    if matches!(o, IntPyDivZer | LlongPyDivZer | IntPyDivOvfZer) {
                        floordiv(x, y)
                    } else {
                        floormod(x, y)
                    },
                )
            }
            LllongPyDiv | LllongPyMod | LllongPyDivZer | LllongPyModZer => {
                let y = a!(1).as_i128();
                if y == 0 {
                    if matches!(o, LllongPyDivZer | LllongPyModZer) {
                        return Err(self.raise_std("ZeroDivisionError"));
                    }
                    return Err(self.division_by_zero(op));
                }
                match crate::lltypesystem::int128::eval(o, a!(0), a!(1)) {
                    Some(v) => v,
                    None => return Err(self.division_overflow(op)),
                }
            }
            IntAddOvf => match a!(0).as_int().checked_add(a!(1).as_int()) {
                Some(v) => LlValue::Int(v),
                None => return Err(self.raise_std("OverflowError")),
            },
            IntSubOvf => match a!(0).as_int().checked_sub(a!(1).as_int()) {
                Some(v) => LlValue::Int(v),
                None => return Err(self.raise_std("OverflowError")),
            },
            IntMulOvf => match a!(0).as_int().checked_mul(a!(1).as_int()) {
                Some(v) => LlValue::Int(v),
                None => return Err(self.raise_std("OverflowError")),
            },
            IntNegOvf => match a!(0).as_int().checked_neg() {
                Some(v) => LlValue::Int(v),
                None => return Err(self.raise_std("OverflowError")),
            },
            IntAbsOvf => match a!(0).as_int().checked_abs() {
                Some(v) => LlValue::Int(v),
                None => return Err(self.raise_std("OverflowError")),
            },
            IntLshiftOvf => {
                // the reference's ll_int_lshift_ovf: (x << s) >> s must give x back
                let (x, s) = (a!(0).as_int(), a!(1).as_int() as u32);
                let r = x.wrapping_shl(s);
                if r.wrapping_shr(s) != x {
                    return Err(self.raise_std("OverflowError"));
                }
                LlValue::Int(r)
            }
            UintFloorDiv | UintMod | UllongFloorDiv | UllongMod | UintFloorDivZer | UintModZer
            | UllongFloorDivZer | UllongModZer => {
                let (x, y) = (a!(0).as_uint(), a!(1).as_uint());
                if y == 0 {
                    if matches!(
                        o,
                        UintFloorDivZer | UintModZer | UllongFloorDivZer | UllongModZer
                    ) {
                        return Err(self.raise_std("ZeroDivisionError"));
                    }
                    return Err(self.division_by_zero(op));
                }
                LlValue::Uint(
                    if matches!(
                        o,
                        UintFloorDiv | UllongFloorDiv | UintFloorDivZer | UllongFloorDivZer
                    ) {
                        x / y
                    } else {
                        x % y
                    },
                )
            }
            CastPrimitive => {
                let to = graph.concretetype[op.result.0 as usize];
                cast_primitive(a!(0), to)
            }
            Malloc | MallocVarsize => {
                let LlValue::Type(t) = a!(0) else {
                    return Err(self.fatal(op, "malloc of a non-type"));
                };
                let n = if o == MallocVarsize {
                    a!(1).as_int().max(0) as usize
                } else {
                    0
                };
                if exceeds_memory(&self.prog.types, t, n) {
                    return Err(self.raise_std("MemoryError"));
                }
                LlValue::Ptr(self.heap.malloc_raw(&self.prog.types, t, n))
            }
            // (a structure in raw memory has no slots: its fields are bytes, looked up
            // only when the slot access fails, to keep the common case cheap)
            GetField => {
                let (p, slot) = self.field_args(graph, frame, dop)?;
                match self.heap.get_slot(p, slot) {
                    Ok(v) => v,
                    Err(_) if self.heap.is_bytes(p) => {
                        let (p, t) = self.raw_field(graph, frame, dop)?;
                        self.heap
                            .raw_load(p, 0, t)
                            .map_err(|e| self.heap_err(op, e))?
                    }
                    Err(e) => return Err(self.heap_err(op, e)),
                }
            }
            SetField => {
                let (p, slot) = self.field_args(graph, frame, dop)?;
                match self.heap.set_slot(p, slot, a!(2)) {
                    Ok(()) => {}
                    Err(_) if self.heap.is_bytes(p) => {
                        let (p, t) = self.raw_field(graph, frame, dop)?;
                        self.heap
                            .raw_store(p, 0, t, a!(2))
                            .map_err(|e| self.heap_err(op, e))?;
                    }
                    Err(e) => return Err(self.heap_err(op, e)),
                }
                LlValue::Void
            }
            GetSubstruct => {
                let p = a!(0).as_ptr();
                match p {
                    LlPtr::Obj { obj, .. } => LlValue::Ptr(LlPtr::Obj { obj, inner: true }),
                    _ => return Err(self.heap_err(op, HeapError::NullDereference)),
                }
            }
            GetArrayItem => {
                let p = a!(0).as_ptr();
                let r = match self.raw_view(p, dop) {
                    Some(item) => self.heap.raw_load(p, a!(1).as_int(), item),
                    None => self.heap.getitem(p, a!(1).as_int()),
                };
                r.map_err(|e| self.heap_err(op, e))?
            }
            SetArrayItem => {
                let p = a!(0).as_ptr();
                let r = match self.raw_view(p, dop) {
                    Some(item) => self.heap.raw_store(p, a!(1).as_int(), item, a!(2)),
                    None => self.heap.setitem(p, a!(1).as_int(), a!(2)),
                };
                r.map_err(|e| self.heap_err(op, e))?;
                LlValue::Void
            }
            CastPtrToInt => {
                let p = a!(0).as_ptr();
                LlValue::Int(match p {
                    // memory of bytes has the address a pointer into it counts from
                    // (`memchr(p, …) - p`)
                    LlPtr::Obj { obj, inner: false } if self.heap.is_bytes(p) => {
                        ptr_address(LlPtr::Raw { obj, off: 0 })
                    }
                    _ => ptr_address(p),
                })
            }
            CastIntToPtr => LlValue::Ptr(address_ptr(a!(0).as_int(), self.heap.containers.len())),
            DirectPtradd => LlValue::Ptr(
                self.heap
                    .ptradd(
                        a!(0).as_ptr(),
                        a!(1).as_int(),
                        (dop.aux != UNRESOLVED).then_some(dop.aux as usize),
                    )
                    .map_err(|e| self.heap_err(op, e))?,
            ),
            ArrayCopy => {
                let (i, j, n) = (a!(2).as_int(), a!(3).as_int(), a!(4).as_int());
                self.heap
                    .copy_items(a!(0).as_ptr(), a!(1).as_ptr(), i, j, n)
                    .map_err(|e| self.heap_err(op, e))?;
                LlValue::Void
            }
            GetArraySize | GetInteriorArraySize => LlValue::Int(
                self.heap
                    .len(a!(0).as_ptr())
                    .map_err(|e| self.heap_err(op, e))? as i64,
            ),
            GetInteriorField | SetInteriorField => {
                let p = a!(0).as_ptr();
                let ty = graph
                    .concretetype_of(op.args[0])
                    .and_then(|t| self.prog.types.pointee(t))
                    .unwrap_or(LlType::VOID);
                let nargs = if o == SetInteriorField {
                    op.args.len() - 1
                } else {
                    op.args.len()
                };
                let path: Vec<Offset> = args[1..nargs]
                    .iter()
                    .map(|x| match x.get(frame) {
                        LlValue::Name(s) => Offset::Field(s.as_str().into()),
                        v => Offset::Index(v.as_int()),
                    })
                    .collect();
                if o == SetInteriorField {
                    self.heap
                        .setinterior(&self.prog.types, p, ty, &path, a!(nargs))
                        .map_err(|e| self.heap_err(op, e))?;
                    LlValue::Void
                } else {
                    // (`s[len(s)]` reads a string's terminating NUL: the heap allocates it)
                    self.heap
                        .getinterior(&self.prog.types, p, ty, &path)
                        .map_err(|e| self.heap_err(op, e))?
                }
            }
            DirectCall | IndirectCall => {
                let LlPtr::Func(f) = a!(0).as_ptr() else {
                    // a method some classes of its family lack has a null vtable slot: the
                    // compiled program jumps to address 0 and dies of SIGSEGV
                    return Err(self.fatal(
                        op,
                        format!("{}call of a null function pointer", super::SEGV),
                    ));
                };
                // arguments of the usual few on the stack, not in a fresh vector per call
                let mut small = [LlValue::Void; 8];
                let spilled: Vec<LlValue>;
                let args: &[LlValue] = if args.len() - 1 <= small.len() {
                    for (s, x) in small.iter_mut().zip(&args[1..]) {
                        *s = x.get(frame);
                    }
                    &small[..args.len() - 1]
                } else {
                    spilled = args[1..].iter().map(|x| x.get(frame)).collect();
                    &spilled
                };
                let mark = self.push_roots(&dop.live, frame);
                let res = match &self.prog.functions[f as usize] {
                    LlFunction::Graph { graph: g, .. } => self.call_graph_at(*g, args, op),
                    LlFunction::Runtime(rf) => {
                        let rf = *rf;
                        let rty = graph.concretetype[op.result.0 as usize];
                        self.call_runtime(rf, args, rty, op.span)
                    }
                    LlFunction::C(decl) => {
                        let rty = graph.concretetype[op.result.0 as usize];
                        self.call_c(decl, args, rty, op.span)
                    }
                };
                self.gc_roots.truncate(mark);
                res?
            }
            WeakrefCreate => {
                let Some(t) = self.prog.weakref else {
                    return Err(self.fatal(op, "weakref_create without a weakref type"));
                };
                let w = self.heap.malloc(&self.prog.types, t, 0);
                self.heap
                    .set_slot(w, 0, a!(0))
                    .map_err(|e| self.heap_err(op, e))?;
                LlValue::Ptr(w)
            }
            WeakrefDeref => match a!(0).as_ptr() {
                LlPtr::Null => LlValue::Ptr(LlPtr::Null),
                w => self.heap.get_slot(w, 0).map_err(|e| self.heap_err(op, e))?,
            },
            GcCollect => {
                self.collect(&dop.live, frame);
                LlValue::Void
            }
            FuncsetCheck => {
                if !matches!(a!(0).as_ptr(), LlPtr::Func(_)) {
                    // the reference's dispatcher switch: abort(), no message
                    return Err(super::Unwind::Exit(134));
                }
                LlValue::Void
            }
            DebugAssert => {
                if !a!(0).as_bool() {
                    return Err(self.fatal(op, format!("{}AssertionError", super::FATAL)));
                }
                LlValue::Void
            }
            DebugFatalError => return Err(self.fatal(op, "fatal error")),
            DebugUndefined => {
                let LlValue::Name(template) = a!(0) else {
                    return Err(self.fatal(op, "debug_undefined without a message"));
                };
                let mut msg = String::new();
                let mut values = (1..args.len()).map(|i| a!(i).as_int());
                for (k, piece) in template.as_str().split("{}").enumerate() {
                    if k > 0 {
                        msg.push_str(&values.next().unwrap_or(0).to_string());
                    }
                    msg.push_str(piece);
                }
                return Err(self.undefined(op.span, msg));
            }
            // evaluated by `pure_op` above
            _ => return Err(self.fatal(op, format!("`{}` is not implemented", o.name()))),
        })
    }

    /// A call of graph `g`: a stop inside a low-level helper (bundled code) is reported
    /// at the call, so it names the user's line.
    fn call_graph_at(&mut self, g: u32, args: &[LlValue], op: &SpaceOperation) -> R {
        self.call_graph(g, args).map_err(|e| match e {
            Unwind::Fatal { msg, span }
                if span == crate::syntax::Span::default()
                    || self.prog.bundled_files.contains(&span.file) =>
            {
                Unwind::Fatal { msg, span: op.span }
            }
            other => other,
        })
    }

    /// A field of a structure in raw memory (raw `char`s cast to a structure pointer, as a
    /// C program allocates a structure): a pointer to its first byte, at the offset C's
    /// layout gives it (each field aligned to its size), and its type.
    fn raw_field(
        &self,
        graph: &FunctionGraph,
        frame: &[LlValue],
        dop: &DecodedOp<'p>,
    ) -> Result<(LlPtr, LlType), Unwind> {
        let op = dop.src;
        let p = dop.args[0].get(frame).as_ptr();
        let LlValue::Name(f) = dop.args[1].get(frame) else {
            return Err(self.fatal(op, "field access without a field name"));
        };
        let types = &self.prog.types;
        let ct = graph.concretetype_of(op.args[0]).unwrap_or(LlType::VOID);
        let s = types.pointee(ct).unwrap_or(LlType::VOID);
        let crate::lltypesystem::TypeDef::Struct { fields, .. } = types.def(s) else {
            return Err(self.heap_err(op, HeapError::NoSuchField(f.as_str().into())));
        };
        let mut off = 0usize;
        for (name, t) in fields {
            let size = crate::lltypesystem::heap::raw_item_size(*t).unwrap_or(8);
            off = off.div_ceil(size) * size;
            if **name == *f.as_str() {
                let at = self.heap.ptradd(p, off as i64, Some(1));
                return Ok((at.map_err(|e| self.heap_err(op, e))?, *t));
            }
            off += size;
        }
        Err(self.heap_err(op, HeapError::NoSuchField(f.as_str().into())))
    }

    /// The pointer and the field's flattened slot of a getfield/setfield (decoded ahead of
    /// time, else looked up and cached per structure and field name).
    fn field_args(
        &mut self,
        graph: &FunctionGraph,
        frame: &[LlValue],
        dop: &DecodedOp<'p>,
    ) -> Result<(LlPtr, usize), Unwind> {
        let op = dop.src;
        let p = dop.args[0].get(frame).as_ptr();
        if p == LlPtr::Null {
            return Err(self.heap_err(op, HeapError::NullDereference));
        }
        if dop.aux != UNRESOLVED {
            return Ok((p, dop.aux as usize));
        }
        let LlValue::Name(f) = dop.args[1].get(frame) else {
            return Err(self.fatal(op, "field access without a field name"));
        };
        let ct = graph.concretetype_of(op.args[0]).unwrap_or(LlType::VOID);
        if let Some(&slot) = self.slot_cache.get(&(ct, f)) {
            return Ok((p, slot));
        }
        let s = self.prog.types.pointee(ct).unwrap_or(LlType::VOID);
        let Some((slot, _)) = self.prog.types.field_slot(s, f.as_str()) else {
            return Err(self.heap_err(op, HeapError::NoSuchField(f.as_str().into())));
        };
        self.slot_cache.insert((ct, f), slot);
        Ok((p, slot))
    }
}

/// The operations that only compute a value from their arguments (no heap, no exception, no
/// types): evaluated inline by the interpreter loop, before the general `eval_op`.
// Inlined in optimised builds only: in a debug build its temporaries would enlarge every
// recursion level of the interpreter loop's frame.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn pure_op(o: LlOp, args: &[Operand], frame: &[LlValue]) -> Option<LlValue> {
    macro_rules! a {
        ($i:expr) => {
            args[$i].get(frame)
        };
    }
    use LlOp::*;
    Some(match o {
        SameAs => a!(0),
        IntIsTrue | UintIsTrue | LlongIsTrue | UllongIsTrue => LlValue::Bool(a!(0).as_int() != 0),
        IntNeg | LlongNeg => LlValue::Int(a!(0).as_int().wrapping_neg()),
        IntAbs | LlongAbs => LlValue::Int(a!(0).as_int().wrapping_abs()),
        IntInvert | LlongInvert => LlValue::Int(!a!(0).as_int()),
        IntAdd | LlongAdd => LlValue::Int(a!(0).as_int().wrapping_add(a!(1).as_int())),
        IntSub | LlongSub => LlValue::Int(a!(0).as_int().wrapping_sub(a!(1).as_int())),
        IntMul | LlongMul => LlValue::Int(a!(0).as_int().wrapping_mul(a!(1).as_int())),
        IntLt | LlongLt => LlValue::Bool(a!(0).as_int() < a!(1).as_int()),
        IntLe | LlongLe => LlValue::Bool(a!(0).as_int() <= a!(1).as_int()),
        IntEq | LlongEq => LlValue::Bool(a!(0).as_int() == a!(1).as_int()),
        IntNe | LlongNe => LlValue::Bool(a!(0).as_int() != a!(1).as_int()),
        IntGt | LlongGt => LlValue::Bool(a!(0).as_int() > a!(1).as_int()),
        IntGe | LlongGe => LlValue::Bool(a!(0).as_int() >= a!(1).as_int()),
        IntAnd | LlongAnd => LlValue::Int(a!(0).as_int() & a!(1).as_int()),
        IntOr | LlongOr => LlValue::Int(a!(0).as_int() | a!(1).as_int()),
        IntXor | LlongXor => LlValue::Int(a!(0).as_int() ^ a!(1).as_int()),
        // The reference emits C's shifts with their range check off (-O2): a count outside
        // 0..63 does what the x86-64 instructions do, which take it modulo 64 (as
        // wrapping_shl/shr do).
        IntLshift | LlongLshift => LlValue::Int(a!(0).as_int().wrapping_shl(a!(1).as_int() as u32)),
        IntRshift | LlongRshift => LlValue::Int(a!(0).as_int().wrapping_shr(a!(1).as_int() as u32)),
        IntBetween => {
            let b = a!(1).as_int();
            LlValue::Bool(a!(0).as_int() <= b && b < a!(2).as_int())
        }
        LllongIsTrue | LllongNeg | LllongAbs | LllongInvert => {
            return crate::lltypesystem::int128::eval(o, a!(0), LlValue::Void)
        }
        LllongAdd | LllongSub | LllongMul | LllongLt | LllongLe | LllongEq | LllongNe
        | LllongGt | LllongGe | LllongAnd | LllongOr | LllongXor | LllongLshift | LllongRshift => {
            return crate::lltypesystem::int128::eval(o, a!(0), a!(1))
        }
        UintInvert | UllongInvert => LlValue::Uint(!a!(0).as_uint()),
        UintAdd | UllongAdd => LlValue::Uint(a!(0).as_uint().wrapping_add(a!(1).as_uint())),
        UintSub | UllongSub => LlValue::Uint(a!(0).as_uint().wrapping_sub(a!(1).as_uint())),
        UintMul | UllongMul => LlValue::Uint(a!(0).as_uint().wrapping_mul(a!(1).as_uint())),
        UintLt | UllongLt => LlValue::Bool(a!(0).as_uint() < a!(1).as_uint()),
        UintLe | UllongLe => LlValue::Bool(a!(0).as_uint() <= a!(1).as_uint()),
        UintEq | UllongEq => LlValue::Bool(a!(0).as_uint() == a!(1).as_uint()),
        UintNe | UllongNe => LlValue::Bool(a!(0).as_uint() != a!(1).as_uint()),
        UintGt | UllongGt => LlValue::Bool(a!(0).as_uint() > a!(1).as_uint()),
        UintGe | UllongGe => LlValue::Bool(a!(0).as_uint() >= a!(1).as_uint()),
        UintAnd | UllongAnd => LlValue::Uint(a!(0).as_uint() & a!(1).as_uint()),
        UintOr | UllongOr => LlValue::Uint(a!(0).as_uint() | a!(1).as_uint()),
        UintXor | UllongXor => LlValue::Uint(a!(0).as_uint() ^ a!(1).as_uint()),
        UintLshift | UllongLshift => {
            LlValue::Uint(a!(0).as_uint().wrapping_shl(a!(1).as_int() as u32))
        }
        UintRshift | UllongRshift => {
            LlValue::Uint(a!(0).as_uint().wrapping_shr(a!(1).as_int() as u32))
        }
        FloatIsTrue => LlValue::Bool(a!(0).as_float() != 0.0),
        FloatNeg => LlValue::Float(-a!(0).as_float()),
        FloatAbs => LlValue::Float(a!(0).as_float().abs()),
        FloatAdd => LlValue::Float(a!(0).as_float() + a!(1).as_float()),
        FloatSub => LlValue::Float(a!(0).as_float() - a!(1).as_float()),
        FloatMul => LlValue::Float(a!(0).as_float() * a!(1).as_float()),
        FloatTrueDiv => LlValue::Float(a!(0).as_float() / a!(1).as_float()),
        FloatLt => LlValue::Bool(a!(0).as_float() < a!(1).as_float()),
        FloatLe => LlValue::Bool(a!(0).as_float() <= a!(1).as_float()),
        FloatEq => LlValue::Bool(a!(0).as_float() == a!(1).as_float()),
        FloatNe => LlValue::Bool(a!(0).as_float() != a!(1).as_float()),
        FloatGt => LlValue::Bool(a!(0).as_float() > a!(1).as_float()),
        FloatGe => LlValue::Bool(a!(0).as_float() >= a!(1).as_float()),
        ConvertFloatBytesToLonglong => LlValue::Int(a!(0).as_float().to_bits() as i64),
        ConvertLonglongBytesToFloat => LlValue::Float(f64::from_bits(a!(0).as_int() as u64)),
        CharLt | UnicharLt => LlValue::Bool(a!(0).as_int() < a!(1).as_int()),
        CharLe | UnicharLe => LlValue::Bool(a!(0).as_int() <= a!(1).as_int()),
        CharEq | UnicharEq => LlValue::Bool(a!(0).as_int() == a!(1).as_int()),
        CharNe | UnicharNe => LlValue::Bool(a!(0).as_int() != a!(1).as_int()),
        CharGt | UnicharGt => LlValue::Bool(a!(0).as_int() > a!(1).as_int()),
        CharGe | UnicharGe => LlValue::Bool(a!(0).as_int() >= a!(1).as_int()),
        CastBoolToInt | CastCharToInt | CastUnicharToInt => LlValue::Int(a!(0).as_int()),
        CastBoolToFloat | CastIntToFloat => LlValue::Float(a!(0).as_float()),
        CastIntToChar => LlValue::Char(a!(0).as_int() as u8),
        CastIntToUnichar => LlValue::UniChar(a!(0).as_int() as u32),
        CastFloatToInt => LlValue::Int(c_float_to_signed(a!(0).as_float())),
        PtrEq => LlValue::Bool(a!(0).as_ptr() == a!(1).as_ptr()),
        PtrNe => LlValue::Bool(a!(0).as_ptr() != a!(1).as_ptr()),
        PtrIsZero => LlValue::Bool(a!(0).as_ptr() == LlPtr::Null),
        PtrNonZero => LlValue::Bool(a!(0).as_ptr() != LlPtr::Null),
        // an object's number in the heap never changes while it lives (no moving GC here)
        GcIdentityHash => match a!(0).as_ptr() {
            LlPtr::Obj { obj, .. } => LlValue::Int(obj as i64 * 16),
            _ => LlValue::Int(0),
        },
        CastPointer => a!(0),
        _ => return None,
    })
}

/// The success path of the common memory operations, inline in the interpreter loop. `None`
/// for other operations and when the operation fails: `eval_op` then runs it again and
/// reports why (a failing field or item access changes nothing).
// Inlined in optimised builds only: in a debug build its temporaries would enlarge every
// recursion level of the interpreter loop's frame.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn fast_mem_op(
    heap: &mut LlHeap,
    dop: &DecodedOp,
    frame: &[LlValue],
) -> Option<LlValue> {
    let a = |i: usize| dop.args[i].get(frame);
    match dop.op? {
        LlOp::GetField if dop.aux != UNRESOLVED => {
            heap.get_slot(a(0).as_ptr(), dop.aux as usize).ok()
        }
        LlOp::SetField if dop.aux != UNRESOLVED => heap
            .set_slot(a(0).as_ptr(), dop.aux as usize, a(2))
            .ok()
            .map(|_| LlValue::Void),
        LlOp::GetInteriorField | LlOp::SetInteriorField => {
            let path = dop.interior?;
            let p = a(0).as_ptr();
            if !path.on_array && matches!(p, LlPtr::Obj { inner: true, .. }) {
                return None;
            }
            if dop.op == Some(LlOp::GetInteriorField) {
                match path.place {
                    Interior::Field(s) => heap.get_slot(p, s as usize).ok(),
                    Interior::Item { index, off } => heap
                        .get_item_slot(p, a(index as usize).as_int(), off as usize)
                        .ok(),
                }
            } else {
                let v = a(dop.args.len() - 1);
                match path.place {
                    Interior::Field(s) => heap.set_slot(p, s as usize, v).ok(),
                    Interior::Item { index, off } => heap
                        .set_item_slot(p, a(index as usize).as_int(), off as usize, v)
                        .ok(),
                }
                .map(|_| LlValue::Void)
            }
        }
        LlOp::GetArraySize | LlOp::GetInteriorArraySize => {
            heap.len(a(0).as_ptr()).ok().map(|n| LlValue::Int(n as i64))
        }
        LlOp::GetArrayItem if dop.aux == UNRESOLVED => {
            heap.getitem(a(0).as_ptr(), a(1).as_int()).ok()
        }
        LlOp::SetArrayItem if dop.aux == UNRESOLVED => heap
            .setitem(a(0).as_ptr(), a(1).as_int(), a(2))
            .ok()
            .map(|_| LlValue::Void),
        _ => None,
    }
}

/// C's `(long)x` of a double as the x86-64 binary computes it (cvttsd2si): truncation,
/// and the "integer indefinite" value, the most negative long, for NaN and for a value
/// out of range.
pub(super) fn c_float_to_signed(f: f64) -> i64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if (-TWO_63..TWO_63).contains(&f) {
        f as i64
    } else {
        i64::MIN
    }
}

/// C's `(unsigned long)x` of a double as gcc compiles it for x86-64: below 2**63 the signed
/// conversion, from 2**63 on the signed conversion of x - 2**63 with the top bit flipped.
pub(super) fn c_float_to_unsigned(f: f64) -> u64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO_63 {
        (c_float_to_signed(f - TWO_63) as u64) ^ (1 << 63)
    } else {
        c_float_to_signed(f) as u64
    }
}

pub(super) fn cast_primitive(v: LlValue, to: LlType) -> LlValue {
    match to {
        LlType::SIGNED | LlType::SIGNEDLONGLONG => LlValue::Int(match v {
            LlValue::Float(f) => c_float_to_signed(f),
            other => other.as_int(),
        }),
        LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG => LlValue::Uint(match v {
            LlValue::Float(f) => c_float_to_unsigned(f),
            other => other.as_uint(),
        }),
        LlType::SIGNEDLONGLONGLONG => LlValue::int128(v.as_i128()),
        LlType::FLOAT => LlValue::Float(v.as_float()),
        // C's (float): rounded to single precision, kept as the double it is exactly
        LlType::SINGLEFLOAT => LlValue::Float(v.as_float() as f32 as f64),
        _ if to.narrow_bits().is_some() => LlValue::narrow(
            to,
            match v {
                LlValue::Float(f) => c_float_to_signed(f),
                other => other.as_int(),
            },
        ),
        LlType::BOOL => LlValue::Bool(v.as_bool()),
        LlType::CHAR => LlValue::Char(v.as_int() as u8),
        LlType::UNICHAR => LlValue::UniChar(v.as_int() as u32),
        _ => v,
    }
}

// `run` has no raw addresses: a pointer's address is a number that tells the objects apart
// and is a multiple of 16, as C's aligned ones are (a tag in the low bits reads back), and
// NULL is 0. `address_ptr` turns such a number back into its object's pointer; any other
// integer is a pointer to nothing (`LlPtr::Addr`). Memory of bytes (a string, a raw
// buffer) is numbered as raw memory from its start, so that a pointer into it (`ptradd`,
// `memchr`) is its address plus the offset, and that address read back is the pointer
// itself (offset 0) or into it.
const RAW_BASE: i64 = 1 << 44;
const FUNC_BASE: i64 = 1 << 52;

/// The size past which an allocation fails: 1 TiB, more than any machine the reference's
/// binaries run on can give. Their GC computes an object's size with overflow checks and
/// asks the system for a large one, and raises MemoryError when either fails (`[0] * 2**60`,
/// `s * 2**58`); so does `run`, where the LLInterpreter could not hold it anyway.
const MAX_ALLOCATION: usize = 1 << 40;

/// Whether `n` items of the variable-sized type `t` (in C's sizes) exceed [`MAX_ALLOCATION`].
fn exceeds_memory(types: &crate::lltypesystem::LlTypes, t: LlType, n: usize) -> bool {
    let Some(item) = types.varsize_array(t).and_then(|a| types.array_item(a)) else {
        return false;
    };
    let fields = types.flat_fields(item).len().max(1);
    let size = crate::lltypesystem::heap::raw_item_size(item).unwrap_or(8 * fields);
    n.checked_mul(size).is_none_or(|b| b > MAX_ALLOCATION)
}

fn ptr_address(p: LlPtr) -> i64 {
    match p {
        LlPtr::Null => 0,
        LlPtr::Obj { obj, .. } => (obj as i64 + 1) << 4,
        LlPtr::Raw { obj, off } => RAW_BASE + ((obj as i64) << 20) + off as i64,
        LlPtr::Func(f) => FUNC_BASE + ((f as i64) << 4),
        LlPtr::Addr(n) => n,
    }
}

fn address_ptr(n: i64, objects: usize) -> LlPtr {
    if n == 0 {
        return LlPtr::Null;
    }
    if n > 0 && n < RAW_BASE && n & 15 == 0 && ((n >> 4) - 1) < objects as i64 {
        return LlPtr::Obj {
            obj: ((n >> 4) - 1) as u32,
            inner: false,
        };
    }
    if (RAW_BASE..FUNC_BASE).contains(&n) {
        let (obj, off) = ((n - RAW_BASE) >> 20, (n - RAW_BASE) & ((1 << 20) - 1));
        if obj < objects as i64 && off == 0 {
            return LlPtr::Obj {
                obj: obj as u32,
                inner: false,
            };
        }
        if obj < objects as i64 {
            return LlPtr::Raw {
                obj: obj as u32,
                off: off as u32,
            };
        }
    }
    // (a function's address read back stays an address: calls need the function itself)
    LlPtr::Addr(n)
}
