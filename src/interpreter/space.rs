//! The object space interface: everything the frame interpreter does to values goes through
//! it (seed 003: "it delegates to the object space"). The concrete space (`objspace`) computes
//! results at import time; the flow space (`flowspace`) records operations on Variables and
//! Constants into flow graphs.

use super::frame::{Frame, FrameState};
use super::operation::Op;
use crate::compiler::{CodeObject, Const};
use crate::diagnostics::Diagnostic;
use crate::objspace::object::{ObjId, Value};
use crate::syntax::Span;
use std::rc::Rc;

/// Why the interpreter stopped executing a frame other than by returning.
#[derive(Clone, Debug)]
pub enum Unwind<V> {
    /// An application-level exception: its class and its instance.
    Raise { etype: V, evalue: V },
    /// Control flow splits on a value the space cannot decide (flow space only): the space's
    /// driver continues from each state.
    Fork(Box<Fork<V>>),
    /// The space ended the current piece of work itself (flow space: the block was closed at a
    /// join point or after an operation that can raise into a handler).
    Stop,
    /// An error to report at the current position: an unsupported construct or an operation
    /// that is not RPython. The frame cannot go on.
    Error(Box<Diagnostic>),
}

/// The states following an undecidable branch.
#[derive(Clone, Debug)]
pub enum Fork<V> {
    /// A conditional jump on `cond`: `if_true` when it is true.
    Branch {
        cond: V,
        if_true: FrameState<V>,
        if_false: FrameState<V>,
    },
    /// `for` loop step: the `next` operation was just recorded; `item` continues the loop,
    /// `done` is the state after `StopIteration`.
    Iter {
        item: FrameState<V>,
        done: FrameState<V>,
    },
}

pub type OpResult<V, T = V> = Result<T, Unwind<V>>;

/// Outcome of asking whether a value is true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    Known(bool),
    /// Both outcomes are possible.
    Unknown,
}

/// Outcome of one iteration step.
#[derive(Clone, Debug)]
pub enum IterNext<V> {
    Item(V),
    Done,
    /// Both are possible; the value is the item on the non-exhausted path.
    Unknown(V),
    /// What the iteration gives is not known (the object space at import time, on an
    /// unknown iterable): no iteration runs, and what the loop's body would have changed
    /// becomes unknown (`skipped_loop`).
    Skipped,
    /// An unrolled loop step (flow space, `unrolling_iterable`): the item, and the iterator
    /// that replaces the current one on the stack.
    Unrolled {
        item: V,
        next_iter: V,
    },
}

/// Arguments of a call, in the order the source gives them.
#[derive(Clone, Debug, Default)]
pub struct CallArgs<V> {
    pub positional: Vec<V>,
    pub keywords: Vec<(Rc<str>, V)>,
    pub star: Option<V>,
    pub starstar: Option<V>,
}

impl<V> CallArgs<V> {
    pub fn positional(args: Vec<V>) -> CallArgs<V> {
        CallArgs {
            positional: args,
            keywords: Vec::new(),
            star: None,
            starstar: None,
        }
    }
    pub fn is_simple(&self) -> bool {
        self.keywords.is_empty() && self.star.is_none() && self.starstar.is_none()
    }
}

/// An object space. `Value` is what lives on the value stack and in locals.
pub trait Space: Sized {
    type Value: Clone + std::fmt::Debug;

    /// Source span of the instruction about to run (for operations and diagnostics).
    fn set_span(&mut self, span: Span);
    /// Called before each instruction; the flow space ends blocks at join points here.
    fn before_instr(&mut self, _frame: &Frame<Self::Value>) -> OpResult<Self::Value, ()> {
        Ok(())
    }
    /// Called after each instruction that did not unwind.
    fn after_instr(&mut self, _frame: &Frame<Self::Value>) -> OpResult<Self::Value, ()> {
        Ok(())
    }

    fn constant(&mut self, c: &Const) -> Self::Value;
    /// A concrete value as a space value (a Constant in the flow space).
    fn wrap(&mut self, v: Value) -> Self::Value;
    /// An attribute or variable name as a `str` value (may be interned).
    fn name_const(&mut self, name: &Rc<str>) -> Self::Value;
    /// The text of a constant `str` value (keyword names of calls).
    fn const_str(&self, v: &Self::Value) -> Option<Rc<str>>;

    fn op(&mut self, op: Op, args: &[Self::Value]) -> OpResult<Self::Value>;
    /// `BUILD_MAP n`'s size hint for the dict `d` just made (CPython presizes a display
    /// of more than five items, which decides its iteration order).
    fn presize_dict(&mut self, _d: &Self::Value, _n: usize) {}
    fn call(&mut self, func: Self::Value, args: CallArgs<Self::Value>) -> OpResult<Self::Value>;
    fn branch(&mut self, cond: &Self::Value) -> OpResult<Self::Value, Branch>;
    /// The branch of `assert cond` (true: the assertion holds).
    fn assert_branch(&mut self, cond: &Self::Value) -> OpResult<Self::Value, Branch> {
        self.branch(cond)
    }
    fn next(&mut self, iter: &Self::Value) -> OpResult<Self::Value, IterNext<Self::Value>>;
    /// After `next` gave `Skipped` on `iter`: the value that replaces a name the loop's
    /// body stores (`in_place` false) or a container it changes in place (`in_place`
    /// true: a list, dict or set a comprehension fills, or a name whose `append`/item
    /// store the body calls), given its value `old`; `None` keeps it.
    fn after_skipped_loop(
        &mut self,
        _iter: &Self::Value,
        _old: Option<&Self::Value>,
        _in_place: bool,
    ) -> Option<Self::Value> {
        None
    }
    /// After `next` gave `Skipped`, when the loop's body stores items into the namespace
    /// of the module `globals` (`globals()[k] = v`): any name may have been bound there.
    fn after_skipped_namespace_store(&mut self, _globals: ObjId) {}
    fn unpack(&mut self, seq: &Self::Value, n: usize) -> OpResult<Self::Value, Vec<Self::Value>>;
    /// `UnpackCheck`: whether `seq` has `n` items, as a bool value. True by default: a
    /// space that runs the code (Python) lets `unpack` raise on a wrong length itself.
    fn unpack_check(&mut self, _seq: &Self::Value, _n: usize) -> OpResult<Self::Value> {
        Ok(self.wrap(Value::Bool(true)))
    }
    /// `UnpackMismatch`: the `ValueError` of a sequence whose length was not the count of
    /// the names it is unpacked into.
    fn unpack_mismatch(&mut self) -> Unwind<Self::Value>;
    /// `except` matching: is the exception class `etype` a subclass of `cls` (a class or a
    /// tuple of classes)? Returns a bool value.
    fn exc_match(&mut self, etype: &Self::Value, cls: &Self::Value) -> OpResult<Self::Value>;
    /// Splits an `except` guard that is a tuple of two or more classes into its first class
    /// and the tuple of the others, for a space that tests them one at a time and forks on
    /// each test (the flow space, as the reference's `exception_match` does); `None` when
    /// `exc_match` takes the whole guard at once.
    fn exc_guard_split(&mut self, _cls: &Self::Value) -> Option<(Self::Value, Self::Value)> {
        None
    }
    /// `raise exc` / `raise exc, arg`: normalizes to class and instance.
    fn raise(&mut self, exc: Self::Value, arg: Option<Self::Value>) -> Unwind<Self::Value>;
    /// Reading a local that has no value.
    fn unbound_local(&mut self, name: &str) -> Unwind<Self::Value>;

    fn load_global(&mut self, globals: ObjId, name: &Rc<str>) -> OpResult<Self::Value>;
    fn store_global(
        &mut self,
        globals: ObjId,
        name: &Rc<str>,
        v: Self::Value,
    ) -> OpResult<Self::Value, ()>;
    fn delete_global(&mut self, globals: ObjId, name: &Rc<str>) -> OpResult<Self::Value, ()>;
    /// Name lookups of module and class bodies (`namespace` is a module or a dict).
    fn load_name(
        &mut self,
        namespace: ObjId,
        globals: ObjId,
        name: &Rc<str>,
    ) -> OpResult<Self::Value>;
    fn store_name(
        &mut self,
        namespace: ObjId,
        name: &Rc<str>,
        v: Self::Value,
    ) -> OpResult<Self::Value, ()>;
    fn delete_name(&mut self, namespace: ObjId, name: &Rc<str>) -> OpResult<Self::Value, ()>;
    fn load_locals(&mut self, namespace: ObjId) -> OpResult<Self::Value>;

    fn cell_get(&mut self, cell: &Self::Value, name: &Rc<str>) -> OpResult<Self::Value>;
    fn cell_set(&mut self, cell: &Self::Value, v: Self::Value) -> OpResult<Self::Value, ()>;

    fn make_function(
        &mut self,
        code: Rc<CodeObject>,
        defaults: Vec<Self::Value>,
        closure: Option<Self::Value>,
        globals: ObjId,
    ) -> OpResult<Self::Value>;
    fn build_class(
        &mut self,
        name: Self::Value,
        bases: Self::Value,
        namespace: Self::Value,
        globals: ObjId,
    ) -> OpResult<Self::Value>;

    fn import_name(
        &mut self,
        name: &Rc<str>,
        fromlist: Self::Value,
        level: Self::Value,
        globals: ObjId,
    ) -> OpResult<Self::Value>;
    fn import_from(&mut self, module: &Self::Value, name: &Rc<str>) -> OpResult<Self::Value>;
    fn import_star(&mut self, module: Self::Value, namespace: ObjId) -> OpResult<Self::Value, ()>;

    /// The first two arguments of `__exit__` when a `with` body raised: the exception type
    /// and value (Python).
    fn with_exit_exception_args(
        &mut self,
        etype: Self::Value,
        evalue: Self::Value,
    ) -> (Self::Value, Self::Value) {
        (etype, evalue)
    }

    fn print_item(
        &mut self,
        dest: Option<Self::Value>,
        v: Self::Value,
    ) -> OpResult<Self::Value, ()>;
    fn print_newline(&mut self, dest: Option<Self::Value>) -> OpResult<Self::Value, ()>;
    fn exec(&mut self, args: Vec<Self::Value>) -> OpResult<Self::Value, ()>;
    /// A bare `exec code` in a function: Python 2 runs it with the module `globals` and
    /// a local namespace holding the function's bound `locals` (the frame's `namespace`
    /// dict from an earlier exec, if any); gives back what that namespace holds after the
    /// run, and the namespace itself, for the frame to take its locals from and to read the
    /// other names the code bound (`LoadName`).
    #[allow(clippy::type_complexity)]
    fn exec_in_function(
        &mut self,
        code: Self::Value,
        _globals: crate::objspace::object::ObjId,
        _namespace: Option<crate::objspace::object::ObjId>,
        _locals: Vec<(std::rc::Rc<str>, Self::Value)>,
    ) -> OpResult<Self::Value, ExecOutcome<Self::Value>> {
        self.exec(vec![code]).map(|_| (Vec::new(), None))
    }
    /// Whether `v` is the built-in `eval`, whose `eval(text)` reads the caller's variables:
    /// the frame calls [`Space::eval_in_frame`] for it.
    fn is_builtin_eval(&self, _v: &Self::Value) -> bool {
        false
    }
    /// Whether `v` is the builtin `locals` (import-time code reads a function's variables
    /// through it).
    fn is_builtin_locals(&self, _v: &Self::Value) -> bool {
        false
    }
    /// `eval(text)` in a frame: the expression sees the module `globals`, the frame's
    /// `namespace` (a module or class body) and its bound `locals` (a function).
    fn eval_in_frame(
        &mut self,
        text: Self::Value,
        _globals: crate::objspace::object::ObjId,
        _namespace: Option<crate::objspace::object::ObjId>,
        _locals: Vec<(std::rc::Rc<str>, Self::Value)>,
    ) -> OpResult<Self::Value> {
        Ok(text)
    }
    /// `yield v`; `used` when the value it receives is not popped at once (`x = yield v`).
    fn yield_value(&mut self, v: Self::Value, used: bool) -> OpResult<Self::Value>;
}

/// A space whose values are the concrete heap's: the import-time object space. The flow
/// space folds constants and reads prebuilt objects through it.
pub trait ConcreteSpace: Space<Value = Value> {
    fn heap(&self) -> &crate::objspace::object::Heap;
    fn heap_mut(&mut self) -> &mut crate::objspace::object::Heap;
    /// Whether `id` is the dict standing for `os.environ` (the process's environment after
    /// translation, so never a constant to fold).
    fn is_os_environ(&self, id: crate::objspace::object::ObjId) -> bool {
        self.os_environ() == Some(id)
    }
    /// The dict standing for `os.environ`, once the program imported `os`.
    fn os_environ(&self) -> Option<crate::objspace::object::ObjId> {
        None
    }
    /// `str()` of an exception instance raised while running import-time code for the
    /// annotator (a `specialize.memo` function), for its message.
    fn exception_text(&mut self, _evalue: Value) -> String {
        String::new()
    }
    /// Source files of rpy-lsp's bundled models, with the code they generated at import
    /// time (diagnostics found there are reported at the user's call).
    fn bundled_file_ids(&self) -> Vec<crate::syntax::FileId> {
        Vec::new()
    }
    /// Whether import-time code changed the RTyper's own code (its checks then do not
    /// describe the reference's RTyper).
    fn rtyper_patched(&self) -> bool {
        false
    }
    /// Gives the next import-time call the annotator makes (a `specialize.memo` function)
    /// budgets of its own: the import's memory (its heap frees nothing) and the CPU time
    /// of the import and of the annotation so far are not the call's.
    fn restart_limits(&mut self) {}
    /// The globals of a module the program's import loaded (`None` when it was not),
    /// for the annotator's look-up of the model's type objects.
    fn loaded_module_globals(&self, _name: &str) -> Vec<Value> {
        Vec::new()
    }
    /// Calls the registry's import-time implementation of built-in `id` on constant
    /// arguments (the annotator's constant folding of `int("12")`, `chr(120)`…): its
    /// result, or `None` when the call raises (the reference then leaves the value
    /// non-constant).
    fn call_builtin_const(
        &mut self,
        id: crate::builtins::BuiltinId,
        args: Vec<Value>,
    ) -> Option<Value>;
}

/// What a bare `exec` in a function bound: every name of its local namespace with its value,
/// and that namespace (`None` when nothing was run).
pub type ExecOutcome<V> = (
    Vec<(std::rc::Rc<str>, V)>,
    Option<crate::objspace::object::ObjId>,
);
