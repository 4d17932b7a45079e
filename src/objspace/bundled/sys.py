"""rpy-lsp's model of the `sys` module for RPython programs."""
from __rpy__ import os_write, sys_exit, sys_frame_globals

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


class _VersionInfo(object):
    """`sys.version_info`: a tuple with named fields (major, minor, micro...)."""

    def __init__(self, t):
        self._t = t
        self.major, self.minor, self.micro, self.releaselevel, self.serial = t
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
__stdout__ = stdout
__stderr__ = stderr


# a built-in function, as in CPython (RPython code cannot call it)
exit = sys_exit


def getrecursionlimit():
    return 1000


def setrecursionlimit(n):
    pass


def getdefaultencoding():
    return 'ascii'


def exc_info():
    return (None, None, None)


def exc_clear():
    pass


class _Frame(object):
    """What `sys._getframe()` gives at import time: only `f_globals` is modelled."""

    def __init__(self, f_globals):
        self.f_globals = f_globals


def _getframe(depth=0):
    # one more level: this function's own frame
    return _Frame(sys_frame_globals(depth + 1))
