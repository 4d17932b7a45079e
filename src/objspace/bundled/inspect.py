"""rpy-lsp's model of the `inspect` module, for code that runs at import time
(programs discover their classes and functions with it, and some copy a class's source
with getsourcelines() to exec it under another name, as templates)."""
import types
import sys
import os


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


def getfile(obj):
    """The file an object was defined in, as CPython's inspect.getfile."""
    if ismodule(obj):
        if hasattr(obj, '__file__'):
            return obj.__file__
        raise TypeError('%r is a built-in module' % (obj,))
    if isclass(obj):
        module = sys.modules.get(obj.__module__)
        if module is not None and hasattr(module, '__file__'):
            return module.__file__
        raise TypeError('%r is a built-in class' % (obj,))
    if ismethod(obj):
        obj = obj.im_func
    if isfunction(obj):
        obj = obj.__code__
    if hasattr(obj, 'co_filename'):
        return obj.co_filename
    raise TypeError('%r is not a module, class, method, function, traceback, frame, or code object' % (obj,))


def getsourcefile(obj):
    filename = getfile(obj)
    if filename[-4:] in ('.pyc', '.pyo'):
        filename = filename[:-4] + '.py'
    return filename


def _readlines(filename):
    """The lines of a file with their ends, a newline added to the last (as linecache)."""
    try:
        fd = os.open(filename, os.O_RDONLY, 0)
    except OSError:
        raise IOError('could not get source code')
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
    data = ''.join(chunks)
    lines = []
    start = 0
    while True:
        end = data.find('\n', start)
        if end < 0:
            break
        lines.append(data[start:end + 1])
        start = end + 1
    if start < len(data):
        lines.append(data[start:] + '\n')
    return lines


def _is_class_line(line, name):
    """Whether a line matches CPython's `^(\\s*)class\\s*NAME\\b`."""
    rest = line.lstrip()
    if not rest.startswith('class'):
        return False
    rest = rest[5:].lstrip()
    if not rest.startswith(name):
        return False
    after = rest[len(name):len(name) + 1]
    return not (after.isalnum() or after == '_')


def _is_def_line(line):
    """Whether a line starts a function: `def`, a decorator or a lambda (as CPython's findsource)."""
    rest = line.lstrip()
    if rest.startswith('@') or (rest.startswith('def') and rest[3:4] in (' ', '\t')):
        return True
    i = line.find('lambda')
    while i >= 0:
        before = line[i - 1:i] if i > 0 else ''
        after = line[i + 6:i + 7]
        if not (before.isalnum() or before == '_') and after in (':', ' ', '\t'):
            return True
        i = line.find('lambda', i + 1)
    return False


def findsource(obj):
    """(lines of the file, index of the object's first line), as CPython's findsource."""
    lines = _readlines(getsourcefile(obj))
    if ismodule(obj):
        return lines, 0
    if isclass(obj):
        name = obj.__name__
        candidates = []
        for i in range(len(lines)):
            if _is_class_line(lines[i], name):
                if lines[i][0] == 'c':
                    return lines, i
                indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
                candidates.append((indent, i))
        if candidates:
            candidates.sort()
            return lines, candidates[0][1]
        raise IOError('could not find class definition')
    if ismethod(obj):
        obj = obj.im_func
    if isfunction(obj):
        obj = obj.__code__
    if not hasattr(obj, 'co_firstlineno'):
        raise IOError('could not find function definition')
    lnum = obj.co_firstlineno - 1
    while lnum > 0:
        if _is_def_line(lines[lnum]):
            break
        lnum -= 1
    return lines, lnum


def _logical_lines(lines):
    """(first index, last index, indentation, code after the first top-level colon or None)
    of each logical line: brackets, strings and backslashes continue a line; comment and
    blank lines are skipped."""
    result = []
    start = -1
    indent = 0
    depth = 0
    quote = ''
    after_colon = None
    for i in range(len(lines)):
        line = lines[i]
        if start < 0:
            stripped = line.strip()
            if not stripped or stripped.startswith('#'):
                continue
            start = i
            indent = len(line) - len(line.lstrip())
            after_colon = None
        j = 0
        n = len(line)
        while j < n:
            c = line[j]
            if quote:
                if c == '\\':
                    j += 2
                elif line.startswith(quote, j):
                    j += len(quote)
                    quote = ''
                else:
                    j += 1
                continue
            if c == '#' or c == '\n':
                break
            if c == '"' or c == "'":
                quote = c * 3 if line.startswith(c * 3, j) else c
                j += len(quote)
                if after_colon is not None:
                    after_colon += 'S'
                continue
            if c in '([{':
                depth += 1
            elif c in ')]}':
                depth -= 1
            elif c == ':' and depth == 0 and after_colon is None:
                after_colon = ''
                j += 1
                continue
            if after_colon is not None:
                after_colon += c
            j += 1
        if len(quote) == 1:
            quote = ''
        if quote or depth > 0 or line.rstrip('\r\n').endswith('\\'):
            continue
        result.append((start, i, indent, after_colon))
        start = -1
        depth = 0
    if start >= 0:
        result.append((start, len(lines) - 1, indent, after_colon))
    return result


def getblock(lines):
    """The lines of the block (class, def with its decorators, lambda) starting at lines[0]."""
    logical = _logical_lines(lines)
    if not logical:
        return lines[:1]
    k = 0
    while k < len(logical) - 1 and lines[logical[k][0]].lstrip().startswith('@'):
        k += 1
    first, last, base, after_colon = logical[k]
    head = lines[first].lstrip()
    is_block = head.startswith('def') or head.startswith('class')
    if is_block and after_colon is not None and not after_colon.strip():
        for m in range(k + 1, len(logical)):
            if logical[m][2] <= base:
                break
            last = logical[m][1]
    return lines[:last + 1]


def getsourcelines(obj):
    lines, lnum = findsource(obj)
    if ismodule(obj):
        return lines, 0
    return getblock(lines[lnum:]), lnum + 1


def getsource(obj):
    lines, lnum = getsourcelines(obj)
    return ''.join(lines)
