//! Character and string builtins: `ord`, `chr`, `unichr`, `repr`, `intern`, `format` and the
//! `str` and `unicode` constructors (with decoding). The methods of `str` and `unicode` are
//! in `objspace::strings`; these are the functions that make or inspect strings from the
//! outside.

use super::BArgs;
use crate::objspace::object::{Object, Value};
use crate::objspace::{ObjSpace, R};

pub(super) fn b_ord(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let v = a.args[0];
    if let Value::Obj(id) = v {
        match sp.heap.get(id) {
            Object::Str(s) if s.len() == 1 => return Ok(Value::Int(s[0] as i64)),
            Object::Unicode(u) if u.len() == 1 => return Ok(Value::Int(u.codes()[0] as i64)),
            Object::Str(s) => {
                let n = s.len();
                return sp.type_error(format!(
                    "ord() expected a character, but string of length {n} found"
                ));
            }
            Object::Unicode(u) => {
                let n = u.len();
                return sp.type_error(format!(
                    "ord() expected a character, but string of length {n} found"
                ));
            }
            _ => {}
        }
    }
    let tn = sp.type_name(v);
    sp.type_error(format!("ord() expected string of length 1, but {tn} found"))
}

pub(super) fn b_chr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let i = sp.int_arg(a.args[0], "chr()")?;
    if !(0..256).contains(&i) {
        return sp.value_error("chr() arg not in range(256)");
    }
    Ok(sp.char_str(i as u8))
}

pub(super) fn b_unichr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let i = sp.int_arg(a.args[0], "unichr()")?;
    // a wide build: every code point, lone surrogates included
    match u32::try_from(i).ok().filter(|&c| c <= 0x10ffff) {
        Some(c) => Ok(sp.new_unicode_codes(vec![c])),
        None => sp.value_error("unichr() arg not in range(0x110000)"),
    }
}

pub(super) fn b_repr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    let s = sp.repr_value(a.args[0])?;
    Ok(sp.new_str_vec(s))
}

pub(super) fn b_intern(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    if sp.str_bytes(a.args[0]).is_none() {
        return sp.type_error("intern() argument 1 must be string");
    }
    Ok(a.args[0])
}

pub(super) fn b_format(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 2)?;
    let spec = match a.args.get(1) {
        Some(&s) => sp.text_of(s).unwrap_or_default(),
        None => String::new(),
    };
    let s = sp.format_spec(a.args[0], &spec)?;
    Ok(sp.new_str(s.as_bytes()))
}

pub(super) fn c_str(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 1)?;
    match a.get(0, "object") {
        Some(v) => sp.str_op(v),
        None => Ok(sp.new_str(b"")),
    }
}

pub(super) fn c_unicode(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 3)?;
    let Some(v) = a.get(0, "string") else {
        return Ok(sp.new_unicode(""));
    };
    if let Some(enc) = a.get(1, "encoding") {
        let enc = sp
            .text_of(enc)
            .unwrap_or_default()
            .to_ascii_lowercase()
            .replace('_', "-");
        let errors = match a.get(2, "errors") {
            Some(e) => sp.text_of(e).unwrap_or_default(),
            None => "strict".into(),
        };
        let Some(b) = sp.str_bytes(v) else {
            return sp.type_error("decoding Unicode is not supported");
        };
        let t = sp.decode_bytes(&b, &enc, &errors)?;
        return Ok(sp.new_unicode(&t));
    }
    match v {
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Unicode(_)) => Ok(v),
        Value::Obj(id) if matches!(sp.heap.get(id), Object::Str(_)) => {
            let u = sp.unicode_of(v)?;
            Ok(sp.alloc(Object::Unicode(u)))
        }
        _ => {
            if let Some(m) = sp.special_method(v, "__unicode__") {
                return sp.call_special(v, m, vec![]);
            }
            let s = sp.str_value(v)?;
            let t = sp.decode_bytes(&s, "ascii", "strict")?;
            Ok(sp.new_unicode(&t))
        }
    }
}

/// `bytearray(...)` at import time: `bytearray(n)` (n zero bytes) and `bytearray(s)` of a
/// str make a prebuilt bytearray (`Object::ByteArray`), which translated code uses as the
/// reference does (each use is a copy of it). Other forms are unknown, with one warning
/// where the program makes one. In translated code the call is the annotator's and the
/// RTyper's (`SomeValue::ByteArray`).
pub(super) fn c_bytearray(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 3)?;
    if a.kwargs.is_empty() {
        match a.args[..] {
            [] => return Ok(sp.alloc(Object::ByteArray(Vec::new()))),
            [Value::Int(n)] if (0..=1 << 24).contains(&n) => {
                return Ok(sp.alloc(Object::ByteArray(vec![0; n as usize])))
            }
            [v] => {
                if let Some(s) = sp.heap.str_value(v) {
                    let b = s.to_vec();
                    return Ok(sp.alloc(Object::ByteArray(b)));
                }
            }
            _ => {}
        }
    }
    sp.warn_unknown("bytearray()", "the result at import time of");
    Ok(sp.new_unknown("bytearray (made at import time)"))
}
