"""rpy-lsp's low-level helpers of dicts (see ll_str.py for how they are used): the
insertion-ordered `dict {num_live, num_used, entries, indexes}` of rtyper/rmodel.rs."""
from rpython.rlib.objectmodel import specialize


@specialize.ll()
def ll_dict_is_true(d):
    return bool(d) and d.num_live > 0
