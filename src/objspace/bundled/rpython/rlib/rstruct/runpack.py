"""rpy-lsp's model of `rpython.rlib.rstruct.runpack`, written in RPython.

`runpack(fmt, data)` unpacks the string `data` as `struct.unpack(fmt, data)` does; `fmt`
must be a constant (the function is specialized on it). For each format an unpacking
function is generated while annotating (`specialize.memo`, as the method of a class of
its own): one value for a format of one item, else a tuple. Integers come as `int`,
except 8-byte unsigned ones (`Q`, and `L` in native mode) which are `r_uint`; `f` and
`d` are floats, `c` a character, `?` a bool, `s` and `p` strings. A format the toolchain
cannot read is an error at annotation time, and so is a pad byte `x`: the reference's
unpacker returns a value for every item of the format and a pad item never gets one (its
annotator finds a blocked block), so a format with padding cannot be unpacked at all. Data
too short for the format raises StructError when the program runs.
"""
from rpython.rlib.objectmodel import specialize
from rpython.rlib.rarithmetic import r_uint
from rpython.rlib.rstruct.error import StructError
from rpython.rlib.rstruct import ieee


class _Reader(object):
    def __init__(self, s):
        self.s = s
        self.pos = 0

    def read(self, count):
        start = self.pos
        end = start + count
        if end > len(self.s):
            raise StructError("unpack str size too short for format")
        self.pos = end
        assert start >= 0
        assert end >= 0
        return self.s[start:end]

    def align(self, mask):
        self.pos = (self.pos + mask) & ~mask



def _read_signed(r, size, be):
    data = r.read(size)
    value = 0
    for i in range(size):
        if be:
            x = ord(data[i])
            if i == 0 and x >= 128:
                x -= 256
            value = (value << 8) | x
        else:
            x = ord(data[size - 1 - i])
            if i == 0 and x >= 128:
                x -= 256
            value = (value << 8) | x
    return value


def _read_unsigned(r, size, be):
    data = r.read(size)
    value = 0
    for i in range(size):
        if be:
            value = (value << 8) | ord(data[i])
        else:
            value = (value << 8) | ord(data[size - 1 - i])
    return value


def _read_unsigned_word(r, be):
    data = r.read(8)
    value = r_uint(0)
    for i in range(8):
        if be:
            value = (value << 8) | r_uint(ord(data[i]))
        else:
            value = (value << 8) | r_uint(ord(data[7 - i]))
    return value


def _read_char(r):
    return r.read(1)[0]


def _read_bool(r):
    return r.read(1)[0] != '\x00'


def _read_string(r, count):
    return r.read(count)


def _read_pascal(r, count):
    data = r.read(count)
    if count == 0:
        return ""
    n = ord(data[0])
    if n > count - 1:
        n = count - 1
    return data[1:1 + n]


def _read_float(r, size, be):
    return ieee.unpack_float(r.read(size), be)


# size in native mode ('@', the default), size in the standard modes ('=<>!')
_SIZES = {
    'x': (1, 1), 'c': (1, 1), 'b': (1, 1), 'B': (1, 1), '?': (1, 1),
    'h': (2, 2), 'H': (2, 2), 'i': (4, 4), 'I': (4, 4), 'l': (8, 4), 'L': (8, 4),
    'q': (8, 8), 'Q': (8, 8), 'f': (4, 4), 'd': (8, 8), 's': (1, 1), 'p': (1, 1),
    'P': (8, 0),
}


def _item_source(code, size, count, be):
    """NOT_RPYTHON: the expression reading one item."""
    if code == 'c':
        return "_read_char(r)"
    if code == '?':
        return "_read_bool(r)"
    if code == 's':
        return "_read_string(r, %d)" % count
    if code == 'p':
        return "_read_pascal(r, %d)" % count
    if code in 'fd':
        return "_read_float(r, %d, %s)" % (size, be)
    if code in 'bhilq':
        return "_read_signed(r, %d, %s)" % (size, be)
    if size == 8:
        return "_read_unsigned_word(r, %s)" % (be,)
    return "_read_unsigned(r, %d, %s)" % (size, be)


@specialize.memo()
def _make_unpacker(fmt):
    """Generates the unpacking function of a constant format (run while annotating)."""
    native = True
    be = False
    i = 0
    if fmt and fmt[0] in '@=<>!':
        native = fmt[0] == '@'
        be = fmt[0] in '>!'
        i = 1
    # (source of the item; its size; alignment mask applied first)
    items = []
    while i < len(fmt):
        c = fmt[i]
        i += 1
        if c.isspace():
            continue
        count = 1
        if c.isdigit():
            j = i - 1
            while i < len(fmt) and fmt[i].isdigit():
                i += 1
            if i == len(fmt):
                raise StructError("incomplete struct format")
            count = int(fmt[j:i])
            c = fmt[i]
            i += 1
        if c not in _SIZES:
            raise StructError("bad char in struct format")
        if c == 'x':
            raise StructError("pad byte 'x' in a runpack format: the unpacker has no value "
                              "to return for it (a blocked block in the reference)")
        size = _SIZES[c][0] if native else _SIZES[c][1]
        if size == 0:
            raise StructError("bad char in struct format")
        if native and size > 1 and items:
            # The toolchain records a native alignment on the item before this one
            # (its reader aligns the position before reading that item), so the
            # binaries read e.g. "hl" without padding between the two: done alike.
            items[-1][2] = size - 1
        if c in 'sp':
            items.append([_item_source(c, size, count, be), count, 0])
        else:
            for k in range(count):
                items.append([_item_source(c, size, size, be), size, 0])
    lines = ["class _Unpacker(object):", "  def unpack(self, s):", "    r = _Reader(s)"]
    names = []
    for src, size, mask in items:
        if mask:
            lines.append("    r.align(%d)" % mask)
        name = "v%d" % len(names)
        names.append(name)
        lines.append("    %s = %s" % (name, src))
    if not items:
        raise StructError("struct format without items")
    if len(names) == 1:
        lines.append("    return %s" % names[0])
    else:
        lines.append("    return (%s)" % ", ".join(names))
    namespace = {
        '_Reader': _Reader, '_read_signed': _read_signed,
        '_read_unsigned': _read_unsigned, '_read_unsigned_word': _read_unsigned_word,
        '_read_char': _read_char, '_read_bool': _read_bool,
        '_read_string': _read_string, '_read_pascal': _read_pascal,
        '_read_float': _read_float,
    }
    exec "\n".join(lines) + "\n" in namespace
    # A prebuilt instance of a class of its own: its `unpack` returns exactly this
    # format's values, whatever other formats the program unpacks.
    return namespace['_Unpacker']()


@specialize.arg(0)
def runpack(fmt, input):
    return _make_unpacker(fmt).unpack(input)
