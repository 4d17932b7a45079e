"""rpy-lsp's model of `rpython.rlib.rstring`: string builders and string helpers,
written in RPython."""
from rpython.rlib.objectmodel import specialize, _rpy_argkinds


class AbstractStringBuilder(object):
    # a mixin: StringBuilder and UnicodeBuilder each get their own copy of the methods
    # (one appends str, the other unicode)
    _mixin_ = True
    # the reference's builders have exactly these methods: any other is an error
    _rpy_complete_ = True

    # the kinds the reference's SomeStringBuilder asserts (an integer size and bounds)
    @_rpy_argkinds(None, 'integer')
    def __init__(self, init_size=100):
        self._pieces = []
        self._size = 0

    def append(self, s):
        self._pieces.append(s)
        self._size += len(s)

    @_rpy_argkinds(None, None, 'integer', 'integer')
    def append_slice(self, s, start, end):
        assert 0 <= start <= end <= len(s)
        self._pieces.append(s[start:end])
        self._size += end - start

    @_rpy_argkinds(None, None, 'integer')
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
    @_rpy_argkinds(None, 'str_or_char')
    def append(self, s):
        self._pieces.append(s)
        self._size += len(s)

    def _empty(self):
        return ''

    def build(self):
        return ''.join(self._pieces)


class UnicodeBuilder(AbstractStringBuilder, object):
    def _empty(self):
        return u''

    def build(self):
        return u''.join(self._pieces)


class ByteListBuilder(object):
    """A builder whose result is the list of the characters appended (`build()` gives
    that list itself, not a copy: appending after it changes what it returned)."""

    def __init__(self, init_size=100):
        assert init_size >= 0
        self.l = []

    @specialize.argtype(1)
    def append(self, s):
        for c in s:
            self.l.append(c)

    @specialize.argtype(1)
    def append_slice(self, s, start, end):
        for i in range(start, end):
            self.l.append(s[i])

    def append_multiple_char(self, c, times):
        for i in range(times):
            self.l.append(c[0])

    def append_charpsize(self, s, size):
        assert size >= 0
        for i in range(size):
            self.l.append(s[i])

    def build(self):
        return self.l

    def getlength(self):
        return len(self.l)


@specialize.argtype(0)
def _isspace(c):
    return c == ' ' or c == '\t' or c == '\n' or c == '\r' or c == '\x0b' or c == '\x0c'


@specialize.argtype(0)
def _split_words(value, maxsplit):
    # str.split(): words between runs of whitespace; once maxsplit words are taken the
    # rest, from the next word on, is the last one
    words = []
    n = len(value)
    pos = 0
    while True:
        while pos < n and _isspace(value[pos]):
            pos += 1
        if pos >= n:
            return words
        if maxsplit == 0:
            words.append(value[pos:n])
            return words
        end = pos
        while end < n and not _isspace(value[end]):
            end += 1
        words.append(value[pos:end])
        maxsplit -= 1
        pos = end


@specialize.argtype(0)
def _rsplit_words(value, maxsplit):
    # the same from the right: the rest, up to the last word found, is the first one
    words = []
    end = len(value)
    while True:
        while end > 0 and _isspace(value[end - 1]):
            end -= 1
        if end <= 0:
            break
        assert end >= 0
        if maxsplit == 0:
            words.append(value[:end])
            break
        start = end
        while start > 0 and not _isspace(value[start - 1]):
            start -= 1
        assert start >= 0
        words.append(value[start:end])
        maxsplit -= 1
        end = start
    words.reverse()
    return words


@specialize.argtype(0)
def split(value, by=None, maxsplit=-1):
    if by is None:
        return _split_words(value, maxsplit)
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
        return _rsplit_words(value, maxsplit)
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
        # the empty pattern matches before every item and at the end: `by` goes there,
        # at most maxsplit times
        times = len(input) + 1
        if 0 < maxsplit < times:
            times = maxsplit
        pieces = []
        for i in range(times - 1):
            pieces.append(by)
            pieces.append(input[i])
        pieces.append(by)
        rest = times - 1
        assert rest >= 0
        pieces.append(input[rest:])
        # an empty string of the input's kind: a unicode input joins unicode pieces
        return input[:0].join(pieces)
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


class InvalidBaseError(ParseStringError):
    """A base outside 2..36 given to a string-to-number parser."""


class ParseStringOverflowError(Exception):
    def __init__(self, parser):
        self.parser = parser


def assert_str0(fname):
    """The string, which the reference then knows has no NUL character; rpy-lsp does not
    track NULs, so it is the string itself."""
    return fname


def check_str0(fname):
    """A probe the reference uses to require a string without NUL characters."""
