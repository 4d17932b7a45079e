"""rpy-lsp's model of the RPython toolchain's runtime library (`rpython.rlib`)."""
