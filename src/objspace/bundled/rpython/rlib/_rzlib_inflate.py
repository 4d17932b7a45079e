"""zlib's inflate() for rpy-lsp's model of `rpython.rlib.rzlib`, in RPython.

A resumable decoder of deflate data (RFC 1951) in a zlib wrapper (RFC 1950), a gzip one
(RFC 1952), either (`wbits` 32 + n), or raw, with zlib's CRC-32 and Adler-32. What
a caller sees is zlib's, not only the output: input is taken a byte at a time, only when
the bits held are not enough for what is decoded next, so the input a call leaves unused
is zlib's; when the output space is full, the next symbol is still decoded (zlib stops at
the literal or the copy that finds no room); a call that makes no progress is Z_BUF_ERROR;
errors carry zlib's messages. Huffman codes are decoded bit by bit over canonical code
counts (a code is taken once the bits held determine it, as zlib's table lookups do).
"""
from rpython.rlib.rarithmetic import r_uint, intmask

Z_OK = 0
Z_STREAM_END = 1
Z_NEED_DICT = 2
Z_DATA_ERROR = -3
Z_BUF_ERROR = -5
Z_FINISH = 4

# decoder states, in the order zlib's inflate() goes through them
HEAD = 0
DICTID = 1
TYPEDO = 2
STORED = 3
COPY = 4
TABLE = 5
LENLENS = 6
CODELENS = 7
LEN = 8
LENEXT = 9
DIST = 10
DISTEXT = 11
MATCH = 12
LIT = 13
CHECK = 14
DONE = 15
BAD = 16
DICT = 17
# the gzip header's fields, and the trailer's length
FLAGS = 18
TIME = 19
OS = 20
EXLEN = 21
EXTRA = 22
NAME = 23
COMMENT = 24
HCRC = 25
LENGTH = 26

LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67,
            83, 99, 115, 131, 163, 195, 227, 258]
LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5,
             5, 5, 0]
DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
             1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11,
              11, 12, 12, 13, 13]
# the order in which the code lengths of the code-length code come
ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

MAXBITS = 15
NEED_MORE = -1
INVALID = -2


class Huffman(object):
    """A canonical Huffman code: how many codes of each length, and the symbols in
    code order."""

    def __init__(self, count, symbol, maxlen):
        self.count = count
        self.symbol = symbol
        self.maxlen = maxlen


def build_huffman(lens, start, n, codes_kind):
    """The code of the `n` lengths from `lens[start]`, or None when zlib refuses the set:
    over-subscribed, or incomplete (except one code of one bit, and no code at all);
    `codes_kind` for the code-length code, which must be complete."""
    count = [0] * (MAXBITS + 1)
    for i in range(n):
        count[lens[start + i]] += 1
    maxlen = MAXBITS
    while maxlen >= 1 and count[maxlen] == 0:
        maxlen -= 1
    offs = [0] * (MAXBITS + 2)
    for l in range(1, MAXBITS + 1):
        offs[l + 1] = offs[l] + count[l]
    symbol = [0] * n
    for i in range(n):
        l = lens[start + i]
        if l != 0:
            symbol[offs[l]] = i
            offs[l] += 1
    if maxlen == 0:
        return Huffman(count, symbol, 0)
    left = 1
    for l in range(1, MAXBITS + 1):
        left = (left << 1) - count[l]
        if left < 0:
            return None
    if left > 0 and (codes_kind or maxlen != 1):
        return None
    return Huffman(count, symbol, maxlen)


def fixed_codes():
    lens = [8] * 288
    for i in range(144, 256):
        lens[i] = 9
    for i in range(256, 280):
        lens[i] = 7
    lencode = build_huffman(lens, 0, 288, False)
    dist = [5] * 32
    distcode = build_huffman(dist, 0, 32, False)
    return lencode, distcode

FIXED_LEN, FIXED_DIST = fixed_codes()


def _crc_table():
    # the table of the reflected CRC-32 polynomial 0xedb88320, one entry per byte value
    table = []
    for n in range(256):
        c = n
        for k in range(8):
            if c & 1:
                c = 0xedb88320 ^ (c >> 1)
            else:
                c = c >> 1
        table.append(r_uint(c))
    return table

_CRC_TABLE = _crc_table()
_MASK = r_uint(0xffffffff)


def crc32_update(crc, s):
    """The CRC-32 of `s` continuing from `crc`, as zlib's crc32()."""
    crc = (crc & _MASK) ^ _MASK
    for ch in s:
        crc = _CRC_TABLE[intmask((crc ^ r_uint(ord(ch))) & r_uint(0xff))] ^ (crc >> 8)
    return crc ^ _MASK


def adler32_update(adler, s):
    a = adler & r_uint(0xffff)
    b = (adler >> 16) & r_uint(0xffff)
    base = r_uint(65521)
    n = 0
    for ch in s:
        a += r_uint(ord(ch))
        b += a
        n += 1
        if n == 3800:
            a = a % base
            b = b % base
            n = 0
    return ((b % base) << 16) | (a % base)


class InflateStream(object):
    """The state of one stream across calls of `inflate`."""

    def __init__(self, wbits):
        # which wrappers the stream may have: zlib's (wbits 8..15), gzip's (16 + n), either
        # (32 + n), none (negative)
        self.zlib_ok = False
        self.gzip_ok = False
        if wbits < 0:
            self.wrap = False
            self.wbits = -wbits
            self.mode = TYPEDO
        else:
            self.wrap = True
            kind = (wbits >> 4) + 1
            self.zlib_ok = (kind & 1) != 0
            self.gzip_ok = (kind & 2) != 0
            self.wbits = wbits & 15
            self.mode = HEAD
        self.gzip = False      # the stream has a gzip wrapper (its check is a CRC-32)
        self.flags = 0
        self.header = []       # the gzip header's bytes, for its own CRC
        self.total_out = 0
        self.hold = 0
        self.bits = 0
        self.last = False
        self.length = 0
        self.offset = 0
        self.extra = 0
        self.nlen = 0
        self.ndist = 0
        self.ncode = 0
        self.have = 0
        self.lens = [0] * 320
        self.lencode = FIXED_LEN
        self.distcode = FIXED_DIST
        # the output so far, for the copies (all of it: a distance beyond it is an error)
        self.window = []
        self.check = r_uint(1)
        self.msg = None
        self.ended = False
        # of the last call: the position in its input, its output
        self.pos = 0
        self.used = 0
        self.output = ""
        self._data = ""
        self._end = 0

    # ---- bits, taken from the input only when needed

    def _pull(self):
        if self.pos >= self._end:
            return False
        self.hold |= ord(self._data[self.pos]) << self.bits
        self.pos += 1
        self.bits += 8
        return True

    def _need(self, n):
        while self.bits < n:
            if not self._pull():
                return False
        return True

    def _take(self, n):
        v = self.hold & ((1 << n) - 1)
        self.hold >>= n
        self.bits -= n
        return v

    def _try_decode(self, h):
        # the symbol the held bits give (its length in `self.used`, its bits still held);
        # NEED_MORE when they do not determine it yet, INVALID for a code the set leaves
        # out
        code = 0
        first = 0
        index = 0
        l = 1
        while l <= MAXBITS:
            if l > self.bits:
                return NEED_MORE
            code |= (self.hold >> (l - 1)) & 1
            count = h.count[l]
            if code - first < count:
                self.used = l
                return h.symbol[index + code - first]
            index += count
            first += count
            first <<= 1
            code <<= 1
            if l >= h.maxlen:
                # past the longest code: not a code of the set (zlib's table marks it
                # invalid after one bit when the set has a single code or none)
                self.used = 1
                return INVALID
            l += 1
        self.used = 1
        return INVALID

    def _decode(self, h):
        # the next symbol, its bits still held (pulling input until they determine it)
        while True:
            sym = self._try_decode(h)
            if sym != NEED_MORE:
                return sym
            if not self._pull():
                return NEED_MORE

    def _bad(self, msg):
        self.msg = msg
        self.mode = BAD

    # ---- one call

    def inflate(self, data, pos, end, flush, avail_out):
        """Decodes from data[pos:end] at most `avail_out` characters: the result code;
        `self.pos` and `self.output` say what was used and made."""
        self._data = data
        self._end = end
        self.pos = pos
        start = pos
        out = []
        checked = 0    # how much of `out` self.check covers
        left = avail_out
        ret = Z_OK
        while True:
            mode = self.mode
            if mode == HEAD:
                if not self._need(16):
                    break
                if self.gzip_ok and self.hold == 0x8b1f:
                    self.gzip = True
                    self.header = ['\x1f', '\x8b']
                    self._take(16)
                    self.mode = FLAGS
                    continue
                if not self.zlib_ok or ((self.hold & 0xff) * 256 + ((self.hold >> 8) & 0xff)) % 31 != 0:
                    self._bad("incorrect header check")
                    continue
                if self.hold & 0x0f != 8:
                    self._bad("unknown compression method")
                    continue
                if ((self.hold >> 4) & 0x0f) + 8 > self.wbits:
                    self._bad("invalid window size")
                    continue
                dictid = self.hold & 0x2000
                self._take(16)
                self.check = r_uint(1)
                if dictid:
                    self.mode = DICTID
                else:
                    self.mode = TYPEDO
            elif mode == FLAGS:
                if not self._need(16):
                    break
                self.flags = self.hold & 0xffff
                if self.flags & 0xff != 8:
                    self._bad("unknown compression method")
                    continue
                if self.flags & 0xe000:
                    self._bad("unknown header flags set")
                    continue
                self._header_bytes(2)
                self.mode = TIME
            elif mode == TIME:
                if not self._need(32):
                    break
                self._header_bytes(4)
                self.mode = OS
            elif mode == OS:
                if not self._need(16):
                    break
                self._header_bytes(2)
                self.mode = EXLEN
            elif mode == EXLEN:
                if self.flags & 0x0400:
                    if not self._need(16):
                        break
                    self.length = self.hold & 0xffff
                    self._header_bytes(2)
                self.mode = EXTRA
            elif mode == EXTRA:
                if self.flags & 0x0400:
                    n = self._end - self.pos
                    if n > self.length:
                        n = self.length
                    for i in range(n):
                        self.header.append(self._data[self.pos + i])
                    self.pos += n
                    self.length -= n
                    if self.length > 0:
                        break
                self.mode = NAME
            elif mode == NAME or mode == COMMENT:
                bit = 0x0800
                if mode == COMMENT:
                    bit = 0x1000
                if self.flags & bit:
                    # up to the NUL that ends the field, which may come in a later call
                    done = False
                    while self.pos < self._end:
                        c = self._data[self.pos]
                        self.header.append(c)
                        self.pos += 1
                        if c == '\x00':
                            done = True
                            break
                    if not done:
                        break
                if mode == NAME:
                    self.mode = COMMENT
                else:
                    self.mode = HCRC
            elif mode == HCRC:
                if self.flags & 0x0200:
                    if not self._need(16):
                        break
                    want = self.hold & 0xffff
                    self._take(16)
                    if r_uint(want) != crc32_update(r_uint(0), "".join(self.header)) & r_uint(0xffff):
                        self._bad("header crc mismatch")
                        continue
                self.header = []
                self.check = r_uint(0)
                self.mode = TYPEDO
            elif mode == DICTID:
                if not self._need(32):
                    break
                self._take(32)
                self.mode = DICT
            elif mode == DICT:
                ret = Z_NEED_DICT
                break
            elif mode == TYPEDO:
                if self.last:
                    self._take(self.bits & 7)
                    if self.wrap:
                        self.mode = CHECK
                    else:
                        self.mode = DONE
                    continue
                if not self._need(3):
                    break
                self.last = self._take(1) == 1
                kind = self._take(2)
                if kind == 0:
                    self.mode = STORED
                elif kind == 1:
                    self.lencode = FIXED_LEN
                    self.distcode = FIXED_DIST
                    self.mode = LEN
                elif kind == 2:
                    self.mode = TABLE
                else:
                    self._bad("invalid block type")
            elif mode == STORED:
                self._take(self.bits & 7)
                if not self._need(32):
                    break
                if (self.hold & 0xffff) != ((self.hold >> 16) ^ 0xffff):
                    self._bad("invalid stored block lengths")
                    continue
                self.length = self.hold & 0xffff
                self.hold = 0
                self.bits = 0
                self.mode = COPY
            elif mode == COPY:
                n = self.length
                if n == 0:
                    self.mode = TYPEDO
                    continue
                if n > self._end - self.pos:
                    n = self._end - self.pos
                if n > left:
                    n = left
                if n == 0:
                    break
                for i in range(n):
                    c = self._data[self.pos + i]
                    out.append(c)
                    self.window.append(c)
                self.pos += n
                left -= n
                self.length -= n
            elif mode == TABLE:
                if not self._need(14):
                    break
                self.nlen = self._take(5) + 257
                self.ndist = self._take(5) + 1
                self.ncode = self._take(4) + 4
                if self.nlen > 286 or self.ndist > 30:
                    self._bad("too many length or distance symbols")
                    continue
                self.have = 0
                self.mode = LENLENS
            elif mode == LENLENS:
                stop = False
                while self.have < self.ncode:
                    if not self._need(3):
                        stop = True
                        break
                    self.lens[ORDER[self.have]] = self._take(3)
                    self.have += 1
                if stop:
                    break
                while self.have < 19:
                    self.lens[ORDER[self.have]] = 0
                    self.have += 1
                code = build_huffman(self.lens, 0, 19, True)
                if code is None:
                    self._bad("invalid code lengths set")
                    continue
                self.lencode = code
                self.have = 0
                self.mode = CODELENS
            elif mode == CODELENS:
                if not self._code_lengths():
                    break
            elif mode == LEN:
                sym = self._decode(self.lencode)
                if sym == NEED_MORE:
                    break
                self._take(self.used)
                if sym == INVALID or sym >= 286:
                    self._bad("invalid literal/length code")
                elif sym < 256:
                    self.length = sym
                    self.mode = LIT
                elif sym == 256:
                    self.mode = TYPEDO
                else:
                    self.length = LEN_BASE[sym - 257]
                    self.extra = LEN_EXTRA[sym - 257]
                    self.mode = LENEXT
            elif mode == LENEXT:
                if not self._need(self.extra):
                    break
                self.length += self._take(self.extra)
                self.mode = DIST
            elif mode == DIST:
                sym = self._decode(self.distcode)
                if sym == NEED_MORE:
                    break
                self._take(self.used)
                if sym == INVALID or sym >= 30:
                    self._bad("invalid distance code")
                    continue
                self.offset = DIST_BASE[sym]
                self.extra = DIST_EXTRA[sym]
                self.mode = DISTEXT
            elif mode == DISTEXT:
                if not self._need(self.extra):
                    break
                self.offset += self._take(self.extra)
                if self.offset > len(self.window):
                    self._bad("invalid distance too far back")
                    continue
                self.mode = MATCH
            elif mode == MATCH:
                if left == 0:
                    break
                n = self.length
                if n > left:
                    n = left
                w = self.window
                src = len(w) - self.offset
                for i in range(n):
                    c = w[src + i]
                    out.append(c)
                    w.append(c)
                left -= n
                self.length -= n
                if self.length == 0:
                    self.mode = LEN
            elif mode == LIT:
                if left == 0:
                    break
                c = chr(self.length)
                out.append(c)
                self.window.append(c)
                left -= 1
                self.mode = LEN
            elif mode == CHECK:
                if not self._need(32):
                    break
                h = self.hold
                if self.gzip:
                    want = h & 0xffffffff
                else:
                    # zlib's Adler-32 is big-endian
                    want = ((h & 0xff) << 24) | (((h >> 8) & 0xff) << 16) | (((h >> 16) & 0xff) << 8) | ((h >> 24) & 0xff)
                self._update_check("".join(out[checked:]))
                checked = len(out)
                self._take(32)
                if r_uint(want) != self.check:
                    self._bad("incorrect data check")
                    continue
                self.mode = LENGTH
            elif mode == LENGTH:
                if self.gzip:
                    if not self._need(32):
                        break
                    want = self.hold & 0xffffffff
                    self._take(32)
                    if want != (self.total_out + len(out)) & 0xffffffff:
                        self._bad("incorrect length check")
                        continue
                self.mode = DONE
            elif mode == DONE:
                ret = Z_STREAM_END
                break
            else:
                ret = Z_DATA_ERROR
                break
        self._trim_window()
        output = "".join(out)
        if self.wrap and checked < len(out):
            self._update_check("".join(out[checked:]))
        self.total_out += len(out)
        self.output = output
        self._data = ""
        if ((self.pos == start and len(output) == 0) or flush == Z_FINISH) and ret == Z_OK:
            ret = Z_BUF_ERROR
        return ret

    def _update_check(self, s):
        if self.gzip:
            self.check = crc32_update(self.check, s)
        else:
            self.check = adler32_update(self.check, s)

    def _header_bytes(self, n):
        # the n bytes (of a gzip header) held, taken and kept for the header's CRC
        for i in range(n):
            self.header.append(chr((self.hold >> (8 * i)) & 0xff))
        self._take(8 * n)

    def _code_lengths(self):
        # the lengths of the literal/length and distance codes, then the codes
        total = self.nlen + self.ndist
        while self.have < total:
            sym = self._decode(self.lencode)
            if sym == NEED_MORE:
                return False
            if sym < 16:
                self._take(self.used)
                self.lens[self.have] = sym
                self.have += 1
                continue
            # a repeat: its extra bits come with it (zlib needs both before taking any)
            if sym == 16:
                extra = 2
                base = 3
            elif sym == 17:
                extra = 3
                base = 3
            else:
                extra = 7
                base = 11
            if not self._need(self.used + extra):
                return False
            self._take(self.used)
            if sym == 16:
                if self.have == 0:
                    self._bad("invalid bit length repeat")
                    return True
                value = self.lens[self.have - 1]
            else:
                value = 0
            n = base + self._take(extra)
            if self.have + n > total:
                self._bad("invalid bit length repeat")
                return True
            for i in range(n):
                self.lens[self.have] = value
                self.have += 1
        if self.lens[256] == 0:
            self._bad("invalid code -- missing end-of-block")
            return True
        lencode = build_huffman(self.lens, 0, self.nlen, False)
        if lencode is None:
            self._bad("invalid literal/lengths set")
            return True
        distcode = build_huffman(self.lens, self.nlen, self.ndist, False)
        if distcode is None:
            self._bad("invalid distances set")
            return True
        self.lencode = lencode
        self.distcode = distcode
        self.mode = LEN
        return True

    def _trim_window(self):
        # keep the window at most twice the largest distance: copies never reach further
        n = len(self.window) - 32768
        if n > 32768:
            self.window = self.window[n:]
