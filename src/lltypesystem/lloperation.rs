//! The table of low-level operations: the only operations a graph holds after RTyping.
//! One entry per operation, consulted by every stage after the RTyper (verifier,
//! LLInterpreter, backend optimizations, GenC): its name, arity, what its result type is,
//! whether it can be constant-folded, which exceptions it can raise and whether it has side
//! effects. Semantics follow the reference's operations of the same names (written by us).

/// Which exceptions an operation can raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CanRaise {
    Nothing,
    /// `*_zer` operations: ZeroDivisionError when the divisor is zero.
    ZeroDivision,
    /// `*_ovf` operations: OverflowError when the result does not fit.
    Overflow,
    /// `*_ovf_zer`: both.
    OverflowOrZeroDivision,
    /// Calls: whatever the callee raises.
    Anything,
}

/// How the type of an operation's result is determined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultRule {
    /// Always this primitive (by `LlType` id in every arena: primitives are fixed).
    Fixed(u32),
    /// The type of the first argument.
    SameAsArg0,
    /// Given by the operation's use (a field's type, a cast's target, a call's result):
    /// checked against the container or function type by the verifier.
    Given,
}

macro_rules! llops {
    ($($(#[$m:meta])* $variant:ident = $name:literal, $arity:expr, $result:expr, $fold:expr, $raise:expr, $side:expr;)*) => {
        /// A low-level operation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum LlOp { $($(#[$m])* $variant),* }

        impl LlOp {
            pub const ALL: &'static [LlOp] = &[$(LlOp::$variant),*];
            pub fn name(self) -> &'static str {
                match self { $(LlOp::$variant => $name),* }
            }
            /// Number of arguments, or `None` when variable (calls).
            pub fn arity(self) -> Option<usize> {
                match self { $(LlOp::$variant => $arity),* }
            }
            pub fn result_rule(self) -> ResultRule {
                match self { $(LlOp::$variant => $result),* }
            }
            /// Pure and total on constant arguments: may be computed at compile time.
            pub fn canfold(self) -> bool {
                match self { $(LlOp::$variant => $fold),* }
            }
            pub fn canraise(self) -> CanRaise {
                match self { $(LlOp::$variant => $raise),* }
            }
            /// Writes memory or does I/O (may not be removed when its result is unused).
            pub fn has_side_effects(self) -> bool {
                match self { $(LlOp::$variant => $side),* }
            }
            pub fn from_name(name: &str) -> Option<LlOp> {
                match name { $($name => Some(LlOp::$variant),)* _ => None }
            }
        }
    };
}

use CanRaise::*;
use ResultRule::*;
const S: ResultRule = Fixed(1); // Signed
const U: ResultRule = Fixed(2); // Unsigned
const LL: ResultRule = Fixed(3); // SignedLongLong
const ULL: ResultRule = Fixed(4); // UnsignedLongLong
const LLL: ResultRule = Fixed(16); // SignedLongLongLong
const F: ResultRule = Fixed(5); // Float
const C: ResultRule = Fixed(6); // Char
const UC: ResultRule = Fixed(7); // UniChar
const B: ResultRule = Fixed(8); // Bool
const V: ResultRule = Fixed(0); // Void

llops! {
    SameAs = "same_as", Some(1), SameAsArg0, true, Nothing, false;
    // Signed
    IntIsTrue = "int_is_true", Some(1), B, true, Nothing, false;
    IntNeg = "int_neg", Some(1), S, true, Nothing, false;
    IntAbs = "int_abs", Some(1), S, true, Nothing, false;
    IntInvert = "int_invert", Some(1), S, true, Nothing, false;
    IntAdd = "int_add", Some(2), S, true, Nothing, false;
    IntSub = "int_sub", Some(2), S, true, Nothing, false;
    IntMul = "int_mul", Some(2), S, true, Nothing, false;
    IntFloorDiv = "int_floordiv", Some(2), S, false, Nothing, false;
    IntMod = "int_mod", Some(2), S, false, Nothing, false;
    IntPyDiv = "int_py_div", Some(2), S, false, Nothing, false;
    IntPyMod = "int_py_mod", Some(2), S, false, Nothing, false;
    IntPyDivZer = "int_py_div_zer", Some(2), S, false, ZeroDivision, false;
    IntPyModZer = "int_py_mod_zer", Some(2), S, false, ZeroDivision, false;
    IntPyDivOvfZer = "int_py_div_ovf_zer", Some(2), S, false, OverflowOrZeroDivision, false;
    IntPyModOvfZer = "int_py_mod_ovf_zer", Some(2), S, false, OverflowOrZeroDivision, false;
    IntLt = "int_lt", Some(2), B, true, Nothing, false;
    IntLe = "int_le", Some(2), B, true, Nothing, false;
    IntEq = "int_eq", Some(2), B, true, Nothing, false;
    IntNe = "int_ne", Some(2), B, true, Nothing, false;
    IntGt = "int_gt", Some(2), B, true, Nothing, false;
    IntGe = "int_ge", Some(2), B, true, Nothing, false;
    IntAnd = "int_and", Some(2), S, true, Nothing, false;
    IntOr = "int_or", Some(2), S, true, Nothing, false;
    IntXor = "int_xor", Some(2), S, true, Nothing, false;
    IntLshift = "int_lshift", Some(2), S, false, Nothing, false;
    IntRshift = "int_rshift", Some(2), S, false, Nothing, false;
    IntAddOvf = "int_add_ovf", Some(2), S, false, Overflow, false;
    IntSubOvf = "int_sub_ovf", Some(2), S, false, Overflow, false;
    IntMulOvf = "int_mul_ovf", Some(2), S, false, Overflow, false;
    IntNegOvf = "int_neg_ovf", Some(1), S, false, Overflow, false;
    IntAbsOvf = "int_abs_ovf", Some(1), S, false, Overflow, false;
    IntLshiftOvf = "int_lshift_ovf", Some(2), S, false, Overflow, false;
    IntBetween = "int_between", Some(3), B, true, Nothing, false;
    // Unsigned
    UintIsTrue = "uint_is_true", Some(1), B, true, Nothing, false;
    UintInvert = "uint_invert", Some(1), U, true, Nothing, false;
    UintAdd = "uint_add", Some(2), U, true, Nothing, false;
    UintSub = "uint_sub", Some(2), U, true, Nothing, false;
    UintMul = "uint_mul", Some(2), U, true, Nothing, false;
    UintFloorDiv = "uint_floordiv", Some(2), U, false, Nothing, false;
    UintMod = "uint_mod", Some(2), U, false, Nothing, false;
    UintFloorDivZer = "uint_floordiv_zer", Some(2), U, false, ZeroDivision, false;
    UintModZer = "uint_mod_zer", Some(2), U, false, ZeroDivision, false;
    UintLt = "uint_lt", Some(2), B, true, Nothing, false;
    UintLe = "uint_le", Some(2), B, true, Nothing, false;
    UintEq = "uint_eq", Some(2), B, true, Nothing, false;
    UintNe = "uint_ne", Some(2), B, true, Nothing, false;
    UintGt = "uint_gt", Some(2), B, true, Nothing, false;
    UintGe = "uint_ge", Some(2), B, true, Nothing, false;
    UintAnd = "uint_and", Some(2), U, true, Nothing, false;
    UintOr = "uint_or", Some(2), U, true, Nothing, false;
    UintXor = "uint_xor", Some(2), U, true, Nothing, false;
    UintLshift = "uint_lshift", Some(2), U, false, Nothing, false;
    UintRshift = "uint_rshift", Some(2), U, false, Nothing, false;
    // SignedLongLong
    LlongIsTrue = "llong_is_true", Some(1), B, true, Nothing, false;
    LlongNeg = "llong_neg", Some(1), LL, true, Nothing, false;
    LlongAbs = "llong_abs", Some(1), LL, true, Nothing, false;
    LlongInvert = "llong_invert", Some(1), LL, true, Nothing, false;
    LlongAdd = "llong_add", Some(2), LL, true, Nothing, false;
    LlongSub = "llong_sub", Some(2), LL, true, Nothing, false;
    LlongMul = "llong_mul", Some(2), LL, true, Nothing, false;
    LlongPyDiv = "llong_py_div", Some(2), LL, false, Nothing, false;
    LlongPyMod = "llong_py_mod", Some(2), LL, false, Nothing, false;
    LlongPyDivZer = "llong_py_div_zer", Some(2), LL, false, ZeroDivision, false;
    LlongPyModZer = "llong_py_mod_zer", Some(2), LL, false, ZeroDivision, false;
    LlongLt = "llong_lt", Some(2), B, true, Nothing, false;
    LlongLe = "llong_le", Some(2), B, true, Nothing, false;
    LlongEq = "llong_eq", Some(2), B, true, Nothing, false;
    LlongNe = "llong_ne", Some(2), B, true, Nothing, false;
    LlongGt = "llong_gt", Some(2), B, true, Nothing, false;
    LlongGe = "llong_ge", Some(2), B, true, Nothing, false;
    LlongAnd = "llong_and", Some(2), LL, true, Nothing, false;
    LlongOr = "llong_or", Some(2), LL, true, Nothing, false;
    LlongXor = "llong_xor", Some(2), LL, true, Nothing, false;
    LlongLshift = "llong_lshift", Some(2), LL, false, Nothing, false;
    LlongRshift = "llong_rshift", Some(2), LL, false, Nothing, false;
    // SignedLongLongLong (the count of a shift is a Signed)
    LllongIsTrue = "lllong_is_true", Some(1), B, true, Nothing, false;
    LllongNeg = "lllong_neg", Some(1), LLL, true, Nothing, false;
    LllongAbs = "lllong_abs", Some(1), LLL, true, Nothing, false;
    LllongInvert = "lllong_invert", Some(1), LLL, true, Nothing, false;
    LllongAdd = "lllong_add", Some(2), LLL, true, Nothing, false;
    LllongSub = "lllong_sub", Some(2), LLL, true, Nothing, false;
    LllongMul = "lllong_mul", Some(2), LLL, true, Nothing, false;
    LllongPyDiv = "lllong_py_div", Some(2), LLL, false, Nothing, false;
    LllongPyMod = "lllong_py_mod", Some(2), LLL, false, Nothing, false;
    LllongPyDivZer = "lllong_py_div_zer", Some(2), LLL, false, ZeroDivision, false;
    LllongPyModZer = "lllong_py_mod_zer", Some(2), LLL, false, ZeroDivision, false;
    LllongLt = "lllong_lt", Some(2), B, true, Nothing, false;
    LllongLe = "lllong_le", Some(2), B, true, Nothing, false;
    LllongEq = "lllong_eq", Some(2), B, true, Nothing, false;
    LllongNe = "lllong_ne", Some(2), B, true, Nothing, false;
    LllongGt = "lllong_gt", Some(2), B, true, Nothing, false;
    LllongGe = "lllong_ge", Some(2), B, true, Nothing, false;
    LllongAnd = "lllong_and", Some(2), LLL, true, Nothing, false;
    LllongOr = "lllong_or", Some(2), LLL, true, Nothing, false;
    LllongXor = "lllong_xor", Some(2), LLL, true, Nothing, false;
    LllongLshift = "lllong_lshift", Some(2), LLL, false, Nothing, false;
    LllongRshift = "lllong_rshift", Some(2), LLL, false, Nothing, false;
    // UnsignedLongLong
    UllongIsTrue = "ullong_is_true", Some(1), B, true, Nothing, false;
    UllongInvert = "ullong_invert", Some(1), ULL, true, Nothing, false;
    UllongAdd = "ullong_add", Some(2), ULL, true, Nothing, false;
    UllongSub = "ullong_sub", Some(2), ULL, true, Nothing, false;
    UllongMul = "ullong_mul", Some(2), ULL, true, Nothing, false;
    UllongFloorDiv = "ullong_floordiv", Some(2), ULL, false, Nothing, false;
    UllongMod = "ullong_mod", Some(2), ULL, false, Nothing, false;
    UllongFloorDivZer = "ullong_floordiv_zer", Some(2), ULL, false, ZeroDivision, false;
    UllongModZer = "ullong_mod_zer", Some(2), ULL, false, ZeroDivision, false;
    UllongLt = "ullong_lt", Some(2), B, true, Nothing, false;
    UllongLe = "ullong_le", Some(2), B, true, Nothing, false;
    UllongEq = "ullong_eq", Some(2), B, true, Nothing, false;
    UllongNe = "ullong_ne", Some(2), B, true, Nothing, false;
    UllongGt = "ullong_gt", Some(2), B, true, Nothing, false;
    UllongGe = "ullong_ge", Some(2), B, true, Nothing, false;
    UllongAnd = "ullong_and", Some(2), ULL, true, Nothing, false;
    UllongOr = "ullong_or", Some(2), ULL, true, Nothing, false;
    UllongXor = "ullong_xor", Some(2), ULL, true, Nothing, false;
    UllongLshift = "ullong_lshift", Some(2), ULL, false, Nothing, false;
    UllongRshift = "ullong_rshift", Some(2), ULL, false, Nothing, false;
    // Float
    FloatIsTrue = "float_is_true", Some(1), B, true, Nothing, false;
    FloatNeg = "float_neg", Some(1), F, true, Nothing, false;
    FloatAbs = "float_abs", Some(1), F, true, Nothing, false;
    FloatAdd = "float_add", Some(2), F, true, Nothing, false;
    FloatSub = "float_sub", Some(2), F, true, Nothing, false;
    FloatMul = "float_mul", Some(2), F, true, Nothing, false;
    FloatTrueDiv = "float_truediv", Some(2), F, true, Nothing, false;
    FloatLt = "float_lt", Some(2), B, true, Nothing, false;
    FloatLe = "float_le", Some(2), B, true, Nothing, false;
    FloatEq = "float_eq", Some(2), B, true, Nothing, false;
    FloatNe = "float_ne", Some(2), B, true, Nothing, false;
    FloatGt = "float_gt", Some(2), B, true, Nothing, false;
    FloatGe = "float_ge", Some(2), B, true, Nothing, false;
    /// The 64 bits of a double as a Signed, and back (`rlib.longlong2float`): NaN payloads
    /// and signs kept.
    ConvertFloatBytesToLonglong = "convert_float_bytes_to_longlong", Some(1), S, true, Nothing, false;
    ConvertLonglongBytesToFloat = "convert_longlong_bytes_to_float", Some(1), F, true, Nothing, false;
    // Char and UniChar
    CharLt = "char_lt", Some(2), B, true, Nothing, false;
    CharLe = "char_le", Some(2), B, true, Nothing, false;
    CharEq = "char_eq", Some(2), B, true, Nothing, false;
    CharNe = "char_ne", Some(2), B, true, Nothing, false;
    CharGt = "char_gt", Some(2), B, true, Nothing, false;
    CharGe = "char_ge", Some(2), B, true, Nothing, false;
    UnicharEq = "unichar_eq", Some(2), B, true, Nothing, false;
    UnicharNe = "unichar_ne", Some(2), B, true, Nothing, false;
    UnicharLt = "unichar_lt", Some(2), B, true, Nothing, false;
    UnicharLe = "unichar_le", Some(2), B, true, Nothing, false;
    UnicharGt = "unichar_gt", Some(2), B, true, Nothing, false;
    UnicharGe = "unichar_ge", Some(2), B, true, Nothing, false;
    // Casts between primitives (the result's type is the target)
    CastBoolToInt = "cast_bool_to_int", Some(1), S, true, Nothing, false;
    CastBoolToFloat = "cast_bool_to_float", Some(1), F, true, Nothing, false;
    CastCharToInt = "cast_char_to_int", Some(1), S, true, Nothing, false;
    CastUnicharToInt = "cast_unichar_to_int", Some(1), S, true, Nothing, false;
    CastIntToChar = "cast_int_to_char", Some(1), C, true, Nothing, false;
    CastIntToUnichar = "cast_int_to_unichar", Some(1), UC, true, Nothing, false;
    CastIntToFloat = "cast_int_to_float", Some(1), F, true, Nothing, false;
    CastFloatToInt = "cast_float_to_int", Some(1), S, true, Nothing, false;
    /// Any other conversion between integer kinds and floats (C's cast).
    CastPrimitive = "cast_primitive", Some(1), Given, true, Nothing, false;
    // Pointers and containers
    PtrEq = "ptr_eq", Some(2), B, true, Nothing, false;
    PtrNe = "ptr_ne", Some(2), B, true, Nothing, false;
    PtrIsZero = "ptr_iszero", Some(1), B, true, Nothing, false;
    PtrNonZero = "ptr_nonzero", Some(1), B, true, Nothing, false;
    /// `gc_identityhash(ptr)`: a GC object's hash by identity, the same for the object's
    /// whole life (0 for NULL: RPython's hash of None).
    GcIdentityHash = "gc_identityhash", Some(1), S, false, Nothing, false;
    /// `weakref_create(instance)`: a new weak reference (`Ptr(weakref)`) to a GC object
    /// that is not NULL. The reference does not keep the object alive: a collection that
    /// frees the object sets it to NULL.
    WeakrefCreate = "weakref_create", Some(1), Given, false, Nothing, true;
    /// `weakref_deref(wref)`: the object of a weak reference (the result's pointer type),
    /// or NULL once it was freed (and for a NULL reference: a weak dictionary's missing
    /// entry).
    WeakrefDeref = "weakref_deref", Some(1), Given, false, Nothing, false;
    /// `gc__collect()`: a full collection (what it frees shows in weak references).
    GcCollect = "gc__collect", Some(0), V, false, Nothing, true;
    /// Between a structure and its first-field parents, up or down.
    CastPointer = "cast_pointer", Some(1), Given, true, Nothing, false;
    /// `rffi.cast(INTTYPE, ptr)`: a pointer's address as a `Signed` (0 for NULL).
    CastPtrToInt = "cast_ptr_to_int", Some(1), S, false, Nothing, false;
    /// `rffi.cast(PTRTYPE, n)`: the pointer whose address is the `Signed` `n` (a tagged word
    /// kept in a pointer; 0 is NULL).
    CastIntToPtr = "cast_int_to_ptr", Some(1), Given, false, Nothing, false;
    /// `malloc(Void const TYPE)`.
    Malloc = "malloc", Some(1), Given, false, Nothing, true;
    /// `malloc_varsize(Void const TYPE, Signed length)`.
    MallocVarsize = "malloc_varsize", Some(2), Given, false, Nothing, true;
    /// `getfield(ptr, Void const fieldname)`.
    GetField = "getfield", Some(2), Given, false, Nothing, false;
    /// `setfield(ptr, Void const fieldname, value)`.
    SetField = "setfield", Some(3), V, false, Nothing, true;
    /// `getsubstruct(ptr, Void const fieldname)`: a pointer to an inlined structure or array.
    GetSubstruct = "getsubstruct", Some(2), Given, true, Nothing, false;
    GetArrayItem = "getarrayitem", Some(2), Given, false, Nothing, false;
    SetArrayItem = "setarrayitem", Some(3), V, false, Nothing, true;
    /// `rffi.ptradd(p, n)`: a pointer `n` items of its static type further
    DirectPtradd = "direct_ptradd", Some(2), Given, false, Nothing, false;
    GetArraySize = "getarraysize", Some(1), S, false, Nothing, false;
    /// `arraycopy(src, dst, src_start, dst_start, length)`: copies `length` items from one
    /// array to another of the same item type, front to back as `memmove` (the ranges may
    /// overlap). `src` and `dst` point to GcArrays or to structures whose variable-sized
    /// part is the array (a string's `chars`). Indices are in bounds (the caller checks); a length <= 0 copies nothing.
    ArrayCopy = "arraycopy", Some(5), V, false, Nothing, true;
    /// `getinteriorfield(ptr, offsets…)`: a value inside a container, reached through Void
    /// constant field names and Signed array indices (`s.chars[i]` is
    /// `getinteriorfield(s, 'chars', i)`, a dict entry's key `(entries, i, 'key')`).
    GetInteriorField = "getinteriorfield", None, Given, false, Nothing, false;
    /// `setinteriorfield(ptr, offsets…, value)`.
    SetInteriorField = "setinteriorfield", None, V, false, Nothing, true;
    /// `getinteriorarraysize(ptr, offsets…)`: the length of an inlined array.
    GetInteriorArraySize = "getinteriorarraysize", None, S, false, Nothing, false;
    // Calls
    /// `direct_call(const funcptr, args…)`.
    DirectCall = "direct_call", None, Given, false, Anything, true;
    /// `indirect_call(funcptr, args…, Void const graphs)`.
    IndirectCall = "indirect_call", None, Given, false, Anything, true;
    /// `funcset_check(funcptr)` before an `indirect_call` of a family of 2 to 4 functions:
    /// the reference's `-O2` represents such a set by an index (`SmallFunctionSetPBCRepr`,
    /// `withsmallfuncsets=5`) and calls through a switch whose default aborts, so a call of
    /// none of them (None, a method the object's class lacks) ends the program silently
    /// with status 134 where a pointer would be called as NULL.
    FuncsetCheck = "funcset_check", Some(1), V, false, Nothing, true;
    // Debugging
    DebugAssert = "debug_assert", Some(2), V, false, Nothing, true;
    DebugFatalError = "debug_fatalerror", Some(1), V, false, Nothing, true;
    /// `debug_undefined(Void const message, Signed values…)`: what follows is undefined
    /// behaviour in a compiled program (an index past the end where the reference's helpers
    /// only `ll_assert`, which its release builds do not check). The LLInterpreter stops
    /// there, the values (`{}` in the message, in order) in its message; C aborts.
    DebugUndefined = "debug_undefined", None, V, false, Nothing, true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = crate::fasthash::HashSet::default();
        for &op in LlOp::ALL {
            assert!(seen.insert(op.name()), "duplicate {}", op.name());
            assert_eq!(LlOp::from_name(op.name()), Some(op));
        }
        assert_eq!(LlOp::IntAddOvf.canraise(), CanRaise::Overflow);
        assert!(LlOp::SetField.has_side_effects());
        assert!(!LlOp::IntAdd.has_side_effects());
    }
}
