"""rpy-lsp's model of `rpython.rlib.rweakref`: `ref` is `weakref.ref`, and `dead_ref` a
prebuilt weak reference whose object is gone (calling it gives None; it joins the weak
references to any class). `RWeakValueDictionary(keyclass, valueclass)` and
`RWeakKeyDictionary(keyclass, valueclass)` are built-ins (their methods `get`, `set`,
and `length` for the second); one made at import time (a prebuilt one): see
`objspace::weakdicts` (value dictionaries work at import time, key ones start empty).
"""
import weakref
from __rpy__ import rweakref_dead_ref, rweakref_RWeakValueDictionary, rweakref_RWeakKeyDictionary

ref = weakref.ref

dead_ref = rweakref_dead_ref


def has_weakref_support():
    return True


RWeakValueDictionary = rweakref_RWeakValueDictionary
RWeakKeyDictionary = rweakref_RWeakKeyDictionary
