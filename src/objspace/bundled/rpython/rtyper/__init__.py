"""rpy-lsp's model of `rpython.rtyper`: only the low-level type system is modelled."""
