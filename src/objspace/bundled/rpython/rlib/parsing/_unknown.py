"""Import-time guards for inputs rpy-lsp does not know (a grammar or a source read from a
file, which the model does not read): the parsing functions then give an unknown value,
with one warning, instead of running over it. An unknown value iterates as empty; a
known one with one more item does not. Translated, every input is known."""

from rpython.rlib.objectmodel import we_are_translated
from __rpy__ import model_unknown


def known_text(text):
    if we_are_translated():
        return True
    for char in (text + "x")[-1:]:
        return True
    return False


def known_list(items):
    if we_are_translated():
        return True
    if not isinstance(items, list):
        return True
    for item in (items + [None])[-1:]:
        return True
    return False


def unknown(what):
    """An unknown value, with one warning naming what."""
    return model_unknown(what)


def known_object(value):
    """For a tree node: an attribute read on an unknown value is unknown."""
    if we_are_translated():
        return True
    probe = getattr(value, "symbol", "")
    if not isinstance(probe, str):
        return True
    return known_text(probe)
