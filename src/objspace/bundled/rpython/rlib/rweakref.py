"""rpy-lsp's model of `rpython.rlib.rweakref`: `ref` is `weakref.ref`, and `dead_ref` a
prebuilt weak reference whose object is gone (calling it gives None; it joins the weak
references to any class). The weak dictionaries (`RWeakValueDictionary`,
`RWeakKeyDictionary`) are not modelled yet.
"""
import weakref
from __rpy__ import rweakref_dead_ref

ref = weakref.ref

dead_ref = rweakref_dead_ref


def has_weakref_support():
    return True
