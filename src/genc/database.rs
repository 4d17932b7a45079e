//! The low-level database (seed 001, "The C Back-End"): a deterministic C name for every
//! low-level type, function and prebuilt container of an `LlProgram`, the type ids the GC
//! knows, and the C declarations of the types (forward declarations, function pointer
//! typedefs, structure definitions in dependency order, the `rpy_typeinfo` table).
//!
//! Names are derived from ids (type `T12_list`, function `f7_entry_point`, constant `c42`),
//! which the RTyper assigns in a deterministic order: the same program gives the same C.

use crate::fasthash::HashSet;
use crate::lltypesystem::{LlType, LlTypes, TypeDef};
use crate::rtyper::{LlFunction, LlProgram};
use std::collections::BTreeMap;
use std::fmt::Write;

/// C keywords and names of the runtime that a field or function name must not take.
const RESERVED: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "hdr", "bool", "true", "false", "main",
];

/// A C identifier made of `s`'s identifier characters.
pub fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.as_bytes()[0].is_ascii_digit() {
        out.insert(0, '_');
    }
    out
}

/// The C name of a structure field.
pub fn field_name(name: &str) -> String {
    let s = sanitize(name);
    if RESERVED.contains(&s.as_str()) {
        format!("f_{}", s)
    } else {
        s
    }
}

pub struct Database<'p> {
    pub prog: &'p LlProgram,
    /// Type id of every GC type that can be allocated (GcStruct, GcArray), from 1.
    pub tids: BTreeMap<LlType, u32>,
    /// C name of each function of the function table.
    pub func_names: Vec<String>,
}

impl<'p> Database<'p> {
    pub fn new(prog: &'p LlProgram) -> Database<'p> {
        let types = &prog.types;
        let mut tids = BTreeMap::new();
        for t in types.all() {
            if types.is_gc(t) {
                let n = tids.len() as u32 + 1;
                tids.insert(t, n);
            }
        }
        let func_names = prog
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| match f {
                LlFunction::Graph { name, .. } => format!("f{}_{}", i, sanitize(name)),
                LlFunction::Runtime(rf) => format!("rt{}_{}", i, rf.name()),
                LlFunction::C(decl) => format!("rpyc{}_{}", i, sanitize(&decl.name)),
            })
            .collect();
        Database {
            prog,
            tids,
            func_names,
        }
    }

    pub fn types(&self) -> &'p LlTypes {
        &self.prog.types
    }

    /// The C name of a structure or array type (`struct T12_list`).
    pub fn struct_name(&self, t: LlType) -> String {
        let types = self.types();
        match types.def(t) {
            TypeDef::Struct { name, .. } => format!("struct T{}_{}", t.0, sanitize(name)),
            TypeDef::Array { gc, .. } => {
                format!("struct T{}_{}", t.0, if *gc { "gcarray" } else { "array" })
            }
            // a C library's own type, declared by the headers its compilation info includes
            TypeDef::Opaque {
                c_name: Some(c), ..
            } => c.to_string(),
            _ => format!("struct T{}", t.0),
        }
    }

    /// Whether values of `t` exist at run time (Void and opaque-less nothing do not).
    pub fn is_void(&self, t: LlType) -> bool {
        t == LlType::VOID
    }

    /// The C type of a value of low-level type `t` (a variable, a field, an argument).
    pub fn ctype(&self, t: LlType) -> String {
        let types = self.types();
        match t {
            LlType::VOID => "void".into(),
            LlType::SIGNED => "long".into(),
            LlType::UNSIGNED => "unsigned long".into(),
            LlType::SIGNEDLONGLONG => "long long".into(),
            LlType::UNSIGNEDLONGLONG => "unsigned long long".into(),
            LlType::SIGNEDLONGLONGLONG => "rpy_lllong".into(),
            LlType::FLOAT => "double".into(),
            LlType::SINGLEFLOAT => "float".into(),
            LlType::CHAR => "unsigned char".into(),
            LlType::UNICHAR => "uint32_t".into(),
            LlType::BOOL => "bool".into(),
            LlType::INT => "int".into(),
            LlType::UINT => "unsigned int".into(),
            LlType::SHORT => "short".into(),
            LlType::USHORT => "unsigned short".into(),
            LlType::SIGNEDCHAR => "signed char".into(),
            LlType::UCHAR => "unsigned char".into(),
            _ => match types.def(t) {
                TypeDef::Ptr(to) => match types.def(*to) {
                    TypeDef::Func { .. } => format!("FT{}", to.0),
                    TypeDef::Opaque { .. } => "void *".into(),
                    _ => format!("{} *", self.struct_name(*to)),
                },
                TypeDef::Struct { .. } | TypeDef::Array { .. } => self.struct_name(t),
                _ => "void *".into(),
            },
        }
    }

    /// `ctype` followed by a declared name.
    pub fn decl(&self, t: LlType, name: &str) -> String {
        let c = self.ctype(t);
        if c.ends_with('*') {
            format!("{}{}", c, name)
        } else {
            format!("{} {}", c, name)
        }
    }

    /// The type id of a GC type.
    pub fn tid(&self, t: LlType) -> u32 {
        self.tids.get(&t).copied().unwrap_or(0)
    }

    /// The C type declarations: forward declarations, function pointer typedefs,
    /// structure definitions (each after what it contains).
    pub fn emit_types(&self, out: &mut String) {
        let types = self.types();
        let all: Vec<LlType> = types.all().collect();
        out.push_str("/* ---- types ---- */\n");
        for &t in &all {
            if matches!(types.def(t), TypeDef::Struct { .. } | TypeDef::Array { .. }) {
                let _ = writeln!(out, "{};", self.struct_name(t));
            }
        }
        for &t in &all {
            if let TypeDef::Func { args, result } = types.def(t) {
                let params: Vec<String> = args
                    .iter()
                    .filter(|a| !self.is_void(**a))
                    .map(|a| self.ctype(*a))
                    .collect();
                let _ = writeln!(
                    out,
                    "typedef {} (*FT{})({});",
                    self.ctype(*result),
                    t.0,
                    if params.is_empty() {
                        "void".into()
                    } else {
                        params.join(", ")
                    }
                );
            }
        }
        let mut done = HashSet::default();
        for &t in &all {
            self.emit_struct(t, &mut done, out);
        }
    }

    fn emit_struct(&self, t: LlType, done: &mut HashSet<LlType>, out: &mut String) {
        let types = self.types();
        if !matches!(types.def(t), TypeDef::Struct { .. } | TypeDef::Array { .. })
            || !done.insert(t)
        {
            return;
        }
        // what is contained by value first
        match types.def(t) {
            TypeDef::Struct { fields, .. } => {
                for (_, ft) in fields {
                    self.emit_struct(*ft, done, out);
                }
            }
            TypeDef::Array { item, .. } => self.emit_struct(*item, done, out),
            _ => {}
        }
        let _ = writeln!(out, "{} {{", self.struct_name(t));
        self.emit_members(t, None, out);
        out.push_str("};\n");
    }

    /// The members of structure or array `t`; `sized`: the number of items of the
    /// variable part, for a prebuilt container (a fixed-length array in place of the
    /// flexible one, which C cannot initialise when nested).
    pub fn emit_members(&self, t: LlType, sized: Option<usize>, out: &mut String) {
        let types = self.types();
        match types.def(t) {
            TypeDef::Struct { fields, gc, .. } => {
                let has_parent = types.parent(t).is_some();
                if *gc && !has_parent {
                    out.push_str("    rpy_hdr hdr;\n");
                }
                let n = fields.len();
                let mut any = *gc && !has_parent;
                for (i, (name, ft)) in fields.iter().enumerate() {
                    if self.is_void(*ft) {
                        continue;
                    }
                    any = true;
                    let fname = field_name(name);
                    if i + 1 == n {
                        if let TypeDef::Array { item, .. } = types.def(*ft) {
                            out.push_str("    struct {\n        long length;\n");
                            self.emit_items(*item, sized, out);
                            let _ = writeln!(out, "    }} {};", fname);
                            continue;
                        }
                    }
                    let _ = writeln!(out, "    {};", self.decl(*ft, &fname));
                }
                if !any {
                    out.push_str("    char _empty;\n");
                }
            }
            TypeDef::Array { item, gc, .. } => {
                if *gc {
                    out.push_str("    rpy_hdr hdr;\n");
                }
                out.push_str("    long length;\n");
                self.emit_items(*item, sized, out);
            }
            _ => {}
        }
    }

    fn emit_items(&self, item: LlType, sized: Option<usize>, out: &mut String) {
        if self.is_void(item) {
            return;
        }
        let n = match sized {
            Some(n) => n.to_string(),
            None => String::new(),
        };
        let _ = writeln!(out, "        {}[{}];", self.decl(item, "items"), n);
    }

    /// The C member path of each flattened field of a structure (`super.typeptr`), in the
    /// order of `LlTypes::flat_fields`.
    pub fn flat_paths(&self, s: LlType) -> Vec<(String, LlType)> {
        self.types()
            .flat_fields(s)
            .into_iter()
            .map(|(path, t)| {
                let p: Vec<String> = path.iter().map(|n| field_name(n)).collect();
                (p.join("."), t)
            })
            .collect()
    }

    /// The `rpy_typeinfo` table of every GC type.
    pub fn emit_typeinfo(&self, out: &mut String) {
        let types = self.types();
        out.push_str("/* ---- what the GC knows of each type ---- */\n");
        out.push_str("static const long rpy_noptrs[] = { -1 };\n");
        let mut rows = vec!["    { 0, 0, 0, rpy_noptrs, rpy_noptrs }".to_string()];
        for (&t, &tid) in &self.tids {
            let sn = self.struct_name(t);
            let mut ptrs = Vec::new();
            // a weak reference's object is not traced: the GC clears the field instead
            let weak = Some(t) == self.prog.weakref;
            if let (TypeDef::Struct { .. }, false) = (types.def(t), weak) {
                for (path, ft) in self.flat_paths(t) {
                    if types.is_gc_ptr(ft) {
                        ptrs.push(format!("offsetof({}, {})", sn, path));
                    }
                }
            }
            let ptrofs = if ptrs.is_empty() {
                "rpy_noptrs".to_string()
            } else {
                let _ = writeln!(
                    out,
                    "static const long rpy_ptrofs{}[] = {{ {}, -1 }};",
                    tid,
                    ptrs.join(", ")
                );
                format!("rpy_ptrofs{}", tid)
            };
            let row = match types.varsize_array(t) {
                None => format!("    {{ sizeof({}), 0, 0, {}, rpy_noptrs }}", sn, ptrofs),
                Some(arr) => {
                    let item = types.array_item(arr).unwrap_or(LlType::VOID);
                    let prefix = if arr == t {
                        String::new()
                    } else {
                        format!("{}.", field_name(&types.fields(t).last().unwrap().0))
                    };
                    let mut iptrs = Vec::new();
                    if types.is_gc_ptr(item) {
                        iptrs.push("0".to_string());
                    } else if let TypeDef::Struct { .. } = types.def(item) {
                        for (path, ft) in self.flat_paths(item) {
                            if types.is_gc_ptr(ft) {
                                iptrs.push(format!(
                                    "offsetof({}, {})",
                                    self.struct_name(item),
                                    path
                                ));
                            }
                        }
                    }
                    let itemptrofs = if iptrs.is_empty() {
                        "rpy_noptrs".to_string()
                    } else {
                        let _ = writeln!(
                            out,
                            "static const long rpy_itemptrofs{}[] = {{ {}, -1 }};",
                            tid,
                            iptrs.join(", ")
                        );
                        format!("rpy_itemptrofs{}", tid)
                    };
                    let (start, size) = if self.is_void(item) {
                        (format!("sizeof({})", sn), "0".to_string())
                    } else {
                        (
                            format!("offsetof({}, {}items)", sn, prefix),
                            format!("sizeof({})", self.ctype(item)),
                        )
                    };
                    format!(
                        "    {{ {}, {}, offsetof({}, {}length), {}, {} }}",
                        start, size, sn, prefix, ptrofs, itemptrofs
                    )
                }
            };
            rows.push(row);
        }
        let _ = writeln!(
            out,
            "const struct rpy_typeinfo rpy_typeinfo[] = {{\n{}\n}};",
            rows.join(",\n")
        );
        let _ = writeln!(out, "const long rpy_typeinfo_count = {};", rows.len());
    }

    /// Whether a GC type holds GC pointers (a prebuilt one must then be a GC root).
    pub fn has_gc_ptrs(&self, t: LlType) -> bool {
        let types = self.types();
        let fixed = matches!(types.def(t), TypeDef::Struct { .. })
            && self
                .types()
                .flat_fields(t)
                .iter()
                .any(|(_, ft)| types.is_gc_ptr(*ft));
        let items = types.varsize_array(t).is_some_and(|arr| {
            let item = types.array_item(arr).unwrap_or(LlType::VOID);
            types.is_gc_ptr(item)
                || (matches!(types.def(item), TypeDef::Struct { .. })
                    && types
                        .flat_fields(item)
                        .iter()
                        .any(|(_, ft)| types.is_gc_ptr(*ft)))
        });
        fixed || items
    }
}
