"""rpy-lsp's model of `rpython.rlib.rstring`: string builders and string helpers,
written in RPython."""
from rpython.rlib.objectmodel import specialize


class AbstractStringBuilder(object):
    # a mixin: StringBuilder and UnicodeBuilder each get their own copy of the methods
    # (one appends str, the other unicode)
    _mixin_ = True
    # the reference's builders have exactly these methods: any other is an error
    _rpy_complete_ = True

    def __init__(self, init_size=100):
        self._pieces = []
        self._size = 0

    def append(self, s):
        self._pieces.append(s)
        self._size += len(s)

    def append_slice(self, s, start, end):
        assert 0 <= start <= end <= len(s)
        self._pieces.append(s[start:end])
        self._size += end - start

    def append_multiple_char(self, c, times):
        self._pieces.append(c * times)
        self._size += times

    def append_charpsize(self, s, size):
        # `s` is a raw char* (rffi.CCHARP): copy its first `size` characters
        assert size >= 0
        chars = []
        for i in range(size):
            chars.append(s[i])
        self.append(self._empty().join(chars))

    def getlength(self):
        return self._size


class StringBuilder(AbstractStringBuilder, object):
    def _empty(self):
        return ''

    def build(self):
        return ''.join(self._pieces)


class UnicodeBuilder(AbstractStringBuilder, object):
    def _empty(self):
        return u''

    def build(self):
        return u''.join(self._pieces)


@specialize.argtype(0)
def _isspace(c):
    return c == ' ' or c == '\t' or c == '\n' or c == '\r' or c == '\x0b' or c == '\x0c'


@specialize.argtype(0)
def split(value, by=None, maxsplit=-1):
    if by is None:
        length = len(value)
        i = 0
        res = []
        while True:
            while i < length and _isspace(value[i]):
                i += 1
            if i >= length:
                break
            if maxsplit == 0:
                j = length
            else:
                j = i + 1
                while j < length and not _isspace(value[j]):
                    j += 1
                maxsplit -= 1
            res.append(value[i:j])
            i = j + 1
        return res
    bylen = len(by)
    if bylen == 0:
        raise ValueError("empty separator")
    res = []
    start = 0
    while maxsplit != 0:
        next = value.find(by, start)
        if next < 0:
            break
        res.append(value[start:next])
        start = next + bylen
        maxsplit -= 1
    res.append(value[start:len(value)])
    return res


@specialize.argtype(0)
def rsplit(value, by=None, maxsplit=-1):
    if by is None:
        res = []
        i = len(value) - 1
        while True:
            while i >= 0 and _isspace(value[i]):
                i -= 1
            if i < 0:
                break
            if maxsplit == 0:
                j = -1
            else:
                j = i - 1
                while j >= 0 and not _isspace(value[j]):
                    j -= 1
                maxsplit -= 1
            start = j + 1
            stop = i + 1
            assert start >= 0 and stop >= 0
            res.append(value[start:stop])
            i = j - 1
        res.reverse()
        return res
    bylen = len(by)
    if bylen == 0:
        raise ValueError("empty separator")
    res = []
    end = len(value)
    while maxsplit != 0:
        next = value.rfind(by, 0, end)
        if next < 0:
            break
        start = next + bylen
        assert start >= 0 and end >= 0
        res.append(value[start:end])
        end = next
        maxsplit -= 1
    res.append(value[:end])
    res.reverse()
    return res


@specialize.argtype(0)
def replace(input, sub, by, maxsplit=-1):
    if maxsplit == 0:
        return input
    if not sub:
        upper = len(input)
        if maxsplit > 0 and maxsplit < upper + 2:
            upper = maxsplit - 1
        builder = []
        i = 0
        while i < upper:
            builder.append(by)
            builder.append(input[i])
            i += 1
        builder.append(by)
        assert upper >= 0
        builder.append(input[upper:])
        # an empty string of the input's kind: a unicode input joins unicode pieces
        return input[:0].join(builder)
    pieces = split(input, sub, maxsplit)
    return by.join(pieces)


@specialize.argtype(0, 1)
def startswith(u_self, prefix, start=0, end=9223372036854775807):
    length = len(prefix)
    if start < 0:
        start = 0
    if end > len(u_self):
        end = len(u_self)
    if start + length > end:
        return False
    i = 0
    while i < length:
        if u_self[start + i] != prefix[i]:
            return False
        i += 1
    return True


@specialize.argtype(0, 1)
def endswith(u_self, suffix, start=0, end=9223372036854775807):
    length = len(suffix)
    if end > len(u_self):
        end = len(u_self)
    begin = end - length
    if begin < start:
        return False
    i = 0
    while i < length:
        if u_self[begin + i] != suffix[i]:
            return False
        i += 1
    return True


# find, rfind and count with explicit bounds: the methods of str and unicode (the
# reference also searches other sequences of characters with them; rpy-lsp models
# strings only)

@specialize.argtype(0, 1)
def find(value, other, start, end):
    return value.find(other, start, end)


@specialize.argtype(0, 1)
def rfind(value, other, start, end):
    return value.rfind(other, start, end)


@specialize.argtype(0, 1)
def count(value, other, start, end):
    return value.count(other, start, end)


def strip_spaces(s):
    """`s` without the ASCII whitespace at either end (not locale-dependent)."""
    start = 0
    stop = len(s)
    while start < stop and _isspace(s[start]):
        start += 1
    while stop > start and _isspace(s[stop - 1]):
        stop -= 1
    assert stop >= start
    return s[start:stop]


class ParseStringError(Exception):
    def __init__(self, msg):
        self.msg = msg


class ParseStringOverflowError(Exception):
    def __init__(self, parser):
        self.parser = parser


def assert_str0(fname):
    """The string, which the reference then knows has no NUL character; rpy-lsp does not
    track NULs, so it is the string itself."""
    return fname


def check_str0(fname):
    """A probe the reference uses to require a string without NUL characters."""
