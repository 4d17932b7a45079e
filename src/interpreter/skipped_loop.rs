//! A loop whose iteration the space does not know (`IterNext::Skipped`: import-time code
//! iterating over a value rpy-lsp does not model, such as `range()` of an `rffi_platform`
//! constant) runs no iteration. Its body's effects would otherwise be silently missing:
//! a comprehension's list would be a known empty list, and later code indexing it would
//! be reported as always failing. So what the body would change is forgotten instead:
//! the names it stores, the list, dict or set a comprehension fills, and the containers
//! it changes in place through a name (`TABLE.append(x)`, `TABLE[k] = v`) all become
//! unknown (the space decides, `Space::after_skipped_loop`); after `globals()[k] = v` in
//! the body, a name missing from the module is unknown, not a NameError
//! (`Space::after_skipped_namespace_store`). The body is read from the
//! bytecode between the loop's `ForIter` and its end; code objects it creates are not
//! entered.

use super::frame::Frame;
use super::space::{OpResult, Space};
use crate::compiler::Instr;
use std::ops::Range;

/// Methods that change their list, dict or set in place.
const IN_PLACE_METHODS: &[&str] = &[
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "reverse",
    "sort",
    "update",
    "setdefault",
    "add",
    "discard",
    "clear",
    "popitem",
    "__setitem__",
];

/// Where a name lives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Name(u32),
    Global(u32),
    Fast(u32),
    Deref(u32),
}

impl Slot {
    fn of_load(i: &Instr) -> Option<Slot> {
        match *i {
            Instr::LoadName(n) => Some(Slot::Name(n)),
            Instr::LoadGlobal(n) => Some(Slot::Global(n)),
            Instr::LoadFast(n) => Some(Slot::Fast(n)),
            Instr::LoadDeref(n) => Some(Slot::Deref(n)),
            _ => None,
        }
    }

    fn of_store(i: &Instr) -> Option<Slot> {
        match *i {
            Instr::StoreName(n) => Some(Slot::Name(n)),
            Instr::StoreGlobal(n) => Some(Slot::Global(n)),
            Instr::StoreFast(n) => Some(Slot::Fast(n)),
            Instr::StoreDeref(n) => Some(Slot::Deref(n)),
            _ => None,
        }
    }
}

/// Forgets what the body `body` (instruction indices) of the skipped loop over `iter`
/// would have changed in frame `f`, whose stack no longer holds the iterator.
pub(super) fn forget_effects<S: Space>(
    space: &mut S,
    f: &mut Frame<S::Value>,
    iter: &S::Value,
    body: Range<u32>,
) -> OpResult<S::Value, ()> {
    let code = f.code.clone();
    let instrs = &code.co_code[body.start as usize..(body.end as usize).min(code.co_code.len())];
    let mut stored: Vec<Slot> = Vec::new();
    let mut changed: Vec<Slot> = Vec::new();
    let mut namespace_store = false;
    // the stack depth with the iterator, where the body starts
    let depth = f.state.stack.len() + 1;
    for (k, instr) in instrs.iter().enumerate() {
        if let Some(s) = Slot::of_store(instr) {
            if !stored.contains(&s) {
                stored.push(s);
            }
        }
        if let Some(s) = Slot::of_load(instr) {
            // `locals()`/`vars()` are the module's names only in module-level code
            let module_level = f.namespace == Some(f.globals);
            namespace_store |= namespace_item_store(&code, instr, &instrs[k + 1..], module_level);
            let next = instrs.get(k + 1);
            let method = match next {
                Some(Instr::LoadAttr(a)) => {
                    IN_PLACE_METHODS.contains(&&*code.co_names[*a as usize])
                }
                _ => false,
            };
            // `NAME[key] = v` / `del NAME[key]` with a simple key
            let item_store = matches!(
                (next, instrs.get(k + 2)),
                (
                    Some(i),
                    Some(Instr::StoreSubscr | Instr::DeleteSubscr)
                ) if Slot::of_load(i).is_some() || matches!(i, Instr::LoadConst(_))
            );
            if (method || item_store) && !changed.contains(&s) {
                changed.push(s);
            }
        }
        // a comprehension's container: `n` below the top after the item is popped, with
        // the iterators of the inner loops around this instruction above the body's depth
        let n = match *instr {
            Instr::ListAppend(n) | Instr::SetAdd(n) | Instr::MapAdd(n) => n as usize,
            _ => continue,
        };
        let here = body.start as usize + k;
        let inner = instrs[..k]
            .iter()
            .filter(|i| matches!(i, Instr::ForIter(t) if *t as usize > here))
            .count();
        if let Some(slot) = (depth + inner).checked_sub(n) {
            if slot + 1 < depth {
                let old = f.state.stack[slot].clone();
                if let Some(v) = space.after_skipped_loop(iter, Some(&old), true) {
                    f.state.stack[slot] = v;
                }
            }
        }
    }
    for s in changed {
        if !stored.contains(&s) {
            rebind(space, f, &code, iter, s, true)?;
        }
    }
    for s in stored {
        rebind(space, f, &code, iter, s, false)?;
    }
    if namespace_store {
        // `globals()[name] = v` (cljvm binds `dis.opmap`'s names so): the loop may have
        // bound any name of the module. After the rebinds, which look the old values up.
        space.after_skipped_namespace_store(f.globals);
    }
    Ok(())
}

/// Whether `load` (of a name) and the instructions `rest` after it are
/// `globals()[key] = v` with a simple key, or, in module-level code (`module_level`),
/// `vars()[key] = v` or `locals()[key] = v`: an item store into the module's namespace.
fn namespace_item_store(
    code: &crate::compiler::CodeObject,
    load: &Instr,
    rest: &[Instr],
    module_level: bool,
) -> bool {
    let name = match *load {
        Instr::LoadName(n) | Instr::LoadGlobal(n) => &code.co_names[n as usize],
        _ => return false,
    };
    match &**name {
        "globals" => {}
        "vars" | "locals" if module_level => {}
        _ => return false,
    }
    matches!(
        rest,
        [
            Instr::Call { npos: 0, nkw: 0, star: false, starstar: false },
            key,
            Instr::StoreSubscr,
            ..
        ] if Slot::of_load(key).is_some() || matches!(key, Instr::LoadConst(_))
    )
}

fn rebind<S: Space>(
    space: &mut S,
    f: &mut Frame<S::Value>,
    code: &crate::compiler::CodeObject,
    iter: &S::Value,
    slot: Slot,
    in_place: bool,
) -> OpResult<S::Value, ()> {
    let ns = f.namespace.unwrap_or(f.globals);
    match slot {
        Slot::Fast(i) => {
            let old = f.state.locals[i as usize].clone();
            if let Some(v) = space.after_skipped_loop(iter, old.as_ref(), in_place) {
                f.state.locals[i as usize] = Some(v);
            }
        }
        Slot::Name(i) | Slot::Global(i) => {
            let name = &code.co_names[i as usize];
            let old = match slot {
                Slot::Name(_) => space.load_name(ns, f.globals, name).ok(),
                _ => space.load_global(f.globals, name).ok(),
            };
            if let Some(v) = space.after_skipped_loop(iter, old.as_ref(), in_place) {
                match slot {
                    Slot::Name(_) => space.store_name(ns, name, v)?,
                    _ => space.store_global(f.globals, name, v)?,
                }
            }
        }
        Slot::Deref(i) => {
            let cell = f.cells[i as usize].clone();
            let name = super::eval::cell_name(code, i);
            let old = space.cell_get(&cell, &name).ok();
            if let Some(v) = space.after_skipped_loop(iter, old.as_ref(), in_place) {
                space.cell_set(&cell, v)?;
            }
        }
    }
    Ok(())
}
