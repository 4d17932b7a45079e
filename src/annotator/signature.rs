//! `rlib.signature.signature(argtypes..., returns=type)`: the annotations a function
//! declares (`func._signature_`, made of the `rlib.types` model's `SignatureType` objects).
//! As in the reference's `enforce_signature_args` / `enforce_signature_return`, every
//! call's arguments must be contained in the declared ones and are replaced by them, and
//! the function's result must be contained in the declared result, which is what its
//! callers see (and what its return block is generalized to).

use super::annrpython::{Annotator, Incoming};
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{Object, Value};

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `(paramtypes, returntype)` of the function's `@signature`, if it has one.
    fn signature_parts(&self, fdesc: DescId) -> Option<(Vec<Value>, Value)> {
        let Desc::Function(f) = self.bk.desc(fdesc) else {
            return None;
        };
        let Some(Value::Obj(sig)) = f.signature else {
            return None;
        };
        let heap = self.space.heap();
        let Object::Tuple(parts) = heap.get(sig) else {
            return None;
        };
        let (Some(&Value::Obj(params)), Some(&ret)) = (parts.first(), parts.get(1)) else {
            return None;
        };
        match heap.get(params) {
            Object::Tuple(p) | Object::List(p) => Some((p.clone(), ret)),
            _ => None,
        }
    }

    /// The annotation an `rlib.types` object stands for; `None` for `types.any()` and for
    /// the kinds rpy-lsp has no annotation of (low-level pointers, single and long floats).
    fn signature_annotation(
        &mut self,
        t: Value,
        func: &str,
    ) -> Result<Option<SomeValue>, AnnError> {
        let Value::Obj(id) = t else { return Ok(None) };
        if let Some(s) = self.bk.signature_types.get(&id) {
            return Ok(Some(s.clone()));
        }
        let heap = self.space.heap();
        let Object::Instance(inst) = heap.get(id) else {
            return Ok(None);
        };
        let class_name = heap.class(inst.class).map(|c| c.name.clone());
        match class_name.as_deref() {
            Some("SignatureType") => {}
            Some("SelfTypeMarker") => {
                return Err(AnnError::new(
                    "RPY218",
                    format!(
                        "`{}` has an argument declared as types.self(): its class needs the decorator rlib.signature.finishsigs()",
                        func
                    ),
                ))
            }
            _ => return Ok(None),
        }
        let text = |name: &str| {
            inst.dict
                .get(name)
                .and_then(|v| heap.str_value(v))
                .map(|s| String::from_utf8_lossy(s).into_owned())
        };
        let kind = text("kind").unwrap_or_default();
        let can_be_none = matches!(inst.dict.get("can_be_None"), Some(Value::Bool(true)));
        let args: Vec<Value> = match inst.dict.get("args") {
            Some(Value::Obj(a)) => match heap.get(a) {
                Object::Tuple(items) => items.clone(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let s = match kind.as_str() {
            "none" => SomeValue::None,
            "impossible" => SomeValue::Impossible,
            "float" => SomeValue::float(),
            "int" => SomeValue::int(),
            "bool" => SomeValue::bool(),
            "unicode" => SomeValue::unicode(false),
            "unicode0" => SomeValue::unicode(true),
            "str" | "str0" => SomeValue::Str {
                can_be_none,
                no_nul: kind == "str0",
                konst: None,
            },
            "bytearray" => SomeValue::bytearray(),
            "char" => SomeValue::char(false),
            "list" | "array" => {
                let Some(item) = self.signature_item(args.first().copied(), func)? else {
                    return Ok(None);
                };
                let def = self.bk.new_listdef(item);
                let it = self.bk.list_item(def);
                let it = self.bk.item_mut(it);
                it.mutated = true;
                it.resized = kind == "list";
                it.resized_outside_fill = it.resized;
                SomeValue::List { def, konst: None }
            }
            "dict" => {
                let key = self.signature_item(args.first().copied(), func)?;
                let value = self.signature_item(args.get(1).copied(), func)?;
                let (Some(key), Some(value)) = (key, value) else {
                    return Ok(None);
                };
                let def = self.bk.new_dictdef();
                let (k, v) = self.bk.dict_items(def);
                self.bk.item_mut(k).s_value = key;
                self.bk.item_mut(v).s_value = value;
                SomeValue::Dict { def, konst: None }
            }
            "instance" => {
                let Some(Value::Obj(cls)) = args.first().copied() else {
                    return Ok(None);
                };
                let classdef = self.bk.getuniqueclassdef(self.space.heap(), cls)?;
                SomeValue::Instance {
                    classdef,
                    can_be_none,
                    konst: None,
                }
            }
            _ => return Ok(None),
        };
        self.bk.signature_types.insert(id, s.clone());
        Ok(Some(s))
    }

    /// The annotation of a container's item type (`types.list(types.int())`).
    fn signature_item(
        &mut self,
        t: Option<Value>,
        func: &str,
    ) -> Result<Option<SomeValue>, AnnError> {
        match t {
            Some(t) => self.signature_annotation(t, func),
            None => Ok(None),
        }
    }

    /// Whether the declared `s_decl` contains `s`. As the reference's `contains`, whose
    /// union has no side effects, a list or dict is contained only when it is the declared
    /// one (another `[1, 2]` is not a `types.list(types.int())`, even with the same items).
    fn signature_contains(&mut self, s_decl: &SomeValue, s: &SomeValue) -> bool {
        if s.is_error() || s.is_unknown() || s.is_impossible() {
            return true;
        }
        // the reference compares annotations without their `no_nul` flag (its
        // `check_str_without_nul` is off): `types.str0()` takes any string
        self.bk.contains(
            self.space.heap(),
            &without_nul_flag(s_decl),
            &without_nul_flag(s),
        )
    }

    /// The arguments of a call of a function with a `@signature`: each must be contained
    /// in the declared annotation, which replaces it.
    pub(super) fn enforce_signature_args(
        &mut self,
        fdesc: DescId,
        inputs: &mut [SomeValue],
    ) -> Result<(), AnnError> {
        let Some((params, _)) = self.signature_parts(fdesc) else {
            return Ok(());
        };
        let (name, argnames, has_enforceargs) = match self.bk.desc(fdesc) {
            Desc::Function(f) => (
                f.name.clone(),
                f.sig.argnames.clone(),
                f.enforceargs.is_some(),
            ),
            _ => return Ok(()),
        };
        if has_enforceargs {
            return Err(AnnError::new(
                "RPY218",
                format!("`{}`: signature and enforceargs cannot both be used", name),
            ));
        }
        if params.len() != inputs.len() {
            return Err(AnnError::new(
                "RPY218",
                format!(
                    "`{}` declares {} argument types in its signature but takes {} arguments",
                    name,
                    params.len(),
                    inputs.len()
                ),
            ));
        }
        for (i, t) in params.into_iter().enumerate() {
            let Some(s_decl) = self.signature_annotation(t, &name)? else {
                continue;
            };
            if !self.signature_contains(&s_decl, &inputs[i]) {
                let heap = self.space.heap();
                let container = matches!(
                    (&s_decl, &inputs[i]),
                    (SomeValue::List { .. }, SomeValue::List { .. })
                        | (SomeValue::Dict { .. }, SomeValue::Dict { .. })
                );
                return Err(AnnError::new(
                    "RPY218",
                    format!(
                        "argument {} (`{}`) of `{}` must be {} (signature), got {}{}",
                        i + 1,
                        argnames.get(i).map(|a| &**a).unwrap_or("?"),
                        name,
                        self.bk.describe_type(heap, &s_decl),
                        self.bk.describe_type(heap, &inputs[i]),
                        if container {
                            ": only the container the signature declares fits it, not another one with the same items"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            inputs[i] = s_decl;
        }
        Ok(())
    }

    /// The result of a call of graph `g` of a function with a `@signature`: the inferred
    /// `result` must be contained in the declared one, which the callers get and the
    /// return block is generalized to.
    pub(super) fn enforce_signature_return(
        &mut self,
        fdesc: DescId,
        g: u32,
        result: SomeValue,
    ) -> Result<SomeValue, AnnError> {
        let Some((_, ret)) = self.signature_parts(fdesc) else {
            return Ok(result);
        };
        let (name, name_span) = match self.bk.desc(fdesc) {
            Desc::Function(f) => (f.name.clone(), f.name_span),
            _ => return Ok(result),
        };
        let Some(s_decl) = self.signature_annotation(ret, &name)? else {
            return Ok(result);
        };
        let graph = &self.graphs[g as usize];
        let (rb, rv) = (
            graph.returnblock.0,
            graph.block(graph.returnblock).inputargs[0],
        );
        if !self.signature_contains(&s_decl, &result) {
            let heap = self.space.heap();
            let mut err = AnnError::new(
                "RPY218",
                format!(
                    "`{}` must return {} (signature), but returns {}",
                    name,
                    self.bk.describe_type(heap, &s_decl),
                    self.bk.describe_type(heap, &result)
                ),
            );
            let origin = self.info[g as usize].origins[rv.0 as usize];
            if let Some(at) = self.origin_span(g, origin) {
                err = err.label(
                    at,
                    format!("{} returned here", self.bk.describe_type(heap, &result)),
                );
            }
            return Err(err.label(name_span, format!("`{}` is declared here", name)));
        }
        if !self.bk.eq(self.space.heap(), &result, &s_decl) {
            self.addpendingblock(g, rb, vec![s_decl.clone()], Incoming::Call(name_span));
        }
        Ok(s_decl)
    }
}

/// A string annotation with its `no_nul` flag cleared (other annotations as they are).
fn without_nul_flag(s: &SomeValue) -> SomeValue {
    let mut s = s.clone();
    match &mut s {
        SomeValue::Str { no_nul, .. }
        | SomeValue::Char { no_nul, .. }
        | SomeValue::Unicode { no_nul, .. }
        | SomeValue::UnicodeCodePoint { no_nul, .. } => *no_nul = false,
        _ => {}
    }
    s
}
