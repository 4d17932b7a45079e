//! Flow graphs kept from one analysis to the next, for a long-lived thread that analyses the
//! same program again and again (the language server's engine thread). Takes the heap a
//! target's import left and the graphs its flow stage built; gives the next analysis of the
//! same target the graphs it may use again instead of flowing their functions.
//!
//! A flow graph is a function of its code object and of the import-time heap it reads
//! (globals, class and module attributes, closures, defaults). The flow stage reads the heap
//! directly, so what a graph read is not recorded; instead the whole heap is compared. Import
//! is deterministic, so an edit inside one module's function bodies leaves every object at the
//! same id, and the objects that differ are that module's functions (new code objects: their
//! spans moved) and classes (spans). Then:
//! - a graph whose function's code object is the same one (`compiler::cache` gives the same
//!   code object for an unchanged file) and that mentions no changed object is the graph
//!   flowing would build again;
//! - any other difference (a constant, a new function, a different number of objects) may
//!   change what any graph folded: nothing is reused.
//!
//! Only graphs whose flowing left no trace elsewhere are kept: none that added to the space's
//! diagnostics or allocated objects other than `str` constants. Those (names and literals,
//! shared: the first graph that needs one creates it) are found or made again in the new
//! heap and the reused graph is pointed at them. Graphs with diagnostics are not reused when
//! a class changed, since a message may point at it.
//!
//! The graphs themselves are not copied: the store notes where each kept graph is in the
//! program's `graphs`, and the next analysis moves it out of that program (the previous
//! analysis, which the language server drops once the next one is done), when that program
//! is the one the store's entry was made by (`Session::id`).
//!
//! Off unless the thread enables it, as `compiler::cache`; targets not analysed in the
//! previous generation are forgotten when the next one starts.

use crate::diagnostics::Diagnostic;
use crate::fasthash::HashMap;
use crate::flowspace::{ExitCase, ExitSwitch};
use crate::flowspace::{FunctionGraph, Hlvalue};
use crate::generations::Generations;
use crate::objspace::object::{Heap, ObjId, Object, Value};
use crate::objspace::ObjSpace;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A flow graph with the flow stage's diagnostics of it.
pub type Flowed = (FunctionGraph, Vec<Diagnostic>);

/// A graph kept for the next analysis: its index in the program's graphs, its diagnostics,
/// and the `str` constants it mentions that flowing created: their id in the analysis that
/// kept it, their bytes, and whether they were interned as names.
struct Kept {
    index: usize,
    diags: Vec<Diagnostic>,
    strings: Vec<(ObjId, Rc<[u8]>, bool)>,
}

struct Entry {
    /// The session that made it (the program holding the graphs says it is its own).
    id: u64,
    /// How many objects the heap had before flowing.
    import_len: usize,
    graphs: HashMap<ObjId, Kept>,
}

/// The last analysis of each target.
type Store = Generations<PathBuf, Entry>;

thread_local! {
    static STORE: RefCell<Option<Store>> = const { RefCell::new(None) };
    static NEXT_ID: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Turns the cache on for the current thread.
pub fn enable() {
    STORE.with(|s| {
        s.borrow_mut().get_or_insert_with(Store::default);
    });
}

/// Starts a new analysis: forgets the targets the previous one did not analyse.
pub fn new_generation() {
    STORE.with(|s| {
        if let Some(store) = s.borrow_mut().as_mut() {
            store.new_generation();
        }
    });
}

/// What one analysis of a target takes from the previous one and gives to the next.
pub struct Session {
    target: PathBuf,
    /// This session's id, for the program that will hold its graphs.
    pub id: u64,
    /// How many objects the heap had before flowing.
    import_len: usize,
    /// Graphs of the previous analysis that may still be right, by function, and what
    /// changed since (`None`: nothing is reusable).
    reusable: HashMap<ObjId, Kept>,
    changes: Option<Changes>,
    /// Graphs of this analysis that the next one may reuse.
    kept: HashMap<ObjId, Kept>,
    pub reused: usize,
}

/// The objects of the import-time heap that moved since the previous analysis.
struct Changes {
    /// By object id (objects of the import-time heap only): whether it moved. A table, not a
    /// set: every constant of every graph taken is looked up.
    moved: Vec<bool>,
    class_moved: bool,
}

impl Session {
    /// Starts the flow stage of `target` whose import left `heap`; `previous` is the id of
    /// the session whose program the graphs are taken from, with that program's heap. `None`
    /// when the thread keeps nothing.
    ///
    /// The previous heap is compared as it is now: when none of the objects it had before
    /// flowing was handed out mutable since (`Heap::touched`: flowing, annotating and
    /// queries only added objects), they are the heap its import left, and no copy of that
    /// heap is needed. `heap` is watched from here on for the next analysis.
    pub fn start(
        target: &Path,
        heap: &mut Heap,
        previous: Option<(u64, &Heap)>,
    ) -> Option<Session> {
        STORE.with(|s| {
            let mut s = s.borrow_mut();
            let store = s.as_mut()?;
            let import_len = heap.len();
            heap.watch();
            let (reusable, changes) = match (store.remove(&target.to_path_buf()), previous) {
                (Some(old), Some((id, old_heap)))
                    if old.id == id && !old.graphs.is_empty() && !old_heap.touched() =>
                {
                    match changes(old_heap, old.import_len, heap) {
                        Some(c) => (old.graphs, Some(c)),
                        None => (HashMap::default(), None),
                    }
                }
                _ => (HashMap::default(), None),
            };
            let id = NEXT_ID.with(|n| {
                n.set(n.get() + 1);
                n.get()
            });
            Some(Session {
                target: target.to_path_buf(),
                id,
                import_len,
                reusable,
                changes,
                kept: HashMap::default(),
                reused: 0,
            })
        })
    }

    /// The graph of `func` from the previous analysis, moved out of `previous` (that
    /// analysis's graphs), when it is still right; the `str` constants it mentions are
    /// found or made in `space`.
    pub fn take(
        &mut self,
        func: ObjId,
        space: &mut ObjSpace,
        previous: &mut [FunctionGraph],
    ) -> Option<Flowed> {
        let Kept {
            index,
            diags,
            strings,
        } = self.reusable.remove(&func)?;
        let changes = self.changes.as_ref()?;
        if changes.is_moved(func) || (changes.class_moved && !diags.is_empty()) {
            return None;
        }
        let slot = previous.get_mut(index).filter(|g| g.func == Some(func))?;
        let mut mentions_moved = false;
        for_each_constant(slot, &mut |v| {
            if let Value::Obj(id) = v {
                mentions_moved |= changes.is_moved(*id);
            }
        });
        if mentions_moved {
            return None;
        }
        let placeholder = FunctionGraph::new(slot.name.clone(), None, slot.span, &[]);
        let mut graph = std::mem::replace(slot, placeholder);
        // The strings are usually made again at the same ids (the same graphs taken in the
        // same order): then the graph needs no rewriting.
        let mut map: HashMap<ObjId, Value> = HashMap::default();
        for (old, bytes, interned) in strings {
            let new = match std::str::from_utf8(&bytes) {
                Ok(name) if interned => space.intern(name),
                _ => space.str_const(&bytes),
            };
            if new != Value::Obj(old) {
                map.insert(old, new);
            }
        }
        if !map.is_empty() {
            for_each_constant(&mut graph, &mut |v| {
                if let Value::Obj(id) = v {
                    if let Some(&new) = map.get(id) {
                        *v = new;
                    }
                }
            });
        }
        self.reused += 1;
        Some((graph, diags))
    }

    /// Keeps a graph for the next analysis, which will find it at `index` in this
    /// program's graphs; `clean` says its flowing changed nothing else than making `str`
    /// constants.
    pub fn keep(
        &mut self,
        func: ObjId,
        index: usize,
        graph: &mut FunctionGraph,
        diags: &[Diagnostic],
        space: &ObjSpace,
        clean: bool,
    ) {
        if !clean {
            return;
        }
        let import_len = self.import_len as u32;
        let mut strings: Vec<(ObjId, Rc<[u8]>, bool)> = Vec::new();
        let mut other = false;
        for_each_constant(graph, &mut |v| match v {
            Value::Obj(id) if id.0 >= import_len => match space.heap.get(*id) {
                Object::Str(bytes) => {
                    if !strings.iter().any(|(s, _, _)| s == id) {
                        strings.push((*id, bytes.clone(), space.is_interned(*id)));
                    }
                }
                _ => other = true,
            },
            _ => {}
        });
        if !other {
            let kept = Kept {
                index,
                diags: diags.to_vec(),
                strings,
            };
            self.kept.insert(func, kept);
        }
    }

    /// Hands what this analysis kept to the next one.
    pub fn finish(self) {
        STORE.with(|s| {
            if let Some(store) = s.borrow_mut().as_mut() {
                let entry = Entry {
                    id: self.id,
                    import_len: self.import_len,
                    graphs: self.kept,
                };
                store.insert(self.target, entry);
            }
        });
    }
}

impl Changes {
    fn is_moved(&self, id: ObjId) -> bool {
        self.moved.get(id.0 as usize).copied().unwrap_or(false)
    }
}

/// How an object of the new heap compares with the object at the same id in the old one.
#[derive(PartialEq)]
enum Change {
    Same,
    /// A function with another code object, a class whose spans moved: graphs of other
    /// functions are right unless they mention it.
    Moved,
    Different,
}

fn compare(new: &Object, old: &Object) -> Change {
    use Object as O;
    let same = |b: bool| if b { Change::Same } else { Change::Different };
    match (new, old) {
        (O::Function(a), O::Function(b)) => {
            if a.name != b.name
                || a.globals != b.globals
                || a.defaults != b.defaults
                || a.closure != b.closure
                || a.attrs != b.attrs
            {
                Change::Different
            } else if Rc::ptr_eq(&a.code, &b.code) {
                Change::Same
            } else {
                Change::Moved
            }
        }
        (O::Class(a), O::Class(b)) => {
            if a == b {
                Change::Same
            } else if a.name == b.name
                && a.bases == b.bases
                && a.mro == b.mro
                && a.dict == b.dict
                && a.module == b.module
                && a.builtin == b.builtin
                && a.constructor == b.constructor
                && a.attr_spans.len() == b.attr_spans.len()
                && a.attr_spans
                    .iter()
                    .zip(&b.attr_spans)
                    .all(|(x, y)| x.0 == y.0)
            {
                Change::Moved
            } else {
                Change::Different
            }
        }
        (O::Code(a), O::Code(b)) => {
            if Rc::ptr_eq(a, b) {
                Change::Same
            } else {
                Change::Moved
            }
        }
        (O::Str(a), O::Str(b)) => same(a == b),
        (O::Unicode(a), O::Unicode(b)) => same(a == b),
        (O::Long(a), O::Long(b)) => same(a == b),
        (
            O::RInt { kind: k, value: v },
            O::RInt {
                kind: k2,
                value: v2,
            },
        ) => same(k == k2 && v == v2),
        (O::Tuple(a), O::Tuple(b)) | (O::List(a), O::List(b)) => same(a == b),
        (O::Dict(a), O::Dict(b)) | (O::Set(a), O::Set(b)) => same(a == b),
        (
            O::Builtin {
                id: a,
                bound_self: x,
            },
            O::Builtin {
                id: b,
                bound_self: y,
            },
        ) => same(a == b && x == y),
        (O::Instance(a), O::Instance(b)) => same(a == b),
        (O::Module(a), O::Module(b)) => same(a == b),
        (
            O::BoundMethod {
                func: a,
                self_value: x,
            },
            O::BoundMethod {
                func: b,
                self_value: y,
            },
        ) => same(a == b && x == y),
        (O::StaticMethod(a), O::StaticMethod(b)) | (O::ClassMethod(a), O::ClassMethod(b)) => {
            same(a == b)
        }
        (O::Property { fget: a, fset: x }, O::Property { fget: b, fset: y }) => {
            same(a == b && x == y)
        }
        (O::Cell(a), O::Cell(b)) => same(a == b),
        (O::Iterator(a), O::Iterator(b)) => same(a == b),
        (O::Slice(a, b, c), O::Slice(x, y, z)) => same(a == x && b == y && c == z),
        (O::Ellipsis, O::Ellipsis) | (O::NotImplemented, O::NotImplemented) => Change::Same,
        (
            O::Unknown {
                name: a,
                instance_of: x,
            },
            O::Unknown {
                name: b,
                instance_of: y,
            },
        ) => same(a == b && x == y),
        _ => Change::Different,
    }
}

/// What moved between the import-time heaps `old` (its first `old_len` objects) and `heap`,
/// when nothing else changed (see the module doc); `None` when graphs cannot be reused.
fn changes(old: &Heap, old_len: usize, heap: &Heap) -> Option<Changes> {
    if old_len != heap.len() || old.len() < old_len {
        return None;
    }
    let mut moved = vec![false; heap.len()];
    let mut class_moved = false;
    for (i, slot) in moved.iter_mut().enumerate() {
        let id = ObjId(i as u32);
        let (new, was) = (heap.get(id), old.get(id));
        match compare(new, was) {
            Change::Same => {}
            Change::Moved => {
                class_moved |= matches!(new, Object::Class(_));
                *slot = true;
            }
            Change::Different => return None,
        }
    }
    Some(Changes { moved, class_moved })
}

/// Calls `f` on every constant of a graph (operation and link arguments, switches, exit
/// cases, the values of local variable references).
fn for_each_constant(g: &mut FunctionGraph, f: &mut impl FnMut(&mut Value)) {
    fn on(h: &mut Hlvalue, f: &mut impl FnMut(&mut Value)) {
        if let Hlvalue::Const(v) = h {
            f(v)
        }
    }
    for r in &mut g.side.local_refs {
        on(&mut r.value, f);
    }
    for b in &mut g.blocks {
        for op in &mut b.operations {
            op.args.iter_mut().for_each(|h| on(h, f));
        }
        if let ExitSwitch::Value(h) = &mut b.exitswitch {
            on(h, f);
        }
    }
    for l in &mut g.links {
        l.args.iter_mut().for_each(|h| on(h, f));
        match &mut l.exitcase {
            ExitCase::Value(v) => f(v),
            ExitCase::Exception(id) => {
                let mut v = Value::Obj(*id);
                f(&mut v);
                if let Value::Obj(new) = v {
                    *id = new;
                }
            }
            _ => {}
        }
    }
}
