"""rpy-lsp's model of the `sys` module for RPython programs."""
from __rpy__ import os_write, sys_exit, sys_frame_globals, sys_frame_count

maxint = 9223372036854775807
maxsize = 9223372036854775807
maxunicode = 1114111
# the program is imported by the translation toolchain: argv[0] is its `rpython` script
argv = ['rpython']
path = []
modules = {}
platform = 'linux2'
byteorder = 'little'
version = '2.7.18 (rpy-lsp model)'
hexversion = 34017264
executable = ''
prefix = ''
builtin_module_names = ('__builtin__', 'sys')
dont_write_bytecode = True
flags = None


class _Named(object):
    """A tuple with named fields, as CPython 2.7's `sys.version_info` and `inspect`'s
    results: subclasses set `_t` and the field attributes."""

    def __getitem__(self, i):
        return self._t[i]
    def __getslice__(self, i, j):
        return self._t[i:j]
    def __len__(self):
        return len(self._t)
    def __iter__(self):
        return iter(self._t)
    def __eq__(self, o):
        return self._t == o
    def __ne__(self, o):
        return self._t != o
    def __lt__(self, o):
        return self._t < o
    def __le__(self, o):
        return self._t <= o
    def __gt__(self, o):
        return self._t > o
    def __ge__(self, o):
        return self._t >= o
    def __hash__(self):
        return hash(self._t)
    def __repr__(self):
        return repr(self._t)


class _VersionInfo(_Named):
    """`sys.version_info`: a tuple with named fields (major, minor, micro...)."""

    def __init__(self, t):
        self._t = t
        self.major, self.minor, self.micro, self.releaselevel, self.serial = t
    def __repr__(self):
        return 'sys.version_info' + repr(self._t)
    def _freeze_(self):
        return True


version_info = _VersionInfo((2, 7, 18, 'final', 0))


class _File(object):
    """A minimal file object over a file descriptor."""

    def __init__(self, fd, name):
        self.fd = fd
        self.name = name
        self.softspace = 0

    def write(self, s):
        os_write(self.fd, s)

    def writelines(self, lines):
        for line in lines:
            os_write(self.fd, line)

    def flush(self):
        pass

    def fileno(self):
        return self.fd

    def isatty(self):
        return False


stdin = _File(0, '<stdin>')
stdout = _File(1, '<stdout>')
stderr = _File(2, '<stderr>')
__stdin__ = stdin
__stdout__ = stdout
__stderr__ = stderr


# a built-in function, as in CPython (RPython code cannot call it)
exit = sys_exit


def getrecursionlimit():
    """NOT_RPYTHON: import time only (the toolchain rejects a call in translated code)."""
    return 1000


def setrecursionlimit(n):
    """NOT_RPYTHON: import time only (the toolchain rejects a call in translated code)."""
    pass


def getdefaultencoding():
    return 'ascii'


def exc_info():
    """NOT_RPYTHON: import time only (the toolchain rejects a call in translated code)."""
    return (None, None, None)


def exc_clear():
    """NOT_RPYTHON: import time only (the toolchain rejects a call in translated code)."""
    pass


class _Frame(object):
    """What `sys._getframe()` gives at import time: `f_globals` and `f_back` only.
    `_level` counts from the outermost frame."""

    def __init__(self, level):
        self._level = level
        self.f_globals = sys_frame_globals(level)

    def _back(self):
        if self._level > 0:
            return _Frame(self._level - 1)
        return None

    f_back = property(_back)


def _getframe(depth=0):
    # this function's own frame is the innermost one
    level = sys_frame_count() - 2 - depth
    if level < 0:
        raise ValueError("call stack is not deep enough")
    return _Frame(level)
