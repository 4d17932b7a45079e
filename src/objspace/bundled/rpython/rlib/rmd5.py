"""rpy-lsp's model of `rpython.rlib.rmd5`: MD5 (RFC 1321) in RPython, over 32-bit words
held in r_uint. `RMD5(data)`, `update`, `digest`, `hexdigest`, `copy` as the reference's;
digest() leaves the object usable (it pads a copy of the state)."""
import math
from rpython.rlib.rarithmetic import r_uint
from rpython.rlib._blockhash import BlockHash, MASK, HEX, rotl, read_word

digest_size = digestsize = 16

# T[i] = floor(|sin(i + 1)| * 2**32), as RFC 1321 defines the table.
_T = [r_uint(int(math.floor(abs(math.sin(i + 1)) * 4294967296.0))) for i in range(64)]
_SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]


def _compress(h, block, start):
    """Mixes the 64 bytes of `block` from `start` into the four words of `h`."""
    x = [r_uint(0)] * 16
    i = 0
    while i < 16:
        x[i] = read_word(block, start + 4 * i, False)
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
        b = (b + rotl((a + (f & MASK) + _T[i] + x[g]) & MASK, _SHIFTS[4 * r + (i & 3)])) & MASK
        a = tmp
        i += 1
    h[0] = (h[0] + a) & MASK
    h[1] = (h[1] + b) & MASK
    h[2] = (h[2] + c) & MASK
    h[3] = (h[3] + d) & MASK


class RMD5(BlockHash):
    _initial = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
    _big_endian = False

    def _compress(self, h, block, start):
        _compress(h, block, start)

    def _new(self):
        return RMD5()


new = RMD5
