//! `%` formatting of `str` and `unicode` (`fmt % args`), `str.format` with `{}` fields and
//! `format(value, spec)`.

use super::super::object::{Object, Value};
use super::super::ops::Num;
use super::super::{ObjSpace, R};
use super::floats::MAX_PRECISION;
use super::{float_str, format_e, format_f, format_g};
use std::rc::Rc;

impl ObjSpace {
    // ----- % formatting -----

    /// `fmt % args` for `str` and `unicode` formats.
    pub fn percent_format(&mut self, fmt: Value, args: Value) -> R {
        let (fmt_bytes, mut unicode) = match fmt {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => (s.to_vec(), false),
                // (a lone surrogate in the format becomes U+FFFD: the format is read as UTF-8)
                Object::Unicode(u) => (u.to_string_lossy().into_bytes(), true),
                _ => unreachable!(),
            },
            _ => unreachable!(),
        };
        let (arg_list, mapping): (Vec<Value>, Option<Value>) = match args {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Tuple(items) => (items.clone(), None),
                Object::Dict(_) => (vec![args], Some(args)),
                Object::Instance(_) if self.special_method(args, "__getitem__").is_some() => {
                    (vec![args], Some(args))
                }
                _ => (vec![args], None),
            },
            _ => (vec![args], None),
        };
        let mut out: Vec<u8> = Vec::with_capacity(fmt_bytes.len() + 16);
        let mut argi = 0usize;
        let mut used_mapping = false;
        let f = &fmt_bytes;
        let mut i = 0;
        let n = f.len();
        while i < n {
            let c = f[i];
            if c != b'%' {
                let start = i;
                while i < n && f[i] != b'%' {
                    i += 1;
                }
                out.extend_from_slice(&f[start..i]);
                continue;
            }
            i += 1;
            if i >= n {
                return self.value_error("incomplete format");
            }
            // Mapping key.
            let mut keyed: Option<Value> = None;
            if f[i] == b'(' {
                let mut depth = 1;
                let start = i + 1;
                i += 1;
                while i < n && depth > 0 {
                    if f[i] == b'(' {
                        depth += 1;
                    } else if f[i] == b')' {
                        depth -= 1;
                    }
                    i += 1;
                }
                if depth > 0 {
                    return self.value_error("incomplete format key");
                }
                let key = &f[start..i - 1];
                let Some(m) = mapping else {
                    return self.type_error("format requires a mapping");
                };
                let k = if unicode {
                    let t = String::from_utf8_lossy(key).into_owned();
                    self.new_unicode(&t)
                } else {
                    self.new_str(key)
                };
                keyed = Some(self.getitem(m, k)?);
                used_mapping = true;
            }
            let (mut left, mut plus, mut space, mut alt, mut zero) =
                (false, false, false, false, false);
            while i < n {
                match f[i] {
                    b'-' => left = true,
                    b'+' => plus = true,
                    b' ' => space = true,
                    b'#' => alt = true,
                    b'0' => zero = true,
                    _ => break,
                }
                i += 1;
            }
            let mut next_arg = |sp: &mut ObjSpace| -> R<Value> {
                if let Some(k) = keyed {
                    return Ok(k);
                }
                match arg_list.get(argi) {
                    Some(&v) if mapping.is_none() || arg_list.len() > 1 => {
                        argi += 1;
                        Ok(v)
                    }
                    Some(&v) => {
                        argi += 1;
                        Ok(v)
                    }
                    None => sp.type_error("not enough arguments for format string"),
                }
            };
            let mut width: Option<usize> = None;
            if i < n && f[i] == b'*' {
                let w = next_arg(self)?;
                let Some(w) = self.int_of(w) else {
                    return self.type_error("* wants int");
                };
                if w < 0 {
                    left = true;
                }
                width = Some(w.unsigned_abs().min(u64::MAX as u128) as usize);
                i += 1;
            } else {
                let start = i;
                while i < n && f[i].is_ascii_digit() {
                    i += 1;
                }
                if i > start {
                    width = std::str::from_utf8(&f[start..i])
                        .ok()
                        .map(|s| s.parse().unwrap_or(usize::MAX));
                }
            }
            let mut prec: Option<usize> = None;
            if i < n && f[i] == b'.' {
                i += 1;
                if i < n && f[i] == b'*' {
                    let p = next_arg(self)?;
                    prec = Some(self.int_of(p).unwrap_or(0).max(0) as usize);
                    i += 1;
                } else {
                    let start = i;
                    while i < n && f[i].is_ascii_digit() {
                        i += 1;
                    }
                    prec = Some(
                        std::str::from_utf8(&f[start..i])
                            .ok()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or(usize::MAX),
                    );
                    if i == start {
                        prec = Some(0);
                    }
                }
            }
            while i < n && matches!(f[i], b'h' | b'l' | b'L') {
                i += 1;
            }
            if i >= n {
                return self.value_error("incomplete format");
            }
            let conv = f[i];
            i += 1;
            if conv == b'%' {
                out.push(b'%');
                continue;
            }
            let arg = next_arg(self)?;
            if prec.is_some_and(|p| p > MAX_PRECISION) && conv != b's' && conv != b'r' {
                return Err(self.err(
                    "OverflowError",
                    "formatted number is too long (precision too large?)",
                ));
            }
            let mut sign_part = String::new();
            let body: Vec<u8> = match conv {
                b's' | b'r' => {
                    let mut s = if conv == b's' {
                        match arg {
                            Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_)) => {
                                unicode = true;
                                self.text_of(arg).unwrap_or_default().into_bytes()
                            }
                            _ => {
                                let is_inst_unicode = false;
                                let _ = is_inst_unicode;
                                self.str_value(arg)?
                            }
                        }
                    } else {
                        self.repr_value(arg)?
                    };
                    if let Some(p) = prec {
                        if unicode {
                            let t = String::from_utf8_lossy(&s)
                                .chars()
                                .take(p)
                                .collect::<String>();
                            s = t.into_bytes();
                        } else {
                            s.truncate(p);
                        }
                    }
                    s
                }
                b'd' | b'i' | b'u' | b'x' | b'X' | b'o' => {
                    let v = match self.num(arg) {
                        Some(Num::I(i, _)) | Some(Num::R(_, i)) => i,
                        Some(Num::F(x)) => {
                            if x.is_nan() || x.is_infinite() {
                                return Err(
                                    self.err("OverflowError", "cannot convert float to integer")
                                );
                            }
                            x.trunc() as i128
                        }
                        None => {
                            let tn = self.type_name(arg);
                            return self.type_error(format!(
                                "%{} format: a number is required, not {tn}",
                                conv as char
                            ));
                        }
                    };
                    if v < 0 {
                        sign_part.push('-');
                    } else if plus {
                        sign_part.push('+');
                    } else if space {
                        sign_part.push(' ');
                    }
                    let a = v.unsigned_abs();
                    let mut digits = match conv {
                        b'x' => format!("{a:x}"),
                        b'X' => format!("{a:X}"),
                        b'o' => format!("{a:o}"),
                        _ => a.to_string(),
                    };
                    if let Some(p) = prec {
                        while digits.len() < p {
                            digits.insert(0, '0');
                        }
                    }
                    if alt {
                        match conv {
                            b'x' => sign_part.push_str("0x"),
                            b'X' => sign_part.push_str("0X"),
                            b'o' if !digits.starts_with('0') => sign_part.push('0'),
                            _ => {}
                        }
                    }
                    digits.into_bytes()
                }
                b'e' | b'E' | b'f' | b'F' | b'g' | b'G' => {
                    let Some(x) = self.float_of(arg) else {
                        let tn = self.type_name(arg);
                        return self.type_error(format!("float argument required, not {tn}"));
                    };
                    if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
                        sign_part.push('-');
                    } else if plus {
                        sign_part.push('+');
                    } else if space {
                        sign_part.push(' ');
                    }
                    let a = x.abs();
                    let p = prec.unwrap_or(6);
                    let s = match conv {
                        b'e' | b'E' => format_e(a, p, alt, conv == b'E'),
                        b'f' | b'F' => format_f(a, p, alt),
                        _ => format_g(a, p, alt, conv == b'G'),
                    };
                    if x.is_nan() {
                        sign_part.clear();
                    }
                    s.into_bytes()
                }
                b'c' => match arg {
                    Value::Obj(id) if matches!(self.heap.get(id), Object::Str(s) if s.len() == 1) => {
                        self.str_bytes(arg).map(|s| s.to_vec()).unwrap_or_default()
                    }
                    Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_)) => {
                        unicode = true;
                        self.text_of(arg).unwrap_or_default().into_bytes()
                    }
                    _ => match self.int_of(arg) {
                        Some(c) if unicode => char::from_u32(c as u32)
                            .map(|c| c.to_string().into_bytes())
                            .unwrap_or_default(),
                        Some(c) if (0..256).contains(&c) => vec![c as u8],
                        Some(_) => {
                            return Err(self.err(
                                "OverflowError",
                                "unsigned byte integer is greater than maximum",
                            ))
                        }
                        None => return self.type_error("%c requires int or char"),
                    },
                },
                other => {
                    return self.value_error(format!(
                        "unsupported format character '{}' (0x{:x}) at index {}",
                        other as char,
                        other,
                        i - 1
                    ))
                }
            };
            let len_of = |b: &[u8]| {
                if unicode {
                    String::from_utf8_lossy(b).chars().count()
                } else {
                    b.len()
                }
            };
            let total = sign_part.len() + len_of(&body);
            let w = width.unwrap_or(0);
            if w > super::super::MAX_ITEMS {
                return Err(self.err(
                    "MemoryError",
                    "format width too large for the import-time model",
                ));
            }
            let numeric = matches!(
                conv,
                b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'e' | b'E' | b'f' | b'F' | b'g' | b'G'
            );
            if total >= w {
                out.extend_from_slice(sign_part.as_bytes());
                out.extend_from_slice(&body);
            } else if left {
                out.extend_from_slice(sign_part.as_bytes());
                out.extend_from_slice(&body);
                out.extend(std::iter::repeat_n(b' ', w - total));
            } else if zero && numeric {
                out.extend_from_slice(sign_part.as_bytes());
                out.extend(std::iter::repeat_n(b'0', w - total));
                out.extend_from_slice(&body);
            } else {
                out.extend(std::iter::repeat_n(b' ', w - total));
                out.extend_from_slice(sign_part.as_bytes());
                out.extend_from_slice(&body);
            }
        }
        if mapping.is_none() && argi < arg_list.len() {
            return self.type_error("not all arguments converted during string formatting");
        }
        let _ = used_mapping;
        if unicode {
            let s = String::from_utf8_lossy(&out).into_owned();
            Ok(self.new_unicode(&s))
        } else {
            Ok(self.new_str_vec(out))
        }
    }

    // ----- str.format -----

    /// `fmt.format(*args, **kwargs)`.
    pub fn str_format(&mut self, fmt: Value, args: &[Value], kwargs: &[(Rc<str>, Value)]) -> R {
        let unicode =
            matches!(fmt, Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_)));
        let text = self.text_of(fmt).unwrap_or_default();
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::new();
        let mut auto = 0usize;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '{' {
                if i + 1 < chars.len() && chars[i + 1] == '{' {
                    out.push('{');
                    i += 2;
                    continue;
                }
                let mut depth = 1;
                let start = i + 1;
                i += 1;
                while i < chars.len() && depth > 0 {
                    if chars[i] == '{' {
                        depth += 1;
                    } else if chars[i] == '}' {
                        depth -= 1;
                    }
                    i += 1;
                }
                if depth > 0 {
                    return self.value_error("Single '{' encountered in format string");
                }
                let field: String = chars[start..i - 1].iter().collect();
                let (field, spec) = match field.find(':') {
                    Some(p) => (field[..p].to_string(), field[p + 1..].to_string()),
                    None => (field.clone(), String::new()),
                };
                let (field, conv) = match field.find('!') {
                    Some(p) => (field[..p].to_string(), field[p + 1..].chars().next()),
                    None => (field, None),
                };
                // First part: index or name; then .attr / [key] parts.
                let first_end = field.find(['.', '[']).unwrap_or(field.len());
                let first = &field[..first_end];
                let mut value = if first.is_empty() {
                    let v = args.get(auto).copied();
                    auto += 1;
                    match v {
                        Some(v) => v,
                        None => return Err(self.err("IndexError", "tuple index out of range")),
                    }
                } else if let Ok(k) = first.parse::<usize>() {
                    match args.get(k) {
                        Some(&v) => v,
                        None => return Err(self.err("IndexError", "tuple index out of range")),
                    }
                } else {
                    match kwargs.iter().find(|(k, _)| &**k == first) {
                        Some((_, v)) => *v,
                        None => {
                            let k = self.new_str(first.as_bytes());
                            return Err(self.err_value("KeyError", k));
                        }
                    }
                };
                let mut rest = &field[first_end..];
                while !rest.is_empty() {
                    if let Some(r) = rest.strip_prefix('.') {
                        let end = r.find(['.', '[']).unwrap_or(r.len());
                        let name: Rc<str> = Rc::from(&r[..end]);
                        value = self.getattr(value, &name)?;
                        rest = &r[end..];
                    } else if let Some(r) = rest.strip_prefix('[') {
                        let end = r.find(']').unwrap_or(r.len());
                        let key = &r[..end];
                        let k = match key.parse::<i64>() {
                            Ok(n) => Value::Int(n),
                            Err(_) => self.new_str(key.as_bytes()),
                        };
                        value = self.getitem(value, k)?;
                        rest = if end < r.len() { &r[end + 1..] } else { "" };
                    } else {
                        break;
                    }
                }
                if let Some(cv) = conv {
                    let s = if cv == 'r' {
                        self.repr_value(value)?
                    } else {
                        self.str_value(value)?
                    };
                    value = self.new_str_vec(s);
                }
                let piece = self.format_spec(value, &spec)?;
                out.push_str(&piece);
                continue;
            }
            if c == '}' {
                if i + 1 < chars.len() && chars[i + 1] == '}' {
                    out.push('}');
                    i += 2;
                    continue;
                }
                return self.value_error("Single '}' encountered in format string");
            }
            out.push(c);
            i += 1;
        }
        if unicode {
            Ok(self.new_unicode(&out))
        } else {
            Ok(self.new_str(out.as_bytes()))
        }
    }

    /// `format(value, spec)`.
    pub fn format_spec(&mut self, value: Value, spec: &str) -> R<String> {
        let chars: Vec<char> = spec.chars().collect();
        let mut i = 0;
        let mut fill = ' ';
        let mut align: Option<char> = None;
        if chars.len() >= 2 && matches!(chars[1], '<' | '>' | '^' | '=') {
            fill = chars[0];
            align = Some(chars[1]);
            i = 2;
        } else if !chars.is_empty() && matches!(chars[0], '<' | '>' | '^' | '=') {
            align = Some(chars[0]);
            i = 1;
        }
        let mut sign = '-';
        if i < chars.len() && matches!(chars[i], '+' | '-' | ' ') {
            sign = chars[i];
            i += 1;
        }
        let mut alt = false;
        if i < chars.len() && chars[i] == '#' {
            alt = true;
            i += 1;
        }
        if i < chars.len() && chars[i] == '0' {
            if align.is_none() {
                fill = '0';
                align = Some('=');
            }
            i += 1;
        }
        let mut width = 0usize;
        while i < chars.len() && chars[i].is_ascii_digit() {
            width = width
                .saturating_mul(10)
                .saturating_add(chars[i].to_digit(10).unwrap_or(0) as usize);
            i += 1;
        }
        if width > super::super::MAX_ITEMS {
            return Err(self.err(
                "MemoryError",
                "format width too large for the import-time model",
            ));
        }
        let mut comma = false;
        if i < chars.len() && chars[i] == ',' {
            comma = true;
            i += 1;
        }
        let mut prec: Option<usize> = None;
        if i < chars.len() && chars[i] == '.' {
            i += 1;
            let mut p: usize = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                p = usize::saturating_add(
                    p.saturating_mul(10),
                    chars[i].to_digit(10).unwrap_or(0) as usize,
                );
                i += 1;
            }
            prec = Some(p);
        }
        let ty = chars.get(i).copied();
        let num = self.num(value);
        if prec.is_some_and(|p| p > MAX_PRECISION) && num.is_some() && ty != Some('s') {
            return self.value_error("Too many decimal digits in format string");
        }
        let ty_given = ty.is_some();
        let ty = match (ty, num) {
            (None, Some(Num::F(_))) if prec.is_some() => Some('g'),
            _ => ty,
        };
        let (mut sign_s, body, default_align): (String, String, char) = match (ty, num) {
            (Some('s') | None, None) | (Some('s'), _) => {
                let mut s = String::from_utf8_lossy(&self.str_value(value)?).into_owned();
                if let Some(p) = prec {
                    s = s.chars().take(p).collect();
                }
                (String::new(), s, '<')
            }
            (None, Some(Num::F(f))) if prec.is_none() => {
                let s = float_str(f.abs());
                (if f < 0.0 { "-".into() } else { String::new() }, s, '>')
            }
            (
                Some('d') | Some('x') | Some('X') | Some('o') | Some('b') | Some('c') | Some('n')
                | None,
                Some(n),
            ) => {
                let v = match n {
                    Num::I(i, _) | Num::R(_, i) => i,
                    Num::F(f) => {
                        if ty.is_some() {
                            return self
                                .value_error("Unknown format code 'd' for object of type 'float'");
                        }
                        f as i128
                    }
                };
                let a = v.unsigned_abs();
                let mut digits = match ty {
                    Some('x') => format!("{a:x}"),
                    Some('X') => format!("{a:X}"),
                    Some('o') => format!("{a:o}"),
                    Some('b') => format!("{a:b}"),
                    Some('c') => char::from_u32(a as u32)
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                    _ => a.to_string(),
                };
                if comma {
                    digits = group_thousands(&digits);
                }
                let mut prefix = String::new();
                if v < 0 {
                    prefix.push('-');
                } else if sign == '+' {
                    prefix.push('+');
                } else if sign == ' ' {
                    prefix.push(' ');
                }
                if alt {
                    match ty {
                        Some('x') => prefix.push_str("0x"),
                        Some('X') => prefix.push_str("0X"),
                        Some('o') => prefix.push_str("0o"),
                        Some('b') => prefix.push_str("0b"),
                        _ => {}
                    }
                }
                (prefix, digits, '>')
            }
            (Some(t @ ('f' | 'F' | 'e' | 'E' | 'g' | 'G' | '%')), Some(n)) => {
                let f = match n {
                    Num::I(i, _) | Num::R(_, i) => i as f64,
                    Num::F(f) => f,
                };
                let p = prec.unwrap_or(6);
                let a = f.abs();
                let mut s = match t {
                    'f' | 'F' => format_f(a, p, alt),
                    'e' | 'E' => format_e(a, p, alt, t == 'E'),
                    '%' => format!("{}%", format_f(a * 100.0, p, alt)),
                    _ => format_g(
                        a,
                        if prec.is_none() && !ty_given { 12 } else { p },
                        alt,
                        t == 'G',
                    ),
                };
                if comma {
                    let (int_part, rest) = match s.find(['.', 'e']) {
                        Some(p) => (s[..p].to_string(), s[p..].to_string()),
                        None => (s.clone(), String::new()),
                    };
                    s = group_thousands(&int_part) + &rest;
                }
                let mut prefix = String::new();
                if f < 0.0 {
                    prefix.push('-');
                } else if sign == '+' {
                    prefix.push('+');
                } else if sign == ' ' {
                    prefix.push(' ');
                }
                (prefix, s, '>')
            }
            (Some(t), _) => {
                let tn = self.type_name(value);
                return self.value_error(format!(
                    "Unknown format code '{t}' for object of type '{tn}'"
                ));
            }
        };
        let len = sign_s.chars().count() + body.chars().count();
        if len >= width {
            sign_s.push_str(&body);
            return Ok(sign_s);
        }
        let pad = width - len;
        let fill_s = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
        Ok(match align.unwrap_or(default_align) {
            '<' => format!("{sign_s}{body}{}", fill_s(pad)),
            '^' => format!("{}{sign_s}{body}{}", fill_s(pad / 2), fill_s(pad - pad / 2)),
            '=' => format!("{sign_s}{}{body}", fill_s(pad)),
            _ => format!("{}{sign_s}{body}", fill_s(pad)),
        })
    }
}

fn group_thousands(digits: &str) -> String {
    let bytes = digits.as_bytes();
    let mut out = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 && (bytes.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(b as char);
    }
    out
}
