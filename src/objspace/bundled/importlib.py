"""rpy-lsp's model of the `importlib` module, for code that runs at import time."""
import sys


def _resolve_name(name, package, level):
    bits = package.rsplit('.', level - 1)
    base = bits[0]
    if name:
        return base + '.' + name
    return base


def import_module(name, package=None):
    """Imports a module by name (relative to `package` when it starts with dots)."""
    if name.startswith('.'):
        if not package:
            raise TypeError("relative imports require the 'package' argument")
        level = 0
        while level < len(name) and name[level] == '.':
            level += 1
        name = _resolve_name(name[level:], package, level)
    __import__(name)
    return sys.modules[name]
