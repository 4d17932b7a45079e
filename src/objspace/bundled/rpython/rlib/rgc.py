"""rpy-lsp's model of `rpython.rlib.rgc`, written in RPython: the hints and queries a
program gives the garbage collector. Without a GC of its own to talk to, a model only
needs their signatures: pinning does nothing, objects never move. `collect` is the
collector's (what it frees shows in weak references).
"""
from __rpy__ import rgc_ll_arraycopy, rgc_collect

# functions of newer rpythons that 0.2.1's rgc lacks: using one is an error there
_rpy_absent_ = (
    "disable", "enable", "isenabled", "collect_step", "increase_root_stack_depth",
    # `get_stats(what)` and the statistics it reads
    "get_stats", "TOTAL_GC_TIME", "TOTAL_MEMORY", "TOTAL_ALLOCATED_MEMORY",
    "TOTAL_MEMORY_PRESSURE", "PEAK_MEMORY", "PEAK_ALLOCATED_MEMORY", "TOTAL_ARENA_MEMORY",
    "TOTAL_RAWMALLOCED_MEMORY", "PEAK_ARENA_MEMORY", "PEAK_RAWMALLOCED_MEMORY",
    "NURSERY_SIZE",
)

# `ll_arraycopy(source, dest, source_start, dest_start, length)`: copies `length` items
# between two low-level arrays (GcArrays, or the inlined array of a structure such as a
# string's `chars`) of the same item type; the ranges may overlap. The `arraycopy`
# low-level operation (a memmove with the GC's write barrier in compiled code).
ll_arraycopy = rgc_ll_arraycopy


# `collect()`: a full collection; weak references to the objects it frees die.
collect = rgc_collect


def set_max_heap_size(nbytes):
    pass


def pin(obj):
    return False


def unpin(obj):
    pass


def _is_pinned(obj):
    return False


def can_move(p):
    return False


def _make_sure_does_not_move(p):
    pass


def needs_write_barrier(obj):
    return False


def may_ignore_finalizer(obj):
    pass


def move_out_of_nursery(obj):
    return obj


def no_release_gil(func):
    func._no_release_gil_ = True
    return func


def no_collect(func):
    func._dont_inline_ = True
    func._gc_no_collect_ = True
    return func


def must_be_light_finalizer(func):
    func._must_be_light_finalizer_ = True
    return func


class FinalizerQueue(object):
    """Subclasses set `Class` and define `finalizer_trigger`; registered objects are never
    reported dead, as no collection happens here."""

    def _freeze_(self):
        return True

    def next_dead(self):
        return None

    def register_finalizer(self, obj):
        pass
