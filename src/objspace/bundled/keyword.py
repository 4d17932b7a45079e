"""rpy-lsp's model of CPython 2.7's `keyword` module: the language's keywords."""

__all__ = ["iskeyword", "kwlist"]

kwlist = ['and', 'as', 'assert', 'break', 'class', 'continue', 'def', 'del', 'elif',
          'else', 'except', 'exec', 'finally', 'for', 'from', 'global', 'if', 'import',
          'in', 'is', 'lambda', 'not', 'or', 'pass', 'print', 'raise', 'return', 'try',
          'while', 'with', 'yield']

_kwset = {}
for _k in kwlist:
    _kwset[_k] = None
del _k


def iskeyword(s):
    return s in _kwset
