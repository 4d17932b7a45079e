"""rpy-lsp's low-level helpers (not a module of the reference toolchain): the operations of
the RPython types written in low-level RPython, which the RTyper calls (rtyper/annlowlevel.rs).
"""
