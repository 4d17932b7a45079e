"""rpy-lsp's model of `py.path`: `local`, a file-system path object, as far as interpreters
use it at import time to find their own modules (RTruffleSOM lists its primitive files
with `py.path.local(__file__).dirpath(...).listdir()`). Reads only what `os` may read."""
import os


class local(object):
    """An absolute, normalised path, as pylib's `py.path.local`."""

    def __init__(self, path=None):
        if path is None:
            path = os.getcwd()
        elif isinstance(path, local):
            path = path.strpath
        self.strpath = os.path.abspath(str(path))

    def __str__(self):
        return self.strpath

    def __repr__(self):
        return "local(%r)" % (self.strpath,)

    def __eq__(self, other):
        return isinstance(other, local) and self.strpath == other.strpath

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.strpath)

    @property
    def basename(self):
        return os.path.basename(self.strpath)

    @property
    def dirname(self):
        return os.path.dirname(self.strpath)

    @property
    def purebasename(self):
        return os.path.splitext(self.basename)[0]

    @property
    def ext(self):
        return os.path.splitext(self.basename)[1]

    def join(self, *args):
        path = self.strpath
        for arg in args:
            path = os.path.join(path, str(arg))
        return local(path)

    def __div__(self, other):
        # `local / "sub"`, as pylib's `__div__` (ratomic-style include directories)
        return self.join(other)

    __truediv__ = __div__

    def dirpath(self, *args):
        parent = local(self.dirname)
        if args:
            return parent.join(*args)
        return parent

    def listdir(self, fil=None, sort=None):
        """The entries, in name order (the reference's order is the file system's; code
        that depends on it is not deterministic there either)."""
        names = sorted(os.listdir(self.strpath))
        result = []
        for name in names:
            entry = self.join(name)
            if fil is None:
                result.append(entry)
            elif isinstance(fil, str):
                import fnmatch
                if fnmatch.fnmatch(name, fil):
                    result.append(entry)
            elif fil(entry):
                result.append(entry)
        return result

    def exists(self):
        return os.path.exists(self.strpath)

    def isdir(self):
        return os.path.isdir(self.strpath)

    def isfile(self):
        return os.path.isfile(self.strpath)

    def check(self, **kw):
        if not self.exists():
            return kw.get('exists', 1) == 0
        if 'file' in kw and bool(kw['file']) != self.isfile():
            return False
        if 'dir' in kw and bool(kw['dir']) != self.isdir():
            return False
        return True

    def read(self, mode='r'):
        # through `os`, which reads the workspace at import time (kermit reads its
        # grammar with `py.path.local(dir).join('grammar.txt').read('rt')`)
        fd = os.open(self.strpath, os.O_RDONLY, 0)
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
        if 'U' in mode:
            data = data.replace('\r\n', '\n').replace('\r', '\n')
        return data

    def read_binary(self):
        return self.read('rb')

    def read_text(self, encoding):
        return self.read('r').decode(encoding)

    def readlines(self, cr=1):
        # fundy reads its grammar line by line, `#!if` directives included
        data = self.read('rU')
        if not cr:
            return data.split('\n')
        lines = []
        start = 0
        while start < len(data):
            end = data.find('\n', start)
            if end < 0:
                lines.append(data[start:])
                break
            lines.append(data[start:end + 1])
            start = end + 1
        return lines
