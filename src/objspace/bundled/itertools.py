"""rpy-lsp's model of the `itertools` module, for code that runs at import time (lists
where Python gives iterators, which loops and list() treat alike)."""


def chain(*iterables):
    result = []
    for it in iterables:
        for x in it:
            result.append(x)
    return iter(result)


def _from_iterable(iterables):
    return chain(*list(iterables))


chain.from_iterable = _from_iterable


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def repeat(obj, times=None):
    if times is None:
        while True:
            yield obj
    for i in range(times):
        yield obj


def islice(iterable, *args):
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    else:
        start, stop = args[0], args[1]
        step = args[2] if len(args) > 2 else 1
    result = []
    for i, x in enumerate(iterable):
        if stop is not None and i >= stop:
            break
        if i >= start and (i - start) % step == 0:
            result.append(x)
    return iter(result)


def izip(*iterables):
    return iter(zip(*iterables))


def product(*iterables, **kw):
    pools = [list(p) for p in iterables] * kw.get('repeat', 1)
    result = [[]]
    for pool in pools:
        result = [x + [y] for x in result for y in pool]
    return iter([tuple(r) for r in result])


def permutations(iterable, r=None):
    pool = list(iterable)
    n = len(pool)
    if r is None:
        r = n
    result = []

    def rec(prefix, rest):
        if len(prefix) == r:
            result.append(tuple(prefix))
            return
        for i in range(len(rest)):
            rec(prefix + [rest[i]], rest[:i] + rest[i + 1:])
    rec([], pool)
    return iter(result)


def combinations(iterable, r):
    pool = list(iterable)
    result = []

    def rec(start, prefix):
        if len(prefix) == r:
            result.append(tuple(prefix))
            return
        for i in range(start, len(pool)):
            rec(i + 1, prefix + [pool[i]])
    rec(0, [])
    return iter(result)


def groupby(iterable, key=None):
    result = []
    for x in iterable:
        k = x if key is None else key(x)
        if result and result[-1][0] == k:
            result[-1][1].append(x)
        else:
            result.append((k, [x]))
    return iter([(k, iter(g)) for k, g in result])


def takewhile(predicate, iterable):
    result = []
    for x in iterable:
        if not predicate(x):
            break
        result.append(x)
    return iter(result)


def dropwhile(predicate, iterable):
    result = []
    dropping = True
    for x in iterable:
        if dropping and predicate(x):
            continue
        dropping = False
        result.append(x)
    return iter(result)
