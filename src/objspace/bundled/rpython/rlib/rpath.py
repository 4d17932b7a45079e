"""rpy-lsp's model of `rpython.rlib.rpath` on POSIX: translatable versions of a few
`os.path` functions. As in the reference (rpython 0.2.1), `rnormpath` and `rabspath`
take and give a str without NUL bytes (a `signature`), and `rabspath` does not
normalise a path whose current directory cannot be read."""
import os
import stat
from rpython.rlib import types
from rpython.rlib.signature import signature
from rpython.rlib.rstring import assert_str0

sep = '/'
altsep = '/'


def risdir(s):
    """Whether `s` names an existing directory."""
    try:
        st = os.stat(s)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode)


def risabs(s):
    """Whether the path is absolute."""
    return s.startswith('/')


@signature(types.str0(), returns=types.str0())
def rnormpath(path):
    """`os.path.normpath` of POSIX: no empty or '.' parts, '..' folded into the part
    before it, one leading slash (two are kept, as POSIX allows)."""
    if path == '':
        return '.'
    lead = 0
    if path.startswith('/'):
        lead = 1
        if path.startswith('//') and not path.startswith('///'):
            lead = 2
    parts = []
    for part in path.split('/'):
        if part == '' or part == '.':
            continue
        if part == '..':
            if parts and parts[-1] != '..':
                parts.pop()
                continue
            if lead:
                continue
        parts.append(part)
    result = '/' * lead + '/'.join(parts)
    assert_str0(result)
    if result == '':
        return '.'
    return result


@signature(types.str0(), returns=types.str0())
def rabspath(path):
    """An absolute, normalised path (the path itself when the current directory cannot
    be read)."""
    try:
        if not risabs(path):
            path = rjoin(os.getcwd(), path)
        assert path is not None
        return rnormpath(path)
    except OSError:
        return path


def rjoin(a, b):
    """`a` and `b` joined by one '/'; an absolute `b` replaces `a`."""
    if b.startswith('/'):
        return b
    if a == '' or a.endswith('/'):
        return a + b
    return a + '/' + b
