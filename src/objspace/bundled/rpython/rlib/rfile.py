"""rpy-lsp's model of `rpython.rlib.rfile`: the file objects of RPython. The flow space
redirects the builtin `open()` to `create_file`, as the reference does. Written over os
file descriptors, with the real methods and result types (close() returns an int)."""
import os


class RFile(object):
    def __init__(self, fd, mode):
        self._fd = fd
        self._mode = mode

    def close(self):
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        return 0

    def read(self, size=-1):
        if size >= 0:
            return os.read(self._fd, size)
        pieces = []
        while True:
            data = os.read(self._fd, 4096)
            if not data:
                break
            pieces.append(data)
        return "".join(pieces)

    def readline(self, size=-1):
        pieces = []
        n = 0
        while size < 0 or n < size:
            c = os.read(self._fd, 1)
            if not c:
                break
            pieces.append(c)
            n += 1
            if c == "\n":
                break
        return "".join(pieces)

    def write(self, value):
        os.write(self._fd, value)

    def flush(self):
        pass

    def truncate(self, arg=-1):
        if arg >= 0:
            os.ftruncate(self._fd, arg)

    def seek(self, pos, whence=0):
        os.lseek(self._fd, pos, whence)

    def tell(self):
        return os.lseek(self._fd, 0, 1)

    def fileno(self):
        return self._fd

    def isatty(self):
        return os.isatty(self._fd)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


def _flags(mode):
    if "w" in mode:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    elif "a" in mode:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    else:
        flags = os.O_RDONLY
    if "+" in mode:
        flags = (flags & ~3) | os.O_RDWR
    return flags


def create_file(filename, mode="r", buffering=-1):
    return RFile(os.open(filename, _flags(mode), 0666), mode)


def create_fdopen_rfile(fd, mode="r", buffering=-1):
    return RFile(fd, mode)


def create_stdio():
    """The three standard streams as RFile objects (stdin, stdout, stderr)."""
    return RFile(0, "r"), RFile(1, "w"), RFile(2, "w")
