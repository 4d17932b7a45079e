//! Unit tests of the annotation lattice: unions (None rules, numbers, nonneg, instances'
//! common base, tuples), and list/dict definitions generalizing as a whole.

use super::bookkeeper::Bookkeeper;
use super::model::*;
use crate::objspace::object::{AttrMap, BuiltinType, Class, Heap, IntKind, ObjId, Object, Value};
use std::rc::Rc;

fn class(heap: &mut Heap, name: &str, base: Option<ObjId>, builtin: Option<BuiltinType>) -> ObjId {
    let mro_base: Vec<ObjId> = base
        .map(|b| heap.class(b).unwrap().mro.clone())
        .unwrap_or_default();
    let id = heap.alloc(Object::Class(Box::new(Class {
        name: Rc::from(name),
        bases: base.into_iter().collect(),
        mro: Vec::new(),
        dict: AttrMap::default(),
        module: None,
        span: None,
        name_span: None,
        builtin,
        constructor: None,
        attr_spans: Vec::new(),
    })));
    let mut mro = vec![id];
    mro.extend(mro_base);
    if let Object::Class(c) = heap.get_mut(id) {
        c.mro = mro;
    }
    id
}

struct World {
    heap: Heap,
    bk: Bookkeeper,
    base: ObjId,
    a: ObjId,
    b: ObjId,
    other: ObjId,
}

fn world() -> World {
    let mut heap = Heap::default();
    let object = class(&mut heap, "object", None, Some(BuiltinType::Object));
    let base = class(&mut heap, "Base", Some(object), None);
    let a = class(&mut heap, "A", Some(base), None);
    let b = class(&mut heap, "B", Some(base), None);
    let other = class(&mut heap, "Other", Some(object), None);
    let bk = Bookkeeper::new(&heap);
    World {
        heap,
        bk,
        base,
        a,
        b,
        other,
    }
}

impl World {
    fn union(&mut self, x: &SomeValue, y: &SomeValue) -> Result<SomeValue, super::AnnError> {
        self.bk.union(&self.heap, x, y)
    }
    fn describe(&self, s: &SomeValue) -> String {
        self.bk.describe(&self.heap, s)
    }
    fn inst(&mut self, cls: ObjId) -> SomeValue {
        let cd = self.bk.getuniqueclassdef(&self.heap, cls).unwrap();
        SomeValue::instance(cd)
    }
}

fn str_or_none() -> SomeValue {
    SomeValue::Str {
        can_be_none: true,
        no_nul: false,
        konst: None,
    }
}

#[test]
fn none_joins_pointers_only() {
    let mut w = world();
    let s = w.union(&SomeValue::None, &SomeValue::string()).unwrap();
    assert_eq!(w.describe(&s), "str or None");
    let i = w.inst(w.a);
    let s = w.union(&i, &SomeValue::None).unwrap();
    assert_eq!(w.describe(&s), "instance of A or None");
    let def = w.bk.new_listdef(SomeValue::int());
    let l = SomeValue::List { def, konst: None };
    assert!(w.union(&SomeValue::None, &l).is_ok());
    assert!(w.union(&SomeValue::None, &SomeValue::int()).is_err());
    assert!(w.union(&SomeValue::float(), &SomeValue::None).is_err());
    assert!(w
        .union(&SomeValue::None, &SomeValue::tuple(vec![SomeValue::int()]))
        .is_err());
    // None with a char gives a string that can be None.
    let s = w.union(&SomeValue::char(true), &SomeValue::None).unwrap();
    assert!(matches!(
        s,
        SomeValue::Str {
            can_be_none: true,
            no_nul: true,
            ..
        }
    ));
}

#[test]
fn numbers() {
    let mut w = world();
    let nonneg = SomeValue::nonneg_int();
    let s = w.union(&nonneg, &SomeValue::nonneg_int()).unwrap();
    assert_eq!(w.describe(&s), "int, non-negative");
    let s = w.union(&nonneg, &SomeValue::int()).unwrap();
    assert_eq!(w.describe(&s), "int");
    let s = w.union(&SomeValue::bool(), &nonneg).unwrap();
    assert_eq!(w.describe(&s), "int, non-negative");
    let s = w.union(&SomeValue::bool(), &SomeValue::bool()).unwrap();
    assert_eq!(w.describe(&s), "bool");
    let s = w.union(&SomeValue::int(), &SomeValue::float()).unwrap();
    assert_eq!(w.describe(&s), "float");
    assert!(w.union(&SomeValue::int(), &SomeValue::string()).is_err());
    // constants are kept only when equal
    let three = SomeValue::Integer {
        nonneg: true,
        kind: IntKind::Signed,
        konst: Some(Value::Int(3)),
    };
    let four = SomeValue::Integer {
        nonneg: true,
        kind: IntKind::Signed,
        konst: Some(Value::Int(4)),
    };
    assert_eq!(
        w.union(&three, &three).unwrap().konst(),
        Some(Value::Int(3))
    );
    assert_eq!(w.union(&three, &four).unwrap().konst(), None);
}

#[test]
fn unsigned_needs_nonneg_signed() {
    let mut w = world();
    let u = SomeValue::int_of_kind(IntKind::Unsigned, true);
    let s = w.union(&u, &SomeValue::nonneg_int()).unwrap();
    assert!(s.is_unsigned());
    assert!(w.union(&u, &SomeValue::int()).is_err());
    assert!(w
        .union(&SomeValue::int_of_kind(IntKind::LongLong, false), &u)
        .is_err());
}

#[test]
fn strings() {
    let mut w = world();
    let s = w
        .union(&SomeValue::char(true), &SomeValue::char(false))
        .unwrap();
    assert!(matches!(s, SomeValue::Char { no_nul: false, .. }));
    let s = w
        .union(&SomeValue::char(true), &SomeValue::string0(true))
        .unwrap();
    assert!(matches!(
        s,
        SomeValue::Str {
            no_nul: true,
            can_be_none: false,
            ..
        }
    ));
    let s = w.union(&str_or_none(), &SomeValue::string()).unwrap();
    assert!(s.can_be_none());
    assert!(w
        .union(&SomeValue::string(), &SomeValue::unicode(false))
        .is_err());
    let s = w
        .union(&SomeValue::unichar(false), &SomeValue::unicode(false))
        .unwrap();
    assert_eq!(w.describe(&s), "unicode");
}

#[test]
fn instances_join_to_common_base() {
    let mut w = world();
    let (a, b, other, base) = (w.inst(w.a), w.inst(w.b), w.inst(w.other), w.inst(w.base));
    let s = w.union(&a, &b).unwrap();
    assert_eq!(w.describe(&s), "instance of Base");
    let s = w.union(&a, &base).unwrap();
    assert_eq!(w.describe(&s), "instance of Base");
    let e = w.union(&a, &other).unwrap_err();
    assert!(e.msg.contains("no common base class"), "{}", e.msg);
}

#[test]
fn tuples_same_length_only() {
    let mut w = world();
    let t1 = SomeValue::tuple(vec![SomeValue::nonneg_int(), SomeValue::string()]);
    let t2 = SomeValue::tuple(vec![SomeValue::int(), SomeValue::char(false)]);
    let s = w.union(&t1, &t2).unwrap();
    assert_eq!(w.describe(&s), "tuple (int, str)");
    let t3 = SomeValue::tuple(vec![SomeValue::int()]);
    let e = w.union(&t1, &t3).unwrap_err();
    assert!(e.msg.contains("different lengths"));
    let t4 = SomeValue::tuple(vec![SomeValue::int(), SomeValue::int()]);
    assert!(w.union(&t1, &t4).is_err());
}

#[test]
fn list_defs_generalize_as_a_whole() {
    let mut w = world();
    let d1 = w.bk.new_listdef(SomeValue::nonneg_int());
    let d2 = w.bk.new_listdef(SomeValue::int());
    let (l1, l2) = (
        SomeValue::List {
            def: d1,
            konst: None,
        },
        SomeValue::List {
            def: d2,
            konst: None,
        },
    );
    // `contains` has no side effect on different lists
    assert!(!w.bk.contains(&w.heap, &l1, &l2));
    assert_ne!(w.bk.list_item(d1), w.bk.list_item(d2));
    let u = w.union(&l1, &l2).unwrap();
    // the two definitions are now one, with the general item type
    assert_eq!(w.bk.list_item(d1), w.bk.list_item(d2));
    assert_eq!(w.describe(&u), "list of int");
    assert!(w.bk.eq(&w.heap, &l1, &l2));
    // generalizing one generalizes the other
    w.bk.generalize_list(&w.heap, d2, &SomeValue::float())
        .unwrap();
    assert_eq!(w.describe(&l1), "list of float");
    // and incompatible items are refused
    let e =
        w.bk.generalize_list(&w.heap, d1, &SomeValue::string())
            .unwrap_err();
    assert_eq!(e.code, "RPY202");
    // a list of a list type
    let d3 = w.bk.new_listdef(SomeValue::string());
    let l3 = SomeValue::List {
        def: d3,
        konst: None,
    };
    let e = w.union(&l1, &l3).unwrap_err();
    assert_eq!(e.code, "RPY202");
}

#[test]
fn dict_defs_generalize_keys_and_values() {
    let mut w = world();
    let d1 = w.bk.new_dictdef();
    let d2 = w.bk.new_dictdef();
    w.bk.generalize_key(&w.heap, d1, &SomeValue::string())
        .unwrap();
    w.bk.generalize_value(&w.heap, d1, &SomeValue::nonneg_int())
        .unwrap();
    w.bk.generalize_value(&w.heap, d2, &SomeValue::int())
        .unwrap();
    let u = w
        .union(
            &SomeValue::Dict {
                def: d1,
                konst: None,
            },
            &SomeValue::Dict {
                def: d2,
                konst: None,
            },
        )
        .unwrap();
    assert_eq!(w.describe(&u), "dict of str to int");
    assert_eq!(
        w.describe(&SomeValue::Dict {
            def: d2,
            konst: None
        }),
        "dict of str to int"
    );
    let e =
        w.bk.generalize_key(&w.heap, d2, &SomeValue::int())
            .unwrap_err();
    assert!(
        e.msg.starts_with("dict keys cannot be both str and int"),
        "{}",
        e.msg
    );
}

#[test]
fn readers_are_reflowed_when_items_generalize() {
    let mut w = world();
    let d = w.bk.new_listdef(SomeValue::nonneg_int());
    w.bk.position = Position {
        graph: 0,
        block: 3,
        op: 1,
    };
    w.bk.read_list_item(d);
    assert!(w.bk.reflow.is_empty());
    w.bk.generalize_list(&w.heap, d, &SomeValue::nonneg_int())
        .unwrap();
    assert!(w.bk.reflow.is_empty(), "no change, no reflow");
    w.bk.generalize_list(&w.heap, d, &SomeValue::int()).unwrap();
    assert_eq!(
        w.bk.reflow,
        vec![Position {
            graph: 0,
            block: 3,
            op: 1
        }]
    );
}

#[test]
fn impossible_and_error_are_neutral_and_absorbing() {
    let mut w = world();
    let s = w.union(&SomeValue::Impossible, &SomeValue::int()).unwrap();
    assert_eq!(w.describe(&s), "int");
    let s = w.union(&SomeValue::Error, &SomeValue::string()).unwrap();
    assert!(s.is_error());
    let s = w.union(&SomeValue::Impossible, &SomeValue::None).unwrap();
    assert!(matches!(s, SomeValue::None));
}

#[test]
fn improve_narrows_instances_and_none() {
    let mut w = world();
    let base = w.inst(w.base);
    let a = w.inst(w.a);
    let base_or_none = w.bk.noneify(&w.heap, &base).unwrap();
    let s = w.bk.improve(&w.heap, &base_or_none, &a);
    assert_eq!(w.describe(&s), "instance of A");
    let s = w.bk.improve(&w.heap, &base_or_none, &SomeValue::None);
    assert!(matches!(s, SomeValue::None));
    let other = w.inst(w.other);
    let s = w.bk.improve(&w.heap, &a, &other);
    assert!(s.is_impossible());
    let s =
        w.bk.improve(&w.heap, &SomeValue::int(), &SomeValue::nonneg_int());
    assert_eq!(w.describe(&s), "int, non-negative");
}

#[test]
fn reference_forms() {
    let mut w = world();
    assert_eq!(
        w.bk.annotator_form(&w.heap, &SomeValue::nonneg_int()),
        "SomeInteger(nonneg=True)"
    );
    let d = w.bk.new_listdef(SomeValue::string());
    assert_eq!(
        w.bk.annotator_form(
            &w.heap,
            &SomeValue::List {
                def: d,
                konst: None
            }
        ),
        "SomeList(listdef=<[SomeString()]>)"
    );
    let a = w.inst(w.a);
    let a = w.bk.noneify(&w.heap, &a).unwrap();
    assert_eq!(
        w.bk.annotator_form(&w.heap, &a),
        "SomeInstance(can_be_None=True, classdef=A)"
    );
    assert_eq!(
        w.bk.annotator_form(&w.heap, &SomeValue::int_of_kind(IntKind::Unsigned, true)),
        "SomeInteger(knowntype=r_uint, nonneg=True, unsigned=True)"
    );
}

#[test]
fn unknown_absorbs_unions_and_is_equal_to_any_unknown() {
    let mut w = world();
    let u = SomeValue::Unknown(Rc::from("rpython.rlib.rbigint"));
    let v = SomeValue::Unknown(Rc::from("copy.copy"));
    for other in [
        SomeValue::int(),
        SomeValue::string(),
        SomeValue::None,
        SomeValue::Error,
    ] {
        assert!(w.union(&u, &other).unwrap().is_unknown());
        assert!(w.union(&other, &u).unwrap().is_unknown());
    }
    // The fixpoint needs every unknown to contain every other one.
    assert!(w.bk.contains(&w.heap, &u, &v));
    assert!(u.is_error() && u.is_unknown() && u.can_be_none());
}

#[test]
fn an_unknown_prebuilt_object_is_an_unknown_annotation() {
    let mut w = world();
    let id = w.heap.alloc(Object::Unknown {
        name: Rc::from("rpython.rlib.rsre"),
        instance_of: None,
    });
    let s = w.bk.immutablevalue(&w.heap, Value::Obj(id)).unwrap();
    assert!(matches!(s, SomeValue::Unknown(ref n) if &**n == "rpython.rlib.rsre"));
    assert!(w.bk.describe(&w.heap, &s).starts_with("unknown"));
}
