"""rpy-lsp's low-level helpers of the `os` functions that build containers: the external
functions give flat values (a NUL-separated string of names or of the environment's
entries, one load average), these
helpers build the program's list or tuple of them. `LIST`, `ARRAY` and `TUPLE` are the
pointer types of the result, passed by the RTyper as constants."""
from __rpy__ import os_listdir_raw, os_loadavg_item, os_stat_int, os_stat_float
from __rpy__ import os_fstat_int, os_fstat_float, os_pipe_raw, os_waitpid_raw
from __rpy__ import os_environ_raw, os_times_item
from rpython.rtyper.lltypesystem.lltype import malloc, typeOf
from rpython.rtyper.annlowlevel import llstr, hlstr
from rpython.rlib.objectmodel import specialize


def _names(path):
    # the directory's names, each followed by a NUL (OSError when it cannot be read)
    return os_listdir_raw(hlstr(path))


@specialize.ll()
def _fill(items, raw, n):
    start = 0
    k = 0
    i = 0
    while k < n:
        if raw[i] == '\x00':
            items[k] = llstr(raw[start:i])
            k += 1
            start = i + 1
        i += 1


@specialize.ll()
def ll_listdir(LIST, path):
    """`os.listdir(path)` as a resizable list."""
    raw = _names(path)
    n = raw.count('\x00')
    lst = malloc(LIST.TO)
    items = malloc(LIST.TO.items.TO, n)
    _fill(items, raw, n)
    lst.length = n
    lst.items = items
    return lst


@specialize.ll()
def ll_listdir_fixed(ARRAY, path):
    """`os.listdir(path)` as a list never resized (an array)."""
    raw = _names(path)
    n = raw.count('\x00')
    items = malloc(ARRAY.TO, n)
    _fill(items, raw, n)
    return items


@specialize.ll()
def ll_getloadavg(TUPLE):
    t = malloc(TUPLE.TO)
    t.item0 = os_loadavg_item(0)
    t.item1 = os_loadavg_item(1)
    t.item2 = os_loadavg_item(2)
    return t


@specialize.ll()
def ll_times(TUPLE):
    t = malloc(TUPLE.TO)
    t.item0 = os_times_item(0)
    t.item1 = os_times_item(1)
    t.item2 = os_times_item(2)
    t.item3 = os_times_item(3)
    t.item4 = os_times_item(4)
    return t


@specialize.ll()
def ll_pipe(TUPLE):
    """`os.pipe()`: the external gives both descriptors in one int (read << 32 | write)."""
    fds = os_pipe_raw()
    t = malloc(TUPLE.TO)
    t.item0 = fds >> 32
    t.item1 = fds & 0xffffffff
    return t


@specialize.ll()
def ll_waitpid(TUPLE, pid, options):
    """`os.waitpid(pid, options)`: the external gives the pid and the status in one int
    (pid << 32 | status; a status has 16 bits)."""
    r = os_waitpid_raw(pid, options)
    t = malloc(TUPLE.TO)
    t.item0 = r >> 32
    t.item1 = r & 0xffffffff
    return t


@specialize.ll()
def ll_stat_fields(TUPLE, path):
    """`os.stat(path)` as the tuple `stat_result` is built from: seven integer fields,
    then the three times."""
    p = hlstr(path)
    t = malloc(TUPLE.TO)
    t.item0 = os_stat_int(p, 0)
    t.item1 = os_stat_int(p, 1)
    t.item2 = os_stat_int(p, 2)
    t.item3 = os_stat_int(p, 3)
    t.item4 = os_stat_int(p, 4)
    t.item5 = os_stat_int(p, 5)
    t.item6 = os_stat_int(p, 6)
    t.item7 = os_stat_float(p, 7)
    t.item8 = os_stat_float(p, 8)
    t.item9 = os_stat_float(p, 9)
    return t


# added to a field's number for the fields of a symbolic link itself (`os.lstat`)
STAT_NOFOLLOW = 16


@specialize.ll()
def ll_lstat_fields(TUPLE, path):
    """`os.lstat(path)`, numbered as `ll_stat_fields`."""
    p = hlstr(path)
    t = malloc(TUPLE.TO)
    t.item0 = os_stat_int(p, STAT_NOFOLLOW + 0)
    t.item1 = os_stat_int(p, STAT_NOFOLLOW + 1)
    t.item2 = os_stat_int(p, STAT_NOFOLLOW + 2)
    t.item3 = os_stat_int(p, STAT_NOFOLLOW + 3)
    t.item4 = os_stat_int(p, STAT_NOFOLLOW + 4)
    t.item5 = os_stat_int(p, STAT_NOFOLLOW + 5)
    t.item6 = os_stat_int(p, STAT_NOFOLLOW + 6)
    t.item7 = os_stat_float(p, STAT_NOFOLLOW + 7)
    t.item8 = os_stat_float(p, STAT_NOFOLLOW + 8)
    t.item9 = os_stat_float(p, STAT_NOFOLLOW + 9)
    return t


@specialize.ll()
def ll_fstat_fields(TUPLE, fd):
    """`os.fstat(fd)`, numbered as `ll_stat_fields`."""
    t = malloc(TUPLE.TO)
    t.item0 = os_fstat_int(fd, 0)
    t.item1 = os_fstat_int(fd, 1)
    t.item2 = os_fstat_int(fd, 2)
    t.item3 = os_fstat_int(fd, 3)
    t.item4 = os_fstat_int(fd, 4)
    t.item5 = os_fstat_int(fd, 5)
    t.item6 = os_fstat_int(fd, 6)
    t.item7 = os_fstat_float(fd, 7)
    t.item8 = os_fstat_float(fd, 8)
    t.item9 = os_fstat_float(fd, 9)
    return t


# ---- os.environ.keys() and items(): the environment when they are called, in its order

@specialize.ll()
def _env_fill(items, raw, n, with_values):
    # each `name=value` entry (followed by a NUL) as its name, or a (name, value) tuple
    start = 0
    k = 0
    i = 0
    while k < n:
        if raw[i] == '\x00':
            eq = raw.find('=', start, i)
            assert eq >= 0
            if with_values:
                t = malloc(typeOf(items).TO.OF.TO)
                t.item0 = llstr(raw[start:eq])
                t.item1 = llstr(raw[eq + 1:i])
                items[k] = t
            else:
                items[k] = llstr(raw[start:eq])
            k += 1
            start = i + 1
        i += 1


@specialize.ll()
def _env_array(ARRAY, with_values):
    raw = os_environ_raw()
    n = raw.count('\x00')
    items = malloc(ARRAY, n)
    _env_fill(items, raw, n, with_values)
    return items


@specialize.ll()
def _env_list(LIST, with_values):
    items = _env_array(LIST.TO.items.TO, with_values)
    lst = malloc(LIST.TO)
    lst.length = len(items)
    lst.items = items
    return lst


@specialize.ll()
def ll_environ_keys(LIST):
    return _env_list(LIST, False)


@specialize.ll()
def ll_environ_keys_fixed(ARRAY):
    return _env_array(ARRAY.TO, False)


@specialize.ll()
def ll_environ_items(LIST):
    return _env_list(LIST, True)


@specialize.ll()
def ll_environ_items_fixed(ARRAY):
    return _env_array(ARRAY.TO, True)
