"""rpy-lsp's model of `__future__` (the compiler handles the features themselves)."""


class _Feature(object):
    def __init__(self, name, optional, mandatory, flag):
        self.name = name
        self.optional = optional
        self.mandatory = mandatory
        self.compiler_flag = flag


all_feature_names = ['nested_scopes', 'generators', 'division', 'absolute_import',
                     'with_statement', 'print_function', 'unicode_literals']

nested_scopes = _Feature('nested_scopes', (2, 1, 0), (2, 2, 0), 16)
generators = _Feature('generators', (2, 2, 0), (2, 3, 0), 0)
division = _Feature('division', (2, 2, 0), (3, 0, 0), 8192)
absolute_import = _Feature('absolute_import', (2, 5, 0), (3, 0, 0), 16384)
with_statement = _Feature('with_statement', (2, 5, 0), (2, 6, 0), 32768)
print_function = _Feature('print_function', (2, 6, 0), (3, 0, 0), 65536)
unicode_literals = _Feature('unicode_literals', (2, 6, 0), (3, 0, 0), 131072)
