//! The concrete object space: import-time evaluation of module bodies.
//!
//! [`ObjSpace`] implements [`crate::interpreter::Space`] with Python 2.7 semantics over the
//! concrete [`object::Heap`]. The loader (`loader.rs`) finds, parses, compiles and runs
//! modules; `builtins/` binds an implementation in Rust to each entry of the registry of
//! built-ins (`crate::builtins`) and builds the namespaces from it; the bundled models (`bundled/*.py`) are RPython-style
//! sources for `os`, `sys`, `math`, `time` and `rpython.rlib.*`.

// `Unwind` carries frame states for the flow space; the concrete space only passes it on.
#![allow(clippy::result_large_err)]

mod attrs;
mod build_class;
pub mod builtins;
pub mod bundled;
mod call;
mod dict;
mod dict_lookup;
mod exc;
mod exec;
pub mod format;
mod generators;
mod libos;
mod libs;
pub mod loader;
mod mainmodule;
mod mixin;
pub mod object;
mod ops;
pub mod precompiled;
pub mod preparse;
pub mod probes;
pub mod pydict_order;
mod re_module;
pub mod reach;
pub mod real_names;
pub mod regex;
mod setops;
mod space;
mod strings;
mod types;
pub mod weakdicts;

pub use attrs::{STAR_FROM_MODEL_ATTR, UNKNOWN_BASE_ATTR};
pub use builtins::builtin_names;
pub use loader::LoaderConfig;

use crate::compiler::CodeObject;
use crate::diagnostics::Diagnostic;
use crate::fasthash::{HashMap, HashSet};
use crate::interpreter::arguments::Signature;
use crate::interpreter::Unwind;
use crate::syntax::{FileId, SourceMap, Span};
use object::{HashKey, Heap, ObjId, Object, Value};
use std::path::PathBuf;
use std::rc::Rc;

pub use types::{builtin_exception_derives, Types};

/// Result of an object-space operation.
pub type R<T = Value> = Result<T, Unwind<Value>>;

/// Default limit of nested calls at import time (Python's recursion limit is 1000).
pub const DEFAULT_MAX_DEPTH: usize = 1000;
/// Default limit of machine stack used by nested import-time calls (fits a 2 MiB thread).
pub const DEFAULT_MAX_STACK_BYTES: usize = 1_536 * 1024;
/// Default limit of executed instructions for one `import_main` (endless loops).
pub const DEFAULT_MAX_STEPS: u64 = 200_000_000;
/// Default limit of CPU time for import-time evaluation (an analysis answers within
/// seconds, whatever the program does at import time): the language server's, and the
/// command line's unless `--import-budget` (check, run, build) says otherwise.
pub const DEFAULT_MAX_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// Most memory a larger import-time budget allows (the import-time heap frees nothing, so
/// memory grows with the time import-time code runs).
pub const MAX_BUDGET_BYTES: i64 = 4 * 1024 * 1024 * 1024;

/// The limits of import-time evaluation for a CPU-time `budget` (`None`: the defaults):
/// steps, CPU time and bytes. Steps and bytes grow in proportion to the time (the defaults
/// per [`DEFAULT_MAX_TIME`]), never below the defaults, bytes at most
/// [`MAX_BUDGET_BYTES`].
pub fn import_limits(budget: Option<std::time::Duration>) -> (u64, std::time::Duration, i64) {
    let time = budget.unwrap_or(DEFAULT_MAX_TIME);
    let scale = (time.as_secs_f64() / DEFAULT_MAX_TIME.as_secs_f64()).max(1.0);
    let steps = (DEFAULT_MAX_STEPS as f64 * scale).min(u64::MAX as f64 / 2.0) as u64;
    let bytes = (crate::sandbox::MAX_IMPORT_TIME_BYTES as f64 * scale)
        .min(MAX_BUDGET_BYTES.max(crate::sandbox::MAX_IMPORT_TIME_BYTES) as f64)
        as i64;
    (steps, time, bytes)
}
/// Largest container or string the import-time model builds (items or bytes).
pub const MAX_ITEMS: usize = 20_000_000;

/// What the loader knows about a module beyond its Python-visible attributes.
#[derive(Clone, Debug)]
pub struct ModuleInfo {
    /// Full dotted name.
    pub name: String,
    /// Directory searched for submodules (packages only).
    pub package_dir: Option<PathBuf>,
    /// Source path (real path or `<bundled>/...`).
    pub path: Option<PathBuf>,
    pub is_package: bool,
    pub bundled: bool,
}

/// The concrete object space.
#[derive(Clone)]
pub struct ObjSpace {
    pub heap: Heap,
    pub config: LoaderConfig,
    /// `sys.modules`: full dotted name → module object.
    pub modules: HashMap<String, ObjId>,
    pub module_info: HashMap<ObjId, ModuleInfo>,
    /// Every loaded file, user and bundled.
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
    /// What `print` statements and writes to fd 1 produced at import time.
    pub stdout: String,
    /// Writes to fd 2 and `debug_print` at import time.
    pub stderr: String,
    /// The `__builtin__` module.
    pub builtins_module: ObjId,
    /// Built-in classes.
    pub types: Types,
    /// Files of bundled models.
    pub bundled_files: HashSet<FileId>,
    /// Maximum nesting of calls.
    pub max_depth: usize,
    /// Maximum bytes of machine stack used by nested calls.
    pub max_stack_bytes: usize,
    pub(crate) stack_base: usize,
    /// Maximum number of instructions executed.
    pub max_steps: u64,
    /// Maximum bytes import-time evaluation may allocate (see `sandbox::thread_bytes`).
    pub max_memory: i64,
    /// `sandbox::thread_bytes()` when `import_main` started.
    pub(crate) memory_base: i64,
    /// Longest import-time evaluation (CPU time of the analysing thread), besides
    /// `max_steps`.
    pub max_time: std::time::Duration,
    /// When `import_main` started.
    pub(crate) started: crate::sandbox::CpuClock,
    /// Directory of the target file (first search root).
    pub main_dir: Option<PathBuf>,
    /// The target module once `import_main` created it.
    pub main_module: Option<ObjId>,
    /// The dict the bundled `os` model made for `os.environ`: after translation it is the
    /// process's environment, read at run time (never folded, `get` takes one argument).
    pub os_environ: Option<ObjId>,
    /// Code read a source position as a value (`co_firstlineno`): the program may behave
    /// differently when its code only moved (`engine::positions`).
    pub positions_read: bool,
    /// While the RTyper runs a library's own Repr (`rtyper/rext.rs`): `lltype.malloc` and
    /// `llstr` then make host objects, which it copies into the program's prebuilt data.
    pub host_lltype: bool,

    pub(crate) registry: &'static builtins::Impls,
    /// Active frames: (globals module, class-body namespace).
    pub(crate) frames: Vec<(ObjId, Option<ObjId>)>,
    interned: HashMap<Rc<str>, ObjId>,
    /// The bound method made for each (function or method built-in, receiver) pair read
    /// at import time (`bind_attr`). Objects are never freed, so without it a loop that
    /// calls `lst.append(x)` (or runs a comprehension) a million times would keep a million
    /// method objects alive (pygirl's profiling target built 2M-item lists this way). A
    /// bound method is immutable, so sharing it only makes `a.f is a.f` true.
    pub(crate) bound_methods: HashMap<(ObjId, ObjId), ObjId>,
    /// The classes whose instances are true without a call (no `__nonzero__` nor
    /// `__len__` in their MRO), each with the heap's class epoch it was found at: `if node:`
    /// on an instance is otherwise four dictionary lookups.
    pub(crate) plain_truth_classes: HashMap<ObjId, u64>,
    interned_rev: HashMap<ObjId, Rc<str>>,
    str_consts: HashMap<Rc<[u8]>, ObjId>,
    char_cache: Vec<Option<ObjId>>,
    sig_cache: HashMap<*const CodeObject, (Rc<CodeObject>, Rc<Signature>)>,
    /// Current source position (from `set_span`).
    pub(crate) span: Span,
    /// Call-site spans of the active calls.
    pub(crate) span_stack: Vec<Span>,
    /// Where each raised exception instance was first raised (innermost user code).
    pub(crate) raise_spans: HashMap<ObjId, Span>,
    /// ImportError instances made by the loader for modules that do not exist.
    pub(crate) missing_module_errors: HashSet<ObjId>,
    /// What to tell about a missing module of a modelled package (`rpython.translator`).
    pub(crate) missing_module_hints: HashMap<ObjId, String>,
    /// SyntaxError instances already reported as RPY001.
    pub(crate) reported_errors: HashSet<ObjId>,
    /// Namespaces of the class bodies being executed (innermost last).
    pub(crate) class_ns_stack: Vec<ObjId>,
    /// Spans (definition, name) of the class bodies by namespace.
    pub(crate) class_body_spans: HashMap<ObjId, (Span, Span)>,
    /// Per class-body namespace, where each name was assigned.
    pub(crate) class_attr_spans: HashMap<ObjId, Vec<(Rc<str>, Span)>>,
    /// Suspended generator frames, by generator object.
    pub(crate) generators: HashMap<ObjId, generators::GenState>,
    /// Number of generator frames executing (a `yield` suspends the innermost).
    pub(crate) running_generators: usize,
    /// The value of the `yield` that just suspended a generator frame.
    pub(crate) yielded: Option<Value>,
    pub(crate) depth: usize,
    pub(crate) steps: u64,
    pub(crate) softspace: bool,
    /// Open files of `os.open` (read-only, in memory).
    pub(crate) files: HashMap<i64, (Vec<u8>, usize)>,
    /// Files `os.open` created in the temporary directory: written to nowhere.
    pub(crate) sink_fds: HashSet<i64>,
    pub(crate) next_fd: i64,
    pub(crate) print_item_fn: Option<Value>,
    pub(crate) print_newline_fn: Option<Value>,
    /// Modules rpy-lsp neither models nor finds, by full name: their unknown stand-ins.
    pub(crate) unknown_modules: HashMap<String, ObjId>,
    /// Classes with a base class rpy-lsp does not model (the base was left out).
    pub unknown_base_classes: HashSet<ObjId>,
    /// Classes that are Python 2's old-style classes (`classobj`): their dict is their
    /// body's namespace, not a copy (see `build_class`).
    pub old_style_classes: HashSet<ObjId>,
    /// Dicts whose writes reach a namespace: those `globals()` returned, with their module
    /// (writes define globals), and the `__dict__` of an old-style class, with the class
    /// (Python 2's `classobj` hands out its own dict: writes set class attributes).
    pub(crate) globals_views: HashMap<ObjId, ObjId>,
    /// Where import-time code first branched on, or iterated over, an unknown value: from
    /// there on its effects are not known (a loop over an unknown runs no iteration), so a
    /// later import-time exception may come from what rpy-lsp does not model.
    pub(crate) unknown_control: Option<Span>,
    /// The name of the unknown value `unknown_control` branched or looped on.
    pub(crate) unknown_control_name: Option<Rc<str>>,
    /// Where import-time code first stored an attribute into the RTyper's own code
    /// (`rint._rtype_template = ...`, RPyChip8's arithmetic on narrow integers): the
    /// reference's RTyper is then not the one rpy-lsp models.
    pub(crate) rtyper_patched: Option<Span>,
    /// How many times import-time code branched on an unknown value (each takes the true
    /// path): past [`MAX_UNKNOWN_BRANCHES`] a loop is taken as endless there.
    pub(crate) unknown_branches: u32,
    /// An import-time exception was reported as unknown (see `unknown_control`): the
    /// module stopped there, so a missing `target` is not the program's fault.
    pub import_stopped_unknown: bool,
    /// Where import-time code ran past rpy-lsp's step, time or memory budget (a warning):
    /// what it would have computed is missing, so `run` and `build` refuse the program
    /// (`budget_stop_error`). With the stop's own message (which limit, how much).
    pub import_limit_stop: Option<(Span, String)>,
    /// Modules whose globals received an unknown mapping (`globals().update(configure(C))`
    /// with `configure` unmodelled, or `m.table` with `m` unmodelled): a name missing there
    /// is unknown, not a NameError.
    pub(crate) unknown_globals: HashSet<ObjId>,
    /// Dicts into which `exec` ran code rpy-lsp could not model, or that got an unknown
    /// key: their missing keys are unknown, not KeyErrors.
    pub(crate) unknown_dicts: crate::fasthash::HashSet<ObjId>,
    /// The metaclass of each class built by a subclass of `type`.
    pub metaclasses: HashMap<ObjId, ObjId>,
    /// The loader's questions to the file system and their answers, in order, when the
    /// space records them (`probes`): what import-time evaluation depended on.
    pub probes: Option<Vec<probes::Probe>>,
    /// Import-time code read files or the real clock itself (`os.open`, `os.listdir`,
    /// `time.time()` outside the sandbox): what follows depends on more than `probes`.
    pub world_read: bool,
    /// The main module whose body is being run (`import_main`).
    pub(crate) main_import: Option<probes::MainImport>,
    /// Per top-level import of the main module's body, in order, how many questions had
    /// been answered before it (recorded with `probes`, until the world is read).
    pub boundaries: Vec<usize>,
    /// Before which top-level import of the main module to take `checkpoint`.
    pub checkpoint_at: Option<usize>,
    pub checkpoint: Option<Box<probes::Checkpoint>>,
    /// Set when an integer operation's result left the 128-bit model (CPython gives a
    /// long): the operation that sees it gives an unknown value instead of an error.
    pub(crate) beyond_model: bool,
}

/// The name of the unknown value standing for a long constant beyond rpy-lsp's 128-bit
/// integers that CPython's compiler folds (`1 << 999`): a prebuilt long if RPython code
/// reaches it. What import-time code computes from it is [`LONG_RESULT`].
pub const BIG_LONG: &str = "a long constant beyond rpy-lsp's 128-bit integers";
/// How many branches on unknown values import-time code may take: `while running: pass`
/// over a list that only threads would empty (the reference's `_test_thread.py`) always
/// takes the same path, and would otherwise spin until the CPU-time budget (5 s).
pub const MAX_UNKNOWN_BRANCHES: u32 = 1_000_000;
/// The name of the unknown result of an integer operation beyond rpy-lsp's 128 bits.
pub const LONG_RESULT: &str = "a long integer beyond rpy-lsp's 128-bit integers";

impl ObjSpace {
    /// A fresh space with the built-in classes, the exception hierarchy and `__builtin__`.
    pub fn new(config: LoaderConfig) -> ObjSpace {
        let (max_steps, max_time, max_memory) = import_limits(config.import_budget);
        let mut heap = Heap::default();
        let types = Types::bootstrap(&mut heap);
        let builtins_module = heap.alloc(Object::Module(Box::new(object::Module {
            name: Rc::from("__builtin__"),
            dict: Default::default(),
            file: None,
            bundled: true,
        })));
        let mut space = ObjSpace {
            heap,
            config,
            modules: HashMap::default(),
            module_info: HashMap::default(),
            sources: SourceMap::default(),
            diagnostics: Vec::new(),
            stdout: String::new(),
            stderr: String::new(),
            positions_read: false,
            builtins_module,
            types,
            bundled_files: HashSet::default(),
            max_depth: DEFAULT_MAX_DEPTH,
            max_stack_bytes: DEFAULT_MAX_STACK_BYTES,
            stack_base: 0,
            max_steps,
            max_memory,
            memory_base: crate::sandbox::thread_bytes(),
            max_time,
            started: crate::sandbox::CpuClock::start(),
            main_dir: None,
            main_module: None,
            os_environ: None,
            registry: builtins::registry(),
            frames: Vec::new(),
            interned: HashMap::default(),
            bound_methods: HashMap::default(),
            plain_truth_classes: HashMap::default(),
            interned_rev: HashMap::default(),
            str_consts: HashMap::default(),
            char_cache: vec![None; 256],
            sig_cache: HashMap::default(),
            span: Span::default(),
            span_stack: Vec::new(),
            raise_spans: HashMap::default(),
            missing_module_errors: HashSet::default(),
            missing_module_hints: HashMap::default(),
            reported_errors: HashSet::default(),
            class_ns_stack: Vec::new(),
            class_body_spans: HashMap::default(),
            class_attr_spans: HashMap::default(),
            generators: HashMap::default(),
            running_generators: 0,
            yielded: None,
            depth: 0,
            steps: 0,
            softspace: false,
            files: HashMap::default(),
            sink_fds: HashSet::default(),
            next_fd: 3,
            print_item_fn: None,
            print_newline_fn: None,
            unknown_modules: HashMap::default(),
            unknown_base_classes: HashSet::default(),
            old_style_classes: HashSet::default(),
            metaclasses: HashMap::default(),
            globals_views: HashMap::default(),
            unknown_control: None,
            unknown_control_name: None,
            rtyper_patched: None,
            unknown_branches: 0,
            import_stopped_unknown: false,
            import_limit_stop: None,
            unknown_globals: HashSet::default(),
            unknown_dicts: Default::default(),
            probes: None,
            world_read: false,
            main_import: None,
            boundaries: Vec::new(),
            checkpoint_at: None,
            checkpoint: None,
            beyond_model: false,
            host_lltype: false,
        };
        space.setup_types();
        space.setup_builtins_module();
        space.modules.insert("__builtin__".into(), builtins_module);
        space.module_info.insert(
            builtins_module,
            ModuleInfo {
                name: "__builtin__".into(),
                package_dir: None,
                path: None,
                is_package: false,
                bundled: true,
            },
        );
        space.setup_rpy_module();
        space
    }

    // ----- unknowns: what rpy-lsp does not model -----

    /// A stand-in for something rpy-lsp does not model, named by what is missing.
    pub fn new_unknown(&mut self, name: &str) -> Value {
        self.alloc(Object::Unknown {
            name: Rc::from(name),
            instance_of: None,
        })
    }

    /// Whether `v` is one of rpy-lsp's bundled models that may lack names the real module
    /// has (`rpython.*`, `os`, `time`): a missing name there is unknown, not an error.
    /// `math` and `__future__` are modelled completely.
    pub fn is_bundled_module(&self, v: Value) -> bool {
        is_bundled_model_module(&self.heap, v)
    }

    /// Whether `v` is a class or prebuilt instance of a bundled model (`llop` of
    /// `rpython.rtyper.lltypesystem.lloperation`): a name it lacks is unknown as a
    /// module's is, since a model may be incomplete.
    pub fn is_bundled_model_object(&self, v: Value) -> bool {
        self.model_object_module(v).is_some()
    }

    /// The class and bundled module of a model's class or prebuilt instance.
    fn model_object_module(&self, v: Value) -> Option<(ObjId, ObjId)> {
        let Value::Obj(id) = v else { return None };
        let cls = match self.heap.get(id) {
            Object::Class(_) => id,
            Object::Instance(i) => i.class,
            _ => return None,
        };
        let module = self.heap.class(cls)?.module?;
        self.is_bundled_module(Value::Obj(module))
            .then_some((cls, module))
    }

    /// The dotted name of a model object (see [`Self::is_bundled_model_object`]), "?" for
    /// anything else.
    pub fn bundled_model_object_name(&self, v: Value) -> String {
        let Some((cls, module)) = self.model_object_module(v) else {
            return "?".into();
        };
        let Object::Module(m) = self.heap.get(module) else {
            return "?".into();
        };
        // The module-level name the object is bound to, else its class's name.
        let local = m
            .dict
            .iter()
            .find(|(_, x)| *x == v)
            .map(|(n, _)| n.to_string())
            .or_else(|| self.heap.class(cls).map(|c| c.name.to_string()))
            .unwrap_or_default();
        format!("{}.{}", m.name, local)
    }

    /// The full name of a module object ("" for other values).
    pub fn module_name_of(&self, v: Value) -> String {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Module(m) => m.name.to_string(),
                _ => String::new(),
            },
            _ => String::new(),
        }
    }

    /// What is missing when `v` is unknown.
    pub fn unknown_name(&self, v: Value) -> Option<Rc<str>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Unknown { name, .. } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether import-time code took a path decided by a value rpy-lsp does not model (a
    /// later import-time failure is then not provably the program's).
    pub fn branched_on_unknown(&self) -> bool {
        self.unknown_control.is_some()
    }

    /// Whether one of `args` is unknown.
    pub(crate) fn unknown_name_in(&self, args: &[Value]) -> bool {
        args.iter().any(|&a| self.unknown_name(a).is_some())
    }

    /// The first unknown among `args` (operations on it give unknowns, never errors), as
    /// the result of such an operation: see [`Self::derived_unknown`].
    pub(crate) fn first_unknown(&mut self, args: &[Value]) -> Option<Value> {
        let u = args
            .iter()
            .copied()
            .find(|&a| self.unknown_name(a).is_some())?;
        Some(self.derived_unknown(u))
    }

    /// What an operation on the unknown `u` gives: `u` itself, except that what comes from
    /// an instance of a class deriving from a built-in type (`spec[1]` of an `OpSpec`) is
    /// no longer that instance (RPython code may use it), and what comes from a folded long
    /// constant is no longer that constant.
    pub(crate) fn derived_unknown(&mut self, u: Value) -> Value {
        match u {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Unknown { name, .. } if &**name == BIG_LONG => {
                    self.new_unknown(LONG_RESULT)
                }
                Object::Unknown {
                    name,
                    instance_of: Some(_),
                } => {
                    let name = name.clone();
                    self.new_unknown(&name)
                }
                // what is computed from a C constant of unknown value is of a type rpy-lsp
                // does not compute here (`str(BUFSIZ)`): untyped
                Object::Unknown { name, .. } if self.heap.opaque(id).is_some() => {
                    let name = name.clone();
                    self.new_unknown(&name)
                }
                _ => u,
            },
            _ => u,
        }
    }

    /// The one warning about something rpy-lsp does not model, at the user's line.
    pub(crate) fn warn_unknown(&mut self, what: &str, kind: &str) {
        let span = self.user_span();
        let d = Diagnostic::new(
            "RPY007",
            span,
            format!(
                "{kind} `{what}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked"
            ),
        );
        if !self.diagnostics.contains(&d) {
            self.diagnostics.push(d);
        }
    }

    // ----- allocation helpers -----

    pub fn alloc(&mut self, o: Object) -> Value {
        Value::Obj(self.heap.alloc(o))
    }

    pub fn new_str(&mut self, s: &[u8]) -> Value {
        if s.len() == 1 {
            return self.char_str(s[0]);
        }
        self.alloc(Object::Str(Rc::from(s)))
    }

    pub fn new_str_vec(&mut self, s: Vec<u8>) -> Value {
        if s.len() == 1 {
            return self.char_str(s[0]);
        }
        self.alloc(Object::Str(Rc::from(s)))
    }

    pub fn char_str(&mut self, c: u8) -> Value {
        if let Some(id) = self.char_cache[c as usize] {
            return Value::Obj(id);
        }
        let id = self.heap.alloc(Object::Str(Rc::from(&[c][..])));
        self.char_cache[c as usize] = Some(id);
        Value::Obj(id)
    }

    pub fn new_unicode(&mut self, s: &str) -> Value {
        self.alloc(Object::Unicode(crate::compiler::UStr::from(s)))
    }

    /// A unicode string of these code points (lone surrogates included).
    pub fn new_unicode_codes(&mut self, codes: Vec<u32>) -> Value {
        self.alloc(Object::Unicode(crate::compiler::UStr::from_codes(codes)))
    }

    pub fn new_tuple(&mut self, items: Vec<Value>) -> Value {
        self.alloc(Object::Tuple(items))
    }

    pub fn new_list(&mut self, items: Vec<Value>) -> Value {
        self.alloc(Object::List(items))
    }

    pub fn new_dict(&mut self) -> Value {
        self.alloc(Object::Dict(Default::default()))
    }

    /// A Python `int` (or `long` when it does not fit in 64 bits).
    pub fn new_int(&mut self, i: i128) -> Value {
        if let Ok(small) = i64::try_from(i) {
            Value::Int(small)
        } else {
            self.alloc(Object::Long(i))
        }
    }

    /// An interned `str` for a name (attribute and variable names).
    pub fn intern(&mut self, name: &str) -> Value {
        if let Some(&id) = self.interned.get(name) {
            return Value::Obj(id);
        }
        let rc: Rc<str> = Rc::from(name);
        let id = match self.str_consts.get(name.as_bytes()) {
            Some(&id) => id,
            None => {
                let bytes: Rc<[u8]> = Rc::from(name.as_bytes());
                let id = self.heap.alloc(Object::Str(bytes.clone()));
                self.str_consts.insert(bytes, id);
                id
            }
        };
        self.interned.insert(rc.clone(), id);
        self.interned_rev.insert(id, rc);
        Value::Obj(id)
    }

    /// Whether `id` is the interned `str` of a name (`intern`).
    pub fn is_interned(&self, id: ObjId) -> bool {
        self.interned_rev.contains_key(&id)
    }

    /// A `str` constant, shared between equal constants.
    pub(crate) fn str_const(&mut self, s: &Rc<[u8]>) -> Value {
        if s.len() == 1 {
            return self.char_str(s[0]);
        }
        if let Some(&id) = self.str_consts.get(s) {
            return Value::Obj(id);
        }
        let id = self.heap.alloc(Object::Str(s.clone()));
        self.str_consts.insert(s.clone(), id);
        Value::Obj(id)
    }

    /// The text of a `str` value used as a name (attribute names, keyword names).
    pub fn name_of(&mut self, v: Value) -> Option<Rc<str>> {
        let Value::Obj(id) = v else { return None };
        if let Some(n) = self.interned_rev.get(&id) {
            return Some(n.clone());
        }
        let s: Rc<str> = match self.heap.get(id) {
            Object::Str(b) => Rc::from(std::str::from_utf8(b).ok()?),
            Object::Unicode(u) => Rc::from(u.to_str()?.as_str()),
            _ => return None,
        };
        if let Some(&iid) = self.interned.get(&*s) {
            return self.interned_rev.get(&iid).cloned();
        }
        Some(s)
    }

    /// Bytes of a `str` value.
    pub fn str_bytes(&self, v: Value) -> Option<Rc<[u8]>> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Text of a `str` or `unicode` value (lossy for non-UTF-8 bytes).
    pub fn text_of(&self, v: Value) -> Option<String> {
        match v {
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(s) => Some(String::from_utf8_lossy(s).into_owned()),
                Object::Unicode(u) => Some(u.to_string()),
                _ => None,
            },
            _ => None,
        }
    }

    pub(crate) fn signature(&mut self, code: &Rc<CodeObject>) -> Rc<Signature> {
        let key = Rc::as_ptr(code);
        if let Some((_, s)) = self.sig_cache.get(&key) {
            return s.clone();
        }
        let sig = Rc::new(Signature::from_code(code));
        self.sig_cache.insert(key, (code.clone(), sig.clone()));
        sig
    }

    pub fn hash_key(&self, v: Value) -> Option<HashKey> {
        self.heap.hash_key(v)
    }

    /// The builtin object `print_item` (the flow space records calls to it for `print x,`).
    pub fn print_item_builtin(&mut self) -> Value {
        if let Some(v) = self.print_item_fn {
            return v;
        }
        let v = self.alloc(Object::Builtin {
            id: crate::builtins::BuiltinId::PrintItem,
            bound_self: None,
        });
        self.print_item_fn = Some(v);
        v
    }

    /// The builtin object `print_newline` (end of a `print` statement).
    pub fn print_newline_builtin(&mut self) -> Value {
        if let Some(v) = self.print_newline_fn {
            return v;
        }
        let v = self.alloc(Object::Builtin {
            id: crate::builtins::BuiltinId::PrintNewline,
            bound_self: None,
        });
        self.print_newline_fn = Some(v);
        v
    }

    /// A builtin function object of the registry.
    pub fn builtin(&mut self, id: crate::builtins::BuiltinId) -> Value {
        debug_assert!(
            self.registry[id.index()].is_some(),
            "builtin {id} has no implementation"
        );
        self.alloc(Object::Builtin {
            id,
            bound_self: None,
        })
    }

    /// Attribute of a module (`None` when missing).
    pub fn module_attr(&self, module: ObjId, name: &str) -> Option<Value> {
        match self.heap.get(module) {
            Object::Module(m) => m.dict.get(name),
            _ => None,
        }
    }

    /// Whether `file` is one of the bundled models.
    pub fn is_bundled_file(&self, file: FileId) -> bool {
        self.bundled_files.contains(&file)
    }

    /// Class name of a value's type (for messages).
    pub fn type_name(&self, v: Value) -> Rc<str> {
        let t = self.type_of(v);
        match self.heap.get(t) {
            Object::Class(c) => c.name.clone(),
            _ => Rc::from("?"),
        }
    }

    /// Innermost span of user code (not a bundled model) of the current position.
    pub(crate) fn user_span(&self) -> Span {
        if !self.bundled_files.contains(&self.span.file) {
            return self.span;
        }
        for s in self.span_stack.iter().rev() {
            if !self.bundled_files.contains(&s.file) {
                return *s;
            }
        }
        self.span
    }

    /// An `Unwind::Error` diagnostic (rule RPY004 unless told) at the current user span.
    pub(crate) fn unsupported(&self, msg: impl Into<String>) -> Unwind<Value> {
        Unwind::Error(Box::new(Diagnostic::new("RPY004", self.user_span(), msg)))
    }
}

/// Whether `v` is one of rpy-lsp's bundled models that may lack names the real module has
/// (see [`ObjSpace::is_bundled_module`]), for stages that hold only the heap.
pub fn is_bundled_model_module(heap: &Heap, v: Value) -> bool {
    matches!(v, Value::Obj(id) if matches!(heap.get(id), Object::Module(m) if m.bundled
        && !matches!(&*m.name, "__builtin__" | "__rpy__" | "math" | "__future__")))
}

#[cfg(test)]
mod import_limits_tests {
    use super::*;
    use std::time::Duration;

    /// What README's `--import-budget` row says: steps and memory grow in proportion to the
    /// time, never below the defaults, memory at most 4 GiB.
    #[test]
    fn steps_and_memory_grow_with_the_time_budget_up_to_a_cap() {
        let default_bytes = crate::sandbox::MAX_IMPORT_TIME_BYTES;
        assert_eq!(
            import_limits(None),
            (DEFAULT_MAX_STEPS, DEFAULT_MAX_TIME, default_bytes)
        );
        let (steps, time, bytes) = import_limits(Some(DEFAULT_MAX_TIME * 2));
        assert_eq!((steps, time), (DEFAULT_MAX_STEPS * 2, DEFAULT_MAX_TIME * 2));
        assert_eq!(bytes, (default_bytes * 2).min(MAX_BUDGET_BYTES));
        let (steps, _, bytes) = import_limits(Some(Duration::from_millis(100)));
        assert_eq!((steps, bytes), (DEFAULT_MAX_STEPS, default_bytes));
        let (_, _, bytes) = import_limits(Some(Duration::from_secs(3600)));
        assert_eq!(bytes, MAX_BUDGET_BYTES);
    }
}
