"""rpy-lsp's model of `rpython.rlib.rzlib`, which the reference binds to the system zlib.
Here zlib's work is written in RPython (`run` and `build` compile it like the program):
`crc32` and `adler32` give zlib's values, as unsigned words (r_uint, as the reference's
`uLong` results); `inflateInit`, `decompress` and `inflateEnd` decompress zlib and raw
deflate streams (`_rzlib_inflate.py`) with zlib's results, down to how much input a call
leaves unused and its error messages. zlib's constants and `RZlibError` are the
reference's. Compression (`deflateInit`, `compress`, `deflateEnd`), whose output is zlib's
own algorithm, calls the system zlib as the reference does (`_rzlib_deflate.py`): `build`
links it, `run` loads it (`llinterp/runtime/zlib.rs`). Preset dictionaries are not in the
model."""
import sys
from rpython.rlib.rarithmetic import r_uint
from rpython.rlib._rzlib_inflate import InflateStream, crc32_update, adler32_update
from rpython.rlib import _rzlib_deflate

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


def crc32(string, start=CRC32_DEFAULT_START):
    """The CRC-32 of `string` continuing from `start`, as zlib's crc32()."""
    return crc32_update(r_uint(start), string)


def adler32(string, start=ADLER32_DEFAULT_START):
    """The Adler-32 of `string` continuing from `start`, as zlib's adler32()."""
    return adler32_update(r_uint(start) & r_uint(0xffffffff), string)


class RZlibError(Exception):
    """Exception raised by failing operations in rpython.rlib.rzlib."""

    def __init__(self, msg):
        self.msg = msg

    def __str__(self):
        return self.msg

    def fromstream(stream, err, while_doing):
        """The error of a failed zlib call on `stream`, worded as the reference's."""
        return _stream_error(stream, err, while_doing)
    fromstream = staticmethod(fromstream)


def _stream_error(stream, err, while_doing):
    return _zlib_error(stream.msg, err, while_doing)


def _zlib_error(msg, err, while_doing):
    """The RZlibError of zlib's result `err`, with zlib's message `msg` when it left one."""
    if msg is not None:
        reason = msg
    elif err == Z_MEM_ERROR:
        reason = "out of memory"
    elif err == Z_BUF_ERROR:
        reason = "incomplete or truncated stream"
    elif err == Z_STREAM_ERROR:
        reason = "inconsistent stream state"
    elif err == Z_DATA_ERROR:
        reason = "invalid input data"
    else:
        reason = ""
    if reason:
        delim = ": "
    else:
        delim = ""
    return RZlibError("Error %d %s%s%s" % (err, while_doing, delim, reason))




def inflateInit(wbits=MAX_WBITS, zdict=None):
    """A stream that decompresses (`decompress`): a zlib stream for `wbits` 8..15, a gzip
    one for 24..31, either for 40..47, raw deflate data for -15..-8."""
    if zdict is not None:
        raise RZlibError("preset dictionaries are not supported by rpy-lsp")
    if not (-15 <= wbits <= -8 or (0 < wbits < 48 and wbits & 15 >= 8)):
        raise ValueError("Invalid initialization option")
    return InflateStream(wbits)


def inflateEnd(stream):
    """Frees the stream (nothing to free here)."""
    stream.ended = True


def decompress(stream, data, flush=Z_SYNC_FLUSH, max_length=sys.maxint, zdict=None):
    """Feeds `data` to the stream: (the output, whether the stream ended, how many
    characters of `data` were not used), as the reference's loop over zlib's inflate()
    in buffers of OUTPUT_BUFFER_SIZE gives them."""
    assert data is not None
    if flush == Z_FINISH:
        flush = Z_SYNC_FLUSH
        should_finish = True
    else:
        should_finish = False
    while_doing = "while decompressing data"
    pos = 0
    end = len(data)
    result = []
    avail_out = 0    # the output space the last call left, as the reference's stream
    while True:
        bufsize = OUTPUT_BUFFER_SIZE
        if max_length < bufsize:
            if max_length <= 0:
                err = Z_OK
                break
            bufsize = max_length
        max_length -= bufsize
        err = stream.inflate(data, pos, end, flush, bufsize)
        pos = stream.pos
        avail_out = bufsize - len(stream.output)
        if err == Z_OK or err == Z_STREAM_END:
            produced = stream.output
            result.append(produced)
            if len(produced) < bufsize:
                break
            if err == Z_STREAM_END:
                break
            continue
        elif err == Z_BUF_ERROR:
            if len(stream.output) == 0:
                break
        raise _stream_error(stream, err, while_doing)
    if should_finish:
        err = stream.inflate(data, end, end, Z_FINISH, avail_out)
        if err < 0:
            raise _stream_error(stream, err, while_doing)
    finished = err == Z_STREAM_END
    return "".join(result), finished, end - pos


def deflateInit(level=Z_DEFAULT_COMPRESSION, method=Z_DEFLATED, wbits=MAX_WBITS,
                memLevel=DEF_MEM_LEVEL, strategy=Z_DEFAULT_STRATEGY, zdict=None):
    """A stream that compresses (`compress`): zlib's own z_stream."""
    if zdict is not None:
        raise RZlibError("preset dictionaries are not supported by rpy-lsp")
    stream, err = _rzlib_deflate.deflate_init(level, method, wbits, memLevel, strategy)
    if err == Z_OK:
        return stream
    msg = _rzlib_deflate.stream_msg(stream)
    _rzlib_deflate.free_stream(stream)
    if err == Z_STREAM_ERROR:
        raise ValueError("Invalid initialization option")
    raise _zlib_error(msg, err, "while creating compression object")


def deflateEnd(stream):
    """Frees the compression stream."""
    _rzlib_deflate.deflate_end(stream)


def compress(stream, data, flush=Z_NO_FLUSH):
    """Feeds `data` to the compression stream: the compressed output it gives now (all
    of it, with `flush` other than Z_NO_FLUSH)."""
    assert data is not None
    out, err = _rzlib_deflate.deflate(stream, data, flush, OUTPUT_BUFFER_SIZE)
    if err != Z_OK and err != Z_STREAM_END:
        raise _zlib_error(_rzlib_deflate.stream_msg(stream), err, "while compressing")
    return out
