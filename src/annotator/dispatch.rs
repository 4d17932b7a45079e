//! What each operation produces: the dispatcher (`consider_op`), which reports errors at
//! the operation and sends each operation to its rule (`unaryop`, `binaryop`, `itemop`,
//! `getattr`, `call`…), and the checks that apply to every operation (unpacking lengths,
//! `os.environ`, the prebuilt `r_dict` functions and `__del__` methods to annotate).

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::flowspace::{Hlvalue, SpaceOperation};
use crate::interpreter::{ConcreteSpace, Op};
use crate::objspace::object::Value;
use std::rc::Rc;

use SomeValue as S;

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
            Eq if self.note_raising_unpack(op, a) => self.op_compare(op, a),
            Lt | Le | Eq | Ne | Gt | Ge => self.op_compare(op, a),
            Contains => self.op_contains(op, &a[0], &a[1]),
            Iter => self.op_iter(&a[0]),
            Next => self.op_next(&a[0]),
            NewTuple => Ok(SomeValue::tuple(a.to_vec())),
            // the reference keeps the items' constness: a list only ever holding one
            // constant reads back that constant (and branches on it fold)
            NewList => self.bk.newlist(self.space.heap(), 0, a, None),
            NewDict => {
                let def = self.bk.dictdef_here(0);
                for pair in a.chunks(2) {
                    self.dict_key(def, &pair[0])?;
                    self.bk
                        .generalize_value(self.space.heap(), def, &pair[1])?;
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
                // the yielded values keep their constness: the reference's generator
                // returns them from its `next` graph, whose result keeps it
                self.bk.generalize_yield(self.space.heap(), g, &a[0])?;
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

    /// The length test of `a, b = t` (`eq(len(t), n)` at the unpacking, flowed from
    /// `UnpackCheck`) on a tuple of another length: the unpacking always raises
    /// ValueError, which is noted for the error of an entry point that never returns.
    /// Returns false: the comparison is annotated as any other.
    fn note_raising_unpack(&mut self, op: &SpaceOperation, a: &[SomeValue]) -> bool {
        let (Some(Hlvalue::Var(len)), Some(&Hlvalue::Const(Value::Int(n)))) =
            (op.args.first(), op.args.get(1))
        else {
            return false;
        };
        let pos = self.bk.position;
        let block = self.graphs[pos.graph as usize].block(crate::flowspace::BlockId(pos.block));
        let seq = block.operations[..pos.op as usize]
            .iter()
            .rev()
            .find(|o| o.result == *len && o.opname == Op::Len && o.span == op.span)
            .map(|o| o.args[0]);
        let Some(seq) = seq else { return false };
        let s_seq = self.annotation(pos.graph, seq);
        if let (S::Tuple(items), Some(Value::Int(k))) = (&s_seq, a[0].konst()) {
            if k == n || items.len() as i64 != k || n < 2 {
                return false;
            }
            let msg = format!(
                "unpacking a tuple of {} items into {} targets always raises ValueError",
                items.len(),
                n
            );
            if !self.raising_unpacks.iter().any(|(p, _, _)| *p == pos) {
                self.raising_unpacks.push((pos, op.span, msg));
            }
        }
        false
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
}
