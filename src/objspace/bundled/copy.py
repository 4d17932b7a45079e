"""rpy-lsp's model of the `copy` module, for code that runs at import time: shallow and
deep copies of the built-in containers and of instances (their __dict__)."""


class Error(Exception):
    pass


error = Error


def _copy_instance(x, memo, deep):
    cls = type(x)
    y = object.__new__(cls)
    if memo is not None:
        memo[id(x)] = y
    for k, v in x.__dict__.items():
        if deep:
            v = deepcopy(v, memo)
        setattr(y, k, v)
    return y


def copy(x):
    if hasattr(x, '__copy__'):
        return x.__copy__()
    if isinstance(x, list):
        return x[:]
    if isinstance(x, dict):
        return dict(x)
    if isinstance(x, (int, long, float, bool, str, unicode, tuple, type)) or x is None:
        return x
    if hasattr(x, '__dict__') and not callable(x):
        return _copy_instance(x, None, False)
    return x


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    key = id(x)
    if key in memo:
        return memo[key]
    if hasattr(x, '__deepcopy__'):
        y = x.__deepcopy__(memo)
    elif isinstance(x, list):
        y = []
        memo[key] = y
        for item in x:
            y.append(deepcopy(item, memo))
    elif isinstance(x, dict):
        y = {}
        memo[key] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
    elif isinstance(x, tuple):
        y = tuple([deepcopy(item, memo) for item in x])
    elif isinstance(x, (int, long, float, bool, str, unicode, type)) or x is None:
        y = x
    elif hasattr(x, '__dict__') and not callable(x):
        y = _copy_instance(x, memo, True)
    else:
        y = x
    memo[key] = y
    return y
