//! The bundled models: Python sources (RPython style) of `os`, `sys`, `math`, `time`, the
//! standard modules programs use at import time (`types`, `inspect`, `functools`…) and the
//! `rpython.rlib` surface, embedded in the binary and registered in the SourceMap under
//! `<bundled>/<path>` so go-to-definition can show them. Primitives are builtins of the
//! registry, imported from the internal module `__rpy__`.

/// One bundled module.
#[derive(Debug)]
pub struct BundledModule {
    /// Full dotted name.
    pub name: &'static str,
    /// Path under `<bundled>/`.
    pub path: &'static str,
    pub source: &'static str,
    pub is_package: bool,
}

macro_rules! bundled {
    ($($name:literal => $path:literal, $pkg:expr;)*) => {
        /// Every bundled module.
        pub static BUNDLED: &[BundledModule] = &[
            $(BundledModule {
                name: $name,
                path: $path,
                source: include_str!(concat!("bundled/", $path)),
                is_package: $pkg,
            },)*
        ];
    };
}

bundled! {
    "__future__" => "__future__.py", false;
    "os" => "os/__init__.py", true;
    "os.path" => "os/path.py", false;
    "sys" => "sys.py", false;
    "re" => "re.py", false;
    "math" => "math.py", false;
    "time" => "time.py", false;
    "collections" => "collections.py", false;
    "functools" => "functools.py", false;
    "types" => "types.py", false;
    "inspect" => "inspect.py", false;
    "importlib" => "importlib.py", false;
    "fnmatch" => "fnmatch.py", false;
    "glob" => "glob.py", false;
    "abc" => "abc.py", false;
    "copy" => "copy.py", false;
    "string" => "string.py", false;
    "errno" => "errno.py", false;
    "stat" => "stat.py", false;
    "keyword" => "keyword.py", false;
    "opcode" => "opcode.py", false;
    "dis" => "dis.py", false;
    "operator" => "operator.py", false;
    "itertools" => "itertools.py", false;
    "traceback" => "traceback.py", false;
    "weakref" => "weakref.py", false;
    "struct" => "struct.py", false;
    "subprocess" => "subprocess.py", false;
    "tempfile" => "tempfile.py", false;
    "py" => "py/__init__.py", true;
    "py.code" => "py/code.py", false;
    "py.path" => "py/path.py", false;
    "rpython" => "rpython/__init__.py", true;
    "rpython.rlib" => "rpython/rlib/__init__.py", true;
    "rpython.rlib.rarithmetic" => "rpython/rlib/rarithmetic.py", false;
    "rpython.rlib.objectmodel" => "rpython/rlib/objectmodel.py", false;
    "rpython.rlib.jit" => "rpython/rlib/jit.py", false;
    "rpython.rlib.unroll" => "rpython/rlib/unroll.py", false;
    "rpython.rlib.rstring" => "rpython/rlib/rstring.py", false;
    "rpython.rlib.debug" => "rpython/rlib/debug.py", false;
    "rpython.rlib.listsort" => "rpython/rlib/listsort.py", false;
    "rpython.rlib.rfloat" => "rpython/rlib/rfloat.py", false;
    "rpython.rlib.rfile" => "rpython/rlib/rfile.py", false;
    "rpython.rlib.streamio" => "rpython/rlib/streamio.py", false;
    "rpython.rlib.rbigint" => "rpython/rlib/rbigint.py", false;
    "rpython.rlib.rerased" => "rpython/rlib/rerased.py", false;
    "rpython.rlib.rgc" => "rpython/rlib/rgc.py", false;
    "rpython.rlib.rweakref" => "rpython/rlib/rweakref.py", false;
    "rpython.rlib.rrandom" => "rpython/rlib/rrandom.py", false;
    "rpython.rlib._blockhash" => "rpython/rlib/_blockhash.py", false;
    "rpython.rlib.rsha" => "rpython/rlib/rsha.py", false;
    "rpython.rlib.rmd5" => "rpython/rlib/rmd5.py", false;
    "rpython.rlib.rzlib" => "rpython/rlib/rzlib.py", false;
    "rpython.rlib._rzlib_inflate" => "rpython/rlib/_rzlib_inflate.py", false;
    "rpython.rlib._rzlib_deflate" => "rpython/rlib/_rzlib_deflate.py", false;
    "rpython.rlib.constant" => "rpython/rlib/constant.py", false;
    "rpython.rlib.special_value" => "rpython/rlib/special_value.py", false;
    "rpython.rlib.rcomplex" => "rpython/rlib/rcomplex.py", false;
    "rpython.rlib.rawstorage" => "rpython/rlib/rawstorage.py", false;
    "rpython.rlib.unicodedata" => "rpython/rlib/unicodedata/__init__.py", true;
    "rpython.rlib.unicodedata._unicodedb_5_2_0_data" => "rpython/rlib/unicodedata/_unicodedb_5_2_0_data.py", false;
    "rpython.rlib.unicodedata.unicodedb_5_2_0" => "rpython/rlib/unicodedata/unicodedb_5_2_0.py", false;
    "rpython.rlib.rbisect" => "rpython/rlib/rbisect.py", false;
    "rpython.rlib.rshrinklist" => "rpython/rlib/rshrinklist.py", false;
    "rpython.rlib.cache" => "rpython/rlib/cache.py", false;
    "rpython.rlib.rmarshal" => "rpython/rlib/rmarshal.py", false;
    "rpython.rlib.rsocket" => "rpython/rlib/rsocket.py", false;
    "rpython.rlib.rsignal" => "rpython/rlib/rsignal.py", false;
    "rpython.rlib.rlocale" => "rpython/rlib/rlocale.py", false;
    "rpython.rlib.rStringIO" => "rpython/rlib/rStringIO.py", false;
    "rpython.rlib.rpath" => "rpython/rlib/rpath.py", false;
    "rpython.rlib.rposix" => "rpython/rlib/rposix.py", false;
    "rpython.rlib.rtime" => "rpython/rlib/rtime.py", false;
    "rpython.rlib.rtimer" => "rpython/rlib/rtimer.py", false;
    "rpython.rlib.longlong2float" => "rpython/rlib/longlong2float.py", false;
    "rpython.rlib.nonconst" => "rpython/rlib/nonconst.py", false;
    "rpython.rlib.types" => "rpython/rlib/types.py", false;
    "rpython.rlib.runicode" => "rpython/rlib/runicode.py", false;
    "rpython.rlib.signature" => "rpython/rlib/signature.py", false;
    "rpython.rlib.rsre" => "rpython/rlib/rsre/__init__.py", true;
    "rpython.rlib.rsre.rsre_re" => "rpython/rlib/rsre/rsre_re.py", false;
    "rpython.rlib.rsre.rsre_core" => "rpython/rlib/rsre/rsre_core.py", false;
    "rpython.rlib.rsre.rsre_char" => "rpython/rlib/rsre/rsre_char.py", false;
    "rpython.rlib.rsre._sre_code" => "rpython/rlib/rsre/_sre_code.py", false;
    "rpython.rlib.rsre.rpy" => "rpython/rlib/rsre/rpy/__init__.py", true;
    "rpython.rlib.parsing" => "rpython/rlib/parsing/__init__.py", true;
    "rpython.rlib.parsing._unknown" => "rpython/rlib/parsing/_unknown.py", false;
    "rpython.rlib.parsing.tree" => "rpython/rlib/parsing/tree.py", false;
    "rpython.rlib.parsing.deterministic" => "rpython/rlib/parsing/deterministic.py", false;
    "rpython.rlib.parsing.regex" => "rpython/rlib/parsing/regex.py", false;
    "rpython.rlib.parsing.regexparse" => "rpython/rlib/parsing/regexparse.py", false;
    "rpython.rlib.parsing.lexer" => "rpython/rlib/parsing/lexer.py", false;
    "rpython.rlib.parsing.parsing" => "rpython/rlib/parsing/parsing.py", false;
    "rpython.rlib.parsing.ebnfparse" => "rpython/rlib/parsing/ebnfparse.py", false;
    "rpython.rlib.parsing._packrat_grammar" => "rpython/rlib/parsing/_packrat_grammar.py", false;
    "rpython.rlib.parsing._packrat_codegen" => "rpython/rlib/parsing/_packrat_codegen.py", false;
    "rpython.rlib.parsing.makepackrat" => "rpython/rlib/parsing/makepackrat.py", false;
    "rpython.rlib.parsing.pypackrat" => "rpython/rlib/parsing/pypackrat.py", false;
    "rpython.rlib._rbigint_mag" => "rpython/rlib/_rbigint_mag.py", false;
    "rpython.rlib.rstacklet" => "rpython/rlib/rstacklet.py", false;
    "rpython.rlib.rstack" => "rpython/rlib/rstack.py", false;
    "rpython.rlib.rstackovf" => "rpython/rlib/rstackovf.py", false;
    "rpython.rlib.rstruct" => "rpython/rlib/rstruct/__init__.py", true;
    "rpython.rlib.rstruct.error" => "rpython/rlib/rstruct/error.py", false;
    "rpython.rlib.rstruct.ieee" => "rpython/rlib/rstruct/ieee.py", false;
    "rpython.rlib.rstruct.nativefmttable" => "rpython/rlib/rstruct/nativefmttable.py", false;
    "rpython.rlib.rstruct.runpack" => "rpython/rlib/rstruct/runpack.py", false;
    "rpython.annotator" => "rpython/annotator/__init__.py", true;
    "rpython.annotator.model" => "rpython/annotator/model.py", false;
    "rpython.annotator.bookkeeper" => "rpython/annotator/bookkeeper.py", false;
    "rpython.rtyper" => "rpython/rtyper/__init__.py", true;
    "rpython.rtyper.annlowlevel" => "rpython/rtyper/annlowlevel.py", false;
    "rpython.rtyper.extregistry" => "rpython/rtyper/extregistry.py", false;
    "rpython.rtyper.error" => "rpython/rtyper/error.py", false;
    "rpython.rtyper.rmodel" => "rpython/rtyper/rmodel.py", false;
    "rpython.rtyper._ext_bridge" => "rpython/rtyper/_ext_bridge.py", false;
    "rpython.rtyper.lltypesystem" => "rpython/rtyper/lltypesystem/__init__.py", true;
    "rpython.rtyper.lltypesystem.lltype" => "rpython/rtyper/lltypesystem/lltype.py", false;
    "rpython.rtyper.lltypesystem.lloperation" => "rpython/rtyper/lltypesystem/lloperation.py", false;
    "rpython.rtyper.lltypesystem.rffi" => "rpython/rtyper/lltypesystem/rffi.py", false;
    "rpython.rtyper.lltypesystem.rstr" => "rpython/rtyper/lltypesystem/rstr.py", false;
    "rpython.rtyper.lltypesystem.rlist" => "rpython/rtyper/lltypesystem/rlist.py", false;
    "rpython.rtyper.tool" => "rpython/rtyper/tool/__init__.py", true;
    "rpython.rtyper.tool.rffi_platform" => "rpython/rtyper/tool/rffi_platform.py", false;
    "__rpy_file__" => "__rpy_file__.py", false;
    "__rpy_site__" => "__rpy_site__.py", false;
    "numbers" => "numbers.py", false;
    "__rpy_ll__" => "__rpy_ll__/__init__.py", true;
    "__rpy_ll__.ll_str" => "__rpy_ll__/ll_str.py", false;
    "__rpy_ll__.ll_os" => "__rpy_ll__/ll_os.py", false;
    "__rpy_ll__.ll_list" => "__rpy_ll__/ll_list.py", false;
    "__rpy_ll__.ll_dict" => "__rpy_ll__/ll_dict.py", false;
    "__rpy_ll__.ll_num" => "__rpy_ll__/ll_num.py", false;
    "__rpy_ll__.ll_class" => "__rpy_ll__/ll_class.py", false;
    "__rpy_ll__.ll_iter" => "__rpy_ll__/ll_iter.py", false;
    "__rpy_ll__.ll_repr" => "__rpy_ll__/ll_repr.py", false;
    "__rpy_ll__.ll_codec" => "__rpy_ll__/ll_codec.py", false;
    "__rpy_ll__.ll_bytearray" => "__rpy_ll__/ll_bytearray.py", false;
    "__rpy_ll__.ll_weakref" => "__rpy_ll__/ll_weakref.py", false;
    "rpython.tool" => "rpython/tool/__init__.py", true;
    "rpython.tool.pairtype" => "rpython/tool/pairtype.py", false;
    "rpython.tool.sourcetools" => "rpython/tool/sourcetools.py", false;
    "rpython.translator" => "rpython/translator/__init__.py", true;
    "rpython.translator.driver" => "rpython/translator/driver.py", false;
    "rpython.translator.tool" => "rpython/translator/tool/__init__.py", true;
    "rpython.translator.tool.cbuild" => "rpython/translator/tool/cbuild.py", false;
    "rpython.jit" => "rpython/jit/__init__.py", true;
    "rpython.jit.codewriter" => "rpython/jit/codewriter/__init__.py", true;
    "rpython.jit.codewriter.policy" => "rpython/jit/codewriter/policy.py", false;
}

/// The bundled module with this full name.
pub fn lookup(name: &str) -> Option<&'static BundledModule> {
    BUNDLED.iter().find(|m| m.name == name)
}

/// Names of every bundled module.
pub fn bundled_module_names() -> Vec<&'static str> {
    BUNDLED.iter().map(|m| m.name).collect()
}
