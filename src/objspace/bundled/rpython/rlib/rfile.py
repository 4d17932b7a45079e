"""rpy-lsp's model of `rpython.rlib.rfile`: the file objects of RPython. The flow space
redirects the builtin `open()` to `create_file`, as the reference does. Written over os
file descriptors, with the real methods and result types (close() returns an int).

The reference's files are C stdio streams, and what a program writes to one reaches the
file when the C library flushes it: so do ours, since the order against `print` and
`os.write` (unbuffered) is visible. Files and a stdout that is not a terminal are fully
buffered (_BUFSIZE bytes, as glibc for pipes and files), a terminal stdout flushes at each
newline, stderr is unbuffered; a normal exit flushes every stream (`_flush_at_exit`, which
`run` and `build` call after the entry point returns), an uncaught exception does not (the
binary aborts)."""
import errno
import os
import stat

_BUFSIZE = 4096
_UNBUFFERED = 0
_LINE_BUFFERED = 1
_FULLY_BUFFERED = 2


class RFile(object):
    # the reference's public surface, whole: a name it lacks (`f.closed`, which tinySelf
    # reads) is an error there too, not a gap of this model
    _rpy_complete_ = True

    def __init__(self, fd, mode, buffering=_FULLY_BUFFERED):
        self._fd = fd
        self._mode = mode
        self._buffering = buffering
        self._pending = []
        self._pending_len = 0
        if buffering != _UNBUFFERED:
            _streams.append(self)

    def _flush_pending(self):
        if self._pending_len > 0 and self._fd >= 0:
            data = "".join(self._pending)
            self._pending = []
            self._pending_len = 0
            os.write(self._fd, data)

    def close(self):
        if self._fd >= 0:
            self._flush_pending()
            os.close(self._fd)
            self._fd = -1
            if self._buffering != _UNBUFFERED:
                _streams.remove(self)
        return 0

    def read(self, size=-1):
        self._flush_pending()
        _flush_line_buffered()
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
        self._flush_pending()
        _flush_line_buffered()
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
        if self._buffering == _UNBUFFERED:
            os.write(self._fd, value)
            return
        n = len(value)
        space = _BUFSIZE - self._pending_len
        assert space >= 0
        if n <= space:
            self._pending.append(value)
            self._pending_len += n
            if self._buffering == _LINE_BUFFERED and "\n" in value:
                self._flush_pending()
            return
        # as glibc: fill the buffer, write it, write whole blocks directly, keep the rest
        self._pending.append(value[:space])
        self._pending_len = _BUFSIZE
        self._flush_pending()
        rest = value[space:]
        direct = len(rest) - len(rest) % _BUFSIZE
        assert direct >= 0
        if direct > 0:
            os.write(self._fd, rest[:direct])
        rest = rest[direct:]
        if rest:
            self._pending.append(rest)
            self._pending_len = len(rest)

    def flush(self):
        self._flush_pending()

    def truncate(self, arg=-1):
        self._flush_pending()
        if arg >= 0:
            os.ftruncate(self._fd, arg)

    def seek(self, pos, whence=0):
        self._flush_pending()
        os.lseek(self._fd, pos, whence)

    def tell(self):
        return os.lseek(self._fd, 0, 1) + self._pending_len

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
    # fopen() failing, or opening a directory, is an IOError (not os.open's OSError)
    try:
        fd = os.open(filename, _flags(mode), 0666)
    except OSError as e:
        raise IOError(e.errno, os.strerror(e.errno))
    try:
        st = os.fstat(fd)
    except OSError:
        pass
    else:
        if stat.S_ISDIR(st[0]):
            os.close(fd)
            raise IOError(errno.EISDIR, os.strerror(errno.EISDIR))
    return RFile(fd, mode)


def create_fdopen_rfile(fd, mode="r", buffering=-1):
    return RFile(fd, mode)


class _Stdio(object):
    """The C library's three standard streams, made at the first `create_stdio()`."""

    def __init__(self):
        self.stdin = None
        self.stdout = None
        self.stderr = None


_stdio = _Stdio()


def create_stdio():
    """The three standard streams as RFile objects (stdin, stdout, stderr). Every call
    gives the same streams, as the reference's RFiles all wrap the C library's `stdout`:
    what one wrote and did not flush is written before what the next one writes."""
    if _stdio.stdout is None:
        out_buffering = _FULLY_BUFFERED
        if os.isatty(1):
            out_buffering = _LINE_BUFFERED
        _stdio.stdin = RFile(0, "r", _UNBUFFERED)
        _stdio.stdout = RFile(1, "w", out_buffering)
        _stdio.stderr = RFile(2, "w", _UNBUFFERED)
    return _stdio.stdin, _stdio.stdout, _stdio.stderr


# every buffered stream ever created (the C library's list of open streams)
_streams = []


def _flush_line_buffered():
    # reading a stream flushes the line-buffered ones (a prompt before input)
    for f in _streams:
        if f._buffering == _LINE_BUFFERED:
            f._flush_pending()


def _flush_at_exit():
    """What the C library does at a normal exit: flush every stream."""
    for f in _streams:
        f._flush_pending()
