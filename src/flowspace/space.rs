//! The `Space` side of the flow space: what the frame interpreter asks of the
//! `FlowContext` (operations, calls, branches, iteration, globals, imports, prints). Each
//! request on Variables becomes a recorded `SpaceOperation`; on constants it is folded;
//! a branch on a Variable forks the block.

use super::flowcontext::{
    is_sys_module, FlowContext, MAX_STEPS_WITHOUT_OP, NONE_TYPE_ATTRS, SYS_CONSTANTS,
};
use super::model::*;
use crate::builtins::BuiltinId;
use crate::compiler::{CodeObject, Const};
use crate::diagnostics::Diagnostic;
use crate::interpreter::{
    Branch, CallArgs, ConcreteSpace, Frame, IterNext, Op, OpResult, Space, Unwind,
};
use crate::objspace::object::{IterState, ObjId, Object, Value};
use crate::syntax::Span;
use std::rc::Rc;

impl<C: ConcreteSpace> Space for FlowContext<'_, C> {
    type Value = Hlvalue;

    fn set_span(&mut self, span: Span) {
        self.prev_span = self.span;
        self.span = span;
    }

    fn before_instr(&mut self, frame: &Frame<Hlvalue>) -> OpResult<Hlvalue, ()> {
        let pc = frame.state.pc;
        self.instr_state.clone_from(&frame.state);
        self.merge_checked = false;
        self.steps_without_op += 1;
        if self.steps_without_op > MAX_STEPS_WITHOUT_OP
            && self.jump_targets[pc as usize]
            && self.instrs_in_block > 0
        {
            // A loop that records no operation (`while True: pass`): its jump target is a
            // join point too, so that flowing terminates.
            self.merge_checked = true;
            let state = frame.state.clone();
            if self.join_at(state) {
                return Err(Unwind::Stop);
            }
        }
        if let Some(crate::compiler::bytecode::Instr::StoreFast(j)) =
            frame.code.co_code.get(pc as usize)
        {
            if let Some(s) = self.store_spans.get_mut(*j as usize) {
                *s = self.span;
            }
        }
        if matches!(
            frame.code.co_code.get(pc as usize),
            Some(crate::compiler::bytecode::Instr::ReturnValue)
        ) {
            self.last_locals.clone_from(&frame.state.locals);
        }
        self.instrs_in_block += 1;
        self.instr_pc = pc;
        if let Some(crate::compiler::bytecode::Instr::MapAdd(_)) =
            frame.code.co_code.get(pc as usize)
        {
            // As in the reference flow space, which has no MAP_ADD. (`set_span` already
            // pointed `self.span` at this instruction.)
            return Err(self.error(
                "RPY109",
                "dict comprehensions are not RPython: build the dict with a loop",
            ));
        }
        if frame.state.blocks.is_empty() {
            self.snapshot = None;
        } else if let Some(s) = &mut self.snapshot {
            s.clone_from(&frame.state);
        } else {
            self.snapshot = Some(frame.state.clone());
        }
        // An operation of the previous instruction may have left this pending when that
        // instruction ended without `after_instr` (it raised): it is not this one's.
        self.raise_pending = None;
        Ok(())
    }

    fn after_instr(&mut self, frame: &Frame<Hlvalue>) -> OpResult<Hlvalue, ()> {
        self.record_local_ref(frame);
        let Some(canraise) = self.raise_pending.take() else {
            return Ok(());
        };
        let snapshot = self
            .snapshot
            .take()
            .expect("snapshot while a handler is active");
        let cur = self.current;
        self.graph.block_mut(cur).exitswitch = ExitSwitch::LastException;
        self.link_to_state(frame.state.clone(), ExitCase::None, None);
        for name in canraise {
            let Some(cls) = self.builtin_class(name) else {
                continue;
            };
            let le = self.graph.new_var(Some("last_exception".into()));
            let lv = self.graph.new_var(Some("last_exc_value".into()));
            let mut state = snapshot.clone();
            let handler = state.blocks.pop().expect("active handler");
            state.stack.truncate(handler.depth as usize);
            let etype = if *name == "Exception" {
                Hlvalue::Var(le)
            } else {
                Hlvalue::Const(Value::Obj(cls))
            };
            state.stack.push(Hlvalue::Var(lv));
            state.stack.push(etype);
            state.pc = handler.target;
            self.link_to_state(state, ExitCase::Exception(cls), Some((le, lv)));
        }
        Err(Unwind::Stop)
    }

    fn constant(&mut self, c: &Const) -> Hlvalue {
        Hlvalue::Const(Space::constant(self.objspace, c))
    }
    fn wrap(&mut self, v: Value) -> Hlvalue {
        Hlvalue::Const(v)
    }
    fn name_const(&mut self, name: &Rc<str>) -> Hlvalue {
        Hlvalue::Const(Space::name_const(self.objspace, name))
    }
    fn const_str(&self, v: &Hlvalue) -> Option<Rc<str>> {
        match v {
            Hlvalue::Const(c) => Space::const_str(self.objspace, c),
            _ => None,
        }
    }

    fn op(&mut self, op: Op, args: &[Hlvalue]) -> OpResult<Hlvalue> {
        if op == Op::Pow || op == Op::InplacePow {
            return Err(self.error("RPY109", "a ** b is not RPython"));
        }
        if op == Op::DelAttr {
            return Err(self.error("RPY109", "deleting attributes is not RPython"));
        }
        if op == Op::NewSlice {
            return Err(self.error(
                "RPY107",
                "slicing with a step (extended slicing) is not RPython",
            ));
        }
        let consts: Option<Vec<Value>> = args.iter().map(|a| a.constant()).collect();
        if let Some(consts) = &consts {
            let first_obj = match consts.first() {
                Some(Value::Obj(id)) => Some(*id),
                _ => None,
            };
            if op == Op::Iter && self.is_unrolling(consts[0]) {
                // unrolling_iterable: iterate at flow time, producing one copy of the loop
                // body per item. One first step per iterable (as the reference's
                // `get_unroller`), so that paths entering the same loop merge.
                if let Some(&head) = first_obj.and_then(|o| self.unroll_head.get(&o)) {
                    return Ok(Hlvalue::Const(Value::Obj(head)));
                }
                let mut items = Vec::new();
                if let Ok(it) = Space::op(self.objspace, Op::Iter, consts) {
                    while let Ok(IterNext::Item(v)) = Space::next(self.objspace, &it) {
                        items.push(v);
                    }
                }
                let id = self
                    .objspace
                    .heap_mut()
                    .alloc(Object::Iterator(IterState::Seq { items, pos: 0 }));
                if let Some(o) = first_obj {
                    self.unroll_head.insert(o, id);
                }
                return Ok(Hlvalue::Const(Value::Obj(id)));
            }
            if op == Op::GetAttr && is_sys_module(self.objspace.heap(), first_obj) {
                // As in the reference: only a few attributes of sys are constants.
                let name = self
                    .objspace
                    .heap()
                    .str_value(consts[1])
                    .map(|s| s.to_vec());
                let known = name.is_some_and(|n| SYS_CONSTANTS.iter().any(|k| k.as_bytes() == n));
                if !known {
                    return self.record(op, args.to_vec());
                }
            }
            if op == Op::GetAttr && consts[0] == Value::None {
                // CPython's None has these attributes, so the reference's fold does not
                // raise (no flow-stage error); a method-wrapper cannot be a constant of
                // the graph, so the operation stays there, as it stays here: the annotator
                // judges it if its block survives (a loop's first pass, where a variable
                // is still the None it starts as, is a block the merge with the next pass
                // kills; otherwise it is a blocked block).
                let name = self.objspace.heap().str_value(consts[1]);
                if name.is_some_and(|n| NONE_TYPE_ATTRS.iter().any(|a| a.as_bytes() == n)) {
                    return self.record(op, args.to_vec());
                }
            }
            if op == Op::GetAttr
                && consts.len() == 2
                && matches!(consts[0], Value::Obj(m) if matches!(self.objspace.heap().get(m), Object::Module(_)))
                && self.absent_from_reference(consts[0], consts[1])
            {
                // a name the model defines (for its own use) that 0.2.1's module lacks: the
                // reference's flow space finds the getattr always raising
                let name = self
                    .objspace
                    .heap()
                    .str_value(consts[1])
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .unwrap_or_default();
                self.diagnostics.push(Diagnostic::new(
                    "RPY108",
                    self.span,
                    format!("`{name}` does not exist in the reference's rpython (0.2.1): reading it always raises AttributeError"),
                ));
            }
            if op.is_pure() && consts.iter().all(|&c| self.foldable(c)) {
                let heap_before = self.objspace.heap().len();
                if let Some(r) = self.constfold(op, consts) {
                    if let Ok(Hlvalue::Const(v @ Value::Obj(id))) = r {
                        let typed = self.objspace.heap().opaque(id).is_some();
                        if let (Object::Unknown { name, .. }, false) =
                            (self.objspace.heap().get(id), typed)
                        {
                            // A name a bundled model lacks: one warning here, and the
                            // value is unknown.
                            let msg = format!("the name `{name}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked");
                            // (a getattr of a module, or one that made a new unknown: a
                            // name a model's object lacks, as `llop.debug_fatalerror`)
                            let of_model = op == Op::GetAttr
                                && (matches!(consts[0], Value::Obj(m) if matches!(self.objspace.heap().get(m), Object::Module(_)))
                                    || id.0 as usize >= heap_before);
                            if of_model && self.absent_from_reference(consts[0], consts[1]) {
                                // (reported above)
                            } else if of_model {
                                let diag = match self.complete_model_surface(consts[0]) {
                                    // A model that lists all the reference translates
                                    // (`_rpy_complete_`, as `time`): the name is missing
                                    // from the real thing too, in translated code.
                                    Some(provided) => Diagnostic::new(
                                        "RPY210",
                                        self.span,
                                        format!("`{name}` is not supported by RPython in translated code (it provides {provided})"),
                                    ),
                                    None => Diagnostic::new("RPY007", self.span, msg),
                                };
                                self.diagnostics.push(diag);
                            }
                            return Ok(Hlvalue::Const(v));
                        }
                    }
                    return r;
                }
            }
        }
        self.record(op, args.to_vec())
    }

    fn call(&mut self, func: Hlvalue, args: CallArgs<Hlvalue>) -> OpResult<Hlvalue> {
        if args.starstar.is_some() {
            return Err(self.error(
                "RPY109",
                "dict unpacking in a call (`f(**d)`) is not RPython",
            ));
        }
        // As in the reference flow space: open() becomes rlib.rfile.create_file().
        let func = match self.builtin_id(func) {
            Some(BuiltinId::Open) => self.library_function("rpython.rlib.rfile", "create_file")?,
            Some(BuiltinId::OsFdopen) => {
                self.library_function("rpython.rlib.rfile", "create_fdopen_rfile")?
            }
            _ => func,
        };
        // A bundled model's function that the reference's flow space replaces by its
        // RPython version (os.path.join → rpath's two-argument join) names that version in
        // `_rpy_flow_redirect_`; import-time code keeps calling the CPython-like one.
        let func = match func {
            Hlvalue::Const(Value::Obj(id)) => match self.objspace.heap().get(id) {
                Object::Function(f) => f
                    .attrs
                    .get("_rpy_flow_redirect_")
                    .map_or(func, Hlvalue::Const),
                _ => func,
            },
            _ => func,
        };
        if let Some(id) = self.builtin_id(func) {
            use BuiltinId as B;
            let name = id.name();
            match id {
                B::ObjectmodelWeAreTranslated => return Ok(Hlvalue::Const(Value::Bool(true))),
                B::Getattr if args.positional.len() == 3 => {
                    return Err(
                        self.error("RPY109", "getattr() with three arguments is not supported")
                    )
                }
                B::Locals | B::Globals | B::Vars | B::Eval | B::Compile => {
                    return Err(self.error("RPY109", format!("{}() is not RPython", name)))
                }
                _ => {}
            }
            // With keyword arguments, as the reference's flow space: a `call_args` of the
            // built-in, which its annotator judges (below)
            if let Some(op) = id
                .flow_op(args.positional.len())
                .filter(|_| args.is_simple())
            {
                return self.op(op, &args.positional);
            }
        }
        if args.is_simple() {
            let mut all = vec![func];
            all.extend(args.positional);
            return self.record(Op::SimpleCall, all);
        }
        // The call shape constant: (number of positional args, keyword names, has *args).
        let names: Vec<Value> = args
            .keywords
            .iter()
            .map(|(n, _)| Space::name_const(self.objspace, n))
            .collect();
        let names = self.objspace.heap_mut().alloc(Object::Tuple(names));
        let shape = Value::Obj(self.objspace.heap_mut().alloc(Object::Tuple(vec![
            Value::Int(args.positional.len() as i64),
            Value::Obj(names),
            Value::Bool(args.star.is_some()),
        ])));
        let mut all = vec![func, Hlvalue::Const(shape)];
        all.extend(args.positional);
        all.extend(args.keywords.into_iter().map(|(_, v)| v));
        all.extend(args.star);
        self.record(Op::CallArgs, all)
    }

    fn branch(&mut self, cond: &Hlvalue) -> OpResult<Hlvalue, Branch> {
        let b = self.op(Op::Bool, &[*cond])?;
        match b {
            Hlvalue::Const(v) => match Space::branch(self.objspace, &v) {
                Ok(k) => Ok(k),
                Err(_) => Err(self.error("RPY108", "truth value of a constant cannot be computed")),
            },
            _ => {
                self.last_bool = Some(b);
                Ok(Branch::Unknown)
            }
        }
    }

    fn next(&mut self, iter: &Hlvalue) -> OpResult<Hlvalue, IterNext<Hlvalue>> {
        if let Hlvalue::Const(Value::Obj(id)) = *iter {
            if let Some((items, pos)) = self.objspace.heap().seq_iter_items(id) {
                if pos >= items.len() {
                    return Ok(IterNext::Done);
                }
                let next_iter = match self.unroll_next.get(&id) {
                    Some(&n) => n,
                    None => {
                        let n = self
                            .objspace
                            .heap_mut()
                            .alloc(Object::Iterator(IterState::Seq {
                                items: items.clone(),
                                pos: pos + 1,
                            }));
                        self.unroll_next.insert(id, n);
                        n
                    }
                };
                return Ok(IterNext::Unrolled {
                    item: Hlvalue::Const(items[pos]),
                    next_iter: Hlvalue::Const(Value::Obj(next_iter)),
                });
            }
        }
        let saved = self.snapshot.take();
        let item = self.record(Op::Next, vec![*iter]);
        let item = match item {
            Ok(i) => i,
            Err(e) => {
                self.snapshot = saved;
                return Err(e);
            }
        };
        self.snapshot = saved;
        Ok(IterNext::Unknown(item))
    }

    fn unpack(&mut self, seq: &Hlvalue, n: usize) -> OpResult<Hlvalue, Vec<Hlvalue>> {
        if let Hlvalue::Const(c) = *seq {
            if let Ok(items) = Space::unpack(self.objspace, &c, n) {
                return Ok(items.into_iter().map(Hlvalue::Const).collect());
            }
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(self.op(Op::GetItem, &[*seq, Hlvalue::Const(Value::Int(i as i64))])?);
        }
        Ok(out)
    }

    fn unpack_check(&mut self, seq: &Hlvalue, n: usize) -> OpResult<Hlvalue> {
        if let Hlvalue::Const(c) = *seq {
            if Space::unpack(self.objspace, &c, n).is_ok() {
                return Ok(Hlvalue::Const(Value::Bool(true)));
            }
        }
        // as the reference's `unpack_sequence`: `len(seq) == n`, switched on by the jump
        let len = self.op(Op::Len, &[*seq])?;
        self.op(Op::Eq, &[len, Hlvalue::Const(Value::Int(n as i64))])
    }

    fn unpack_mismatch(&mut self) -> Unwind<Hlvalue> {
        match self.builtin_class("ValueError") {
            Some(cls) => self.raise(Hlvalue::Const(Value::Obj(cls)), None),
            None => self.error("RPY109", "ValueError is not defined"),
        }
    }

    fn exc_guard_split(&mut self, cls: &Hlvalue) -> Option<(Hlvalue, Hlvalue)> {
        let Hlvalue::Const(Value::Obj(id)) = *cls else {
            return None;
        };
        let Object::Tuple(items) = self.objspace.heap().get(id) else {
            return None;
        };
        if items.len() < 2 {
            return None;
        }
        let (first, others) = (items[0], items[1..].to_vec());
        // one tuple of the others per guard, so that a block flowed again sees the same
        // constant
        let rest = match self.exc_guard_rest.get(&id) {
            Some(&r) => r,
            None => {
                let r = self.objspace.heap_mut().alloc(Object::Tuple(others));
                self.exc_guard_rest.insert(id, r);
                r
            }
        };
        Some((Hlvalue::Const(first), Hlvalue::Const(Value::Obj(rest))))
    }

    fn exc_match(&mut self, etype: &Hlvalue, cls: &Hlvalue) -> OpResult<Hlvalue> {
        let Hlvalue::Const(c) = *cls else {
            return Err(self.error("RPY109", "non-constant except guard"));
        };
        let classes: Vec<Value> = match c {
            Value::Obj(id) => match self.objspace.heap().get(id) {
                Object::Tuple(items) => items.clone(),
                _ => vec![c],
            },
            _ => vec![c],
        };
        for &k in &classes {
            if let Value::Obj(id) = k {
                if let Some(name) = self.objspace.heap().class(id).map(|c| c.name.clone()) {
                    if (&*name == "NotImplementedError" || &*name == "AssertionError")
                        && self
                            .objspace
                            .heap()
                            .class(id)
                            .is_some_and(|c| c.builtin.is_some())
                    {
                        return Err(self.error(
                            "RPY109",
                            format!("catching {} is not valid in RPython", name),
                        ));
                    }
                }
            }
        }
        let mut result = Hlvalue::Const(Value::Bool(false));
        for k in classes {
            let r = self.op(Op::IsSubtype, &[*etype, Hlvalue::Const(k)])?;
            match r {
                Hlvalue::Const(Value::Bool(true)) => return Ok(r),
                Hlvalue::Const(_) => {}
                _ => result = r,
            }
        }
        Ok(result)
    }

    fn raise(&mut self, exc: Hlvalue, arg: Option<Hlvalue>) -> Unwind<Hlvalue> {
        match exc {
            Hlvalue::Const(c @ Value::Obj(id)) if self.objspace.heap().class(id).is_some() => {
                self.raise_class(c, arg)
            }
            Hlvalue::Const(c @ Value::Obj(id))
                if matches!(self.objspace.heap().get(id), Object::Instance(_)) =>
            {
                let Object::Instance(inst) = self.objspace.heap().get(id) else {
                    unreachable!()
                };
                Unwind::Raise {
                    etype: Hlvalue::Const(Value::Obj(inst.class)),
                    evalue: Hlvalue::Const(c),
                }
            }
            Hlvalue::Var(_) => match self.op(Op::Type, &[exc]) {
                Ok(etype) => Unwind::Raise { etype, evalue: exc },
                Err(e) => e,
            },
            // As the reference's flow space: another constant is raised as a value whose
            // type is taken (an operation, not folded); its typer refuses that type
            Hlvalue::Const(_) => match self.record(Op::Type, vec![exc]) {
                Ok(etype) => Unwind::Raise { etype, evalue: exc },
                Err(e) => e,
            },
            _ => self.error("RPY109", "exceptions must be classes or instances"),
        }
    }

    fn unbound_local(&mut self, name: &str) -> Unwind<Hlvalue> {
        self.error(
            "RPY110",
            format!("local variable `{}` referenced before assignment", name),
        )
    }

    fn load_global(&mut self, globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue> {
        match Space::load_global(self.objspace, globals, name) {
            Ok(v @ Value::Obj(id))
                if matches!(self.objspace.heap().get(id), Object::Unknown { .. })
                    && self.objspace.heap().opaque(id).is_none() =>
            {
                // A builtin rpy-lsp does not model (none today): one warning at each use.
                let own = matches!(self.objspace.heap().get(globals), Object::Module(m) if m.dict.get(name).is_some());
                if !own {
                    let msg = format!("the builtin `{name}` is not modelled by rpy-lsp: what comes from it is unknown, and the code using it is not checked");
                    self.diagnostics
                        .push(Diagnostic::new("RPY007", self.span, msg));
                }
                Ok(Hlvalue::Const(v))
            }
            Ok(v) => Ok(Hlvalue::Const(v)),
            Err(_) => match self.star_model_name(globals) {
                // `from <bundled model> import *`: the real module may define it
                Some(model) => {
                    let what = format!("{model}.{name}");
                    let msg = format!("the name `{what}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked");
                    self.diagnostics
                        .push(Diagnostic::new("RPY007", self.span, msg));
                    let u = self.objspace.heap_mut().alloc(Object::Unknown {
                        name: Rc::from(what.as_str()),
                        instance_of: None,
                    });
                    Ok(Hlvalue::Const(Value::Obj(u)))
                }
                None => Err(self.error("RPY110", format!("global name `{}` is not defined", name))),
            },
        }
    }

    fn store_global(
        &mut self,
        _globals: ObjId,
        name: &Rc<str>,
        _v: Hlvalue,
    ) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY102", format!("attempting to modify global variable `{}`: module globals are constants after import", name)))
    }
    fn delete_global(&mut self, _globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("deleting global variable `{}` is not RPython", name),
        ))
    }
    fn load_name(&mut self, _ns: ObjId, globals: ObjId, name: &Rc<str>) -> OpResult<Hlvalue> {
        self.load_global(globals, name)
    }
    fn store_name(&mut self, _ns: ObjId, name: &Rc<str>, _v: Hlvalue) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("modifying globals (`{}`) is not RPython", name),
        ))
    }
    fn delete_name(&mut self, _ns: ObjId, name: &Rc<str>) -> OpResult<Hlvalue, ()> {
        Err(self.error(
            "RPY102",
            format!("modifying globals (`{}`) is not RPython", name),
        ))
    }
    fn load_locals(&mut self, _ns: ObjId) -> OpResult<Hlvalue> {
        Err(self.error("RPY109", "locals() is not RPython"))
    }
    fn cell_get(&mut self, cell: &Hlvalue, name: &Rc<str>) -> OpResult<Hlvalue> {
        if let Hlvalue::Const(c) = *cell {
            if let Ok(v) = Space::cell_get(self.objspace, &c, name) {
                return Ok(Hlvalue::Const(v));
            }
        }
        Err(self.error("RPY110", format!("undefined closure variable `{}`", name)))
    }
    fn cell_set(&mut self, _cell: &Hlvalue, _v: Hlvalue) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY101", "RPython functions cannot create closures"))
    }

    fn make_function(
        &mut self,
        code: Rc<CodeObject>,
        defaults: Vec<Hlvalue>,
        closure: Option<Hlvalue>,
        globals: ObjId,
    ) -> OpResult<Hlvalue> {
        if code.co_flags & crate::compiler::bytecode::flags::CLASS_BODY != 0 {
            // Stop before the body runs, so that it is not flowed as a function too.
            return Err(self.error("RPY106", "defining classes inside functions is not RPython"));
        }
        if closure.is_some() {
            return Err(self.error(
                "RPY101",
                format!(
                    "RPython functions cannot create closures (`{}`)",
                    code.co_name
                ),
            ));
        }
        let Some(defaults) = defaults
            .iter()
            .map(|d| d.constant())
            .collect::<Option<Vec<_>>>()
        else {
            return Err(self.error(
                "RPY106",
                format!(
                    "dynamically created function `{}` must have constant default values",
                    code.co_name
                ),
            ));
        };
        match Space::make_function(self.objspace, code, defaults, None, globals) {
            Ok(f) => Ok(Hlvalue::Const(f)),
            Err(_) => Err(self.error("RPY106", "cannot create this function at run time")),
        }
    }
    fn build_class(
        &mut self,
        _n: Hlvalue,
        _b: Hlvalue,
        _ns: Hlvalue,
        _g: ObjId,
    ) -> OpResult<Hlvalue> {
        Err(self.error("RPY106", "defining classes inside functions is not RPython"))
    }

    /// As in the reference flow space: `__exit__(value, value, None)`, since annotations
    /// cannot mix exception classes with None.
    fn with_exit_exception_args(&mut self, _etype: Hlvalue, evalue: Hlvalue) -> (Hlvalue, Hlvalue) {
        (evalue, evalue)
    }

    fn import_name(
        &mut self,
        name: &Rc<str>,
        fromlist: Hlvalue,
        level: Hlvalue,
        globals: ObjId,
    ) -> OpResult<Hlvalue> {
        let (Hlvalue::Const(f), Hlvalue::Const(l)) = (fromlist, level) else {
            return Err(self.error("RPY109", "import with non-constant arguments"));
        };
        match Space::import_name(self.objspace, name, f, l, globals) {
            Ok(m) => Ok(Hlvalue::Const(m)),
            Err(Unwind::Raise { etype, evalue }) => Err(Unwind::Raise {
                etype: Hlvalue::Const(etype),
                evalue: Hlvalue::Const(evalue),
            }),
            Err(_) => Err(self.error("RPY002", format!("cannot import `{}`", name))),
        }
    }
    fn import_from(&mut self, module: &Hlvalue, name: &Rc<str>) -> OpResult<Hlvalue> {
        let Hlvalue::Const(m) = *module else {
            return Err(self.error("RPY109", "import from a non-constant"));
        };
        match Space::import_from(self.objspace, &m, name) {
            Ok(v) => Ok(Hlvalue::Const(v)),
            Err(_) => Err(self.error("RPY002", format!("cannot import name `{}`", name))),
        }
    }
    fn import_star(&mut self, _m: Hlvalue, _ns: ObjId) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY109", "import * is not RPython"))
    }

    fn print_item(&mut self, dest: Option<Hlvalue>, v: Hlvalue) -> OpResult<Hlvalue, ()> {
        if dest.is_some() {
            return Err(self.error(
                "RPY104",
                "`print >>f` is not RPython: only printing to stdout is supported",
            ));
        }
        // As the reference: print becomes a call of an internal helper with the item, whose
        // str() of a constant is folded (`print 1j` prints the constant string "1j").
        // (Numbers and strings only: containers and instances stay values the annotator
        // and RTyper print, and a value rpy-lsp does not model has no text.)
        let v = match v {
            Hlvalue::Const(c) if self.is_scalar_const(c) => match self.constfold(Op::Str, &[c]) {
                Some(Ok(s)) => s,
                Some(Err(e)) => return Err(e),
                None => Hlvalue::Const(c),
            },
            v => v,
        };
        let helper = self.print_helper(BuiltinId::RpythonPrintItem);
        self.record(Op::SimpleCall, vec![Hlvalue::Const(helper), v])?;
        Ok(())
    }
    fn print_newline(&mut self, dest: Option<Hlvalue>) -> OpResult<Hlvalue, ()> {
        if dest.is_some() {
            return Err(self.error(
                "RPY104",
                "`print >>f` is not RPython: only printing to stdout is supported",
            ));
        }
        let helper = self.print_helper(BuiltinId::RpythonPrintNewline);
        self.record(Op::SimpleCall, vec![Hlvalue::Const(helper)])?;
        Ok(())
    }
    fn exec(&mut self, _args: Vec<Hlvalue>) -> OpResult<Hlvalue, ()> {
        Err(self.error("RPY103", "the exec statement is not RPython"))
    }
    fn yield_value(&mut self, v: Hlvalue, used: bool) -> OpResult<Hlvalue> {
        // The reference's flow space gives a yield expression no value at all: anything
        // but discarding it (`x = yield v`, what `send()` would pass in) fails.
        if used {
            return Err(self.error(
                "RPY109",
                "the value of a `yield` expression is not supported by RPython (generators have no send()): write `yield` as a statement",
            ));
        }
        self.record(Op::YieldValue, vec![v])?;
        Ok(Hlvalue::Const(Value::None))
    }
}
