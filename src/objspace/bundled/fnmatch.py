"""rpy-lsp's model of the `fnmatch` module: shell patterns (`*`, `?`, `[...]`) matched
directly, for code that runs at import time."""


def _match(name, pat, i, j):
    while j < len(pat):
        c = pat[j]
        if c == '*':
            while j < len(pat) and pat[j] == '*':
                j += 1
            if j == len(pat):
                return True
            k = i
            while k <= len(name):
                if _match(name, pat, k, j):
                    return True
                k += 1
            return False
        if i >= len(name):
            return False
        if c == '?':
            i += 1
            j += 1
        elif c == '[':
            end = pat.find(']', j + 2)
            if end < 0:
                if name[i] != '[':
                    return False
                i += 1
                j += 1
                continue
            chars = pat[j + 1:end]
            negate = chars.startswith('!')
            if negate:
                chars = chars[1:]
            found = False
            k = 0
            while k < len(chars):
                if k + 2 < len(chars) and chars[k + 1] == '-':
                    if chars[k] <= name[i] <= chars[k + 2]:
                        found = True
                    k += 3
                else:
                    if chars[k] == name[i]:
                        found = True
                    k += 1
            if found == negate:
                return False
            i += 1
            j = end + 1
        else:
            if name[i] != c:
                return False
            i += 1
            j += 1
    return i == len(name)


def fnmatchcase(name, pat):
    return _match(name, pat, 0, 0)


def fnmatch(name, pat):
    return fnmatchcase(name, pat)


def filter(names, pat):
    return [n for n in names if fnmatchcase(n, pat)]
