//! Which user functions a path from the entry point can reach, judged on the flow graphs
//! alone: for reporting the flow stage's diagnostics when the annotator stopped at errors
//! (it may then not have reached code a path does reach).
//!
//! The flow stage builds a wider set (every method of every class a graph mentions, so that
//! the annotator finds them built); reporting its errors in a method nothing calls gave
//! eight errors for one real one. Here a method counts only once its name is read as an
//! attribute (`getattr`) by a reached graph, or when the language calls it implicitly
//! (special `__name__` methods, `next`); a function or bound method a reached graph
//! mentions as a constant counts (it may be called through a variable), and so do those
//! in the containers it mentions.

use crate::fasthash::{HashMap, HashSet};
use crate::flowspace::{FunctionGraph, Hlvalue};
use crate::interpreter::Op;
use crate::objspace::object::{Heap, ObjId, Object, Value};
use std::rc::Rc;

/// The functions of `graphs` a path from `entry` can reach (see the module's doc).
pub(super) fn reachable_functions(
    heap: &Heap,
    graphs: &[FunctionGraph],
    entry: ObjId,
) -> HashSet<ObjId> {
    let by_func: HashMap<ObjId, &FunctionGraph> =
        graphs.iter().filter_map(|g| Some((g.func?, g))).collect();
    let mut walk = Walk {
        heap,
        reached: HashSet::default(),
        queue: Vec::new(),
        names_read: HashSet::default(),
        pending: HashMap::default(),
        seen_consts: HashSet::default(),
        seen_instance_classes: HashSet::default(),
    };
    walk.reach(entry);
    while let Some(f) = walk.queue.pop() {
        let Some(g) = by_func.get(&f) else { continue };
        let mut consts = Vec::new();
        for b in g.iterblocks() {
            let block = g.block(b);
            for op in &block.operations {
                if op.opname == Op::GetAttr {
                    let name = op.args.get(1).and_then(|a| a.constant());
                    if let Some(name) = name.and_then(|n| heap.str_value(n)) {
                        walk.read_name(&String::from_utf8_lossy(name));
                    }
                }
                consts.extend(op.args.iter().filter_map(|a| a.constant()));
            }
            for &l in &block.exits {
                consts.extend(g.link(l).args.iter().filter_map(|a: &Hlvalue| a.constant()));
            }
        }
        for c in consts {
            walk.constant(c);
        }
    }
    walk.reached
}

struct Walk<'h> {
    heap: &'h Heap,
    reached: HashSet<ObjId>,
    queue: Vec<ObjId>,
    /// Attribute names read by the reached graphs.
    names_read: HashSet<Rc<str>>,
    /// Values of class dictionaries waiting for their name to be read.
    pending: HashMap<Rc<str>, Vec<Value>>,
    seen_consts: HashSet<ObjId>,
    /// Classes whose members were walked for a prebuilt instance (all but `__init__`).
    seen_instance_classes: HashSet<ObjId>,
}

impl Walk<'_> {
    fn reach(&mut self, f: ObjId) {
        if self.reached.insert(f) {
            self.queue.push(f);
        }
    }

    fn read_name(&mut self, name: &str) {
        if self.names_read.contains(name) {
            return;
        }
        self.names_read.insert(name.into());
        for v in self.pending.remove(name).unwrap_or_default() {
            self.constant(v);
        }
    }

    /// A member `name` of a class or instance: reached now if the language calls it
    /// implicitly or a reached graph read the name, else once one does.
    fn member(&mut self, name: &Rc<str>, v: Value, stack: &mut Vec<Value>) {
        if called_implicitly(name) || self.names_read.contains(name) {
            stack.push(v);
        } else {
            self.pending.entry(name.clone()).or_default().push(v);
        }
    }

    /// What the constant `v` makes reachable (iterative: import-time code can nest
    /// containers without bound).
    fn constant(&mut self, v: Value) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            let Value::Obj(id) = v else { continue };
            if !self.seen_consts.insert(id) {
                continue;
            }
            match self.heap.get(id) {
                Object::Function(_) => self.reach(id),
                Object::BoundMethod { func, .. }
                | Object::StaticMethod(func)
                | Object::ClassMethod(func) => stack.push(*func),
                Object::Class(c) => {
                    for &k in &c.mro {
                        let Some(kc) = self.heap.class(k) else {
                            continue;
                        };
                        for (name, v) in kc.dict.iter() {
                            self.member(name, v, &mut stack);
                        }
                    }
                }
                // A prebuilt instance: the methods of its class, except `__init__`, which
                // only a call of the class runs (RPyChip8's dispatchers are made at import
                // time by an `__init__` that is not RPython), and its own attributes.
                Object::Instance(inst) => {
                    if self.seen_instance_classes.insert(inst.class) {
                        if let Some(c) = self.heap.class(inst.class) {
                            for &k in &c.mro {
                                let Some(kc) = self.heap.class(k) else {
                                    continue;
                                };
                                for (name, v) in kc.dict.iter() {
                                    if &**name != "__init__" {
                                        self.member(name, v, &mut stack);
                                    }
                                }
                            }
                        }
                    }
                    for (name, v) in inst.dict.iter() {
                        self.member(name, v, &mut stack);
                    }
                }
                Object::Tuple(items) | Object::List(items) => stack.extend(items.iter()),
                Object::Dict(d) => stack.extend(d.entries.iter().map(|(_, v)| *v)),
                _ => {}
            }
        }
    }
}

/// Methods the language calls without their name being read (`__init__` by a call of the
/// class, `__getitem__` by indexing, `next` by a `for` loop…). Not `__new__`: a call of
/// the class in translated code never runs it (import-time code does, and its graph is
/// not the program's).
fn called_implicitly(name: &str) -> bool {
    (name.starts_with("__") && name.ends_with("__") && name != "__new__") || name == "next"
}
