//! Classes and descriptors: the `object` and `type` constructors, `staticmethod`,
//! `classmethod`, `property`, `super`, and the methods the built-in classes lend to user
//! classes (`type.__new__` for metaclasses, `object.__init__`/`__setattr__`/
//! `__getattribute__`, `BaseException.__init__`/`__str__`/`__repr__`, `property.setter`…,
//! `function.__get__`). Separate because these build and bind classes rather than compute
//! on values.

use super::objects::attr_name_arg;
use super::BArgs;
use crate::builtins::BuiltinId as B;
use crate::objspace::object::{Instance, ObjId, Object, Value};
use crate::objspace::{ObjSpace, R};

pub(super) fn c_object(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let cls = match a.this {
        Some(Value::Obj(c)) => c,
        _ => sp.types.object,
    };
    let inst = sp.heap.alloc(Object::Instance(Instance {
        class: cls,
        dict: Default::default(),
    }));
    Ok(Value::Obj(inst))
}

pub(super) fn c_type(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    match a.args.len() {
        1 => Ok(Value::Obj(sp.type_of(a.args[0]))),
        3 => {
            let globals = sp.frames.last().map(|f| f.0);
            sp.make_class_plain(a.args[0], a.args[1], a.args[2], globals)
        }
        _ => sp.type_error("type() takes 1 or 3 arguments"),
    }
}

pub(super) fn c_staticmethod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(sp.alloc(Object::StaticMethod(a.args[0])))
}

pub(super) fn c_classmethod(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 1, 1)?;
    Ok(sp.alloc(Object::ClassMethod(a.args[0])))
}

pub(super) fn c_property(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.arity(sp, 0, 4)?;
    let fget = a.get(0, "fget").unwrap_or(Value::None);
    let fset = a.get(1, "fset").unwrap_or(Value::None);
    Ok(sp.alloc(Object::Property { fget, fset }))
}

pub(super) fn c_super(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.len() != 2 {
        return Err(
            sp.unsupported("super() needs two arguments (`super(Class, self)`) in Python 2")
        );
    }
    let (cls, obj) = (a.args[0], a.args[1]);
    if !matches!(cls, Value::Obj(id) if matches!(sp.heap.get(id), Object::Class(_))) {
        return sp.type_error("super() argument 1 must be type");
    }
    let inst = sp.heap.alloc(Object::Instance(Instance {
        class: sp.types.super_,
        dict: Default::default(),
    }));
    if let Object::Instance(i) = sp.heap.get_mut(inst) {
        i.dict.set("__thisclass__", cls);
        i.dict.set("__self__", obj);
    }
    Ok(Value::Obj(inst))
}

/// `type.__new__(mcs, name, bases, namespace)` from a metaclass's `__new__`.
pub(super) fn m_type_new(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    if a.args.len() != 4 {
        return sp.type_error("type.__new__() takes exactly 4 arguments");
    }
    let globals = sp.frames.last().map(|f| f.0);
    let c = sp.make_class_plain(a.args[1], a.args[2], a.args[3], globals)?;
    if let (Value::Obj(cid), Value::Obj(mcs)) = (c, a.args[0]) {
        if sp.is_metaclass(mcs) {
            sp.metaclasses.insert(cid, mcs);
        }
    }
    Ok(c)
}

pub(super) fn m_type_subclasses(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 0, 0)?;
    let Value::Obj(cls) = this else {
        return sp.type_error("__subclasses__() needs a class");
    };
    // Classes are allocated when created: heap order is creation order.
    let subs: Vec<Value> = (0..sp.heap.len() as u32)
        .map(ObjId)
        .filter(|&k| sp.heap.class(k).is_some_and(|c| c.bases.contains(&cls)))
        .map(Value::Obj)
        .collect();
    Ok(sp.new_list(subs))
}

pub(super) fn m_object_init(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    a.take_self(sp)?;
    Ok(Value::None)
}

pub(super) fn m_object_setattr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 2, 2)?;
    let n = attr_name_arg(sp, a.args[0], "__setattr__")?;
    if let Value::Obj(id) = this {
        if let Object::Instance(i) = sp.heap.get_mut(id) {
            i.dict.set(&n, a.args[1]);
            return Ok(Value::None);
        }
    }
    sp.setattr_raw(this, &n, a.args[1])?;
    Ok(Value::None)
}

pub(super) fn m_object_subclasshook(sp: &mut ObjSpace, _a: &mut BArgs) -> R {
    let b = sp.builtins_module;
    Ok(sp.module_attr(b, "NotImplemented").unwrap_or(Value::None))
}

pub(super) fn m_object_hash(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 0, 0)?;
    Ok(Value::Int(sp.id_of(this)))
}

pub(super) fn m_object_getattribute(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    a.arity(sp, 1, 1)?;
    let n = attr_name_arg(sp, a.args[0], "__getattribute__")?;
    sp.getattr(this, &n)
}

pub(super) fn m_exc_init(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    if let Value::Obj(id) = this {
        if matches!(sp.heap.get(id), Object::Instance(_)) {
            sp.init_exception_args(id, a.args.clone());
        }
    }
    Ok(Value::None)
}

pub(super) fn m_exc_str(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    let s = sp.exception_str(this)?;
    Ok(sp.new_str_vec(s))
}

pub(super) fn m_exc_repr(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    let s = sp.repr_value(this)?;
    Ok(sp.new_str_vec(s))
}

pub(super) fn m_property(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let id = a.id;
    let this = a.take_self(sp)?;
    let (fget, fset) = match this {
        Value::Obj(id) => match sp.heap.get(id) {
            Object::Property { fget, fset } => (*fget, *fset),
            _ => return sp.type_error("descriptor requires a 'property' object"),
        },
        _ => return sp.type_error("descriptor requires a 'property' object"),
    };
    a.arity(sp, 1, 2)?;
    let f = a.args[0];
    match id {
        B::PropertySetter => Ok(sp.alloc(Object::Property { fget, fset: f })),
        B::PropertyGetter => Ok(sp.alloc(Object::Property { fget: f, fset })),
        B::PropertyDeleter => Ok(sp.alloc(Object::Property { fget, fset })),
        _ => {
            // __get__(obj, type)
            if f == Value::None {
                return Ok(this);
            }
            sp.call_value(fget, vec![f], Vec::new())
        }
    }
}

pub(super) fn m_function_get(sp: &mut ObjSpace, a: &mut BArgs) -> R {
    let this = a.take_self(sp)?;
    match a.args.first() {
        Some(&obj) if obj != Value::None => Ok(sp.alloc(Object::BoundMethod {
            func: this,
            self_value: obj,
        })),
        _ => Ok(this),
    }
}
