"""rpy-lsp's model of the translation driver passed to `target(driver, args)`: its
`config.translation` options at the toolchain's defaults (no JIT, `rpython --batch
TARGET.py`), `exe_name`, and the options a target may read or set."""
from __rpy__ import model_unknown


class _Options(object):
    """A group of options: attributes with default values."""

    def __init__(self, name, defaults):
        self._name = name
        for key, value in defaults:
            setattr(self, key, value)

    def set(self, **kwds):
        for key in kwds:
            setattr(self, key, kwds[key])

    def suggest(self, **kwds):
        pass


_TRANSLATION_DEFAULTS = [
    ('continuation', False),
    ('type_system', 'lltype'),
    ('backend', 'c'),
    ('shared', False),
    ('log', True),
    ('gc', 'incminimark'),
    ('gctransformer', 'framework'),
    ('gcremovetypeptr', True),
    ('gcrootfinder', 'shadowstack'),
    ('thread', False),
    ('sandbox', False),
    ('rweakref', True),
    ('jit', False),
    ('jit_backend', 'auto'),
    ('jit_profiler', 'off'),
    ('jit_opencoder_model', 'normal'),
    ('check_str_without_nul', False),
    ('verbose', False),
    ('cc', None),
    ('profopt', False),
    ('profoptargs', None),
    ('instrument', False),
    ('countmallocs', False),
    ('fork_before', None),
    ('dont_write_c_files', False),
    ('instrumentctl', None),
    ('output', None),
    ('secondaryentrypoints', 'main'),
    ('dump_static_data_info', False),
    ('no__thread', False),
    ('make_jobs', 1),
    ('list_comprehension_operations', False),
    ('withsmallfuncsets', 0),
    ('taggedpointers', False),
    ('keepgoing', False),
    ('lldebug', False),
    ('lldebug0', False),
    ('lto', False),
    ('icon', None),
    ('libname', None),
    ('platform', 'host'),
    ('translating', True),
    ('reverse_debugger', False),
    ('split_gc_address_space', False),
    ('stm', False),
]

_BACKENDOPT_DEFAULTS = [
    ('inline', True),
    ('inline_threshold', 32.4),
    ('print_statistics', False),
    ('merge_if_blocks', True),
    ('mallocs', True),
    ('constfold', True),
    ('remove_asserts', False),
    ('really_remove_asserts', False),
    ('stack_optimization', True),
    ('storesink', True),
    ('replace_we_are_jitted', False),
    ('none', False),
]


class _Config(object):
    def __init__(self):
        self.translation = _Options('translation', _TRANSLATION_DEFAULTS)
        self.translation.backendopt = _Options('backendopt', _BACKENDOPT_DEFAULTS)
        self.translating = True

    def set(self, **kwds):
        pass

    def __getattr__(self, name):
        # The option groups a target adds with `get_additional_config_options()` (an
        # OptionDescription of rpython.config, which rpy-lsp does not model) are unknown.
        if name.startswith('_') or not self.__dict__.get('_extra_options', False):
            raise AttributeError("'_Config' object has no attribute '%s'" % name)
        return model_unknown('config.' + name)


# The config of the translation under way: the one of the driver handed to `target`, as
# the toolchain's `fetch_translated_config()` gives it to libraries at annotation time.
_translating = []


def translated_config():
    if _translating:
        return _translating[-1]
    return None


class TranslationDriver(object):
    """The driver `target(driver, args)` receives."""

    def __init__(self, *args, **kwds):
        self.config = _Config()
        _translating.append(self.config)
        self.exe_name = None
        self.standalone = True
        self.extra = {}

    def setup(self, *args, **kwds):
        pass
