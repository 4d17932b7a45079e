//! The argument kinds of the library functions, declared in one place: how many arguments
//! each built-in takes and what kind each must be, as the reference's
//! `compute_result_annotation` (its parameters, its isinstance checks) and `specialize_call`
//! (the Repr it converts each argument to with `hop.inputargs`) require. `call_builtin`
//! checks every call of a built-in listed in `ARG_KINDS` before giving its result; the
//! bundled models written in RPython declare theirs on the function
//! (`objectmodel._rpy_argkinds('integer', ...)`, the attribute `_rpy_argkinds_`), which
//! `function_graph_for_call` checks on every call. The built-ins with checks that need more
//! than a kind (`os.*`, `math.*`, low-level operations) keep theirs in their own modules.

use super::annrpython::Annotator;
use super::call::ArgsS;
use super::description::Desc;
use super::model::*;
use super::AnnError;
use crate::builtins::BuiltinId as B;
use crate::interpreter::ConcreteSpace;
use crate::lltypesystem::{LlType, LlTypes, TypeDef};
use crate::objspace::object::{Object, Value};

use SomeValue as S;

/// What an argument must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Converted to `Signed`, `SignedLongLong` or `Float` by the RTyper: an int, a bool
    /// or a float (a string, None or an instance has no such conversion).
    Number,
    /// The annotator asks for what a `SomeFloat` contains: an int, a bool or a float.
    Float,
    /// The annotator asks for a `SomeInteger`: an int of any kind or a bool.
    Integer,
    /// A list (or None so far: the annotator waits for it to be generalized).
    List,
    /// An object the GC allocates (the RTyper asks for a GC pointer): not a number or a
    /// character. (None passes: a variable seen as None first may become an instance.)
    GcObject,
    /// A string or a character, or None (`StringBuilder.append`).
    StrOrChar,
    /// A string (not a character), or None (`StringBuilder.append_slice`).
    Str,
    /// An instance that cannot be None.
    Instance,
    /// A `char *` (`rffi.CCHARP`): `charp2str`, which the standalone entry point also calls
    /// with the `char *` of each argument, so another pointer type (a `const char *`, a
    /// `void *`) is a UnionError there.
    CharP,
}

/// Each built-in's arguments: the least and the most it takes, and their kinds by position.
const ARG_KINDS: &[(B, usize, usize, &[Kind])] = &[
    // rarithmetic: `hop.inputargs(SignedLongLong)`, `inputargs(Float)`
    (B::RarithmeticLonglongmask, 1, 1, &[Kind::Number]),
    (B::RarithmeticRSinglefloat, 1, 1, &[Kind::Number]),
    (B::RarithmeticIsValidInt, 1, 1, &[]),
    // longlong2float: `SomeFloat().contains(s)` asserted
    (B::Longlong2floatFloat2longlong, 1, 1, &[Kind::Float]),
    // objectmodel
    (B::ObjectmodelWeAreTranslated, 0, 0, &[]),
    (B::ObjectmodelNewlistHint, 1, 1, &[Kind::Integer]),
    (
        B::ObjectmodelResizelistHint,
        2,
        2,
        &[Kind::List, Kind::Integer],
    ),
    (B::ObjectmodelComputeIdentityHash, 1, 1, &[Kind::GcObject]),
    (B::ObjectmodelComputeUniqueId, 1, 1, &[Kind::GcObject]),
    (
        B::ObjectmodelCurrentObjectAddrAsInt,
        1,
        1,
        &[Kind::GcObject],
    ),
    // debug and jit queries without arguments
    (B::DebugDebugOffset, 0, 0, &[]),
    (B::DebugHaveDebugPrints, 0, 0, &[]),
    (B::DebugDebugFlush, 0, 0, &[]),
    (B::JitWeAreJitted, 0, 0, &[]),
    (B::JitCurrentTraceLength, 0, 0, &[]),
    // functions of one argument
    (B::DebugDebugStart, 1, 1, &[]),
    (B::DebugDebugStop, 1, 1, &[]),
    (B::DebugFatalerror, 1, 1, &[]),
    (B::DebugFatalerrorNotb, 1, 1, &[]),
    (B::JitPromote, 1, 1, &[]),
    (B::JitPromoteString, 1, 1, &[]),
    (B::JitIsconstant, 1, 1, &[]),
    (B::JitIsvirtual, 1, 1, &[]),
    (B::JitAssertGreen, 1, 1, &[]),
    // the annotator asserts an instance that cannot be None
    (B::JitRecordExactClass, 2, 2, &[Kind::Instance]),
];

impl Kind {
    /// Whether `s` is of this kind; unknowns and values already in error are.
    fn accepts(self, s: &SomeValue, types: &LlTypes) -> bool {
        if s.is_error() || matches!(s, S::Impossible) {
            return true;
        }
        match self {
            Kind::Number | Kind::Float => s.is_number(),
            Kind::Integer => s.is_int_like(),
            Kind::List => matches!(s, S::List { .. } | S::None),
            Kind::StrOrChar => matches!(s, S::Str { .. } | S::Char { .. } | S::None),
            Kind::Str => matches!(s, S::Str { .. } | S::None),
            Kind::Instance => matches!(
                s,
                S::Instance {
                    can_be_none: false,
                    ..
                }
            ),
            Kind::GcObject => !matches!(
                s,
                S::Integer { .. }
                    | S::Bool { .. }
                    | S::Float { .. }
                    | S::Char { .. }
                    | S::UnicodeCodePoint { .. }
            ),
            Kind::CharP => match s {
                S::Ptr(p) => types.pointee(*p).is_some_and(|a| {
                    matches!(
                        types.def(a),
                        TypeDef::Array {
                            item: LlType::CHAR,
                            gc: false,
                            konst: false,
                            void: false,
                            ..
                        }
                    )
                }),
                // (a string is refused by the function itself, at its `typeOf`)
                _ => !matches!(s, S::Instance { .. } | S::Integer { .. } | S::Float { .. }),
            },
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::Number | Kind::Float => "a number (int or float)",
            Kind::Integer => "an integer",
            Kind::List => "a list",
            Kind::GcObject => "an object the GC allocates (an instance, a string, a list...)",
            Kind::StrOrChar => "a str",
            Kind::Str => "a str (not a single character)",
            Kind::Instance => "an instance (that cannot be None)",
            Kind::CharP => "a `char *` (rffi.CCHARP)",
        }
    }

    /// The kind a bundled model names in `_rpy_argkinds`.
    fn parse(name: &[u8]) -> Option<Kind> {
        Some(match name {
            b"number" => Kind::Number,
            b"float" => Kind::Float,
            b"integer" => Kind::Integer,
            b"list" => Kind::List,
            b"gcobject" => Kind::GcObject,
            b"str_or_char" => Kind::StrOrChar,
            b"str" => Kind::Str,
            b"instance" => Kind::Instance,
            b"charp" => Kind::CharP,
            _ => return None,
        })
    }

    /// The reference refuses a wrong argument in its RTyper (a Repr it cannot convert)
    /// rather than in its annotator.
    fn at_typer(self) -> bool {
        matches!(self, Kind::Number | Kind::GcObject)
    }
}

impl<C: ConcreteSpace> Annotator<'_, C> {
    /// Checks the arguments `inputs` (self first, for a method) of a call of a bundled
    /// model's function against the kinds it declares (`_rpy_argkinds_`: a kind name or
    /// None per argument); the reference's annotator refuses a wrong one.
    pub(super) fn check_model_argkinds(
        &self,
        fdesc: DescId,
        inputs: &[SomeValue],
    ) -> Result<(), AnnError> {
        let Desc::Function(f) = self.bk.desc(fdesc) else {
            return Ok(());
        };
        let Some(Value::Obj(decl)) = f.argkinds else {
            return Ok(());
        };
        let heap = self.space.heap();
        let Object::Tuple(names) = heap.get(decl) else {
            return Ok(());
        };
        for (i, (name, s)) in names.iter().zip(inputs).enumerate() {
            let Some(kind) = heap.str_value(*name).and_then(Kind::parse) else {
                continue;
            };
            if kind.accepts(s, &self.bk.lltypes) {
                continue;
            }
            return Err(AnnError::new(
                "RPY218",
                format!(
                    "argument `{}` of `{}` must be {}, not {}",
                    f.sig.argnames.get(i).map(|a| &**a).unwrap_or("?"),
                    f.name,
                    kind.describe(),
                    self.bk.describe_type(heap, s)
                ),
            ));
        }
        Ok(())
    }

    /// Checks a call of built-in `id` against its line of `ARG_KINDS`, if it has one.
    pub(super) fn check_declared_args(&self, id: B, args: &ArgsS) -> Result<(), AnnError> {
        let Some(&(_, min, max, kinds)) = ARG_KINDS.iter().find(|(b, ..)| *b == id) else {
            return Ok(());
        };
        self.arity(id.name(), args, min, max)?;
        for (i, (kind, s)) in kinds.iter().zip(&args.positional).enumerate() {
            if kind.accepts(s, &self.bk.lltypes) {
                continue;
            }
            let e = AnnError::new(
                "RPY218",
                format!(
                    "{}(): argument {} must be {}, not {}",
                    id.short_name(),
                    i + 1,
                    kind.describe(),
                    self.bk.describe_type(self.space.heap(), s)
                ),
            );
            return Err(if kind.at_typer() { e.at_typer() } else { e });
        }
        Ok(())
    }
}
