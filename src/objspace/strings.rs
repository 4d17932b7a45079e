//! Methods of `str` and `unicode` (one implementation over code points: bytes for `str`,
//! characters for `unicode`), and the codecs ascii / utf-8 / latin-1.

use super::builtins::BArgs;
use super::object::{Object, Value};
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;

/// A classification of a code point (`unicode` tells which rules apply).
type CharPred = fn(u32, bool) -> bool;

/// A string as code points.
#[derive(Clone, Debug)]
struct Txt {
    unicode: bool,
    c: Vec<u32>,
}

fn is_space(c: u32, unicode: bool) -> bool {
    if unicode {
        char::from_u32(c).is_some_and(char::is_whitespace)
    } else {
        matches!(c, 0x20 | 0x09..=0x0d)
    }
}

fn is_alpha(c: u32, unicode: bool) -> bool {
    if unicode {
        char::from_u32(c).is_some_and(char::is_alphabetic)
    } else {
        (c as u8).is_ascii_alphabetic() && c < 128
    }
}

fn is_digit(c: u32, unicode: bool) -> bool {
    if unicode {
        char::from_u32(c).is_some_and(|ch| ch.is_numeric())
    } else {
        (b'0' as u32..=b'9' as u32).contains(&c)
    }
}

fn is_upper(c: u32, unicode: bool) -> bool {
    if unicode {
        char::from_u32(c).is_some_and(char::is_uppercase)
    } else {
        (b'A' as u32..=b'Z' as u32).contains(&c)
    }
}

fn is_lower(c: u32, unicode: bool) -> bool {
    if unicode {
        char::from_u32(c).is_some_and(char::is_lowercase)
    } else {
        (b'a' as u32..=b'z' as u32).contains(&c)
    }
}

fn to_lower(c: u32, unicode: bool, out: &mut Vec<u32>) {
    if unicode {
        match char::from_u32(c) {
            Some(ch) => out.extend(ch.to_lowercase().map(|x| x as u32)),
            None => out.push(c),
        }
    } else if is_upper(c, false) {
        out.push(c + 32);
    } else {
        out.push(c);
    }
}

fn to_upper(c: u32, unicode: bool, out: &mut Vec<u32>) {
    if unicode {
        match char::from_u32(c) {
            Some(ch) => out.extend(ch.to_uppercase().map(|x| x as u32)),
            None => out.push(c),
        }
    } else if is_lower(c, false) {
        out.push(c - 32);
    } else {
        out.push(c);
    }
}

/// Where `needle` may start in `hay[start..end]` (`end` clipped to the length): `None`
/// when the window is too short for it. An empty needle matches at every position.
fn candidate_starts(
    hay: &[u32],
    needle: &[u32],
    start: usize,
    end: usize,
) -> Option<std::ops::RangeInclusive<usize>> {
    let end = end.min(hay.len());
    if start > end || needle.len() > end - start {
        return None;
    }
    Some(start..=end - needle.len())
}

fn find_sub(hay: &[u32], needle: &[u32], start: usize, end: usize) -> Option<usize> {
    candidate_starts(hay, needle, start, end)?.find(|&i| &hay[i..i + needle.len()] == needle)
}

fn rfind_sub(hay: &[u32], needle: &[u32], start: usize, end: usize) -> Option<usize> {
    candidate_starts(hay, needle, start, end)?
        .rev()
        .find(|&i| &hay[i..i + needle.len()] == needle)
}

/// Python's slice-like normalization of `start`/`end` arguments of string methods. A
/// `start` beyond the end stays there (nothing is found from it, not even ""), so the
/// range may be empty with `start > end`.
fn norm_range(len: usize, start: Option<i64>, end: Option<i64>) -> (usize, usize) {
    let l = len as i64;
    let from_end = |v: i64| (v + l).max(0) as usize;
    let start = match start {
        Some(v) if v < 0 => from_end(v),
        Some(v) => v as usize,
        None => 0,
    };
    let end = match end {
        Some(v) if v < 0 => from_end(v),
        Some(v) => v.min(l) as usize,
        None => len,
    };
    (start, end)
}

impl ObjSpace {
    fn txt(&self, v: Value) -> Option<Txt> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => Some(Txt {
                    unicode: false,
                    c: s.iter().map(|&b| b as u32).collect(),
                }),
                Object::Unicode(u) => Some(Txt {
                    unicode: true,
                    c: u.codes().to_vec(),
                }),
                _ => None,
            },
            _ => None,
        }
    }

    fn promote_txt(&mut self, t: Txt) -> R<Txt> {
        if t.unicode {
            return Ok(t);
        }
        if let Some(pos) = t.c.iter().position(|&c| c >= 128) {
            let b = t.c[pos];
            return Err(self.err(
                "UnicodeDecodeError",
                format!("'ascii' codec can't decode byte 0x{b:02x} in position {pos}: ordinal not in range(128)"),
            ));
        }
        Ok(Txt {
            unicode: true,
            c: t.c,
        })
    }

    fn txt_value(&mut self, t: Txt) -> Value {
        if t.unicode {
            self.new_unicode_codes(t.c)
        } else {
            let b: Vec<u8> = t.c.iter().map(|&c| c as u8).collect();
            self.new_str_vec(b)
        }
    }

    fn txt_arg(&mut self, v: Value, meth: &str) -> R<Txt> {
        match self.txt(v) {
            Some(t) => Ok(t),
            None => {
                let tn = self.type_name(v);
                self.type_error(format!(
                    "{meth}() argument must be str or unicode, not {tn}"
                ))
            }
        }
    }

    fn opt_index(&mut self, v: Option<Value>) -> R<Option<i64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(v) => match self.int_of(v) {
                Some(i) => Ok(Some(i as i64)),
                None => self.type_error(
                    "slice indices must be integers or None or have an __index__ method",
                ),
            },
        }
    }

    /// The width a string is padded to (`ljust`, `center`, `zfill`…): no more than the
    /// model holds (MemoryError beyond).
    fn pad_width(&mut self, width: i128) -> R<usize> {
        let w = width.clamp(0, super::MAX_ITEMS as i128 + 1) as usize;
        if w > super::MAX_ITEMS {
            return Err(self.err("MemoryError", "width too large for the import-time model"));
        }
        Ok(w)
    }

    /// Every `str.*` and `unicode.*` method.
    pub(crate) fn string_method(&mut self, a: &mut BArgs) -> R {
        // str and unicode share the methods: the receiver says which applies
        let id = a.id.str_method().unwrap_or(a.id);
        let meth = id.short_name();
        let this = a.take_self(self)?;
        let Some(mut s) = self.txt(this) else {
            // (a unicode method is the str one's twin: the id it was called by says which)
            let class = if a.id == id { "str" } else { "unicode" };
            return self.descriptor_type_error(meth, class, this);
        };
        // `join` looks at its items twice (for unicode, then to join): an iterator
        // argument is consumed once, into a list.
        if matches!(id, B::StrJoin | B::UnicodeJoin) && a.args.len() == 1 {
            let items = self.iterate(a.args[0])?;
            // joining an unknown item gives an unknown (`"".join(random.choice(...) ...)`)
            if let Some(u) = self.first_unknown(&items) {
                return Ok(u);
            }
            a.args[0] = self.new_list(items);
        }
        // Mixing with unicode arguments promotes a str receiver to unicode.
        if !s.unicode
            && !matches!(
                id,
                B::StrDecode
                    | B::StrEncode
                    | B::StrFormat
                    | B::StrDunderMod
                    | B::StrDunderMul
                    | B::StrDunderGetitem
            )
        {
            let any_unicode = a.args.iter().any(
                |&v| matches!(v, Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_))),
            ) || (matches!(id, B::StrJoin)
                && {
                    let items = a
                        .args
                        .first()
                        .map(|&v| self.iterate(v))
                        .transpose()?
                        .unwrap_or_default();
                    let r = items.iter().any(|&v| matches!(v, Value::Obj(id) if matches!(self.heap.get(id), Object::Unicode(_))));
                    r
                });
            if any_unicode {
                s = self.promote_txt(s)?;
            }
        }
        let u = s.unicode;
        let arg = |a: &BArgs, i: usize, name: &str| a.get(i, name);
        match id {
            B::StrJoin => {
                a.arity(self, 1, 1)?;
                let items = self.iterate(a.args[0])?;
                let mut out: Vec<u32> = Vec::new();
                for (i, &x) in items.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(&s.c);
                    }
                    self.check_text_len(out.len())?;
                    match self.txt(x) {
                        Some(t) => {
                            let t = if u { self.promote_txt(t)? } else { t };
                            out.extend(t.c);
                        }
                        None => {
                            let tn = self.type_name(x);
                            return self.type_error(format!(
                                "sequence item {i}: expected string, {tn} found"
                            ));
                        }
                    }
                }
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrSplit | B::StrRsplit => {
                a.arity(self, 0, 2)?;
                let sep = arg(a, 0, "sep").filter(|v| *v != Value::None);
                let maxsplit = match arg(a, 1, "maxsplit") {
                    Some(v) => self.int_of(v).unwrap_or(-1) as i64,
                    None => -1,
                };
                let parts: Vec<Vec<u32>> = match sep {
                    None => split_whitespace(&s.c, u, maxsplit, matches!(id, B::StrRsplit)),
                    Some(sv) => {
                        let sep = self.txt_arg(sv, meth)?;
                        let sep = if u { self.promote_txt(sep)? } else { sep };
                        if sep.c.is_empty() {
                            return self.value_error("empty separator");
                        }
                        split_sep(&s.c, &sep.c, maxsplit, matches!(id, B::StrRsplit))
                    }
                };
                let items: Vec<Value> = parts
                    .into_iter()
                    .map(|p| self.txt_value(Txt { unicode: u, c: p }))
                    .collect();
                Ok(self.new_list(items))
            }
            B::StrStrip | B::StrLstrip | B::StrRstrip => {
                a.arity(self, 0, 1)?;
                let chars = match arg(a, 0, "chars").filter(|v| *v != Value::None) {
                    Some(v) => Some(self.txt_arg(v, meth)?.c),
                    None => None,
                };
                let keep = |c: u32| match &chars {
                    Some(set) => !set.contains(&c),
                    None => !is_space(c, u),
                };
                let mut start = 0;
                let mut end = s.c.len();
                if !matches!(id, B::StrRstrip) {
                    while start < end && !keep(s.c[start]) {
                        start += 1;
                    }
                }
                if !matches!(id, B::StrLstrip) {
                    while end > start && !keep(s.c[end - 1]) {
                        end -= 1;
                    }
                }
                if start == 0 && end == s.c.len() && !u {
                    return Ok(this);
                }
                Ok(self.txt_value(Txt {
                    unicode: u,
                    c: s.c[start..end].to_vec(),
                }))
            }
            B::StrReplace => {
                a.arity(self, 2, 3)?;
                let old = self.txt_arg(a.args[0], meth)?;
                let new = self.txt_arg(a.args[1], meth)?;
                let count = match a.args.get(2) {
                    Some(&v) => self.int_of(v).unwrap_or(-1) as i64,
                    None => -1,
                };
                let mut out = Vec::with_capacity(s.c.len());
                let mut i = 0;
                let mut n = 0i64;
                if old.c.is_empty() {
                    // Inserts `new` between every character.
                    self.check_text_len(s.c.len().saturating_mul(new.c.len() + 1))?;
                    for (k, &c) in s.c.iter().enumerate() {
                        if count < 0 || (k as i64) < count {
                            out.extend_from_slice(&new.c);
                        }
                        out.push(c);
                    }
                    if count < 0 || (s.c.len() as i64) < count {
                        out.extend_from_slice(&new.c);
                    }
                    return Ok(self.txt_value(Txt { unicode: u, c: out }));
                }
                while i < s.c.len() {
                    if (count < 0 || n < count) && s.c[i..].starts_with(&old.c) {
                        self.check_text_len(out.len() + new.c.len())?;
                        out.extend_from_slice(&new.c);
                        i += old.c.len();
                        n += 1;
                    } else {
                        out.push(s.c[i]);
                        i += 1;
                    }
                }
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrStartswith | B::StrEndswith => {
                a.arity(self, 1, 3)?;
                let start = self.opt_index(a.args.get(1).copied())?;
                let end = self.opt_index(a.args.get(2).copied())?;
                let (st, en) = norm_range(s.c.len(), start, end);
                let prefixes: Vec<Value> = match a.args[0] {
                    Value::Obj(id) => match self.heap.get(id) {
                        Object::Tuple(items) => items.clone(),
                        _ => vec![a.args[0]],
                    },
                    v => vec![v],
                };
                for p in prefixes {
                    let p = self.txt_arg(p, meth)?;
                    if st > en {
                        continue;
                    }
                    let window = &s.c[st..en];
                    let ok = if matches!(id, B::StrStartswith) {
                        window.starts_with(&p.c)
                    } else {
                        window.ends_with(&p.c)
                    };
                    if ok {
                        return Ok(Value::Bool(true));
                    }
                }
                Ok(Value::Bool(false))
            }
            B::StrFind | B::StrRfind | B::StrIndex | B::StrRindex | B::StrCount => {
                a.arity(self, 1, 3)?;
                let sub = self.txt_arg(a.args[0], meth)?;
                let start = self.opt_index(a.args.get(1).copied())?;
                let end = self.opt_index(a.args.get(2).copied())?;
                let (st, en) = norm_range(s.c.len(), start, end);
                if matches!(id, B::StrCount) {
                    if st > en {
                        return Ok(Value::Int(0));
                    }
                    if sub.c.is_empty() {
                        return Ok(Value::Int((en - st + 1) as i64));
                    }
                    let mut n = 0;
                    let mut i = st;
                    while let Some(p) = find_sub(&s.c, &sub.c, i, en) {
                        n += 1;
                        i = p + sub.c.len();
                    }
                    return Ok(Value::Int(n));
                }
                let r = if matches!(id, B::StrRfind | B::StrRindex) {
                    rfind_sub(&s.c, &sub.c, st, en)
                } else {
                    find_sub(&s.c, &sub.c, st, en)
                };
                match r {
                    Some(p) => Ok(Value::Int(p as i64)),
                    None if matches!(id, B::StrIndex | B::StrRindex) => {
                        self.value_error("substring not found")
                    }
                    None => Ok(Value::Int(-1)),
                }
            }
            B::StrLower | B::StrUpper | B::StrSwapcase | B::StrCapitalize | B::StrTitle => {
                a.arity(self, 0, 0)?;
                let mut out = Vec::with_capacity(s.c.len());
                let mut prev_cased = false;
                for (i, &c) in s.c.iter().enumerate() {
                    match id {
                        B::StrLower => to_lower(c, u, &mut out),
                        B::StrUpper => to_upper(c, u, &mut out),
                        B::StrSwapcase => {
                            if is_upper(c, u) {
                                to_lower(c, u, &mut out)
                            } else {
                                to_upper(c, u, &mut out)
                            }
                        }
                        B::StrCapitalize => {
                            if i == 0 {
                                to_upper(c, u, &mut out)
                            } else {
                                to_lower(c, u, &mut out)
                            }
                        }
                        _ => {
                            if prev_cased {
                                to_lower(c, u, &mut out)
                            } else {
                                to_upper(c, u, &mut out)
                            }
                            prev_cased = is_alpha(c, u);
                        }
                    }
                }
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrIsdigit
            | B::StrIsalpha
            | B::StrIsspace
            | B::StrIsalnum
            | B::StrIsdecimal
            | B::StrIsnumeric => {
                a.arity(self, 0, 0)?;
                if s.c.is_empty() {
                    return Ok(Value::Bool(false));
                }
                let f = |c: u32| match id {
                    B::StrIsdigit | B::StrIsdecimal | B::StrIsnumeric => is_digit(c, u),
                    B::StrIsalpha => is_alpha(c, u),
                    B::StrIsspace => is_space(c, u),
                    _ => is_alpha(c, u) || is_digit(c, u),
                };
                Ok(Value::Bool(s.c.iter().all(|&c| f(c))))
            }
            B::StrIsupper | B::StrIslower => {
                a.arity(self, 0, 0)?;
                let (want, other): (CharPred, CharPred) = if matches!(id, B::StrIsupper) {
                    (is_upper, is_lower)
                } else {
                    (is_lower, is_upper)
                };
                let any = s.c.iter().any(|&c| want(c, u));
                let none_other = !s.c.iter().any(|&c| other(c, u));
                Ok(Value::Bool(any && none_other))
            }
            B::StrIstitle => {
                a.arity(self, 0, 0)?;
                let mut prev_cased = false;
                let mut cased = false;
                for &c in &s.c {
                    if is_upper(c, u) {
                        if prev_cased {
                            return Ok(Value::Bool(false));
                        }
                        prev_cased = true;
                        cased = true;
                    } else if is_lower(c, u) {
                        if !prev_cased {
                            return Ok(Value::Bool(false));
                        }
                        prev_cased = true;
                        cased = true;
                    } else {
                        prev_cased = false;
                    }
                }
                Ok(Value::Bool(cased))
            }
            B::StrLjust | B::StrRjust | B::StrCenter => {
                a.arity(self, 1, 2)?;
                let Some(width) = self.int_of(a.args[0]) else {
                    return self.type_error("an integer is required");
                };
                let fill = match a.args.get(1) {
                    Some(&f) => {
                        let t = self.txt_arg(f, meth)?;
                        if t.c.len() != 1 {
                            return self
                                .type_error(format!("{meth}() argument 2 must be char, not str"));
                        }
                        t.c[0]
                    }
                    None => b' ' as u32,
                };
                let w = self.pad_width(width)?;
                if s.c.len() >= w {
                    return Ok(this);
                }
                let pad = w - s.c.len();
                let (l, r) = match id {
                    B::StrLjust => (0, pad),
                    B::StrRjust => (pad, 0),
                    _ => {
                        let left = pad / 2 + (pad & w & 1);
                        (left, pad - left)
                    }
                };
                let mut out = vec![fill; l];
                out.extend_from_slice(&s.c);
                out.extend(std::iter::repeat_n(fill, r));
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrZfill => {
                a.arity(self, 1, 1)?;
                let w = self.pad_width(self.int_of(a.args[0]).unwrap_or(0))?;
                if s.c.len() >= w {
                    return Ok(this);
                }
                let pad = w - s.c.len();
                let mut out = Vec::with_capacity(w);
                let mut rest = &s.c[..];
                if let Some(&c) = s.c.first() {
                    if c == b'+' as u32 || c == b'-' as u32 {
                        out.push(c);
                        rest = &s.c[1..];
                    }
                }
                out.extend(std::iter::repeat_n(b'0' as u32, pad));
                out.extend_from_slice(rest);
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrSplitlines => {
                a.arity(self, 0, 1)?;
                let keep = match arg(a, 0, "keepends") {
                    Some(v) => self.truth(v)?,
                    None => false,
                };
                let mut lines = Vec::new();
                let mut i = 0;
                let n = s.c.len();
                while i < n {
                    let start = i;
                    while i < n && !matches!(s.c[i], 0x0a | 0x0d) {
                        i += 1;
                    }
                    let mut eol = i;
                    if i < n {
                        if s.c[i] == 0x0d && i + 1 < n && s.c[i + 1] == 0x0a {
                            i += 2;
                        } else {
                            i += 1;
                        }
                        if keep {
                            eol = i;
                        }
                    }
                    lines.push(s.c[start..eol].to_vec());
                }
                let items: Vec<Value> = lines
                    .into_iter()
                    .map(|l| self.txt_value(Txt { unicode: u, c: l }))
                    .collect();
                Ok(self.new_list(items))
            }
            B::StrPartition | B::StrRpartition => {
                a.arity(self, 1, 1)?;
                let sep = self.txt_arg(a.args[0], meth)?;
                if sep.c.is_empty() {
                    return self.value_error("empty separator");
                }
                let pos = if matches!(id, B::StrPartition) {
                    find_sub(&s.c, &sep.c, 0, s.c.len())
                } else {
                    rfind_sub(&s.c, &sep.c, 0, s.c.len())
                };
                let empty = Txt {
                    unicode: u,
                    c: vec![],
                };
                let parts = match pos {
                    Some(p) => vec![
                        Txt {
                            unicode: u,
                            c: s.c[..p].to_vec(),
                        },
                        Txt {
                            unicode: u,
                            c: sep.c.clone(),
                        },
                        Txt {
                            unicode: u,
                            c: s.c[p + sep.c.len()..].to_vec(),
                        },
                    ],
                    None if matches!(id, B::StrPartition) => vec![s.clone(), empty.clone(), empty],
                    None => vec![empty.clone(), empty, s.clone()],
                };
                let items: Vec<Value> = parts.into_iter().map(|t| self.txt_value(t)).collect();
                Ok(self.new_tuple(items))
            }
            B::StrExpandtabs => {
                a.arity(self, 0, 1)?;
                let ts = match a.args.first() {
                    Some(&v) => self.int_of(v).unwrap_or(8).max(0) as usize,
                    None => 8,
                };
                let mut out = Vec::new();
                let mut col = 0;
                for &c in &s.c {
                    if c == 9 {
                        if ts > 0 {
                            let n = ts - col % ts;
                            self.check_text_len(out.len().saturating_add(n))?;
                            out.extend(std::iter::repeat_n(b' ' as u32, n));
                            col += n;
                        }
                    } else {
                        out.push(c);
                        col = if c == 10 || c == 13 { 0 } else { col + 1 };
                    }
                }
                Ok(self.txt_value(Txt { unicode: u, c: out }))
            }
            B::StrEncode | B::StrDecode => {
                a.arity(self, 0, 2)?;
                let enc = match arg(a, 0, "encoding") {
                    Some(v) => self.text_of(v).unwrap_or_default(),
                    None => "ascii".into(),
                };
                let errors = match arg(a, 1, "errors") {
                    Some(v) => self.text_of(v).unwrap_or_default(),
                    None => "strict".into(),
                };
                let enc = enc.to_ascii_lowercase().replace('_', "-");
                if matches!(&*enc, "hex" | "hex-codec") {
                    // Python 2's bytes-to-bytes codec: a str either way (unicode is
                    // encoded with ascii first).
                    let bytes: Vec<u8> = if u {
                        self.ascii_bytes_of(&s.c, "strict")?
                    } else {
                        s.c.iter().map(|&c| c as u8).collect()
                    };
                    let out = self.hex_codec(&bytes, matches!(id, B::StrDecode))?;
                    return Ok(self.new_str_vec(out));
                }
                if matches!(id, B::StrDecode) {
                    let bytes: Vec<u8> = if u {
                        // unicode.decode: encode with ascii first (Python 2).
                        self.ascii_bytes_of(&s.c, &errors)?
                    } else {
                        s.c.iter().map(|&c| c as u8).collect()
                    };
                    let text = self.decode_bytes(&bytes, &enc, &errors)?;
                    Ok(self.new_unicode(&text))
                } else {
                    let text: String = if u {
                        s.c.iter().filter_map(|&c| char::from_u32(c)).collect()
                    } else {
                        let bytes: Vec<u8> = s.c.iter().map(|&c| c as u8).collect();
                        self.decode_bytes(&bytes, "ascii", "strict")?
                    };
                    let out = self.encode_text(&text, &enc, &errors)?;
                    Ok(self.new_str_vec(out))
                }
            }
            B::StrFormat => {
                let args = a.args.clone();
                let kwargs = a.kwargs.clone();
                self.str_format(this, &args, &kwargs)
            }
            B::StrDunderGetitem => {
                a.arity(self, 1, 1)?;
                self.getitem(this, a.args[0])
            }
            B::StrDunderLen => Ok(Value::Int(s.c.len() as i64)),
            B::StrDunderContains => {
                a.arity(self, 1, 1)?;
                let r = self.contains(this, a.args[0])?;
                Ok(Value::Bool(r))
            }
            B::StrDunderAdd => {
                a.arity(self, 1, 1)?;
                self.binary(crate::interpreter::Op::Add, this, a.args[0])
            }
            B::StrDunderMul => {
                a.arity(self, 1, 1)?;
                self.binary(crate::interpreter::Op::Mul, this, a.args[0])
            }
            B::StrDunderMod => {
                a.arity(self, 1, 1)?;
                self.percent_format(this, a.args[0])
            }
            _ => Err(self.unsupported(format!("str.{meth} is not modelled"))),
        }
    }

    fn ascii_bytes_of(&mut self, c: &[u32], errors: &str) -> R<Vec<u8>> {
        let mut out = Vec::with_capacity(c.len());
        for (i, &ch) in c.iter().enumerate() {
            if ch < 128 {
                out.push(ch as u8);
            } else {
                match errors {
                    "ignore" => {}
                    "replace" => out.push(b'?'),
                    _ => {
                        return Err(self.err(
                            "UnicodeEncodeError",
                            format!("'ascii' codec can't encode character u'\\x{ch:x}' in position {i}: ordinal not in range(128)"),
                        ))
                    }
                }
            }
        }
        Ok(out)
    }

    /// The `hex` codec: two hexadecimal digits per byte (`binascii.unhexlify` when
    /// decoding, with its errors, `hexlify` when encoding).
    fn hex_codec(&mut self, b: &[u8], decode: bool) -> R<Vec<u8>> {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        if !decode {
            return Ok(b
                .iter()
                .flat_map(|&c| [DIGITS[(c >> 4) as usize], DIGITS[(c & 15) as usize]])
                .collect());
        }
        if b.len() % 2 == 1 {
            return Err(self.err("TypeError", "Odd-length string"));
        }
        let digit = |c: u8| (c as char).to_digit(16);
        let mut out = Vec::with_capacity(b.len() / 2);
        for pair in b.chunks(2) {
            match (digit(pair[0]), digit(pair[1])) {
                (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
                _ => return Err(self.err("TypeError", "Non-hexadecimal digit found")),
            }
        }
        Ok(out)
    }

    /// Decodes bytes with a codec.
    pub(crate) fn decode_bytes(&mut self, b: &[u8], enc: &str, errors: &str) -> R<String> {
        match enc {
            "ascii" | "us-ascii" => {
                let mut out = String::with_capacity(b.len());
                for (i, &c) in b.iter().enumerate() {
                    if c < 128 {
                        out.push(c as char);
                    } else {
                        match errors {
                            "ignore" => {}
                            "replace" => out.push('\u{fffd}'),
                            _ => {
                                return Err(self.err(
                                    "UnicodeDecodeError",
                                    format!("'ascii' codec can't decode byte 0x{c:02x} in position {i}: ordinal not in range(128)"),
                                ))
                            }
                        }
                    }
                }
                Ok(out)
            }
            "utf-8" | "utf8" | "u8" => match std::str::from_utf8(b) {
                Ok(s) => Ok(s.to_string()),
                Err(e) => match errors {
                    "ignore" | "replace" => {
                        let s = String::from_utf8_lossy(b);
                        Ok(if errors == "ignore" {
                            s.replace('\u{fffd}', "")
                        } else {
                            s.into_owned()
                        })
                    }
                    _ => {
                        let pos = e.valid_up_to();
                        let byte = b[pos];
                        Err(self.err(
                            "UnicodeDecodeError",
                            format!("'utf8' codec can't decode byte 0x{byte:02x} in position {pos}: invalid start byte"),
                        ))
                    }
                },
            },
            "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1" => {
                Ok(b.iter().map(|&c| c as char).collect())
            }
            other => Err(self.err("LookupError", format!("unknown encoding: {other}"))),
        }
    }

    /// Encodes text with a codec.
    pub(crate) fn encode_text(&mut self, s: &str, enc: &str, errors: &str) -> R<Vec<u8>> {
        match enc {
            "utf-8" | "utf8" | "u8" => Ok(s.as_bytes().to_vec()),
            "ascii" | "us-ascii" | "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "l1" => {
                let limit = if enc.contains("ascii") { 128 } else { 256 };
                let codec = if limit == 128 { "ascii" } else { "latin-1" };
                let mut out = Vec::with_capacity(s.len());
                for (i, c) in s.chars().enumerate() {
                    if (c as u32) < limit {
                        out.push(c as u32 as u8);
                    } else {
                        match errors {
                            "ignore" => {}
                            "replace" => out.push(b'?'),
                            _ => {
                                return Err(self.err(
                                    "UnicodeEncodeError",
                                    format!(
                                        "'{codec}' codec can't encode character u'\\u{:04x}' in position {i}: ordinal not in range({limit})",
                                        c as u32
                                    ),
                                ))
                            }
                        }
                    }
                }
                Ok(out)
            }
            other => Err(self.err("LookupError", format!("unknown encoding: {other}"))),
        }
    }
}

fn split_whitespace(c: &[u32], u: bool, maxsplit: i64, reverse: bool) -> Vec<Vec<u32>> {
    let mut parts = Vec::new();
    if !reverse {
        let mut i = 0;
        let n = c.len();
        let mut splits = 0;
        loop {
            while i < n && is_space(c[i], u) {
                i += 1;
            }
            if i >= n {
                break;
            }
            if maxsplit >= 0 && splits >= maxsplit {
                let mut end = n;
                while end > i && is_space(c[end - 1], u) {
                    end -= 1;
                }
                parts.push(c[i..end].to_vec());
                break;
            }
            let start = i;
            while i < n && !is_space(c[i], u) {
                i += 1;
            }
            parts.push(c[start..i].to_vec());
            splits += 1;
        }
    } else {
        let mut i = c.len();
        let mut splits = 0;
        loop {
            while i > 0 && is_space(c[i - 1], u) {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            if maxsplit >= 0 && splits >= maxsplit {
                let mut start = 0;
                while start < i && is_space(c[start], u) {
                    start += 1;
                }
                parts.push(c[start..i].to_vec());
                break;
            }
            let end = i;
            while i > 0 && !is_space(c[i - 1], u) {
                i -= 1;
            }
            parts.push(c[i..end].to_vec());
            splits += 1;
        }
        parts.reverse();
    }
    parts
}

fn split_sep(c: &[u32], sep: &[u32], maxsplit: i64, reverse: bool) -> Vec<Vec<u32>> {
    let mut parts = Vec::new();
    let mut splits = 0;
    if !reverse {
        let mut start = 0;
        let mut i = 0;
        while i + sep.len() <= c.len() {
            if maxsplit >= 0 && splits >= maxsplit {
                break;
            }
            if &c[i..i + sep.len()] == sep {
                parts.push(c[start..i].to_vec());
                i += sep.len();
                start = i;
                splits += 1;
            } else {
                i += 1;
            }
        }
        parts.push(c[start..].to_vec());
    } else {
        let mut end = c.len();
        let mut i = c.len();
        while i >= sep.len() {
            if maxsplit >= 0 && splits >= maxsplit {
                break;
            }
            if &c[i - sep.len()..i] == sep {
                parts.push(c[i..end].to_vec());
                i -= sep.len();
                end = i;
                splits += 1;
            } else {
                i -= 1;
            }
        }
        parts.push(c[..end].to_vec());
        parts.reverse();
    }
    parts
}
