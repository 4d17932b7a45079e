//! The builtin registry: every function implemented in Rust, by qualified name (`"len"`,
//! `"list.append"`, `"os.write"`, `"rarithmetic.intmask"`…). Later stages (flow space,
//! annotator) identify builtins by that name.
//!
//! Names without a dot are the `__builtin__` functions and the constructors of the built-in
//! classes; `type.method` names are methods of built-in classes (found through the class
//! dict, bound to the receiver); other dotted names are primitives of the bundled models,
//! reachable from bundled sources through the internal module `__rpy__` (`os.write` is
//! `__rpy__.os_write`).
//!
//! This file holds the registry itself (one table, `BUILTINS`, plus the tables of
//! `generators` and `libs` and the string methods of `strings`) and the argument type every
//! builtin takes ([`BArgs`]). The implementations of the `__builtin__` functions and of the
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
mod numeric;
mod objects;
mod print;
mod text;

pub(crate) use numeric::make_rint;

use super::object::Value;
use super::strings::STR_METHODS;
use super::{ObjSpace, R};
use classes::{
    c_classmethod, c_object, c_property, c_staticmethod, c_super, c_type, m_exc_init, m_exc_repr,
    m_exc_str, m_function_get, m_object_getattribute, m_object_init, m_object_setattr, m_property,
    m_type_new,
};
use containers::{c_dict, c_list, c_set, c_slice, c_tuple, m_dict, m_list, m_set, m_slot_item};
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
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;
use text::{b_chr, b_format, b_intern, b_ord, b_repr, b_unichr, c_str, c_unicode};

/// Arguments of a builtin call.
#[derive(Debug)]
pub struct BArgs {
    /// Qualified name of the builtin being called.
    pub name: Rc<str>,
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
            let n = self.name.clone();
            return sp.type_error(format!("descriptor '{n}' needs an argument"));
        }
        Ok(self.args.remove(0))
    }

    /// Checks the number of arguments (positional plus keyword).
    pub fn arity(&self, sp: &mut ObjSpace, min: usize, max: usize) -> R<()> {
        let n = self.args.len() + self.kwargs.len();
        if n < min || self.args.len() > max || n > max {
            let short = self
                .name
                .rsplit('.')
                .next()
                .unwrap_or(&self.name)
                .to_string();
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
            let short = self
                .name
                .rsplit('.')
                .next()
                .unwrap_or(&self.name)
                .to_string();
            return sp.type_error(format!(
                "{short}() got an unexpected keyword argument '{k}'"
            ));
        }
        Ok(())
    }
}

/// A builtin implemented in Rust.
pub type BuiltinFn = fn(&mut ObjSpace, &mut BArgs) -> R;

/// The static part of the registry.
const BUILTINS: &[(&str, BuiltinFn)] = &[
    // __builtin__ functions
    ("len", b_len),
    ("range", b_range),
    ("enumerate", b_enumerate),
    ("zip", b_zip),
    ("map", b_map),
    ("filter", b_filter),
    ("reduce", b_reduce),
    ("sorted", b_sorted),
    ("reversed", b_reversed),
    ("min", b_minmax),
    ("max", b_minmax),
    ("abs", b_abs),
    ("sum", b_sum),
    ("any", b_anyall),
    ("all", b_anyall),
    ("ord", b_ord),
    ("chr", b_chr),
    ("unichr", b_unichr),
    ("repr", b_repr),
    ("hash", b_hash),
    ("id", b_id),
    ("isinstance", b_isinstance),
    ("issubclass", b_issubclass),
    ("hasattr", b_hasattr),
    ("getattr", b_getattr),
    ("setattr", b_setattr),
    ("delattr", b_delattr),
    ("iter", b_iter),
    ("next", b_next),
    ("callable", b_callable),
    ("globals", b_globals),
    ("locals", b_locals),
    ("vars", b_vars),
    ("dir", b_dir),
    ("divmod", b_divmod),
    ("pow", b_pow),
    ("round", b_round),
    ("hex", b_hex),
    ("oct", b_oct),
    ("bin", b_bin),
    ("cmp", b_cmp),
    ("intern", b_intern),
    ("format", b_format),
    ("print", b_print),
    ("print_item", b_print_item),
    ("print_newline", b_print_newline),
    ("__import__", b_import),
    ("eval", b_unsupported),
    ("compile", b_unsupported),
    ("execfile", b_unsupported),
    ("input", b_unsupported),
    ("raw_input", b_unsupported),
    ("open", b_unsupported),
    ("file", b_unsupported),
    ("reload", b_unsupported),
    // constructors of built-in classes
    ("object", c_object),
    ("type", c_type),
    ("int", c_int),
    ("long", c_long),
    ("float", c_float),
    ("bool", c_bool),
    ("str", c_str),
    ("unicode", c_unicode),
    ("tuple", c_tuple),
    ("list", c_list),
    ("dict", c_dict),
    ("set", c_set),
    ("frozenset", c_set),
    ("staticmethod", c_staticmethod),
    ("classmethod", c_classmethod),
    ("property", c_property),
    ("super", c_super),
    ("xrange", c_xrange),
    ("slice", c_slice),
    // methods of built-in classes
    ("object.__init__", m_object_init),
    ("type.__new__", m_type_new),
    ("object.__setattr__", m_object_setattr),
    ("object.__getattribute__", m_object_getattribute),
    ("BaseException.__init__", m_exc_init),
    ("BaseException.__str__", m_exc_str),
    ("BaseException.__repr__", m_exc_repr),
    ("list.append", m_list),
    ("list.extend", m_list),
    ("list.pop", m_list),
    ("list.insert", m_list),
    ("list.remove", m_list),
    ("list.index", m_list),
    ("list.count", m_list),
    ("list.reverse", m_list),
    ("list.sort", m_list),
    ("list.__len__", m_list),
    ("list.__getitem__", m_list),
    ("list.__setitem__", m_list),
    ("list.__contains__", m_list),
    ("tuple.index", m_list),
    ("tuple.count", m_list),
    ("tuple.__len__", m_list),
    ("tuple.__getitem__", m_list),
    ("dict.get", m_dict),
    ("dict.__getitem__", m_slot_item),
    ("dict.__setitem__", m_slot_item),
    ("dict.__delitem__", m_slot_item),
    ("dict.__contains__", m_slot_item),
    ("list.__getitem__", m_slot_item),
    ("list.__setitem__", m_slot_item),
    ("list.__delitem__", m_slot_item),
    ("dict.keys", m_dict),
    ("dict.values", m_dict),
    ("dict.items", m_dict),
    ("dict.iterkeys", m_dict),
    ("dict.itervalues", m_dict),
    ("dict.iteritems", m_dict),
    ("dict.setdefault", m_dict),
    ("dict.update", m_dict),
    ("dict.pop", m_dict),
    ("dict.popitem", m_dict),
    ("dict.has_key", m_dict),
    ("dict.copy", m_dict),
    ("dict.clear", m_dict),
    ("dict.fromkeys", m_dict),
    ("dict.__len__", m_dict),
    ("dict.__getitem__", m_dict),
    ("dict.__setitem__", m_dict),
    ("dict.__contains__", m_dict),
    ("set.add", m_set),
    ("set.remove", m_set),
    ("set.discard", m_set),
    ("set.pop", m_set),
    ("set.update", m_set),
    ("set.union", m_set),
    ("set.intersection", m_set),
    ("set.difference", m_set),
    ("set.issubset", m_set),
    ("set.issuperset", m_set),
    ("set.copy", m_set),
    ("set.clear", m_set),
    ("set.__len__", m_set),
    ("set.__contains__", m_set),
    ("frozenset.union", m_set),
    ("frozenset.intersection", m_set),
    ("frozenset.difference", m_set),
    ("frozenset.issubset", m_set),
    ("frozenset.copy", m_set),
    ("property.setter", m_property),
    ("property.getter", m_property),
    ("property.deleter", m_property),
    ("property.__get__", m_property),
    ("iterator.next", m_iterator_next),
    ("iterator.__iter__", m_iterator_iter),
    ("iterator.__next__", m_iterator_next),
    ("int.__add__", m_number),
    ("int.__sub__", m_number),
    ("int.__mul__", m_number),
    ("int.__eq__", m_number),
    ("int.__lt__", m_number),
    ("int.__hash__", m_number),
    ("int.bit_length", m_number),
    ("long.bit_length", m_number),
    ("float.is_integer", m_number),
    ("function.__get__", m_function_get),
];

fn all_builtins() -> &'static HashMap<&'static str, BuiltinFn> {
    static REG: OnceLock<HashMap<&'static str, BuiltinFn>> = OnceLock::new();
    REG.get_or_init(|| {
        let mut m: HashMap<&'static str, BuiltinFn> = HashMap::new();
        for &(n, f) in BUILTINS {
            m.insert(n, f);
        }
        for &(n, f) in super::generators::GEN_BUILTINS {
            m.insert(n, f);
        }
        for &(n, f) in super::libs::LIB_BUILTINS {
            m.insert(n, f);
        }
        for meth in STR_METHODS {
            for ty in ["str", "unicode"] {
                let name: &'static str = Box::leak(format!("{ty}.{meth}").into_boxed_str());
                m.insert(name, m_string);
            }
        }
        m
    })
}

/// The registry: qualified name → implementation.
pub(crate) fn registry() -> &'static HashMap<&'static str, BuiltinFn> {
    all_builtins()
}

/// Every registered builtin's qualified name, sorted.
pub fn builtin_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = all_builtins().keys().copied().collect();
    v.sort_unstable();
    v
}

fn m_string(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    sp.string_method(a)
}

fn b_unsupported(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let n = a.name.clone();
    Err(sp.unsupported(format!(
        "`{n}()` cannot be evaluated at import time by rpy-lsp"
    )))
}
