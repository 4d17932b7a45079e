//! The operations on one value (truth, length, iteration, conversions) and the methods of
//! the built-in types; the dispatcher that picks an operation's rule is in `dispatch`.
//! Attributes are in `getattr`; `is`, `issubtype` and `isinstance` in `isinstance`.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::classdef::ClassDesc;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::{Heap, IntKind, ObjId, Object, Value};
use std::rc::Rc;

use SomeValue as S;

/// Methods of built-in types RPython supports (the reference annotator's `method_*`), by
/// their entry in the registry of built-ins.
const STR_METHODS: &[B] = &[
    B::StrJoin,
    B::StrSplit,
    B::StrRsplit,
    B::StrStrip,
    B::StrLstrip,
    B::StrRstrip,
    B::StrReplace,
    B::StrStartswith,
    B::StrEndswith,
    B::StrFind,
    B::StrRfind,
    B::StrCount,
    B::StrLower,
    B::StrUpper,
    B::StrIsdigit,
    B::StrIsalpha,
    B::StrIsalnum,
    B::StrSplitlines,
    B::StrDecode,
    B::StrFormat,
];
pub(super) const CHAR_METHODS: &[B] = &[
    B::StrIsspace,
    B::StrIsalnum,
    B::StrIslower,
    B::StrIsupper,
    B::StrLower,
    B::StrUpper,
];
const UNICODE_METHODS: &[B] = &[
    B::UnicodeJoin,
    B::UnicodeSplit,
    B::UnicodeRsplit,
    B::UnicodeStrip,
    B::UnicodeLstrip,
    B::UnicodeRstrip,
    B::UnicodeReplace,
    B::UnicodeStartswith,
    B::UnicodeEndswith,
    B::UnicodeFind,
    B::UnicodeRfind,
    B::UnicodeCount,
    B::UnicodeEncode,
    B::UnicodeFormat,
];
const LIST_METHODS: &[B] = &[
    B::ListAppend,
    B::ListExtend,
    B::ListReverse,
    B::ListInsert,
    B::ListRemove,
    B::ListPop,
    B::ListIndex,
];
pub(super) const DICT_METHODS: &[B] = &[
    B::DictGet,
    B::DictSetdefault,
    B::DictCopy,
    B::DictUpdate,
    B::DictKeys,
    B::DictValues,
    B::DictItems,
    B::DictIterkeys,
    B::DictItervalues,
    B::DictIteritems,
    B::DictClear,
    B::DictPopitem,
    B::DictPop,
];

/// The methods of the built-in type of `s` RPython supports (for a char, those a char has
/// of its own; it has the str ones too), with the type's name; `None` for other values.
/// Completion lists them from here.
pub fn builtin_methods(s: &SomeValue) -> Option<(&'static str, &'static [B])> {
    Some(match s {
        S::Char { .. } | S::Str { .. } => ("str", STR_METHODS),
        S::UnicodeCodePoint { .. } | S::Unicode { .. } => ("unicode", UNICODE_METHODS),
        S::List { .. } => ("list", LIST_METHODS),
        S::Dict { .. } => ("dict", DICT_METHODS),
        _ => return None,
    })
}

pub(super) fn type_word(s: &SomeValue) -> &'static str {
    match s {
        S::Integer { .. } => "int",
        S::Bool { .. } => "bool",
        S::Float { .. } => "float",
        S::Char { .. } | S::Str { .. } => "str",
        S::UnicodeCodePoint { .. } | S::Unicode { .. } => "unicode",
        S::ByteArray => "bytearray",
        S::Tuple(_) => "tuple",
        S::List { .. } => "list",
        S::Dict { .. } => "dict",
        S::Instance { .. } => "instance",
        S::None => "None",
        S::Iterator { .. } | S::Generator { .. } => "iterator",
        _ => "object",
    }
}

/// Truth value of an immutable constant.
pub(super) fn const_truth(heap: &Heap, v: Value) -> Option<bool> {
    Some(match v {
        Value::None => false,
        Value::Bool(b) => b,
        Value::Int(i) => i != 0,
        Value::Float(f) => f != 0.0,
        Value::Obj(id) => match heap.get(id) {
            Object::Str(s) => !s.is_empty(),
            Object::Unicode(s) => !s.is_empty(),
            Object::RInt { value, .. } => *value != 0,
            Object::Tuple(t) => !t.is_empty(),
            _ => return None,
        },
    })
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    // ----- truth, identity, types -----

    pub(super) fn op_bool(
        &mut self,
        op: &SpaceOperation,
        s: &SomeValue,
    ) -> Result<SomeValue, AnnError> {
        if let S::Bool { .. } = s {
            return Ok(s.clone());
        }
        if !s.is_immutable_constant() {
            self.narrow_refusal(s.int_kind())?;
        }
        let heap = self.space.heap();
        let mut konst = None;
        if s.is_immutable_constant() {
            konst = s.konst().and_then(|c| const_truth(heap, c));
            if let S::Tuple(t) = s {
                konst = Some(!t.is_empty());
            }
        } else {
            match s {
                S::Instance {
                    can_be_none: false, ..
                }
                | S::Pbc {
                    can_be_none: false, ..
                } => konst = Some(true),
                S::None => konst = Some(false),
                S::Char { .. } | S::UnicodeCodePoint { .. } => konst = Some(true),
                S::Tuple(t) => konst = Some(!t.is_empty()),
                S::List { def, .. }
                    if self
                        .bk
                        .item(self.bk.list_item(*def))
                        .s_value
                        .is_impossible() =>
                {
                    self.bk.read_list_item(*def);
                    konst = Some(false);
                }
                _ => {}
            }
        }
        if s.is_number() {
            return Ok(S::Bool { konst, ktd: None });
        }
        let ktd = match op.args[0] {
            Hlvalue::Var(v) if s.can_be_none() => Some(Rc::new(vec![(true, v, s.nonnoneify())])),
            _ => None,
        };
        Ok(S::Bool { konst, ktd })
    }

    // ----- str(), len(), unary arithmetic, conversions -----

    pub(super) fn op_str(&mut self, op: Op, s: &SomeValue) -> Result<SomeValue, AnnError> {
        let what = if op == Op::Repr { "repr" } else { "str" };
        if s.konst().is_none() {
            self.narrow_refusal(s.int_kind())?;
        }
        match s {
            // str() and repr() of anything are a str to the reference's annotator: only its
            // typer refuses these
            S::Dict { .. } => Err(AnnError::new("RPY205", format!("{}() of a dict is not supported by RPython", what)).at_typer()),
            S::Pbc { .. } | S::Type { .. } if op == Op::Str && self.is_class_value(s) => match self.class_str_refusal(s) {
                Some(why) => Err(AnnError::new("RPY205", why).at_typer()),
                None => Ok(SomeValue::string0(true)),
            },
            S::Iterator { .. } | S::Generator { .. } | S::Builtin { .. } | S::BuiltinMethod { .. } | S::Pbc { .. } | S::Object => {
                Err(AnnError::new("RPY205", format!("{}() of {} is not supported by RPython", what, self.bk.describe_type(self.space.heap(), s))).at_typer())
            }
            s if op == Op::Repr => Err(AnnError::new(
                "RPY205",
                format!(
                    "repr() (or backticks) of {} is not supported by the RPython typer: use str(), or %r for instances",
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ).at_typer()),
            S::Str { no_nul, .. } if op == Op::Str => Ok(SomeValue::string0(*no_nul)),
            S::Char { no_nul, .. } if op == Op::Str => Ok(SomeValue::Char { no_nul: *no_nul, konst: None }),
            s if s.is_number() => Ok(SomeValue::string0(true)),
            _ => Ok(SomeValue::string()),
        }
    }

    /// Whether `s` is a class value: a type (`type(x)`, a built-in type) or a set of
    /// classes (a class PBC, `x.__class__`).
    pub(crate) fn is_class_value(&self, s: &SomeValue) -> bool {
        match s {
            S::Type { .. } => true,
            S::Pbc { descs, .. } => descs.iter().all(|&d| self.bk.class_desc(d).is_some()),
            _ => false,
        }
    }

    /// Whether str() (and `%s`) of a class value is refused, and why. The reference's
    /// typer gives a set of several classes (a class PBC, `x.__class__`) the name its
    /// vtable carries, but a single class is a constant without a vtable pointer and
    /// `type(x)` a class Repr without str(): both are typer errors there.
    pub(crate) fn class_str_refusal(&self, s: &SomeValue) -> Option<String> {
        match s {
            S::Type { konst: None, .. } => Some(
                "str() of type(x) is not supported by the RPython typer: use x.__class__, or a name the class carries".into(),
            ),
            S::Pbc { descs, can_be_none } if descs.len() < 2 && !can_be_none => Some(format!(
                "str() of a single class ({}) is not supported by the RPython typer: it has no run-time value to read the name from",
                self.bk.describe_type(self.space.heap(), s)
            )),
            _ => None,
        }
    }

    pub fn op_len(&mut self, s: &SomeValue) -> Result<SomeValue, AnnError> {
        match s {
            S::Char { .. } | S::UnicodeCodePoint { .. } => Ok(SomeValue::const_len(1)),
            S::Str { .. } | S::Unicode { .. } | S::ByteArray => Ok(SomeValue::nonneg_int()),
            S::Tuple(items) => Ok(SomeValue::const_len(items.len())),
            // a container that can hold nothing is known to be empty
            S::List { def, .. } => Ok(if self.bk.read_list_item(*def).is_impossible() {
                SomeValue::const_len(0)
            } else {
                SomeValue::nonneg_int()
            }),
            S::Dict { def, .. } => Ok(if self.bk.read_dict_key(*def).is_impossible() {
                SomeValue::const_len(0)
            } else {
                SomeValue::nonneg_int()
            }),
            S::Instance { classdef, .. } => {
                // As an attribute read: a __len__ that only subclasses define is found
                // there (mal's `len(ast)` on its base MalType).
                let mut stack = vec![*classdef];
                let mut defined = false;
                while let Some(cd) = stack.pop() {
                    let desc = self.bk.classdef(cd).desc;
                    if ClassDesc::lookup(&self.bk, desc, "__len__").is_some() {
                        defined = true;
                        break;
                    }
                    stack.extend(self.bk.classdef(cd).subdefs.iter().copied());
                }
                if !defined {
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "len() of an instance of `{}`, whose class defines no __len__",
                            self.bk.classdef(*classdef).name
                        ),
                    ));
                }
                self.call_instance_method(s, "__len__", &ArgsS::default())
            }
            S::None => Ok(SomeValue::Impossible),
            other => Err(AnnError::new(
                "RPY205",
                format!(
                    "len() of {} has no meaning",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )),
        }
    }

    pub(super) fn op_unary_arith(&mut self, op: Op, s: &SomeValue) -> Result<SomeValue, AnnError> {
        if op != Op::Pos {
            self.narrow_refusal(s.int_kind())?;
        }
        match (op, s) {
            (Op::Pos, S::Bool { .. }) => Ok(SomeValue::nonneg_int()),
            (Op::Abs, S::Bool { .. }) => Ok(SomeValue::nonneg_int()),
            (_, S::Bool { .. }) => Ok(SomeValue::int()),
            (Op::Abs, S::Integer { kind, .. }) => Ok(SomeValue::int_of_kind(*kind, true)),
            (Op::Pos, S::Integer { kind, nonneg, .. }) => {
                Ok(SomeValue::int_of_kind(*kind, *nonneg))
            }
            (_, S::Integer { kind, .. }) => Ok(SomeValue::int_of_kind(*kind, false)),
            (Op::Invert, S::Float { .. }) => Err(self.unsupported("~", &[s])),
            (Op::Pos, S::Float { .. }) => Ok(s.clone()),
            (_, S::Float { .. }) => Ok(SomeValue::float()),
            (Op::Neg, S::Instance { classdef, .. })
            | (Op::Pos, S::Instance { classdef, .. })
            | (Op::Invert, S::Instance { classdef, .. })
            | (Op::Abs, S::Instance { classdef, .. }) => {
                let (what, dunder) = match op {
                    Op::Neg => ("unary `-`", "__neg__"),
                    Op::Pos => ("unary `+`", "__pos__"),
                    Op::Invert => ("`~`", "__invert__"),
                    _ => ("abs()", "__abs__"),
                };
                Err(AnnError::new(
                    "RPY205",
                    format!(
                        "{} on instances of `{}` is not supported: {} is not honoured by RPython (call an ordinary method instead)",
                        what,
                        self.bk.classdef(*classdef).name,
                        dunder
                    ),
                ))
            }
            (_, S::None) => Ok(SomeValue::Impossible),
            _ => Err(self.unsupported(op.name(), &[s])),
        }
    }

    pub fn builtin_int(
        &mut self,
        s: &SomeValue,
        base: Option<&SomeValue>,
    ) -> Result<SomeValue, AnnError> {
        if let Some(b) = base {
            // the reference asserts a str (its knowntype): a unicode string with a base
            // is refused too
            if !s.is_str_like() || !b.is_int_like() {
                return Err(AnnError::new(
                    "RPY218",
                    format!(
                        "int(x, base) needs a str and an int, not {} and {}",
                        self.bk.describe_type(self.space.heap(), s),
                        self.bk.describe_type(self.space.heap(), b)
                    ),
                ));
            }
            return Ok(SomeValue::int());
        }
        self.int_of_constant(s)?;
        match s {
            S::Integer { kind, .. } if is_unsigned(*kind) => Err(AnnError::new(
                "RPY220",
                "int() of an unsigned number: use intmask() instead of int(r_uint(...))".into(),
            )),
            S::Integer { nonneg, .. } => Ok(S::Integer {
                nonneg: *nonneg,
                kind: IntKind::Signed,
                konst: None,
            }),
            S::Bool { .. } => Ok(SomeValue::nonneg_int()),
            S::Float { .. }
            | S::Char { .. }
            | S::Str { .. }
            | S::Unicode { .. }
            | S::UnicodeCodePoint { .. }
            | S::ByteArray => Ok(SomeValue::int()),
            S::Instance { .. } => Err(AnnError::new(
                "RPY205",
                "int() of an instance: special methods such as __int__ are not honoured".into(),
            )),
            other => Err(AnnError::new(
                "RPY218",
                format!(
                    "int() of {} is not supported",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )
            .at_typer()),
        }
    }

    /// The reference computes `int()` of a constant while annotating (its
    /// `constpropagate`): a result that needs a long (a float or decimal string beyond
    /// the machine word) is a prebuilt long, which it refuses; a ValueError or
    /// OverflowError (nan, inf, not a number) leaves the result unknown.
    fn int_of_constant(&self, s: &SomeValue) -> Result<(), AnnError> {
        let long = match s.konst() {
            // (int() of a float truncates; the machine word is [-2**63, 2**63))
            Some(Value::Float(f)) if f.is_finite() => {
                !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f.trunc())
            }
            Some(Value::Obj(id)) => match self.space.heap().get(id) {
                Object::Str(b) => std::str::from_utf8(b).is_ok_and(|t| {
                    let t = t.trim_matches(|c: char| c.is_ascii_whitespace());
                    let neg = t.starts_with('-');
                    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
                    let decimal = !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit());
                    // a number beyond i128 is certainly a long
                    decimal
                        && digits
                            .parse::<i128>()
                            .map_or(true, |v| i64::try_from(if neg { -v } else { v }).is_err())
                }),
                _ => false,
            },
            _ => false,
        };
        if long {
            return Err(AnnError::new(
                "RPY217",
                "int() of this constant is a long integer, which does not fit in a machine word: the reference computes it while annotating and refuses it"
                    .into(),
            ));
        }
        Ok(())
    }

    pub fn builtin_float(&mut self, s: &SomeValue) -> Result<SomeValue, AnnError> {
        if let Some(k) = s
            .int_kind()
            .filter(|k| k.is_narrow() && s.konst().is_none())
        {
            return Err(AnnError::new(
                "RPY220",
                format!(
                    "float() of a narrow C integer ({}): widen it first with widen() or intmask()",
                    super::model::int_kind_name(k)
                ),
            )
            .at_typer());
        }
        match s {
            s if s.is_number() || s.is_str_like() => Ok(SomeValue::float()),
            // the reference's SingleFloatRepr.rtype_float (a cast_primitive)
            S::SingleFloat => Ok(SomeValue::float()),
            // int() of a bytearray is typed, float() is not (the reference's typer fails
            // on it)
            S::ByteArray => Err(AnnError::new(
                "RPY218",
                "float() of a bytearray is not supported by the RPython typer: use float(str(b))"
                    .into(),
            )
            .at_typer()),
            other => Err(AnnError::new(
                "RPY218",
                format!(
                    "float() of {} is not supported",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )
            .at_typer()),
        }
    }

    // ----- iteration -----

    pub fn op_iter(&mut self, s: &SomeValue) -> Result<SomeValue, AnnError> {
        match s {
            S::List { .. }
            | S::Dict { .. }
            | S::Str { .. }
            | S::Char { .. }
            | S::Unicode { .. }
            | S::UnicodeCodePoint { .. } => Ok(S::Iterator {
                container: Rc::new(s.clone()),
                variant: IterVariant::Plain,
            }),
            S::Tuple(items) if items.len() == 1 => Ok(S::Iterator {
                container: Rc::new(s.clone()),
                variant: IterVariant::Plain,
            }),
            S::Tuple(items) => {
                let e = AnnError::new(
                    "RPY205",
                    format!(
                        "a loop over a tuple of {} items is not supported (the RPython typer only iterates over tuples of one item, and the items may have different types): loop over a list `[...]` instead, or over rlib.unroll.unrolling_iterable for a constant tuple",
                        items.len()
                    ),
                );
                // the reference's annotator iterates over the union of the items (a union
                // error when they do not mix); only its typer refuses the loop
                Err(if self.bk.compatible_all(self.space.heap(), items) {
                    e.at_typer()
                } else {
                    e
                })
            }
            S::Iterator { .. } | S::Generator { .. } => Ok(s.clone()),
            S::Instance { classdef, .. } => {
                let cd = *classdef;
                let desc = self.bk.classdef(cd).desc;
                // (a method only subclasses define is called through them, as any other)
                let in_family = ClassDesc::lookup(&self.bk, desc, "__iter__").is_some()
                    || self.bk.getallsubdefs(cd).into_iter().any(|sub| {
                        let d = self.bk.classdef(sub).desc;
                        ClassDesc::lookup(&self.bk, d, "__iter__").is_some()
                    });
                if !in_family {
                    return Err(AnnError::new(
                        "RPY205",
                        format!(
                            "instances of `{}` are not iterable: the class defines no __iter__",
                            self.bk.classdef(cd).name
                        ),
                    ));
                }
                self.call_instance_method(s, "__iter__", &ArgsS::default())
            }
            S::None => Ok(SomeValue::Impossible),
            other => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} is not iterable",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )),
        }
    }

    /// An item of a container, as iterating over it gives.
    pub fn getanyitem(
        &mut self,
        container: &SomeValue,
        variant: IterVariant,
    ) -> Result<SomeValue, AnnError> {
        Ok(match container {
            S::List { def, .. } => self.bk.read_list_item(*def),
            S::Str { no_nul, .. } | S::Char { no_nul, .. } => SomeValue::char(*no_nul),
            S::Unicode { no_nul, .. } | S::UnicodeCodePoint { no_nul, .. } => {
                SomeValue::unichar(*no_nul)
            }
            S::Tuple(items) => {
                let mut u = SomeValue::Impossible;
                for it in items.iter() {
                    u = self.bk.union(self.space.heap(), &u, it)?;
                }
                u
            }
            S::Dict { def, .. } => match variant {
                IterVariant::Values => self.bk.read_dict_value(*def),
                IterVariant::Items => {
                    let k = self.bk.read_dict_key(*def);
                    let v = self.bk.read_dict_value(*def);
                    if k.is_impossible() || v.is_impossible() {
                        SomeValue::Impossible
                    } else {
                        SomeValue::tuple(vec![k, v])
                    }
                }
                _ => self.bk.read_dict_key(*def),
            },
            S::None => SomeValue::Impossible,
            S::Error | S::Unknown(_) => container.clone(),
            other => {
                return Err(AnnError::new(
                    "RPY205",
                    format!(
                        "{} is not iterable",
                        self.bk.describe_type(self.space.heap(), other)
                    ),
                ))
            }
        })
    }

    pub fn op_next(&mut self, s: &SomeValue) -> Result<SomeValue, AnnError> {
        match s {
            S::Iterator { container, variant } => {
                let (container, variant) = (container.clone(), *variant);
                let item = self.getanyitem(&container, variant)?;
                if variant == IterVariant::Enumerate && !item.is_impossible() {
                    return Ok(SomeValue::tuple(vec![SomeValue::nonneg_int(), item]));
                }
                Ok(item)
            }
            S::Generator { graph } => Ok(self.bk.read_yield(*graph)),
            S::Instance { .. } => self.call_instance_method(s, "next", &ArgsS::default()),
            other => Err(AnnError::new(
                "RPY205",
                format!(
                    "{} is not an iterator",
                    self.bk.describe_type(self.space.heap(), other)
                ),
            )),
        }
    }
}

/// A class attribute along the MRO of a heap class.
pub(super) fn lookup_class_attr(heap: &Heap, cls: ObjId, name: &str) -> Option<Value> {
    heap.class(cls)?
        .mro
        .iter()
        .find_map(|&k| heap.class(k).and_then(|c| c.dict.get(name)))
}

#[cfg(test)]
mod method_table_tests {
    use super::{CHAR_METHODS, DICT_METHODS, LIST_METHODS, STR_METHODS, UNICODE_METHODS};
    use crate::builtins::GRAPH_ONLY;

    /// The methods `getattr` finds on a built-in type are methods of that type in the
    /// registry, each once, and exist at import time too.
    #[test]
    fn method_tables_are_methods_of_their_type() {
        for (cls, table) in [
            ("str", STR_METHODS),
            ("str", CHAR_METHODS),
            ("unicode", UNICODE_METHODS),
            ("list", LIST_METHODS),
            ("dict", DICT_METHODS),
        ] {
            for (i, &b) in table.iter().enumerate() {
                assert_eq!(b.class_method().map(|(c, _)| c), Some(cls), "{b}");
                assert!(!GRAPH_ONLY.contains(&b), "{b}");
                assert!(!table[..i].contains(&b), "{b} twice");
            }
        }
    }
}
