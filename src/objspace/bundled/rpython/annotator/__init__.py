"""rpy-lsp's models of the reference's annotator modules that library code extends
(`model`, `bookkeeper`): see `rpython.rtyper.extregistry`."""
