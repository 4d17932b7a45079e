"""rpy-lsp's model of the `rpython.translator.tool` package: only `cbuild`."""
