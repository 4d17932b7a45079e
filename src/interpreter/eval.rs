//! The frame interpreter: one loop over the bytecode that keeps the value stack and the block
//! stack and asks the object space for every operation on values.

use super::frame::{Frame, Handler};
use super::operation::Op;
use super::space::{Branch, CallArgs, Fork, IterNext, OpResult, Space, Unwind};
use crate::compiler::{CmpOp, Const, Instr};
use crate::objspace::object::Value;

/// Runs `frame` until it returns (`Ok`), raises out of it (`Err(Raise)`), or the space stops
/// it (`Fork`, `Stop`, `Error`).
pub fn eval<S: Space>(space: &mut S, frame: &mut Frame<S::Value>) -> OpResult<S::Value> {
    loop {
        let pc = frame.state.pc as usize;
        let Some(&instr) = frame.code.co_code.get(pc) else {
            // Falling off the end only happens in code the compiler ends with a return.
            return Ok(space.wrap(Value::None));
        };
        space.set_span(frame.code.co_spans[pc]);
        space.before_instr(frame)?;
        frame.state.pc += 1;
        match step(space, frame, instr) {
            Ok(Some(ret)) => return Ok(ret),
            Ok(None) => space.after_instr(frame)?,
            Err(Unwind::Raise { etype, evalue }) => match frame.state.blocks.pop() {
                Some(Handler { target, depth }) => {
                    frame.state.stack.truncate(depth as usize);
                    frame.push(evalue);
                    frame.push(etype);
                    frame.state.pc = target;
                }
                None => return Err(Unwind::Raise { etype, evalue }),
            },
            Err(other) => return Err(other),
        }
    }
}

/// Executes one instruction; `Ok(Some(v))` when the frame returns `v`.
fn step<S: Space>(
    space: &mut S,
    f: &mut Frame<S::Value>,
    instr: Instr,
) -> OpResult<S::Value, Option<S::Value>> {
    let code = f.code.clone();
    match instr {
        Instr::Nop => {}
        Instr::PopTop => {
            f.pop();
        }
        Instr::RotTwo => {
            let n = f.state.stack.len();
            f.state.stack.swap(n - 1, n - 2);
        }
        Instr::RotThree => {
            let top = f.pop();
            let n = f.state.stack.len();
            f.state.stack.insert(n - 2, top);
        }
        Instr::DupTop => {
            let v = f.top().clone();
            f.push(v);
        }
        Instr::DupTopTwo => {
            let n = f.state.stack.len();
            let (a, b) = (f.state.stack[n - 2].clone(), f.state.stack[n - 1].clone());
            f.push(a);
            f.push(b);
        }
        Instr::LoadConst(i) => {
            let v = space.constant(&code.co_consts[i as usize]);
            f.push(v);
        }
        Instr::LoadFast(i) => match f.state.locals[i as usize].clone() {
            Some(v) => f.push(v),
            None => return Err(space.unbound_local(&code.co_varnames[i as usize])),
        },
        Instr::StoreFast(i) => {
            let v = f.pop();
            f.state.locals[i as usize] = Some(v);
        }
        Instr::DeleteFast(i) => {
            if f.state.locals[i as usize].take().is_none() {
                return Err(space.unbound_local(&code.co_varnames[i as usize]));
            }
        }
        Instr::LoadName(i) => {
            let ns = f.namespace.unwrap_or(f.globals);
            let v = space.load_name(ns, f.globals, &code.co_names[i as usize])?;
            f.push(v);
        }
        Instr::StoreName(i) => {
            let v = f.pop();
            space.store_name(
                f.namespace.unwrap_or(f.globals),
                &code.co_names[i as usize],
                v,
            )?;
        }
        Instr::DeleteName(i) => {
            space.delete_name(f.namespace.unwrap_or(f.globals), &code.co_names[i as usize])?
        }
        Instr::LoadGlobal(i) => {
            let v = space.load_global(f.globals, &code.co_names[i as usize])?;
            f.push(v);
        }
        Instr::StoreGlobal(i) => {
            let v = f.pop();
            space.store_global(f.globals, &code.co_names[i as usize], v)?;
        }
        Instr::DeleteGlobal(i) => space.delete_global(f.globals, &code.co_names[i as usize])?,
        Instr::LoadDeref(i) => {
            let cell = f.cells[i as usize].clone();
            let v = space.cell_get(&cell, &cell_name(&code, i))?;
            f.push(v);
        }
        Instr::StoreDeref(i) => {
            let v = f.pop();
            let cell = f.cells[i as usize].clone();
            space.cell_set(&cell, v)?;
        }
        Instr::LoadClosure(i) => {
            let cell = f.cells[i as usize].clone();
            f.push(cell);
        }
        Instr::LoadAttr(i) => {
            let obj = f.pop();
            let name = space.name_const(&code.co_names[i as usize]);
            let v = space.op(Op::GetAttr, &[obj, name])?;
            f.push(v);
        }
        Instr::StoreAttr(i) => {
            let obj = f.pop();
            let v = f.pop();
            let name = space.name_const(&code.co_names[i as usize]);
            space.op(Op::SetAttr, &[obj, name, v])?;
        }
        Instr::DeleteAttr(i) => {
            let obj = f.pop();
            let name = space.name_const(&code.co_names[i as usize]);
            space.op(Op::DelAttr, &[obj, name])?;
        }
        Instr::Unary(op) => {
            let a = f.pop();
            let v = space.op(Op::unary(op), &[a])?;
            f.push(v);
        }
        Instr::Binary(op) => {
            let b = f.pop();
            let a = f.pop();
            let v = space.op(Op::binary(op), &[a, b])?;
            f.push(v);
        }
        Instr::Inplace(op) => {
            let b = f.pop();
            let a = f.pop();
            let v = space.op(Op::inplace(op), &[a, b])?;
            f.push(v);
        }
        Instr::Compare(cmp) => {
            let b = f.pop();
            let a = f.pop();
            match cmp {
                CmpOp::ExcMatch => {
                    // a tuple guard: one test per class, in order, each a branch of its own
                    let mut guard = b;
                    while let Some((first, rest)) = space.exc_guard_split(&guard) {
                        let v = space.exc_match(&a, &first)?;
                        match space.branch(&v)? {
                            Branch::Known(false) => guard = rest,
                            Branch::Known(true) => {
                                guard = first;
                                break;
                            }
                            Branch::Unknown => {
                                let mut if_true = f.state_at(f.state.pc);
                                if_true.stack.push(space.wrap(Value::Bool(true)));
                                // the other classes: this instruction again, on the rest
                                let mut if_false = f.state_at(f.state.pc - 1);
                                if_false.stack.push(a);
                                if_false.stack.push(rest);
                                return Err(Unwind::Fork(Box::new(Fork::Branch {
                                    cond: v,
                                    if_true,
                                    if_false,
                                })));
                            }
                        }
                    }
                    let v = space.exc_match(&a, &guard)?;
                    f.push(v);
                }
                CmpOp::NotIn | CmpOp::IsNot => {
                    let r = if cmp == CmpOp::NotIn {
                        space.op(Op::Contains, &[b, a])?
                    } else {
                        space.op(Op::Is, &[a, b])?
                    };
                    return negate(space, f, r).map(|_| None);
                }
                CmpOp::In => {
                    let v = space.op(Op::Contains, &[b, a])?;
                    f.push(v);
                }
                _ => {
                    let op = Op::compare(cmp).expect("plain comparison");
                    let v = space.op(op, &[a, b])?;
                    f.push(v);
                }
            }
        }
        Instr::Subscr => {
            let i = f.pop();
            let obj = f.pop();
            let v = space.op(Op::GetItem, &[obj, i])?;
            f.push(v);
        }
        Instr::StoreSubscr => {
            let i = f.pop();
            let obj = f.pop();
            let v = f.pop();
            space.op(Op::SetItem, &[obj, i, v])?;
        }
        Instr::DeleteSubscr => {
            let i = f.pop();
            let obj = f.pop();
            space.op(Op::DelItem, &[obj, i])?;
        }
        Instr::Slice { lower, upper } => {
            let (obj, lo, hi) = pop_slice(space, f, lower, upper);
            let v = space.op(Op::GetSlice, &[obj, lo, hi])?;
            f.push(v);
        }
        Instr::StoreSlice { lower, upper } => {
            let (obj, lo, hi) = pop_slice(space, f, lower, upper);
            let v = f.pop();
            space.op(Op::SetSlice, &[obj, lo, hi, v])?;
        }
        Instr::DeleteSlice { lower, upper } => {
            let (obj, lo, hi) = pop_slice(space, f, lower, upper);
            space.op(Op::DelSlice, &[obj, lo, hi])?;
        }
        Instr::BuildSlice(n) => {
            let mut items = f.popn(n as usize);
            if items.len() == 2 {
                items.push(space.wrap(Value::None));
            }
            let v = space.op(Op::NewSlice, &items)?;
            f.push(v);
        }
        Instr::BuildTuple(n) => build(space, f, Op::NewTuple, n as usize)?,
        Instr::BuildList(n) => build(space, f, Op::NewList, n as usize)?,
        Instr::BuildSet(n) => build(space, f, Op::NewSet, n as usize)?,
        Instr::BuildMap(n) => {
            let d = space.op(Op::NewDict, &[])?;
            space.presize_dict(&d, n as usize);
            f.push(d);
        }
        Instr::ListAppend(n) | Instr::SetAdd(n) => {
            let item = f.pop();
            let target = f.state.stack[f.state.stack.len() - n as usize].clone();
            let meth_name: std::rc::Rc<str> = if matches!(instr, Instr::ListAppend(_)) {
                "append".into()
            } else {
                "add".into()
            };
            let name = space.name_const(&meth_name);
            let meth = space.op(Op::GetAttr, &[target, name])?;
            space.call(meth, CallArgs::positional(vec![item]))?;
        }
        Instr::MapAdd(n) => {
            let key = f.pop();
            let value = f.pop();
            let target = f.state.stack[f.state.stack.len() - n as usize].clone();
            space.op(Op::SetItem, &[target, key, value])?;
        }
        Instr::StoreMap => {
            let key = f.pop();
            let value = f.pop();
            let target = f.state.stack[f.state.stack.len() - 1].clone();
            space.op(Op::SetItem, &[target, key, value])?;
        }
        Instr::UnpackSequence(n) => {
            let seq = f.pop();
            let items = space.unpack(&seq, n as usize)?;
            for v in items.into_iter().rev() {
                f.push(v);
            }
        }
        Instr::UnpackCheck(n) => {
            let seq = f.top().clone();
            let ok = space.unpack_check(&seq, n as usize)?;
            f.push(ok);
        }
        Instr::UnpackMismatch => return Err(space.unpack_mismatch()),
        Instr::Call {
            npos,
            nkw,
            star,
            starstar,
        } => {
            let starstar = if starstar { Some(f.pop()) } else { None };
            let star = if star { Some(f.pop()) } else { None };
            let kwflat = f.popn(2 * nkw as usize);
            let mut positional = f.popn(npos as usize);
            let func = f.pop();
            if npos == 1
                && nkw == 0
                && star.is_none()
                && starstar.is_none()
                && space.is_builtin_eval(&func)
            {
                // `eval(text)` sees the caller's variables
                let locals = bound_locals(&code, &f.state.locals);
                let text = positional.pop().expect("one argument");
                let v = space.eval_in_frame(text, f.globals, f.namespace, locals)?;
                f.push(v);
                return Ok(None);
            }
            if npos == 0
                && nkw == 0
                && star.is_none()
                && starstar.is_none()
                && f.namespace.is_none()
                && code.co_cellvars.is_empty()
                && code.co_freevars.is_empty()
                && space.is_builtin_locals(&func)
            {
                // `locals()` in a function (without cells): a new dict of its bound
                // variables, filled as CPython's PyFrame_FastToLocals fills one (the last
                // of co_varnames first), which decides the dict's order
                let d = space.op(Op::NewDict, &[])?;
                for (name, v) in bound_locals(&code, &f.state.locals).into_iter().rev() {
                    let k = space.name_const(&name);
                    space.op(Op::SetItem, &[d.clone(), k, v])?;
                }
                f.push(d);
                return Ok(None);
            }
            let mut keywords = Vec::with_capacity(nkw as usize);
            for pair in kwflat.chunks(2) {
                let Some(name) = space.const_str(&pair[0]) else {
                    return Err(internal(space, "keyword name is not a constant"));
                };
                keywords.push((name, pair[1].clone()));
            }
            let v = space.call(
                func,
                CallArgs {
                    positional,
                    keywords,
                    star,
                    starstar,
                },
            )?;
            f.push(v);
        }
        Instr::MakeFunction { ndefaults, closure } => {
            f.pop(); // the code object, also found through the preceding LoadConst
            let closure = if closure { Some(f.pop()) } else { None };
            let defaults = f.popn(ndefaults as usize);
            let fcode = match code_const(&code, pc_of_const(f)) {
                Some(c) => c,
                None => return Err(internal(space, "MakeFunction without a code constant")),
            };
            let v = space.make_function(fcode, defaults, closure, f.globals)?;
            f.push(v);
        }
        Instr::BuildClass => {
            let ns = f.pop();
            let bases = f.pop();
            let name = f.pop();
            let v = space.build_class(name, bases, ns, f.globals)?;
            f.push(v);
        }
        Instr::LoadLocals => {
            let ns = f.namespace.unwrap_or(f.globals);
            let v = space.load_locals(ns)?;
            f.push(v);
        }
        Instr::ReturnValue => return Ok(Some(f.pop())),
        Instr::YieldValue => {
            let v = f.pop();
            let used = !matches!(code.co_code.get(f.state.pc as usize), Some(Instr::PopTop));
            let sent = space.yield_value(v, used)?;
            f.push(sent);
        }
        Instr::Jump(t) => f.state.pc = t,
        Instr::PopJumpIfFalse(t) | Instr::PopJumpIfTrue(t) => {
            let cond = f.pop();
            let jump_when = matches!(instr, Instr::PopJumpIfTrue(_));
            let next = f.state.pc;
            // `assert cond`: the jump over `raise AssertionError`
            let assertion = jump_when
                && matches!(code.co_code.get(next as usize),
                    Some(Instr::LoadGlobal(i)) if &*code.co_names[*i as usize] == "AssertionError");
            let branch = if assertion {
                space.assert_branch(&cond)?
            } else {
                space.branch(&cond)?
            };
            match branch {
                Branch::Known(b) => {
                    if b == jump_when {
                        f.state.pc = t;
                    }
                }
                Branch::Unknown => {
                    let (on_true, on_false) = if jump_when { (t, next) } else { (next, t) };
                    return Err(Unwind::Fork(Box::new(Fork::Branch {
                        cond,
                        if_true: f.state_at(on_true),
                        if_false: f.state_at(on_false),
                    })));
                }
            }
        }
        Instr::JumpIfFalseOrPop(t) | Instr::JumpIfTrueOrPop(t) => {
            let cond = f.top().clone();
            let jump_when = matches!(instr, Instr::JumpIfTrueOrPop(_));
            let next = f.state.pc;
            match space.branch(&cond)? {
                Branch::Known(b) => {
                    if b == jump_when {
                        f.state.pc = t;
                    } else {
                        f.pop();
                    }
                }
                Branch::Unknown => {
                    let jumped = f.state_at(t);
                    let mut fell = f.state_at(next);
                    fell.stack.pop();
                    let (if_true, if_false) = if jump_when {
                        (jumped, fell)
                    } else {
                        (fell, jumped)
                    };
                    return Err(Unwind::Fork(Box::new(Fork::Branch {
                        cond,
                        if_true,
                        if_false,
                    })));
                }
            }
        }
        Instr::GetIter => {
            let obj = f.pop();
            let it = space.op(Op::Iter, &[obj])?;
            f.push(it);
        }
        Instr::ForIter(t) => {
            let it = f.top().clone();
            match space.next(&it)? {
                IterNext::Item(v) => f.push(v),
                IterNext::Unrolled { item, next_iter } => {
                    f.pop();
                    f.push(next_iter);
                    f.push(item);
                }
                IterNext::Done => {
                    f.pop();
                    f.state.pc = t;
                }
                IterNext::Skipped => {
                    let body = f.state.pc..t;
                    f.pop();
                    f.state.pc = t;
                    super::skipped_loop::forget_effects(space, f, &it, body)?;
                }
                IterNext::Unknown(v) => {
                    let mut item = f.state.clone();
                    item.stack.push(v);
                    let mut done = f.state_at(t);
                    done.stack.pop();
                    return Err(Unwind::Fork(Box::new(Fork::Iter { item, done })));
                }
            }
        }
        Instr::SetupExcept(t) => {
            let depth = f.state.stack.len() as u32;
            f.state.blocks.push(Handler { target: t, depth });
        }
        Instr::PopBlock => {
            f.state.blocks.pop();
        }
        Instr::WithExitException => {
            let exit = f.pop();
            let etype = f.pop();
            let evalue = f.pop();
            let (a, b) = space.with_exit_exception_args(etype, evalue);
            let none = space.wrap(Value::None);
            let r = space.call(exit, CallArgs::positional(vec![a, b, none]))?;
            f.push(r);
        }
        Instr::Reraise | Instr::ReraiseCaught => {
            let etype = f.pop();
            let evalue = f.pop();
            return Err(Unwind::Raise { etype, evalue });
        }
        Instr::Raise(n) => {
            let mut items = f.popn(n as usize);
            let arg = if n >= 2 { Some(items.remove(1)) } else { None };
            let Some(exc) = items.pop() else {
                return Err(internal(space, "bare raise outside an exception handler"));
            };
            return Err(space.raise(exc, arg));
        }
        Instr::ImportName(i) => {
            let fromlist = f.pop();
            let level = f.pop();
            let m = space.import_name(&code.co_names[i as usize], fromlist, level, f.globals)?;
            f.push(m);
        }
        Instr::ImportFrom(i) => {
            let m = f.top().clone();
            let v = space.import_from(&m, &code.co_names[i as usize])?;
            f.push(v);
        }
        Instr::ImportStar => {
            let m = f.pop();
            space.import_star(m, f.namespace.unwrap_or(f.globals))?;
        }
        Instr::PrintItem { to } => {
            let v = f.pop();
            let dest = if to { Some(f.pop()) } else { None };
            space.print_item(dest, v)?;
        }
        Instr::PrintNewline { to } => {
            let dest = if to { Some(f.pop()) } else { None };
            space.print_newline(dest)?;
        }
        Instr::Exec(1)
            if !code.has_flag(
                crate::compiler::bytecode::flags::MODULE
                    | crate::compiler::bytecode::flags::CLASS_BODY,
            ) =>
        {
            // A bare `exec` in a function sees (and may rebind) the function's locals; the
            // other names it binds stay in the frame's namespace, where `LoadName` finds them.
            let code_v = f.pop();
            let locals = bound_locals(&code, &f.state.locals);
            let (after, ns) = space.exec_in_function(code_v, f.globals, f.namespace, locals)?;
            for (name, v) in after {
                if let Some(i) = code.co_varnames.iter().position(|n| *n == name) {
                    f.state.locals[i] = Some(v);
                }
            }
            if ns.is_some() {
                f.namespace = ns;
            }
        }
        Instr::Exec(n) => {
            let args = f.popn(n as usize);
            space.exec(args)?;
        }
    }
    Ok(None)
}

/// Pushes `not r`; forks when `r` is undecidable.
fn negate<S: Space>(space: &mut S, f: &mut Frame<S::Value>, r: S::Value) -> OpResult<S::Value, ()> {
    match space.branch(&r)? {
        Branch::Known(b) => {
            let v = space.wrap(Value::Bool(!b));
            f.push(v);
            Ok(())
        }
        Branch::Unknown => {
            let pc = f.state.pc;
            let mut if_true = f.state_at(pc);
            if_true.stack.push(space.wrap(Value::Bool(false)));
            let mut if_false = f.state_at(pc);
            if_false.stack.push(space.wrap(Value::Bool(true)));
            Err(Unwind::Fork(Box::new(Fork::Branch {
                cond: r,
                if_true,
                if_false,
            })))
        }
    }
}

fn build<S: Space>(
    space: &mut S,
    f: &mut Frame<S::Value>,
    op: Op,
    n: usize,
) -> OpResult<S::Value, ()> {
    let items = f.popn(n);
    let v = space.op(op, &items)?;
    f.push(v);
    Ok(())
}

fn pop_slice<S: Space>(
    space: &mut S,
    f: &mut Frame<S::Value>,
    lower: bool,
    upper: bool,
) -> (S::Value, S::Value, S::Value) {
    let hi = if upper {
        f.pop()
    } else {
        space.wrap(Value::None)
    };
    let lo = if lower {
        f.pop()
    } else {
        space.wrap(Value::None)
    };
    let obj = f.pop();
    (obj, lo, hi)
}

/// The function's local variables that are bound, by name: what `eval(text)` and a bare
/// `exec` in the function see.
fn bound_locals<V: Clone>(
    code: &crate::compiler::CodeObject,
    locals: &[Option<V>],
) -> Vec<(std::rc::Rc<str>, V)> {
    code.co_varnames
        .iter()
        .zip(locals)
        .filter_map(|(n, v)| v.clone().map(|v| (n.clone(), v)))
        .collect()
}

pub(super) fn cell_name(code: &crate::compiler::CodeObject, i: u32) -> std::rc::Rc<str> {
    let i = i as usize;
    if i < code.co_cellvars.len() {
        code.co_cellvars[i].clone()
    } else {
        code.co_freevars[i - code.co_cellvars.len()].clone()
    }
}

fn pc_of_const<V>(f: &Frame<V>) -> usize {
    f.state.pc as usize - 1
}

fn code_const(
    code: &crate::compiler::CodeObject,
    pc: usize,
) -> Option<std::rc::Rc<crate::compiler::CodeObject>> {
    // `MakeFunction` is always directly preceded by the `LoadConst` of its code object.
    match code.co_code.get(pc.checked_sub(1)?)? {
        Instr::LoadConst(i) => match &code.co_consts[*i as usize] {
            Const::Code(c) => Some(c.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn internal<S: Space>(space: &mut S, msg: &str) -> Unwind<S::Value> {
    let _ = space;
    Unwind::Error(Box::new(crate::diagnostics::Diagnostic::new(
        "RPY004",
        crate::syntax::Span::default(),
        format!("internal error: {msg}"),
    )))
}
