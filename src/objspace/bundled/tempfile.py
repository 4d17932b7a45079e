"""rpy-lsp's model of `tempfile`, for import-time code: `gettempdir()` (which import-time
code sees empty: a cache a library keeps there, such as rply's parser tables, is neither
read nor written) and `gettempprefix()`. Making temporary files is unknown."""
from __rpy__ import os_tempdir, model_unknown

template = 'tmp'


def gettempdir():
    return os_tempdir()


def gettempprefix():
    return template


def mkstemp(*args, **kwds):
    return model_unknown("tempfile.mkstemp()")


def mkdtemp(*args, **kwds):
    return model_unknown("tempfile.mkdtemp()")


def mktemp(*args, **kwds):
    return model_unknown("tempfile.mktemp()")


def NamedTemporaryFile(*args, **kwds):
    return model_unknown("tempfile.NamedTemporaryFile()")


def TemporaryFile(*args, **kwds):
    return model_unknown("tempfile.TemporaryFile()")
