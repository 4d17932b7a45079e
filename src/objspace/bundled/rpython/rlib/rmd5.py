"""rpy-lsp's model of `rpython.rlib.rmd5`: MD5 (RFC 1321) in RPython, over 32-bit words
held in r_uint. `RMD5(data)`, `update`, `digest`, `hexdigest`, `copy` as the reference's;
digest() leaves the object usable (it pads a copy of the state)."""
import math
from rpython.rlib.rarithmetic import r_uint, r_ulonglong, intmask

MASK = r_uint(0xffffffff)
HEX = '0123456789abcdef'
digest_size = digestsize = 16

# T[i] = floor(|sin(i + 1)| * 2**32), as RFC 1321 defines the table.
_T = [r_uint(int(math.floor(abs(math.sin(i + 1)) * 4294967296.0))) for i in range(64)]
_SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def _compress(h, block, start):
    """Mixes the 64 bytes of `block` from `start` into the four words of `h`."""
    x = [r_uint(0)] * 16
    i = 0
    while i < 16:
        j = start + 4 * i
        x[i] = (r_uint(ord(block[j])) | (r_uint(ord(block[j + 1])) << 8) |
                (r_uint(ord(block[j + 2])) << 16) | (r_uint(ord(block[j + 3])) << 24))
        i += 1
    a = h[0]
    b = h[1]
    c = h[2]
    d = h[3]
    i = 0
    while i < 64:
        r = i >> 4
        if r == 0:
            f = (b & c) | ((~b) & d)
            g = i
        elif r == 1:
            f = (d & b) | ((~d) & c)
            g = (5 * i + 1) & 15
        elif r == 2:
            f = b ^ c ^ d
            g = (3 * i + 5) & 15
        else:
            f = c ^ (b | ((~d) & MASK))
            g = (7 * i) & 15
        tmp = d
        d = c
        c = b
        b = (b + _rotl((a + (f & MASK) + _T[i] + x[g]) & MASK, _SHIFTS[4 * r + (i & 3)])) & MASK
        a = tmp
        i += 1
    h[0] = (h[0] + a) & MASK
    h[1] = (h[1] + b) & MASK
    h[2] = (h[2] + c) & MASK
    h[3] = (h[3] + d) & MASK


class RMD5(object):
    def __init__(self, initialdata=''):
        self._h = [r_uint(0x67452301), r_uint(0xefcdab89), r_uint(0x98badcfe),
                   r_uint(0x10325476)]
        self._pending = ''
        self._count = r_ulonglong(0)
        self.update(initialdata)

    def update(self, data):
        self._count += r_ulonglong(len(data))
        buf = self._pending + data
        pos = 0
        while pos + 64 <= len(buf):
            _compress(self._h, buf, pos)
            pos += 64
        self._pending = buf[pos:]

    def _final(self):
        h = self._h[:]
        bits = self._count << 3
        tail = self._pending + '\x80'
        while len(tail) % 64 != 56:
            tail += '\x00'
        i = 0
        while i < 8:
            tail += chr(intmask((bits >> (8 * i)) & r_ulonglong(0xff)))
            i += 1
        pos = 0
        while pos < len(tail):
            _compress(h, tail, pos)
            pos += 64
        return h

    def digest(self):
        out = ''
        for word in self._final():
            i = 0
            while i < 4:
                out += chr(intmask((word >> (8 * i)) & r_uint(0xff)))
                i += 1
        return out

    def hexdigest(self):
        out = ''
        for c in self.digest():
            n = ord(c)
            out += HEX[n >> 4] + HEX[n & 15]
        return out

    def copy(self):
        clone = RMD5()
        clone._h = self._h[:]
        clone._pending = self._pending
        clone._count = self._count
        return clone


new = RMD5
