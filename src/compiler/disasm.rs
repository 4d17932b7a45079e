//! Stable text dump of code objects (golden tests, `--dump-bytecode` style debugging).
//!
//! Format: one header per code object, its tables when not empty, then one line per
//! instruction (`>>` marks jump targets; operands are resolved in parentheses). Nested code
//! objects follow their parent, in the order of its constants, named by their path
//! (`<module>.f.<lambda>`).

use super::bytecode::{flags, CodeObject, Const, Instr};
use std::fmt::Write;

/// Disassembles `code` and every code object nested in it.
pub fn disassemble(code: &CodeObject) -> String {
    let mut out = String::new();
    dis_one(code, &code.co_name, &mut out);
    out
}

fn flag_names(f: u32) -> String {
    let table = [
        (flags::OPTIMIZED, "OPTIMIZED"),
        (flags::NEWLOCALS, "NEWLOCALS"),
        (flags::VARARGS, "VARARGS"),
        (flags::VARKEYWORDS, "VARKEYWORDS"),
        (flags::NESTED, "NESTED"),
        (flags::GENERATOR, "GENERATOR"),
        (flags::CLASS_BODY, "CLASS_BODY"),
        (flags::MODULE, "MODULE"),
        (flags::TRUE_DIVISION, "TRUE_DIVISION"),
    ];
    let mut names: Vec<String> = table
        .iter()
        .filter(|(b, _)| f & b != 0)
        .map(|(_, n)| n.to_string())
        .collect();
    let known = table.iter().fold(0, |a, (b, _)| a | b);
    if f & !known != 0 {
        names.push(format!("{:#x}", f & !known));
    }
    if names.is_empty() {
        "0".to_string()
    } else {
        names.join("|")
    }
}

/// Python 2's `repr` of a byte string, appended to `out`.
pub fn repr_bytes(b: &[u8], out: &mut String) {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c if c as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(c as char),
            _ => {
                let _ = write!(out, "\\x{c:02x}");
            }
        }
    }
    out.push(quote);
}

/// Python 2's `repr` of a unicode string, appended to `out`.
pub fn repr_unicode(s: &crate::compiler::UStr, out: &mut String) {
    let has = |c: char| s.codes().contains(&u32::from(c));
    let quote = if has('\'') && !has('"') { '"' } else { '\'' };
    out.push('u');
    out.push(quote);
    for &code in s.codes() {
        // a lone surrogate is not a `char`: written as its escape, as others of its range
        let c = char::from_u32(code).unwrap_or('\u{ffff}');
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(quote);
            }
            ' '..='~' => out.push(c),
            _ if code < 0x100 => {
                let _ = write!(out, "\\x{:02x}", code);
            }
            _ if code < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", code);
            }
            _ => {
                let _ = write!(out, "\\U{:08x}", code);
            }
        }
    }
    out.push(quote);
}

/// Python-2-like repr of a constant.
pub fn repr_const(c: &Const) -> String {
    let mut out = String::new();
    repr_into(c, &mut out);
    out
}

fn repr_into(c: &Const, out: &mut String) {
    match c {
        Const::None => out.push_str("None"),
        Const::Bool(true) => out.push_str("True"),
        Const::Bool(false) => out.push_str("False"),
        Const::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Const::Long(i) => {
            let _ = write!(out, "{i}L");
        }
        Const::BigLong(i) => {
            let _ = write!(out, "{i}L");
        }
        Const::Float(f) => {
            if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 {
                let _ = write!(out, "{f:.1}");
            } else {
                let _ = write!(out, "{f:?}");
            }
        }
        Const::Str(b) => repr_bytes(b, out),
        Const::Unicode(s) => repr_unicode(s, out),
        Const::Tuple(items) => {
            out.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(item, out);
            }
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Const::Code(c) => {
            let _ = write!(out, "<code {}>", c.co_name);
        }
        Const::Ellipsis => out.push_str("Ellipsis"),
        Const::Complex(re, im) => {
            let _ = write!(out, "({re:?}+{im:?}j)");
        }
    }
}

fn name_at(v: &[std::rc::Rc<str>], i: u32) -> String {
    v.get(i as usize)
        .map(|s| s.to_string())
        .unwrap_or_else(|| "?".to_string())
}

fn cell_name(code: &CodeObject, i: u32) -> String {
    let i = i as usize;
    if i < code.co_cellvars.len() {
        code.co_cellvars[i].to_string()
    } else {
        code.co_freevars
            .get(i - code.co_cellvars.len())
            .map(|s| s.to_string())
            .unwrap_or_else(|| "?".into())
    }
}

/// One instruction with its resolved operand.
pub fn format_instr(code: &CodeObject, instr: &Instr) -> String {
    use Instr::*;
    let names = &code.co_names;
    match *instr {
        LoadConst(i) => {
            let c = code
                .co_consts
                .get(i as usize)
                .map(repr_const)
                .unwrap_or_else(|| "?".into());
            format!("LoadConst {i} ({c})")
        }
        LoadFast(i) | StoreFast(i) | DeleteFast(i) => {
            format!("{} {i} ({})", op_name(instr), name_at(&code.co_varnames, i))
        }
        LoadName(i) | StoreName(i) | DeleteName(i) | LoadGlobal(i) | StoreGlobal(i)
        | DeleteGlobal(i) | LoadAttr(i) | StoreAttr(i) | DeleteAttr(i) | ImportName(i)
        | ImportFrom(i) => {
            format!("{} {i} ({})", op_name(instr), name_at(names, i))
        }
        LoadDeref(i) | StoreDeref(i) | LoadClosure(i) => {
            format!("{} {i} ({})", op_name(instr), cell_name(code, i))
        }
        Unary(op) => format!("Unary {op:?}"),
        Binary(op) => format!("Binary {op:?}"),
        Inplace(op) => format!("Inplace {op:?}"),
        Compare(op) => format!("Compare {op:?}"),
        Slice { lower, upper } | StoreSlice { lower, upper } | DeleteSlice { lower, upper } => {
            let mut s = op_name(instr).to_string();
            if lower {
                s.push_str(" lower");
            }
            if upper {
                s.push_str(" upper");
            }
            s
        }
        Call {
            npos,
            nkw,
            star,
            starstar,
        } => {
            let mut s = format!("Call {npos}");
            if nkw > 0 {
                let _ = write!(s, " kw={nkw}");
            }
            if star {
                s.push_str(" *");
            }
            if starstar {
                s.push_str(" **");
            }
            s
        }
        MakeFunction { ndefaults, closure } => {
            let mut s = format!("MakeFunction {ndefaults}");
            if closure {
                s.push_str(" closure");
            }
            s
        }
        PrintItem { to } | PrintNewline { to } => {
            if to {
                format!("{} to", op_name(instr))
            } else {
                op_name(instr).to_string()
            }
        }
        BuildSlice(n) | BuildTuple(n) | BuildList(n) | BuildSet(n) | BuildMap(n)
        | ListAppend(n) | MapAdd(n) | SetAdd(n) | UnpackSequence(n) | UnpackCheck(n) | Raise(n)
        | Exec(n) | Jump(n) | PopJumpIfFalse(n) | PopJumpIfTrue(n) | JumpIfFalseOrPop(n)
        | JumpIfTrueOrPop(n) | ForIter(n) | SetupExcept(n) => {
            format!("{} {n}", op_name(instr))
        }
        _ => op_name(instr).to_string(),
    }
}

fn op_name(instr: &Instr) -> &'static str {
    use Instr::*;
    match instr {
        Nop => "Nop",
        PopTop => "PopTop",
        RotTwo => "RotTwo",
        RotThree => "RotThree",
        DupTop => "DupTop",
        DupTopTwo => "DupTopTwo",
        LoadConst(_) => "LoadConst",
        LoadFast(_) => "LoadFast",
        StoreFast(_) => "StoreFast",
        DeleteFast(_) => "DeleteFast",
        LoadName(_) => "LoadName",
        StoreName(_) => "StoreName",
        DeleteName(_) => "DeleteName",
        LoadGlobal(_) => "LoadGlobal",
        StoreGlobal(_) => "StoreGlobal",
        DeleteGlobal(_) => "DeleteGlobal",
        LoadDeref(_) => "LoadDeref",
        StoreDeref(_) => "StoreDeref",
        LoadClosure(_) => "LoadClosure",
        LoadAttr(_) => "LoadAttr",
        StoreAttr(_) => "StoreAttr",
        DeleteAttr(_) => "DeleteAttr",
        Unary(_) => "Unary",
        Binary(_) => "Binary",
        Inplace(_) => "Inplace",
        Compare(_) => "Compare",
        Subscr => "Subscr",
        StoreSubscr => "StoreSubscr",
        DeleteSubscr => "DeleteSubscr",
        Slice { .. } => "Slice",
        StoreSlice { .. } => "StoreSlice",
        DeleteSlice { .. } => "DeleteSlice",
        BuildSlice(_) => "BuildSlice",
        BuildTuple(_) => "BuildTuple",
        BuildList(_) => "BuildList",
        BuildSet(_) => "BuildSet",
        BuildMap(_) => "BuildMap",
        ListAppend(_) => "ListAppend",
        MapAdd(_) => "MapAdd",
        StoreMap => "StoreMap",
        WithExitException => "WithExitException",
        SetAdd(_) => "SetAdd",
        UnpackSequence(_) => "UnpackSequence",
        UnpackCheck(_) => "UnpackCheck",
        UnpackMismatch => "UnpackMismatch",
        Call { .. } => "Call",
        MakeFunction { .. } => "MakeFunction",
        BuildClass => "BuildClass",
        LoadLocals => "LoadLocals",
        ReturnValue => "ReturnValue",
        YieldValue => "YieldValue",
        Jump(_) => "Jump",
        PopJumpIfFalse(_) => "PopJumpIfFalse",
        PopJumpIfTrue(_) => "PopJumpIfTrue",
        JumpIfFalseOrPop(_) => "JumpIfFalseOrPop",
        JumpIfTrueOrPop(_) => "JumpIfTrueOrPop",
        GetIter => "GetIter",
        ForIter(_) => "ForIter",
        SetupExcept(_) => "SetupExcept",
        PopBlock => "PopBlock",
        Reraise => "Reraise",
        ReraiseCaught => "ReraiseCaught",
        Raise(_) => "Raise",
        ImportName(_) => "ImportName",
        ImportFrom(_) => "ImportFrom",
        ImportStar => "ImportStar",
        PrintItem { .. } => "PrintItem",
        PrintNewline { .. } => "PrintNewline",
        Exec(_) => "Exec",
    }
}

fn join(v: &[std::rc::Rc<str>]) -> String {
    v.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn dis_one(code: &CodeObject, path: &str, out: &mut String) {
    let _ = writeln!(
        out,
        "code {path} argcount={} flags={} line={}",
        code.co_argcount,
        flag_names(code.co_flags),
        code.co_firstlineno
    );
    if !code.co_varnames.is_empty() {
        let _ = writeln!(out, "  varnames: {}", join(&code.co_varnames));
    }
    if !code.co_cellvars.is_empty() {
        let _ = writeln!(out, "  cellvars: {}", join(&code.co_cellvars));
    }
    if !code.co_freevars.is_empty() {
        let _ = writeln!(out, "  freevars: {}", join(&code.co_freevars));
    }
    if let Some(doc) = &code.docstring {
        let _ = writeln!(out, "  docstring: {doc:?}");
    }
    let targets = code.jump_targets();
    for (i, instr) in code.co_code.iter().enumerate() {
        let mark = if targets[i] { ">>" } else { "  " };
        let _ = writeln!(out, "  {mark} {i:3} {}", format_instr(code, instr));
    }
    for c in &code.co_consts {
        if let Const::Code(child) = c {
            out.push('\n');
            dis_one(child, &format!("{path}.{}", child.co_name), out);
        }
    }
}
