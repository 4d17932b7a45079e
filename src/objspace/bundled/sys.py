"""rpy-lsp's model of the `sys` module for RPython programs."""
from __rpy__ import os_write, sys_exit

maxint = 9223372036854775807
maxsize = 9223372036854775807
maxunicode = 1114111
argv = []
path = []
modules = {}
platform = 'linux2'
byteorder = 'little'
version = '2.7.18 (rpy-lsp model)'
version_info = (2, 7, 18, 'final', 0)
hexversion = 34017264
executable = ''
prefix = ''
builtin_module_names = ('__builtin__', 'sys')
dont_write_bytecode = True
flags = None


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
