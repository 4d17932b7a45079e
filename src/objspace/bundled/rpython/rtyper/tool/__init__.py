"""rpy-lsp's models of `rpython.rtyper.tool`: `rffi_platform`. Other modules of the package
come from the search path or are unknown."""
