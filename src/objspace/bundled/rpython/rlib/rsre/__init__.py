"""rpy-lsp's model of `rpython.rlib.rsre`: regular expressions in translated code
(`rsre_re`, the interface of Python's `re` for constant patterns)."""
