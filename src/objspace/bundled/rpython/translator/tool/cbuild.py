"""rpy-lsp's model of `rpython.translator.tool.cbuild`: `ExternalCompilationInfo`, what a
program says about the C code it calls (headers, libraries, extra sources).

Its lists are kept as tuples, as the toolchain's; `merge` joins them without duplicates.
rpy-lsp runs no C tool while checking: `from_pkg_config` and `from_config_tool` give an
empty description (the flags they would ask for only matter to the C compiler)."""


_ATTRIBUTES = ('pre_include_bits', 'includes', 'include_dirs', 'post_include_bits',
               'libraries', 'library_dirs', 'separate_module_sources',
               'separate_module_files', 'compile_extra', 'link_extra', 'frameworks',
               'link_files', 'testonly_libraries')
# (repeated flags keep their order and count)
_DUPLICATES_OK = ('compile_extra', 'link_extra')


class ExternalCompilationInfo(object):

    def __init__(self, pre_include_bits=[], includes=[], include_dirs=[],
                 post_include_bits=[], libraries=[], library_dirs=[],
                 separate_module_sources=[], separate_module_files=[],
                 compile_extra=[], link_extra=[], frameworks=[], link_files=[],
                 testonly_libraries=[], use_cpp_linker=False, platform=None):
        values = (pre_include_bits, includes, include_dirs, post_include_bits,
                  libraries, library_dirs, separate_module_sources,
                  separate_module_files, compile_extra, link_extra, frameworks,
                  link_files, testonly_libraries)
        for i in range(len(_ATTRIBUTES)):
            value = values[i]
            assert isinstance(value, (list, tuple))
            setattr(self, _ATTRIBUTES[i], tuple(value))
        self.use_cpp_linker = use_cpp_linker
        self._platform = platform

    def _value(self):
        return tuple([getattr(self, name) for name in _ATTRIBUTES]) + (
            self.use_cpp_linker,)

    def __hash__(self):
        return hash(self._value())

    def __eq__(self, other):
        return (self.__class__ is other.__class__ and
                self._value() == other._value())

    def __ne__(self, other):
        return not self == other

    def merge(self, *others):
        attrs = {}
        for name in _ATTRIBUTES:
            joined = []
            for eci in (self,) + others:
                for item in getattr(eci, name):
                    if name in _DUPLICATES_OK or item not in joined:
                        joined.append(item)
            attrs[name] = joined
        result = ExternalCompilationInfo(**attrs)
        result.use_cpp_linker = self.use_cpp_linker
        for eci in others:
            result.use_cpp_linker = result.use_cpp_linker or eci.use_cpp_linker
        result._platform = self._platform
        return result

    def copy_without(self, *names):
        attrs = {}
        for name in _ATTRIBUTES:
            if name not in names:
                attrs[name] = getattr(self, name)
        return ExternalCompilationInfo(**attrs)

    def convert_sources_to_files(self, cache_dir=None, being_main=False):
        return self

    @classmethod
    def from_compiler_flags(cls, flags):
        include_dirs = []
        pre_include_bits = []
        compile_extra = []
        for arg in flags.split():
            if arg.startswith('-I'):
                include_dirs.append(arg[2:])
            elif arg.startswith('-D'):
                macro = arg[2:]
                value = '1'
                if '=' in macro:
                    macro, value = macro.split('=')
                pre_include_bits.append('#define %s %s' % (macro, value))
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
    def from_config_tool(cls, execonfigtool):
        return cls()

    @classmethod
    def from_pkg_config(cls, pkgname):
        return cls()
