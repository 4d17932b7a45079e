"""rpy-lsp's model of the standard `weakref` module as RPython knows it: only `ref`, a weak
reference to an instance (calling it gives the instance, or None once the garbage
collector has freed it).
"""
from __rpy__ import weakref_ref

ref = weakref_ref
