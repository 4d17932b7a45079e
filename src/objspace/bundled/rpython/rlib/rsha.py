"""rpy-lsp's model of `rpython.rlib.rsha`: SHA-1 (FIPS 180) in RPython, over 32-bit words
held in r_uint. `RSHA(data)`, `update`, `digest`, `hexdigest`, `copy` as the reference's;
digest() leaves the object usable (it pads a copy of the state)."""
from rpython.rlib.rarithmetic import r_uint
from rpython.rlib._blockhash import BlockHash, MASK, HEX, rotl, read_word

blocksize = 1
digest_size = digestsize = 20


def _compress(h, block, start):
    """Mixes the 64 bytes of `block` from `start` into the five words of `h`."""
    w = [r_uint(0)] * 80
    i = 0
    while i < 16:
        w[i] = read_word(block, start + 4 * i, True)
        i += 1
    while i < 80:
        w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)
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
        tmp = (rotl(a, 5) + (f & MASK) + e + k + w[t]) & MASK
        e = d
        d = c
        c = rotl(b, 30)
        b = a
        a = tmp
        t += 1
    h[0] = (h[0] + a) & MASK
    h[1] = (h[1] + b) & MASK
    h[2] = (h[2] + c) & MASK
    h[3] = (h[3] + d) & MASK
    h[4] = (h[4] + e) & MASK


class RSHA(BlockHash):
    _initial = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
    _big_endian = True

    def _compress(self, h, block, start):
        _compress(h, block, start)

    def _new(self):
        return RSHA()


sha = RSHA
new = RSHA
