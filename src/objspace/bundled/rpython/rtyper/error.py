"""rpy-lsp's model of `rpython.rtyper.error`: what a library's own Repr (run by rpy-lsp's
RTyper, see `rmodel`) raises when it cannot translate an operation."""


class TyperError(Exception):
    pass
