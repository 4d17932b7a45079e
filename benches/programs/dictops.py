# Dict-heavy work for benches/dicts.sh: integer and string keys inserted, looked up,
# deleted (order kept after deletes), iterated, and the dict methods; prints a checksum.
import os


def int_keys(n):
    d = {}
    for i in range(n):
        d[i * 7 + 1] = i
    s = 0
    for i in range(0, n, 3):
        del d[i * 7 + 1]
    for i in range(n):
        s += d.get(i * 7 + 1, -1)
        if (i * 7 + 1) in d:
            s += 1
    for k, v in d.iteritems():
        s += k - v
    return s + len(d)


def str_keys(words):
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    total = 0
    for w in counts.keys():
        total += counts[w] * len(w)
    for w in words[:20]:
        counts.pop(w, 0)
    c = counts.copy()
    c.update(counts)
    total += len(c)
    while len(c) > 0:
        k, v = c.popitem()
        total += v
    return total


def entry_point(argv):
    rounds = int(argv[1]) if len(argv) > 1 else 100
    words = []
    for i in range(500):
        words.append('w%d' % (i * 37 % 211))
    s = 0
    for r in range(rounds):
        s += int_keys(300 + r % 7)
        s += str_keys(words)
    os.write(1, '%d\n' % s)
    return 0


def target(*args):
    return entry_point, None
