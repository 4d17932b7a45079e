//! A library's own Repr (seed 000, "Representations"): an ExtRegistryEntry's annotation
//! (`SomeValue::External`, see `annotator/extregistry.rs`) whose class defines
//! `rtyper_makekey` and `rtyper_makerepr`, as rply's `SomeRule` does. The Repr is Python
//! code written against the reference's RTyper (`rpython.rtyper.rmodel.Repr`), so the
//! RTyper runs it in the program's object space before it translates (`prepare`, while
//! the space is free), on the bundled `rpython.rtyper._ext_bridge`:
//! - `rtyper_makerepr(rtyper)` once per key, then the Repr's `lowleveltype`;
//! - `convert_const(x)` of each prebuilt value the entry annotated: the host structure it
//!   builds (`lltype.malloc` and `llstr` make host objects then, see `ObjSpace::host_lltype`)
//!   is copied into the program's prebuilt data when the constant is used (`ext_const`);
//! - `rtype_getattr(hop)` of each attribute the program reads and `rtype_method_<name>(hop)`
//!   of each method it calls: the `hop` records the steps asked for (`inputarg`,
//!   `inputconst`, `gendirectcall`), which `ext_replay` generates where the operation is.
//!
//! A low-level helper the Repr calls (`gendirectcall`) is annotated with the helpers of
//! `annlowlevel`, its Void constants (classes, functions, Reprs) by their value; it may call
//! back the program's functions with `hlinvoke`. What the Python code does not do, or
//! raises on, is a TyperError at the operation (never a panic).

use super::hop::{cvoid, Hop, LlOps};
use super::rmodel::{Repr, ReprId};
use super::{RTyper, TyperError};
use crate::annotator::llannotation::lltype_of_obj;
use crate::annotator::{AnnotatedProgram, SomeValue};
use crate::fasthash::HashMap;
use crate::flowspace::{Hlvalue, LlConstant};
use crate::interpreter::Op;
use crate::lltypesystem::{LlPtr, LlType, LlValue};
use crate::objspace::object::{ObjId, Object, Value};
use crate::objspace::ObjSpace;
use std::rc::Rc;

type R = Result<(Hlvalue, ReprId), TyperError>;

/// What a recorded step converts an argument to.
#[derive(Clone, Debug)]
enum To {
    /// One of the library's Reprs.
    Own(u32),
    /// The RTyper's Repr of this low-level type (`string_repr`, `lltype.Signed`).
    Ll(LlType),
    /// The Repr the argument has (`hop.args_r[i]`).
    Same,
}

#[derive(Clone, Debug)]
enum Step {
    Arg { index: usize, to: To },
    Const { ty: LlType, value: Value },
    Call { func: ObjId, args: Vec<usize> },
}

/// What an `rtype_*` method asked for, and which step is its result (None: no value).
#[derive(Clone, Debug)]
struct Recipe {
    steps: Vec<Step>,
    result: Option<usize>,
}

/// One library Repr.
pub struct ExtRepr {
    /// The Python Repr.
    py: Value,
    lowleveltype: LlType,
    /// Prebuilt value → what `convert_const` built for it.
    consts: HashMap<ObjId, Result<Value, String>>,
    /// (a method call, the attribute or method name) → its recipe.
    recipes: HashMap<(bool, Rc<str>), Result<Recipe, String>>,
}

/// The library Reprs of a program.
#[derive(Default)]
pub struct ExtReprs {
    /// Annotation object → its Repr, or why it has none.
    of_annotation: HashMap<ObjId, Result<u32, String>>,
    /// A bound `method_<name>` of an annotation (what `getattr` gave) → (annotation, name).
    methods: HashMap<ObjId, (ObjId, Rc<str>)>,
    /// The annotation of a function an entry is `_about_` (`_SomeDescribed`) → what its
    /// `specialize_call` asks for.
    about: HashMap<ObjId, Result<Recipe, String>>,
    reprs: Vec<ExtRepr>,
    /// Each host structure or array already copied into the program's data.
    copied: HashMap<ObjId, LlPtr>,
}

fn attr(space: &mut ObjSpace, v: Value, name: &str) -> Option<Value> {
    space.getattr(v, &Rc::from(name)).ok()
}

fn call(space: &mut ObjSpace, f: Value, args: Vec<Value>) -> Result<Value, String> {
    use crate::interpreter::Unwind;
    space.call(f, args).map_err(|e| match e {
        Unwind::Raise { evalue, .. } => format!(
            "the library's Python code raised {}",
            space.exception_text(evalue)
        ),
        Unwind::Error(d) => format!("the library's Python code stopped: {}", d.message),
        _ => "the library's Python code stopped".to_string(),
    })
}

fn ll_of(space: &ObjSpace, ann: &mut AnnotatedProgram, v: Value) -> Option<LlType> {
    let Value::Obj(o) = v else { return None };
    let bk = &mut ann.bookkeeper;
    lltype_of_obj(&space.heap, &mut bk.lltypes, &mut bk.lltype_objs, o)
}

/// The function a recorded `gendirectcall` names (a static method read from its class
/// is the function itself).
fn function_of(space: &ObjSpace, v: Value) -> Option<ObjId> {
    let Value::Obj(o) = v else { return None };
    match space.heap.get(o) {
        Object::Function(_) => Some(o),
        Object::StaticMethod(f) | Object::UnboundMethod { func: f, .. } => function_of(space, *f),
        _ => None,
    }
}

/// Whether `cls` is the bundled extregistry's `_SomeDescribed`.
fn is_described(space: &ObjSpace, cls: ObjId) -> bool {
    match space.heap.get(cls) {
        Object::Class(c) => {
            &*c.name == "_SomeDescribed"
                && matches!(c.dict.get("_specialize_call"), Some(Value::Obj(_)))
        }
        _ => false,
    }
}

/// Runs the library Reprs' Python code for the program (see the module's documentation).
pub fn prepare(ann: &mut AnnotatedProgram, space: &mut ObjSpace) -> ExtReprs {
    let mut ext = ExtReprs::default();
    // the annotations and bound methods the program's values have
    let mut seen: Vec<ObjId> = Vec::new();
    for b in ann.bindings.iter().flatten().flatten() {
        if let SomeValue::External(o) = b {
            if !seen.contains(o) {
                seen.push(*o);
            }
        }
    }
    for &o in ann.bookkeeper.ext_types.values() {
        if !seen.contains(&o) {
            seen.push(o);
        }
    }
    let mut annotations = Vec::new();
    for &o in &seen {
        match space.heap.get(o) {
            Object::BoundMethod {
                func,
                self_value: Value::Obj(s),
            } => {
                let name = match func {
                    Value::Obj(f) => match space.heap.get(*f) {
                        Object::Function(f) => f.name.clone(),
                        _ => continue,
                    },
                    _ => continue,
                };
                if let Some(m) = name.strip_prefix("method_") {
                    ext.methods.insert(o, (*s, Rc::from(m)));
                    if !annotations.contains(s) {
                        annotations.push(*s);
                    }
                }
            }
            // a function an entry is `_about_`: its calls run `specialize_call`
            Object::Instance(i) if is_described(space, i.class) => {
                ext.about.insert(o, Err("not called".into()));
            }
            Object::Instance(_) if !annotations.contains(&o) => annotations.push(o),
            _ => {}
        }
    }
    if annotations.is_empty() && ext.about.is_empty() {
        return ext;
    }
    let Ok(bridge) = space.import_module("rpython.rtyper._ext_bridge", None, 0) else {
        return ext;
    };
    // the library's `STR` is the RTyper's string structure
    let (str_struct, uni_struct) = ann.bookkeeper.string_types();
    if let Ok(rstr) = space.import_module("rpython.rtyper.lltypesystem.rstr", None, 0) {
        for (name, t) in [("STR", str_struct), ("UNICODE", uni_struct)] {
            if let Some(Value::Obj(s)) = attr(space, Value::Obj(rstr), name) {
                ann.bookkeeper.lltype_objs.insert(s, t);
            }
        }
    }
    let rtyper =
        attr(space, Value::Obj(bridge), "RTyper").and_then(|c| call(space, c, vec![]).ok());
    let Some(rtyper) = rtyper else { return ext };
    space.restart_limits();
    space.host_lltype = true;
    let mut keys: Vec<(Value, u32)> = Vec::new();
    for &o in &annotations {
        let made = make_repr(space, ann, &mut ext, &mut keys, o, rtyper);
        ext.of_annotation.insert(o, made);
    }
    // the prebuilt values each Repr converts
    let prebuilt: Vec<(ObjId, ObjId)> = ann
        .bookkeeper
        .ext_types
        .iter()
        .map(|(&inst, &s)| (inst, s))
        .collect();
    for (inst, s) in prebuilt {
        let Some(Ok(i)) = ext.of_annotation.get(&s).cloned() else {
            continue;
        };
        let py = ext.reprs[i as usize].py;
        let made = attr(space, py, "convert_const")
            .ok_or_else(|| "the library's Repr has no convert_const".to_string())
            .and_then(|f| call(space, f, vec![Value::Obj(inst)]));
        ext.reprs[i as usize].consts.insert(inst, made);
    }
    record_recipes(ann, space, &mut ext, bridge);
    space.host_lltype = false;
    ext
}

/// `rtyper_makerepr` of annotation `o` (once per `rtyper_makekey`).
fn make_repr(
    space: &mut ObjSpace,
    ann: &mut AnnotatedProgram,
    ext: &mut ExtReprs,
    keys: &mut Vec<(Value, u32)>,
    o: ObjId,
    rtyper: Value,
) -> Result<u32, String> {
    let s = Value::Obj(o);
    let (Some(makekey), Some(makerepr)) = (
        attr(space, s, "rtyper_makekey"),
        attr(space, s, "rtyper_makerepr"),
    ) else {
        return Err("an annotation without rtyper_makerepr".into());
    };
    let key = call(space, makekey, vec![])?;
    for &(k, i) in keys.iter() {
        let same =
            crate::interpreter::Space::op(space, Op::Eq, &[k, key]).and_then(|v| space.truth(v));
        if matches!(same, Ok(true)) {
            return Ok(i);
        }
    }
    let py = call(space, makerepr, vec![rtyper])?;
    if let Some(setup) = attr(space, py, "setup") {
        call(space, setup, vec![])?;
    }
    let t = attr(space, py, "lowleveltype")
        .and_then(|t| ll_of(space, ann, t))
        .ok_or_else(|| "the library's Repr has no low-level type rpy-lsp knows".to_string())?;
    let i = ext.reprs.len() as u32;
    ext.reprs.push(ExtRepr {
        lowleveltype: t,
        consts: HashMap::default(),
        recipes: HashMap::default(),
        py,
    });
    keys.push((key, i));
    Ok(i)
}

/// The attribute reads and method calls the program makes on values of library Reprs: the
/// `rtype_*` method of each is run once with a recording `Hop`.
fn record_recipes(
    ann: &mut AnnotatedProgram,
    space: &mut ObjSpace,
    ext: &mut ExtReprs,
    bridge: ObjId,
) {
    // (Repr, a method call, the name, the annotation, the operation's other arguments)
    type Wanted = (u32, bool, Rc<str>, ObjId, Vec<Hlvalue>);
    let mut wanted: Vec<Wanted> = Vec::new();
    let mut about: Vec<(ObjId, Vec<Hlvalue>)> = Vec::new();
    for (g, graph) in ann.graphs.iter().enumerate() {
        // (a constant callee an entry is `_about_` is annotated by the entry)
        let binding = |v: &Hlvalue| match v {
            Hlvalue::Var(v) => ann.bindings[g].get(v.0 as usize).cloned().flatten(),
            Hlvalue::Const(Value::Obj(f)) => ann
                .bookkeeper
                .ext_types
                .get(f)
                .map(|&s| SomeValue::External(s)),
            _ => None,
        };
        for block in &graph.blocks {
            for op in &block.operations {
                let Some(SomeValue::External(o)) = op.args.first().and_then(binding) else {
                    continue;
                };
                if op.opname == Op::SimpleCall && ext.about.contains_key(&o) {
                    if !about.iter().any(|a: &(ObjId, Vec<Hlvalue>)| a.0 == o) {
                        about.push((o, op.args[1..].to_vec()));
                    }
                    continue;
                }
                let found = match op.opname {
                    Op::GetAttr => {
                        let name = match op.args.get(1) {
                            Some(Hlvalue::Const(c)) => space
                                .heap
                                .str_value(*c)
                                .map(|b| Rc::<str>::from(String::from_utf8_lossy(b).into_owned())),
                            _ => None,
                        };
                        match (ext.of_annotation.get(&o), name) {
                            (Some(Ok(i)), Some(name)) => Some((*i, false, name, o)),
                            _ => None,
                        }
                    }
                    Op::SimpleCall => match ext.methods.get(&o) {
                        Some((s, name)) => match ext.of_annotation.get(s) {
                            Some(Ok(i)) => Some((*i, true, name.clone(), *s)),
                            _ => None,
                        },
                        None => None,
                    },
                    _ => None,
                };
                if let Some((i, method, name, s)) = found {
                    if !wanted
                        .iter()
                        .any(|w| w.0 == i && w.1 == method && w.2 == name)
                    {
                        wanted.push((i, method, name, s, op.args[1..].to_vec()));
                    }
                }
            }
        }
    }
    for (i, method, name, s, args) in wanted {
        let meth_name = if method {
            format!("rtype_method_{name}")
        } else {
            "rtype_getattr".to_string()
        };
        let py = ext.reprs[i as usize].py;
        let recipe = record(ann, space, ext, bridge, (py, &meth_name), Some(s), &args);
        ext.reprs[i as usize].recipes.insert((method, name), recipe);
    }
    for (d, args) in about {
        let recipe = record(
            ann,
            space,
            ext,
            bridge,
            (Value::Obj(d), "_specialize_call"),
            None,
            &args,
        );
        ext.about.insert(d, recipe);
    }
}

/// Runs method `meth_name` of `target` (a library Repr's `rtype_getattr` or
/// `rtype_method_<name>`, an entry's `specialize_call`) with a recording `Hop` whose
/// `args_s` are the annotation `s` (when given) and the operation's arguments (a constant
/// as `immutablevalue` gives it, anything else `SomeObject()`).
fn record(
    ann: &mut AnnotatedProgram,
    space: &mut ObjSpace,
    ext: &ExtReprs,
    bridge: ObjId,
    (target, meth_name): (Value, &str),
    s: Option<ObjId>,
    args: &[Hlvalue],
) -> Result<Recipe, String> {
    let model = space
        .import_module("rpython.annotator.model", None, 0)
        .map_err(|_| "no annotation model".to_string())?;
    let bk = space
        .import_module("rpython.annotator.bookkeeper", None, 0)
        .map_err(|_| "no bookkeeper model".to_string())?;
    let mut args_s: Vec<Value> = s.map(Value::Obj).into_iter().collect();
    for a in args {
        let m = match a {
            Hlvalue::Const(c) => attr(space, Value::Obj(bk), "_Const").map(|k| (k, vec![*c])),
            _ => attr(space, Value::Obj(model), "SomeObject").map(|k| (k, vec![])),
        };
        let Some((cls, cargs)) = m else {
            return Err("no annotation model".into());
        };
        args_s.push(call(space, cls, cargs)?);
    }
    let list = space.new_list(args_s);
    let hop_cls = attr(space, Value::Obj(bridge), "Hop").ok_or("no Hop")?;
    let hop = call(space, hop_cls, vec![list])?;
    let f = attr(space, target, meth_name)
        .ok_or_else(|| format!("the library's Repr has no {meth_name}"))?;
    let result = call(space, f, vec![hop])?;
    let steps = match attr(space, hop, "steps") {
        Some(Value::Obj(l)) => match space.heap.get(l) {
            Object::List(items) => items.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let index_of = |space: &mut ObjSpace, v: Value| match attr(space, v, "index") {
        Some(Value::Int(n)) if n >= 0 => Some(n as usize),
        _ => None,
    };
    let mut recipe = Recipe {
        steps: Vec::new(),
        result: None,
    };
    for st in steps {
        let items = match st {
            Value::Obj(t) => match space.heap.get(t) {
                Object::Tuple(items) if items.len() == 3 => items.clone(),
                _ => return Err("a step rpy-lsp does not know".into()),
            },
            _ => return Err("a step rpy-lsp does not know".into()),
        };
        let kind = space.heap.str_value(items[0]).map(|b| b.to_vec());
        let step = match kind.as_deref() {
            Some(b"arg") => {
                let Value::Int(index) = items[1] else {
                    return Err("inputarg() of a non-constant index".into());
                };
                let same = matches!(attr(space, items[2], "_arg_index"), Some(Value::Int(_)));
                let to = match ext.reprs.iter().position(|r| r.py == items[2]) {
                    Some(j) => To::Own(j as u32),
                    None if same => To::Same,
                    None => {
                        let t = ll_of(space, ann, items[2]).or_else(|| {
                            attr(space, items[2], "lowleveltype").and_then(|t| ll_of(space, ann, t))
                        });
                        To::Ll(t.ok_or("inputarg() to a Repr rpy-lsp does not know")?)
                    }
                };
                Step::Arg {
                    index: index as usize,
                    to,
                }
            }
            Some(b"const") => Step::Const {
                ty: ll_of(space, ann, items[1]).ok_or("inputconst() of an unknown type")?,
                value: items[2],
            },
            Some(b"call") => {
                let func = function_of(space, items[1])
                    .ok_or("gendirectcall() of something other than a function")?;
                let listed = match items[2] {
                    Value::Obj(l) => match space.heap.get(l) {
                        Object::List(a) => a.clone(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                let mut args = Vec::new();
                for a in listed {
                    args.push(index_of(space, a).ok_or("gendirectcall() of an unknown value")?);
                }
                Step::Call { func, args }
            }
            _ => return Err("a step rpy-lsp does not know".into()),
        };
        recipe.steps.push(step);
    }
    if result != Value::None {
        recipe.result = Some(index_of(space, result).ok_or("a result rpy-lsp does not know")?);
    }
    Ok(recipe)
}

impl RTyper<'_> {
    /// The Repr of the ExtRegistryEntry annotation `o`, when it is a library Repr's (or a
    /// method of one, represented by the value it is bound to).
    pub(super) fn ext_repr(&mut self, o: ObjId) -> Option<Result<Repr, TyperError>> {
        let failed = |m: &str| {
            TyperError::new(format!(
                "the RTyper code of an ExtRegistryEntry's annotation could not be run: {m}"
            ))
        };
        // a function an entry is `_about_`: nothing at run time (its calls are what
        // `specialize_call` makes)
        if self.ext.about.contains_key(&o) {
            return Some(Ok(Repr::Void));
        }
        if let Some(r) = self.ext.of_annotation.get(&o) {
            return Some(r.clone().map(Repr::External).map_err(|m| failed(&m)));
        }
        let (s, name) = self.ext.methods.get(&o).cloned()?;
        match self.ext.of_annotation.get(&s).cloned()? {
            Ok(i) => {
                let self_repr = self.intern_repr(Repr::External(i));
                Some(Ok(Repr::ExtMethod { self_repr, name }))
            }
            Err(m) => Some(Err(failed(&m))),
        }
    }

    pub(super) fn ext_lltype(&self, i: u32) -> LlType {
        self.ext.reprs[i as usize].lowleveltype
    }

    /// A prebuilt value of library Repr `i` (`r`): what its `convert_const` built.
    pub(super) fn ext_const(&mut self, i: u32, v: Value, r: ReprId) -> Result<LlValue, TyperError> {
        let Value::Obj(inst) = v else {
            return Ok(LlValue::Ptr(LlPtr::Null));
        };
        let host = match self.ext.reprs[i as usize].consts.get(&inst) {
            Some(Ok(h)) => *h,
            Some(Err(m)) => {
                return Err(TyperError::new(format!(
                    "the library's convert_const could not be run: {m}"
                )))
            }
            None => {
                return Err(TyperError::new(
                    "a prebuilt value the library's Repr did not convert",
                ))
            }
        };
        let t = self.lltype(r);
        self.host_to_ll(host, t)
    }

    /// A host value of a library Repr's `convert_const` (`_HostContainer`, a str where a
    /// string is, a number) as a value of low-level type `t`.
    fn host_to_ll(&mut self, v: Value, t: LlType) -> Result<LlValue, TyperError> {
        let bad = || {
            TyperError::new("a value the library's convert_const built that rpy-lsp does not know")
        };
        let heap = self.objheap;
        if t == self.str_ptr || t == self.unicode_ptr {
            return match v {
                Value::None => Ok(LlValue::Ptr(LlPtr::Null)),
                Value::Obj(o) => match heap.get(o) {
                    Object::Str(s) if t == self.str_ptr => {
                        let s = s.clone();
                        Ok(LlValue::Ptr(self.prebuilt_str(&s)))
                    }
                    _ => Err(bad()),
                },
                _ => Err(bad()),
            };
        }
        if self.types.is_ptr(t) {
            let Value::Obj(o) = v else {
                return match v {
                    Value::None => Ok(LlValue::Ptr(LlPtr::Null)),
                    _ => Err(bad()),
                };
            };
            if let Some(&p) = self.ext.copied.get(&o) {
                return Ok(LlValue::Ptr(p));
            }
            let Object::Instance(inst) = heap.get(o) else {
                return Err(bad());
            };
            let to = self.types.pointee(t).ok_or_else(bad)?;
            let items = match inst.dict.get("_items") {
                Some(Value::Obj(l)) => match heap.get(l) {
                    Object::List(items) => Some(items.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(items) = items {
                let item_t = self.types.array_item(to).ok_or_else(bad)?;
                let p = self.st.heap.malloc(&self.st.types, to, items.len());
                self.ext.copied.insert(o, p);
                for (k, item) in items.into_iter().enumerate() {
                    let x = self.host_to_ll(item, item_t)?;
                    self.st.heap.setitem(p, k as i64, x).map_err(|_| bad())?;
                }
                return Ok(LlValue::Ptr(p));
            }
            let fields: Vec<(Rc<str>, LlType)> = self
                .types
                .fields(to)
                .iter()
                .map(|f| (f.0.clone(), f.1))
                .collect();
            let p = self.st.heap.malloc(&self.st.types, to, 0);
            self.ext.copied.insert(o, p);
            for (name, ft) in fields {
                if let Some(x) = inst.dict.get(&name) {
                    let x = self.host_to_ll(x, ft)?;
                    self.st
                        .heap
                        .setfield(&self.st.types, p, to, &name, x)
                        .map_err(|_| bad())?;
                }
            }
            return Ok(LlValue::Ptr(p));
        }
        Ok(match (t, v) {
            (LlType::VOID, _) => LlValue::Void,
            (LlType::BOOL, Value::Bool(b)) => LlValue::Bool(b),
            (LlType::FLOAT, Value::Float(f)) => LlValue::Float(f),
            (_, Value::None) => LlValue::Int(0),
            (_, Value::Bool(b)) => LlValue::Int(b as i64),
            (_, Value::Int(n)) => LlValue::Int(n),
            (LlType::CHAR, Value::Obj(o)) => match heap.get(o) {
                Object::Str(s) if s.len() == 1 => LlValue::Char(s[0]),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        })
        .map(|x| {
            self.convert_const_ll(
                x,
                if matches!(x, LlValue::Int(_)) {
                    LlType::SIGNED
                } else {
                    t
                },
                t,
            )
            .map(|c| c.value)
            .unwrap_or(x)
        })
    }

    /// The RTyper's Repr of a low-level type a library's `inputargs` names.
    fn repr_of_lltype(&mut self, t: LlType) -> ReprId {
        use crate::objspace::object::IntKind;
        let repr = match t {
            LlType::SIGNED => Repr::Int(IntKind::Signed),
            LlType::UNSIGNED => Repr::Int(IntKind::Unsigned),
            LlType::BOOL => Repr::Bool,
            LlType::FLOAT => Repr::Float,
            LlType::CHAR => Repr::Char,
            LlType::UNICHAR => Repr::UniChar,
            LlType::VOID => Repr::Void,
            _ if t == self.str_ptr => Repr::Str,
            _ if t == self.unicode_ptr => Repr::Unicode,
            _ => Repr::Ptr(t),
        };
        self.intern_repr(repr)
    }

    /// A call of a function an entry is `_about_` (`o`, its annotation), if it is one:
    /// what its `specialize_call` asked for, on the call's arguments.
    pub(super) fn ext_about_call(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        o: ObjId,
    ) -> Option<R> {
        let recipe = self.ext.about.get(&o)?.clone();
        hop.r_s_popfirstarg();
        let args = (0..hop.nargs())
            .map(|k| (hop.args_v[k], hop.args_r[k]))
            .collect();
        Some(match recipe {
            Ok(recipe) => self.replay(hop, llops, &recipe, args),
            Err(m) => Err(TyperError::new(format!(
                "the specialize_call of an ExtRegistryEntry could not be run: {m}"
            ))),
        })
    }

    /// Generates what the `rtype_*` method of library Repr `i` asked for (`method`: a call
    /// of method `name`, else a read of attribute `name`), on `args` (the value the Repr
    /// represents first).
    pub(super) fn ext_replay(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        i: u32,
        method: bool,
        name: &str,
        args: Vec<(Hlvalue, ReprId)>,
    ) -> R {
        let recipe = match self.ext.reprs[i as usize].recipes.get(&(method, Rc::from(name))) {
            Some(Ok(r)) => r.clone(),
            Some(Err(m)) => {
                return Err(TyperError::new(format!(
                    "the RTyper code of an ExtRegistryEntry's annotation could not be run for `{name}`: {m}"
                )))
            }
            None => {
                return Err(TyperError::new(format!(
                    "the RTyper code of an ExtRegistryEntry's annotation was not run for `{name}`"
                )))
            }
        };
        self.replay(hop, llops, &recipe, args)
    }

    /// Generates the steps of `recipe` on `args`.
    fn replay(
        &mut self,
        hop: &mut Hop,
        llops: &mut LlOps,
        recipe: &Recipe,
        args: Vec<(Hlvalue, ReprId)>,
    ) -> R {
        let rr = hop.r_result;
        // each step's value, its Repr (None for a constant), and its constant
        let mut vals: Vec<(Hlvalue, Option<ReprId>, Option<Value>)> = Vec::new();
        for (k, step) in recipe.steps.iter().enumerate() {
            match step {
                Step::Arg { index, to } => {
                    let &(v, r) = args
                        .get(*index)
                        .ok_or_else(|| TyperError::new("inputarg() of a missing argument"))?;
                    let target = match to {
                        To::Own(j) => self.intern_repr(Repr::External(*j)),
                        To::Ll(t) => self.repr_of_lltype(*t),
                        To::Same => r,
                    };
                    vals.push((self.convertvar(llops, v, r, target)?, Some(target), None));
                }
                Step::Const { ty, value } => {
                    let c = if *ty == LlType::VOID {
                        cvoid()
                    } else {
                        let r = self.repr_of_lltype(*ty);
                        Hlvalue::Ll(self.const_value(*value, r)?)
                    };
                    vals.push((c, None, Some(*value)));
                }
                Step::Call { func, args: a } => {
                    if recipe.result != Some(k) {
                        return Err(TyperError::new(
                            "a library's Repr that uses the result of a helper is not supported by `run` yet",
                        ));
                    }
                    let mut call_args = Vec::new();
                    for &j in a {
                        let (v, _, c) = vals.get(j).cloned().ok_or_else(|| {
                            TyperError::new("gendirectcall() of a value not made yet")
                        })?;
                        let konst = match (v, c) {
                            (
                                Hlvalue::Ll(LlConstant {
                                    ty: LlType::VOID, ..
                                }),
                                Some(Value::Obj(o)),
                            ) => Some(o),
                            _ => None,
                        };
                        call_args.push((v, konst));
                    }
                    hop.exception_is_here(llops);
                    let t = self.lltype(rr);
                    let v = self.gendirectcall_func(llops, *func, call_args, t)?;
                    vals.push((v, Some(rr), None));
                }
            }
        }
        let void = self.intern_repr(Repr::Void);
        match recipe.result {
            None => Ok((cvoid(), void)),
            Some(k) => {
                let (v, r, _) = vals[k];
                match r {
                    Some(r) => Ok((self.convertvar(llops, v, r, rr)?, rr)),
                    None => Ok((v, void)),
                }
            }
        }
    }
}

impl RTyper<'_> {
    /// The constant name of a `getattr` on a library Repr's value.
    pub(super) fn const_attr_name(&self, hop: &Hop) -> Result<String, TyperError> {
        super::rinstance::attr_name_const(hop)
            .and_then(|n| self.objheap.str_value(n))
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .ok_or_else(|| TyperError::new("getattr with a non-constant name"))
    }

    /// `hlinvoke(repr, f, *args)` in a library's low-level helper: a direct call of the one
    /// graph of `f` (see `annotator/extregistry.rs`), the arguments already in its types.
    pub(super) fn rtype_hlinvoke(&mut self, hop: &mut Hop, llops: &mut LlOps) -> R {
        let g = crate::annotator::hlinvoke_graph(&self.ann.bookkeeper, hop.args_s.get(1))
            .map_err(TyperError::new)?;
        let args = (2..hop.nargs())
            .map(|k| (hop.args_v[k], hop.args_r[k]))
            .collect();
        hop.exception_is_here(llops);
        let (v, r) = self.call_graph(llops, g, args)?;
        let rr = hop.r_result;
        Ok((self.convertvar(llops, v, r, rr)?, rr))
    }
}
