"""rpy-lsp's models of `rpython.rlib.rstruct`: `runpack` (binary data to values, by a
constant struct format), `ieee` (floats to and from their IEEE 754 bits) and the format
errors."""
