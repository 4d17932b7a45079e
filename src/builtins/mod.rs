//! The registry of built-ins: one [`BuiltinId`] per function or method rpy-lsp implements
//! itself (`len`, `list.append`, `os.write`, `rarithmetic.intmask`, `str.split`…), with
//! the facts every stage shares about it: its qualified name and the flow-space operation
//! a call of it becomes (at which arity).
//!
//! It sits at the top of the crate, beside `diagnostics`, because every stage needs it and
//! none owns it: the object space binds an import-time implementation to each id (and
//! builds the `__builtin__`, `__rpy__` and built-in class namespaces from the names); the
//! flow space folds calls into operations with [`BuiltinId::flow_op`]; the annotator and
//! the RTyper dispatch with `match id { BuiltinId::Len => … }`. Names are for messages and
//! for building the namespaces at import time (`__builtin__`, `__rpy__`, the dicts of the
//! built-in classes, all from [`BuiltinId::ALL`]); no stage looks a built-in up by name.
//!
//! Naming: names without a dot are `__builtin__` functions and the constructors of the
//! built-in classes; `type.method` names are methods of built-in classes (found through the
//! class dict, bound to the receiver); other dotted names are primitives of the bundled
//! models, reached from bundled sources through the internal module `__rpy__` (`os.write`
//! is `__rpy__.os_write`). The string methods are declared once for `str` and `unicode`.
//! The table itself is in `table.rs`.

use crate::objspace::object::IntKind;

mod table;

pub use table::BuiltinId;

/// Declares [`BuiltinId`]: first the built-ins one by one (`Variant = "name"`, then
/// `=> Op / arity` when a call with that many positional arguments is that flow-space
/// operation), then, after `;;`, the string methods (`StrVariant, UnicodeVariant =
/// "method"`), which exist on both `str` and `unicode`.
macro_rules! builtins {
    (
        $( $(#[$m:meta])* $v:ident = $name:literal $(=> $op:ident / $n:literal)? ;)*
        ;;
        $( $sv:ident, $uv:ident = $meth:literal ;)*
    ) => {
        /// A built-in function or method (see the module doc).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum BuiltinId {
            $($(#[$m])* $v,)*
            $($sv,)*
            $($uv,)*
        }

        impl BuiltinId {
            /// Every built-in, in the order of the table.
            pub const ALL: &'static [BuiltinId] = &[
                $(BuiltinId::$v,)* $(BuiltinId::$sv,)* $(BuiltinId::$uv,)*
            ];

            /// The qualified name (`"len"`, `"list.append"`, `"os.write"`).
            pub fn name(self) -> &'static str {
                match self {
                    $(BuiltinId::$v => $name,)*
                    $(BuiltinId::$sv => concat!("str.", $meth),)*
                    $(BuiltinId::$uv => concat!("unicode.", $meth),)*
                }
            }

            /// The operation a call with `nargs` positional arguments becomes in flow
            /// graphs (`len(x)` is `len`), if any.
            pub fn flow_op(self, nargs: usize) -> Option<$crate::interpreter::Op> {
                match self {
                    $($(BuiltinId::$v if nargs == $n => Some($crate::interpreter::Op::$op),)?)*
                    _ => None,
                }
            }

            /// The built-in whose call a flow-space operation is (the inverse of
            /// [`BuiltinId::flow_op`]): `abs` of the operation `abs`.
            pub fn for_flow_op(op: $crate::interpreter::Op) -> Option<BuiltinId> {
                match op {
                    $($($crate::interpreter::Op::$op => Some(BuiltinId::$v),)?)*
                    _ => None,
                }
            }

            /// The `str` method of a string method (`unicode.split` → `str.split`, itself
            /// for a `str` method): string methods behave alike on both types.
            pub fn str_method(self) -> Option<BuiltinId> {
                match self {
                    $(BuiltinId::$sv | BuiltinId::$uv => Some(BuiltinId::$sv),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use builtins;

/// The built-ins that exist only in flow graphs: the object space has no implementation
/// of them (the flow space calls them for `print` statements).
pub const GRAPH_ONLY: &[BuiltinId] = &[BuiltinId::RpythonPrintItem, BuiltinId::RpythonPrintNewline];

impl BuiltinId {
    /// The machine integer kind a constructor of `rarithmetic` makes (`r_uint(x)`,
    /// `r_int32(x)`...): the one registry from class constructor to integer kind.
    pub fn int_kind(self) -> Option<IntKind> {
        use BuiltinId as B;
        let narrow = |bits, signed| Some(IntKind::Narrow { bits, signed });
        match self {
            B::RarithmeticRUint => Some(IntKind::Unsigned),
            B::RarithmeticRLonglong => Some(IntKind::LongLong),
            B::RarithmeticRUlonglong => Some(IntKind::ULongLong),
            B::RarithmeticRLonglonglong => Some(IntKind::LongLongLong),
            B::RarithmeticRInt => Some(IntKind::Signed),
            B::RarithmeticRInt32 => narrow(32, true),
            B::RarithmeticRUint32 => narrow(32, false),
            B::RarithmeticRInt16 => narrow(16, true),
            B::RarithmeticRUint16 => narrow(16, false),
            B::RarithmeticRInt8 => narrow(8, true),
            B::RarithmeticRUint8 => narrow(8, false),
            _ => None,
        }
    }

    /// The constructor of the class of a narrow integer kind.
    pub fn narrow_ctor(kind: IntKind) -> Option<BuiltinId> {
        use BuiltinId as B;
        [
            B::RarithmeticRInt32,
            B::RarithmeticRUint32,
            B::RarithmeticRInt16,
            B::RarithmeticRUint16,
            B::RarithmeticRInt8,
            B::RarithmeticRUint8,
        ]
        .into_iter()
        .find(|b| b.int_kind() == Some(kind))
    }

    /// The number of built-ins (ids are `0..COUNT` through [`BuiltinId::index`]).
    pub const COUNT: usize = BuiltinId::ALL.len();

    /// A dense index, for tables indexed by built-in.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The last part of the name (`append` of `list.append`, `write` of `os.write`): what
    /// messages call it.
    pub fn short_name(self) -> &'static str {
        let n = self.name();
        n.rsplit('.').next().unwrap_or(n)
    }

    /// The last part of the name before the short name: the class of a method
    /// (`list` of `list.append`, `JitDriver` of `jit.JitDriver.jit_merge_point`) or the
    /// module of a function (`os` of `os.write`); `None` for `__builtin__` functions.
    pub fn owner(self) -> Option<&'static str> {
        let (prefix, _) = self.name().rsplit_once('.')?;
        prefix.rsplit('.').next()
    }

    /// For a method of a built-in class (`list.append`): the class name and the method name.
    pub fn class_method(self) -> Option<(&'static str, &'static str)> {
        let (cls, meth) = self.name().split_once('.')?;
        (!meth.contains('.')).then_some((cls, meth))
    }

    /// Whether it is a `__builtin__` function or the constructor of a built-in class (its
    /// name has no dot).
    pub fn is_unqualified(self) -> bool {
        !self.name().contains('.')
    }

    /// The exceptions a call of this `__builtin__` function can raise, as the flow space
    /// sees them (any other built-in function raises none a handler could catch).
    pub fn call_raises(self) -> &'static [&'static str] {
        match self {
            BuiltinId::Chr | BuiltinId::Unichr => &["ValueError"],
            _ => &[],
        }
    }

    /// The C function of the reference's `rffi.llexternal` behind this built-in, when that
    /// external's wrapper releases the GIL around the call (rposix's default: neither
    /// `releasegil=False` nor `sandboxsafe`). A `__del__` may not reach one (RPY223).
    /// `os.close`, `os.getpid` and `os.getenv` are declared `releasegil=False` there.
    pub fn releases_gil(self) -> Option<&'static str> {
        use BuiltinId::*;
        Some(match self {
            OsWrite => "write",
            OsRead => "read",
            OsOpen => "open",
            OsLseek => "lseek",
            OsIsatty => "isatty",
            OsUnlink | OsRemove => "unlink",
            OsRename => "rename",
            OsMkdir => "mkdir",
            OsRmdir => "rmdir",
            OsGetcwd => "getcwd",
            OsSystem => "system",
            _ => return None,
        })
    }

    /// Whether it is a function of the `math` module.
    pub fn is_math(self) -> bool {
        use BuiltinId::*;
        matches!(
            self,
            MathSqrt
                | MathFloor
                | MathCeil
                | MathFabs
                | MathExp
                | MathLog10
                | MathLog1p
                | MathSin
                | MathCos
                | MathTan
                | MathAsin
                | MathAcos
                | MathAtan
                | MathSinh
                | MathCosh
                | MathTanh
                | MathDegrees
                | MathRadians
                | MathTrunc
                | MathIsnan
                | MathIsinf
                | MathLog
                | MathFmod
                | MathPow
                | MathAtan2
                | MathHypot
                | MathCopysign
                | MathLdexp
                | MathFrexp
                | MathModf
                | MathFactorial
                | MathAsinh
                | MathAcosh
                | MathAtanh
                | MathExpm1
        )
    }

    /// How many arguments (at least, at most) a function of the `math`, `os` or `time`
    /// model takes: the reference registers each math function with a fixed signature
    /// (`math.log(x, base)` is an argument-number mismatch there) and replaces each `os`
    /// and `time` function by an RPython function of its own (`os.getcwd()` takes none,
    /// `os.mkdir(path, mode=0777)` one or two). `None` for the others.
    pub fn fixed_arity(self) -> Option<(usize, usize)> {
        use BuiltinId::*;
        if self.is_math() {
            return Some(match self {
                MathFmod | MathPow | MathAtan2 | MathHypot | MathCopysign | MathLdexp => (2, 2),
                _ => (1, 1),
            });
        }
        Some(match self {
            OsGetpid | OsTempdir | OsGetcwd | OsGetppid | OsGetpgrp | OsFork | OsSetsid
            | OsGetuid | OsGeteuid | OsGetgid | OsGetegid | OsGetlogin | OsPipe | OsGetloadavg
            | OsTimes | TimeTime | TimeClock => (0, 0),
            OsClose | OsUnlink | OsRemove | OsRmdir | OsSystem | OsExit | OsIsatty | OsStrerror
            | OsListdir | OsPathExists | OsPathIsdir | OsPathIsfile | OsDup | OsUmask | OsNice
            | OsFsync | OsChdir | OsReadlink | OsTtyname | TimeSleep => (1, 1),
            OsMkdir => (1, 2),
            OsWrite | OsRead | OsRename | OsKill | OsDup2 | OsFtruncate | OsChmod | OsAccess
            | OsSymlink | OsLink | OsWaitpid => (2, 2),
            OsOpen | OsLseek => (3, 3),
            OsExecvRaw => (5, 5),
            _ => return None,
        })
    }

    /// The built-in of a qualified name, for the tests only: the object space builds its
    /// namespaces from [`BuiltinId::ALL`] and every later stage carries ids, so nothing
    /// identifies a built-in by its name.
    #[cfg(test)]
    pub(crate) fn from_name(name: &str) -> Option<BuiltinId> {
        use crate::fasthash::HashMap;
        use std::sync::OnceLock;
        static BY_NAME: OnceLock<HashMap<&'static str, BuiltinId>> = OnceLock::new();
        BY_NAME
            .get_or_init(|| BuiltinId::ALL.iter().map(|&b| (b.name(), b)).collect())
            .get(name)
            .copied()
    }
}

impl std::fmt::Display for BuiltinId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::BuiltinId;
    use crate::fasthash::HashSet;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = HashSet::default();
        for &b in BuiltinId::ALL {
            assert!(seen.insert(b.name()), "duplicate name {}", b.name());
            assert_eq!(BuiltinId::from_name(b.name()), Some(b));
            assert_eq!(BuiltinId::ALL[b.index()], b);
        }
        assert_eq!(seen.len(), BuiltinId::COUNT);
    }

    #[test]
    fn string_methods_pair_up() {
        for &b in BuiltinId::ALL {
            let Some(s) = b.str_method() else { continue };
            let (cls, meth) = b.class_method().unwrap();
            assert!(cls == "str" || cls == "unicode", "{b}");
            assert_eq!(s.name(), format!("str.{meth}"));
            let u = BuiltinId::from_name(&format!("unicode.{meth}")).unwrap();
            assert_eq!(u.str_method(), Some(s));
        }
    }

    /// Each flow-space operation comes from one built-in at one arity, and only there.
    #[test]
    fn flow_ops_are_one_to_one() {
        let mut seen = HashSet::default();
        for &b in BuiltinId::ALL {
            let ops: Vec<_> = (0..5)
                .filter_map(|n| b.flow_op(n).map(|op| (op, n)))
                .collect();
            assert!(ops.len() <= 1, "{b} becomes several operations");
            for (op, _) in ops {
                assert!(seen.insert(op), "{op:?} comes from two built-ins");
                assert_eq!(BuiltinId::for_flow_op(op), Some(b));
            }
        }
        assert_eq!(
            BuiltinId::Len.flow_op(1).map(|o| format!("{o:?}")),
            Some("Len".into())
        );
        assert_eq!(BuiltinId::Getattr.flow_op(3), None);
    }
}
