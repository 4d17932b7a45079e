//! The registry of runtime functions: the low-level functions a translated program calls
//! that are not graphs of the program: external functions (`os.write`, the clock, float
//! formatting) and the low-level helpers of strings and lists that are not yet written as
//! low-level RPython graphs. The RTyper calls them with `direct_call` through a function
//! pointer; the LLInterpreter implements them (GenC will too). One entry per function: its
//! name and what it can raise.

macro_rules! runtime_fns {
    ($($(#[$m:meta])* $variant:ident = $name:literal, $raises:expr;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuntimeFn { $($(#[$m])* $variant),* }

        impl RuntimeFn {
            pub const ALL: &'static [RuntimeFn] = &[$(RuntimeFn::$variant),*];
            pub fn name(self) -> &'static str {
                match self { $(RuntimeFn::$variant => $name),* }
            }
            /// The exception classes (by name) it can raise.
            pub fn raises(self) -> &'static [&'static str] {
                match self { $(RuntimeFn::$variant => $raises),* }
            }
        }
    };
}

const NONE: &[&str] = &[];

/// The built-in exceptions operations and runtime functions raise: the RTyper gives each
/// a vtable and an instance structure (`LlProgram::std_exceptions`). In the order of
/// `enum rpy_std_exc` of GenC's C runtime (`src/genc/runtime/rpy.h`).
pub const STD_EXCEPTIONS: &[&str] = &[
    "ZeroDivisionError",
    "OverflowError",
    "IndexError",
    "KeyError",
    "ValueError",
    "OSError",
    "StopIteration",
    "AssertionError",
    "MemoryError",
    "UnicodeEncodeError",
    "UnicodeDecodeError",
    "RuntimeError",
];

runtime_fns! {
    /// `os.write(fd, str) -> Signed`
    OsWrite = "ll_os_write", &["OSError"];
    /// `os.read(fd, Signed) -> str`
    OsRead = "ll_os_read", &["OSError"];
    /// `os.open(path, flags, mode) -> Signed`
    OsOpen = "ll_os_open", &["OSError"];
    /// `os.close(fd)`
    OsClose = "ll_os_close", &["OSError"];
    /// `time.time() -> Float`, `time.clock() -> Float`
    TimeTime = "ll_time_time", NONE;
    TimeClock = "ll_time_clock", NONE;
    /// `print` of one item (already a str): written after a space if one is pending.
    PrintItem = "ll_print_item", NONE;
    /// end of a `print` statement: the line is written to fd 1.
    PrintNewline = "ll_print_newline", NONE;
    /// `str(Signed)`, `str(Unsigned)`, `hex`, `oct`
    IntToStr = "ll_int_str", NONE;
    UintToStr = "ll_uint_str", NONE;
    IntToHex = "ll_int_hex", NONE;
    IntToOct = "ll_int_oct", NONE;
    /// `str(Float)` and `repr(Float)`
    FloatToStr = "ll_float_str", NONE;
    FloatToRepr = "ll_float_repr", NONE;
    /// `'%.*f'` and friends: (value, code char, precision) -> str
    FloatFormat = "ll_float_format", NONE;
    /// `int(str)`, `float(str)`
    StrToInt = "ll_str_to_int", &["ValueError"];
    StrToFloat = "ll_str_to_float", &["ValueError"];
    /// `chr(Signed)` as a one-char string; `str(Char)`
    CharToStr = "ll_char_str", NONE;
    /// string operations
    StrConcat = "ll_strconcat", NONE;
    StrEq = "ll_streq", NONE;
    StrCmp = "ll_strcmp", NONE;
    StrHash = "ll_strhash", NONE;
    /// `objectmodel.compute_hash(x)`: ints hash to themselves, strings as RPython's
    /// `ll_strhash`, tuples item by item, instances by identity
    ComputeHash = "ll_compute_hash", NONE;
    StrSlice = "ll_str_slice", NONE;
    StrMul = "ll_str_mul", NONE;
    StrFind = "ll_str_find", NONE;
    StrRFind = "ll_str_rfind", NONE;
    StrFindChar = "ll_str_find_char", NONE;
    StrCount = "ll_str_count", NONE;
    StrContains = "ll_str_contains", NONE;
    StrStartsWith = "ll_str_startswith", NONE;
    StrEndsWith = "ll_str_endswith", NONE;
    StrUpper = "ll_str_upper", NONE;
    StrLower = "ll_str_lower", NONE;
    StrStrip = "ll_str_strip", NONE;
    StrReplace = "ll_str_replace", NONE;
    StrSplit = "ll_str_split", NONE;
    StrRSplit = "ll_str_rsplit", NONE;
    StrJoin = "ll_str_join", NONE;
    StrSplitLines = "ll_str_splitlines", NONE;
    StrIsDigit = "ll_str_isdigit", NONE;
    StrIsAlpha = "ll_str_isalpha", NONE;
    StrIsSpace = "ll_str_isspace", NONE;
    StrIsAlnum = "ll_str_isalnum", NONE;
    StrIsUpper = "ll_str_isupper", NONE;
    StrIsLower = "ll_str_islower", NONE;
    StrRepr = "ll_str_repr", NONE;
    /// `u.encode(codec)` and `s.decode(codec)` (utf-8, latin-1, ascii)
    UniEncode = "ll_unicode_encode", &["UnicodeEncodeError"];
    StrDecode = "ll_str_decode", &["UnicodeDecodeError"];
    /// list operations (on the resizable `list` structure)
    ListAppend = "ll_list_append", NONE;
    ListPop = "ll_list_pop", &["IndexError"];
    ListInsert = "ll_list_insert", NONE;
    ListExtend = "ll_list_extend", NONE;
    ListDelItem = "ll_list_delitem", &["IndexError"];
    ListReverse = "ll_list_reverse", NONE;
    ListSlice = "ll_list_slice", NONE;
    ListIndex = "ll_list_index", &["ValueError"];
    ListRemove = "ll_list_remove", &["ValueError"];
    ListContains = "ll_list_contains", NONE;
    ListCount = "ll_list_count", NONE;
    ListSort = "ll_list_sort", NONE;
    ListEq = "ll_list_eq", NONE;
    ListConcat = "ll_list_concat", NONE;
    ListMul = "ll_list_mul", NONE;
    ListSetSlice = "ll_list_setslice", NONE;
    ListDelSlice = "ll_list_delslice", NONE;
    /// `isinstance` on a pointer that may be NULL: (instance, min, max) -> Bool
    IsInstance = "ll_isinstance", NONE;
    /// `math.*` of one or two floats
    MathFn = "ll_math", &["ValueError", "OverflowError"];
    /// dict operations (on the ordered `dict` structure)
    DictGetItem = "ll_dict_getitem", &["KeyError"];
    DictSetItem = "ll_dict_setitem", NONE;
    DictDelItem = "ll_dict_delitem", &["KeyError"];
    DictContains = "ll_dict_contains", NONE;
    DictGet = "ll_dict_get", NONE;
    DictSetDefault = "ll_dict_setdefault", NONE;
    DictPop = "ll_dict_pop", &["KeyError"];
    DictPopDefault = "ll_dict_pop_default", NONE;
    DictClear = "ll_dict_clear", NONE;
    /// `d.popitem()`: the last inserted entry, as a tuple
    DictPopItem = "ll_dict_popitem", &["KeyError"];
    DictCopy = "ll_dict_copy", NONE;
    DictUpdate = "ll_dict_update", NONE;
    DictKeys = "ll_dict_keys", NONE;
    DictValues = "ll_dict_values", NONE;
    DictItems = "ll_dict_items", NONE;
    DictLen = "ll_dict_len", NONE;
    /// Iteration over a dict: (dict, position) -> next live position or -1
    DictNextPos = "ll_dict_next_pos", NONE;
    DictKeyAt = "ll_dict_key_at", NONE;
    DictValueAt = "ll_dict_value_at", NONE;
    /// `x in dict` etc. for any key kind is by value: hash and equality follow the key's
    /// low-level type (strings by content, tuples item by item, pointers by identity).
    /// `next()` of any iterator structure (list, str, dict, enumerate…); the item's type
    /// is the function's result type.
    IterNext = "ll_iter_next", &["StopIteration"];
    /// `next()` of a range iterator (`rangeiter {next, stop, step}`)
    RangeIterNext = "ll_rangeiter_next", &["StopIteration"];
    /// a range iterator over a `range()` list (never mutated): (list, step)
    RangeIterOfList = "ll_rangeiter_of_list", NONE;
    /// `range(start, stop, step)` as a list (fixed-size or resizable, per the result type)
    RangeList = "ll_range_list", &["ValueError"];
    /// `newdict()` of the result type
    DictNew = "ll_dict_new", NONE;
    /// truth of a str or list that may be None
    StrIsTrue = "ll_str_is_true", NONE;
    ListIsTrue = "ll_list_is_true", NONE;
    BoolToStr = "ll_bool_str", NONE;
    /// `str()` of a list or a tuple: `[1, 'a']`, `(1, 2.5)`
    ListStr = "ll_list_str", NONE;
    /// indexing with negative indices and, when handled, bounds checks
    ListGetItem = "ll_list_getitem", &["IndexError"];
    ListSetItem = "ll_list_setitem", &["IndexError"];
    StrGetItem = "ll_str_getitem", &["IndexError"];
    /// equality and hash of tuples, item by item
    TupleEq = "ll_tuple_eq", NONE;
    /// `x in tuple`: equality with each item, by value
    TupleContains = "ll_tuple_contains", NONE;
    /// `str(instance)`: `<Name object>`-like text is not RPython; kept for print of None
    NoneToStr = "ll_none_str", NONE;
    /// `float ** float`, `math.floor` of a division
    FloatPow = "ll_float_pow", &["ValueError", "OverflowError"];
    FloatFloorDiv = "ll_float_floordiv", &["ZeroDivisionError"];
    FloatMod = "ll_float_mod", &["ZeroDivisionError"];
    /// A new instance of the class whose vtable is given (a class chosen at run time),
    /// with its class-level field defaults
    Instantiate = "ll_instantiate", NONE;
    /// `__init__` of the instance's class, with the call's arguments: (instance, args…)
    CallInit = "ll_call_init", &["Exception"];
    /// `min(a, b)` / `max(a, b)` of numbers or chars: (a, b, is_max)
    MinMax = "ll_minmax", NONE;
    StrBuilderNew = "ll_strbuilder_new", NONE;
    StrBuilderAppend = "ll_strbuilder_append", NONE;
    StrBuilderBuild = "ll_strbuilder_build", NONE;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for f in RuntimeFn::ALL {
            assert!(seen.insert(f.name()));
        }
    }
}
