"""rpy-lsp's model of Python 2's `re`, for programs that use regular expressions at
import time (a decoder built from encoding strings, a table scanned when a module loads).
Matching is the `__rpy__` primitive `re_spans`; the rest follows CPython 2.7's `sre`
(empty matches in sub/split/findall, group defaults, replacement templates).
Translated code cannot use `re` (the reference refuses it there too)."""
from __rpy__ import re_info, re_spans

I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
T = TEMPLATE = 1
DEBUG = 128


class error(Exception):
    pass


class _Pattern(object):
    def __init__(self, pattern, flags):
        info = re_info(pattern, flags)
        if isinstance(info, str):
            raise error(info)
        self.pattern = pattern
        self.flags = flags
        self.groups = info[0]
        self.groupindex = {}
        for name, index in info[1]:
            self.groupindex[name] = index

    def _spans(self, string, pos, anchored):
        return re_spans(self.pattern, self.flags, string, pos, anchored)

    def _match_at(self, string, pos, anchored):
        spans = self._spans(string, pos, anchored)
        if spans is None:
            return None
        return _Match(self, string, pos, spans)

    def match(self, string, pos=0, endpos=None):
        if endpos is not None:
            string = string[:endpos]
        return self._match_at(string, pos, True)

    def search(self, string, pos=0, endpos=None):
        if endpos is not None:
            string = string[:endpos]
        return self._match_at(string, pos, False)

    def finditer(self, string, pos=0, endpos=None):
        if endpos is not None:
            string = string[:endpos]
        found = []
        start = pos
        while start <= len(string):
            m = self._match_at(string, start, False)
            if m is None:
                break
            found.append(m)
            b, e = m.span()
            if e == b:
                start = e + 1
            else:
                start = e
        return iter(found)

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.group(1) or string[:0])
            else:
                out.append(tuple([g or string[:0] for g in m.groups()]))
        return out

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        start = 0
        n = 0
        while not maxsplit or n < maxsplit:
            m = self._match_at(string, start, False)
            if m is None:
                break
            b, e = m.span()
            if b == e:
                if b >= len(string):
                    break
                # an empty match splits nothing (Python 2): try one further on
                start = b + 1
                continue
            out.append(string[last:b])
            out.extend(m.groups())
            n += 1
            last = start = e
        out.append(string[last:])
        return out

    def subn(self, repl, string, count=0):
        if callable(repl):
            filt = repl
        else:
            template = repl
            filt = lambda m: m.expand(template)
        pieces = []
        i = 0
        n = 0
        start = 0
        while (not count or n < count) and start <= len(string):
            m = self._match_at(string, start, False)
            if m is None:
                break
            b, e = m.span()
            if i < b:
                pieces.append(string[i:b])
            if not (i == b and i == e and n > 0):
                pieces.append(filt(m))
                n += 1
            i = e
            if e == b:
                start = e + 1
            else:
                start = e
        pieces.append(string[i:])
        return string[:0].join(pieces), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def scanner(self, string, pos=0):
        return _Scanner(self, string, pos)

    def __repr__(self):
        return '<_sre.SRE_Pattern object>'


class _Scanner(object):
    def __init__(self, pattern, string, pos):
        self.pattern = pattern
        self.string = string
        self.pos = pos

    def _next(self, anchored):
        if self.pos > len(self.string):
            return None
        m = self.pattern._match_at(self.string, self.pos, anchored)
        if m is not None:
            b, e = m.span()
            if e == b:
                self.pos = e + 1
            else:
                self.pos = e
        return m

    def match(self):
        return self._next(True)

    def search(self):
        return self._next(False)


class _Match(object):
    def __init__(self, pattern, string, pos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = len(string)
        self._spans = spans
        self.lastindex = None
        self.lastgroup = None
        best = -1
        for g in range(1, pattern.groups + 1):
            if spans[2 * g] >= 0 and spans[2 * g + 1] > best:
                best = spans[2 * g + 1]
                self.lastindex = g
        if self.lastindex is not None:
            for name, index in pattern.groupindex.items():
                if index == self.lastindex:
                    self.lastgroup = name

    def _index(self, g):
        if isinstance(g, str) or isinstance(g, unicode):
            if g not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[g]
        if g < 0 or g > self.re.groups:
            raise IndexError("no such group")
        return g

    def _group(self, g, default=None):
        g = self._index(g)
        s = self._spans[2 * g]
        if s < 0:
            return default
        return self.string[s:self._spans[2 * g + 1]]

    def group(self, *args):
        if not args:
            return self._group(0)
        if len(args) == 1:
            return self._group(args[0])
        return tuple([self._group(g) for g in args])

    def __getitem__(self, g):
        return self._group(g)

    def groups(self, default=None):
        return tuple([self._group(g, default) for g in range(1, self.re.groups + 1)])

    def groupdict(self, default=None):
        d = {}
        for name, index in self.re.groupindex.items():
            d[name] = self._group(index, default)
        return d

    def start(self, g=0):
        return self._spans[2 * self._index(g)]

    def end(self, g=0):
        return self._spans[2 * self._index(g) + 1]

    def span(self, g=0):
        g = self._index(g)
        return (self._spans[2 * g], self._spans[2 * g + 1])

    def expand(self, template):
        return _expand(self, template)


_ESCAPES = {'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v', 'a': '\a',
            'b': '\b', '\\': '\\'}


def _expand(m, template):
    """A replacement template: \\1, \\g<name>, \\g<1> and the character escapes."""
    out = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c != '\\' or i + 1 == n:
            out.append(c)
            i += 1
            continue
        c = template[i + 1]
        if c == 'g':
            close = template.find('>', i + 2)
            if i + 2 >= n or template[i + 2] != '<' or close < 0:
                raise error("missing group name")
            name = template[i + 3:close]
            if name.isdigit():
                value = m.group(int(name))
            else:
                value = m.group(name)
            if value is not None:
                out.append(value)
            i = close + 1
        elif c.isdigit() and c != '0':
            j = i + 2
            if j < n and template[j].isdigit():
                j += 1
            value = m.group(int(template[i + 1:j]))
            if value is not None:
                out.append(value)
            i = j
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
            i += 2
        else:
            out.append('\\' + c)
            i += 2
    return template[:0].join(out)


_cache = {}


def compile(pattern, flags=0):
    if isinstance(pattern, _Pattern):
        return pattern
    key = (type(pattern), pattern, flags)
    if key not in _cache:
        _cache[key] = _Pattern(pattern, flags)
    return _cache[key]


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def purge():
    _cache.clear()


def escape(pattern):
    out = []
    for c in pattern:
        if c.isalnum() or c == '_':
            out.append(c)
        elif c == '\000':
            out.append('\\000')
        else:
            out.append('\\' + c)
    return pattern[:0].join(out)
