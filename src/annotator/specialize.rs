//! Specialization (`specialize:argtype`, `specialize:arg`, `specialize:memo`,
//! `enforceargs`): takes a function description and the arguments of one call; gives
//! the graph of the specialization those arguments select (flowing it the first time), or
//! for a memo function the values it returned at translation time.

use super::annrpython::{Annotator, Flowed};
use super::call::ArgsS;
use super::description::{Desc, KeyPart, SpecKey, Specializer};
use super::model::*;
use super::AnnError;
use crate::diagnostics::Severity;
use crate::flowspace::{build_flow, ExitCase, FunctionGraph, Hlvalue, Link, SpaceOperation, VarId};
use crate::interpreter::arguments::bind;
use crate::interpreter::operation::Op;
use crate::interpreter::{CallArgs, ConcreteSpace, Space, Unwind};
use crate::objspace::object::{Object, Value};
use crate::syntax::Span;

/// The name of an annotation's Python type, for `specialize:argtype`.
fn knowntype_key(bk: &super::Bookkeeper, s: &SomeValue) -> String {
    match s {
        SomeValue::Integer { kind, .. } => int_kind_name(*kind).to_string(),
        SomeValue::Bool { .. } => "bool".into(),
        SomeValue::Float { .. } => "float".into(),
        SomeValue::Char { .. } | SomeValue::Str { .. } => "str".into(),
        SomeValue::UnicodeCodePoint { .. } | SomeValue::Unicode { .. } => "unicode".into(),
        SomeValue::Tuple(_) => "tuple".into(),
        SomeValue::List { .. } => "list".into(),
        SomeValue::Dict { .. } => "dict".into(),
        // the class itself (two classes may share a name: one made by a factory function)
        SomeValue::Instance { classdef, .. } => format!("instance:{}", classdef.index()),
        SomeValue::Pbc { descs, .. } => format!("pbc:{}", bk.desc(descs[0]).kind()),
        SomeValue::None => "NoneType".into(),
        // each generator graph has its own iterator class in the reference
        // (flowspace/generator.py makes one per graph it builds)
        SomeValue::Generator { graph } => format!("generator:{}", graph),
        _ => "object".into(),
    }
}

/// A specialization on argument `i` of a function called with `n` arguments (self and the
/// `*args` tuple counted): the reference's specializer indexes the arguments and fails.
fn spec_index_error(name: &str, how: &str, i: usize, n: usize) -> AnnError {
    AnnError::new(
        "RPY218",
        format!(
            "`{}` is specialized on its argument {} (specialize.{}), but it receives only {} argument{} here (counted from 0)",
            name,
            i,
            how,
            n,
            if n == 1 { "" } else { "s" }
        ),
    )
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Binds `args` to the function's parameters, picks (or builds) the graph of the
    /// specialization; `None` when the function cannot be flowed (already reported).
    pub(super) fn function_graph_for_call(
        &mut self,
        fdesc: DescId,
        args: &ArgsS,
        many: Option<Span>,
    ) -> Result<Option<(u32, Vec<SomeValue>)>, AnnError> {
        let Desc::Function(f) = self.bk.desc(fdesc) else {
            unreachable!("not a function")
        };
        let (name, sig, defaults, func, specializer, name_span) = (
            f.name.clone(),
            f.sig.clone(),
            f.defaults.clone(),
            f.func,
            f.specializer.clone(),
            f.name_span,
        );
        if sig.kwargs.is_some() {
            // Not RPython: building the graph reports it.
            if self.flow_failed.insert(func) {
                if let Err(d) = build_flow(self.space, func) {
                    self.push_diagnostic(d);
                }
            }
            return Ok(None);
        }
        let mut defaults_s = Vec::with_capacity(defaults.len());
        for &d in defaults.iter() {
            let s = self.bk.immutablevalue(self.space.heap(), d)?;
            self.bk.mark_prebuilt(&s);
            defaults_s.push(s);
        }
        let mut positional = args.positional.clone();
        if let Some(u) = &args.star_unknown {
            positional.pop();
            // the unknown `*rest` fills every parameter the other arguments leave
            let filled = positional.len()
                + args
                    .keywords
                    .iter()
                    .filter(|(k, _)| sig.argnames.iter().any(|a| a == k))
                    .count();
            // parameters with defaults keep them (the call shape most callers use)
            let required = sig.argnames.len().saturating_sub(defaults_s.len());
            let needed = required.saturating_sub(filled);
            positional.extend(std::iter::repeat_n(u.clone(), needed));
        }
        let (mut inputs, extra) = match bind(
            &name,
            &sig,
            &defaults_s,
            positional,
            args.keywords.clone(),
        ) {
            Ok(r) => r,
            Err(e) => {
                let err = if many.is_some() {
                    // Several functions can be called here (typically a method and its
                    // overrides): all of them must accept the same arguments.
                    AnnError::new(
                        "RPY206",
                        format!("wrong arguments for one of the functions called here: {} (every function called at one place must accept the same arguments)", e.0),
                    )
                    .label(name_span, format!("this definition of `{}` does not accept them", name))
                } else {
                    AnnError::new("RPY206", format!("wrong arguments in a call: {}", e.0))
                        .label(name_span, format!("`{}` is defined here", name))
                };
                return Err(err);
            }
        };
        let mut key: SpecKey = Vec::new();
        // An unknown `*rest` passed on to a function's own `*args` leaves that tuple
        // unknown (its length too): the graph keeps `*args` as one unknown parameter.
        let star_unknown = match (&sig.varargs, &args.star_unknown) {
            (Some(_), Some(u)) => Some(u.clone()),
            _ => None,
        };
        let star = if star_unknown.is_some() {
            None
        } else {
            sig.varargs.is_some().then_some(extra.len())
        };
        if let Some(u) = star_unknown {
            key.push(KeyPart::Star(usize::MAX));
            inputs.push(u);
        } else if sig.varargs.is_some() {
            key.push(KeyPart::Star(extra.len()));
            inputs.push(SomeValue::tuple(extra));
        }
        self.enforce_args(fdesc, &mut inputs)?;
        self.enforce_signature_args(fdesc, &mut inputs)?;
        self.check_c_args(fdesc, &inputs)?;
        self.check_model_argkinds(fdesc, &inputs)?;
        match &specializer {
            Specializer::Default | Specializer::Memo => {}
            Specializer::ArgType(idx) => {
                for &i in idx {
                    let s = inputs
                        .get(i)
                        .ok_or_else(|| spec_index_error(&name, "argtype", i, inputs.len()))?;
                    key.push(KeyPart::Type(knowntype_key(&self.bk, s)));
                }
            }
            Specializer::ArgValue(idx) | Specializer::ArgOrVar(idx) => {
                let or_var = matches!(specializer, Specializer::ArgOrVar(_));
                self.arg_value_keys(&name, idx, &inputs, or_var, &mut key)?;
            }
            Specializer::CallLocation => key.push(KeyPart::Location(self.bk.position)),
            Specializer::Ll | Specializer::LlAndArg(_) => {
                for s in &inputs {
                    key.push(KeyPart::Type(match s {
                        SomeValue::Ptr(t) | SomeValue::LlType(t) => format!("ll{}", t.0),
                        SomeValue::InteriorPtr { base, field } => {
                            format!("ll{}.{}", base.0, field)
                        }
                        SomeValue::ArrayItem { array } => format!("ll{}[]", array.0),
                        // a function passed as a constant (a helper's item equality):
                        // one graph per function
                        SomeValue::Pbc { descs, .. } if descs.len() == 1 => {
                            format!("pbc{}", descs[0].0)
                        }
                        s => knowntype_key(&self.bk, s),
                    }));
                }
            }
            Specializer::Unknown(tag) => {
                return Err(AnnError::new(
                    "RPY218",
                    format!("unknown specialization `{}` of `{}`", tag, name),
                )
                .label(name_span, "declared here"))
            }
        }
        if let Specializer::LlAndArg(idx) = &specializer {
            self.arg_value_keys(&name, idx, &inputs, false, &mut key)?;
        }
        let existing = match self.bk.desc(fdesc) {
            Desc::Function(f) => f.graphs.get(&key).copied(),
            _ => None,
        };
        let g = match existing {
            Some(g) => g,
            None => {
                if self.flow_failed.contains(&func) {
                    return Ok(None);
                }
                // The engine's graph is read where it is for the function's other
                // specializations too (not copied twice); one flowed here is kept for them.
                let built = match self.prebuilt_graphs.remove(&func) {
                    Some((graph, diags)) => {
                        self.flowed.insert(func, Flowed::Prebuilt(graph, diags));
                        Ok((graph.clone(), diags.to_vec()))
                    }
                    None => match self.flowed.get(&func) {
                        Some(Flowed::Prebuilt(graph, diags)) => {
                            Ok(((*graph).clone(), diags.to_vec()))
                        }
                        Some(Flowed::Built(graph, diags)) => Ok(((**graph).clone(), diags.clone())),
                        None => build_flow(self.space, func).inspect(|(graph, diags)| {
                            let kept = Flowed::Built(Box::new(graph.clone()), diags.clone());
                            self.flowed.insert(func, kept);
                        }),
                    },
                };
                match built {
                    Ok((mut graph, diags)) => {
                        if let Some(n) = star {
                            flatten_star_args(&mut graph, n);
                        }
                        super::simplify::remove_dead_ops(&mut graph);
                        super::simplify::remove_dead_inputargs(&mut graph);
                        let flow_error = diags.iter().any(|d| d.severity == Severity::Error);
                        for d in diags {
                            self.push_flow_diagnostic(d);
                        }
                        let g = self.add_graph(graph, Some(fdesc));
                        self.info[g as usize].flow_error = flow_error;
                        if let Desc::Function(f) = self.bk.desc_mut(fdesc) {
                            f.graphs.insert(key, g);
                        }
                        g
                    }
                    Err(d) => {
                        self.flow_failed.insert(func);
                        self.push_flow_diagnostic(d);
                        return Ok(None);
                    }
                }
            }
        };
        // the graph of a function taking `*args` takes one parameter per extra argument
        if star.is_some() {
            if let Some(SomeValue::Tuple(items)) = inputs.pop() {
                inputs.extend(items.iter().cloned());
            }
        }
        Ok(Some((g, inputs)))
    }

    /// `objectmodel.enforceargs(...)`: the declared types must contain the arguments.
    /// The parts of a specialization key made of the values of arguments `idx`
    /// (`specialize.arg`): each must be a constant, or with `or_var` is a variable's part.
    fn arg_value_keys(
        &self,
        name: &str,
        idx: &[usize],
        inputs: &[SomeValue],
        or_var: bool,
        key: &mut SpecKey,
    ) -> Result<(), AnnError> {
        for &i in idx {
            if or_var && key.last() == Some(&KeyPart::Var) {
                // the reference stops at the first argument that is not a constant
                break;
            }
            let s = inputs.get(i).ok_or_else(|| {
                spec_index_error(
                    name,
                    if or_var { "arg_or_var" } else { "arg" },
                    i,
                    inputs.len(),
                )
            })?;
            // a low-level type is a constant of its own kind (`rffi.cast(Signed, x)`)
            if let SomeValue::LlType(t) = s {
                key.push(KeyPart::Type(format!("ll{}", t.0)));
                continue;
            }
            let c = self.bk.pbc_const(s).or_else(|| {
                if s.is_immutable_constant() {
                    s.konst()
                } else {
                    None
                }
            });
            match c.and_then(|c| self.heap().hash_key(c)) {
                Some(k) => key.push(KeyPart::Const(k)),
                None if or_var => key.push(KeyPart::Var),
                // a value rpy-lsp does not model may be the constant the specialization
                // needs (hippyvm's `space.str_w` through its unmodelled `call_args`): one
                // graph per call (which may pass its own constants), never an error
                None if matches!(s, SomeValue::Unknown(_)) => {
                    key.push(KeyPart::Location(self.bk.position))
                }
                // a bound method (`self.parse_item`) is not a constant, but the reference
                // keys `specialize.arg` on its one description
                None if matches!(s, SomeValue::Pbc { descs, .. } if descs.len() == 1) => {
                    if let SomeValue::Pbc { descs, .. } = s {
                        key.push(KeyPart::Desc(descs[0]));
                    }
                }
                None => {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                            "`{}` is specialized on the value of argument {} (specialize.arg), but it is not a constant here: {}",
                            name,
                            i,
                            self.bk.describe_type(self.heap(), s)
                        ),
                    ))
                }
            }
        }
        Ok(())
    }

    fn enforce_args(&mut self, fdesc: DescId, inputs: &mut [SomeValue]) -> Result<(), AnnError> {
        let Desc::Function(f) = self.bk.desc(fdesc) else {
            return Ok(());
        };
        let Some(Value::Obj(decl)) = f.enforceargs else {
            return Ok(());
        };
        let (name, argnames) = (f.name.clone(), f.sig.argnames.clone());
        let types: Vec<Value> = match self.heap().get(decl) {
            Object::Tuple(t) | Object::List(t) => t.clone(),
            _ => return Ok(()),
        };
        for (i, t) in types.into_iter().enumerate() {
            let Some(s) = inputs.get(i) else { break };
            let Value::Obj(cls) = t else { continue };
            if s.is_error() || self.heap().class(cls).is_none() {
                continue;
            }
            let Some(expected) = self.bk.valueoftype(self.space.heap(), cls) else {
                continue;
            };
            let ok = self.bk.contains(self.space.heap(), &expected, s)
                || (matches!(expected, SomeValue::Str { .. }) && s.is_str_like())
                || (matches!(expected, SomeValue::Float { .. }) && s.is_number());
            if !ok {
                let heap = self.space.heap();
                return Err(AnnError::new(
                    "RPY218",
                    format!(
                        "argument `{}` of `{}` must be {} (enforceargs), got {}",
                        argnames.get(i).map(|a| &**a).unwrap_or("?"),
                        name,
                        self.bk.describe_type(heap, &expected),
                        self.bk.describe_type(heap, s)
                    ),
                ));
            }
            inputs[i] = expected.not_const();
        }
        Ok(())
    }

    /// The model's object of low-level type `t`: one the program's constants named, or
    /// else one of the primitive types of the bundled `lltype` and `rffi` (a value's type,
    /// `lltype.typeOf(x)`, need not have been named anywhere).
    fn lltype_object(
        &mut self,
        t: crate::lltypesystem::LlType,
    ) -> Option<crate::objspace::object::ObjId> {
        if let Some(o) = self.bk.lltype_obj_of(t) {
            return Some(o);
        }
        for module in [
            "rpython.rtyper.lltypesystem.lltype",
            "rpython.rtyper.lltypesystem.rffi",
        ] {
            for v in self.space.loaded_module_globals(module) {
                let Value::Obj(o) = v else { continue };
                let bk = &mut self.bk;
                let found = crate::annotator::llannotation::lltype_of_obj(
                    self.space.heap(),
                    &mut bk.lltypes,
                    &mut bk.lltype_objs,
                    o,
                );
                if found == Some(t) {
                    bk.lltype_objs.insert(o, t);
                    return Some(o);
                }
            }
        }
        None
    }

    /// `specialize:memo`: the function runs at translation time for every combination of
    /// the prebuilt values its arguments can take; the call's result is what it returned.
    pub(super) fn call_memo(&mut self, fdesc: DescId, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let (func, name, sig, defaults, name_span) = match self.bk.desc(fdesc) {
            Desc::Function(f) => (
                f.func,
                f.name.clone(),
                f.sig.clone(),
                f.defaults.clone(),
                f.name_span,
            ),
            _ => unreachable!(),
        };
        // the arguments as the function receives them: keywords by name, defaults filled
        // in (the reference's `parse_arguments`); the RTyper binds the call the same way
        let mut defaults_s = Vec::with_capacity(defaults.len());
        for &d in defaults.iter() {
            defaults_s.push(self.bk.immutablevalue(self.space.heap(), d)?);
        }
        let (mut inputs, extra) = bind(
            &name,
            &sig,
            &defaults_s,
            args.positional.clone(),
            args.keywords.clone(),
        )
        .map_err(|e| {
            AnnError::new("RPY206", format!("wrong arguments in a call: {}", e.0))
                .label(name_span, format!("`{}` is defined here", name))
        })?;
        inputs.extend(extra);
        let mut choices: Vec<Vec<Value>> = Vec::new();
        for s in &inputs {
            let vals: Vec<Value> = match s {
                SomeValue::Pbc { descs, can_be_none } => {
                    let mut v: Vec<Value> = descs
                        .iter()
                        .filter_map(|&d| self.bk.desc_obj(d))
                        .map(Value::Obj)
                        .collect();
                    if *can_be_none {
                        v.push(Value::None);
                    }
                    v
                }
                SomeValue::Bool { konst: None, .. } => vec![Value::Bool(false), Value::Bool(true)],
                s if s.is_immutable_constant() && s.konst().is_some() => {
                    vec![s.konst().expect("constant")]
                }
                SomeValue::Instance { konst: Some(k), .. } => vec![*k],
                // a low-level type: the model's object it was made from (`rffi.sizeof(T)`),
                // or for a type known only as a value's (`CArrayPtr(lltype.typeOf(x))`),
                // the model's object of that name
                SomeValue::LlType(t) if self.lltype_object(*t).is_some() => {
                    vec![Value::Obj(self.lltype_object(*t).expect("type object"))]
                }
                other => {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                        "`{}` is specialize.memo: its arguments must be prebuilt constants, not {}",
                        name,
                        self.bk.describe_type(self.space.heap(), other)
                    ),
                    ))
                }
            };
            choices.push(vals);
        }
        let mut result = SomeValue::Impossible;
        let mut combo = vec![0usize; choices.len()];
        let mut count = 0;
        loop {
            if choices.iter().any(|c| c.is_empty()) {
                break;
            }
            let vals: Vec<Value> = combo.iter().zip(&choices).map(|(&i, c)| c[i]).collect();
            count += 1;
            if count > 4096 {
                return Err(AnnError::new(
                    "RPY218",
                    format!(
                        "`{}` is specialize.memo with too many argument combinations",
                        name
                    ),
                ));
            }
            // Each combination runs once: the function may have side effects.
            let key: Option<Vec<crate::objspace::object::HashKey>> =
                vals.iter().map(|&v| self.heap().hash_key(v)).collect();
            let cached = key
                .as_ref()
                .and_then(|k| self.memo_results.get(&(func, k.clone())).copied());
            let outcome = match cached {
                Some(v) => Ok(v),
                None => {
                    // import-time code may change what any function's graph folds
                    self.flowed.clear();
                    crate::interpreter::ConcreteSpace::restart_limits(self.space);
                    let r = Space::call(self.space, Value::Obj(func), CallArgs::positional(vals));
                    if let (Ok(v), Some(k)) = (&r, key) {
                        self.memo_results.insert((func, k), *v);
                    }
                    r
                }
            };
            match outcome {
                Ok(v) => {
                    // a type of the lltype model (`rffi.CArray(T)`) is a low-level type
                    let s = match self.ll_const_annotation(v) {
                        Some(s) => s,
                        None => self.bk.immutablevalue(self.space.heap(), v)?,
                    };
                    result = self.bk.union(self.space.heap(), &result, &s)?;
                }
                Err(Unwind::Error(d)) => {
                    return Err(AnnError::new(
                        "RPY218",
                        format!("specialize.memo `{}` failed: {}", name, d.message),
                    ))
                }
                Err(Unwind::Raise { evalue, .. }) => {
                    // The exception's text says what the library requires ("stacklet: you
                    // have to translate with --continuation").
                    let text = self.space.exception_text(evalue);
                    return Err(AnnError::new(
                        "RPY218",
                        if text.is_empty() {
                            format!(
                                "specialize.memo `{}` raised an exception at translation time",
                                name
                            )
                        } else {
                            format!(
                                "specialize.memo `{}` failed at translation time: {}",
                                name, text
                            )
                        },
                    ));
                }
                Err(_) => {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                            "specialize.memo `{}` raised an exception at translation time",
                            name
                        ),
                    ))
                }
            }
            // next combination
            let mut i = 0;
            loop {
                if i == combo.len() {
                    return Ok(result);
                }
                combo[i] += 1;
                if combo[i] < choices[i].len() {
                    break;
                }
                combo[i] = 0;
                i += 1;
            }
        }
        Ok(result)
    }
}

/// The graph of a function taking `*args`, called with `n` extra arguments: as the
/// reference's specialization does, it takes them one by one (a new start block builds
/// the tuple and goes to the function's own), so that a family of methods where one
/// override takes `*args` has one call shape.
fn flatten_star_args(graph: &mut FunctionGraph, n: usize) {
    let old = graph.startblock;
    let args = graph.block(old).inputargs.clone();
    let Some((&tuple_arg, named)) = args.split_last() else {
        return;
    };
    let hint = |g: &FunctionGraph, v: VarId| g.vars[v.0 as usize].name_hint.clone();
    let copies: Vec<VarId> = named
        .iter()
        .map(|&v| {
            let h = hint(graph, v);
            graph.new_var(h)
        })
        .collect();
    let stars: Vec<VarId> = (0..n).map(|_| graph.new_var(None)).collect();
    let h = hint(graph, tuple_arg);
    let t = graph.new_var(h);
    let start = graph.new_block(copies.iter().chain(&stars).copied().collect());
    let span = graph.span;
    graph.block_mut(start).operations.push(SpaceOperation {
        opname: Op::NewTuple,
        args: stars.iter().map(|&v| Hlvalue::Var(v)).collect(),
        result: t,
        span,
    });
    let link_args = copies
        .iter()
        .chain(std::iter::once(&t))
        .map(|&v| Hlvalue::Var(v))
        .collect();
    graph.add_link(
        start,
        Link {
            prevblock: start,
            target: old,
            args: link_args,
            exitcase: ExitCase::None,
            last_exception: None,
            last_exc_value: None,
        },
    );
    graph.startblock = start;
}
