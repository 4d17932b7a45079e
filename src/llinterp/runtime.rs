//! The runtime functions of `lltypesystem::runtime`, as the LLInterpreter runs them: string,
//! list and dict helpers over the low-level heap, number formatting, and the external
//! functions (`os.write` to the real file descriptor, the clock, `math`). Each takes its
//! arguments' low-level types and its result type from the call's function pointer type,
//! which is how the generic list and dict helpers know their layouts.

use super::{LlInterpreter, Unwind};
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlPtr, LlType, LlValue, TypeDef};
use crate::syntax::Span;

type R = Result<LlValue, Unwind>;

/// A dict key by value: strings by content, pointers by identity, tuples item by item.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HKey {
    Null,
    I(i64),
    F(u64),
    Bytes(Vec<u8>),
    Uni(Vec<u32>),
    Ptr(u32),
    Tuple(Vec<HKey>),
}

/// Layout of a list type: fixed-size (a GcArray) or resizable (`list {length, items}`).
struct ListLayout {
    fixed: bool,
    /// The GcArray type of the items.
    array: LlType,
}

impl<'p> LlInterpreter<'p> {
    fn fatal_at(&self, span: Span, msg: impl Into<String>) -> Unwind {
        Unwind::Fatal {
            msg: msg.into(),
            span,
        }
    }

    pub(crate) fn mkstr(&mut self, bytes: &[u8]) -> LlPtr {
        let st = self.prog.types.pointee(self.prog.str_ptr).unwrap();
        let p = self.heap.malloc(&self.prog.types, st, bytes.len());
        if let Ok(b) = self.heap.bytes_mut(p) {
            b.copy_from_slice(bytes);
        }
        p
    }
    fn sbytes(&self, v: LlValue) -> Option<Vec<u8>> {
        match v.as_ptr() {
            LlPtr::Null => None,
            p => self.heap.bytes(p).ok().map(|b| b.to_vec()),
        }
    }
    fn s(&self, v: LlValue, span: Span) -> Result<Vec<u8>, Unwind> {
        self.sbytes(v)
            .ok_or_else(|| self.fatal_at(span, "dereference of None (a null string)"))
    }
    fn strv(&mut self, bytes: &[u8]) -> LlValue {
        LlValue::Ptr(self.mkstr(bytes))
    }

    fn list_layout(&self, ty: LlType) -> Option<ListLayout> {
        let types = &self.prog.types;
        let to = types.pointee(ty)?;
        match types.def(to) {
            TypeDef::Array { .. } => Some(ListLayout {
                fixed: true,
                array: to,
            }),
            TypeDef::Struct { .. } => {
                let items = types.field_type(to, "items")?;
                Some(ListLayout {
                    fixed: false,
                    array: types.pointee(items)?,
                })
            }
            _ => None,
        }
    }

    fn list_items(&self, p: LlPtr, ty: LlType) -> Result<Vec<LlValue>, Unwind> {
        let lay = self
            .list_layout(ty)
            .ok_or_else(|| self.fatal_at(Span::default(), "not a list"))?;
        let (arr, n) = self.list_arr_len(p, ty, &lay)?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(
                self.heap
                    .getitem(arr, i as i64)
                    .map_err(|e| self.fatal_at(Span::default(), e.to_string()))?,
            );
        }
        Ok(out)
    }

    fn list_arr_len(
        &self,
        p: LlPtr,
        ty: LlType,
        lay: &ListLayout,
    ) -> Result<(LlPtr, usize), Unwind> {
        if p == LlPtr::Null {
            return Err(self.fatal_at(Span::default(), "dereference of None (a null list)"));
        }
        if lay.fixed {
            return Ok((p, self.heap.len(p).unwrap_or(0)));
        }
        let st = self.prog.types.pointee(ty).unwrap();
        let types = &self.prog.types;
        let n = self
            .heap
            .getfield(types, p, st, "length")
            .map(|v| v.as_int())
            .unwrap_or(0) as usize;
        let arr = self
            .heap
            .getfield(types, p, st, "items")
            .map(|v| v.as_ptr())
            .unwrap_or(LlPtr::Null);
        Ok((arr, n))
    }

    /// A new list of type `ty` holding `items`.
    pub(crate) fn list_new(&mut self, ty: LlType, items: Vec<LlValue>) -> LlPtr {
        let Some(lay) = self.list_layout(ty) else {
            return LlPtr::Null;
        };
        let arr = self.heap.malloc(&self.prog.types, lay.array, items.len());
        for (i, v) in items.iter().enumerate() {
            let _ = self.heap.setitem(arr, i as i64, *v);
        }
        if lay.fixed {
            return arr;
        }
        let st = self.prog.types.pointee(ty).unwrap();
        let p = self.heap.malloc(&self.prog.types, st, 0);
        let types = &self.prog.types;
        let _ = self
            .heap
            .setfield(types, p, st, "length", LlValue::Int(items.len() as i64));
        let _ = self.heap.setfield(types, p, st, "items", LlValue::Ptr(arr));
        p
    }

    /// Replaces the items of a resizable list (the items array grows with some room, as
    /// RPython's lists overallocate).
    fn list_set_items(&mut self, p: LlPtr, ty: LlType, items: &[LlValue]) -> Result<(), Unwind> {
        let lay = self
            .list_layout(ty)
            .ok_or_else(|| self.fatal_at(Span::default(), "not a list"))?;
        if lay.fixed {
            return Err(self.fatal_at(Span::default(), "resizing a fixed-size list"));
        }
        let st = self.prog.types.pointee(ty).unwrap();
        let (arr, _) = self.list_arr_len(p, ty, &lay)?;
        let cap = self.heap.len(arr).unwrap_or(0);
        let arr = if items.len() > cap {
            let newcap = items.len() + (items.len() >> 3) + if items.len() < 9 { 3 } else { 6 };
            let a = self.heap.malloc(&self.prog.types, lay.array, newcap);
            let types = &self.prog.types;
            let _ = self.heap.setfield(types, p, st, "items", LlValue::Ptr(a));
            a
        } else {
            arr
        };
        for (i, v) in items.iter().enumerate() {
            let _ = self.heap.setitem(arr, i as i64, *v);
        }
        let types = &self.prog.types;
        let _ = self
            .heap
            .setfield(types, p, st, "length", LlValue::Int(items.len() as i64));
        Ok(())
    }

    fn list_push(&mut self, p: LlPtr, ty: LlType, v: LlValue) -> Result<(), Unwind> {
        let lay = self
            .list_layout(ty)
            .ok_or_else(|| self.fatal_at(Span::default(), "not a list"))?;
        let (arr, n) = self.list_arr_len(p, ty, &lay)?;
        let cap = self.heap.len(arr).unwrap_or(0);
        if n < cap {
            let _ = self.heap.setitem(arr, n as i64, v);
            let st = self.prog.types.pointee(ty).unwrap();
            let types = &self.prog.types;
            let _ = self
                .heap
                .setfield(types, p, st, "length", LlValue::Int(n as i64 + 1));
            return Ok(());
        }
        let mut items = self.list_items(p, ty)?;
        items.push(v);
        self.list_set_items(p, ty, &items)
    }

    /// The hashable identity of a value of type `ty`.
    fn hkey(&self, v: LlValue, ty: LlType) -> HKey {
        match v {
            LlValue::Int(i) => HKey::I(i),
            LlValue::Uint(u) => HKey::I(u as i64),
            LlValue::Bool(b) => HKey::I(b as i64),
            LlValue::Char(c) => HKey::I(c as i64),
            LlValue::UniChar(c) => HKey::I(c as i64),
            LlValue::Float(f) => HKey::F(if f == 0.0 { 0 } else { f.to_bits() }),
            LlValue::Ptr(LlPtr::Null) => HKey::Null,
            LlValue::Ptr(p @ LlPtr::Obj { obj, .. }) => {
                let types = &self.prog.types;
                if ty == self.prog.str_ptr {
                    return HKey::Bytes(self.heap.bytes(p).unwrap_or(&[]).to_vec());
                }
                let to = types.pointee(ty);
                if let Some(to) = to {
                    if types.struct_name(to).is_some_and(|n| &**n == "rpy_unicode") {
                        let n = self.heap.len(p).unwrap_or(0);
                        let mut out = Vec::new();
                        for i in 0..n {
                            out.push(
                                self.heap
                                    .getinterior(
                                        types,
                                        p,
                                        to,
                                        &[
                                            crate::lltypesystem::Offset::Field("chars".into()),
                                            crate::lltypesystem::Offset::Index(i as i64),
                                        ],
                                    )
                                    .map(|c| c.as_int() as u32)
                                    .unwrap_or(0),
                            );
                        }
                        return HKey::Uni(out);
                    }
                    if types
                        .struct_name(to)
                        .is_some_and(|n| n.starts_with("tuple"))
                    {
                        let fields: Vec<(std::rc::Rc<str>, LlType)> = types.fields(to).to_vec();
                        return HKey::Tuple(
                            fields
                                .iter()
                                .map(|(f, ft)| {
                                    let x = self
                                        .heap
                                        .getfield(types, p, to, f)
                                        .unwrap_or(LlValue::Void);
                                    self.hkey(x, *ft)
                                })
                                .collect(),
                        );
                    }
                }
                HKey::Ptr(obj)
            }
            LlValue::Ptr(LlPtr::Func(f)) => HKey::Ptr(u32::MAX - f),
            _ => HKey::Null,
        }
    }

    // ---- dicts: `dict {num_live, num_used, entries: Ptr(GcArray(entry{key, value, live}))}`

    fn dict_types(&self, ty: LlType) -> (LlType, LlType, LlType, LlType) {
        let types = &self.prog.types;
        let st = types.pointee(ty).unwrap_or(LlType::VOID);
        let ept = types.field_type(st, "entries").unwrap_or(LlType::VOID);
        let arr = types.pointee(ept).unwrap_or(LlType::VOID);
        let entry = types.array_item(arr).unwrap_or(LlType::VOID);
        let kt = types.field_type(entry, "key").unwrap_or(LlType::VOID);
        (st, arr, entry, kt)
    }

    fn dict_new(&mut self, ty: LlType) -> LlPtr {
        let (st, arr, _, _) = self.dict_types(ty);
        let p = self.heap.malloc(&self.prog.types, st, 0);
        let e = self.heap.malloc(&self.prog.types, arr, 8);
        let _ = self
            .heap
            .setfield(&self.prog.types, p, st, "entries", LlValue::Ptr(e));
        if let LlPtr::Obj { obj, .. } = p {
            self.dict_index.insert(obj, Default::default());
        }
        p
    }

    fn dict_obj(&self, d: LlPtr, span: Span) -> Result<u32, Unwind> {
        match d {
            LlPtr::Obj { obj, .. } => Ok(obj),
            _ => Err(self.fatal_at(span, "dereference of None (a null dict)")),
        }
    }

    fn entry_get(&self, d: LlPtr, ty: LlType, i: usize, field: &str) -> LlValue {
        let (st, arr, _, _) = self.dict_types(ty);
        let types = &self.prog.types;
        let e = self
            .heap
            .getfield(types, d, st, "entries")
            .map(|v| v.as_ptr())
            .unwrap_or(LlPtr::Null);
        self.heap
            .getinterior(
                types,
                e,
                arr,
                &[
                    crate::lltypesystem::Offset::Index(i as i64),
                    crate::lltypesystem::Offset::Field(field.into()),
                ],
            )
            .unwrap_or(LlValue::Void)
    }
    fn entry_set(&mut self, d: LlPtr, ty: LlType, i: usize, field: &str, v: LlValue) {
        let (st, arr, _, _) = self.dict_types(ty);
        let types = &self.prog.types;
        let e = self
            .heap
            .getfield(types, d, st, "entries")
            .map(|v| v.as_ptr())
            .unwrap_or(LlPtr::Null);
        let _ = self.heap.setinterior(
            types,
            e,
            arr,
            &[
                crate::lltypesystem::Offset::Index(i as i64),
                crate::lltypesystem::Offset::Field(field.into()),
            ],
            v,
        );
    }
    fn dict_counts(&self, d: LlPtr, ty: LlType) -> (i64, i64) {
        let (st, ..) = self.dict_types(ty);
        let types = &self.prog.types;
        let live = self
            .heap
            .getfield(types, d, st, "num_live")
            .map(|v| v.as_int())
            .unwrap_or(0);
        let used = self
            .heap
            .getfield(types, d, st, "num_used")
            .map(|v| v.as_int())
            .unwrap_or(0);
        (live, used)
    }
    fn dict_set_counts(&mut self, d: LlPtr, ty: LlType, live: i64, used: i64) {
        let (st, ..) = self.dict_types(ty);
        let types = &self.prog.types;
        let _ = self
            .heap
            .setfield(types, d, st, "num_live", LlValue::Int(live));
        let _ = self
            .heap
            .setfield(types, d, st, "num_used", LlValue::Int(used));
    }

    fn dict_lookup(
        &mut self,
        d: LlPtr,
        ty: LlType,
        k: LlValue,
        span: Span,
    ) -> Result<Option<usize>, Unwind> {
        let obj = self.dict_obj(d, span)?;
        let (st, _, _, kt) = self.dict_types(ty);
        if self.prog.types.field_type(st, "fneq").is_some() {
            // an r_dict: the key's hash and equality are the program's functions
            let types = &self.prog.types;
            let fneq = self
                .heap
                .getfield(types, d, st, "fneq")
                .map(|v| v.as_ptr())
                .unwrap_or(LlPtr::Null);
            let fnhash = self
                .heap
                .getfield(types, d, st, "fnhash")
                .map(|v| v.as_ptr())
                .unwrap_or(LlPtr::Null);
            let (LlPtr::Func(eq), LlPtr::Func(hash)) = (fneq, fnhash) else {
                return Err(self.fatal_at(span, "an r_dict without its functions"));
            };
            self.call_function(hash, &[k], span)?;
            for i in self.dict_live_entries(d, ty) {
                let ek = self.entry_get(d, ty, i, "key");
                if self.call_function(eq, &[ek, k], span)?.as_bool() {
                    return Ok(Some(i));
                }
            }
            return Ok(None);
        }
        let key = self.hkey(k, kt);
        if !self.dict_index.contains_key(&obj) {
            self.rebuild_index(d, ty);
        }
        Ok(self.dict_index[&obj].get(&key).copied())
    }

    fn rebuild_index(&mut self, d: LlPtr, ty: LlType) {
        let LlPtr::Obj { obj, .. } = d else { return };
        let (_, used) = self.dict_counts(d, ty);
        let (.., kt) = self.dict_types(ty);
        let mut idx = std::collections::HashMap::new();
        for i in 0..used as usize {
            if self.entry_get(d, ty, i, "live").as_bool() {
                let k = self.entry_get(d, ty, i, "key");
                idx.insert(self.hkey(k, kt), i);
            }
        }
        self.dict_index.insert(obj, idx);
    }

    fn dict_set(
        &mut self,
        d: LlPtr,
        ty: LlType,
        k: LlValue,
        v: LlValue,
        span: Span,
    ) -> Result<(), Unwind> {
        if let Some(i) = self.dict_lookup(d, ty, k, span)? {
            self.entry_set(d, ty, i, "value", v);
            return Ok(());
        }
        let (st, arr, _, kt) = self.dict_types(ty);
        let (live, used) = self.dict_counts(d, ty);
        let types = &self.prog.types;
        let e = self
            .heap
            .getfield(types, d, st, "entries")
            .map(|v| v.as_ptr())
            .unwrap_or(LlPtr::Null);
        let cap = self.heap.len(e).unwrap_or(0);
        if used as usize >= cap {
            // grow the entries, keeping their order
            let newcap = cap * 2 + 8;
            let ne = self.heap.malloc(&self.prog.types, arr, newcap);
            for i in 0..used as usize {
                for f in ["key", "value", "live"] {
                    let x = self.entry_get(d, ty, i, f);
                    let _ = self.heap.setinterior(
                        &self.prog.types,
                        ne,
                        arr,
                        &[
                            crate::lltypesystem::Offset::Index(i as i64),
                            crate::lltypesystem::Offset::Field(f.into()),
                        ],
                        x,
                    );
                }
            }
            let _ = self
                .heap
                .setfield(&self.prog.types, d, st, "entries", LlValue::Ptr(ne));
        }
        let i = used as usize;
        self.entry_set(d, ty, i, "key", k);
        self.entry_set(d, ty, i, "value", v);
        self.entry_set(d, ty, i, "live", LlValue::Bool(true));
        self.dict_set_counts(d, ty, live + 1, used + 1);
        let key = self.hkey(k, kt);
        let obj = self.dict_obj(d, span)?;
        self.dict_index.entry(obj).or_default().insert(key, i);
        Ok(())
    }

    fn dict_del(&mut self, d: LlPtr, ty: LlType, i: usize) {
        let (.., kt) = self.dict_types(ty);
        let k = self.entry_get(d, ty, i, "key");
        self.entry_set(d, ty, i, "live", LlValue::Bool(false));
        let zero_k = LlValue::zero(&self.prog.types, kt);
        self.entry_set(d, ty, i, "key", zero_k);
        let (live, used) = self.dict_counts(d, ty);
        self.dict_set_counts(d, ty, live - 1, used);
        let key = self.hkey(k, kt);
        if let LlPtr::Obj { obj, .. } = d {
            if let Some(idx) = self.dict_index.get_mut(&obj) {
                idx.remove(&key);
            }
        }
    }

    fn dict_live_entries(&self, d: LlPtr, ty: LlType) -> Vec<usize> {
        let (_, used) = self.dict_counts(d, ty);
        (0..used as usize)
            .filter(|&i| self.entry_get(d, ty, i, "live").as_bool())
            .collect()
    }

    fn new_tuple(&mut self, ty: LlType, items: &[LlValue]) -> LlValue {
        let st = self.prog.types.pointee(ty).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.prog.types, st, 0);
        for (i, v) in items.iter().enumerate() {
            let _ = self
                .heap
                .setfield(&self.prog.types, p, st, &format!("item{}", i), *v);
        }
        LlValue::Ptr(p)
    }

    fn values_eq(&self, a: LlValue, b: LlValue, ty: LlType) -> bool {
        self.hkey(a, ty) == self.hkey(b, ty)
    }

    fn list_item_type(&self, ty: LlType) -> LlType {
        self.list_layout(ty)
            .and_then(|l| self.prog.types.array_item(l.array))
            .unwrap_or(LlType::VOID)
    }

    /// Calls a runtime function with arguments of types `argtys` and result type `rty`.
    pub(super) fn call_runtime(
        &mut self,
        f: RuntimeFn,
        a: &[LlValue],
        argtys: &[LlType],
        rty: LlType,
        span: Span,
    ) -> R {
        use RuntimeFn::*;
        let ty = |i: usize| argtys.get(i).copied().unwrap_or(LlType::VOID);
        let int = |i: usize| a[i].as_int();
        if argtys.iter().chain([&rty]).any(|t| self.is_unicode(*t))
            || matches!(f, UniEncode | StrDecode)
        {
            if let Some(r) = self.call_unicode(f, a, argtys, rty, span)? {
                return Ok(r);
            }
        }
        Ok(match f {
            OsWrite => {
                let data = self.s(a[1], span)?;
                match self.write_fd(int(0), &data) {
                    Ok(n) => LlValue::Int(n as i64),
                    Err(_) => return Err(self.raise_std("OSError")),
                }
            }
            OsRead => {
                let (fd, n) = (int(0), int(1).max(0) as usize);
                if fd != 0 {
                    return Err(self.raise_std("OSError"));
                }
                let mut buf = vec![0u8; n];
                use std::io::Read;
                let got = std::io::stdin()
                    .read(&mut buf)
                    .map_err(|_| self.raise_std("OSError"))?;
                buf.truncate(got);
                self.strv(&buf)
            }
            OsOpen | OsClose => {
                return Err(self.fatal_at(span, "os.open/os.close are not supported by `run` yet"))
            }
            TimeTime => LlValue::Float(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or(0.0),
            ),
            TimeClock => LlValue::Float(self.start.elapsed().as_secs_f64()),
            PrintItem => {
                let s = self.sbytes(a[0]).unwrap_or_else(|| b"None".to_vec());
                self.print_buf.extend_from_slice(&s);
                self.print_buf.push(b' ');
                LlValue::Void
            }
            PrintNewline => {
                let mut line = std::mem::take(&mut self.print_buf);
                match line.last_mut() {
                    Some(c) => *c = b'\n',
                    None => line.push(b'\n'),
                }
                let _ = self.write_fd(1, &line);
                LlValue::Void
            }
            IntToStr => {
                let s = int(0).to_string();
                self.strv(s.as_bytes())
            }
            UintToStr => {
                let s = a[0].as_uint().to_string();
                self.strv(s.as_bytes())
            }
            IntToHex | IntToOct => {
                let i = int(0);
                let prefix = a.get(1).map(|v| v.as_bool()).unwrap_or(true);
                let mag = i.unsigned_abs();
                let digits = if f == IntToHex {
                    format!("{:x}", mag)
                } else {
                    format!("{:o}", mag)
                };
                let pre = match (f == IntToHex, prefix) {
                    (true, true) => "0x",
                    (false, true) if i != 0 => "0",
                    _ => "",
                };
                let s = format!("{}{}{}", if i < 0 { "-" } else { "" }, pre, digits);
                self.strv(s.as_bytes())
            }
            FloatToStr => {
                let s = format_f(a[0].as_float(), 6);
                self.strv(s.as_bytes())
            }
            FloatToRepr => {
                let s = crate::objspace::format::float_repr(a[0].as_float());
                self.strv(s.as_bytes())
            }
            FloatFormat => {
                let (x, code, prec) =
                    (a[0].as_float(), a[1].as_int() as u8, int(2).max(0) as usize);
                let s = match code {
                    b'f' | b'F' => format_f(x, prec),
                    b'e' | b'E' => crate::objspace::format::format_e(x, prec, false, code == b'E'),
                    _ => crate::objspace::format::format_g(x, prec, false, code == b'G'),
                };
                self.strv(s.as_bytes())
            }
            StrToInt => {
                let s = self.s(a[0], span)?;
                let base = a.get(1).map(|b| b.as_int()).unwrap_or(10);
                match parse_int(&s, base) {
                    Some(i) => self.int_of(i, rty),
                    None => return Err(self.raise_std("ValueError")),
                }
            }
            StrToFloat => {
                let s = self.s(a[0], span)?;
                let t = String::from_utf8_lossy(&s).trim().to_lowercase();
                let v = match t.as_str() {
                    "inf" | "+inf" | "infinity" => f64::INFINITY,
                    "-inf" | "-infinity" => f64::NEG_INFINITY,
                    "nan" | "+nan" | "-nan" => f64::NAN,
                    _ => match t.parse::<f64>() {
                        Ok(v) if !t.is_empty() => v,
                        _ => return Err(self.raise_std("ValueError")),
                    },
                };
                LlValue::Float(v)
            }
            CharToStr => self.strv(&[a[0].as_int() as u8]),
            // a bool computed at run time is an int to the RTyper's str()
            BoolToStr => self.strv(if a[0].as_bool() { b"1" } else { b"0" }),
            ListStr => {
                let mut out = Vec::new();
                self.repr_into(a[0], ty(0), &mut out, 0)?;
                self.strv(&out)
            }
            NoneToStr => self.strv(b"None"),
            UniEncode | StrDecode => unreachable!("handled by call_unicode"),
            StrConcat => {
                let mut x = self.s(a[0], span)?;
                x.extend(self.s(a[1], span)?);
                self.strv(&x)
            }
            StrEq => LlValue::Bool(self.sbytes(a[0]) == self.sbytes(a[1])),
            StrCmp => {
                let (x, y) = (self.s(a[0], span)?, self.s(a[1], span)?);
                LlValue::Int(match x.cmp(&y) {
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                })
            }
            StrHash | ComputeHash => LlValue::Int(self.compute_hash(a[0], ty(0))),
            StrSlice => {
                let s = self.s(a[0], span)?;
                let (start, stop) = clamp_slice(int(1), int(2), s.len());
                let piece = s[start..stop.max(start)].to_vec();
                self.strv(&piece)
            }
            StrMul => {
                let s = self.s(a[0], span)?;
                let n = int(1).max(0) as usize;
                self.strv(&s.repeat(n))
            }
            StrFind | StrRFind | StrCount | StrFindChar => {
                let s = self.s(a[0], span)?;
                let sub = self.s(a[1], span)?;
                let (start, end) = clamp_slice(
                    a.get(2).map(|v| v.as_int()).unwrap_or(0),
                    a.get(3).map(|v| v.as_int()).unwrap_or(i64::MAX),
                    s.len(),
                );
                let hay = &s[start..end.max(start)];
                LlValue::Int(match f {
                    StrCount => count(hay, &sub) as i64,
                    StrRFind => rfind(hay, &sub).map(|i| (i + start) as i64).unwrap_or(-1),
                    _ => find(hay, &sub).map(|i| (i + start) as i64).unwrap_or(-1),
                })
            }
            StrContains => {
                let s = self.s(a[0], span)?;
                let sub = self.s(a[1], span)?;
                LlValue::Bool(find(&s, &sub).is_some())
            }
            StrStartsWith => {
                let (s, p) = (self.s(a[0], span)?, self.s(a[1], span)?);
                LlValue::Bool(s.starts_with(&p))
            }
            StrEndsWith => {
                let (s, p) = (self.s(a[0], span)?, self.s(a[1], span)?);
                LlValue::Bool(s.ends_with(&p))
            }
            StrSplitLines => {
                let s = self.s(a[0], span)?;
                let keepends = a.get(1).is_some_and(|k| k.as_bool());
                let mut parts: Vec<Vec<u8>> = Vec::new();
                let mut i = 0;
                let mut start = 0;
                while i < s.len() {
                    let eol = match s[i] {
                        b'\n' => 1,
                        b'\r' if s.get(i + 1) == Some(&b'\n') => 2,
                        b'\r' => 1,
                        _ => 0,
                    };
                    if eol > 0 {
                        parts.push(s[start..if keepends { i + eol } else { i }].to_vec());
                        i += eol;
                        start = i;
                    } else {
                        i += 1;
                    }
                }
                if start < s.len() {
                    parts.push(s[start..].to_vec());
                }
                let items: Vec<LlValue> = parts.iter().map(|p| self.strv(p)).collect();
                LlValue::Ptr(self.list_new(rty, items))
            }
            StrUpper => {
                let s = self.s(a[0], span)?.to_ascii_uppercase();
                self.strv(&s)
            }
            StrLower => {
                let s = self.s(a[0], span)?.to_ascii_lowercase();
                self.strv(&s)
            }
            StrStrip => {
                let s = self.s(a[0], span)?;
                let chars = self.sbytes(a[1]);
                let strip = |c: &u8| match &chars {
                    Some(cs) => cs.contains(c),
                    None => c.is_ascii_whitespace() || *c == 0x0b,
                };
                let which = int(2);
                let mut lo = 0;
                let mut hi = s.len();
                if which != 2 {
                    while lo < hi && strip(&s[lo]) {
                        lo += 1;
                    }
                }
                if which != 1 {
                    while hi > lo && strip(&s[hi - 1]) {
                        hi -= 1;
                    }
                }
                let piece = s[lo..hi].to_vec();
                self.strv(&piece)
            }
            StrReplace => {
                let (s, old, new) = (
                    self.s(a[0], span)?,
                    self.s(a[1], span)?,
                    self.s(a[2], span)?,
                );
                let out = replace(&s, &old, &new);
                self.strv(&out)
            }
            StrSplit | StrRSplit => {
                let s = self.s(a[0], span)?;
                let sep = self.sbytes(a[1]);
                let max = int(2);
                let parts = match &sep {
                    None => split_whitespace(&s, max, f == StrRSplit),
                    Some(sep) if sep.is_empty() => return Err(self.raise_std("ValueError")),
                    Some(sep) => split_sep(&s, sep, max, f == StrRSplit),
                };
                let items: Vec<LlValue> = parts.iter().map(|p| self.strv(p)).collect();
                LlValue::Ptr(self.list_new(rty, items))
            }
            StrJoin => {
                let sep = self.s(a[0], span)?;
                let items = self.list_items(a[1].as_ptr(), ty(1))?;
                let it = self.list_item_type(ty(1));
                let mut out = Vec::new();
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(&sep);
                    }
                    if it == LlType::CHAR {
                        out.push(x.as_int() as u8);
                    } else {
                        out.extend(self.s(*x, span)?);
                    }
                }
                self.strv(&out)
            }
            StrIsDigit | StrIsAlpha | StrIsSpace | StrIsAlnum | StrIsUpper | StrIsLower => {
                let s = self.s(a[0], span)?;
                LlValue::Bool(match f {
                    StrIsDigit => !s.is_empty() && s.iter().all(|c| c.is_ascii_digit()),
                    StrIsAlpha => !s.is_empty() && s.iter().all(|c| c.is_ascii_alphabetic()),
                    StrIsSpace => {
                        !s.is_empty() && s.iter().all(|c| c.is_ascii_whitespace() || *c == 0x0b)
                    }
                    StrIsAlnum => !s.is_empty() && s.iter().all(|c| c.is_ascii_alphanumeric()),
                    StrIsUpper => {
                        s.iter().any(|c| c.is_ascii_uppercase())
                            && !s.iter().any(|c| c.is_ascii_lowercase())
                    }
                    _ => {
                        s.iter().any(|c| c.is_ascii_lowercase())
                            && !s.iter().any(|c| c.is_ascii_uppercase())
                    }
                })
            }
            StrRepr => {
                let s = self.s(a[0], span)?;
                let r = crate::objspace::format::repr_bytes(&s);
                self.strv(&r)
            }
            StrIsTrue => LlValue::Bool(match a[0].as_ptr() {
                LlPtr::Null => false,
                p => self.heap.len(p).unwrap_or(0) > 0,
            }),
            ListIsTrue => LlValue::Bool(match a[0].as_ptr() {
                LlPtr::Null => false,
                p => {
                    let t = ty(0);
                    let is_dict = self
                        .prog
                        .types
                        .pointee(t)
                        .and_then(|s| self.prog.types.struct_name(s))
                        .is_some_and(|n| &**n == "dict");
                    if is_dict {
                        self.dict_counts(p, t).0 > 0
                    } else {
                        let lay = self
                            .list_layout(t)
                            .ok_or_else(|| self.fatal_at(span, "not a list"))?;
                        self.list_arr_len(p, t, &lay)?.1 > 0
                    }
                }
            }),
            StrGetItem => {
                let s = self.s(a[0], span)?;
                let mut i = int(1);
                if i < 0 {
                    i += s.len() as i64;
                }
                if i < 0 || i as usize >= s.len() {
                    return Err(self.raise_std("IndexError"));
                }
                LlValue::Char(s[i as usize])
            }
            ListGetItem | ListSetItem => {
                let t = ty(0);
                let lay = self
                    .list_layout(t)
                    .ok_or_else(|| self.fatal_at(span, "not a list"))?;
                let (arr, n) = self.list_arr_len(a[0].as_ptr(), t, &lay)?;
                let mut i = int(1);
                if i < 0 {
                    i += n as i64;
                }
                if i < 0 || i as usize >= n {
                    return Err(self.raise_std("IndexError"));
                }
                if f == ListGetItem {
                    self.heap
                        .getitem(arr, i)
                        .map_err(|e| self.fatal_at(span, e.to_string()))?
                } else {
                    self.heap
                        .setitem(arr, i, a[2])
                        .map_err(|e| self.fatal_at(span, e.to_string()))?;
                    LlValue::Void
                }
            }
            ListAppend => {
                self.list_push(a[0].as_ptr(), ty(0), a[1])?;
                LlValue::Void
            }
            ListPop | ListDelItem => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                let mut i = int(1);
                if i < 0 {
                    i += items.len() as i64;
                }
                if i < 0 || i as usize >= items.len() {
                    return Err(self.raise_std("IndexError"));
                }
                let x = items.remove(i as usize);
                self.list_set_items(p, t, &items)?;
                if f == ListPop {
                    x
                } else {
                    LlValue::Void
                }
            }
            ListInsert => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                let n = items.len() as i64;
                let mut i = int(1);
                if i < 0 {
                    i = (i + n).max(0);
                }
                items.insert(i.min(n) as usize, a[2]);
                self.list_set_items(p, t, &items)?;
                LlValue::Void
            }
            ListExtend => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                let other_t = ty(1);
                let other = if other_t == self.prog.str_ptr {
                    self.s(a[1], span)?.into_iter().map(LlValue::Char).collect()
                } else {
                    self.list_items(a[1].as_ptr(), other_t)?
                };
                items.extend(other);
                self.list_set_items(p, t, &items)?;
                LlValue::Void
            }
            ListReverse => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                items.reverse();
                let lay = self
                    .list_layout(t)
                    .ok_or_else(|| self.fatal_at(span, "not a list"))?;
                let (arr, _) = self.list_arr_len(p, t, &lay)?;
                for (i, v) in items.iter().enumerate() {
                    let _ = self.heap.setitem(arr, i as i64, *v);
                }
                LlValue::Void
            }
            ListSort => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                let it = self.list_item_type(t);
                if it == self.prog.str_ptr {
                    let mut keyed: Vec<(Vec<u8>, LlValue)> = items
                        .iter()
                        .map(|v| (self.sbytes(*v).unwrap_or_default(), *v))
                        .collect();
                    keyed.sort_by(|x, y| x.0.cmp(&y.0));
                    items = keyed.into_iter().map(|x| x.1).collect();
                } else if self.prog.types.is_ptr(it) {
                    return Err(self.fatal_at(
                        span,
                        "sort() of a list of objects is not supported by `run` yet",
                    ));
                } else {
                    items.sort_by(|x, y| match (x, y) {
                        (LlValue::Float(a), LlValue::Float(b)) => {
                            a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal)
                        }
                        (LlValue::Uint(a), LlValue::Uint(b)) => a.cmp(b),
                        _ => x.as_int().cmp(&y.as_int()),
                    });
                }
                let lay = self
                    .list_layout(t)
                    .ok_or_else(|| self.fatal_at(span, "not a list"))?;
                let (arr, _) = self.list_arr_len(p, t, &lay)?;
                for (i, v) in items.iter().enumerate() {
                    let _ = self.heap.setitem(arr, i as i64, *v);
                }
                LlValue::Void
            }
            ListSlice => {
                let items = if ty(0) == self.prog.str_ptr {
                    self.s(a[0], span)?.into_iter().map(LlValue::Char).collect()
                } else {
                    self.list_items(a[0].as_ptr(), ty(0))?
                };
                let (start, stop) = clamp_slice(int(1), int(2), items.len());
                let piece = items[start..stop.max(start)].to_vec();
                LlValue::Ptr(self.list_new(rty, piece))
            }
            ListIndex | ListRemove | ListContains | ListCount => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let items = self.list_items(p, t)?;
                let it = self.list_item_type(t);
                let pos = items.iter().position(|x| self.values_eq(*x, a[1], it));
                match f {
                    ListContains => LlValue::Bool(pos.is_some()),
                    ListCount => LlValue::Int(
                        items
                            .iter()
                            .filter(|x| self.values_eq(**x, a[1], it))
                            .count() as i64,
                    ),
                    ListIndex => match pos {
                        Some(i) => LlValue::Int(i as i64),
                        None => return Err(self.raise_std("ValueError")),
                    },
                    _ => match pos {
                        Some(i) => {
                            let mut items = items;
                            items.remove(i);
                            self.list_set_items(p, t, &items)?;
                            LlValue::Void
                        }
                        None => return Err(self.raise_std("ValueError")),
                    },
                }
            }
            ListEq => {
                let (x, y) = (
                    self.list_items(a[0].as_ptr(), ty(0))?,
                    self.list_items(a[1].as_ptr(), ty(1))?,
                );
                let it = self.list_item_type(ty(0));
                LlValue::Bool(
                    x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| self.values_eq(*p, *q, it)),
                )
            }
            ListConcat => {
                let mut x = self.list_items(a[0].as_ptr(), ty(0))?;
                x.extend(self.list_items(a[1].as_ptr(), ty(1))?);
                LlValue::Ptr(self.list_new(rty, x))
            }
            ListMul => {
                let x = self.list_items(a[0].as_ptr(), ty(0))?;
                let n = int(1).max(0) as usize;
                LlValue::Ptr(self.list_new(rty, x.repeat(n)))
            }
            ListSetSlice | ListDelSlice => {
                let (p, t) = (a[0].as_ptr(), ty(0));
                let mut items = self.list_items(p, t)?;
                let (start, stop) = clamp_slice(int(1), int(2), items.len());
                let new = if f == ListSetSlice {
                    self.list_items(a[3].as_ptr(), ty(3))?
                } else {
                    Vec::new()
                };
                items.splice(start..stop.max(start), new);
                self.list_set_items(p, t, &items)?;
                LlValue::Void
            }
            DictPopItem => {
                let (d, t) = (a[0].as_ptr(), ty(0));
                let Some(&i) = self.dict_live_entries(d, t).last() else {
                    return Err(self.raise_std("KeyError"));
                };
                let k = self.entry_get(d, t, i, "key");
                let v = self.entry_get(d, t, i, "value");
                self.dict_del(d, t, i);
                self.new_tuple(rty, &[k, v])
            }
            TupleEq => {
                let (x, y) = (a[0], a[1]);
                LlValue::Bool(self.hkey(x, ty(0)) == self.hkey(y, ty(1)))
            }
            IsInstance => match a[0].as_ptr() {
                LlPtr::Null => LlValue::Bool(false),
                p => {
                    let types = &self.prog.types;
                    let vt = self
                        .heap
                        .getfield(types, p, self.prog.object, "typeptr")
                        .map(|v| v.as_ptr())
                        .unwrap_or(LlPtr::Null);
                    let mn = self
                        .heap
                        .getfield(types, vt, self.prog.object_vtable, "subclassrange_min")
                        .map(|v| v.as_int())
                        .unwrap_or(-1);
                    LlValue::Bool(int(1) <= mn && mn < int(2))
                }
            },
            Instantiate => {
                let vt = a[0].as_ptr();
                let Some(info) = self.prog.classes.get(&vt).cloned() else {
                    return Err(self.fatal_at(span, "instantiating a class that has no vtable"));
                };
                let p = self.heap.malloc(&self.prog.types, info.inst, 0);
                let _ = self.heap.setfield(
                    &self.prog.types,
                    p,
                    self.prog.object,
                    "typeptr",
                    LlValue::Ptr(vt),
                );
                for (slot, v) in info.defaults {
                    let _ = self.heap.set_slot(p, slot, v);
                }
                LlValue::Ptr(p)
            }
            CallInit => {
                let p = a[0].as_ptr();
                let types = &self.prog.types;
                let vt = self
                    .heap
                    .getfield(types, p, self.prog.object, "typeptr")
                    .map(|v| v.as_ptr())
                    .unwrap_or(LlPtr::Null);
                if let Some(f) = self.prog.classes.get(&vt).and_then(|c| c.init) {
                    self.call_function(f, a, span)?;
                }
                LlValue::Void
            }
            MinMax => {
                let (x, y, is_max) = (a[0], a[1], a[2].as_bool());
                let x_less = match (x, y) {
                    (LlValue::Float(p), LlValue::Float(q)) => p < q,
                    (LlValue::Uint(p), LlValue::Uint(q)) => p < q,
                    _ => x.as_int() < y.as_int(),
                };
                // ties keep the first argument, as Python's min/max do
                if is_max {
                    if x_less {
                        y
                    } else {
                        x
                    }
                } else {
                    let y_less = match (x, y) {
                        (LlValue::Float(p), LlValue::Float(q)) => q < p,
                        (LlValue::Uint(p), LlValue::Uint(q)) => q < p,
                        _ => y.as_int() < x.as_int(),
                    };
                    if y_less {
                        y
                    } else {
                        x
                    }
                }
            }
            MathFn => {
                let LlValue::Name(name) = a[0] else {
                    return Err(self.fatal_at(span, "math function without a name"));
                };
                let x = a.get(1).map(|v| v.as_float()).unwrap_or(0.0);
                let y = a.get(2).map(|v| v.as_float()).unwrap_or(0.0);
                match name.as_str() {
                    "isinf" => return Ok(LlValue::Bool(x.is_infinite())),
                    "isnan" => return Ok(LlValue::Bool(x.is_nan())),
                    "isfinite" => return Ok(LlValue::Bool(x.is_finite())),
                    "modf" | "frexp" => {
                        let (p, q) = if name.as_str() == "modf" {
                            let ip = x.trunc();
                            (LlValue::Float((x - ip).copysign(x)), LlValue::Float(ip))
                        } else {
                            let (m, e) = frexp(x);
                            (LlValue::Float(m), LlValue::Int(e))
                        };
                        return Ok(self.new_tuple(rty, &[p, q]));
                    }
                    _ => {}
                }
                let r = match name.as_str() {
                    "sqrt" if x < 0.0 => return Err(self.raise_std("ValueError")),
                    "sqrt" => x.sqrt(),
                    "log" | "log10" if x <= 0.0 => return Err(self.raise_std("ValueError")),
                    "log" if a.len() > 2 => x.ln() / y.ln(),
                    "log" => x.ln(),
                    "log10" => x.log10(),
                    "exp" => {
                        let r = x.exp();
                        if r.is_infinite() && x.is_finite() {
                            return Err(self.raise_std("OverflowError"));
                        }
                        r
                    }
                    "pow" => x.powf(y),
                    "sin" => x.sin(),
                    "cos" => x.cos(),
                    "tan" => x.tan(),
                    "asin" => x.asin(),
                    "acos" => x.acos(),
                    "atan" => x.atan(),
                    "atan2" => x.atan2(y),
                    "sinh" => x.sinh(),
                    "cosh" => x.cosh(),
                    "tanh" => x.tanh(),
                    "floor" => x.floor(),
                    "ceil" => x.ceil(),
                    "fabs" => x.abs(),
                    "fmod" => x % y,
                    "hypot" => x.hypot(y),
                    "ldexp" => x * 2f64.powi(a.get(2).map(|v| v.as_int()).unwrap_or(0) as i32),
                    "copysign" => x.copysign(y),
                    "trunc" => x.trunc(),
                    other => {
                        return Err(self.fatal_at(
                            span,
                            format!("math.{} is not supported by `run` yet", other),
                        ))
                    }
                };
                LlValue::Float(r)
            }
            FloatPow => LlValue::Float(a[0].as_float().powf(a[1].as_float())),
            FloatFloorDiv | FloatMod | FloatTrueDivZer => {
                let (x, y) = (a[0].as_float(), a[1].as_float());
                if y == 0.0 {
                    return Err(self.raise_std("ZeroDivisionError"));
                }
                LlValue::Float(match f {
                    FloatFloorDiv => (x / y).floor(),
                    FloatMod => {
                        let m = x % y;
                        if m != 0.0 && ((m < 0.0) != (y < 0.0)) {
                            m + y
                        } else {
                            m
                        }
                    }
                    _ => x / y,
                })
            }
            RangeList => {
                let (start, stop, step) = (int(0), int(1), int(2));
                if step == 0 {
                    return Err(self.raise_std("ValueError"));
                }
                let mut items = Vec::new();
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    items.push(LlValue::Int(i));
                    i += step;
                    if items.len() > 100_000_000 {
                        return Err(self.fatal_at(span, "range() too large"));
                    }
                }
                LlValue::Ptr(self.list_new(rty, items))
            }
            IterNext => self.iter_next(a[0].as_ptr(), ty(0), rty, span)?,
            DictNew => LlValue::Ptr(self.dict_new(rty)),
            DictLen => LlValue::Int(self.dict_counts(a[0].as_ptr(), ty(0)).0),
            DictGetItem | DictContains | DictGet | DictPop | DictPopDefault | DictSetDefault => {
                let (d, t) = (a[0].as_ptr(), ty(0));
                let pos = self.dict_lookup(d, t, a[1], span)?;
                match (f, pos) {
                    (DictContains, p) => LlValue::Bool(p.is_some()),
                    (DictGetItem | DictGet | DictSetDefault, Some(i)) => {
                        self.entry_get(d, t, i, "value")
                    }
                    (DictGetItem | DictPop, None) => return Err(self.raise_std("KeyError")),
                    (DictGet | DictPopDefault, None) => a[2],
                    (DictSetDefault, None) => {
                        self.dict_set(d, t, a[1], a[2], span)?;
                        a[2]
                    }
                    (_, Some(i)) => {
                        let v = self.entry_get(d, t, i, "value");
                        self.dict_del(d, t, i);
                        v
                    }
                    (_, None) => LlValue::Void,
                }
            }
            DictSetItem => {
                self.dict_set(a[0].as_ptr(), ty(0), a[1], a[2], span)?;
                LlValue::Void
            }
            DictDelItem => {
                let (d, t) = (a[0].as_ptr(), ty(0));
                match self.dict_lookup(d, t, a[1], span)? {
                    Some(i) => self.dict_del(d, t, i),
                    None => return Err(self.raise_std("KeyError")),
                }
                LlValue::Void
            }
            DictClear => {
                let (d, t) = (a[0].as_ptr(), ty(0));
                for i in self.dict_live_entries(d, t) {
                    self.dict_del(d, t, i);
                }
                self.dict_set_counts(d, t, 0, 0);
                LlValue::Void
            }
            DictCopy | DictUpdate => {
                let (src, st) = if f == DictCopy {
                    (a[0].as_ptr(), ty(0))
                } else {
                    (a[1].as_ptr(), ty(1))
                };
                let dst = if f == DictCopy {
                    self.dict_new(rty)
                } else {
                    a[0].as_ptr()
                };
                let dt = if f == DictCopy { rty } else { ty(0) };
                for i in self.dict_live_entries(src, st) {
                    let k = self.entry_get(src, st, i, "key");
                    let v = self.entry_get(src, st, i, "value");
                    self.dict_set(dst, dt, k, v, span)?;
                }
                if f == DictCopy {
                    LlValue::Ptr(dst)
                } else {
                    LlValue::Void
                }
            }
            DictKeys | DictValues | DictItems => {
                let (d, t) = (a[0].as_ptr(), ty(0));
                let mut items = Vec::new();
                let item_t = self.list_item_type(rty);
                for i in self.dict_live_entries(d, t) {
                    let k = self.entry_get(d, t, i, "key");
                    let v = self.entry_get(d, t, i, "value");
                    items.push(match f {
                        DictKeys => k,
                        DictValues => v,
                        _ => self.new_tuple(item_t, &[k, v]),
                    });
                }
                LlValue::Ptr(self.list_new(rty, items))
            }
            DictNextPos | DictKeyAt | DictValueAt | StrBuilderNew | StrBuilderAppend
            | StrBuilderBuild => {
                return Err(self.fatal_at(span, format!("{} is not implemented", f.name())))
            }
        })
    }

    /// How `str()` of a list or tuple shows it: the RTyper's `str()` of each item (strings
    /// unquoted, bools as 1/0, floats as `%.6f`).
    fn repr_into(
        &self,
        v: LlValue,
        ty: LlType,
        out: &mut Vec<u8>,
        depth: usize,
    ) -> Result<(), Unwind> {
        if depth > 100 {
            return Err(self.fatal_at(Span::default(), "str() of a too deeply nested list"));
        }
        let types = &self.prog.types;
        match v {
            LlValue::Int(i) => out.extend(i.to_string().bytes()),
            LlValue::Uint(u) => out.extend(u.to_string().bytes()),
            LlValue::Bool(b) => out.push(if b { b'1' } else { b'0' }),
            LlValue::Float(f) => out.extend(format_f(f, 6).bytes()),
            LlValue::Char(c) => out.push(c),
            LlValue::Ptr(LlPtr::Null) => out.extend_from_slice(b"None"),
            LlValue::Ptr(p) if ty == self.prog.str_ptr => {
                out.extend_from_slice(self.heap.bytes(p).unwrap_or(&[]))
            }
            LlValue::Ptr(p) => {
                let to = types.pointee(ty).unwrap_or(LlType::VOID);
                if types
                    .struct_name(to)
                    .is_some_and(|n| n.starts_with("tuple"))
                {
                    let fields: Vec<(std::rc::Rc<str>, LlType)> = types.fields(to).to_vec();
                    out.push(b'(');
                    for (i, (f, ft)) in fields.iter().enumerate() {
                        if i > 0 {
                            out.extend_from_slice(b", ");
                        }
                        let x = self.heap.getfield(types, p, to, f).unwrap_or(LlValue::Void);
                        self.repr_into(x, *ft, out, depth + 1)?;
                    }
                    if fields.len() == 1 {
                        out.push(b',');
                    }
                    out.push(b')');
                } else if self.list_layout(ty).is_some() {
                    let items = self.list_items(p, ty)?;
                    let it = self.list_item_type(ty);
                    out.push(b'[');
                    for (i, x) in items.iter().enumerate() {
                        if i > 0 {
                            out.extend_from_slice(b", ");
                        }
                        self.repr_into(*x, it, out, depth + 1)?;
                    }
                    out.push(b']');
                } else {
                    return Err(self.fatal_at(
                        Span::default(),
                        format!("str() of {} is not supported by `run` yet", types.name(ty)),
                    ));
                }
            }
            other => out.extend(other.to_string().bytes()),
        }
        Ok(())
    }

    /// RPython's hash of a value: ints are their own hash, strings hash as CPython 2's
    /// string hash (what `ll_strhash` computes), tuples combine their items' hashes,
    /// instances hash by identity.
    fn compute_hash(&self, v: LlValue, ty: LlType) -> i64 {
        fn text_hash(t: &[u32]) -> i64 {
            if t.is_empty() {
                return 0;
            }
            let mut x: i64 = (t[0] as i64) << 7;
            for &c in t {
                x = x.wrapping_mul(1000003) ^ c as i64;
            }
            x ^= t.len() as i64;
            if x == -1 {
                -2
            } else {
                x
            }
        }
        match v {
            LlValue::Int(i) => i,
            LlValue::Uint(u) => u as i64,
            LlValue::Bool(b) => b as i64,
            LlValue::Char(c) => text_hash(&[c as u32]),
            LlValue::UniChar(c) => text_hash(&[c]),
            LlValue::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    f as i64
                } else {
                    f.to_bits() as i64
                }
            }
            LlValue::Ptr(LlPtr::Null) => 0,
            LlValue::Ptr(p @ LlPtr::Obj { obj, .. }) => {
                if ty == self.prog.str_ptr || self.is_unicode(ty) {
                    return self
                        .text(v, ty, Span::default())
                        .map(|t| text_hash(&t))
                        .unwrap_or(0);
                }
                let types = &self.prog.types;
                let to = types.pointee(ty).unwrap_or(LlType::VOID);
                if types
                    .struct_name(to)
                    .is_some_and(|n| n.starts_with("tuple"))
                {
                    // CPython 2's tuple hash
                    let fields: Vec<(std::rc::Rc<str>, LlType)> = types.fields(to).to_vec();
                    let mut x: i64 = 0x345678;
                    let mut mult: i64 = 1000003;
                    let n = fields.len() as i64;
                    for (i, (f, ft)) in fields.iter().enumerate() {
                        let item = self.heap.getfield(types, p, to, f).unwrap_or(LlValue::Void);
                        let y = self.compute_hash(item, *ft);
                        x = (x ^ y).wrapping_mul(mult);
                        mult = mult.wrapping_add(82520 + 2 * (n - 1 - i as i64));
                    }
                    x = x.wrapping_add(97531);
                    return if x == -1 { -2 } else { x };
                }
                obj as i64 * 16
            }
            _ => 0,
        }
    }

    fn is_unicode(&self, ty: LlType) -> bool {
        let types = &self.prog.types;
        types
            .pointee(ty)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "rpy_unicode")
    }

    /// The characters of a str or unicode value, as code points.
    fn text(&self, v: LlValue, ty: LlType, span: Span) -> Result<Vec<u32>, Unwind> {
        let p = v.as_ptr();
        if p == LlPtr::Null {
            return Err(self.fatal_at(span, "dereference of None (a null string)"));
        }
        if ty == self.prog.str_ptr {
            return Ok(self
                .heap
                .bytes(p)
                .unwrap_or(&[])
                .iter()
                .map(|&b| b as u32)
                .collect());
        }
        let n = self.heap.len(p).unwrap_or(0);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(
                self.heap
                    .getitem(p, i as i64)
                    .map(|c| c.as_int() as u32)
                    .unwrap_or(0),
            );
        }
        Ok(out)
    }

    /// A new str or unicode value (per `ty`) of these characters.
    fn mktext(&mut self, t: &[u32], ty: LlType) -> LlValue {
        if ty == self.prog.str_ptr {
            let b: Vec<u8> = t.iter().map(|&c| c as u8).collect();
            return self.strv(&b);
        }
        let st = self.prog.types.pointee(ty).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.prog.types, st, t.len());
        for (i, &c) in t.iter().enumerate() {
            let _ = self.heap.setitem(p, i as i64, LlValue::UniChar(c));
        }
        LlValue::Ptr(p)
    }

    /// The string functions on unicode (and the codecs); `None` for the others.
    fn call_unicode(
        &mut self,
        f: RuntimeFn,
        a: &[LlValue],
        argtys: &[LlType],
        rty: LlType,
        span: Span,
    ) -> Result<Option<LlValue>, Unwind> {
        use RuntimeFn::*;
        let ty = |i: usize| argtys.get(i).copied().unwrap_or(LlType::VOID);
        let int = |i: usize| a.get(i).map(|v| v.as_int()).unwrap_or(0);
        Ok(Some(match f {
            UniEncode => {
                let t = self.text(a[0], ty(0), span)?;
                let codec = self.s(a[1], span)?.to_ascii_lowercase();
                let mut out = Vec::new();
                match codec.as_slice() {
                    b"utf-8" | b"utf8" => {
                        for c in t {
                            let ch = char::from_u32(c).unwrap_or('\u{fffd}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                    b"latin-1" | b"latin1" | b"iso-8859-1" | b"ascii" => {
                        let limit = if codec.as_slice() == b"ascii" {
                            128
                        } else {
                            256
                        };
                        for c in t {
                            if c >= limit {
                                return Err(self.raise_std("UnicodeEncodeError"));
                            }
                            out.push(c as u8);
                        }
                    }
                    _ => {
                        return Err(self.fatal_at(
                            span,
                            format!(
                                "the codec {} is not supported",
                                String::from_utf8_lossy(&codec)
                            ),
                        ))
                    }
                }
                self.strv(&out)
            }
            StrDecode => {
                let s = self.s(a[0], span)?;
                let codec = self.s(a[1], span)?.to_ascii_lowercase();
                let t: Vec<u32> = match codec.as_slice() {
                    b"utf-8" | b"utf8" => match std::str::from_utf8(&s) {
                        Ok(x) => x.chars().map(|c| c as u32).collect(),
                        Err(_) => return Err(self.raise_std("UnicodeDecodeError")),
                    },
                    b"ascii" if s.iter().any(|&b| b >= 128) => {
                        return Err(self.raise_std("UnicodeDecodeError"))
                    }
                    _ => s.iter().map(|&b| b as u32).collect(),
                };
                self.mktext(&t, rty)
            }
            StrConcat => {
                let mut x = self.text(a[0], ty(0), span)?;
                x.extend(self.text(a[1], ty(1), span)?);
                self.mktext(&x, rty)
            }
            StrEq => LlValue::Bool(match (a[0].as_ptr(), a[1].as_ptr()) {
                (LlPtr::Null, LlPtr::Null) => true,
                (LlPtr::Null, _) | (_, LlPtr::Null) => false,
                _ => self.text(a[0], ty(0), span)? == self.text(a[1], ty(1), span)?,
            }),
            StrCmp => {
                let (x, y) = (self.text(a[0], ty(0), span)?, self.text(a[1], ty(1), span)?);
                LlValue::Int(x.cmp(&y) as i64)
            }
            StrSlice => {
                let t = self.text(a[0], ty(0), span)?;
                let (start, stop) = clamp_slice(int(1), int(2), t.len());
                let piece = t[start..stop.max(start)].to_vec();
                self.mktext(&piece, rty)
            }
            StrGetItem => {
                let t = self.text(a[0], ty(0), span)?;
                let mut i = int(1);
                if i < 0 {
                    i += t.len() as i64;
                }
                if i < 0 || i as usize >= t.len() {
                    return Err(self.raise_std("IndexError"));
                }
                LlValue::UniChar(t[i as usize])
            }
            CharToStr => self.mktext(&[a[0].as_int() as u32], rty),
            StrMul => {
                let t = self.text(a[0], ty(0), span)?;
                self.mktext(&t.repeat(int(1).max(0) as usize), rty)
            }
            StrFind | StrRFind | StrCount | StrContains | StrStartsWith | StrEndsWith => {
                let t = self.text(a[0], ty(0), span)?;
                let sub = self.text(a[1], ty(1), span)?;
                let (start, end) = clamp_slice(
                    a.get(2).map(|v| v.as_int()).unwrap_or(0),
                    a.get(3).map(|v| v.as_int()).unwrap_or(i64::MAX),
                    t.len(),
                );
                let hay = &t[start..end.max(start)];
                let find_in = |h: &[u32]| -> Option<usize> {
                    if sub.is_empty() {
                        return Some(0);
                    }
                    h.windows(sub.len()).position(|w| w == sub.as_slice())
                };
                match f {
                    StrContains => LlValue::Bool(find_in(&t).is_some()),
                    StrStartsWith => LlValue::Bool(t.starts_with(&sub)),
                    StrEndsWith => LlValue::Bool(t.ends_with(&sub)),
                    StrFind => LlValue::Int(find_in(hay).map(|i| (i + start) as i64).unwrap_or(-1)),
                    StrRFind => LlValue::Int(
                        if sub.is_empty() {
                            Some(hay.len())
                        } else {
                            hay.windows(sub.len()).rposition(|w| w == sub.as_slice())
                        }
                        .map(|i| (i + start) as i64)
                        .unwrap_or(-1),
                    ),
                    _ => {
                        let mut n = 0;
                        let mut i = 0;
                        if sub.is_empty() {
                            n = hay.len() + 1;
                        } else {
                            while i + sub.len() <= hay.len() {
                                if hay[i..i + sub.len()] == sub[..] {
                                    n += 1;
                                    i += sub.len();
                                } else {
                                    i += 1;
                                }
                            }
                        }
                        LlValue::Int(n as i64)
                    }
                }
            }
            StrSplit | StrRSplit => {
                let t = self.text(a[0], ty(0), span)?;
                if a[1].as_ptr() == LlPtr::Null {
                    return Err(self.fatal_at(span, "split() of unicode needs a separator"));
                }
                let sep = self.text(a[1], ty(1), span)?;
                let mut parts: Vec<Vec<u32>> = Vec::new();
                let mut start = 0;
                let mut i = 0;
                let max = int(2);
                while i + sep.len() <= t.len() && !sep.is_empty() {
                    if (max < 0 || (parts.len() as i64) < max) && t[i..i + sep.len()] == sep[..] {
                        parts.push(t[start..i].to_vec());
                        i += sep.len();
                        start = i;
                    } else {
                        i += 1;
                    }
                }
                parts.push(t[start..].to_vec());
                let it = self.list_item_type(rty);
                let items: Vec<LlValue> = parts.iter().map(|p| self.mktext(p, it)).collect();
                LlValue::Ptr(self.list_new(rty, items))
            }
            StrJoin => {
                let sep = self.text(a[0], ty(0), span)?;
                let items = self.list_items(a[1].as_ptr(), ty(1))?;
                let it = self.list_item_type(ty(1));
                let mut out = Vec::new();
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(&sep);
                    }
                    if it == LlType::UNICHAR {
                        out.push(x.as_int() as u32);
                    } else {
                        out.extend(self.text(*x, it, span)?);
                    }
                }
                self.mktext(&out, rty)
            }
            StrReplace => {
                let (t, old, new) = (
                    self.text(a[0], ty(0), span)?,
                    self.text(a[1], ty(1), span)?,
                    self.text(a[2], ty(2), span)?,
                );
                let mut out = Vec::new();
                let mut i = 0;
                while i < t.len() {
                    if !old.is_empty() && t[i..].starts_with(&old) {
                        out.extend_from_slice(&new);
                        i += old.len();
                    } else {
                        out.push(t[i]);
                        i += 1;
                    }
                }
                self.mktext(&out, rty)
            }
            StrStrip => {
                let t = self.text(a[0], ty(0), span)?;
                let chars = if a[1].as_ptr() == LlPtr::Null {
                    None
                } else {
                    Some(self.text(a[1], ty(1), span)?)
                };
                let strip = |c: &u32| match &chars {
                    Some(cs) => cs.contains(c),
                    None => char::from_u32(*c).is_some_and(|c| c.is_whitespace()),
                };
                let which = int(2);
                let (mut lo, mut hi) = (0, t.len());
                if which != 2 {
                    while lo < hi && strip(&t[lo]) {
                        lo += 1;
                    }
                }
                if which != 1 {
                    while hi > lo && strip(&t[hi - 1]) {
                        hi -= 1;
                    }
                }
                let piece = t[lo..hi].to_vec();
                self.mktext(&piece, rty)
            }
            _ => return Ok(None),
        }))
    }

    fn int_of(&self, i: i64, rty: LlType) -> LlValue {
        crate::llinterp::ops::cast_primitive(LlValue::Int(i), rty)
    }

    fn iter_next(&mut self, it: LlPtr, ity: LlType, rty: LlType, span: Span) -> R {
        let types = &self.prog.types;
        let st = types.pointee(ity).unwrap_or(LlType::VOID);
        let variant = types
            .struct_name(st)
            .map(|n| n.to_string())
            .unwrap_or_default();
        let ct = types.field_type(st, "container").unwrap_or(LlType::VOID);
        let c = self
            .heap
            .getfield(types, it, st, "container")
            .map(|v| v.as_ptr())
            .map_err(|e| self.fatal_at(span, e.to_string()))?;
        let idx = self
            .heap
            .getfield(types, it, st, "index")
            .map(|v| v.as_int())
            .unwrap_or(0);
        let set_idx = |me: &mut Self, i: i64| {
            let _ = me
                .heap
                .setfield(&me.prog.types, it, st, "index", LlValue::Int(i));
        };
        let is_dict = types
            .pointee(ct)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "dict");
        if is_dict {
            let (_, used) = self.dict_counts(c, ct);
            let mut i = idx;
            while i < used && !self.entry_get(c, ct, i as usize, "live").as_bool() {
                i += 1;
            }
            if i >= used {
                set_idx(self, i);
                return Err(self.raise_std("StopIteration"));
            }
            set_idx(self, i + 1);
            let k = self.entry_get(c, ct, i as usize, "key");
            let v = self.entry_get(c, ct, i as usize, "value");
            return Ok(match variant.as_str() {
                "iter_values" => v,
                "iter_items" => self.new_tuple(rty, &[k, v]),
                _ => k,
            });
        }
        // one item by index: strings and lists (fixed-size or resizable)
        let (arr, n) = if ct == self.prog.str_ptr || self.is_unicode(ct) {
            if c == LlPtr::Null {
                return Err(self.fatal_at(span, "iteration over None"));
            }
            (c, self.heap.len(c).unwrap_or(0))
        } else {
            let lay = self
                .list_layout(ct)
                .ok_or_else(|| self.fatal_at(span, "iteration over a non-list"))?;
            self.list_arr_len(c, ct, &lay)?
        };
        let n = n as i64;
        if idx >= n {
            return Err(self.raise_std("StopIteration"));
        }
        set_idx(self, idx + 1);
        let at = if variant == "iter_reversed" {
            n - 1 - idx
        } else {
            idx
        };
        let item = self
            .heap
            .getitem(arr, at)
            .map_err(|e| self.fatal_at(span, e.to_string()))?;
        Ok(match variant.as_str() {
            "iter_enumerate" => self.new_tuple(rty, &[LlValue::Int(idx), item]),
            _ => item,
        })
    }
}

/// `%.<prec>f` as C prints it (inf, -inf and nan spelled as RPython's formatd does).
pub fn format_f(x: f64, prec: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{:.*}", prec, x)
}

/// Python's clamping of slice bounds (negative bounds count from the end).
fn clamp_slice(start: i64, stop: i64, len: usize) -> (usize, usize) {
    let n = len as i64;
    let fix = |x: i64| -> usize {
        let x = if x < 0 { (x + n).max(0) } else { x };
        x.min(n) as usize
    };
    (fix(start), fix(stop))
}

fn find(hay: &[u8], sub: &[u8]) -> Option<usize> {
    if sub.is_empty() {
        return Some(0);
    }
    hay.windows(sub.len()).position(|w| w == sub)
}
fn rfind(hay: &[u8], sub: &[u8]) -> Option<usize> {
    if sub.is_empty() {
        return Some(hay.len());
    }
    hay.windows(sub.len()).rposition(|w| w == sub)
}
fn count(hay: &[u8], sub: &[u8]) -> usize {
    if sub.is_empty() {
        return hay.len() + 1;
    }
    let mut n = 0;
    let mut i = 0;
    while i + sub.len() <= hay.len() {
        if &hay[i..i + sub.len()] == sub {
            n += 1;
            i += sub.len();
        } else {
            i += 1;
        }
    }
    n
}
fn replace(s: &[u8], old: &[u8], new: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if old.is_empty() {
        for &c in s {
            out.extend_from_slice(new);
            out.push(c);
        }
        out.extend_from_slice(new);
        return out;
    }
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(old) {
            out.extend_from_slice(new);
            i += old.len();
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}
fn split_whitespace(s: &[u8], max: i64, from_right: bool) -> Vec<Vec<u8>> {
    let ws = |c: u8| c.is_ascii_whitespace() || c == 0x0b;
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        while i < s.len() && ws(s[i]) {
            i += 1;
        }
        if i >= s.len() {
            break;
        }
        let st = i;
        while i < s.len() && !ws(s[i]) {
            i += 1;
        }
        words.push((st, i));
    }
    if max < 0 || words.len() <= max as usize {
        return words.iter().map(|&(a, b)| s[a..b].to_vec()).collect();
    }
    let max = max as usize;
    if from_right {
        // the last `max` words, and everything before them as the first item
        let keep = words.len() - max;
        let mut first = s[..words[keep - 1].1].to_vec();
        while first.last().is_some_and(|c| ws(*c)) {
            first.pop();
        }
        let mut out = vec![trim_start_ws(&first).to_vec()];
        out.extend(words[keep..].iter().map(|&(a, b)| s[a..b].to_vec()));
        out
    } else {
        let mut out: Vec<Vec<u8>> = words[..max]
            .iter()
            .map(|&(a, b)| s[a..b].to_vec())
            .collect();
        let mut rest = s[words[max].0..].to_vec();
        while rest.last().is_some_and(|c| ws(*c)) {
            rest.pop();
        }
        out.push(rest);
        out
    }
}
fn trim_start_ws(s: &[u8]) -> &[u8] {
    let mut i = 0;
    while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == 0x0b) {
        i += 1;
    }
    &s[i..]
}
fn split_sep(s: &[u8], sep: &[u8], max: i64, from_right: bool) -> Vec<Vec<u8>> {
    let mut positions = Vec::new();
    let mut i = 0;
    while i + sep.len() <= s.len() {
        if &s[i..i + sep.len()] == sep {
            positions.push(i);
            i += sep.len();
        } else {
            i += 1;
        }
    }
    if max >= 0 && positions.len() > max as usize {
        if from_right {
            positions = positions[positions.len() - max as usize..].to_vec();
        } else {
            positions.truncate(max as usize);
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    for p in positions {
        out.push(s[start..p].to_vec());
        start = p + sep.len();
    }
    out.push(s[start..].to_vec());
    out
}

/// `int(s, base)` as RPython's string_to_int reads it: surrounding whitespace, a sign,
/// digits of the base (an optional 0x/0o/0b prefix matching it), no overflow.
fn parse_int(s: &[u8], base: i64) -> Option<i64> {
    let t = String::from_utf8_lossy(s);
    let mut t = t.trim();
    let neg = t.starts_with('-');
    if neg || t.starts_with('+') {
        t = &t[1..];
    }
    let lower = t.to_ascii_lowercase();
    let mut digits = lower.as_str();
    for (b, p) in [(16, "0x"), (8, "0o"), (2, "0b")] {
        if base == b && digits.starts_with(p) {
            digits = &digits[2..];
        }
    }
    if !(2..=36).contains(&base) || digits.is_empty() {
        return None;
    }
    let mut v: i64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36)? as i64;
        if d >= base {
            return None;
        }
        v = v.checked_mul(base)?.checked_add(d)?;
    }
    Some(if neg { -v } else { v })
}

/// `math.frexp`: mantissa in [0.5, 1) and exponent.
fn frexp(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let mut e = x.abs().log2().floor() as i64 + 1;
    let mut m = x / 2f64.powi(e as i32);
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    } else if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}
