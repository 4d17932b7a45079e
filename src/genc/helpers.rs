//! The runtime functions in C, one specialisation per (function, low-level signature):
//! the text, number and OS functions call the fixed C runtime (`runtime/text.c`, through
//! generic layouts); the list, dict, tuple and class helpers are generated here for the
//! exact types of their arguments, as the reference's low-level helpers are specialised
//! per type.
//!
//! Every generated helper that allocates keeps the GC pointers it still needs on the
//! shadow stack across the allocation (see `runtime/rpy.h`).

use super::database::Database;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlType, TypeDef};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Whether a call of a runtime function with this signature may allocate (and so
/// collect): the registry's `allocates`, refined by the signature (the iterators and
/// math functions that give tuples allocate, the others do not).
pub fn may_collect_call(db: &Database, rf: RuntimeFn, fty: LlType) -> bool {
    let types = db.types();
    let TypeDef::Func { args, .. } = types.def(fty) else {
        return true;
    };
    if rf == RuntimeFn::MathFn {
        // only modf and frexp allocate (their tuple)
        return matches!(types.def(fty), TypeDef::Func { result, .. } if types.is_ptr(*result));
    }
    if rf == RuntimeFn::IterNext {
        // only the iterators that give tuples allocate
        return args
            .first()
            .and_then(|t| types.pointee(*t))
            .and_then(|st| types.struct_name(st))
            .is_none_or(|n| matches!(&**n, "iter_enumerate" | "iter_items"));
    }
    rf.allocates()
}

/// The functions of the fixed C runtime (`RPyRT_<name>`, called with generic layouts):
/// those its header declares; GenC generates the others per type.
fn in_text_runtime(rf: RuntimeFn) -> bool {
    declared_in_text_runtime(&format!("RPyRT_{}", rf.name()))
}

/// Whether the fixed C runtime declares a function of this name (its header is the list).
pub fn declared_in_text_runtime(name: &str) -> bool {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let text = include_str!("runtime/text.h");
            let mut out = std::collections::HashSet::new();
            for (i, _) in text.match_indices("RPyRT_") {
                let rest = &text[i..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                if rest[end..].starts_with('(') {
                    out.insert(rest[..end].to_string());
                }
            }
            out
        })
        .contains(name)
}

/// A specialisation's C name.
pub fn helper_name(rf: RuntimeFn, fty: LlType) -> String {
    format!("rt_{}_{}", rf.name(), fty.0)
}

/// What a list type is made of.
pub(super) struct ListT {
    pub fixed: bool,
    /// the array type (GcArray of the items)
    pub arr: LlType,
    pub item: LlType,
}

impl Database<'_> {
    pub(super) fn list_t(&self, lty: LlType) -> Option<ListT> {
        let types = self.types();
        let to = types.pointee(lty)?;
        match types.def(to) {
            TypeDef::Array { item, gc: true } => Some(ListT {
                fixed: true,
                arr: to,
                item: *item,
            }),
            TypeDef::Struct { name, .. } if &**name == "list" => {
                let arr = types.pointee(types.field_type(to, "items")?)?;
                Some(ListT {
                    fixed: false,
                    arr,
                    item: types.array_item(arr)?,
                })
            }
            _ => None,
        }
    }

    pub(super) fn is_str(&self, t: LlType) -> bool {
        t == self.prog.str_ptr
    }
    pub(super) fn is_unicode(&self, t: LlType) -> bool {
        let types = self.types();
        types
            .pointee(t)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "rpy_unicode")
    }
    fn struct_named(&self, t: LlType, prefix: &str) -> bool {
        let types = self.types();
        types
            .pointee(t)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| n.starts_with(prefix))
    }
    pub(super) fn is_tuple(&self, t: LlType) -> bool {
        self.struct_named(t, "tuple")
    }
    pub(super) fn is_dict(&self, t: LlType) -> bool {
        let types = self.types();
        types
            .pointee(t)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "dict")
    }

    /// `ITEMS(l)`: the C array of a list's items.
    pub(super) fn items_of(&self, l: &ListT, v: &str) -> String {
        if l.fixed {
            format!("{}->items", v)
        } else {
            format!("{}->items->items", v)
        }
    }
}

/// Emits the generated helpers and collects the `rpy_listdesc`s they use.
pub struct Helpers<'a, 'p> {
    db: &'a Database<'p>,
    /// helpers to emit: (function, function type)
    pub uses: BTreeSet<(RuntimeFn, LlType)>,
    /// per-type helpers already emitted (eq, hash, str of a type)
    done: BTreeSet<(String, LlType)>,
    pub protos: String,
    pub out: String,
    pub errors: Vec<String>,
}

impl<'a, 'p> Helpers<'a, 'p> {
    pub fn new(db: &'a Database<'p>) -> Self {
        Helpers {
            db,
            uses: BTreeSet::new(),
            done: BTreeSet::new(),
            protos: String::new(),
            out: String::new(),
            errors: Vec::new(),
        }
    }

    fn ctype(&self, t: LlType) -> String {
        self.db.ctype(t)
    }

    pub(super) fn db(&self) -> &'a Database<'p> {
        self.db
    }

    /// Marks a per-type helper as emitted; false if it already was.
    pub(super) fn mark_done(&mut self, what: &str, t: LlType) -> bool {
        self.done.insert((what.to_string(), t))
    }

    /// Adds a helper function: its prototype among the prototypes, its definition.
    pub(super) fn add_fn(&mut self, proto: String, body: String) {
        let proto = proto.replacen("static ", "static RPY_UNUSED ", 1);
        let _ = writeln!(self.protos, "{};", proto);
        let _ = writeln!(self.out, "{} {{\n{}}}\n", proto, body);
    }

    /// A list descriptor for list type `lty` (a static `rpy_listdesc`), by name.
    pub(super) fn listdesc(&mut self, lty: LlType) -> String {
        let name = format!("rpy_ld{}", lty.0);
        if self.mark_done("listdesc", lty) {
            if let Some(l) = self.db.list_t(lty) {
                let list_tid = if l.fixed {
                    0
                } else {
                    self.db.tid(self.db.types().pointee(lty).unwrap())
                };
                let _ = writeln!(
                    self.protos,
                    "static RPY_UNUSED const struct rpy_listdesc {} = {{ {}, {} }};",
                    name,
                    list_tid,
                    self.db.tid(l.arr)
                );
            }
        }
        name
    }

    /// Emits every helper in `uses`.
    pub fn emit_all(&mut self) {
        let uses: Vec<(RuntimeFn, LlType)> = self.uses.iter().copied().collect();
        for (rf, fty) in uses {
            let TypeDef::Func { args, result } = self.db.types().def(fty).clone() else {
                continue;
            };
            self.emit(rf, fty, &args, result);
        }
    }

    fn emit(&mut self, rf: RuntimeFn, fty: LlType, args: &[LlType], ret: LlType) {
        let name = helper_name(rf, fty);
        let params: Vec<(usize, LlType)> = args
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != LlType::VOID)
            .map(|(i, t)| (i, *t))
            .collect();
        let plist: Vec<String> = params
            .iter()
            .map(|(i, t)| self.db.decl(*t, &format!("a{}", i)))
            .collect();
        let proto = format!(
            "static RPY_UNUSED {} {}({})",
            self.ctype(ret),
            name,
            if plist.is_empty() {
                "void".into()
            } else {
                plist.join(", ")
            }
        );
        let _ = writeln!(self.protos, "{};", proto);
        let body = if in_text_runtime(rf) {
            Some(self.text_call(rf, &params, ret))
        } else {
            self.container_body(rf, args, ret)
        };
        match body {
            Some(b) => {
                let _ = writeln!(self.out, "{} {{\n{}}}\n", proto, b);
            }
            None => {
                self.errors.push(format!(
                    "the runtime function `{}` with the signature {} is not supported by `build` yet",
                    rf.name(),
                    self.db.types().name(fty)
                ));
                let _ = writeln!(
                    self.out,
                    "{} {{\n    rpy_fatal(\"unsupported runtime function {}\");\n}}\n",
                    proto,
                    rf.name()
                );
            }
        }
    }

    /// The call of the fixed runtime's function: generic pointers, the `_u` variant for
    /// unicode, the `_<n>` variant of an arity.
    fn text_call(&mut self, rf: RuntimeFn, params: &[(usize, LlType)], ret: LlType) -> String {
        let db = self.db;
        let uni = params.iter().any(|(_, t)| db.is_unicode(*t)) || db.is_unicode(ret);
        let mut cname = format!("RPyRT_{}", rf.name());
        if uni {
            cname.push_str("_u");
        }
        // a function called with two arities has a variant per arity (`_<n>`)
        let arity = format!("{}_{}", cname, params.len());
        if declared_in_text_runtime(&arity) {
            cname = arity;
        }
        let args: Vec<String> = params
            .iter()
            .map(|(i, t)| {
                if db.types().is_ptr(*t) {
                    format!("(void *)a{}", i)
                } else {
                    format!("a{}", i)
                }
            })
            .collect();
        let call = format!("{}({})", cname, args.join(", "));
        if ret == LlType::VOID {
            format!("    {};\n", call)
        } else if db.types().is_ptr(ret) {
            format!("    return ({}){};\n", self.ctype(ret), call)
        } else {
            format!("    return {};\n", call)
        }
    }

    /// The body of a generated container helper, or None if not supported.
    fn container_body(&mut self, rf: RuntimeFn, args: &[LlType], ret: LlType) -> Option<String> {
        use RuntimeFn::*;
        let db = self.db;
        let a0 = args.first().copied().unwrap_or(LlType::VOID);
        let mut b = String::new();
        match rf {
            ListStr => return self.list_str(a0),
            ComputeHash => {
                let h = self.hash_fn(a0)?;
                let _ = writeln!(b, "    return {}(a0);", h);
            }
            IterNext => return self.iter_next(a0, ret),
            RangeIterNext => {
                b.push_str("    long i = a0->next;\n    if (a0->step > 0 ? i >= a0->stop : i <= a0->stop) { rpy_raise_std(RPY_EXC_StopIteration); return 0; }\n    a0->next = i + a0->step;\n    return i;\n");
            }
            RangeIterOfList => {
                let l = db.list_t(a0)?;
                let st = db.types().pointee(ret)?;
                let _ = writeln!(
                    b,
                    "    long n = a0->length, start = n > 0 ? {}[0] : 0;\n    {} = rpy_gc_malloc_fixed({});\n    it->next = start;\n    it->stop = start + n * a1;\n    it->step = a1;\n    return it;",
                    db.items_of(&l, "a0"),
                    db.decl(ret, "it"),
                    db.tid(st)
                );
            }
            Instantiate => return self.instantiate(ret),
            CallInit => return self.call_init(args),
            _ => return None,
        }
        Some(b)
    }

    /// A hash function for values of type `t` (RPython's `compute_hash` values).
    pub(super) fn hash_fn(&mut self, t: LlType) -> Option<String> {
        let db = self.db;
        let name = format!("rpy_hash{}", t.0);
        if !self.mark_done("hash", t) {
            return Some(name);
        }
        let ct = self.ctype(t);
        let body = if db.is_str(t) {
            "    return a == NULL ? 0 : RPyRT_ll_strhash((void *)a);\n".to_string()
        } else if db.is_unicode(t) {
            "    return a == NULL ? 0 : RPyRT_ll_strhash_u((void *)a);\n".to_string()
        } else if db.is_tuple(t) {
            let types = db.types();
            let st = types.pointee(t)?;
            let fields: Vec<_> = types.fields(st).to_vec();
            let n = fields.len() as i64;
            let mut s = String::from(
                "    unsigned long x = 0x345678UL, mult = 1000003UL;\n    if (a == NULL) return 0;\n",
            );
            for (i, (f, ft)) in fields.iter().enumerate() {
                let h = if *ft == LlType::VOID {
                    "0".to_string()
                } else {
                    format!(
                        "{}(a->{})",
                        self.hash_fn(*ft)?,
                        super::database::field_name(f)
                    )
                };
                let _ = writeln!(
                    s,
                    "    x = (x ^ (unsigned long){}) * mult;\n    mult += {}UL;",
                    h,
                    82520 + 2 * (n - 1 - i as i64)
                );
            }
            s.push_str("    x += 97531UL;\n    return (long)x == -1 ? -2 : (long)x;\n");
            s
        } else if t == LlType::CHAR {
            "    long x = ((long)a << 7);\n    x = (long)((unsigned long)x * 1000003UL) ^ (long)a;\n    x ^= 1;\n    return x == -1 ? -2 : x;\n".to_string()
        } else if t == LlType::FLOAT {
            "    if (a == (double)(long)a && fabs(a) < 9.2e18) return (long)a;\n    long r; memcpy(&r, &a, sizeof r); return r;\n".to_string()
        } else if db.types().is_gc_ptr(t) {
            "    return a == NULL ? 0 : rpy_gc_identityhash((void *)a);\n".to_string()
        } else if db.types().is_ptr(t) {
            "    return (long)(uintptr_t)a;\n".to_string()
        } else if t == LlType::VOID {
            return None;
        } else {
            "    return (long)a;\n".to_string()
        };
        self.add_fn(format!("static long {}({} a)", name, ct), body);
        Some(name)
    }
}
