"""rpy-lsp's model of the package `rpython.rlib.unicodedata` (its character databases:
`unicodedb_5_2_0` is modelled)."""
