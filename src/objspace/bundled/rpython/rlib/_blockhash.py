"""What rpy-lsp's models of `rmd5` and `rsha` share (not a module of the reference): the
64-byte blocks mixed into 32-bit chaining words held in r_uint, the message length counted
in bits, the final padding (0x80, zeros, the length in 8 bytes) and the digest. MD5
writes its words little-endian, SHA-1 big-endian. A subclass gives `_initial` (the words
to start from), `_big_endian`, `_compress(h, block, start)` and `_new()` (an empty
object of its class)."""
from rpython.rlib.rarithmetic import r_uint, r_ulonglong, intmask

MASK = r_uint(0xffffffff)
HEX = '0123456789abcdef'


def rotl(x, n):
    """The 32-bit word x rotated left by n bits."""
    return ((x << n) | (x >> (32 - n))) & MASK


def read_word(block, j, big_endian):
    """The 32-bit word of the 4 bytes of `block` from `j`."""
    word = r_uint(0)
    k = 0
    while k < 4:
        if big_endian:
            byte = ord(block[j + k])
        else:
            byte = ord(block[j + 3 - k])
        word = (word << 8) | r_uint(byte)
        k += 1
    return word


def word_bytes(word, big_endian):
    """The 4 bytes of the 32-bit word."""
    out = ''
    k = 0
    while k < 4:
        if big_endian:
            shift = 8 * (3 - k)
        else:
            shift = 8 * k
        out += chr(intmask((word >> shift) & r_uint(0xff)))
        k += 1
    return out


class BlockHash(object):
    _initial = []
    _big_endian = False

    def __init__(self, initialdata=''):
        self._h = [r_uint(w) for w in self._initial]
        self._pending = ''
        self._count = r_ulonglong(0)
        self.update(initialdata)

    def _compress(self, h, block, start):
        raise NotImplementedError

    def _new(self):
        raise NotImplementedError

    def update(self, data):
        self._count += r_ulonglong(len(data))
        buf = self._pending + data
        pos = 0
        while pos + 64 <= len(buf):
            self._compress(self._h, buf, pos)
            pos += 64
        self._pending = buf[pos:]

    def _final(self):
        """The chaining words after the padding, on a copy: the object stays usable."""
        h = self._h[:]
        bits = self._count << 3
        low = word_bytes(r_uint(bits) & MASK, self._big_endian)
        high = word_bytes(r_uint(bits >> 32) & MASK, self._big_endian)
        tail = self._pending + '\x80'
        while len(tail) % 64 != 56:
            tail += '\x00'
        if self._big_endian:
            tail += high + low
        else:
            tail += low + high
        pos = 0
        while pos < len(tail):
            self._compress(h, tail, pos)
            pos += 64
        return h

    def digest(self):
        out = ''
        for word in self._final():
            out += word_bytes(word, self._big_endian)
        return out

    def hexdigest(self):
        out = ''
        for c in self.digest():
            n = ord(c)
            out += HEX[n >> 4] + HEX[n & 15]
        return out

    def copy(self):
        clone = self._new()
        clone._h = self._h[:]
        clone._pending = self._pending
        clone._count = self._count
        return clone
