"""rpy-lsp's model of `rpython.rlib.objectmodel`.

Decorators set the same function attributes as the reference (`_annspecialcase_`,
`_not_rpython_`, `_always_inline_`, `_annenforceargs_`…); the primitives are builtins
named `objectmodel.<name>`.
"""
from __rpy__ import objectmodel_we_are_translated, objectmodel_compute_hash
from __rpy__ import objectmodel_compute_identity_hash, objectmodel_compute_unique_id
from __rpy__ import objectmodel_current_object_addr_as_int, objectmodel_instantiate
from __rpy__ import objectmodel_import_from_mixin, objectmodel_newlist_hint
from __rpy__ import objectmodel_keepalive_until_here, objectmodel_resizelist_hint
from __rpy__ import objectmodel_func_with_new_name, objectmodel_hlinvoke
from __rpy__ import objectmodel_r_dict_store as _r_dict_store
from __rpy__ import objectmodel_r_dict_delete as _r_dict_delete
from __rpy__ import objectmodel_r_dict_find as _r_dict_find
from __rpy__ import objectmodel_dict_keyhash as _dict_keyhash
from collections import OrderedDict

# names of newer rpythons that 0.2.1's module lacks: `objectmodel.<name>` is an error there
_rpy_absent_ = ("mark_dict_non_null", "running_on_llinterp", "never_allocate")

we_are_translated = objectmodel_we_are_translated
compute_hash = objectmodel_compute_hash
compute_identity_hash = objectmodel_compute_identity_hash
compute_unique_id = objectmodel_compute_unique_id
current_object_addr_as_int = objectmodel_current_object_addr_as_int
instantiate = objectmodel_instantiate
import_from_mixin = objectmodel_import_from_mixin
# only a library's low-level helper calls it (rply's lexer rules): see rmodel
hlinvoke = objectmodel_hlinvoke
newlist_hint = objectmodel_newlist_hint
keepalive_until_here = objectmodel_keepalive_until_here
resizelist_hint = objectmodel_resizelist_hint
func_with_new_name = objectmodel_func_with_new_name


class _Specialize(object):
    """`specialize.xxx(...)` decorator factories: they set `func._annspecialcase_`."""

    def memo(self):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:memo'
            return func
        return decorated_func

    def arg(self, *args):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:arg' + self._wrap(args)
            return func
        return decorated_func

    def arg_or_var(self, *args):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:arg_or_var' + self._wrap(args)
            return func
        return decorated_func

    def argtype(self, *args):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:argtype' + self._wrap(args)
            return func
        return decorated_func

    def ll(self):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:ll'
            return func
        return decorated_func

    def ll_and_arg(self, *args):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:ll_and_arg' + self._wrap(args)
            return func
        return decorated_func

    def call_location(self):
        def decorated_func(func):
            func._annspecialcase_ = 'specialize:call_location'
            return func
        return decorated_func

    def _wrap(self, args):
        return "(" + ','.join([repr(arg) for arg in args]) + ")"


specialize = _Specialize()


def not_rpython(func):
    """The function is not RPython: it runs only at import time."""
    func._not_rpython_ = True
    return func


def always_inline(func):
    func._always_inline_ = True
    return func


def try_inline(func):
    func._always_inline_ = 'try'
    return func


def dont_inline(func):
    func._dont_inline_ = True
    return func


def _rpy_argkinds(*kinds):
    """The kinds of a model function's arguments (a kind name of the annotator's
    `builtin_argkinds`, or None for any), which the annotator checks on every call as the
    reference's own checks of that function do."""
    def decorator(f):
        f._rpy_argkinds_ = kinds
        return f
    return decorator


def enforceargs(*types_, **kwds):
    """Records the expected argument types in `func._annenforceargs_`."""
    typecheck = kwds.pop('typecheck', True)

    def decorator(f):
        f._annenforceargs_ = types_
        return f
    return decorator


def never_allocate(cls):
    cls._must_be_never_allocated_ = True
    return cls


def likely(condition):
    return condition


def unlikely(condition):
    return condition


def mark_dict_non_null(d):
    pass


def prepare_dict_update(d, n_elements):
    pass


# The dict helpers below do what the reference's do on a translated dict (which keeps the
# insertion order); the hash arguments are not needed to find a key here.

@specialize.call_location()
def reversed_dict(d):
    """The keys of `d`, last inserted first."""
    return reversed(d.keys())


@specialize.call_location()
def iterkeys_with_hash(d):
    """(key, hash) pairs: an r_dict's hash is its own `key_hash`'s."""
    return iter([(k, _hash_in(d, k)) for k in d.keys()])


@specialize.call_location()
def iteritems_with_hash(d):
    """(key, value, hash) triples."""
    return iter([(k, v, _hash_in(d, k)) for (k, v) in d.items()])


@specialize.call_location()
def _hash_in(d, key):
    """The hash `d` keeps for `key`: at import time an r_dict is the class below; once
    annotated it is a dict whose own hash function the built-in calls."""
    if isinstance(d, r_dict):
        return d.key_hash(key)
    return _dict_keyhash(d, key)


@specialize.call_location()
def contains_with_hash(d, key, h):
    return key in d


@specialize.call_location()
def setitem_with_hash(d, key, h, value):
    d[key] = value


@specialize.call_location()
def getitem_with_hash(d, key, h):
    return d[key]


@specialize.call_location()
def delitem_with_hash(d, key, h):
    del d[key]


@specialize.call_location()
def delitem_if_value_is(d, key, value):
    """`if d.get(key) is value: del d[key]`."""
    if key in d and d[key] is value:
        del d[key]


@specialize.call_location()
def move_to_end(d, key, last=True):
    """Moves `key` to the end of the order of `d` (to its start if not `last`)."""
    value = d.pop(key)
    if last:
        d[key] = value
    else:
        items = d.items()
        d.clear()
        d[key] = value
        for k, v in items:
            d[k] = v


def fetch_translated_config():
    return None


def we_are_translated_to_c():
    return False


def is_annotation_constant(thing):
    return True


class Symbolic(object):
    def annotation(self):
        return None

    def lltype(self):
        return None


class ComputedIntSymbolic(Symbolic):
    def __init__(self, compute_fn):
        self.compute_fn = compute_fn


class CDefinedIntSymbolic(Symbolic):
    def __init__(self, expr, default=0):
        self.expr = expr
        self.default = default


malloc_zero_filled = CDefinedIntSymbolic('MALLOC_ZERO_FILLED', default=0)
running_on_llinterp = CDefinedIntSymbolic('RUNNING_ON_LLINTERP', default=1)


class r_dict(object):
    """A dict whose keys are compared with `key_eq` and hashed with `key_hash`.

    As the reference's, whose dict holds `_r_dictkey`s hashing as `key_hash` says: the
    entries live in a dict, `_dict`, each under its own number and stored with the hash of
    its key (`r_dict_store`), so that the dict's table, and the order import-time code and
    the prebuilt value see, are CPython's for those hashes. Each entry is [key, value,
    hash]; a key is found by walking that table as CPython does (`r_dict_find`, calling
    `key_eq` on each entry of equal hash it meets), or, when its order is unknown, among
    the entries of its hash (`_by_hash`)."""

    def _newdict(self):
        return {}

    def __init__(self, key_eq, key_hash, force_non_null=False, simple_hash_eq=False):
        self.key_eq = key_eq
        self.key_hash = key_hash
        self._dict = self._newdict()
        self._by_hash = {}
        self._count = 0

    def _find(self, key, h):
        # CPython's probe sequence, calling key_eq as often as the reference's dict does
        n = _r_dict_find(self._dict, h, key, self.key_eq)
        if n != -2:
            return n
        # the table's order is unknown (an r_ordereddict): the entries of equal hash
        for n in self._by_hash.get(h, ()):
            if self.key_eq(self._dict[n][0], key):
                return n
        return -1

    def _forget(self, n, h):
        self._by_hash[h].remove(n)

    def __getitem__(self, key):
        n = self._find(key, self.key_hash(key))
        if n < 0:
            raise KeyError(key)
        return self._dict[n][1]

    def __setitem__(self, key, value):
        h = self.key_hash(key)
        n = self._find(key, h)
        if n < 0:
            self._add(key, h, value)
        else:
            self._dict[n][1] = value

    def _add(self, key, h, value):
        _r_dict_store(self._dict, self._count, h, [key, value, h])
        self._by_hash.setdefault(h, []).append(self._count)
        self._count += 1

    def __delitem__(self, key):
        h = self.key_hash(key)
        n = self._find(key, h)
        if n < 0:
            raise KeyError(key)
        _r_dict_delete(self._dict, n, h)
        self._forget(n, h)

    def __contains__(self, key):
        return self._find(key, self.key_hash(key)) >= 0

    def __len__(self):
        return len(self._dict)

    def __iter__(self):
        return iter(self.keys())

    def get(self, key, default):
        n = self._find(key, self.key_hash(key))
        if n < 0:
            return default
        return self._dict[n][1]

    def setdefault(self, key, default):
        # one hash and one lookup, as the reference's dict.setdefault
        h = self.key_hash(key)
        n = self._find(key, h)
        if n < 0:
            self._add(key, h, default)
            return default
        return self._dict[n][1]

    def pop(self, key, *default):
        h = self.key_hash(key)
        n = self._find(key, h)
        if n < 0:
            if default:
                return default[0]
            raise KeyError(key)
        value = self._dict[n][1]
        _r_dict_delete(self._dict, n, h)
        self._forget(n, h)
        return value

    def popitem(self):
        n, entry = self._dict.popitem()
        self._forget(n, entry[2])
        return entry[0], entry[1]

    def keys(self):
        return [entry[0] for entry in self._dict.values()]

    def values(self):
        return [entry[1] for entry in self._dict.values()]

    def items(self):
        return [(entry[0], entry[1]) for entry in self._dict.values()]

    def iterkeys(self):
        return iter(self.keys())

    def itervalues(self):
        return iter(self.values())

    def iteritems(self):
        return iter(self.items())

    def clear(self):
        self._dict.clear()
        self._by_hash = {}

    def copy(self):
        result = self.__class__(self.key_eq, self.key_hash)
        result.update(self)
        return result

    def update(self, other):
        for key, value in other.items():
            self[key] = value


class r_ordereddict(r_dict):
    """An r_dict that keeps the insertion order (as the reference's, an OrderedDict)."""

    def _newdict(self):
        return OrderedDict()
