"""rpy-lsp's model of the `inspect` module, for code that runs at import time
(programs discover their classes and functions with it)."""
import types
import sys


def isclass(obj):
    return isinstance(obj, type)


def isfunction(obj):
    return isinstance(obj, types.FunctionType)


def ismethod(obj):
    return isinstance(obj, types.MethodType)


def ismodule(obj):
    return isinstance(obj, types.ModuleType)


def isbuiltin(obj):
    return isinstance(obj, types.BuiltinFunctionType)


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def isgeneratorfunction(obj):
    return isfunction(obj) and bool(obj.__code__.co_flags & 0x20)


def getmembers(obj, predicate=None):
    """(name, value) pairs of obj's attributes, sorted by name."""
    results = []
    for key in dir(obj):
        try:
            value = getattr(obj, key)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            results.append((key, value))
    results.sort()
    return results


def getmro(cls):
    return cls.__mro__


# tuples with named fields, as sys.version_info
_Named = sys._Named


class Arguments(_Named):
    def __init__(self, args, varargs, keywords):
        self._t = (args, varargs, keywords)
        self.args, self.varargs, self.keywords = self._t


class ArgSpec(_Named):
    def __init__(self, args, varargs, keywords, defaults):
        self._t = (args, varargs, keywords, defaults)
        self.args, self.varargs, self.keywords, self.defaults = self._t


def getargs(co):
    """The names of a code object's arguments: (args, varargs name, varkw name)."""
    nargs = co.co_argcount
    names = list(co.co_varnames[:nargs])
    varargs = None
    varkw = None
    if co.co_flags & 0x4:
        varargs = co.co_varnames[nargs]
        nargs += 1
    if co.co_flags & 0x8:
        varkw = co.co_varnames[nargs]
    return Arguments(names, varargs, varkw)


def getargspec(func):
    if ismethod(func):
        func = func.im_func
    code = func.__code__
    nargs = code.co_argcount
    names = list(code.co_varnames[:nargs])
    varargs = None
    varkw = None
    if code.co_flags & 0x4:
        varargs = code.co_varnames[nargs]
        nargs += 1
    if code.co_flags & 0x8:
        varkw = code.co_varnames[nargs]
    return ArgSpec(names, varargs, varkw, func.__defaults__)


def currentframe():
    return sys._getframe(1)
