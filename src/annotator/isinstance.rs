//! Identity and type tests: `is`, `issubtype` and `isinstance`. Besides a boolean
//! annotation they give the narrowing the flow graph's exits use (the `knowntypedata`
//! of the reference), so that a branch sees the tested variable with the tested type.

use super::annrpython::Annotator;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{BuiltinType, IntKind, ObjId, Object, Value};
use std::rc::Rc;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// `except Unmodelled as e:` (`issubtype(etype, Unmodelled)`): the handler sees an
    /// instance of a class rpy-lsp does not model, so on the true branch the exception value
    /// is unknown. Once handlers merge, the type no longer says which variable it is the
    /// type of: then every exception instance entering the block is narrowed.
    pub(super) fn issubtype_of_unknown(
        &mut self,
        s_etype: &SomeValue,
        s_cls: &SomeValue,
    ) -> SomeValue {
        let vars: Vec<crate::flowspace::VarId> = match s_etype {
            S::Type { of: Some(of), .. } => of.to_vec(),
            _ => {
                let pos = self.bk.position;
                let block = &self.graphs[pos.graph as usize].blocks[pos.block as usize];
                block
                    .inputargs
                    .iter()
                    .copied()
                    .filter(|&v| match self.binding(pos.graph, v) {
                        S::Instance { classdef, .. } => self
                            .bk
                            .class_desc(self.bk.classdef(classdef).desc)
                            .is_some_and(|c| {
                                crate::annotator::bookkeeper::Bookkeeper::is_exception_class(
                                    self.space.heap(),
                                    c.cls,
                                )
                            }),
                        _ => false,
                    })
                    .collect()
            }
        };
        let ktd = (!vars.is_empty()).then(|| {
            Rc::new(
                vars.iter()
                    .map(|&v| (true, v, s_cls.clone()))
                    .collect::<Vec<_>>(),
            )
        });
        S::Bool { konst: None, ktd }
    }

    pub(super) fn op_is(
        &mut self,
        op: &SpaceOperation,
        a: &[SomeValue],
    ) -> Result<SomeValue, AnnError> {
        let (s1, s2) = (&a[0], &a[1]);
        let heap = self.space.heap();
        let c1 = self.bk.pbc_const(s1).or_else(|| {
            if s1.is_immutable_constant() {
                s1.konst()
            } else {
                None
            }
        });
        let c2 = self.bk.pbc_const(s2).or_else(|| {
            if s2.is_immutable_constant() {
                s2.konst()
            } else {
                None
            }
        });
        let mut konst = None;
        // a low-level type (a constant) is never another kind of constant: `TYPE is Signed`
        // in a function specialized on TYPE is decided for each TYPE
        let is_ll = |s: &SomeValue| matches!(s, S::LlType(_));
        if (is_ll(s1) && c2.is_some()) || (is_ll(s2) && c1.is_some()) {
            konst = Some(false);
        } else if let Some(k2) = c2 {
            if let Some(k1) = c1 {
                konst = Some(
                    k1 == k2
                        || super::union::same_const(heap, Some(k1), Some(k2))
                            && !matches!(k1, Value::Obj(_)),
                );
            }
            if k2 == Value::None && !s1.can_be_none() {
                konst = Some(false);
            }
        } else if c1 == Some(Value::None) && !s2.can_be_none() {
            konst = Some(false);
        }
        if konst.is_none() {
            if let (
                S::Pbc {
                    descs: d1,
                    can_be_none: n1,
                },
                S::Pbc {
                    descs: d2,
                    can_be_none: n2,
                },
            ) = (s1, s2)
            {
                if (!n1 || !n2) && !d1.iter().any(|d| d2.contains(d)) {
                    konst = Some(false);
                }
            }
        }
        let mut ktd: KnownTypeData = Vec::new();
        let mut bind = |src: &SomeValue,
                        src_const: Option<Value>,
                        tgt: Hlvalue,
                        s_tgt: &SomeValue,
                        this: &mut Self| {
            let Hlvalue::Var(tv) = tgt else { return };
            if let (S::Type { of: Some(of), .. }, Some(Value::Obj(cls))) = (s_tgt, src_const) {
                if let Some(vt) = this.bk.valueoftype(this.space.heap(), cls) {
                    for &v in of.iter() {
                        ktd.push((true, v, vt.clone()));
                    }
                }
            }
            ktd.push((true, tv, src.clone()));
            let nonnone = if src_const == Some(Value::None) && s_tgt.can_be_none() {
                s_tgt.nonnoneify()
            } else {
                s_tgt.clone()
            };
            ktd.push((false, tv, nonnone));
        };
        bind(s2, c2, op.args[0], s1, self);
        bind(s1, c1, op.args[1], s2, self);
        Ok(S::Bool {
            konst,
            ktd: (!ktd.is_empty()).then(|| Rc::new(ktd)),
        })
    }

    pub(super) fn op_issubtype(&mut self, g: u32, a: &[SomeValue]) -> Result<SomeValue, AnnError> {
        if let S::Type { of: Some(of), .. } = &a[0] {
            let of = of.clone();
            let s_obj = self.binding(g, of[0]);
            return self.s_isinstance(&s_obj, &a[1], &of);
        }
        // A class chosen at run time among several (a PBC of classes, not `type(x)`): the
        // annotator answers a bool, but the reference's RTyper has no `issubtype` for
        // its ClassesPBCRepr.
        if let S::Pbc { descs, .. } = &a[0] {
            if descs.len() > 1 && matches!(self.bk.desc(descs[0]), Desc::Class(_)) {
                return Err(AnnError::new(
                    "RPY205",
                    "issubclass() of a variable holding one of several classes is not supported by the RPython typer: test an instance with isinstance(), or compare the classes with `is`".into(),
                ).at_typer());
            }
        }
        let heap = self.space.heap();
        let t = a[0].konst().or_else(|| self.bk.pbc_const(&a[0]));
        let c = a[1].konst().or_else(|| self.bk.pbc_const(&a[1]));
        if let (Some(Value::Obj(t)), Some(Value::Obj(c))) = (t, c) {
            if let (Some(tc), Some(_)) = (heap.class(t), heap.class(c)) {
                return Ok(SomeValue::const_bool(tc.mro.contains(&c)));
            }
        }
        Ok(SomeValue::bool())
    }

    /// The heap class that an annotation's values are known to be instances of.
    fn knowntype_class(&self, s: &SomeValue) -> Option<ObjId> {
        let by = |n: &str| self.bk.builtin_classes.get(n).copied();
        match s {
            S::Integer { kind, .. } => by(int_kind_name(*kind)),
            S::Bool { .. } => by("bool"),
            S::Float { .. } => by("float"),
            S::SingleFloat => by("r_singlefloat"),
            S::Char { .. } | S::Str { .. } => by("str"),
            S::UnicodeCodePoint { .. } | S::Unicode { .. } => by("unicode"),
            S::Tuple(_) => by("tuple"),
            S::List { .. } => by("list"),
            S::Dict { .. } => by("dict"),
            S::None => by("NoneType"),
            S::Instance { classdef, .. } => self
                .bk
                .class_desc(self.bk.classdef(*classdef).desc)
                .map(|c| c.cls),
            _ => None,
        }
    }

    /// `isinstance(x, T)`: constant when the annotation decides it; on the true branch,
    /// `x` is narrowed to instances of `T`.
    pub fn s_isinstance(
        &mut self,
        s_obj: &SomeValue,
        s_type: &SomeValue,
        vars: &[crate::flowspace::VarId],
    ) -> Result<SomeValue, AnnError> {
        if let S::Tuple(_) = s_type {
            if !s_obj.is_immutable_constant() {
                return Err(AnnError::new(
                    "RPY205",
                    "isinstance() with a tuple of classes is not supported by RPython: write isinstance(x, A) or isinstance(x, B)".into(),
                ));
            }
        }
        if let S::Unknown(_) = s_type {
            // `except Unmodelled as e:` or `isinstance(x, Unmodelled)`: on the true branch
            // the value is an instance of an unknown class, so unknown (never a false error).
            let ktd = (!vars.is_empty()).then(|| {
                Rc::new(
                    vars.iter()
                        .map(|&v| (true, v, s_type.clone()))
                        .collect::<Vec<_>>(),
                )
            });
            return Ok(S::Bool { konst: None, ktd });
        }
        if let S::Builtin {
            id: B::Bytearray,
            s_self: None,
        } = s_type
        {
            // `bytearray` is a built-in function here, not a class: only a bytearray is
            // one
            return Ok(match s_obj {
                S::ByteArray => SomeValue::const_bool(true),
                s if s.is_error() => SomeValue::bool(),
                _ => SomeValue::const_bool(false),
            });
        }
        let Some(Value::Obj(typ)) = s_type.konst().or_else(|| self.bk.pbc_const(s_type)) else {
            return Ok(SomeValue::bool());
        };
        let heap = self.space.heap();
        let classes: Vec<ObjId> = match heap.get(typ) {
            Object::Tuple(items) => {
                if !s_obj.is_immutable_constant() {
                    return Err(AnnError::new(
                        "RPY205",
                        "isinstance() with a tuple of classes is not supported by RPython: write isinstance(x, A) or isinstance(x, B)".into(),
                    ));
                }
                items
                    .iter()
                    .filter_map(|v| {
                        if let Value::Obj(c) = v {
                            Some(*c)
                        } else {
                            None
                        }
                    })
                    .collect()
            }
            Object::Class(_) => vec![typ],
            _ => return Ok(SomeValue::bool()),
        };
        // The reference narrows `x` on the true branch to the type's annotation, which
        // `dict`, `long`, `object` and `basestring` do not have (they are not classes
        // to it): isinstance() with them is an error even where the answer is known.
        if !s_obj.is_immutable_constant() {
            for &c in &classes {
                let Some(cc) = heap.class(c) else { continue };
                let refused = matches!(
                    cc.builtin,
                    Some(BuiltinType::Dict | BuiltinType::Long | BuiltinType::Object)
                ) || (cc.builtin == Some(BuiltinType::Other)
                    && &*cc.name == "basestring");
                if refused {
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "isinstance(x, {}) is not supported by RPython: `{}` is not a type the annotator can narrow to; test for the concrete types (str, unicode, int, a class of yours)",
                            cc.name, cc.name
                        ),
                    ));
                }
            }
        }
        let mut konst = None;
        if let Some(kt) = self.knowntype_class(s_obj) {
            let kt_mro = heap.class(kt).map(|c| c.mro.clone()).unwrap_or_default();
            let is_sub = classes
                .iter()
                .any(|&c| kt_mro.contains(&c) || abc_registered(heap, c, &kt_mro));
            let is_super = classes
                .iter()
                .any(|&c| heap.class(c).is_some_and(|cc| cc.mro.contains(&kt)));
            if is_sub {
                if !s_obj.can_be_none() {
                    konst = Some(true);
                }
            } else {
                // A plain int is never a bool (isinstance(x, bool) with x an int).
                let int_as_bool = matches!(
                    s_obj,
                    S::Integer {
                        kind: IntKind::Signed,
                        ..
                    }
                ) && classes.iter().all(|&c| {
                    heap.class(c)
                        .is_some_and(|cc| cc.builtin == Some(BuiltinType::Bool))
                });
                if !is_super || int_as_bool {
                    konst = Some(false);
                }
            }
        }
        // A class deriving from a built-in type has no class definition to test against.
        for &c in &classes {
            let heap = self.space.heap();
            if heap.class(c).is_some_and(|k| k.builtin.is_none()) {
                let d = self.bk.getdesc(heap, c)?;
                if self
                    .bk
                    .class_desc(d)
                    .is_some_and(|k| k.builtin_base.is_some())
                {
                    self.bk.classdef_of_desc(heap, d)?;
                }
            }
        }
        let mut narrowed = SomeValue::Impossible;
        for &c in &classes {
            match self.bk.valueoftype(self.space.heap(), c) {
                Some(v) => match self.bk.union(self.space.heap(), &narrowed, &v) {
                    Ok(u) => narrowed = u,
                    Err(_) => {
                        narrowed = SomeValue::Impossible;
                        break;
                    }
                },
                None => {
                    narrowed = SomeValue::Impossible;
                    break;
                }
            }
        }
        let ktd = if narrowed.is_impossible() || vars.is_empty() {
            None
        } else {
            Some(Rc::new(
                vars.iter()
                    .map(|&v| (true, v, narrowed.clone()))
                    .collect::<Vec<_>>(),
            ))
        };
        Ok(S::Bool { konst, ktd })
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// An `isinstance()` the annotator folded to one answer and now folds to the other:
    /// `isinstance(x, bool)` of an `x` seen as a bool (True), then generalized to an int
    /// (False: an int is taken for never a bool). The reference's annotator requires a
    /// result's new annotation to contain the old one, and a constant True does not
    /// contain a constant False: it stops there (its `setbinding` asserts).
    pub(super) fn check_refolded_isinstance(
        &mut self,
        g: u32,
        v: crate::flowspace::VarId,
        new: &SomeValue,
        span: crate::syntax::Span,
    ) {
        let old = &self.info[g as usize].bindings[v.0 as usize];
        let (Some(S::Bool { konst: Some(a), .. }), S::Bool { konst: Some(b), .. }) = (old, new)
        else {
            return;
        };
        if a == b {
            return;
        }
        let msg = format!(
            "isinstance() was folded to {} for an earlier annotation of its argument and is now {}: the RPython annotator cannot change a folded answer (isinstance(x, bool) of an x that is a bool on some calls or paths and an int on others); keep the flag in a variable of its own",
            if *a { "True" } else { "False" },
            if *b { "True" } else { "False" },
        );
        self.report(AnnError::new("RPY205", msg), span);
    }
}

/// Whether a class of `kt_mro` is a virtual subclass of the ABC `c` (`ABCMeta.register`,
/// as `numbers` registers `int` with `Integral`): registered with `c` or with one of its
/// subclasses, as CPython's `issubclass` answers (and the reference with it).
fn abc_registered(heap: &crate::objspace::object::Heap, c: ObjId, kt_mro: &[ObjId]) -> bool {
    let registered_with = |k: ObjId| {
        let Some(Value::Obj(reg)) = heap.class(k).and_then(|kc| kc.dict.get("_abc_registry"))
        else {
            return false;
        };
        match heap.get(reg) {
            Object::List(items) => items
                .iter()
                .any(|r| matches!(r, Value::Obj(r) if kt_mro.contains(r))),
            _ => false,
        }
    };
    if heap
        .class(c)
        .and_then(|cc| cc.dict.get("_abc_registry"))
        .is_none()
    {
        return false;
    }
    (0..heap.len() as u32).map(ObjId).any(|k| {
        heap.class(k)
            .is_some_and(|kc| kc.mro.contains(&c) && registered_with(k))
    })
}
