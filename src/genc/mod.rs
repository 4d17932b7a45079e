//! GenC (seed 001, "The C Back-End"): takes the RTyper's `LlProgram` and gives C source
//! (one generated file, `program.c`, beside the runtime files embedded in this binary),
//! then a native executable through the system C compiler.
//!
//! Layout: `database` (names of types, functions and constants; the GC's type table),
//! `constants` (prebuilt data as static initialised C data), `funcgen` (one C function
//! per graph, with the exception and GC-root transforms applied as it is written),
//! `helpers` (the calls of the runtime functions, per signature), `cfuncs` (the calls of
//! the C functions the program declares; their `ExternalCompilationInfo` is merged into
//! `CSources::eci`), `cc` (the C compiler), `objcache` (the runtime compiled once and kept
//! between builds), `probe` (compile-only questions for `rffi_platform`), and `runtime/`
//! (the C runtime: GC, text and number functions, lists, the debug log).

mod cc;
mod cfuncs;
mod constants;
pub mod database;
mod effects;
pub mod funcgen;
mod helpers;
mod objcache;

pub use cc::{compile, CompileError, CompileOptions, GcKind};

use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::eci::Eci;
use crate::lltypesystem::runtime::RuntimeFn;
use crate::lltypesystem::{LlOp, LlPtr, LlType, LlValue};
use crate::rtyper::{LlFunction, LlProgram};
use crate::syntax::SourceMap;
use database::Database;
use std::fmt::Write;

/// The C runtime, embedded: (file name, contents).
pub const RUNTIME_FILES: &[(&str, &str)] = &[
    ("rpy.h", include_str!("runtime/rpy.h")),
    ("ops.h", include_str!("runtime/ops.h")),
    ("text.h", include_str!("runtime/text.h")),
    ("gc.c", include_str!("runtime/gc.c")),
    ("text.c", include_str!("runtime/text.c")),
    ("math.c", include_str!("runtime/math.c")),
    ("containers.c", include_str!("runtime/containers.c")),
    ("os.c", include_str!("runtime/os.c")),
    ("debuglog.c", include_str!("runtime/debuglog.c")),
];

/// The generated sources of a program.
pub struct CSources {
    /// (file name, contents): `program.c`, the runtime files and the C sources of the
    /// program's own (`separate_module_sources`, `module_<n>.c`).
    pub files: Vec<(String, String)>,
    /// The merged compile and link information of the C functions the program calls.
    pub eci: Eci,
}

impl CSources {
    /// The `.c` files to compile.
    pub fn c_files(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| n.ends_with(".c"))
    }
}

/// Generates the C source of a low-level program. `lines`: source line comments for
/// each block (`--emit-c`). An error lists what the generator does not support yet.
pub fn generate(prog: &LlProgram, lines: Option<&SourceMap>) -> Result<CSources, Vec<String>> {
    let db = Database::new(prog);
    let mut helpers = helpers::Helpers::new(&db);
    let mut c_uses = std::collections::BTreeSet::new();
    // the runtime and C functions used, with the signature of each call
    for f in &prog.functions {
        let LlFunction::Graph { graph, .. } = f else {
            continue;
        };
        for b in &prog.graphs[*graph as usize].blocks {
            for op in &b.operations {
                if op.opname != Op::Ll(LlOp::DirectCall) {
                    continue;
                }
                if let Some(Hlvalue::Ll(LlConstant {
                    ty,
                    value: LlValue::Ptr(LlPtr::Func(i)),
                })) = op.args.first()
                {
                    let fty = prog.types.pointee(*ty).unwrap_or(LlType::VOID);
                    match &prog.functions[*i as usize] {
                        LlFunction::Runtime(rf) if *rf != RuntimeFn::MathFn => {
                            helpers.uses.insert((*rf, fty));
                        }
                        LlFunction::C(_) => {
                            c_uses.insert((*i, fty));
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    helpers.emit_all();
    // the argv list of the entry point
    let entry_graph = match &prog.functions[prog.entry as usize] {
        LlFunction::Graph { graph, .. } => &prog.graphs[*graph as usize],
        _ => {
            return Err(vec![
                "the entry point is not a function of the program".into()
            ])
        }
    };
    let argv_ty = entry_graph
        .block(entry_graph.startblock)
        .inputargs
        .first()
        .map(|v| entry_graph.concretetype[v.0 as usize])
        .unwrap_or(LlType::VOID);
    let argv_ld = helpers.listdesc(argv_ty);
    if !helpers.errors.is_empty() {
        return Err(std::mem::take(&mut helpers.errors));
    }

    // what the C functions called need from the compiler and linker
    let mut eci = Eci::default();
    for &(f, _) in &c_uses {
        if let LlFunction::C(decl) = &prog.functions[f as usize] {
            eci.merge(&decl.eci);
        }
    }
    let mut out = String::new();
    out.push_str("/* Generated by rpy-lsp build: the translated program. */\n");
    for bit in &eci.pre_include_bits {
        let _ = writeln!(out, "{}", bit);
    }
    out.push_str("#include \"rpy.h\"\n#include \"ops.h\"\n#include \"text.h\"\n#include <stdio.h>\n#include <unistd.h>\n#include <sys/resource.h>\n");
    // the C functions the program declares: their headers, prototypes and wrappers
    let mut c_wrappers = String::new();
    cfuncs::emit(&db, &c_uses, &mut out, &mut c_wrappers);
    let eci_header = eci_header(&eci);
    out.push_str(&eci_header);
    out.push('\n');
    db.emit_types(&mut out);
    out.push('\n');
    db.emit_typeinfo(&mut out);
    out.push('\n');
    let mut decls = String::new();
    let mut defs = String::new();
    db.emit_constants(&mut decls, &mut defs);
    out.push_str(&decls);
    out.push('\n');
    let effects = effects::Effects::compute(&db, prog);
    // function prototypes
    out.push_str("/* ---- functions ---- */\n");
    let mut bodies = String::new();
    for (i, f) in prog.functions.iter().enumerate() {
        if let LlFunction::Graph { graph, .. } = f {
            let g = &prog.graphs[*graph as usize];
            let name = &db.func_names[i];
            let _ = writeln!(out, "{};", funcgen::FuncGen::prototype(&db, g, name));
            bodies.push_str(
                &funcgen::FuncGen::new(&db, &effects, g, lines, effects.recursive[i])
                    .generate(name),
            );
        }
    }
    out.push_str(&helpers.protos);
    out.push_str(&c_wrappers);
    out.push('\n');
    out.push_str(&defs);
    out.push('\n');
    emit_support(&db, &mut out);
    out.push('\n');
    out.push_str(&helpers.out);
    out.push_str(&bodies);
    emit_main(&db, argv_ty, &argv_ld, &mut out);

    let mut files = vec![("program.c".to_string(), out)];
    for (name, text) in RUNTIME_FILES {
        files.push((name.to_string(), text.to_string()));
    }
    // as the toolchain writes them: each after the pre-include bits and the header part
    for (i, source) in eci.separate_module_sources.iter().enumerate() {
        let mut text = String::new();
        for bit in &eci.pre_include_bits {
            let _ = writeln!(text, "{}", bit);
        }
        text.push_str(&eci_header);
        text.push_str(source);
        if !source.ends_with('\n') {
            text.push('\n');
        }
        files.push((format!("module_{}.c", i), text));
    }
    Ok(CSources { files, eci })
}

/// The `#include`s of the C functions' headers and the C text after them.
fn eci_header(eci: &Eci) -> String {
    let mut out = String::new();
    for h in &eci.includes {
        let _ = writeln!(out, "#include <{}>", h);
    }
    for bit in &eci.post_include_bits {
        let _ = writeln!(out, "{}", bit);
    }
    out
}

/// The standard exceptions, in the order of `enum rpy_std_exc` (rpy.h).
use crate::lltypesystem::runtime::STD_EXCEPTIONS as STD_EXC;

/// The program-dependent part of the runtime: the exception state, `rpy_raise_std`,
/// `rpy_fatal`, the type ids of strings.
fn emit_support(db: &Database, out: &mut String) {
    let prog = db.prog;
    let ob = db.struct_name(prog.object);
    let vt = db.struct_name(prog.object_vtable);
    let str_tid = db.tid(db.types().pointee(prog.str_ptr).unwrap_or(LlType::VOID));
    let uni_tid = db
        .types()
        .all()
        .find(|t| {
            db.types()
                .struct_name(*t)
                .is_some_and(|n| &**n == "rpy_unicode")
        })
        .map(|t| db.tid(t))
        .unwrap_or(0);
    let _ = writeln!(
        out,
        "/* ---- support ---- */\nvoid *rpy_exc_type, *rpy_exc_value;\nchar *rpy_stack_limit;\nconst uint32_t rpy_tid_str = {};\nconst uint32_t rpy_tid_unicode = {};\n",
        str_tid, uni_tid
    );
    out.push_str("static const char *const rpy_std_exc_names[] = {\n");
    for n in STD_EXC {
        let _ = writeln!(out, "    \"{}\",", n);
    }
    out.push_str("};\n\n");
    // room for the largest standard exception instance
    let _ = writeln!(
        out,
        "static union {{ {} }} rpy_std_exc_inst[RPY_EXC_COUNT];",
        STD_EXC
            .iter()
            .filter_map(|n| prog.std_exceptions.get(*n))
            .map(|(_, st)| format!("{} s{};", db.struct_name(*st), st.0))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(" ")
            + " char none;"
    );
    out.push_str("void rpy_raise_std(enum rpy_std_exc which) {\n    void *vt = NULL;\n    uint32_t tid = 0;\n    switch (which) {\n");
    for (i, n) in STD_EXC.iter().enumerate() {
        if let Some((LlPtr::Obj { obj, .. }, st)) = prog.std_exceptions.get(*n) {
            let _ = writeln!(
                out,
                "    case {}: vt = &{}; tid = {}; break;",
                i,
                Database::const_name(*obj),
                db.tid(*st)
            );
        }
    }
    let _ = writeln!(
        out,
        "    default: break;\n    }}\n    if (vt == NULL) rpy_fatal(rpy_std_exc_names[which]);\n    /* a prebuilt instance: raising allocates nothing, so the callers of an\n       operation that raises need not keep their GC pointers on the shadow stack */\n    {} *p = (void *)&rpy_std_exc_inst[which];\n    p->hdr.tid = tid;\n    p->hdr.gcflags = RPY_GCFLAG_STATIC;\n    p->typeptr = vt;\n    rpy_exc_type = vt;\n    rpy_exc_value = p;\n}}\n",
        ob
    );
    // OSError's errno attribute, wherever its structure keeps it (a parent's field)
    let errno_path = prog.std_exceptions.get("OSError").and_then(|(_, st)| {
        db.flat_paths(*st)
            .into_iter()
            .find(|(path, _)| path.rsplit('.').next() == Some("inst_errno"))
            .map(|(path, _)| (db.struct_name(*st), path))
    });
    out.push_str("void rpy_raise_oserror(long e) {\n    rpy_raise_std(RPY_EXC_OSError);\n");
    match errno_path {
        Some((sn, path)) => {
            let _ = writeln!(out, "    (({} *)rpy_exc_value)->{} = e;\n}}\n", sn, path);
        }
        None => out.push_str("    (void)e;\n}\n\n"),
    }
    // the C stack's limit for the stack checks of recursive functions: what getrlimit
    // allows (8 MiB when unlimited), less a margin for the non-recursive callees
    out.push_str("static void rpy_stack_init(void) {\n    struct rlimit rl;\n    size_t size = 8u << 20;\n    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > (1u << 20))\n        size = (size_t)rl.rlim_cur;\n    rpy_stack_limit = (char *)__builtin_frame_address(0) - (size - (512u << 10));\n}\n\n");
    out.push_str("void rpy_fatal(const char *name) {\n    fprintf(stderr, \"RPython traceback:\\nFatal RPython error: %s\\n\", name);\n    fflush(stderr);\n    abort();\n}\n\n");
    let _ = writeln!(
        out,
        "static void rpy_report_uncaught(void) {{\n    struct rpy_string *s = (void *)(({} *)rpy_exc_type)->name;\n    char buf[256];\n    long n = s ? s->length : 0;\n    if (n > 255) n = 255;\n    if (n) memcpy(buf, s->items, (size_t)n);\n    buf[n] = 0;\n    rpy_fatal(buf);\n}}",
        vt
    );
}

fn emit_main(db: &Database, argv_ty: LlType, argv_ld: &str, out: &mut String) {
    let prog = db.prog;
    let entry = &db.func_names[prog.entry as usize];
    // the C library's flush of buffered streams at a normal exit (rfile's own buffers)
    let at_exit = prog.at_exit.map_or(String::new(), |f| {
        format!(
            "    if (!RPY_EXC_OCCURRED()) {}();\n",
            db.func_names[f as usize]
        )
    });
    let l = db.ctype(argv_ty);
    let items = match db.types().pointee(argv_ty) {
        Some(t)
            if matches!(
                db.types().def(t),
                crate::lltypesystem::TypeDef::Array { .. }
            ) =>
        {
            ("l->items", "l")
        }
        _ => ("l->items->items", "l->items"),
    };
    let _ = writeln!(
        out,
        "int main(int argc, char **argv) {{\n    rpy_gc_init();\n    rpy_stack_init();\n    {l} l = ({l})rpy_list_new(&{ld}, argc);\n    RPY_PUSH_ROOT(l);\n    for (int i = 0; i < argc; i++) {{\n        long n = (long)strlen(argv[i]);\n        struct rpy_string *s = rpy_gc_malloc_varsize(rpy_tid_str, n);\n        memcpy(s->items, argv[i], (size_t)n);\n        l = ({l})rpy_root_top[-1];\n        RPY_WB({arr});\n        {items}[i] = (void *)s;\n    }}\n    RPY_POP_ROOT(l);\n    long r = {entry}(l);\n{at_exit}    if (RPY_EXC_OCCURRED()) rpy_report_uncaught();\n    return (int)r;\n}}",
        l = l,
        ld = argv_ld,
        arr = items.1,
        items = items.0,
        entry = entry,
        at_exit = at_exit
    );
}
