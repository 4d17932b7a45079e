"""rpy-lsp's model of the `glob` module, for code that runs at import time: patterns
in the last path component only (what programs use to find their own modules), over
the directories rpy-lsp may read."""
import os
import fnmatch


def has_magic(s):
    return '*' in s or '?' in s or '[' in s


def glob(pathname):
    dirname, basename = os.path.split(pathname)
    if not has_magic(basename):
        if os.path.exists(pathname):
            return [pathname]
        return []
    if has_magic(dirname):
        raise NotImplementedError("rpy-lsp's glob: a pattern in a directory name")
    try:
        names = os.listdir(dirname or ".")
    except OSError:
        return []
    result = []
    for name in names:
        if name.startswith('.') and not basename.startswith('.'):
            continue
        if fnmatch.fnmatchcase(name, basename):
            result.append(os.path.join(dirname, name))
    return result


def iglob(pathname):
    return iter(glob(pathname))
