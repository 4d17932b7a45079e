"""rpy-lsp's model of CPython's `struct` module, for code that runs at import time
(record sizes from `calcsize`, constant tables packed or unpacked while a program loads).
Formats as CPython 2.7 reads them: a byte-order prefix (`@` native: sizes and alignment of
a 64-bit machine; `=`, `<`, `>`, `!` standard sizes, no alignment), counts, and the codes
`x c b B ? h H i I l L q Q f d s p P`. Translated code cannot call these (the toolchain
has no `struct` at run time: `rpython.rlib.rstruct.runpack` is what it translates)."""
from rpython.rlib.rstruct.ieee import float_pack, float_unpack
from rpython.rlib.longlong2float import float2longlong, longlong2float
from __rpy__ import model_is_unknown, model_unknown


class error(Exception):
    pass


# code -> (native size, standard size, kind)
_CODES = {
    'x': (1, 1, 'pad'), 'c': (1, 1, 'char'), 'b': (1, 1, 'int'), 'B': (1, 1, 'uint'),
    '?': (1, 1, 'bool'), 'h': (2, 2, 'int'), 'H': (2, 2, 'uint'), 'i': (4, 4, 'int'),
    'I': (4, 4, 'uint'), 'l': (8, 4, 'int'), 'L': (8, 4, 'uint'), 'q': (8, 8, 'int'),
    'Q': (8, 8, 'uint'), 'f': (4, 4, 'float'), 'd': (8, 8, 'float'), 's': (1, 1, 'str'),
    'p': (1, 1, 'pascal'), 'P': (8, 0, 'uint'),
}


def _parse(fmt):
    """NOT_RPYTHON: (big-endian, [(code, count, size, offset)], total size)."""
    native = True
    big = False
    i = 0
    if fmt and fmt[0] in '@=<>!':
        native = fmt[0] == '@'
        big = fmt[0] in '>!'
        i = 1
    items = []
    offset = 0
    while i < len(fmt):
        c = fmt[i]
        if c.isspace():
            i += 1
            continue
        count = 1
        if c.isdigit():
            j = i
            while j < len(fmt) and fmt[j].isdigit():
                j += 1
            count = int(fmt[i:j])
            i = j
            if i >= len(fmt):
                raise error("repeat count given without format specifier")
            c = fmt[i]
        i += 1
        if c not in _CODES or (c == 'P' and not native):
            raise error("bad char in struct format")
        nsize, ssize, kind = _CODES[c]
        size = nsize if native else ssize
        if native and kind not in ('pad', 'str', 'pascal') and count > 0:
            offset = (offset + size - 1) // size * size
        items.append((c, count, size, offset))
        if kind in ('str', 'pascal'):
            offset += count
        else:
            offset += count * size
    return big, items, offset


def calcsize(fmt):
    """NOT_RPYTHON"""
    return _parse(fmt)[2]


def _int_bytes(value, size, big):
    """NOT_RPYTHON"""
    value &= (1 << (size * 8)) - 1
    out = [chr((value >> (8 * k)) & 0xff) for k in range(size)]
    if big:
        out.reverse()
    return ''.join(out)


def _bytes_int(data, big, signed):
    """NOT_RPYTHON"""
    value = 0
    chars = list(data)
    if not big:
        chars.reverse()
    for ch in chars:
        value = (value << 8) | ord(ch)
    if signed and value >= 1 << (len(data) * 8 - 1):
        value -= 1 << (len(data) * 8)
    return value


def pack(fmt, *args):
    """NOT_RPYTHON"""
    big, items, total = _parse(fmt)
    for a in args:
        if model_is_unknown(a):
            # the bytes of a value rpy-lsp does not model are unknown too
            return model_unknown("struct.pack()")
    out = []
    pos = 0
    args = list(args)
    for c, count, size, offset in items:
        kind = _CODES[c][2]
        if offset > pos:
            out.append('\x00' * (offset - pos))
            pos = offset
        if kind in ('str', 'pascal'):
            if not args:
                raise error("pack expected more items for packing")
            s = args.pop(0)
            if not isinstance(s, str):
                raise error("argument for 's' must be a string")
            if kind == 'pascal':
                n = min(len(s), count - 1, 255)
                data = chr(max(n, 0)) + s[:n]
            else:
                data = s[:count]
            data = data + '\x00' * (count - len(data))
            out.append(data[:count])
            pos += count
            continue
        for k in range(count):
            if kind == 'pad':
                out.append('\x00')
                pos += 1
                continue
            if not args:
                raise error("pack expected more items for packing")
            v = args.pop(0)
            if kind == 'char':
                if not isinstance(v, str) or len(v) != 1:
                    raise error("char format require string of length 1")
                data = v
            elif kind == 'bool':
                data = '\x01' if v else '\x00'
            elif kind == 'float':
                if size == 8:
                    data = _int_bytes(float2longlong(float(v)), 8, big)
                else:
                    try:
                        data = _int_bytes(float_pack(float(v), 4), 4, big)
                    except OverflowError:
                        raise OverflowError("float too large to pack with f format")
            else:
                if not isinstance(v, (int, long)):
                    raise error("cannot convert argument to integer")
                bits = size * 8
                if kind == 'int':
                    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
                else:
                    lo, hi = 0, (1 << bits) - 1
                if v < lo or v > hi:
                    raise error("integer out of range for '%s' format code" % c)
                data = _int_bytes(v, size, big)
            out.append(data)
            pos += size
    if args:
        raise error("pack expected %d items for packing (got %d)"
                    % (len(items), len(items) + len(args)))
    return ''.join(out)


def unpack(fmt, data):
    """NOT_RPYTHON"""
    big, items, total = _parse(fmt)
    if len(data) != total:
        raise error("unpack requires a string argument of length %d" % total)
    return _unpack_at(big, items, data, 0)


def unpack_from(fmt, data, offset=0):
    """NOT_RPYTHON"""
    big, items, total = _parse(fmt)
    if len(data) - offset < total:
        raise error("unpack_from requires a buffer of at least %d bytes" % total)
    return _unpack_at(big, items, data, offset)


def _unpack_at(big, items, data, base):
    """NOT_RPYTHON"""
    result = []
    for c, count, size, offset in items:
        kind = _CODES[c][2]
        at = base + offset
        if kind == 'str':
            result.append(data[at:at + count])
            continue
        if kind == 'pascal':
            n = min(ord(data[at]), count - 1) if count else 0
            result.append(data[at + 1:at + 1 + n])
            continue
        for k in range(count):
            chunk = data[at:at + size]
            at += size
            if kind == 'pad':
                continue
            if kind == 'char':
                result.append(chunk)
            elif kind == 'bool':
                result.append(chunk != '\x00')
            elif kind == 'float':
                bits = _bytes_int(chunk, big, size == 8)
                if size == 8:
                    result.append(longlong2float(bits))
                else:
                    result.append(float_unpack(bits, 4))
            else:
                result.append(_bytes_int(chunk, big, kind == 'int'))
    return tuple(result)


class Struct(object):
    """NOT_RPYTHON"""

    def __init__(self, format):
        self.format = format
        self.size = calcsize(format)

    def pack(self, *args):
        return pack(self.format, *args)

    def unpack(self, data):
        return unpack(self.format, data)

    def unpack_from(self, data, offset=0):
        return unpack_from(self.format, data, offset)
