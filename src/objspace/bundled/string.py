"""rpy-lsp's model of the `string` module: its constants and the old string functions,
for code that runs at import time."""

whitespace = ' \t\n\r\v\f'
lowercase = 'abcdefghijklmnopqrstuvwxyz'
uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
letters = lowercase + uppercase
ascii_lowercase = lowercase
ascii_uppercase = uppercase
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = digits + 'abcdef' + 'ABCDEF'
octdigits = '01234567'
punctuation = """!"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"""
printable = digits + letters + punctuation + whitespace


def join(words, sep=' '):
    return sep.join(words)


def split(s, sep=None, maxsplit=-1):
    return s.split(sep, maxsplit)


def lower(s):
    return s.lower()


def upper(s):
    return s.upper()


def strip(s, chars=None):
    return s.strip(chars)


def replace(s, old, new, maxreplace=-1):
    return s.replace(old, new, maxreplace)


def atoi(s, base=10):
    return int(s, base)
