//! Built-in classes: the types of built-in values and the exception hierarchy, as classes in
//! the heap (so `isinstance`, subclassing and `except` matching work uniformly).

use super::object::{AttrMap, BuiltinType, Class, Heap, IntKind, ObjId, Object, Value};
use super::{builtins, ObjSpace};
use crate::builtins::BuiltinId as B;
use crate::fasthash::HashMap;
use std::rc::Rc;

/// Ids of the built-in classes.
#[derive(Clone, Debug)]
pub struct Types {
    pub object: ObjId,
    pub type_: ObjId,
    pub basestring: ObjId,
    pub int: ObjId,
    pub long: ObjId,
    pub complex: ObjId,
    pub bool_: ObjId,
    pub float: ObjId,
    pub str_: ObjId,
    pub unicode: ObjId,
    pub tuple: ObjId,
    pub list: ObjId,
    pub dict: ObjId,
    pub set: ObjId,
    pub frozenset: ObjId,
    pub none: ObjId,
    pub function: ObjId,
    pub builtin_function: ObjId,
    pub module: ObjId,
    pub method: ObjId,
    pub staticmethod: ObjId,
    pub classmethod: ObjId,
    pub property: ObjId,
    pub cell: ObjId,
    pub code: ObjId,
    pub iterator: ObjId,
    pub slice: ObjId,
    pub ellipsis: ObjId,
    pub notimplemented: ObjId,
    pub super_: ObjId,
    pub generator: ObjId,
    pub xrange: ObjId,
    pub r_uint: ObjId,
    pub r_longlong: ObjId,
    pub r_ulonglong: ObjId,
    pub r_longlonglong: ObjId,
    pub r_int: ObjId,
    pub r_singlefloat: ObjId,
    /// The classes of the narrow kinds, in the order of `IntKind::NARROW`.
    pub r_narrow: [ObjId; 6],
    pub base_exception: ObjId,
    /// Every built-in exception class by name.
    pub exceptions: HashMap<&'static str, ObjId>,
    /// Every built-in class by name.
    pub by_name: HashMap<&'static str, ObjId>,
}

/// The built-in exception hierarchy: (name, base).
pub const EXCEPTIONS: &[(&str, &str)] = &[
    ("SystemExit", "BaseException"),
    ("KeyboardInterrupt", "BaseException"),
    ("GeneratorExit", "BaseException"),
    ("Exception", "BaseException"),
    ("StopIteration", "Exception"),
    ("StandardError", "Exception"),
    ("Warning", "Exception"),
    ("UserWarning", "Warning"),
    ("DeprecationWarning", "Warning"),
    ("RuntimeWarning", "Warning"),
    ("ArithmeticError", "StandardError"),
    ("OverflowError", "ArithmeticError"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("FloatingPointError", "ArithmeticError"),
    ("AssertionError", "StandardError"),
    ("AttributeError", "StandardError"),
    ("BufferError", "StandardError"),
    ("EnvironmentError", "StandardError"),
    ("IOError", "EnvironmentError"),
    ("OSError", "EnvironmentError"),
    ("EOFError", "StandardError"),
    ("ImportError", "StandardError"),
    ("LookupError", "StandardError"),
    ("IndexError", "LookupError"),
    ("KeyError", "LookupError"),
    ("MemoryError", "StandardError"),
    ("NameError", "StandardError"),
    ("UnboundLocalError", "NameError"),
    ("ReferenceError", "StandardError"),
    ("RuntimeError", "StandardError"),
    ("NotImplementedError", "RuntimeError"),
    ("SyntaxError", "StandardError"),
    ("IndentationError", "SyntaxError"),
    ("TabError", "IndentationError"),
    ("SystemError", "StandardError"),
    ("TypeError", "StandardError"),
    ("ValueError", "StandardError"),
    ("UnicodeError", "ValueError"),
    ("UnicodeDecodeError", "UnicodeError"),
    ("UnicodeEncodeError", "UnicodeError"),
    ("UnicodeTranslateError", "UnicodeError"),
];

/// Whether the built-in exception `name` is the built-in exception `base` or derives from
/// it (by `EXCEPTIONS`).
pub fn builtin_exception_derives(name: &str, base: &str) -> bool {
    let mut n = name;
    loop {
        if n == base {
            return true;
        }
        match EXCEPTIONS.iter().find(|(c, _)| *c == n) {
            Some(&(_, b)) => n = b,
            None => return false,
        }
    }
}

fn new_class(heap: &mut Heap, name: &str, base: Option<ObjId>, kind: BuiltinType) -> ObjId {
    let bases: Vec<ObjId> = base.into_iter().collect();
    let mut mro = Vec::new();
    if let Some(b) = base {
        if let Object::Class(c) = heap.get(b) {
            mro = c.mro.clone();
        }
    }
    let id = heap.alloc(Object::Class(Box::new(Class {
        name: Rc::from(name),
        bases,
        mro: Vec::new(),
        dict: AttrMap::default(),
        module: None,
        span: None,
        name_span: None,
        builtin: Some(kind),
        constructor: None,
        attr_spans: Vec::new(),
    })));
    mro.insert(0, id);
    if let Object::Class(c) = heap.get_mut(id) {
        c.mro = mro;
    }
    id
}

impl Types {
    pub(crate) fn bootstrap(heap: &mut Heap) -> Types {
        use BuiltinType as B;
        let mut by_name = HashMap::default();
        let mut mk =
            |heap: &mut Heap, name: &'static str, base: Option<ObjId>, kind: BuiltinType| {
                let id = new_class(heap, name, base, kind);
                by_name.insert(name, id);
                id
            };
        let object = mk(heap, "object", None, B::Object);
        let o = Some(object);
        let type_ = mk(heap, "type", o, B::Type);
        let basestring = mk(heap, "basestring", o, B::Other);
        let int = mk(heap, "int", o, B::Int);
        let long = mk(heap, "long", o, B::Long);
        let bool_ = mk(heap, "bool", Some(int), B::Bool);
        // (not a built-in name: the type of complex literals only)
        let complex = new_class(heap, "complex", o, B::Other);
        let float = mk(heap, "float", o, B::Float);
        let str_ = mk(heap, "str", Some(basestring), B::Str);
        let unicode = mk(heap, "unicode", Some(basestring), B::Unicode);
        let tuple = mk(heap, "tuple", o, B::Tuple);
        let list = mk(heap, "list", o, B::List);
        let dict = mk(heap, "dict", o, B::Dict);
        let set = mk(heap, "set", o, B::Set);
        let frozenset = mk(heap, "frozenset", o, B::Set);
        let none = mk(heap, "NoneType", o, B::NoneType);
        let function = mk(heap, "function", o, B::Function);
        let builtin_function = mk(heap, "builtin_function_or_method", o, B::Other);
        let module = mk(heap, "module", o, B::Module);
        let method = mk(heap, "instancemethod", o, B::Other);
        let staticmethod = mk(heap, "staticmethod", o, B::Other);
        let classmethod = mk(heap, "classmethod", o, B::Other);
        let property = mk(heap, "property", o, B::Other);
        let cell = mk(heap, "cell", o, B::Other);
        let code = mk(heap, "code", o, B::Other);
        let iterator = mk(heap, "iterator", o, B::Other);
        let slice = mk(heap, "slice", o, B::Other);
        let ellipsis = mk(heap, "ellipsis", o, B::Other);
        let notimplemented = mk(heap, "NotImplementedType", o, B::Other);
        let super_ = mk(heap, "super", o, B::Other);
        let generator = mk(heap, "generator", o, B::Other);
        let xrange = mk(heap, "xrange", o, B::Other);
        let r_uint = mk(heap, "r_uint", Some(long), B::Other);
        let r_longlong = mk(heap, "r_longlong", Some(long), B::Other);
        let r_ulonglong = mk(heap, "r_ulonglong", Some(long), B::Other);
        let r_longlonglong = mk(heap, "r_longlonglong", Some(long), B::Other);
        let r_int = mk(heap, "r_int", Some(int), B::Other);
        let r_singlefloat = mk(heap, "r_singlefloat", o, B::Other);
        let r_narrow = IntKind::NARROW.map(|k| {
            let cls = mk(
                heap,
                crate::annotator::model::int_kind_name(k),
                Some(long),
                B::Other,
            );
            if let (Object::Class(c), IntKind::Narrow { bits, signed }) = (heap.get_mut(cls), k) {
                c.dict.set("BITS", Value::Int(bits as i64));
                c.dict.set("SIGNED", Value::Bool(signed));
            }
            cls
        });
        // the width and signedness the reference's integer classes carry (rmd5 and rsha
        // read `r_uint.BITS`)
        for (cls, signed) in [
            (r_uint, false),
            (r_longlong, true),
            (r_ulonglong, false),
            (r_int, true),
        ] {
            if let Object::Class(c) = heap.get_mut(cls) {
                c.dict.set("BITS", Value::Int(64));
                c.dict.set("SIGNED", Value::Bool(signed));
            }
        }
        if let Object::Class(c) = heap.get_mut(r_longlonglong) {
            c.dict.set("BITS", Value::Int(128));
            c.dict.set("SIGNED", Value::Bool(true));
        }
        let base_exception = mk(heap, "BaseException", o, B::BaseException);
        let mut exceptions = HashMap::default();
        exceptions.insert("BaseException", base_exception);
        for &(name, base) in EXCEPTIONS {
            let b = exceptions[base];
            let id = mk(heap, name, Some(b), B::Other);
            exceptions.insert(name, id);
        }
        Types {
            object,
            type_,
            basestring,
            int,
            long,
            complex,
            bool_,
            float,
            str_,
            unicode,
            tuple,
            list,
            dict,
            set,
            frozenset,
            none,
            function,
            builtin_function,
            module,
            method,
            staticmethod,
            classmethod,
            property,
            cell,
            code,
            iterator,
            slice,
            ellipsis,
            notimplemented,
            super_,
            generator,
            xrange,
            r_uint,
            r_longlong,
            r_ulonglong,
            r_longlonglong,
            r_int,
            r_singlefloat,
            r_narrow,
            base_exception,
            exceptions,
            by_name,
        }
    }

    /// Class of a machine integer kind.
    pub fn rint_class(&self, kind: IntKind) -> ObjId {
        match kind {
            IntKind::Unsigned => self.r_uint,
            IntKind::LongLong => self.r_longlong,
            IntKind::ULongLong => self.r_ulonglong,
            IntKind::LongLongLong => self.r_longlonglong,
            IntKind::Signed => self.r_int,
            IntKind::Narrow { .. } => {
                let i = IntKind::NARROW.iter().position(|&n| n == kind).unwrap_or(0);
                self.r_narrow[i]
            }
        }
    }
}

/// Constructor builtin (its entry in the registry of built-ins) of the built-in classes that have one.
const CTORS: &[(&str, B)] = &[
    ("object", B::Object),
    ("type", B::Type),
    ("int", B::Int),
    ("long", B::Long),
    ("bool", B::Bool),
    ("float", B::Float),
    ("str", B::Str),
    ("unicode", B::Unicode),
    ("tuple", B::Tuple),
    ("list", B::List),
    ("dict", B::Dict),
    ("set", B::Set),
    ("frozenset", B::Frozenset),
    ("staticmethod", B::Staticmethod),
    ("classmethod", B::Classmethod),
    ("property", B::Property),
    ("super", B::Super),
    ("xrange", B::Xrange),
    ("slice", B::Slice),
    ("r_uint", B::RarithmeticRUint),
    ("r_longlong", B::RarithmeticRLonglong),
    ("r_ulonglong", B::RarithmeticRUlonglong),
    ("r_longlonglong", B::RarithmeticRLonglonglong),
    ("r_int", B::RarithmeticRInt),
    ("r_singlefloat", B::RarithmeticRSinglefloat),
    ("r_int32", B::RarithmeticRInt32),
    ("r_uint32", B::RarithmeticRUint32),
    ("r_int16", B::RarithmeticRInt16),
    ("r_uint16", B::RarithmeticRUint16),
    ("r_int8", B::RarithmeticRInt8),
    ("r_uint8", B::RarithmeticRUint8),
];

impl ObjSpace {
    /// Constructors and the methods of built-in classes (from the registry: `"list.append"`
    /// becomes `list.__dict__['append']`).
    pub(crate) fn setup_types(&mut self) {
        for &(cls, ctor) in CTORS {
            let id = self.types.by_name[cls];
            if let Object::Class(c) = self.heap.get_mut(id) {
                c.constructor = Some(ctor);
            }
        }
        let mut ids: Vec<B> = builtins::implemented().collect();
        ids.sort_by_key(|b| b.name());
        for id in ids {
            let Some((tname, meth)) = id.class_method() else {
                continue;
            };
            let Some(&cls) = self.types.by_name.get(tname) else {
                continue;
            };
            let f = self.alloc(Object::Builtin {
                id,
                bound_self: None,
            });
            if let Object::Class(c) = self.heap.get_mut(cls) {
                c.dict.set(meth, f);
            }
        }
        // `__name__`-like class attributes every class answers are computed in getattr.
    }

    /// The `__builtin__` module's namespace.
    pub(crate) fn setup_builtins_module(&mut self) {
        let mut entries: Vec<(&'static str, Value)> = Vec::new();
        let mut type_names: Vec<(&'static str, ObjId)> =
            self.types.by_name.iter().map(|(k, v)| (*k, *v)).collect();
        type_names.sort();
        for (name, id) in type_names {
            if name.starts_with("r_")
                || matches!(
                    name,
                    "NoneType"
                        | "function"
                        | "builtin_function_or_method"
                        | "module"
                        | "instancemethod"
                        | "cell"
                        | "code"
                        | "iterator"
                        | "ellipsis"
                        | "NotImplementedType"
                        | "generator"
                )
            {
                continue;
            }
            entries.push((name, Value::Obj(id)));
        }
        let mut fnames: Vec<B> = builtins::implemented()
            .filter(|b| b.is_unqualified() && !self.types.by_name.contains_key(b.name()))
            .collect();
        fnames.sort_by_key(|b| b.name());
        for id in fnames {
            if matches!(id, B::PrintItem | B::PrintNewline) {
                continue;
            }
            let f = self.alloc(Object::Builtin {
                id,
                bound_self: None,
            });
            entries.push((id.name(), f));
        }
        // Python 2.7's `bytes` is `str` itself.
        if let Some(&s) = self.types.by_name.get("str") {
            entries.push(("bytes", Value::Obj(s)));
        }
        let ni = self.alloc(Object::NotImplemented);
        let el = self.alloc(Object::Ellipsis);
        entries.push(("NotImplemented", ni));
        entries.push(("Ellipsis", el));
        entries.push(("None", Value::None));
        entries.push(("True", Value::Bool(true)));
        entries.push(("False", Value::Bool(false)));
        entries.push(("__debug__", Value::Bool(true)));
        let name = self.new_str(b"__builtin__");
        entries.push(("__name__", name));
        if let Object::Module(m) = self.heap.get_mut(self.builtins_module) {
            for (k, v) in entries {
                m.dict.set(k, v);
            }
        }
    }

    /// The internal module `__rpy__`: every qualified builtin of the registry, with `.`
    /// replaced by `_` (`os.write` → `__rpy__.os_write`), and the machine-integer classes.
    pub(crate) fn setup_rpy_module(&mut self) {
        let mut dict = AttrMap::default();
        let mut ids: Vec<B> = builtins::implemented()
            .filter(|b| !b.is_unqualified())
            .collect();
        ids.sort_by_key(|b| b.name());
        let ctor_classes: HashMap<B, ObjId> = CTORS
            .iter()
            .map(|&(cls, ctor)| (ctor, self.types.by_name[cls]))
            .collect();
        for id in ids {
            let attr = id.name().replace('.', "_");
            let v = match ctor_classes.get(&id) {
                Some(&cls) => Value::Obj(cls),
                None => self.alloc(Object::Builtin {
                    id,
                    bound_self: None,
                }),
            };
            dict.set(&attr, v);
        }
        let n = self.new_str(b"__rpy__");
        dict.set("__name__", n);
        let id = self
            .heap
            .alloc(Object::Module(Box::new(super::object::Module {
                name: Rc::from("__rpy__"),
                dict,
                file: None,
                bundled: true,
            })));
        self.modules.insert("__rpy__".into(), id);
        self.module_info.insert(
            id,
            super::ModuleInfo {
                name: "__rpy__".into(),
                package_dir: None,
                path: None,
                is_package: false,
                bundled: true,
            },
        );
    }

    /// The class of a value.
    pub fn type_of(&self, v: Value) -> ObjId {
        let t = &self.types;
        match v {
            Value::None => t.none,
            Value::Bool(_) => t.bool_,
            Value::Int(_) => t.int,
            Value::Float(_) => t.float,
            Value::Obj(id) => match self.heap.get(id) {
                Object::Str(_) => t.str_,
                Object::Unicode(_) => t.unicode,
                // (`bytearray` is a function at import time: no class of its own)
                Object::ByteArray(_) => t.object,
                Object::Long(_) => t.long,
                Object::Complex(..) => t.complex,
                Object::RInt { kind, .. } => t.rint_class(*kind),
                Object::Tuple(_) => self.heap.tuple_class(id).unwrap_or(t.tuple),
                Object::List(_) => t.list,
                Object::Dict(_) => t.dict,
                Object::Set(_) => t.set,
                Object::Function(_) => t.function,
                Object::Builtin { .. } => t.builtin_function,
                // a class built by a metaclass is an instance of it
                Object::Class(_) => self.metaclasses.get(&id).copied().unwrap_or(t.type_),
                Object::Instance(i) => i.class,
                Object::Module(_) => t.module,
                Object::BoundMethod { .. } | Object::UnboundMethod { .. } => t.method,
                Object::StaticMethod(_) => t.staticmethod,
                Object::ClassMethod(_) => t.classmethod,
                Object::Property { .. } => t.property,
                Object::Cell(_) => t.cell,
                Object::Code(_) => t.code,
                Object::Iterator(_) => t.iterator,
                Object::Slice(..) => t.slice,
                Object::Ellipsis => t.ellipsis,
                Object::NotImplemented => t.notimplemented,
                Object::Unknown { .. } => t.object,
            },
        }
    }

    /// The MRO of a class (empty for non-classes).
    pub fn mro(&self, cls: ObjId) -> &[ObjId] {
        match self.heap.get(cls) {
            Object::Class(c) => &c.mro,
            _ => &[],
        }
    }

    pub fn is_subclass(&self, cls: ObjId, base: ObjId) -> bool {
        cls == base || self.mro(cls).contains(&base)
    }

    pub fn isinstance(&self, v: Value, cls: ObjId) -> bool {
        let t = self.type_of(v);
        self.is_subclass(t, cls)
    }

    pub fn exc_class(&self, name: &str) -> ObjId {
        self.types
            .exceptions
            .get(name)
            .copied()
            .unwrap_or(self.types.exceptions["Exception"])
    }

    /// Is this class an exception class (subclass of BaseException)?
    pub fn is_exception_class(&self, cls: ObjId) -> bool {
        self.is_subclass(cls, self.types.base_exception)
    }

    /// The first built-in class in a class's MRO (what its instances are made of).
    pub fn builtin_base(&self, cls: ObjId) -> Option<ObjId> {
        self.mro(cls)
            .iter()
            .copied()
            .find(|&c| matches!(self.heap.get(c), Object::Class(k) if k.builtin.is_some()))
    }
}
