"""rpy-lsp's low-level helpers of `encode` and `decode` (see ll_str.py for how they are
used), one per codec: the RTyper picks it by the constant codec name, as the reference
requires the encoding to be a constant.

Encoding takes a unicode string (or a str) and gives a str: latin-1 and ascii raise
UnicodeEncodeError for a code point past their range (`limit`: 256 or 128); utf-8 encodes
every code point, a high surrogate followed by a low one as the code point they stand for,
a lone surrogate as itself (three bytes), one past U+10FFFF as U+FFFD. Decoding takes a str
and gives a unicode string of pointer type `UNI`: latin-1 maps each byte, ascii raises
UnicodeDecodeError for a byte past 127, utf-8 raises it for anything but well-formed UTF-8
(no overlong forms) where encoded surrogates are allowed, each one code point. (RPython's
str.decode and unicode.encode call runicode with allow_surrogates=True.)
"""
from rpython.rtyper.lltypesystem.lltype import malloc
from rpython.rlib.objectmodel import specialize
from __rpy_ll__.ll_str import STR


@specialize.ll()
def ll_encode_latin1(s, limit):
    n = len(s.chars)
    r = malloc(STR, n)
    i = 0
    while i < n:
        c = ord(s.chars[i])
        if c >= limit:
            raise UnicodeEncodeError
        r.chars[i] = chr(c)
        i += 1
    return r


@specialize.ll()
def _utf8_code(s, i, n):
    # the code point encoded for the character(s) at i: a surrogate pair is one
    c = ord(s.chars[i])
    if 0xd800 <= c <= 0xdbff and i + 1 < n:
        c2 = ord(s.chars[i + 1])
        if 0xdc00 <= c2 <= 0xdfff:
            return ((c - 0xd800) << 10 | (c2 - 0xdc00)) + 0x10000
    if c > 0x10ffff:
        return 0xfffd
    return c


@specialize.ll()
def _utf8_step_at(s, i, c):
    # how many characters code point c, read at i, took (two for a surrogate pair)
    if c >= 0x10000 and ord(s.chars[i]) < 0x10000:
        return 2
    return 1


def _utf8_size(c):
    if c < 0x80:
        return 1
    if c < 0x800:
        return 2
    if c < 0x10000:
        return 3
    return 4


@specialize.ll()
def ll_encode_utf8(s):
    n = len(s.chars)
    size = 0
    i = 0
    while i < n:
        c = _utf8_code(s, i, n)
        size += _utf8_size(c)
        i += _utf8_step_at(s, i, c)
    r = malloc(STR, size)
    j = 0
    i = 0
    while i < n:
        c = _utf8_code(s, i, n)
        k = _utf8_size(c)
        if k == 1:
            r.chars[j] = chr(c)
        elif k == 2:
            r.chars[j] = chr(0xc0 | (c >> 6))
            r.chars[j + 1] = chr(0x80 | (c & 0x3f))
        elif k == 3:
            r.chars[j] = chr(0xe0 | (c >> 12))
            r.chars[j + 1] = chr(0x80 | ((c >> 6) & 0x3f))
            r.chars[j + 2] = chr(0x80 | (c & 0x3f))
        else:
            r.chars[j] = chr(0xf0 | (c >> 18))
            r.chars[j + 1] = chr(0x80 | ((c >> 12) & 0x3f))
            r.chars[j + 2] = chr(0x80 | ((c >> 6) & 0x3f))
            r.chars[j + 3] = chr(0x80 | (c & 0x3f))
        j += k
        i += _utf8_step_at(s, i, c)
    return r


@specialize.ll()
def ll_decode_latin1(UNI, s, limit):
    n = len(s.chars)
    r = malloc(UNI.TO, n)
    i = 0
    while i < n:
        c = ord(s.chars[i])
        if c >= limit:
            raise UnicodeDecodeError
        r.chars[i] = unichr(c)
        i += 1
    return r


@specialize.ll()
def _cont(s, i, n, lo, hi):
    # byte i exists and is in [lo, hi]
    return i < n and lo <= ord(s.chars[i]) <= hi


@specialize.ll()
def _utf8_len(s, i, n):
    # the length of the well-formed sequence at i, or 0
    b = ord(s.chars[i])
    if b < 0x80:
        return 1
    if 0xc2 <= b <= 0xdf:
        if _cont(s, i + 1, n, 0x80, 0xbf):
            return 2
        return 0
    if 0xe0 <= b <= 0xef:
        lo = 0x80
        hi = 0xbf
        if b == 0xe0:
            lo = 0xa0
        if _cont(s, i + 1, n, lo, hi) and _cont(s, i + 2, n, 0x80, 0xbf):
            return 3
        return 0
    if 0xf0 <= b <= 0xf4:
        lo = 0x80
        hi = 0xbf
        if b == 0xf0:
            lo = 0x90
        elif b == 0xf4:
            hi = 0x8f
        if (_cont(s, i + 1, n, lo, hi) and _cont(s, i + 2, n, 0x80, 0xbf) and
                _cont(s, i + 3, n, 0x80, 0xbf)):
            return 4
        return 0
    return 0


@specialize.ll()
def ll_decode_utf8(UNI, s):
    n = len(s.chars)
    count = 0
    i = 0
    while i < n:
        k = _utf8_len(s, i, n)
        if k == 0:
            raise UnicodeDecodeError
        i += k
        count += 1
    r = malloc(UNI.TO, count)
    i = 0
    j = 0
    while i < n:
        k = _utf8_len(s, i, n)
        c = ord(s.chars[i])
        if k == 2:
            c &= 0x1f
        elif k == 3:
            c &= 0x0f
        elif k == 4:
            c &= 0x07
        m = 1
        while m < k:
            c = (c << 6) | (ord(s.chars[i + m]) & 0x3f)
            m += 1
        r.chars[j] = unichr(c)
        i += k
        j += 1
    return r
