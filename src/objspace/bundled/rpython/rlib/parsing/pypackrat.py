"""rpy-lsp's model of `rpython.rlib.parsing.pypackrat`: the packrat parser base class and
its helpers, as `makepackrat` defines them (the reference's module holds the generated
parser of the grammar language, which rpy-lsp's model reads by hand)."""

from rpython.rlib.parsing.makepackrat import PackratParser, BacktrackException, Status
from rpython.rlib.parsing.tree import Nonterminal, Symbol
