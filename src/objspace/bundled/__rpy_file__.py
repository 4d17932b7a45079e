"""rpy-lsp's model of the file objects `open()` and `file()` give import-time code opened for
reading. The toolchain runs module bodies on its host Python, so a module may read its
grammar or data file while it is imported (js-lang reads `grammar.txt` with
`open(path).read()` and gives it to `parse_ebnf`). The file is read through `os`, which reads
the workspace (and the editor's unsaved text) at import time. Opening for writing stays
unknown: that is a side effect of the toolchain, not something the program's analysis needs."""
import os


class ImportTimeFile(object):
    """A file opened for reading, its whole content read when it was opened."""

    def __init__(self, name, mode, data):
        self.name = name
        self.mode = mode
        self.closed = False
        self.softspace = 0
        self._data = data
        self._pos = 0

    def _check_open(self):
        if self.closed:
            raise ValueError('I/O operation on closed file')

    def read(self, size=-1):
        self._check_open()
        end = len(self._data)
        if size >= 0 and self._pos + size < end:
            end = self._pos + size
        chunk = self._data[self._pos:end]
        self._pos = end
        return chunk

    def readline(self, size=-1):
        self._check_open()
        nl = self._data.find('\n', self._pos)
        end = len(self._data) if nl < 0 else nl + 1
        if size >= 0 and self._pos + size < end:
            end = self._pos + size
        line = self._data[self._pos:end]
        self._pos = end
        return line

    def readlines(self, sizehint=0):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def xreadlines(self):
        return self

    def __iter__(self):
        self._check_open()
        return self

    def next(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def tell(self):
        self._check_open()
        return self._pos

    def seek(self, offset, whence=0):
        self._check_open()
        if whence == 1:
            offset += self._pos
        elif whence == 2:
            offset += len(self._data)
        if offset < 0:
            raise IOError(22, 'Invalid argument')
        self._pos = offset

    def write(self, data):
        self._check_open()
        raise IOError(9, 'Bad file descriptor')

    def writelines(self, lines):
        self._check_open()
        raise IOError(9, 'Bad file descriptor')

    def flush(self):
        self._check_open()

    def isatty(self):
        self._check_open()
        return False

    def close(self):
        self.closed = True

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.close()

    def __repr__(self):
        state = 'closed' if self.closed else 'open'
        return "<%s file '%s', mode '%s'>" % (state, self.name, self.mode)


def open_for_reading(name, mode='r', buffering=-1):
    """`open(name, mode)` for a mode without 'w', 'a' or '+': reads the whole file, or raises
    IOError as CPython 2's `open` does (errno, message and file name)."""
    if not mode or mode[0] not in 'rU':
        raise ValueError("mode string must begin with one of 'r', 'w', 'a' or 'U', not '%s'" % mode)
    try:
        fd = os.open(name, os.O_RDONLY, 0)
    except OSError as e:
        raise IOError(e.errno, e.strerror, name)
    chunks = []
    try:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError as e:
                raise IOError(e.errno, e.strerror)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
    data = ''.join(chunks)
    if 'U' in mode:
        data = data.replace('\r\n', '\n').replace('\r', '\n')
    return ImportTimeFile(name, mode, data)
