"""rpy-lsp's model of `rpython.rlib.streamio`: streams over os file descriptors, written in
RPython so that `run` and `build` translate them. `open_file_as_stream` gives a reading
stream buffered for `readline`/`readall`, or a writing one; `Stream` is the base class
programs subclass (the unsupported operations raise StreamError, as the reference's do).
Reading streams and file descriptors `seek` and `tell` (a reading stream's position is the
file's less what its buffer holds); mode "rU" reads with universal newlines."""
import os


class StreamError(Exception):
    def __init__(self, message):
        self.message = message


class MyNotImplementedError(Exception):
    """What the base stream's unsupported operations raise (catching NotImplementedError is
    not RPython)."""


class Stream(object):
    """The base stream: every operation unsupported, `readall` and `readline` through
    `read` and `peek`."""

    def read(self, n):
        raise MyNotImplementedError

    def write(self, data):
        raise MyNotImplementedError

    def tell(self):
        raise MyNotImplementedError

    def seek(self, offset, whence):
        raise MyNotImplementedError

    def readall(self):
        chunks = []
        size = 8192
        while True:
            try:
                data = self.read(size)
            except OSError:
                # an error after some data ends the data, as in CPython 2
                if not chunks:
                    raise
                break
            if not data:
                break
            chunks.append(data)
            # ever larger reads, up to 4 MB
            size = min(size * 2, 4194304)
        return "".join(chunks)

    def readline(self):
        # reads at most what peek() shows up to its first newline: never past the line
        pieces = []
        while True:
            start, window = self.peek()
            assert 0 <= start <= len(window)
            newline = window.find("\n", start)
            if newline < 0:
                newline = len(window)
            piece = self.read(newline + 1 - start)
            if not piece:
                break
            pieces.append(piece)
            if piece[-1] == "\n":
                break
        return "".join(pieces)

    def truncate(self, size):
        raise MyNotImplementedError

    def flush_buffers(self):
        pass

    def flush(self):
        pass

    def flushable(self):
        return False

    def close(self):
        self.close1(True)

    def close1(self, closefileno):
        pass

    def peek(self):
        return (0, "")

    def count_buffered_bytes(self):
        pos, buf = self.peek()
        return len(buf) - pos

    def try_to_find_file_descriptor(self):
        return -1

    def getnewlines(self):
        return 0


class DiskFile(Stream):
    """A file descriptor: `read(n)` gives up to n bytes, fewer only at the end."""

    def __init__(self, fd):
        self.fd = fd

    def read(self, n):
        if n <= 0:
            return ""
        pieces = []
        got = 0
        while got < n:
            data = os.read(self.fd, n - got)
            if not data:
                break
            pieces.append(data)
            got += len(data)
        return "".join(pieces)

    def write(self, data):
        while data:
            n = os.write(self.fd, data)
            data = data[n:]

    def tell(self):
        return os.lseek(self.fd, 0, 1)

    def seek(self, offset, whence):
        os.lseek(self.fd, offset, whence)

    def close1(self, closefileno):
        if closefileno:
            os.close(self.fd)

    def try_to_find_file_descriptor(self):
        return self.fd


class BufferingInputStream(Stream):
    """Reading through a buffer: `readline` without a system call per character."""

    def __init__(self, base, bufsize):
        self.base = base
        self.buf = ""
        self.pos = 0
        if bufsize <= 0:
            bufsize = 8192
        self.bufsize = bufsize

    def _fill(self):
        data = self.base.read(self.bufsize)
        pos = self.pos
        assert pos >= 0
        self.buf = self.buf[pos:] + data
        self.pos = 0
        return len(data) > 0

    def read(self, n):
        while len(self.buf) - self.pos < n:
            if not self._fill():
                break
        pos = self.pos
        assert pos >= 0
        end = pos + n
        if end > len(self.buf):
            end = len(self.buf)
        assert end >= 0
        result = self.buf[pos:end]
        self.pos = end
        return result

    def readall(self):
        pos = self.pos
        assert pos >= 0
        pieces = [self.buf[pos:]]
        self.buf = ""
        self.pos = 0
        pieces.append(self.base.readall())
        return "".join(pieces)

    def readline(self):
        while True:
            pos = self.pos
            assert pos >= 0
            i = self.buf.find("\n", pos)
            if i >= 0:
                result = self.buf[pos:i + 1]
                self.pos = i + 1
                return result
            if not self._fill():
                pos = self.pos
                assert pos >= 0
                result = self.buf[pos:]
                self.pos = len(self.buf)
                return result

    def peek(self):
        return (self.pos, self.buf)

    def tell(self):
        # the file's position less what the buffer holds and was not read yet; if the
        # descriptor moved under the buffer to before that, the buffer is dropped
        where = self.base.tell()
        ahead = len(self.buf) - self.pos
        if where < ahead:
            self.buf = ""
            self.pos = 0
            ahead = 0
        return where - ahead

    def seek(self, offset, whence):
        if whence == 0 or whence == 1:
            # a move that stays inside the buffer only moves the read position
            if whence == 0:
                delta = offset - self.tell()
            else:
                delta = offset
            ahead = len(self.buf) - self.pos
            if -self.pos <= delta <= ahead:
                self.pos += delta
                return
            if whence == 1:
                # the file is `ahead` bytes past the stream's position
                offset -= ahead
        self.base.seek(offset, whence)
        self.buf = ""
        self.pos = 0

    def close1(self, closefileno):
        self.base.close1(closefileno)

    def try_to_find_file_descriptor(self):
        return self.base.try_to_find_file_descriptor()


class BufferingOutputStream(Stream):
    """Writing through a buffer of about `bufsize` bytes: the data reaches the file when
    the buffer would overflow, on `flush()` or `close()`, never at exit by itself (what a
    translated program did not flush is lost, as with the reference's streams). `do_write`
    writes past the buffer."""

    def __init__(self, base, bufsize=-1):
        self.base = base
        if bufsize <= 0:
            bufsize = 8192
        self.bufsize = bufsize
        self.pending = []
        self.pending_len = 0

    def do_write(self, data):
        self.base.write(data)

    def _take_pending(self):
        data = "".join(self.pending)
        self.pending = []
        self.pending_len = 0
        return data

    def write(self, data):
        if self.pending_len + len(data) < self.bufsize:
            self.pending.append(data)
            self.pending_len += len(data)
        elif self.pending_len > 0:
            self.pending.append(data)
            self.do_write(self._take_pending())
        else:
            self.do_write(data)

    def flush_buffers(self):
        if self.pending_len > 0:
            self.do_write(self._take_pending())

    def flush(self):
        self.flush_buffers()
        self.base.flush()

    def flushable(self):
        return True

    def tell(self):
        return self.base.tell() + self.pending_len

    def close1(self, closefileno):
        self.flush_buffers()
        self.base.close1(closefileno)

    def try_to_find_file_descriptor(self):
        return self.base.try_to_find_file_descriptor()


class LineBufferingOutputStream(BufferingOutputStream):
    """Writing a line at a time: what ends with a newline reaches the file at once (with
    what was pending), the rest of the data waits for the next newline."""

    def write(self, data):
        # everything up to the last newline goes out now
        cut = data.rfind("\n") + 1
        if self.pending_len + len(data) >= self.bufsize and self.pending_len + cut < self.bufsize:
            # too much for the buffer: as much as fills it goes out too
            cut = self.bufsize - self.pending_len
        if cut <= 0 and self.pending_len + len(data) < self.bufsize:
            self.pending.append(data)
            self.pending_len += len(data)
            return
        assert cut >= 0
        self.pending.append(data[:cut])
        self.do_write(self._take_pending())
        rest = data[cut:]
        self.pending = [rest]
        self.pending_len = len(rest)


class TextInputFilter(Stream):
    """Universal newlines on reading (mode "rU"): "\r\n" and a lone "\r" read as "\n".
    A "\r" ending one read is remembered, so that a "\n" starting the next is dropped."""

    def __init__(self, base):
        self.base = base
        self.atcr = False

    def read(self, n):
        data = self.base.read(n)
        if self.atcr:
            self.atcr = False
            if data.startswith("\n"):
                data = data[1:]
                if not data:
                    data = self.base.read(n)
        if data.find("\r") >= 0:
            self.atcr = data.endswith("\r")
            data = _lf_newlines(data)
        return data

    def readline(self):
        # reads up to the first end of line the buffer shows, never past it
        pieces = []
        while True:
            start, window = self.base.peek()
            assert 0 <= start <= len(window)
            stop = len(window)
            i = start
            while i < len(window):
                if window[i] == "\n" or window[i] == "\r":
                    stop = i
                    break
                i += 1
            piece = self.read(stop - start + 1)
            if not piece:
                break
            pieces.append(piece)
            if piece.endswith("\n"):
                break
        return "".join(pieces)

    def readall(self):
        data = self.base.readall()
        if self.atcr:
            self.atcr = False
            if data.startswith("\n"):
                data = data[1:]
        if data.find("\r") >= 0:
            self.atcr = data.endswith("\r")
            data = _lf_newlines(data)
        return data

    def peek(self):
        return self.base.peek()

    def close1(self, closefileno):
        self.base.close1(closefileno)

    def try_to_find_file_descriptor(self):
        return self.base.try_to_find_file_descriptor()


def _lf_newlines(data):
    """`data` with each "\r\n" and each remaining "\r" made a "\n"."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == "\r":
            out.append("\n")
            if i + 1 < n and data[i + 1] == "\n":
                i += 1
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _flags(mode):
    if mode.startswith("r"):
        if mode.find("+") >= 0:
            return os.O_RDWR
        return os.O_RDONLY
    if mode.startswith("w"):
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    elif mode.startswith("a"):
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND
    else:
        raise StreamError("invalid mode")
    if mode.find("+") >= 0:
        flags = (flags & ~os.O_WRONLY) | os.O_RDWR
    return flags


def fdopen_as_stream(fd, mode, buffering=-1, signal_checker=None):
    base = DiskFile(fd)
    if mode.startswith("r") and mode.find("+") < 0:
        return BufferingInputStream(base, buffering)
    if mode.find("+") >= 0 or buffering == 0:
        return base
    # writing only: a line-buffered (buffering=1) or buffered stream
    if buffering == 1:
        return LineBufferingOutputStream(base)
    return BufferingOutputStream(base, buffering)


def open_file_as_stream(path, mode="r", buffering=-1, signal_checker=None):
    # "U" alone or after "r" reads with universal newlines ("U..." is "rU...")
    if mode.startswith("U"):
        mode = "r" + mode
    universal = mode.find("U") >= 0
    fd = os.open(path, _flags(mode), 0666)
    stream = fdopen_as_stream(fd, mode, buffering)
    if universal and mode.startswith("r") and mode.find("+") < 0:
        return TextInputFilter(stream)
    return stream
