//! The calls of C functions the program declares (`rffi.llexternal`). Takes the
//! `LlFunction::C` functions and the low-level signatures they are called with, gives the
//! C that calls them: the header of each the C library registry knows
//! (`lltypesystem::libc`), a declaration from the declared types for the others (bound to
//! the C symbol by an asm label, so a header's own declaration does not conflict), and one
//! wrapper per (function, low-level signature) converting between the program's
//! representation and C's: a raw buffer (`struct {long length; char items[];}`, allocated
//! by `calloc`) is passed as its items and a pointer C gives back becomes the buffer it
//! points into; numbers are cast to the declared C types. `strdup`'s fresh C string is
//! copied into a buffer of the program (raw memory is the program's: `free` releases
//! only such buffers).

use super::database::{sanitize, Database};
use crate::lltypesystem::libc::{CDecl, LibcFn};
use crate::lltypesystem::{LlType, TypeDef};
use crate::rtyper::LlFunction;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The wrapper's name for function `f` called with function type `fty`.
pub fn wrapper_name(db: &Database, f: u32, fty: LlType) -> String {
    match &db.prog.functions[f as usize] {
        LlFunction::C(decl) => format!("rpyc{}_{}_{}", f, sanitize(&decl.name), fty.0),
        _ => db.func_names[f as usize].clone(),
    }
}

/// Emits the headers, prototypes and wrappers of the C functions called with the given
/// (function, function type) pairs: headers into `includes`, the rest into `out`.
pub fn emit(
    db: &Database,
    uses: &BTreeSet<(u32, LlType)>,
    includes: &mut String,
    out: &mut String,
) {
    let mut headers = BTreeSet::new();
    let mut declared = BTreeSet::new();
    for &(f, fty) in uses {
        let LlFunction::C(decl) = &db.prog.functions[f as usize] else {
            continue;
        };
        match decl.known {
            Some(k) => {
                headers.insert(k.header());
            }
            None => {
                // under a name of ours bound to the C symbol: a header that declares it
                // with other qualifiers (`const char *`) does not conflict
                if declared.insert(decl.name.clone()) {
                    let _ = writeln!(
                        out,
                        "extern {} {}({}) __asm__(\"{}\");",
                        decl.result,
                        c_symbol(decl),
                        if decl.args.is_empty() {
                            "void".to_string()
                        } else {
                            decl.args
                                .iter()
                                .map(|a| a.to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        },
                        decl.name
                    );
                }
            }
        }
        emit_wrapper(db, f, fty, decl, out);
    }
    for h in headers {
        let _ = writeln!(includes, "#include <{}>", h);
    }
}

/// The C name a call uses: the function's own for one a header of the registry declares,
/// else our declaration's (see `emit`).
fn c_symbol(decl: &CDecl) -> String {
    match decl.known {
        Some(_) => decl.name.to_string(),
        None => format!("rpyc_ext_{}", sanitize(&decl.name)),
    }
}

/// Whether `t` points to a raw array (a buffer C sees as its items).
fn raw_array(db: &Database, t: LlType) -> Option<LlType> {
    let to = db.types().pointee(t)?;
    matches!(db.types().def(to), TypeDef::Array { gc: false, .. }).then_some(to)
}

fn emit_wrapper(db: &Database, f: u32, fty: LlType, decl: &CDecl, out: &mut String) {
    let TypeDef::Func { args, result } = db.types().def(fty).clone() else {
        return;
    };
    let name = wrapper_name(db, f, fty);
    let params: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|(_, t)| **t != LlType::VOID)
        .map(|(i, t)| db.decl(*t, &format!("a{}", i)))
        .collect();
    let mut call_args = Vec::new();
    for (i, t) in args.iter().enumerate() {
        let ct = decl
            .args
            .get(i)
            .map(|s| s.to_string())
            .unwrap_or("long".into());
        call_args.push(if *t == LlType::VOID {
            format!("({})0", ct)
        } else if let Some(arr) = raw_array(db, *t) {
            // by address, not `->items`: the array may start at any byte of raw memory
            format!(
                "(a{i} ? ({ct})((char *)a{i} + offsetof({sn}, items)) : ({ct})NULL)",
                i = i,
                ct = ct,
                sn = db.struct_name(arr)
            )
        } else {
            format!("({})a{}", ct, i)
        });
    }
    let call = format!("{}({})", c_symbol(decl), call_args.join(", "));
    let body = if result == LlType::VOID {
        format!("    {};\n", call)
    } else if let Some(arr) = raw_array(db, result) {
        let sn = db.struct_name(arr);
        if decl.known == Some(LibcFn::Strdup) {
            // a fresh C string: copied into a buffer of the program
            format!(
                "    char *r = (char *){call};\n    if (!r) return NULL;\n    size_t n = strlen(r) + 1;\n    {sn} *p = rpy_raw_malloc_array(offsetof({sn}, items), sizeof(p->items[0]), (long)n);\n    memcpy(p->items, r, n);\n    free(r);\n    return p;\n",
                call = call,
                sn = sn
            )
        } else {
            format!(
                "    char *r = (char *){call};\n    return r ? ({sn} *)(r - offsetof({sn}, items)) : NULL;\n",
                call = call,
                sn = sn
            )
        }
    } else {
        format!("    return ({}){};\n", db.ctype(result), call)
    };
    let body = if decl.known == Some(LibcFn::Free) {
        // the program's raw buffers are allocated whole (calloc)
        "    if (a0) free(a0);\n".to_string()
    } else {
        body
    };
    let _ = writeln!(
        out,
        "static RPY_UNUSED {} {}({}) {{\n{}}}\n",
        db.ctype(result),
        name,
        if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        },
        body
    );
}
