//! What an RPython-level `__del__` may reach (the reference's
//! `check_graph_of_del_does_not_call_too_much`, run when an instance Repr of a class with
//! a `__del__` is set up). A finalizer runs at an arbitrary point of the program, from the
//! garbage collector, so it must do little: no function marked `_dont_reach_me_in_del_`
//! may be reachable from it through calls. The toolchain marks the GIL's `release` and
//! `acquire` (which the wrapper of every `rffi.llexternal` that releases the GIL calls:
//! the default unless `sandboxsafe`, or `releasegil=True`) and every function holding a
//! `jit_merge_point` or `can_enter_jit`; a program may mark its own. A function marked
//! `_cannot_really_call_random_things_` is not looked into. `@rgc.must_be_light_finalizer`
//! changes nothing here (its own check is a later stage's).
//!
//! The calls followed are the annotator's call table (every graph a call site may call),
//! as the reference follows its translator's call graph.

use super::{RTyper, TyperError};
use crate::annotator::model::{Position, SomeValue};
use crate::fasthash::{HashMap, HashSet};
use crate::interpreter::Op;
use crate::objspace::object::{Object, Value};
use crate::syntax::FileId;
use std::collections::VecDeque;

/// Why a graph may not be reached from a `__del__`.
enum Reason {
    /// the wrapper of a C function that releases the GIL (its C name)
    ReleasesGil(String),
    /// a built-in (its name) whose C function (the second) the reference calls through a
    /// GIL-releasing wrapper
    BuiltinReleasesGil(&'static str, &'static str),
    /// holds a `jit_merge_point` or `can_enter_jit`
    JitMarker,
    /// marked `_dont_reach_me_in_del_` by the program
    ByProgram,
}

impl RTyper<'_> {
    /// The first `__del__` (by class definition) that reaches a marked function: the
    /// reference's TyperError, at the call in the `__del__` that leads there.
    pub(super) fn check_del_graphs(&self) -> Result<(), TyperError> {
        let bk = &self.ann.bookkeeper;
        let mut dels: Vec<(u32, String)> = Vec::new();
        for i in 0..bk.classdefs.len() {
            let cd = crate::annotator::model::ClassDefId(i as u32);
            let Some(g) = self.method_graph(cd, "__del__") else {
                continue;
            };
            if dels.iter().all(|(d, _)| *d != g) {
                // the class that defines it (the graph is the same for its subclasses)
                let desc = bk.classdefs[i].desc;
                let owner = crate::annotator::classdef::ClassDesc::lookup(bk, desc, "__del__")
                    .and_then(|d| bk.class_desc(d))
                    .map_or_else(|| bk.classdefs[i].name.to_string(), |c| c.name.to_string());
                dels.push((g, owner));
            }
        }
        if dels.is_empty() {
            return Ok(());
        }
        // caller graph → (callee graph, call position), in a deterministic order
        let mut callees: HashMap<u32, Vec<(u32, Position)>> = HashMap::default();
        let mut positions: Vec<(&Position, &std::rc::Rc<[u32]>)> =
            self.ann.call_targets.iter().collect();
        positions.sort_by_key(|(p, _)| **p);
        for (pos, targets) in positions {
            for &t in targets.iter() {
                callees.entry(pos.graph).or_default().push((t, *pos));
            }
        }
        // bundled models are not the reference's code: their built-in calls are ours
        let bundled = self.bundled_files();
        for (g, owner) in &dels {
            self.check_one_del(*g, owner, &callees, &bundled)?;
        }
        Ok(())
    }

    /// Breadth-first over the calls from `del`: the first marked graph found is an error.
    fn check_one_del(
        &self,
        del: u32,
        owner: &str,
        callees: &HashMap<u32, Vec<(u32, Position)>>,
        bundled: &HashSet<FileId>,
    ) -> Result<(), TyperError> {
        let mut came_from: HashMap<u32, (u32, Position)> = HashMap::default();
        let mut queue = VecDeque::from([del]);
        while let Some(g) = queue.pop_front() {
            // a built-in whose C function releases the GIL in the reference (`os.write`),
            // called from the program's own code
            // (not the stand-in body of an `llexternal`'s C function: C is what runs)
            let own = !bundled.contains(&self.ann.graphs[g as usize].span.file)
                && !self.is_c_function_standin(g);
            if let Some((name, c, pos)) = own.then(|| self.gil_releasing_builtin_call(g)).flatten()
            {
                let why = Reason::BuiltinReleasesGil(name, c);
                return Err(self.del_error(del, owner, g, why, &came_from, Some(pos)));
            }
            for &(callee, pos) in callees.get(&g).into_iter().flatten() {
                if callee == del || came_from.contains_key(&callee) {
                    continue;
                }
                came_from.insert(callee, (g, pos));
                if let Some(why) = self.del_marked(callee) {
                    return Err(self.del_error(del, owner, callee, why, &came_from, None));
                }
                if !self.func_attr_true(callee, "_cannot_really_call_random_things_") {
                    queue.push_back(callee);
                }
            }
        }
        Ok(())
    }

    /// The first call in graph `g` of a built-in that the reference implements with a
    /// GIL-releasing `llexternal`: its name, its C function, and where it is.
    fn gil_releasing_builtin_call(&self, g: u32) -> Option<(&'static str, &'static str, Position)> {
        let graph = &self.ann.graphs[g as usize];
        for (bi, block) in graph.blocks.iter().enumerate() {
            for (oi, op) in block.operations.iter().enumerate() {
                if op.opname != Op::SimpleCall || op.args.is_empty() {
                    continue;
                }
                if let SomeValue::Builtin { id, .. } = self.annotation(g, op.args[0]) {
                    if let Some(c) = id.releases_gil() {
                        let pos = Position {
                            graph: g,
                            block: bi as u32,
                            op: oi as u32,
                        };
                        return Some((id.name(), c, pos));
                    }
                }
            }
        }
        None
    }

    /// Whether `g` is the graph of the `_c_<name>` function the bundled `rffi.llexternal`
    /// generates for a C function (its `_rpy_c_function` attribute): its body only
    /// gives the annotator a value, and is never translated.
    fn is_c_function_standin(&self, g: u32) -> bool {
        self.ann.graphs[g as usize].func.is_some_and(|func| {
            matches!(self.objheap.get(func), Object::Function(f) if f.attrs.get("_rpy_c_function").is_some())
        })
    }

    fn del_marked(&self, g: u32) -> Option<Reason> {
        if self.holds_jit_marker(g) {
            return Some(Reason::JitMarker);
        }
        if !self.func_attr_true(g, "_dont_reach_me_in_del_") {
            return None;
        }
        let func = self.ann.graphs[g as usize].func?;
        let Object::Function(f) = self.objheap.get(func) else {
            return Some(Reason::ByProgram);
        };
        Some(
            match f
                .attrs
                .get("_rpy_releases_gil_")
                .and_then(|v| self.objheap.str_value(v))
            {
                Some(name) => Reason::ReleasesGil(String::from_utf8_lossy(name).into_owned()),
                None => Reason::ByProgram,
            },
        )
    }

    /// Whether a graph of the function `g` was built from holds a `jit_merge_point` or
    /// `can_enter_jit` (the reference marks the function, so every graph of it).
    fn holds_jit_marker(&self, g: u32) -> bool {
        let marked = &self.ann.bookkeeper.jit_marker_graphs;
        if marked.contains(&g) {
            return true;
        }
        self.ann.graphs[g as usize].func.is_some_and(|func| {
            self.ann
                .graph_of_func
                .get(&func)
                .is_some_and(|gs| gs.iter().any(|&o| marked.contains(&(o as u32))))
        })
    }

    /// Whether the function graph `g` was built from has attribute `name` set to a true
    /// value (the reference's `getattr(func, name, False)`).
    fn func_attr_true(&self, g: u32, name: &str) -> bool {
        let Some(func) = self.ann.graphs[g as usize].func else {
            return false;
        };
        match self.objheap.get(func) {
            Object::Function(f) => matches!(
                f.attrs.get(name),
                Some(Value::Bool(true)) | Some(Value::Int(1..))
            ),
            _ => false,
        }
    }

    fn del_error(
        &self,
        del: u32,
        owner: &str,
        found: u32,
        why: Reason,
        came_from: &HashMap<u32, (u32, Position)>,
        // the built-in call in `found` that is the marked thing, if it is one
        builtin_call: Option<Position>,
    ) -> TyperError {
        let graphs = &self.ann.graphs;
        // the chain of calls, from the __del__ to the marked graph
        let mut chain = vec![found];
        let mut first_call = builtin_call;
        let mut g = found;
        while let Some(&(caller, pos)) = came_from.get(&g) {
            chain.push(caller);
            first_call = Some(pos);
            if caller == del {
                break;
            }
            g = caller;
        }
        chain.reverse();
        let names: Vec<String> = chain
            .iter()
            .map(|&g| match g == del {
                true => format!("{owner}.__del__"),
                false => graphs[g as usize].name.to_string(),
            })
            .collect();
        let what = match why {
            Reason::ReleasesGil(c) => format!(
                "the C function `{c}`, declared with rffi.llexternal, whose wrapper releases the GIL around the call (declare it with releasegil=False for a __del__)"
            ),
            Reason::BuiltinReleasesGil(name, c) => format!(
                "`{name}`, whose C function `{c}` the RPython toolchain calls through a wrapper that releases the GIL"
            ),
            Reason::JitMarker => format!(
                "`{}`, which holds a jit_merge_point or can_enter_jit",
                names.last().map(String::as_str).unwrap_or("?")
            ),
            Reason::ByProgram => format!(
                "`{}`, marked _dont_reach_me_in_del_",
                names.last().map(String::as_str).unwrap_or("?")
            ),
        };
        let span = first_call
            .and_then(|p| {
                graphs[p.graph as usize]
                    .blocks
                    .get(p.block as usize)
                    .and_then(|b| b.operations.get(p.op as usize))
                    .map(|op| op.span)
            })
            .unwrap_or(graphs[del as usize].span);
        TyperError::rejected(
            "RPY223",
            format!(
                "the RPython-level __del__() of `{owner}` reaches {what}: a finalizer must not do that much (calls: {})",
                names.join(" -> ")
            ),
        )
        .at(span)
    }
}
