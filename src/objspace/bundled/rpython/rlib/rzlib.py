"""rpy-lsp's model of `rpython.rlib.rzlib`, which the reference binds to the system zlib.
Here the checksums are written in RPython (`run` and `build` compile them like the
program): `crc32` and `adler32` give zlib's values, as unsigned words (r_uint, as the
reference's `uLong` results). zlib's constants and `RZlibError` are the reference's. The
stream functions (`deflateInit`, `compress`, `inflateInit`, `decompress`...) are not in
the model: a program using them can be checked, and `run` and `build` refuse it naming
them."""
from rpython.rlib.rarithmetic import r_uint, intmask

Z_OK = 0
Z_STREAM_END = 1
Z_NEED_DICT = 2
Z_STREAM_ERROR = -2
Z_DATA_ERROR = -3
Z_MEM_ERROR = -4
Z_BUF_ERROR = -5
Z_DEFLATED = 8
DEFLATED = Z_DEFLATED
Z_DEFAULT_STRATEGY = 0
Z_FILTERED = 1
Z_HUFFMAN_ONLY = 2
Z_DEFAULT_COMPRESSION = -1
Z_NO_FLUSH = 0
Z_SYNC_FLUSH = 2
Z_FULL_FLUSH = 3
Z_FINISH = 4
MAX_WBITS = 15
MAX_MEM_LEVEL = 9
DEF_MEM_LEVEL = 8
Z_BEST_SPEED = 1
Z_BEST_COMPRESSION = 9
OUTPUT_BUFFER_SIZE = 32 * 1024
CRC32_DEFAULT_START = 0
ADLER32_DEFAULT_START = 1


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


def crc32(string, start=CRC32_DEFAULT_START):
    """The CRC-32 of `string` continuing from `start`, as zlib's crc32()."""
    crc = (r_uint(start) & _MASK) ^ _MASK
    for ch in string:
        crc = _CRC_TABLE[intmask((crc ^ r_uint(ord(ch))) & r_uint(0xff))] ^ (crc >> 8)
    return crc ^ _MASK


def adler32(string, start=ADLER32_DEFAULT_START):
    """The Adler-32 of `string` continuing from `start`, as zlib's adler32()."""
    s = r_uint(start) & _MASK
    a = s & r_uint(0xffff)
    b = (s >> 16) & r_uint(0xffff)
    base = r_uint(65521)
    # zlib reduces a start value above the modulus only as it sums: so do we
    n = 0
    for ch in string:
        a += r_uint(ord(ch))
        b += a
        n += 1
        if n == 3800:
            a = a % base
            b = b % base
            n = 0
    a = a % base
    b = b % base
    return (b << 16) | a


class RZlibError(Exception):
    """Exception raised by failing operations in rpython.rlib.rzlib."""

    def __init__(self, msg):
        self.msg = msg

    def __str__(self):
        return self.msg
