"""rpy-lsp's model of the `py` library (pylib), which the reference toolchain ships with:
`py.code.Source`, with which interpreters generate functions at import time, and
`py.path.local`, with which they list their own files.
Everything else of `py` is not modelled (unknown)."""
from py import code
from py import path
