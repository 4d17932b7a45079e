"""rpy-lsp: the JIT code writer (only `policy`)."""
