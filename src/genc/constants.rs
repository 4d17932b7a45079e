//! Prebuilt data: every container of the RTyper's heap (strings, vtables, instances,
//! lists, dicts, exception instances) becomes a static C variable with its initialiser.
//! GC containers get a header with their type id and `RPY_GCFLAG_STATIC`; those holding
//! GC pointers are listed in `rpy_static_gcobjs` (roots of major collections).

use super::database::Database;
use crate::lltypesystem::heap::{Container, Items};
use crate::lltypesystem::{LlPtr, LlType, LlValue, TypeDef};
use std::fmt::Write;

impl Database<'_> {
    /// The C name of prebuilt container `i`.
    pub fn const_name(i: u32) -> String {
        format!("c{}", i)
    }

    /// The C type name of a prebuilt container: its type, or for a variable-sized one a
    /// type of its own with the exact number of items.
    fn const_type(&self, i: u32, c: &Container) -> String {
        if self.types().varsize_array(c.ty).is_some() {
            format!("struct C{}", i)
        } else {
            self.struct_name(c.ty)
        }
    }

    fn item_count(c: &Container) -> usize {
        crate::lltypesystem::heap::items_len(c)
    }

    /// A C expression of low-level value `v` of type `t` (in an initialiser or in code).
    pub fn value(&self, v: LlValue, t: LlType) -> String {
        match v {
            LlValue::Void | LlValue::Name(_) | LlValue::Type(_) => "0".into(),
            LlValue::Int(i) => {
                if i == i64::MIN {
                    "(-9223372036854775807L-1)".into()
                } else if t == LlType::SIGNEDLONGLONG {
                    format!("{}LL", i)
                } else if matches!(t, LlType::UNSIGNED | LlType::UNSIGNEDLONGLONG) {
                    format!("{}UL", i as u64)
                } else if t == LlType::FLOAT {
                    float_lit(i as f64)
                } else {
                    format!("{}L", i)
                }
            }
            // a 128-bit constant is what the reference's C literal gives (see `int128`),
            // written from its two words (C has no literal that wide)
            LlValue::Int128(_) => {
                let c = crate::lltypesystem::int128::c_constant(v.as_i128()).as_i128();
                format!(
                    "((__int128_t)(((__uint128_t){}UL << 64) | {}UL))",
                    (c >> 64) as u64,
                    c as u64
                )
            }
            LlValue::Uint(u) => {
                if t == LlType::FLOAT {
                    float_lit(u as f64)
                } else {
                    format!("{}UL", u)
                }
            }
            LlValue::Float(f) => float_lit(f),
            LlValue::Char(c) => format!("{}", c),
            LlValue::UniChar(c) => format!("{}U", c),
            LlValue::Bool(b) => if b { "1" } else { "0" }.into(),
            LlValue::Ptr(p) => self.ptr_value(p, t),
        }
    }

    /// `value` in code (not in an initialiser of prebuilt data). A NaN is written as the
    /// reference writes it, `(HUGE_VAL/HUGE_VAL)`, negated for a NaN that was negative at
    /// translation time: where the C compiler evaluates its use at compile time (the
    /// argument of `copysign`, the bits of a local) it folds the division to a positive
    /// NaN, elsewhere the machine divides and gives its default NaN. The reference's binary
    /// depends on which, so ours does the same. (Prebuilt data holds the machine's NaN,
    /// as the reference's, which patches such fields at startup.)
    pub fn code_value(&self, v: LlValue, t: LlType) -> String {
        match v {
            LlValue::Float(f) if f.is_nan() => {
                // the RTyper gave the constant the sign of the machine's division
                // (`binary_float_const`): the default NaN's for a positive one
                let default =
                    std::hint::black_box(f64::INFINITY) / std::hint::black_box(f64::INFINITY);
                if f.is_sign_negative() == default.is_sign_negative() {
                    "(HUGE_VAL/HUGE_VAL)".into()
                } else {
                    "(-(HUGE_VAL/HUGE_VAL))".into()
                }
            }
            _ => self.value(v, t),
        }
    }

    fn ptr_value(&self, p: LlPtr, t: LlType) -> String {
        let cty = self.ctype(t);
        match p {
            // (a computed raw address exists only at run time: never a prebuilt constant)
            LlPtr::Null | LlPtr::Raw { .. } => "NULL".into(),
            LlPtr::Addr(n) => format!("(({}){})", cty, n),
            LlPtr::Func(f) => format!("(({})&{})", cty, self.func_names[f as usize]),
            LlPtr::Obj { obj, inner } => {
                let name = Self::const_name(obj);
                if inner {
                    let c = &self.prog.heap.containers[obj as usize];
                    let types = self.types();
                    match types.def(c.ty) {
                        TypeDef::Struct { fields, .. } => {
                            let last = super::database::field_name(&fields.last().unwrap().0);
                            format!("(({})&{}.{})", cty, name, last)
                        }
                        _ => format!("(({})&{})", cty, name),
                    }
                } else {
                    format!("(({})&{})", cty, name)
                }
            }
        }
    }

    /// Declarations (first) and definitions of every prebuilt container.
    pub fn emit_constants(&self, decls: &mut String, defs: &mut String) {
        let heap = &self.prog.heap;
        let types = self.types();
        decls.push_str("/* ---- prebuilt data ---- */\n");
        let mut roots = Vec::new();
        // a prebuilt string gets one more (zeroed) char, its terminating NUL, as every
        // string the GC allocates (gc.c's `str_extra`): the heap's extra item
        for (i, c) in heap.containers.iter().enumerate() {
            let i = i as u32;
            if types.varsize_array(c.ty).is_some() {
                let _ = writeln!(decls, "struct C{} {{", i);
                let extra = c.extra as usize;
                self.emit_members(c.ty, Some(Self::item_count(c) + extra), decls);
                decls.push_str("};\n");
            }
            let _ = writeln!(
                decls,
                "static RPY_UNUSED {} {};",
                self.const_type(i, c),
                Self::const_name(i)
            );
            if types.is_gc(c.ty) && self.has_gc_ptrs(c.ty) {
                roots.push(i);
            }
        }
        for (i, c) in heap.containers.iter().enumerate() {
            let i = i as u32;
            let _ = writeln!(
                defs,
                "static {} {} = {};",
                self.const_type(i, c),
                Self::const_name(i),
                self.initializer(c)
            );
        }
        let _ = writeln!(
            defs,
            "void *const rpy_static_gcobjs[] = {{ {}NULL }};",
            roots
                .iter()
                .map(|i| format!("&{}, ", Self::const_name(*i)))
                .collect::<String>()
        );
        let _ = writeln!(
            defs,
            "const long rpy_static_gcobjs_count = {};",
            roots.len()
        );
    }

    fn initializer(&self, c: &Container) -> String {
        let types = self.types();
        let mut out = String::from("{ ");
        match types.def(c.ty) {
            TypeDef::Struct { .. } => {
                let mut slot = 0;
                self.struct_init(c.ty, c, &mut slot, true, &mut out);
            }
            TypeDef::Array { gc, .. } => {
                if *gc {
                    let _ = write!(
                        out,
                        "{{ {}, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG }}, ",
                        self.tid(c.ty)
                    );
                }
                self.items_init(c, &mut out);
            }
            _ => {}
        }
        out.push('}');
        out
    }

    /// The members of structure `s` from the container's flattened fields at `slot`.
    fn struct_init(
        &self,
        s: LlType,
        c: &Container,
        slot: &mut usize,
        outer: bool,
        out: &mut String,
    ) {
        let types = self.types();
        let TypeDef::Struct { fields, gc, .. } = types.def(s) else {
            return;
        };
        let has_parent = types.parent(s).is_some();
        let mut any = false;
        if *gc && !has_parent {
            let _ = write!(
                out,
                "{{ {}, RPY_GCFLAG_STATIC | RPY_GCFLAG_TRACK_YOUNG }}, ",
                self.tid(c.ty)
            );
            any = true;
        }
        for (_, ft) in fields {
            match types.def(*ft) {
                TypeDef::Struct { .. } => {
                    out.push_str("{ ");
                    self.struct_init(*ft, c, slot, false, out);
                    out.push_str("}, ");
                    any = true;
                }
                TypeDef::Array { .. } => {
                    if outer {
                        out.push_str("{ ");
                        self.items_init(c, out);
                        out.push_str("}, ");
                        any = true;
                    }
                }
                _ => {
                    let v = c.fields.get(*slot).copied().unwrap_or(LlValue::Void);
                    *slot += 1;
                    if *ft != LlType::VOID {
                        out.push_str(&self.value(v, *ft));
                        out.push_str(", ");
                        any = true;
                    }
                }
            }
        }
        if !any {
            out.push_str("0 ");
        }
    }

    /// `length, { items }` of the container's variable part.
    fn items_init(&self, c: &Container, out: &mut String) {
        let types = self.types();
        let n = Self::item_count(c);
        if self.is_void(c.item_ty) && !matches!(c.items, Items::Bytes(_)) {
            // an array of Void items is declared with its length only
            let _ = write!(out, "{} ", n);
            return;
        }
        let _ = write!(out, "{}, {{ ", n);
        match &c.items {
            Items::Bytes(b) => {
                for x in &b[..n] {
                    let _ = write!(out, "{},", x);
                }
            }
            Items::Values(v) if c.item_ty != LlType::VOID => {
                if let TypeDef::Struct { .. } = types.def(c.item_ty) {
                    let stride = c.stride.max(1);
                    for k in 0..n {
                        let item = Container {
                            ty: c.item_ty,
                            fields: v[k * stride..(k + 1) * stride].to_vec(),
                            items: Items::None,
                            item_ty: LlType::VOID,
                            stride: 0,
                            extra: 0,
                        };
                        out.push_str("{ ");
                        let mut slot = 0;
                        self.struct_init(c.item_ty, &item, &mut slot, false, out);
                        out.push_str("}, ");
                    }
                } else {
                    for x in v {
                        out.push_str(&self.value(*x, c.item_ty));
                        out.push_str(", ");
                    }
                }
            }
            _ => {}
        }
        out.push_str("} ");
    }
}

/// A C literal of a double, exact (shortest round-trip digits).
pub fn float_lit(f: f64) -> String {
    if f.is_nan() {
        // with its sign (the RTyper gave NaN constants the sign the reference's binary has)
        if f.is_sign_negative() {
            "(-__builtin_nan(\"\"))".into()
        } else {
            "__builtin_nan(\"\")".into()
        }
    } else if f.is_infinite() {
        if f > 0.0 {
            "__builtin_inf()".into()
        } else {
            "(-__builtin_inf())".into()
        }
    } else {
        let s = format!("{:?}", f);
        if s.contains('.') || s.contains('e') {
            s
        } else {
            format!("{}.0", s)
        }
    }
}
