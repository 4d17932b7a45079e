# Flow-level violations rpy-lsp reports, each at its line.
COUNTER = 0


def bump():
    global COUNTER
    COUNTER = COUNTER + 1       # RPY102: module globals are constants


def every_other(items):
    return items[::2]           # RPY107: no extended slicing


def entry_point(argv):
    bump()
    return len(every_other(argv))


def target(*args):
    return entry_point, None
