"""rpy-lsp's model of `rpython.rlib.runicode`: the UTF-8, Latin-1 and ASCII codecs of
rpython 0.2.1, written in RPython. Each decoder takes `(s, size, errors, final=False,
errorhandler=None)` and returns `(unicode, consumed)`; each encoder takes `(u, size,
errors, errorhandler=None)` and returns a str. The error handlers are the reference's:
`errorhandler(errors, encoding, msg, s, startpos, endpos)` gives `(replacement,
newpos)` when decoding and `(replacement, replacement_bytes, newpos)` when encoding; the
default one raises UnicodeDecodeError / UnicodeEncodeError for 'strict', and replaces
('replace') or skips ('ignore'). The UTF-8 encoder refuses surrogates unless
`allow_surrogates`; the decoder takes a UTF-8 sequence encoding one for an invalid
sequence. UTF-16 and UTF-32 (native with a BOM, -le, -be), UTF-7 (RFC 2152, the
optional direct characters and whitespace written as themselves), charmap,
unicode-escape and raw-unicode-escape follow. Not modelled: unicode-internal, `\\N{...}`
escapes.
"""

from rpython.rlib.rarithmetic import r_uint, intmask

MAXUNICODE = 0x10ffff
UNICHR = unichr
ORD = ord


def default_unicode_error_decode(errors, encoding, msg, s, startingpos, endingpos):
    """'replace' puts U+FFFD for the bad bytes, 'ignore' nothing; any other policy
    raises."""
    if errors != 'replace' and errors != 'ignore':
        raise UnicodeDecodeError(encoding, s, startingpos, endingpos, msg)
    replacement = u''
    if errors == 'replace':
        replacement = u'\ufffd'
    return replacement, endingpos


def default_unicode_error_encode(errors, encoding, msg, u, startingpos, endingpos):
    """'replace' puts '?' for the bad characters, 'ignore' nothing (never raw bytes);
    any other policy raises."""
    if errors != 'replace' and errors != 'ignore':
        raise UnicodeEncodeError(encoding, u, startingpos, endingpos, msg)
    replacement = u''
    if errors == 'replace':
        replacement = u'?'
    return replacement, None, endingpos


def _utf8_length(first):
    """How many bytes a UTF-8 sequence starting with `first` has; 0 if none."""
    if 0xC2 <= first <= 0xDF:
        return 2
    if 0xE0 <= first <= 0xEF:
        return 3
    if 0xF0 <= first <= 0xF4:
        return 4
    return 0


def _is_cont(c):
    return 0x80 <= c <= 0xBF


def _valid_second(first, second):
    """The second byte of a sequence must be a continuation byte, in the narrower ranges
    that exclude overlong forms, surrogates and code points above 0x10FFFF."""
    if first == 0xE0:
        return 0xA0 <= second <= 0xBF
    if first == 0xED:
        return 0x80 <= second <= 0x9F
    if first == 0xF0:
        return 0x90 <= second <= 0xBF
    if first == 0xF4:
        return 0x80 <= second <= 0x8F
    return _is_cont(second)


def _utf8_invalid_length(s, pos, size, n):
    """How many bytes of the sequence at `pos` (of length n, maybe cut by `size`) are
    valid before the first invalid one: the bytes the error covers."""
    first = ord(s[pos])
    k = 1
    while k < n and pos + k < size:
        c = ord(s[pos + k])
        if k == 1:
            ok = _valid_second(first, c)
        else:
            ok = _is_cont(c)
        if not ok:
            return k
        k += 1
    return k


def str_decode_utf_8(s, size, errors, final=False, errorhandler=None,
                     allow_surrogates=True):
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    result = []
    pos = 0
    while pos < size:
        first = ord(s[pos])
        if first < 0x80:
            result.append(unichr(first))
            pos += 1
            continue
        n = _utf8_length(first)
        if n == 0:
            r, pos = errorhandler(errors, 'utf8', 'invalid start byte', s, pos, pos + 1)
            result.append(r)
            continue
        valid = _utf8_invalid_length(s, pos, size, n)
        if valid < n:
            if pos + valid >= size:
                # the sequence is cut by the end of the input
                if not final:
                    break
                r, pos = errorhandler(errors, 'utf8', 'unexpected end of data',
                                      s, pos, pos + valid)
            else:
                r, pos = errorhandler(errors, 'utf8', 'invalid continuation byte',
                                      s, pos, pos + valid)
            result.append(r)
            continue
        if n == 2:
            c = ((first & 0x1F) << 6) | (ord(s[pos + 1]) & 0x3F)
        elif n == 3:
            c = (((first & 0x0F) << 12) | ((ord(s[pos + 1]) & 0x3F) << 6) |
                 (ord(s[pos + 2]) & 0x3F))
        else:
            c = (((first & 0x07) << 18) | ((ord(s[pos + 1]) & 0x3F) << 12) |
                 ((ord(s[pos + 2]) & 0x3F) << 6) | (ord(s[pos + 3]) & 0x3F))
        result.append(unichr(c))
        pos += n
    return u''.join(result), pos


def _encode_utf8_char(result, c):
    if c < 0x80:
        result.append(chr(c))
    elif c < 0x800:
        result.append(chr(0xC0 | (c >> 6)))
        result.append(chr(0x80 | (c & 0x3F)))
    elif c < 0x10000:
        result.append(chr(0xE0 | (c >> 12)))
        result.append(chr(0x80 | ((c >> 6) & 0x3F)))
        result.append(chr(0x80 | (c & 0x3F)))
    else:
        result.append(chr(0xF0 | (c >> 18)))
        result.append(chr(0x80 | ((c >> 12) & 0x3F)))
        result.append(chr(0x80 | ((c >> 6) & 0x3F)))
        result.append(chr(0x80 | (c & 0x3F)))


def unicode_encode_utf_8(s, size, errors, errorhandler=None, allow_surrogates=False):
    """With allow_surrogates a surrogate pair is encoded as the character it stands for
    and a lone surrogate as its own three bytes; without (the default on this wide-unicode
    host) every surrogate is an error ('surrogates not allowed') for the handler, whose
    replacement must be ASCII."""
    if errorhandler is None:
        errorhandler = default_unicode_error_encode
    result = []
    pos = 0
    while pos < size:
        c = ord(s[pos])
        pos += 1
        if 0xD800 <= c <= 0xDFFF:
            if allow_surrogates:
                if c <= 0xDBFF and pos < size and 0xDC00 <= ord(s[pos]) <= 0xDFFF:
                    c = 0x10000 + ((c - 0xD800) << 10) + (ord(s[pos]) - 0xDC00)
                    pos += 1
            else:
                ru, rs, pos = errorhandler(errors, 'utf8', 'surrogates not allowed',
                                           s, pos - 1, pos)
                if rs is not None:
                    result.append(rs)
                    continue
                for r in ru:
                    if ord(r) < 0x80:
                        result.append(chr(ord(r)))
                    else:
                        errorhandler('strict', 'utf8', 'surrogates not allowed',
                                     s, pos - 1, pos)
                continue
        _encode_utf8_char(result, c)
    return ''.join(result)


def str_decode_latin_1(s, size, errors, final=False, errorhandler=None):
    """Every byte is the code point of its value: never an error."""
    chars = [unichr(ord(s[i])) for i in range(size)]
    return u''.join(chars), size


def str_decode_ascii(s, size, errors, final=False, errorhandler=None):
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    result = []
    pos = 0
    while pos < size:
        c = ord(s[pos])
        if c < 0x80:
            result.append(unichr(c))
            pos += 1
        else:
            r, pos = errorhandler(errors, 'ascii', 'ordinal not in range(128)',
                                  s, pos, pos + 1)
            result.append(r)
    return u''.join(result), pos


def unicode_encode_ucs1_helper(p, size, errors, errorhandler=None, limit=256):
    if errorhandler is None:
        errorhandler = default_unicode_error_encode
    if limit == 256:
        encoding = 'latin-1'
        reason = 'ordinal not in range(256)'
    else:
        encoding = 'ascii'
        reason = 'ordinal not in range(128)'
    result = []
    pos = 0
    while pos < size:
        c = ord(p[pos])
        if c < limit:
            result.append(chr(c))
            pos += 1
            continue
        # the run of characters the codec cannot encode is one error
        start = pos
        end = pos + 1
        while end < size and ord(p[end]) >= limit:
            end += 1
        r, rs, pos = errorhandler(errors, encoding, reason, p, start, end)
        if rs is not None:
            result.append(rs)
            continue
        for ch in r:
            if ord(ch) >= limit:
                errorhandler('strict', encoding, reason, p, start, end)
            else:
                result.append(chr(ord(ch)))
    return ''.join(result)


def unicode_encode_latin_1(p, size, errors, errorhandler=None):
    return unicode_encode_ucs1_helper(p, size, errors, errorhandler, 256)


def unicode_encode_ascii(p, size, errors, errorhandler=None):
    return unicode_encode_ucs1_helper(p, size, errors, errorhandler, 128)


# ---- "decimal": what int() and float() of a unicode string see
#
# Unicode 5.2's decimal digits (the reference's unicodedb) are 41 runs of ten code points,
# each starting with its zero, plus U+19DA (NEW TAI LUE THAM DIGIT ONE); its white space
# (category Zs, bidirectional WS, B or S) is the code points below.
_DECIMAL_ZEROS = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6,
    0xd66, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80,
    0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xaa50,
    0xabf0, 0xff10, 0x104a0, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6,
]
_SPACES = [
    0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x180e,
    0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
    0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]


def _decimal_value(code):
    """The decimal digit `code` stands for, or -1."""
    if code == 0x19da:
        return 1
    for zero in _DECIMAL_ZEROS:
        if zero <= code < zero + 10:
            return code - zero
    return -1


def _is_space(code):
    for c in _SPACES:
        if c == code:
            return True
    return False


def _decimal_char(code):
    """What the decimal codec writes for `code`, or '' if it cannot encode it."""
    if _is_space(code):
        return ' '
    d = _decimal_value(code)
    if d >= 0:
        return chr(48 + d)
    if 0 < code < 256:
        return chr(code)
    return ''


def unicode_encode_decimal(s, size, errors, errorhandler=None):
    """Spaces as ' ', decimal digits as ASCII digits, the other code points from 1 to 255
    as themselves; a run of anything else is one error for the handler."""
    if errorhandler is None:
        errorhandler = default_unicode_error_encode
    result = []
    pos = 0
    while pos < size:
        c = _decimal_char(ord(s[pos]))
        if c:
            result.append(c)
            pos += 1
            continue
        start = pos
        end = pos + 1
        while end < size and not _decimal_char(ord(s[end])):
            end += 1
        msg = "invalid decimal Unicode string"
        r, rs, pos = errorhandler(errors, 'decimal', msg, s, start, end)
        if rs is not None:
            errorhandler('strict', 'decimal', msg, s, start, end)
        for ch in r:
            c = _decimal_char(ord(ch))
            if not c:
                errorhandler('strict', 'decimal', msg, s, start, end)
            else:
                result.append(c)
    return ''.join(result)


# ---- UTF-16 and UTF-32 (this host is little-endian, as the reference's BYTEORDER)
#
# The decoders return `(unicode, consumed)`; the `*_helper` ones also return the byte
# order they ended with (-1 little, 1 big, 0 native without a BOM). A native decoder
# skips a leading BOM and takes its byte order; the explicit ones keep a BOM as U+FEFF.
# The encoders write a BOM only for the native byte order ("utf-16" / "utf-32").

BYTEORDER = 'little'


def _code_unit(s, pos, width, little):
    """The `width`-byte code unit at `pos`, its bytes read in the given order."""
    value = 0
    k = 0
    while k < width:
        if little:
            byte = ord(s[pos + width - 1 - k])
        else:
            byte = ord(s[pos + k])
        value = (value << 8) | byte
        k += 1
    return value


def _store_unit(result, value, byteorder, width):
    """Appends the `width` bytes of `value` to `result` in the given byte order."""
    shift = 8 * (width - 1)
    step = -8
    if byteorder == 'little':
        shift = 0
        step = 8
    k = 0
    while k < width:
        result.append(chr((value >> shift) & 0xff))
        shift += step
        k += 1


def _decode_start(s, size, byteorder, width):
    """Where decoding starts and the byte order it reads (-1 little, 1 big, 0 native
    without a BOM): a native decoder takes the order of a leading BOM and skips it."""
    if byteorder == 'little':
        return 0, -1
    if byteorder == 'big':
        return 0, 1
    if size >= width:
        if _code_unit(s, 0, width, True) == 0xFEFF:
            return width, -1
        if _code_unit(s, 0, width, False) == 0xFEFF:
            return width, 1
    return 0, 0


def _decode_utf16_char(s, pos, little, errors, errorhandler, encoding, result):
    """Decodes the character at `pos` (the input holds the low half of a surrogate pair
    after a surrogate); the position after it."""
    unit = _code_unit(s, pos, 2, little)
    if unit < 0xD800 or unit > 0xDFFF:
        result.append(unichr(unit))
        return pos + 2
    if unit >= 0xDC00:
        r, pos = errorhandler(errors, encoding, "illegal encoding", s, pos, pos + 2)
    else:
        low = _code_unit(s, pos + 2, 2, little)
        if 0xDC00 <= low <= 0xDFFF:
            result.append(unichr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)))
            return pos + 4
        # only the high half is wrong: decoding goes on at the unit after it
        r, pos = errorhandler(errors, encoding, "illegal UTF-16 surrogate",
                              s, pos, pos + 2)
    result.append(r)
    return pos


def _decode_utf32_char(s, pos, little, errors, errorhandler, encoding, result):
    """Decodes the character at `pos`; the position after it. A value beyond the last
    code point is an error reaching to the end of the input."""
    code = _code_unit(s, pos, 4, little)
    if code < 0x110000:
        result.append(unichr(code))
        return pos + 4
    r, pos = errorhandler(errors, encoding, "codepoint not in range(0x110000)",
                          s, pos, len(s))
    result.append(r)
    return pos


def _decode_fixed_width(s, size, errors, final, errorhandler, byteorder, encoding,
                        width):
    """UTF-16 (`width` 2) and UTF-32 (4) decoding: `(unicode, consumed, byteorder)`.
    Input that ends inside a character (a partial code unit, or a UTF-16 surrogate
    without a unit after it) is left unconsumed unless `final`; then it is an error
    from there to the end, after which decoding stops if less than a unit is left."""
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    pos, bo = _decode_start(s, size, byteorder, width)
    if size == 0:
        return u'', 0, bo
    little = bo != 1
    result = []
    end = len(s)
    while pos < size:
        need = width
        message = "truncated data"
        if width == 2 and end - pos >= 2 and 0xD800 <= _code_unit(s, pos, 2, little) <= 0xDFFF:
            need = 4
            message = "unexpected end of data"
        if end - pos < need:
            if not final:
                break
            r, pos = errorhandler(errors, encoding, message, s, pos, end)
            result.append(r)
            if end - pos < width:
                break
            continue
        if width == 2:
            pos = _decode_utf16_char(s, pos, little, errors, errorhandler, encoding,
                                     result)
        else:
            pos = _decode_utf32_char(s, pos, little, errors, errorhandler, encoding,
                                     result)
    return u''.join(result), pos, bo


def _refuses(c, width):
    """Whether the encoder of `width` refuses character `c` when surrogates are not
    allowed: UTF-16 any surrogate, UTF-32 (as the reference) only a high one."""
    if width == 2:
        return 0xD800 <= c <= 0xDFFF
    return 0xD800 <= c <= 0xDBFF


def _encode_fixed_width(s, size, errors, errorhandler, allow_surrogates, byteorder,
                        encoding, width):
    """UTF-16 (`width` 2: a character beyond the BMP as a surrogate pair) and UTF-32
    (4) encoding; the native byte order starts with a BOM. A refused surrogate goes to
    the error handler, whose replacement must itself be encodable."""
    if errorhandler is None:
        errorhandler = default_unicode_error_encode
    result = []
    if byteorder == 'native':
        _store_unit(result, 0xFEFF, BYTEORDER, width)
        byteorder = BYTEORDER
    pos = 0
    while pos < size:
        c = ord(s[pos])
        pos += 1
        if allow_surrogates or not _refuses(c, width):
            if width == 2 and c >= 0x10000:
                _store_unit(result, 0xD800 + ((c - 0x10000) >> 10), byteorder, 2)
                _store_unit(result, 0xDC00 + ((c - 0x10000) & 0x3FF), byteorder, 2)
            else:
                _store_unit(result, c, byteorder, width)
            continue
        ru, rs, pos = errorhandler(errors, encoding, 'surrogates not allowed',
                                   s, pos - 1, pos)
        if rs is not None:
            # bytes given as they are: whole code units only
            if len(rs) % width != 0:
                errorhandler('strict', encoding, 'surrogates not allowed', s, pos - 1, pos)
            result.append(rs)
            continue
        for r in ru:
            if ord(r) >= 0xD800:
                errorhandler('strict', encoding, 'surrogates not allowed', s, pos - 1, pos)
            else:
                _store_unit(result, ord(r), byteorder, width)
    return ''.join(result)


def str_decode_utf_16_helper(s, size, errors, final=True, errorhandler=None,
                             byteorder="native", public_encoding_name='utf16'):
    return _decode_fixed_width(s, size, errors, final, errorhandler, byteorder,
                               public_encoding_name, 2)


def str_decode_utf_16(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_16_helper(s, size, errors, final, errorhandler, "native")
    return u, n


def str_decode_utf_16_be(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_16_helper(s, size, errors, final, errorhandler, "big")
    return u, n


def str_decode_utf_16_le(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_16_helper(s, size, errors, final, errorhandler, "little")
    return u, n


def unicode_encode_utf_16_helper(s, size, errors, errorhandler=None,
                                 allow_surrogates=True, byteorder='little',
                                 public_encoding_name='utf16'):
    return _encode_fixed_width(s, size, errors, errorhandler, allow_surrogates,
                               byteorder, public_encoding_name, 2)


def unicode_encode_utf_16(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_16_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "native")


def unicode_encode_utf_16_be(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_16_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "big")


def unicode_encode_utf_16_le(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_16_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "little")


def str_decode_utf_32_helper(s, size, errors, final=True, errorhandler=None,
                             byteorder="native", public_encoding_name='utf32'):
    return _decode_fixed_width(s, size, errors, final, errorhandler, byteorder,
                               public_encoding_name, 4)


def str_decode_utf_32(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_32_helper(s, size, errors, final, errorhandler, "native")
    return u, n


def str_decode_utf_32_be(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_32_helper(s, size, errors, final, errorhandler, "big")
    return u, n


def str_decode_utf_32_le(s, size, errors, final=True, errorhandler=None):
    u, n, bo = str_decode_utf_32_helper(s, size, errors, final, errorhandler, "little")
    return u, n


def unicode_encode_utf_32_helper(s, size, errors, errorhandler=None,
                                 allow_surrogates=True, byteorder='little',
                                 public_encoding_name='utf32'):
    return _encode_fixed_width(s, size, errors, errorhandler, allow_surrogates,
                               byteorder, public_encoding_name, 4)


def unicode_encode_utf_32(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_32_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "native")


def unicode_encode_utf_32_be(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_32_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "big")


def unicode_encode_utf_32_le(s, size, errors, errorhandler=None, allow_surrogates=True):
    return unicode_encode_utf_32_helper(s, size, errors, errorhandler,
                                        allow_surrogates, "little")


# ---- charmap: a dict from characters to characters (None: Latin-1)

ERROR_CHAR = u'\ufffe'


def str_decode_charmap(s, size, errors, final=False, errorhandler=None, mapping=None):
    """A byte the mapping lacks (or maps to U+FFFE) is an error."""
    if mapping is None:
        return str_decode_latin_1(s, size, errors, final, errorhandler)
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    result = []
    pos = 0
    while pos < size:
        mapped = mapping.get(s[pos], ERROR_CHAR)
        if mapped != ERROR_CHAR:
            result.append(mapped)
            pos += 1
        else:
            r, pos = errorhandler(errors, "charmap", "character maps to <undefined>",
                                  s, pos, pos + 1)
            result.append(r)
    return u''.join(result), pos


def unicode_encode_charmap(s, size, errors, errorhandler=None, mapping=None):
    """A run of characters the mapping lacks (or maps to '') is one error; each
    character of the handler's replacement is mapped in turn."""
    if mapping is None:
        return unicode_encode_latin_1(s, size, errors, errorhandler)
    if errorhandler is None:
        errorhandler = default_unicode_error_encode
    result = []
    pos = 0
    while pos < size:
        c = mapping.get(s[pos], '')
        if len(c) > 0:
            result.append(c)
            pos += 1
            continue
        end = pos + 1
        while end < size and mapping.get(s[end], '') == '':
            end += 1
        ru, rs, pos = errorhandler(errors, "charmap", "character maps to <undefined>",
                                   s, pos, end)
        if rs is not None:
            result.append(rs)
            continue
        for r in ru:
            c2 = mapping.get(r, '')
            if len(c2) == 0:
                errorhandler("strict", "charmap", "character maps to <undefined>",
                             s, pos, pos + 1)
            result.append(c2)
    return ''.join(result)


# ---- unicode-escape and raw-unicode-escape

hexdigits = "0123456789ABCDEFabcdef"


def _read_hex(s, pos, digits):
    """`(True, value)` for the `digits` characters at `pos` read by int(x, 16) (so a
    sign or blanks pass; a negative value wraps to a huge one), `(False, 0)` when the
    input is too short or they do not read as a number."""
    if pos + digits > len(s):
        return False, r_uint(0)
    try:
        value = int(s[pos:pos + digits], 16)
    except ValueError:
        return False, r_uint(0)
    return True, r_uint(value)


def hexescape(builder, s, pos, digits, encoding, errorhandler, message, errors):
    """Appends to the list `builder` the character that the `digits` hex digits at `pos`
    stand for (the escape's backslash and letter come just before); the position after
    it. Digits that are cut short or not a number are an error over the escape up to
    the hex digits that follow it; a value beyond U+10FFFF one over the whole escape."""
    readable, code = _read_hex(s, pos, digits)
    if readable and code <= r_uint(MAXUNICODE):
        builder.append(unichr(intmask(code)))
        return pos + digits
    if readable:
        r, pos = errorhandler(errors, encoding, "illegal Unicode character",
                              s, pos - 2, pos + digits)
    else:
        stop = pos
        while stop < len(s) and s[stop] in hexdigits:
            stop += 1
        r, pos = errorhandler(errors, encoding, message, s, pos - 2, stop)
    builder.append(r)
    return pos


_SIMPLE_ESCAPES = {'\\': u'\\', '\'': u'\'', '"': u'"', 'b': u'\b', 'f': u'\f',
                   't': u'\t', 'n': u'\n', 'r': u'\r', 'v': u'\v', 'a': u'\a'}


def str_decode_unicode_escape(s, size, errors, final=False, errorhandler=None,
                              unicodedata_handler=None):
    """Python's escapes; without a unicodedata handler `\\N` stays as it is."""
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    if size == 0:
        return u'', 0
    result = []
    pos = 0
    while pos < size:
        ch = s[pos]
        pos += 1
        if ch != '\\':
            result.append(unichr(ord(ch)))
            continue
        if pos >= size:
            r, pos = errorhandler(errors, "unicodeescape", "\\ at end of string",
                                  s, pos - 1, size)
            result.append(r)
            continue
        ch = s[pos]
        pos += 1
        if ch == '\n':
            continue
        simple = _SIMPLE_ESCAPES.get(ch, u'')
        if simple:
            result.append(simple)
        elif '0' <= ch <= '7':
            # up to three octal digits
            code = ord(ch) - ord('0')
            k = 1
            while k < 3 and pos < size and '0' <= s[pos] <= '7':
                code = (code << 3) + ord(s[pos]) - ord('0')
                pos += 1
                k += 1
            result.append(unichr(code))
        elif ch == 'x':
            pos = hexescape(result, s, pos, 2, "unicodeescape", errorhandler,
                            "truncated \\xXX escape", errors)
        elif ch == 'u':
            pos = hexescape(result, s, pos, 4, "unicodeescape", errorhandler,
                            "truncated \\uXXXX escape", errors)
        elif ch == 'U':
            pos = hexescape(result, s, pos, 8, "unicodeescape", errorhandler,
                            "truncated \\UXXXXXXXX escape", errors)
        else:
            result.append(u'\\')
            result.append(unichr(ord(ch)))
    return u''.join(result), pos


_HEX = '0123456789abcdef'


def raw_unicode_escape_helper(result, code):
    """`\\xhh`, `\\uhhhh` or `\\Uhhhhhhhh` (lowercase digits) appended to `result`."""
    if code >= 0x10000 or code < 0:
        result.append("\\U")
        n = 8
    elif code >= 0x100:
        result.append("\\u")
        n = 4
    else:
        result.append("\\x")
        n = 2
    i = n - 1
    while i >= 0:
        result.append(_HEX[(code >> (4 * i)) & 0x0f])
        i -= 1


def unicode_encode_unicode_escape(s, size, errors, errorhandler=None):
    """Printable ASCII as it is (a backslash doubled), tab, newline and return as
    `\\t \\n \\r`, every other character as a hex escape."""
    result = []
    pos = 0
    while pos < size:
        oc = ord(s[pos])
        if oc == 9:
            result.append('\\t')
        elif oc == 10:
            result.append('\\n')
        elif oc == 13:
            result.append('\\r')
        elif oc == 92:
            result.append('\\\\')
        elif oc < 32 or oc >= 0x7F:
            raw_unicode_escape_helper(result, oc)
        else:
            result.append(chr(oc))
        pos += 1
    return ''.join(result)


def str_decode_raw_unicode_escape(s, size, errors, final=False, errorhandler=None):
    """Only `\\uXXXX` and `\\UXXXXXXXX` after an odd number of backslashes are escapes;
    every other byte is the code point of its value."""
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    result = []
    pos = 0
    while pos < size:
        if s[pos] != '\\':
            result.append(unichr(ord(s[pos])))
            pos += 1
            continue
        after = pos
        while after < size and s[after] == '\\':
            after += 1
        count = after - pos
        escape = (count % 2 == 1 and after < size and
                  (s[after] == 'u' or s[after] == 'U'))
        if escape:
            # the last backslash belongs to the escape
            count -= 1
        for i in range(count):
            result.append(u'\\')
        if not escape:
            pos = after
            continue
        digits = 8
        if s[after] == 'u':
            digits = 4
        pos = hexescape(result, s, after + 1, digits, "rawunicodeescape", errorhandler,
                        "truncated \\uXXXX", errors)
    return u''.join(result), pos


def unicode_encode_raw_unicode_escape(s, size, errors, errorhandler=None):
    """Latin-1 characters as they are, the others as `\\uXXXX` / `\\UXXXXXXXX`."""
    result = []
    pos = 0
    while pos < size:
        oc = ord(s[pos])
        if oc < 0x100:
            result.append(chr(oc))
        else:
            raw_unicode_escape_helper(result, oc)
        pos += 1
    return ''.join(result)


# ---- UTF-7 (RFC 2152)

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# the ASCII characters the encoder writes as themselves: RFC 2152's set D, its optional
# set O and the whitespace tab, LF, CR and space ('+', '\\', '~' and the control
# characters are written in base 64)
_UTF7_DIRECT = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:?"
                "!\"#$%&*;<=>@[]^_`{|}" + "\t\n\r ")


def _utf7_direct(c):
    return 0 < c < 128 and chr(c) in _UTF7_DIRECT


def _utf7_is_b64(c):
    # a character of the base-64 alphabet (what ends a shift sequence without '-')
    return c < 128 and (chr(c).isalnum() or c == ord('+') or c == ord('/'))


def _utf7_b64_value(ch):
    if 'A' <= ch <= 'Z':
        return ord(ch) - ord('A')
    if 'a' <= ch <= 'z':
        return ord(ch) - ord('a') + 26
    if '0' <= ch <= '9':
        return ord(ch) - ord('0') + 52
    if ch == '+':
        return 62
    return 63


def unicode_encode_utf_7(s, size, errors, errorhandler=None):
    result = []
    shifted = False
    nbits = 0      # bits waiting in `acc` to be written
    acc = 0
    pos = 0
    while pos < size:
        c = ord(s[pos])
        pos += 1
        if _utf7_direct(c):
            if shifted:
                if nbits > 0:
                    result.append(_B64[(acc << (6 - nbits)) & 0x3f])
                    nbits = 0
                    acc = 0
                shifted = False
                # a base-64 character or '-' after the sequence needs the explicit end
                if _utf7_is_b64(c) or c == ord('-'):
                    result.append('-')
            result.append(chr(c))
            continue
        if not shifted:
            if c == ord('+'):
                result.append('+-')
                continue
            result.append('+')
            shifted = True
        if c >= 0x10000:
            units = [0xd800 | ((c - 0x10000) >> 10), 0xdc00 | ((c - 0x10000) & 0x3ff)]
        else:
            units = [c]
        for unit in units:
            acc = (acc << 16) | unit
            nbits += 16
            while nbits >= 6:
                result.append(_B64[(acc >> (nbits - 6)) & 0x3f])
                nbits -= 6
            acc &= (1 << nbits) - 1
    if nbits > 0:
        result.append(_B64[(acc << (6 - nbits)) & 0x3f])
    if shifted:
        result.append('-')
    return ''.join(result)


def str_decode_utf_7(s, size, errors, final=False, errorhandler=None):
    if errorhandler is None:
        errorhandler = default_unicode_error_decode
    result = []
    pos = 0
    shifted = False
    nbits = 0
    acc = 0
    high = 0           # a high surrogate waiting for its low half
    seq_in = 0         # where the current shift sequence starts: its '+'
    seq_out = 0        # and the output then
    while pos < size:
        ch = s[pos]
        c = ord(ch)
        if shifted:
            if _utf7_is_b64(c):
                acc = (acc << 6) | _utf7_b64_value(ch)
                nbits += 6
                pos += 1
                if nbits < 16:
                    continue
                unit = acc >> (nbits - 16)
                nbits -= 16
                acc &= (1 << nbits) - 1
                if high:
                    if 0xdc00 <= unit <= 0xdfff:
                        result.append(UNICHR(0x10000 + ((high & 0x3ff) << 10) + (unit & 0x3ff)))
                        high = 0
                        continue
                    result.append(unichr(high))
                    high = 0
                if 0xd800 <= unit <= 0xdbff:
                    high = unit
                else:
                    result.append(unichr(unit))
                continue
            # the character ends the sequence: what is left must be zero padding
            shifted = False
            if nbits >= 6 or (nbits > 0 and acc != 0):
                if nbits >= 6:
                    msg = "partial character in shift sequence"
                else:
                    msg = "non-zero padding bits in shift sequence"
                r, pos = errorhandler(errors, 'utf7', msg, s, pos, pos + 1)
                result.append(r)
                continue
            if high and c <= 127 and ch != '+':
                result.append(unichr(high))
            high = 0
            if ch == '-':
                pos += 1
        elif ch == '+':
            seq_in = pos
            pos += 1
            if pos < size and s[pos] == '-':
                result.append(u'+')
                pos += 1
            else:
                shifted = True
                high = 0
                nbits = 0
                acc = 0
                seq_out = len(result)
        elif c <= 127:
            result.append(unichr(c))
            pos += 1
        else:
            r, pos = errorhandler(errors, 'utf7', "unexpected special character",
                                  s, pos, pos + 1)
            result.append(r)
    if shifted and final:
        if high or nbits >= 6 or (nbits > 0 and acc != 0):
            # (the reference gives the output position where the sequence started)
            r, pos = errorhandler(errors, 'utf7', "unterminated shift sequence",
                                  s, seq_out, pos)
            result.append(r)
    elif shifted:
        # an unfinished sequence is left for the next call
        pos = seq_in
        result = result[:seq_out]
    return u''.join(result), pos
