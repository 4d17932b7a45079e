//! Descriptions of prebuilt callables and frozen objects: the elements of a PBC annotation.
//! A `FunctionDesc` keeps one graph per specialization key; a `MethodDesc` is a function
//! found on a class, bound to the class of `self`; a `FrozenDesc` is a module or a prebuilt
//! instance whose class defines `_freeze_`.

use super::classdef::ClassDesc;
use super::model::*;
use crate::fasthash::HashMap;
use crate::interpreter::arguments::Signature;
use crate::objspace::object::{HashKey, Heap, ObjId, Object, Value};
use crate::syntax::Span;
use std::rc::Rc;

/// How calls of a function are specialized (`_annspecialcase_`, set by
/// `objectmodel.specialize`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specializer {
    Default,
    /// `specialize:argtype(i, …)`: one graph per combination of argument types.
    ArgType(Vec<usize>),
    /// `specialize:arg(i, …)`: one graph per combination of constant argument values.
    ArgValue(Vec<usize>),
    /// `specialize:arg_or_var(i, …)`: like `arg`, with one shared graph for non-constants.
    ArgOrVar(Vec<usize>),
    /// `specialize:memo`: computed at translation time for every combination of prebuilt
    /// arguments.
    Memo,
    /// `specialize:call_location`: one graph per call site.
    CallLocation,
    /// `specialize:ll`: one graph per combination of the arguments' low-level types (the
    /// low-level helpers, generic over the containers they work on).
    Ll,
    /// `specialize:ll_and_arg(N...)`: as `Ll`, and also per value of the given arguments
    /// (`rffi.setintfield(p, 'field', v)`).
    LlAndArg(Vec<usize>),
    /// A tag rpy-lsp does not know.
    Unknown(Rc<str>),
}

impl Specializer {
    pub fn parse(tag: &str) -> Specializer {
        let tag = tag.trim();
        let (name, params) = match tag.split_once('(') {
            Some((n, p)) => (n.trim(), Some(p.trim_end_matches(')'))),
            None => (tag, None),
        };
        let nums = |p: Option<&str>| -> Vec<usize> {
            p.map(|p| p.split(',').filter_map(|x| x.trim().parse().ok()).collect())
                .unwrap_or_default()
        };
        match name {
            "specialize:argtype" => Specializer::ArgType(nums(params)),
            "specialize:arg" => Specializer::ArgValue(nums(params)),
            "specialize:arg_or_var" => Specializer::ArgOrVar(nums(params)),
            "specialize:memo" => Specializer::Memo,
            "specialize:call_location" => Specializer::CallLocation,
            "specialize:ll" => Specializer::Ll,
            "specialize:ll_and_arg" => Specializer::LlAndArg(nums(params)),
            "" => Specializer::Default,
            _ => Specializer::Unknown(Rc::from(tag)),
        }
    }
}

/// One part of a specialization key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyPart {
    /// Number of items passed to `*args`.
    Star(usize),
    Type(String),
    Const(HashKey),
    /// The one description of a prebuilt-object set that is not a constant: a bound
    /// method (`specialize.arg` keys on it, as the reference does).
    Desc(DescId),
    Var,
    Location(Position),
}

pub type SpecKey = Vec<KeyPart>;

#[derive(Clone, Debug)]
pub struct FunctionDesc {
    pub func: ObjId,
    pub name: Rc<str>,
    pub sig: Rc<Signature>,
    pub defaults: Rc<[Value]>,
    pub specializer: Specializer,
    /// `_annenforceargs_`: the declared argument types (`objectmodel.enforceargs`).
    pub enforceargs: Option<Value>,
    /// `_signature_`: `(paramtypes, returntype)` of `rlib.signature.signature`.
    pub signature: Option<Value>,
    /// `_rpy_c_argtypes`: the declared low-level argument types of the function standing
    /// for a C function (`rffi.llexternal`'s `_c_<name>`).
    pub c_argtypes: Option<Value>,
    /// `_rpy_argkinds_`: the argument kinds a bundled model declares (`builtin_argkinds`).
    pub argkinds: Option<Value>,
    /// Graphs built so far, by specialization key.
    pub graphs: HashMap<SpecKey, u32>,
    pub is_generator: bool,
    /// `@not_rpython` or a `NOT_RPYTHON` docstring.
    pub not_rpython: bool,
    /// Span of the function's name in its definition.
    pub name_span: Span,
}

impl FunctionDesc {
    pub fn new(heap: &Heap, func: ObjId) -> FunctionDesc {
        let Object::Function(f) = heap.get(func) else {
            panic!("FunctionDesc of a non-function")
        };
        let tag = match f.attrs.get("_annspecialcase_") {
            Some(v) => heap
                .str_value(v)
                .map(|s| String::from_utf8_lossy(s).into_owned()),
            None => None,
        };
        let specializer = tag
            .map(|t| Specializer::parse(&t))
            .unwrap_or(Specializer::Default);
        let not_rpython = matches!(f.attrs.get("_not_rpython_"), Some(Value::Bool(true)))
            || f.code
                .docstring
                .as_deref()
                .is_some_and(|d| d.contains("NOT_RPYTHON"));
        FunctionDesc {
            func,
            name: f.name.clone(),
            sig: Rc::new(Signature::from_code(&f.code)),
            defaults: f.defaults.clone().into(),
            specializer,
            enforceargs: f.attrs.get("_annenforceargs_"),
            signature: f.attrs.get("_signature_"),
            c_argtypes: f.attrs.get("_rpy_c_argtypes"),
            argkinds: f.attrs.get("_rpy_argkinds_"),
            graphs: HashMap::default(),
            is_generator: f.code.is_generator(),
            not_rpython,
            name_span: f.code.name_span,
        }
    }
}

/// A function found as a class attribute: bound to instances of `selfclassdef` when known.
#[derive(Clone, Debug)]
pub struct MethodDesc {
    pub func: DescId,
    /// The class whose dict defines the function.
    pub origin: ClassDefId,
    pub selfclassdef: Option<ClassDefId>,
    pub name: Rc<str>,
}

#[derive(Clone, Debug)]
pub struct FrozenDesc {
    pub obj: ObjId,
}

#[derive(Clone, Debug)]
pub enum Desc {
    Function(FunctionDesc),
    Class(ClassDesc),
    Method(MethodDesc),
    Frozen(FrozenDesc),
    /// A function bound to a frozen object (a method of a `_freeze_` instance).
    MethodOfFrozen {
        func: DescId,
        frozen: DescId,
    },
}

impl Desc {
    /// Kind names, for "mixing several kinds of PBCs".
    pub fn kind(&self) -> &'static str {
        match self {
            Desc::Function(_) => "function",
            Desc::Class(_) => "class",
            Desc::Method(_) => "method",
            Desc::Frozen(_) => "frozen object",
            Desc::MethodOfFrozen { .. } => "method of a frozen object",
        }
    }
}
