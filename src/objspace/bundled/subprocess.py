"""rpy-lsp's model of the `subprocess` module, for what RPython code does with it.

The reference has no replacement for `subprocess`: it annotates CPython's own module, whose
`Popen` builds its set of descriptors to close with `set()` (in `_get_handles`, the first
thing its constructor does with the standard streams), which RPython refuses. So creating
a `Popen` in translated code is an error at the user's call. Import-time code gets no
process from this model; any other name of the real module (`call`, `check_output`...)
is unknown.
"""

PIPE = -1
STDOUT = -2


class Popen(object):
    def __init__(self, args, bufsize=0, executable=None, stdin=None, stdout=None,
                 stderr=None, preexec_fn=None, close_fds=False, shell=False, cwd=None,
                 env=None, universal_newlines=False, startupinfo=None, creationflags=0):
        self.args = args
        self._get_handles(stdin, stdout, stderr)

    def _get_handles(self, stdin, stdout, stderr):
        to_close = set()
        return to_close

