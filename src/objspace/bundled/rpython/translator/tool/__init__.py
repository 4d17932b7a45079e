"""rpy-lsp's models of `rpython.translator.tool`: `cbuild`. Other modules of the package come
from the search path or are unknown."""
