//! The checks the reference makes on the arguments of a built-in function's call, before
//! or beside what the call gives (`builtin`): the built-ins RPython lacks (with what to use
//! instead), the number of arguments, integer and string arguments, printable values,
//! the hints of `rlib.debug` (`check_nonneg`, `check_regular_int`), and a JitDriver's
//! `jit_merge_point`/`can_enter_jit` keywords with the hooks they make the annotator follow.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::objspace::object::{IntKind, Object, Value};

use SomeValue as S;

/// Builtins that exist in Python but not in RPython, with what to use instead.
pub(super) const NOT_RPYTHON: &[(B, &str)] = &[
    (B::Sorted, "sort a copy with rpython.rlib.listsort.TimSort"),
    (B::Sum, "add the items in a loop"),
    (B::Map, "use a list comprehension"),
    (B::Filter, "use a list comprehension with a condition"),
    (B::Reduce, "use a loop"),
    (B::Any, "use a loop"),
    (B::All, "use a loop"),
    (B::Zip, "iterate over indexes"),
    (B::Round, "use math.floor"),
    (B::Divmod, "compute `a // b` and `a % b`"),
    (B::SysExit, "return the exit status from entry_point"),
    (B::Bin, "format the bits in a loop"),
    (B::Format, "use % formatting"),
    (B::Pow, "multiply, or use math.pow for floats"),
    (
        B::Super,
        "call the base class method explicitly: Base.method(self, ...)",
    ),
    (B::Globals, "keep state in a prebuilt instance"),
    (B::Locals, "pass values explicitly"),
    (B::Vars, "pass values explicitly"),
    (B::Dir, ""),
    (B::Intern, "use the string itself"),
    (B::Eval, ""),
    (B::Compile, ""),
    (B::Execfile, ""),
    (B::Input, "read from file descriptor 0 with os.read"),
    (B::RawInput, "read from file descriptor 0 with os.read"),
    (B::File, "use os.open / os.read / os.write"),
    (B::Reload, ""),
    (B::DunderImport, "import at module level"),
    (B::Callable, ""),
    (B::Delattr, ""),
    (B::Staticmethod, "use @staticmethod in a class body"),
    (B::Classmethod, "classmethods are not supported"),
    (B::Property, "define properties in a class body"),
    (B::Slice, "use lst[a:b]"),
    (B::Object, "define a class"),
    (B::Long, "use rarithmetic.r_longlong"),
    (
        B::ObjectmodelImportFromMixin,
        "call it in a class body at import time",
    ),
    (B::ObjectmodelFuncWithNewName, "call it at import time"),
    // math functions the reference registers no external function for (they are not
    // in its ll_math): only import-time code can call them
    (B::MathDegrees, "multiply by 180.0 / math.pi"),
    (B::MathRadians, "multiply by math.pi / 180.0"),
    (B::MathTrunc, "use int() of the float"),
    (B::MathFactorial, "multiply in a loop"),
];

impl<C: ConcreteSpace> Annotator<'_, C> {
    pub(super) fn arity(
        &self,
        name: &str,
        args: &ArgsS,
        min: usize,
        max: usize,
    ) -> Result<(), AnnError> {
        let n = args.len();
        if n < min || n > max {
            let short = name.rsplit('.').next().unwrap_or(name);
            let expect = if min == max {
                format!("exactly {}", min)
            } else if n < min {
                format!("at least {}", min)
            } else {
                format!("at most {}", max)
            };
            return Err(AnnError::new(
                "RPY206",
                format!(
                    "{}() takes {} argument{} ({} given)",
                    short,
                    expect,
                    if min.max(max) == 1 { "" } else { "s" },
                    n
                ),
            ));
        }
        if let Some((k, _)) = args.keywords.first() {
            let short = name.rsplit('.').next().unwrap_or(name);
            return Err(AnnError::new(
                "RPY206",
                format!(
                    "{}() does not take keyword arguments here (got `{}=`)",
                    short, k
                ),
            ));
        }
        Ok(())
    }

    /// `jit.set_param(driver, name, value)`: specialized on the name, which must be a
    /// constant; the value is a plain int (or None, the default), a string for
    /// `enable_opts`, as the reference's annotation of it asserts.
    pub(super) fn check_set_param(
        &self,
        s_name: &SomeValue,
        s_value: &SomeValue,
    ) -> Result<(), AnnError> {
        if s_name.is_error() || s_value.is_error() {
            return Ok(());
        }
        let heap = self.space.heap();
        let Some(pname) = s_name.konst().and_then(|v| heap.str_value(v)) else {
            return Err(AnnError::new(
                "RPY218",
                format!(
                    "set_param(): the parameter name must be a constant string, not {}",
                    self.bk.describe_type(heap, s_name)
                ),
            ));
        };
        let ok = if pname == b"enable_opts" {
            matches!(s_value, S::Str { .. } | S::Char { .. } | S::None)
        } else {
            matches!(
                s_value,
                S::Integer {
                    kind: IntKind::Signed,
                    ..
                } | S::Bool { .. }
                    | S::None
            )
        };
        if ok {
            return Ok(());
        }
        Err(AnnError::new(
            "RPY218",
            format!(
                "set_param(): the value of `{}` must be {}, not {}",
                String::from_utf8_lossy(pname),
                if pname == b"enable_opts" {
                    "a string"
                } else {
                    "an int"
                },
                self.bk.describe_type(heap, s_value)
            ),
        ))
    }

    pub(super) fn check_int(&self, func: &str, what: &str, s: &SomeValue) -> Result<(), AnnError> {
        if s.is_int_like() || s.is_error() {
            Ok(())
        } else {
            Err(AnnError::new(
                "RPY218",
                format!(
                    "{}(): {} must be an int, not {}",
                    func,
                    what,
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ))
        }
    }

    /// An argument the library declares `@enforceargs(int)` (rposix's `validate_fd(fd)`,
    /// `read`'s count): the reference unions it with a plain int and requires the result
    /// to stay a plain int, so an r_uint, an r_longlong or a C integer type is refused as
    /// a float is (bools pass).
    pub(super) fn check_signed_int(
        &self,
        func: &str,
        what: &str,
        s: &SomeValue,
    ) -> Result<(), AnnError> {
        self.check_int(func, what, s)?;
        if s.is_error() || s.int_kind() == Some(IntKind::Signed) {
            return Ok(());
        }
        Err(AnnError::new(
            "RPY218",
            format!(
                "{}(): {} must be a plain int (the library declares it with enforceargs(int)), not {}",
                func,
                what,
                self.bk.describe_type(self.space.heap(), s)
            ),
        ))
    }

    pub(super) fn check_str(&self, func: &str, what: &str, s: &SomeValue) -> Result<(), AnnError> {
        if s.is_str_like() || s.is_error() {
            Ok(())
        } else {
            Err(AnnError::new(
                "RPY218",
                format!(
                    "{}(): {} must be a str, not {}",
                    func,
                    what,
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ))
        }
    }

    /// Things `print` can show.
    pub(super) fn check_printable(&self, s: &SomeValue) -> Result<(), AnnError> {
        match s {
            S::List { def, .. } if {
                let item = self.bk.item(self.bk.list_item(*def));
                item.range_step.is_some() && !item.mutated && !item.resized
            } =>
            {
                Err(AnnError::new(
                    "RPY210",
                    "printing a range() list is not supported by the RPython typer (a list that is only a range has no str()): build the list with a loop or a comprehension".into(),
                ).at_typer())
            }
            S::Dict { .. } => Err(AnnError::new(
                "RPY205",
                "printing a dict is not supported by RPython (it has no str())".into(),
            ).at_typer()),
            S::Iterator { .. }
            | S::Generator { .. }
            | S::Builtin { .. }
            | S::BuiltinMethod { .. }
            | S::Pbc { .. }
            | S::Object => Err(AnnError::new(
                "RPY205",
                format!(
                    "printing {} is not supported by RPython",
                    self.bk.describe_type(self.space.heap(), s)
                ),
            ).at_typer()),
            _ => Ok(()),
        }
    }

    /// `debug.check_nonneg(x)` / `debug.check_regular_int(x)`: translation-time proofs that
    /// `x` is a plain signed int known non-negative (an unsigned int is refused by the former
    /// too), or a plain signed int.
    pub(super) fn check_int_hint(&mut self, id: B, s: &SomeValue) -> Result<(), AnnError> {
        if s.is_impossible() || s.is_error() {
            return Ok(());
        }
        let signed = s.int_kind() == Some(IntKind::Signed);
        let what = self.bk.describe_type(self.space.heap(), s);
        let msg = if id == B::DebugCheckNonneg {
            if s.is_unsigned() {
                format!("check_nonneg() of an unsigned integer ({what}): it is only meant for signed ints")
            } else if !(signed && s.is_nonneg()) {
                format!("check_nonneg() of {what} that the annotator cannot prove non-negative")
            } else {
                return Ok(());
            }
        } else if !signed {
            format!("check_regular_int() of {what}, not a plain signed int")
        } else {
            return Ok(());
        };
        Err(AnnError::new("RPY218", msg))
    }

    /// `driver.jit_merge_point(**livevars)`: every green and red variable, by keyword.
    pub(super) fn check_jit_driver_call(
        &mut self,
        name: &str,
        s_self: Option<&SomeValue>,
        args: &ArgsS,
    ) -> Result<(), AnnError> {
        if name.ends_with("loop_header") {
            return Ok(());
        }
        let Some(driver) = s_self.and_then(|s| self.bk.pbc_const(s)) else {
            return Ok(());
        };
        let Value::Obj(obj) = driver else {
            return Ok(());
        };
        let heap = self.space.heap();
        let Object::Instance(inst) = heap.get(obj) else {
            return Ok(());
        };
        let names = |attr: &str| -> Vec<String> {
            let Some(Value::Obj(l)) = inst.dict.get(attr) else {
                return Vec::new();
            };
            match heap.get(l) {
                Object::List(items) | Object::Tuple(items) => items
                    .iter()
                    .filter_map(|&v| {
                        heap.str_value(v)
                            .map(|b| String::from_utf8_lossy(b).into_owned())
                    })
                    .collect(),
                _ => Vec::new(),
            }
        };
        let greens = names("greens");
        let mut expected = greens.clone();
        expected.extend(names("reds"));
        if expected.is_empty() {
            return Ok(());
        }
        // the driver's hooks that the reference annotates at each jit_merge_point
        let hooks: Vec<Value> = ["get_printable_location", "get_location"]
            .iter()
            .filter_map(|h| inst.dict.get(h))
            .filter(|v| !matches!(v, Value::None))
            .collect();
        if !args.positional.is_empty() {
            return Err(AnnError::new(
                "RPY221",
                format!(
                    "{}() takes the green and red variables as keyword arguments",
                    short(name)
                ),
            ));
        }
        let given: Vec<&str> = args.keywords.iter().map(|(k, _)| &**k).collect();
        let missing: Vec<&String> = expected
            .iter()
            .filter(|e| !given.contains(&e.as_str()))
            .collect();
        let extra: Vec<&&str> = given
            .iter()
            .filter(|g| !expected.iter().any(|e| e == **g))
            .collect();
        if !missing.is_empty() || !extra.is_empty() {
            let mut parts = Vec::new();
            if !missing.is_empty() {
                parts.push(format!(
                    "missing {}",
                    missing
                        .iter()
                        .map(|m| format!("`{}`", m))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !extra.is_empty() {
                parts.push(format!(
                    "unknown {}",
                    extra
                        .iter()
                        .map(|m| format!("`{}`", m))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            return Err(AnnError::new(
                "RPY221",
                format!(
                    "{}() must receive exactly the JitDriver's greens and reds ({}): {}",
                    short(name),
                    expected.join(", "),
                    parts.join("; ")
                ),
            ));
        }
        if name.ends_with("jit_merge_point") && !greens.iter().any(|g| g.contains('.')) {
            self.annotate_jit_hooks(&hooks, &greens, args)?;
        }
        Ok(())
    }

    /// `get_printable_location` and `get_location` of a JitDriver, called (as the
    /// reference's annotate_hooks does at each `jit_merge_point`) with the annotations of the
    /// green variables: they are RPython functions translated with the program.
    fn annotate_jit_hooks(
        &mut self,
        hooks: &[Value],
        greens: &[String],
        args: &ArgsS,
    ) -> Result<(), AnnError> {
        let greens_s: Vec<SomeValue> = greens
            .iter()
            .filter_map(|g| {
                args.keywords
                    .iter()
                    .find(|(k, _)| &**k == g.as_str())
                    .map(|(_, s)| s.clone())
            })
            .collect();
        for &hook in hooks {
            let s_func = self.bk.immutablevalue(self.space.heap(), hook)?;
            self.call_value(&s_func, &ArgsS::simple(greens_s.clone()))?;
        }
        Ok(())
    }
}

fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}
