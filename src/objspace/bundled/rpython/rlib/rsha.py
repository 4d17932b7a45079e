"""rpy-lsp's model of `rpython.rlib.rsha`: SHA-1 (FIPS 180) in RPython, over 32-bit words
held in r_uint. `RSHA(data)`, `update`, `digest`, `hexdigest`, `copy` as the reference's;
digest() leaves the object usable (it pads a copy of the state)."""
from rpython.rlib.rarithmetic import r_uint, r_ulonglong, intmask

MASK = r_uint(0xffffffff)
HEX = '0123456789abcdef'
blocksize = 1
digest_size = digestsize = 20


def _rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def _compress(h, block, start):
    """Mixes the 64 bytes of `block` from `start` into the five words of `h`."""
    w = [r_uint(0)] * 80
    i = 0
    while i < 16:
        j = start + 4 * i
        w[i] = ((r_uint(ord(block[j])) << 24) | (r_uint(ord(block[j + 1])) << 16) |
                (r_uint(ord(block[j + 2])) << 8) | r_uint(ord(block[j + 3])))
        i += 1
    while i < 80:
        w[i] = _rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)
        i += 1
    a = h[0]
    b = h[1]
    c = h[2]
    d = h[3]
    e = h[4]
    t = 0
    while t < 80:
        if t < 20:
            f = (b & c) | ((~b) & d)
            k = r_uint(0x5A827999)
        elif t < 40:
            f = b ^ c ^ d
            k = r_uint(0x6ED9EBA1)
        elif t < 60:
            f = (b & c) | (b & d) | (c & d)
            k = r_uint(0x8F1BBCDC)
        else:
            f = b ^ c ^ d
            k = r_uint(0xCA62C1D6)
        tmp = (_rotl(a, 5) + (f & MASK) + e + k + w[t]) & MASK
        e = d
        d = c
        c = _rotl(b, 30)
        b = a
        a = tmp
        t += 1
    h[0] = (h[0] + a) & MASK
    h[1] = (h[1] + b) & MASK
    h[2] = (h[2] + c) & MASK
    h[3] = (h[3] + d) & MASK
    h[4] = (h[4] + e) & MASK


class RSHA(object):
    def __init__(self, initialdata=''):
        self._h = [r_uint(0x67452301), r_uint(0xEFCDAB89), r_uint(0x98BADCFE),
                   r_uint(0x10325476), r_uint(0xC3D2E1F0)]
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
        i = 7
        while i >= 0:
            tail += chr(intmask((bits >> (8 * i)) & r_ulonglong(0xff)))
            i -= 1
        pos = 0
        while pos < len(tail):
            _compress(h, tail, pos)
            pos += 64
        return h

    def digest(self):
        out = ''
        for word in self._final():
            i = 3
            while i >= 0:
                out += chr(intmask((word >> (8 * i)) & r_uint(0xff)))
                i -= 1
        return out

    def hexdigest(self):
        out = ''
        for c in self.digest():
            n = ord(c)
            out += HEX[n >> 4] + HEX[n & 15]
        return out

    def copy(self):
        clone = RSHA()
        clone._h = self._h[:]
        clone._pending = self._pending
        clone._count = self._count
        return clone


sha = RSHA
new = RSHA
