"""rpy-lsp's model of `rpython.rtyper.lltypesystem`."""
