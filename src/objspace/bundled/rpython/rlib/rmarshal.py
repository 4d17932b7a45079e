"""rpy-lsp's model of `rpython.rlib.rmarshal`, written in RPython: CPython's marshal
format for a value whose type is described at import time. `get_marshaller(t)` gives
`dump(buf, x)`, which appends the bytes of `x` (one character each) to the list `buf`;
`get_unmarshaller(t)` gives `load(s)`, the value back, raising ValueError on bad data.

A description is `int`, `float`, `bool`, `str`, `None`, a list `[t]`, a dict `{k: v}` or
a tuple `(t1, t2, ...)` of descriptions. As in the reference, an int is written as a
64-bit one (`I`), a float as its `%.17g` text, a dict ends with `0`, and a loaded list
or dict may be None (a `N` in the data); a loaded str never is.
"""
from rpython.rlib.unroll import unrolling_iterable
from rpython.rlib.rfloat import formatd, rstring_to_float


class CannotMarshal(Exception):
    pass


class CannotUnmarshall(Exception):
    pass


# ---- writing --------------------------------------------------------------------

def _put_word(buf, x):
    # four bytes, least significant first
    for i in range(4):
        buf.append(chr((x >> (8 * i)) & 0xff))


def _dump_none(buf, x):
    buf.append('N')


def _dump_bool(buf, x):
    if x:
        buf.append('T')
    else:
        buf.append('F')


def _dump_int(buf, x):
    buf.append('I')
    _put_word(buf, x)
    _put_word(buf, x >> 32)


def _dump_float(buf, x):
    text = formatd(x, 'g', 17)
    buf.append('f')
    buf.append(chr(len(text)))
    for c in text:
        buf.append(c)


def _dump_str(buf, x):
    if x is None:
        buf.append('N')
        return
    buf.append('s')
    _put_word(buf, len(x))
    for c in x:
        buf.append(c)


# ---- reading --------------------------------------------------------------------

class Loader(object):
    def __init__(self, buf):
        self.buf = buf
        self.pos = 0

    def check_finished(self):
        if self.pos != len(self.buf):
            raise ValueError("not all data consumed")


def _next_chr(loader):
    pos = loader.pos
    if pos >= len(loader.buf):
        raise ValueError("not enough data")
    loader.pos = pos + 1
    return loader.buf[pos]


def _peek_chr(loader):
    if loader.pos >= len(loader.buf):
        raise ValueError("not enough data")
    return loader.buf[loader.pos]


def _next_word(loader):
    # a signed 32-bit number, least significant byte first
    x = 0
    for i in range(4):
        x |= ord(_next_chr(loader)) << (8 * i)
    if x >= 0x80000000:
        x -= 0x100000000
    return x


def _next_str(loader, count):
    if count < 0:
        raise ValueError("negative count")
    start = loader.pos
    stop = start + count
    if stop > len(loader.buf):
        raise ValueError("not enough data")
    loader.pos = stop
    return loader.buf[start:stop]


def _load_none(loader):
    if _next_chr(loader) != 'N':
        raise ValueError("expected None")
    return None


def _load_bool(loader):
    t = _next_chr(loader)
    if t == 'T':
        return True
    if t == 'F':
        return False
    raise ValueError("expected a bool")


def _load_int(loader):
    t = _next_chr(loader)
    if t == 'I':
        low = _next_word(loader) & 0xFFFFFFFF
        return low | (_next_word(loader) << 32)
    if t == 'i':
        return _next_word(loader)
    raise ValueError("expected an int")


def _load_float(loader):
    if _next_chr(loader) != 'f':
        raise ValueError("expected a float")
    size = ord(_next_chr(loader))
    return rstring_to_float(_next_str(loader, size))


def _load_str(loader):
    if _next_chr(loader) != 's':
        raise ValueError("expected a string")
    return _next_str(loader, _next_word(loader))


# ---- descriptions ----------------------------------------------------------------

_SCALARS = [(int, _dump_int, _load_int), (float, _dump_float, _load_float),
            (bool, _dump_bool, _load_bool), (str, _dump_str, _load_str),
            (None, _dump_none, _load_none)]

_dumpers = {}
_loaders = {}
_unmarshallers = {}


def _key(t):
    # a text naming a description (lists and dicts cannot be dict keys themselves)
    for scalar, _, _ in _SCALARS:
        if t is scalar:
            return getattr(t, '__name__', 'None')
    if isinstance(t, list) and len(t) == 1:
        return '[%s]' % _key(t[0])
    if isinstance(t, dict) and len(t) == 1:
        [(k, v)] = t.items()
        return '{%s:%s}' % (_key(k), _key(v))
    if isinstance(t, tuple):
        return '(%s)' % ','.join([_key(x) for x in t])
    raise CannotMarshal(t)


def _make_dumper(t):
    for scalar, dump, _ in _SCALARS:
        if t is scalar:
            return dump
    if isinstance(t, list):
        item = get_marshaller(t[0])

        def dump_list(buf, x):
            if x is None:
                buf.append('N')
                return
            buf.append('[')
            _put_word(buf, len(x))
            for y in x:
                item(buf, y)
        return dump_list
    if isinstance(t, dict):
        [(k, v)] = t.items()
        key, value = get_marshaller(k), get_marshaller(v)

        def dump_dict(buf, x):
            if x is None:
                buf.append('N')
                return
            buf.append('{')
            for a, b in x.items():
                key(buf, a)
                value(buf, b)
            buf.append('0')
        return dump_dict
    items = unrolling_iterable(enumerate([get_marshaller(x) for x in t]))

    def dump_tuple(buf, x):
        buf.append('(')
        _put_word(buf, len(x))
        for i, item in items:
            item(buf, x[i])
    return dump_tuple


def _make_loader(t):
    for scalar, _, load in _SCALARS:
        if t is scalar:
            return load
    if isinstance(t, list):
        item = _get_loader(t[0])

        def load_list(loader):
            kind = _next_chr(loader)
            if kind == 'N':
                return None
            if kind != '[':
                raise ValueError("expected a list or None")
            result = []
            for i in range(_next_word(loader)):
                result.append(item(loader))
            return result
        return load_list
    if isinstance(t, dict):
        [(k, v)] = t.items()
        key, value = _get_loader(k), _get_loader(v)

        def load_dict(loader):
            kind = _next_chr(loader)
            if kind == 'N':
                return None
            if kind != '{':
                raise ValueError("expected a dict or None")
            result = {}
            while _peek_chr(loader) != '0':
                a = key(loader)
                result[a] = value(loader)
            _next_chr(loader)
            return result
        return load_dict
    n = len(t)
    items = unrolling_iterable(enumerate([_get_loader(x) for x in t]))

    def load_tuple(loader):
        if _next_chr(loader) != '(':
            raise ValueError("expected a tuple")
        if _next_word(loader) != n:
            raise ValueError("wrong tuple length")
        result = ()
        for i, item in items:
            result += (item(loader),)
        return result
    return load_tuple


def get_marshaller(t):
    k = _key(t)
    if k not in _dumpers:
        _dumpers[k] = _make_dumper(t)
    return _dumpers[k]
get_marshaller._annspecialcase_ = 'specialize:memo'


def _get_loader(t):
    k = _key(t)
    if k not in _loaders:
        _loaders[k] = _make_loader(t)
    return _loaders[k]


def get_unmarshaller(t):
    k = _key(t)
    if k not in _unmarshallers:
        load = _get_loader(t)

        def unmarshaller(buf):
            loader = Loader(buf)
            result = load(loader)
            loader.check_finished()
            return result
        _unmarshallers[k] = unmarshaller
    return _unmarshallers[k]
get_unmarshaller._annspecialcase_ = 'specialize:memo'
