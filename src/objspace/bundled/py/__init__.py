"""rpy-lsp's model of the `py` library (pylib), which the reference toolchain ships with:
only `py.code.Source`, with which interpreters generate functions at import time.
Everything else of `py` is not modelled (unknown)."""
from py import code
