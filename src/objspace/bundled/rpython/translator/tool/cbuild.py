"""rpy-lsp's model of `rpython.translator.tool.cbuild`: `ExternalCompilationInfo`, what a
program tells the C compiler and linker about the C functions it declares with
`rffi.llexternal(..., compilation_info=eci)`.

An instance keeps its lists of strings (headers, directories, libraries, C sources,
extra flags) as tuples; `merge` unites several as the toolchain does (each item once, the
extra flags in order). `rffi.llexternal` records an instance's lists on the C function it
declares (`_rpy_c_eci`), and `build` passes them on: `includes` as `#include <...>` between the
`pre_include_bits` and the `post_include_bits`, `include_dirs` as `-I`, `library_dirs` as
`-L`, `libraries` as `-l`, `link_files`, `compile_extra`, `link_extra`, and
`separate_module_sources`/`separate_module_files` compiled beside the program. Relative
paths are taken from the current directory, as the toolchain does. `from_pkg_config` and
`from_config_tool` record the package or tool (`_rpy_config_tools`), whose `--cflags` and
`--libs` `build` asks when it compiles, instead of at import time; `from_pkg_config` asks
`pkg-config NAME --exists` at import time as the toolchain does (ImportError when the
package is missing), the one tool rpy-lsp runs while checking. `run` calls only the C
functions rpy-lsp implements; it has no C compiler."""
from __rpy__ import model_pkg_config_exists

# the list attributes, in the toolchain's order; the last two keep duplicates
_LISTS = ['pre_include_bits', 'includes', 'include_dirs', 'post_include_bits',
          'libraries', 'library_dirs', 'separate_module_sources',
          'separate_module_files', 'compile_extra', 'link_extra', 'frameworks',
          'link_files', 'testonly_libraries']
_DUPLICATES_OK = ['compile_extra', 'link_extra']


class ExternalCompilationInfo(object):

    def __init__(self, pre_include_bits=[], includes=[], include_dirs=[],
                 post_include_bits=[], libraries=[], library_dirs=[],
                 separate_module_sources=[], separate_module_files=[],
                 compile_extra=[], link_extra=[], frameworks=[], link_files=[],
                 testonly_libraries=[], use_cpp_linker=False, platform=None):
        self.pre_include_bits = tuple(pre_include_bits)
        self.includes = tuple(includes)
        self.include_dirs = tuple(include_dirs)
        self.post_include_bits = tuple(post_include_bits)
        self.libraries = tuple(libraries)
        self.library_dirs = tuple(library_dirs)
        self.separate_module_sources = tuple(separate_module_sources)
        self.separate_module_files = tuple(separate_module_files)
        self.compile_extra = tuple(compile_extra)
        self.link_extra = tuple(link_extra)
        self.frameworks = tuple(frameworks)
        self.link_files = tuple(link_files)
        self.testonly_libraries = tuple(testonly_libraries)
        self.use_cpp_linker = use_cpp_linker
        self.platform = platform
        # the commands `build` asks for flags: 'pkg-config NAME' or a config tool
        self._rpy_config_tools = ()

    def _value(self):
        return tuple([getattr(self, name) for name in _LISTS]) + (self.use_cpp_linker,)

    def __eq__(self, other):
        return self.__class__ is other.__class__ and self._value() == other._value()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._value())

    def merge(self, *others):
        kwds = {}
        for name in _LISTS:
            items = []
            for one in (self,) + others:
                for item in getattr(one, name):
                    if name in _DUPLICATES_OK or item not in items:
                        items.append(item)
            kwds[name] = items
        use_cpp_linker = self.use_cpp_linker
        for other in others:
            use_cpp_linker = use_cpp_linker or other.use_cpp_linker
        kwds['use_cpp_linker'] = use_cpp_linker
        kwds['platform'] = self.platform
        merged = ExternalCompilationInfo(**kwds)
        tools = []
        for one in (self,) + others:
            for tool in one._rpy_config_tools:
                if tool not in tools:
                    tools.append(tool)
        merged._rpy_config_tools = tuple(tools)
        return merged

    def copy_without(self, *names):
        kwds = {}
        for name in _LISTS:
            if name not in names:
                kwds[name] = getattr(self, name)
        kwds['use_cpp_linker'] = self.use_cpp_linker
        kwds['platform'] = self.platform
        return ExternalCompilationInfo(**kwds)

    def convert_sources_to_files(self, cache_dir=None, being_main=False):
        # `build` writes separate_module_sources to files itself
        return self

    @classmethod
    def from_compiler_flags(cls, flags):
        pre_include_bits = []
        include_dirs = []
        compile_extra = []
        for arg in flags.split():
            if arg.startswith('-I'):
                include_dirs.append(arg[2:])
            elif arg.startswith('-D'):
                macro = arg[2:]
                if '=' in macro:
                    name, value = macro.split('=', 1)
                else:
                    name, value = macro, '1'
                pre_include_bits.append('#define %s %s' % (name, value))
            elif arg.startswith('-L') or arg.startswith('-l'):
                raise ValueError('linker flag found in compiler options: %r' % (arg,))
            else:
                compile_extra.append(arg)
        return cls(pre_include_bits=pre_include_bits, include_dirs=include_dirs,
                   compile_extra=compile_extra)

    @classmethod
    def from_linker_flags(cls, flags):
        libraries = []
        library_dirs = []
        link_extra = []
        for arg in flags.split():
            if arg.startswith('-L'):
                library_dirs.append(arg[2:])
            elif arg.startswith('-l'):
                libraries.append(arg[2:])
            elif arg.startswith('-I'):
                raise ValueError('compiler flag found in linker options: %r' % (arg,))
            else:
                link_extra.append(arg)
        return cls(libraries=libraries, library_dirs=library_dirs, link_extra=link_extra)

    @classmethod
    def from_pkg_config(cls, pkgname):
        assert isinstance(pkgname, str)
        # asked at import time, as the toolchain asks it (the one tool rpy-lsp runs)
        if not model_pkg_config_exists(pkgname):
            raise ImportError("failed: 'pkg-config %s --exists'" % pkgname)
        eci = cls()
        eci._rpy_config_tools = ('pkg-config ' + pkgname,)
        return eci

    @classmethod
    def from_config_tool(cls, execonfigtool):
        eci = cls()
        eci._rpy_config_tools = (execonfigtool,)
        return eci
