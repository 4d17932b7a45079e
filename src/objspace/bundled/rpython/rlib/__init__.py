"""rpy-lsp's models of `rpython.rlib` modules."""
