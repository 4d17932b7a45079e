"""Model of `rpython.rlib.parsing`: a regex-based lexer, a packrat parser and the EBNF
front end that builds both (plus a tree transformer) from a grammar at import time."""
