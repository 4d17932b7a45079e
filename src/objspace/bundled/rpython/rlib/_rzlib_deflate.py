"""The compression half of rpy-lsp's model of `rpython.rlib.rzlib`: as in the reference,
calls of the system zlib's deflateInit2_/deflate/deflateEnd (declared with
`rffi.llexternal`, linked with `-lz`), on a `z_stream` whose layout the C compiler gives.
`build` compiles and links them, so its output is zlib's own; `run` calls the same
functions of the system's zlib, loaded at run time (zlib's compression is not
reimplemented: its output is zlib's algorithm)."""
from rpython.rtyper.lltypesystem import lltype, rffi
from rpython.rtyper.tool import rffi_platform
from rpython.translator.tool.cbuild import ExternalCompilationInfo
from rpython.rlib.rstring import StringBuilder

eci = ExternalCompilationInfo(includes=['zlib.h'], libraries=['z'])
# deflateInit2_ checks the major version of the zlib.h the caller was compiled with (the
# C compiler's answer for a string is not asked: the configuration gives integers only)
ZLIB_VERSION = "1.2.13"


# zlib's `Bytef *` buffers, as pointers to a byte structure rather than to a char array:
# rpy-lsp's raw arrays begin with their length, and the address a char array is cast to
# a pointer to something else is its items' (what C reads and writes)
_BYTE = rffi.CStruct('rpy_zbyte', ('byte', rffi.UCHAR))
BYTEP = lltype.Ptr(_BYTE)


class _Config:
    _compilation_info_ = eci
    z_stream = rffi_platform.Struct(
        'z_stream',
        [('next_in', BYTEP), ('avail_in', rffi.UINT),
         ('next_out', BYTEP), ('avail_out', rffi.UINT),
         ('msg', BYTEP)])


_config = rffi_platform.configure(_Config)
z_stream = _config['z_stream']
z_stream_p = lltype.Ptr(z_stream)

_deflateInit2_ = rffi.llexternal(
    'deflateInit2_', [z_stream_p, rffi.INT, rffi.INT, rffi.INT, rffi.INT, rffi.INT,
                      rffi.CCHARP, rffi.INT], rffi.INT, compilation_info=eci)
_deflate = rffi.llexternal('deflate', [z_stream_p, rffi.INT], rffi.INT,
                           compilation_info=eci)
_deflateEnd = rffi.llexternal('deflateEnd', [z_stream_p], rffi.INT, compilation_info=eci,
                             releasegil=False)


def deflate_init(level, method, wbits, memlevel, strategy):
    """A new z_stream for compression, or (null, zlib's error code)."""
    stream = lltype.malloc(z_stream, flavor='raw', zero=True)
    err = _deflateInit2_(stream, level, method, wbits, memlevel, strategy,
                         ZLIB_VERSION, rffi.sizeof(z_stream))
    return stream, rffi.cast(lltype.Signed, err)


def stream_msg(stream):
    """zlib's message on the stream (None when it left none)."""
    if not stream.c_msg:
        return None
    return rffi.charp2str(rffi.cast(rffi.CCHARP, stream.c_msg))


def deflate_end(stream):
    _deflateEnd(stream)
    lltype.free(stream, flavor='raw')


def free_stream(stream):
    lltype.free(stream, flavor='raw')


def deflate(stream, data, flush, bufsize):
    """Feeds all of `data` to deflate() with `flush`, output buffers of `bufsize`: (the
    output, the last result of deflate(), Z_OK for a Z_BUF_ERROR that only says there
    was no more output)."""
    inbuf = rffi.str2charp(data)
    outbuf = lltype.malloc(rffi.CCHARP.TO, bufsize, flavor='raw')
    result = StringBuilder()
    stream.c_next_in = rffi.cast(BYTEP, inbuf)
    end = rffi.cast(lltype.Signed, rffi.cast(BYTEP, rffi.ptradd(inbuf, len(data))))
    err = 0
    while True:
        avail_in = end - rffi.cast(lltype.Signed, stream.c_next_in)
        stream.c_avail_in = rffi.cast(rffi.UINT, avail_in)
        stream.c_next_out = rffi.cast(BYTEP, outbuf)
        stream.c_avail_out = rffi.cast(rffi.UINT, bufsize)
        err = rffi.cast(lltype.Signed, _deflate(stream, flush))
        if err == 0 or err == 1:
            avail_out = rffi.cast(lltype.Signed, stream.c_avail_out)
            result.append(rffi.charpsize2str(outbuf, bufsize - avail_out))
            # a full buffer may have more behind it, unless the stream ended
            if avail_out > 0 or err == 1:
                break
            continue
        if err == -5:
            # Z_BUF_ERROR with nothing written: no more output, not an error
            if rffi.cast(lltype.Signed, stream.c_avail_out) == bufsize:
                err = 0
                break
        break
    lltype.free(outbuf, flavor='raw')
    rffi.free_charp(inbuf)
    return result.build(), err
