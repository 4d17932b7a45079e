//! Lists, dicts and tuples in the runtime: the list layouts (fixed-size GcArray or
//! resizable `list {length, items}`), the entries of the ordered dict (its operations are
//! low-level helpers, `__rpy_ll__/ll_dict.py`), iteration, `str()` of containers and
//! RPython's `compute_hash`.

use super::super::{LlInterpreter, Unwind};
use super::text::format_f;
use crate::lltypesystem::{LlPtr, LlType, LlValue, Offset, TypeDef};
use crate::syntax::Span;

type R = Result<LlValue, Unwind>;

/// Layout of a list type: fixed-size (a GcArray) or resizable (`list {length, items}`).
pub(super) struct ListLayout {
    pub fixed: bool,
    /// The GcArray type of the items.
    pub array: LlType,
}

impl<'p> LlInterpreter<'p> {
    pub(super) fn list_layout(&self, ty: LlType) -> Option<ListLayout> {
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

    pub(super) fn list_items(&self, p: LlPtr, ty: LlType) -> Result<Vec<LlValue>, Unwind> {
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

    pub(super) fn list_arr_len(
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

    // ---- dicts (read by iteration): `dict {num_live, num_used, entries: Ptr(GcArray(entry
    // {key, value, live})), …}`

    pub(super) fn dict_types(&self, ty: LlType) -> (LlType, LlType, LlType, LlType) {
        let types = &self.prog.types;
        let st = types.pointee(ty).unwrap_or(LlType::VOID);
        let ept = types.field_type(st, "entries").unwrap_or(LlType::VOID);
        let arr = types.pointee(ept).unwrap_or(LlType::VOID);
        let entry = types.array_item(arr).unwrap_or(LlType::VOID);
        let kt = types.field_type(entry, "key").unwrap_or(LlType::VOID);
        (st, arr, entry, kt)
    }

    /// The entries array of a dict and the path to field `field` of entry `i`.
    fn entry_place(
        &self,
        d: LlPtr,
        ty: LlType,
        i: usize,
        field: &str,
    ) -> (LlPtr, LlType, [Offset; 2]) {
        let (st, arr, _, _) = self.dict_types(ty);
        let e = self
            .heap
            .getfield(&self.prog.types, d, st, "entries")
            .map(|v| v.as_ptr())
            .unwrap_or(LlPtr::Null);
        (
            e,
            arr,
            [Offset::Index(i as i64), Offset::Field(field.into())],
        )
    }

    pub(super) fn entry_get(&self, d: LlPtr, ty: LlType, i: usize, field: &str) -> LlValue {
        let (e, arr, path) = self.entry_place(d, ty, i, field);
        self.heap
            .getinterior(&self.prog.types, e, arr, &path)
            .unwrap_or(LlValue::Void)
    }

    /// A dict's live and used entry counts.
    pub(super) fn dict_counts(&self, d: LlPtr, ty: LlType) -> (i64, i64) {
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

    pub(super) fn new_tuple(&mut self, ty: LlType, items: &[LlValue]) -> LlValue {
        let st = self.prog.types.pointee(ty).unwrap_or(LlType::VOID);
        let p = self.heap.malloc(&self.prog.types, st, 0);
        for (i, v) in items.iter().enumerate() {
            let _ = self
                .heap
                .setfield(&self.prog.types, p, st, &format!("item{}", i), *v);
        }
        LlValue::Ptr(p)
    }

    pub(super) fn list_item_type(&self, ty: LlType) -> LlType {
        self.list_layout(ty)
            .and_then(|l| self.prog.types.array_item(l.array))
            .unwrap_or(LlType::VOID)
    }

    /// Calls a runtime function with arguments of types `argtys` and result type `rty`.
    pub(super) fn repr_into(
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

    /// RPython's hash of a value: ints are their own hash, strings hash as `ll_strhash`
    /// of ll_str.py computes (without its cache), tuples combine their items' hashes,
    /// instances hash by identity.
    pub(super) fn compute_hash(&self, v: LlValue, ty: LlType) -> i64 {
        // as ll_strhash of ll_str.py (the reference's string hash)
        fn text_hash(t: &[u32]) -> i64 {
            if t.is_empty() {
                return -1;
            }
            let mut x: i64 = (t[0] as i64) << 7;
            for &c in t {
                x = x.wrapping_mul(1000003) ^ c as i64;
            }
            x ^= t.len() as i64;
            if x == 0 {
                29872897
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

    pub(super) fn iter_next(&mut self, it: LlPtr, ity: LlType, rty: LlType, span: Span) -> R {
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
