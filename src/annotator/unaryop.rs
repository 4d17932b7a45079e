//! What each operation produces: the dispatcher, and the operations on one value
//! (truth, length, iteration, conversions). Attributes are in `getattr`; `is`,
//! `issubtype` and `isinstance` in `isinstance`.

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
    /// The annotation of an operation's result (errors are reported, and give `Error`).
    pub fn consider_op(&mut self, op: &SpaceOperation, args: &[SomeValue]) -> SomeValue {
        // Operations on an erroneous value give an erroneous value, silently. Calls and
        // stores still happen, so that the error poisons what they reach instead of
        // leaving it undefined.
        let poisoned = match op.opname {
            Op::SimpleCall | Op::CallArgs => args[0].is_error(),
            Op::SetAttr | Op::SetItem => args[..2].iter().any(|a| a.is_error()),
            _ => args.iter().any(|a| a.is_error()),
        };
        // an ExtRegistryEntry's annotation: its own annotator-level code says
        if let Some(S::External(o)) = args.first() {
            if op.opname == Op::GetAttr && !args.iter().any(|a| a.is_error() || a.is_unknown()) {
                return self.ext_op(op.opname, *o, args);
            }
        }
        if op.opname == Op::IsSubtype && !args[0].is_error() && matches!(args[1], S::Unknown(_)) {
            return self.issubtype_of_unknown(&args[0], &args[1]);
        }
        if poisoned {
            if let (Op::GetAttr, Some(S::Unknown(_))) = (op.opname, args.first()) {
                if let Some(name) = args
                    .get(1)
                    .and_then(|a| a.konst())
                    .and_then(|c| self.heap().str_value(c))
                {
                    let name: Rc<str> = Rc::from(String::from_utf8_lossy(name).as_ref());
                    self.read_on_unknown(name);
                }
            }
            // An unknown value stays unknown (and says where it comes from).
            return args
                .iter()
                .find(|a| a.is_unknown())
                .cloned()
                .unwrap_or(SomeValue::Error);
        }
        if let (Op::GetAttr, Some(S::Instance { classdef, .. })) = (op.opname, args.first()) {
            if let Some(u) = self.attr_from_unknown_base(*classdef, op) {
                return u;
            }
            if let Some(full) = self.attr_missing_on_model_class(*classdef, op) {
                let msg = format!("the name `{full}` is not modelled by rpy-lsp (nor found on the search path): what comes from it is unknown, and the code using it is not checked");
                self.report(AnnError::new("RPY007", msg), op.span);
                return SomeValue::Unknown(full.into());
            }
        }
        let result = match self.consider_op_inner(op, args) {
            Ok(s) => s,
            Err(e) => {
                self.report(e, op.span);
                SomeValue::Error
            }
        };
        self.annotate_pending_del();
        self.annotate_prebuilt_r_dicts();
        result
    }

    /// The functions of each prebuilt `r_dict` are called on its key annotation, again
    /// whenever that annotation grows (the reference's `update_rdict_annotations`).
    fn annotate_prebuilt_r_dicts(&mut self) {
        for i in 0..self.bk.prebuilt_r_dicts.len() {
            let (def, last) = self.bk.prebuilt_r_dicts[i].clone();
            let key = self.bk.item(self.bk.dict_items(def).0).s_value.clone();
            if self.bk.eq(self.space.heap(), &key, &last) {
                continue;
            }
            self.bk.prebuilt_r_dicts[i].1 = key.clone();
            let Some((_, eq, hash)) = self.bk.r_dict_of(def).cloned() else {
                continue;
            };
            let span = self.bk.span;
            // the calls belong to no operation: the one being annotated must not look as if
            // it called the r_dict's functions (the RTyper takes its callees from there)
            let pos = self.bk.position;
            let called_before: Vec<bool> =
                self.info.iter().map(|i| i.callers.contains(pos)).collect();
            let family_before: Vec<bool> = self
                .families
                .families
                .iter()
                .map(|f| f.callers.contains(pos))
                .collect();
            if let Err(e) = self.emulate_r_dict_functions(&eq, &hash, key) {
                self.report(e, span);
            }
            for (g, info) in self.info.iter_mut().enumerate() {
                if !called_before.get(g).copied().unwrap_or(false) {
                    info.callers.remove(pos);
                }
            }
            for (f, fam) in self.families.families.iter_mut().enumerate() {
                if !family_before.get(f).copied().unwrap_or(false) {
                    fam.callers.remove(pos);
                }
            }
        }
    }

    /// `__del__` of each class with instances is called on an instance of that class.
    fn annotate_pending_del(&mut self) {
        while let Some(cd) = self.bk.pending_del.pop() {
            let desc = self.bk.classdef(cd).desc;
            let name: Rc<str> = Rc::from("__del__");
            let span = self.bk.span;
            let r = self
                .bk
                .s_read_class_attribute(self.space.heap(), desc, &name)
                .and_then(|s_del| {
                    self.call_value(&s_del, &ArgsS::simple(vec![SomeValue::instance(cd)]))
                });
            if let Err(e) = r {
                self.report(e, span);
            }
        }
    }

    /// `os.environ` is no dict after translation: the reference gives the program only
    /// `environ[k]` (read, set, del) and `environ.get(k)`, `.keys()` and `.items()`; any
    /// other operation on it (`len`, `in`, iteration, other methods) is refused.
    fn check_os_environ_op(&self, op: &SpaceOperation, a: &[SomeValue]) -> Result<(), AnnError> {
        let Some(S::Dict { def, .. }) = a.first() else {
            return Ok(());
        };
        if self.bk.os_environ_def != Some(*def) {
            return Ok(());
        }
        let what = match op.opname {
            Op::GetItem | Op::SetItem | Op::DelItem => return Ok(()),
            Op::GetAttr => match a
                .get(1)
                .and_then(|n| n.konst())
                .and_then(|c| self.heap().str_value(c))
            {
                Some(b"keys" | b"items" | b"get") => return Ok(()),
                Some(name) => format!("`os.environ.{}`", String::from_utf8_lossy(name)),
                None => "getattr()".to_string(),
            },
            Op::Contains => "`in`".to_string(),
            other => format!("`{}`", other.name()),
        };
        let e = AnnError::new(
            "RPY205",
            format!("{} is not supported on os.environ in RPython: it offers only `environ[key]` (read, assign, del), `environ.get(key)`, `environ.keys()` and `environ.items()`", what),
        );
        // `len` and `in` are the default int and bool to the reference's annotator; only
        // its typer refuses them
        Err(if matches!(op.opname, Op::Len | Op::Contains) {
            e.at_typer()
        } else {
            e
        })
    }

    pub fn consider_op_inner(
        &mut self,
        op: &SpaceOperation,
        a: &[SomeValue],
    ) -> Result<SomeValue, AnnError> {
        let g = self.bk.position.graph;
        if let Some(r) = self.consider_ll_op(op, a) {
            return r;
        }
        self.check_os_environ_op(op, a)?;
        use Op::*;
        match op.opname {
            Is => self.op_is(op, a),
            Type => Ok(S::Type {
                konst: None,
                of: op.args[0].var().map(|v| Rc::from(vec![v])),
            }),
            IsSubtype => self.op_issubtype(g, a),
            IsInstance => {
                let vars: Vec<_> = op.args[0].var().into_iter().collect();
                self.s_isinstance(&a[0], &a[1], &vars)
            }
            Repr | Str => self.op_str(op.opname, &a[0]),
            Len => self.op_len(&a[0]),
            Hash => Err(AnnError::new(
                "RPY210",
                "hash() is not RPython: use objectmodel.compute_hash()".into(),
            )),
            Id => Err(AnnError::new(
                "RPY210",
                "id() is not RPython: use objectmodel.compute_unique_id()".into(),
            )),
            GetAttr => {
                let name = self.attr_name(&a[1], "getattr")?;
                if let Some(Value::Obj(m)) = op.args[0].constant() {
                    if crate::flowspace::is_sys_module(self.heap(), Some(m)) {
                        // The flow space left it unfolded: not one of sys's constants.
                        return Err(AnnError::new(
                            "RPY217",
                            format!(
                                "`sys.{}` cannot be used in RPython code (the sys module is not a value; only {} are constants): take the command line from entry_point's argv, and write output with os.write",
                                name,
                                crate::flowspace::SYS_CONSTANTS.iter().map(|n| format!("sys.{}", n)).collect::<Vec<_>>().join(", ")
                            ),
                        ));
                    }
                }
                if let S::List { .. } = &a[0] {
                    self.check_immutable_list_resize(op, &name)?;
                }
                self.getattr_value(&a[0], &name)
            }
            SetAttr => self.op_setattr(&a[0], &a[1], &a[2]),
            DelAttr => Err(AnnError::new(
                "RPY205",
                "deleting attributes is not RPython".into(),
            )),
            GetItem => {
                if let Some(msg) = self.check_unpack_length(op, &a[0]) {
                    // As the reference: the unpacking raises ValueError unconditionally,
                    // so this path stops here (no value, no error by itself).
                    let pos = self.bk.position;
                    if !self.raising_unpacks.iter().any(|(p, _, _)| *p == pos) {
                        self.raising_unpacks.push((pos, op.span, msg));
                    }
                    return Ok(SomeValue::Impossible);
                }
                if matches!(a[0], S::Instance { .. }) && self.current_op_catches_index_error() {
                    return Err(AnnError::new(
                        "RPY205",
                        "indexing an instance (its `__getitem__`) where `IndexError` is caught is not supported by the RPython typer: call the method, or catch the error inside `__getitem__`".into(),
                    )
                    .at_typer());
                }
                self.op_getitem(&a[0], &a[1])
            }
            SetItem => self.op_setitem(&a[0], &a[1], &a[2]),
            DelItem => self.op_delitem(&a[0], &a[1]),
            GetSlice => self.op_getslice(&a[0], &a[1], &a[2]),
            SetSlice => self.op_setslice(&a[0], &a[1], &a[2], &a[3]),
            DelSlice => self.op_delslice(&a[0], &a[1], &a[2]),
            Pos | Neg | Invert | Abs => self.op_unary_arith(op.opname, &a[0]),
            Bool => self.op_bool(op, &a[0]),
            Hex | Oct => match &a[0] {
                s if s.is_int_like() => Ok(SomeValue::string0(true)),
                // a str to the reference's annotator (any object's hex()), refused by its typer
                s => Err(self.unsupported(op.opname.name(), &[s]).at_typer()),
            },
            Ord => match &a[0] {
                S::Char { .. } => Ok(SomeValue::nonneg_int()),
                S::UnicodeCodePoint { .. } => Ok(SomeValue::int()),
                s if s.is_str_like() || s.is_unicode_like() => Err(AnnError::new(
                    "RPY205",
                    "ord() needs a single character, and this string is not known to have length 1"
                        .into(),
                )),
                s => Err(self.unsupported("ord", &[s])),
            },
            Int => {
                let s = self.builtin_int(&a[0], None)?;
                Ok(self.constpropagate(B::Int, &a[0], s))
            }
            Float => {
                let s = self.builtin_float(&a[0])?;
                Ok(self.constpropagate(B::Float, &a[0], s))
            }
            Long => Err(AnnError::new(
                "RPY217",
                "long integers are not RPython: use rarithmetic.r_longlong".into(),
            )),
            Divmod => Err(AnnError::new(
                "RPY210",
                "`divmod()` is not supported by RPython (only its constant-folded form is): compute `a // b` and `a % b`".into(),
            )),
            // The reference annotates cmp() but its typer has no rule for it on any type.
            Cmp => Err(AnnError::new(
                "RPY205",
                "cmp() is not supported by the RPython typer: compare with `<` and `==`".into(),
            ).at_typer()),
            Add | Sub | Mul | TrueDiv | FloorDiv | Div | Mod | LShift | RShift | And | Or | Xor
            | InplaceAdd | InplaceSub | InplaceMul | InplaceTrueDiv | InplaceFloorDiv
            | InplaceDiv | InplaceMod | InplaceLShift | InplaceRShift | InplaceAnd | InplaceOr
            | InplaceXor => self.binop(op.opname, &a[0], &a[1]),
            Pow | InplacePow => Err(AnnError::new("RPY205", "a ** b is not RPython".into())),
            Lt | Le | Eq | Ne | Gt | Ge => self.op_compare(op, a),
            Contains => self.op_contains(op, &a[0], &a[1]),
            Iter => self.op_iter(&a[0]),
            Next => self.op_next(&a[0]),
            NewTuple => Ok(SomeValue::tuple(a.to_vec())),
            NewList => {
                let items: Vec<SomeValue> = a.iter().map(|s| s.not_const()).collect();
                self.bk.newlist(self.space.heap(), 0, &items, None)
            }
            NewDict => {
                let def = self.bk.dictdef_here(0);
                for pair in a.chunks(2) {
                    self.dict_key(def, &pair[0])?;
                    self.bk
                        .generalize_value(self.space.heap(), def, &pair[1].not_const())?;
                }
                Ok(S::Dict { def, konst: None })
            }
            NewSet => Err(AnnError::new(
                "RPY217",
                "sets are not RPython: use a dict with None values".into(),
            )),
            NewSlice => Err(AnnError::new(
                "RPY205",
                "slices with a step are not RPython".into(),
            )),
            SimpleCall | CallArgs => {
                let args = self.call_args_of(op.opname, a, &op.args)?;
                self.call_value(&a[0], &args)
            }
            YieldValue => {
                self.bk
                    .generalize_yield(self.space.heap(), g, &a[0].not_const())?;
                Ok(S::None)
            }
            Hint => Ok(a[0].clone()),
            Ll(op) => Err(AnnError::new(
                "RPY205",
                format!("low-level operation {} in a high-level graph", op.name()),
            )),
        }
    }

    /// `a, b = t` reads `t[0]`, `t[1]`… at one source position: for a tuple the number of
    /// targets must be its length (the unpacking would always raise otherwise).
    fn check_unpack_length(&self, op: &SpaceOperation, s: &SomeValue) -> Option<String> {
        let S::Tuple(items) = s else { return None };
        if op.args[1] != Hlvalue::Const(Value::Int(0)) {
            return None;
        }
        let pos = self.bk.position;
        let block = self.graphs[pos.graph as usize].block(crate::flowspace::BlockId(pos.block));
        let n = super::simplify::unpack_run_len(&block.operations, pos.op as usize);
        if n >= 2 && n != items.len() {
            return Some(format!(
                "unpacking a tuple of {} items into {} targets always raises ValueError",
                items.len(),
                n
            ));
        }
        None
    }

    /// "unsupported operation" error naming the operand types.
    pub fn unsupported(&self, what: &str, args: &[&SomeValue]) -> AnnError {
        let heap = self.space.heap();
        let descs: Vec<String> = args
            .iter()
            .map(|s| self.bk.describe_type(heap, s))
            .collect();
        AnnError::new(
            "RPY205",
            format!("`{}` is not supported on {}", what, descs.join(" and ")),
        )
    }

    // ----- attributes -----

    pub(super) fn no_method(&self, tname: &str, name: &str) -> AnnError {
        let hint = match (tname, name) {
            ("list", "sort") => ": use rpython.rlib.listsort.TimSort",
            (_, "format") => ": use % formatting",
            ("dict", "has_key") => ": use `key in d`",
            ("list", "count") => ": count the matching items in a loop",
            ("list", "clear") => ": use `del lst[:]`",
            ("str", "encode") => ": encode() is for unicode strings (a str already holds bytes)",
            ("unicode", "decode") => ": decode() is for byte strings",
            ("str", "index") | ("unicode", "index") => ": use find() and test for -1",
            ("str", "partition") | ("str", "rpartition") => ": use find() and slicing",
            ("str", "isupper") | ("str", "islower") | ("str", "isspace") => {
                ": it exists only for single characters (test s[i])"
            }
            ("str", "zfill") | ("str", "ljust") | ("str", "rjust") | ("str", "center") => {
                ": pad with \" \" * n (or \"0\" * n)"
            }
            ("str", "title") | ("str", "capitalize") | ("str", "swapcase") => {
                ": change the characters in a loop (s[i].upper())"
            }
            _ => "",
        };
        AnnError::new(
            "RPY210",
            format!("`{}.{}()` is not supported by RPython{}", tname, name, hint),
        )
    }

    // ----- truth, identity, types -----

    fn op_bool(&mut self, op: &SpaceOperation, s: &SomeValue) -> Result<SomeValue, AnnError> {
        if let S::Bool { .. } = s {
            return Ok(s.clone());
        }
        if !s.is_immutable_constant() {
            super::model::narrow_refusal(s.int_kind())?;
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

    fn op_str(&mut self, op: Op, s: &SomeValue) -> Result<SomeValue, AnnError> {
        let what = if op == Op::Repr { "repr" } else { "str" };
        if s.konst().is_none() {
            super::model::narrow_refusal(s.int_kind())?;
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

    fn op_unary_arith(&mut self, op: Op, s: &SomeValue) -> Result<SomeValue, AnnError> {
        if op != Op::Pos {
            super::model::narrow_refusal(s.int_kind())?;
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
