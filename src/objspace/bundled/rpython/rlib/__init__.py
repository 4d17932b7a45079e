"""rpy-lsp's models of `rpython.rlib` modules."""

# The modules of rpython 0.2.1's `rpython.rlib` (the reference's): importing any other
# (one a later RPython added, as `rutf8`) raises ImportError there.
_rpy_submodules_ = (
    '_jit_vref', '_os_support', '_rffi_stacklet', '_rsocket_rffi', '_rweakkeydict',
    '_rweakvaldict', '_stacklet_asmgcc', '_stacklet_n_a', '_stacklet_shadowstack',
    'buffer', 'cache', 'clibffi', 'compilerinfo', 'constant', 'debug', 'entrypoint',
    'exports', 'jit', 'jit_hooks', 'jit_libffi', 'libffi', 'listsort', 'longlong2float',
    'mutbuffer', 'nonconst', 'objectmodel', 'parsing', 'rStringIO', 'rarithmetic',
    'rawrefcount', 'rawstorage', 'rbigint', 'rbisect', 'rcomplex', 'rdtoa', 'rdynload',
    'rerased', 'rfile', 'rfloat', 'rgc', 'rgil', 'rjitlog', 'rlocale', 'rmarshal',
    'rmd5', 'rmmap', 'rope', 'ropenssl', 'rpath', 'rpoll', 'rposix', 'rposix_environ',
    'rposix_scandir', 'rposix_stat', 'rrandom', 'rrawarray', 'rsha', 'rshrinklist',
    'rsignal', 'rsiphash', 'rsocket', 'rsre', 'rstack', 'rstacklet', 'rstackovf',
    'rstrategies', 'rstring', 'rstruct', 'rtermios', 'rthread', 'rtime', 'rtimer',
    'runicode', 'rurandom', 'rvmprof', 'rweaklist', 'rweakref', 'rwin32', 'rwin32file',
    'rwinreg', 'rzipfile', 'rzlib', 'signature', 'special_value', 'src', 'streamio',
    'test', 'types', 'unicodedata', 'unroll',
)
