//! The methods of built-in types (`list.append`, `dict.get`, `str.join`…): takes the
//! receiver's annotation, the method's entry in the registry of built-ins and the call's
//! arguments; gives the result's annotation (generalizing the list or dict definition the
//! method writes to), or the error the reference reports.

use super::annrpython::{Annotator, ListCheck};
use super::call::ArgsS;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::Value;
use std::rc::Rc;

use SomeValue as S;

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Calls a method of a built-in type ("list.append") on `s_self`.
    pub fn call_method(
        &mut self,
        id: B,
        s_self: &SomeValue,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let name = id.name();
        if s_self.is_error() {
            return Ok(S::Error);
        }
        let tname = id.owner().unwrap_or("");
        match (tname, s_self) {
            ("list", S::List { def, .. }) => self.list_method(*def, id, args),
            ("dict", S::Dict { def, .. }) => self.dict_method(*def, s_self, id, args),
            ("str" | "unicode", s) if s.is_str_like() || s.is_unicode_like() => {
                // the receiver says str or unicode: both have the same methods
                self.str_method(s, id.str_method().unwrap_or(id), args)
            }
            ("iterator", s) => {
                self.arity(name, args, 0, 0)?;
                self.op_next(s)
            }
            ("JitDriver", _) => self.call_builtin(id, Some(s_self), args),
            ("rweakdict", _) => self.weakdict_method(id, s_self, args),
            (_, S::None) => Ok(S::Impossible),
            _ => {
                // A built-in bound to something else: a builtin of the bundled models.
                if name.contains('.')
                    && !matches!(
                        tname,
                        "list" | "dict" | "str" | "unicode" | "set" | "tuple" | "int"
                    )
                {
                    return self.call_builtin(id, Some(s_self), args);
                }
                Err(AnnError::new(
                    "RPY210",
                    format!(
                        "`{}()` is not supported on {}",
                        name,
                        self.bk.describe_type(self.space.heap(), s_self)
                    ),
                ))
            }
        }
    }

    fn list_method(&mut self, def: ListDefId, id: B, args: &ArgsS) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let meth = id.short_name();
        let full = format!("list.{}", meth);
        match id {
            B::ListAppend => {
                self.arity(&full, args, 1, 1)?;
                let pos = self.bk.position;
                let filling = self.info[pos.graph as usize]
                    .fill_appends
                    .contains(&(pos.block, pos.op));
                if filling {
                    self.bk.fill_list(def);
                } else {
                    self.bk.mutate_list(self.space.heap(), def, true)?;
                }
                // the item keeps its constness, as the reference's listdef.generalize
                // does: a list that only ever holds one constant reads it back
                self.bk.generalize_list(self.space.heap(), def, &p[0])?;
                Ok(S::None)
            }
            B::ListExtend => {
                self.arity(&full, args, 1, 1)?;
                // the typer's extend copies from another list (ll_extend); only `+=`
                // has a string variant, for lists of characters
                if p[0].is_str_like() || p[0].is_unicode_like() {
                    return Err(AnnError::new(
                        "RPY210",
                        "list.extend() of a string is not supported by the RPython typer: write `lst += s` (for a list of characters) or append in a loop".into(),
                    ).at_typer());
                }
                self.bk.mutate_list(self.space.heap(), def, true)?;
                match &p[0] {
                    S::List { def: d2, .. } => self.bk.agree_lists(self.space.heap(), def, *d2)?,
                    s => {
                        let it = self.op_iter(s)?;
                        let item = self.op_next(&it)?;
                        if !item.is_impossible() {
                            self.bk.generalize_list(self.space.heap(), def, &item)?;
                        }
                    }
                }
                Ok(S::None)
            }
            B::ListReverse => {
                self.arity(&full, args, 0, 0)?;
                self.bk.mutate_list(self.space.heap(), def, false)?;
                Ok(S::None)
            }
            B::ListInsert => {
                self.arity(&full, args, 2, 2)?;
                self.check_int("list.insert", "the index", &p[0])?;
                // the RPython typer inserts only at an index known not to count from the
                // end (ll_insert_nonneg)
                if p[0].is_int_like() && !p[0].is_nonneg() {
                    return Err(AnnError::new(
                        "RPY209",
                        "list.insert(): the index is not proven non-negative; RPython inserts only at an index >= 0 (check it with `assert i >= 0` first)".to_string(),
                    ).at_typer());
                }
                self.bk.mutate_list(self.space.heap(), def, true)?;
                self.bk.generalize_list(self.space.heap(), def, &p[1])?;
                Ok(S::None)
            }
            B::ListRemove => {
                self.arity(&full, args, 1, 1)?;
                self.bk.mutate_list(self.space.heap(), def, true)?;
                self.bk.generalize_list(self.space.heap(), def, &p[0])?;
                Ok(S::None)
            }
            B::ListPop => {
                self.arity(&full, args, 0, 1)?;
                if let Some(i) = p.first() {
                    self.check_int("list.pop", "the index", i)?;
                }
                self.bk.mutate_list(self.space.heap(), def, true)?;
                Ok(self.bk.read_list_item(def))
            }
            B::ListIndex => {
                self.arity(&full, args, 1, 1)?;
                self.bk.generalize_list(self.space.heap(), def, &p[0])?;
                Ok(SomeValue::nonneg_int())
            }
            _ => Err(AnnError::new(
                "RPY210",
                format!("`list.{}()` is not supported by RPython", meth),
            )),
        }
    }

    fn dict_method(
        &mut self,
        def: DictDefId,
        s_self: &SomeValue,
        id: B,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let meth = id.short_name();
        let full = format!("dict.{}", meth);
        match id {
            B::DictGet | B::DictSetdefault => {
                // `os.environ` is not a dict after translation: its `get` takes the key only.
                if let S::Dict {
                    konst: Some(Value::Obj(d)),
                    ..
                } = s_self
                {
                    if id == B::DictGet && p.len() != 1 && self.space.is_os_environ(*d) {
                        return Err(AnnError::new(
                            "RPY206",
                            "os.environ.get() takes exactly one argument in RPython (no default): use `os.environ.get(key)` and test for None".into(),
                        ));
                    }
                    // Read when the program runs (not the import-time snapshot, empty in
                    // the sandbox): a string or None.
                    if id == B::DictGet && self.space.is_os_environ(*d) {
                        return Ok(S::Str {
                            can_be_none: true,
                            no_nul: true,
                            konst: None,
                        });
                    }
                }
                // (a prebuilt dict too: the reference's flow space folds `D.get` to the
                // bound method of the real dict, whose analyser needs the default as well)
                if p.len() == 1 {
                    return Err(AnnError::new(
                        "RPY206",
                        format!("dict.{}() needs an explicit default value in RPython: d.{}(key, default)", meth, meth),
                    ));
                }
                self.arity(&full, args, 2, 2)?;
                if id == B::DictSetdefault {
                    self.bk.mutate_dict(self.space.heap(), def);
                }
                self.dict_key(def, &p[0])?;
                self.bk.generalize_value(self.space.heap(), def, &p[1])?;
                Ok(self.bk.read_dict_value(def))
            }
            B::DictCopy => {
                self.arity(&full, args, 0, 0)?;
                Ok(S::Dict { def, konst: None })
            }
            B::DictUpdate => {
                self.arity(&full, args, 1, 1)?;
                match &p[0] {
                    S::Dict { def: d2, .. } => {
                        self.bk.mutate_dict(self.space.heap(), def);
                        self.bk.merge_dictdefs(self.space.heap(), def, *d2)?;
                        Ok(S::None)
                    }
                    S::None => Ok(S::Impossible),
                    s => Err(AnnError::new(
                        "RPY218",
                        format!(
                            "dict.update() needs a dict, not {}",
                            self.bk.describe_type(self.space.heap(), s)
                        ),
                    )),
                }
            }
            B::DictKeys => {
                self.arity(&full, args, 0, 0)?;
                let k = self.bk.read_dict_key(def);
                self.bk.newlist(self.space.heap(), 0, &[k], None)
            }
            B::DictValues => {
                self.arity(&full, args, 0, 0)?;
                let v = self.bk.read_dict_value(def);
                self.bk.newlist(self.space.heap(), 0, &[v], None)
            }
            B::DictItems => {
                self.arity(&full, args, 0, 0)?;
                let item = self.getanyitem(s_self, IterVariant::Items)?;
                self.bk.newlist(self.space.heap(), 0, &[item], None)
            }
            B::DictIterkeys | B::DictItervalues | B::DictIteritems => {
                self.arity(&full, args, 0, 0)?;
                let variant = match id {
                    B::DictIterkeys => IterVariant::Keys,
                    B::DictItervalues => IterVariant::Values,
                    _ => IterVariant::Items,
                };
                Ok(S::Iterator {
                    container: Rc::new(s_self.clone()),
                    variant,
                })
            }
            B::DictClear => {
                self.arity(&full, args, 0, 0)?;
                self.bk.mutate_dict(self.space.heap(), def);
                Ok(S::None)
            }
            B::DictPopitem => {
                self.arity(&full, args, 0, 0)?;
                self.bk.mutate_dict(self.space.heap(), def);
                self.getanyitem(s_self, IterVariant::Items)
            }
            B::DictPop => {
                self.arity(&full, args, 1, 2)?;
                self.bk.mutate_dict(self.space.heap(), def);
                self.dict_key(def, &p[0])?;
                if let Some(d) = p.get(1) {
                    self.bk.generalize_value(self.space.heap(), def, d)?;
                }
                Ok(self.bk.read_dict_value(def))
            }
            _ => Err(AnnError::new(
                "RPY210",
                format!("`dict.{}()` is not supported by RPython", meth),
            )),
        }
    }

    pub(super) fn str_method(
        &mut self,
        s: &SomeValue,
        id: B,
        args: &ArgsS,
    ) -> Result<SomeValue, AnnError> {
        let p = &args.positional;
        let meth = id.short_name();
        let uni = s.is_unicode_like();
        let tname = if uni { "unicode" } else { "str" };
        let full = format!("{}.{}", tname, meth);
        let same_kind = |x: &SomeValue| {
            if uni {
                x.is_unicode_like()
            } else {
                x.is_str_like()
            }
        };
        let string = |no_nul: bool| {
            if uni {
                SomeValue::unicode(no_nul)
            } else {
                SomeValue::string0(no_nul)
            }
        };
        let no_nul = s.no_nul();
        let is_char = |x: &SomeValue| matches!(x, S::Char { .. } | S::UnicodeCodePoint { .. });
        match id {
            B::StrJoin => {
                self.arity(&full, args, 1, 1)?;
                match &p[0] {
                    S::List { def, .. } => {
                        let item = self.bk.read_list_item(*def);
                        if item.is_impossible() {
                            return Ok(string(true));
                        }
                        let empty_sep = s.konst().is_some_and(|k| match k {
                            crate::objspace::object::Value::Obj(id) => match self.heap().get(id) {
                                crate::objspace::object::Object::Str(b) => b.is_empty(),
                                crate::objspace::object::Object::Unicode(u) => u.is_empty(),
                                _ => false,
                            },
                            _ => false,
                        });
                        if !empty_sep {
                            // the typer joins a list of characters only with '' (a
                            // separator needs a list of strings): decided on the final
                            // annotation, as a later append of a string makes it one
                            self.list_checks.push((
                                *def,
                                self.bk.span,
                                ListCheck::JoinedWithSeparator(tname),
                            ));
                        }
                        // '' joins characters of either kind (the typer casts each one to
                        // the separator's character type)
                        let joinable = same_kind(&item) || (empty_sep && is_char(&item));
                        if !joinable && !item.is_error() {
                            let e = AnnError::new(
                                "RPY218",
                                format!(
                                    "{}.join() needs a list of {}s, not a {}",
                                    tname,
                                    tname,
                                    self.bk.describe_type(self.space.heap(), &p[0])
                                ),
                            );
                            // the reference's annotator reads the items' no-nul flag, which
                            // only strings of either kind have; its typer refuses the rest
                            let stringy = item.is_str_like() || item.is_unicode_like();
                            return Err(if stringy { e.at_typer() } else { e });
                        }
                        Ok(string(no_nul && item.no_nul()))
                    }
                    S::None => Ok(S::Impossible),
                    other => Err(AnnError::new(
                        "RPY218",
                        format!(
                            "{}.join() needs a list, not {}",
                            tname,
                            self.bk.describe_type(self.space.heap(), other)
                        ),
                    )),
                }
            }
            B::StrSplit | B::StrRsplit => {
                if p.is_empty() {
                    return Err(AnnError::new(
                        "RPY210",
                        format!("{}.{}() needs an explicit separator in RPython (rpython.rlib.rstring.split(s) splits on whitespace)", tname, meth),
                    ));
                }
                self.arity(&full, args, 1, 2)?;
                if !same_kind(&p[0]) {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                            "{}(): the separator must be a {} string, not {}{}",
                            full,
                            tname,
                            self.bk.describe_type(self.space.heap(), &p[0]),
                            if uni {
                                " (write a u\"...\" literal)"
                            } else {
                                ""
                            }
                        ),
                    )
                    .at_typer());
                }
                // As strip: the typer splits a str on a str of several characters but
                // takes a unicode separator as one character.
                if uni && !is_char(&p[0]) && !p[0].is_error() {
                    return Err(AnnError::new(
                        "RPY218",
                        format!("{}(): the separator of a unicode split is one unicode character in RPython, not a unicode string: use rpython.rlib.rstring.split", full),
                    )
                    .at_typer());
                }
                if let Some(m) = p.get(1) {
                    self.check_int(&full, "maxsplit", m)?;
                }
                self.bk
                    .newlist(self.space.heap(), 0, &[string(no_nul)], None)
            }
            B::StrStrip | B::StrLstrip | B::StrRstrip => {
                self.arity(&full, args, 0, 1)?;
                match p.first() {
                    None if uni => Err(AnnError::new(
                        "RPY210",
                        format!("unicode.{}() with no argument is not RPython", meth),
                    )),
                    None => Ok(string(no_nul)),
                    // The typer strips a str of several characters (ll_strip_multiple) but
                    // takes a unicode argument as one character (u" -" is refused there).
                    Some(c) if (same_kind(c) && (!uni || is_char(c))) || c.is_error() => Ok(string(no_nul)),
                    // A constant byte string of characters to strip from a unicode string:
                    // the typer converts the constant (`u.strip(' \t')`, rpaheui's
                    // assembler reader), as it converts any str constant to unicode.
                    Some(c @ (S::Str { .. } | S::Char { .. }))
                        if uni && c.is_immutable_constant() =>
                    {
                        Ok(string(no_nul))
                    }
                    Some(c) if uni && same_kind(c) => Err(AnnError::new(
                        "RPY218",
                        format!("{}() takes one unicode character in RPython, not a unicode string: strip in a loop, or use a str", full),
                    ).at_typer()),
                    Some(c) => Err(AnnError::new(
                        "RPY218",
                        format!(
                            "{}() argument must be a {}, not {}",
                            full,
                            tname,
                            self.bk.describe_type(self.space.heap(), c)
                        ),
                    ).at_typer()),
                }
            }
            B::StrReplace => {
                self.arity(&full, args, 2, 2)?;
                // Characters of the receiver's own kind (the typer compares the reprs).
                let own_char = |x: &SomeValue| is_char(x) && same_kind(x);
                if !(own_char(&p[0]) && own_char(&p[1])) {
                    return Err(AnnError::new(
                        "RPY218",
                        format!("{}.replace() only replaces single characters in RPython: use rpython.rlib.rstring.replace", tname),
                    ).at_typer());
                }
                Ok(string(no_nul && p[1].no_nul()))
            }
            B::StrStartswith | B::StrEndswith => {
                self.arity(&full, args, 1, 1)?;
                // The typer passes the argument in its own repr, so a str and a unicode
                // string test each other's prefixes (compared char by char).
                let ok = p[0].is_str_like() || p[0].is_unicode_like();
                if !ok && !p[0].is_error() {
                    // a bool to the reference's annotator, refused by its typer
                    return Err(AnnError::new(
                        "RPY218",
                        format!("{}() needs a {} argument", full, tname),
                    )
                    .at_typer());
                }
                // Folded on constants, as the reference does: a branch on an unrolled
                // constant's suffix is then taken on one side only.
                let heap = self.space.heap();
                if let (Some(a), Some(b)) = (
                    s.konst().and_then(|v| heap.str_value(v)),
                    p[0].konst().and_then(|v| heap.str_value(v)),
                ) {
                    let r = if id == B::StrStartswith {
                        a.starts_with(b)
                    } else {
                        a.ends_with(b)
                    };
                    return Ok(SomeValue::const_bool(r));
                }
                Ok(SomeValue::bool())
            }
            B::StrFind | B::StrRfind | B::StrCount => {
                self.arity(&full, args, 1, 3)?;
                // A one-character str converts to a unicode string, and so does a constant
                // ASCII str (the typer converts constants); a longer variable one does not.
                let ascii_const = p[0]
                    .konst()
                    .and_then(|v| self.space.heap().str_value(v))
                    .is_some_and(|b| b.is_ascii());
                let ok = same_kind(&p[0])
                    || (uni
                        && (matches!(p[0], S::Char { .. }) || (p[0].is_str_like() && ascii_const)));
                if !ok && !p[0].is_error() {
                    return Err(AnnError::new(
                        "RPY218",
                        format!(
                            "{}() needs a {} argument, not {}{}",
                            full,
                            tname,
                            self.bk.describe_type(self.space.heap(), &p[0]),
                            if uni {
                                ": decode the str first (s.decode(\"utf-8\")) or write a u\"...\" literal"
                            } else {
                                ""
                            }
                        ),
                    )
                    .at_typer());
                }
                for (i, b) in p.iter().enumerate().skip(1) {
                    if b.is_int_like() && !b.is_nonneg() {
                        return Err(AnnError::new(
                            "RPY209",
                            format!(
                                "{}(): the {} index is not proven non-negative",
                                full,
                                if i == 1 { "start" } else { "end" }
                            ),
                        ));
                    }
                }
                Ok(if id == B::StrCount {
                    SomeValue::nonneg_int()
                } else {
                    SomeValue::int()
                })
            }
            B::StrLower | B::StrUpper if !uni => {
                self.arity(&full, args, 0, 0)?;
                // The reference's SomeChar.method_upper/lower return the receiver's own
                // annotation, constant included: `'h'.upper()` of a constant char is annotated
                // as the constant 'h', which every use of the result then reads (the typer's
                // inputarg takes an annotation's constant), so the translated program sees
                // the char unchanged.
                Ok(match s {
                    S::Char { .. } => s.clone(),
                    _ => SomeValue::string(),
                })
            }
            // the typer has these three for single characters only; a method of a
            // constant string reaches here without `getattr`'s check (unaryop.rs)
            B::StrIsspace | B::StrIslower | B::StrIsupper
                if !uni && !matches!(s, S::Char { .. }) =>
            {
                Err(self.no_method(tname, meth))
            }
            B::StrIsdigit
            | B::StrIsalpha
            | B::StrIsalnum
            | B::StrIsspace
            | B::StrIslower
            | B::StrIsupper
                if !uni =>
            {
                self.arity(&full, args, 0, 0)?;
                Ok(SomeValue::bool())
            }
            B::StrSplitlines if !uni => {
                self.arity(&full, args, 0, 1)?;
                let l = self
                    .bk
                    .newlist(self.space.heap(), 0, &[SomeValue::string()], None)?;
                if let S::List { def, .. } = l {
                    self.bk.mutate_list(self.space.heap(), def, true)?;
                }
                Ok(l)
            }
            B::StrDecode | B::StrEncode => {
                self.arity(&full, args, 1, 1)?;
                let enc = p[0]
                    .konst()
                    .and_then(|c| self.heap().str_value(c))
                    .map(|b| String::from_utf8_lossy(b).into_owned());
                match enc.as_deref() {
                    Some("ascii" | "latin-1" | "utf-8") => {}
                    Some(e) => {
                        return Err(AnnError::new(
                            "RPY218",
                            format!(
                                "encoding `{}` is not supported (only ascii, latin-1 and utf-8)",
                                e
                            ),
                        ))
                    }
                    None => {
                        return Err(AnnError::new(
                            "RPY218",
                            "the encoding must be a constant".into(),
                        ))
                    }
                }
                // decode('utf-8') of a constant: `checks`, on the final annotation
                Ok(if id == B::StrDecode {
                    SomeValue::unicode(no_nul)
                } else {
                    SomeValue::string0(no_nul)
                })
            }
            B::StrFormat => Err(AnnError::new(
                "RPY210",
                format!("{}.format() is not RPython: use % formatting", tname),
            )),
            _ => Err(AnnError::new(
                "RPY210",
                format!("`{}.{}()` is not supported by RPython", tname, meth),
            )),
        }
    }
}
