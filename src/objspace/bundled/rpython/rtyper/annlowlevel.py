"""rpy-lsp's model of `rpython.rtyper.annlowlevel`: between high-level strings and the
low-level pointers to them (`llstr(s)` is the `Ptr(STR)` of a str, `hlstr(p)` the str of
a `Ptr(STR)`; the same for unicode). Only translated code calls them."""
from __rpy__ import annlowlevel_llstr, annlowlevel_hlstr
from __rpy__ import annlowlevel_llunicode, annlowlevel_hlunicode

llstr = annlowlevel_llstr
hlstr = annlowlevel_hlstr
llunicode = annlowlevel_llunicode
hlunicode = annlowlevel_hlunicode
