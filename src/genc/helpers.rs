//! The runtime functions in C, one wrapper per (function, low-level signature): each
//! calls the fixed C runtime's function (`runtime/text.c`, `runtime/os.c`) through generic
//! layouts; and the list descriptors (`rpy_listdesc`) the C runtime allocates lists with.

use super::database::Database;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlType, TypeDef};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Whether a call of a runtime function with this signature may allocate (and so
/// collect): the registry's `allocates`, refined by the signature (the math functions
/// that give tuples allocate, the others do not).
pub fn may_collect_call(db: &Database, rf: RuntimeFn, fty: LlType) -> bool {
    let types = db.types();
    if rf == RuntimeFn::MathFn {
        // only modf and frexp allocate (their tuple)
        return matches!(types.def(fty), TypeDef::Func { result, .. } if types.is_ptr(*result));
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
    static NAMES: std::sync::OnceLock<crate::fasthash::HashSet<String>> =
        std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let text = include_str!("runtime/text.h");
            let mut out = crate::fasthash::HashSet::default();
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
}

impl Database<'_> {
    pub(super) fn list_t(&self, lty: LlType) -> Option<ListT> {
        let types = self.types();
        let to = types.pointee(lty)?;
        match types.def(to) {
            TypeDef::Array { gc: true, .. } => Some(ListT {
                fixed: true,
                arr: to,
            }),
            TypeDef::Struct { name, .. } if &**name == "list" => {
                let arr = types.pointee(types.field_type(to, "items")?)?;
                Some(ListT { fixed: false, arr })
            }
            _ => None,
        }
    }

    pub(super) fn is_unicode(&self, t: LlType) -> bool {
        let types = self.types();
        types
            .pointee(t)
            .and_then(|s| types.struct_name(s))
            .is_some_and(|n| &**n == "rpy_unicode")
    }
}

/// Emits the generated helpers and collects the `rpy_listdesc`s they use.
pub struct Helpers<'a, 'p> {
    db: &'a Database<'p>,
    /// helpers to emit: (function, function type)
    pub uses: BTreeSet<(RuntimeFn, LlType)>,
    /// per-type declarations already emitted (list descriptors)
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

    /// Marks a per-type helper as emitted; false if it already was.
    fn mark_done(&mut self, what: &str, t: LlType) -> bool {
        self.done.insert((what.to_string(), t))
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
        let body = in_text_runtime(rf).then(|| self.text_call(rf, &params, ret));
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
}
