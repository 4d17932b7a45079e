//! Static checks of compiled code: a value-stack and block-stack simulation over every
//! reachable instruction (the invariants the frame interpreter and the flow space rely on).

use super::bytecode::{CodeObject, Const, Instr};

/// Stack state before an instruction: value stack depth and handler blocks
/// (target, depth at setup).
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    depth: u32,
    blocks: Vec<(u32, u32)>,
}

/// Checks `code` and every code object nested in its constants: the value stack never
/// underflows, every jump target and handler is reached with one consistent stack depth and
/// block stack, `PopBlock` always has a block to pop, no path falls off the end, operands
/// are in range, and `MakeFunction` directly follows the `LoadConst` of a code object.
pub fn verify_stack_depth(code: &CodeObject) -> Result<(), String> {
    verify_one(code).map_err(|e| {
        format!(
            "in code object '{}' (line {}): {e}",
            code.co_name, code.co_firstlineno
        )
    })?;
    for c in &code.co_consts {
        if let Const::Code(child) = c {
            verify_stack_depth(child)?;
        }
    }
    Ok(())
}

/// (values needed on the stack, net effect) of a non-jumping instruction.
fn effect(i: &Instr) -> (u32, i64) {
    use Instr::*;
    match *i {
        Nop | PopBlock | Jump(_) => (0, 0),
        PopTop => (1, -1),
        RotTwo => (2, 0),
        RotThree => (3, 0),
        DupTop => (1, 1),
        DupTopTwo => (2, 2),
        LoadConst(_) | LoadFast(_) | LoadName(_) | LoadGlobal(_) | LoadDeref(_)
        | LoadClosure(_) | LoadLocals => (0, 1),
        StoreFast(_) | StoreName(_) | StoreGlobal(_) | StoreDeref(_) => (1, -1),
        DeleteFast(_) | DeleteName(_) | DeleteGlobal(_) => (0, 0),
        LoadAttr(_) => (1, 0),
        StoreAttr(_) => (2, -2),
        DeleteAttr(_) => (1, -1),
        Unary(_) | GetIter => (1, 0),
        Binary(_) | Inplace(_) | Compare(_) | Subscr => (2, -1),
        StoreSubscr => (3, -3),
        DeleteSubscr => (2, -2),
        Slice { lower, upper } => {
            let n = 1 + lower as u32 + upper as u32;
            (n, 1 - n as i64)
        }
        StoreSlice { lower, upper } => {
            let n = 2 + lower as u32 + upper as u32;
            (n, -(n as i64))
        }
        DeleteSlice { lower, upper } => {
            let n = 1 + lower as u32 + upper as u32;
            (n, -(n as i64))
        }
        BuildSlice(n) | BuildTuple(n) | BuildList(n) | BuildSet(n) => (n, 1 - n as i64),
        BuildMap(_) => (0, 1),
        ListAppend(n) | SetAdd(n) => (n + 1, -1),
        MapAdd(n) => (n + 2, -2),
        StoreMap => (3, -2),
        WithExitException => (3, -2),
        UnpackSequence(n) => (1, n as i64 - 1),
        UnpackCheck(_) => (1, 1),
        UnpackMismatch => (1, -1),
        Call {
            npos,
            nkw,
            star,
            starstar,
        } => {
            let n = npos + 2 * nkw + star as u32 + starstar as u32;
            (n + 1, -(n as i64))
        }
        MakeFunction { ndefaults, closure } => {
            let n = ndefaults + closure as u32;
            (n + 1, -(n as i64))
        }
        BuildClass => (3, -2),
        ReturnValue => (1, -1),
        YieldValue => (1, 0),
        PopJumpIfFalse(_) | PopJumpIfTrue(_) => (1, -1),
        JumpIfFalseOrPop(_) | JumpIfTrueOrPop(_) => (1, -1),
        ForIter(_) => (1, 1),
        SetupExcept(_) => (0, 0),
        Reraise | ReraiseCaught => (2, -2),
        Raise(n) => (n, -(n as i64)),
        ImportName(_) => (2, -1),
        ImportFrom(_) => (1, 1),
        ImportStar => (1, -1),
        PrintItem { to } => {
            let n = 1 + to as u32;
            (n, -(n as i64))
        }
        PrintNewline { to } => (to as u32, -(to as i64)),
        Exec(n) => (n, -(n as i64)),
    }
}

fn check_operands(code: &CodeObject, pc: usize, i: &Instr) -> Result<(), String> {
    use Instr::*;
    let ncells = (code.co_cellvars.len() + code.co_freevars.len()) as u32;
    let bad = |what: &str, idx: u32| {
        Err(format!(
            "instruction {pc} ({i:?}): {what} index {idx} out of range"
        ))
    };
    match *i {
        LoadConst(k) if k as usize >= code.co_consts.len() => bad("const", k),
        LoadFast(k) | StoreFast(k) | DeleteFast(k) if k as usize >= code.co_varnames.len() => {
            bad("varname", k)
        }
        LoadName(k) | StoreName(k) | DeleteName(k) | LoadGlobal(k) | StoreGlobal(k)
        | DeleteGlobal(k) | LoadAttr(k) | StoreAttr(k) | DeleteAttr(k) | ImportName(k)
        | ImportFrom(k)
            if k as usize >= code.co_names.len() =>
        {
            bad("name", k)
        }
        LoadDeref(k) | StoreDeref(k) | LoadClosure(k) if k >= ncells => bad("cell", k),
        MakeFunction { .. } => {
            let ok = pc > 0
                && matches!(code.co_code[pc - 1], LoadConst(k) if matches!(code.co_consts.get(k as usize), Some(Const::Code(_))));
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "instruction {pc}: MakeFunction not preceded by the LoadConst of a code object"
                ))
            }
        }
        _ => Ok(()),
    }
}

fn verify_one(code: &CodeObject) -> Result<(), String> {
    let n = code.co_code.len();
    if code.co_spans.len() != n {
        return Err(format!(
            "{} instructions but {} spans",
            n,
            code.co_spans.len()
        ));
    }
    if n == 0 {
        return Err("empty code".into());
    }
    let mut states: Vec<Option<State>> = vec![None; n];
    let mut work = vec![0usize];
    states[0] = Some(State {
        depth: 0,
        blocks: Vec::new(),
    });

    fn merge(
        states: &mut [Option<State>],
        work: &mut Vec<usize>,
        from: usize,
        to: u32,
        st: State,
    ) -> Result<(), String> {
        let to = to as usize;
        if to >= states.len() {
            return Err(format!(
                "instruction {from}: control reaches {to}, past the end of the code"
            ));
        }
        match &states[to] {
            None => {
                states[to] = Some(st);
                work.push(to);
                Ok(())
            }
            Some(old) if *old == st => Ok(()),
            Some(old) => Err(format!(
                "instruction {to} reached with inconsistent states: depth {} blocks {:?} vs depth {} blocks {:?} (from {from})",
                old.depth, old.blocks, st.depth, st.blocks
            )),
        }
    }

    while let Some(pc) = work.pop() {
        let st = states[pc].clone().expect("state of a queued instruction");
        let instr = code.co_code[pc];
        check_operands(code, pc, &instr)?;
        if let Some(&(t, d)) = st.blocks.last() {
            if st.depth < d {
                return Err(format!(
                    "instruction {pc}: stack depth {} below the depth {d} saved by the handler at {t}",
                    st.depth
                ));
            }
        }
        let (need, eff) = effect(&instr);
        if st.depth < need {
            return Err(format!(
                "instruction {pc} ({instr:?}) needs {need} values, stack has {}",
                st.depth
            ));
        }
        let after = (st.depth as i64 + eff) as u32;
        let next = |depth: u32, blocks: Vec<(u32, u32)>| State { depth, blocks };
        use Instr::*;
        match instr {
            ReturnValue | Reraise | ReraiseCaught | Raise(_) | UnpackMismatch => {}
            Jump(t) => merge(&mut states, &mut work, pc, t, st.clone())?,
            PopJumpIfFalse(t) | PopJumpIfTrue(t) => {
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    t,
                    next(after, st.blocks.clone()),
                )?;
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    pc as u32 + 1,
                    next(after, st.blocks.clone()),
                )?;
            }
            JumpIfFalseOrPop(t) | JumpIfTrueOrPop(t) => {
                merge(&mut states, &mut work, pc, t, st.clone())?;
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    pc as u32 + 1,
                    next(after, st.blocks.clone()),
                )?;
            }
            ForIter(t) => {
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    t,
                    next(st.depth - 1, st.blocks.clone()),
                )?;
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    pc as u32 + 1,
                    next(after, st.blocks.clone()),
                )?;
            }
            SetupExcept(t) => {
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    t,
                    next(st.depth + 2, st.blocks.clone()),
                )?;
                let mut blocks = st.blocks.clone();
                blocks.push((t, st.depth));
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    pc as u32 + 1,
                    next(after, blocks),
                )?;
            }
            PopBlock => {
                let mut blocks = st.blocks.clone();
                if blocks.pop().is_none() {
                    return Err(format!("instruction {pc}: PopBlock with no block"));
                }
                merge(
                    &mut states,
                    &mut work,
                    pc,
                    pc as u32 + 1,
                    next(after, blocks),
                )?;
            }
            _ => merge(
                &mut states,
                &mut work,
                pc,
                pc as u32 + 1,
                next(after, st.blocks.clone()),
            )?,
        }
    }
    Ok(())
}
