"""rpy-lsp's model of the `rpython.jit` package: only `codewriter.policy.JitPolicy`."""
