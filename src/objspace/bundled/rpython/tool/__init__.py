"""rpy-lsp's models of `rpython.tool`: `pairtype`. Other modules of the package come from
the search path or are unknown."""
