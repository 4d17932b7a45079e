"""rpy-lsp's model of the names CPython 2.7's `site` module adds to the built-ins when the
interpreter starts (the toolchain runs on such an interpreter): `exit` and `quit`,
`copyright`, `credits` and `license`, `help`. Each is an instance of a class with
`__call__`, so translated code using one is the reference's "object with a __call__ is
not RPython" (at the operation that uses it, found by the annotator), not an undefined
name. Import-time code calling `exit()` raises SystemExit, as on CPython."""


class _SiteCallable(object):
    # the annotator refuses a prebuilt instance of a class with `__call__`; bundled
    # models are exempt from that unless they say so, as these do
    _rpy_site_callable_ = True


class Quitter(_SiteCallable):
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return 'Use %s() or Ctrl-D (i.e. EOF) to exit' % (self.name,)

    def __call__(self, code=None):
        raise SystemExit(code)


class _Printer(_SiteCallable):
    def __init__(self, name, text):
        self._name = name
        self._text = text

    def __repr__(self):
        return self._text

    def __call__(self):
        return None


class _Helper(_SiteCallable):
    def __repr__(self):
        return ("Type help() for interactive help, "
                "or help(object) for help about object.")

    def __call__(self, *args, **kwds):
        return None


exit = Quitter('exit')
quit = Quitter('quit')
copyright = _Printer('copyright', 'Copyright (c) 2001-2020 Python Software Foundation.')
credits = _Printer('credits', 'Thanks to the many contributors of Python.')
license = _Printer('license', 'Type license() to see the full license text')
help = _Helper()

NAMES = ('exit', 'quit', 'copyright', 'credits', 'license', 'help')
