"""rpy-lsp's model of CPython 2.7's `keyword` module: the language's keywords."""

__all__ = ["iskeyword", "kwlist"]

kwlist = ['and', 'as', 'assert', 'break', 'class', 'continue', 'def', 'del', 'elif',
          'else', 'except', 'exec', 'finally', 'for', 'from', 'global', 'if', 'import',
          'in', 'is', 'lambda', 'not', 'or', 'pass', 'print', 'raise', 'return', 'try',
          'while', 'with', 'yield']

# as CPython defines it: a bound method of a frozenset, which import-time code may call
# but which is not RPython (the reference's annotator cannot represent the set)
iskeyword = frozenset(kwlist).__contains__
