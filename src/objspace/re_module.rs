//! The primitives under the bundled `re` model (`re.py`): `__rpy__.re_info(pattern,
//! flags)` gives the number of groups and the named groups, or the syntax error's message;
//! `__rpy__.re_spans(pattern, flags, text, pos, anchored)` gives the spans of the first
//! match (a flat list, -1 where a group did not take part) or None. Patterns and texts
//! are `str` or `unicode`; the matching itself is `regex`. `__rpy__.re_program(pattern,
//! flags)` gives the pattern as a program for the translated matcher of the bundled
//! `rpython.rlib.rsre` model (`regex::program`): (code, start, registers, groups, named
//! groups), or the syntax error's message.

use super::builtins::{BArgs, BuiltinFn};
use super::object::{Object, Value};
use super::regex::{Outcome, Regex};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;

pub(crate) const RE_BUILTINS: &[(B, BuiltinFn)] = &[
    (B::ReInfo, re_info),
    (B::ReSpans, re_spans),
    (B::ReProgram, re_program),
];

/// The code units of a `str` (bytes) or `unicode` (characters).
fn units(sp: &ObjSpace, v: Value) -> Option<Vec<u32>> {
    match v {
        Value::Obj(id) => match sp.heap.get(id) {
            Object::Str(s) => Some(s.iter().map(|&b| u32::from(b)).collect()),
            Object::Unicode(s) => Some(s.codes().to_vec()),
            _ => None,
        },
        _ => None,
    }
}

fn pattern_arg(sp: &mut ObjSpace, a: &BArgs) -> R<(Vec<u32>, i64)> {
    let Some(p) = units(sp, a.args[0]) else {
        return sp.type_error("first argument must be string or compiled pattern");
    };
    let flags = match a.args[1] {
        Value::Int(f) => f,
        Value::Bool(b) => i64::from(b),
        _ => return sp.type_error("flags must be an integer"),
    };
    Ok((p, flags))
}

fn re_info(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let (p, flags) = pattern_arg(sp, a)?;
    match Regex::new(&p, flags) {
        Ok(re) => {
            let mut names = Vec::new();
            for (n, i) in &re.names {
                let n = sp.new_str(n.as_bytes());
                names.push(sp.new_tuple(vec![n, Value::Int(*i as i64)]));
            }
            let names = sp.new_list(names);
            Ok(sp.new_tuple(vec![Value::Int(re.groups as i64), names]))
        }
        Err(e) => Ok(sp.new_str(e.0.as_bytes())),
    }
}

fn re_program(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 2, 2)?;
    let (p, flags) = pattern_arg(sp, a)?;
    let re = match Regex::new(&p, flags) {
        Ok(re) => re,
        Err(e) => return Ok(sp.new_str(e.0.as_bytes())),
    };
    let prog = re.program();
    let code = prog.code.into_iter().map(Value::Int).collect();
    let code = sp.new_list(code);
    let mut names = Vec::new();
    for (n, i) in &re.names {
        let n = sp.new_str(n.as_bytes());
        names.push(sp.new_tuple(vec![n, Value::Int(*i as i64)]));
    }
    let names = sp.new_list(names);
    Ok(sp.new_tuple(vec![
        code,
        Value::Int(prog.start),
        Value::Int(prog.registers),
        Value::Int(re.groups as i64),
        names,
    ]))
}

fn re_spans(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 5, 5)?;
    let (p, flags) = pattern_arg(sp, a)?;
    let Some(text) = units(sp, a.args[2]) else {
        return sp.type_error("expected string or buffer");
    };
    let pos = match a.args[3] {
        Value::Int(n) => n.clamp(0, text.len() as i64) as usize,
        _ => 0,
    };
    let anchored = sp.truth(a.args[4])?;
    let re = match Regex::new(&p, flags) {
        Ok(re) => re,
        Err(e) => return sp.value_error(e.0),
    };
    match re.search(&text, pos, anchored) {
        Outcome::Match(caps) => {
            let mut flat = Vec::with_capacity(caps.len() * 2);
            for c in caps {
                let (s, e) = c.map_or((-1, -1), |(s, e)| (s as i64, e as i64));
                flat.push(Value::Int(s));
                flat.push(Value::Int(e));
            }
            Ok(sp.new_list(flat))
        }
        Outcome::NoMatch => Ok(Value::None),
        Outcome::TooComplex => {
            sp.warn_unknown("re (a pattern that backtracks too much)", "the result of");
            Ok(sp.new_unknown("re match"))
        }
    }
}
