"""rpy-lsp's model of the `collections` module: `OrderedDict` (a primitive: a dict, as
every dict keeps its insertion order), which the reference lets RPython code create.
Other names are unknown."""
from __rpy__ import collections_OrderedDict

OrderedDict = collections_OrderedDict
