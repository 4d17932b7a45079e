//! The table of built-ins (see the parent module): one line per built-in.

use super::builtins;

builtins! {
    // __builtin__ functions
    Len = "len" => Len / 1;
    Range = "range";
    Enumerate = "enumerate";
    Zip = "zip";
    Map = "map";
    Filter = "filter";
    Reduce = "reduce";
    Sorted = "sorted";
    Reversed = "reversed";
    Min = "min";
    Max = "max";
    Abs = "abs" => Abs / 1;
    Sum = "sum";
    Any = "any";
    All = "all";
    Ord = "ord" => Ord / 1;
    Chr = "chr";
    Unichr = "unichr";
    Repr = "repr" => Repr / 1;
    Hash = "hash" => Hash / 1;
    Id = "id" => Id / 1;
    Isinstance = "isinstance" => IsInstance / 2;
    Issubclass = "issubclass" => IsSubtype / 2;
    Hasattr = "hasattr";
    Getattr = "getattr" => GetAttr / 2;
    Setattr = "setattr" => SetAttr / 3;
    Delattr = "delattr" => DelAttr / 2;
    Iter = "iter" => Iter / 1;
    Next = "next" => Next / 1;
    Callable = "callable";
    Globals = "globals";
    Locals = "locals";
    Vars = "vars";
    Dir = "dir";
    Divmod = "divmod" => Divmod / 2;
    Pow = "pow" => Pow / 2;
    Round = "round";
    Hex = "hex" => Hex / 1;
    Oct = "oct" => Oct / 1;
    Bin = "bin";
    Cmp = "cmp" => Cmp / 2;
    Intern = "intern";
    Format = "format";
    Print = "print";
    PrintItem = "print_item";
    PrintNewline = "print_newline";
    DunderImport = "__import__";
    Eval = "eval";
    Compile = "compile";
    Execfile = "execfile";
    Input = "input";
    RawInput = "raw_input";
    Open = "open";
    File = "file";
    Reload = "reload";
    // constructors of built-in classes
    Object = "object";
    Type = "type" => Type / 1;
    Int = "int" => Int / 1;
    Long = "long" => Long / 1;
    Float = "float" => Float / 1;
    Bool = "bool" => Bool / 1;
    Str = "str" => Str / 1;
    Unicode = "unicode";
    /// `bytearray(s)`: a mutable array of bytes (the reference's `SomeByteArray`)
    Bytearray = "bytearray";
    Tuple = "tuple";
    List = "list";
    Dict = "dict";
    Set = "set";
    Frozenset = "frozenset";
    Staticmethod = "staticmethod";
    Classmethod = "classmethod";
    Property = "property";
    Super = "super";
    Xrange = "xrange";
    Slice = "slice";
    // methods of built-in classes
    ObjectDunderInit = "object.__init__";
    TypeDunderNew = "type.__new__";
    /// `tuple.__new__(cls, items)`: what a tuple subclass's `__new__` calls (import time)
    TupleDunderNew = "tuple.__new__";
    /// `tuple.__eq__(self, other)`...: the structural comparison and hash a tuple
    /// subclass's own special methods call (import time)
    TupleDunderEq = "tuple.__eq__";
    TupleDunderNe = "tuple.__ne__";
    TupleDunderHash = "tuple.__hash__";
    /// `C.__subclasses__()`: the classes whose bases include `C`, in creation order
    TypeSubclasses = "type.__subclasses__";
    ObjectDunderSetattr = "object.__setattr__";
    ObjectDunderGetattribute = "object.__getattribute__";
    /// `object.__subclasshook__`: NotImplemented (the ABC machinery's default)
    ObjectDunderSubclasshook = "object.__subclasshook__";
    /// `object.__hash__`: the identity hash (what a `super().__hash__()` reaches)
    ObjectDunderHash = "object.__hash__";
    BaseExceptionDunderInit = "BaseException.__init__";
    BaseExceptionDunderStr = "BaseException.__str__";
    BaseExceptionDunderRepr = "BaseException.__repr__";
    ListAppend = "list.append";
    ListExtend = "list.extend";
    ListPop = "list.pop";
    ListInsert = "list.insert";
    ListRemove = "list.remove";
    ListIndex = "list.index";
    ListCount = "list.count";
    ListReverse = "list.reverse";
    ListSort = "list.sort";
    ListDunderLen = "list.__len__";
    ListDunderGetitem = "list.__getitem__";
    ListDunderSetitem = "list.__setitem__";
    ListDunderContains = "list.__contains__";
    TupleIndex = "tuple.index";
    TupleCount = "tuple.count";
    TupleDunderLen = "tuple.__len__";
    TupleDunderGetitem = "tuple.__getitem__";
    DictGet = "dict.get";
    DictDunderGetitem = "dict.__getitem__";
    DictDunderSetitem = "dict.__setitem__";
    DictDunderDelitem = "dict.__delitem__";
    DictDunderContains = "dict.__contains__";
    ListDunderDelitem = "list.__delitem__";
    DictKeys = "dict.keys";
    DictValues = "dict.values";
    DictItems = "dict.items";
    DictIterkeys = "dict.iterkeys";
    DictItervalues = "dict.itervalues";
    DictIteritems = "dict.iteritems";
    DictSetdefault = "dict.setdefault";
    DictUpdate = "dict.update";
    DictPop = "dict.pop";
    DictPopitem = "dict.popitem";
    DictHasKey = "dict.has_key";
    DictCopy = "dict.copy";
    DictClear = "dict.clear";
    DictFromkeys = "dict.fromkeys";
    DictDunderLen = "dict.__len__";
    SetAdd = "set.add";
    SetRemove = "set.remove";
    SetDiscard = "set.discard";
    SetPop = "set.pop";
    SetUpdate = "set.update";
    SetUnion = "set.union";
    SetIntersection = "set.intersection";
    SetDifference = "set.difference";
    SetIssubset = "set.issubset";
    SetIssuperset = "set.issuperset";
    SetCopy = "set.copy";
    SetClear = "set.clear";
    SetDunderLen = "set.__len__";
    SetDunderContains = "set.__contains__";
    FrozensetUnion = "frozenset.union";
    FrozensetIntersection = "frozenset.intersection";
    FrozensetDifference = "frozenset.difference";
    FrozensetIssubset = "frozenset.issubset";
    FrozensetCopy = "frozenset.copy";
    PropertySetter = "property.setter";
    PropertyGetter = "property.getter";
    PropertyDeleter = "property.deleter";
    PropertyDunderGet = "property.__get__";
    IteratorNext = "iterator.next";
    IteratorDunderIter = "iterator.__iter__";
    IteratorDunderNext = "iterator.__next__";
    IntDunderAdd = "int.__add__";
    IntDunderSub = "int.__sub__";
    IntDunderMul = "int.__mul__";
    IntDunderEq = "int.__eq__";
    IntDunderLt = "int.__lt__";
    IntDunderHash = "int.__hash__";
    IntBitLength = "int.bit_length";
    LongBitLength = "long.bit_length";
    FloatIsInteger = "float.is_integer";
    FunctionDunderGet = "function.__get__";
    GeneratorNext = "generator.next";
    GeneratorDunderNext = "generator.__next__";
    GeneratorSend = "generator.send";
    GeneratorClose = "generator.close";
    GeneratorDunderIter = "generator.__iter__";
    // os
    OsWrite = "os.write";
    OsRead = "os.read";
    OsOpen = "os.open";
    OsClose = "os.close";
    OsLseek = "os.lseek";
    OsGetenv = "os.getenv";
    OsEnvironSnapshot = "os.environ_snapshot";
    OsGetpid = "os.getpid";
    /// `tempfile.gettempdir()` (the bundled `tempfile` model's primitive)
    OsTempdir = "os.tempdir";
    OsUnlink = "os.unlink";
    OsRemove = "os.remove";
    OsRename = "os.rename";
    OsMkdir = "os.mkdir";
    OsRmdir = "os.rmdir";
    OsSystem = "os.system";
    OsExit = "os._exit";
    OsIsatty = "os.isatty";
    OsGetcwd = "os.getcwd";
    /// import-time only: the reference translates no call of it
    OsUrandom = "os.urandom";
    OsStrerror = "os.strerror";
    OsListdir = "os.listdir";
    OsStatFields = "os.stat_fields";
    OsLstatFields = "os.lstat_fields";
    OsFstatFields = "os.fstat_fields";
    OsPathExists = "os.path.exists";
    OsPathIsdir = "os.path.isdir";
    OsPathIsfile = "os.path.isfile";
    // process and file-descriptor functions of rposix: translated, not run at import time
    /// `os.fdopen(fd, mode)`: a file object at import time is unknown; the flow space
    /// redirects it to `rfile.create_fdopen_rfile`, as the reference's does
    OsFdopen = "os.fdopen";
    OsGetppid = "os.getppid";
    // lltype: pointers exist only in translated code
    LltypeMalloc = "lltype.malloc";
    LltypeNullptr = "lltype.nullptr";
    LltypeTypeOf = "lltype.typeOf";
    /// `rffi.cast(TYPE, x)` where a pointer is involved: the same address seen through
    /// another pointer type, a pointer's address as an integer, or an integer (a tagged
    /// word) kept in a pointer
    RffiCastPtr = "rffi.cast_ptr";
    /// `rffi.cast()`'s test of its value: whether it is a low-level pointer (a constant
    /// while annotating; pointers do not exist at import time)
    RffiIsPtr = "rffi.is_ptr";
    RffiPtradd = "rffi.ptradd";
    AnnlowlevelLlstr = "annlowlevel.llstr";
    OsListdirRaw = "os.listdir_raw";
    OsEnvironRaw = "os.environ_raw";
    OsLoadavgItem = "os.loadavg_item";
    /// one field of `os.times()` (ll_os.py builds the tuple)
    OsTimesItem = "os.times_item";
    /// `os.pipe()`'s two descriptors in one int: `read << 32 | write` (ll_os.py splits them)
    OsPipeRaw = "os.pipe_raw";
    OsWaitpidRaw = "os.waitpid_raw";
    /// `execv(path, args)`, `execve(path, args, env)`: the arguments and the environment
    /// entries each end in a NUL, an environment count of -1 keeps the process's own;
    /// it returns only when the call failed, with the errno (the model raises OSError)
    OsExecvRaw = "os.execv_raw";
    OsStatInt = "os.stat_int";
    OsStatFloat = "os.stat_float";
    OsFstatInt = "os.fstat_int";
    OsFstatFloat = "os.fstat_float";
    AnnlowlevelHlstr = "annlowlevel.hlstr";
    AnnlowlevelLlunicode = "annlowlevel.llunicode";
    AnnlowlevelHlunicode = "annlowlevel.hlunicode";
    /// `rgc.ll_arraycopy(src, dst, src_start, dst_start, n)`: the `arraycopy` operation
    RgcLlArraycopy = "rgc.ll_arraycopy";
    OsGetuid = "os.getuid";
    OsGeteuid = "os.geteuid";
    OsGetgid = "os.getgid";
    OsGetegid = "os.getegid";
    OsGetpgrp = "os.getpgrp";
    OsFork = "os.fork";
    OsSetsid = "os.setsid";
    OsGetloadavg = "os.getloadavg";
    OsGetlogin = "os.getlogin";
    OsKill = "os.kill";
    OsDup = "os.dup";
    OsDup2 = "os.dup2";
    OsFsync = "os.fsync";
    OsPipe = "os.pipe";
    OsChdir = "os.chdir";
    OsChmod = "os.chmod";
    OsAccess = "os.access";
    OsUmask = "os.umask";
    OsTimes = "os.times";
    OsWaitpid = "os.waitpid";
    OsTtyname = "os.ttyname";
    OsReadlink = "os.readlink";
    OsSymlink = "os.symlink";
    OsLink = "os.link";
    OsFtruncate = "os.ftruncate";
    OsNice = "os.nice";
    // sys
    SysExit = "sys.exit";
    /// The globals of the import-time frame at a level (0: the outermost), for
    /// `sys._getframe(n).f_globals`
    SysFrameGlobals = "sys.frame_globals";
    /// How many import-time frames are running
    SysFrameCount = "sys.frame_count";
    /// `model_unknown(what)`: an unknown value, with one warning, for a bundled model
    /// that knows it lacks something (`config.<group>` of an unmodelled option set)
    ModelUnknown = "model.unknown";
    /// `model_is_unknown(v)`: whether `v` is a value rpy-lsp does not model, for a bundled
    /// model whose answer depends on it (`struct.pack` of an unknown opcode number)
    ModelIsUnknown = "model.is_unknown";
    /// `model_opaque(kind, what)`: a value of a known type ("int", "bool", "float", "str")
    /// whose content rpy-lsp does not compute (what `rffi_platform` asks the C compiler):
    /// unknown at import time, of that type and never constant when annotated
    ModelOpaque = "model.opaque";
    /// `model_pkg_config_exists(name)`: whether `pkg-config NAME --exists` succeeds (the
    /// reference's `from_pkg_config` raises ImportError at import time when it does not)
    ModelPkgConfigExists = "model.pkg_config_exists";
    // re (import time only: the bundled `re.py` and `rsre_re.py` are built on these)
    ReInfo = "re.info";
    ReSpans = "re.spans";
    /// `re_program(pattern, flags)`: the program of a pattern for `rsre` (translation time)
    ReProgram = "re.program";
    // math
    RfloatFormatd = "rfloat.formatd";
    MathSqrt = "math.sqrt";
    MathFloor = "math.floor";
    MathCeil = "math.ceil";
    MathFabs = "math.fabs";
    MathExp = "math.exp";
    MathLog10 = "math.log10";
    MathLog1p = "math.log1p";
    MathSin = "math.sin";
    MathCos = "math.cos";
    MathTan = "math.tan";
    MathAsin = "math.asin";
    MathAcos = "math.acos";
    MathAtan = "math.atan";
    MathSinh = "math.sinh";
    MathCosh = "math.cosh";
    MathTanh = "math.tanh";
    MathDegrees = "math.degrees";
    MathRadians = "math.radians";
    MathTrunc = "math.trunc";
    MathAsinh = "math.asinh";
    MathAcosh = "math.acosh";
    MathAtanh = "math.atanh";
    MathExpm1 = "math.expm1";
    MathIsnan = "math.isnan";
    MathIsinf = "math.isinf";
    MathLog = "math.log";
    MathFmod = "math.fmod";
    MathPow = "math.pow";
    MathAtan2 = "math.atan2";
    MathHypot = "math.hypot";
    MathCopysign = "math.copysign";
    MathLdexp = "math.ldexp";
    MathFrexp = "math.frexp";
    MathModf = "math.modf";
    MathFactorial = "math.factorial";
    // time
    TimeTime = "time.time";
    TimeClock = "time.clock";
    TimeSleep = "time.sleep";
    // rarithmetic
    RarithmeticIntmask = "rarithmetic.intmask";
    RarithmeticOvfcheck = "rarithmetic.ovfcheck";
    RarithmeticWiden = "rarithmetic.widen";
    RarithmeticIsValidInt = "rarithmetic.is_valid_int";
    RarithmeticLonglongmask = "rarithmetic.longlongmask";
    RarithmeticRUint = "rarithmetic.r_uint";
    RarithmeticRLonglong = "rarithmetic.r_longlong";
    RarithmeticRUlonglong = "rarithmetic.r_ulonglong";
    RarithmeticRLonglonglong = "rarithmetic.r_longlonglong";
    RarithmeticRInt = "rarithmetic.r_int";
    RarithmeticRSinglefloat = "rarithmetic.r_singlefloat";
    RarithmeticRInt32 = "rarithmetic.r_int32";
    RarithmeticRUint32 = "rarithmetic.r_uint32";
    RarithmeticRInt16 = "rarithmetic.r_int16";
    RarithmeticRUint16 = "rarithmetic.r_uint16";
    RarithmeticRInt8 = "rarithmetic.r_int8";
    RarithmeticRUint8 = "rarithmetic.r_uint8";
    // longlong2float: the bits of a double as a Signed and back
    Longlong2floatFloat2longlong = "longlong2float.float2longlong";
    Longlong2floatLonglong2float = "longlong2float.longlong2float";
    // objectmodel
    ObjectmodelWeAreTranslated = "objectmodel.we_are_translated";
    ObjectmodelComputeHash = "objectmodel.compute_hash";
    ObjectmodelComputeIdentityHash = "objectmodel.compute_identity_hash";
    ObjectmodelComputeUniqueId = "objectmodel.compute_unique_id";
    ObjectmodelCurrentObjectAddrAsInt = "objectmodel.current_object_addr_as_int";
    ObjectmodelInstantiate = "objectmodel.instantiate";
    /// `hlinvoke(repr, f, *args)`: a low-level helper's call of a high-level function
    /// (see `annotator/extregistry.rs`)
    ObjectmodelHlinvoke = "objectmodel.hlinvoke";
    ObjectmodelImportFromMixin = "objectmodel.import_from_mixin";
    ObjectmodelNewlistHint = "objectmodel.newlist_hint";
    /// `weakref.ref(x)` (and `rweakref.ref`): a weak reference to an instance
    WeakrefRef = "weakref.ref";
    /// `rgc.collect()`: a full collection (weak references to unreachable objects die)
    RgcCollect = "rgc.collect";
    /// `rweakref.dead_ref`: not called but used as a value, the prebuilt weak reference
    /// whose object is gone (annotated `SomeWeakRef` of no class)
    RweakrefDeadRef = "rweakref.dead_ref";
    /// a weak reference made at import time (`weakref.ref(x)` of an instance): bound to
    /// its object, which calling it gives; a prebuilt weak reference once translated
    WeakrefPrebuilt = "weakref.prebuilt_ref";
    RweakrefRWeakValueDictionary = "rweakref.RWeakValueDictionary";
    RweakrefRWeakKeyDictionary = "rweakref.RWeakKeyDictionary";
    /// a weak dictionary made at import time (`RWeakValueDictionary(k, v)` in a global):
    /// bound to the tuple (key class, value class); an empty prebuilt dictionary once
    /// translated (its methods are not run at import time)
    WeakValueDictPrebuilt = "rweakref.prebuilt_value_dict";
    WeakKeyDictPrebuilt = "rweakref.prebuilt_key_dict";
    /// the methods of both weak dictionaries
    WeakDictGet = "rweakdict.get";
    WeakDictSet = "rweakdict.set";
    WeakDictLength = "rweakdict.length";
    CollectionsOrderedDict = "collections.OrderedDict";
    ModuleDunderInit = "module.__init__";
    ObjectmodelKeepaliveUntilHere = "objectmodel.keepalive_until_here";
    ObjectmodelResizelistHint = "objectmodel.resizelist_hint";
    ObjectmodelFuncWithNewName = "objectmodel.func_with_new_name";
    /// the bundled `r_dict`'s dict at import time: an entry stored or deleted under the
    /// hash the program's own function gave its key (CPython's table of `_r_dictkey`s)
    ObjectmodelRDictStore = "objectmodel.r_dict_store";
    ObjectmodelRDictDelete = "objectmodel.r_dict_delete";
    /// the entry of the bundled `r_dict` equal to a key, found as CPython's dict of
    /// `_r_dictkey`s finds it (calling the program's equality as often as it does)
    ObjectmodelRDictFind = "objectmodel.r_dict_find";
    /// `dict_keyhash(d, key)`: the hash `d` keeps for `key` (an r_dict's is its own key
    /// hash function's), which the `*_with_hash` helpers give
    ObjectmodelDictKeyhash = "objectmodel.dict_keyhash";
    // jit
    JitPromote = "jit.promote";
    JitPromoteString = "jit.promote_string";
    JitPromoteUnicode = "jit.promote_unicode";
    JitHint = "jit.hint";
    NonconstNonConstant = "nonconst.NonConstant";
    JitWeAreJitted = "jit.we_are_jitted";
    JitIsconstant = "jit.isconstant";
    JitIsvirtual = "jit.isvirtual";
    JitAssertGreen = "jit.assert_green";
    JitSetParam = "jit.set_param";
    JitRecordKnownClass = "jit.record_known_class";
    JitRecordExactClass = "jit.record_exact_class";
    JitJitDebug = "jit.jit_debug";
    JitCurrentTraceLength = "jit.current_trace_length";
    JitConditionalCallFunction = "jit.conditional_call_function";
    /// `jit.virtual_ref(x)`, `jit.non_virtual_ref(x)`: a reference to the instance `x`
    /// (or None for the second) that calling gives back; only the JIT treats it specially
    JitVirtualRef = "jit.virtual_ref";
    JitNonVirtualRef = "jit.non_virtual_ref";
    JitVirtualRefFinish = "jit.virtual_ref_finish";
    /// a virtual reference made at import time (`jit.vref_None`): bound to its object,
    /// which calling it gives
    JitVrefPrebuilt = "jit.prebuilt_vref";
    JitJitDriverJitMergePoint = "jit.JitDriver.jit_merge_point";
    JitJitDriverCanEnterJit = "jit.JitDriver.can_enter_jit";
    JitJitDriverLoopHeader = "jit.JitDriver.loop_header";
    // debug
    DebugDebugPrint = "debug.debug_print";
    DebugDebugStart = "debug.debug_start";
    DebugDebugStop = "debug.debug_stop";
    DebugDebugFlush = "debug.debug_flush";
    DebugHaveDebugPrints = "debug.have_debug_prints";
    DebugDebugOffset = "debug.debug_offset";
    DebugFatalerror = "debug.fatalerror";
    /// `fatalerror` without the traceback header (`llop.debug_fatalerror` too)
    DebugFatalerrorNotb = "debug.fatalerror_notb";
    /// the list itself; its annotation must never be resized from now on
    DebugMakeSureNotResized = "debug.make_sure_not_resized";
    /// the int itself; its annotation must be a non-negative (`check_nonneg`) or a plain
    /// signed (`check_regular_int`) int
    DebugCheckNonneg = "debug.check_nonneg";
    DebugCheckRegularInt = "debug.check_regular_int";
    RerasedRequiresTaggedpointers = "rerased.requires_taggedpointers";
    // graph-only helpers: the flow space calls them for `print` statements
    RpythonPrintItem = "rpython_print_item";
    RpythonPrintNewline = "rpython_print_newline";
    ;;
    // the methods of str and unicode, declared once for both (`StrJoin` is `str.join`,
    // `UnicodeJoin` is `unicode.join`)
    StrJoin, UnicodeJoin = "join";
    StrSplit, UnicodeSplit = "split";
    StrRsplit, UnicodeRsplit = "rsplit";
    StrStrip, UnicodeStrip = "strip";
    StrLstrip, UnicodeLstrip = "lstrip";
    StrRstrip, UnicodeRstrip = "rstrip";
    StrReplace, UnicodeReplace = "replace";
    StrStartswith, UnicodeStartswith = "startswith";
    StrEndswith, UnicodeEndswith = "endswith";
    StrFind, UnicodeFind = "find";
    StrRfind, UnicodeRfind = "rfind";
    StrIndex, UnicodeIndex = "index";
    StrRindex, UnicodeRindex = "rindex";
    StrCount, UnicodeCount = "count";
    StrLower, UnicodeLower = "lower";
    StrUpper, UnicodeUpper = "upper";
    StrSwapcase, UnicodeSwapcase = "swapcase";
    StrCapitalize, UnicodeCapitalize = "capitalize";
    StrTitle, UnicodeTitle = "title";
    StrIsdigit, UnicodeIsdigit = "isdigit";
    StrIsalpha, UnicodeIsalpha = "isalpha";
    StrIsspace, UnicodeIsspace = "isspace";
    StrIsalnum, UnicodeIsalnum = "isalnum";
    StrIsupper, UnicodeIsupper = "isupper";
    StrIslower, UnicodeIslower = "islower";
    StrIstitle, UnicodeIstitle = "istitle";
    StrIsdecimal, UnicodeIsdecimal = "isdecimal";
    StrIsnumeric, UnicodeIsnumeric = "isnumeric";
    StrLjust, UnicodeLjust = "ljust";
    StrRjust, UnicodeRjust = "rjust";
    StrCenter, UnicodeCenter = "center";
    StrZfill, UnicodeZfill = "zfill";
    StrSplitlines, UnicodeSplitlines = "splitlines";
    StrPartition, UnicodePartition = "partition";
    StrRpartition, UnicodeRpartition = "rpartition";
    StrEncode, UnicodeEncode = "encode";
    StrDecode, UnicodeDecode = "decode";
    StrFormat, UnicodeFormat = "format";
    StrExpandtabs, UnicodeExpandtabs = "expandtabs";
    StrDunderGetitem, UnicodeDunderGetitem = "__getitem__";
    StrDunderLen, UnicodeDunderLen = "__len__";
    StrDunderContains, UnicodeDunderContains = "__contains__";
    StrDunderAdd, UnicodeDunderAdd = "__add__";
    StrDunderMul, UnicodeDunderMul = "__mul__";
    StrDunderMod, UnicodeDunderMod = "__mod__";
}
