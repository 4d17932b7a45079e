"""rpy-lsp's model of the `traceback` module: without Python tracebacks, the formatting
functions give the exception line only; printing writes to stderr."""
import os


def format_exception_only(etype, value):
    name = getattr(etype, '__name__', str(etype))
    if value is None:
        return [name + '\n']
    text = str(value)
    if text:
        return ['%s: %s\n' % (name, text)]
    return [name + '\n']


def format_exception(etype, value, tb, limit=None):
    return ['Traceback (most recent call last):\n'] + format_exception_only(etype, value)


def format_tb(tb, limit=None):
    return []


def format_stack(f=None, limit=None):
    return []


def format_exc(limit=None):
    return ''


def print_exc(limit=None, file=None):
    pass


def print_exception(etype, value, tb, limit=None, file=None):
    for line in format_exception(etype, value, tb, limit):
        os.write(2, line)


def print_stack(f=None, limit=None, file=None):
    pass


def extract_tb(tb, limit=None):
    return []


def extract_stack(f=None, limit=None):
    return []
