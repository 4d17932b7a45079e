//! The import-time implementations of the built-ins: each entry of the registry of
//! built-ins (`crate::builtins::BuiltinId`: `len`, `list.append`, `os.write`,
//! `rarithmetic.intmask`…) bound to a function in Rust. Where each one appears (the
//! `__builtin__` module, the dict of a built-in class, `__rpy__` for the bundled models)
//! follows from its name; see `crate::builtins`.
//!
//! This file holds the binding (one table, `BUILTINS`, plus the tables of `generators` and
//! `libs`; the string methods all share one implementation in `strings`) and the argument
//! type every builtin takes ([`BArgs`]). The implementations of the `__builtin__` functions and of the
//! built-in classes are in submodules, by what they work on:
//! - `iteration`: sequences and iteration (`len`, `range`/`xrange`, `map`, `sorted`,
//!   `min`/`max`, `iter`/`next`…, iterator methods);
//! - `numeric`: numbers (`abs`, `pow`, `round`, `hex`…, the `int`/`long`/`float`/`bool`
//!   constructors, number methods, machine-integer constructors);
//! - `text`: characters and strings (`ord`, `chr`, `repr`, `format`, `str`/`unicode`);
//! - `print`: the import-time stdout and the `print` statement and function;
//! - `objects`: identity, comparison, attributes, namespaces and `__import__`;
//! - `classes`: `object`, `type`, descriptors, `super`, exception and function methods;
//! - `containers`: tuple/list/dict/set/slice constructors and the container methods.

mod classes;
mod containers;
mod iteration;
pub(crate) mod numeric;
mod objects;
mod print;
mod text;

pub(crate) use numeric::make_rint;
pub(crate) use objects::globals_view;

use super::object::Value;
use super::{ObjSpace, R};
use crate::builtins::BuiltinId as B;
use classes::{
    c_classmethod, c_object, c_property, c_staticmethod, c_super, c_type, m_exc_init, m_exc_repr,
    m_exc_str, m_function_get, m_object_getattribute, m_object_hash, m_object_init,
    m_object_setattr, m_object_subclasshook, m_property, m_type_new, m_type_subclasses,
};
use containers::{
    c_dict, c_list, c_set, c_slice, c_tuple, m_dict, m_list, m_set, m_slot_item, m_tuple_new,
    m_tuple_special,
};
use iteration::{
    b_anyall, b_enumerate, b_filter, b_iter, b_len, b_map, b_minmax, b_next, b_range, b_reduce,
    b_reversed, b_sorted, b_sum, b_zip, c_xrange, m_iterator_iter, m_iterator_next,
};
use numeric::{
    b_abs, b_bin, b_divmod, b_hex, b_oct, b_pow, b_round, c_bool, c_float, c_int, c_long, m_number,
};
use objects::{
    b_callable, b_cmp, b_delattr, b_dir, b_getattr, b_globals, b_hasattr, b_hash, b_id, b_import,
    b_isinstance, b_issubclass, b_locals, b_setattr, b_vars,
};
use print::{b_print, b_print_item, b_print_newline};
use std::rc::Rc;
use std::sync::OnceLock;
use text::{b_chr, b_format, b_intern, b_ord, b_repr, b_unichr, c_bytearray, c_str, c_unicode};

/// Arguments of a builtin call.
#[derive(Debug)]
pub struct BArgs {
    /// The builtin being called.
    pub id: B,
    /// The receiver of a bound method, or the class for constructors.
    pub this: Option<Value>,
    pub args: Vec<Value>,
    pub kwargs: Vec<(Rc<str>, Value)>,
}

impl BArgs {
    /// The receiver: the bound object, or the first positional argument of an unbound call.
    pub fn take_self(&mut self, sp: &mut ObjSpace) -> R {
        if let Some(t) = self.this {
            return Ok(t);
        }
        if self.args.is_empty() {
            let n = self.id.name();
            return sp.type_error(format!("descriptor '{n}' needs an argument"));
        }
        Ok(self.args.remove(0))
    }

    /// Checks the number of arguments (positional plus keyword).
    pub fn arity(&self, sp: &mut ObjSpace, min: usize, max: usize) -> R<()> {
        let n = self.args.len() + self.kwargs.len();
        if n < min || self.args.len() > max || n > max {
            let short = self.id.short_name();
            let msg = if min == max {
                format!(
                    "{short}() takes exactly {min} argument{} ({n} given)",
                    if min == 1 { "" } else { "s" }
                )
            } else if n < min {
                format!(
                    "{short}() takes at least {min} argument{} ({n} given)",
                    if min == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "{short}() takes at most {max} argument{} ({n} given)",
                    if max == 1 { "" } else { "s" }
                )
            };
            return sp.type_error(msg);
        }
        Ok(())
    }

    /// Positional argument `i`, or keyword `name`.
    pub fn get(&self, i: usize, name: &str) -> Option<Value> {
        self.args.get(i).copied().or_else(|| self.kw(name))
    }

    pub fn kw(&self, name: &str) -> Option<Value> {
        self.kwargs
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| *v)
    }

    /// Rejects keyword arguments.
    pub fn no_kwargs(&self, sp: &mut ObjSpace) -> R<()> {
        if let Some((k, _)) = self.kwargs.first() {
            let short = self.id.short_name();
            return sp.type_error(format!(
                "{short}() got an unexpected keyword argument '{k}'"
            ));
        }
        Ok(())
    }
}

impl ObjSpace {
    /// The TypeError of a method of a built-in class called on another type's object
    /// (`list.append(3, 4)`).
    pub(crate) fn descriptor_type_error(&mut self, meth: &str, class: &str, got: Value) -> R {
        let tn = self.type_name(got);
        self.type_error(format!(
            "descriptor '{meth}' requires a '{class}' object but received a '{tn}'"
        ))
    }
}

/// A builtin implemented in Rust.
pub type BuiltinFn = fn(&mut ObjSpace, &mut BArgs) -> R;

/// The static part of the registry.
const BUILTINS: &[(B, BuiltinFn)] = &[
    // __builtin__ functions
    (B::Len, b_len),
    (B::Range, b_range),
    (B::Enumerate, b_enumerate),
    (B::Zip, b_zip),
    (B::Map, b_map),
    (B::Filter, b_filter),
    (B::Reduce, b_reduce),
    (B::Sorted, b_sorted),
    (B::Reversed, b_reversed),
    (B::Min, b_minmax),
    (B::Max, b_minmax),
    (B::Abs, b_abs),
    (B::Sum, b_sum),
    (B::Any, b_anyall),
    (B::All, b_anyall),
    (B::Ord, b_ord),
    (B::Chr, b_chr),
    (B::Unichr, b_unichr),
    (B::Repr, b_repr),
    (B::Hash, b_hash),
    (B::Id, b_id),
    (B::Isinstance, b_isinstance),
    (B::Issubclass, b_issubclass),
    (B::Hasattr, b_hasattr),
    (B::Getattr, b_getattr),
    (B::Setattr, b_setattr),
    (B::Delattr, b_delattr),
    (B::Iter, b_iter),
    (B::Next, b_next),
    (B::Callable, b_callable),
    (B::Globals, b_globals),
    (B::Locals, b_locals),
    (B::Vars, b_vars),
    (B::Dir, b_dir),
    (B::Divmod, b_divmod),
    (B::Pow, b_pow),
    (B::Round, b_round),
    (B::Hex, b_hex),
    (B::Oct, b_oct),
    (B::Bin, b_bin),
    (B::Cmp, b_cmp),
    (B::Intern, b_intern),
    (B::Format, b_format),
    (B::Print, b_print),
    (B::PrintItem, b_print_item),
    (B::PrintNewline, b_print_newline),
    (B::DunderImport, b_import),
    (B::Eval, b_result_unknown),
    (B::Compile, b_compile),
    (B::Execfile, b_unsupported),
    (B::Input, b_unsupported),
    (B::RawInput, b_unsupported),
    (B::Open, b_open),
    (B::File, b_open),
    (B::Reload, b_unsupported),
    // constructors of built-in classes
    (B::Object, c_object),
    (B::Type, c_type),
    (B::Int, c_int),
    (B::Long, c_long),
    (B::Float, c_float),
    (B::Bool, c_bool),
    (B::Str, c_str),
    (B::Unicode, c_unicode),
    (B::Bytearray, c_bytearray),
    (B::Tuple, c_tuple),
    (B::List, c_list),
    (B::Dict, c_dict),
    (B::Set, c_set),
    (B::Frozenset, c_set),
    (B::Staticmethod, c_staticmethod),
    (B::Classmethod, c_classmethod),
    (B::Property, c_property),
    (B::Super, c_super),
    (B::Xrange, c_xrange),
    (B::Slice, c_slice),
    // methods of built-in classes
    (B::ObjectDunderInit, m_object_init),
    (B::TypeDunderNew, m_type_new),
    (B::TupleDunderNew, m_tuple_new),
    (B::TupleDunderEq, m_tuple_special),
    (B::TupleDunderNe, m_tuple_special),
    (B::TupleDunderHash, m_tuple_special),
    (B::TypeSubclasses, m_type_subclasses),
    (B::ObjectDunderSetattr, m_object_setattr),
    (B::ObjectDunderGetattribute, m_object_getattribute),
    (B::ObjectDunderSubclasshook, m_object_subclasshook),
    (B::ObjectDunderHash, m_object_hash),
    (B::BaseExceptionDunderInit, m_exc_init),
    (B::BaseExceptionDunderStr, m_exc_str),
    (B::BaseExceptionDunderRepr, m_exc_repr),
    (B::ListAppend, m_list),
    (B::ListExtend, m_list),
    (B::ListPop, m_list),
    (B::ListInsert, m_list),
    (B::ListRemove, m_list),
    (B::ListIndex, m_list),
    (B::ListCount, m_list),
    (B::ListReverse, m_list),
    (B::ListSort, m_list),
    (B::ListDunderLen, m_list),
    (B::ListDunderContains, m_list),
    (B::TupleIndex, m_list),
    (B::TupleCount, m_list),
    (B::TupleDunderLen, m_list),
    (B::TupleDunderGetitem, m_list),
    (B::DictGet, m_dict),
    (B::DictDunderDelitem, m_slot_item),
    (B::ListDunderGetitem, m_slot_item),
    (B::ListDunderSetitem, m_slot_item),
    (B::ListDunderDelitem, m_slot_item),
    (B::DictKeys, m_dict),
    (B::DictValues, m_dict),
    (B::DictItems, m_dict),
    (B::DictIterkeys, m_dict),
    (B::DictItervalues, m_dict),
    (B::DictIteritems, m_dict),
    (B::DictSetdefault, m_dict),
    (B::DictUpdate, m_dict),
    (B::DictPop, m_dict),
    (B::DictPopitem, m_dict),
    (B::DictHasKey, m_dict),
    (B::DictCopy, m_dict),
    (B::DictClear, m_dict),
    (B::DictFromkeys, m_dict),
    (B::DictDunderLen, m_dict),
    (B::DictDunderGetitem, m_dict),
    (B::DictDunderSetitem, m_dict),
    (B::DictDunderContains, m_dict),
    (B::SetAdd, m_set),
    (B::SetRemove, m_set),
    (B::SetDiscard, m_set),
    (B::SetPop, m_set),
    (B::SetUpdate, m_set),
    (B::SetUnion, m_set),
    (B::SetIntersection, m_set),
    (B::SetDifference, m_set),
    (B::SetIssubset, m_set),
    (B::SetIssuperset, m_set),
    (B::SetCopy, m_set),
    (B::SetClear, m_set),
    (B::SetDunderLen, m_set),
    (B::SetDunderContains, m_set),
    (B::FrozensetUnion, m_set),
    (B::FrozensetIntersection, m_set),
    (B::FrozensetDifference, m_set),
    (B::FrozensetIssubset, m_set),
    (B::FrozensetCopy, m_set),
    (B::PropertySetter, m_property),
    (B::PropertyGetter, m_property),
    (B::PropertyDeleter, m_property),
    (B::PropertyDunderGet, m_property),
    (B::IteratorNext, m_iterator_next),
    (B::IteratorDunderIter, m_iterator_iter),
    (B::IteratorDunderNext, m_iterator_next),
    (B::IntDunderAdd, m_number),
    (B::IntDunderSub, m_number),
    (B::IntDunderMul, m_number),
    (B::IntDunderEq, m_number),
    (B::IntDunderLt, m_number),
    (B::IntDunderHash, m_number),
    (B::IntBitLength, m_number),
    (B::LongBitLength, m_number),
    (B::FloatIsInteger, m_number),
    (B::FunctionDunderGet, m_function_get),
];

/// The implementations, indexed by [`BuiltinId::index`]: `None` for the built-ins that
/// only exist in flow graphs (the `print` helpers the flow space calls).
pub(crate) type Impls = [Option<BuiltinFn>; B::COUNT];

/// Every table binding built-ins to implementations (this file's and the bundled
/// models' primitives).
fn binding_tables() -> [&'static [(B, BuiltinFn)]; 4] {
    [
        BUILTINS,
        super::generators::GEN_BUILTINS,
        super::libs::LIB_BUILTINS,
        super::re_module::RE_BUILTINS,
    ]
}

fn all_builtins() -> &'static Impls {
    static REG: OnceLock<Impls> = OnceLock::new();
    REG.get_or_init(|| {
        let mut m: Impls = [None; B::COUNT];
        for &(b, f) in binding_tables().into_iter().flatten() {
            m[b.index()] = Some(f);
        }
        for &b in B::ALL {
            if b.str_method().is_some() {
                m[b.index()] = Some(m_string);
            }
        }
        m
    })
}

/// The registry: the import-time implementation of each built-in.
pub(crate) fn registry() -> &'static Impls {
    all_builtins()
}

/// The built-ins that have an import-time implementation, in the order of the table.
pub fn implemented() -> impl Iterator<Item = B> {
    B::ALL
        .iter()
        .copied()
        .filter(|b| all_builtins()[b.index()].is_some())
}

/// Every implemented builtin's qualified name, sorted.
pub fn builtin_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = implemented().map(B::name).collect();
    v.sort_unstable();
    v
}

fn m_string(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    sp.string_method(a)
}

/// `compile(source, filename, mode)`: our own compiler, see `objspace::exec`.
fn b_compile(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 3, 5)?;
    sp.compile_source(a.args[0], a.args[1], a.args[2])
}

/// `open(path)` at import time (a grammar file read to build a parser): rpy-lsp does not
/// read files for the program, so the file and what is read from it are unknown.
/// `open()` / `file()` at import time: a file opened for reading is read for real through the
/// bundled `__rpy_file__` model (a module may read its grammar or data file as it is
/// imported); one opened for writing or appending is unknown.
fn b_open(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let mode = a.args.get(1).copied().or_else(|| {
        a.kwargs
            .iter()
            .find(|(k, _)| &**k == "mode")
            .map(|(_, v)| *v)
    });
    let reading = match mode {
        None => true,
        Some(m) => match sp.text_of(m) {
            Some(m) => !m.contains(['w', 'a', '+']),
            None => false,
        },
    };
    if !reading || a.args.is_empty() {
        return b_result_unknown(sp, a);
    }
    // a name computed from something unknown (rply's cache file under an unmodelled
    // `appdirs` directory) names no file we can read: reading it through the model would
    // loop on unknown chunks
    if matches!(a.args[0], Value::Obj(id) if matches!(sp.heap.get(id), super::object::Object::Unknown { .. }))
    {
        return b_result_unknown(sp, a);
    }
    // a file the sandbox of `check` hides (outside the project) is unknown, not missing
    if let Some(name) = sp.text_of(a.args[0]) {
        let path = super::libos::host_path(sp, &name);
        let overlay = sp.config.overlays.contains_key(&path);
        if !overlay && path.exists() && !sp.config.policy.may_read(&path) {
            return b_result_unknown(sp, a);
        }
    }
    let model = sp.import_absolute("__rpy_file__")?;
    let Some(open) = sp.module_attr(model, "open_for_reading") else {
        return b_result_unknown(sp, a);
    };
    let args = std::mem::take(&mut a.args);
    let kwargs = std::mem::take(&mut a.kwargs);
    sp.call_value(open, args, kwargs)
}

/// A call whose result rpy-lsp does not compute at import time (a file it may not read;
/// `eval()` of text, which would need the caller's local variables): an unknown value, so
/// what depends on it is unchecked rather than wrongly rejected.
fn b_result_unknown(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let what = format!("{}()", a.id.name());
    sp.warn_unknown(&what, "the result of");
    Ok(sp.new_unknown(&what))
}

fn b_unsupported(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let n = a.id.name();
    Err(sp.unsupported(format!(
        "`{n}()` cannot be evaluated at import time by rpy-lsp"
    )))
}

#[cfg(test)]
mod tests {
    use super::{all_builtins, binding_tables};
    use crate::builtins::{BuiltinId as B, GRAPH_ONLY};

    /// Every built-in of the registry has exactly one implementation here (the string
    /// methods one shared implementation), except those that only exist in flow graphs.
    #[test]
    fn every_builtin_is_bound_once() {
        let mut count = [0usize; B::COUNT];
        for &(b, _) in binding_tables().into_iter().flatten() {
            count[b.index()] += 1;
        }
        for &b in B::ALL {
            if b.str_method().is_some() {
                assert_eq!(count[b.index()], 0, "{b} is a string method bound twice");
                count[b.index()] = 1;
            }
        }
        for &b in B::ALL {
            let want = usize::from(!GRAPH_ONLY.contains(&b));
            assert_eq!(
                count[b.index()],
                want,
                "{b} is bound {} times",
                count[b.index()]
            );
            assert_eq!(all_builtins()[b.index()].is_some(), want == 1, "{b}");
        }
    }
}
