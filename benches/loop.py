# A loop-heavy program for the LLInterpreter benchmark: integer arithmetic, a list, a
# method call per iteration.
class Acc(object):
    def __init__(self):
        self.total = 0

    def add(self, x):
        self.total += x & 1023


def entry_point(argv):
    n = 3000000
    acc = Acc()
    data = [0] * 64
    i = 0
    while i < n:
        j = i & 63
        data[j] = data[j] + i
        acc.add(data[j] ^ i)
        i += 1
    print acc.total
    return 0


def target(*args):
    return entry_point, None
